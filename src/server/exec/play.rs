//! Playing: `yinsh challenge` (a new game), `yinsh move`, `yinsh resign`, queued moves
//! (played when it becomes the player's turn), submitted moves (a preview, played on
//! `confirm`), and `preview` (the board after hypothetical moves, nothing stored).

use crate::rules::{Color, Variant};
use crate::server::command::BoardRef;
use crate::server::game::extra::{self, Stored};
use crate::server::game::record::LiveGame;
use crate::server::model::{EndReason, Password, UserId};
use crate::server::store::{Account, EndRecord, Store};
use crate::server::text::reply::{BoardMail, Event};

use super::context::{
    Outcome, Reply, Request, board_mails, board_reply, load_for_player, to_sender,
};
use super::error::{InternalError, refuse, refuse_on, tri};

pub(super) fn challenge(
    store: &Store,
    req: &Request<'_>,
    blitz: bool,
    (nag, forfeit): (Option<u32>, Option<u32>),
    white: &UserId,
    black: &UserId,
) -> Outcome {
    let invalid = |message: String| Ok(Ok(vec![to_sender(req, "Invalid challenge", message)]));
    if white == black {
        return invalid(format!(
            "{white} cannot play against themselves: name two different userids.\nSyntax is \"yinsh challenge [-blitz] <userid1> <userid2>\"\n"
        ));
    }
    let (n, f) = (
        nag.unwrap_or(extra::NAG_DAYS),
        forfeit.unwrap_or(extra::FORFEIT_DAYS),
    );
    if n >= f {
        return invalid(format!(
            "The reminder time ({n} days) must be shorter than the forfeit time ({f} days): set both, like --nagtime=7 --forfeittime=21.\n"
        ));
    }
    let (mut wa, mut ba) = match (store.account(white)?, store.account(black)?) {
        (Some(wa), Some(ba)) => (wa, ba),
        (wa, ba) => {
            let missing: Vec<String> = [(white, wa), (black, ba)]
                .into_iter()
                .filter(|(_, account)| account.is_none())
                .map(|(u, _)| u.to_string())
                .collect();
            return invalid(format!(
                "{} {} not signed up. Both players must sign up first: signup <userid> <password> [<e-mail address>]\n",
                missing.join(" and "),
                if missing.len() == 1 { "is" } else { "are" }
            ));
        }
    };
    let board = store.allocate_board()?;
    let variant = if blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    };
    let mut live = LiveGame::new(board, variant, &wa.userid, &ba.userid, req.now);
    extra::set_times(&mut live.file, nag, forfeit);
    store.put_game(&live.file)?;
    wa.games.push(board);
    store.put_account(&wa)?;
    ba.games.push(board);
    store.put_account(&ba)?;
    Ok(Ok(board_mails(store, &live, Event::NewGame, None)?))
}

pub(super) fn play_move(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    userid: &UserId,
    password: &Password,
    text: &str,
    moveno: Option<u32>,
) -> Outcome {
    let (account, live, side) = tri!(load_for_player(store, board, userid, password));
    play_loaded(store, req, &account, live, side, text, moveno)
}

/// Play `text` for `account` (playing `side`) on a loaded game, then the opponent's
/// queued move if there is one; store it and mail everyone.
pub(super) fn play_loaded(
    store: &Store,
    req: &Request<'_>,
    account: &Account,
    mut live: LiveGame,
    side: Color,
    text: &str,
    moveno: Option<u32>,
) -> Outcome {
    let board = live.board();
    if live.game.to_act() != Some(side) {
        return Ok(Err(refuse_on(
            board,
            format!(
                "It is not your move: it is {}'s turn.",
                live.player_to_move().map_or("nobody", UserId::as_str)
            ),
        )));
    }
    let number = live.next_turn_number();
    if let Some(n) = moveno
        && n != number
    {
        return Ok(Err(refuse_on(
            board,
            format!(
                "Move {text} received as move #{number}, but it is marked #{n}: it was not played.\n\
                 (A mail sent twice or crossed with another one does this.) Check the board below and send your move again if it is still wanted."
            ),
        )));
    }
    if let Err(e) = live.play(text, req.now) {
        return Ok(Err(refuse_on(
            board,
            format!("Move {text} is not legal: {e}"),
        )));
    }
    live.add_comment(number, &account.userid, req.now, req.comment);
    extra::set_submitted(&mut live.file, &account.userid, None);
    let (event, mut notices) = play_queued(store, &mut live, req.now)?;
    store.put_game(&live.file)?;
    let mut out = board_mails(
        store,
        &live,
        event,
        Some((account.userid.as_str(), req.comment)),
    )?;
    out.append(&mut notices);
    Ok(Ok(out))
}

