//! The texts of tournaments (issue 49): the answers to `yinsh tournament ...`, the
//! mail that tells each player their games of a round, the crosstable of `show` and
//! of the final mail, and the list of `yinsh tournaments`. Built from the facts
//! `exec::tournament` gives; the standings come from `game::tournament::standings`.

use std::fmt::Write as _;

use crate::server::game::tournament::standings::Line;
use crate::server::model::UserId;
use crate::server::store::{Format, Tournament, TournamentGame, TournamentName};

use super::dates::format_date;

/// The Subject of every tournament mail.
pub fn subject(name: &TournamentName) -> String {
    format!("Yinsh tournament {name}")
}

/// The Subject of the list.
pub fn list_subject() -> String {
    "Yinsh tournaments".to_string()
}

/// The rules in one line.
pub fn rules(t: &Tournament) -> String {
    let kind = if t.blitz { "blitz" } else { "normal" };
    let mut s = format!("{}, {kind} games, {} to {} players", t.format, t.min, t.max);
    if let Some(start) = t.start {
        let _ = write!(s, ", starting {}", format_date(start));
    }
    s
}

/// The answer to `create`.
pub fn created(t: &Tournament) -> String {
    format!(
        "Tournament {} is created: {}.\nYou are its first player. Others join with\n    yinsh tournament join {} <userid> <password>\nand you start it with\n    yinsh tournament start {} <userid> <password>\n",
        t.name,
        rules(t),
        t.name,
        t.name
    )
}

/// The answer to `join`.
pub fn joined(t: &Tournament, who: &UserId) -> String {
    format!(
        "{who} joined tournament {} ({}): {} players now. You will get a mail with your games when it starts.\n",
        t.name,
        rules(t),
        t.entrants.len()
    )
}

/// The answer to `leave` before the start.
pub fn left(name: &TournamentName, who: &UserId) -> String {
    format!("{who} left tournament {name}.\n")
}

/// The answer to `leave` after the start.
pub fn withdrew(name: &TournamentName, who: &UserId, resigned: usize) -> String {
    let games = match resigned {
        0 => "no game of theirs was still going".to_string(),
        1 => "the 1 game not finished is resigned".to_string(),
        n => format!("the {n} games not finished are resigned"),
    };
    format!("{who} withdrew from tournament {name}: {games}, and {who} is paired no more.\n")
}

/// The line of a board mail of a game resigned by a withdrawal.
pub fn withdrawn_game(name: &TournamentName, who: &UserId) -> String {
    format!("{who} withdrew from tournament {name}, and so resigns this game.")
}

/// The mail of a round's games, to one player.
pub fn your_games(t: &Tournament, round: u32, who: &UserId, bye: bool) -> String {
    let mut s = match t.format {
        Format::RoundRobin => format!(
            "Tournament {} has started ({}). All your games start now:\n",
            t.name,
            rules(t)
        ),
        Format::Swiss { rounds } => {
            format!(
                "Tournament {}: round {round} of {rounds} has started.\n",
                t.name
            )
        }
    };
    for g in t.games.iter().filter(|g| g.round == round) {
        if g.white == *who || g.black == *who {
            let _ = writeln!(s, "  {}", game_line(g));
        }
    }
    if bye {
        s.push_str("  You have the bye this round: it counts as a win.\n");
    }
    s.push_str("Each game's board comes in a mail of its own.\n");
    s
}

fn game_line(g: &TournamentGame) -> String {
    let board = g.board.map_or("-".to_string(), |b| format!("board {b}"));
    let result = match g.result {
        None => "going on".to_string(),
        Some(crate::server::store::Verdict::White) => "1-0".to_string(),
        Some(crate::server::store::Verdict::Black) => "0-1".to_string(),
        Some(crate::server::store::Verdict::Draw) => "1/2-1/2".to_string(),
    };
    format!(
        "round {}, {board}: {} (White) - {} (Black), {result}",
        g.round, g.white, g.black
    )
}

/// The table, one line a player: place, name, points and tie-breaks.
pub fn table(t: &Tournament, lines: &[Line]) -> String {
    let mut s = String::new();
    match t.format {
        Format::RoundRobin => {
            s.push_str("Place Player                           Points   SB   Won  H2H\n")
        }
        Format::Swiss { .. } => {
            s.push_str("Place Player                           Points   Buchholz   SB\n")
        }
    }
    for l in lines {
        let mark = if l.withdrawn { " (withdrew)" } else { "" };
        let who = format!("{}{mark}", l.id);
        let _ = match t.format {
            Format::RoundRobin => writeln!(
                s,
                "{:>5} {who:<32} {:>6} {:>6} {:>4} {:>4}",
                l.place,
                l.points.to_string(),
                l.sonneborn_berger.to_string(),
                l.won,
                l.head_to_head.to_string()
            ),
            Format::Swiss { .. } => writeln!(
                s,
                "{:>5} {who:<32} {:>6} {:>10} {:>6}",
                l.place,
                l.points.to_string(),
                l.buchholz.to_string(),
                l.sonneborn_berger.to_string()
            ),
        };
    }
    s
}

/// The answer to `show`: the state, the table, the games.
pub fn show(t: &Tournament, lines: &[Line]) -> String {
    let mut s = format!(
        "Tournament {}: {}.\nCreated by {}.\n",
        t.name,
        rules(t),
        t.creator
    );
    match (t.started, t.finished) {
        (None, _) => {
            let players: Vec<String> = t.entrants.iter().map(|e| e.id.to_string()).collect();
            let _ = writeln!(
                s,
                "Not started. Players ({}): {}",
                players.len(),
                players.join(", ")
            );
            return s;
        }
        (Some(_), Some(at)) => {
            let _ = writeln!(s, "Finished {}.", format_date(at));
        }
        (Some(_), None) => {
            let round = t.games.iter().map(|g| g.round).max().unwrap_or(1);
            if let Format::Swiss { rounds } = t.format {
                let _ = writeln!(s, "Round {round} of {rounds}.");
            }
        }
    }
    s.push('\n');
    s.push_str(&table(t, lines));
    s.push_str("\nGames:\n");
    for g in &t.games {
        let _ = writeln!(s, "  {}", game_line(g));
    }
    for b in &t.byes {
        let _ = writeln!(s, "  round {}: bye for {}", b.round, b.player);
    }
    s
}

/// The final mail to every player.
pub fn finished(t: &Tournament, lines: &[Line]) -> String {
    let winners: Vec<String> = lines
        .iter()
        .filter(|l| l.place == 1)
        .map(|l| l.id.to_string())
        .collect();
    format!(
        "Tournament {} is over. The winner: {}.\n\nThe final table:\n{}",
        t.name,
        winners.join(" and "),
        table(t, lines)
    )
}

/// The list of `yinsh tournaments`.
pub fn list(all: &[&Tournament]) -> String {
    if all.is_empty() {
        return "There are no tournaments yet. Create one with\n    yinsh tournament create <name> <userid> <password> [roundrobin | swiss]\n".to_string();
    }
    let mut s = String::from("Tournaments:\n");
    for t in all {
        let state = match (t.started, t.finished) {
            (None, _) => "open to join",
            (Some(_), None) => "playing",
            (Some(_), Some(_)) => "finished",
        };
        let _ = writeln!(
            s,
            "  {}: {}, {} players, {state}",
            t.name,
            rules(t),
            t.entrants.len()
        );
    }
    s.push_str("Send yinsh tournament show <name> for one of them.\n");
    s
}
