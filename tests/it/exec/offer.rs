//! Draw offers and take-back requests in-process: propose, undo, accept, reject, and
//! the answers that do not fit.

use crate::support::exec::{Home, assert_says};

#[test]
fn a_draw_offer_is_stored_rejected_then_accepted_as_a_tie() {
    let mut home = Home::with_game(&["alice", "bob"]);
    home.run("alice", "yinsh move 101 alice apw e5");
    let done = home.run("bob", "yinsh move 101 bob bpw propose");
    assert_eq!(done.changed, ["boards/101.json"]);
    assert_eq!(done.replies.len(), 2);
    for r in &done.replies {
        assert_says(
            r,
            "bob proposes a draw.\nalice may answer with the Subject \"yinsh move 101 alice <password> accept\"",
        );
    }
    let offer = &home.game(101)["extra"]["offer"];
    assert_eq!(
        (
            offer["kind"].as_str(),
            offer["by"].as_str(),
            offer["turns"].as_u64()
        ),
        (Some("draw"), Some("bob"), Some(1))
    );
    let r = home.refused(
        "bob",
        "yinsh move 101 bob bpw accept",
        "",
        "There is no draw offer or take-back request from alice to answer on board 101.",
    );
    assert_eq!(r.subject, "Yinsh Board 101 Error");
    let done = home.run("alice", "yinsh move 101 alice apw reject");
    assert_says(&done.replies[0], "alice rejected bob's draw offer.");
    assert!(home.game(101)["extra"].get("offer").is_none());
    home.refused(
        "alice",
        "yinsh move 101 alice apw accept",
        "",
        "There is no draw offer",
    );
    home.run("bob", "yinsh move 101 bob bpw propose");
    let done = home.run_with("alice", "yinsh move 101 alice apw accept", "Fair enough");
    assert_eq!(done.replies.len(), 2);
    for r in &done.replies {
        assert_eq!(r.subject, "Yinsh Board 101 **");
        // Issue 26 finding 19: not also "Game was a tie.".
        assert_says(
            r,
            "alice accepted bob's draw offer.\nThe players agreed to a draw.",
        );
    }
    let game = home.game(101);
    assert_eq!(game["ended"]["reason"], "draw agreed");
    assert_eq!(game["ended"]["by"], "alice");
    assert_eq!(game["turns"].as_array().map(Vec::len), Some(1));
    home.refused(
        "bob",
        "yinsh move 101 bob bpw propose",
        "",
        "The game has ended",
    );
}

#[test]
fn an_accepted_undo_takes_back_the_requesters_move_and_what_followed() {
    let mut home = Home::with_game(&["alice", "bob"]);
    home.refused(
        "alice",
        "yinsh move 101 alice apw undo",
        "",
        "You have not played a move on this board yet",
    );
    home.run("alice", "yinsh move 101 alice apw e5");
    home.run("bob", "yinsh move 101 bob bpw f6");
    let done = home.run("alice", "yinsh move 101 alice apw undo");
    assert_says(
        &done.replies[0],
        "alice asks to take back move #1 (e5) and the 1 turn after it.",
    );
    assert_eq!(home.game(101)["extra"]["offer"]["kind"], "undo");
    // While it waits, bob cannot make an offer of his own.
    home.refused(
        "bob",
        "yinsh move 101 bob bpw propose",
        "",
        "alice has made a take-back request that waits for your answer",
    );
    let done = home.run("bob", "yinsh move 101 bob bpw accept");
    assert_eq!(done.changed, ["boards/101.json"]);
    for r in &done.replies {
        assert_says(
            r,
            "bob accepted alice's take-back request: move #1 (e5) and the 1 turn after it was taken back.",
        );
        assert_says(r, "It is alice's turn.");
    }
    assert_eq!(home.turns(101), Vec::<String>::new());
    assert!(home.game(101)["extra"].get("offer").is_none());
}

#[test]
fn a_rejected_undo_leaves_the_moves() {
    let mut home = Home::with_game(&["alice", "bob"]);
    home.run("alice", "yinsh move 101 alice apw e5");
    home.run("bob", "yinsh move 101 bob bpw f6");
    let done = home.run("bob", "yinsh move 101 bob bpw undo");
    assert_says(&done.replies[0], "bob asks to take back move #2 (f6).");
    let done = home.run("alice", "yinsh move 101 alice apw reject");
    assert_says(&done.replies[0], "alice rejected bob's take-back request.");
    assert_eq!(home.turns(101), ["e5", "f6"]);
    home.refused(
        "alice",
        "yinsh move 101 alice apw reject",
        "",
        "There is no draw offer or take-back request from bob",
    );
}
