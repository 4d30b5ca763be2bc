//! The pages of the web site beside the games: the index of active games (the
//! site's `active.json`) and of the games that ended last (the store's history
//! index), the standings (the ranks of `yinsh standings`, as tables), the history
//! (from the store's history index, in pages of the site's own, a table whose boards
//! link their pages), and a summary of the rules. The index says where to send
//! `help` to join: the server's address.

use std::fmt::Write as _;
use std::path::Path;

use crate::rules::Variant;
use crate::server::game::ratings::{PROVISIONAL_GAMES, START};
use crate::server::store::{Finished, HISTORY_PAGE, Section, Store};
use crate::server::text::dates::format_date;
use crate::server::text::html::escape;

use super::page::page;
use super::{SiteError, Summary};

/// Finished games on `index.html`, the most recent; the rest are on the history pages.
pub(super) const INDEX_FINISHED: u64 = 100;

/// `index.html`: the games being played (`active`, by board), then the `finished` ones
/// that ended last (most recent first) of `total`, with the history for the rest.
/// `address` is the server's, where `help` is sent; `seeks` the open seeks' section
/// (`seeks.rs`), between the two.
pub(super) fn index(
    active: &[Summary],
    finished: &[Finished],
    total: u64,
    address: &str,
    seeks: &str,
) -> String {
    let mut body = format!(
        "<h1>YINSH by e-mail</h1>\n<p class=\"join\">To join, send a mail with \
         <code>help</code> in the Subject to <b>{}</b>.</p>\n<h2>Games being played</h2>\n",
        escape(address)
    );
    if active.is_empty() {
        body.push_str("<p>No game is being played.</p>\n");
    } else {
        body.push_str(
            "<table class=\"list\"><tr><th>Board</th><th>White</th><th>Black</th>\
             <th>Moves</th><th>Status</th></tr>\n",
        );
        for g in active.iter().rev() {
            let _ = writeln!(
                body,
                "<tr><td><a href=\"games/{b}/index.html\">{b}</a>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td></tr>",
                if g.blitz { " (blitz)" } else { "" },
                escape(&g.white),
                escape(&g.black),
                g.turns,
                escape(&g.status),
                b = g.board,
            );
        }
        body.push_str("</table>\n");
    }
    body.push_str(seeks);
    body.push_str("<h2>Finished games</h2>\n");
    if finished.is_empty() {
        body.push_str("<p>No game has ended yet.</p>\n");
    } else {
        if total > finished.len() as u64 {
            let _ = writeln!(
                body,
                "<p>The {} that ended last of {total}; the others are in the \
                 <a href=\"history.html\">history</a>.</p>",
                finished.len()
            );
        }
        body.push_str(
            "<table class=\"list\"><tr><th>Board</th><th>White</th><th>Black</th>\
             <th>Ended</th><th>Result</th></tr>\n",
        );
        for g in finished {
            let _ = writeln!(
                body,
                "<tr><td><a href=\"games/{b}/index.html\">{b}</a>{}</td><td>{}</td><td>{}</td>\
                 <td>{}</td><td>{}</td></tr>",
                if g.variant == Variant::Blitz {
                    " (blitz)"
                } else {
                    ""
                },
                escape(g.players[0].as_str()),
                escape(g.players[1].as_str()),
                format_date(g.ended),
                escape(&g.how),
                b = g.board,
            );
        }
        body.push_str("</table>\n");
    }
    let _ = writeln!(
        body,
        "<p>Played by e-mail: send <code>help</code> in the Subject of a mail to {} \
         to join. Every game's page shows its positions one by one and offers its record \
         for download.</p>",
        escape(address)
    );
    page("YINSH games", "", &body)
}

/// The ranks `standings.html` shows of each list (as `yinsh standings`'s first page).
const STANDINGS_SHOWN: usize = 100;

