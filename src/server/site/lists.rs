//! The pages of the web site beside the games: the index of active and finished
//! games (from the games' summaries), the standings and the history (the texts of
//! `yinsh standings` and `yinsh history`), and a summary of the rules.

use std::fmt::Write as _;

use crate::server::exec::listing;
use crate::server::store::Store;
use crate::server::text::html::escape;

use super::page::page;
use super::{SiteError, Summary};

/// `index.html`: the games being played, then those that ended, newest first.
pub(super) fn index(games: &[Summary]) -> String {
    let mut body = String::from("<h1>YINSH by e-mail</h1>\n");
    let (over, active): (Vec<&Summary>, Vec<&Summary>) = games.iter().partition(|g| g.over);
    for (title, list, none) in [
        ("Games being played", active, "No game is being played."),
        ("Finished games", over, "No game has ended yet."),
    ] {
        let _ = writeln!(body, "<h2>{title}</h2>");
        if list.is_empty() {
            let _ = writeln!(body, "<p>{none}</p>");
            continue;
        }
        body.push_str(
            "<table class=\"list\"><tr><th>Board</th><th>White</th><th>Black</th>\
             <th>Moves</th><th>Status</th></tr>\n",
        );
        for g in list.iter().rev() {
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
    body.push_str(
        "<p>Played by e-mail: send <code>help</code> in the Subject of a mail to the \
         server to join. Every game's page shows its positions one by one and offers \
         its record for download.</p>\n",
    );
    page("YINSH games", "", &body)
}

/// `standings.html`: the rating list of `yinsh standings`.
pub(super) fn standings(store: &Store, now: u64) -> Result<String, SiteError> {
    let text = listing::standings(store, now)?;
    Ok(page(
        "YINSH standings",
        "",
        &format!("<h1>Standings</h1>\n<pre>{}</pre>\n", escape(&text)),
    ))
}

/// `history.html`: the finished games of `yinsh history`.
pub(super) fn history(store: &Store) -> Result<String, SiteError> {
    let text = listing::history(store)?;
    Ok(page(
        "YINSH history",
        "",
        &format!(
            "<h1>History</h1>\n<p>Each finished game has its page: see the \
             <a href=\"index.html\">games</a>.</p>\n<pre>{}</pre>\n",
            escape(&text)
        ),
    ))
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
