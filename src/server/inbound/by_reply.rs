//! Playing by pressing Reply: a mail that answers one of the server's mails is
//! handled here before its Subject is read as a command.
//!
//! The reply token in the Message-ID of the mail answered (found in In-Reply-To and
//! References by [`threading::tokens_named`]) says who may do what: it must check
//! under the store's reply key, and the reply's From must be one of that player's
//! addresses; only then do the commands built here act for the player without a
//! password ([`Request::proven`]). A board mail's token acts at the move number it was
//! sent for: a reply to an older board mail is refused as one
//! (`Refusal::OldBoardMail`: the mail's move, whose turn it is now), with the board
//! as it is now. The first line of the reply (quotes, attribution and
//! signature removed) is the turn, `resign`, `propose`, `accept`, `reject`, `undo`,
//! `pass` or `--`, `chat`, `decline` (a game someone else started, before the
//! player's first move), or `review` (the robot's review of the game, issue 28);
//! the rest is the comment. A first line that reads as a
//! sentence is refused as no move, and one that is no answer the server reads while
//! the opponent's offer waits says how to answer it (`reject`, `accept`): words are
//! never taken for an answer. A first line in pbmserv's
//! syntax is carried out as that command, with its password; a misspelt one with a
//! board gets the correction a Subject would (`syntax::error_mail`). A reply to a chat mail
//! is a chat on that board, a reply to a message a message back to its sender.
//!
//! A reply whose Subject names one of the server's mails (`Re: Yinsh Board 101 ...`,
//! `Re: Message from alice`...) is never read as a command: without a genuine token
//! (or a command in its first line) it gets one short answer saying what to send.

use crate::mail::{InboundMail, comment_of};
use crate::notation::parse_turn;
use crate::server::command::{
    BoardAction, Command, CommandError, Credentials, OfferAction, Said, unshowable,
};
use crate::server::config::Settings;
use crate::server::exec::{self, Actor, Refusal, Request};
use crate::server::game::extra;
use crate::server::game::record::LiveGame;
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, Password, Proof, UserId};
use crate::server::outgoing::{Foreign, Reply, threading};
use crate::server::store::{Account, ReplyScope, Store};
use crate::server::text::notices::{self, Unusable};
use crate::server::text::subjects::{self, OurMail};

use super::identity::{self, TokenProof};
use super::line;
use super::syntax;

/// A reply to one of our mails as it was read: what it answers and what it says.
struct Read<'a> {
    store: &'a Store,
    settings: &'a Settings,
    req: &'a Request<'a>,
    inbound: &'a InboundMail,
    /// The mail its Subject names, if it is one of ours.
    ours: Option<OurMail>,
    /// Why it cannot be acted on when no genuine token proves its sender: it names
    /// none of our token-bearing mails, or none we can act on for it.
    why_unusable: Unusable,
    /// Its first line (the turn, or a command) and `parsed` as a command.
    first: &'a str,
    parsed: &'a Result<Command, CommandError>,
    /// The rest of it: the comment.
    rest: &'a str,
}

/// The replies to `inbound` when it is a reply to one of our mails; `None` when it
/// is not (its Subject is then read as a command, as always). `note` gets log lines.
pub fn answer(
    store: &Store,
    settings: &Settings,
    req: &Request<'_>,
    inbound: &InboundMail,
    note: &mut dyn FnMut(String),
) -> Result<Option<Vec<Reply>>, InternalError> {
    let ours = inbound
        .replying
        .then(|| OurMail::named(&inbound.subject))
        .flatten();
    let named = threading::tokens_named(inbound);
    if ours.is_none() && (named.is_empty() || Command::parse(&inbound.subject).is_ok()) {
        return Ok(None);
    }
    let (first, rest) = split_reply(&inbound.body);
    let mut parsed = Command::parse(&first);
    line::reveal(store, &mut parsed)?;
    let read = Read {
        store,
        settings,
        req,
        inbound,
        ours,
        why_unusable: if named.is_empty() {
            Unusable::NoToken
        } else {
            Unusable::NotActable
        },
        first: &first,
        parsed: &parsed,
        rest: &rest,
    };
    replies(&read, note).map(Some)
}

/// Whether a reply's first line is written as a command: one, a misspelt one the
/// parser names, or `yinsh` and a word the parser does not know (`yinsh xyzzy 101
/// alice pw`: tried as a turn, its error quotes the line, masked as a command's).
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

