//! Concurrent mail: 50 `deliver` processes started at once on the same board (valid
//! moves, exact duplicates, stale `#moveno`, moves out of turn), and 50 concurrent
//! challenges. The lock must serialise them: the game is what applying each accepted
//! move once gives, each mail gets the reply that matches what happened to it, and
//! board numbers are unique and consecutive.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Child;

use crate::support::bin::spawn_deliver;
use crate::support::server::{Sent, TestServer, read_sent};

fn spawn(home: &Path, now: u64, raw: String) -> Child {
    let (child, written) = spawn_deliver(home, now, &[], raw.as_bytes());
    written.expect("write mail");
    child
}

fn wait_all(children: Vec<Child>) {
    for c in children {
        let out = c.wait_with_output().expect("wait");
        assert_eq!(out.status.code(), Some(0));
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Every reply in the outbox, keyed by the Message-ID it answers.
fn replies_by_mail(s: &TestServer) -> BTreeMap<String, Vec<Sent>> {
    let mut map: BTreeMap<String, Vec<Sent>> = BTreeMap::new();
    for f in s.outbox_files() {
        let sent = read_sent(&f);
        let irt = sent
            .raw
            .lines()
            .find_map(|l| l.strip_prefix("In-Reply-To: "))
            .unwrap_or("")
            .trim()
            .to_string();
        map.entry(irt).or_default().push(sent);
    }
    map
}

fn mail(from: &str, subject: &str, mid: &str) -> String {
    crate::support::mail::plain(from, subject, mid, "")
}

#[test]
fn fifty_simultaneous_mails_on_one_board_apply_exactly_one_move() {
    let mut s = TestServer::new();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw bob@example.org", "");
    assert_eq!(
        s.send("alice@example.org", "yinsh challenge alice bob", "")
            .len(),
        2
    );
    let now = s.now + 60;
    let home = s.home();
    let mut raws = Vec::new();
    let mut expect_error = Vec::new();
    // 10 different valid first moves, each its own mail: only one can be move #1.
    let points = ["e5", "f6", "d4", "c3", "g7", "e4", "e6", "d5", "f5", "c5"];
    for (i, p) in points.iter().enumerate() {
        raws.push(mail(
            "alice@example.org",
            &format!("yinsh move 101 alice apw {p}#1"),
            &format!("valid-{i}@x"),
        ));
    }
    // 15 exact duplicates of valid-0 (same Message-ID): handled at most once.
    for _ in 0..15 {
        raws.push(mail(
            "alice@example.org",
            "yinsh move 101 alice apw e5#1",
            "valid-0@x",
        ));
    }
    // 15 stale move numbers and 10 moves by the player not to move: all refused.
    for i in 0..15 {
        raws.push(mail(
            "alice@example.org",
            "yinsh move 101 alice apw b2#7",
            &format!("stale-{i}@x"),
        ));
        expect_error.push(format!("<stale-{i}@x>"));
    }
    for i in 0..10 {
        raws.push(mail(
            "bob@example.org",
            "yinsh move 101 bob bpw b2#1",
            &format!("bob-{i}@x"),
        ));
        expect_error.push(format!("<bob-{i}@x>"));
    }
    assert_eq!(raws.len(), 50);
    let children: Vec<Child> = raws.into_iter().map(|r| spawn(&home, now, r)).collect();
    wait_all(children);

    let file = s.game_file(101);
    let turns = file["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 1, "exactly one move #1: {turns:?}");
    let played = turns[0]["text"].as_str().unwrap().to_string();
    let winner = points
        .iter()
        .position(|p| *p == played)
        .expect("one of the valid moves");
    let replies = replies_by_mail(&s);
    for (i, _) in points.iter().enumerate() {
        let got = replies
            .get(&format!("<valid-{i}@x>"))
            .cloned()
            .unwrap_or_default();
        if i == winner {
            assert_eq!(
                got.len(),
                2,
                "the accepted move gets one board mail per player"
            );
            assert!(
                got.iter()
                    .all(|m| m.subject.starts_with("Yinsh Board 101")
                        && !m.subject.contains("Error")),
                "{got:?}"
            );
        } else {
            assert_eq!(got.len(), 1, "valid-{i}: {got:?}");
            assert!(got[0].subject.contains("Error"), "{}", got[0].subject);
        }
    }
    for id in &expect_error {
        let got = replies.get(id).cloned().unwrap_or_default();
        assert_eq!(got.len(), 1, "{id}: {got:?}");
        assert!(got[0].subject.contains("Error"), "{id}: {}", got[0].subject);
    }
}

#[test]
fn fifty_simultaneous_challenges_get_unique_consecutive_boards() {
    let mut s = TestServer::new();
    // Ten players, each starting five of the games: an account may have at most ten
    // games waiting for another player's first move (`game::strangers::MAX_WAITING`).
    for k in 0..10 {
        s.send(
            &format!("p{k}@example.org"),
            &format!("signup p{k} pw{k}"),
            "",
        );
    }
    let now = s.now + 60;
    let home = s.home();
    let children: Vec<Child> = (0u32..50)
        .map(|i| {
            let (a, b) = (i % 10, (i + 1) % 10);
            let from = format!("p{a}@example.org");
            let subject = format!("yinsh challenge p{a} p{b}");
            spawn(&home, now, mail(&from, &subject, &format!("ch-{i}@x")))
        })
        .collect();
    wait_all(children);
    let mut boards: Vec<u32> = std::fs::read_dir(home.join("boards"))
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().to_string_lossy().into_owned();
            name.strip_suffix(".json")?.parse().ok()
        })
        .collect();
    boards.sort_unstable();
    assert_eq!(boards, (101..151).collect::<Vec<u32>>());
    let replies = replies_by_mail(&s);
    let mut announced = Vec::new();
    for i in 0..50 {
        let got = replies
            .get(&format!("<ch-{i}@x>"))
            .cloned()
            .unwrap_or_default();
        assert_eq!(got.len(), 2, "ch-{i}: {got:?}");
        let n: u32 = got[0]
            .subject
            .strip_prefix("New Yinsh Board ")
            .and_then(|r| r.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{}", got[0].subject));
        assert!(got.iter().all(|m| m.subject == got[0].subject));
        announced.push(n);
    }
    announced.sort_unstable();
    assert_eq!(announced, boards, "each board announced once");
    let next = std::fs::read_to_string(home.join("next-board")).unwrap();
    assert_eq!(next.trim(), "151");
}
