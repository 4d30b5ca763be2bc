//! Transcripts as the commands read them (`replay`, `think`, `render`, `export`):
//! their text from a file or stdin, and the variant a `--blitz` flag asks for. What a
//! transcript says, and playing it, is `notation::play_transcript`'s.

use std::io::Read;
use std::path::Path;

use crate::rules::Variant;

/// The variant a `--blitz` flag asks for.
pub(crate) const fn variant(blitz: bool) -> Variant {
    if blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    }
}

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
