//! Issue 45, attacks 2 and 5: the work a server run does on behalf of a game (a
//! robot's turn, a review) is answerable to whoever made it owed. A stranger's
//! reviews count against the same daily budget of the victim's mailbox as the
//! stranger's own mails; and the robots' hour is shared by person (one mailbox, however
//! many accounts confirm it), strangers' games getting the least, so that one person
//! and every stranger together leave an honest player's robot turn its whole think.
//! `docs/reliability.md` ("Strangers, players, operator").

use crate::support::bin;
use crate::support::sent::{ALICE, BOB, mails_to};
use crate::support::server::{Sent, TestServer};

const VICTIM: &str = "bob@example.org";

/// The reviews owed still to be made.
fn reviews_owed(s: &TestServer) -> usize {
    std::fs::read_dir(s.home().join("reviews/owed")).map_or(0, |d| d.count())
}

/// `flush` run a minute apart until no review is owed (at most `runs` times): the
/// mails they sent.
fn flush_reviews(s: &mut TestServer, runs: usize) -> Vec<Sent> {
    let mut sent = Vec::new();
    for _ in 0..runs {
        if reviews_owed(s) == 0 {
            break;
        }
        let at = s.now + 60;
        sent.extend(s.flush(at));
    }
    assert_eq!(reviews_owed(s), 0, "{}", s.log());
    sent
}

