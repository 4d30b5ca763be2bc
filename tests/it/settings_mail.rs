//! Issue 26 findings 16 and 17, through real mails: the Subject explained in a new
//! game's mail, `yinsh settings … subject stable` (one Subject per game, Reply still
//! plays), and `yinsh settings … own-turn skip` (no board mail for one's own turn;
//! errors, offers, a resignation and the robot's answer still come).
//! `docs/reliability.md` ("What mails and pages say": challenges, vacations, settings).

use crate::support::mail::{Client, reply};
use crate::support::sent::{ALICE, BOB, mails_to, one_to, split_reviews};
use crate::support::server::{TestServer, assert_says};

/// A server with alice and bob signed up; `setting` (if any) sent by alice.
fn players(setting: Option<&str>) -> TestServer {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    if let Some(setting) = setting {
        let sent = s.send(ALICE, &format!("yinsh settings alice apw {setting}"), "");
        assert_eq!(sent.len(), 1, "{sent:?}");
    }
    s
}

fn turns(s: &TestServer) -> usize {
    s.game_file(101)["turns"].as_array().map_or(0, Vec::len)
}

/// Issue 26 finding 16: a new game's mail says that its Subject names the player to
/// move and what ` **` means, and how to have one Subject per game.
#[test]
fn a_new_games_mail_explains_its_subject() {
    let mut s = players(None);
    let sent = s.send(ALICE, "yinsh challenge alice bob", "");
    for m in &sent {
        assert_says(m, "names the player to move; \" **\" at its end");
        assert_says(m, "subject stable");
    }
    let help = s.send(ALICE, "yinsh help", "");
    assert_says(&help[0], "subject stable");
    assert_says(&help[0], "own-turn skip");
}

/// Issue 26 finding 16: with `subject stable`, every board mail of a game has one
/// Subject (a comment adds no ` **`), the other player keeps pbmserv's, and a Reply
/// to such a mail still plays.
#[test]
fn subject_stable_gives_one_subject_per_game_and_reply_still_plays() {
    let mut s = players(Some("subject stable"));
    let shown = s.send(ALICE, "yinsh settings alice apw", "");
    assert_says(&shown[0], "Their Subject is one per game");
    let sent = s.send(ALICE, "yinsh challenge alice bob", "");
    let a = one_to(&sent, "alice@example.org");
    assert_eq!(a.subject, "Yinsh Board 101: alice - bob");
    assert_says(&a, "Every mail of this game has this one Subject");
    assert_eq!(
        one_to(&sent, "bob@example.org").subject,
        "New Yinsh Board 101 alice"
    );
    let id = format!("r-{}@client.example", s.now);
    let raw = reply(Client::Gmail, ALICE, &a.original(), "e5\nMy comment", &id);
    let sent = s.send_raw(raw.as_bytes());
    assert_eq!(turns(&s), 1, "the Reply played: {sent:?}");
    assert_eq!(
        one_to(&sent, "alice@example.org").subject,
        "Yinsh Board 101: alice - bob"
    );
    assert_eq!(
        one_to(&sent, "bob@example.org").subject,
        "Yinsh Board 101 bob **"
    );
    let sent = s.send(BOB, "yinsh move 101 bob bpw f6", "");
    assert_eq!(
        one_to(&sent, "alice@example.org").subject,
        "Yinsh Board 101: alice - bob"
    );
    // Back to pbmserv's.
    s.send(ALICE, "yinsh settings alice apw subject moving", "");
    let sent = s.send(ALICE, "yinsh move 101 alice apw e6", "");
    assert_eq!(
        one_to(&sent, "alice@example.org").subject,
        "Yinsh Board 101 bob"
    );
}

/// Issue 26 finding 17: with `own-turn skip`, a player's own turn sends them no
/// board mail (the opponent's answer shows it); an error, an offer and a
/// resignation still come.
#[test]
fn own_turn_skip_sends_no_mail_for_ones_own_turn_but_errors_still_come() {
    let mut s = players(Some("own-turn skip"));
    let shown = s.send(ALICE, "yinsh settings alice apw", "");
    assert_says(&shown[0], "You get no board mail for your own turns");
    s.send(ALICE, "yinsh challenge alice bob", "");
    let sent = s.send(ALICE, "yinsh move 101 alice apw e5", "");
    assert_eq!(turns(&s), 1);
    assert!(mails_to(&sent, "alice@example.org").is_empty(), "{sent:?}");
    one_to(&sent, "bob@example.org");
    let sent = s.send(BOB, "yinsh move 101 bob bpw f6", "");
    let a = one_to(&sent, "alice@example.org");
    assert_says(&a, "It is alice's turn.");
    assert_says(&a, "e5");
    // Errors come.
    let sent = s.send(ALICE, "yinsh move 101 alice apw f6", "");
    assert_eq!(turns(&s), 2);
    assert!(!mails_to(&sent, "alice@example.org").is_empty(), "{sent:?}");
    // So does an offer and the end of the game.
    let sent = s.send(ALICE, "yinsh move 101 alice apw propose", "");
    assert!(!mails_to(&sent, "alice@example.org").is_empty(), "{sent:?}");
    let (reviews, sent) = split_reviews(s.send(ALICE, "yinsh resign 101 alice apw", ""));
    assert!(reviews.is_empty(), "the review comes by flush: {reviews:?}");
    assert_says(&one_to(&sent, "alice@example.org"), "alice resigned.");
}

/// Issue 26 finding 17: against a robot, `own-turn skip` gives one mail a turn: the
/// robot's answer, which shows the player's turn and its own.
#[test]
fn own_turn_skip_against_a_robot_gives_one_mail_a_turn() {
    let mut s = players(Some("own-turn skip"));
    s.send(ALICE, "yinsh challenge alice robot1", "");
    let sent = s.send(ALICE, "yinsh move 101 alice apw e5", "");
    assert_eq!(turns(&s), 2, "the robot answered");
    let a = one_to(&sent, "alice@example.org");
    assert_says(&a, "robot1 writes:");
    assert_says(&a, "It is alice's turn.");
    assert_says(&a, "e5");
}
