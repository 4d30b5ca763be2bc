//! The tournament commands (issue 49): `create` (a confirmed account, at most
//! [`MAX_RUNNING`] of its own not yet finished; the server's admins, listed in the
//! home's `admins` file, without that cap), `join` and `leave` (before the start;
//! a leave after it is a withdrawal: every game not finished is resigned),
//! `start` (its creator or an admin, with at least its fewest players), `show` and
//! the list. Starting, the games and what a game's end changes are in `games.rs`.

mod games;

use crate::server::command::{TournamentAction, TournamentRules};
use crate::server::game::extra;
use crate::server::game::strangers;
use crate::server::game::tournament::standings;
use crate::server::game::tournament::{Entrant, History};
use crate::server::outgoing::Reply;
use crate::server::store::{Store, Tournament, TournamentName};
use crate::server::text::tournament as text;

use super::context::{Actor, Asked, to_sender};
use super::error::{ExecError, TournamentRefusal};

pub use games::{ended_games, start_due};

/// Tournaments not yet finished a player who is no admin may have created.
pub const MAX_RUNNING: usize = 2;

/// The standings of `t` as they are.
pub(crate) fn table_of(t: &Tournament) -> Vec<standings::Line> {
    standings::of(
        t.format,
        &History {
            entrants: &t.entrants,
            games: &t.games,
            byes: &t.byes,
        },
    )
}

/// `yinsh tournament <action> <name> ...` for `actor` (none for `show`).
pub(super) fn tournament(
    store: &Store,
    req: &Asked<'_>,
    actor: Option<&Actor>,
    name: &TournamentName,
    action: &TournamentAction,
) -> Result<Vec<Reply>, ExecError> {
    let subject = text::subject(name);
    let found = store.tournament(name)?;
    if let TournamentAction::Show = action {
        let t = found.ok_or_else(|| no_such(name))?;
        return Ok(vec![to_sender(
            req,
            &subject,
            text::show(&t, &table_of(&t)),
        )]);
    }
    let actor = actor.ok_or(ExecError::Refused(super::Refusal::UnknownUserid))?;
    let me = &actor.account;
    if !strangers::confirmed(me) {
        return Err(TournamentRefusal::Unconfirmed.into());
    }
    let admin = store.admins()?.contains(&me.userid.key());
    if let TournamentAction::Create(rules) = action {
        if found.is_some() {
            return Err(TournamentRefusal::NameTaken { name: name.clone() }.into());
        }
        let t = create(store, req, me, admin, name, rules)?;
        return Ok(vec![to_sender(req, &subject, text::created(&t))]);
    }
    let mut t = found.ok_or_else(|| no_such(name))?;
    if t.finished.is_some() {
        return Err(TournamentRefusal::Finished { name: name.clone() }.into());
    }
    let who = &me.userid;
    match action {
        TournamentAction::Join => {
            if t.started.is_some() {
                return Err(TournamentRefusal::Started { name: name.clone() }.into());
            }
            if t.has(who) {
                return Err(TournamentRefusal::AlreadyIn { name: name.clone() }.into());
            }
            if t.entrants.len() >= t.max as usize {
                return Err(TournamentRefusal::Full {
                    name: name.clone(),
                    max: t.max,
                }
                .into());
            }
            t.entrants.push(Entrant::new(who.clone(), 0));
            store.put_tournament(&t)?;
            Ok(vec![to_sender(req, &subject, text::joined(&t, who))])
        }
        TournamentAction::Leave => {
            if !t.has(who) {
                return Err(TournamentRefusal::NotIn { name: name.clone() }.into());
            }
            if t.started.is_none() {
                t.entrants.retain(|e| e.id != *who);
                store.put_tournament(&t)?;
                return Ok(vec![to_sender(req, &subject, text::left(name, who))]);
            }
            let (forfeited, mut out) = games::withdraw(store, req.now, &mut t, who)?;
            store.put_tournament(&t)?;
            out.insert(
                0,
                to_sender(req, &subject, text::withdrew(name, who, forfeited)),
            );
            Ok(out)
        }
        TournamentAction::Start => {
            if t.started.is_some() {
                return Err(TournamentRefusal::Started { name: name.clone() }.into());
            }
            if t.creator != *who && !admin {
                return Err(TournamentRefusal::NotCreator {
                    name: name.clone(),
                    creator: t.creator.clone(),
                }
                .into());
            }
            if t.entrants.len() < t.min as usize {
                return Err(TournamentRefusal::TooFew {
                    name: name.clone(),
                    have: t.entrants.len(),
                    min: t.min,
                }
                .into());
            }
            Ok(games::start(store, req.now, &mut t)?)
        }
        TournamentAction::Create(_) | TournamentAction::Show => Ok(Vec::new()),
    }
}

fn no_such(name: &TournamentName) -> ExecError {
    TournamentRefusal::NoSuch { name: name.clone() }.into()
}

/// A new tournament, its creator its first player.
fn create(
    store: &Store,
    req: &Asked<'_>,
    me: &crate::server::store::Account,
    admin: bool,
    name: &TournamentName,
    rules: &TournamentRules,
) -> Result<Tournament, ExecError> {
    let running = store
        .tournaments()?
        .values()
        .filter(|t| t.creator == me.userid && t.finished.is_none())
        .count();
    if !admin && running >= MAX_RUNNING {
        return Err(TournamentRefusal::TooMany { max: MAX_RUNNING }.into());
    }
    let nag = rules.nag_days.unwrap_or(extra::NAG_DAYS);
    let forfeit = rules.forfeit_days.unwrap_or(extra::FORFEIT_DAYS);
    if rules.min > rules.max || nag >= forfeit {
        return Err(TournamentRefusal::Rules {
            min: rules.min,
            max: rules.max,
            nag,
            forfeit,
        }
        .into());
    }
    let t = Tournament {
        name: name.clone(),
        format: rules.format,
        blitz: rules.blitz,
        nag_days: rules.nag_days,
        forfeit_days: rules.forfeit_days,
        min: rules.min,
        max: rules.max,
        start: rules.start,
        creator: me.userid.clone(),
        created: req.now,
        started: None,
        finished: None,
        entrants: vec![Entrant::new(me.userid.clone(), 0)],
        games: Vec::new(),
        byes: Vec::new(),
    };
    store.put_tournament(&t)?;
    Ok(t)
}

/// `yinsh tournaments`: the list, newest first.
pub(super) fn list(store: &Store, req: &Asked<'_>) -> Result<Vec<Reply>, ExecError> {
    let all = store.tournaments()?;
    let mut all: Vec<&Tournament> = all.values().collect();
    all.sort_by_key(|t| std::cmp::Reverse(t.created));
    Ok(vec![to_sender(
        req,
        &text::list_subject(),
        text::list(&all),
    )])
}
