//! The tournaments on the site (issue 49): `DIR/tournaments.html`, the list, and
//! `DIR/tournaments/<name>.html`, a page per tournament: its rules and state, the
//! crosstable (a `<table>` with a caption and `th scope`: place, player, a column
//! per opponent with the scores of their games, points and the tie-breaks), and the
//! games by round, each linked to its game page. Rewritten by every site refresh, so
//! they follow the games as they end. Every name is escaped.

use std::fmt::Write as _;

use crate::server::game::tournament::standings::{self, Line};
use crate::server::game::tournament::{Half, History};
use crate::server::store::{Format, Store, StoreError, Tournament, Verdict};
use crate::server::text::html::escape;
use crate::server::text::tournament as text;

use super::page::page;

/// Each page as (its path under the site's folder, its HTML): the list first.
pub(super) fn pages(store: &Store) -> Result<Vec<(String, String)>, StoreError> {
    let all = store.tournaments()?;
    let mut list: Vec<&Tournament> = all.values().collect();
    list.sort_by_key(|t| std::cmp::Reverse(t.created));
    let mut out = vec![("tournaments.html".to_string(), index(&list))];
    for t in list {
        out.push((format!("tournaments/{}.html", t.name.key()), one(t)));
    }
    Ok(out)
}

fn state(t: &Tournament) -> &'static str {
    match (t.started, t.finished) {
        (None, _) => "open to join",
        (Some(_), None) => "playing",
        (Some(_), Some(_)) => "finished",
    }
}

fn index(list: &[&Tournament]) -> String {
    let mut body = String::from("<h1>Tournaments</h1>\n");
    if list.is_empty() {
        body.push_str("<p>No tournament yet.</p>\n");
    } else {
        body.push_str(
            "<div class=\"wide\"><table class=\"list\"><caption>Every tournament, the newest first</caption>\n\
             <tr><th scope=\"col\">Name</th><th scope=\"col\">Rules</th><th scope=\"col\">Players</th><th scope=\"col\">State</th></tr>\n",
        );
        for t in list {
            let _ = writeln!(
                body,
                "<tr><th scope=\"row\"><a href=\"tournaments/{}.html\">{}</a></th><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&t.name.key()),
                escape(&t.name.to_string()),
                escape(&text::rules(t)),
                t.entrants.len(),
                state(t)
            );
        }
        body.push_str("</table></div>\n");
    }
    page("Tournaments", "", &body)
}

/// The score of `who` in `g`, as the crosstable writes it.
fn cell(score: Option<Half>) -> &'static str {
    match score {
        None => "*",
        Some(Half(2)) => "1",
        Some(Half(1)) => "½",
        Some(_) => "0",
    }
}

fn one(t: &Tournament) -> String {
    let lines: Vec<Line> = standings::of(
        t.format,
        &History {
            entrants: &t.entrants,
            games: &t.games,
            byes: &t.byes,
        },
    );
    let name = escape(&t.name.to_string());
    let mut body = format!(
        "<h1>Tournament {name}</h1>\n<p>{}; created by {}; {}.</p>\n",
        escape(&text::rules(t)),
        escape(t.creator.as_str()),
        state(t)
    );
    let tie_breaks = match t.format {
        Format::RoundRobin => "Sonneborn-Berger, then games won, then head-to-head",
        Format::Swiss { .. } => {
            "Buchholz (a bye counts as nothing), then Sonneborn-Berger, then the rating at the start"
        }
    };
    let _ = writeln!(
        body,
        "<h2>Crosstable</h2>\n<div class=\"wide\"><table class=\"list\"><caption>Places by points (a win 1, a draw ½, a bye 1), then {tie_breaks}. A cell holds the scores against that opponent; * a game going on.</caption>"
    );
    body.push_str("<tr><th scope=\"col\">Place</th><th scope=\"col\">Player</th>");
    for (k, _) in lines.iter().enumerate() {
        let _ = write!(body, "<th scope=\"col\">{}</th>", k + 1);
    }
    body.push_str("<th scope=\"col\">Points</th>");
    match t.format {
        Format::RoundRobin => body.push_str("<th scope=\"col\">SB</th><th scope=\"col\">Won</th>"),
        Format::Swiss { .. } => {
            body.push_str("<th scope=\"col\">Buchholz</th><th scope=\"col\">SB</th>")
        }
    }
    body.push_str("</tr>\n");
    for l in &lines {
        let withdrew = if l.withdrawn { " (withdrew)" } else { "" };
        let _ = write!(
            body,
            "<tr><td>{}</td><th scope=\"row\">{}{withdrew}</th>",
            l.place,
            escape(l.id.as_str())
        );
        for o in &lines {
            let scores: Vec<&str> = t
                .games
                .iter()
                .filter(|g| g.opponent(&l.id) == Some(&o.id))
                .map(|g| cell(g.score_of(&l.id)))
                .collect();
            let shown = if o.id == l.id {
                "-".to_string()
            } else {
                scores.join(" ")
            };
            let _ = write!(body, "<td>{shown}</td>");
        }
        let _ = write!(body, "<td>{}</td>", l.points);
        let _ = match t.format {
            Format::RoundRobin => write!(body, "<td>{}</td><td>{}</td>", l.sonneborn_berger, l.won),
            Format::Swiss { .. } => write!(
                body,
                "<td>{}</td><td>{}</td>",
                l.buchholz, l.sonneborn_berger
            ),
        };
        body.push_str("</tr>\n");
    }
    body.push_str("</table></div>\n<h2>Games</h2>\n");
    let last = t.games.iter().map(|g| g.round).max().unwrap_or(0);
    for round in 1..=last {
        if matches!(t.format, Format::Swiss { .. }) {
            let _ = writeln!(body, "<h3>Round {round}</h3>");
        }
        body.push_str("<ul>\n");
        for g in t.games.iter().filter(|g| g.round == round) {
            let result = match g.result {
                None => "going on",
                Some(Verdict::White) => "1-0",
                Some(Verdict::Black) => "0-1",
                Some(Verdict::Draw) => "½-½",
            };
            let who = format!(
                "{} (White) – {} (Black)",
                escape(g.white.as_str()),
                escape(g.black.as_str())
            );
            let _ = match g.board {
                Some(b) => writeln!(
                    body,
                    "<li><a href=\"../games/{b}/index.html\">Board {b}</a>: {who}, {result}</li>"
                ),
                None => writeln!(body, "<li>{who}, {result}</li>"),
            };
        }
        for b in t.byes.iter().filter(|b| b.round == round) {
            let _ = writeln!(body, "<li>Bye: {}</li>", escape(b.player.as_str()));
        }
        body.push_str("</ul>\n");
    }
    if t.started.is_none() {
        let players: Vec<String> = t.entrants.iter().map(|e| escape(e.id.as_str())).collect();
        let _ = writeln!(body, "<p>Players so far: {}.</p>", players.join(", "));
    }
    page(&format!("Tournament {}", t.name), "../", &body)
}
