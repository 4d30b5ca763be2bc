//! Playing by pressing Reply: a mail that answers one of the server's mails is
//! handled here before its Subject is read as a command.
//!
//! The reply token in the Message-ID of the mail answered (found in In-Reply-To and
//! References by [`threading::tokens_named`]) says who may do what: it must check
//! under the store's reply key, and the reply's From must be one of that player's
//! addresses; only then do the commands built here act for the player without a
//! password ([`Request::proven`]). A board mail's token acts at the move number it was
//! sent for: a reply to an older board mail is refused like a stale `#moveno`, with
//! the board as it is now. The first line of the reply (quotes, attribution and
//! signature removed) is the turn, `resign`, `propose`, `accept`, `reject`, `undo`,
//! `pass` or `--`, `chat`, or `decline` (a game someone else started, before the
//! player's first move); the rest is the comment. A first line in pbmserv's
//! syntax is carried out as that command, with its password; a misspelt one with a
//! board gets the correction a Subject would (`syntax::error_mail`). A reply to a chat mail
//! is a chat on that board, a reply to a message a message back to its sender.
//!
//! A reply whose Subject names one of the server's mails (`Re: Yinsh Board 101 ...`,
//! `Re: Message from alice`...) is never read as a command: without a genuine token
//! (or a command in its first line) it gets one short answer saying what to send.

use crate::mail::{InboundMail, comment_of};
use crate::server::command::{BoardAction, Command, CommandError, Credentials, OfferAction};
use crate::server::config::Settings;
use crate::server::exec::{self, Actor, Refusal, Request};
use crate::server::game::record::LiveGame;
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, Password, Proof};
use crate::server::outgoing::{Foreign, Reply, threading};
use crate::server::store::{ReplyScope, ReplyToken, Store};
use crate::server::text::notices::{self, Unusable};
use crate::server::text::subjects::{self, OurMail};

use super::identity::{self, TokenProof};
use super::syntax;

/// What a reply to one of our mails is answered with.
#[derive(Debug)]
pub struct Answered {
    /// The replies to send.
    pub replies: Vec<Reply>,
    /// The reply's first line when it was read as a command, or reads as one
    /// (pbmserv's syntax, misspelt or not, in place of a turn): the caller masks in
    /// `replies` the words of it that may be a password, as for a Subject line.
    pub command_line: Option<String>,
}

/// The replies to `inbound` when it is a reply to one of our mails; `None` when it
/// is not (its Subject is then read as a command, as always). `note` gets log lines.
pub fn answer(
    store: &Store,
    settings: &Settings,
    req: &Request<'_>,
    inbound: &InboundMail,
    note: &mut dyn FnMut(String),
) -> Result<Option<Answered>, InternalError> {
    let ours = inbound
        .replying
        .then(|| OurMail::named(&inbound.subject))
        .flatten();
    let named = threading::tokens_named(inbound);
    if ours.is_none() && (named.is_empty() || Command::parse(&inbound.subject).is_ok()) {
        return Ok(None);
    }
    let (first, rest) = split_reply(&inbound.body);
    let parsed = Command::parse(&first);
    let mut a_text = false;
    let replies = replies(
        store,
        settings,
        req,
        inbound,
        (ours, named),
        (&first, &parsed, &rest),
        (note, &mut a_text),
    )?;
    // A chat or a message is the player's text, sent as written; anything else
    // written as a command is masked as a Subject line is.
    let as_command = !a_text && reads_as_command(&first, &parsed);
    Ok(Some(Answered {
        replies,
        command_line: as_command.then_some(first),
    }))
}

/// Whether a reply's first line is written as a command: one, a misspelt one the
/// parser names, or `yinsh` and a word the parser does not know (`yinsh xyzzy 101
/// alice pw`: tried as a turn, its error would quote the line).
fn reads_as_command(first: &str, parsed: &Result<Command, CommandError>) -> bool {
    let word = first.split_whitespace().next().unwrap_or("");
    word.eq_ignore_ascii_case("yinsh")
        || matches!(
            parsed,
            Ok(_)
                | Err(CommandError::DidYouMean { .. }
                    | CommandError::WithoutYinsh { .. }
                    | CommandError::Syntax { .. })
        )
}

