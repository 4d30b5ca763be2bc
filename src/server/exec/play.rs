//! Playing: `yinsh challenge` (a new game), `yinsh move`, `yinsh resign`, queued moves
//! (played when it becomes the player's turn), submitted moves (a preview, played on
//! `confirm`), and `preview` (the board after hypothetical moves, nothing stored).

use crate::notation::NotationError;
use crate::rules::{Color, Variant};
use crate::server::command::{BoardRef, Said};
use crate::server::game::extra;
use crate::server::game::record::LiveGame;
use crate::server::game::strangers;
use crate::server::game::vacation::Vacations;
use crate::server::model::{EndReason, UserId};
use crate::server::outgoing::board_mails::board_mails;
use crate::server::outgoing::{Foreign, Reply};
use crate::server::store::{Account, Store};
use crate::server::text::reply::{BoardMail, Event};
use crate::server::text::{notices, play as play_text, subjects};

use super::context::{
    Actor, Asked, board_reply, board_to_sender, load_board, load_for_player, sender_text_only,
    to_sender,
};
use super::error::{ExecError, InternalError, InvalidChallenge, QueuedDropped, Refusal};
use super::for_others::{self, Starter};
use super::held;
use super::robots;
use crate::server::model::BoardId;
use crate::server::outgoing::thread::Thread;

/// `yinsh challenge`: a new game between `white` and `black`, started by `actor`
/// when the challenge carries a player's password (its message, the mail's body,
/// then reaches both players), else by whoever the sender's address says
/// (`for_others`). An unproven challenge's message is not passed on (issue 26
/// finding 5): from one of the challenger's confirmed addresses it is held until
/// the challenger proves it (`held`, issue 45), else its sender is told how to send
/// it. A proven challenge between the players of a game whose message its
/// challenger holds passes that message on instead of starting a second game.
pub(super) fn challenge(
    store: &Store,
    req: &Asked<'_>,
    actor: Option<&Actor>,
    blitz: bool,
    (nag, forfeit): (Option<u32>, Option<u32>),
    [white, black]: [&Said<UserId>; 2],
) -> Result<Vec<Reply>, ExecError> {
    // An unconfirmed address reads why without the userids: a stranger chose them.
    let invalid = |why: InvalidChallenge| {
        Ok(vec![Reply {
            foreign: Foreign::Part(why.plain()),
            ..to_sender(req, &subjects::invalid_challenge(), why.to_string())
        }])
    };
    if white.as_written() == black.as_written() {
        return invalid(InvalidChallenge::Themselves {
            userid: white.to_string(),
        });
    }
    let (n, f) = (
        nag.unwrap_or(extra::NAG_DAYS),
        forfeit.unwrap_or(extra::FORFEIT_DAYS),
    );
    if n >= f {
        return invalid(InvalidChallenge::Times { nag: n, forfeit: f });
    }
    let accounts = (
        robots::account_or_robot(store, white.as_written(), req.now)?,
        robots::account_or_robot(store, black.as_written(), req.now)?,
    );
    let (wa, ba) = match accounts {
        (Some(wa), Some(ba)) => (wa, ba),
        (wa, ba) => {
            let missing: Vec<String> = [(white, wa), (black, ba)]
                .into_iter()
                .filter(|(_, account)| account.is_none())
                .map(|(u, _)| u.to_string())
                .collect();
            return invalid(InvalidChallenge::NotSignedUp { missing });
        }
    };
    if let Some(why) = robots::refused_challenge(store, &wa, &ba)? {
        return invalid(why);
    }
    if let Some(a) = actor
        && let Some(out) = held::by_challenge(store, req, a, [&wa.userid, &ba.userid])?
    {
        return Ok(out);
    }
    let starter = match actor {
        Some(a) => Starter::Player(a.account.userid.clone()),
        None => match for_others::count(store, req, &wa, &ba)? {
            Ok(starter) => starter,
            Err(why) => return invalid(why),
        },
    };
    if let Starter::Player(p) = &starter
        && let Some(why) = too_many_waiting(store, if *p == wa.userid { &wa } else { &ba })?
    {
        return invalid(why);
    }
    // Who may pass on the message of a challenge without a password: its challenger,
    // when the answer reaches their own confirmed mailbox and the opponent reads mail.
    let holder = match (&starter, actor) {
        (Starter::Player(p), None) => {
            let (me, other) = if *p == wa.userid {
                (&wa, &ba)
            } else {
                (&ba, &wa)
            };
            (held::can_hold(req, me) && !other.addresses.is_empty())
                .then(|| (me.userid.clone(), other.userid.clone()))
        }
        _ => None,
    };
    let variant = if blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    };
    let live = start_game(store, req.now, (wa, ba), variant, (nag, forfeit), starter)?;
    let message = req.comment.trim();
    let proven_by = actor.map(|a| a.account.userid.as_str());
    let comment = proven_by
        .filter(|_| !message.is_empty())
        .map(|who| (who, req.comment));
    let mut out = board_mails(store, &live, Event::NewGame, comment)?;
    if proven_by.is_none() && !message.is_empty() {
        out.push(match &holder {
            Some((me, other)) => held::hold(store, req, &live, (me, other), f)?,
            None => to_sender(
                req,
                &subjects::challenge_message(),
                notices::challenge_message_withheld(),
            ),
        });
    }
    Ok(out)
}

