//! TEMPORARY stub of the ASCII board (the real one is written in parallel): the same
//! API, printing only a status line, so that `replay` compiles.

use crate::rules::{Color, Game, Outcome};

/// The names shown for the two sides.
#[derive(Debug, Clone, Copy)]
pub struct SideNames<'a> {
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
}

impl Default for SideNames<'_> {
    fn default() -> Self {
        SideNames {
            white: "White",
            black: "Black",
        }
    }
}

/// A status line for `game` (stub), ending with `\n`.
pub fn render(game: &Game, names: &SideNames) -> String {
    let name = |c: Color| match c {
        Color::White => names.white,
        Color::Black => names.black,
    };
    match (game.outcome(), game.to_act()) {
        (Some(Outcome::Win(c)), _) => format!("Game won by {}.\n", name(c)),
        (Some(Outcome::Draw), _) => "Game was a tie.\n".to_string(),
        (None, Some(c)) => format!("It is {}'s turn.\n", name(c)),
        (None, None) => "\n".to_string(),
    }
}
