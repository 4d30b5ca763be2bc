//! The search that found the replay transcripts under `tests/data/transcripts/`:
//! seeded random games classified by how they end, a beam search for a game with
//! forced passes, and a game that hems one side in until it owes a row after which it
//! may have to pass (`owed-removals-then-pass.txt`, the browser test's position). All
//! are `#[ignore]`d tests that write the fixtures again
//! (`cargo test --test it find_transcripts -- --ignored`).

use yinsh_pbem::notation::write_turn;
use yinsh_pbem::rules::{ActionKind, Direction, EndReason, Outcome, Setup};

use super::*;
use crate::support::turns::{group_turns, random_playout};
use yinsh_pbem::ai::Rng;

/// The turns of a game as tokens, forced passes left out unless `passes`.
fn tokens(variant: Variant, actions: &[Action], passes: bool) -> Vec<String> {
    group_turns(Game::new(variant), actions)
        .into_iter()
        .filter(|(before, turn)| passes || !(turn == &[Action::Pass] && auto_pass_due(before)))
        .map(|(_, turn)| write_turn(&turn))
        .collect()
}

fn write_fixture(finder: &str, name: &str, about: &str, seed: u64, tokens: &[String]) {
    let mut text = format!(
        "# {about}\n# Found by `cargo test --test it {finder} -- --ignored` (seed {seed}).\n"
    );
    for line in tokens.chunks(8) {
        text.push_str(&line.join(" "));
        text.push('\n');
    }
    std::fs::create_dir_all(transcripts_dir()).unwrap();
    std::fs::write(transcripts_dir().join(name), text).unwrap();
    println!("{name}: seed {seed}, {} tokens", tokens.len());
}

/// How the last turn of a finished game went.
struct LastTurn {
    has_move: bool,
    removals_first: bool,
    both_rows_after_move: bool,
    mover: Color,
}

fn last_turn(variant: Variant, actions: &[Action]) -> Option<LastTurn> {
    let (before, turn) = group_turns(Game::new(variant), actions).pop()?;
    let mover = before.to_act()?;
    let mut g = before;
    let mut both_rows_after_move = false;
    for &a in &turn {
        g.play(a).ok()?;
        if let Action::Move { .. } = a {
            both_rows_after_move = g.row_count(mover) > 0 && g.row_count(mover.other()) > 0;
        }
    }
    Some(LastTurn {
        has_move: turn.iter().any(|a| matches!(a, Action::Move { .. })),
        removals_first: matches!(turn.first(), Some(Action::RemoveRow(_))),
        both_rows_after_move,
        mover,
    })
}

