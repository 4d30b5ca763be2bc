//! Hand-made positions that pin down the rules engine against yinsh-rules.md, one
//! test per rule, each named after its section. Positions are built only through
//! `rules::Setup` (via `naive::Spec`) or by playing legal actions. Every refusal is
//! checked to leave the whole `Game` unchanged.

mod ending;
mod jumps;
mod placement;
mod rows;
mod setup;

use yinsh_pbem::rules::{Action, Game, IllegalAction, Point};

/// Rings parked out of the way in most positions here: White on column k, Black on
/// number 11. Tests add each side's fifth ring (or more) where the action is.
pub const PARK: [&str; 2] = ["k7 k8 k9 k10", "g11 h11 i11 j11"];

/// Ring lists: White's `white` and Black's `black` plus the parked rings.
pub fn parked(white: &str, black: &str) -> [&'static str; 2] {
    [
        format!("{white} {}", PARK[0]).leak(),
        format!("{black} {}", PARK[1]).leak(),
    ]
}

/// A point from its text.
pub fn p(s: &str) -> Point {
    s.parse().unwrap()
}

/// An atomic action from its text.
pub fn act(s: &str) -> Action {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Play `text`: it must be listed, `check` must accept it, and `play` must do it.
pub fn play(game: &mut Game, text: &str) {
    let a = act(text);
    assert!(
        game.legal_actions().contains(&a),
        "{a} is not listed: {:?}",
        game.legal_actions()
    );
    assert_eq!(game.check(a), Ok(()), "{a}");
    game.play(a).unwrap_or_else(|e| panic!("{a}: {e}"));
}

/// `text` is refused for `why`, is not listed, and leaves the whole game unchanged.
pub fn refused(game: &Game, text: &str, why: IllegalAction) {
    let a = act(text);
    assert_eq!(game.check(a), Err(why), "check {a}");
    assert!(!game.legal_actions().contains(&a), "{a} is listed");
    let mut copy = *game;
    assert_eq!(copy.play(a), Err(why), "play {a}");
    assert_eq!(copy, *game, "refusing {a} changed the game");
    assert_eq!(game.after(a), Err(why), "after {a}");
    assert!(!why.to_string().is_empty());
}

/// The legal actions as sorted text.
pub fn legal(game: &Game) -> Vec<String> {
    crate::naive::sorted(game.legal_actions().iter().copied())
}

/// The landing points of the legal moves of the ring at `from`, sorted.
pub fn moves_from(game: &Game, from: &str) -> Vec<String> {
    let from = p(from);
    let mut v: Vec<String> = game
        .legal_actions()
        .iter()
        .filter_map(|a| match *a {
            Action::Move { from: f, to } if f == from => Some(to.to_string()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// Sorted text of a space-separated list, to compare with `legal` and `moves_from`.
pub fn list(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}
