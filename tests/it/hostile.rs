//! Hostile input through the real binary: odd userids and board numbers are refused
//! with a reply and touch nothing outside the home; a wrong password changes nothing
//! and is answered as pbmserv did; passwords never reach a mail, the log or a file;
//! huge, deeply nested, broken or binary mail gets a short reply or a logged drop,
//! never a crash (exit 0, nothing on stderr: `TestServer` checks both, a process
//! each: `TestServer::with_binary`).

use std::path::Path;

use crate::support::server::TestServer;

/// Every file under `dir` with its bytes, sorted by path.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.display().to_string(),
                    std::fs::read(&p).unwrap_or_default(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// The game-relevant files only (accounts, boards, counter).
fn records(home: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v = snapshot(&home.join("accounts"));
    v.extend(snapshot(&home.join("boards")));
    v.push((
        "next-board".into(),
        std::fs::read(home.join("next-board")).unwrap_or_default(),
    ));
    v
}

fn with_game() -> TestServer {
    let mut s = TestServer::with_binary();
    s.send("alice@example.org", "signup alice Zq7secretA", "");
    s.send(
        "bob@example.org",
        "signup bob Kx9secretB bob@example.org",
        "",
    );
    assert_eq!(
        s.send("alice@example.org", "yinsh challenge alice bob", "")
            .len(),
        2
    );
    s
}

#[test]
fn odd_userids_and_board_numbers_are_refused_and_touch_nothing_outside_the_home() {
    let mut s = with_game();
    let before = records(&s.home());
    let subjects = [
        "signup ../x pw",
        "signup a/b pw",
        // A NUL (like every control character) is removed from the Subject as it is
        // read (issue 25 finding 12), so this is `signup a/b pw`.
        "signup a\u{0}/b pw",
        "signup élan pw",
        "signup .hidden pw",
        "yinsh move ../101 alice Zq7secretA e5#1",
        "yinsh move -1 alice Zq7secretA e5#1",
        "yinsh move 99999999999 alice Zq7secretA e5#1",
        "yinsh move 101 ../alice Zq7secretA e5#1",
        "yinsh show ../../etc/passwd",
        "yinsh show 99999999999",
        "yinsh move 101 alice/../bob Zq7secretA e5#1",
        "yinsh ../../../bin/sh",
    ];
    for subject in subjects {
        let r = s.send("mallory@example.org", subject, "");
        assert_eq!(r.len(), 1, "{subject:?}: {r:?}");
        assert!(
            r[0].subject.contains("rror") || r[0].body.contains("nvalid"),
            "{subject:?} got {}: {}",
            r[0].subject,
            r[0].body
        );
    }
    assert_eq!(
        records(&s.home()),
        before,
        "a hostile command changed a record"
    );
    // Nothing new outside the home's own folders.
    for (p, _) in snapshot(s.dir.path()) {
        assert!(
            p.starts_with(&s.home().display().to_string()),
            "{p} written outside the home"
        );
    }
}

#[test]
fn a_wrong_password_changes_nothing_and_is_answered_like_pbmserv() {
    let mut s = with_game();
    let before = records(&s.home());
    let r = s.send(
        "alice@example.org",
        "yinsh move 101 alice WrongPw1 e5#1",
        "",
    );
    assert_eq!(r.len(), 1);
    assert!(
        r[0].body.contains("Invalid password entered"),
        "{}",
        r[0].body
    );
    assert!(
        !r[0].raw.contains("WrongPw1"),
        "the wrong password is quoted back"
    );
    let r = s.send(
        "alice@example.org",
        "yinsh move 101 nobody WrongPw1 e5#1",
        "",
    );
    assert!(
        r[0].body.contains("Invalid userid entered"),
        "{}",
        r[0].body
    );
    assert_eq!(records(&s.home()), before);
}

#[test]
fn passwords_never_appear_in_mails_logs_or_files() {
    let mut s = with_game();
    s.send(
        "alice@example.org",
        "yinsh move 101 alice Zq7secretA e5#1",
        "my pw is not here",
    );
    s.send("bob@example.org", "yinsh move 101 bob Kx9secretB f6#2", "");
    s.send(
        "alice@example.org",
        "yinsh move 101 alice Zq7secretA zz9#3",
        "",
    );
    s.send(
        "bob@example.org",
        "yinsh move 101 alice Kx9secretB e4#3",
        "",
    );
    s.send("alice@example.org", "yinsh resign 101 alice Zq7secretA", "");
    for (path, bytes) in snapshot(s.dir.path()) {
        let text = String::from_utf8_lossy(&bytes);
        for pw in ["Zq7secretA", "Kx9secretB"] {
            assert!(!text.contains(pw), "{pw} found in {path}");
        }
    }
}

fn assert_short_reply_or_drop(s: &mut TestServer, raw: &[u8], what: &str) {
    let before = records(&s.home());
    let r = s.send_raw(raw);
    assert!(r.len() <= 1, "{what}: {r:?}");
    for m in &r {
        assert!(
            m.raw.len() < 200_000,
            "{what}: a reply of {} bytes",
            m.raw.len()
        );
    }
    assert_eq!(records(&s.home()), before, "{what} changed a record");
}

#[test]
fn huge_nested_broken_and_binary_mail_never_crashes() {
    let mut s = with_game();
    let big = "x".repeat(3 * 1024 * 1024);
    let cases: Vec<(String, Vec<u8>)> = vec![
        (
            "subject of 3 MB".into(),
            format!("From: m@example.org\nSubject: {big}\nMessage-ID: <h1@x>\n\nhi\n").into_bytes(),
        ),
        (
            "body of 3 MB".into(),
            format!("From: m@example.org\nSubject: help\nMessage-ID: <h2@x>\n\n{big}\n").into_bytes(),
        ),
        ("1000 nested MIME levels".into(), nested(1000)),
        (
            "broken base64".into(),
            b"From: m@example.org\nSubject: help\nMessage-ID: <h4@x>\nContent-Transfer-Encoding: base64\n\n!!!*** not base64 ===\n".to_vec(),
        ),
        (
            "broken quoted-printable".into(),
            b"From: m@example.org\nSubject: help\nMessage-ID: <h5@x>\nContent-Transfer-Encoding: quoted-printable\n\n=ZZ=\n=4\n".to_vec(),
        ),
        (
            "NUL bytes".into(),
            b"From: m@example.org\nSubject: yinsh \0show 101\nMessage-ID: <h6@x>\n\n\0\0\0\n".to_vec(),
        ),
        (
            "invalid UTF-8".into(),
            b"From: m@example.org\nSubject: yinsh show \xff\xfe101\nMessage-ID: <h7@x>\n\n\xc3\x28\n".to_vec(),
        ),
        ("no headers at all".into(), b"\xff\xff\xff".to_vec()),
    ];
    for (what, raw) in cases {
        assert_short_reply_or_drop(&mut s, &raw, &what);
    }
}

fn nested(depth: usize) -> Vec<u8> {
    let mut out =
        String::from("From: m@example.org\nSubject: help\nMessage-ID: <h3@x>\nMIME-Version: 1.0\n");
    for k in 0..depth {
        out.push_str(&format!(
            "Content-Type: multipart/mixed; boundary=\"b{k}\"\n\n--b{k}\n"
        ));
    }
    out.push_str("Content-Type: text/plain\n\nhelp\n");
    for k in (0..depth).rev() {
        out.push_str(&format!("--b{k}--\n"));
    }
    out.into_bytes()
}
