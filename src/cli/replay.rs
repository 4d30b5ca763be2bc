//! `yinsh-pbem replay`: play a transcript of turns and print the final board or a
//! JSON summary.

use std::process::ExitCode;

/// `yinsh-pbem replay [--blitz] [--json] [FILE]` (stdin when `file` is `None`).
pub fn replay(_blitz: bool, _json: bool, _file: Option<&std::path::Path>) -> ExitCode {
    eprintln!("replay is not built yet");
    ExitCode::from(1)
}
