//! Issue 27, the mail side of "click your move": a board mail to the player to move
//! links to the game's page with a play token (`<url>/games/<n>/#play=<token>`), and
//! the page's mail `yinsh move <n> <userid> <token> <turn>#<k>` plays exactly that
//! turn, once, from the player's own address. The attacks: a stale token, a replayed
//! one, one from another address, for another board or player, after
//! `rotate-reply-key`, with a command that is not a move; and the token found in no
//! other player's mail, no file of the site, no log line and no `--verbose` report.

use std::path::{Path, PathBuf};

use crate::support::bin;
use crate::support::sent::only_to;
use crate::support::server::{Sent, TestServer, assert_says};

const ALICE: &str = "alice@example.org";
const BOB: &str = "bob@example.org";
const CAROL: &str = "carol@example.org";
const MALLORY: &str = "mallory@evil.example";

/// A server with a site (`<dir>/site`, published at example.net), alice and bob
/// playing board 101 (alice to move), carol watching; alice's and bob's New Yinsh
/// Board mails.
fn game() -> (TestServer, PathBuf, Sent, Sent) {
    game_with("")
}

/// [`game`] with `more` added to the config file.
fn game_with(more: &str) -> (TestServer, PathBuf, Sent, Sent) {
    let mut s = TestServer::new();
    let site = s.home().with_file_name("site");
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        format!(
            "[site]\nout = \"{}\"\nurl = \"https://example.net/yinsh\"\n{more}",
            site.display()
        ),
    )
    .expect("config");
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(CAROL, "signup carol cpw", "");
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    let (a, b) = (only_to(&r, ALICE), only_to(&r, BOB));
    s.send(CAROL, "yinsh subscribe 101 carol cpw", "");
    (s, site, a, b)
}

/// The play token of the "Play your move on the board" link in `m`'s text part.
#[track_caller]
fn token_of(m: &Sent) -> String {
    let (_, after) = m
        .body
        .split_once("Play your move on the board")
        .unwrap_or_else(|| panic!("no play link in {}", m.body));
    let (_, token) = after
        .split_once("https://example.net/yinsh/games/101/#play=")
        .unwrap_or_else(|| panic!("no link to the game's page in {}", m.body));
    token
        .split_whitespace()
        .next()
        .expect("a token")
        .to_string()
}

fn board_bytes(s: &TestServer) -> Vec<u8> {
    std::fs::read(s.home().join("boards/101.json")).expect("game file")
}

fn turns(s: &TestServer) -> Vec<String> {
    s.game_file(101)["turns"]
        .as_array()
        .expect("turns")
        .iter()
        .map(|t| t["text"].as_str().expect("text").to_string())
        .collect()
}

/// Asserts that `token` is in none of `mails` (headers, text and HTML parts).
#[track_caller]
fn in_none(token: &str, mails: &[Sent]) {
    for m in mails {
        assert!(!m.raw.contains(token), "the token in a mail to {:?}", m.to);
    }
}

/// Every file under `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// Issue 27: a board mail to the player to move links to the game's page with a play
/// token, in its text and HTML parts; the move sent with that token plays exactly
/// that turn, answered at the player's own address; then the link goes to the
/// opponent, whose turn it is.
#[test]
fn a_move_sent_with_the_token_of_the_link_plays_exactly_that_turn() {
    let (mut s, _, a, b) = game();
    let token = token_of(&a);
    assert!(token.len() <= 64, "{token}");
    assert!(
        token
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'),
        "{token}"
    );
    let html = a.html.as_deref().expect("an HTML part");
    assert!(
        html.contains(&format!(
            "href=\"https://example.net/yinsh/games/101/#play={token}\""
        )),
        "{html}"
    );
    assert!(!b.body.contains("#play="), "{}", b.body);
    // Sent from alice's address, answered there (never at a Reply-To).
    // The page writes the command as the body's first line too: the opponent reads
    // the comment below it, never the line with the token.
    let command = format!("yinsh move 101 alice {token} e5#1");
    let r = s.send_with_reply_to(
        ALICE,
        MALLORY,
        &command,
        &format!("{command}\n\nGood luck!"),
    );
    assert_eq!(turns(&s), ["e5"]);
    assert!(r.iter().all(|m| m.to != [MALLORY]), "{r:?}");
    let (a2, b2) = (only_to(&r, ALICE), only_to(&r, BOB));
    assert_says(&b2, "Good luck!");
    in_none(&token, &r);
    assert!(!a2.body.contains("#play="), "{}", a2.body);
    let bobs = token_of(&b2);
    assert_ne!(bobs, token);
    let r = s.send(BOB, &format!("yinsh move 101 bob {bobs} e6#2"), "");
    assert_eq!(turns(&s), ["e5", "e6"]);
    assert_ne!(token_of(&only_to(&r, ALICE)), token);
}

