//! Mail hygiene (issue 25 findings 8, 12 and 14): a References header of 60,000 ids is
//! answered at a bounded cost; the characters a reader cannot see (bidi controls,
//! zero-width characters, ESC and other controls) never reach another player's mail,
//! in either part, and every field of a log line is escaped and cut; every file the
//! server writes in its home, spool and outbox is its user's alone whatever the umask,
//! while the web site's pages stay readable by all.

use std::path::{Path, PathBuf};

use crate::support::bin;
use crate::support::mail::plain;
use crate::support::server::{Sent, TestServer};

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";

/// The characters the issue names, each once, around the words a player typed.
const HIDDEN: &str = "\u{202E}gpj.exe \u{2066}nice\u{2069} \u{200B}move\u{FEFF}\u{1b}[2J \
                      \u{200E}\u{200F}\u{061C}\u{202A}\u{202B}\u{202C}\u{202D}\u{2067}\u{2068}\
                      \u{200C}\u{200D}\u{2060}\u{7}\u{85}\u{9b}!";

/// What is left of [`HIDDEN`]: the visible characters, as typed.
const SHOWN: &str = "gpj.exe nice move[2J !";

/// Whether `text` holds a character the server removes from players' text.
fn has_hidden(text: &str) -> bool {
    text.contains(yinsh_pbem::mail::hidden::is_hidden)
}

/// The one mail of `replies` to `address`.
#[track_caller]
fn to<'a>(replies: &'a [Sent], address: &str) -> &'a Sent {
    let mine: Vec<&Sent> = replies.iter().filter(|m| m.to == [address]).collect();
    assert_eq!(mine.len(), 1, "one mail to {address}: {replies:?}");
    mine[0]
}

/// A server with alice and bob signed up and board 101 started (alice to play).
fn game() -> TestServer {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    s
}

/// Issue 25 finding 8: a mail whose References names 60,000 ids (a quadratic removal
/// of repeats took 15 s of CPU) is answered; the reply threads under the first and the
/// latest of them, at most 20.
#[test]
fn a_mail_with_60000_references_is_answered() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    let ids: String = (0..60_000).map(|i| format!("\n <r{i}@x>")).collect();
    let raw = s.mail(ALICE, "yinsh help", "");
    let raw = raw.replacen("\nTo: ", &format!("\nReferences:{ids}\nTo: "), 1);
    let r = s.send_raw(raw.as_bytes());
    assert_eq!(r.len(), 1, "{r:?}");
    let refs = &r[0].references;
    assert!(refs.len() <= 20, "{refs:?}");
    assert_eq!(refs.first().map(String::as_str), Some("r0@x"), "{refs:?}");
    assert!(refs.iter().any(|id| id == "r59999@x"), "{refs:?}");
    assert_eq!(refs.last(), r[0].in_reply_to.as_ref());
}

/// Issue 25 finding 12: bidi controls, zero-width characters, ESC and the other
/// control characters a player types with a move or a chat reach neither the text
/// nor the HTML part of the other players' mails; what is visible of the text does.
#[test]
fn hidden_characters_reach_no_other_player() {
    let mut s = game();
    let r = s.send(ALICE, "yinsh move 101 alice apw e5", HIDDEN);
    let r = [to(&r, "bob@example.org").clone()];
    let r2 = s.send(ALICE, "yinsh chat 101 alice apw", HIDDEN);
    assert!(r[0].html.is_some(), "the board mail has an HTML part");
    for m in r.iter().chain([to(&r2, "bob@example.org")]) {
        assert!(m.body.contains(SHOWN), "{}", m.body);
        assert!(!has_hidden(&m.body.replace('\r', "")), "{:?}", m.body);
        if let Some(html) = &m.html {
            assert!(html.contains(SHOWN), "{html}");
            assert!(!has_hidden(&html.replace('\r', "")), "{html:?}");
        }
    }
    let game = s.game_file(101).to_string();
    assert!(!has_hidden(&game), "{game}");
    // Nor in a Subject: a zero-width look-alike of a userid is that userid.
    let r = s.send(
        "Mallory <mallory@example.org>",
        "signup bo\u{200B}b mpw",
        "",
    );
    assert!(
        r[0].body.contains("The userid bob is already taken"),
        "{}",
        r[0].body
    );
}

