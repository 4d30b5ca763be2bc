//! Board mails with their HTML part, through the real binary: multipart/alternative
//! whose text part is the text-only mail's, the picture inline (`cid:`), hostile
//! comments escaped, the size under 60 kB, the `[mail] html` switch, the players'
//! `yinsh settings` choice, and the link to the game's page.

use crate::support::sent::split_reviews;
use crate::support::server::{Sent, TestServer, read_sent};
use crate::support::turns::random_turns;

/// Comments that try to get markup, scripts or other images into the HTML part.
const HOSTILE: &[&str] = &[
    "<script>alert('x')</script>",
    "\"><img src=x onerror=alert(1)>",
    "<img src=\"cid:board-101@localhost\"><a href=\"https://evil.example/\">win</a>",
    "' onload='alert(1)' x='",
    "</pre></div><iframe src=\"http://evil.example/\"></iframe>",
    "&lt;b&gt; already escaped &amp; cid:board-101@localhost",
];

/// A server with alice and bob signed up and board 101 started; `config` is written
/// as its config file first.
fn server(config: &str) -> TestServer {
    let mut s = TestServer::new();
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(s.home().join("config.toml"), config).expect("config");
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    let r = s.send("alice@example.org", "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    s
}

/// The `src` values of every `<img>` of `html`.
fn image_sources(html: &str) -> Vec<String> {
    html.match_indices("<img")
        .filter_map(|(at, _)| {
            let rest = &html[at..];
            let tag = &rest[..rest.find('>')?];
            let src = tag.split("src=\"").nth(1)?;
            Some(src[..src.find('"')?].to_string())
        })
        .collect()
}

/// The tags and attributes the server writes; anything else came from a player.
const TAGS: &[&str] = &[
    "!DOCTYPE", "html", "head", "meta", "title", "body", "div", "h1", "h2", "p", "img", "a",
    "table", "tr", "th", "td", "pre", "code", "hr", "ul", "li",
];
const ATTRIBUTES: &[&str] = &[
    "html",
    "lang",
    "charset",
    "name",
    "content",
    "style",
    "src",
    "width",
    "height",
    "alt",
    "href",
    "cellpadding",
    "cellspacing",
    "align",
    "colspan",
];

/// Every tag of `html` is one the server writes, with only its attributes, and every
/// link is to a `cid:` part or the site's address.
#[track_caller]
pub fn assert_plain_markup(html: &str) {
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        let tag = &rest[at + 1..];
        let end = tag
            .find('>')
            .unwrap_or_else(|| panic!("unclosed tag: {tag}"));
        let inner = tag[..end].trim_start_matches('/');
        let name = inner.split_whitespace().next().unwrap_or_default();
        assert!(TAGS.contains(&name), "<{name}> in {html}");
        // The attributes: a bare word, or a name, `=` and a value quoted without `"`.
        let mut attrs = inner[name.len()..].trim();
        while !attrs.is_empty() {
            let stop = attrs.find(['=', ' ']).unwrap_or(attrs.len());
            let attr = &attrs[..stop];
            assert!(ATTRIBUTES.contains(&attr), "{attr} in <{inner}>");
            let Some(after) = attrs[stop..].strip_prefix("=\"") else {
                attrs = attrs[stop..].trim_start();
                continue;
            };
            let close = after
                .find('"')
                .unwrap_or_else(|| panic!("open quote in <{inner}>"));
            let value = &after[..close];
            if matches!(attr, "src" | "href") {
                assert!(
                    value.starts_with("cid:") || value.starts_with("https://example.org/yinsh/"),
                    "{attr}={value} in {html}"
                );
            }
            attrs = after[close + 1..].trim_start();
        }
        rest = &tag[end + 1..];
    }
}