pub(super) fn resign(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    userid: &UserId,
    password: &Password,
) -> Outcome {
    let (account, mut live, side) = tri!(load_for_player(store, board, userid, password));
    if live.game.resign(side).is_err() {
        return Ok(Err(refuse_on(board, "The game has ended")));
    }
    live.file.ended = Some(EndRecord {
        reason: EndReason::Resigned,
        by: account.userid.clone(),
        at: req.now,
    });
    live.file.updated = req.now;
    let turn = live.next_turn_number();
    live.add_comment(turn, &account.userid, req.now, req.comment);
    store.put_game(&live.file)?;
    Ok(Ok(board_mails(
        store,
        &live,
        Event::Resigned(account.userid.clone()),
        Some((account.userid.as_str(), req.comment)),
    )?))
}

/// After a turn, play the moves queued by the player now to act (while there are
/// any). Returns the event for the board mails and error mails for queued moves that
/// were dropped.
pub fn play_queued(
    store: &Store,
    live: &mut LiveGame,
    now: u64,
) -> Result<(Event, Vec<Reply>), InternalError> {
    let mut notes = Vec::new();
    let mut notices = Vec::new();
    for _ in 0..4 {
        let Some(side) = live.game.to_act() else {
            break;
        };
        let player = live.player(side).clone();
        let Some(q) = extra::queued(&live.file, &player) else {
            break;
        };
        extra::set_queued(&mut live.file, &player, None);
        let number = live.next_turn_number();
        let failure = match q.moveno {
            Some(n) if n != number => Some(format!(
                "it was marked #{n} but would have been move #{number}"
            )),
            _ => live.play(&q.text, now).err().map(|e| e.to_string()),
        };
        match failure {
            None => notes.push(format!(
                "{player}'s queued move {} was played as move #{number}.",
                q.text
            )),
            Some(why) => {
                if let Some(account) = store.account(&player)? {
                    notices.push(Reply {
                        to: account.addresses.clone(),
                        subject: format!("Yinsh Board {} Error", live.board()),
                        body: format!(
                            "Your queued move {} on board {} could not be played: {why}.\nIt was dropped. It is your turn now: send your move with\n    yinsh move {} {player} <password> <move>\n",
                            q.text,
                            live.board(),
                            live.board()
                        ),
                    });
                }
                break;
            }
        }
    }
    let event = if notes.is_empty() {
        Event::Moved
    } else {
        Event::Note(notes.join("\n"))
    };
    Ok((event, notices))
}

/// `yinsh queue board userid password move[#moveno]`
#[allow(clippy::too_many_arguments)]
pub(super) fn queue(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    userid: &UserId,
    password: &Password,
    text: &str,
    moveno: Option<u32>,
) -> Outcome {
    let (account, mut live, side) = tri!(load_for_player(store, board, userid, password));
    if live.game.to_act() == Some(side) {
        // Already the player's turn: the move is played at once.
        return play_loaded(store, req, &account, live, side, text, moveno);
    }
    if let Err(e) = crate::notation::parse_turn(text) {
        return Ok(Err(refuse_on(
            board,
            format!("Move {text} cannot be queued: {e}"),
        )));
    }
    let next = live.next_turn_number();
    if let Some(n) = moveno.filter(|&n| n <= next) {
        return Ok(Err(refuse_on(
            board,
            format!(
                "Move {text} is marked #{n}, but the next move is #{next} and it is {}'s: a queued move gets #{} or later.",
                live.player(side.other()),
                next + 1
            ),
        )));
    }
    let n_turns = live.file.turns.len();
    extra::set_queued(
        &mut live.file,
        &account.userid,
        Some(Stored {
            text: text.to_string(),
            moveno,
            turns: n_turns,
        }),
    );
    store.put_game(&live.file)?;
    let mail = BoardMail {
        event: Event::Note(format!(
            "Your move {text} is queued: it will be played after {}'s move, if it is legal then.",
            live.player(side.other())
        )),
        reader: Some(&account.userid),
        queued: Some(text),
        ..BoardMail::new(&live)
    };
    Ok(Ok(vec![board_reply(req, &mail)?]))
}

