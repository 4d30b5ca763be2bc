//! Turns of whole games for the notation and replay tests: actions grouped into
//! turns, and random legal playouts.

use yinsh_pbem::rules::{Action, Game, Variant};

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
