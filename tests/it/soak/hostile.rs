//! The hostile traffic of the soak: strangers (From `attackerN@evil.example`, often
//! with a Reply-To naming a victim or a player) sending floods of `multiple` lines and
//! mails, password guesses, huge Subjects and bodies, MIME oddities, challenges for
//! other people, victims' addresses signed up, an admin's name taken, robots' mails,
//! and honest Message-IDs replayed in another case; and, at fixed mails, a burst of
//! guesses at one newcomer's password ([`guessing_burst`]). Every text they choose
//! carries [`FOREIGN`] and every password they write starts with `gsSOAK` or
//! `atSOAK`; what each kind must cause is asserted here, the rest by
//! [`Soak::deliver`] and the final checks.

use yinsh_pbem::server::store::{MAX_FAILURES, WINDOW};

use super::{FOREIGN, STRANGER, Soak};
use crate::support::server::Sent;

/// A stranger's From.
fn attacker(s: &mut Soak) -> String {
    format!("attacker{}@evil.example", s.run.below(1000))
}

/// A Reply-To for a stranger's mail: a victim (never confirmed), a confirmed player,
/// or none.
fn target(s: &mut Soak) -> Option<String> {
    match s.run.below(4) {
        0 | 1 => Some(format!("victim{}@victim.example", s.run.below(10))),
        2 => {
            let confirmed: Vec<String> = s.confirmed.iter().cloned().collect();
            (!confirmed.is_empty())
                .then(|| confirmed[s.run.below(confirmed.len() as u64) as usize].clone())
        }
        _ => None,
    }
}

/// A userid to guess the password of: a stranger's account mostly, sometimes a player.
fn guessed(s: &mut Soak) -> String {
    if s.run.below(8) == 0 {
        let k = s.run.below(s.players.len() as u64) as usize;
        s.players[k].userid.clone()
    } else {
        format!("spam{}", s.run.below(4))
    }
}

/// A board that exists (or 101).
fn some_board(s: &mut Soak) -> u32 {
    101 + s
        .run
        .below(u64::from(s.last_board().saturating_sub(100)).max(1)) as u32
}

/// Sends a stranger's mail and returns its replies.
fn send(s: &mut Soak, subject: &str, body: &str) -> Vec<Sent> {
    let from = attacker(s);
    let reply_to = target(s);
    let raw = s.mail(&from, reply_to.as_deref(), subject, body);
    s.deliver(raw.as_bytes())
}

/// One line a flood of `multiple` is made of.
fn flood_line(s: &mut Soak, k: u64) -> String {
    let board = some_board(s);
    let (a, b) = (s.run.below(6), s.run.below(6));
    match s.run.below(8) {
        0 => "help".to_string(),
        1 => format!("yinsh show {board} {board} 101 102"),
        2 => format!("message spam{a} atSOAK{a} h{b} spam{a} {FOREIGN}"),
        3 => format!("yinsh challenge h{} h{}", a.max(b), a.min(b)),
        4 => format!("yinsh showas {} gsSOAK{k}", guessed(s)),
        5 => format!("yinsh frobnicate {FOREIGN} {k}"),
        6 => format!("yinsh mvoe {board} h{a} gsSOAK{k} e5"),
        _ => format!("yinsh chat {board} spam{a} atSOAK{a} {FOREIGN}"),
    }
}

/// A Subject guessing `who`'s password (`gsSOAK` and a random number) in one of four
/// commands; each has its password checked before anything else.
fn guess(s: &mut Soak, who: &str) -> String {
    let k = s.run.below(1_000_000);
    match s.run.below(4) {
        0 => format!("yinsh showas {who} gsSOAK{k}"),
        1 => format!("yinsh move {} {who} gsSOAK{k} e5", some_board(s)),
        2 => format!("yinsh resign {} {who} gsSOAK{k}", some_board(s)),
        _ => format!("change password {who} gsSOAK{k} gsSOAK{k}new"),
    }
}

