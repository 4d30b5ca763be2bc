//! A corpus of mails (`tests/data/deliver/*.eml`: LF and CRLF, multipart,
//! quoted-printable, base64, HTML-only, encoded-word and `Re:` subjects, signatures,
//! quoted replies, attachments, and player mistakes) run through the real `deliver`
//! on a game in progress; each one's replies and the game file afterwards are
//! checked by insta snapshots (the clock is injected).

use std::path::PathBuf;

use crate::support::server::{Sent, TestServer};

/// alice and bob signed up, board 101 started, alice has placed her first ring.
fn game_in_progress() -> TestServer {
    let mut s = TestServer::new();
    s.send("Alice <alice@example.org>", "signup alice apw", "");
    s.send("Bob Builder <bob@example.org>", "signup bob bpw", "");
    s.send("Alice <alice@example.org>", "yinsh challenge alice bob", "");
    let r = s.send(
        "Alice <alice@example.org>",
        "yinsh move 101 alice apw e5#1",
        "",
    );
    assert_eq!(r.len(), 2);
    s
}

/// The replies as one stable text: the headers that matter (not the Message-ID,
/// which is unique by design) and the bodies.
fn describe(replies: &[Sent]) -> String {
    let mut out = String::new();
    for r in replies {
        let header = |name: &str| {
            r.raw
                .lines()
                .take_while(|l| !l.is_empty())
                .find(|l| {
                    l.to_ascii_lowercase()
                        .starts_with(&format!("{}:", name.to_ascii_lowercase()))
                })
                .unwrap_or("")
                .to_string()
        };
        assert!(
            header("Message-ID").contains('@'),
            "every reply has a Message-ID"
        );
        out.push_str(&format!(
            "To: {}\nSubject: {}\n{}\n{}\n{}\n{}\n\n{}\n======== end of mail ========\n",
            r.to.join(", "),
            r.subject,
            header("In-Reply-To"),
            header("References"),
            header("Auto-Submitted"),
            header("X-Loop"),
            r.body
        ));
    }
    out
}

#[test]
fn every_corpus_mail_gets_the_expected_replies_and_game_file() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/deliver");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("corpus")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect();
    files.sort();
    assert!(files.len() >= 20);
    for file in files {
        let name = file.file_stem().unwrap().to_string_lossy().into_owned();
        let mut s = game_in_progress();
        let raw = std::fs::read(&file).unwrap();
        let replies = s.send_raw(&raw);
        for r in &replies {
            for pw in ["bpw", "apw", "wrongpw"] {
                assert!(!r.raw.contains(pw), "{name}: a password appears in a reply");
            }
        }
        let game = serde_json::to_string_pretty(&s.game_file(101)).unwrap();
        insta::assert_snapshot!(
            name.clone(),
            format!(
                "{}\n---- boards/101.json ----\n{game}\n",
                describe(&replies)
            )
        );
    }
}
