//! The short notices a player reads (and one to an account's owner): the reminder
//! of a turn not played, the storm, size and per-mail limits, an offer that lapsed,
//! logins paused, and the answers to a reply the server cannot act on. Each is a
//! function of the facts it tells; the mails around them are built where they are
//! sent.

use crate::mail::Address;
use crate::server::model::{BoardId, OfferKind, UserId};

use super::dates::format_date;
use super::subjects::OurMail;

/// The line of an error mail that carries a reply token to a player of a game going
/// on: pressing Reply works (issue 26 item 15).
pub const REPLY_WORKS: &str = "Press Reply and send the corrected move as the first line (or resign,\npropose, accept, reject, undo, pass, chat); a reply needs no password.";

/// The reminder in a nag mail: `player` has not moved on `board` for `days` days;
/// the game is forfeited after `forfeit_days`.
pub fn not_moved(board: BoardId, player: &UserId, days: u64, forfeit_days: u32) -> String {
    format!(
        "You have not moved on board {board} for {days} day{} (vacation days not counted).\nA player who does not move in {forfeit_days} days forfeits the game.\n(Going away? Send: vacation {player} <password> <days>)",
        if days == 1 { "" } else { "s" },
    )
}

/// The storm limit: more than `max` mails in `period_seconds`, handled again from
/// `until`; sent once a period.
pub fn storm(max: u32, period_seconds: u64, until: u64) -> String {
    format!(
        "You have sent more than {max} mails in {} minutes that proved no sender. Such mail from you\nis not handled until {}; this notice is sent once per period. Nothing from the\ndropped mails was done. Commands with your userid and password, and replies to\nyour board mails, are handled at any pace.",
        period_seconds / 60,
        format_date(until),
    )
}

/// The line added to the last mail of the day (`max`) that mail proving no sender
/// may cause to one mailbox; more are sent from `until`.
pub fn stranger_budget_spent(max: u32, until: u64) -> String {
    format!(
        "\n(This address has now been sent {max} mails today answering mail that proved no\nsender: mail with no password that was no Reply to one of your board, chat or\nmessage mails, which anyone can send with this address as its From or Reply-To.\nMore answers to such mail are not sent until {}. Still answered at any pace:\nyour Reply to one of your board, chat or message mails (its first line a move, a\nchat or any command, such as yinsh standings), and commands with your userid and\npassword.)\n",
        format_date(until),
    )
}

/// The last of the `max` mails an unconfirmed address gets today (`until` is when
/// more come): what to do to get them all.
pub fn unconfirmed_budget_spent(max: u32, until: u64) -> String {
    format!(
        "\n(This address is not confirmed yet and has now been sent {max} mails today, the\nmost an unconfirmed address gets in a day. More are not sent until {}. To get\nall of them, confirm it: answer the mail with the Subject \"verify <userid> <code>\"\nthat was sent to it.)\n",
        format_date(until),
    )
}

/// In a comment writer's own copy of the board mail, when it goes to an address nobody
/// confirmed: the comment is theirs, and it is not repeated there, since anyone may
/// have signed up with that address (issue 47 item 10; no stranger's words reach an
/// address that did not ask for them).
pub const OWN_COMMENT_HELD: &str = "(Your comment is not repeated here: this address is not confirmed yet. Once\nyou reply to the \"verify\" mail the server sent it, your copies show your\ncomments.)";

/// What a reader reads instead of another player's comment once their mailbox got
/// its `max` chats, messages and comments of the day.
pub fn comment_over_cap(max: u32) -> String {
    format!(
        "(The comment is not shown: this address got {max} chats, messages and comments\ntoday, the most one mailbox gets in a day. The game's moves still come.)"
    )
}

/// What `me` can still do after the game on `board` against `opponent` is over,
/// told to a reply to one of its mails ("Thanks, good game!"): the words went to
/// nobody; a chat, the review, the history and a new game do.
pub fn after_the_game(board: BoardId, me: &UserId, opponent: &UserId) -> String {
    let chat = if opponent.robot_level().is_some() {
        String::new()
    } else {
        format!(
            "To write to {opponent}, reply to this mail with chat as the first line and your\nwords below it. "
        )
    };
    format!(
        "The game on board {board} is over: nothing was played, and your words were sent to\nnobody. {chat}Reply with review as the first line for the robot's review of the\ngame. Send \"yinsh history {me}\" for your finished games, or\n\"yinsh challenge {me} {opponent}\" for a new game."
    )
}

