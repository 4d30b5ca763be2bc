//! Random legal playouts (proptest, fixed seed) of both variants: at every step the
//! listed actions and `check`/`play` agree, the engine agrees with the naive generator
//! of naive.rs, the piece counts add up (yinsh-rules.md §2), and every game ends
//! within a proven bound (§3-§4).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use yinsh_pbem::ai::Rng;
use yinsh_pbem::rules::{
    Action, ActionKind, Color, EndReason, Game, IllegalAction, Outcome, Point, Row, Variant,
};

use crate::naive::{Naive, assert_agree};

/// The most plies a game can last. Each ring move takes a marker; only a row removal
/// returns markers (5), and a side removes at most `rings_to_win` rows, the last one
/// winning, so at most 2 (rings_to_win - 1) + 1 rows are removed in all: ring moves
/// <= 51 + 5 rows. A pass is always followed by a ring move or the end, so passes <=
/// moves + 1. Add the 10 placements and 2 actions per row removed.
fn max_plies(variant: Variant) -> usize {
    let rows = 2 * (variant.rings_to_win() as usize - 1) + 1;
    let moves = 51 + 5 * rows;
    10 + moves + (moves + 1) + 2 * rows
}

/// Every action of every kind worth trying here: all placements, row and ring
/// removals, a pass, and moves from every ring (and three random points) to anywhere.
fn candidates(game: &Game, rng: &mut Rng) -> Vec<Action> {
    let mut out: Vec<Action> = Point::ALL.iter().map(|&p| Action::Place(p)).collect();
    out.extend(Point::ALL.iter().map(|&p| Action::RemoveRing(p)));
    out.extend(Row::ALL.iter().map(|&r| Action::RemoveRow(r)));
    out.push(Action::Pass);
    let mut froms: Vec<Point> = game
        .rings(Color::White)
        .chain(game.rings(Color::Black))
        .collect();
    froms.extend((0..3).map(|_| Point::ALL[rng.below(85)]));
    for from in froms {
        out.extend(Point::ALL.iter().map(|&to| Action::Move { from, to }));
    }
    out
}

/// What a playout met, for the coverage test.
#[derive(Default, Debug)]
struct Seen {
    own_removals: usize,
    opponent_removals: usize,
    passes: usize,
    endings: Vec<EndReason>,
}

/// Check everything about the position, then pick and play an action; repeat until the
/// game ends. `row_bias` is the chance (in 1/8) of preferring a move that makes a row.
fn playout(variant: Variant, seed: u64, row_bias: u64, resign: bool) -> Seen {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(variant);
    let mut naive = Naive::new(variant);
    let mut seen = Seen::default();
    let (mut moves, mut passes, mut rows_removed) = (0usize, 0usize, 0usize);
    let mut plies = 0;
    loop {
        let ctx = format!("{variant:?} seed {seed} ply {plies}");
        assert_agree(&game, &naive, &ctx);
        check_counts(&game, plies, &ctx);
        let legal = game.legal_actions();
        assert_eq!(game.count_legal_actions(), legal.len() as u64, "{ctx}");
        for (k, a) in legal.iter().enumerate() {
            assert!(!legal[..k].contains(a), "{ctx}: {a} listed twice");
            assert_eq!(game.check(*a), Ok(()), "{ctx}: listed {a}");
            let mut copy = game;
            copy.play(*a).unwrap();
            assert_eq!(game.after(*a), Ok(copy), "{ctx}: {a}");
        }
        for a in candidates(&game, &mut rng) {
            if legal.contains(&a) {
                continue;
            }
            let why = game
                .check(a)
                .expect_err(&format!("{ctx}: unlisted {a} accepted"));
            let mut copy = game;
            assert_eq!(copy.play(a), Err(why), "{ctx}: {a}");
            assert_eq!(copy, game, "{ctx}: refusing {a} changed the game");
            if game.is_over() {
                assert_eq!(why, IllegalAction::GameOver, "{ctx}: {a}");
            }
        }
        if let Some(ending) = game.ending() {
            check_ending(&game, ending.reason, ending.outcome, &ctx);
            let before = game;
            assert_eq!(game.resign(Color::White), Err(IllegalAction::GameOver));
            assert_eq!(game, before);
            seen.endings.push(ending.reason);
            break;
        }
        assert!(
            plies < max_plies(variant),
            "{ctx}: longer than {}",
            max_plies(variant)
        );
        if resign && rng.below(400) == 0 {
            let side = if rng.below(2) == 0 {
                Color::White
            } else {
                Color::Black
            };
            game.resign(side).unwrap();
            assert_eq!(game.outcome(), Some(Outcome::Win(side.other())));
            assert!(game.legal_actions().is_empty());
            seen.endings.push(EndReason::Resignation);
            break;
        }
        match game.removing_after_own_move() {
            Some(true) if game.expects() == Some(ActionKind::RemoveRow) => seen.own_removals += 1,
            Some(false) if game.expects() == Some(ActionKind::RemoveRow) => {
                seen.opponent_removals += 1
            }
            _ => {}
        }
        let action = choose(&game, &legal, &mut rng, row_bias);
        match action.kind() {
            ActionKind::Move => moves += 1,
            ActionKind::Pass => {
                passes += 1;
                seen.passes += 1;
            }
            ActionKind::RemoveRow => rows_removed += 1,
            _ => {}
        }
        game.play(action).unwrap();
        naive.play(action);
        plies += 1;
        assert!(
            moves <= 51 + 5 * rows_removed,
            "{ctx}: more moves than markers"
        );
        assert!(
            passes <= moves + 1,
            "{ctx}: two passes without a move between"
        );
    }
    seen
}