/// Check `text` for `side` against the game, returning the game after it.
fn try_move(
    live: &LiveGame,
    text: &str,
    moveno: Option<u32>,
    now: u64,
) -> Result<LiveGame, String> {
    let number = live.next_turn_number();
    if let Some(n) = moveno.filter(|&n| n != number) {
        return Err(format!(
            "Move {text} received as move #{number}, but it is marked #{n}."
        ));
    }
    let mut after = live.clone();
    after
        .play(text, now)
        .map_err(|e| format!("Move {text} is not legal: {e}"))?;
    Ok(after)
}

/// `yinsh submit board userid password move[#moveno]`
#[allow(clippy::too_many_arguments)]
pub(super) fn submit(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    userid: &UserId,
    password: &Password,
    text: &str,
    moveno: Option<u32>,
) -> Outcome {
    let (account, mut live, side) = tri!(load_for_player(store, board, userid, password));
    if live.game.to_act() != Some(side) {
        return Ok(Err(refuse_on(
            board,
            format!(
                "It is not your move: it is {}'s turn. (To have a move played when your turn comes, use yinsh queue.)",
                live.player_to_move().map_or("nobody", UserId::as_str)
            ),
        )));
    }
    let after = match try_move(&live, text, moveno, req.now) {
        Ok(a) => a,
        Err(why) => return Ok(Err(refuse_on(board, why))),
    };
    let n_turns = live.file.turns.len();
    extra::set_submitted(
        &mut live.file,
        &account.userid,
        Some(Stored {
            text: text.to_string(),
            moveno,
            turns: n_turns,
        }),
    );
    store.put_game(&live.file)?;
    let mail = BoardMail {
        event: Event::Note(format!(
            "Preview of your move {text} (nothing has been played yet).\nTo play it, send the Subject: yinsh confirm {board} {} <password>",
            account.userid
        )),
        ..BoardMail::new(&after)
    };
    Ok(Ok(vec![to_sender(
        req,
        &format!("Yinsh Board {board} preview"),
        mail.body()?,
    )]))
}

/// `yinsh confirm board userid password`
pub(super) fn confirm(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    userid: &UserId,
    password: &Password,
) -> Outcome {
    let (account, live, side) = tri!(load_for_player(store, board, userid, password));
    let Some(s) = extra::submitted(&live.file, &account.userid) else {
        return Ok(Err(refuse_on(
            board,
            format!(
                "You have no submitted move waiting on board {board} (a move played since cancels it). Send \"yinsh submit {board} {} <password> <move>\" first, or play with yinsh move.",
                account.userid
            ),
        )));
    };
    play_loaded(store, req, &account, live, side, &s.text, s.moveno)
}

/// `yinsh preview board[#moveno] move+`
pub(super) fn preview(store: &Store, req: &Request<'_>, at: BoardRef, moves: &[String]) -> Outcome {
    let board = at.board;
    let Some(file) = store.game(board)? else {
        return Ok(Err(refuse(format!("Yinsh board {board} not found"))));
    };
    let live = LiveGame::load(file)?;
    let total = live.file.turns.len();
    let from = at.at.map_or(total, |n| n as usize);
    if from > total {
        return Ok(Err(refuse_on(
            board,
            format!(
                "Board {board} has only {total} moves: there is no move #{from} to start from."
            ),
        )));
    }
    let mut file = live.file.clone();
    file.turns.truncate(from);
    file.ended = if from == total { file.ended } else { None };
    let mut after = LiveGame::load(file)?;
    for (k, m) in moves.iter().enumerate() {
        match try_move(&after, m, None, req.now) {
            Ok(a) => after = a,
            Err(why) => {
                return Ok(Err(refuse_on(
                    board,
                    format!(
                        "Preview stopped at the {} move given: {why}",
                        ordinal(k + 1)
                    ),
                )));
            }
        }
    }
    let mail = BoardMail {
        event: Event::Note(format!(
            "Preview: the board after {} from move #{} (nothing has been stored).",
            moves.join(" "),
            from + 1
        )),
        ..BoardMail::new(&after)
    };
    Ok(Ok(vec![to_sender(
        req,
        &format!("Yinsh Board {board} preview"),
        mail.body()?,
    )]))
}

fn ordinal(n: usize) -> String {
    match n {
        1 => "first".into(),
        2 => "second".into(),
        3 => "third".into(),
        _ => format!("{n}th"),
    }
}
