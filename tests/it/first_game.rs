//! Issue 26, a first game without a stumble (items 3, 4, 6, 12, 13, 14, 15), through
//! real mails delivered in-process: a phone's `D4.` is played and a sentence for a
//! move is told what the first line must be; a reply to an old board mail is told as
//! one; an offer answered in words is told how to answer it and nothing is done; a
//! preview's error shows the board it started from; an unknown or misspelt command
//! gets the whole list or the command meant; error mails quote the Subject as written
//! and say that Reply works.

use crate::support::mail::Client;
use crate::support::sent::only_to;
use crate::support::server::{Sent, TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";
const ZOE: &str = "Zoe <zoe@example.org>";

/// A server with alice and bob playing board 101 (alice to move); their New Yinsh
/// Board mails.
fn game() -> (TestServer, Sent, Sent) {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    let (a, b) = (
        only_to(&r, "alice@example.org"),
        only_to(&r, "bob@example.org"),
    );
    (s, a, b)
}

fn turns(s: &TestServer) -> usize {
    s.game_file(101)["turns"].as_array().map_or(0, Vec::len)
}

/// Issue 26 items 13, 14 and 15: "D4." from a phone is played; "Hi Alice," as the
/// first line is told to be a move (not a grammar message about a point's number);
/// the error mail quotes the Subject as written, says that Reply works, and a Reply
/// to it plays the move.
#[test]
fn a_phones_move_is_played_and_a_sentence_is_told_to_be_a_move() {
    let (mut s, a, _) = game();
    let r = s.press_reply(Client::AppleMail, ALICE, &a, "D4.");
    assert_eq!(turns(&s), 1, "D4. was played: {r:?}");
    let b = only_to(&r, "bob@example.org");
    let r = s.press_reply(Client::Thunderbird, BOB, &b, "Hi Alice,\nNice to meet you.");
    assert_eq!(turns(&s), 1, "nothing played: {r:?}");
    assert_eq!(r.len(), 1, "{r:?}");
    let err = &r[0];
    assert_eq!(err.subject, "Yinsh Board 101 Error");
    assert_says(
        err,
        "The first line of your reply must be your move, e.g. d4",
    );
    assert!(!err.body.contains("number of the point"), "{}", err.body);
    assert_says(
        err,
        "Press Reply and send the corrected move as the first line",
    );
    assert_says(err, &format!("> Subject: Re: {}\n", b.subject));
    let r = s.press_reply(Client::Gmail, BOB, err, "e5\n\nSorry, here it is.");
    assert_eq!(turns(&s), 2, "the reply to the error mail played: {r:?}");
}

/// Issue 26 item 4: a reply to an old board mail is told as one, with whose turn it
/// is, never as a move number the player did not type.
#[test]
fn a_reply_to_an_old_board_mail_says_so() {
    let (mut s, a, _) = game();
    let r = s.press_reply(Client::Thunderbird, ALICE, &a, "d4");
    let b = only_to(&r, "bob@example.org");
    s.press_reply(Client::Thunderbird, BOB, &b, "e5");
    assert_eq!(turns(&s), 2);
    let r = s.press_reply(Client::Thunderbird, ALICE, &a, "f6");
    assert_eq!(turns(&s), 2, "{r:?}");
    assert_says(
        &r[0],
        "You answered an old mail (move 1): nothing was played. The game is at move 3\nand it is your turn.",
    );
    assert!(!r[0].body.contains("marked #"), "{}", r[0].body);
    assert!(!r[0].body.contains("received as move"), "{}", r[0].body);
}

/// Issue 26 item 3: an offer answered in words is told how to answer it (reject or
/// accept), whoever's move it is; nothing is done and the offer still waits.
#[test]
fn an_offer_answered_in_words_is_told_how_to_answer_it() {
    let (mut s, a, _) = game();
    let r = s.press_reply(Client::Thunderbird, ALICE, &a, "d4");
    let b = only_to(&r, "bob@example.org");
    let r = s.press_reply(Client::Thunderbird, BOB, &b, "propose");
    let a = only_to(&r, "alice@example.org");
    assert_says(&a, "draw");
    let before = s.game_file(101);
    let r = s.press_reply(Client::Gmail, ALICE, &a, "No thanks, let us play on.");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(
        &r[0],
        "bob has made a draw offer that waits for your answer",
    );
    assert_says(&r[0], "write reject (or accept) as the first line");
    assert!(!r[0].body.contains("It is not your move"), "{}", r[0].body);
    assert_eq!(s.game_file(101), before, "nothing was done");
    // A phone's "Reject." (capital, full stop) answers it.
    let r = s.press_reply(Client::AppleMail, ALICE, &r[0], "Reject.\nLet us play on.");
    assert_says(&only_to(&r, "bob@example.org"), "reject");
    assert_ne!(s.game_file(101), before, "the offer was answered");
}

/// Issue 26 item 6: a preview's error shows the board at the move it started from.
#[test]
fn a_previews_error_shows_the_board_it_started_from() {
    let (mut s, a, _) = game();
    let r = s.press_reply(Client::Thunderbird, ALICE, &a, "d4");
    let b = only_to(&r, "bob@example.org");
    let r = s.press_reply(Client::Thunderbird, BOB, &b, "e5");
    let a = only_to(&r, "alice@example.org");
    s.press_reply(Client::Thunderbird, ALICE, &a, "f6");
    assert_eq!(turns(&s), 3);
    let r = s.send(ALICE, "yinsh preview 101#1 g8-i8", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Yinsh Board 101 Error");
    assert_says(&r[0], "Preview stopped at the first move given");
    assert_says(&r[0], "Last move: #1 alice");
    assert!(!r[0].body.contains("Last move: #3"), "{}", r[0].body);
}

/// Issue 26 item 12: an unknown command word ("register") gets every command of the
/// table; "singup" and "sign up" get the command meant; no error mail ends with an
/// empty "Original message follows:".
#[test]
fn an_unknown_command_gets_the_list_and_a_misspelt_one_the_command_meant() {
    let mut s = TestServer::new();
    let r = s.send(ZOE, "sign up zoe zpw", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(&r[0], "Did you mean");
    assert_says(&r[0], "signup");
    let r = s.send(ZOE, "register zoe zpw", "");
    assert_eq!(r.len(), 1, "{r:?}");
    for word in ["signup", "message", "vacation", "verify", "yinsh ..."] {
        assert_says(&r[0], word);
    }
    assert!(
        !r[0].body.trim_end().ends_with("Original message follows:"),
        "{}",
        r[0].body
    );
    let r = s.send(ZOE, "singup zoe zpw", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(&r[0], "Did you mean");
    assert_says(&r[0], "signup");
    assert!(
        !r[0].body.trim_end().ends_with("Original message follows:"),
        "{}",
        r[0].body
    );
}