/// The first guessing burst comes at this mail, the next ones every [`BURST_EVERY`]
/// mails after it: the 300 mails of `cargo test` hold one, the 5,000 of `.ci/run` five.
const FIRST_BURST: usize = 50;
const BURST_EVERY: usize = 1_000;
/// The longest pause between two guesses of a burst, seconds.
const BURST_PAUSE: u64 = 120;
// The whole burst falls inside one window of the login counts.
const _: () = assert!((MAX_FAILURES as u64 + 1) * BURST_PAUSE < WINDOW);

/// One hostile step (one or more mails); `n` is the soak's size (floods scale with it).
/// Every mail it causes is checked against the stranger's budget
/// ([`Soak::deliver`]). A guessing burst when one is due, else a random attack.
pub fn step(s: &mut Soak, n: usize) {
    s.hostile = true;
    if s.run.stats.mails >= FIRST_BURST + s.bursts * BURST_EVERY {
        guessing_burst(s);
    } else {
        attack(s, n);
    }
    s.hostile = false;
}

/// A guessing burst, in every soak by construction (issue 48: whether the random
/// guesses get an owner told depends on the seed): a newcomer signs up from a mailbox
/// of its own (and has yet to confirm it), then strangers from ever-different
/// addresses send [`MAX_FAILURES`] + 1 wrong passwords for the account within
/// minutes. None of the first `MAX_FAILURES` tells the owner; the last finds logins
/// paused, says so to its sender, and the owner is told.
fn guessing_burst(s: &mut Soak) {
    let k = s.bursts;
    s.bursts += 1;
    let userid = format!("burst{k}");
    let owner = format!("{userid}@newcomer.example");
    s.tick_clock(BURST_PAUSE);
    let raw = s.mail(&owner, None, &format!("signup {userid} atSOAKb{k}"), "");
    let sent = s.deliver(raw.as_bytes());
    assert!(
        sent.iter()
            .any(|m| m.subject.starts_with(&format!("verify {userid} "))),
        "no verify mail for {userid}: {sent:?}"
    );
    let notice = format!("Wrong passwords for {userid}");
    for j in 0..=MAX_FAILURES {
        s.tick_clock(BURST_PAUSE);
        let from = format!("guesser{k}-{j}@evil.example");
        let subject = guess(s, &userid);
        let raw = s.mail(&from, None, &subject, &format!("{FOREIGN}\n"));
        let sent = s.deliver(raw.as_bytes());
        let told: Vec<&Sent> = sent.iter().filter(|m| m.subject == notice).collect();
        if j < MAX_FAILURES {
            assert!(told.is_empty(), "guess {} of {userid}: {sent:?}", j + 1);
            continue;
        }
        assert!(
            told.len() == 1 && told[0].to == [owner.clone()],
            "the owner of {userid} not told of guessing: {sent:?}"
        );
        assert!(
            sent.iter()
                .any(|m| m.to == [from.clone()] && m.body.contains("logins are paused")),
            "guess {} of {userid} not refused as paused: {sent:?}",
            j + 1
        );
    }
}

