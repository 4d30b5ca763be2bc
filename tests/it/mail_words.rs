//! Issue 47 items 8, 9 and 10, through the real binary: the text part of a board
//! mail, a new game's and an error mail reads in any font (every line at most 78
//! columns but a URL's, the position in words under the ASCII board, listing the
//! game's rings and markers as they are, the last move and whose turn it is); their
//! HTML part sets the server's prose as paragraphs, never hard-wrapped in a
//! preformatted block; and a comment's writer reads it in their own copy of the
//! board mail at a confirmed address, and at one nobody confirmed is told it is held.

use yinsh_pbem::notation::play_turn;
use yinsh_pbem::rules::{Color, Game, Piece, Point, Variant};

use crate::support::bin;
use crate::support::sent::{ALICE, BOB, mails_to, only_to};
use crate::support::server::{Sent, TestServer, assert_says};
use crate::support::turns::random_turns;

/// The most characters of a line of a text part.
const WIDTH: usize = 78;

/// A server (the real binary) with alice and bob signed up and board 101 started;
/// the new game's mails.
fn game() -> (TestServer, Vec<Sent>) {
    let mut s = TestServer::with_binary();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let started = s.send(ALICE, "yinsh challenge alice bob", "");
    assert_eq!(started.len(), 2, "{started:?}");
    (s, started)
}

/// The lines of `m`'s text part longer than [`WIDTH`] that are neither quoted from
/// the player's mail nor a single token (a URL) too long for any line.
fn too_wide(m: &Sent) -> Vec<String> {
    m.body
        .lines()
        .filter(|l| l.chars().count() > WIDTH)
        .filter(|l| !l.starts_with('>'))
        .filter(|l| l.split_whitespace().all(|w| w.chars().count() <= WIDTH / 2))
        .map(str::to_string)
        .collect()
}

