//! The lines of a board mail that tell a draw offer or a take-back request and its
//! answer (`exec::offer`): made, how to answer it, rejected, accepted.

use crate::server::model::{BoardId, OfferKind, UserId};

/// ` and the 2 turns after it` (`n` turns after the one taken back; nothing for 0),
/// with `tail` after it when there are any.
fn turns_after(n: usize, head: &str, tail: &str) -> String {
    if n > 0 {
        format!(
            "{head}the {n} turn{} after it{tail}",
            if n == 1 { "" } else { "s" }
        )
    } else {
        String::new()
    }
}

/// `me` asks to take back their move number `k` (written `text`), and the
/// `after` turns played since.
///
/// ```
/// use yinsh_pbem::server::text::offers::undo_asked;
/// assert_eq!(
///     undo_asked(&"alice".parse().unwrap(), 7, "e5", 1),
///     "alice asks to take back move #7 (e5) and the 1 turn after it."
/// );
/// ```
pub fn undo_asked(me: &UserId, k: usize, text: &str, after: usize) -> String {
    format!(
        "{me} asks to take back move #{k} ({text}){}.",
        turns_after(after, " and ", "")
    )
}

/// `me` offers a draw.
pub fn draw_proposed(me: &UserId) -> String {
    format!("{me} proposes a draw.")
}

/// `note` (the offer made), then how `other` answers it on `board`.
pub fn how_to_answer(note: &str, other: &UserId, board: BoardId) -> String {
    format!(
        "{note}\n{other} may answer with the Subject \"yinsh move {board} {other} <password> accept\" (or reject),\nor press Reply on this mail and write accept (or reject) as the first line."
    )
}

/// The first line of `note` (the offer made), then a robot's `answer` to it, in
/// place of the line that says how to answer.
pub fn answered_by_robot(note: &str, answer: &str) -> String {
    format!("{}\n{answer}", note.lines().next().unwrap_or_default())
}

/// `me` rejected the `kind` offered by `by`.
pub fn rejected(me: &UserId, by: &UserId, kind: OfferKind) -> String {
    format!("{me} rejected {by}'s {}.", kind.words())
}

/// `me` accepted the draw offered by `by`.
pub fn draw_accepted(me: &UserId, by: &UserId) -> String {
    format!("{me} accepted {by}'s draw offer.")
}

/// `me` accepted `by`'s take-back request: move `k` (written `text`) and the turns
/// after it, `taken` in all, were taken back.
pub fn taken_back(me: &UserId, by: &UserId, k: usize, text: &str, taken: usize) -> String {
    format!(
        "{me} accepted {by}'s take-back request: move #{k} ({text}) {}was taken back.",
        turns_after(taken.saturating_sub(1), "and ", " ")
    )
}