/// `standings.html`: the ranks of `yinsh standings`, a table for each list of each
/// variant (no "Active/Limit" column: there is no limit of games; the games a player
/// has going on are their own column).
pub(super) fn standings(store: &Store, _now: u64) -> Result<String, SiteError> {
    let mut body = String::from("<h1>Standings</h1>\n");
    for variant in [Variant::Normal, Variant::Blitz] {
        let title = match variant {
            Variant::Normal => "Normal games",
            Variant::Blitz => "Blitz games",
        };
        let _ = writeln!(body, "<h2>{title}</h2>");
        let mut any = false;
        for section in Section::ALL {
            let (lines, total) = store.ranks(variant, section, 0, STANDINGS_SHOWN)?;
            if lines.is_empty() {
                continue;
            }
            any = true;
            let name = match section {
                Section::Established => "Established",
                Section::Provisional => "Provisional",
                Section::Inactive => "Inactive",
            };
            let more = if total > lines.len() {
                format!(" (the first {} of {total})", lines.len())
            } else {
                String::new()
            };
            let _ = writeln!(
                body,
                "<h3>{name}{more}</h3>\n<div class=\"wide\"><table class=\"list\">\
                 <tr><th>Rank</th><th>Player</th><th>Rating</th><th>Won</th><th>Lost</th>\
                 <th>Ties</th><th>Playing</th></tr>"
            );
            for (i, s) in lines.iter().enumerate() {
                let r = &s.record;
                let _ = writeln!(
                    body,
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
                     <td>{}</td></tr>",
                    i + 1,
                    escape(s.name.as_str()),
                    r.rating,
                    r.won,
                    r.lost,
                    r.ties,
                    s.active
                );
            }
            body.push_str("</table></div>\n");
        }
        if !any {
            body.push_str("<p>No rated games yet.</p>\n");
        }
    }
    let _ = writeln!(
        body,
        "<p>Ratings start at {START}; a player is provisional for their first \
         {PROVISIONAL_GAMES} rated games. Games ended before the rings were all placed \
         are not rated. Playing: the games of the variant a player has going on.</p>"
    );
    Ok(page("YINSH standings", "", &body))
}

/// The finished `games` as a table, one line each, the board a link to its page.
fn history_table(games: &[Finished]) -> String {
    let mut out = String::from(
        "<div class=\"wide\"><table class=\"list history\"><tr><th>Board</th>\
         <th>White</th><th>Black</th><th>Ended</th><th>Result</th></tr>\n",
    );
    for g in games {
        let _ = writeln!(
            out,
            "<tr><td><a href=\"games/{b}/index.html\">{b}</a>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td><td>{}{}</td></tr>",
            if g.variant == Variant::Blitz {
                " (blitz)"
            } else {
                ""
            },
            escape(g.players[0].as_str()),
            escape(g.players[1].as_str()),
            format_date(g.ended),
            escape(&g.how),
            if g.rated { "" } else { " (not rated)" },
            b = g.board,
        );
    }
    out.push_str("</table></div>\n");
    out
}