/// A mail of `size` bytes over the limit of `limit` bytes.
pub fn too_big(size: usize, limit: usize) -> String {
    format!(
        "Your mail of {size} bytes is larger than the limit of {limit} bytes, so it was not handled\nand nothing in it was stored. Send the command again without attachments."
    )
}

/// A mail that asked for `asked` replies, of which `sent` were sent (at most `max`
/// a mail, this notice one of them).
pub fn replies_capped(asked: usize, sent: usize, max: usize) -> String {
    format!(
        "Your mail asked for {asked} mails; only the first {sent} were sent (at most {max} a mail). Ask for fewer at a time."
    )
}

/// A `multiple` mail of `total` commands of which the first `done` were carried out
/// (at most `max_commands` commands and `max_replies` replies a mail).
pub fn commands_capped(
    done: usize,
    total: usize,
    max_commands: usize,
    max_replies: usize,
) -> String {
    format!(
        "Only the first {done} of the {total} commands of your multiple mail were carried out (at most {max_commands} commands and {max_replies} replies a mail). The rest were not: send them in another mail."
    )
}

/// A challenge past the `max` one mail may make.
pub fn challenges_capped(max: usize) -> String {
    format!(
        "One mail may start at most {max} games: this challenge was not made. Send it in another mail."
    )
}

/// A challenge made without a password whose mail had a message (issue 26 finding
/// 5): the message was not passed on, and how to send it so that it is. Nothing of
/// the challenge is repeated: its sender is unproven.
pub fn challenge_message_withheld() -> String {
    "The game was started, but the message in your mail was not passed on: a challenge\nwithout a password could come from anyone, so it carries only the server's words.\nTo send a message with a challenge, give the password of the player who challenges\n(one of the two), and write the message in the body:\n    yinsh challenge -password <password> <userid1> <userid2>\n".to_string()
}

/// `text` about one line of a `multiple` mail (`line` as it may be shown, passwords
/// masked).
pub fn in_the_line(line: &str, text: &str) -> String {
    format!("In the line \"{line}\":\n{text}")
}

/// The `kind` offered by `by` lapsed when `mover` played move `number` (before
/// `waiting`, who was to answer it, did).
pub fn offer_lapsed(
    kind: OfferKind,
    by: &UserId,
    mover: &UserId,
    number: u32,
    waiting: &UserId,
) -> String {
    if by == mover {
        format!(
            "{mover}'s {} lapsed: {mover} played move #{number} before {waiting} answered it.",
            kind.words(),
        )
    } else {
        format!(
            "{by}'s {} lapsed: {mover} played move #{number} instead of answering it.",
            kind.words()
        )
    }
}

/// To the owner of `userid`: `failures` wrong passwords within an hour paused its
/// logins until `until`.
pub fn logins_paused(userid: &UserId, failures: u32, until: u64) -> String {
    format!(
        "{failures} wrong passwords were sent for your userid {userid} within an hour, from\n\
         addresses that may not be yours. Logins for {userid} are paused until {}: until\n\
         then every command with your password is refused, yours too. Nothing else\n\
         happened: your password was not given away. (The right code of a \"verify\"\n\
         mail still confirms an address meanwhile.)\n\n\
         If the wrong passwords were not yours, someone is guessing. Choose a long password\n\
         if yours is short: change password {userid} <current-password> <new-password>\n",
        format_date(until)
    )
}

/// Why the server cannot act on a reply to one of its mails.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unusable {
    /// The reply names none of the server's token-bearing mails.
    NoToken,
    /// It names one, but not one the server can act on for the sender.
    NotActable,
}

impl Unusable {
    fn why(self) -> &'static str {
        match self {
            Unusable::NoToken => {
                "it does not say which of the server's mails it answers (your mail program left out\nthe In-Reply-To and References headers)"
            }
            Unusable::NotActable => {
                "the mail it answers is not one this server can act on for you (it may date from\nbefore the server's reply key was changed)"
            }
        }
    }
}

