//! Issue 45, a player silenced by their own use: a confirmed player's whole day
//! through the real binary, replies built as a mail program builds them. A reply
//! carrying the player's genuine token is the player's whatever its first line says
//! (a move, a sentence, an old mail's answer, a command, thanks after the game);
//! with the mail system's checks trusted (`[security] trusted_authserv_id`, the From
//! passing DMARC) a password-less mail from the confirmed address is its owner's
//! too: every one is answered at the player's address, none in a stranger's words
//! or budget. A forger aimed at the same mailbox still gets no more than
//! `stranger_mails_per_day`; without trusted checks the budget's last answer says
//! what still gets an answer, and it does. `docs/reliability.md`.

use crate::support::bin;
use crate::support::mail::Client;
use crate::support::sent::mails_to;
use crate::support::server::{Sent, TestServer, assert_says};

const PAT: &str = "pat@example.org";
const BOB: &str = "bob@example.org";
const TRUSTED: &str = "mx.yinsh.example";

/// A confirming server through the binary (with the trusted id when `trusted`),
/// pat and bob confirmed, board 101 started by pat's challenge (pat, White, to
/// move); pat's first board mail.
fn day(trusted: bool) -> (TestServer, Sent) {
    let mut s = TestServer::with_binary();
    s.envs = bin::confirming().to_vec();
    if trusted {
        let config = s.dir.path().join("config.toml");
        std::fs::write(
            &config,
            format!("[security]\ntrusted_authserv_id = \"{TRUSTED}\"\n"),
        )
        .expect("config");
        s.args = vec!["--config".into(), config.display().to_string()];
    }
    s.confirmed("pat", "ppw", PAT);
    s.confirmed("bob", "bpw", BOB);
    let sent = s.send(PAT, "yinsh challenge -password ppw pat bob", "");
    let board = board_mail(&sent);
    (s, board)
}

/// The one board mail of `sent` to pat.
#[track_caller]
fn board_mail(sent: &[Sent]) -> Sent {
    let mine: Vec<Sent> = mails_to(sent, PAT)
        .into_iter()
        .filter(|m| m.subject.contains("Board 101") && !m.subject.ends_with("Error"))
        .collect();
    assert_eq!(mine.len(), 1, "one board mail to pat: {sent:?}");
    mine[0].clone()
}

/// A password-less mail from pat whose From the trusted mail system passed.
fn passed(s: &mut TestServer, subject: &str) -> Vec<Sent> {
    let raw = s.mail(PAT, subject, "");
    let header = format!("Authentication-Results: {TRUSTED}; dmarc=pass header.from=example.org\n");
    s.send_raw(format!("{header}{raw}").as_bytes())
}

/// pat's answers in `sent`: at least one, none of them in a stranger's words.
#[track_caller]
fn answered(sent: &[Sent], what: &str) -> Vec<Sent> {
    let mine = mails_to(sent, PAT);
    assert!(!mine.is_empty(), "{what}: no answer to pat: {sent:?}");
    for m in &mine {
        for stranger in [
            "anyone could have sent it",
            "not a reply to one of our mails",
            "proved no\nsender",
        ] {
            assert!(!m.body.contains(stranger), "{what}: {}", m.body);
        }
    }
    mine
}

/// [`answered`], one more of pat's mails counted in `mails`.
#[track_caller]
fn count(mails: &mut usize, sent: &[Sent], what: &str) -> Vec<Sent> {
    *mails += 1;
    answered(sent, what)
}

fn turns(s: &TestServer) -> usize {
    s.game_file(101)["turns"].as_array().map_or(0, Vec::len)
}

