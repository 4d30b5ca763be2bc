//! The fan-out of a game's board mail to everyone concerned: each player and watcher
//! with an address, with their own reply token and the HTML part unless they chose
//! text only; what another person wrote marked [`Foreign`] for the gate (a comment
//! is another person's to every reader but its writer).

use crate::rules::Color;
use crate::server::game::extra;
use crate::server::game::ratings;
use crate::server::game::record::LiveGame;
use crate::server::game::vacation::Vacations;
use crate::server::internal::InternalError;
use crate::server::model::UserId;
use crate::server::store::{OwnTurnMail, Store};
use crate::server::text::ending;
use crate::server::text::html::BoardHtml;
use crate::server::text::notices;
use crate::server::text::reply::{BoardMail, Event};
use crate::server::text::subjects::{self, Commented};

use super::gate::MESSAGES_PER_MAILBOX_PER_DAY;
use super::reply::{Audience, Foreign, HtmlPart, Reply};
use super::thread::Thread;

/// The HTML part of `mail` whose text is `body`, unless the reader chose `text_only`.
pub fn html_part(
    mail: &BoardMail<'_>,
    body: &str,
    text_only: bool,
) -> Result<Option<BoardHtml>, InternalError> {
    if text_only {
        return Ok(None);
    }
    Ok(Some(mail.html(body)?))
}

/// What a reader reads instead of another player's comment when the writer's or the
/// reader's address is not confirmed.
const NOT_SHOWN: &str = "(The comment is not shown: comments pass only between confirmed addresses,\nand the writer's or this one is not confirmed yet. An address is confirmed by a\nreply to the \"verify\" mail the server sent it.)";

/// What a reader of a game's board mail is to the game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// One of its two players: told their command to send and their queued move.
    Player,
    /// A watcher.
    Watcher,
}

/// Board mails for every player and subscriber of `live` after `event`, each under
/// the Subject its reader chose; a finished game's mails carry the rating lines. A
/// player who chose `own-turn skip` gets none for a turn of their own that leaves
/// the game going on and the other player to act.
pub fn board_mails(
    store: &Store,
    live: &LiveGame,
    event: Event,
    comment: Option<(&str, &str)>,
) -> Result<Vec<Reply>, InternalError> {
    let mut out = Vec::new();
    let comment = comment.filter(|(_, text)| !text.trim().is_empty());
    let commented = if comment.is_some() {
        Commented::Yes
    } else {
        Commented::No
    };
    let subscribers = extra::subscribers(live.file());
    let ratings = if live.game().is_over() && event != Event::Show {
        ending::rating_lines(ratings::rating_of(store, live)?.as_ref())
    } else {
        Vec::new()
    };
    // The time used of a finished game and the deadlines of one going on leave them out.
    let vacations = Some(Vacations::load(store)?);
    let readers = Color::BOTH
        .iter()
        .map(|&side| (live.player(side), Role::Player))
        .chain(subscribers.iter().map(|s| (s, Role::Watcher)));
    for (reader, role) in readers {
        let is_player = role == Role::Player;
        // A robot's account has no address: it reads no mail.
        let Some(account) = store.account(reader)?.filter(|a| !a.addresses.is_empty()) else {
            continue;
        };
        let queued = extra::queued(live.file(), reader).map(|q| q.text);
        let mail = BoardMail {
            event: event.clone(),
            comment,
            reader: is_player.then_some(reader),
            subscribers,
            ratings: &ratings,
            queued: queued.as_deref().filter(|_| is_player),
            vacations: vacations.as_ref(),
            subject: account.prefs.subject,
            ..BoardMail::new(live)
        };
        // Another person's words (a comment, a challenger's address) are left out
        // for an address nobody confirmed, and so is the writer's own comment;
        // a comment of someone else's also counts among the reader's chats and
        // messages of the day.
        let without = |shown: &str, withhold: bool| {
            BoardMail {
                comment: comment.map(|(by, _)| (by, shown)),
                withhold,
                ..mail.clone()
            }
            .body()
        };
        let words_of_another =
            comment.is_some_and(|(by, _)| !reader.as_str().eq_ignore_ascii_case(by));
        let foreign = if words_of_another {
            Foreign::Words {
                unconfirmed: without(NOT_SHOWN, true)?,
                over_cap: without(
                    &notices::comment_over_cap(MESSAGES_PER_MAILBOX_PER_DAY),
                    false,
                )?,
            }
        } else if comment.is_some() || mail.names_challenger() {
            // The writer reads their own words at a confirmed address (issue 47 item
            // 10); at an address nobody confirmed, their copy says the comment is
            // theirs and held: whoever signed up with that address may be a stranger
            // to it.
            Foreign::Part(without(notices::OWN_COMMENT_HELD, true)?)
        } else {
            // No other person's words: a comment is the reader's own.
            Foreign::Nothing
        };
        if is_player && skipped(live, &event, reader, account.prefs.own_turn) {
            continue;
        }
        let body = mail.body()?;
        let html = html_part(&mail, &body, account.text_only)?;
        out.push(Reply {
            to: account.addresses.clone(),
            subject: subjects::board_mail_for(live, &event, commented, account.prefs.subject),
            body,
            foreign,
            html: html.map(HtmlPart::Board),
            thread: Thread::board(store, live, reader)?,
            audience: Audience::Players,
            ..Reply::default()
        });
    }
    Ok(out)
}

/// Whether `reader`, who chose `own_turn`, gets no mail of `event` (issue 26 finding
/// 17): a turn they played themselves (the last turn a player sent is theirs) after
/// which the game goes on with the other player to act. A new game, an offer, a
/// resignation, the end of the game and a turn that leaves it theirs again (the
/// other player's forced pass, their queued move) always come.
///
/// Against a robot every player gets one mail a turn (issue 47 item 3): none for
/// their own turn when the robot is to move, whose board mail follows and tells the
/// player's turn too.
fn skipped(live: &LiveGame, event: &Event, reader: &UserId, own_turn: OwnTurnMail) -> bool {
    let robot_next = live
        .player_to_move()
        .is_some_and(|p| p.robot_level().is_some());
    if (own_turn != OwnTurnMail::Skip && !robot_next)
        || *event != Event::Moved
        || live.game().is_over()
    {
        return false;
    }
    let last_sent = live.file().turns.iter().rev().find(|t| !t.auto);
    last_sent.is_some_and(|t| t.by.key() == reader.key())
        && live
            .player_to_move()
            .is_some_and(|p| p.key() != reader.key())
}
