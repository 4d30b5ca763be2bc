//! Issue 26, what mails say and how they look, through real mails: the welcome mail
//! on passwords, end-of-game mails that say each fact once, the standings without
//! an empty limit column, a player's text in the HTML part shown as written, the
//! HTML part's paragraphs reflowed, error mails with the picture, the clock and the
//! pending offer, the picture's size in the docs, and `tick --verbose`.

use crate::support::sent::{ALICE, BOB, CAROL, first_to, html, split_reviews};
use crate::support::server::{Sent, TestServer, assert_says};
use crate::support::turns::random_turns;

const DAY: u64 = 86_400;

/// The status part of a board mail: its lines up to the move list.
fn head(m: &Sent) -> &str {
    m.body.split("\n\n").next().unwrap_or_default()
}

/// Issue 26 finding 8: the welcome mail does not say that every move needs the
/// password (a Reply to a board mail needs none); it says which mails need it.
#[test]
fn the_welcome_mail_says_a_reply_needs_no_password_and_typed_commands_do() {
    let mut s = TestServer::new();
    let r = s.send(ALICE, "signup alice apw", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(!r[0].body.contains("every move needs it"), "{}", r[0].body);
    assert_says(
        &r[0],
        "A Reply to one of the server's board mails needs no password",
    );
    assert_says(&r[0], "a command you type yourself");
}

/// Issue 26 finding 19: a forfeit is stated once in the mails that tell it, and an
/// agreed draw says "The players agreed to a draw." and not also "Game was a tie.".
#[test]
fn end_of_game_mails_say_each_fact_once() {
    let mut s = TestServer::alice_bob_carol("--nagtime=2 --forfeittime=5");
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(BOB, "yinsh move 101 bob bpw f6", "");
    s.send(ALICE, "yinsh move 101 alice apw e4", "");
    let r = s.tick(s.now + 5 * DAY);
    let (reviews, r) = split_reviews(r);
    assert_eq!(
        reviews.len(),
        2,
        "the game ended: one review mail a player: {reviews:?}"
    );
    assert_eq!(r.len(), 2, "{r:?}");
    for m in &r {
        assert_eq!(
            head(m),
            "Summary of Yinsh Board 101\n\
             bob has not moved for 5 days and forfeits the game.\n\
             Game won by alice.\n\
             This game was not rated.\n\
             Last move: #3 alice: e4 - placed a ring on e4.",
            "{}",
            m.body
        );
    }
    // `show` of the forfeited game tells it once too, in the ending line.
    let show = s.send(CAROL, "yinsh show 101", "");
    assert_eq!(
        head(&show[0]).matches("forfeit").count(),
        1,
        "{}",
        show[0].body
    );
    assert_says(&show[0], "bob forfeited the game: no move in 5 days.");

    s.send(ALICE, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh move 102 alice apw propose", "");
    let r = s.send(BOB, "yinsh move 102 bob bpw accept", "");
    let (reviews, r) = split_reviews(r);
    assert!(
        reviews.is_empty(),
        "the review comes by the next flush, not in this deliver: {reviews:?}"
    );
    assert_eq!(r.len(), 2, "{r:?}");
    for m in &r {
        assert!(!m.body.contains("Game was a tie."), "{}", m.body);
        assert!(!html(m).contains("Game was a tie."), "{}", html(m));
        assert_eq!(
            head(m).matches("The players agreed to a draw.").count(),
            1,
            "{}",
            m.body
        );
        assert_says(m, "bob accepted alice's draw offer.");
    }
}

/// Issue 26 finding 20: without a limit of games the standings have no
/// "Active/Limit" column and do not say "There is no limit of games".
#[test]
fn the_standings_mail_has_no_empty_limit_column() {
    let mut s = TestServer::alice_bob_carol("");
    s.fast_forward(101, &random_turns(7, 10)[..10]);
    let r = s.send(BOB, "yinsh resign 101 bob bpw", "");
    assert_says(&r[0], "alice's rating is 1632 (provisional).");
    let r = s.send(CAROL, "yinsh standings", "");
    assert_eq!(r.len(), 1, "{r:?}");
    let body = &r[0].body;
    assert!(!body.contains("Limit"), "{body}");
    assert!(!body.contains("limit"), "{body}");
    assert!(!body.contains("/-"), "{body}");
    assert_says(
        &r[0],
        "Rank Name                             Rating  Won Lost Ties\n   1 alice                              1632    1    0    0\n",
    );
}

/// Issue 26 finding 22: wherever the docs give the picture's size in pixels, it is
/// the size of the picture the mails carry.
#[test]
fn the_docs_give_the_pictures_true_size() {
    let (w, h) = yinsh_pbem::picture::Picture::size();
    let png = yinsh_pbem::picture::Picture::new(&yinsh_pbem::rules::Game::new(
        yinsh_pbem::rules::Variant::Normal,
    ))
    .to_png()
    .expect("png");
    // The PNG's own header: width and height at bytes 16..24.
    let size = |k: usize| u32::from_be_bytes([png[k], png[k + 1], png[k + 2], png[k + 3]]);
    assert_eq!((size(16), size(20)), (w, h));
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = 0;
    for doc in ["README.md", "docs/mail-formats.md", "docs/operations.md"] {
        let text = std::fs::read_to_string(root.join(doc)).expect(doc);
        for (at, _) in text.match_indices(" x 508") {
            let before = &text[..at];
            let width = &before[before.len().saturating_sub(3)..];
            assert_eq!(width, w.to_string(), "{doc}: {}", &text[at - 40..at + 10]);
            found += 1;
        }
        assert!(!text.contains(&format!("{} x {h}", w - 2)), "{doc}");
    }
    assert!(found >= 2, "the docs give the size {found} times");
}

/// The text of `html` without its tags, entities for `<`, `>` and `&` read back.
fn visible(html: &str) -> String {
    let mut out = String::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        rest = rest[at..].find('>').map_or("", |end| &rest[at + end + 1..]);
    }
    out.push_str(rest);
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// Issue 26 finding 2: a comment's lines indented by four spaces are shown as the
/// player wrote them (escaped, spaces kept, in the mail's font), never set as code.
#[test]
fn a_comment_indented_by_four_spaces_is_shown_as_written_not_as_code() {
    let mut s = TestServer::alice_bob_carol("");
    let comment = "My plan:\n    first e4, then f5\n        <b>and</b> win\nGood luck!";
    let r = s.send(ALICE, "yinsh move 101 alice apw e5", comment);
    let m = first_to(&r, "bob");
    let page = &html(m).replace("\r\n", "\n");
    assert!(!page.contains("first e4, then f5</code>"), "{page}");
    assert!(!page.contains("win</code>"), "{page}");
    assert!(!page.contains("<b>"), "{page}");
    // The comment is one block whose white space is kept, in the reader's font.
    let escaped = "My plan:\n    first e4, then f5\n        &lt;b&gt;and&lt;/b&gt; win\nGood luck!";
    let at = page.find(escaped).unwrap_or_else(|| panic!("{page}"));
    let open = &page[page[..at].rfind('<').expect("tag")..at];
    assert!(
        open.starts_with("<div") && open.contains("white-space:pre-wrap"),
        "{open}"
    );
    assert!(!open.contains("monospace"), "{open}");
    // The server's own command to send is still set as code.
    assert!(
        page.contains("yinsh move 101 bob &lt;password&gt; &lt;point&gt;#2</code>"),
        "{page}"
    );
}

/// Issue 26 finding 10: the HTML part's paragraphs do not keep the text part's hard
/// line breaks: "Your move, bob. Press Reply ..." is one paragraph, whose lines the
/// reader's width decides, with the command to send on a line of its own.
#[test]
fn the_html_paragraphs_are_reflowed_not_broken_where_the_text_part_breaks() {
    let mut s = TestServer::alice_bob_carol("");
    let r = s.send(ALICE, "yinsh move 101 alice apw e5", "");
    let m = first_to(&r, "bob");
    assert_says(m, "as the first line (anything\nbelow it goes");
    let page = html(m);
    let start = page
        .find("Your move, bob.")
        .unwrap_or_else(|| panic!("{page}"));
    let end = start + page[start..].find("</p>").expect("end of paragraph");
    let paragraph = &page[start..end];
    assert_eq!(
        paragraph,
        "Your move, bob. Press Reply and write your move as the first line (anything below \
         it goes to the other player as your comment). Or send a mail with this Subject, \
         putting your password in place of &lt;password&gt;:"
    );
    let open = &page[page[..start].rfind('<').expect("tag")..start];
    assert!(!open.contains("pre"), "{open}");
    // The decline lines of a game someone else started, and an offer's note, too.
    let r = s.send(CAROL, "yinsh challenge alice bob", "");
    let text = visible(html(first_to(&r, "bob")));
    assert!(
        text.contains("reply to this mail with decline as the first line, or send"),
        "{text}"
    );
    let r = s.send(ALICE, "yinsh move 101 alice apw propose", "");
    let text = visible(html(first_to(&r, "bob")));
    assert!(
        text.contains("(or reject), or press Reply on this mail"),
        "{text}"
    );
    assert!(
        !html(first_to(&r, "bob")).contains("\nor press Reply"),
        "{}",
        html(first_to(&r, "bob"))
    );
}

/// Issue 26 finding 9: an error mail about a game carries, for a reader of HTML,
/// the picture of that game, its Clock line and the pending offer, like a board
/// mail; its text part keeps the ASCII board (and says the same lines). A reader who
/// chose text only gets the text.
#[test]
fn an_error_mail_about_a_game_carries_its_picture_clock_and_pending_offer() {
    let mut s = TestServer::alice_bob_carol("");
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(ALICE, "yinsh move 101 alice apw propose", "");
    // The original mail quoted in the HTML part too: escaped, the password masked.
    let hostile = "<script>alert(1)</script></div><img src=\"https://evil.example/x\">";
    let r = s.send(ALICE, "yinsh move 101 alice apw e4", hostile);
    assert_eq!(r.len(), 1, "{r:?}");
    assert!(!html(&r[0]).contains("apw"), "{}", html(&r[0]));
    assert!(
        html(&r[0]).contains("&lt;script&gt;alert(1)"),
        "{}",
        html(&r[0])
    );
    let m = &r[0];
    assert_eq!(m.subject, "Yinsh Board 101 Error");
    let offer = "alice's draw offer waits for bob's answer (accept or reject).";
    for says in ["It is not your move", "It is bob's turn.", "Clock: ", offer] {
        assert_says(m, says);
        assert!(visible(html(m)).contains(says), "{says}: {}", html(m));
    }
    // The ASCII board in the text part, the picture in the HTML part.
    assert_says(m, "\n 6     .     .     .     .     .\n");
    assert_says(m, "Original message follows:");
    assert_eq!(m.images.len(), 1, "{}", m.raw);
    assert!(
        html(m).contains(&format!("src=\"cid:{}\"", m.images[0].0)),
        "{}",
        html(m)
    );
    assert!(m.images[0].1.starts_with(b"\x89PNG"));
    crate::html_mail::assert_plain_markup(html(m));
    // The error comes first in the HTML part, shown as written.
    let page = html(m);
    assert!(
        page.find("It is not your move") < page.find("<img"),
        "{page}"
    );
    // bob chose text only: his error mails have no HTML part.
    s.send(BOB, "yinsh settings bob bpw text-only", "");
    let r = s.send(BOB, "yinsh move 101 bob bpw e5", "");
    assert_eq!(r[0].subject, "Yinsh Board 101 Error");
    assert!(r[0].html.is_none(), "{}", r[0].raw);
    assert_says(&r[0], offer);
}

/// Issue 26 finding 23: `tick --verbose` with nothing due says what it checked: the
/// games due, the robot turns owed and when the next game is due.
#[test]
fn tick_verbose_with_nothing_due_says_what_it_checked() {
    let mut s = TestServer::alice_bob_carol("--nagtime=2 --forfeittime=5");
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(BOB, "yinsh move 101 bob bpw f6", "");
    let home = s.home();
    let run = |now: u64| {
        let out = crate::support::bin::command()
            .args(["tick", "--verbose", "--home"])
            .arg(&home)
            .env("YINSH_PBEM_NOW", now.to_string())
            .output()
            .expect("tick");
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let out = run(s.now + 60);
    assert!(out.contains("games due now: 0\n"), "{out}");
    assert!(out.contains("robot turns owed: 0\n"), "{out}");
    let reminder = yinsh_pbem::server::text::dates::format_date(s.now + 2 * DAY);
    assert!(
        out.contains(&format!("next due: board 101 at {reminder}\n")),
        "{out}"
    );
    assert!(out.contains("0 replies spooled"), "{out}");
    // Nothing going on: nothing is due next.
    s.send(BOB, "yinsh resign 101 bob bpw", "");
    let out = run(s.now + 60);
    assert!(
        out.contains("next due: no game going on has a deadline\n"),
        "{out}"
    );
}
