//! The texts of the commands about people (`exec::social`): a chat or message as
//! its reader gets it (signed, and how to answer it), a broadcast, what the sender
//! is told was sent, watching a game, and a vacation as the player and their
//! opponents are told it.

use crate::server::model::{BoardId, UserId};

use super::dates::format_date;
use super::reply::STARS;

/// `text` signed by `who`: how a broadcast reads.
pub fn signed(text: &str, who: &str) -> String {
    format!("{who} writes:\n\n{}\n", text.trim_end())
}

/// What a Reply to a chat or message becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// A chat on this board.
    Chat(BoardId),
    /// A message to its writer.
    Message,
}

/// A chat or message as its reader gets it: signed by `who`, then how to answer it
/// (issue 26 finding 18: a Reply to it goes back as a chat on the board, or a
/// message).
///
/// ```
/// use yinsh_pbem::server::text::social::{signed_answerable, Answer};
/// assert!(signed_answerable("Hi.\n", "alice", Answer::Chat(101.into()))
///     .ends_with("goes back to alice as\na chat on board 101.\n"));
/// ```
pub fn signed_answerable(text: &str, who: &str, answer: Answer) -> String {
    let answer = match answer {
        Answer::Chat(board) => format!("a chat on board {board}"),
        Answer::Message => "a message (no password needed)".to_string(),
    };
    format!(
        "{}\n{STARS}\nPress Reply to answer {who}: the text of your reply goes back to {who} as\n{answer}.\n",
        signed(text, who)
    )
}

/// To the sender of a chat on `board`: who it went to (`told`, nobody when empty).
pub fn chat_sent(board: BoardId, told: &[UserId]) -> String {
    // The players and watchers of a game are named in its board mails: public.
    let names = if told.is_empty() {
        "nobody: nobody else on the board reads mail".to_string()
    } else {
        UserId::join(told, ", ")
    };
    format!("Your chat on board {board} was sent to {names}.\n")
}

/// To the sender of a message: the userids it went to.
pub fn message_sent(to: &[&UserId]) -> String {
    let names: Vec<String> = to.iter().map(ToString::to_string).collect();
    format!("Your message was sent to {}.\n", names.join(", "))
}

/// What `subscribe` or `unsubscribe` did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Watching {
    /// `subscribe` by a watcher.
    Already,
    /// `unsubscribe` by someone not watching.
    Not,
    /// `subscribe`: now watching.
    Now,
    /// `unsubscribe`: no longer watching.
    NoLonger,
}

/// The line of the board mail that tells `userid` what `watching` did on `board`.
pub fn watching(board: BoardId, userid: &UserId, watching: Watching) -> String {
    match watching {
        Watching::Already => format!("You already watch board {board}."),
        Watching::Not => format!("You were not watching board {board}."),
        Watching::Now => format!(
            "You now watch board {board}: you get every board mail of the game.\nTo stop: yinsh unsubscribe {board} {userid} <password>"
        ),
        Watching::NoLonger => format!("You no longer watch board {board}."),
    }
}

/// `board 101` or `boards 101, 102`.
fn boards_words(list: &[BoardId]) -> String {
    let numbers: Vec<String> = list.iter().map(ToString::to_string).collect();
    format!(
        "{} {}",
        if list.len() == 1 { "board" } else { "boards" },
        numbers.join(", ")
    )
}

/// ` on board 101` (nothing without a game going on).
fn on_boards(list: &[BoardId]) -> String {
    if list.is_empty() {
        String::new()
    } else {
        format!(" on {}", boards_words(list))
    }
}

/// To `userid`: on vacation until `until`, the clocks of `boards` (their games going
/// on) stopped.
pub fn on_vacation(userid: &UserId, until: u64, boards: &[BoardId]) -> String {
    format!(
        "{userid} is on vacation until {}.\nYour clocks are stopped{}: no reminders, no forfeits, and the time does not count.\nTo come back early: vacation {userid} <password> 0\n",
        format_date(until),
        on_boards(boards),
    )
}

/// To `userid` and to their opponents: back from vacation, the clocks of `boards`
/// run again (issue 26 finding 7: the boards are named).
pub fn back_from_vacation(userid: &UserId, boards: &[BoardId]) -> String {
    if boards.is_empty() {
        format!("{userid} is back from vacation: the clocks run again.\n")
    } else {
        format!(
            "{userid} is back from vacation: the clocks of {} run again.\n",
            boards_words(boards)
        )
    }
}

/// To an opponent of `who` on `boards`: `who` is on vacation until `until`.
pub fn opponent_on_vacation(who: &UserId, until: u64, boards: &[BoardId]) -> String {
    format!(
        "{who} is on vacation until {}. On {} the clocks are stopped until\nthen: no reminders, no forfeits, and the time does not count. You may still move.\n",
        format_date(until),
        boards_words(boards)
    )
}