fn attack(s: &mut Soak, n: usize) {
    s.tick_clock(120);
    match s.run.below(24) {
        // A flood of lines in one `multiple` mail.
        0..=2 => {
            let lines = 30 + s.run.below(300);
            let body: String = (0..lines).map(|k| flood_line(s, k) + "\n").collect();
            send(s, "multiple", &body);
        }
        // A burst of mails from ever-different Froms to one victim: the storm limit.
        3 => {
            let burst = (n / 25).clamp(10, 80);
            let victim = format!("victim{}@victim.example", s.run.below(10));
            let mut answered = 0;
            for k in 0..burst {
                s.run.now += 1;
                let from = attacker(s);
                let raw = s.mail(&from, Some(&victim), "help", &format!("{FOREIGN} {k}\n"));
                answered += s.deliver(raw.as_bytes()).len();
            }
            assert!(answered <= super::QUOTA, "{answered} mails to {victim}");
        }
        // Password guesses, one a mail, from ever-different addresses.
        4..=6 => {
            let who = guessed(s);
            let subject = guess(s, &who);
            send(s, &subject, &format!("{FOREIGN}\n"));
        }
        // A misspelt command with a password, its error sent to a player (Reply-To).
        7 => {
            let who = guessed(s);
            let k = s.run.below(1_000_000);
            let subject = match s.run.below(3) {
                0 => format!("yinsh mvoe {} {who} gsSOAK{k} e5", some_board(s)),
                1 => format!("yinsh move{} {who} gsSOAK{k} e5", some_board(s)),
                _ => format!("yinsh resing {} {who} gsSOAK{k}", some_board(s)),
            };
            send(s, &subject, &format!("{FOREIGN}\n"));
        }
        // Huge Subjects and bodies within the size limit, and one over it.
        8 => {
            let size = 1 + s.run.below(900) as usize * 1024;
            match s.run.below(3) {
                0 => {
                    let subject = format!("yinsh frobnicate {FOREIGN} {}", "x".repeat(size));
                    send(s, &subject, "");
                }
                1 => {
                    let line = format!("{FOREIGN} a long comment line\n");
                    let body = line.repeat(size / line.len() + 1);
                    let subject = format!("yinsh show {}", some_board(s));
                    send(s, &subject, &body);
                }
                _ => {
                    let body = "y".repeat(1024 * 1024 + 10);
                    let sent = send(s, "help", &body);
                    assert!(sent.len() <= 1, "{sent:?}");
                }
            }
        }
        // MIME oddities.
        9 | 10 => {
            let from = attacker(s);
            let reply_to = target(s).unwrap_or_else(|| from.clone());
            let mid = s.mid("mime");
            let raw = odd_mime(s.run.below(12), &from, &reply_to, &mid);
            s.deliver(&raw);
        }
        // Challenges for two other people (named the other way round than honest).
        11 | 12 => {
            let (a, b) = (s.run.below(6), s.run.below(6));
            let (hi, lo) = (a.max(b), a.min(b));
            if s.run.below(2) == 0 {
                send(s, &format!("yinsh challenge h{hi} h{lo}"), "");
            } else {
                let body = format!("yinsh challenge h{hi} h{lo}\n").repeat(10);
                send(s, "multiple", &body);
            }
        }
        // A victim's address signed up, then text sent to it.
        13 | 14 => {
            let a = s.run.below(4);
            let victim = format!("victim{}@victim.example", s.run.below(10));
            let subject = match s.run.below(4) {
                0 => format!("signup spam{a} atSOAK{a} {victim}"),
                1 => format!("message spam{a} atSOAK{a} spam{a} spam{a} h0 h1"),
                2 => format!("change address spam{a} atSOAK{a} {victim}"),
                _ => format!(
                    "signup spam{} atSOAK{a} {victim} v1@victim.example v2@victim.example v3@victim.example",
                    a + 10
                ),
            };
            send(s, &subject, &format!("{FOREIGN} BUY NOW\n"));
        }
        // The admin's name taken, then a broadcast.
        15 => {
            send(s, "signup admin atSOAKadmin", "");
            let sent = send(
                s,
                "broadcast admin atSOAKadmin",
                &format!("{FOREIGN} PHISH\n"),
            );
            assert!(
                sent.iter().all(|m| !m.subject.starts_with("Broadcast")),
                "{sent:?}"
            );
        }
        // Robots: never answered.
        16 => {
            let mid = s.mid("robot");
            let head = match s.run.below(7) {
                0 => "From: MAILER-DAEMON@victim.example\n".to_string(),
                1 => "From: a@victim.example\nAuto-Submitted: auto-replied\n".to_string(),
                2 => "From: a@victim.example\nPrecedence: bulk\n".to_string(),
                3 => "From: a@victim.example\nX-Autoreply: yes\n".to_string(),
                4 => "From: a@victim.example\nList-Id: <l.victim.example>\n".to_string(),
                5 => "From: a@victim.example\nReply-To: yinsh@localhost\n".to_string(),
                _ => "From: a@victim.example\nReturn-Path: <>\n".to_string(),
            };
            let raw = format!("{head}Subject: help\nMessage-ID: <{mid}>\n\n{FOREIGN}\n");
            let sent = s.deliver(raw.as_bytes());
            assert!(sent.is_empty(), "a robot's mail answered: {sent:?}");
        }
        // An honest Message-ID in another case, then the honest mail delivered again:
        // it is a duplicate, changes nothing and gets no answer.
        17 | 18 => {
            if s.honest_mails.is_empty() {
                return;
            }
            let k = s.run.below(s.honest_mails.len() as u64) as usize;
            let (id, raw) = s.honest_mails[k].clone();
            let variant: String = id
                .chars()
                .map(|c| {
                    if c.is_ascii_lowercase() {
                        c.to_ascii_uppercase()
                    } else {
                        c.to_ascii_lowercase()
                    }
                })
                .collect();
            let from = attacker(s);
            let fake = crate::support::mail::plain(&from, "help", &variant, "");
            s.deliver(fake.as_bytes());
            let boards = s.last_board();
            let turns: Vec<usize> = s
                .games
                .iter()
                .map(|g| s.stored_turns(g.board).len())
                .collect();
            s.run.now += 30;
            let again = s.deliver(raw.as_bytes());
            assert!(again.is_empty(), "a duplicate answered: {again:?}");
            assert_eq!(s.last_board(), boards, "a duplicate challenge made a board");
            for (g, n) in s.games.iter().zip(turns) {
                assert_eq!(s.stored_turns(g.board).len(), n, "board {}", g.board);
            }
        }
        20..=23 => identity_attack(s),
        // An unknown command word that is a stranger's text, to a victim.
        _ => {
            let subject = format!("{FOREIGN}-http://evil.example/login now");
            send(s, &subject, &format!("{FOREIGN}\n"));
        }
    }
}