/// The answer to a reply to `ours` (the mail its Subject names) that cannot be acted
/// on: what to send instead. `operator` is told of a security notice not the
/// player's.
pub fn unusable_reply(ours: Option<&OurMail>, why: Unusable, operator: Option<&Address>) -> String {
    let why_text = why.why();
    match ours {
        Some(OurMail::Board(n)) => format!(
            "Your reply could not be read as a move on board {n}: {why_text}.\nNothing was done. Press Reply on the latest board mail of the game and write your\nmove as the first line, or send a mail with this Subject:\n    yinsh move {n} <userid> <password> <move>\n"
        ),
        Some(OurMail::Chat(n)) => format!(
            "Your reply could not be passed on as a chat on board {n}: {why_text}.\nNothing was done. To chat, send a mail with this Subject and your text as the body:\n    yinsh chat {n} <userid> <password>\n"
        ),
        Some(OurMail::Message(to)) => unusable_reply_to_message(to, why),
        Some(OurMail::Broadcast) => "Replies to a broadcast are not passed on: nothing was done. To write to a player,\nsend a mail with this Subject and your text as the body:\n    message <userid> <password> <to-userid>\n".to_string(),
        Some(OurMail::Security) => format!(
            "Nobody reads replies to this notice: nothing was done. If the change was not yours,\nsomeone else knows your password: {}\n",
            operator.map_or_else(
                || "tell the operator of this server (write to its postmaster).".to_string(),
                |op| format!("write to the operator of this server, {op}.")
            )
        ),
        Some(OurMail::Notice) | None => "The server cannot act on a reply to this mail: nothing was done. Send \"help\" for\nthe commands.\n".to_string(),
    }
}

/// The answer to an unusable reply to a message from `to` (a userid, or a
/// placeholder where the userid may not be shown).
pub fn unusable_reply_to_message(to: &str, why: Unusable) -> String {
    format!(
        "Your reply could not be passed on to {to}: {}.\nNothing was done. To write to {to}, send a mail with this Subject and your text as the body:\n    message <userid> <password> {to}\n",
        why.why()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limits_read_as_before() {
        // The storm notice says until when (issue 25 finding 15).
        assert_eq!(
            storm(60, 3600, 1_795_384_020),
            "You have sent more than 60 mails in 60 minutes that proved no sender. Such mail from you\nis not handled until 2026-11-22 21:47 UTC; this notice is sent once per period. Nothing from the\ndropped mails was done. Commands with your userid and password, and replies to\nyour board mails, are handled at any pace."
        );
        assert_eq!(
            replies_capped(70, 49, 50),
            "Your mail asked for 70 mails; only the first 49 were sent (at most 50 a mail). Ask for fewer at a time."
        );
        assert_eq!(
            in_the_line("yinsh show 101", "Oops."),
            "In the line \"yinsh show 101\":\nOops."
        );
    }

    #[test]
    fn a_lapsed_offer_names_who_was_to_answer_only_when_the_offerer_moved() {
        let (alice, bob): (UserId, UserId) = ("alice".parse().unwrap(), "bob".parse().unwrap());
        assert_eq!(
            offer_lapsed(OfferKind::Draw, &alice, &alice, 7, &bob),
            "alice's draw offer lapsed: alice played move #7 before bob answered it."
        );
        assert_eq!(
            offer_lapsed(OfferKind::Undo, &bob, &alice, 7, &bob),
            "bob's take-back request lapsed: alice played move #7 instead of answering it."
        );
    }

    #[test]
    fn an_unusable_reply_to_a_message_names_its_sender() {
        let text = unusable_reply(
            Some(&OurMail::Message("carol".into())),
            Unusable::NoToken,
            None,
        );
        assert_eq!(text, unusable_reply_to_message("carol", Unusable::NoToken));
        assert_eq!(
            text,
            "Your reply could not be passed on to carol: it does not say which of the server's mails it answers (your mail program left out\nthe In-Reply-To and References headers).\nNothing was done. To write to carol, send a mail with this Subject and your text as the body:\n    message <userid> <password> carol\n"
        );
    }
}