/// [`answer`]'s replies: a first line written as a command is that command; else the
/// reply's token says who acts, and its first line what they do.
fn replies(r: &Read<'_>, note: &mut dyn FnMut(String)) -> Result<Vec<Reply>, InternalError> {
    if let Some(out) = written_command(r, note)? {
        return Ok(out);
    }
    let req = r.req;
    // A From the trusted mail system failed proves nothing, a reply token included.
    if let Err(refusal) = identity::from_checked(req) {
        note("reply token not read: the From failed the sender checks".to_string());
        return exec::refused(r.store, req, &refusal);
    }
    let (token, account) = match identity::reply_token(r.store, r.inbound, note)? {
        TokenProof::Proven { token, account } => (token, account),
        TokenProof::Nothing => return Ok(unmatched(r, r.why_unusable)),
        TokenProof::NoAccount(token) => {
            note(format!(
                "reply token of {}: no such account now",
                token.scope.userid()
            ));
            return Ok(unmatched(r, Unusable::NotActable));
        }
        TokenProof::NotTheirs(token) => {
            let userid = token.scope.userid();
            let from = r.inbound.from.as_deref().unwrap_or("(no From)").to_string();
            note(format!(
                "reply token of {userid} refused: {from} is not one of their addresses"
            ));
            let refusal = Refusal::ReplyNotYours {
                userid: userid.clone(),
                from,
            };
            return exec::refused(r.store, req, &refusal);
        }
    };
    note(format!(
        "reply token of {} accepted: {:?}",
        account.userid, token.scope
    ));
    acted(r, &token.scope, account)
}

/// The replies to a reply whose first line is written in pbmserv's syntax: that
/// command, with its own password; a misspelt command with a board and more (`yinsh
/// mvoe 101 alice pw e5`, `move 101 alice pw e5`) gets the correction a Subject would,
/// not a turn's error. `None` for a turn (`resign`, `accept`, `move e5`) or a
/// sentence ("That was me").
fn written_command(
    r: &Read<'_>,
    note: &mut dyn FnMut(String),
) -> Result<Option<Vec<Reply>>, InternalError> {
    let req = r.req;
    if let Ok(cmd) = r.parsed {
        note(format!(
            "reply: its first line is a command: {}",
            redact_line(r.first)
        ));
        let sub = Request {
            reply_to: req.reply_to.clone(),
            comment: r.rest,
            proven: None,
            ..*req
        };
        return identity::act(r.store, &sub, cmd).map(Some);
    }
    let words: Vec<&str> = r.first.split_whitespace().take(3).collect();
    let with_board = words.len() == 3
        && words[1..]
            .iter()
            .any(|w| w.bytes().all(|b| b.is_ascii_digit()));
    if with_board
        && let Err(e) = r.parsed
        && matches!(
            e,
            CommandError::DidYouMean { .. } | CommandError::WithoutYinsh { .. }
        )
    {
        note(format!(
            "reply: its first line is a misspelt command: {}",
            redact_line(r.first)
        ));
        return Ok(Some(syntax::error_mail(req, e, None).into_iter().collect()));
    }
    Ok(None)
}

/// What the player of a genuine token (`account`, proved by it) does by replying: a
/// turn or an answer on a board mail's board, a chat, a message back.
fn acted(r: &Read<'_>, scope: &ReplyScope, account: Account) -> Result<Vec<Reply>, InternalError> {
    let (store, req) = (r.store, r.req);
    let userid = account.userid.clone();
    let proven = Request {
        reply_to: req.reply_to.clone(),
        proven: Some(&userid),
        ..*req
    };
    let actor = Actor {
        account,
        proof: Proof::ReplyToken,
    };
    // The token's player is answered at their own addresses (`identity::answering`),
    // never at the Reply-To of a mail anyone can forge.
    let auth = Credentials {
        userid: userid.clone(),
        password: Password::unchecked(),
    };
    let cmd = match scope {
        ReplyScope::Board { board, moveno, .. } => {
            let action = match board_action(store, (*board, *moveno), &userid, r)? {
                Asked::Action(action) => action,
                Asked::Refused(refusal) => {
                    return identity::refused_for(store, &proven, &actor, &refusal);
                }
            };
            let sub = Request {
                reply_to: req.reply_to.clone(),
                comment: r.rest,
                ..proven
            };
            let cmd = Command::Board {
                board: *board,
                auth,
                action,
            };
            return identity::carry_out(store, &sub, Some(&actor), &cmd);
        }
        ReplyScope::Chat { board, .. } => Command::Board {
            board: *board,
            auth,
            action: BoardAction::Chat,
        },
        ReplyScope::Message { to, .. } => Command::Message {
            auth,
            to: vec![to.clone().into()],
        },
    };
    let whole = comment_of(&r.inbound.body);
    let sub = Request {
        reply_to: req.reply_to.clone(),
        comment: &whole,
        ..proven
    };
    identity::carry_out(store, &sub, Some(&actor), &cmd)
}