/// [`answer`]'s replies to a reply naming `ours` (the mail its Subject names) and
/// carrying the tokens `named`, whose body is its first line (`parsed` as a command)
/// and the rest; `note`
/// gets log lines, and `a_text` is set when the body was sent on as a chat or a
/// message.
fn replies(
    store: &Store,
    settings: &Settings,
    req: &Request<'_>,
    inbound: &InboundMail,
    (ours, named): (Option<OurMail>, Vec<ReplyToken>),
    (first, parsed, rest): (&str, &Result<Command, CommandError>, &str),
    (note, a_text): (&mut dyn FnMut(String), &mut bool),
) -> Result<Vec<Reply>, InternalError> {
    // pbmserv's syntax in the first line: that command, with its own password.
    if let Ok(cmd) = parsed {
        note(format!(
            "reply: its first line is a command: {}",
            redact_line(first)
        ));
        let sub = Request {
            reply_to: req.reply_to.clone(),
            comment: rest,
            proven: None,
            ..*req
        };
        return identity::act(store, &sub, cmd);
    }
    // A misspelt command with a board and more (`yinsh mvoe 101 alice pw e5`, `move
    // 101 alice pw e5`) gets the correction a Subject would, not a turn's error; a
    // turn (`resign`, `accept`, `move e5`) or a sentence ("That was me") is not one.
    let words: Vec<&str> = first.split_whitespace().take(3).collect();
    let with_board = words.len() == 3
        && words[1..]
            .iter()
            .any(|w| w.bytes().all(|b| b.is_ascii_digit()));
    if with_board
        && let Err(e) = parsed
        && matches!(
            e,
            CommandError::DidYouMean { .. } | CommandError::WithoutYinsh { .. }
        )
    {
        note(format!(
            "reply: its first line is a misspelt command: {}",
            redact_line(first)
        ));
        return Ok(syntax::error_mail(req, e, None).into_iter().collect());
    }
    let (token, account) = match identity::reply_token(store, inbound, note)? {
        TokenProof::Proven { token, account } => (token, account),
        TokenProof::Nothing => {
            return Ok(unmatched(req, ours.as_ref(), named.is_empty(), settings));
        }
        TokenProof::NoAccount(token) => {
            note(format!(
                "reply token of {}: no such account now",
                token.scope.userid()
            ));
            return Ok(unmatched(req, ours.as_ref(), false, settings));
        }
        TokenProof::NotTheirs(token) => {
            let userid = token.scope.userid();
            let from = inbound.from.as_deref().unwrap_or("(no From)").to_string();
            note(format!(
                "reply token of {userid} refused: {from} is not one of their addresses"
            ));
            let refusal = Refusal::ReplyNotYours {
                userid: userid.clone(),
                from,
            };
            return exec::refused(store, req, &refusal);
        }
    };
    let userid = account.userid.clone();
    note(format!(
        "reply token of {userid} accepted: {:?}",
        token.scope
    ));
    let whole = comment_of(&inbound.body);
    let proven = Request {
        reply_to: req.reply_to.clone(),
        proven: Some(&userid),
        ..*req
    };
    let actor = Actor {
        account,
        proof: Proof::ReplyToken,
    };
    let auth = Credentials {
        userid: userid.clone(),
        password: Password::unchecked(),
    };
    let cmd = match &token.scope {
        ReplyScope::Board { board, moveno, .. } => {
            match board_action(store, *board, *moveno, first)? {
                Ok(action) => {
                    let sub = Request {
                        reply_to: req.reply_to.clone(),
                        comment: rest,
                        ..proven
                    };
                    let cmd = Command::Board {
                        board: *board,
                        auth,
                        action,
                    };
                    return exec::execute(store, &sub, Some(&actor), &cmd);
                }
                Err(refusal) => return exec::refused(store, &proven, &refusal),
            }
        }
        ReplyScope::Chat { board, .. } => Command::Board {
            board: *board,
            auth,
            action: BoardAction::Chat,
        },
        ReplyScope::Message { to, .. } => Command::Message {
            auth,
            to: vec![to.clone()],
        },
    };
    let sub = Request {
        reply_to: req.reply_to.clone(),
        comment: &whole,
        ..proven
    };
    *a_text = true;
    exec::execute(store, &sub, Some(&actor), &cmd)
}