/// The new game of `wa` (White) and `ba` (Black), stored with its clock times and
/// who started it, and added to both accounts (a challenge's, an open seek's).
pub(super) fn start_game(
    store: &Store,
    now: u64,
    (mut wa, mut ba): (Account, Account),
    variant: Variant,
    (nag, forfeit): (Option<u32>, Option<u32>),
    starter: Starter,
) -> Result<LiveGame, ExecError> {
    let strangers = strangers::strangers(store, &wa, &ba)?;
    let board = store.allocate_board()?;
    let mut live = LiveGame::new(board, variant, &wa.userid, &ba.userid, now);
    extra::set_times(live.extra_mut(), nag, forfeit);
    match starter {
        Starter::Player(p) => extra::set_started_by(live.extra_mut(), Some(p)),
        Starter::Other(c) => extra::set_challenger(live.extra_mut(), Some(c)),
    }
    extra::set_strangers(live.extra_mut(), strangers);
    store.put_game(live.file())?;
    wa.games.push(board);
    store.put_account(&wa)?;
    ba.games.push(board);
    store.put_account(&ba)?;
    Ok(live)
}

/// Why `starter` may not start one more game, if they already started as many that
/// wait for the other player's first move as their account may have (issue 25).
fn too_many_waiting(
    store: &Store,
    starter: &Account,
) -> Result<Option<InvalidChallenge>, InternalError> {
    let boards = strangers::waiting_for_others(store, &starter.userid)?;
    let max = strangers::max_waiting(starter);
    if boards.len() < max {
        return Ok(None);
    }
    Ok(Some(InvalidChallenge::TooManyWaiting {
        userid: starter.userid.to_string(),
        boards,
        max,
        confirmed_max: (!strangers::confirmed(starter)).then_some(strangers::MAX_WAITING),
    }))
}

pub(super) fn play_move(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    account: &Account,
    text: &Said<String>,
    moveno: Option<u32>,
) -> Result<Vec<Reply>, ExecError> {
    let (live, side) = load_for_player(store, board, account)?;
    play_loaded(store, req, account, live, side, text, moveno)
}

/// Play `text` for `account` (playing `side`) on a loaded game, then the opponent's
/// queued move if there is one; store it and mail everyone.
pub(super) fn play_loaded(
    store: &Store,
    req: &Asked<'_>,
    account: &Account,
    mut live: LiveGame,
    side: Color,
    text: &Said<String>,
    moveno: Option<u32>,
) -> Result<Vec<Reply>, ExecError> {
    let board = live.board();
    if live.game().to_act() != Some(side) {
        return Err(Refusal::NotYourMove {
            board,
            to_move: live.player_to_move().cloned(),
        }
        .into());
    }
    let number = live.next_turn_number();
    if let Some(marked) = moveno
        && marked != number
    {
        return Err(Refusal::StaleMoveNumber {
            board,
            text: text.into(),
            number,
            marked,
        }
        .into());
    }
    if let Err(error) = live.play(text.as_written(), req.now) {
        return Err(Refusal::IllegalMove {
            board,
            text: text.into(),
            error,
        }
        .into());
    }
    live.add_comment(number, &account.userid, req.now, req.comment);
    extra::set_submitted(live.extra_mut(), &account.userid, None);
    let lapsed = live.lapse_offer(number).map(|o| {
        let waiting = live.player(side.other());
        notices::offer_lapsed(o.kind, &o.by, &account.userid, number, waiting)
    });
    let (event, mut notices) = play_queued(store, &mut live, req.now)?;
    let event = match (lapsed, event) {
        (None, event) => event,
        (Some(lapse), Event::Queued { notes, before }) => Event::Queued {
            notes: format!("{lapse}\n{notes}"),
            before,
        },
        (Some(lapse), _) => Event::Note(lapse),
    };
    store.put_game(live.file())?;
    let mut out = board_mails(
        store,
        &live,
        event,
        Some((account.userid.as_str(), req.comment)),
    )?;
    out.append(&mut notices);
    Ok(out)
}

