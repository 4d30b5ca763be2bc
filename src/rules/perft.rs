//! perft: the number of atomic-action sequences of a given length from a position
//! (yinsh-rules.md §6), counting the last ply in bulk.

use super::game::Game;

/// The number of action sequences of length `depth` from `game`. A finished game has
/// no children; depth 0 counts the position itself.
///
/// ```
/// use yinsh_pbem::rules::{perft, Game, Variant};
/// assert_eq!(perft(&Game::new(Variant::Normal), 2), 7140);
/// ```
pub fn perft(game: &Game, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => game.count_legal_actions(),
        _ => {
            // Each action straight from the generator to its child (copy-make): no
            // list is built.
            let mut total = 0;
            game.for_each_legal_action(|a| {
                let mut child = *game;
                child.apply(a);
                total += perft(&child, depth - 1);
            });
            total
        }
    }
}

/// perft split by first action: each legal action with the count below it.
pub fn perft_divide(game: &Game, depth: u32) -> Vec<(super::Action, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    game.legal_actions()
        .iter()
        .map(|&a| {
            let mut child = *game;
            child.apply(a);
            (a, perft(&child, depth - 1))
        })
        .collect()
}