/// Issue 25's attacks on players who confirmed their addresses: a reply to an old
/// board mail with the player's From forged, a `multiple` cannon at a player, every
/// spelling of a player's address, and a throwaway account on a player's address.
fn identity_attack(s: &mut Soak) {
    let confirmed: Vec<String> = s.confirmed.iter().cloned().collect();
    if confirmed.is_empty() {
        return;
    }
    let player = confirmed[s.run.below(confirmed.len() as u64) as usize].clone();
    match s.run.below(4) {
        0 => {
            // Only a board mail with a reply token (in its Message-ID) that its game
            // has moved past twice: the token is stale. (A mail without one, such as
            // the answer to a `show` line, is answered as any unusable reply is, at
            // the stranger's own address, in the server's words.)
            let stale: Vec<Sent> = s
                .board_mails
                .iter()
                .filter(|(board, done, m)| {
                    m.message_id.starts_with("y1~")
                        && s.games
                            .iter()
                            .any(|g| g.board == *board && g.done >= done + 2)
                })
                .map(|(_, _, m)| m.clone())
                .collect();
            if stale.is_empty() {
                return;
            }
            let m = stale[s.run.below(stale.len() as u64) as usize].clone();
            let from = m.to[0].clone();
            let thief = attacker(s);
            let id = s.mid("stale");
            let raw = crate::support::mail::reply(
                crate::support::mail::Client::Thunderbird,
                &from,
                &m.original(),
                &format!("e5\n{STRANGER} forged"),
                &id,
            )
            .replacen("\nTo: ", &format!("\nReply-To: {thief}\nTo: "), 1);
            // The player's genuine token: answered as the player's own (issue 45).
            s.with_token = true;
            let sent = s.deliver(raw.as_bytes());
            s.with_token = false;
            assert!(
                sent.iter()
                    .all(|r| r.to.iter().all(|t| !t.contains("evil.example"))),
                "a forged reply answered at the stranger's address: {sent:?}"
            );
        }
        1 => {
            let body: String = (0..25)
                .map(|k| match k % 5 {
                    0 => format!("yinsh show {}\n", some_board(s)),
                    1 => "help\n".to_string(),
                    2 => "yinsh games\n".to_string(),
                    3 => "yinsh standings\n".to_string(),
                    _ => format!("yinsh {STRANGER}-log-in-at-http://evil.example/\n"),
                })
                .collect();
            let from = attacker(s);
            let raw = s.mail(&from, Some(&player), "multiple", &body);
            s.deliver(raw.as_bytes());
        }
        2 => {
            let (user, domain) = player.rsplit_once('@').unwrap_or((&player, ""));
            let spelt = match s.run.below(3) {
                0 => format!("{}@{}", user.to_ascii_uppercase(), domain),
                1 => format!(
                    "{user}+{}@{}",
                    s.run.below(100),
                    domain.to_ascii_uppercase()
                ),
                _ => format!("{user}@{domain}"),
            };
            let from = attacker(s);
            let raw = s.mail(&from, Some(&spelt), "yinsh help", &format!("{STRANGER}\n"));
            s.deliver(raw.as_bytes());
        }
        _ => {
            let a = 20 + s.run.below(5);
            send(s, &format!("signup spam{a} atSOAK{a} {player}"), "");
            let from = attacker(s);
            let raw = s.mail(
                &from,
                None,
                &format!("yinsh showas spam{a} atSOAK{a} all"),
                "",
            );
            s.deliver(raw.as_bytes());
        }
    }
}

