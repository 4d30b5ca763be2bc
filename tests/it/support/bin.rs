//! The one way the tests start the `yinsh-pbem` binary: with every `YINSH_PBEM_*`
//! variable of the test's own environment removed, so that only what a test sets
//! itself (a home, a clock, a fault to inject) reaches the program.

use std::io::{self, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// `yinsh-pbem` without any `YINSH_PBEM_*` variable: a test adds its arguments and
/// the variables it wants. Address confirmation is off
/// (`YINSH_PBEM_CONFIRM_ADDRESSES=false`), as in a closed community: the tests of
/// confirmation (`confirm`) turn it on again with [`confirming`].
pub fn command() -> Command {
    command_of(Path::new(env!("CARGO_BIN_EXE_yinsh-pbem")))
}

/// [`command`] for another build of the program (the soak test runs the release
/// binary under `.ci/run`), with the same clean environment.
pub fn command_of(program: &Path) -> Command {
    let mut cmd = Command::new(program);
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("YINSH_PBEM_") {
            cmd.env_remove(key);
        }
    }
    cmd.env(CONFIRM, "false");
    cmd
}

/// The variable that switches address confirmation (`[security] confirm_addresses`).
pub const CONFIRM: &str = "YINSH_PBEM_CONFIRM_ADDRESSES";

/// The variable and value that turn address confirmation on, as by default.
pub fn confirming() -> [(&'static str, &'static str); 1] {
    [(CONFIRM, "true")]
}

/// [`command`] as `assert_cmd` wraps it (for `write_stdin` and `assert`).
pub fn assert_command() -> assert_cmd::Command {
    assert_cmd::Command::from_std(command())
}

/// Starts `yinsh-pbem deliver --home <home>` at the clock `now` with the variables
/// `envs`, writes `raw` to its standard input and closes it. Its output is dropped,
/// its errors kept. Returns the child and how writing went (a child killed early
/// closes the pipe).
pub fn spawn_deliver(
    home: &Path,
    now: u64,
    envs: &[(&str, &str)],
    raw: &[u8],
) -> (Child, io::Result<()>) {
    let mut child = command()
        .arg("deliver")
        .arg("--home")
        .arg(home)
        .env("YINSH_PBEM_NOW", now.to_string())
        .envs(envs.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn deliver");
    let mut stdin = child.stdin.take().expect("stdin");
    let written = stdin.write_all(raw);
    drop(stdin);
    (child, written)
}
