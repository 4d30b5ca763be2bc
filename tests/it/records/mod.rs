//! Every record of a game reads back to the same game, turn by turn (issue 46): the
//! transcript (`write_transcript` -> `play_transcript`, `read_transcript` as `export`
//! reads it), the SGF (`sgf::write` -> `sgf::read`, as `import` reads it), the site's
//! record made from the server's game file (`LiveGame::record`), the mail's move list
//! and the review's turns; over random games biased to the rare situations
//! (`games.rs`), counted so that each is known to occur, and over the 408 real
//! Boardspace games. Records written before a pass after owed removals was kept in its
//! turn (`xi4-i8xk7 --`) still read right, and `site` writes them again.

mod games;

use std::cell::RefCell;

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed, TestRunner};
use yinsh_pbem::notation::sgf::{self, Record, RecordEnd};
use yinsh_pbem::notation::{
    FinalPass, auto_pass_due, play_transcript, read_transcript, split_turns, write_transcript,
    write_turn,
};
use yinsh_pbem::rules::{Action, Color, EndReason, Game, Variant};
use yinsh_pbem::server::game::record::LiveGame;
use yinsh_pbem::server::game::review;
use yinsh_pbem::server::model::{self, BoardId, UserId};
use yinsh_pbem::server::text::reply::move_list;

use crate::boardspace::records;
use crate::support::bin;
use games::{Stop, Style, biased_game};

const NOW: u64 = 1_700_000_000;

/// The situations the records met, to prove the generator reaches them.
#[derive(Debug, Default)]
pub(crate) struct Seen {
    games: usize,
    blitz: usize,
    turns: usize,
    owed_first: usize,
    pass_after_removals: usize,
    forced_pass: usize,
    both_rows: usize,
    rings_removed: usize,
    last_marker: usize,
    both_blocked: usize,
    resigned: usize,
    resigned_mid_turn: usize,
    draw_agreed: usize,
    going_on: usize,
}

/// What a reader gives back of `record`: its turns (the last one left out when a
/// resignation or draw came in the middle of it: a transcript keeps it as a comment,
/// the server never has one), a forced pass due at the end played, as every reader
/// and the server play it; and whether a turn was left out.
fn read_back(record: &Record) -> (Vec<Vec<Action>>, bool) {
    let start = Game::new(record.variant);
    let turns = split_turns(&start, &record.actions).expect("a legal record");
    let mut game = start;
    for &a in &record.actions {
        game.play(a).expect("legal");
    }
    let last_side = record.actions.last().map(|_| {
        let mut g = start;
        let before_last: usize = turns[..turns.len() - 1].iter().map(Vec::len).sum();
        record.actions[..before_last]
            .iter()
            .for_each(|&a| g.play(a).expect("legal"));
        g.to_act()
    });
    let unfinished =
        !game.is_over() && !auto_pass_due(&game) && last_side.is_some_and(|s| s == game.to_act());
    let mut actions: Vec<Action> = if unfinished {
        turns[..turns.len() - 1].concat()
    } else {
        record.actions.clone()
    };
    let mut end = start;
    actions.iter().for_each(|&a| end.play(a).expect("legal"));
    if auto_pass_due(&end) {
        actions.push(Action::Pass);
    }
    (split_turns(&start, &actions).expect("legal"), unfinished)
}

/// The tokens (turns) of a transcript.
fn tokens(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect()
}

fn userid(s: &str) -> UserId {
    s.parse().expect("a userid")
}

/// The server's game of `turns` between alice and bob, each turn sent as written
/// (the forced passes the server plays itself left to it), ended as `ending` says.
fn live_game(variant: Variant, turns: &[Vec<Action>], ending: Option<RecordEnd>) -> LiveGame {
    let mut live = LiveGame::new(
        BoardId::from(46),
        variant,
        &userid("alice"),
        &userid("bob"),
        NOW,
    );
    for (k, turn) in turns.iter().enumerate() {
        if live.file().turns.len() > k {
            assert_eq!(
                turn,
                &[Action::Pass],
                "turn {} was played by the server",
                k + 1
            );
            continue;
        }
        let text = write_turn(turn);
        live.play(&text, NOW)
            .unwrap_or_else(|e| panic!("turn {} `{text}`: {e}", k + 1));
    }
    if let Some(end) = ending {
        let (reason, side) = match end {
            RecordEnd::Resigned(side) => (model::EndReason::Resigned, side),
            RecordEnd::DrawAgreed => (model::EndReason::DrawAgreed, Color::Black),
        };
        live.end(reason, side, NOW).expect("the game goes on");
    }
    live
}

