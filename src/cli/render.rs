//! `yinsh-pbem render`: draw the final position of a transcript (read and played as
//! `replay` does) as an SVG or PNG picture, the last written turn marked.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use super::transcript::{read, variant};
use crate::notation::{FinalPass, Played, play_transcript};
use crate::picture::{LastMove, Picture};

/// The picture formats `render` writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PictureFormat {
    /// SVG text.
    Svg,
    /// PNG bytes.
    Png,
}

/// `yinsh-pbem render [--svg|--png] [--blitz] [--out FILE] [FILE]` (stdin when
/// `file` is `None`, stdout when `out` is `None`).
///
/// Exit 0 with the picture written; exit 1 when the transcript cannot be read or
/// played (the turn named on stderr) or the picture cannot be written.
pub fn render(
    format: PictureFormat,
    blitz: bool,
    out: Option<&Path>,
    file: Option<&Path>,
) -> ExitCode {
    match picture(format, blitz, file).and_then(|bytes| write(out, &bytes)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

/// The picture's bytes, or the message saying why there is none.
fn picture(format: PictureFormat, blitz: bool, file: Option<&Path>) -> Result<Vec<u8>, String> {
    let text = read(file)?;
    let Played {
        game, last_turn, ..
    } = play_transcript(variant(blitz), &text, FinalPass::Play).map_err(|e| e.to_string())?;
    let (before, actions) = last_turn;
    // The actions were just played from `before`: they cannot be refused.
    let last = LastMove::from_turn(&before, &actions).map_err(|e| e.to_string())?;
    let picture = Picture::new(&game).last_move(&last);
    match format {
        PictureFormat::Svg => Ok(picture.to_svg().into_bytes()),
        PictureFormat::Png => picture.to_png().map_err(|e| e.to_string()),
    }
}

/// Write `bytes` to `out`, or to stdout.
fn write(out: Option<&Path>, bytes: &[u8]) -> Result<(), String> {
    match out {
        Some(path) => std::fs::write(path, bytes)
            .map_err(|e| format!("cannot write the picture to {}: {e}", path.display())),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(bytes)
                .and_then(|()| stdout.flush())
                .map_err(|e| format!("cannot write the picture to stdout: {e}"))
        }
    }
}
