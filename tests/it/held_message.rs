//! Issue 45, a password-less challenge's message: `yinsh challenge alice bob`
//! (pbmserv's own form) with "Fancy a game, Bob?" under it, from alice's confirmed
//! address. The message is held, not dropped; alice's answer says so and how to pass
//! it on; a Reply to that answer (its reply token: only alice's mailbox got it) or the
//! challenge again with her password passes it on to bob once. A forger of alice's
//! From never gets a word to bob. Through the real binary, with confirmation on, the
//! replies built as mail programs build them. `docs/reliability.md` (a challenge's
//! message).

use crate::support::bin;
use crate::support::mail::{Client, reply};
use crate::support::sent::{ALICE, BOB, mails_to, nowhere, one_to};
use crate::support::server::{Sent, TestServer, assert_says};

const MALLORY: &str = "Mallory <mallory@evil.example>";

/// The real binary, confirmation on, alice and bob confirmed.
fn players() -> TestServer {
    let mut s = TestServer::with_binary();
    s.envs = bin::confirming().to_vec();
    s.confirmed("alice", "apw", "alice@example.org");
    s.confirmed("bob", "bpw", "bob@example.org");
    s
}

/// The answer to alice that says her message is held.
#[track_caller]
fn held_answer(sent: &[Sent]) -> Sent {
    let told: Vec<Sent> = mails_to(sent, "alice@example.org")
        .into_iter()
        .filter(|m| m.subject == "Your challenge's message")
        .collect();
    assert_eq!(told.len(), 1, "{sent:?}");
    told[0].clone()
}

/// A reply from `from` to `m` as `client` writes one.
fn answer(s: &mut TestServer, client: Client, from: &str, m: &Sent, text: &str) -> Vec<Sent> {
    let id = format!("held-{}@client.example", s.now);
    let raw = reply(client, from, &m.original(), text, &id);
    s.send_raw(raw.as_bytes())
}

/// The main case: the message is held (bob's first mail carries none of it), alice's
/// answer carries the token for it, her Reply passes it on to bob once, a second
/// Reply does not send it again.
#[test]
fn a_held_message_reaches_the_opponent_once_by_reply() {
    let mut s = players();
    let sent = s.send(ALICE, "yinsh challenge alice bob", "Fancy a game, Bob?");
    assert_says(&one_to(&sent, "bob@example.org"), "alice challenged you.");
    nowhere(&mails_to(&sent, "bob@example.org"), "Fancy a game");
    let held = held_answer(&sent);
    nowhere(std::slice::from_ref(&held), "Fancy a game");
    assert!(
        held.message_id.starts_with("y1~h~101~alice~"),
        "the answer carries alice's token for the held message: {}",
        held.message_id
    );
    assert!(s.home().join("held/101.json").exists(), "held");

    let sent = answer(&mut s, Client::Thunderbird, ALICE, &held, "Yes, send it.");
    let bob = one_to(&sent, "bob@example.org");
    assert_eq!(bob.subject, "Yinsh chat 101 alice", "{bob:?}");
    assert_says(&bob, "alice's message with the challenge of board 101:");
    assert_says(&bob, "alice writes:\n\nFancy a game, Bob?");
    assert_says(&bob, "goes back to alice as\na chat on board 101.");
    nowhere(&sent, "Yes, send it");
    let alice = one_to(&sent, "alice@example.org");
    assert_eq!(
        alice.subject,
        "Your challenge's message on board 101 was passed on"
    );
    assert_says(
        &alice,
        "Your message with the challenge of board 101 was passed on to bob.",
    );
    assert!(!s.home().join("held/101.json").exists(), "passed on once");

    // Once only: another Reply to the same answer (another mail program) sends nothing
    // to bob, and says why.
    let sent = answer(&mut s, Client::Gmail, ALICE, &held, "Did it go?");
    assert!(mails_to(&sent, "bob@example.org").is_empty(), "{sent:?}");
    assert_says(
        &one_to(&sent, "alice@example.org"),
        "No message of yours is held for board 101: it was passed on already, or it\nexpired",
    );
    // Bob's reply to the message chats back to alice.
    let sent = s.press_reply(Client::AppleMail, BOB, &bob, "Gladly!");
    assert_says(&one_to(&sent, "alice@example.org"), "Gladly!");
}

