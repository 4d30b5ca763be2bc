//! Issue 49, the open seeks, by mail: a seek taken (both players mailed, the game
//! played), two seeks that fit paired at once, a seek expired by tick (its owner
//! mailed once), withdrawn, answered by the robot it asked for after a day; the
//! limits (a fourth seek, the server's cap, the rating range, one's own seek, an
//! account without a confirmed address); an unrated seek's game rates nobody; and a
//! stranger's seeks, takes and withdrawals (forged From, no or a wrong password, an
//! unconfirmed account) held to the stranger's budget, no mail to any other player.

use crate::browser::{DrivenPage, Scheme};
use crate::support::bin;
use crate::support::sent::{ALICE, BOB, CAROL, mails_to, one_to};
use crate::support::server::{Runs, Sent, TestServer, assert_says};
use crate::support::turns::random_turns;

const DAY: u64 = 86_400;
const A: &str = "alice@example.org";
const B: &str = "bob@example.org";
const C: &str = "carol@example.org";

/// A confirming server with alice (`apw`), bob (`bpw`) and carol (`cpw`) confirmed.
fn server(runs: Runs) -> TestServer {
    let mut s = match runs {
        Runs::Binary => TestServer::with_binary(),
        Runs::InProcess => TestServer::new(),
    };
    s.envs = bin::confirming().to_vec();
    s.envs.push(("YINSH_PBEM_ROBOT_THINK_MS", "50"));
    s.confirmed("alice", "apw", A);
    s.confirmed("bob", "bpw", B);
    s.confirmed("carol", "cpw", C);
    s
}

/// The seeks file as the store holds it.
fn seeks_file(s: &TestServer) -> serde_json::Value {
    std::fs::read_to_string(s.home().join("seeks.json"))
        .map(|t| serde_json::from_str(&t).expect("seeks json"))
        .unwrap_or(serde_json::json!({"next": 1, "open": []}))
}

/// The numbers of the open seeks.
fn open(s: &TestServer) -> Vec<u64> {
    seeks_file(s)["open"]
        .as_array()
        .expect("open")
        .iter()
        .map(|o| o["id"].as_u64().expect("id"))
        .collect()
}

/// The one mail of `sent` whose Subject is `subject`, to `address`.
#[track_caller]
fn titled(sent: &[Sent], address: &str, subject: &str) -> Sent {
    let mine: Vec<Sent> = mails_to(sent, address)
        .into_iter()
        .filter(|m| m.subject == subject)
        .collect();
    assert_eq!(mine.len(), 1, "one {subject:?} to {address}: {sent:?}");
    mine[0].clone()
}

fn boards(s: &TestServer) -> usize {
    std::fs::read_dir(s.home().join("boards")).map_or(0, |d| d.count())
}

/// Taken, through the real binary: alice posts, bob finds it in `yinsh seeks` and
/// takes it; both get the new game's mail naming the seek, bob (the taker) plays
/// White, and his move is played.
#[test]
fn a_seek_taken_starts_the_game_and_mails_both_players() {
    let mut s = server(Runs::Binary);
    let r = s.send(ALICE, "yinsh seek alice apw -rating=1500-1700", "");
    let posted = one_to(&r, A);
    assert_eq!(posted.subject, "Yinsh open seeks");
    assert_says(
        &posted,
        "Your open seek #1 is posted: a rated normal game against a player rated 1500-1700.",
    );
    assert_says(&posted, "yinsh take 1 <userid> <password>");
    assert_eq!(r.len(), 1, "nobody else is mailed: {r:?}");
    assert_eq!(open(&s), [1]);
    let r = s.send(BOB, "yinsh seeks", "");
    let list = one_to(&r, B);
    assert!(
        list.body.lines().any(|l| l.contains("#1")
            && l.contains("alice")
            && l.contains("1600")
            && l.contains("normal")
            && l.contains("rated")
            && l.contains("1500-1700")),
        "{}",
        list.body
    );
    let r = s.send(BOB, "yinsh take 1 bob bpw", "");
    let (a, b) = (one_to(&r, A), one_to(&r, B));
    for m in [&a, &b] {
        assert!(m.subject.starts_with("New Yinsh Board 101"), "{m:?}");
        assert_says(m, "This game began with open seek #1.");
    }
    let game = s.game_file(101);
    assert_eq!(game["white"], "bob", "the taker plays White");
    assert_eq!(game["black"], "alice");
    assert_eq!(game["extra"]["seek"], 1);
    assert!(open(&s).is_empty(), "taken, it is no longer open");
    let r = s.send(BOB, "yinsh move 101 bob bpw e5", "");
    assert!(!r.is_empty());
    assert_eq!(s.game_file(101)["turns"].as_array().map(Vec::len), Some(1));
    // Taken once: a second taker is told it is gone.
    let r = s.send(CAROL, "yinsh take 1 carol cpw", "");
    assert_says(&one_to(&r, C), "There is no open seek #1");
    assert_eq!(boards(&s), 1);
}

