//! Per-game commands beyond a plain move: draw offers and take-back requests with
//! their answers (`propose`, `undo`, `accept`, `reject`), queued moves (played when
//! it becomes the player's turn), submitted moves (a preview, played on `confirm`),
//! and `preview` (the board after hypothetical moves, nothing stored).
//!
//! `undo` asks to take back the requester's own last turn: that turn, the server's
//! automatic passes after it, and whatever the opponent played since are removed
//! (so after an accepted undo it is the requester's turn again, at the position
//! before their move). Any new turn cancels a pending offer.

use super::command::{BoardRef, OfferAction};
use super::dispatch::{
    InternalError, Outcome, Reply, Request, board_mails, board_reply, load_for_player, play_loaded,
    refuse_on, to_sender, tri,
};
use super::extra::{self, Offer, Stored};
use super::record::LiveGame;
use super::reply::{BoardMail, Event};
use super::store::{EndRecord, Password, Store, UserId};

fn kind_words(kind: &str) -> &'static str {
    if kind == "undo" {
        "take-back request"
    } else {
        "draw offer"
    }
}

/// The turn number (1-based) of `userid`'s last own (not automatic) turn.
fn last_own_turn(live: &LiveGame, userid: &str) -> Option<usize> {
    live.file
        .turns
        .iter()
        .rposition(|t| !t.auto && t.by.eq_ignore_ascii_case(userid))
        .map(|k| k + 1)
}

/// `yinsh move board userid password propose|undo|accept|reject`
pub(super) fn offer(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    userid: &UserId,
    password: &Password,
    action: OfferAction,
) -> Outcome {
    let (account, mut live, side) = tri!(load_for_player(store, board, userid, password));
    let me = account.userid.clone();
    let other = live.player(side.other()).to_string();
    let pending = extra::offer(&live.file);
    let note = match action {
        OfferAction::Propose | OfferAction::Undo => {
            if let Some(p) = pending.filter(|p| !p.by.eq_ignore_ascii_case(&me)) {
                return Ok(Err(refuse_on(
                    board,
                    format!(
                        "{other} has made a {} that waits for your answer: send \"yinsh move {board} {me} <password> accept\" or \"... reject\" first.",
                        kind_words(&p.kind)
                    ),
                )));
            }
            let kind = if action == OfferAction::Undo {
                let Some(k) = last_own_turn(&live, &me) else {
                    return Ok(Err(refuse_on(
                        board,
                        "You have not played a move on this board yet: there is nothing to take back.",
                    )));
                };
                let t = &live.file.turns[k - 1];
                let n = live.file.turns.len() - k;
                let note = format!(
                    "{me} asks to take back move #{k} ({}){}.",
                    t.text,
                    if n > 0 {
                        format!(
                            " and the {n} turn{} after it",
                            if n == 1 { "" } else { "s" }
                        )
                    } else {
                        String::new()
                    }
                );
                ("undo", note)
            } else {
                ("draw", format!("{me} proposes a draw."))
            };
            let n_turns = live.file.turns.len();
            extra::set_offer(
                &mut live.file,
                Some(Offer {
                    kind: kind.0.to_string(),
                    by: me.clone(),
                    turns: n_turns,
                }),
            );
            format!(
                "{}\n{other} may answer with the Subject \"yinsh move {board} {other} <password> accept\" (or reject).",
                kind.1
            )
        }
        OfferAction::Accept | OfferAction::Reject => {
            let Some(p) = pending.filter(|p| !p.by.eq_ignore_ascii_case(&me)) else {
                return Ok(Err(refuse_on(
                    board,
                    format!(
                        "There is no draw offer or take-back request from {other} to answer on board {board}. To offer a draw write \"propose\" as your move; to ask to take back your last move, \"undo\"."
                    ),
                )));
            };
            extra::set_offer(&mut live.file, None);
            if action == OfferAction::Reject {
                format!("{me} rejected {}'s {}.", p.by, kind_words(&p.kind))
            } else if p.kind == "undo" {
                let Some(k) = last_own_turn(&live, &p.by) else {
                    return Ok(Err(refuse_on(board, "There is no move left to take back.")));
                };
                let text = live.file.turns[k - 1].text.clone();
                let n = live.take_back_from(k, req.now)?;
                format!(
                    "{me} accepted {}'s take-back request: move #{k} ({text}) {}was taken back.",
                    p.by,
                    if n > 1 {
                        format!(
                            "and the {} turn{} after it ",
                            n - 1,
                            if n == 2 { "" } else { "s" }
                        )
                    } else {
                        String::new()
                    }
                )
            } else {
                if live.game.agree_draw().is_err() {
                    return Ok(Err(refuse_on(board, "The game has ended")));
                }
                live.file.ended = Some(EndRecord {
                    reason: "draw agreed".to_string(),
                    by: me.clone(),
                    at: req.now,
                });
                format!("{me} accepted {}'s draw offer.", p.by)
            }
        }
    };
    live.file.updated = req.now;
    let turn = live.next_turn_number();
    live.add_comment(turn, &me, req.now, req.comment);
    store.put_game(&live.file)?;
    Ok(Ok(board_mails(
        store,
        &live,
        Event::Note(note),
        Some((me.as_str(), req.comment)),
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
        let player = live.player(side).to_string();
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
                let Ok(id) = player.parse::<UserId>() else {
                    break;
                };
                if let Some(account) = store.account(&id)? {
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
                live.player_to_move().unwrap_or("nobody")
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
        return Ok(Err(super::dispatch::refuse(format!(
            "Yinsh board {board} not found"
        ))));
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
