//! Declining a game someone else started (issue 14), through the real binary: the
//! challenge's mails say who started it and how to decline; either player declines
//! before their own first move (`yinsh decline`, or `decline` as a reply); the game is
//! removed unrated and without a history entry, and the players, the watchers and the
//! challenger are told, one mail each; refused after the player's first move (a game
//! a player started is declined by the other one too, issue 25); robots never decline; an unconfirmed address is not told
//! the challenger's address.

use crate::support::mail::{Client, reply};
use crate::support::server::{Sent, TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";
const CAROL: &str = "Carol <carol@example.org>";
const DAVE: &str = "Dave <dave@example.org>";

/// The one mail of `r` to `userid`.
#[track_caller]
fn to<'a>(r: &'a [Sent], userid: &str) -> &'a Sent {
    let address = format!("{userid}@example.org");
    let mine: Vec<&Sent> = r.iter().filter(|m| m.to.contains(&address)).collect();
    assert_eq!(mine.len(), 1, "one mail to {userid}: {r:?}");
    mine[0]
}

/// alice, bob, carol and dave signed up; carol starts board 101 for alice and bob.
fn started_by_carol() -> (TestServer, Vec<Sent>) {
    let mut s = TestServer::new();
    for (who, cmd) in [
        (ALICE, "signup alice apw"),
        (BOB, "signup bob bpw"),
        (CAROL, "signup carol cpw"),
        (DAVE, "signup dave dpw"),
    ] {
        s.send(who, cmd, "");
    }
    let r = s.send(CAROL, "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    (s, r)
}

fn game_exists(s: &TestServer, board: u32) -> bool {
    s.home().join(format!("boards/{board}.json")).exists()
}

#[test]
fn a_game_someone_else_started_says_who_and_is_declined_by_reply_before_the_first_move() {
    let (mut s, challenge) = started_by_carol();
    for (who, other) in [("alice", "bob"), ("bob", "alice")] {
        let m = to(&challenge, who);
        assert_says(
            m,
            "This game was started by carol@example.org (userid carol), not by one of its players.",
        );
        assert_says(m, &format!("    yinsh decline 101 {who} <password>"));
        assert!(
            !m.body.contains(&format!("decline 101 {other}")),
            "{}",
            m.body
        );
        let html = m.html.as_deref().expect("html");
        assert!(html.contains("carol@example.org"), "{html}");
    }
    s.send(DAVE, "yinsh subscribe 101 dave dpw", "");
    let r = s.send(ALICE, "yinsh move 101 alice apw e5", "");
    // alice has moved: she may no longer decline; bob still may, and is told so.
    assert!(!to(&r, "alice").body.contains("decline"), "{r:?}");
    assert_says(to(&r, "bob"), "You may decline it until your first move");
    assert!(!to(&r, "dave").body.contains("decline"), "{r:?}");
    let before = std::fs::read(s.home().join("boards/101.json")).expect("game");
    let refused = s.send(ALICE, "yinsh decline 101 alice apw", "");
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(refused[0].subject, "Yinsh Board 101 Error");
    assert_says(
        &refused[0],
        "You played move #1 on board 101: a game can be declined only before your first",
    );
    assert_eq!(
        std::fs::read(s.home().join("boards/101.json")).expect("game"),
        before
    );
    // bob presses Reply on his board mail (an old one: a decline holds until his
    // first move, whatever mail it answers) and writes `decline`.
    let old = to(&challenge, "bob");
    let raw = reply(
        Client::Thunderbird,
        BOB,
        &old.original(),
        "decline\nSorry, no time this month.",
        "decline-1@client.example",
    );
    let r = s.send_raw(raw.as_bytes());
    assert_eq!(r.len(), 4, "alice, bob, dave, carol, one mail each: {r:?}");
    for who in ["alice", "bob", "carol", "dave"] {
        let m = to(&r, who);
        assert_eq!(m.subject, "Yinsh Board 101 declined");
        assert_says(
            m,
            "bob declined board 101, the game carol@example.org (userid carol) started for alice (White) and bob (Black).",
        );
        assert_says(
            m,
            "The game is removed: it is not rated and the history does not list it.",
        );
        assert_says(m, "Sorry, no time this month.");
    }
    assert!(!game_exists(&s, 101));
    let shown = s.send(DAVE, "yinsh show 101", "");
    assert_says(&shown[0], "Yinsh board 101 not found");
    let history = s.send(DAVE, "yinsh history", "");
    assert!(!history[0].body.contains("101"), "{}", history[0].body);
    let games = s.send(DAVE, "yinsh games alice all", "");
    assert_says(&games[0], "all games of alice (0):");
    let standings = s.send(DAVE, "yinsh standings", "");
    assert!(!standings[0].body.contains("bob"), "{}", standings[0].body);
    // The board number is not given again.
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    assert!(r.iter().all(|m| m.subject.contains("Board 102")), "{r:?}");
    // Nothing to decline any more.
    let r = s.send(BOB, "yinsh decline 101 bob bpw", "");
    assert_says(&r[0], "not found");
}

/// Since issue 25 a game one of its players started is declined too by the other
/// player before their first move (it was refused): a game nobody asked for is cheap
/// to refuse.
#[test]
fn the_first_player_declines_by_command_and_so_does_the_opponent_of_a_player_who_started_it() {
    let (mut s, _) = started_by_carol();
    let r = s.send(ALICE, "yinsh decline 101 alice apw", "");
    assert_eq!(r.len(), 3, "alice, bob, carol: {r:?}");
    assert_says(to(&r, "carol"), "alice declined board 101");
    assert!(!game_exists(&s, 101));
    // alice's own challenge names no challenger; bob is told he may decline it.
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    assert!(!to(&r, "alice").body.contains("decline"), "{r:?}");
    assert!(
        !to(&r, "bob").body.contains("This game was started by"),
        "{r:?}"
    );
    assert_says(to(&r, "bob"), "    yinsh decline 102 bob <password>");
    // A misspelt decline is answered with the command meant (the spelling list
    // follows the command table).
    let r = s.send(BOB, "yinsh declien 102 bob bpw", "");
    assert_says(&r[0], "Did you mean:\n    yinsh decline 102 bob **\n");
    assert!(game_exists(&s, 102));
    // A wrong password declines nothing.
    let r = s.send(CAROL, "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    let r = s.send(BOB, "yinsh decline 103 bob wrong", "");
    assert_says(&r[0], "Invalid password entered for board 103");
    assert!(game_exists(&s, 103));
    // bob declines alice's game before his first move.
    let r = s.send(BOB, "yinsh decline 102 bob bpw", "");
    assert_eq!(r.len(), 2, "alice and bob: {r:?}");
    assert_says(
        to(&r, "alice"),
        "bob declined board 102, alice (White) against bob (Black), started by alice.",
    );
    assert!(!game_exists(&s, 102));
}

/// A robot game can be started by someone else too: the person in it may decline
/// it; the robot never does (nobody logs in as a robot).
#[test]
fn robots_never_decline_but_their_opponent_may() {
    let (mut s, _) = started_by_carol();
    let r = s.send(CAROL, "yinsh challenge robot1 alice", "");
    let m = r
        .iter()
        .find(|m| m.to == ["alice@example.org"] && m.body.contains("decline"))
        .unwrap_or_else(|| panic!("alice may decline: {r:?}"));
    assert_says(m, "    yinsh decline 102 alice <password>");
    let r = s.send(CAROL, "yinsh decline 102 robot1 x", "");
    assert_says(&r[0], "robot1 is one of the server's robots");
    assert!(game_exists(&s, 102));
    let r = s.send(ALICE, "yinsh decline 102 alice apw", "");
    assert_eq!(r.len(), 2, "alice and carol (a robot reads no mail): {r:?}");
    assert!(!game_exists(&s, 102));
}

/// The challenger's address is a stranger's choice: a player whose address is not
/// confirmed reads "someone else", not the address.
#[test]
fn an_unconfirmed_player_is_not_told_the_challengers_address() {
    let mut s = TestServer::confirming();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(
        "Spam <zqmarkq-buy-now@evil.example>",
        "yinsh challenge alice bob",
        "",
    );
    let alice = to(&r, "alice");
    assert!(!alice.raw.contains("zqmarkq"), "{}", alice.raw);
    assert_says(
        alice,
        "This game was started by someone else, not by one of its players.",
    );
    let r = s.send(ALICE, "yinsh decline 101 alice apw", "");
    for who in ["alice", "bob"] {
        let m = to(&r, who);
        assert!(!m.raw.contains("zqmarkq"), "{}", m.raw);
        assert_says(m, "alice declined board 101, the game someone else started");
    }
    assert!(!game_exists(&s, 101));
}
