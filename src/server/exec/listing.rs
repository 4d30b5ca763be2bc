//! Listings: `yinsh show` (boards, now or at a move), `yinsh show <userid>` and
//! `all show`, `yinsh showas` (boards as a player sees them), `yinsh games`,
//! `yinsh standings` and `yinsh history`. Standings, history and games read the
//! indexes (`game::index`), never every game file, and answer one page at a time;
//! `text::listing` and `text::standings` write what they found.

use std::fmt::Display;

use crate::rules::Variant;
use crate::server::command::{BoardRef, GameFilter, Said};
use crate::server::game::extra;
use crate::server::game::index;
use crate::server::game::ratings;
use crate::server::game::record::LiveGame;
use crate::server::game::vacation::Vacations;
use crate::server::outgoing::{Foreign, Reply};
use crate::server::store::{Account, Section, Store, UserId};
use crate::server::text::listing::{self as listing_text, Page};
use crate::server::text::reply::{self, BoardMail};
use crate::server::text::standings as standings_text;
use crate::server::text::subjects;

use super::context::{Actor, Asked, board_reply, load_board, sender_text_only, to_sender};
use super::error::{ExecError, InternalError, Refusal};

pub(super) fn show(
    store: &Store,
    req: &Asked<'_>,
    boards: &[BoardRef],
) -> Result<Vec<Reply>, ExecError> {
    let mut out = Vec::new();
    let vacations = Vacations::load(store)?;
    let text_only = sender_text_only(store, req)?;
    for r in boards {
        let Some(file) = store.game(r.board)? else {
            out.push(to_sender(
                req,
                &subjects::error(),
                reply::error_body(
                    &Refusal::BoardNotFound { board: r.board }.to_string(),
                    None,
                    req.original(),
                ),
            ));
            continue;
        };
        let live = LiveGame::load(file)?;
        if let Some(n) = r.at
            && n as usize > live.file().turns.len()
        {
            let why = Refusal::ShowTooFar {
                board: r.board,
                total: live.file().turns.len(),
                at: n,
            }
            .to_string();
            out.push(Reply {
                foreign: Foreign::Part(reply::error_body(&why, None, "")),
                ..to_sender(
                    req,
                    &subjects::board_error(r.board),
                    reply::error_body(&why, None, req.original()),
                )
            });
            continue;
        }
        let mail = BoardMail {
            at_turn: r.at.map(|n| n as usize),
            vacations: Some(&vacations),
            ..BoardMail::new(&live)
        };
        out.push(board_reply(req, &mail, text_only)?);
    }
    Ok(out)
}

/// Rows of `yinsh games` per player and page: the most recent ones first in line.
pub const GAMES_PER_MAIL: usize = 30;

pub(super) fn games(
    store: &Store,
    req: &Asked<'_>,
    userids: &[Said<UserId>],
    filter: GameFilter,
    page: u32,
) -> Result<Vec<Reply>, ExecError> {
    let mut body = String::new();
    for id in userids {
        let Some(account) = store.account(id.as_written())? else {
            body.push_str(&listing_text::no_such_userid(id));
            continue;
        };
        let (shown, total) = games_of(store, &account.userid, filter, page, GAMES_PER_MAIL)?;
        let at = Page {
            number: page,
            per_page: GAMES_PER_MAIL,
            shown: shown.len(),
            total,
        };
        body.push_str(&listing_text::games_of(
            &account.userid,
            &filter,
            &at,
            &shown,
        ));
    }
    let body = body
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    // It names the userids the mail named: an unconfirmed address is not sent it.
    Ok(vec![Reply {
        foreign: Foreign::Part(listing_text::LISTING_WITHHELD.to_string()),
        ..to_sender(req, &subjects::games(), body)
    }])
}

