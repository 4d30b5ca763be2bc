//! The configuration: a TOML file under the command line and the environment, and
//! `check-config` reporting what will be used and what is wrong.

use crate::support::bin;

fn check(args: &[&str], envs: &[(&str, &str)]) -> (i32, String) {
    let mut cmd = bin::command();
    cmd.arg("check-config").args(args);
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_config_file_is_read_and_overridden_by_env_then_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let cfg = dir.path().join("y.toml");
    std::fs::write(
        &cfg,
        format!(
            "home = \"{}\"\nfrom = \"File <file@example.org>\"\n[transport]\nkind = \"sendmail\"\npath = \"/bin/sh\"\n[limits]\nmax_message_bytes = 50000\nmails_per_sender = 9\nperiod_seconds = 60\n",
            home.display()
        ),
    )
    .unwrap();
    let c = cfg.to_str().unwrap();
    let (code, out) = check(&["--config", c], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("from:               File <file@example.org>"),
        "{out}"
    );
    assert!(out.contains("sendmail program `/bin/sh`"), "{out}");
    assert!(out.contains("max message bytes:  50000"));
    assert!(out.contains("mails per sender:   9 per 60 s"));
    assert!(out.contains("no problems found"));
    let (_, out) = check(
        &["--config", c],
        &[("YINSH_PBEM_FROM", "Env <env@example.org>")],
    );
    assert!(
        out.contains("from:               Env <env@example.org>"),
        "env over file: {out}"
    );
    let (_, out) = check(
        &[
            "--config",
            c,
            "--from",
            "Cli <cli@example.org>",
            "--outbox",
            dir.path().join("out").to_str().unwrap(),
        ],
        &[("YINSH_PBEM_FROM", "Env <env@example.org>")],
    );
    assert!(
        out.contains("from:               Cli <cli@example.org>"),
        "command line over env: {out}"
    );
    assert!(out.contains("outbox folder"), "{out}");
}

#[test]
fn check_config_names_every_problem_and_exits_1() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("bad.toml");
    std::fs::write(&cfg, "from = \"nobody\"\n[transport]\nkind = \"sendmail\"\npath = \"/nonexistent/sendmail\"\n[limits]\nmax_message_bytes = 10\n").unwrap();
    let (code, out) = check(
        &[
            "--config",
            cfg.to_str().unwrap(),
            "--home",
            dir.path().join("h").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("problem: from: \"nobody\" has no valid address"),
        "{out}"
    );
    assert!(
        out.contains("problem: sendmail /nonexistent/sendmail"),
        "{out}"
    );
    assert!(
        out.contains("problem: limits.max_message_bytes = 10 is too small"),
        "{out}"
    );
    std::fs::write(&cfg, "colour = \"blue\"\n").unwrap();
    let (code, out) = check(&["--config", cfg.to_str().unwrap()], &[]);
    assert_eq!(code, 1);
    assert!(out.contains("unknown field `colour`"), "{out}");
    std::fs::write(&cfg, "[transport]\nkind = \"pigeon\"\n").unwrap();
    let (code, out) = check(&["--config", cfg.to_str().unwrap()], &[]);
    assert_eq!(code, 1);
    assert!(
        out.contains("kind = \"pigeon\": write \"outbox\", \"smtp\" or \"sendmail\""),
        "{out}"
    );
}

#[test]
fn a_config_toml_in_the_home_is_used_by_default_and_a_broken_one_makes_deliver_exit_75() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.toml"),
        "from = \"Home <home@example.org>\"\n",
    )
    .unwrap();
    let h = home.to_str().unwrap();
    let (code, out) = check(&["--home", h], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("config.toml"));
    assert!(out.contains("from:               Home <home@example.org>"));
    std::fs::write(home.join("config.toml"), "from = [").unwrap();
    let out = bin::assert_command()
        .args(["deliver", "--home", h])
        .write_stdin("From: a@example.org\nSubject: help\n\n")
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(75),
        "the mail system must keep the mail"
    );
    assert!(out.stderr.is_empty());
}

/// Issue 13 §2: the sending limits and the operator are read from the config file
/// and shown by `check-config`, with their defaults when absent.
#[test]
fn check_config_shows_the_lock_wait_the_send_timeout_the_retries_and_the_operator() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let home_s = home.to_str().unwrap();
    let (code, out) = check(&["--home", home_s], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("store lock wait:    120 s"), "{out}");
    assert!(out.contains("send timeout:       30 s"), "{out}");
    assert!(
        out.contains("retries:            after 60 s, doubling to 3600 s; given up after 5 days"),
        "{out}"
    );
    assert!(out.contains("operator:           (none"), "{out}");
    let cfg = dir.path().join("y.toml");
    std::fs::write(
        &cfg,
        "operator = \"ops@example.org\"\n[limits]\nlock_wait_seconds = 7\nsend_timeout_seconds = 9\n",
    )
    .unwrap();
    let (code, out) = check(&["--home", home_s, "--config", cfg.to_str().unwrap()], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("store lock wait:    7 s"), "{out}");
    assert!(out.contains("send timeout:       9 s"), "{out}");
    assert!(out.contains("operator:           ops@example.org"), "{out}");
    assert!(
        out.contains("games for others:   5 a day per sender and per player"),
        "{out}"
    );
    std::fs::write(&cfg, "[limits]\nchallenges_for_others_per_day = 0\n").unwrap();
    let (code, out) = check(&["--home", home_s, "--config", cfg.to_str().unwrap()], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "games for others:   none (challenges for two other players are turned off on this server)"
        ),
        "{out}"
    );
    std::fs::write(&cfg, "operator = \"not an address\"\n").unwrap();
    let (code, out) = check(&["--home", home_s, "--config", cfg.to_str().unwrap()], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("operator = \"not an address\""), "{out}");
}