/// Issue 27: a token whose move was played (by password, here) is stale: "the game
/// moved on", with the board as it is now, to the player; nothing is played.
#[test]
fn a_stale_token_gets_the_game_moved_on_with_the_board() {
    let (mut s, _, a, _) = game();
    let token = token_of(&a);
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(BOB, "yinsh move 101 bob bpw e6", "");
    let before = board_bytes(&s);
    let r = s.send(ALICE, &format!("yinsh move 101 alice {token} e7#1"), "");
    assert_eq!(board_bytes(&s), before);
    let m = only_to(&r, ALICE);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(
        &m,
        "The game moved on: the play link was for move #1 of board 101, and the next move\nis #3.",
    );
    assert_says(&m, "It is alice's turn.");
    in_none(&token, &r);
    // It is alice's turn again: the answer carries her fresh link.
    let fresh = token_of(&m);
    assert_ne!(fresh, token);
    s.send(ALICE, &format!("yinsh move 101 alice {fresh} e7#3"), "");
    assert_eq!(turns(&s), ["e5", "e6", "e7"]);
}

/// Issue 27: a token plays once: the same mail sent again (a new Message-ID) after it
/// played is stale.
#[test]
fn a_replayed_token_plays_nothing() {
    let (mut s, _, a, _) = game();
    let token = token_of(&a);
    let subject = format!("yinsh move 101 alice {token} e5#1");
    let r = s.send(ALICE, &subject, "");
    assert_eq!(r.len(), 3, "{r:?}");
    let before = board_bytes(&s);
    let r = s.send(ALICE, &subject, "");
    assert_eq!(board_bytes(&s), before);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(&r[0], "The game moved on");
    // Without the `#1`, the token alone still knows its move.
    let r = s.send(ALICE, &format!("yinsh move 101 alice {token} e7"), "");
    assert_eq!(board_bytes(&s), before);
    assert_says(&r[0], "The game moved on");
}

/// Issue 27: a genuine token from an address that is not the player's plays
/// nothing, and its answer repeats neither the token nor the board.
#[test]
fn a_token_from_another_address_plays_nothing() {
    let (mut s, _, a, _) = game();
    let token = token_of(&a);
    let before = board_bytes(&s);
    for from in [MALLORY, BOB] {
        let r = s.send(from, &format!("yinsh move 101 alice {token} e5#1"), "");
        assert_eq!(board_bytes(&s), before);
        let m = only_to(&r, from);
        assert_eq!(r.len(), 1, "{r:?}");
        assert_says(
            &m,
            "This move carries the play link of board 101, but it does not come from a confirmed\naddress of the player the link was mailed to: nothing was done.",
        );
        in_none(&token, &r);
    }
    // Alice's own address still plays it: the refusals spent nothing.
    s.send(ALICE, &format!("yinsh move 101 alice {token} e5#1"), "");
    assert_eq!(turns(&s), ["e5"]);
}

/// Issue 27: a token plays only on its own board and for its own player.
#[test]
fn a_token_for_another_board_or_player_plays_nothing() {
    let (mut s, _, a, _) = game();
    let token = token_of(&a);
    let r = s.send(ALICE, "yinsh challenge alice carol", "");
    assert_eq!(r.len(), 2, "{r:?}");
    let other = std::fs::read(s.home().join("boards/102.json")).expect("board 102");
    let before = board_bytes(&s);
    for (from, subject) in [
        (ALICE, format!("yinsh move 102 alice {token} e5#1")),
        (BOB, format!("yinsh move 101 bob {token} e5#1")),
        (
            ALICE,
            format!("yinsh move 101 alice {} e5#1", altered(&token)),
        ),
    ] {
        let r = s.send(from, &subject, "");
        assert_eq!(r.len(), 1, "{subject}: {r:?}");
        assert_says(
            &r[0],
            "The play link's token in this move does not play on board",
        );
        in_none(&token, &r);
    }
    assert_eq!(board_bytes(&s), before);
    assert_eq!(
        std::fs::read(s.home().join("boards/102.json")).expect("board 102"),
        other
    );
}

/// `token` with the last digit of its tag changed.
fn altered(token: &str) -> String {
    let mut bytes = token.as_bytes().to_vec();
    let last = bytes.last_mut().expect("a digit");
    *last = if *last == b'0' { b'1' } else { b'0' };
    String::from_utf8(bytes).expect("ascii")
}

/// Issue 27: `rotate-reply-key` voids every play link mailed before it.
#[test]
fn a_token_mailed_before_rotate_reply_key_plays_nothing() {
    let (mut s, _, a, _) = game();
    let token = token_of(&a);
    let out = bin::assert_command()
        .arg("rotate-reply-key")
        .arg("--home")
        .arg(s.home())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let before = board_bytes(&s);
    let r = s.send(ALICE, &format!("yinsh move 101 alice {token} e5#1"), "");
    assert_eq!(board_bytes(&s), before);
    assert_says(
        &r[0],
        "The play link's token in this move does not play on board 101 for this player",
    );
    in_none(&token, &r);
}

/// Issue 27: a play token plays a move and nothing else: not a resignation.
#[test]
fn a_token_does_not_resign() {
    let (mut s, _, a, _) = game();
    let token = token_of(&a);
    let before = board_bytes(&s);
    let r = s.send(ALICE, &format!("yinsh resign 101 alice {token}"), "");
    assert_eq!(board_bytes(&s), before);
    assert_says(
        &r[0],
        "A play link's token plays a move on board 101 and nothing else",
    );
}

