//! Issue 47 item 7, moves as a person writes them, through the real binary: a space
//! inside a point (`G 3`, `G 3-G 7`) and a chess player's marks (`f4!`, `e5-e8!?`)
//! are played as meant; `pass` while the rings are being placed is answered in a
//! player's words, by Subject and by Reply.

use crate::support::mail::Client;
use crate::support::sent::only_to;
use crate::support::server::{TestServer, assert_says};
use crate::support::turns::random_turns;
use yinsh_pbem::rules::Color;

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";

/// The binary with alice (White) and bob playing board 101, alice to move.
fn game() -> TestServer {
    let mut s = TestServer::with_binary();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    s
}

/// The text of each turn played on board 101.
fn played(s: &TestServer) -> Vec<String> {
    s.game_file(101)["turns"]
        .as_array()
        .expect("turns")
        .iter()
        .map(|t| t["text"].as_str().expect("text").to_string())
        .collect()
}

/// `g3` as a careless hand writes it: `G 3`.
fn spaced(point: &str) -> String {
    let (letter, number) = point.split_at(1);
    format!("{} {number}", letter.to_uppercase())
}

#[test]
fn a_point_written_with_a_space_and_a_move_with_marks_are_played() {
    let mut s = game();
    let r = s.send(ALICE, "yinsh move 101 alice apw G 3", "");
    let mail = only_to(&r, "alice@example.org");
    assert!(!mail.subject.contains("Error"), "{}", mail.body);
    assert_eq!(played(&s), ["g3"]);
    for (k, text) in ["f4!", "e5?", "d4!!", "h5!?"].iter().enumerate() {
        let (who, pw, from) = if k % 2 == 0 {
            ("bob", "bpw", BOB)
        } else {
            ("alice", "apw", ALICE)
        };
        let r = s.send(from, &format!("yinsh move 101 {who} {pw} {text}"), "");
        let mail = only_to(&r, &format!("{who}@example.org"));
        assert!(!mail.subject.contains("Error"), "{text}: {}", mail.body);
    }
    assert_eq!(played(&s), ["g3", "f4", "e5", "d4", "h5"]);
}

#[test]
fn a_ring_move_written_with_spaces_inside_its_points_is_played() {
    for (seed, written) in [(21, "{from} - {to}"), (22, "{from}-{to}!?")] {
        let mut s = game();
        let turns = random_turns(seed, 60);
        let k = turns
            .iter()
            .enumerate()
            .position(|(k, (side, t))| {
                k >= 10 && *side == Color::White && t.len() >= 5 && !t.contains([';', 'x'])
            })
            .expect("a plain ring move of White's");
        s.fast_forward(101, &turns[..k]);
        let (from, to) = turns[k].1.split_once('-').expect("a ring move");
        let text = written
            .replace("{from}", &spaced(from))
            .replace("{to}", &spaced(to));
        let r = s.send(ALICE, &format!("yinsh move 101 alice apw {text}"), "");
        let mail = only_to(&r, "alice@example.org");
        assert!(!mail.subject.contains("Error"), "{text}: {}", mail.body);
        let list = played(&s);
        assert_eq!(list.len(), k + 1, "{text} was played");
        assert_eq!(list[k], format!("{from}-{to}"), "{text}");
    }
}

#[test]
fn pass_while_placing_is_answered_in_a_players_words() {
    let mut s = game();
    let r = s.send(ALICE, "yinsh move 101 alice apw pass", "");
    let err = only_to(&r, "alice@example.org");
    assert_says(&err, "Move pass is not legal");
    assert_says(
        &err,
        "you cannot pass while the rings are being placed: place a ring on a free point, like e5",
    );
    assert!(played(&s).is_empty());
    let r = s.send(ALICE, "yinsh move 101 alice apw e5", "");
    let b = only_to(&r, "bob@example.org");
    let r = s.press_reply(Client::Thunderbird, BOB, &b, "pass");
    let err = only_to(&r, "bob@example.org");
    assert_says(
        &err,
        "you cannot pass while the rings are being placed: place a ring on a free point, like f6",
    );
    assert_eq!(played(&s), ["e5"]);
}
