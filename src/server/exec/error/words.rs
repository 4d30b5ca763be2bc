//! The small pieces of English the refusals' texts share: plurals, lists of boards,
//! ordinals, a userid named by its place.

use crate::server::model::{BoardId, UserId};

/// A userid a listing named, as an error may show it: the first word after the
/// command by name, a later one by its place only.
pub(super) fn nth_userid(userid: &UserId, nth: usize) -> String {
    match nth {
        1 => userid.to_string(),
        2 => "the 2nd userid named has no account".to_string(),
        3 => "the 3rd userid named has no account".to_string(),
        n => format!("the {n}th userid named has no account"),
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