/// What the first line of a reply to a board mail asks on `board`, whose token was
/// minted when the next turn was `moveno`; `Err` when it cannot be done now.
fn board_action(
    store: &Store,
    board: BoardId,
    moveno: u32,
    first: &str,
) -> Result<Result<BoardAction, Refusal>, InternalError> {
    let word = first.to_ascii_lowercase();
    if word == "chat" {
        return Ok(Ok(BoardAction::Chat));
    }
    // A decline holds until the player's first move, whatever mail it answers.
    if word == "decline" {
        return Ok(Ok(BoardAction::Decline));
    }
    let Some(file) = store.game(board)? else {
        return Ok(Err(Refusal::BoardNotFound { board }));
    };
    let live = LiveGame::load(file)?;
    if live.game().is_over() {
        return Ok(Err(Refusal::GameEnded { board }));
    }
    if first.is_empty() {
        return Ok(Err(Refusal::EmptyReply { board }));
    }
    let (text, marked) = match first.rsplit_once('#') {
        Some((text, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            (text.trim(), n.parse::<u32>().ok())
        }
        _ => (first, None),
    };
    let number = live.next_turn_number();
    if moveno != number {
        return Ok(Err(Refusal::StaleMoveNumber {
            board,
            text: text.to_string(),
            number,
            marked: moveno,
        }));
    }
    Ok(Ok(if let Some(offer) = OfferAction::from_word(text) {
        BoardAction::Offer(offer)
    } else if text.eq_ignore_ascii_case("resign") {
        BoardAction::Resign
    } else {
        let text = if text.eq_ignore_ascii_case("pass") {
            "--"
        } else {
            text
        };
        BoardAction::Move {
            text: text.to_string(),
            moveno: Some(marked.unwrap_or(moveno)),
        }
    }))
}

/// The first line of a reply and the rest (the comment): quoted text, the
/// attribution above it and the signature left out. A first line `--` is a pass
/// (not a signature), its comment what follows it.
pub fn split_reply(body: &str) -> (String, String) {
    if let Some(after) = after_leading_dashes(body) {
        return ("--".to_string(), comment_of(after));
    }
    let comment = comment_of(body);
    let mut lines = comment.lines();
    let first = lines.next().unwrap_or("").trim().to_string();
    let rest = lines.collect::<Vec<_>>().join("\n");
    (first, rest.trim_start_matches('\n').trim_end().to_string())
}

/// When the first line written (blank and quoted lines skipped) is `--`: the text
/// after it.
fn after_leading_dashes(body: &str) -> Option<&str> {
    let mut offset = 0;
    for line in body.split_inclusive('\n') {
        offset += line.len();
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('>') {
            continue;
        }
        return (trimmed == "--").then(|| &body[offset..]);
    }
    None
}

/// A line for the log, passwords masked.
fn redact_line(line: &str) -> String {
    crate::server::command::redact::loggable(line)
}

/// The one short answer to a reply that cannot be acted on: what to send instead.
/// `no_token`: the reply named none of our token-bearing mails at all.
fn unmatched(
    req: &Request<'_>,
    ours: Option<&OurMail>,
    no_token: bool,
    settings: &Settings,
) -> Vec<Reply> {
    let why = if no_token {
        Unusable::NoToken
    } else {
        Unusable::NotActable
    };
    let text = notices::unusable_reply(ours, why, settings.operator.as_ref());
    // The userid of a "Message from" Subject is the sender's word: an unconfirmed
    // address reads the answer without it.
    let foreign = match ours {
        Some(OurMail::Message(_)) => {
            Foreign::Part(notices::unusable_reply_to_message("<to-userid>", why))
        }
        _ => Foreign::Nothing,
    };
    req.reply_to
        .iter()
        .map(|to| Reply {
            to: vec![to.clone()],
            subject: subjects::error(),
            body: text.clone(),
            foreign: foreign.clone(),
            ..Reply::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_line_is_the_move_and_the_rest_the_comment() {
        for (body, first, rest) in [
            ("d1\n", "d1", ""),
            ("\n  d1  \n\nNice one!\n", "d1", "Nice one!"),
            (
                "e5-e9\nOn Mon, 1 Jan 2024, YINSH <y@x> wrote:\n> Yinsh Board 101\n> d1\n",
                "e5-e9",
                "",
            ),
            (
                "On Mon, 1 Jan 2024, YINSH <y@x> wrote:\n> board\n\nresign\nsorry\n-- \nAl\n",
                "resign",
                "sorry",
            ),
            ("--\n\nI cannot move.\n\n> board\n", "--", "I cannot move."),
            ("-- \nAl\n", "--", "Al"),
            ("> only a quote\n", "", ""),
            ("", "", ""),
        ] {
            assert_eq!(
                split_reply(body),
                (first.to_string(), rest.to_string()),
                "{body:?}"
            );
        }
    }
}