/// The history pages of the site, from the store's history index (files of
/// [`HISTORY_PAGE`] games in order of ending, each full one never changing again):
/// `history.html` shows the games of the newest two index files, most recent first,
/// and links `history-<k>.html` for each older file `k` (its games, oldest first).
/// Gives `write` (file name, page) for `history.html` and the older pages to write,
/// one at a time (a million games are 10,000 pages: none is kept once written): all
/// of them when `all`, else the one just pushed out of `history.html` and any missing
/// from `site` (a refresh that failed). The links are the site's own, never a command
/// to mail.
pub(super) fn history(
    store: &Store,
    site: &Path,
    all: bool,
    write: &mut dyn FnMut(&str, &str) -> Result<(), SiteError>,
) -> Result<(), SiteError> {
    let total = store.index_state()?.map_or(0, |s| s.finished);
    let files = total.div_ceil(HISTORY_PAGE);
    // history.html holds files `newest..files`; the older files have pages of their own.
    let newest = files.saturating_sub(2);
    let mut recent = Vec::new();
    for k in newest..files {
        recent.extend(store.history_page(k)?);
    }
    recent.reverse();
    let mut body = String::from("<h1>History</h1>\n");
    if total == 0 {
        body.push_str("<p>No game has ended yet.</p>\n");
    } else {
        let _ = writeln!(
            body,
            "<p>{total} finished game{}; each has its page: see the \
             <a href=\"index.html\">games</a>. The most recent first:</p>",
            if total == 1 { "" } else { "s" }
        );
        body.push_str(&history_table(&recent));
    }
    if newest > 0 {
        body.push_str("<p>Older games:");
        for k in (0..newest).rev() {
            let (first, last) = (k * HISTORY_PAGE + 1, (k + 1) * HISTORY_PAGE);
            let _ = write!(body, " <a href=\"{}\">{first}-{last}</a>", older_name(k));
        }
        body.push_str("</p>\n");
    }
    write("history.html", &page("YINSH history", "", &body))?;
    drop(body);
    for k in 0..newest {
        if !(all || k + 1 == newest || !site.join(older_name(k)).exists()) {
            continue;
        }
        let games = store.history_page(k)?;
        let (first, last) = (k * HISTORY_PAGE + 1, (k + 1) * HISTORY_PAGE);
        let body = format!(
            "<h1>History: finished games {first} to {last}</h1>\n<p>In the order they \
             ended. The most recent games are on the <a href=\"history.html\">history</a> \
             page.</p>\n{}",
            history_table(&games)
        );
        write(&older_name(k), &page("YINSH history", "", &body))?;
    }
    Ok(())
}

/// The page of the older history file `k`.
fn older_name(k: u64) -> String {
    format!("history-{}.html", k + 1)
}

/// `rules.html`: the game in a few paragraphs, and how moves are written.
pub(super) fn rules() -> String {
    page(
        "YINSH rules",
        "",
        "<h1>The rules of YINSH, in short</h1>\n\
<p>YINSH is a game by Kris Burm (the GIPF project) for two players, White and Black, on a \
board of 85 points. Each side has 5 rings; 51 markers, white on one face and black on the \
other, are shared.</p>\n\
<h2>Placing the rings</h2>\n<p>The players take turns to place their rings on empty points, \
one at a time, until all ten are on the board. White begins.</p>\n\
<h2>Moving</h2>\n<p>On your turn, put a marker with your colour up in one of your rings, \
then move that ring in a straight line along one of the three directions: over as many empty \
points as you like, then over at most one group of markers (no gaps), stopping on the first \
empty point after it. A ring never passes over or lands on a ring. Every marker the ring \
jumps is turned over.</p>\n\
<h2>Rows</h2>\n<p>Five markers of your colour in a line make a row: remove those five \
markers and one of your rings. A move may make rows for both players; the player who moved \
removes theirs first. Whoever removes three rings wins; in the blitz variant, one ring \
wins.</p>\n\
<h2>The end</h2>\n<p>A player who cannot move a ring passes. When the markers run out, or \
neither side can move, the player who removed more rings wins; equal numbers are a draw.</p>\n\
<h2>Writing a move</h2>\n<table class=\"list\">\
<tr><td><code>e5</code></td><td>place a ring (at the start)</td></tr>\
<tr><td><code>i8-f5</code></td><td>move the ring on i8 to f5</td></tr>\
<tr><td><code>i8-f5;xg5-g9xa5</code></td><td>then remove the row g5-g9 and the ring on a5</td></tr>\
<tr><td><code>xg5-g9xa5;d3-b3</code></td><td>remove a row made for you, then move</td></tr>\
<tr><td><code>--</code></td><td>pass (the server plays it for you)</td></tr></table>\n\
<p>The server's <code>yinsh help</code> mail has every command.</p>\n",
    )
}