/// Checks one board mail: both parts, the picture, nothing foreign in the HTML.
#[track_caller]
fn assert_board_mail(m: &Sent) {
    let html = m
        .html
        .as_deref()
        .unwrap_or_else(|| panic!("no HTML: {}", m.raw));
    assert!(
        m.raw.contains("Content-Type: multipart/alternative"),
        "{}",
        m.raw
    );
    assert!(
        m.raw.contains("Content-Type: multipart/related"),
        "{}",
        m.raw
    );
    assert_eq!(m.images.len(), 1, "one picture");
    let (cid, png) = &m.images[0];
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(
        image_sources(html),
        [format!("cid:{}", cid.trim_matches(['<', '>']))],
        "the only image is the picture: {html}"
    );
    assert_plain_markup(html);
    let status = m
        .body
        .lines()
        .find(|l| l.starts_with("It is ") || l.starts_with("Game "))
        .expect("a status line");
    assert!(
        html.contains(&status.replace('\'', "&#39;")),
        "{status} in {html}"
    );
}

#[test]
fn board_mails_carry_the_text_part_unchanged_and_the_picture_in_html() {
    let mut with = server("");
    let mut without = server("[mail]\nhtml = false\n");
    for (k, comment) in HOSTILE.iter().enumerate() {
        let (who, pw, point) = if k % 2 == 0 {
            ("alice", "apw", ["e5", "f6", "d4"][k / 2])
        } else {
            ("bob", "bpw", ["e7", "g7", "c3"][k / 2])
        };
        let subject = format!("yinsh move 101 {who} {pw} {point}");
        let a = with.send(&format!("{who}@example.org"), &subject, comment);
        let b = without.send(&format!("{who}@example.org"), &subject, comment);
        assert_eq!(a.len(), 2, "{a:?}");
        assert_eq!(a.len(), b.len());
        for (m, plain) in a.iter().zip(&b) {
            assert_board_mail(m);
            assert_eq!(m.body, plain.body, "the text part is the text-only mail's");
            assert!(plain.html.is_none() && plain.images.is_empty());
            assert!(plain.raw.contains("Content-Type: text/plain"));
            let html = m.html.as_deref().unwrap_or_default();
            let first = comment.lines().next().unwrap_or_default();
            let escaped = first
                .replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
                .replace('"', "&quot;")
                .replace('\'', "&#39;");
            assert!(html.contains(&escaped), "{escaped} in {html}");
            assert!(m.body.contains(first), "the comment is in the text");
        }
    }
}

#[test]
fn the_player_to_move_reads_the_command_and_the_moves_in_html() {
    let mut s = server("");
    let r = s.send("alice@example.org", "yinsh move 101 alice apw e5", "");
    let to_bob = r
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .expect("bob's");
    let html = to_bob.html.as_deref().expect("html");
    assert!(
        html.contains("yinsh move 101 bob &lt;password&gt; &lt;point&gt;#2"),
        "{html}"
    );
    assert!(
        html.contains("White: alice") && html.contains(">e5<"),
        "{html}"
    );
    assert!(html.contains("<pre"), "the ASCII board: {html}");
    let to_alice = r
        .iter()
        .find(|m| m.to == ["alice@example.org"])
        .expect("alice's");
    let html = to_alice.html.as_deref().expect("html");
    assert!(!html.contains("yinsh move 101"), "not alice's turn: {html}");
}

#[test]
fn a_crowded_board_mail_with_picture_stays_under_60_kb() {
    let mut s = server("");
    // A long game: the first seeded random game from 7 on that lasts 71 turns.
    let turns = (7..)
        .map(|seed| random_turns(seed, 71))
        .find(|turns| turns.len() == 71)
        .expect("a seed gives a game of 71 turns");
    s.fast_forward(101, &turns[..70]);
    let last = &turns[70].1;
    let comment = "A fair comment of a few lines, as players write them.\n".repeat(10);
    let r = s.send(
        "alice@example.org",
        &format!("yinsh move 101 alice apw {last}#71"),
        &comment,
    );
    let (reviews, r) = split_reviews(r);
    assert!(
        reviews.is_empty(),
        "the review comes by the next flush, not in this deliver: {reviews:?}"
    );
    assert_eq!(r.len(), 2, "{r:?}");
    let before = s.outbox_files();
    // The game's last board mails, not its review mails (issue 28).
    let board_mails: Vec<_> = before
        .iter()
        .filter(|p| !read_sent(p).subject.ends_with(" review"))
        .cloned()
        .collect();
    let r = s.send("carol@example.org", "yinsh show 101", "");
    assert_eq!(r.len(), 1);
    assert_board_mail(&r[0]);
    for path in board_mails.iter().rev().take(2).chain(
        s.outbox_files()
            .iter()
            .filter(|f| !before.contains(f))
            .collect::<Vec<_>>(),
    ) {
        let size = std::fs::metadata(path).expect("mail").len();
        let m = read_sent(path);
        assert_board_mail(&m);
        assert!(size < 60_000, "{} is {size} bytes", path.display());
        assert!(
            size > 20_000,
            "{} holds a picture: {size} bytes",
            path.display()
        );
    }
}

