//! Issue 28, the robot's review of a game (`ai::review`, `yinsh-pbem review`): real
//! games of ../shared/data/boardspace-yinsh reviewed end at their result, a game
//! decided by a blunder names that turn, and a review is the same every time for a
//! budget. Budgets are kept small (the machine's cores are shared).

use std::path::PathBuf;

use yinsh_pbem::ai::{Review, review};
use yinsh_pbem::notation::{sgf, split_turns};
use yinsh_pbem::rules::{Color, Game, Outcome};

use crate::support::bin::assert_command;
use crate::support::data::{boardspace_dir, transcripts_dir};

/// The data beside the checkout, or `None` with a visible message; under CI its
/// absence fails the test.
fn data() -> Option<PathBuf> {
    let dir = boardspace_dir();
    assert!(
        dir.is_some() || std::env::var_os("CI").is_none(),
        "CI needs ../shared/data/boardspace-yinsh for the review tests"
    );
    dir
}

/// The review of one Boardspace record at `playouts` a position, and its result.
fn review_record(path: &std::path::Path, playouts: u64) -> (Review, Outcome) {
    let record = sgf::read(&std::fs::read_to_string(path).expect("read")).expect("sgf");
    let turns = split_turns(&Game::new(record.variant), &record.actions).expect("turns");
    let game = record.game().expect("replays");
    let outcome = game.outcome().expect("the record's game is over");
    let off_board = record.ending.map(|_| outcome);
    (
        review(record.variant, &turns, off_board, playouts).expect("review"),
        outcome,
    )
}

/// Issue 28: the chart of a real game ends at its result (1 White won, 0 Black won),
/// for the five 2026 games and a resigned one of 2005.
#[test]
fn the_chart_of_a_real_game_ends_at_its_result() {
    let Some(dir) = data() else { return };
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("boardspace-2026"))
        .expect("dir")
        .map(|e| e.expect("entry").path())
        .collect();
    files.sort();
    let index = std::fs::read_to_string(dir.join("index.tsv")).expect("index");
    let resigned = index
        .lines()
        .find(|l| l.split('\t').nth(4).is_some_and(|r| r.ends_with("+resign")))
        .and_then(|l| l.split('\t').next())
        .expect("a resigned game");
    files.push(dir.join(resigned));
    for file in &files {
        let (r, outcome) = review_record(file, 40);
        let chart = r.chart();
        let expected = match outcome {
            Outcome::Win(Color::White) => 1.0,
            Outcome::Win(Color::Black) => 0.0,
            Outcome::Draw => 0.5,
        };
        assert_eq!(chart.last().copied(), Some(expected), "{}", file.display());
        assert!(chart.iter().all(|v| (0.0..=1.0).contains(v)));
        assert_eq!(
            chart.len(),
            r.turns.len() + 1 + usize::from(r.result.is_some())
        );
    }
}

/// Issue 28: a review is the same every time for a playout budget (each position
/// searched with a seed made from the position).
#[test]
fn a_review_is_deterministic_for_a_budget() {
    let Some(dir) = data() else { return };
    let file = dir.join("boardspace-2026/Y-DrMih-Dumbot-2026-02-20-0858.sgf");
    let (a, _) = review_record(&file, 60);
    let (b, _) = review_record(&file, 60);
    assert_eq!(a, b);
    let (c, _) = review_record(&file, 61);
    assert_ne!(a.turns, c.turns, "another budget is another review");
}

/// The turns of a fixture transcript.
fn fixture_turns(name: &str) -> Vec<Vec<yinsh_pbem::rules::Action>> {
    let text = std::fs::read_to_string(transcripts_dir().join(name)).expect("fixture");
    let played = yinsh_pbem::notation::play_transcript(
        yinsh_pbem::rules::Variant::Normal,
        &text,
        yinsh_pbem::notation::FinalPass::Play,
    )
    .expect("plays");
    split_turns(
        &Game::new(yinsh_pbem::rules::Variant::Normal),
        &played.actions,
    )
    .expect("turns")
}

/// Issue 28: in `review-blunder.txt` (a game of two level-2 robots where the player
/// to move could win at once, which a level-4 search finds, but played another ring
/// move and lost on the next turn) the review names that turn as the loser's first turning
/// point, with the winning turn as the robot's preferred one.
#[test]
fn the_review_names_the_blunder_that_decided_the_game() {
    let turns = fixture_turns("review-blunder.txt");
    let blunder = u32::try_from(turns.len() - 1).expect("turns");
    let r = review(yinsh_pbem::rules::Variant::Normal, &turns, None, 600).expect("review");
    let last = &r.turns[usize::try_from(blunder).expect("index") - 1];
    let loser = last.side;
    let points = r.turning_points(loser);
    assert_eq!(
        points.first().map(|t| t.number),
        Some(blunder),
        "{points:?}"
    );
    let mut after = last.before;
    for &a in &last.preferred {
        after.play(a).expect("the preferred turn is legal");
    }
    assert_eq!(
        after.outcome(),
        Some(Outcome::Win(loser)),
        "the preferred turn wins"
    );
    assert!(points[0].cost() > 0.9, "{}", points[0].cost());
}

/// Issue 28: `yinsh-pbem review --json` prints the review, its chart and the turning
/// points; the text form names the preferred turn; `--chart` writes the PNG.
#[test]
fn the_review_command_prints_the_review_as_text_and_json() {
    let file = transcripts_dir().join("review-blunder.txt");
    let out = assert_command()
        .args(["review", "--playouts", "50", "--json"])
        .arg(&file)
        .assert()
        .success();
    let json: serde_json::Value =
        serde_json::from_slice(&out.get_output().stdout).expect("one JSON object");
    let turns = json["turns"].as_array().expect("turns").len();
    assert_eq!(json["chart"].as_array().expect("chart").len(), turns + 1);
    assert_eq!(json["playouts"], 50);
    assert!(json["turning_points"]["white"].is_array());
    let dir = tempfile::tempdir().expect("tempdir");
    let png = dir.path().join("chart.png");
    let out = assert_command()
        .args(["review", "--playouts", "50", "--chart"])
        .arg(&png)
        .arg(&file)
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.contains("the robot preferred"), "{text}");
    assert_eq!(&std::fs::read(&png).expect("png")[1..4], b"PNG");
    let out = assert_command()
        .args(["review"])
        .write_stdin("e5 e5")
        .assert()
        .code(1);
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("turn 2"), "{err}");
}