/// The game of board 101 as its file records it.
fn replayed(s: &TestServer) -> Game {
    let file = s.game_file(101);
    let mut game = Game::new(Variant::Normal);
    for t in file["turns"].as_array().expect("turns") {
        let text = t["text"].as_str().expect("text");
        play_turn(&mut game, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    game
}

/// The items of the text part's "The position in words:" list, each item's
/// continuation lines joined to it.
fn items_in_words(m: &Sent) -> Vec<String> {
    let body = &m.body;
    let at = body
        .find("\nThe position in words:\n")
        .unwrap_or_else(|| panic!("no position in words in {body}"));
    let mut items: Vec<String> = Vec::new();
    for line in body[at..].lines().skip(2) {
        if let Some(item) = line.strip_prefix("- ") {
            items.push(item.to_string());
        } else if let (Some(more), Some(last)) = (line.strip_prefix("  "), items.last_mut()) {
            last.push(' ');
            last.push_str(more.trim_start());
        } else {
            break;
        }
    }
    items
}

/// What the list must say of `game`'s rings and markers: a line for each side and
/// piece, the points of a colour's pieces counted on the board.
fn expected_pieces(game: &Game) -> Vec<String> {
    let mut out = Vec::new();
    for color in [Color::White, Color::Black] {
        for (what, piece) in [
            ("rings", Piece::Ring(color)),
            ("markers", Piece::Marker(color)),
        ] {
            let points: Vec<String> = Point::ALL
                .iter()
                .filter(|&&p| game.piece_at(p) == Some(piece))
                .map(|p| p.to_string())
                .collect();
            out.push(if points.is_empty() {
                format!("{color}'s {what}: none.")
            } else {
                format!(
                    "{color}'s {what} ({}): {}.",
                    points.len(),
                    points.join(", ")
                )
            });
        }
    }
    out.push(format!(
        "Rings removed: White {}, Black {}.",
        game.rings_removed(Color::White),
        game.rings_removed(Color::Black)
    ));
    out
}

/// Plays the first `n` turns of a seeded random game on board 101, the last of them
/// by mail from its player: that mail's replies.
fn play(s: &mut TestServer, seed: u64, n: usize) -> Vec<Sent> {
    let turns = random_turns(seed, n);
    assert_eq!(turns.len(), n, "the game lasts {n} turns");
    s.fast_forward(101, &turns[..n - 1]);
    let (side, last) = &turns[n - 1];
    let (who, password) = match side {
        Color::White => ("alice", "apw"),
        Color::Black => ("bob", "bpw"),
    };
    let sent = s.send(
        &format!("{who}@example.org"),
        &format!("yinsh move 101 {who} {password} {last}"),
        "",
    );
    assert_eq!(
        s.game_file(101)["turns"].as_array().map(Vec::len),
        Some(n),
        "{sent:?}"
    );
    sent
}

#[test]
fn every_line_of_the_text_parts_fits_in_78_columns_the_clock_line_too() {
    let (mut s, mut all) = game();
    all.extend(play(&mut s, 7, 24));
    all.extend(s.send(ALICE, "yinsh move 101 alice apw zz99", ""));
    all.extend(s.send(ALICE, "yinsh settings alice apw", ""));
    all.extend(s.send(ALICE, "yinsh show 101", ""));
    assert!(all.len() >= 6, "{all:?}");
    for m in &all {
        let wide = too_wide(m);
        assert!(wide.is_empty(), "{}: {wide:#?}\n{}", m.subject, m.body);
    }
    let board = all
        .iter()
        .find(|m| m.subject.starts_with("Yinsh Board 101") && m.body.contains("Clock:"))
        .expect("a board mail with its clock");
    // The Clock line, once one line of 137 characters, is broken at a space.
    let clock = board
        .body
        .lines()
        .skip_while(|l| !l.starts_with("Clock:"))
        .take(2)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(clock.contains("gets a reminder on"), "{}", board.body);
    assert!(clock.contains("and forfeits on"), "{}", board.body);
    let settings = all
        .iter()
        .find(|m| m.body.starts_with("Board mails for alice"))
        .expect("the settings answer");
    assert!(settings.body.contains("yinsh settings alice <password>"));
}

#[test]
fn the_position_in_words_under_the_board_lists_the_games_rings_and_markers() {
    let (mut s, started) = game();
    for m in &started {
        assert_eq!(
            items_in_words(m)[..5],
            expected_pieces(&Game::new(Variant::Normal))
        );
    }
    let sent = play(&mut s, 11, 26);
    let game = replayed(&s);
    assert!(
        Point::ALL
            .iter()
            .any(|&p| matches!(game.piece_at(p), Some(Piece::Marker(_)))),
        "the game has markers"
    );
    let file = s.game_file(101);
    let turns = file["turns"].as_array().expect("turns");
    let last = &turns[turns.len() - 1];
    let to_move = match game.to_act() {
        Some(Color::White) => "alice",
        _ => "bob",
    };
    for m in mails_to(&sent, "alice@example.org")
        .into_iter()
        .chain(mails_to(&sent, "bob@example.org"))
    {
        let items = items_in_words(&m);
        assert_eq!(items[..5], expected_pieces(&game), "{}", m.body);
        assert!(
            items[5].starts_with(&format!(
                "Last move: #{} {}: {} - ",
                turns.len(),
                last["by"].as_str().expect("by"),
                last["text"].as_str().expect("text")
            )),
            "{items:?}"
        );
        assert_eq!(items[6], format!("It is {to_move}'s turn."));
        // Under the ASCII board: after its status block.
        let words = m.body.find("The position in words:").expect("words");
        let markers = m.body.find("\nMarkers: ").expect("the board's status");
        assert!(markers < words, "{}", m.body);
    }
    // An error mail that shows the board shows it in words too.
    let err = s.send(ALICE, "yinsh move 101 alice apw zz99", "");
    let err = only_to(&err, "alice@example.org");
    assert_eq!(items_in_words(&err)[..5], expected_pieces(&game));
}

/// The blocks of `html` shown as written (`white-space:pre-wrap`, outside the
/// board's `<pre>`), their contents.
fn as_written(html: &str) -> Vec<&str> {
    html.match_indices("<div style=\"margin:4px 0 10px;white-space:pre-wrap")
        .filter_map(|(at, _)| {
            let rest = &html[at..];
            let start = rest.find('>')? + 1;
            let end = rest.find("</div>")?;
            Some(&rest[start..end])
        })
        .collect()
}

/// The `<p>` paragraphs of `html`, their contents.
fn paragraphs(html: &str) -> Vec<&str> {
    html.match_indices("<p style=")
        .filter_map(|(at, _)| {
            let rest = &html[at..];
            let start = rest.find('>')? + 1;
            let end = rest.find("</p>")?;
            Some(&rest[start..end])
        })
        .collect()
}

#[test]
fn the_html_of_a_new_game_and_an_error_mail_sets_prose_as_paragraphs() {
    let (mut s, started) = game();
    let to_bob = only_to(&started, "bob@example.org");
    let html = to_bob.html.as_deref().expect("an HTML part");
    // The foot of a new game's mail: one paragraph, its text part's lines joined.
    let subject_note = paragraphs(html)
        .into_iter()
        .find(|p| p.starts_with("The Subject of this game"))
        .unwrap_or_else(|| panic!("no paragraph of the Subject in {html}"));
    assert!(
        subject_note.contains("at its end means the mail carries"),
        "{subject_note}"
    );
    assert!(
        as_written(html).is_empty(),
        "prose shown as written: {:?}",
        as_written(html)
    );
    let r = s.press_reply(
        crate::support::mail::Client::Thunderbird,
        BOB,
        &to_bob,
        "zz99",
    );
    let err = only_to(&r, "bob@example.org");
    assert_eq!(err.subject, "Yinsh Board 101 Error");
    let html = err.html.as_deref().expect("the error's HTML part");
    assert!(
        paragraphs(html)
            .iter()
            .any(|p| p.contains("(or resign, propose, accept, reject, undo, pass, chat)")),
        "{html}"
    );
    // What stays as written is the player's own mail, quoted.
    let kept = as_written(html);
    assert!(!kept.is_empty(), "the quote: {html}");
    for block in kept {
        assert!(
            block.lines().all(|l| l.starts_with("&gt;")),
            "not a quote: {block:?}"
        );
    }
    assert!(html.contains("<li>White&#39;s rings: none.</li>"), "{html}");
}

#[test]
fn a_writer_reads_their_comment_at_a_confirmed_address_and_is_told_it_is_held_at_another() {
    let mut s = TestServer::with_binary();
    s.envs = bin::confirming().to_vec();
    s.confirmed("bob", "bpw", "bob@example.org");
    s.confirmed("carol", "cpw", "carol@example.org");
    // carol's address is confirmed: her copy shows her words, and bob reads them.
    let started = s.send(
        "carol@example.org",
        "yinsh challenge -password cpw carol bob",
        "",
    );
    assert_eq!(started.len(), 2, "{started:?}");
    let sent = s.send(
        "carol@example.org",
        "yinsh move 101 carol cpw e5",
        "Have fun, bob!",
    );
    assert_says(
        &only_to(&sent, "carol@example.org"),
        "carol writes:\nHave fun, bob!\n",
    );
    assert_says(
        &only_to(&sent, "bob@example.org"),
        "carol writes:\nHave fun, bob!\n",
    );
    // alice's is not (anyone may have signed up with it): her copy says the comment
    // is hers and held, and repeats none of it; bob's leaves it out too.
    s.send(ALICE, "signup alice apw", "");
    let started = s.send(ALICE, "yinsh challenge -password apw alice bob", "");
    assert_eq!(started.len(), 2, "{started:?}");
    let sent = s.send(ALICE, "yinsh move 102 alice apw e5", "Good luck, bob!");
    let alices = only_to(&sent, "alice@example.org");
    assert!(!alices.raw.contains("Good luck"), "{}", alices.raw);
    assert_says(&alices, "Your comment is not repeated here");
    assert!(
        !alices.body.contains("The comment is not shown"),
        "{}",
        alices.body
    );
    let bobs = only_to(&sent, "bob@example.org");
    assert!(!bobs.raw.contains("Good luck"), "{}", bobs.raw);
    assert_says(&bobs, "The comment is not shown");
}