/// Paired at once: bob's seek fits alice's (blitz, rated, each inside the other's
/// range, colours both can have), so the game starts when he posts it; carol's
/// normal seek fits neither and is posted.
#[test]
fn two_seeks_that_fit_are_paired_at_once() {
    let mut s = server(Runs::InProcess);
    s.send(ALICE, "yinsh seek alice apw -blitz -black", "");
    let r = s.send(CAROL, "yinsh seek carol cpw", "");
    assert_says(&one_to(&r, C), "Your open seek #2 is posted");
    // Wants White too: would fit, except bob asks a range alice is outside of.
    let r = s.send(BOB, "yinsh seek bob bpw -blitz -rating=1700-1800", "");
    assert_says(&one_to(&r, B), "Your open seek #3 is posted");
    assert_eq!(open(&s), [1, 2, 3]);
    s.send(BOB, "yinsh withdraw 3 bob bpw", "");
    let r = s.send(BOB, "yinsh seek bob bpw -blitz -white", "");
    let (a, b) = (one_to(&r, A), one_to(&r, B));
    for m in [&a, &b] {
        assert!(m.subject.starts_with("New Yinsh Board 101"), "{m:?}");
        assert_says(m, "This game began with open seek #1.");
        assert_says(m, "This is a blitz game");
    }
    let game = s.game_file(101);
    assert_eq!(
        (&game["white"], &game["black"]),
        (&"bob".into(), &"alice".into())
    );
    assert_eq!(game["variant"], "blitz");
    assert_eq!(open(&s), [2], "alice's is taken, bob's never posted");
}

/// Expired: tick removes a seek three days after it was posted and tells its owner
/// once; before then it says nothing.
#[test]
fn tick_expires_a_seek_and_tells_its_owner_once() {
    let mut s = server(Runs::InProcess);
    s.send(ALICE, "yinsh seek alice apw -unrated", "");
    let posted_at = s.now;
    assert!(s.tick(posted_at + DAY).is_empty());
    assert_eq!(open(&s), [1]);
    let r = s.tick(posted_at + 3 * DAY + 1);
    let told = one_to(&r, A);
    assert_eq!(told.subject, "Yinsh open seeks");
    assert_says(
        &told,
        "Nobody took your open seek #1 (an unrated normal game)",
    );
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(open(&s).is_empty());
    assert!(s.tick(posted_at + 4 * DAY).is_empty(), "told once");
    assert_eq!(boards(&s), 0);
}

