//! Listings: `yinsh show` (boards, now or at a move), `yinsh show <userid>` and
//! `all show`, `yinsh showas` (boards as a player sees them), `yinsh games`,
//! `yinsh standings` and `yinsh history`. Standings, history and games read the
//! indexes (`game::index`), never every game file, and answer one page at a time.

use std::fmt::Write as _;

use crate::rules::Variant;
use crate::server::command::{BoardRef, GameFilter, Said};
use crate::server::game::extra;
use crate::server::game::index;
use crate::server::game::ratings::{self, PROVISIONAL_GAMES, START};
use crate::server::game::record::LiveGame;
use crate::server::game::vacation::Vacations;
use crate::server::outgoing::{Foreign, Reply};
use crate::server::store::{Account, Finished, Section, Store, UserId};
use crate::server::text::dates::format_date;
use crate::server::text::reply::{self, BoardMail};
use crate::server::text::subjects;

use super::context::{Actor, Asked, board_reply, load_board, sender_text_only, to_sender};
use super::error::{ExecError, InternalError, Refusal};
use super::plain;

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
                    req.quoted,
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
                    reply::error_body(&why, None, req.quoted),
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
            let _ = writeln!(body, "{id}: no such userid\n");
            continue;
        };
        let (shown, total) = games_of(store, &account.userid, filter, page, GAMES_PER_MAIL)?;
        let _ = writeln!(body, "{} games of {} ({}):", filter, account.userid, total);
        if !shown.is_empty() {
            let _ = writeln!(body, "{}", games_header());
            for live in &shown {
                let _ = writeln!(body, "{}", game_line(live));
            }
        }
        let skipped = (page as usize - 1).saturating_mul(GAMES_PER_MAIL);
        if total > GAMES_PER_MAIL || page > 1 {
            let _ = writeln!(
                body,
                "{}",
                paging(
                    skipped,
                    shown.len(),
                    total,
                    "",
                    &format!("yinsh games {} {filter} page {}", account.userid, page + 1),
                )
            );
        }
        body.push('\n');
    }
    let body = body
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    // It names the userids the mail named: an unconfirmed address is not sent it.
    Ok(vec![Reply {
        foreign: Foreign::Part(plain::LISTING_WITHHELD.to_string()),
        ..to_sender(req, &subjects::games(), body)
    }])
}

/// The header of the table of `yinsh games`.
pub(super) fn games_header() -> String {
    format!(
        "{:>6}  {:<12} {:<12} {:>5}  {:<6} Status",
        "Board", "White", "Black", "Moves", ""
    )
}

/// One game's line in the table of `yinsh games`.
pub(super) fn game_line(live: &LiveGame) -> String {
    let status = match (live.player_to_move(), live.game().outcome()) {
        (Some(p), _) => format!("{p} to move"),
        (None, Some(crate::rules::Outcome::Win(c))) => format!("won by {}", live.player(c)),
        (None, _) => "tie".to_string(),
    };
    let variant = if live.game().variant() == Variant::Blitz {
        "blitz"
    } else {
        ""
    };
    format!(
        "{:>6}  {:<12} {:<12} {:>5}  {:<6} {}",
        live.board(),
        live.file().white,
        live.file().black,
        live.file().turns.len(),
        variant,
        status
    )
    .trim_end()
    .to_string()
}

