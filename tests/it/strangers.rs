//! Issue 25: nobody can bury a player in mail or act for them. With confirmation on
//! (the default), a stranger who writes any From and Reply-To, with any number of
//! spellings of one address, gets at most the daily budget of mails to one mailbox
//! (`[security] stranger_mails_per_day`, 10) and none of its own text out of the
//! server; the answers to a request proven for a player go to that player's own
//! addresses; honest play is never throttled. `docs/reliability.md` ("Strangers,
//! players, operator").

use crate::support::mail::{Client, reply};
use crate::support::sent::{ALICE, BOB, mails_to};
use crate::support::server::{Sent, TestServer, assert_says};

/// alice and bob, both confirmed, play board 101; the board mails of its start.
fn game() -> (TestServer, Vec<Sent>) {
    let mut s = TestServer::confirming();
    s.confirmed("alice", "apw", "alice@example.org");
    s.confirmed("bob", "bpw", "bob@example.org");
    let sent = s.send(ALICE, "yinsh challenge alice bob", "");
    assert_eq!(sent.len(), 2, "{sent:?}");
    (s, sent)
}

/// The reply of `from` to `m`, with a `Reply-To` of `reply_to` when given.
fn reply_as(
    s: &mut TestServer,
    from: &str,
    reply_to: Option<&str>,
    m: &Sent,
    text: &str,
) -> Vec<Sent> {
    let id = format!("r-{}-{}@client.example", s.now, s.outbox_files().len());
    let mut raw = reply(Client::Thunderbird, from, &m.original(), text, &id);
    if let Some(r) = reply_to {
        raw = raw.replacen("\nTo: ", &format!("\nReply-To: {r}\nTo: "), 1);
    }
    s.send_raw(raw.as_bytes())
}

fn turns(s: &TestServer) -> usize {
    s.game_file(101)["turns"].as_array().map_or(0, Vec::len)
}

/// Finding 1: a stale reply token and a forged From gave a stranger the refusal at
/// its Reply-To, with a new token for alice in its Message-ID, and so her turns. Now
/// every answer to a request a token proves goes to the token's player.
#[test]
fn a_stale_token_with_a_forged_from_gives_the_stranger_nothing() {
    let (mut s, start) = game();
    let first = mails_to(&start, "alice@example.org").remove(0);
    let played = reply_as(&mut s, ALICE, None, &first, "e5");
    assert_eq!(turns(&s), 1, "{played:?}");
    let mallory = "mallory@evil.test";
    // The stale token, From alice forged, Reply-To mallory.
    let r = reply_as(&mut s, ALICE, Some(mallory), &first, "d4");
    assert!(mails_to(&r, mallory).is_empty(), "{r:?}");
    assert_eq!(mails_to(&r, "alice@example.org").len(), 1, "{r:?}");
    // Issue 26 item 4: told as a reply to an old mail (was "it was not played").
    assert_says(
        &mails_to(&r, "alice@example.org")[0],
        "You answered an old mail (move 1): nothing was played",
    );
    // An illegal move with a current token: the refusal goes to bob, not mallory.
    let bobs = mails_to(&played, "bob@example.org").remove(0);
    let r = reply_as(&mut s, BOB, Some(mallory), &bobs, "e5");
    assert!(mails_to(&r, mallory).is_empty(), "{r:?}");
    assert_eq!(mails_to(&r, "bob@example.org").len(), 1, "{r:?}");
    // No mail of the server ever reached mallory, so no token did.
    let all = s.sent_since(&[]);
    assert!(mails_to(&all, mallory).is_empty(), "{all:?}");
    assert_eq!(turns(&s), 1);
}