#[test]
fn a_player_may_choose_text_only_and_back() {
    let mut s = server("");
    let r = s.send("bob@example.org", "yinsh settings bob bpw", "");
    assert!(r[0].body.contains("as text and HTML"), "{}", r[0].body);
    let r = s.send("bob@example.org", "YINSH settings bob bpw text-only", "");
    assert_eq!(r.len(), 1);
    assert!(r[0].body.contains("come as text only"), "{}", r[0].body);
    assert!(r[0].body.contains("yinsh settings bob <password> html"));
    let r = s.send("alice@example.org", "yinsh move 101 alice apw e5", "");
    for m in &r {
        if m.to == ["bob@example.org"] {
            assert!(m.html.is_none() && m.images.is_empty(), "{}", m.raw);
            assert!(m.raw.contains("Content-Type: text/plain"));
        } else {
            assert_board_mail(m);
        }
    }
    let r = s.send("bob@example.org", "yinsh settings bob bpw pictures", "");
    assert!(
        r[0].body.contains("the setting is not text-only or html"),
        "{}",
        r[0].body
    );
    let r = s.send("bob@example.org", "yinsh settings bob wrong html", "");
    assert!(!r[0].body.contains("come as"), "{}", r[0].body);
    let r = s.send("bob@example.org", "yinsh showas bob bpw 101", "");
    assert!(r[0].html.is_none(), "showas honours the choice");
    let r = s.send("bob@example.org", "yinsh show 101", "");
    assert!(
        r[0].body.contains("Summary of Yinsh Board 101"),
        "{}",
        r[0].body
    );
    assert!(r[0].html.is_none(), "show honours the choice: {}", r[0].raw);
    let r = s.send("bob@example.org", "yinsh preview 101 f6", "");
    assert!(r[0].body.contains("Preview"), "{}", r[0].body);
    assert!(
        r[0].html.is_none(),
        "preview honours the choice: {}",
        r[0].raw
    );
    // Anybody else's show still comes with the picture.
    let r = s.send("carol@example.org", "yinsh show 101", "");
    assert!(r[0].html.is_some(), "{}", r[0].raw);
    let r = s.send("bob@example.org", "yinsh settings bob bpw html", "");
    assert!(r[0].body.contains("as text and HTML"), "{}", r[0].body);
    let r = s.send("bob@example.org", "yinsh move 101 bob bpw f6", "");
    assert!(r.iter().all(|m| m.html.is_some()));
}

#[test]
fn board_mails_link_to_the_game_page_when_the_site_has_an_address() {
    let site = tempfile::tempdir().expect("site");
    let mut s = server(&format!(
        "[site]\nout = \"{}\"\nurl = \"https://example.org/yinsh/\"\n",
        site.path().display()
    ));
    let r = s.send("alice@example.org", "yinsh move 101 alice apw e5", "");
    for m in &r {
        let html = m.html.as_deref().expect("html");
        assert!(
            html.contains("<a href=\"https://example.org/yinsh/games/101/\">"),
            "{html}"
        );
        // Issue 27: the text part links nothing but the play link, which only the
        // player to move (bob) gets.
        let play = m.to == ["bob@example.org"];
        assert_eq!(
            m.body.matches("https://").count(),
            usize::from(play),
            "{}",
            m.body
        );
        assert_eq!(m.body.contains("Play your move on the board"), play);
    }
}

#[test]
fn the_markup_check_catches_what_a_player_could_slip_in() {
    let page = |inner: &str| format!("<div style=\"x\">{inner}</div>");
    for bad in [
        "<script>alert(1)</script>",
        "<img src=\"x\" onerror=\"alert(1)\">",
        "<img src=\"https://evil.example/x.png\">",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<iframe src=\"cid:x\"></iframe>",
        "<p style=\"x\" onclick=\"y\">",
    ] {
        let html = page(bad);
        assert!(
            std::panic::catch_unwind(|| assert_plain_markup(&html)).is_err(),
            "{bad}"
        );
    }
    assert_plain_markup(&page("<img src=\"cid:board-1@x\" alt=\"a &lt;b&gt;\">"));
}

