//! Issue 46, the review's measures (run by hand, not in CI): every game of
//! ../shared/data/boardspace-yinsh reviewed (`ai::review`), one JSON line a game with
//! each turn's search value, chances, cost and confirmed cost, the turning points, the
//! playouts spent and the seconds taken, for `scripts/measure-review` (the fit of the
//! value-to-chance curve and the measures of docs/strength.md, "The robot's review").
//!
//!   REVIEW_JSONL=/tmp/review-600.jsonl cargo test --test it review_measure -- --ignored
//!
//! `REVIEW_PLAYOUTS` (600) sets the budget, `REVIEW_EVERY` (1) reviews every k-th game
//! only (10 for the ten-times-deeper review of 41 games), `REVIEW_THREADS` (1) the
//! games reviewed at once.

use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde_json::json;
use yinsh_pbem::ai::{REVIEW_PLAYOUTS, placing, review};
use yinsh_pbem::notation::split_turns;
use yinsh_pbem::rules::{Action, Color, Game, Outcome};

use crate::boardspace::{Record, records};

/// A number from the environment, or `default`.
fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The JSON line of game `index` reviewed at `playouts`.
fn measure(index: usize, rec: &Record, playouts: u64) -> serde_json::Value {
    let actions: Vec<Action> = rec.actions.iter().map(|&(_, a)| a).collect();
    let start = Game::new(rec.variant);
    let turns = split_turns(&start, &actions).expect("the record splits into turns");
    let white_won = rec.result.starts_with("W+");
    let mut end = start;
    for &a in &actions {
        end.play(a).expect("the record plays");
    }
    let ending = end
        .outcome()
        .is_none()
        .then_some(Outcome::Win(if white_won {
            Color::White
        } else {
            Color::Black
        }));
    let clock = Instant::now();
    let r = review(rec.variant, &turns, ending, playouts).expect("review");
    let seconds = clock.elapsed().as_secs_f64();
    let rows: Vec<serde_json::Value> = r
        .turns
        .iter()
        .map(|t| {
            json!({
                "number": t.number,
                "side": t.side.name(),
                "placing": placing(&t.before),
                "value": t.value,
                "before": t.chance_before,
                "after": t.chance_after,
                "preferred_after": t.preferred_after,
                "same": t.played == t.preferred,
                "cost": t.cost,
                "confirmed": t.confirmed,
            })
        })
        .collect();
    let points = |side| -> Vec<u32> { r.turning_points(side).iter().map(|t| t.number).collect() };
    json!({
        "game": index,
        "file": rec.file,
        "white_won": white_won,
        "playouts": playouts,
        "spent": r.spent,
        "seconds": seconds,
        "result": r.result,
        "turns": rows,
        "points": { "white": points(Color::White), "black": points(Color::Black) },
    })
}

#[test]
#[ignore = "hours of CPU: run by hand for scripts/measure-review"]
fn review_measure() {
    let Some(records) = records() else { return };
    let out = std::env::var("REVIEW_JSONL").unwrap_or_else(|_| "/tmp/review.jsonl".into());
    let playouts = env_number("REVIEW_PLAYOUTS", REVIEW_PLAYOUTS);
    let every = usize::try_from(env_number("REVIEW_EVERY", 1).max(1)).expect("every");
    let threads = env_number("REVIEW_THREADS", 1).max(1);
    let file = Mutex::new(std::fs::File::create(&out).expect("the output file"));
    let games: Vec<usize> = (0..records.len()).step_by(every).collect();
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(&k) = games.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let line = measure(k, &records[k], playouts);
                    let mut f = file.lock().expect("the output file's lock");
                    writeln!(f, "{line}").expect("write");
                }
            });
        }
    });
    eprintln!("{} games reviewed into {out}", games.len());
}