/// The mail's move list read back: each turn's number, text and whether it says
/// (Auto).
fn mail_moves(live: &LiveGame) -> Vec<(u32, String, bool)> {
    let list = move_list(live, live.file().turns.len(), None);
    let mut out: Vec<(u32, String, bool)> = Vec::new();
    let mut number = None;
    for word in list.lines().skip(2).flat_map(str::split_whitespace) {
        match (number.take(), out.last_mut()) {
            (None, Some(last)) if word == "(Auto)" => last.2 = true,
            (None, _) => number = Some(word.parse().unwrap_or_else(|_| panic!("{word}\n{list}"))),
            (Some(n), _) => out.push((n, word.to_string(), false)),
        }
    }
    out
}

/// Check every writer and reader of `record` against each other.
pub(crate) fn check_record(record: &Record, seen: &mut Seen) {
    let variant = record.variant;
    let start = Game::new(variant);
    let (turns, unfinished) = read_back(record);
    let actions: Vec<Action> = turns.concat();
    let mut end = start;
    actions.iter().for_each(|&a| end.play(a).expect("legal"));
    let ending = record.ending.filter(|_| !end.is_over());
    let want = Record {
        actions: actions.clone(),
        ending,
        ..record.clone()
    };
    let label = format!("{:?} {:?}", record.date, record.ending);
    count(record, &turns, &end, unfinished, seen);

    // The transcript: one token a turn, read back to the same turns.
    let text = write_transcript(record);
    let played = play_transcript(variant, &text, FinalPass::Play)
        .unwrap_or_else(|e| panic!("{label}: {e}\n{text}"));
    assert_eq!(played.actions, actions, "{label}\n{text}");
    assert_eq!(played.turns as usize, turns.len(), "{label}\n{text}");
    let written: Vec<String> = turns.iter().map(|t| write_turn(t)).collect();
    let got = tokens(&text);
    assert_eq!(got[..], written[..got.len()], "{label}\n{text}");
    assert_eq!(text.contains("of an unfinished turn"), unfinished, "{text}");
    let back = read_transcript(variant, &text).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(back, want, "{label}\n{text}");
    // Each turn numbered as the move list numbers it reads the same.
    let numbered: Vec<String> = got
        .iter()
        .enumerate()
        .map(|(k, t)| format!("{t}#{}", k + 1))
        .collect();
    let again = play_transcript(variant, &numbered.join(" "), FinalPass::Play)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(again.actions, actions, "{label}");

    // The old writing, the pass after owed removals a token of its own, reads the same.
    let old: Vec<String> = got
        .iter()
        .map(|t| match t.strip_suffix(";--") {
            Some(removals) if t.starts_with('x') => format!("{removals} --"),
            _ => t.to_string(),
        })
        .collect();
    if old[..] != got[..] {
        let old = old.join(" ");
        let replayed = play_transcript(variant, &old, FinalPass::Play)
            .unwrap_or_else(|e| panic!("{label}: the old writing: {e}\n{old}"));
        assert_eq!(replayed.actions, actions, "{label}\n{old}");
        assert_eq!(replayed.turns, played.turns, "{label}\n{old}");
        // Numbered as the move list numbers them, the pass apart with its turn's number.
        let numbered: Vec<String> = got
            .iter()
            .enumerate()
            .map(|(k, t)| match t.strip_suffix(";--") {
                Some(removals) if t.starts_with('x') => format!("{removals}#{n} --#{n}", n = k + 1),
                _ => format!("{t}#{}", k + 1),
            })
            .collect();
        let numbered = numbered.join(" ");
        let replayed = play_transcript(variant, &numbered, FinalPass::Play)
            .unwrap_or_else(|e| panic!("{label}: the old writing numbered: {e}\n{numbered}"));
        assert_eq!(replayed.actions, actions, "{label}\n{numbered}");
    }

    // The SGF, as export writes it and import reads it.
    let sgf_text = sgf::write(record);
    let imported = sgf::read(&sgf_text).unwrap_or_else(|e| panic!("{label}: {e}\n{sgf_text}"));
    assert_eq!(&imported, record, "{label}\n{sgf_text}");
    let exported = sgf::write(&back);
    let reimported = sgf::read(&exported).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(reimported, back, "{label}");
    let replayed = play_transcript(variant, &write_transcript(&reimported), FinalPass::Play)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(replayed.actions, actions, "{label}");

    // The server's game: its move list is the same turns, and the site's record of it
    // (transcript and SGF) reads back to them.
    let live = live_game(variant, &turns, ending);
    let file = &live.file().turns;
    assert_eq!(file.len(), turns.len(), "{label}");
    for (k, (t, turn)) in file.iter().zip(&turns).enumerate() {
        assert_eq!(t.text, write_turn(turn), "{label} turn {}", k + 1);
    }
    let site = live
        .record(record.date.clone())
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let site_want = Record {
        white: "alice".to_string(),
        black: "bob".to_string(),
        ..want.clone()
    };
    assert_eq!(site, site_want, "{label}");
    let site_text = write_transcript(&site);
    assert_eq!(
        tokens(&site_text),
        file.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
        "{label}"
    );
    assert_eq!(
        read_transcript(variant, &site_text).ok(),
        Some(site.clone())
    );
    assert_eq!(sgf::read(&sgf::write(&site)).ok(), Some(site), "{label}");
    // The mail's move list: the same turns, numbered alike, the server's passes (Auto).
    let listed = mail_moves(&live);
    assert_eq!(listed.len(), file.len(), "{label}");
    for (k, ((n, text, auto), t)) in listed.iter().zip(file).enumerate() {
        assert_eq!(
            (*n as usize, text, *auto),
            (k + 1, &t.text, t.auto),
            "{label}"
        );
    }
    // The review splits the game as the move list does.
    let input = review::input(&live).unwrap_or_else(|e| panic!("{label}: {e}"));
    assert_eq!(input.turns, turns, "{label}");
}

