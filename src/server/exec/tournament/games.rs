//! A tournament's games: started by the server at the start (a round robin's all
//! at once, a Swiss's first round) and after each Swiss round, each player told
//! their games by a mail naming the tournament and the round beside each game's own
//! board mails; a withdrawal's games resigned; and after every transaction's
//! work, the games it ended recorded in their tournaments (`ended_games`, called by
//! `run::txn` for every run: moves, resignations, agreed draws, tick's forfeits),
//! the next Swiss round paired when the last game of a round ends, and at the end
//! the final table and the winner mailed to every player.

use crate::rules::{Color, Outcome, Variant};
use crate::server::game::extra;
use crate::server::game::record::LiveGame;
use crate::server::game::tournament::{History, round_robin, swiss};
use crate::server::internal::InternalError;
use crate::server::model::{EndReason, UserId};
use crate::server::outgoing::board_mails::board_mails;
use crate::server::outgoing::{Cause, Reply};
use crate::server::store::{InTournament, Store, Tournament, TournamentGame, Verdict};
use crate::server::text::reply::Event;
use crate::server::text::tournament as text;

use super::table_of;

/// Start `t` at `now`: the ratings fixed, the first games made and mailed.
pub(super) fn start(
    store: &Store,
    now: u64,
    t: &mut Tournament,
) -> Result<Vec<Reply>, InternalError> {
    let variant = variant_of(t);
    let keys: Vec<String> = t.entrants.iter().map(|e| e.id.key()).collect();
    let table = store.standings_of(variant, &keys)?;
    for e in &mut t.entrants {
        e.rating = table
            .get(&e.id.key())
            .map_or(crate::server::game::ratings::START, |s| s.record.rating);
    }
    t.started = Some(now);
    let out = next_round(store, now, t, 1)?;
    store.put_tournament(t)?;
    Ok(out)
}

fn variant_of(t: &Tournament) -> Variant {
    if t.blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    }
}

/// Round `round`'s games made, stored and mailed (for a round robin, round 1 is
/// every game).
fn next_round(
    store: &Store,
    now: u64,
    t: &mut Tournament,
    round: u32,
) -> Result<Vec<Reply>, InternalError> {
    let (games, bye) = match t.format {
        crate::server::store::Format::RoundRobin => {
            let players: Vec<UserId> = t.entrants.iter().map(|e| e.id.clone()).collect();
            (round_robin::schedule(&players), None)
        }
        crate::server::store::Format::Swiss { .. } => {
            let r = swiss::pair(
                &History {
                    entrants: &t.entrants,
                    games: &t.games,
                    byes: &t.byes,
                },
                round,
            );
            (r.games, r.bye)
        }
    };
    let mut out = Vec::new();
    for mut g in games {
        let live = new_game(store, now, t, &g)?;
        g.board = Some(live.board());
        out.extend(board_mails(store, &live, Event::NewGame, None)?);
        t.games.push(g);
    }
    let sitter = bye.as_ref().map(|b| b.player.clone());
    t.byes.extend(bye);
    for e in t.entrants.iter().filter(|e| !e.withdrawn) {
        let has_bye = sitter.as_ref() == Some(&e.id);
        out.extend(to_player(
            store,
            t,
            &e.id,
            text::your_games(t, round, &e.id, has_bye),
        )?);
    }
    Ok(out)
}

/// A mail of `t` to `who`'s addresses.
fn to_player(
    store: &Store,
    t: &Tournament,
    who: &UserId,
    body: String,
) -> Result<Option<Reply>, InternalError> {
    let Some(account) = store.account(who)? else {
        return Ok(None);
    };
    Ok(Some(Reply {
        to: account.addresses.clone(),
        subject: text::subject(&t.name),
        body,
        ..Reply::default()
    }))
}

/// The game of `g` stored, with its tournament and round in its extra.
fn new_game(
    store: &Store,
    now: u64,
    t: &Tournament,
    g: &TournamentGame,
) -> Result<LiveGame, InternalError> {
    let board = store.allocate_board()?;
    let mut live = LiveGame::new(board, variant_of(t), &g.white, &g.black, now);
    extra::set_times(live.extra_mut(), t.nag_days, t.forfeit_days);
    live.extra_mut().tournament = Some(InTournament {
        name: t.name.clone(),
        round: g.round,
    });
    store.put_game(live.file())?;
    for who in [&g.white, &g.black] {
        if let Some(mut a) = store.account(who)? {
            a.games.push(board);
            store.put_account(&a)?;
        }
    }
    Ok(live)
}

