//! Playing in-process: challenge (normal and blitz, and the invalid ones), move (with
//! a comment, with removals, and the refusals: stale #moveno, out of turn, illegal,
//! not a player, no such board, wrong password), resign, queue (played, dropped,
//! refused), submit and confirm, and preview (now and from an earlier move).

use crate::support::exec::{Home, assert_reply, assert_says, password};
use crate::support::turns::turns_to_first_removal;

const BOTH: [&str; 2] = ["alice@example.org", "bob@example.org"];

#[test]
fn challenge_makes_a_board_and_tells_both_players() {
    let mut home = Home::with_players(&["alice", "bob"]);
    let done = home.run("alice", "yinsh challenge alice bob");
    assert_eq!(
        done.changed,
        [
            "accounts/alice.json",
            "accounts/bob.json",
            "boards/101.json",
            "next-board"
        ]
    );
    assert_eq!(
        done.recipients(),
        [["alice@example.org"], ["bob@example.org"]]
    );
    for r in &done.replies {
        assert_eq!(r.subject, "New Yinsh Board 101 alice");
        assert_says(r, "A new Yinsh board (101) has been started");
        assert_says(r, "It is alice's turn.");
    }
    assert_says(
        &done.replies[0],
        "yinsh move 101 alice <password> <point>#1",
    );
    assert!(!done.replies[1].body.contains("Your move"));
    let game = home.game(101);
    assert_eq!(
        (game["white"].as_str(), game["black"].as_str()),
        (Some("alice"), Some("bob"))
    );
    assert_eq!(game["variant"], "normal");
    assert_eq!(game["turns"], serde_json::json!([]));
    assert_eq!(
        home.account("bob").expect("bob")["games"],
        serde_json::json!([101])
    );
    // A blitz game, the challenged player first: board 102, bob White.
    let done = home.run("bob", "yinsh challenge -blitz bob alice");
    assert_eq!(done.replies[0].subject, "New Yinsh Board 102 bob");
    assert_says(&done.replies[0], "This is a blitz game");
    let game = home.game(102);
    assert_eq!(
        (game["white"].as_str(), game["variant"].as_str()),
        (Some("bob"), Some("blitz"))
    );
    assert_eq!(
        home.account("alice").expect("alice")["games"],
        serde_json::json!([101, 102])
    );
}

#[test]
fn an_invalid_challenge_is_answered_and_changes_nothing() {
    let mut home = Home::with_players(&["alice", "bob"]);
    let cases = [
        (
            "yinsh challenge alice ALICE",
            "alice cannot play against themselves",
        ),
        // Userids naming no account may be passwords written out of place: masked by
        // the handler, as the server always mailed them (issue 24).
        ("yinsh challenge alice carol", "******** is not signed up."),
        (
            "yinsh challenge zed carol",
            "******** and ******** are not signed up.",
        ),
        (
            "yinsh challenge --nagtime=9 --forfeittime=9 alice bob",
            "The reminder time (9 days) must be shorter than the forfeit time (9 days)",
        ),
    ];
    for (subject, says) in cases {
        let done = home.unchanged("alice", subject, "");
        assert_reply(
            done.only(),
            &["alice@example.org"],
            "Invalid challenge",
            &[says],
        );
    }
    assert!(home.store.games().expect("games").is_empty());
}

#[test]
fn a_move_is_stored_with_its_comment_and_mailed_to_both() {
    let mut home = Home::with_game(&["alice", "bob"]);
    let done = home.run_with("alice", "yinsh move 101 alice apw e5#1", "Good luck!");
    assert_eq!(done.changed, ["boards/101.json"]);
    assert_eq!(done.recipients(), [[BOTH[0]], [BOTH[1]]]);
    for (r, to) in done.replies.iter().zip(BOTH) {
        assert_reply(
            r,
            &[to],
            "Yinsh Board 101 bob **",
            &["It is bob's turn.", "alice writes:\nGood luck!", "   1 e5"],
        );
    }
    assert_says(&done.replies[1], "yinsh move 101 bob <password> <point>#2");
    let game = home.game(101);
    assert_eq!(game["turns"][0]["text"], "e5");
    assert_eq!(game["turns"][0]["by"], "alice");
    assert_eq!(game["turns"][0]["at"], home.now);
    assert_eq!(game["comments"][0]["text"], "Good luck!");
    assert_eq!(game["comments"][0]["turn"], 1);
}