/// Withdrawn: only by its owner (`withdraw`, or `unseek`); then nobody takes it.
#[test]
fn a_seek_is_withdrawn_by_its_owner_only() {
    let mut s = server(Runs::InProcess);
    s.send(ALICE, "yinsh seek alice apw", "");
    s.send(ALICE, "yinsh seek alice apw -blitz", "");
    let r = s.send(BOB, "yinsh withdraw 1 bob bpw", "");
    assert_says(&one_to(&r, B), "Seek #1 is not yours");
    assert_eq!(open(&s), [1, 2]);
    let r = s.send(ALICE, "yinsh withdraw 1 alice apw", "");
    assert_says(&one_to(&r, A), "Your open seek #1 is withdrawn.");
    let r = s.send(ALICE, "yinsh unseek 2 alice apw", "");
    assert_says(&one_to(&r, A), "Your open seek #2 is withdrawn.");
    assert!(open(&s).is_empty());
    let r = s.send(BOB, "yinsh take 1 bob bpw", "");
    assert_says(&one_to(&r, B), "There is no open seek #1");
    let r = s.send(BOB, "yinsh seeks", "");
    assert_says(&one_to(&r, B), "No seek is open.");
    assert_eq!(boards(&s), 0);
}

/// Answered by a robot: nobody took alice's `-robot=2 -black` seek within a day, so
/// tick starts robot2's game (robot2 White, to move, plays its turn) and mails her.
#[test]
fn a_robot_takes_a_seek_nobody_took_within_a_day() {
    let mut s = server(Runs::InProcess);
    let r = s.send(ALICE, "yinsh seek alice apw -robot=2 -black", "");
    assert_says(&one_to(&r, A), "robot2 plays you, as you asked.");
    let posted_at = s.now;
    assert!(s.tick(posted_at + DAY - 60).is_empty(), "not yet a day");
    assert_eq!(boards(&s), 0);
    let r = s.tick(posted_at + DAY);
    let start = titled(&r, A, "New Yinsh Board 101 robot2");
    assert_says(
        &start,
        "This game began with open seek #1: nobody took it within a day, so robot2 plays it, as asked.",
    );
    let game = s.game_file(101);
    assert_eq!(
        (&game["white"], &game["black"]),
        (&"robot2".into(), &"alice".into())
    );
    assert_eq!(game["extra"]["seek"], 1);
    assert_eq!(
        game["turns"].as_array().map(Vec::len),
        Some(1),
        "the robot's first turn was played: {r:?}"
    );
    assert!(mails_to(&r, A).len() >= 2, "and alice told of it: {r:?}");
    assert!(open(&s).is_empty());
    assert!(
        s.tick(posted_at + 2 * DAY)
            .iter()
            .all(|m| !m.subject.contains("open seeks"))
    );
}