/// Attack 2: an unconfirmed throwaway account challenges a confirmed victim, moves
/// once and resigns, twenty times: twenty unproven mails, each a `multiple`. The
/// reviews of those games were mailed by the server's `flush` outside every budget (29
/// mails in the victim's mailbox in a day, budget 10). They are the stranger's now,
/// counted in the victim's daily budget. And the review of the victim's own game
/// (ended later by bob's proven resignation) does not wait behind them: it is the
/// first one made, and it comes although the stranger spent the victim's budget.
#[test]
fn a_strangers_reviews_are_held_to_the_victims_budget_and_wait_behind_the_victims_own() {
    let mut s = TestServer::with_binary();
    s.envs = bin::confirming().to_vec();
    s.confirmed("alice", "apw", "alice@example.org");
    s.confirmed("bob", "bpw", VICTIM);
    s.send("mallory@evil.test", "signup mal1 Malpw7xyz", "");
    let mut reached = Vec::new();
    for k in 0..20 {
        let board = 101 + k;
        let body = format!(
            "yinsh challenge mal1 bob -password Malpw7xyz\nyinsh move {board} mal1 Malpw7xyz e5\n\
             yinsh resign {board} mal1 Malpw7xyz\n"
        );
        let sent = s.send(&format!("m{k}@forged{k}.example"), "multiple", &body);
        reached.extend(mails_to(&sent, VICTIM));
    }
    let file = s.game_file(120);
    assert!(
        file["ended"].is_object(),
        "the twentieth game ended: {file}"
    );
    // bob's own game with alice: alice moves, bob resigns, both proven by password.
    s.send(ALICE, "yinsh challenge alice bob -password apw", "");
    s.send(ALICE, "yinsh move 121 alice apw e5", "");
    let r = s.send(BOB, "yinsh resign 121 bob bpw", "");
    assert!(!mails_to(&r, VICTIM).is_empty(), "{r:?}");
    let review_of = |m: &Sent, board: u32| m.subject == format!("Yinsh Board {board} review");
    let at = s.now + 60;
    let first = s.flush(at);
    assert!(
        mails_to(&first, VICTIM).iter().any(|m| review_of(m, 121)),
        "bob's own review is made first: {:#?}",
        first.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    let rest = flush_reviews(&mut s, 15);
    let strangers = mails_to(&first, VICTIM)
        .into_iter()
        .chain(mails_to(&rest, VICTIM))
        .filter(|m| !m.subject.contains("121"));
    reached.extend(strangers);
    assert!(
        reached.len() <= 10,
        "{} mails reached the victim in a day: {:#?}",
        reached.len(),
        reached.iter().map(|m| &m.subject).collect::<Vec<_>>()
    );
    assert!(
        s.log()
            .contains("mails today caused by mail that proved no sender: Yinsh Board 1"),
        "{}",
        s.log()
    );
    assert!(
        s.log().contains(&format!(
            "not sent to {VICTIM}: over 10 mails today caused by mail that proved no sender: Yinsh Board 120 review"
        )),
        "{}",
        s.log()
    );
}

/// A game that ends on no one's mail (a forfeit at a tick) owes its review on behalf
/// of whoever started the game: a throwaway account's games are a stranger's, held to
/// the victim's budget, as their resignations are; a confirmed player's game is its
/// starter's, and its review reaches bob although strangers spent his budget. (The
/// forfeits' reviews were the server's own before, outside every budget: bob got all
/// four.)
#[test]
fn reviews_after_a_forfeit_are_answerable_to_whoever_started_the_game() {
    const DAY: u64 = 86_400;
    let mut s = TestServer::with_binary();
    s.envs = bin::confirming().to_vec();
    s.confirmed("alice", "apw", "alice@example.org");
    s.confirmed("bob", "bpw", VICTIM);
    s.send("mallory@evil.test", "signup mal1 Malpw7xyz", "");
    // Board 101: alice's game. Boards 102-104: the throwaway's. bob moves in each.
    s.send(ALICE, "yinsh challenge alice bob -password apw", "");
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(BOB, "yinsh move 101 bob bpw e4", "");
    for board in 102..=104 {
        s.send(
            "mallory@evil.test",
            "multiple",
            &format!(
                "yinsh challenge mal1 bob -password Malpw7xyz
yinsh move {board} mal1 Malpw7xyz e5
"
            ),
        );
        s.send(BOB, &format!("yinsh move {board} bob bpw e4"), "");
    }
    // 22 days on, strangers spend bob's budget for the day: the eleventh gets nothing.
    s.now += 22 * DAY;
    for k in 0..10 {
        let r = s.send(VICTIM, "help", "");
        assert_eq!(mails_to(&r, VICTIM).len(), 1, "help {k}: {r:?}");
    }
    assert!(mails_to(&s.send(VICTIM, "help", ""), VICTIM).is_empty());
    // alice and mal1 forfeit; the reviews are made by this tick and the next runs.
    let at = s.now;
    let mut sent = s.tick(at);
    let forfeits = mails_to(&sent, VICTIM)
        .into_iter()
        .filter(|m| !m.subject.ends_with("review"));
    assert_eq!(
        forfeits.count(),
        4,
        "the clock's forfeit mails are the server's: {:?}\n{}",
        sent.iter().map(|m| (&m.to, &m.subject)).collect::<Vec<_>>(),
        s.log()
    );
    sent.extend(flush_reviews(&mut s, 15));
    let reviews: Vec<String> = mails_to(&sent, VICTIM)
        .iter()
        .map(|m| m.subject.clone())
        .filter(|subject| subject.ends_with("review"))
        .collect();
    assert_eq!(reviews, ["Yinsh Board 101 review"], "{}", s.log());
    for board in 102..=104 {
        assert!(
            s.log().contains(&format!(
                "not sent to {VICTIM}: over 10 mails today caused by mail that proved no sender: Yinsh Board {board} review"
            )),
            "{}",
            s.log()
        );
    }
}

/// Attack 5: one mailbox confirms three accounts and strangers add throwaway accounts;
/// each spends the robots' think time on robot5 games. The shares were per userid
/// (four shares: the whole hour), so an honest player's robot turn waited for the
/// next hour. Now the three accounts are one person with one share, the throwaway
/// accounts share the least, and carol's robot5 turn is played at once, with its whole
/// think time. The think times are scaled down (robot5 300 ms a turn, one second a
/// share, four seconds an hour), as the defaults are (300 ms : 2 s).
#[test]
fn one_mailbox_with_three_accounts_and_throwaways_cannot_starve_an_honest_robot_turn() {
    let mut s = TestServer::confirming();
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        "[robot]\nthink_ms = 300\nthink_seconds_per_hour = 4\n\
         think_seconds_per_player_hour = 1\nstrangers_think_seconds_per_hour = 1\n",
    )
    .expect("config");
    let mallory = "mallory@example.net";
    for k in 1..=3 {
        s.confirmed(&format!("mal{k}"), &format!("Malpw{k}xyz"), mallory);
    }
    s.confirmed("carol", "Cpw7xyzq", "carol@example.org");
    for k in 1..=3 {
        s.send(
            &format!("t{k}@evil.test"),
            &format!("signup thr{k} Thrpw{k}xyz"),
            "",
        );
    }
    // The attack starts with a clock hour.
    s.now = (s.now / 3600 + 1) * 3600 + 5;
    let hour = s.now / 3600;
    for k in 1..=3 {
        for _ in 0..5 {
            s.send(mallory, &format!("yinsh challenge robot5 mal{k}"), "");
        }
    }
    for k in 1..=3 {
        for _ in 0..2 {
            s.send(
                &format!("t{k}@evil.test"),
                &format!("yinsh challenge robot5 thr{k}"),
                "",
            );
        }
    }
    let boards = std::fs::read_dir(s.home().join("boards"))
        .expect("boards")
        .count();
    assert!(boards >= 21, "{boards} games: {}", s.log());
    let r = s.send("carol@example.org", "yinsh challenge robot5 carol", "");
    assert_eq!(s.now / 3600, hour, "all within one clock hour");
    let carols = mails_to(&r, "carol@example.org");
    assert!(
        carols
            .iter()
            .any(|m| m.body.contains("It is carol's turn.")),
        "robot5 played carol's turn at once: {r:#?}\n{}",
        s.log()
    );
    let briefly = "thought briefly";
    assert!(carols.iter().all(|m| !m.body.contains(briefly)), "{r:#?}");
    let owed = std::fs::read_dir(s.home().join("robot-turns")).map_or(0, |d| d.count());
    assert_eq!(owed, 0, "no robot turn waits: {}", s.log());
    assert!(
        !s.log().contains("robots' think time for this hour spent"),
        "{}",
        s.log()
    );
    // The three accounts spent one share, the mailbox's; the throwaways one.
    let time: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(s.home().join("robot-time.json")).expect("robot-time"),
    )
    .expect("json");
    let shares = time["by_player"].as_object().expect("shares");
    let names: Vec<&String> = shares.keys().collect();
    assert_eq!(
        names,
        ["(unconfirmed)", "carol@example.org", mallory],
        "{time}"
    );
    let spent = |name: &str| shares[name].as_u64().expect("ms");
    assert!(spent(mallory) < 1000 + 1000, "{time}");
    assert!(spent("(unconfirmed)") < 1000 + 1000, "{time}");
    assert!(spent("carol@example.org") >= 250, "a whole think: {time}");
}

