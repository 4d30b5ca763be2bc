//! Running a sendmail-compatible program for one mail, with a time limit: it is
//! called as `prog -i -f <from> -- <to>...` with the message (LF line ends) on its
//! standard input; one that runs longer than the limit is killed (a hung sendmail
//! must not hold the spool, and every mail behind it, for as long as it hangs). Its
//! exit status tells a failure that may pass (try again later) from one that will
//! not (sysexits.h: `EX_DATAERR`, `EX_NOUSER`, `EX_NOHOST`).

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStderr, ChildStdin, Command, ExitStatus, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Exit codes of sendmail that refuse the mail for good (sysexits.h): 65
/// `EX_DATAERR`, 67 `EX_NOUSER`, 68 `EX_NOHOST`. Every other failure (75
/// `EX_TEMPFAIL`, 1, a signal, a time-out) may pass.
pub const PERMANENT_EXITS: [i32; 3] = [65, 67, 68];

/// How much of sendmail's stderr a failure repeats.
const STDERR_KEPT: usize = 2000;

/// Why sendmail did not take a mail.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SendmailError {
    /// The program could not be started.
    #[error("cannot run `{program}`: {reason}")]
    Spawn {
        /// The program.
        program: String,
        /// The system's error.
        reason: String,
    },
    /// It ran longer than the limit and was killed.
    #[error("`{program}` ran longer than {seconds} s and was killed")]
    TimedOut {
        /// The program.
        program: String,
        /// The limit.
        seconds: u64,
    },
    /// It ended with a failure.
    #[error("`{program}` failed ({status}): {stderr}")]
    Failed {
        /// The program.
        program: String,
        /// The exit code (`None`: killed by a signal).
        code: Option<i32>,
        /// The status as the system words it.
        status: String,
        /// The start of what it wrote on stderr.
        stderr: String,
    },
}

impl SendmailError {
    /// Whether the mail is refused for good (an exit code of [`PERMANENT_EXITS`]).
    pub fn is_permanent(&self) -> bool {
        matches!(self, SendmailError::Failed { code: Some(c), .. } if PERMANENT_EXITS.contains(c))
    }
}

/// Hands one message to `program`, killing it after `timeout`.
pub fn send(
    program: &Path,
    from: &str,
    to: &[String],
    message: &[u8],
    timeout: Duration,
) -> Result<(), SendmailError> {
    let name = program.display().to_string();
    let mut child = spawn(program, &name, from, to)?;
    // Writing and reading happen in threads of their own: a program that neither
    // reads its input nor ends must not block us past the deadline. They are not
    // joined after a time-out (a grandchild may keep the pipes open).
    let writer = child
        .stdin
        .take()
        .map(|stdin| write_in_background(stdin, message));
    let reader = child.stderr.take().map(read_in_background);
    let status = wait(&mut child, &name, timeout)?;
    drop(writer);
    if status.success() {
        return Ok(());
    }
    Err(SendmailError::Failed {
        program: name,
        code: status.code(),
        status: status.to_string(),
        stderr: stderr_of(reader),
    })
}

/// Starts `program` (called `name` in errors) as `prog -i -f <from> -- <to>...`.
fn spawn(program: &Path, name: &str, from: &str, to: &[String]) -> Result<Child, SendmailError> {
    Command::new(program)
        .arg("-i")
        .arg("-f")
        .arg(if from.is_empty() { "<>" } else { from })
        .arg("--")
        .args(to)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| SendmailError::Spawn {
            program: name.to_string(),
            reason: e.to_string(),
        })
}

/// Writes `message` to the program's input in a thread of its own.
fn write_in_background(mut stdin: ChildStdin, message: &[u8]) -> JoinHandle<()> {
    let message = message.to_vec();
    std::thread::spawn(move || {
        let _ = stdin.write_all(&message);
    })
}

/// Reads the start of the program's stderr ([`STDERR_KEPT`]) in a thread of its own.
fn read_in_background(stderr: ChildStderr) -> JoinHandle<String> {
    std::thread::spawn(move || {
        let mut kept = Vec::new();
        let _ = stderr.take(STDERR_KEPT as u64).read_to_end(&mut kept);
        String::from_utf8_lossy(&kept).trim().to_string()
    })
}

/// Waits for `child` to end, at most `timeout`; kills it when the time is up or it
/// cannot be waited for.
fn wait(child: &mut Child, name: &str, timeout: Duration) -> Result<ExitStatus, SendmailError> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(SendmailError::TimedOut {
                    program: name.to_string(),
                    seconds: timeout.as_secs(),
                });
            }
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(SendmailError::Spawn {
                    program: name.to_string(),
                    reason: format!("cannot wait for it: {e}"),
                });
            }
        }
    }
}

/// What the program wrote on stderr, as far as its `reader` got.
fn stderr_of(reader: Option<JoinHandle<String>>) -> String {
    // The pipe ends with the program, unless a child of it holds it: wait a moment.
    reader
        .filter(|r| {
            let until = Instant::now() + Duration::from_secs(1);
            while !r.is_finished() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(5));
            }
            r.is_finished()
        })
        .and_then(|r| r.join().ok())
        .unwrap_or_default()
}
