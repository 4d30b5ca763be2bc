//! The duplicate-mail guard and the storm counts (issue 13 §4): one form of a
//! Message-ID (exactly as written) and of a sender (lower-cased), file names no text
//! can be made to share, and marks and counts that expire instead of piling up.

use std::path::{Path, PathBuf};

use yinsh_pbem::mail::Transport;
use yinsh_pbem::server::store::{RateLimit, SEEN_DAYS, Store, key_name};
use yinsh_pbem::server::{Settings, deliver};

const NOW: u64 = 1_795_384_020;
const DAY: u64 = 86_400;

fn settings(home: &Path, now: u64) -> Settings {
    let mut s = Settings::defaults(home.to_path_buf());
    s.transport = Transport::Outbox(home.join("outbox"));
    s.now = Some(now);
    s.rate_limit = RateLimit {
        max: 1000,
        period: 3600,
    };
    s
}

/// Deliver a mail from `from` with this Subject and Message-ID at `now`; returns how
/// many replies it made.
fn send(home: &Path, now: u64, from: &str, subject: &str, id: &str) -> usize {
    let outbox = |h: &Path| std::fs::read_dir(h.join("outbox")).map_or(0, |d| d.count());
    let before = outbox(home);
    let raw = format!(
        "From: {from}\nTo: yinsh@localhost\nSubject: {subject}\nMessage-ID: <{id}>\n\nhi\n"
    );
    deliver(raw.as_bytes(), raw.len(), None, &settings(home, now)).expect("deliver");
    outbox(home) - before
}

fn home() -> (tempfile::TempDir, PathBuf) {
    let dir = crate::support::tmp::dir();
    let home = dir.path().join("home");
    assert_eq!(
        send(
            &home,
            NOW,
            "alice@example.org",
            "signup alice apw",
            "s1@a.org"
        ),
        1
    );
    assert_eq!(
        send(&home, NOW, "bob@example.org", "signup bob bpw", "s2@b.org"),
        1
    );
    (dir, home)
}

/// alice challenges bob with a mail of this Message-ID at `now`; how many replies: a
/// new challenge makes three (the board mail to each player, and, as the body "hi" is
/// a message that a challenge without `-password` does not pass on, the sender told
/// so: issue 26 finding 5).
fn challenge(home: &Path, now: u64, id: &str) -> usize {
    send(
        home,
        now,
        "alice@example.org",
        "yinsh challenge alice bob",
        id,
    )
}

fn boards(home: &Path) -> usize {
    std::fs::read_dir(home.join("boards")).map_or(0, |d| d.count())
}

#[test]
fn regression_a_case_variant_message_id_does_not_unmark_the_original() {
    let (_dir, home) = home();
    let id = "Chal-1.XyZ@Example.org";
    assert_eq!(challenge(&home, NOW, id), 3);
    assert_eq!(boards(&home), 1);
    // Someone who saw the Message-ID sends `help` under case variants of it.
    for variant in [
        id.to_ascii_lowercase(),
        id.to_ascii_uppercase(),
        "chal-1.XyZ@example.org".into(),
    ] {
        assert_eq!(
            send(&home, NOW + 60, "mallory@example.org", "help", &variant),
            1,
            "{variant}"
        );
    }
    // The original, delivered again by the mail system, is still a duplicate.
    assert_eq!(challenge(&home, NOW + 120, id), 0);
    assert_eq!(boards(&home), 1, "a second board was created");
    let store = Store::open(&home).expect("store");
    assert!(store.seen(id));
    assert!(store.seen(&id.to_ascii_lowercase()));
    assert!(!store.seen("chal-1.xyz@example.org "), "compared exactly");
}

#[test]
fn a_file_under_a_message_ids_name_holding_another_text_is_no_mark() {
    // What a forged collision of names would give: the victim's file name holding the
    // attacker's Message-ID. It marks neither, and the attacker's own mark goes to its
    // own name, leaving the victim's alone.
    let (_dir, home) = home();
    let victim = "victim-1@example.org";
    let attacker = "attacker-1@example.org";
    assert_eq!(challenge(&home, NOW, victim), 3);
    let store = Store::open(&home).expect("store");
    let marks: Vec<PathBuf> = walk(&home.join("seen"))
        .into_iter()
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n == key_name(victim).as_str())
        })
        .collect();
    assert_eq!(marks.len(), 1, "{marks:?}");
    let original = std::fs::read(&marks[0]).expect("mark");
    std::fs::write(&marks[0], format!("{attacker}\n")).expect("forge");
    assert!(!store.seen(victim) && !store.seen(attacker));
    std::fs::write(&marks[0], original).expect("restore");
    assert_eq!(
        send(&home, NOW + 60, "mallory@example.org", "help", attacker),
        1
    );
    assert!(store.seen(victim) && store.seen(attacker));
    assert_eq!(challenge(&home, NOW + 120, victim), 0);
    assert_eq!(boards(&home), 1);
    // The 64-bit FNV names of the earlier layout are read (compared by content) but
    // never written: no forged collision with them can touch a new mark.
    assert!(walk(&home.join("seen")).iter().all(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.len() == 64 || n == ".expired-on")
    }));
}

