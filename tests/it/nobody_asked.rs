//! Games nobody asked for (issue 25, findings 5, 9 and 13), in-process: any game is
//! declined before one's first move, whoever started it; an account may have only
//! so many games waiting for other players' first moves (10, 2 without a confirmed
//! address); a game between strangers that the player to move never moved in sends
//! no reminder and ends quietly, unrated, at its forfeit time, while players who
//! know each other are reminded as before; watchers need a confirmed address; the
//! robots' think time is shared out per person.

use crate::support::sent::split_reviews;
use crate::support::server::{Sent, TestServer, assert_says, words};

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";
const CAROL: &str = "Carol <carol@example.org>";
const VICTIM: &str = "victim@example.org";
const DAY: u64 = 86_400;

/// The mails of `r` to `address`.
fn to<'a>(r: &'a [Sent], address: &str) -> Vec<&'a Sent> {
    r.iter()
        .filter(|m| m.to.iter().any(|t| t == address))
        .collect()
}

fn game_exists(s: &TestServer, board: u32) -> bool {
    s.home().join(format!("boards/{board}.json")).exists()
}

/// alice and bob signed up; alice starts board 101 (she is White).
fn alice_challenges_bob() -> TestServer {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(CAROL, "signup carol cpw", "");
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    s
}

/// Issue 25 finding 5: a game the other player started is declined before one's
/// first move (it was refused: "started by one of its players"), and the mail that
/// started it says how; after one's first move it is refused as before.
#[test]
fn a_game_the_other_player_started_is_declined_before_ones_first_move_and_not_after() {
    let mut s = alice_challenges_bob();
    let r = s.send(ALICE, "yinsh move 101 alice apw e5", "");
    let bob = to(&r, "bob@example.org");
    assert_says(bob[0], "    yinsh decline 101 bob <password>");
    let r = s.send(BOB, "yinsh decline 101 bob bpw", "");
    assert_eq!(r.len(), 2, "alice and bob, one mail each: {r:?}");
    for m in &r {
        assert_eq!(m.subject, "Yinsh Board 101 declined");
        assert_says(
            m,
            "bob declined board 101, alice (White) against bob (Black), started by alice.",
        );
    }
    assert!(!game_exists(&s, 101));
    // After his first move bob may no longer decline: refused as before.
    s.send(ALICE, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh move 102 alice apw e5", "");
    s.send(BOB, "yinsh move 102 bob bpw f6", "");
    let r = s.send(BOB, "yinsh decline 102 bob bpw", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(
        &r[0],
        "You played move #2 on board 102: a game can be declined only before your first",
    );
    assert!(game_exists(&s, 102));
}

/// Issue 25 finding 5: the 11th game an account with a confirmed address starts while
/// ten wait for the other player's first move is refused, with the boards waiting
/// and how to free a place; a decline frees one.
#[test]
fn the_eleventh_game_waiting_for_others_first_moves_is_refused() {
    let mut s = alice_challenges_bob();
    let three = "yinsh challenge alice bob\n".repeat(3);
    for _ in 0..3 {
        s.send(ALICE, "multiple", &three);
    }
    assert!(game_exists(&s, 110));
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Invalid challenge");
    assert_says(
        &r[0],
        "alice has started 10 games waiting for the other player's first move (boards 101, 102, 103, 104, 105, 106, 107, 108, 109, 110), the most an account may have at a time",
    );
    assert_says(&r[0], "yinsh decline <board> <userid> <password>");
    assert!(!game_exists(&s, 111));
    // bob declines one: a place is free again.
    s.send(BOB, "yinsh decline 110 bob bpw", "");
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    assert!(
        r.iter()
            .all(|m| m.subject.starts_with("New Yinsh Board 111")),
        "{r:?}"
    );
}

/// Issue 25 finding 5: a throwaway account without a confirmed address starts at most
/// two games waiting for its victim's first move: the third is refused.
#[test]
fn an_unconfirmed_account_starts_at_most_two_games_waiting_for_others() {
    let mut s = TestServer::confirming();
    s.send(VICTIM, "signup victim Vpw7xyz", "");
    let body = "signup thr1 Thr1pwxy\nyinsh challenge victim thr1\nyinsh challenge victim thr1\nyinsh challenge victim thr1\n";
    s.send("thr1@evil.example", "multiple", body);
    assert!(game_exists(&s, 101) && game_exists(&s, 102));
    assert!(!game_exists(&s, 103), "the third game waits too many");
}

/// Issue 25 finding 5: a game a stranger started that its player to move never moved
/// in gets no reminder, and at the forfeit time it is cancelled: removed, unrated,
/// one short mail to the stranger who started it, none to the player who never
/// moved.
#[test]
fn a_game_forced_on_a_stranger_is_never_reminded_and_ends_quietly() {
    let mut s = TestServer::new();
    s.send(VICTIM, "signup victim vpw", "");
    s.send("thr1@evil.example", "signup thr1 tpw", "");
    let r = s.send("thr1@evil.example", "yinsh challenge victim thr1", "");
    assert_eq!(r.len(), 2, "{r:?}");
    let victim = to(&r, VICTIM);
    assert_says(victim[0], "    yinsh decline 101 victim <password>");
    assert_says(victim[0], "the game is cancelled");
    let t0 = s.now;
    for day in [7, 8, 14, 15] {
        assert!(s.tick(t0 + day * DAY + 60).is_empty(), "day {day}");
    }
    let r = s.tick(t0 + 21 * DAY + 60);
    assert!(to(&r, VICTIM).is_empty(), "{r:?}");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Yinsh Board 101 cancelled");
    assert_says(
        &r[0],
        "Board 101 is cancelled: victim has not made a move in it in 21 days.",
    );
    assert!(!game_exists(&s, 101));
    let history = s.send(CAROL, "yinsh history", "");
    assert!(!history[0].body.contains("101"), "{}", history[0].body);
    assert!(s.tick(t0 + 30 * DAY).is_empty());
}

/// Issue 25 finding 5: players who have both moved in a game against each other know
/// each other: their next game is reminded and forfeited as before.
#[test]
fn a_game_between_players_who_know_each_other_is_reminded_as_before() {
    let mut s = alice_challenges_bob();
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(BOB, "yinsh move 101 bob bpw f6", "");
    // bob starts the next one: alice (White) is to move and never moved in it.
    s.send(BOB, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh resign 101 alice apw", "");
    // Board 101's review, made by the flush after the resignation.
    let now = s.now;
    assert_eq!(split_reviews(s.flush(now)).0.len(), 2, "board 101's review");
    let t0 = s.now;
    let r = s.tick(t0 + 7 * DAY);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Nag: Yinsh Board 102 alice");
    let r = s.tick(t0 + 21 * DAY);
    let (reviews, r) = split_reviews(r);
    // alice never moved in board 102, bob started it and moved not: no review.
    assert!(
        reviews.is_empty(),
        "nobody moved in board 102: no review: {reviews:?}"
    );
    assert_eq!(r.len(), 2, "{r:?}");
    assert_says(
        &r[0],
        "alice has not moved for 21 days and forfeits the game.",
    );
    assert_eq!(s.game_file(102)["ended"]["reason"], "forfeit");
}

/// Issue 25 finding 9: an account with no confirmed address cannot take a watcher's
/// place; a confirmed one can.
#[test]
fn only_an_account_with_a_confirmed_address_watches_a_game() {
    let mut s = TestServer::confirming();
    s.send(ALICE, "signup alice Apw7xyz", "");
    s.send(BOB, "signup bob Bpw7xyz", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    assert!(game_exists(&s, 101));
    s.send("w1@evil.example", "signup watcher1 Wpw7xyzq", "");
    let r = s.send(
        "w1@evil.example",
        "yinsh subscribe 101 watcher1 Wpw7xyzq",
        "",
    );
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(
        &r[0],
        "Board 101 may be watched only from an account with a confirmed address.",
    );
    let file = s.game_file(101);
    assert!(file["extra"]["subscribers"].is_null(), "{file}");
}

/// Issue 25 finding 13: once a person's share of the robots' think time for the hour
/// is spent, the robot answers their games at once with level 1's search (and says
/// so), while another person's robot5 still thinks its whole time.
#[test]
fn a_persons_share_of_the_robots_think_time_is_theirs_alone() {
    let mut s = TestServer::new();
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        "[robot]\nthink_ms = 600\nthink_seconds_per_player_hour = 1\n",
    )
    .expect("config");
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let three = "yinsh challenge robot5 alice\n".repeat(3);
    let r = s.send(ALICE, "multiple", &three);
    let briefly = "thought briefly: the robots' think time for your games this hour is spent";
    let brief: Vec<&Sent> = r
        .iter()
        .filter(|m| words(&m.body).contains(briefly))
        .collect();
    assert_eq!(brief.len(), 1, "the third turn only: {r:?}");
    assert!(brief[0].subject.contains("103"), "{}", brief[0].subject);
    let spent = "the person's share of the robots' think time for this hour is spent";
    assert_eq!(s.log().matches(spent).count(), 1, "{}", s.log());
    // bob's robot5 thinks its whole time: alice spent only her own share.
    let r = s.send(BOB, "yinsh challenge robot5 bob", "");
    assert!(r.iter().all(|m| !m.body.contains(briefly)), "{r:?}");
    assert_eq!(s.log().matches(spent).count(), 1, "{}", s.log());
}
