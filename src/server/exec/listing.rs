//! Listings: `yinsh show` (boards, now or at a move), `yinsh show <userid>` and
//! `all show`, `yinsh showas` (boards as a player sees them), `yinsh games`,
//! `yinsh standings` and `yinsh history`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::rules::Variant;
use crate::server::command::{BoardRef, GameFilter};
use crate::server::game::extra;
use crate::server::game::ratings::{self, INACTIVE_DAYS, PROVISIONAL_GAMES, Record, START};
use crate::server::game::record::LiveGame;
use crate::server::store::{Account, Password, Store, UserId};
use crate::server::text::dates::format_date;
use crate::server::text::reply::{self, BoardMail};

use super::context::{Reply, Request, authenticate, board_reply, load_board, to_sender};
use super::error::{ExecError, InternalError, Refusal};

pub(super) fn show(
    store: &Store,
    req: &Request<'_>,
    boards: &[BoardRef],
) -> Result<Vec<Reply>, ExecError> {
    let mut out = Vec::new();
    for r in boards {
        let Some(file) = store.game(r.board)? else {
            out.push(to_sender(
                req,
                "Yinsh error",
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
            && n as usize > live.file.turns.len()
        {
            out.push(to_sender(
                req,
                &format!("Yinsh Board {} Error", r.board),
                reply::error_body(
                    &Refusal::ShowTooFar {
                        board: r.board,
                        total: live.file.turns.len(),
                        at: n,
                    }
                    .to_string(),
                    None,
                    req.quoted,
                ),
            ));
            continue;
        }
        let mail = BoardMail {
            at_turn: r.at.map(|n| n as usize),
            ..BoardMail::new(&live)
        };
        out.push(board_reply(req, &mail, false)?);
    }
    Ok(out)
}

pub(super) fn games(
    store: &Store,
    req: &Request<'_>,
    userids: &[UserId],
    filter: GameFilter,
) -> Result<Vec<Reply>, ExecError> {
    use std::fmt::Write as _;
    let mut body = String::new();
    for id in userids {
        let Some(account) = store.account(id)? else {
            let _ = writeln!(body, "{id}: no such userid\n");
            continue;
        };
        let mut lines = Vec::new();
        for live in boards_of(store, &account, filter)? {
            let status = match (live.player_to_move(), live.game.outcome()) {
                (Some(p), _) => format!("{p} to move"),
                (None, Some(crate::rules::Outcome::Win(c))) => format!("won by {}", live.player(c)),
                (None, _) => "tie".to_string(),
            };
            let variant = if live.game.variant() == Variant::Blitz {
                "blitz"
            } else {
                ""
            };
            lines.push(format!(
                "{:>6}  {:<12} {:<12} {:>5}  {:<6} {}",
                live.board(),
                live.file.white,
                live.file.black,
                live.file.turns.len(),
                variant,
                status
            ));
        }
        let _ = writeln!(
            body,
            "{} games of {} ({}):",
            filter,
            account.userid,
            lines.len()
        );
        if !lines.is_empty() {
            let _ = writeln!(
                body,
                "{:>6}  {:<12} {:<12} {:>5}  {:<6} Status",
                "Board", "White", "Black", "Moves", ""
            );
            for l in lines {
                let _ = writeln!(body, "{}", l.trim_end());
            }
        }
        body.push('\n');
    }
    let body = body
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    Ok(vec![to_sender(req, "List of Yinsh games", body)])
}

/// The boards of `account` that `filter` keeps.
pub(super) fn boards_of(
    store: &Store,
    account: &Account,
    filter: GameFilter,
) -> Result<Vec<LiveGame>, InternalError> {
    let mut out = Vec::new();
    for &b in &account.games {
        let Some(file) = store.game(b)? else { continue };
        let live = LiveGame::load(file)?;
        let keep = match filter {
            GameFilter::All => true,
            GameFilter::Active => !live.game.is_over(),
            GameFilter::Inactive => live.game.is_over(),
            GameFilter::Next => live.player_to_move().is_some_and(|p| *p == account.userid),
        };
        if keep {
            out.push(live);
        }
    }
    Ok(out)
}

/// The board mail of `live` (as it was after move `at`), as `reader` sees it (their
/// command to send, their queued move, their choice of text only) or as anybody does.
fn show_mail(
    req: &Request<'_>,
    live: &LiveGame,
    at: Option<u32>,
    account: Option<&Account>,
) -> Result<Reply, InternalError> {
    let reader = account.map(|a| &a.userid);
    let text_only = account.is_some_and(|a| a.text_only);
    let queued = reader
        .and_then(|r| extra::queued(&live.file, r))
        .map(|q| q.text);
    let subs = extra::subscribers(&live.file);
    let mail = BoardMail {
        at_turn: at.map(|n| n as usize),
        reader,
        subscribers: subs,
        queued: queued.as_deref(),
        ..BoardMail::new(live)
    };
    board_reply(req, &mail, text_only)
}

/// `yinsh showas userid password [board+ | all | active | inactive | next]`: boards as
/// the player sees them (with the command to send, and their queued move).
pub(super) fn show_as(
    store: &Store,
    req: &Request<'_>,
    userid: &UserId,
    password: &Password,
    boards: &[BoardRef],
    filter: GameFilter,
) -> Result<Vec<Reply>, ExecError> {
    let account = authenticate(store, req.now, userid, password)?;
    let mut out = Vec::new();
    if boards.is_empty() {
        for live in boards_of(store, &account, filter)? {
            out.push(show_mail(req, &live, None, Some(&account))?);
        }
    } else {
        for r in boards {
            let live = load_board(store, r.board)?;
            if r.at.is_some_and(|n| n as usize > live.file.turns.len()) {
                return Err(Refusal::ShowAsTooFar {
                    board: r.board,
                    total: live.file.turns.len(),
                }
                .into());
            }
            out.push(show_mail(req, &live, r.at, Some(&account))?);
        }
    }
    if out.is_empty() {
        out.push(to_sender(
            req,
            "List of Yinsh games",
            format!("{} has no {filter} games.\n", account.userid),
        ));
    }
    Ok(out)
}

/// `yinsh show userid+ [filter]` and `all show userid [next|active]`: one board mail
/// per game of those players.
pub(super) fn show_players(
    store: &Store,
    req: &Request<'_>,
    userids: &[UserId],
    filter: GameFilter,
) -> Result<Vec<Reply>, ExecError> {
    let mut out = Vec::new();
    let mut seen = Vec::new();
    let mut empty = Vec::new();
    for id in userids {
        let Some(account) = store.account(id)? else {
            return Err(Refusal::NoSuchPlayer {
                userid: id.to_string(),
            }
            .into());
        };
        let games = boards_of(store, &account, filter)?;
        if games.is_empty() {
            empty.push(account.userid.clone());
        }
        for live in games {
            if !seen.contains(&live.board()) {
                seen.push(live.board());
                out.push(show_mail(req, &live, None, None)?);
            }
        }
    }
    if !empty.is_empty() {
        out.push(to_sender(
            req,
            "List of Yinsh games",
            format!("No {filter} games for: {}\n", UserId::join(&empty, ", ")),
        ));
    }
    Ok(out)
}

/// `yinsh standings`: per variant, sections Established, Provisionals and Inactive.
pub fn standings(store: &Store, now: u64) -> Result<String, InternalError> {
    let data = ratings::all(store)?;
    let mut out = String::new();
    for variant in [Variant::Normal, Variant::Blitz] {
        let mut pool = BTreeMap::new();
        let mut names = BTreeMap::new();
        for g in data
            .finished
            .iter()
            .filter(|g| g.variant == variant && g.rated)
        {
            ratings::apply(&mut pool, g);
            for p in &g.players {
                names.insert(p.key(), p.clone());
            }
        }
        let title = match variant {
            Variant::Normal => "Yinsh Standings",
            Variant::Blitz => "Yinsh Standings (blitz)",
        };
        let _ = writeln!(out, "{title}\n{}", "=".repeat(title.len()));
        if pool.is_empty() {
            out.push_str("No rated games yet.\n\n");
            continue;
        }
        let active = |key: &str| {
            data.active
                .get(&(variant == Variant::Blitz, key.to_string()))
                .copied()
                .unwrap_or(0)
        };
        let mut sections: [Vec<(&String, &Record)>; 3] = Default::default();
        for (key, r) in &pool {
            let idle = active(key) == 0 && now.saturating_sub(r.last) > INACTIVE_DAYS * 86_400;
            let s = if idle {
                2
            } else if r.provisional() {
                1
            } else {
                0
            };
            sections[s].push((key, r));
        }
        for (title, mut list) in ["Established", "Provisionals", "Inactive"]
            .into_iter()
            .zip(sections)
        {
            if list.is_empty() {
                continue;
            }
            list.sort_by(|a, b| b.1.rating.cmp(&a.1.rating).then(a.0.cmp(b.0)));
            let _ = writeln!(out, "\n{title}");
            let _ = writeln!(
                out,
                "Rank Name                             Rating  Won Lost Ties Active/Limit"
            );
            for (i, (key, r)) in list.iter().enumerate() {
                let _ = writeln!(
                    out,
                    "{:>4} {:<32} {:>6} {:>4} {:>4} {:>4} {:>6}/-",
                    i + 1,
                    names.get(*key).map_or(key.as_str(), UserId::as_str),
                    r.rating,
                    r.won,
                    r.lost,
                    r.ties,
                    active(key)
                );
            }
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Ratings start at {START}; a player is provisional for their first {PROVISIONAL_GAMES} rated games.\n\
         Games ended before the rings were all placed are not rated. There is no limit of games (Limit -)."
    );
    Ok(out)
}

/// `yinsh history`: every finished game, most recent first.
pub fn history(store: &Store) -> Result<String, InternalError> {
    let data = ratings::all(store)?;
    let mut out = String::from("Historical List of Yinsh games\n\n");
    if data.finished.is_empty() {
        out.push_str("No game has ended yet.\n");
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "{:>6}  {:<12} {:<12} {:<6} {:<20} Result",
        "Board", "White", "Black", "", "Ended"
    );
    for g in data.finished.iter().rev() {
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
    Ok(out)
}