/// Finding 2: 70 mails from different forged Froms with `Reply-To: victim`, each a
/// `multiple` of 25 lines, sent a confirmed player 1,426 mails, some quoting the
/// attacker's text. Now the victim gets the daily budget, and no text of the
/// stranger's.
#[test]
fn a_mail_cannon_at_a_confirmed_player_is_held_to_the_daily_budget() {
    let (mut s, _) = game();
    let victim = "bob@example.org";
    let lure = "Your-account-is-suspended.-Log-in-at-http://evil.test/login";
    let body: String = (0..25)
        .map(|k| match k % 5 {
            0 => "yinsh show 101\n".to_string(),
            1 => "help\n".to_string(),
            2 => "yinsh games\n".to_string(),
            3 => "yinsh standings\n".to_string(),
            _ => format!("yinsh {lure}\n"),
        })
        .collect();
    let mut reached = Vec::new();
    for k in 0..70 {
        let from = format!("sender{k}@forged{k}.example");
        let sent = s.send_with_reply_to(&from, victim, "multiple", &body);
        reached.extend(mails_to(&sent, victim));
    }
    assert!(
        reached.len() <= 10,
        "{} mails reached the victim",
        reached.len()
    );
    assert!(!reached.is_empty());
    for m in &reached {
        assert!(!m.raw.contains("evil.test"), "{}", m.raw);
    }
    // One of them, the day's last, says until when.
    let told = reached.iter().filter(|m| m.body.contains("not sent until"));
    assert_eq!(told.count(), 1, "{reached:?}");
    // bob's own play is not touched by it.
    let sent = s.send(BOB, "yinsh showas bob bpw 101", "");
    assert!(!mails_to(&sent, victim).is_empty(), "{sent:?}");
}

/// Finding 4: every case spelling and `+tag` of one address had its own quota; they
/// are now one mailbox.
#[test]
fn spellings_of_one_address_share_one_budget() {
    let (mut s, _) = game();
    let spellings = [
        "bob@example.org",
        "Bob@example.org",
        "bob@exampLe.oRG",
        "BOB@EXAMPLE.ORG",
        "bob+1@example.org",
        "bob+yinsh@Example.org",
    ];
    let mut reached = 0;
    for k in 0..30 {
        let sent = s.send_with_reply_to(
            &format!("x{k}@forged.example"),
            spellings[k % spellings.len()],
            "yinsh help",
            "",
        );
        reached += sent.len();
    }
    // bob's signup answer and his first board mail (of alice's challenge, which proves
    // no sender) were 2 of his 10.
    assert_eq!(reached, 8, "{}", s.log());
    // An address nobody confirmed: 5 a day, whatever the spelling.
    let mut reached = 0;
    for k in 0..20 {
        let target = [
            "target@example.org",
            "Target@exampLe.oRG",
            "target+x@example.org",
        ][k % 3];
        reached += s
            .send_with_reply_to(&format!("y{k}@forged.example"), target, "yinsh help", "")
            .len();
    }
    assert_eq!(reached, 5, "{}", s.log());
}

/// Finding 3 (with the accounts' own part: a confirmation belongs to the account and
/// address): a throwaway account naming a confirmed player's address is not
/// confirmed by it, so its password proves a stranger only: `showas` sends the victim
/// at most the budget.
#[test]
fn a_throwaway_account_on_a_players_address_sends_at_most_the_budget() {
    let (mut s, _) = game();
    let victim = "bob@example.org";
    s.send(
        "mallory@evil.test",
        &format!("signup mal1 malpw1 {victim}"),
        "",
    );
    for _ in 0..3 {
        s.send("mallory@evil.test", "yinsh challenge mal1 alice", "");
    }
    let mut reached = 0;
    for k in 0..40 {
        let sent = s.send(
            &format!("m{k}@evil.test"),
            "yinsh showas mal1 malpw1 all",
            "",
        );
        reached += mails_to(&sent, victim).len();
    }
    assert!(
        reached <= 10,
        "{reached} mails reached the victim: {}",
        s.log()
    );
}

/// Finding 15: a confirmed player who plays at any pace by password or reply token
/// is never throttled, and a mail of theirs without proof after it is answered; a
/// limit that does hit says until when.
#[test]
fn honest_play_is_never_throttled_and_a_limit_says_until_when() {
    let (mut s, _) = game();
    let start = s.now;
    for _ in 0..75 {
        let sent = s.send(ALICE, "yinsh showas alice apw 101", "");
        assert_eq!(sent.len(), 1, "{}", s.log());
        s.now = start + 600;
    }
    let sent = s.send(ALICE, "yinsh challenge alice robot1", "");
    assert!(
        !mails_to(&sent, "alice@example.org").is_empty(),
        "{}",
        s.log()
    );
    // Mail that proves no sender is answered five times a day at an address nobody
    // confirmed (ten at a confirmed one); the last says until when.
    let mut answers = Vec::new();
    for _ in 0..8 {
        answers.extend(s.send("carol@example.net", "yinsh standings", ""));
    }
    assert_eq!(answers.len(), 5, "{}", s.log());
    assert_says(&answers[4], "not sent until");
}