/// Issue 27: the token is in the player's own mail only: not in the opponent's, the
/// watcher's, any file of the site, the log, or the `--verbose` report of the run
/// that plays it.
#[test]
fn the_token_is_in_no_other_mail_no_site_file_and_no_log() {
    let (mut s, site, a, b) = game();
    let token = token_of(&a);
    in_none(&token, &[b]);
    let raw = s.mail(ALICE, &format!("yinsh move 101 alice {token} e5#1"), "");
    let before = s.outbox_files();
    s.now += 60;
    let out = bin::assert_command()
        .arg("deliver")
        .arg("--verbose")
        .arg("--home")
        .arg(s.home())
        .env("YINSH_PBEM_NOW", s.now.to_string())
        .write_stdin(raw.into_bytes())
        .output()
        .expect("deliver");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.contains("Yinsh Board 101"), "a report: {report}");
    assert!(!report.contains(&token), "{report}");
    assert_eq!(turns(&s), ["e5"]);
    let r = s.sent_since(&before);
    in_none(&token, &r);
    in_none(
        &token_of(&only_to(&r, BOB)),
        &[only_to(&r, ALICE), only_to(&r, CAROL)],
    );
    // A move refused (a stale token) quotes the mail: masked there too.
    let r = s.send(ALICE, &format!("yinsh move 101 alice {token} e7#1"), "");
    in_none(&token, &r);
    assert!(!s.log().contains(&token), "{}", s.log());
    let site_files = files(&site);
    assert!(site_files.len() > 3, "{site_files:?}");
    for f in site_files {
        let bytes = std::fs::read(&f).expect("read");
        assert!(
            !String::from_utf8_lossy(&bytes).contains(&token),
            "{}",
            f.display()
        );
    }
}

/// Issue 27: a move with a genuine token from the player's own address proves its
/// sender, so mails forged in the player's name that spent the storm limit of their
/// address do not stop it.
#[test]
fn a_token_move_passes_the_storm_limit_of_forged_mails() {
    let (mut s, _, a, _) = game_with("[limits]\nmails_per_sender = 3\nperiod_seconds = 3600\n");
    let token = token_of(&a);
    let start = s.now;
    for _ in 0..4 {
        s.send_with_reply_to(MALLORY, ALICE, "yinsh help", "");
        s.now = start;
    }
    assert!(
        s.send_with_reply_to(MALLORY, ALICE, "yinsh help", "")
            .is_empty(),
        "the limit holds for mails that prove nothing"
    );
    s.now = start;
    let r = s.send(ALICE, &format!("yinsh move 101 alice {token} e5#1"), "");
    assert_eq!(turns(&s), ["e5"]);
    assert_eq!(r.len(), 3, "{r:?}");
    assert!(s.log().contains("proves its sender"), "{}", s.log());
}

/// Issue 27, with address confirmation on: the link goes only to an address its
/// player confirmed (the same board mail to the account's unconfirmed address has
/// none), and a token sent from that unconfirmed address plays nothing.
#[test]
fn with_confirmation_on_only_a_confirmed_address_gets_the_link_and_plays_it() {
    const WORK: &str = "alice@work.example";
    let mut s = TestServer::confirming();
    let site = s.home().with_file_name("site");
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        format!(
            "[site]\nout = \"{}\"\nurl = \"https://example.net/yinsh\"\n",
            site.display()
        ),
    )
    .expect("config");
    for (userid, pw, addresses) in [
        ("alice", "apw", "alice@example.org alice@work.example"),
        ("bob", "bpw", BOB),
    ] {
        let sent = s.send(
            addresses.split(' ').next().expect("an address"),
            &format!("signup {userid} {pw} {addresses}"),
            "",
        );
        let first = addresses.split(' ').next().expect("an address");
        let verify = sent
            .iter()
            .find(|m| m.to == [first] && m.subject.starts_with(&format!("verify {userid} ")))
            .unwrap_or_else(|| panic!("no verify mail in {sent:?}"));
        let r = s.send(first, &format!("Re: {}", verify.subject), "> quoted");
        assert!(r[0].subject.starts_with("Address confirmed"), "{r:?}");
    }
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    let home = r
        .iter()
        .find(|m| m.to.iter().any(|t| t == ALICE))
        .expect("alice's mail");
    let token = token_of(home);
    for m in r.iter().filter(|m| !m.to.iter().any(|t| t == ALICE)) {
        assert!(!m.raw.contains(&token), "the link went to {:?}", m.to);
    }
    let before = board_bytes(&s);
    let r = s.send(WORK, &format!("yinsh move 101 alice {token} e5#1"), "");
    assert_eq!(board_bytes(&s), before);
    assert_says(
        &r[0],
        "it does not come from a confirmed\naddress of the player",
    );
    s.send(ALICE, &format!("yinsh move 101 alice {token} e5#1"), "");
    assert_eq!(turns(&s), ["e5"]);
}