/// The line under a page of a listing: which entries it shows, and how to ask for
/// the earlier ones when there are any.
pub(super) fn paging(skipped: usize, shown: usize, total: usize, what: &str, next: &str) -> String {
    let mut line = if shown == 0 {
        format!("There are {total}{what} in all; this page is past the end.")
    } else {
        format!(
            "These are {}-{} of {total}{what}, the most recent first.",
            skipped + 1,
            skipped + shown
        )
    };
    if skipped + shown < total {
        line.push_str(&format!(" For earlier ones send: {next}"));
    }
    line
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
        format!(
            "{userid} has {total} games ({filter}): the board mails of the {SHOWN_PER_PLAYER} most recent were sent.\n\
             For a list of them all send: yinsh games {userid} {filter}\n\
             For one board send: yinsh show <board>\n"
        ),
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
            foreign: Foreign::Part(format!("This player has no {filter} games.\n")),
            ..to_sender(
                req,
                &subjects::games(),
                format!("{} has no {filter} games.\n", account.userid),
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
            foreign: Foreign::Part(format!("No {filter} games for the userids named.\n")),
            ..to_sender(
                req,
                &subjects::games(),
                format!("No {filter} games for: {}\n", UserId::join(&empty, ", ")),
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
/// and games there are. The columns are Rank, Name, Rating, Won, Lost and Ties:
/// pbmserv's Active/Limit is left out, since this server sets no limit of games
/// (issue 26).
pub fn standings_page(store: &Store, _now: u64, page: u32) -> Result<String, InternalError> {
    let skip = (page as usize - 1).saturating_mul(STANDINGS_PER_PAGE);
    let mut out = String::new();
    let mut more = false;
    for variant in [Variant::Normal, Variant::Blitz] {
        let title = match variant {
            Variant::Normal => "Yinsh Standings",
            Variant::Blitz => "Yinsh Standings (blitz)",
        };
        let _ = writeln!(out, "{title}\n{}", "=".repeat(title.len()));
        let mut sections = Vec::new();
        for section in Section::ALL {
            sections.push((
                section,
                store.ranks(variant, section, skip, STANDINGS_PER_PAGE)?,
            ));
        }
        if sections.iter().all(|(_, (_, total))| *total == 0) {
            out.push_str("No rated games yet.\n\n");
            continue;
        }
        for (section, (lines, total)) in sections {
            more |= total > skip + STANDINGS_PER_PAGE;
            if lines.is_empty() {
                continue;
            }
            let title = match section {
                Section::Established => "Established",
                Section::Provisional => "Provisionals",
                Section::Inactive => "Inactive",
            };
            let _ = writeln!(out, "\n{title}");
            let _ = writeln!(
                out,
                "Rank Name                             Rating  Won Lost Ties"
            );
            for (i, s) in lines.iter().enumerate() {
                let r = &s.record;
                let _ = writeln!(
                    out,
                    "{:>4} {:<32} {:>6} {:>4} {:>4} {:>4}",
                    skip + i + 1,
                    s.name.as_str(),
                    r.rating,
                    r.won,
                    r.lost,
                    r.ties,
                );
            }
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Ratings start at {START}; a player is provisional for their first {PROVISIONAL_GAMES} rated games.\n\
         Games ended before the rings were all placed are not rated."
    );
    if more || page > 1 {
        let _ = writeln!(
            out,
            "This page shows ranks {}-{} of each list.{}",
            skip + 1,
            skip + STANDINGS_PER_PAGE,
            if more {
                format!(" For the next ones send: yinsh standings page {}", page + 1)
            } else {
                String::new()
            }
        );
    }
    Ok(out)
}

/// The lines of `games` in a history: a heading line, then one line a game (board,
/// players, variant, when it ended, how); nothing when there is no game.
pub fn history_rows(games: &[Finished]) -> String {
    let mut out = String::new();
    if !games.is_empty() {
        let _ = writeln!(
            out,
            "{:>6}  {:<12} {:<12} {:<6} {:<20} Result",
            "Board", "White", "Black", "", "Ended"
        );
    }
    for g in games {
        let line = format!(
            "{:>6}  {:<12} {:<12} {:<6} {:<20} {}{}",
            g.board,
            g.players[0],
            g.players[1],
            if g.variant == Variant::Blitz {
                "blitz"
            } else {
                ""
            },
            format_date(g.ended),
            g.how,
            if g.rated { "" } else { " (not rated)" }
        );
        let _ = writeln!(out, "{}", line.trim_end());
    }
    out
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
    let mut out = String::from("Historical List of Yinsh games\n\n");
    if let Some(p) = player {
        let _ = writeln!(out, "Games of {p}\n");
    }
    if total == 0 {
        out.push_str("No game has ended yet.\n");
        return Ok(out);
    }
    out.push_str(&history_rows(&games));
    let skipped = u64::from(page - 1).saturating_mul(per);
    if total > per || page > 1 {
        let who = player.map_or(String::new(), |p| format!("{p} "));
        let _ = writeln!(
            out,
            "\n{}",
            paging(
                usize::try_from(skipped).unwrap_or(usize::MAX),
                games.len(),
                usize::try_from(total).unwrap_or(usize::MAX),
                " finished games",
                &format!("yinsh history {who}page {}", page + 1),
            )
        );
        if player.is_none() {
            out.push_str("For one player's games send: yinsh history <userid>\n");
        }
    }
    Ok(out)
}
