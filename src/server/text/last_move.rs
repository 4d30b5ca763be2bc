//! The `Last move:` line of a board mail: the last turn a player sent (the server's
//! forced passes after it have lines of their own), its number, who sent it, its
//! text, and what it did in words: the ring placed or moved and the markers it
//! turned, the rows and rings removed, in the order played; and the lines of those
//! forced passes.

use crate::notation;
use crate::rules::{Action, Game, Piece, Point};
use crate::server::game::record::{self, ReplayError};
use crate::server::store::GameFile;

/// The server's forced passes since the last turn a player sent, a line each.
pub fn forced_passes(file: &GameFile) -> String {
    let auto = file.turns.iter().rev().take_while(|t| t.auto).count();
    file.turns[file.turns.len() - auto..]
        .iter()
        .map(|t| format!("{} had no ring move and passes.\n", t.by))
        .collect()
}

/// `Last move: #12 bob: xc3-c7xd4;e5-e8 - removed the row c3-c7 and the ring on d4,
/// then moved the ring from e5 to e8, turning 2 markers.` for the last turn a player
/// sent among the first `upto` turns of `file`; none before the first one.
pub fn last_move_line(file: &GameFile, upto: usize) -> Result<Option<String>, ReplayError> {
    let turns = &file.turns[..upto.min(file.turns.len())];
    let Some(k) = turns.iter().rposition(|t| !t.auto) else {
        return Ok(None);
    };
    turn_line(file, k, "Last move").map(Some)
}

/// `Before it: #11 alice: e5-e8 - moved the ring ...`: the turn a player sent before
/// the last one (the `Last move:`) among the first `upto` turns of `file`, when that
/// last one is a robot's: a robot's answer is the one mail a person gets for their
/// own turn and the robot's (issue 47 item 3); none otherwise.
pub fn before_robots_line(file: &GameFile, upto: usize) -> Result<Option<String>, ReplayError> {
    let turns = &file.turns[..upto.min(file.turns.len())];
    let Some(last) = turns.iter().rposition(|t| !t.auto) else {
        return Ok(None);
    };
    if turns[last].by.robot_level().is_none() {
        return Ok(None);
    }
    match turns[..last].iter().rposition(|t| !t.auto) {
        Some(k) => turn_line(file, k, "Before it").map(Some),
        None => Ok(None),
    }
}

/// `{label}: #{k + 1} {by}: {text} - {what it did}.` for turn `k` of `file`.
fn turn_line(file: &GameFile, k: usize, label: &str) -> Result<String, ReplayError> {
    let turn = &file.turns[k];
    let mut game = record::replay_turns(file, Some(k))?;
    let actions =
        notation::play_turn(&mut game.clone(), &turn.text).map_err(|why| ReplayError::Turn {
            board: file.board,
            turn: k + 1,
            text: turn.text.clone(),
            why,
        })?;
    let mut parts: Vec<String> = Vec::new();
    for a in actions {
        let before = game;
        // The actions were just checked by play_turn: this cannot fail.
        let _ = game.play(a);
        match a {
            Action::Place(p) => parts.push(format!("placed a ring on {p}")),
            Action::Move { from, to } => {
                let turned = turned(&before, &game);
                parts.push(match turned {
                    0 => format!("moved the ring from {from} to {to}"),
                    1 => format!("moved the ring from {from} to {to}, turning 1 marker"),
                    n => format!("moved the ring from {from} to {to}, turning {n} markers"),
                });
            }
            Action::RemoveRow(r) => parts.push(format!("removed the row {r}")),
            Action::RemoveRing(p) => match parts.last_mut() {
                Some(last) if last.starts_with("removed the row") => {
                    last.push_str(&format!(" and the ring on {p}"));
                }
                _ => parts.push(format!("removed the ring on {p}")),
            },
            Action::Pass => parts.push("passed".to_string()),
        }
    }
    Ok(format!(
        "{label}: #{} {}: {} - {}.",
        k + 1,
        turn.by,
        turn.text,
        parts.join(", then ")
    ))
}

/// How many markers changed colour from `before` to `after`.
fn turned(before: &Game, after: &Game) -> usize {
    Point::ALL
        .iter()
        .filter(|&&p| {
            matches!(
                (before.piece_at(p), after.piece_at(p)),
                (Some(Piece::Marker(a)), Some(Piece::Marker(b))) if a != b
            )
        })
        .count()
}
