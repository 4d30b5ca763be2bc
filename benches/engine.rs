//! Engine benchmarks (divan; figures and commands in docs/performance.md): perft with
//! bulk counting at the last ply from fixed positions, random playouts of whole games
//! (normal and blitz), and micro-benchmarks of `legal_actions`, `count_legal_actions`
//! and `play`. Every benchmark asserts its result (a perft count cross-checked by the
//! naive generator of tests/it/naive.rs, as in the perft table of tests/it/perft.rs;
//! games that reached an ending; a list length) so it never times broken code.
//!
//! Run with `cargo bench --bench engine`; `cargo test --benches` runs each once.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use yinsh_pbem::ai::Rng;
use yinsh_pbem::rules::{
    Action, ActionKind, ActionList, Color, Game, Point, Setup, Variant, perft,
};

fn main() {
    divan::main();
}

// ----- positions --------------------------------------------------------------------

/// A point written in the engine's text form; the bench's own constants only.
fn point(text: &str) -> Point {
    text.parse()
        .unwrap_or_else(|e| panic!("bench constant {text}: {e}"))
}

/// The points of a space-separated list.
fn points(text: &str) -> Vec<Point> {
    text.split_whitespace().map(point).collect()
}

/// Play space-separated atomic actions (engine text form) on `game`.
fn play_all(mut game: Game, actions: &str) -> Game {
    for text in actions.split_whitespace() {
        let action: Action = text
            .parse()
            .unwrap_or_else(|e| panic!("bench constant {text}: {e}"));
        game.play(action)
            .unwrap_or_else(|e| panic!("bench action {text}: {e}"));
    }
    game
}

/// Markers on `text`, coloured by the pattern of tests/it/naive.rs: Black where letter
/// index + number is 1 modulo 3, so no line holds five of one colour.
fn patterned_markers(setup: Setup, text: &str) -> Setup {
    points(text).into_iter().fold(setup, |s, p| {
        let c = if (p.column() + p.number()) % 3 == 1 {
            Color::Black
        } else {
            Color::White
        };
        s.marker(c, p)
    })
}

/// The ten placements of the perft table ("after placement"), White to move a ring.
const TEN: &str = "e5 f6 a2 k10 b1 j11 c8 i4 g2 e10";

/// Right after placement: ten rings, no marker, White to move.
fn after_placement(variant: Variant) -> Game {
    play_all(Game::new(variant), TEN)
}

/// The "crowded mid-game" of the perft table: ten rings and 26 markers.
fn crowded() -> Game {
    let setup = Setup::new(Variant::Normal)
        .rings(Color::White, points("c3 e6 g4 h8 d9"))
        .rings(Color::Black, points("f5 b5 i6 e3 g9"));
    patterned_markers(
        setup,
        "b2 b4 c5 c6 d3 d4 d6 d7 e4 e5 e7 e8 f3 f4 f6 f7 f8 g5 g6 g7 h5 h6 h7 i7 i8 c2",
    )
    .build()
    .unwrap_or_else(|e| panic!("crowded set-up: {e}"))
}

/// "removal pending for the mover: two disjoint rows": White's c3-e5 flips d4 and
/// makes c1-c5 and d4-d8 at once; White must remove a row.
fn removal_pending() -> Game {
    let setup = Setup::new(Variant::Normal)
        .rings(Color::White, points("c3 k7 k8 k9 k10"))
        .rings(Color::Black, points("a5 g11 h11 i11 j11"))
        .markers(Color::White, points("c1 c2 c4 c5 d5 d6 d7 d8"))
        .marker(Color::Black, point("d4"));
    let game = setup
        .build()
        .unwrap_or_else(|e| panic!("removal set-up: {e}"));
    play_all(game, "c3-e5")
}

// ----- perft ------------------------------------------------------------------------

/// Time `perft(game, depth)`, assert it equals `count`, and report leaves per second.
fn bench_perft(bencher: Bencher, game: Game, depth: u32, count: u64) {
    assert_eq!(perft(&game, depth), count, "perft {depth} before timing");
    bencher.counter(ItemsCount::new(count)).bench_local(|| {
        let n = perft(black_box(&game), black_box(depth));
        assert_eq!(n, count);
        n
    });
}

/// perft 3 right after placement (count cross-checked by the naive generator).
#[divan::bench(min_time = 1)]
fn perft_after_placement_d3(bencher: Bencher) {
    bench_perft(bencher, after_placement(Variant::Normal), 3, 522_042);
}

/// perft 4 right after placement (count cross-checked by the naive generator).
#[divan::bench(min_time = 1, sample_count = 20)]
fn perft_after_placement_d4(bencher: Bencher) {
    bench_perft(
        bencher,
        after_placement(Variant::Normal),
        4,
        PERFT_AFTER_PLACEMENT_D4,
    );
}

/// perft 3 of the crowded mid-game (count cross-checked by the naive generator).
#[divan::bench(min_time = 1)]
fn perft_crowded_d3(bencher: Bencher) {
    bench_perft(bencher, crowded(), 3, 33_426);
}