/// The whole day: 40 mails and more of pat's, each answered; then a forger aimed at
/// pat's mailbox gets at most the budget, and pat is still answered after it.
#[test]
fn a_players_own_day_is_answered_in_full_and_a_forger_gets_the_budget() {
    let (mut s, first) = day(true);
    let mut mails = 0;
    for subject in ["help", "yinsh help", "yinsh standings", "yinsh games"] {
        let sent = passed(&mut s, subject);
        count(&mut mails, &sent, subject);
    }
    let mut latest = first.clone();
    let (pats, bobs) = (
        ["e5", "e6", "e7", "e8", "e9"],
        ["f5", "f6", "f7", "f8", "f9"],
    );
    for k in 0..5 {
        // A sentence first: told what the first line must be, as pat's.
        let sent = s.press_reply(Client::Thunderbird, PAT, &latest, "Hi Bob, good luck!");
        let mine = count(&mut mails, &sent, "a sentence for a move");
        assert_says(&mine[0], "The first line of your reply must be your move");
        // A command as the first line of a reply, no password.
        let sent = s.press_reply(Client::Gmail, PAT, &latest, "yinsh standings");
        count(&mut mails, &sent, "a command as a reply's first line");
        // The move, by Reply.
        let sent = s.press_reply(Client::AppleMail, PAT, &latest, pats[k]);
        count(&mut mails, &sent, "a move by reply");
        assert_eq!(turns(&s), 2 * k + 1, "{}", s.log());
        if k > 0 {
            // The first board mail answered again: an old mail, told so.
            let sent = s.press_reply(Client::Thunderbird, PAT, &first, "d4");
            let mine = count(&mut mails, &sent, "a reply to an old board mail");
            assert_says(&mine[0], "You answered an old mail");
        }
        // Listings and help without a password, the From trusted.
        let subject = [
            "yinsh history",
            "yinsh games",
            "yinsh preview 101 d2",
            "help",
        ][k % 4];
        let sent = passed(&mut s, subject);
        count(&mut mails, &sent, subject);
        let sent = s.send(BOB, &format!("yinsh move 101 bob bpw {}", bobs[k]), "");
        latest = board_mail(&sent);
    }
    assert_eq!(turns(&s), 10);
    let before_end = latest.clone();
    let sent = s.press_reply(Client::Gmail, PAT, &latest, "resign\n\nWell played.");
    count(&mut mails, &sent, "resign by reply");
    // Thanks after the game, to the last board mail and to older ones: told that the
    // game is over and what pat can still do.
    for m in [&before_end, &first, &before_end] {
        let sent = s.press_reply(Client::Thunderbird, PAT, m, "Thanks Bob, good game!");
        let mine = count(&mut mails, &sent, "thanks after the game");
        assert_says(&mine[0], "The game on board 101 is over");
        assert_says(&mine[0], "yinsh history pat");
        assert_says(&mine[0], "chat as the first line");
    }
    for subject in [
        "yinsh history pat",
        "yinsh standings",
        "yinsh games",
        "help",
        "yinsh help",
        "yinsh standngs",
        "yinsh history",
        "yinsh standings 2",
    ] {
        let sent = passed(&mut s, subject);
        count(&mut mails, &sent, subject);
    }
    assert!(mails >= 40, "pat's day was {mails} mails");
    // A forger aims at pat's mailbox: any From (pat's own among them) with Reply-To
    // pat and no trusted pass, or a pass for another domain.
    let mut reached = 0;
    for k in 0..30 {
        let from = if k % 3 == 0 {
            PAT.to_string()
        } else {
            format!("f{k}@forged.example")
        };
        let mut raw = s.mail(&from, "yinsh standings", "");
        raw = raw.replacen("\nTo: ", &format!("\nReply-To: {PAT}\nTo: "), 1);
        if k % 3 == 1 {
            raw = format!(
                "Authentication-Results: {TRUSTED}; dmarc=pass header.from=forged.example\n{raw}"
            );
        }
        reached += mails_to(&s.send_raw(raw.as_bytes()), PAT).len();
    }
    assert!(
        (1..=10).contains(&reached),
        "{reached} forged answers: {}",
        s.log()
    );
    // pat's own mail after the forger spent the budget: still answered.
    let sent = passed(&mut s, "yinsh standings");
    answered(&sent, "standings after the forger");
    let sent = s.press_reply(Client::Thunderbird, PAT, &first, "Thanks again!");
    answered(&sent, "a reply after the forger");
}

/// Without trusted checks a password-less mail proves nothing and is budgeted; the
/// budget's last answer says so and what still gets an answer, and those do: a
/// Reply to a board mail (a move or a command as its first line) and a password.
#[test]
fn without_trusted_checks_the_budgets_last_answer_says_what_still_works() {
    let (mut s, first) = day(false);
    let mut answers = Vec::new();
    for _ in 0..12 {
        answers.extend(mails_to(&s.send(PAT, "yinsh standings", ""), PAT));
    }
    let last = answers.last().expect("some answers").clone();
    assert!(answers.len() < 12, "{}", s.log());
    assert_says(&last, "not sent until");
    assert_says(&last, "anyone can send with this address as its From");
    assert_says(&last, "your Reply to one of your board, chat or");
    assert_says(&last, "commands with your userid and");
    // Spent: a password-less mail is not answered any more...
    assert!(mails_to(&s.send(PAT, "yinsh standings", ""), PAT).is_empty());
    // ...but what the notice named is.
    let sent = s.press_reply(Client::Gmail, PAT, &first, "yinsh standings");
    answered(&sent, "a command as a reply's first line");
    let sent = s.press_reply(Client::Thunderbird, PAT, &first, "Hello Bob,");
    answered(&sent, "a sentence by reply");
    let sent = s.press_reply(Client::AppleMail, PAT, &first, "e5");
    answered(&sent, "a move by reply");
    assert_eq!(turns(&s), 1);
    let sent = s.send(PAT, "yinsh showas pat ppw 101", "");
    answered(&sent, "a command with the password");
}

/// An auto-responder at pat's address that writes no `Auto-Submitted` answers each
/// refusal it gets by Reply (a fresh token each time): the owner's own answers stop
/// being the owner's past `OWN_MAILS_PER_DAY` (50), then the stranger's budget ends
/// the loop.
#[test]
fn a_mail_loop_with_the_owners_auto_responder_ends() {
    let (mut s, first) = day(false);
    let mut last = first;
    let mut answers = 0;
    for _ in 0..80 {
        let sent = s.press_reply(Client::Thunderbird, PAT, &last, "I am away until Monday.");
        let mine = mails_to(&sent, PAT);
        let Some(m) = mine.into_iter().next() else {
            break;
        };
        answers += 1;
        last = m;
    }
    // 50 as the owner's, then what is left of the day's stranger budget (pat's
    // signup answer spent one of its 10).
    assert_eq!(answers, 59, "{}", s.log());
    assert_eq!(turns(&s), 0);
}