/// What the first line of a reply to a board mail asks.
enum Asked {
    /// This, to be carried out.
    Action(BoardAction),
    /// Nothing that can be done now: refused.
    Refused(Refusal),
}

/// What the first line of a reply to a board mail asks `me` to do on `board`, whose
/// token was minted when the next turn was `moveno`; refused when it cannot be done
/// now: a reply to an old mail, a sentence for a move, or words for an answer to the
/// opponent's pending offer.
fn board_action(
    store: &Store,
    (board, moveno): (BoardId, u32),
    me: &UserId,
    r: &Read<'_>,
) -> Result<Asked, InternalError> {
    let first = r.first;
    let word = first.to_ascii_lowercase();
    if word == "chat" {
        return Ok(Asked::Action(BoardAction::Chat));
    }
    // A decline holds until the player's first move, whatever mail it answers.
    if word == "decline" {
        return Ok(Asked::Action(BoardAction::Decline));
    }
    // The review is asked for whatever mail of the game it answers (issue 28).
    if word.trim_end_matches('.').trim_end() == "review" {
        return Ok(Asked::Action(BoardAction::Review));
    }
    let Some(file) = store.game(board)? else {
        return Ok(Asked::Refused(Refusal::BoardNotFound { board }));
    };
    let live = LiveGame::load(file)?;
    if live.game().is_over() {
        return Ok(Asked::Refused(Refusal::GameEnded { board }));
    }
    if first.is_empty() {
        return Ok(Asked::Refused(Refusal::EmptyReply { board }));
    }
    let (text, marked) = match first.rsplit_once('#') {
        Some((text, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            (text.trim(), n.parse::<u32>().ok())
        }
        _ => (first, None),
    };
    let number = live.next_turn_number();
    if moveno != number {
        // Only the mail's move is told: the reply named no number of its own.
        return Ok(Asked::Refused(Refusal::OldBoardMail {
            board,
            answered: moveno,
            now: number,
            to_move: live.player_to_move().cloned(),
            me: me.clone(),
        }));
    }
    // A phone's full stop after a word ("Reject.") is no part of it.
    let word = text.trim_end_matches('.').trim_end();
    if let Some(offer) = OfferAction::from_word(word) {
        return Ok(Asked::Action(BoardAction::Offer(offer)));
    }
    if word.eq_ignore_ascii_case("resign") {
        return Ok(Asked::Action(BoardAction::Resign));
    }
    let text = if word.eq_ignore_ascii_case("pass") {
        "--"
    } else {
        text
    };
    if parse_turn(text).is_err() {
        // Words for an answer to a pending offer are never guessed at: told how.
        if let Some(offer) = extra::offer(live.file()).filter(|o| o.by != *me) {
            return Ok(Asked::Refused(Refusal::OfferAnsweredInWords {
                board,
                by: offer.by,
                kind: offer.kind,
            }));
        }
        if reads_as_prose(text) {
            return Ok(Asked::Refused(Refusal::FirstLineNotAMove {
                board,
                text: (&turn_text(r, text)).into(),
            }));
        }
    }
    Ok(Asked::Action(BoardAction::Move {
        text: turn_text(r, text),
        moveno: Some(marked.unwrap_or(moveno)),
    }))
}

/// Whether a first line that is no turn reads as a sentence ("Hi Carol,", "No thanks,
/// let us play on."): it has a comma, or a word of three letters or more (a turn's
/// longest is the `xa` of a removal).
fn reads_as_prose(text: &str) -> bool {
    text.contains(',')
        || text
            .split(|c: char| !c.is_alphabetic())
            .any(|w| w.chars().nth(2).is_some())
}

/// `text` (of the reply's first line) as a turn: masked when the line is written as
/// a command ([`reads_as_command`]) and its masking hides a word of `text`, as the
/// command's own fields would be.
fn turn_text(r: &Read<'_>, text: &str) -> Said<String> {
    let mut said = Said::from(text.to_string());
    if reads_as_command(r.first, r.parsed) {
        said.mark(&unshowable(r.first));
    }
    said
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
/// `why`: it named none of our token-bearing mails, or none we can act on for it.
fn unmatched(r: &Read<'_>, why: Unusable) -> Vec<Reply> {
    let (req, ours) = (r.req, r.ours.as_ref());
    let text = notices::unusable_reply(ours, why, r.settings.operator.as_ref());
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
