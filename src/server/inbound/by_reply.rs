//! Playing by pressing Reply: a mail that answers one of the server's mails
//! (`incoming::Asks::Reply`: its Subject names one, or it names a reply token and its
//! Subject is no command) is handled here, never as a Subject command.
//!
//! The reply token in the Message-ID of the mail answered (read once from In-Reply-To
//! and References, `Incoming::tokens`) says who may do what: its proof
//! (`identity::prove` with `Offered::Reply`) needs a token made with the store's reply
//! key whose player has the reply's From among their addresses; only then is what
//! the first line asks carried out for the player without a password, as far as the
//! token's scope allows (`exec::ByReply`). A board mail's token acts at the move number it was
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
//! is a chat on that board, a reply to a message a message back to its sender, a
//! reply to the answer of a password-less challenge passes its held message on
//! (`exec::held`), whatever it says.
//!
//! A reply whose Subject names one of the server's mails (`Re: Yinsh Board 101 ...`,
//! `Re: Message from alice`...) is never read as a command: without a genuine token
//! (or a command in its first line) it gets one short answer saying what to send.

use crate::mail::comment_of;
use crate::notation::parse_turn;
use crate::server::command::{BoardAction, Command, CommandError, OfferAction, Said, unshowable};
use crate::server::exec::{self, Asked, ByReply, Proven, Refusal, Request};
use crate::server::game::extra;
use crate::server::game::record::LiveGame;
use crate::server::internal::InternalError;
use crate::server::model::{BoardId, UserId};
use crate::server::outgoing::{Foreign, Reply};
use crate::server::store::{ReplyScope, Store};
use crate::server::text::notices::{self, Unusable};
use crate::server::text::subjects::{self, OurMail};

use super::answered::Answered;
use super::identity::{self, Offered};
use super::incoming::{Incoming, ReplyText};
use super::syntax;

/// A reply to one of our mails as it was read: what it answers and what it says.
struct Read<'a> {
    store: &'a Store,
    req: &'a Request<'a>,
    mail: &'a Incoming,
    /// The mail its Subject names, if it is one of ours.
    ours: Option<&'a OurMail>,
    /// Why it cannot be acted on when no genuine token proves its sender: it names
    /// none of our token-bearing mails, or none we can act on for it.
    why_unusable: Unusable,
    /// Its first line (the turn, or a command) and `parsed` as a command (its masked
    /// words naming an account shown, `line.rs`).
    first: &'a str,
    parsed: &'a Result<Command, CommandError>,
    /// The rest of it: the comment.
    rest: &'a str,
}

