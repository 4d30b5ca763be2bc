//! `yinsh-pbem replay` end to end: hand-checked transcripts under
//! `tests/data/transcripts/` that end in each way a game can end, played by the real
//! binary, plus the failures (illegal turn, unreadable turn, unreadable file).
//!
//! The finished games were found by the search in `search.rs`
//! (`cargo test --test it find_transcripts -- --ignored` writes them again): seeded
//! random games, classified by how they end. The illegal and unreadable transcripts
//! are written by hand. Random play never ends with both sides blocked (a beam search
//! that walls rings in came no closer than one free ring when the pool ran out), so
//! the two both-blocked transcripts were built: every line from each final ring
//! position filled with markers, each ring walking there one step at a time (their
//! headers say how).

use std::process::Output;

use serde_json::{Value, json};
use yinsh_pbem::notation::render::{SideNames, render};
use yinsh_pbem::notation::{Part, auto_pass_due, parse_turn, play_turn};
use yinsh_pbem::rules::{Action, Color, Game, Variant};

use crate::support::bin;
use crate::support::data::{fixture_tokens, transcripts_dir};

mod search; // the seeded search that found the transcripts (ignored tests)

fn run(args: &[&str], stdin: &str) -> Output {
    bin::assert_command()
        .arg("replay")
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap()
}

/// Replay a fixture with `--json`: it must succeed and print exactly one JSON object.
fn summary(file: &str, blitz: bool) -> Value {
    let path = transcripts_dir().join(file);
    let path = path.to_str().unwrap();
    let args: Vec<&str> = if blitz {
        vec!["--blitz", "--json", path]
    } else {
        vec!["--json", path]
    };
    let out = run(&args, "");
    assert!(
        out.status.success(),
        "{file}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{file}: {text}");
    serde_json::from_str(&text).unwrap()
}

/// Play tokens in-process (forced passes played as the replay does).
fn play_tokens(variant: Variant, tokens: &[String]) -> Game {
    let mut g = Game::new(variant);
    for t in tokens {
        if auto_pass_due(&g) && t != "--" {
            g.play(Action::Pass).unwrap();
        }
        play_turn(&mut g, t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    g
}

/// The board output: exit 0, the drawing `render` makes of the same transcript played
/// in-process (with the forced pass the replay plays at the end), and `status` in its
/// status block (wrapped lines joined).
fn board_prints(file: &str, blitz: bool, status: &str) {
    let path = transcripts_dir().join(file);
    let mut args = vec![path.to_str().unwrap()];
    if blitz {
        args.insert(0, "--blitz");
    }
    let out = run(&args, "");
    assert!(out.status.success(), "{file}");
    let variant = if blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    };
    let mut game = play_tokens(variant, &fixture_tokens(file));
    if auto_pass_due(&game) {
        game.play(Action::Pass).unwrap();
    }
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text, render(&game, &SideNames::default()), "{file}");
    assert!(text.replace("\n  ", " ").contains(status), "{file}: {text}");
}

#[test]
fn a_normal_game_won_by_rings_section_3_rule_5() {
    assert_eq!(
        summary("rings-win.txt", false),
        json!({
            "status": "won",
            "winner": "black",
            "end_reason": "rings_removed",
            "rings_removed": {"white": 0, "black": 3},
            "markers_on_board": 33,
            "markers_in_pool": 18,
            "turns": 58,
            "to_move": null,
        })
    );
    board_prints(
        "rings-win.txt",
        false,
        "Game over: Black wins by removing 3 rings",
    );
}

#[test]
fn a_blitz_game_won_by_the_first_ring_section_4() {
    assert_eq!(
        summary("blitz-win.txt", true),
        json!({
            "status": "won",
            "winner": "white",
            "end_reason": "rings_removed",
            "rings_removed": {"white": 1, "black": 0},
            "markers_on_board": 40,
            "markers_in_pool": 11,
            "turns": 55,
            "to_move": null,
        })
    );
    board_prints(
        "blitz-win.txt",
        true,
        "Game over: White wins by removing 1 ring",
    );
    // Without --blitz the same transcript is a game still going on.
    assert_eq!(summary("blitz-win.txt", false)["status"], "in_progress");
}