/// One page of the games of `userid` that `filter` keeps (from the player's index,
/// never every game), ascending by board, and how many there are in all. A damaged
/// game file is left out (and told to the operator).
fn games_of(
    store: &Store,
    userid: &UserId,
    filter: GameFilter,
    page: u32,
    per_page: usize,
) -> Result<(Vec<LiveGame>, usize), InternalError> {
    let index = store.player_index(&userid.key())?;
    let mut active = Vec::new();
    if filter != GameFilter::Inactive {
        for &b in &index.active {
            if let Some(live) = index::load_scanned(store, b)? {
                let keep = filter != GameFilter::Next
                    || live.player_to_move().is_some_and(|p| p == userid);
                if keep {
                    active.push(live);
                }
            }
        }
    }
    let mut finished: Vec<_> = match filter {
        GameFilter::All | GameFilter::Inactive => index.finished.iter().map(|e| e.1).collect(),
        GameFilter::Active | GameFilter::Next => Vec::new(),
    };
    finished.sort_unstable();
    // Every board in one ascending list; the page is counted from the end.
    let mut boards: Vec<(crate::server::model::BoardId, Option<LiveGame>)> = active
        .into_iter()
        .map(|l| (l.board(), Some(l)))
        .chain(finished.into_iter().map(|b| (b, None)))
        .collect();
    boards.sort_by_key(|(b, _)| *b);
    let total = boards.len();
    let skip = (page as usize - 1).saturating_mul(per_page);
    let end = total.saturating_sub(skip);
    let start = end.saturating_sub(per_page);
    let mut out = Vec::new();
    for (b, live) in boards.drain(start..end) {
        match live {
            Some(l) => out.push(l),
            None => out.extend(index::load_scanned(store, b)?),
        }
    }
    Ok((out, total))
}

/// Board mails of one player's games that `show <userid>` and `showas` send: the
/// most recent ones; a line says how to list the others.
pub const SHOWN_PER_PLAYER: usize = 20;

/// The boards of `account` that `filter` keeps, from the player's index (never every
/// game of the account): at most `limit`, the most recent (highest board numbers),
/// ascending; and how many `filter` keeps in all.
pub(super) fn boards_of(
    store: &Store,
    account: &Account,
    filter: GameFilter,
    limit: usize,
) -> Result<(Vec<LiveGame>, usize), InternalError> {
    games_of(store, &account.userid, filter, 1, limit)
}

/// The mail saying that only the `shown` most recent of `total` games of `userid`
/// were sent, and how to list them all.
fn more_games(req: &Asked<'_>, userid: &UserId, filter: GameFilter, total: usize) -> Reply {
    to_sender(
        req,
        &subjects::games(),
        listing_text::more_games(userid, &filter, total, SHOWN_PER_PLAYER),
    )
}

/// The board mail of `live` (as it was after move `at`), as `reader` sees it (their
/// command to send, their queued move, their choice of text only) or as anybody does.
fn show_mail(
    req: &Asked<'_>,
    live: &LiveGame,
    at: Option<u32>,
    account: Option<&Account>,
    vacations: &Vacations,
) -> Result<Reply, InternalError> {
    let reader = account.map(|a| &a.userid);
    let text_only = account.is_some_and(|a| a.text_only);
    let queued = reader
        .and_then(|r| extra::queued(live.file(), r))
        .map(|q| q.text);
    let subs = extra::subscribers(live.file());
    let mail = BoardMail {
        at_turn: at.map(|n| n as usize),
        reader,
        subscribers: subs,
        queued: queued.as_deref(),
        vacations: Some(vacations),
        ..BoardMail::new(live)
    };
    board_reply(req, &mail, text_only)
}

/// `yinsh showas userid password [board+ | all | active | inactive | next]`: boards as
/// the player sees them (with the command to send, and their queued move).
pub(super) fn show_as(
    store: &Store,
    req: &Asked<'_>,
    actor: &Actor,
    boards: &[BoardRef],
    filter: GameFilter,
) -> Result<Vec<Reply>, ExecError> {
    let account = &actor.account;
    let vacations = Vacations::load(store)?;
    let mut out = Vec::new();
    if boards.is_empty() {
        let (games, total) = boards_of(store, account, filter, SHOWN_PER_PLAYER)?;
        for live in &games {
            out.push(show_mail(req, live, None, Some(account), &vacations)?);
        }
        if total > games.len() {
            out.push(more_games(req, &account.userid, filter, total));
        }
    } else {
        for r in boards {
            let live = load_board(store, r.board)?;
            if r.at.is_some_and(|n| n as usize > live.file().turns.len()) {
                return Err(Refusal::ShowAsTooFar {
                    board: r.board,
                    total: live.file().turns.len(),
                }
                .into());
            }
            out.push(show_mail(req, &live, r.at, Some(account), &vacations)?);
        }
    }
    if out.is_empty() {
        out.push(Reply {
            foreign: Foreign::Part(listing_text::no_games_of_plain(&filter)),
            ..to_sender(
                req,
                &subjects::games(),
                listing_text::no_games_of(&account.userid, &filter),
            )
        });
    }
    Ok(out)
}