/// perft 4 of the crowded mid-game (count cross-checked by the naive generator).
#[divan::bench(min_time = 1)]
fn perft_crowded_d4(bencher: Bencher) {
    bench_perft(bencher, crowded(), 4, 934_638);
}

/// perft 6 with two rows to choose from and a ring to remove first.
#[divan::bench(min_time = 1)]
fn perft_removal_pending_d6(bencher: Bencher) {
    bench_perft(bencher, removal_pending(), 6, 145_888);
}

/// perft 3 of the empty board: placements only (85 * 84 * 83).
#[divan::bench(min_time = 1)]
fn perft_empty_d3(bencher: Bencher) {
    bench_perft(bencher, Game::new(Variant::Normal), 3, 85 * 84 * 83);
}

/// perft 4 right after placement.
const PERFT_AFTER_PLACEMENT_D4: u64 = 38_285_463;

// ----- playouts ---------------------------------------------------------------------

/// The most plies any game can last (tests/it/playouts.rs proves the bound).
const MAX_PLIES: usize = 10 + 2 * (51 + 25) + 1 + 2 * 5;

/// Play one game from the empty board to its end: list the legal actions, pick one
/// uniformly, play it. Returns the final position and the number of plies.
fn playout(variant: Variant, rng: &mut Rng) -> (Game, usize) {
    let mut game = Game::new(variant);
    let mut actions = ActionList::new();
    let mut plies = 0;
    loop {
        game.legal_actions_into(&mut actions);
        if actions.is_empty() {
            return (game, plies);
        }
        let action = actions[rng.below(actions.len())];
        game.play(action)
            .unwrap_or_else(|e| panic!("listed action {action} refused: {e}"));
        plies += 1;
        assert!(plies <= MAX_PLIES, "a game longer than {MAX_PLIES} plies");
    }
}

/// Games per timed iteration: few, so that a sample (~0.1 ms) rarely straddles a
/// time slice given to another process on a busy machine.
const GAMES: u64 = 4;

/// Time `GAMES` random playouts per iteration, fresh seeds each time; assert each
/// game ended and report games per second.
fn bench_playouts(bencher: Bencher, variant: Variant) {
    let mut seed = 0x5EED_u64;
    bencher.counter(ItemsCount::new(GAMES)).bench_local(|| {
        let mut ended = 0;
        let mut plies = 0;
        for _ in 0..GAMES {
            seed += 1;
            let mut rng = Rng::new(seed);
            let (game, n) = playout(black_box(variant), &mut rng);
            ended += game.ending().is_some() as u64;
            plies += n;
        }
        assert_eq!(ended, GAMES, "every playout reaches an ending");
        assert!(plies as u64 >= GAMES * 10, "every game places ten rings");
        plies
    });
}

/// Random playouts of normal games.
#[divan::bench(min_time = 2)]
fn playouts_normal(bencher: Bencher) {
    bench_playouts(bencher, Variant::Normal);
}

/// Random playouts of blitz games.
#[divan::bench(min_time = 2)]
fn playouts_blitz(bencher: Bencher) {
    bench_playouts(bencher, Variant::Blitz);
}

// ----- micro-benchmarks -------------------------------------------------------------

/// `legal_actions` of the crowded mid-game: the list of ring moves.
#[divan::bench]
fn legal_actions_crowded(bencher: Bencher) {
    let game = crowded();
    let n = game.legal_actions().len();
    assert!(
        n > 0
            && game
                .legal_actions()
                .iter()
                .all(|a| a.kind() == ActionKind::Move)
    );
    bencher.bench_local(|| {
        let list = black_box(&game).legal_actions();
        assert_eq!(list.len(), n);
        list.len()
    });
}

/// `legal_actions` right after placement.
#[divan::bench]
fn legal_actions_after_placement(bencher: Bencher) {
    let game = after_placement(Variant::Normal);
    let n = game.legal_actions().len();
    assert_eq!(n as u64, perft(&game, 1));
    bencher.bench_local(|| {
        let list = black_box(&game).legal_actions();
        assert_eq!(list.len(), n);
        list.len()
    });
}

/// `count_legal_actions` of the crowded mid-game (perft's last ply).
#[divan::bench]
fn count_legal_actions_crowded(bencher: Bencher) {
    let game = crowded();
    let n = game.legal_actions().len() as u64;
    bencher.bench_local(|| {
        let c = black_box(&game).count_legal_actions();
        assert_eq!(c, n);
        c
    });
}

/// `play` of every legal move of the crowded mid-game on a copy, per move.
#[divan::bench]
fn play_every_move_crowded(bencher: Bencher) {
    let game = crowded();
    let list = game.legal_actions();
    bencher
        .counter(ItemsCount::new(list.len()))
        .bench_local(|| {
            let mut acting = 0;
            for &a in list.iter() {
                let mut g = *black_box(&game);
                g.play(a)
                    .unwrap_or_else(|e| panic!("listed {a} refused: {e}"));
                acting += g.to_act().is_some() as usize;
            }
            assert_eq!(acting, list.len(), "no move of this position ends the game");
            acting
        });
}
