//! Turns of whole games for the tests: actions grouped into turns, random legal
//! playouts, seeded random games written turn by turn, and a ring's moves counted
//! the slow way (point by point, apart from the engine's bit masks).

use yinsh_pbem::notation::{auto_pass_due, write_turn};
use yinsh_pbem::rules::{Action, Color, Direction, Game, Piece, Point, Variant};

use yinsh_pbem::ai::Rng;

/// Split `actions`, played from `start`, into turns: each with the game before it.
/// A turn ends when the game is over or the side to act changes.
pub fn group_turns(start: Game, actions: &[Action]) -> Vec<(Game, Vec<Action>)> {
    let mut turns = Vec::new();
    let mut g = start;
    let mut k = 0;
    while k < actions.len() {
        let before = g;
        let side = g.to_act();
        let mut turn = Vec::new();
        while k < actions.len() && !g.is_over() && g.to_act() == side {
            g.play(actions[k])
                .unwrap_or_else(|e| panic!("{}: {e}", actions[k]));
            turn.push(actions[k]);
            k += 1;
        }
        turns.push((before, turn));
    }
    turns
}

/// Whether a turn of `before`'s side is over in `after`.
pub fn turn_complete(before: &Game, after: &Game) -> bool {
    after.is_over() || after.to_act() != before.to_act()
}

/// Play random legal actions until the game ends or `max` actions are played;
/// `choose(n)` picks one of `n` legal actions (uniformly, for a uniform playout).
pub fn random_playout(
    variant: Variant,
    max: usize,
    mut choose: impl FnMut(usize) -> usize,
) -> Vec<Action> {
    let mut g = Game::new(variant);
    let mut actions = Vec::new();
    while actions.len() < max {
        let legal = g.legal_actions();
        if legal.is_empty() {
            break;
        }
        let a = legal[choose(legal.len()) % legal.len()];
        g.play(a).unwrap();
        actions.push(a);
    }
    actions
}

/// The first `max` turns of a seeded random game of the normal variant (stopping
/// before a forced pass), each with the side that plays it, as text.
pub fn random_turns(seed: u64, max: usize) -> Vec<(Color, String)> {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(Variant::Normal);
    let mut turns = Vec::new();
    while let Some(side) = game.to_act() {
        if turns.len() == max || auto_pass_due(&game) {
            break;
        }
        let mut actions = Vec::new();
        while game.to_act() == Some(side) {
            let legal = game.legal_actions();
            let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
            game.play(a).expect("legal");
            actions.push(a);
        }
        turns.push((side, write_turn(&actions)));
    }
    turns
}

/// The turns of the first seeded random game from `seed` on (see [`random_turns`])
/// that removes a row within 80 turns, up to and including that turn.
pub fn turns_to_first_removal(seed: u64) -> Vec<(Color, String)> {
    (seed..)
        .find_map(|s| {
            let mut turns = random_turns(s, 80);
            let k = turns.iter().position(|(_, text)| text.contains('x'))?;
            turns.truncate(k + 1);
            Some(turns)
        })
        .expect("some seed gives a row")
}

/// The moves of the ring on `from` (yinsh-rules.md §3): along each line over empty
/// points, or over one group of markers to the first empty point after it, never past
/// a ring; counted point by point.
pub fn ring_moves(game: &Game, from: Point) -> usize {
    let mut n = 0;
    for d in Direction::ALL {
        let (mut p, mut jumped) = (from, false);
        while let Some(q) = d.step(p) {
            p = q;
            match game.piece_at(q) {
                Some(Piece::Ring(_)) => break,
                Some(Piece::Marker(_)) => jumped = true,
                None => {
                    n += 1;
                    if jumped {
                        break;
                    }
                }
            }
        }
    }
    n
}

/// One of the actions of `legal` with the least `key`, drawn by `rng` among the ties.
pub fn least_by<K: Ord + Copy>(
    legal: &[Action],
    rng: &mut Rng,
    key: impl Fn(Action) -> K,
) -> Action {
    let scored: Vec<(K, Action)> = legal.iter().map(|&a| (key(a), a)).collect();
    let best = scored.iter().map(|s| s.0).min().expect("a legal action");
    let ties: Vec<Action> = scored
        .into_iter()
        .filter(|s| s.0 == best)
        .map(|s| s.1)
        .collect();
    ties[rng.below(ties.len())]
}