/// `yinsh show userid+ [filter]` and `all show userid [next|active]`: one board mail
/// per game of those players.
pub(super) fn show_players(
    store: &Store,
    req: &Asked<'_>,
    userids: &[Said<UserId>],
    filter: GameFilter,
) -> Result<Vec<Reply>, ExecError> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    let mut empty = Vec::new();
    let vacations = Vacations::load(store)?;
    for (k, id) in userids.iter().enumerate() {
        let Some(account) = store.account(id.as_written())? else {
            return Err(Refusal::NoSuchPlayer {
                userid: id.clone(),
                nth: k + 1,
            }
            .into());
        };
        let (games, total) = boards_of(store, &account, filter, SHOWN_PER_PLAYER)?;
        if games.is_empty() {
            empty.push(account.userid.clone());
        }
        for live in &games {
            if !seen.contains(&live.board()) {
                seen.push(live.board());
                out.push(show_mail(req, live, None, None, &vacations)?);
            }
        }
        if total > games.len() {
            out.push(more_games(req, &account.userid, filter, total));
        }
    }
    if !empty.is_empty() {
        out.push(Reply {
            foreign: Foreign::Part(listing_text::no_games_for_plain(&filter)),
            ..to_sender(
                req,
                &subjects::games(),
                listing_text::no_games_for(&empty, &filter),
            )
        });
    }
    Ok(out)
}

/// Ranks of each list of `yinsh standings` per page.
pub const STANDINGS_PER_PAGE: usize = 100;
/// Games of `yinsh history` per page.
pub const HISTORY_PER_PAGE: u64 = 50;

/// `yinsh standings`: the first page.
pub fn standings(store: &Store, now: u64) -> Result<String, InternalError> {
    standings_page(store, now, 1)
}

/// `yinsh standings page <n>`: per variant, sections Established, Provisionals and
/// Inactive, ranks `(n-1)*100+1` to `n*100` of each; read from the standings kept in
/// order (`game::index`), so it reads only the lines it prints, however many players
/// and games there are; written by `text::standings`.
pub fn standings_page(store: &Store, _now: u64, page: u32) -> Result<String, InternalError> {
    let skip = (page as usize - 1).saturating_mul(STANDINGS_PER_PAGE);
    let mut more = false;
    let mut variants = Vec::new();
    for variant in [Variant::Normal, Variant::Blitz] {
        let mut sections = Vec::new();
        for section in Section::ALL {
            sections.push((
                section,
                store.ranks(variant, section, skip, STANDINGS_PER_PAGE)?,
            ));
        }
        if sections.iter().all(|(_, (_, total))| *total == 0) {
            variants.push((variant, None));
            continue;
        }
        let mut lists = Vec::new();
        for (section, (lines, total)) in sections {
            more |= total > skip + STANDINGS_PER_PAGE;
            lists.push((section, lines));
        }
        variants.push((variant, Some(lists)));
    }
    Ok(standings_text::standings(
        &variants,
        skip,
        STANDINGS_PER_PAGE,
        page,
        more,
    ))
}

/// `yinsh history [<userid>] [page <n>]`: finished games, most recent first,
/// [`HISTORY_PER_PAGE`] a page: of everyone (read from the history index: two files at
/// most) or of one player (their index, then the games of the page).
pub fn history_page(
    store: &Store,
    player: Option<&Said<UserId>>,
    page: u32,
) -> Result<String, InternalError> {
    let per = HISTORY_PER_PAGE;
    let (games, total) = match player {
        None => index::history_page(store, u64::from(page), per)?,
        Some(p) => {
            let mine = store.player_index(&p.as_written().key())?.finished;
            let total = mine.len() as u64;
            let skip = u64::from(page - 1).saturating_mul(per);
            let mut games = Vec::new();
            for &(_, b) in mine
                .iter()
                .rev()
                .skip(usize::try_from(skip).unwrap_or(usize::MAX))
                .take(per as usize)
            {
                if let Some(live) = index::load_scanned(store, b)? {
                    games.extend(ratings::finished(&live));
                }
            }
            (games, total)
        }
    };
    let at = Page {
        number: page,
        per_page: usize::try_from(per).unwrap_or(usize::MAX),
        shown: games.len(),
        total: usize::try_from(total).unwrap_or(usize::MAX),
    };
    Ok(standings_text::history(
        player.map(|p| p as &dyn Display),
        &games,
        &at,
    ))
}