#[test]
fn a_seen_mark_of_the_earlier_layout_is_still_honoured() {
    let (_dir, home) = home();
    let id = "Old-1@example.org";
    // Written as the earlier version did: FNV-1a 64 of the lower-cased ID, the ID inside.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in id.to_ascii_lowercase().bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    std::fs::write(
        home.join("seen").join(format!("{h:016x}")),
        format!("{id}\n"),
    )
    .expect("old mark");
    assert_eq!(challenge(&home, NOW, id), 0);
    assert_eq!(boards(&home), 0);
    // A case variant is another mail.
    assert_eq!(
        send(
            &home,
            NOW,
            "alice@example.org",
            "help",
            &id.to_ascii_lowercase()
        ),
        1
    );
}

#[test]
fn a_case_variant_of_a_sender_counts_against_the_same_limit() {
    let dir = crate::support::tmp::dir();
    let home = dir.path().join("home");
    let mut s = settings(&home, NOW);
    s.rate_limit = RateLimit {
        max: 2,
        period: 3600,
    };
    let mut replies = 0;
    for (k, from) in ["al@example.org", "AL@Example.ORG", "Al@example.org"]
        .iter()
        .enumerate()
    {
        let raw = format!("From: {from}\nSubject: help\nMessage-ID: <r{k}@x.org>\n\nhi\n");
        let before = std::fs::read_dir(home.join("outbox")).map_or(0, |d| d.count());
        deliver(raw.as_bytes(), raw.len(), None, &s).expect("deliver");
        replies += std::fs::read_dir(home.join("outbox")).map_or(0, |d| d.count()) - before;
    }
    // Two answered, the third dropped with the one notice: still three mails, but the
    // third is the notice, not a help text.
    assert_eq!(replies, 3);
    let log = std::fs::read_to_string(home.join("log/yinsh-pbem.log")).expect("log");
    assert!(log.contains("over the limit of 2 mails"), "{log}");
    assert_eq!(
        std::fs::read_dir(home.join("rate")).expect("rate").count(),
        1
    );
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.path().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

fn day_folders(home: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(home.join("seen"))
        .expect("seen")
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn seen_marks_and_storm_counts_expire() {
    let (_dir, home) = home();
    let id = "first@example.org";
    assert_eq!(challenge(&home, NOW, id), 3);
    assert_eq!(day_folders(&home), ["2026-11-22"]);
    assert_eq!(
        std::fs::read_dir(home.join("rate")).expect("rate").count(),
        2
    );
    // Redelivered within the kept days: still a duplicate; the day's folder stays.
    let later = NOW + (SEEN_DAYS - 1) * DAY;
    assert_eq!(challenge(&home, later, id), 0);
    assert_eq!(boards(&home), 1);
    // A mail the next day: its own day's folder is added, the first is kept, and the
    // storm counts whose period is over are gone (carol's own is the one left).
    assert_eq!(
        send(&home, later + DAY, "carol@example.org", "help", "h1@c.org"),
        1
    );
    assert_eq!(day_folders(&home), ["2026-11-22", "2026-12-22"]);
    let rate: Vec<_> = std::fs::read_dir(home.join("rate"))
        .expect("rate")
        .flatten()
        .collect();
    assert_eq!(rate.len(), 1);
    assert_eq!(
        rate[0].file_name().to_string_lossy(),
        format!("{}.json", key_name("carol@example.org"))
    );
    // Past the kept days, the first day's marks are removed as one folder; expiry
    // runs at most once a day, so a folder put back the same day stays until tomorrow.
    let expired = NOW + (SEEN_DAYS + 1) * DAY;
    assert_eq!(
        send(&home, expired, "carol@example.org", "help", "h2@c.org"),
        1
    );
    assert_eq!(day_folders(&home), ["2026-12-22", "2026-12-23"]);
    std::fs::create_dir_all(home.join("seen/2020-01-01")).expect("old folder");
    assert_eq!(
        send(&home, expired + 60, "carol@example.org", "help", "h3@c.org"),
        1
    );
    assert!(
        home.join("seen/2020-01-01").exists(),
        "expiry ran twice in a day"
    );
    assert_eq!(
        send(
            &home,
            expired + DAY,
            "carol@example.org",
            "help",
            "h4@c.org"
        ),
        1
    );
    assert!(!home.join("seen/2020-01-01").exists());
    let log = std::fs::read_to_string(home.join("log/yinsh-pbem.log")).expect("log");
    assert!(
        log.contains("expired 1 old seen marks and storm counts"),
        "{log}"
    );
}

#[test]
fn failed_login_records_expire_with_the_storm_counts() {
    let (_dir, home) = home();
    assert_eq!(
        send(
            &home,
            NOW + 60,
            "mallory@example.org",
            "yinsh showas alice wrong",
            "fl1@m.org"
        ),
        1
    );
    let logins = |h: &Path| std::fs::read_dir(h.join("logins")).map_or(0, |d| d.count());
    assert_eq!(logins(&home), 1, "the wrong password is recorded");
    // The next day, expiry removes the record whose hour is over.
    assert_eq!(
        send(&home, NOW + DAY, "mallory@example.org", "help", "fl2@m.org"),
        1
    );
    assert_eq!(logins(&home), 0, "logins/ keeps no record past its hour");
}