/// The limits: a fourth seek is refused naming the three; the server's cap; the
/// rating range parsed strictly and held to; one's own seek; an account without a
/// confirmed address.
#[test]
fn the_limits_of_seeks_hold() {
    let mut s = server(Runs::InProcess);
    for _ in 0..3 {
        s.send(ALICE, "yinsh seek alice apw", "");
    }
    let r = s.send(ALICE, "yinsh seek alice apw -blitz", "");
    assert_says(
        &one_to(&r, A),
        "You have 3 open seeks already (#1, #2, #3), the most one player may have",
    );
    assert_eq!(open(&s), [1, 2, 3]);
    let r = s.send(ALICE, "yinsh take 2 alice apw", "");
    assert_says(&one_to(&r, A), "Seek #2 is your own");
    // Ranges written wrong are refused before anything is done.
    for bad in [
        "-rating=1800-1400",
        "-rating=1400",
        "-rating=14oo-1800",
        "-rating=0-99999",
        "-robot=6",
    ] {
        let r = s.send(BOB, &format!("yinsh seek bob bpw {bad}"), "");
        assert_says(
            &one_to(&r, B),
            "does not fit the command's syntax: yinsh seek",
        );
    }
    s.send(BOB, "yinsh seek bob bpw -blitz -rating=1700-2000", "");
    let bobs = *open(&s).last().expect("bob's");
    let r = s.send(CAROL, &format!("yinsh take {bobs} carol cpw"), "");
    assert_says(
        &one_to(&r, C),
        &format!("Seek #{bobs} is for players rated 1700-2000; your rating in its games is 1600"),
    );
    assert!(open(&s).contains(&bobs));
    // An account whose address is not confirmed neither posts nor takes.
    s.send("Dan <dan@example.net>", "signup dan dpw", "");
    let r = s.send("Dan <dan@example.net>", "yinsh seek dan dpw", "");
    assert_says(
        &one_to(&r, "dan@example.net"),
        "Only an account with a confirmed address may post or take an open seek",
    );
    let r = s.send("Dan <dan@example.net>", "yinsh take 1 dan dpw", "");
    assert_says(
        &one_to(&r, "dan@example.net"),
        "Only an account with a confirmed address",
    );
    assert!(mails_to(&r, A).is_empty());
    assert_eq!(boards(&s), 0);
    // The server's cap: 200 open seeks (of players who signed off since: taken by none).
    let mut file = seeks_file(&s);
    let list = file["open"].as_array_mut().expect("open");
    for k in 100..300 - list.len() as u64 {
        list.push(serde_json::json!({"id": k, "owner": format!("zed{k}"), "posted": s.now,
            "expires": s.now + 3 * DAY, "wish": {"variant": "normal", "rated": true, "colour": "white"}}));
    }
    std::fs::write(s.home().join("seeks.json"), file.to_string()).expect("write");
    assert_eq!(open(&s).len(), 200);
    let r = s.send(CAROL, "yinsh seek carol cpw -blitz -white", "");
    assert_says(
        &one_to(&r, C),
        "The server has 200 open seeks, the most it keeps at a time",
    );
    assert_eq!(open(&s).len(), 200);
}

/// An unrated seek's game says so in its mails and changes nobody's rating when it
/// ends after the ring placement.
#[test]
fn an_unrated_seeks_game_rates_nobody() {
    let mut s = server(Runs::InProcess);
    s.send(ALICE, "yinsh seek alice apw -unrated -white", "");
    let r = s.send(BOB, "yinsh take 1 bob bpw", "");
    assert_says(
        &one_to(&r, A),
        "This game is unrated: it changes nobody's rating.",
    );
    assert_eq!(s.game_file(101)["extra"]["unrated"], true);
    s.fast_forward(101, &random_turns(7, 12));
    let r = s.send(ALICE, "yinsh show 101", "");
    assert_says(&one_to(&r, A), "This game is unrated");
    let r = s.send(ALICE, "yinsh resign 101 alice apw", "");
    let end = one_to(&r, B);
    assert_says(&end, "This game was not rated.");
    assert!(!end.body.contains("1600 ->"), "{}", end.body);
}