#[test]
fn move_mistakes_are_refused_and_change_nothing() {
    let mut home = Home::with_game(&["alice", "bob", "carol"]);
    home.run("alice", "yinsh move 101 alice apw e5");
    let on_board = "Yinsh Board 101 Error";
    let cases = [
        (
            "bob",
            "yinsh move 101 bob bpw f6#5",
            on_board,
            "Move f6 received as move #2, but it is marked #5: it was not played.",
        ),
        (
            "bob",
            "yinsh move 101 bob bpw f6#1",
            on_board,
            "but it is marked #1",
        ),
        (
            "alice",
            "yinsh move 101 alice apw f6",
            on_board,
            "It is not your move: it is bob's turn.",
        ),
        (
            "bob",
            "yinsh move 101 bob bpw e5",
            on_board,
            "Move e5 is not legal:",
        ),
        (
            "carol",
            "yinsh move 101 carol cpw f6",
            on_board,
            "You are NOT playing this game",
        ),
        (
            "bob",
            "yinsh move 999 bob bpw f6",
            "Yinsh error",
            "Yinsh board 999 not found",
        ),
        (
            "bob",
            "yinsh move 101 bob apw f6",
            "Yinsh error",
            "Invalid password entered",
        ),
        (
            "zed",
            "yinsh move 101 zed zpw f6",
            "Yinsh error",
            "Invalid userid entered",
        ),
    ];
    for (from, subject, title, says) in cases {
        let r = home.refused(from, subject, "", says);
        assert_eq!(r.subject, title);
        if title == on_board {
            // The error mail shows the board as it is.
            assert_says(&r, "It is bob's turn.");
        }
    }
    assert_eq!(home.turns(101), ["e5"]);
}

#[test]
fn a_turn_with_a_removal_is_played_whole_and_refused_without_it() {
    let mut home = Home::with_game(&["alice", "bob"]);
    let turns = turns_to_first_removal(1);
    let (last, before) = turns.split_last().expect("turns");
    home.fast_forward(101, before);
    let player = if last.0 == yinsh_pbem::rules::Color::White {
        "alice"
    } else {
        "bob"
    };
    let n = turns.len();
    // The same turn with its removals left out is not a whole turn.
    let short: Vec<&str> = last.1.split(';').filter(|w| !w.starts_with('x')).collect();
    let command = |turn: &str| format!("yinsh move 101 {player} {} {turn}#{n}", password(player));
    home.refused(player, &command(&short.join(";")), "", "is not legal");
    let done = home.run(player, &command(&last.1));
    assert_eq!(done.changed, ["boards/101.json"]);
    assert_eq!(done.replies.len(), 2);
    let stored = home.turns(101);
    assert_eq!(stored.len(), n);
    assert_eq!(
        stored.last(),
        Some(&last.1),
        "the turn is stored as the canonical text"
    );
    assert_says(&done.replies[0], &last.1);
}

#[test]
fn resign_ends_the_game_for_both_and_then_nothing_more_is_played() {
    let mut home = Home::with_game(&["alice", "bob"]);
    home.run("alice", "yinsh move 101 alice apw e5");
    let done = home.run("bob", "yinsh resign 101 bob bpw");
    assert_eq!(done.changed, ["boards/101.json"]);
    assert_eq!(done.recipients(), [[BOTH[0]], [BOTH[1]]]);
    for r in &done.replies {
        assert_eq!(r.subject, "Yinsh Board 101");
        assert_says(r, "bob resigned.\nGame won by alice.");
        assert_says(r, "Game ended......");
    }
    let game = home.game(101);
    assert_eq!(game["ended"]["reason"], "resigned");
    assert_eq!(game["ended"]["by"], "bob");
    let r = home.refused(
        "alice",
        "yinsh move 101 alice apw f6",
        "",
        "The game has ended",
    );
    assert_eq!(r.subject, "Yinsh Board 101 Error");
    home.refused("bob", "yinsh resign 101 bob bpw", "", "The game has ended");
}

