//! Issue 26, the social side of a game, through real mails with confirmation on:
//! a challenge's message (finding 5: carried only when the challenge is proven by a
//! player's password, never by a From alone), vacations the opponent can see
//! (finding 7), and chats and messages that are confirmed and answered by Reply
//! (finding 18). `docs/reliability.md` ("What mails and pages say": challenges, vacations, settings).

use crate::support::mail::Client;
use crate::support::sent::{ALICE, BOB, CAROL, mails_to, nowhere, one_to};
use crate::support::server::{Sent, TestServer, assert_says};

const MALLORY: &str = "Mallory <mallory@evil.example>";

/// A confirming server with alice, bob and carol confirmed.
fn players() -> TestServer {
    let mut s = TestServer::confirming();
    s.confirmed("alice", "apw", "alice@example.org");
    s.confirmed("bob", "bpw", "bob@example.org");
    s.confirmed("carol", "cpw", "carol@example.org");
    s
}

/// Issue 26 finding 5: a challenge proven by the challenger's password carries its
/// message to the other player, in the text and the HTML part; bob's first mail
/// says who challenged him; the password is in no mail.
#[test]
fn a_proven_challenge_carries_its_message_to_the_other_player() {
    let mut s = players();
    let sent = s.send(
        ALICE,
        "yinsh challenge -password apw alice bob",
        "Fancy a game, Bob?",
    );
    let bob = one_to(&sent, "bob@example.org");
    assert_says(&bob, "alice challenged you.");
    assert_says(&bob, "alice writes:\nFancy a game, Bob?");
    let html = bob.html.as_deref().expect("an HTML part");
    assert!(html.contains("Fancy a game, Bob?"), "{html}");
    assert!(bob.subject.ends_with(" **"), "{}", bob.subject);
    let alice = one_to(&sent, "alice@example.org");
    assert!(!alice.body.contains("challenged you"), "{}", alice.body);
    nowhere(&sent, "apw");
    assert!(!s.log().contains("apw"), "{}", s.log());
    // The challenger's password may be either player's: bob challenges alice with his.
    let sent = s.send(BOB, "yinsh challenge -password bpw alice bob", "Revenge?");
    assert_says(&one_to(&sent, "alice@example.org"), "bob writes:\nRevenge?");
    assert_says(&one_to(&sent, "alice@example.org"), "bob challenged you.");
}

/// Issue 26 finding 5: a challenge without a password starts the game, says who
/// challenged, and passes no message on; its sender is told why and how to send it.
#[test]
fn an_unproven_challenge_passes_no_message_and_says_how_to() {
    let mut s = players();
    let sent = s.send(ALICE, "yinsh challenge alice bob", "Fancy a game, Bob?");
    let bob = one_to(&sent, "bob@example.org");
    assert_says(&bob, "alice challenged you.");
    nowhere(&mails_to(&sent, "bob@example.org"), "Fancy a game");
    let told: Vec<Sent> = mails_to(&sent, "alice@example.org")
        .into_iter()
        .filter(|m| m.subject == "Your challenge's message")
        .collect();
    assert_eq!(told.len(), 1, "{sent:?}");
    assert_says(&told[0], "the message in your mail was not passed on");
    assert_says(
        &told[0],
        "yinsh challenge -password <password> <userid1> <userid2>",
    );
    nowhere(&told, "Fancy a game");
}

/// Issue 26 finding 5, the attacker's side: a forged From (alice's address, from
/// mallory) cannot put mallory's words in bob's mailbox, and a guessed password
/// starts no game and mails bob nothing.
#[test]
fn a_forged_from_cannot_put_a_strangers_words_in_bobs_mailbox() {
    let mut s = players();
    let raw = s
        .mail(
            ALICE,
            "yinsh challenge alice bob",
            "Buy pills at evil.example",
        )
        .replacen("\nTo: ", "\nReply-To: mallory@evil.example\nTo: ", 1);
    let sent = s.send_raw(raw.as_bytes());
    nowhere(&sent, "pills");
    let sent = s.send(
        MALLORY,
        "yinsh challenge -password guess alice bob",
        "Buy pills at evil.example",
    );
    assert!(mails_to(&sent, "bob@example.org").is_empty(), "{sent:?}");
    assert!(mails_to(&sent, "alice@example.org").is_empty(), "{sent:?}");
    nowhere(&sent, "pills");
    assert_says(&one_to(&sent, "mallory@evil.example"), "Invalid password");
    assert!(!s.home().join("boards/102.json").exists(), "no second game");
}