#[test]
fn an_unconfirmed_address_gets_the_text_without_the_comment_and_no_html() {
    let mut s = TestServer::confirming();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    let r = s.send("alice@example.org", "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    let r = s.send(
        "alice@example.org",
        "yinsh move 101 alice apw e5",
        "<b>a comment</b> from alice",
    );
    let to_bob = r
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .expect("bob's mail");
    assert!(!to_bob.body.contains("a comment"), "{}", to_bob.body);
    assert!(
        to_bob.html.is_none() && to_bob.images.is_empty(),
        "{}",
        to_bob.raw
    );
    assert!(!to_bob.raw.contains("a comment"), "{}", to_bob.raw);
}

#[test]
fn one_mail_gives_at_most_22_replies_the_picture_and_the_rest_go_as_text() {
    // Found by the soak test: two dozen `show` lines in one `multiple` built that many
    // pictured mails and took a deliver past its 20 MB; since the journal no longer
    // copies them, 22 (two players and 20 watchers) fit well under it.
    let mut s = server("");
    let body = "yinsh show 101\n".repeat(24);
    let r = s.send("carol@example.org", "multiple", &body);
    assert_eq!(r.len(), 24, "{r:?}");
    let pictured = r.iter().filter(|m| m.html.is_some()).count();
    assert_eq!(pictured, 22, "replies with the HTML part and picture");
    for m in &r {
        assert!(m.body.contains("Summary of Yinsh Board 101"), "{}", m.body);
        if m.html.is_none() {
            assert!(m.images.is_empty(), "a text-only reply carries no picture");
        }
    }
    let log = s.log();
    assert!(
        log.contains("22 replies of this mail already carry a picture"),
        "{log}"
    );
}

#[test]
fn one_mail_draws_at_most_six_different_pictures() {
    // 22 different positions in one mail measured 19.8 MB: at most six are drawn, the
    // replies showing others go as text (those sharing a drawing: the watchers' test).
    let mut s = server("");
    for (k, t) in ["e5", "f6", "d4", "g7", "c3", "h8", "b2", "i9"]
        .iter()
        .enumerate()
    {
        let who = if k % 2 == 0 { "alice apw" } else { "bob bpw" };
        s.send("x@example.org", &format!("yinsh move 101 {who} {t}"), "");
    }
    let r = s.send(
        "carol@example.org",
        "yinsh show 101#1 101#2 101#3 101#4 101#5 101#6 101#7 101#8",
        "",
    );
    assert_eq!(r.len(), 8, "{r:?}");
    let pictured: Vec<bool> = r.iter().map(|m| m.html.is_some()).collect();
    assert_eq!(pictured, [true, true, true, true, true, true, false, false]);
    assert!(
        s.log()
            .contains("6 different pictures already drawn for this mail"),
        "{}",
        s.log()
    );
}

#[test]
fn a_move_in_a_game_with_the_most_watchers_pictures_every_board_mail() {
    // Until the cap was 2 + MAX_WATCHERS, the watchers past the fourth got text only.
    let mut s = server("[security]\nconfirm_addresses = false\n");
    let signups: String = (0..20)
        .map(|k| format!("signup w{k} pw{k}x w{k}@example.net\n"))
        .collect();
    s.send("op@example.net", "multiple", &signups);
    let subscribe: String = (0..20)
        .map(|k| format!("yinsh subscribe 101 w{k} pw{k}x\n"))
        .collect();
    s.send("op@example.net", "multiple", &subscribe);
    let r = s.send("alice@example.org", "yinsh move 101 alice apw e5", "");
    let boards: Vec<_> = r
        .iter()
        .filter(|m| m.subject.starts_with("Yinsh Board 101"))
        .collect();
    assert_eq!(boards.len(), 22, "{r:?}");
    for m in boards {
        assert_board_mail(m);
    }
    assert!(!s.log().contains("already carry a picture"), "{}", s.log());
}