/// Issue 28: the reviews' share of the robots' think time and their playouts a
/// position are read from `[robot]`, shown with their defaults, and checked.
#[test]
fn check_config_shows_and_checks_the_reviews_share_and_playouts() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let home_s = home.to_str().unwrap();
    let (code, out) = check(&["--home", home_s], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "reviews:            600 playouts a position; at most 120 s of the robots' thinking an hour"
        ),
        "{out}"
    );
    let cfg = dir.path().join("y.toml");
    std::fs::write(
        &cfg,
        "[robot]\nreview_seconds_per_hour = 30\nreview_playouts = 200\n",
    )
    .unwrap();
    let (code, out) = check(&["--home", home_s, "--config", cfg.to_str().unwrap()], &[]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("reviews:            200 playouts a position; at most 30 s"),
        "{out}"
    );
    std::fs::write(
        &cfg,
        "[robot]\nreview_seconds_per_hour = 5000\nreview_playouts = 0\n",
    )
    .unwrap();
    let (code, out) = check(&["--home", home_s, "--config", cfg.to_str().unwrap()], &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("problem: robot.review_seconds_per_hour = 5000 must be above 0 and at most robot.think_seconds_per_hour (1200)"),
        "{out}"
    );
    assert!(
        out.contains("problem: robot.review_playouts = 0 must be between 1 and 10000"),
        "{out}"
    );
}

/// A one-connection SMTP server on 127.0.0.1 that offers AUTH PLAIN, accepts any
/// login and hands back the decoded `AUTH PLAIN` credentials (user, password).
fn login_recorder() -> (u16, std::thread::JoinHandle<Option<(String, String)>>) {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let handle = std::thread::spawn(move || {
        let (stream, _) = listener.accept().ok()?;
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .ok()?;
        let mut out = stream.try_clone().ok()?;
        let mut reader = BufReader::new(stream);
        out.write_all(b"220 test ESMTP\r\n").ok()?;
        let mut login = None;
        let mut line = String::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).ok()? == 0 {
                return login;
            }
            let upper = line.trim_end().to_ascii_uppercase();
            let answer: &[u8] = if upper.starts_with("EHLO") {
                b"250-test\r\n250 AUTH PLAIN\r\n"
            } else if let Some(b64) = line.trim_end().strip_prefix("AUTH PLAIN ") {
                use base64::Engine as _;
                let raw = base64::engine::general_purpose::STANDARD.decode(b64).ok()?;
                let parts: Vec<String> = raw
                    .split(|&b| b == 0)
                    .map(|p| String::from_utf8_lossy(p).into_owned())
                    .collect();
                login = Some((parts.get(1)?.clone(), parts.get(2)?.clone()));
                b"235 ok\r\n"
            } else if upper == "QUIT" {
                let _ = out.write_all(b"221 bye\r\n");
                return login;
            } else {
                b"250 ok\r\n"
            };
            out.write_all(answer).ok()?;
        }
    });
    (port, handle)
}