/// Count what `record` holds.
fn count(record: &Record, turns: &[Vec<Action>], end: &Game, unfinished: bool, seen: &mut Seen) {
    seen.games += 1;
    seen.blitz += usize::from(record.variant == Variant::Blitz);
    seen.turns += turns.len();
    let mut game = Game::new(record.variant);
    for turn in turns {
        let removals_first = matches!(turn.first(), Some(Action::RemoveRow(_)));
        seen.owed_first += usize::from(removals_first);
        seen.pass_after_removals +=
            usize::from(removals_first && turn.last() == Some(&Action::Pass));
        seen.forced_pass += usize::from(turn == &[Action::Pass]);
        for &a in turn {
            let me = game.to_act().expect("the game goes on");
            game.play(a).expect("legal");
            if matches!(a, Action::Move { .. }) {
                seen.both_rows +=
                    usize::from(game.row_count(me) > 0 && game.row_count(me.other()) > 0);
            }
        }
    }
    match (end.ending().map(|e| e.reason), record.ending) {
        (Some(EndReason::RingsRemoved), _) => seen.rings_removed += 1,
        (Some(EndReason::MarkersExhausted), _) => seen.last_marker += 1,
        (Some(EndReason::BothBlocked), _) => seen.both_blocked += 1,
        (_, Some(RecordEnd::Resigned(_))) => {
            seen.resigned += 1;
            seen.resigned_mid_turn += usize::from(unfinished);
        }
        (_, Some(RecordEnd::DrawAgreed)) => seen.draw_agreed += 1,
        _ => seen.going_on += 1,
    }
}

fn style() -> impl Strategy<Value = Style> {
    prop_oneof![
        1 => Just(Style::Uniform),
        6 => any::<bool>().prop_map(|w| Style::Walled(if w { Color::White } else { Color::Black })),
        1 => Just(Style::Generous),
        2 => Just(Style::Hoarding),
    ]
}

