//! The rest of issue 13's limits, each tried as an attacker would, through the real
//! binary: comments and repeated offers are capped, so mails cannot grow a game file;
//! wrong `verify` codes are counted on their own; `tick`'s mails pass the gate of
//! unconfirmed addresses and `tick` expires old records; games started for two other
//! players are limited per sender and per player each day.

use crate::support::server::{TestServer, assert_says};

const A: &str = "alice@example.org";
const B: &str = "bob@example.org";

/// alice and bob signed up (confirmation off) and board 101 started, alice to move.
fn game() -> TestServer {
    let mut s = TestServer::new();
    s.send(A, "signup alice Apw7xyz", "");
    s.send(B, "signup bob Bpw7xyz", "");
    let r = s.send(A, "yinsh challenge alice bob", "");
    assert!(
        r.iter()
            .any(|m| m.subject.starts_with("New Yinsh Board 101")),
        "{r:#?}"
    );
    s
}

fn file_size(s: &TestServer, board: u32) -> u64 {
    std::fs::metadata(s.home().join(format!("boards/{board}.json")))
        .expect("game file")
        .len()
}

#[test]
fn ten_propose_mails_of_900_kb_leave_a_game_file_under_16_kb() {
    let mut s = game();
    // 900 kB of text in lines, as a mail program would send it.
    let line = "Please accept, this is a very long plea for a draw, repeated. ";
    let body: String =
        std::iter::repeat_n(format!("{line}\n"), 900_000 / (line.len() + 1)).collect();
    assert!(body.len() > 890_000);
    for k in 0..10 {
        let kind = if k % 2 == 0 { "propose" } else { "undo" };
        let r = s.send(A, &format!("yinsh move 101 alice Apw7xyz {kind}"), &body);
        if kind == "undo" {
            // Nothing to take back yet: refused, nothing stored.
            assert_says(&r[0], "take back");
            continue;
        }
        assert_eq!(r.len(), 2, "{r:#?}");
        assert!(
            r.iter().all(|m| m.body.len() < 12_000),
            "the mails carry the cut comment"
        );
        assert_says(&r[0], "[cut at 4000 characters]");
    }
    let size = file_size(&s, 101);
    assert!(size < 16_000, "game file of {size} bytes");
    let comments = s.game_file(101)["comments"]
        .as_array()
        .expect("comments")
        .clone();
    assert_eq!(
        comments.len(),
        1,
        "a repeated offer replaces the earlier comment"
    );
    let text = comments[0]["text"].as_str().expect("text");
    assert!(text.ends_with("\n[cut at 4000 characters]"), "{text}");
    // Moves and answers keep their own comment: bob's reject and alice's next offer.
    s.send(B, "yinsh move 101 bob Bpw7xyz reject", "No thanks");
    s.send(A, "yinsh move 101 alice Apw7xyz propose", "Once more?");
    let comments = s.game_file(101)["comments"]
        .as_array()
        .expect("comments")
        .clone();
    let texts: Vec<&str> = comments.iter().filter_map(|c| c["text"].as_str()).collect();
    assert_eq!(texts, ["No thanks", "Once more?"]);
}