/// Issue 26 finding 7: carol, challenging bob during his vacation, is told until
/// when; the Clock line says why bob's dates are later; bob back from vacation is
/// told which boards' clocks run again.
#[test]
fn a_vacation_is_visible_to_the_opponent_and_its_end_names_the_boards() {
    let mut s = players();
    s.send(BOB, "vacation bob bpw 14", "");
    let sent = s.send(CAROL, "yinsh challenge bob carol", "");
    let carol = one_to(&sent, "carol@example.org");
    assert_says(&carol, "bob is on vacation until ");
    assert_says(&carol, "Later than usual: bob's vacation, until ");
    let bob = one_to(&sent, "bob@example.org");
    assert!(!bob.body.contains("bob is on vacation"), "{}", bob.body);
    let sent = s.send(BOB, "vacation bob bpw 0", "");
    let bob = one_to(&sent, "bob@example.org");
    assert_says(
        &bob,
        "bob is back from vacation: the clocks of board 101 run again.",
    );
    assert_says(
        &one_to(&sent, "carol@example.org"),
        "the clocks of board 101 run again",
    );
}

/// alice and bob playing board 101.
fn game() -> TestServer {
    let mut s = players();
    s.send(ALICE, "yinsh challenge alice bob", "");
    s
}

/// Issue 26 finding 18: a chat is confirmed to its sender, its mail says that Reply
/// answers it, and a Reply to it goes back as a chat.
#[test]
fn a_chat_is_confirmed_and_answered_by_reply() {
    let mut s = game();
    let sent = s.send(ALICE, "yinsh chat 101 alice apw", "Good luck!");
    let receipt = one_to(&sent, "alice@example.org");
    assert_eq!(receipt.subject, "Chat sent on board 101");
    assert_says(&receipt, "Your chat on board 101 was sent to bob.");
    let chat = one_to(&sent, "bob@example.org");
    assert_says(&chat, "alice writes:\n\nGood luck!");
    assert_says(&chat, "Press Reply to answer alice");
    let sent = s.press_reply(Client::Thunderbird, BOB, &chat, "Thanks, you too");
    let back = one_to(&sent, "alice@example.org");
    assert_says(&back, "bob writes:\n\nThanks, you too");
    assert_says(&one_to(&sent, "bob@example.org"), "was sent to alice.");
}

/// Issue 26 finding 18, the attacker's side: a Reply to bob's chat mail with its
/// token altered, or a copy of it answered from another From, sends no chat.
#[test]
fn a_chat_reply_with_a_forged_token_sends_nothing() {
    let mut s = game();
    let sent = s.send(ALICE, "yinsh chat 101 alice apw", "Good luck!");
    let chat = one_to(&sent, "bob@example.org");
    // The first hex digit of the token's tag (its fifth `~` field) changed.
    let mut fields: Vec<String> = chat.message_id.split('~').map(str::to_string).collect();
    let digit = if fields[4].starts_with('0') { "1" } else { "0" };
    fields[4].replace_range(0..1, digit);
    let forged = Sent {
        message_id: fields.join("~"),
        ..chat.clone()
    };
    let sent = s.press_reply(Client::Thunderbird, BOB, &forged, "Forged words");
    assert!(mails_to(&sent, "alice@example.org").is_empty(), "{sent:?}");
    nowhere(&sent, "Forged words");
    let sent = s.press_reply(Client::Thunderbird, MALLORY, &chat, "Stolen copy");
    assert!(mails_to(&sent, "alice@example.org").is_empty(), "{sent:?}");
    nowhere(&sent, "Stolen copy");
}

/// Issue 26 finding 18: a message's mail says that Reply answers it, and it does.
#[test]
fn a_message_says_reply_answers_it() {
    let mut s = players();
    let sent = s.send(ALICE, "message alice apw bob", "Lunch on Sunday?");
    let m = one_to(&sent, "bob@example.org");
    assert_says(&m, "Press Reply to answer alice");
    let sent = s.press_reply(Client::Thunderbird, BOB, &m, "Yes, at noon");
    let back = one_to(&sent, "alice@example.org");
    assert_eq!(back.subject, "Message from bob");
    assert_says(&back, "Yes, at noon");
}