/// Issue 48: the SMTP password comes from a file (`--smtp-password-file`, or
/// `[transport] password_file`), never from the command line; the relay gets it, and
/// check-config never shows it.
#[test]
fn the_smtp_password_is_read_from_a_file_and_refused_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("h");
    let home = home.to_str().unwrap();
    let pw = dir.path().join("pw");
    std::fs::write(&pw, "s3cr:t@x\nsecond line ignored\n").unwrap();
    let pw = pw.to_str().unwrap();

    let (port, relay) = login_recorder();
    let url = format!("smtp://al%40example.org@127.0.0.1:{port}");
    let (code, out) = check(
        &[
            "--home",
            home,
            "--test-smtp",
            "--smtp",
            &url,
            "--smtp-password-file",
            pw,
        ],
        &[],
    );
    assert!(out.contains("login accepted"), "{out}");
    assert!(!out.contains("s3cr"), "{out}");
    assert_eq!(
        relay.join().unwrap(),
        Some(("al@example.org".to_string(), "s3cr:t@x".to_string()))
    );
    assert_eq!(code, 0, "{out}");

    // The same from the config file's [transport] password_file.
    let (port, relay) = login_recorder();
    let cfg = dir.path().join("c.toml");
    std::fs::write(
        &cfg,
        format!(
            "[transport]\nkind = \"smtp\"\nurl = \"smtp://al@127.0.0.1:{port}\"\npassword_file = \"{pw}\"\n"
        ),
    )
    .unwrap();
    let (_, out) = check(
        &[
            "--home",
            home,
            "--test-smtp",
            "--config",
            cfg.to_str().unwrap(),
        ],
        &[],
    );
    assert!(out.contains("login accepted"), "{out}");
    assert_eq!(
        relay.join().unwrap().map(|(_, p)| p),
        Some("s3cr:t@x".to_string())
    );

    // A password in --smtp is a usage error that does not repeat it.
    let out = bin::command()
        .args(["check-config", "--home", home, "--smtp"])
        .arg(format!("smtp://al:hunter2@127.0.0.1:{port}"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("--smtp-password-file") && !err.contains("hunter2"),
        "{err}"
    );

    // A password file for a URL without a user, or one that is missing, is named.
    let (code, out) = check(
        &[
            "--home",
            home,
            "--smtp",
            "smtp://127.0.0.1:25",
            "--smtp-password-file",
            pw,
        ],
        &[],
    );
    assert_eq!(code, 1);
    assert!(out.contains("the SMTP URL names no user"), "{out}");
    let (code, out) = check(
        &[
            "--home",
            home,
            "--smtp",
            "smtp://al@127.0.0.1:25",
            "--smtp-password-file",
            "/nonexistent/pw",
        ],
        &[],
    );
    assert_eq!(code, 1);
    assert!(
        out.contains("cannot read the SMTP password file /nonexistent/pw"),
        "{out}"
    );
}

/// Issue 48: only the subcommands that send mail take the transport options; the
/// others refuse them as unknown.
#[test]
fn only_the_subcommands_that_send_mail_take_the_mail_options() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().to_str().unwrap();
    for sub in ["status", "reindex", "rotate-reply-key", "site"] {
        for opt in ["--smtp", "--sendmail", "--outbox"] {
            let out = bin::command()
                .args([sub, "--home", home, opt, "x"])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{sub} {opt}: {err}");
            assert!(
                err.contains(&format!("unexpected argument '{opt}'")),
                "{err}"
            );
        }
    }
    let out = bin::command()
        .args(["status", "--home", home, "--from", "a@b.org"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = dir.path().join("out");
    let (code, text) = check(&["--home", home, "--outbox", out.to_str().unwrap()], &[]);
    assert_eq!(code, 0, "{text}");
}

/// Issue 48: a wrong argument of `deliver` run in some folder, with no home named,
/// makes no file there (no `./games/log/`): clap refuses before anything is touched,
/// and the reason goes to stderr with exit 75.
#[test]
fn a_bogus_argument_of_deliver_makes_no_file_in_the_working_folder() {
    let dir = tempfile::tempdir().unwrap();
    let out = bin::command()
        .current_dir(dir.path())
        .args(["deliver", "--bogus"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(75), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--bogus"));
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert!(left.is_empty(), "{left:?}");
}

/// Issue 48: a login without TLS to another machine is refused before anything is
/// sent (lettre would send the password in clear), and `?tls=opportunistic` with a
/// login is named as a problem; on this machine a plain login stays allowed.
#[test]
fn a_login_without_tls_to_another_machine_is_a_problem_and_never_tried() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("h");
    let home = home.to_str().unwrap();
    let pw = dir.path().join("pw");
    std::fs::write(&pw, "hunter2\n").unwrap();
    let pw = pw.to_str().unwrap();
    // 192.0.2.1 (TEST-NET-1) is never connected to: the refusal comes first.
    for (url, says) in [
        (
            "smtp://al@192.0.2.1:25",
            "without TLS, so the password would cross",
        ),
        (
            "smtp://al@192.0.2.1:587?tls=opportunistic",
            "the password would then cross the network in clear: write ?tls=required",
        ),
    ] {
        let (code, out) = check(
            &["--home", home, "--smtp", url, "--smtp-password-file", pw],
            &[],
        );
        assert_eq!(code, 1, "{url}: {out}");
        assert!(out.contains(says), "{url}: {out}");
        assert!(!out.contains("hunter2"), "{out}");
    }
    let (code, out) = check(
        &[
            "--home",
            home,
            "--smtp",
            "smtp://al@127.0.0.1:25",
            "--smtp-password-file",
            pw,
        ],
        &[],
    );
    assert_eq!(code, 0, "{out}");
}

/// Issue 48: a reader that goes away (`check-config | head -1`) ends the command
/// quietly, exit 0, instead of a panic on the broken pipe.
#[test]
fn a_closed_stdout_ends_a_command_quietly() {
    let dir = tempfile::tempdir().unwrap();
    // A pipe whose only reading end is closed before the child starts: its first
    // write fails with EPIPE (Rust ignores SIGPIPE).
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = bin::command()
        .args(["check-config", "--home"])
        .arg(dir.path().join("h"))
        .stdout(writer)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_eq!(out.status.code(), Some(0), "{err}");
}