#[test]
#[ignore = "writes tests/data/transcripts; run by hand to find them again"]
fn find_transcripts() {
    let mut want: Vec<&str> = vec![
        "rings-win.txt",
        "blitz-win.txt",
        "start-of-turn-win.txt",
        "both-rows-mover-wins.txt",
        "markers-exhausted-win.txt",
        "markers-exhausted-draw.txt",
    ];
    for seed in 0..200_000u64 {
        if want.is_empty() {
            break;
        }
        let variant = if seed % 2 == 1 {
            Variant::Blitz
        } else {
            Variant::Normal
        };
        let mut rng = Rng::new(seed);
        let actions = random_playout(variant, 5000, |n| rng.below(n));
        let mut g = Game::new(variant);
        actions.iter().for_each(|&a| g.play(a).unwrap());
        let (Some(end), Some(last)) = (g.ending(), last_turn(variant, &actions)) else {
            continue;
        };
        let normal = variant == Variant::Normal;
        let name = match (end.reason, end.outcome) {
            (EndReason::RingsRemoved, Outcome::Win(w))
                if last.both_rows_after_move && w == last.mover && normal =>
            {
                "both-rows-mover-wins.txt"
            }
            (EndReason::RingsRemoved, _) if last.removals_first && !last.has_move && normal => {
                "start-of-turn-win.txt"
            }
            (EndReason::RingsRemoved, _)
                if last.has_move && !last.removals_first && !last.both_rows_after_move =>
            {
                if normal {
                    "rings-win.txt"
                } else {
                    "blitz-win.txt"
                }
            }
            (EndReason::MarkersExhausted, Outcome::Win(_)) if normal => "markers-exhausted-win.txt",
            (EndReason::MarkersExhausted, Outcome::Draw) if normal => "markers-exhausted-draw.txt",
            _ => continue,
        };
        let Some(k) = want.iter().position(|w| *w == name) else {
            continue;
        };
        want.remove(k);
        let about = match name {
            "rings-win.txt" => {
                "A normal game won by removing a third ring after the winner's own move."
            }
            "blitz-win.txt" => "A blitz game (--blitz) won by the first ring removed.",
            "start-of-turn-win.txt" => {
                "Won by removals at the start of a turn: the loser made the winner's last row."
            }
            "both-rows-mover-wins.txt" => {
                "The last move made rows for both sides; the mover removes first and wins."
            }
            "markers-exhausted-win.txt" => {
                "The marker pool ran out; the side with more rings removed wins."
            }
            _ => "The marker pool ran out with equal rings removed: a draw.",
        };
        write_fixture(
            "find_transcripts",
            name,
            about,
            seed,
            &tokens(variant, &actions, false),
        );
        if name == "rings-win.txt" {
            let toks = tokens(variant, &actions, false);
            write_fixture(
                "find_transcripts",
                "in-progress.txt",
                "The first 40 turns of rings-win.txt: White to move.",
                seed,
                &toks[..40],
            );
        }
    }
    assert!(want.is_empty(), "not found: {want:?}");
}

/// The number of ring moves `color` would have if it were to move now (`None` when
/// the position cannot be set up that way, e.g. a row is waiting).
fn ring_moves(g: &Game, color: Color) -> Option<usize> {
    let h = Setup::new(g.variant())
        .rings(Color::White, g.rings(Color::White))
        .rings(Color::Black, g.rings(Color::Black))
        .markers(Color::White, g.markers(Color::White))
        .markers(Color::Black, g.markers(Color::Black))
        .removed(Color::White, g.rings_removed(Color::White))
        .removed(Color::Black, g.rings_removed(Color::Black))
        .to_move(color)
        .build()
        .ok()?;
    match h.expects() {
        Some(ActionKind::Move) => Some(h.legal_actions().len()),
        Some(ActionKind::Pass) => Some(0),
        _ => None,
    }
}

/// A game with forced passes: a beam search over ring moves that leaves one side
/// the fewest ring moves until that side must pass, then random play to the end.
fn game_with_passes(seed: u64) -> Option<Vec<Action>> {
    let mut rng = Rng::new(seed);
    let start = random_playout(Variant::Normal, 10, |n| rng.below(n));
    let mut g = Game::new(Variant::Normal);
    start.iter().for_each(|&a| g.play(a).unwrap());
    let mut beam = vec![(g, start)];
    for _ in 0..40 {
        let mut next = Vec::new();
        for (g, actions) in &beam {
            for &a in g.legal_actions().iter() {
                let h = g.after(a).unwrap();
                let (Some(w), Some(b)) =
                    (ring_moves(&h, Color::White), ring_moves(&h, Color::Black))
                else {
                    continue;
                };
                let mut v = actions.clone();
                v.push(a);
                if h.expects() == Some(ActionKind::Pass) {
                    let mut rest = Vec::new();
                    let mut end = h;
                    while !end.is_over() {
                        let legal = end.legal_actions();
                        let a = legal[rng.below(legal.len())];
                        end.play(a).unwrap();
                        rest.push(a);
                    }
                    v.extend(rest);
                    return Some(v);
                }
                next.push((w.min(b), rng.below(1000), h, v));
            }
        }
        next.sort_by_key(|x| (x.0, x.1));
        next.truncate(60);
        beam = next.into_iter().map(|(_, _, h, v)| (h, v)).collect();
    }
    None
}

