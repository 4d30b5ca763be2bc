//! `yinsh-pbem replay`: play a transcript of turns (`notation::play_transcript`)
//! and print the final board or a JSON summary, ended as its comments say (`# Black
//! resigned.`, `# Draw agreed.`: `notation::transcript_header`).

use std::path::Path;
use std::process::ExitCode;

use serde_json::json;

use super::transcript::{read, variant};
use crate::notation::render::{SideNames, render};
use crate::notation::{FinalPass, Played, play_transcript, transcript_header};
use crate::rules::{Color, EndReason, Game, Outcome};

/// `yinsh-pbem replay [--blitz] [--json] [FILE]` (stdin when `file` is `None`).
///
/// Exit 0 with the final board (or, with `json`, one JSON object) on stdout, the
/// game ended by the resignation or agreed draw the transcript's comments name; exit 1
/// when the transcript cannot be read or a turn cannot be read or played, naming the
/// turn on stderr.
pub fn replay(blitz: bool, json: bool, file: Option<&Path>) -> ExitCode {
    let text = match read(file) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(1);
        }
    };
    match play_transcript(variant(blitz), &text, FinalPass::Play) {
        Ok(Played {
            mut game, turns, ..
        }) => {
            if let Some(end) = transcript_header(&text).2 {
                // A game the moves already ended keeps its ending.
                let _ = end.apply(&mut game);
            }
            if json {
                outln!("{}", summary(&game, turns));
            } else {
                out!("{}", render(&game, &SideNames::default()));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

/// The JSON summary of a game after `turns` turns.
fn summary(game: &Game, turns: u32) -> serde_json::Value {
    let color = |c: Option<Color>| c.map(Color::name);
    let (status, winner) = match game.outcome() {
        None => ("in_progress", None),
        Some(Outcome::Win(c)) => ("won", Some(c)),
        Some(Outcome::Draw) => ("draw", None),
    };
    let end_reason = game.ending().map(|e| match e.reason {
        EndReason::RingsRemoved => "rings_removed",
        EndReason::MarkersExhausted => "markers_exhausted",
        EndReason::BothBlocked => "both_blocked",
        EndReason::Resignation => "resignation",
        EndReason::Agreement => "agreement",
    });
    json!({
        "status": status,
        "winner": color(winner),
        "end_reason": end_reason,
        "rings_removed": {
            "white": game.rings_removed(Color::White),
            "black": game.rings_removed(Color::Black),
        },
        "markers_on_board": game.markers_on_board(),
        "markers_in_pool": game.markers_in_pool(),
        "turns": turns,
        "to_move": color(game.to_act()),
    })
}