/// The noted threat: strangers' reviews spend at most half the reviews' hour, so a
/// person's review owed later in the hour still finds its time. Here the reviews have
/// spent 61 of their 120 s: the throwaway's game waits for the next hour, bob's own
/// is made.
#[test]
fn strangers_reviews_leave_half_the_reviews_hour_to_persons() {
    let mut s = TestServer::confirming();
    s.confirmed("alice", "apw", "alice@example.org");
    s.confirmed("bob", "bpw", VICTIM);
    s.send("mallory@evil.test", "signup mal1 Malpw7xyz", "");
    s.now = (s.now / 3600 + 1) * 3600 + 5;
    let hour = s.now / 3600;
    s.send(
        "m@forged.example",
        "multiple",
        "yinsh challenge mal1 bob -password Malpw7xyz\nyinsh move 101 mal1 Malpw7xyz e5\n\
         yinsh resign 101 mal1 Malpw7xyz\n",
    );
    std::fs::write(
        s.home().join("robot-time.json"),
        format!("{{\"hour\": {hour}, \"think_ms\": 61000, \"review_ms\": 61000}}"),
    )
    .expect("robot-time");
    let at = s.now + 60;
    let sent = s.flush(at);
    assert!(
        sent.iter().all(|m| !m.subject.ends_with("review")),
        "{sent:#?}"
    );
    assert_eq!(reviews_owed(&s), 1);
    assert!(
        s.log().contains(
            "strangers' part of the reviews' think time for this hour spent (61 of 60 s)"
        ),
        "{}",
        s.log()
    );
    s.send(ALICE, "yinsh challenge alice bob -password apw", "");
    s.send(ALICE, "yinsh move 102 alice apw e5", "");
    s.send(BOB, "yinsh resign 102 bob bpw", "");
    let at = s.now + 60;
    let sent = s.flush(at);
    assert_eq!(s.now / 3600, hour, "within the hour");
    let bobs: Vec<String> = (mails_to(&sent, VICTIM).into_iter())
        .map(|m| m.subject)
        .collect();
    assert!(
        bobs.iter().any(|m| m == "Yinsh Board 102 review"),
        "{bobs:?}"
    );
    assert!(
        !bobs.iter().any(|m| m == "Yinsh Board 101 review"),
        "{bobs:?}"
    );
    assert_eq!(reviews_owed(&s), 1, "the stranger's still waits");
}