/// `who` withdraws from `t`: every game of theirs not finished is resigned
/// (the board mails go out); they are paired no more. Returns how many.
pub(super) fn withdraw(
    store: &Store,
    now: u64,
    t: &mut Tournament,
    who: &UserId,
) -> Result<(usize, Vec<Reply>), InternalError> {
    for e in t.entrants.iter_mut().filter(|e| e.id == *who) {
        e.withdrawn = true;
    }
    let mut out = Vec::new();
    let mut n = 0;
    let boards: Vec<_> = t
        .games
        .iter()
        .filter(|g| g.result.is_none() && (g.white == *who || g.black == *who))
        .filter_map(|g| g.board)
        .collect();
    for board in boards {
        let Some(file) = store.game(board)? else {
            continue;
        };
        let mut live = LiveGame::load(file)?;
        let Some(side) = live.side(who) else {
            continue;
        };
        if live.end(EndReason::Resigned, side, now).is_err() {
            continue;
        }
        store.put_game(live.file())?;
        let note = text::withdrawn_game(&t.name, who);
        out.extend(board_mails(store, &live, Event::Note(note), None)?);
        n += 1;
    }
    Ok((n, out))
}

/// After a transaction's work: the tournament games it ended recorded, the next
/// Swiss round started when one is complete, the final mail when the tournament is.
/// Each mail is marked `cause` (the proven player whose mail ended the game; the
/// gate judges the clock's and the server's runs by their source).
pub fn ended_games(store: &Store, now: u64, cause: Cause) -> Result<Vec<Reply>, InternalError> {
    let mut touched: Vec<Tournament> = Vec::new();
    for board in store.changed_games() {
        let Some(file) = store.game(board)? else {
            continue;
        };
        let Some(tag) = file.extra.tournament.clone() else {
            continue;
        };
        let live = LiveGame::load(file)?;
        let Some(outcome) = live.game().outcome() else {
            continue;
        };
        let k = match touched.iter().position(|t| t.name == tag.name) {
            Some(k) => k,
            None => match store.tournament(&tag.name)? {
                Some(t) => {
                    touched.push(t);
                    touched.len() - 1
                }
                None => continue,
            },
        };
        if let Some(g) = touched[k].game_on(board)
            && g.result.is_none()
        {
            g.result = Some(match outcome {
                Outcome::Win(Color::White) => Verdict::White,
                Outcome::Win(Color::Black) => Verdict::Black,
                Outcome::Draw => Verdict::Draw,
            });
        }
    }
    let mut out = Vec::new();
    for mut t in touched {
        out.extend(advance(store, now, &mut t)?);
        store.put_tournament(&t)?;
    }
    for r in &mut out {
        r.cause = cause;
    }
    Ok(out)
}

/// What follows once every game of a round has ended: the next Swiss round, or the
/// end.
fn advance(store: &Store, now: u64, t: &mut Tournament) -> Result<Vec<Reply>, InternalError> {
    if t.finished.is_some() || t.started.is_none() || t.games.iter().any(|g| g.result.is_none()) {
        return Ok(Vec::new());
    }
    let round = t.games.iter().map(|g| g.round).max().unwrap_or(0);
    let active = t.entrants.iter().filter(|e| !e.withdrawn).count();
    if let crate::server::store::Format::Swiss { rounds } = t.format
        && round < rounds
        && active >= 2
    {
        return next_round(store, now, t, round + 1);
    }
    t.finished = Some(now);
    let lines = table_of(t);
    let body = text::finished(t, &lines);
    let mut out = Vec::new();
    for e in &t.entrants {
        out.extend(to_player(store, t, &e.id, body.clone())?);
    }
    Ok(out)
}

/// For `tick`: the tournaments whose start time has come, started when they have
/// their fewest players (else left open).
pub fn start_due(store: &Store, now: u64) -> Result<Vec<Reply>, InternalError> {
    let mut out = Vec::new();
    for mut t in store.tournaments()?.into_values() {
        let due = t.started.is_none() && t.start.is_some_and(|s| s <= now);
        if due && t.entrants.len() >= t.min as usize {
            out.extend(start(store, now, &mut t)?);
        }
    }
    Ok(out)
}