/// Issue 25 finding 7 changed this test: wrong codes were counted as wrong
/// passwords, so forged ones paused the owner's logins and stopped her right code.
#[test]
fn wrong_verify_codes_are_counted_apart_and_a_long_multiple_cannot_guess_one() {
    let mut s = TestServer::confirming();
    let r = s.send(A, "signup alice Apw7xyz", "");
    let code = r
        .iter()
        .find_map(|m| m.subject.strip_prefix("verify alice "))
        .expect("verify mail")
        .to_string();
    // 2,000 guesses in one mail: none confirms anything; the first five are counted
    // as wrong codes (not as wrong passwords), the others refused past the limit.
    let lines: Vec<String> = (0..2000)
        .map(|k| format!("verify alice GUESS{k:05}"))
        .collect();
    let r = s.send("attacker@example.net", "multiple", &lines.join("\n"));
    assert!(
        r.iter().all(|m| m.to != [A]),
        "the owner is not bothered: {r:#?}"
    );
    assert!(
        r.iter()
            .all(|m| !m.subject.starts_with("Address confirmed")),
        "{r:#?}"
    );
    let account = std::fs::read_to_string(s.home().join("accounts/alice.json")).expect("account");
    assert!(
        account.contains("unconfirmed") && account.contains(A),
        "{account}"
    );
    let codes: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(s.home().join("codes/alice.json")).expect("codes"),
    )
    .expect("json");
    assert_eq!(codes["count"], 5);
    assert!(!s.home().join("logins/alice.json").exists(), "logins open");
    // (From another address: the first got its few mails of the day.)
    let r = s.send("other@example.net", "verify alice GUESSAGAIN", "");
    assert_says(&r[0], "Too many wrong verify codes");
    // alice's own right code works at once.
    let r = s.send(A, &format!("Re: verify alice {code}"), "");
    assert!(r[0].subject.starts_with("Address confirmed"), "{r:#?}");
}

const DAY: u64 = 86_400;
const VICTIM: &str = "victim@example.org";
const ATTACKER: &str = "attacker@example.net";

fn files_in(s: &TestServer, folder: &str) -> usize {
    std::fs::read_dir(s.home().join(folder)).map_or(0, |d| d.count())
}

#[test]
fn ticks_reminders_to_an_unconfirmed_address_keep_to_its_daily_quota_and_tick_expires_old_records()
{
    let mut s = TestServer::confirming();
    // The attacker names the victim's address for spam1 and starts six games with a
    // reminder after one day, spam1 to move in each: since issue 25 an account
    // without a confirmed address starts at most two games waiting for the other
    // player's first move, so it takes three accounts (the most one address may
    // have: spam2, spam3, spam4) to start six.
    for k in 2..=4 {
        s.send(ATTACKER, &format!("signup spam{k} Spam{k}pwx"), "");
    }
    let r = s.send(ATTACKER, &format!("signup spam1 Spam1pwx {VICTIM}"), "");
    assert!(r.iter().any(|m| m.to == [VICTIM]), "{r:#?}");
    let body = "yinsh challenge --nagtime=1 spam1 spam2\n".repeat(3);
    s.send(ATTACKER, "multiple", &body);
    assert!(s.home().join("boards/102.json").exists());
    assert!(!s.home().join("boards/103.json").exists(), "spam2's third");
    for k in 3..=4 {
        let body = format!("yinsh challenge --nagtime=1 spam1 spam{k}\n").repeat(2);
        s.send(ATTACKER, "multiple", &body);
    }
    assert!(s.home().join("boards/106.json").exists());
    // Each player moves once (issue 25: a game whose player to move never moved in it
    // and did not start it, between strangers, is never reminded), so the reminders
    // are owed and only the quota holds them.
    for games in [
        [(101, 2), (102, 2), (103, 3)],
        [(104, 3), (105, 4), (106, 4)],
    ] {
        let moves: String = games
            .iter()
            .map(|(b, k)| {
                format!("yinsh move {b} spam1 Spam1pwx e5\nyinsh move {b} spam{k} Spam{k}pwx f6\n")
            })
            .collect();
        s.send(ATTACKER, "multiple", &moves);
    }
    assert_eq!(s.game_file(101)["turns"].as_array().map(Vec::len), Some(2));
    assert_eq!(s.game_file(106)["turns"].as_array().map(Vec::len), Some(2));
    let day0 = s.now;
    assert!(
        files_in(&s, "quota") >= 2,
        "the victim's and the attacker's quota"
    );
    // A day later, tick owes spam1 six reminders: the victim gets five, the quota.
    let t1 = day0 + DAY + 60;
    let r = s.tick(t1);
    let to_victim = r.iter().filter(|m| m.to == [VICTIM]).count();
    assert_eq!(to_victim, 5, "{r:#?}");
    assert!(
        r.iter().all(|m| m.subject.starts_with("Nag: Yinsh Board")),
        "{r:#?}"
    );
    assert!(
        s.log()
            .contains("over 5 mails today to an unconfirmed address"),
        "{}",
        s.log()
    );
    // Tick also expired yesterday's counts: the attacker's quota is gone, the
    // victim's is today's; the storm counts of yesterday are gone too.
    assert_eq!(files_in(&s, "quota"), 1);
    assert_eq!(files_in(&s, "rate"), 0);
    // A month later, with no mail in between, tick removes the old seen marks.
    assert_eq!(files_in(&s, "seen"), 2, "a day folder and the expiry stamp");
    s.tick(day0 + 32 * DAY);
    assert_eq!(files_in(&s, "seen"), 1, "only the stamp is left");
    assert!(s.log().contains("tick: expired"), "{}", s.log());
}