/// A mail of an odd MIME shape (`kind` 0..12) carrying [`FOREIGN`] text.
fn odd_mime(kind: u64, from: &str, reply_to: &str, mid: &str) -> Vec<u8> {
    let head =
        format!("From: {from}\nReply-To: {reply_to}\nMessage-ID: <{mid}>\nMIME-Version: 1.0\n");
    let text = match kind {
        0 => format!(
            "{head}Subject: yinsh show 101\nContent-Type: text/plain\nContent-Transfer-Encoding: base64\n\n!!!not base64 {FOREIGN}===\n"
        ),
        1 => format!(
            "{head}Subject: help\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n{FOREIGN}=ZZ=\n=4"
        ),
        2 => {
            let mut body = String::new();
            for k in 0..300 {
                body.push_str(&format!(
                    "Content-Type: multipart/mixed; boundary=\"b{k}\"\n\n--b{k}\n"
                ));
            }
            format!("{head}Subject: help\n{body}{FOREIGN}\n")
        }
        3 => format!(
            "{head}Subject: =?utf-8?B?{}?=\n\n",
            b64(&format!("yinsh mvoe 101 {FOREIGN}"))
        ),
        4 => format!(
            "{head}Subject: help\nContent-Type: text/plain; charset=x-no-such-charset\n\n{FOREIGN} \u{fffd}\n"
        ),
        5 => format!(
            "{head}Subject: yinsh show 101\nContent-Type: text/html\n\n<html><body><p>{FOREIGN}</p><script>x</script></body></html>\n"
        ),
        6 => format!("{head}Subject: help\0 {FOREIGN}\n\n{FOREIGN}\0\n"),
        7 => format!(
            "{head}Subject: multiple\nContent-Type: multipart/mixed; boundary=\"x\"\n\n--x\nContent-Type: application/octet-stream\n\n{FOREIGN}\n--x\nContent-Type: text/plain\n\nhelp\nyinsh frobnicate {FOREIGN}\n--x--\n"
        ),
        8 => format!(
            "From: \"a b\"@x.org\nReply-To: <@route:{reply_to}>\nMessage-ID: <{mid}>\nSubject: help\n\n{FOREIGN}\n"
        ),
        9 => format!("Message-ID: <{mid}>\nSubject: yinsh mvoe 101\n\n{FOREIGN}\n"),
        10 => format!(
            "{head}Subject: help\nContent-Type: multipart/alternative; boundary=\"never closed\"\n\n--never closed\nContent-Type: text/plain\n\n{FOREIGN}"
        ),
        _ => format!(
            "{head}Subject: {}\n\n{FOREIGN}\n",
            "=?utf-8?Q?=FF=FE?= ".repeat(2000)
        ),
    };
    text.replace('\n', if kind.is_multiple_of(2) { "\r\n" } else { "\n" })
        .into_bytes()
}

/// Base64 of `text` (for an encoded-word Subject).
fn b64(text: &str) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in text.as_bytes().chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(A[(n >> (18 - 6 * k) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