pub(super) fn resign(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    account: &Account,
) -> Result<Vec<Reply>, ExecError> {
    let (mut live, side) = load_for_player(store, board, account)?;
    if live.end(EndReason::Resigned, side, req.now).is_err() {
        return Err(Refusal::GameEnded { board }.into());
    }
    let turn = live.next_turn_number();
    live.add_comment(turn, &account.userid, req.now, req.comment);
    store.put_game(live.file())?;
    Ok(board_mails(
        store,
        &live,
        Event::Resigned(account.userid.clone()),
        Some((account.userid.as_str(), req.comment)),
    )?)
}

/// After a turn, play the moves queued by the player now to act (while there are
/// any). Returns the event for the board mails ([`Event::Queued`] when a queued move
/// was played: the mails draw the board before it too) and error mails for queued
/// moves that were dropped.
pub fn play_queued(
    store: &Store,
    live: &mut LiveGame,
    now: u64,
) -> Result<(Event, Vec<Reply>), InternalError> {
    let mut notes = Vec::new();
    let mut notices = Vec::new();
    let before = live.file().turns.len();
    for _ in 0..4 {
        let Some(side) = live.game().to_act() else {
            break;
        };
        let player = live.player(side).clone();
        let Some(q) = extra::queued(live.file(), &player) else {
            break;
        };
        extra::set_queued(live.extra_mut(), &player, None);
        let number = live.next_turn_number();
        let failure = match q.moveno {
            Some(marked) if marked != number => Some(QueuedDropped::Marked { marked, number }),
            _ => live.play(&q.text, now).err().map(QueuedDropped::Illegal),
        };
        match failure {
            None => notes.push(play_text::queued_played(&player, &q.text, number)),
            Some(why) => {
                if let Some(account) = store.account(&player)? {
                    notices.push(Reply {
                        to: account.addresses.clone(),
                        subject: subjects::board_error(live.board()),
                        body: play_text::queued_dropped(&q.text, live.board(), &why, &player),
                        // A reply plays for the player at the turn now due, as a
                        // reply to a board mail does.
                        thread: Thread::board(store, live, &player)?,
                        ..Reply::default()
                    });
                }
                break;
            }
        }
    }
    let event = if notes.is_empty() {
        Event::Moved
    } else {
        // The board after the turn answered is drawn too: nobody saw it otherwise.
        Event::Queued {
            notes: notes.join("\n"),
            before,
        }
    };
    Ok((event, notices))
}

/// `yinsh queue board userid password move[#moveno]`
pub(super) fn queue(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    account: &Account,
    text: &Said<String>,
    moveno: Option<u32>,
) -> Result<Vec<Reply>, ExecError> {
    let (mut live, side) = load_for_player(store, board, account)?;
    if live.game().to_act() == Some(side) {
        // Already the player's turn: the move is played at once.
        return play_loaded(store, req, account, live, side, text, moveno);
    }
    if let Err(error) = crate::notation::parse_turn(text.as_written()) {
        return Err(Refusal::CannotQueue {
            board,
            text: text.into(),
            error,
        }
        .into());
    }
    let next = live.next_turn_number();
    if let Some(marked) = moveno.filter(|&n| n <= next) {
        return Err(Refusal::QueueMoveNumber {
            board,
            text: text.into(),
            marked,
            next,
            opponent: live.player(side.other()).clone(),
        }
        .into());
    }
    let later = extra::for_later(live.file(), text.as_written(), moveno);
    extra::set_queued(live.extra_mut(), &account.userid, Some(later));
    store.put_game(live.file())?;
    let mail = BoardMail {
        event: Event::Note(play_text::queued(text, live.player(side.other()))),
        reader: Some(&account.userid),
        queued: Some(text.as_written().as_str()),
        vacations: Some(&Vacations::load(store)?),
        ..BoardMail::new(&live)
    };
    Ok(vec![board_reply(req, &mail, account.text_only)?])
}