#[test]
fn games_started_for_two_other_players_are_limited_per_sender_and_per_player() {
    let mut s = TestServer::new();
    for p in ["alice", "bob", "carol", "dave"] {
        s.send(
            &format!("{p}@example.org"),
            &format!("signup {p} {p}Pw7x"),
            "",
        );
    }
    // Five games for others in a day from one address; the sixth is refused.
    let body = "yinsh challenge alice bob\n".repeat(3);
    let r = s.send(ATTACKER, "multiple", &body);
    assert_eq!(
        r.iter()
            .filter(|m| m.subject.starts_with("New Yinsh Board"))
            .count(),
        6,
        "two players each"
    );
    let r = s.send(ATTACKER, "multiple", &body);
    assert_eq!(
        r.iter()
            .filter(|m| m.subject.starts_with("New Yinsh Board"))
            .count(),
        4,
        "{r:#?}"
    );
    let refused: Vec<_> = r
        .iter()
        .filter(|m| m.subject == "Invalid challenge")
        .collect();
    assert_eq!(refused.len(), 1, "{r:#?}");
    assert_eq!(refused[0].to, [ATTACKER]);
    assert_says(
        refused[0],
        "You have started 5 games today through challenges between two other players, the most a day (5)",
    );
    assert!(!s.home().join("boards/106.json").exists());
    // A `+tag` spelling of the attacker's address is the same mailbox, and so the
    // same sender (issue 25 finding 4).
    let r = s.send("Attacker+1@Example.net", "yinsh challenge carol dave", "");
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_says(&r[0], "You have started 5 games today");
    // Another address of the attacker: alice and bob are at their limit too.
    let r = s.send("attacker2@example.net", "yinsh challenge bob alice", "");
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_says(&r[0], "bob has been put in 5 games today");
    // carol and dave are not: a game for them is made.
    let r = s.send("attacker2@example.net", "yinsh challenge carol dave", "");
    assert_eq!(r.len(), 2, "{r:#?}");
    // Players' own challenges never count; the next day the limits start again.
    let r = s.send("alice@example.org", "yinsh challenge alice bob", "");
    assert!(
        r.iter()
            .all(|m| m.subject.starts_with("New Yinsh Board 107")),
        "{r:#?}"
    );
    s.now += DAY;
    let r = s.send(ATTACKER, "yinsh challenge alice bob", "");
    assert!(
        r.iter()
            .all(|m| m.subject.starts_with("New Yinsh Board 108")),
        "{r:#?}"
    );
}