/// The attacker: seeks, takes, withdrawals and listings from a forged From (no
/// password, a wrong one), with a Reply-To of a player, and from an account that
/// never confirmed its address, change nothing and reach no player but the address
/// the mail names, within the stranger's budget (10 a day to a mailbox).
#[test]
fn a_strangers_seek_commands_reach_nobody_beyond_the_budget() {
    let mut s = server(Runs::InProcess);
    s.send(ALICE, "yinsh seek alice apw", "");
    let before = s.outbox_files();
    s.send("Mallory <mallory@evil.test>", "signup mal mpw", "");
    let forged = [
        (ALICE, "yinsh withdraw 1 alice"),
        (ALICE, "yinsh withdraw 1 alice wrong-pw"),
        (ALICE, "yinsh seek alice wrong-pw -robot=5"),
        (BOB, "yinsh take 1 bob wrong-pw"),
        (BOB, "yinsh take 1 bob"),
        (BOB, "yinsh seek bob -blitz"),
        ("mallory@evil.test", "yinsh take 1 mal mpw"),
        ("mallory@evil.test", "yinsh seek mal mpw"),
        ("mallory@evil.test", "yinsh withdraw 1 mal mpw"),
        ("mallory@evil.test", "yinsh take 1 alice apw-guess"),
    ];
    let mut sent = Vec::new();
    for round in 0..3 {
        for (from, line) in forged {
            sent.extend(s.send(from, line, "Take this, victim"));
        }
        sent.extend(s.send_with_reply_to(
            "x@forged.example",
            if round % 2 == 0 { A } else { B },
            "yinsh seeks",
            "",
        ));
        sent.extend(s.send_with_reply_to("y@forged.example", C, "yinsh take 1 carol wrong", ""));
    }
    assert_eq!(open(&s), [1], "alice's seek as it was, no other");
    assert_eq!(boards(&s), 0, "no game started");
    for victim in [A, B, C] {
        let got = mails_to(&sent, victim);
        assert!(got.len() <= 10, "{} mails to {victim}", got.len());
        for m in &got {
            assert!(!m.subject.contains("New Yinsh Board"), "{m:?}");
            assert!(
                !m.raw.contains("Take this"),
                "a stranger's words reached {victim}: {}",
                m.raw
            );
        }
    }
    let all = s.sent_since(&before);
    for m in &all {
        let to_players = m.to.iter().any(|t| [A, B, C].contains(&t.as_str()));
        let to_attacker = m.to.iter().any(|t| t.ends_with("evil.test"));
        assert!(to_players || to_attacker, "{m:?}");
    }
    // The unconfirmed address gets its own small budget (5 a day), nothing more.
    assert!(mails_to(&all, "mallory@evil.test").len() <= 5, "{all:?}");
}

/// The site's index lists the open seeks in a table a screen reader can read (a
/// caption, column headers), refreshed when only the seeks changed; with Chromium
/// and axe-core at hand, axe finds nothing serious on it.
#[test]
fn the_sites_index_lists_the_open_seeks() {
    let mut s = server(Runs::InProcess);
    let site = s.home().with_file_name("site");
    std::fs::write(
        s.home().join("config.toml"),
        format!("[site]\nout = \"{}\"\n", site.display()),
    )
    .expect("config");
    s.send(
        ALICE,
        "yinsh seek alice apw -blitz -unrated -rating=1400-1800 -robot=4",
        "",
    );
    s.send(BOB, "yinsh seek bob bpw -white", "");
    let index = std::fs::read_to_string(site.join("index.html")).expect("index");
    assert!(
        index.contains("<h2 id=\"seeks\">Open seeks</h2>"),
        "{index}"
    );
    assert!(
        index.contains("<caption>Open seeks, oldest first</caption>"),
        "{index}"
    );
    assert!(index.contains("<th scope=\"col\">Player</th>"), "{index}");
    assert!(
        index.contains("<tr><td>1</td><td>alice</td><td>1600</td><td>blitz</td><td>unrated</td><td>1400-1800</td><td>robot4</td>"),
        "{index}"
    );
    assert!(index.contains("<td>bob (plays White)</td>"), "{index}");
    assert!(
        !index.contains("apw") && !index.contains("example.org"),
        "{index}"
    );
    if let (Some(program), Some(axe)) = (crate::browser::chromium(), crate::browser_axe::axe()) {
        let path = site.join("index.html");
        crate::browser_axe::check_page(&program, &axe, &path, &index, "");
        let page = DrivenPage::new(&path, &index, "");
        page.screenshot_in(&program, "seeks-index.png", 1024, 900, Scheme::Light);
        page.screenshot_in(&program, "seeks-index-phone.png", 390, 900, Scheme::Dark);
        page.close();
    }
    s.send(ALICE, "yinsh withdraw 1 alice apw", "");
    s.send(BOB, "yinsh withdraw 2 bob bpw", "");
    let index = std::fs::read_to_string(site.join("index.html")).expect("index");
    assert!(index.contains("<p>No seek is open.</p>"), "{index}");
}
