//! Standard output for every command: `outln!` and `out!` write like `println!` and
//! `print!`, but a reader that went away (`yinsh-pbem status | head -1`, a closed
//! pipe) ends the command quietly with exit 0 instead of a panic ("failed printing to
//! stdout: Broken pipe"): Rust ignores SIGPIPE, so `println!` panics there. Any other
//! failure to write stdout (a full disk under `> file`) is said on stderr, exit 74
//! (`EX_IOERR`); `deliver` writes stdout only with `--verbose`, after its work is
//! committed.

use std::fmt;
use std::io::{ErrorKind, Write};

/// `EX_IOERR` of sysexits.h: standard output could not be written.
const EX_IOERR: i32 = 74;

/// Writes `args` (and a newline when `newline`) to stdout, or ends the process as the
/// module doc says.
pub fn write(args: fmt::Arguments<'_>, newline: bool) {
    let mut out = std::io::stdout().lock();
    let written = out
        .write_fmt(args)
        .and_then(|()| {
            if newline {
                out.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .and_then(|()| out.flush());
    if let Err(e) = written {
        if e.kind() == ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write standard output: {e}");
        std::process::exit(EX_IOERR);
    }
}

/// `println!` for commands: see the module doc.
macro_rules! outln {
    () => { $crate::cli::stdout::write(format_args!(""), true) };
    ($($arg:tt)*) => { $crate::cli::stdout::write(format_args!($($arg)*), true) };
}

/// `print!` for commands: see the module doc.
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::stdout::write(format_args!($($arg)*), false) };
}