#[test]
fn a_queued_move_is_played_after_the_opponents_or_dropped_with_a_notice() {
    let mut home = Home::with_game(&["alice", "bob"]);
    home.run("alice", "yinsh move 101 alice apw e5");
    let done = home.run("alice", "yinsh queue 101 alice apw f6#3");
    assert_eq!(done.changed, ["boards/101.json"]);
    assert_reply(
        done.only(),
        &[BOTH[0]],
        "Yinsh Board 101 bob",
        &[
            "Your move f6 is queued: it will be played after bob's move",
            "Your queued move: f6",
        ],
    );
    assert_eq!(home.game(101)["extra"]["queued"]["alice"]["text"], "f6");
    let done = home.run("bob", "yinsh move 101 bob bpw d4");
    assert_eq!(done.replies.len(), 2);
    assert_says(
        &done.replies[0],
        "alice's queued move f6 was played as move #3.",
    );
    assert_eq!(home.turns(101), ["e5", "d4", "f6"]);
    assert!(
        home.game(101)["extra"]
            .get("queued")
            .is_none_or(|q| q.get("alice").is_none())
    );
    // A queued move that is no longer legal is dropped and its player told.
    let queued = home.run("alice", "yinsh queue 101 alice apw d4");
    assert_eq!(queued.changed, ["boards/101.json"]);
    let done = home.run("bob", "yinsh move 101 bob bpw g7");
    assert_eq!(done.recipients(), [[BOTH[0]], [BOTH[1]], [BOTH[0]]]);
    assert_reply(
        &done.replies[2],
        &[BOTH[0]],
        "Yinsh Board 101 Error",
        &[
            "Your queued move d4 on board 101 could not be played",
            "It was dropped.",
        ],
    );
    assert!(!done.replies[0].body.contains("queued move d4 was played"));
    assert_eq!(home.turns(101), ["e5", "d4", "f6", "g7"]);
    assert!(
        home.game(101)["extra"]
            .get("queued")
            .is_none_or(|q| q.get("alice").is_none())
    );
    // Queueing on one's own turn plays at once.
    let done = home.run("alice", "yinsh queue 101 alice apw c3");
    assert_eq!(done.replies.len(), 2);
    assert_eq!(home.turns(101).len(), 5);
}

#[test]
fn queue_mistakes_are_refused() {
    let mut home = Home::with_game(&["alice", "bob"]);
    home.run("alice", "yinsh move 101 alice apw e5");
    home.refused(
        "alice",
        "yinsh queue 101 alice apw f6#2",
        "",
        "a queued move gets #3 or later",
    );
    home.refused(
        "alice",
        "yinsh queue 101 alice apw z99",
        "",
        "Move z99 cannot be queued",
    );
}

#[test]
fn a_submitted_move_is_previewed_then_played_on_confirm() {
    let mut home = Home::with_game(&["alice", "bob"]);
    home.run("alice", "yinsh move 101 alice apw e5");
    let done = home.run("bob", "yinsh submit 101 bob bpw f6#2");
    assert_eq!(done.changed, ["boards/101.json"]);
    assert_reply(
        done.only(),
        &[BOTH[1]],
        "Yinsh Board 101 preview",
        &[
            "Preview of your move f6 (nothing has been played yet).",
            "yinsh confirm 101 bob <password>",
        ],
    );
    assert_eq!(home.turns(101), ["e5"]);
    assert_eq!(home.game(101)["extra"]["submitted"]["bob"]["text"], "f6");
    let done = home.run("bob", "yinsh confirm 101 bob bpw");
    assert_eq!(done.recipients(), [[BOTH[0]], [BOTH[1]]]);
    assert_eq!(home.turns(101), ["e5", "f6"]);
    // Nothing is left to confirm; a submission out of turn or illegal is refused.
    home.refused(
        "bob",
        "yinsh confirm 101 bob bpw",
        "",
        "You have no submitted move waiting on board 101",
    );
    home.refused(
        "bob",
        "yinsh submit 101 bob bpw g7",
        "",
        "It is not your move: it is alice's turn.",
    );
    home.refused(
        "alice",
        "yinsh submit 101 alice apw e5",
        "",
        "Move e5 is not legal:",
    );
    home.refused(
        "alice",
        "yinsh submit 101 alice apw g7#9",
        "",
        "received as move #3, but it is marked #9",
    );
}

#[test]
fn preview_shows_hypothetical_moves_and_stores_nothing() {
    let mut home = Home::with_game(&["alice", "bob"]);
    home.run("alice", "yinsh move 101 alice apw e5");
    let done = home.unchanged("carol", "yinsh preview 101 f6 g7", "");
    assert_reply(
        done.only(),
        &["carol@example.org"],
        "Yinsh Board 101 preview",
        &[
            "Preview: the board after f6 g7 from move #2 (nothing has been stored).",
            "It is bob's turn.",
        ],
    );
    let done = home.unchanged("carol", "yinsh preview 101#0 d4", "");
    assert_reply(
        done.only(),
        &["carol@example.org"],
        "Yinsh Board 101 preview",
        &["from move #1", "It is bob's turn."],
    );
    home.refused(
        "carol",
        "yinsh preview 101#5 f6",
        "",
        "Board 101 has only 1 moves: there is no move #5",
    );
    home.refused(
        "carol",
        "yinsh preview 101 f6 e5",
        "",
        "Preview stopped at the second move given: Move e5 is not legal",
    );
    let r = home.refused(
        "carol",
        "yinsh preview 404 f6",
        "",
        "Yinsh board 404 not found",
    );
    assert_eq!(r.subject, "Yinsh error");
    assert_eq!(home.turns(101), ["e5"]);
}
