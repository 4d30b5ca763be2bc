//! No word of a stranger's mail reaches an address nobody confirmed (issue 13 §1):
//! an attacker names the victim in Reply-To and sends every refusal shape that used
//! to quote what it found (unknown userids, moves as written, players' names, the
//! board with its players, the userid of a "Message from" Subject), with a marker
//! word in every place a word can go, its own accounts named with it too; every mail
//! the victims get is searched for the marker.

use crate::support::server::{Sent, TestServer};

const MARK: &str = "zqmarkq";

/// `text` with its line breaks as spaces: what it says, however its lines are
/// broken (at 78 columns, issue 47 item 8).
fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn to<'a>(sent: &'a [Sent], address: &str) -> Vec<&'a Sent> {
    sent.iter()
        .filter(|m| m.to.iter().any(|t| t.eq_ignore_ascii_case(address)))
        .collect()
}

#[test]
fn refusals_to_an_unconfirmed_reply_to_repeat_no_word_of_the_mail() {
    let mut s = TestServer::confirming();
    let me = "attacker@example.org";
    s.send(me, &format!("signup {MARK}1 pw1"), "");
    s.send(me, &format!("signup {MARK}2 pw2"), "");
    let started = s.send(me, &format!("yinsh challenge {MARK}1 {MARK}2"), "");
    assert!(
        started.iter().any(|m| m.subject.contains("Board 101")),
        "{started:?}"
    );
    let shapes: &[(&str, &str)] = &[
        ("yinsh challenge zqmarkqa zqmarkqb", ""),
        ("yinsh challenge zqmarkq1 zqmarkqb", ""),
        ("yinsh challenge zqmarkq1 zqmarkq1", ""),
        ("signup zqmarkq1 pwx", ""),
        ("yinsh games zqmarkqa", ""),
        ("yinsh show zqmarkqa", ""),
        ("yinsh showas zqmarkqa pw", ""),
        ("message zqmarkq1 pw1 zqmarkqa", "hello"),
        ("yinsh move 101 zqmarkq1 pw1 zqmarkqe5", "a comment zqmarkq"),
        ("yinsh move 101 zqmarkq2 pw2 e5", ""),
        ("yinsh move 101 zqmarkq1 pw1 e5#7", ""),
        ("yinsh move 101 zqmarkq1 pw1 accept", ""),
        ("yinsh queue 101 zqmarkq2 pw2 zqmarkq", ""),
        ("yinsh confirm 101 zqmarkq1 pw1", ""),
        ("yinsh preview 101 zqmarkq", ""),
        ("signoff zqmarkq1 pw1", ""),
        ("yinsh mvoe zqmarkq", ""),
        ("zqmarkq 101", ""),
        ("yinsh move 101 zqmarkq9 pw e5", ""),
        ("Re: Message from zqmarkqa", "> quoted"),
        (
            "multiple",
            "yinsh games zqmarkqa\nyinsh challenge zqmarkqa zqmarkqb\nsignup zqmarkq2 x1",
        ),
    ];
    let mut answered = 0;
    for (n, (subject, body)) in shapes.iter().enumerate() {
        let victim = format!("victim{n}@example.org");
        let sent = s.send_with_reply_to(me, &victim, subject, body);
        let got = to(&sent, &victim);
        answered += usize::from(!got.is_empty());
        for m in got {
            assert!(
                !m.raw.to_ascii_lowercase().contains(MARK),
                "{subject:?} carried the marker to an unconfirmed address:\n{}",
                m.raw
            );
        }
    }
    assert_eq!(answered, shapes.len(), "every shape gets an answer");
}

/// `yinsh games` without a userid (the server's games going on) sent to an address
/// nobody confirmed follows `run::guard`'s rule: no word of the mail, no comment or
/// chat of a player; the userids and boards it lists are what `yinsh show` of each
/// board sends such an address anyway.
#[test]
fn the_servers_games_listing_to_an_unconfirmed_address_holds_no_word_a_stranger_chose() {
    let mut s = TestServer::confirming();
    let me = "attacker@example.org";
    s.send(me, "signup mallory1 pw1", "");
    s.send(me, "signup mallory2 pw2", "");
    s.send(me, "yinsh challenge mallory1 mallory2", "");
    s.send(
        me,
        "yinsh move 101 mallory1 pw1 e5",
        &format!("{MARK} comment"),
    );
    s.send(me, "yinsh chat 101 mallory2 pw2", &format!("{MARK} chat"));
    let victim = "victim@example.org";
    let sent = s.send_with_reply_to(me, victim, "yinsh games", &format!("{MARK} body"));
    let got = to(&sent, victim);
    assert_eq!(got.len(), 1, "{sent:?}");
    let listing = got[0];
    assert_eq!(listing.subject, "List of Yinsh games");
    assert!(
        !listing.raw.to_ascii_lowercase().contains(MARK),
        "{}",
        listing.raw
    );
    let row = listing
        .body
        .lines()
        .find(|l| l.trim_start().starts_with("101 "))
        .unwrap_or_else(|| panic!("board 101 listed: {}", listing.body));
    let shown = s.send_with_reply_to(me, victim, "yinsh show 101", "");
    let shown = to(&shown, victim);
    assert_eq!(shown.len(), 1);
    for name in ["mallory1", "mallory2"] {
        assert!(row.contains(name), "{row}");
        assert!(shown[0].body.contains(name), "{}", shown[0].body);
    }
    // Beyond the rows, only the server's own words.
    for line in listing.body.lines() {
        let named = line.contains("mallory");
        assert!(!named || line.trim_start().starts_with("101 "), "{line}");
    }
}

/// The one thing of a stranger's choosing an address nobody confirmed may read: the
/// players' userids, in a board mail's Subject and body (a `show` with the victim in
/// Reply-To, a game someone started for them). Userids are the accounts' public
/// names (the standings, the listings, the web site) and carry nothing but a name:
/// 1 to 32 of `A-Z a-z 0-9 _ . -`, and for a new account no dot before a letter, so
/// that no mail program shows one as a link.
#[test]
fn names_a_stranger_chose_reach_an_unconfirmed_address_only_as_short_plain_userids() {
    let mut s = TestServer::confirming();
    let me = "attacker@example.org";
    for (signup, why) in [
        ("signup cheap.example pw1", "web address"),
        ("signup Buy.Now pw1", "web address"),
        ("signup http://cheap.example pw1", "userid"),
        ("signup aaaaaaaaaabbbbbbbbbbccccccccccddd pw1", "userid"),
    ] {
        let sent = s.send(me, signup, "");
        assert!(
            sent.iter()
                .any(|m| m.subject.contains("rror") && words(&m.body).contains(why)),
            "{signup}: {sent:#?}"
        );
    }
    let made = s.send(me, "signup cheap-example pw1", "");
    assert!(made.iter().any(|m| m.body.contains("Welcome")), "{made:#?}");
    s.send(me, "signup mallory2 pw2", "");
    s.send(me, "yinsh challenge cheap-example mallory2", "");
    let victim = "victim@example.org";
    let sent = s.send_with_reply_to(me, victim, "yinsh show 101", &format!("{MARK} body"));
    let got = to(&sent, victim);
    assert_eq!(got.len(), 1, "{sent:#?}");
    let board = got[0];
    assert_eq!(board.subject, "Yinsh Board 101 cheap-example", "{board:#?}");
    assert!(board.body.contains("mallory2"), "{}", board.body);
    assert!(
        !board.raw.to_ascii_lowercase().contains(MARK),
        "{}",
        board.raw
    );
}