fn stop() -> impl Strategy<Value = Stop> {
    prop_oneof![
        4 => Just(Stop::Played),
        1 => (0..250usize, any::<bool>(), any::<bool>())
            .prop_map(|(at, white, mid)| Stop::Resign(at, if white { Color::White } else { Color::Black }, mid)),
        1 => (0..250usize, any::<bool>()).prop_map(|(at, mid)| Stop::Draw(at, mid)),
    ]
}

#[test]
fn every_record_of_a_random_game_reads_back_turn_by_turn_issue_46() {
    let seen = RefCell::new(Seen::default());
    let mut runner = TestRunner::new(Config {
        cases: 500,
        rng_seed: RngSeed::Fixed(0x4646_0001),
        failure_persistence: None,
        ..Config::default()
    });
    let strategy = (style(), stop(), prop::bool::weighted(0.2), any::<u64>());
    runner
        .run(&strategy, |(style, stop, blitz, seed)| {
            let variant = if blitz {
                Variant::Blitz
            } else {
                Variant::Normal
            };
            let record = biased_game(variant, style, stop, seed);
            check_record(&record, &mut seen.borrow_mut());
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    // A pass after owed removals is the rarest: about one walled game in 30 has one.
    let seen = seen.into_inner();
    eprintln!("{seen:?}");
    for (what, n) in [
        ("blitz games", seen.blitz),
        ("removals owed at the start of a turn", seen.owed_first),
        ("passes after owed removals", seen.pass_after_removals),
        ("forced passes", seen.forced_pass),
        ("rows for both sides at once", seen.both_rows),
        ("wins on rings", seen.rings_removed),
        ("the last marker", seen.last_marker),
        ("resignations", seen.resigned),
        (
            "resignations in the middle of a turn",
            seen.resigned_mid_turn,
        ),
        ("draws agreed", seen.draw_agreed),
    ] {
        assert!(n > 0, "no {what}: {seen:?}");
    }
}

#[test]
fn every_record_of_the_boardspace_games_reads_back_turn_by_turn_issue_46() {
    let Some(recs) = records() else { return };
    let dir = crate::support::data::boardspace_dir().expect("records() found it");
    let mut seen = Seen::default();
    for rec in &recs {
        let bytes = std::fs::read(dir.join(&rec.file)).expect("an .sgf file");
        let record = sgf::read(&String::from_utf8_lossy(&bytes))
            .unwrap_or_else(|e| panic!("{}: {e}", rec.file));
        check_record(&record, &mut seen);
    }
    assert_eq!(seen.games, 408, "{seen:?}");
    assert!(
        seen.owed_first > 0 && seen.resigned_mid_turn > 0,
        "{seen:?}"
    );
}

/// The first biased game from a fixed seed with a pass after owed removals, played
/// to its end, and the text of that turn.
fn game_with_pass_after_removals() -> (Record, String) {
    (0..2000u64)
        .find_map(|seed| {
            let side = if seed % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            let record = biased_game(Variant::Normal, Style::Walled(side), Stop::Played, seed);
            let (turns, _) = read_back(&record);
            let turn = turns.iter().find(|t| {
                matches!(t.first(), Some(Action::RemoveRow(_))) && t.last() == Some(&Action::Pass)
            })?;
            Some((record.clone(), write_turn(turn)))
        })
        .expect("a seed gives a pass after owed removals")
}

/// `text` written as the records were before a pass after owed removals was kept in
/// its turn: `xi4-i8xk7 --`.
fn old_writing(text: &str, turn: &str) -> String {
    let removals = turn.strip_suffix(";--").expect("a pass after removals");
    let old = text.replace(turn, &format!("{removals} --"));
    assert_ne!(old, text);
    old
}

/// The binary's output for `args` and `file`, which must succeed.
fn run(args: &[&str], file: &std::path::Path) -> String {
    let out = bin::assert_command()
        .args(args)
        .arg(file)
        .output()
        .expect("run");
    assert!(out.status.success(), "{args:?}: {out:?}");
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn an_old_record_with_the_pass_after_owed_removals_apart_replays_exports_and_imports() {
    let (record, turn) = game_with_pass_after_removals();
    let text = write_transcript(&record);
    assert!(tokens(&text).contains(&turn.as_str()), "{turn}\n{text}");
    let old = old_writing(&text, &turn);
    let dir = crate::support::tmp::dir();
    let (new_file, old_file) = (dir.path().join("new.txt"), dir.path().join("old.txt"));
    std::fs::write(&new_file, &text).expect("write");
    std::fs::write(&old_file, &old).expect("write");
    // replay: the same game, and as many turns as the move list.
    let json = run(&["replay", "--json"], &old_file);
    assert_eq!(json, run(&["replay", "--json"], &new_file));
    let summary: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(summary["turns"], read_back(&record).0.len());
    // export, then import: the record as written now.
    let exported = run(&["export"], &old_file);
    assert_eq!(sgf::read(&exported).ok(), Some(record.clone()));
    let sgf_file = dir.path().join("game.sgf");
    std::fs::write(&sgf_file, &exported).expect("write");
    assert_eq!(run(&["import"], &sgf_file), text);
}

#[test]
fn the_site_writes_again_a_record_published_with_the_pass_after_owed_removals_apart() {
    let (record, turn) = game_with_pass_after_removals();
    let (turns, _) = read_back(&record);
    let live = live_game(record.variant, &turns, None);
    let dir = crate::support::tmp::dir();
    let (home, out) = (dir.path().join("home"), dir.path().join("site"));
    let store = yinsh_pbem::server::store::Store::open(&home).expect("a store");
    store.put_game(live.file()).expect("the game stored");
    let published = out.join("games/46/board-46.txt");
    std::fs::create_dir_all(published.parent().expect("a folder")).expect("mkdir");
    let now = write_transcript(&live.record(None).expect("a record"));
    std::fs::write(&published, old_writing(&now, &turn)).expect("write");
    let done = bin::command()
        .args(["site", "--home"])
        .arg(&home)
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run site");
    assert_eq!(done.status.code(), Some(0), "{done:?}");
    let text = std::fs::read_to_string(&published).expect("the record");
    assert!(tokens(&text).contains(&turn.as_str()), "{turn}\n{text}");
    let played = play_transcript(Variant::Normal, &text, FinalPass::Play).expect("it replays");
    assert_eq!(played.actions, turns.concat());
    assert_eq!(played.turns as usize, live.file().turns.len());
    let page = std::fs::read_to_string(out.join("games/46/index.html")).expect("the page");
    assert!(page.contains(&format!(">{turn}</a>")), "{page}");
}

#[test]
fn a_published_record_with_the_pass_after_owed_removals_apart_replays_exports_imports_and_replays_again()
 {
    // `xe10-i10xf9 --`, as the site published it, is one turn: `xe10-i10xf9;--`.
    let old_file = crate::support::data::transcripts_dir().join("old-pass-after-removals.txt");
    let old = std::fs::read_to_string(&old_file).expect("the fixture");
    let old_tokens = tokens(&old);
    let apart = old_tokens
        .windows(2)
        .position(|w| w[0].starts_with('x') && w[1] == "--")
        .expect("a pass after removals written apart");
    let mut want: Vec<String> = old_tokens.iter().map(|t| t.to_string()).collect();
    let pass = want.remove(apart + 1);
    want[apart] = format!("{};{pass}", want[apart]);
    let json = run(&["replay", "--json"], &old_file);
    let summary: serde_json::Value = serde_json::from_str(&json).expect("JSON");
    assert_eq!(summary["turns"], want.len(), "{json}");
    // export, then import: the turn written whole; its replay is the same game.
    let dir = crate::support::tmp::dir();
    let sgf_file = dir.path().join("board.sgf");
    std::fs::write(&sgf_file, run(&["export"], &old_file)).expect("write");
    let imported = run(&["import"], &sgf_file);
    assert_eq!(tokens(&imported), want, "{imported}");
    assert!(imported.contains("# White: alice\n# Black: bob\n# Played: 2026-11-20\n"));
    let new_file = dir.path().join("board.txt");
    std::fs::write(&new_file, &imported).expect("write");
    assert_eq!(run(&["replay", "--json"], &new_file), json);
    assert_eq!(run(&["replay"], &new_file), run(&["replay"], &old_file));
}
