//! The robot's review of one whole game (issue 28; figures in docs/performance.md):
//! a whole game between two robots, decided by a blunder (the fixture
//! `tests/data/transcripts/review-blunder.txt`), reviewed at the default budget
//! (`ai::REVIEW_PLAYOUTS` a position). The benchmark checks its review: the chart
//! ends at the game's result and names the blunder, so it never times broken code.
//!
//! Run with `cargo bench --bench review`; `cargo test --benches` runs it once.

use divan::Bencher;
use yinsh_pbem::ai::{REVIEW_PLAYOUTS, review};
use yinsh_pbem::notation::{FinalPass, play_transcript, split_turns};
use yinsh_pbem::rules::{Action, Color, Game, Outcome, Variant};

fn main() {
    divan::main();
}

/// The turns of the benchmarked game, and White's result (1 or 0).
fn game() -> (Vec<Vec<Action>>, f32) {
    let text = include_str!("../tests/data/transcripts/review-blunder.txt");
    let played = play_transcript(Variant::Normal, text, FinalPass::Play)
        .unwrap_or_else(|e| panic!("bench transcript: {e}"));
    let result = match played.game.outcome() {
        Some(Outcome::Win(Color::White)) => 1.0,
        Some(Outcome::Win(Color::Black)) => 0.0,
        other => panic!("the bench game ended so: {other:?}"),
    };
    let turns = split_turns(&Game::new(Variant::Normal), &played.actions)
        .unwrap_or_else(|e| panic!("bench turns: {e}"));
    (turns, result)
}

/// One whole game reviewed at the default budget.
#[divan::bench(sample_count = 3, sample_size = 1)]
fn review_one_game(bencher: Bencher) {
    let (turns, result) = game();
    let blunder = u32::try_from(turns.len() - 1).unwrap_or(0);
    bencher.bench(|| {
        let r = review(
            Variant::Normal,
            divan::black_box(&turns),
            None,
            REVIEW_PLAYOUTS,
        )
        .unwrap_or_else(|e| panic!("review: {e}"));
        assert_eq!(r.chart().last().copied(), Some(result));
        let loser = if result > 0.5 {
            Color::Black
        } else {
            Color::White
        };
        assert_eq!(
            r.turning_points(loser).first().map(|t| t.number),
            Some(blunder)
        );
        r
    });
}