fn choose(game: &Game, legal: &[Action], rng: &mut Rng, row_bias: u64) -> Action {
    if game.expects() == Some(ActionKind::Move) && (rng.next_u64() % 8) < row_bias {
        let me = game.to_act();
        let making: Vec<Action> = legal
            .iter()
            .copied()
            .filter(|&a| {
                let after = game.after(a).unwrap();
                after.to_act() == me && after.expects() == Some(ActionKind::RemoveRow)
            })
            .collect();
        if !making.is_empty() {
            return making[rng.below(making.len())];
        }
    }
    legal[rng.below(legal.len())]
}

/// §2: 51 markers and 5 rings a side, wherever they are.
fn check_counts(game: &Game, plies: usize, ctx: &str) {
    assert_eq!(
        game.markers_on_board() + game.markers_in_pool(),
        51,
        "{ctx}"
    );
    assert_eq!(
        game.markers_of(Color::White) + game.markers_of(Color::Black),
        game.markers_on_board(),
        "{ctx}"
    );
    for c in Color::BOTH {
        assert_eq!(game.rows(c).count() as u32, game.row_count(c), "{ctx}");
        if plies >= 10 {
            assert_eq!(
                game.rings_on_board(c) + game.rings_removed(c),
                5,
                "{ctx}: {c}"
            );
        } else {
            let placed = (plies + usize::from(c == Color::White)) / 2;
            assert_eq!(game.rings_on_board(c) as usize, placed, "{ctx}: {c}");
        }
    }
    match game.expects() {
        // A ring moves only on a board without rows (all were removed first).
        Some(ActionKind::Move) | Some(ActionKind::Pass) => {
            assert_eq!(
                game.row_count(Color::White) + game.row_count(Color::Black),
                0,
                "{ctx}"
            );
        }
        _ => {}
    }
    if game.expects() == Some(ActionKind::Pass) {
        let me = game.to_act().unwrap();
        assert!(
            !game.has_ring_move(me) && game.has_ring_move(me.other()),
            "{ctx}"
        );
    }
}

/// §3.5, §4: the ending's reason matches the position and the score.
fn check_ending(game: &Game, reason: EndReason, outcome: Outcome, ctx: &str) {
    assert!(game.legal_actions().is_empty(), "{ctx}");
    assert_eq!(game.count_legal_actions(), 0, "{ctx}");
    let (w, b) = (
        game.rings_removed(Color::White),
        game.rings_removed(Color::Black),
    );
    let by_count = match w.cmp(&b) {
        std::cmp::Ordering::Greater => Outcome::Win(Color::White),
        std::cmp::Ordering::Less => Outcome::Win(Color::Black),
        std::cmp::Ordering::Equal => Outcome::Draw,
    };
    let to_win = game.variant().rings_to_win();
    match reason {
        EndReason::RingsRemoved => {
            let winner = outcome.winner().expect("a win");
            assert_eq!(game.rings_removed(winner), to_win, "{ctx}");
            assert!(game.rings_removed(winner.other()) < to_win, "{ctx}");
        }
        EndReason::MarkersExhausted => {
            assert_eq!(game.markers_in_pool(), 0, "{ctx}");
            assert_eq!(outcome, by_count, "{ctx}");
        }
        EndReason::BothBlocked => {
            assert!(!game.has_ring_move(Color::White) && !game.has_ring_move(Color::Black));
            assert_eq!(outcome, by_count, "{ctx}");
        }
        EndReason::Resignation => panic!("{ctx}: resignation without resigning"),
        EndReason::Agreement => panic!("{ctx}: a draw by agreement without agreeing"),
    }
}

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

proptest! {
    #![proptest_config(config(24, 0x5949_4e53_4831))]

    #[test]
    fn section_3_4_normal_playouts_agree_with_check_and_the_naive_generator(
        seed in any::<u64>(),
        row_bias in 0u64..8,
        resign in any::<bool>(),
    ) {
        playout(Variant::Normal, seed, row_bias, resign);
    }

    #[test]
    fn section_4_blitz_playouts_agree_with_check_and_the_naive_generator(
        seed in any::<u64>(),
        row_bias in 0u64..8,
        resign in any::<bool>(),
    ) {
        playout(Variant::Blitz, seed, row_bias, resign);
    }
}

#[test]
fn playouts_reach_every_kind_of_removal_and_ending() {
    // The property tests above are only as good as what they visit: these seeds must
    // meet removals of both kinds and end by rings and by marker exhaustion.
    let mut all = Seen::default();
    for seed in 0..8u64 {
        for (variant, bias) in [
            (Variant::Normal, 6),
            (Variant::Normal, 0),
            (Variant::Blitz, 3),
        ] {
            let s = playout(variant, seed, bias, false);
            all.own_removals += s.own_removals;
            all.opponent_removals += s.opponent_removals;
            all.passes += s.passes;
            all.endings.extend(s.endings);
        }
    }
    assert!(all.own_removals > 0, "{all:?}");
    assert!(all.opponent_removals > 0, "{all:?}");
    assert!(all.endings.contains(&EndReason::RingsRemoved), "{all:?}");
    assert!(
        all.endings.contains(&EndReason::MarkersExhausted),
        "{all:?}"
    );
}
