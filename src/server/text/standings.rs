//! The tables of results: `yinsh standings` (per variant, the sections
//! Established, Provisionals and Inactive, each a page of ranks) and `yinsh history`
//! (finished games, the most recent first). `exec::listing` reads the lines from the
//! indexes; these functions write them. The standings' columns are Rank, Name,
//! Rating, Won, Lost and Ties: pbmserv's Active/Limit is left out, since this server
//! sets no limit of games (issue 26).

use std::fmt::{Display, Write as _};

use crate::rules::Variant;
use crate::server::game::ratings::{PROVISIONAL_GAMES, START};
use crate::server::store::{Finished, Section, Standing};

use super::dates::format_date;
use super::listing::{Page, history_paging};

/// One variant's lists on a page of the standings: `None` when nobody has played a
/// rated game of it yet, else each section with its lines on the page (a section
/// with none is left out).
pub type VariantLists = (Variant, Option<Vec<(Section, Vec<Standing>)>>);

/// A page of the standings: each variant's lists (`variants`), ranks `skip + 1` to
/// `skip + per_page`, page number `page`, and whether a list goes on past it
/// (`more`).
pub fn standings(
    variants: &[VariantLists],
    skip: usize,
    per_page: usize,
    page: u32,
    more: bool,
) -> String {
    let mut out = String::new();
    for (variant, lists) in variants {
        let title = match variant {
            Variant::Normal => "Yinsh Standings",
            Variant::Blitz => "Yinsh Standings (blitz)",
        };
        let _ = writeln!(out, "{title}\n{}", "=".repeat(title.len()));
        let Some(lists) = lists else {
            out.push_str("No rated games yet.\n\n");
            continue;
        };
        for (section, lines) in lists {
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
            skip + per_page,
            if more {
                format!(" For the next ones send: yinsh standings page {}", page + 1)
            } else {
                String::new()
            }
        );
    }
    out
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

/// A page of `yinsh history`: of `player` (as the command wrote it) or of everyone,
/// `games` the finished games on `page`.
pub fn history(player: Option<&dyn Display>, games: &[Finished], page: &Page) -> String {
    let mut out = String::from("Historical List of Yinsh games\n\n");
    if let Some(p) = player {
        let _ = writeln!(out, "Games of {p}\n");
    }
    if page.total == 0 {
        out.push_str("No game has ended yet.\n");
        return out;
    }
    out.push_str(&history_rows(games));
    if let Some(line) = history_paging(page, player) {
        let _ = writeln!(out, "\n{line}");
        if player.is_none() {
            out.push_str("For one player's games send: yinsh history <userid>\n");
        }
    }
    out
}