/// Issue 25 finding 12: a 5,000-character Message-ID with U+202E, and a Subject with
/// ESC and a line separator, are written to the log escaped (`\u{202e}`) and cut with
/// a mark; no log line holds a hidden character or grows with them.
#[test]
fn log_fields_from_a_mail_are_escaped_and_cut() {
    let mut s = game();
    let id = format!("{}\u{202E}evil@x", "i".repeat(5000));
    let raw = plain(ALICE, "yinsh \u{1b}[2Jhelp\u{2028}x", &id, "hi\n");
    s.send_raw(raw.as_bytes());
    let log = s.log();
    assert!(
        !log.chars()
            .any(|c| c != '\n' && (yinsh_pbem::mail::hidden::is_hidden(c) || c == '\u{2028}'))
    );
    assert!(log.contains("[cut: "), "{log}");
    for line in log.lines() {
        assert!(line.chars().count() < 1000, "{line}");
    }
    let short = plain(ALICE, "yinsh help", "a\u{202E}b@x", "hi\n");
    s.send_raw(short.as_bytes());
    assert!(s.log().contains(r"a\u{202e}b@x"), "{}", s.log());
}

/// Runs `yinsh-pbem deliver` on `raw` under `sh -c 'umask 000; ...'`, address
/// confirmation on, at `now`.
fn deliver_with_umask_0(home: &Path, now: u64, raw: &str) {
    let mut cmd = bin::command_of(Path::new("sh"));
    cmd.arg("-c")
        .arg("umask 000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_yinsh-pbem"))
        .arg("deliver")
        .arg("--home")
        .arg(home)
        .env("YINSH_PBEM_NOW", now.to_string())
        .envs(bin::confirming());
    let out = assert_cmd::Command::from_std(cmd)
        .write_stdin(raw.as_bytes().to_vec())
        .output()
        .expect("deliver");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

/// Every file and folder under `dir`, with its mode (permission bits only).
#[cfg(unix)]
fn modes(dir: &Path) -> Vec<(PathBuf, bool, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let path = entry.expect("entry").path();
        let meta = std::fs::metadata(&path).expect("metadata");
        out.push((
            path.clone(),
            meta.is_dir(),
            meta.permissions().mode() & 0o777,
        ));
        if meta.is_dir() {
            out.extend(modes(&path));
        }
    }
    out
}

/// Issue 25 finding 14: run with umask 000, every file the server writes in its home
/// (accounts with their verify codes, the journal, the reply key, the log, the
/// spool) and every outbox `.eml` (tokens, verify codes) is mode 0600, and the spool
/// and outbox folders 0700; the web site's pages are 0644, its folders 0755.
#[cfg(unix)]
#[test]
fn files_holding_tokens_and_codes_are_private_whatever_the_umask() {
    let s = TestServer::with_binary();
    let home = s.home();
    let site = home.with_file_name("site");
    std::fs::create_dir_all(&home).expect("home");
    let config = format!(
        "[site]\nout = \"{}\"\nurl = \"https://example.net/y\"\n",
        site.display()
    );
    std::fs::write(home.join("config.toml"), config).expect("config");
    let mut now = s.now;
    let mut deliver = |from: &str, subject: &str| {
        now += 60;
        let raw = plain(from, subject, &format!("umask-{now}@example.org"), "\n");
        deliver_with_umask_0(&home, now, &raw);
    };
    deliver(ALICE, "signup alice apw");
    deliver(BOB, "signup bob bpw");
    deliver(ALICE, "yinsh challenge alice bob");
    let home_modes = modes(&home);
    let files: Vec<_> = home_modes.iter().filter(|(_, dir, _)| !dir).collect();
    assert!(
        files
            .iter()
            .any(|(p, ..)| p.ends_with("accounts/alice.json")),
        "{files:?}"
    );
    assert!(
        files
            .iter()
            .any(|(p, ..)| p.extension().is_some_and(|x| x == "eml")),
        "{files:?}"
    );
    for (path, dir, mode) in &home_modes {
        if path.ends_with("config.toml") {
            continue; // the operator's, written by the test
        }
        match dir {
            false => assert_eq!(*mode, 0o600, "{}", path.display()),
            true => assert_eq!(mode & 0o022, 0, "{} is {mode:o}", path.display()),
        }
    }
    for private in ["outbox", "spool", "accounts", "journal"] {
        let dir = home_modes.iter().find(|(p, ..)| *p == home.join(private));
        assert_eq!(dir.map(|d| d.2), Some(0o700), "{private}: {home_modes:?}");
    }
    let site_modes = modes(&site);
    assert!(
        site_modes.iter().any(|(p, ..)| p.ends_with("index.html")),
        "{site_modes:?}"
    );
    for (path, dir, mode) in site_modes {
        if path.ends_with(".lock") {
            continue;
        }
        let want = if dir { 0o755 } else { 0o644 };
        assert_eq!(mode, want, "{}", path.display());
    }
}