/// The attacker's side: mallory writes alice's From. Without a Reply-To the answer,
/// and its token, go to alice's mailbox only, so mallory cannot pass her text on:
/// a reply with a token she made up, or none, gets nothing to bob. With her own
/// Reply-To, the challenge is no player's: nothing is held at all.
#[test]
fn a_forged_challenges_text_never_reaches_the_opponent() {
    let mut s = players();
    let sent = s.send(
        ALICE,
        "yinsh challenge alice bob",
        "Buy pills at evil.example",
    );
    nowhere(&sent, "pills");
    let held = held_answer(&sent);
    assert!(
        mails_to(&sent, "mallory@evil.example").is_empty(),
        "{sent:?}"
    );
    // Mallory guesses the answer's Message-ID: a token not made with the key.
    let forged = format!("y1~h~101~alice~{}~x@localhost", "0".repeat(32));
    let guess = Sent {
        message_id: forged,
        references: Vec::new(),
        ..held.clone()
    };
    for from in [ALICE, MALLORY] {
        let sent = answer(&mut s, Client::Thunderbird, from, &guess, "send it");
        nowhere(&sent, "pills");
        assert!(mails_to(&sent, "bob@example.org").is_empty(), "{sent:?}");
    }
    // The genuine token from mallory's address (had she seen alice's mail): refused.
    let sent = answer(&mut s, Client::Thunderbird, MALLORY, &held, "send it");
    nowhere(&sent, "pills");
    assert!(mails_to(&sent, "bob@example.org").is_empty(), "{sent:?}");
    assert!(
        s.home().join("held/101.json").exists(),
        "still held for alice"
    );

    // With her own Reply-To the answer goes to mallory: it holds nothing and carries
    // no token, so a reply to it passes nothing on.
    let raw = s
        .mail(
            ALICE,
            "yinsh challenge alice bob",
            "Buy pills at evil.example",
        )
        .replacen("\nTo: ", "\nReply-To: mallory@evil.example\nTo: ", 1);
    let sent = s.send_raw(raw.as_bytes());
    nowhere(&sent, "pills");
    let told = one_to(&sent, "mallory@evil.example");
    assert!(!told.message_id.starts_with("y1~"), "{}", told.message_id);
    assert!(!s.home().join("held/102.json").exists(), "nothing held");
    let sent = answer(&mut s, Client::Thunderbird, ALICE, &told, "send it");
    nowhere(&sent, "pills");
    assert!(mails_to(&sent, "bob@example.org").is_empty(), "{sent:?}");
}

/// The answer's wording: held, not dropped; how to pass it on (Reply, or the password
/// with no second game); once; until when. The password passes it on too.
#[test]
fn the_answer_says_the_message_is_held_and_the_password_passes_it_on() {
    let mut s = players();
    let sent = s.send(ALICE, "yinsh challenge alice bob", "Fancy a game, Bob?");
    let held = held_answer(&sent);
    for line in [
        "The game was started on board 101, but the message in your mail was not passed on\nto bob yet:",
        "the\nserver holds its message until you show that it was yours.",
        "To pass it on, press Reply on this mail and send the reply",
        "Or send the\nchallenge again with the password of the player who challenges (no second game\nis started;",
        "    yinsh challenge -password <password> <userid1> <userid2>",
        "The message goes to bob once. It is held until ",
    ] {
        assert_says(&held, line);
    }
    // The challenge again with alice's password and no body: the held message goes,
    // and no second game is started.
    let sent = s.send(ALICE, "yinsh challenge -password apw alice bob", "");
    assert_says(&one_to(&sent, "bob@example.org"), "Fancy a game, Bob?");
    assert_says(&one_to(&sent, "alice@example.org"), "was passed on to bob.");
    assert!(!s.home().join("boards/102.json").exists(), "no second game");
    nowhere(&sent, "apw");
    // The Reply after it finds nothing held.
    let sent = answer(&mut s, Client::Thunderbird, ALICE, &held, "");
    assert!(mails_to(&sent, "bob@example.org").is_empty(), "{sent:?}");
    // A proven challenge with nothing held starts a game as before.
    let sent = s.send(ALICE, "yinsh challenge -password apw alice bob", "Again?");
    assert_says(&one_to(&sent, "bob@example.org"), "alice writes:\nAgain?");
    assert!(s.home().join("boards/102.json").exists(), "a second game");
}

/// It expires with the challenge: past the game's forfeit time a Reply passes
/// nothing on.
#[test]
fn a_held_message_expires_with_its_challenge() {
    let mut s = players();
    let sent = s.send(
        ALICE,
        "yinsh challenge --forfeittime=3 --nagtime=1 alice bob",
        "Fancy a game, Bob?",
    );
    let held = held_answer(&sent);
    s.now += 3 * 86_400;
    let sent = answer(&mut s, Client::Thunderbird, ALICE, &held, "send it");
    nowhere(&sent, "Fancy a game");
    assert!(mails_to(&sent, "bob@example.org").is_empty(), "{sent:?}");
    assert_says(
        &one_to(&sent, "alice@example.org"),
        "No message of yours is held for board 101",
    );
    assert!(!s.home().join("held/101.json").exists(), "removed");
}