/// The replies to `mail`, a reply to one of our mails (`text`, as `incoming.rs`
/// read it); `token` is the proof of its reply tokens when the storm limit made it
/// already (it is made here otherwise). `note` gets log lines.
pub fn answer(
    store: &Store,
    mail: &Incoming,
    req: &Request<'_>,
    text: &ReplyText,
    token: Option<Proven>,
    note: &mut dyn FnMut(String),
) -> Result<Answered, InternalError> {
    let mut parsed = text.parsed.clone();
    super::line::reveal(store, &mut parsed)?;
    let read = Read {
        store,
        req,
        mail,
        ours: text.ours.as_ref(),
        why_unusable: if mail.tokens.is_empty() {
            Unusable::NoToken
        } else {
            Unusable::NotActable
        },
        first: &text.first,
        parsed: &parsed,
        rest: &text.rest,
    };
    replies(&read, token, note)
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
/// reply's token says who acts (`token`, or proved here), and its first line what
/// they do.
fn replies(
    r: &Read<'_>,
    token: Option<Proven>,
    note: &mut dyn FnMut(String),
) -> Result<Answered, InternalError> {
    if let Some(out) = written_command(r, note)? {
        return Ok(out);
    }
    let proven = match token {
        Some(proven) => proven,
        None => identity::prove(r.store, r.req, Offered::Reply(&r.mail.tokens), note)?,
    };
    let asked = Asked {
        mail: r.req,
        proven: &proven,
        comment: r.rest,
    };
    let replies = match (&proven.refusal, &proven.scope) {
        (Some(refusal), _) => exec::refused(r.store, &asked, refusal)?,
        (None, Some(scope)) => return acted(r, &asked, scope, note),
        // No genuine token of an account: what to send instead.
        (None, None) => unmatched(r, r.why_unusable),
    };
    Ok(Answered::of(replies, proven))
}

/// The replies to a reply whose first line is written in pbmserv's syntax: that
/// command, with its own password; a misspelt command with a board and more (`yinsh
/// mvoe 101 alice pw e5`, `move 101 alice pw e5`) gets the correction a Subject would,
/// not a turn's error. `None` for a turn (`resign`, `accept`, `move e5`) or a
/// sentence ("That was me").
fn written_command(
    r: &Read<'_>,
    note: &mut dyn FnMut(String),
) -> Result<Option<Answered>, InternalError> {
    let req = r.req;
    if let Ok(cmd) = r.parsed {
        note(format!(
            "reply: its first line is a command: {}",
            redact_line(r.first)
        ));
        let mut proven = identity::prove(r.store, req, Offered::Command(cmd), note)?;
        identity::vouched_by_reply(r.store, req, &r.mail.tokens, &mut proven, note)?;
        let replies = identity::act(r.store, req, &proven, cmd, r.rest)?;
        return Ok(Some(Answered::of(replies, proven)));
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
        // The player of the reply's token reads their own correction.
        let proven = identity::unproved(r.store, req, &r.mail.tokens, note)?;
        let replies = syntax::error_mail(req, e, None, proven.original(req))
            .into_iter()
            .collect();
        let replies = identity::answered_as(&proven, replies);
        return Ok(Some(Answered::of(replies, proven)));
    }
    Ok(None)
}

/// What the player of a genuine token (`asked`'s actor, proved by it) does by
/// replying, as its `scope` allows: a turn or an answer on a board mail's board, a
/// chat, a message back; a first line that asks nothing that can be done now is
/// refused, as the player's (`identity::refused_for`). The token's player is answered
/// at their own addresses (`identity::answering`), never at the Reply-To of a mail
/// anyone can forge.
fn acted(
    r: &Read<'_>,
    asked: &Asked<'_>,
    scope: &ReplyScope,
    note: &mut dyn FnMut(String),
) -> Result<Answered, InternalError> {
    let store = r.store;
    let done = |replies: Vec<Reply>| -> Result<Answered, InternalError> {
        Ok(Answered::of(replies, asked.proven.clone()))
    };
    let Some(actor) = asked.actor() else {
        return done(unmatched(r, Unusable::NotActable));
    };
    let replies = match scope {
        ReplyScope::Board { board, moveno, .. } => {
            let userid = &actor.account.userid;
            let action = match board_action(store, (*board, *moveno), userid, r)? {
                FirstLine::Action(action) => action,
                FirstLine::Refused(refusal) => {
                    let (replies, proven) = identity::refused_for(store, asked, &refusal, note)?;
                    return Ok(Answered::of(replies, proven));
                }
            };
            let what = ByReply::Board {
                board: *board,
                action: &action,
            };
            identity::act_by_reply(store, asked, &what)?
        }
        ReplyScope::Chat { board, .. } => {
            let whole = comment_of(&r.mail.inbound.body);
            let sub = asked.with_comment(&whole);
            let what = ByReply::Board {
                board: *board,
                action: &BoardAction::Chat,
            };
            identity::act_by_reply(store, &sub, &what)?
        }
        ReplyScope::Message { to, .. } => {
            let whole = comment_of(&r.mail.inbound.body);
            let sub = asked.with_comment(&whole);
            let to = [Said::from(to.clone())];
            identity::act_by_reply(store, &sub, &ByReply::Message { to: &to })?
        }
        // The answer to a password-less challenge: its held message passed on.
        ReplyScope::Held { board, .. } => {
            identity::act_by_reply(store, asked, &ByReply::Held { board: *board })?
        }
    };
    done(replies)
}

/// What the first line of a reply to a board mail asks.
enum FirstLine {
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
) -> Result<FirstLine, InternalError> {
    let first = r.first;
    let word = first.to_ascii_lowercase();
    if word == "chat" {
        return Ok(FirstLine::Action(BoardAction::Chat));
    }
    // A decline holds until the player's first move, whatever mail it answers.
    if word == "decline" {
        return Ok(FirstLine::Action(BoardAction::Decline));
    }
    // The review is asked for whatever mail of the game it answers (issue 28).
    if word.trim_end_matches('.').trim_end() == "review" {
        return Ok(FirstLine::Action(BoardAction::Review));
    }
    let Some(file) = store.game(board)? else {
        return Ok(FirstLine::Refused(Refusal::BoardNotFound { board }));
    };
    let live = LiveGame::load(file)?;
    if live.game().is_over() {
        return Ok(FirstLine::Refused(Refusal::GameEnded { board }));
    }
    if first.is_empty() {
        return Ok(FirstLine::Refused(Refusal::EmptyReply { board }));
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
        return Ok(FirstLine::Refused(Refusal::OldBoardMail {
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
        return Ok(FirstLine::Action(BoardAction::Offer(offer)));
    }
    if word.eq_ignore_ascii_case("resign") {
        return Ok(FirstLine::Action(BoardAction::Resign));
    }
    // `pass` is kept as written (the notation reads it as `--`): a refusal quotes
    // the player's word, not ours.
    if parse_turn(text).is_err() {
        // Words for an answer to a pending offer are never guessed at: told how.
        if let Some(offer) = extra::offer(live.file()).filter(|o| o.by != *me) {
            return Ok(FirstLine::Refused(Refusal::OfferAnsweredInWords {
                board,
                by: offer.by,
                kind: offer.kind,
            }));
        }
        if reads_as_prose(text) {
            return Ok(FirstLine::Refused(Refusal::FirstLineNotAMove {
                board,
                text: (&turn_text(r, text)).into(),
            }));
        }
    }
    Ok(FirstLine::Action(BoardAction::Move {
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

/// A line for the log, passwords masked.
fn redact_line(line: &str) -> String {
    crate::server::command::redact::loggable(line)
}

/// The one short answer to a reply that cannot be acted on: what to send instead.
/// `why`: it named none of our token-bearing mails, or none we can act on for it.
fn unmatched(r: &Read<'_>, why: Unusable) -> Vec<Reply> {
    let (req, ours) = (r.req, r.ours);
    let text = notices::unusable_reply(ours, why, req.settings.operator.as_ref());
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
            to: vec![(*to).clone()],
            subject: subjects::error(),
            body: text.clone(),
            foreign: foreign.clone(),
            ..Reply::default()
        })
        .collect()
}