#[test]
fn a_win_by_removals_at_the_start_of_a_turn_section_3_rule_6() {
    assert_eq!(
        summary("start-of-turn-win.txt", false),
        json!({
            "status": "won",
            "winner": "black",
            "end_reason": "rings_removed",
            "rings_removed": {"white": 2, "black": 3},
            "markers_on_board": 42,
            "markers_in_pool": 9,
            "turns": 78,
            "to_move": null,
        })
    );
    board_prints(
        "start-of-turn-win.txt",
        false,
        "Game over: Black wins by removing 3 rings",
    );
    let tokens = fixture_tokens("start-of-turn-win.txt");
    let (last, rest) = tokens.split_last().unwrap();
    let before = play_tokens(Variant::Normal, rest);
    assert_eq!(before.removing_after_own_move(), Some(false));
    let parts = parse_turn(last).unwrap().parts;
    assert!(
        parts.iter().all(|p| matches!(p, Part::Removal { .. })),
        "{last}"
    );
}

#[test]
fn both_rows_in_one_move_and_the_mover_wins_first_section_3_rule_5() {
    assert_eq!(
        summary("both-rows-mover-wins.txt", false),
        json!({
            "status": "won",
            "winner": "white",
            "end_reason": "rings_removed",
            "rings_removed": {"white": 3, "black": 0},
            "markers_on_board": 42,
            "markers_in_pool": 9,
            "turns": 67,
            "to_move": null,
        })
    );
    board_prints(
        "both-rows-mover-wins.txt",
        false,
        "Game over: White wins by removing 3 rings",
    );
    let tokens = fixture_tokens("both-rows-mover-wins.txt");
    let (last, rest) = tokens.split_last().unwrap();
    let mut g = play_tokens(Variant::Normal, rest);
    assert_eq!(g.to_act(), Some(Color::White));
    let actions = parse_turn(last).unwrap().resolve(&g).unwrap();
    assert!(matches!(actions[0], Action::Move { .. }), "{last}");
    g.play(actions[0]).unwrap();
    assert!(g.row_count(Color::White) > 0 && g.row_count(Color::Black) > 0);
}

#[test]
fn markers_exhausted_with_a_winner_section_4() {
    assert_eq!(
        summary("markers-exhausted-win.txt", false),
        json!({
            "status": "won",
            "winner": "black",
            "end_reason": "markers_exhausted",
            "rings_removed": {"white": 0, "black": 1},
            "markers_on_board": 51,
            "markers_in_pool": 0,
            "turns": 66,
            "to_move": null,
        })
    );
    board_prints(
        "markers-exhausted-win.txt",
        false,
        "Game over: the marker pool is empty; Black wins on rings removed, 1 to 0",
    );
}

#[test]
fn markers_exhausted_with_a_draw_section_4() {
    assert_eq!(
        summary("markers-exhausted-draw.txt", false),
        json!({
            "status": "draw",
            "winner": null,
            "end_reason": "markers_exhausted",
            "rings_removed": {"white": 0, "black": 0},
            "markers_on_board": 51,
            "markers_in_pool": 0,
            "turns": 61,
            "to_move": null,
        })
    );
    board_prints(
        "markers-exhausted-draw.txt",
        false,
        "Game over: the marker pool is empty; a draw on rings removed, 0 each",
    );
}

/// Both transcripts end with both sides blocked while markers remain in the pool, so
/// the ending cannot be mistaken for exhaustion; the last turn is an ordinary move.
fn both_blocked(file: &str) {
    let tokens = fixture_tokens(file);
    let (last, rest) = tokens.split_last().unwrap();
    let before = play_tokens(Variant::Normal, rest);
    assert!(!before.is_over(), "{file}: over before its last turn");
    assert!(before.has_ring_move(Color::Black), "{file}");
    let after = play_tokens(Variant::Normal, &tokens);
    assert!(!after.has_ring_move(Color::White), "{file}: {last}");
    assert!(!after.has_ring_move(Color::Black), "{file}: {last}");
    assert!(after.markers_in_pool() > 0, "{file}");
}

#[test]
fn both_sides_blocked_with_a_draw_section_4() {
    assert_eq!(
        summary("both-blocked-draw.txt", false),
        json!({
            "status": "draw",
            "winner": null,
            "end_reason": "both_blocked",
            "rings_removed": {"white": 0, "black": 0},
            "markers_on_board": 50,
            "markers_in_pool": 1,
            "turns": 60,
            "to_move": null,
        })
    );
    board_prints(
        "both-blocked-draw.txt",
        false,
        "Game over: neither side can move a ring; a draw on rings removed, 0 each",
    );
    both_blocked("both-blocked-draw.txt");
}

