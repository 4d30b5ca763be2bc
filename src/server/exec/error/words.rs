//! The small pieces of English the refusals' texts share: plurals, lists of boards,
//! ordinals, a userid named by its place.

use std::fmt::Display;

use crate::server::command::{Echo, Said};
use crate::server::model::{BoardId, UserId};

/// A userid a listing named, as an error may show it: the first word after the
/// command by name (masked where the line's masking hides it), a later one by its
/// place only.
pub(super) fn nth_userid(userid: &Said<UserId>, nth: usize) -> String {
    match nth {
        1 => userid.to_string(),
        2 => "the 2nd userid named has no account".to_string(),
        3 => "the 3rd userid named has no account".to_string(),
        n => format!("the {n}th userid named has no account"),
    }
}

/// Why a move as written is not a turn: the notation's `error`, which quotes the
/// move, or, for a move masked where its line's masking hides it, how to write one.
pub(super) fn reason(text: &Echo, error: &dyn Display) -> String {
    if text.is_masked() {
        "it is not shown, as a word of it may be a password; write a placement like e5, a ring move like i8-f5, a removal like xg5-g9xa5, or the pass --".to_string()
    } else {
        error.to_string()
    }
}

pub(super) fn plural(n: usize, one: &'static str, more: &'static str) -> &'static str {
    if n == 1 { one } else { more }
}

pub(super) fn join(boards: &[BoardId]) -> String {
    boards
        .iter()
        .map(BoardId::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn or_nobody(who: &Option<UserId>) -> &str {
    who.as_ref().map_or("nobody", UserId::as_str)
}

/// Whose turn it is, as told to `me`: "your turn", "alice's turn", "nobody's turn".
pub(super) fn turn_of(to_move: &Option<UserId>, me: &UserId) -> String {
    match to_move {
        Some(u) if u == me => "your turn".to_string(),
        other => format!("{}'s turn", or_nobody(other)),
    }
}

pub(super) fn ordinal(n: &usize) -> String {
    match *n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        _ => format!("{n}th"),
    }
}

/// The sender's games going on, as a refusal lists them.
pub(super) fn yours(boards: &[BoardId]) -> String {
    match boards {
        [] => "You have no game going on.".to_string(),
        [one] => format!("Your game going on is board {one}."),
        more => format!("Your games going on are boards {}.", join(more)),
    }
}
