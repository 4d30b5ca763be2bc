//! Search benchmarks (divan; figures and commands in docs/performance.md): playouts
//! per second and tree nodes per second of the robot's search and of plain UCT, from
//! the start of the ring moves and from a crowded mid-game, each a whole turn with a
//! fixed playout budget and seed. Every benchmark checks its turn (it reads back
//! through the notation as one legal whole turn, and the search spent its budget
//! and grew its tree) so it never times broken code.
//!
//! Run with `cargo bench --bench ai`; `cargo test --benches` runs each once.

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use yinsh_pbem::ai::{Budget, SearchConfig, ThinkSettings, Turn, think};
use yinsh_pbem::notation::{parse_turn, write_turn};
use yinsh_pbem::rules::{Action, Color, Game, Point, Setup, Variant};

fn main() {
    divan::main();
}

/// Playouts a benchmarked turn may spend.
const PLAYOUTS: u64 = 2_000;

/// Ten rings placed, White to make the first ring move.
fn after_placement() -> Game {
    let mut g = Game::new(Variant::Normal);
    for p in "e5 f6 a2 k10 b1 j11 c8 i4 g2 e10".split_whitespace() {
        let a: Action = p
            .parse()
            .unwrap_or_else(|e| panic!("bench constant {p}: {e}"));
        g.play(a)
            .unwrap_or_else(|e| panic!("bench action {p}: {e}"));
    }
    g
}

/// The crowded mid-game of benches/engine.rs: ten rings, 26 markers, White to move.
fn crowded() -> Game {
    let pts = |s: &str| -> Vec<Point> {
        s.split_whitespace()
            .map(|p| {
                p.parse()
                    .unwrap_or_else(|e| panic!("bench constant {p}: {e}"))
            })
            .collect()
    };
    let mut setup = Setup::new(Variant::Normal)
        .rings(Color::White, pts("c3 e6 g4 h8 d9"))
        .rings(Color::Black, pts("f5 b5 i6 e3 g9"));
    let markers = "b2 b4 c5 c6 d3 d4 d6 d7 e4 e5 e7 e8 f3 f4 f6 f7 f8 g5 g6 g7 h5 h6 h7 i7 i8 c2";
    for p in pts(markers) {
        let c = if (p.column() + p.number()) % 3 == 1 {
            Color::Black
        } else {
            Color::White
        };
        setup = setup.marker(c, p);
    }
    setup
        .build()
        .unwrap_or_else(|e| panic!("crowded set-up: {e}"))
}

fn settings(search: SearchConfig) -> ThinkSettings {
    ThinkSettings {
        budget: Budget::Playouts(PLAYOUTS),
        search,
        seed: 1,
    }
}

/// The turn, checked: one legal whole turn, the budget spent, the tree grown.
fn checked(game: &Game, turn: Turn) -> Turn {
    let text = write_turn(&turn.actions);
    let mut after = *game;
    let actions = parse_turn(&text)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .play(&mut after)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(actions, turn.actions);
    assert_ne!(after.to_act(), game.to_act());
    assert!(turn.playouts >= PLAYOUTS, "{}", turn.playouts);
    assert!(turn.nodes > 100, "{}", turn.nodes);
    turn
}

/// Time one turn of `search` from `game`, counting playouts or nodes.
fn bench_turn(bencher: Bencher, game: Game, search: SearchConfig, nodes: bool) {
    let s = settings(search);
    let first = checked(&game, think(&game, &s).unwrap_or_else(|e| panic!("{e}")));
    let count = if nodes {
        first.nodes as u64
    } else {
        first.playouts
    };
    bencher.counter(ItemsCount::new(count)).bench_local(|| {
        let turn = think(black_box(&game), &s).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(turn, first, "the same seed gives the same turn");
        turn
    });
}

/// Playouts per second, the robot's search, first ring move.
#[divan::bench(min_time = 1, sample_count = 10)]
fn robot_playouts_after_placement(bencher: Bencher) {
    bench_turn(bencher, after_placement(), SearchConfig::ROBOT, false);
}

/// Playouts per second, the robot's search, crowded mid-game.
#[divan::bench(min_time = 1, sample_count = 10)]
fn robot_playouts_crowded(bencher: Bencher) {
    bench_turn(bencher, crowded(), SearchConfig::ROBOT, false);
}

/// Tree nodes per second, the robot's search, crowded mid-game.
#[divan::bench(min_time = 1, sample_count = 10)]
fn robot_nodes_crowded(bencher: Bencher) {
    bench_turn(bencher, crowded(), SearchConfig::ROBOT, true);
}

/// Playouts per second, plain UCT (random playouts to the end), first ring move.
#[divan::bench(min_time = 1, sample_count = 10)]
fn uct_playouts_after_placement(bencher: Bencher) {
    bench_turn(bencher, after_placement(), SearchConfig::PLAIN_UCT, false);
}

/// Tree nodes per second, plain UCT, crowded mid-game.
#[divan::bench(min_time = 1, sample_count = 10)]
fn uct_nodes_crowded(bencher: Bencher) {
    bench_turn(bencher, crowded(), SearchConfig::PLAIN_UCT, true);
}