/// Play `text` on a copy of the game, returning the game after it.
fn try_move(live: &LiveGame, text: &str, now: u64) -> Result<LiveGame, NotationError> {
    let mut after = live.clone();
    after.play(text, now)?;
    Ok(after)
}

/// `yinsh submit board userid password move[#moveno]`
pub(super) fn submit(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    account: &Account,
    text: &Said<String>,
    moveno: Option<u32>,
) -> Result<Vec<Reply>, ExecError> {
    let (mut live, side) = load_for_player(store, board, account)?;
    if live.game().to_act() != Some(side) {
        return Err(Refusal::SubmitNotYourMove {
            board,
            to_move: live.player_to_move().cloned(),
        }
        .into());
    }
    let number = live.next_turn_number();
    if let Some(marked) = moveno.filter(|&n| n != number) {
        return Err(Refusal::SubmitMoveNumber {
            board,
            text: text.into(),
            number,
            marked,
        }
        .into());
    }
    let after =
        try_move(&live, text.as_written(), req.now).map_err(|error| Refusal::IllegalMove {
            board,
            text: text.into(),
            error,
        })?;
    let later = extra::for_later(live.file(), text.as_written(), moveno);
    extra::set_submitted(live.extra_mut(), &account.userid, Some(later));
    store.put_game(live.file())?;
    let mail = BoardMail {
        event: Event::Note(play_text::submitted(text, board, &account.userid)),
        // Nothing was played: the clock told is the game's own.
        vacations: Some(&Vacations::load(store)?),
        stored: Some(&live),
        ..BoardMail::new(&after)
    };
    Ok(vec![board_to_sender(
        req,
        &subjects::preview(board),
        &mail,
        account.text_only,
    )?])
}

/// `yinsh confirm board userid password`
pub(super) fn confirm(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    account: &Account,
) -> Result<Vec<Reply>, ExecError> {
    let (live, side) = load_for_player(store, board, account)?;
    let Some(s) = extra::submitted(live.file(), &account.userid) else {
        return Err(Refusal::NothingSubmitted {
            board,
            userid: account.userid.clone(),
        }
        .into());
    };
    play_loaded(
        store,
        req,
        account,
        live,
        side,
        &Said::from(s.text),
        s.moveno,
    )
}

/// `yinsh preview board[#moveno] move+`
pub(super) fn preview(
    store: &Store,
    req: &Asked<'_>,
    at: BoardRef,
    moves: &[Said<String>],
) -> Result<Vec<Reply>, ExecError> {
    let board = at.board;
    let live = load_board(store, board)?;
    let total = live.file().turns.len();
    let from = at.at.map_or(total, |n| n as usize);
    if from > total {
        return Err(Refusal::PreviewTooFar { board, total, from }.into());
    }
    let mut file = live.file().clone();
    file.turns.truncate(from);
    file.ended = if from == total { file.ended } else { None };
    let mut after = LiveGame::load(file)?;
    for (k, m) in moves.iter().enumerate() {
        after =
            try_move(&after, m.as_written(), req.now).map_err(|error| Refusal::PreviewStopped {
                board,
                from: u32::try_from(from).unwrap_or(u32::MAX),
                nth: k + 1,
                text: m.into(),
                error,
            })?;
    }
    let mail = BoardMail {
        event: Event::Note(play_text::preview(moves, from + 1)),
        // Nothing was stored: the clock told is the game's own.
        vacations: Some(&Vacations::load(store)?),
        stored: Some(&live),
        ..BoardMail::new(&after)
    };
    Ok(vec![board_to_sender(
        req,
        &subjects::preview(board),
        &mail,
        sender_text_only(store, req)?,
    )?])
}