#[test]
#[ignore = "writes tests/data/transcripts; run by hand to find them again"]
fn find_transcript_with_passes() {
    for seed in 0..50 {
        if let Some(actions) = game_with_passes(seed) {
            let passes = actions.iter().filter(|a| **a == Action::Pass).count();
            assert!(passes > 0);
            let about = format!("{passes} forced passes, left out: replay plays them.");
            write_fixture(
                "find_transcript_with_passes",
                "forced-passes.txt",
                &about,
                seed,
                &tokens(Variant::Normal, &actions, false),
            );
            let about = "forced-passes.txt with its forced passes written as --.";
            write_fixture(
                "find_transcript_with_passes",
                "forced-passes-written.txt",
                about,
                seed,
                &tokens(Variant::Normal, &actions, true),
            );
            return;
        }
    }
    panic!("no game with a forced pass found");
}

/// Whether the side to act in `g` owes a row and, for some choice of its removals,
/// has no ring move after them (its turn then ends in a pass).
fn owes_then_may_pass(g: &Game) -> bool {
    g.expects() == Some(ActionKind::RemoveRow)
        && yinsh_pbem::server::site::legal::legal_turns(g)
            .is_some_and(|list| list.iter().any(|t| t.actions.iter().any(|a| a == "--")))
}

/// A game in which one side (the victim, by the seed) places its rings on the rim and
/// the other moves to leave it the fewest ring moves, preferring a move that makes a
/// row of the victim's colour; the actions up to the first start of a turn of the
/// victim's that owes a row and may end in a pass.
fn game_owed_then_pass(seed: u64) -> Option<Vec<Action>> {
    let mut rng = Rng::new(seed);
    let victim = if seed.is_multiple_of(2) {
        Color::White
    } else {
        Color::Black
    };
    let mut g = Game::new(Variant::Normal);
    let mut actions = Vec::new();
    while let Some(side) = g.to_act() {
        if side == victim && owes_then_may_pass(&g) {
            return Some(actions);
        }
        let legal = g.legal_actions();
        let ranked: Vec<(usize, Action)> = match g.expects() {
            Some(ActionKind::Place) if side == victim => legal
                .iter()
                .map(|&a| match a {
                    Action::Place(p) => (
                        Direction::ALL
                            .iter()
                            .filter(|d| d.step(p).is_some())
                            .count(),
                        a,
                    ),
                    _ => (9, a),
                })
                .collect(),
            Some(ActionKind::Move) if side != victim => legal
                .iter()
                .map(|&a| {
                    let h = g.after(a).expect("legal");
                    let owed =
                        h.to_act() == Some(victim) && h.expects() == Some(ActionKind::RemoveRow);
                    let score = match (owes_then_may_pass(&h), owed) {
                        (true, _) => 0,
                        (false, true) => 1,
                        _ => 2 + ring_moves(&h, victim).unwrap_or(100),
                    };
                    (score, a)
                })
                .collect(),
            _ => legal.iter().map(|&a| (0, a)).collect(),
        };
        let best = ranked.iter().map(|r| r.0).min()?;
        let ties: Vec<Action> = ranked
            .into_iter()
            .filter(|r| r.0 == best)
            .map(|r| r.1)
            .collect();
        let a = ties[rng.below(ties.len())];
        g.play(a).expect("legal");
        actions.push(a);
    }
    None
}

#[test]
#[ignore = "writes tests/data/transcripts; run by hand to find them again"]
fn find_transcript_owed_then_pass() {
    for seed in 0..20_000 {
        if let Some(actions) = game_owed_then_pass(seed) {
            write_fixture(
                "find_transcript_owed_then_pass",
                "owed-removals-then-pass.txt",
                "The side to move owes a row; after it and one ring it may have no ring move.",
                seed,
                &tokens(Variant::Normal, &actions, true),
            );
            return;
        }
    }
    panic!("no game with removals owed before a pass found");
}
