//! Transcripts, as `replay` and `think` read them: one turn per white-space separated
//! token (`e5`, `xg5-g9xa5;d3-b3`, ...), White's first; lines whose first non-blank
//! character is `#` are comments. Forced passes, which the server plays by itself,
//! may be left out or written `--`. A token may end in `#N`, the number the turn gets
//! in the move list (forced passes count); a wrong number is refused like an illegal
//! turn.

use std::io::Read;
use std::path::Path;

use crate::notation::{NotationError, Part, WrittenTurn, auto_pass_due, parse_turn};
use crate::rules::{Action, Game, Variant};

/// The transcript's text, or a message saying why it cannot be read.
pub(crate) fn read(file: Option<&Path>) -> Result<String, String> {
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
/// that fails. With `final_pass`, a forced pass due at the end is played too, as the
/// server would; without it the game is left with the pass to play (for `think`).
pub(crate) fn play_transcript(
    variant: Variant,
    text: &str,
    final_pass: bool,
) -> Result<(Game, u32), String> {
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
    if final_pass && auto_pass_due(&game) && game.play(Action::Pass).is_ok() {
        turns += 1;
    }
    Ok((game, turns))
}

fn is_lone_pass(t: &WrittenTurn) -> bool {
    t.parts == [Part::Pass]
}