#[test]
fn with_challenges_for_others_at_zero_the_refusal_says_they_are_turned_off() {
    let mut s = TestServer::new();
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        "[limits]\nchallenges_for_others_per_day = 0\n",
    )
    .expect("config");
    s.send(A, "signup alice Apw7xyz", "");
    s.send(B, "signup bob Bpw7xyz", "");
    let r = s.send(ATTACKER, "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_eq!(r[0].subject, "Invalid challenge");
    assert_says(
        &r[0],
        "Challenges for two other players are turned off on this server: this challenge was not made.",
    );
    assert!(!r[0].body.contains("(0)"), "{}", r[0].body);
    assert!(!s.home().join("boards/101.json").exists());
    // The players' own challenges are still made.
    let r = s.send(A, "yinsh challenge alice bob", "");
    assert!(
        r.iter()
            .all(|m| m.subject.starts_with("New Yinsh Board 101")),
        "{r:#?}"
    );
}

#[test]
fn board_mails_of_challenges_for_others_count_against_an_unconfirmed_addresss_quota() {
    let mut s = TestServer::confirming();
    s.send(ATTACKER, &format!("signup spam1 Spam1pwx {VICTIM}"), "");
    s.send("bob@example.org", "signup bob Bpw7xyz", "");
    let body = "yinsh challenge spam1 bob\n".repeat(3);
    let mut to_victim = 1; // the verify mail
    for sender in [ATTACKER, "attacker+1@example.net"] {
        let r = s.send(sender, "multiple", &body);
        to_victim += r
            .iter()
            .filter(|m| m.to.iter().any(|t| t == VICTIM))
            .count();
    }
    assert_eq!(
        to_victim, 5,
        "five mails a day reach an unconfirmed address"
    );
    assert!(
        s.home().join("boards/105.json").exists(),
        "five games for others were made"
    );
    assert!(
        !s.home().join("boards/106.json").exists(),
        "spam1 is at its limit"
    );
    assert!(
        s.log()
            .contains(&format!("not sent to {VICTIM}: over 5 mails today")),
        "{}",
        s.log()
    );
}

#[test]
fn a_signed_off_userid_is_not_given_to_anyone_else_and_its_owner_takes_it_back() {
    let mut s = game();
    s.send(A, "yinsh resign 101 alice Apw7xyz", "");
    // carol watches a game of bob's; alice watched it too before leaving.
    s.send("carol@example.org", "signup carol Cpw7xyz", "");
    s.send(B, "yinsh challenge bob carol", "");
    s.send(A, "yinsh subscribe 102 alice Apw7xyz", "");
    let r = s.send(A, "signoff alice Apw7xyz", "");
    assert_says(&r[0], "The account alice has been removed.");
    // Someone else asking for the name is refused, and nothing is made.
    let r = s.send("mallory@example.net", "signup alice Mallory7pw", "");
    assert_eq!(r.len(), 1, "{r:#?}");
    assert_says(
        &r[0],
        "The userid alice belonged to an account that was signed off",
    );
    assert!(!s.home().join("accounts/alice.json").exists());
    let r = s.send("mallory@example.net", "signup ALICE Mallory7pw", "");
    assert_says(&r[0], "belonged to an account that was signed off");
    // Board mails of the game alice watched reach no one in her name meanwhile.
    let r = s.send(B, "yinsh move 102 bob Bpw7xyz e5", "");
    assert!(
        r.iter()
            .all(|m| !m.to.contains(&"mallory@example.net".to_string())),
        "{r:#?}"
    );
    // Each refusal counted as a wrong password (four so far; at five even the owner
    // would wait for the hour).
    for k in 0..2 {
        s.send(
            "mallory@example.net",
            &format!("signup alice guess{k}x"),
            "",
        );
    }
    let logins: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(s.home().join("logins/alice.json")).expect("logins"),
    )
    .expect("json");
    assert_eq!(logins["count"], 4);
    // The former owner, with the last password, takes the name back with its games.
    let r = s.send(A, "signup alice Apw7xyz", "");
    assert_says(&r[0], "Welcome to YINSH by e-mail, alice.");
    assert!(!s.home().join("accounts/alice.retired").exists());
    let r = s.send(A, "yinsh games alice all", "");
    assert_says(&r[0], "   101  alice");
}