#[test]
fn both_sides_blocked_and_won_on_rings_removed_section_4() {
    assert_eq!(
        summary("both-blocked-win.txt", false),
        json!({
            "status": "won",
            "winner": "white",
            "end_reason": "both_blocked",
            "rings_removed": {"white": 1, "black": 0},
            "markers_on_board": 50,
            "markers_in_pool": 1,
            "turns": 65,
            "to_move": null,
        })
    );
    board_prints(
        "both-blocked-win.txt",
        false,
        "Game over: neither side can move a ring; White wins on rings removed, 1 to 0",
    );
    both_blocked("both-blocked-win.txt");
}

#[test]
fn a_game_in_progress() {
    assert_eq!(
        summary("in-progress.txt", false),
        json!({
            "status": "in_progress",
            "winner": null,
            "end_reason": null,
            "rings_removed": {"white": 0, "black": 0},
            "markers_on_board": 30,
            "markers_in_pool": 21,
            "turns": 40,
            "to_move": "white",
        })
    );
    board_prints(
        "in-progress.txt",
        false,
        "To move: White - move a ring; it leaves an o marker behind",
    );
}

#[test]
fn forced_passes_may_be_left_out_or_written_section_4() {
    let left_out = fixture_tokens("forced-passes.txt");
    let written = fixture_tokens("forced-passes-written.txt");
    assert!(!left_out.iter().any(|t| t == "--"));
    assert_eq!(written.iter().filter(|t| *t == "--").count(), 1);
    assert_eq!(written.len(), left_out.len() + 1);
    for file in ["forced-passes.txt", "forced-passes-written.txt"] {
        // The pass the replay plays by itself counts as a turn.
        assert_eq!(
            summary(file, false),
            json!({
                "status": "won",
                "winner": "white",
                "end_reason": "markers_exhausted",
                "rings_removed": {"white": 1, "black": 0},
                "markers_on_board": 51,
                "markers_in_pool": 0,
                "turns": 67,
                "to_move": null,
            }),
            "{file}"
        );
        board_prints(
            file,
            false,
            "Game over: the marker pool is empty; White wins on rings removed, 1 to 0",
        );
    }
}

#[test]
fn an_illegal_turn_stops_the_replay_with_its_number_and_reason() {
    let path = transcripts_dir().join("illegal-turn.txt");
    let out = run(&["--json", path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with(
            "turn 12 `e7-e3` (line 3): e7-e3 would jump the ring at e5; the ring at e7 can reach "
        ),
        "{err}"
    );
}

#[test]
fn a_turn_that_cannot_be_read_stops_the_replay_with_a_caret() {
    let path = transcripts_dir().join("parse-error.txt");
    let out = run(&[path.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "turn 12 `e7-z3` (line 4): at character 4 of `e7-z3`: z3 is not a point of the board \
         (the columns are a to k)\ne7-z3\n   ^\n"
    );
}

#[test]
fn an_unreadable_file_exits_1() {
    let out = run(&["/nonexistent/transcript.txt"], "");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.starts_with("cannot read the transcript /nonexistent/transcript.txt: "),
        "{err}"
    );
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("latin1.txt");
    std::fs::write(&bad, b"e5 \xe9").unwrap();
    assert_eq!(run(&[bad.to_str().unwrap()], "").status.code(), Some(1));
}

#[test]
fn stdin_comments_and_turn_numbers() {
    let out = run(
        &["--json"],
        "# White first\n  # indented comment\nE5#1\tf6 #2\n",
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "`#2` alone is a token, not a comment"
    );
    let out = run(
        &["--json"],
        "# White first\n  # indented comment\nE5#1\tf6#2\n\n",
    );
    assert!(out.status.success());
    let s: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(s["turns"], 2);
    assert_eq!(s["to_move"], "white");
    let out = run(&[], "e5#1 f6#3");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("turn 2 `f6#3` (line 1): it is written as turn #3 but it is turn #2"),
        "{err}"
    );
    let out = run(&[], "");
    assert!(out.status.success() && !out.stdout.is_empty());
}

#[test]
fn a_turn_after_the_end_is_refused() {
    let mut tokens = fixture_tokens("blitz-win.txt");
    tokens.push("e5".to_string());
    let out = run(&["--blitz"], &tokens.join(" "));
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.ends_with(": the game is over: White won\n"), "{err}");
}
