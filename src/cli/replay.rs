//! `yinsh-pbem replay`: play a transcript of turns and print the final board or a
//! JSON summary.
//!
//! A transcript holds one turn per white-space separated token (`e5`,
//! `xg5-g9xa5;d3-b3`, ...), White's first; lines whose first non-blank character is
//! `#` are comments. Forced passes, which the server plays by itself, may be left out
//! or written `--`. A token may end in `#N`, the number the turn gets in the move list
//! (forced passes count); a wrong number is refused like an illegal turn.

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use serde_json::json;

use crate::notation::render::{SideNames, render};
use crate::notation::{NotationError, Part, WrittenTurn, auto_pass_due, parse_turn};
use crate::rules::{Action, Color, EndReason, Game, Outcome, Variant};

/// `yinsh-pbem replay [--blitz] [--json] [FILE]` (stdin when `file` is `None`).
///
/// Exit 0 with the final board (or, with `json`, one JSON object) on stdout; exit 1
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
    let variant = if blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    };
    match play_transcript(variant, &text) {
        Ok((game, turns)) => {
            if json {
                println!("{}", summary(&game, turns));
            } else {
                print!("{}", render(&game, &SideNames::default()));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

/// The transcript's text, or a message saying why it cannot be read.
fn read(file: Option<&Path>) -> Result<String, String> {
    match file {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the transcript {}: {e}", path.display())),
        None => {
            let mut s = String::new();
            std::io::stdin()
                .read_to_string(&mut s)
                .map_err(|e| format!("cannot read the transcript from stdin: {e}"))?;
            Ok(s)
        }
    }
}

/// Play every turn of `text` from the empty board. Returns the game and the number of
/// turns in its move list (forced passes included), or the message for the first turn
/// that fails.
fn play_transcript(variant: Variant, text: &str) -> Result<(Game, u32), String> {
    let mut game = Game::new(variant);
    let mut turns: u32 = 0;
    for (line_no, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        for token in line.split_whitespace() {
            let fail = |number: u32, why: String| {
                format!("turn {number} `{token}` (line {}): {why}", line_no + 1)
            };
            let written = match parse_turn(token) {
                Ok(w) => w,
                Err(e) => {
                    let number = turns + 1 + u32::from(auto_pass_due(&game));
                    return Err(fail(number, format!("{e}\n{}", e.caret())));
                }
            };
            if auto_pass_due(&game) && !is_lone_pass(&written) {
                game.play(Action::Pass)
                    .map_err(|e| fail(turns + 1, e.to_string()))?;
                turns += 1;
            }
            turns += 1;
            if let Some(n) = written.moveno
                && n != turns
            {
                return Err(fail(
                    turns,
                    format!("it is written as turn #{n} but it is turn #{turns}"),
                ));
            }
            written
                .play(&mut game)
                .map_err(|e| fail(turns, NotationError::from(e).to_string()))?;
        }
    }
    // The server plays a forced pass at once: so does the end of a transcript.
    if auto_pass_due(&game) && game.play(Action::Pass).is_ok() {
        turns += 1;
    }
    Ok((game, turns))
}

fn is_lone_pass(t: &WrittenTurn) -> bool {
    t.parts == [Part::Pass]
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_turn_numbers_and_refusals() {
        let (g, n) = play_transcript(Variant::Normal, "# a comment\n e5 f6\n").unwrap();
        assert_eq!(n, 2);
        assert_eq!(g.rings_on_board(Color::White), 1);
        let e = play_transcript(Variant::Normal, "e5 e5").unwrap_err();
        assert!(
            e.starts_with("turn 2 `e5` (line 1): e5 is not empty"),
            "{e}"
        );
        let e = play_transcript(Variant::Normal, "e5\nf6#3").unwrap_err();
        assert!(e.contains("turn #3 but it is turn #2"), "{e}");
        let e = play_transcript(Variant::Normal, "e5 f6;").unwrap_err();
        assert!(
            e.contains("turn 2 `f6;` (line 1)") && e.ends_with("  ^"),
            "{e}"
        );
    }
}
