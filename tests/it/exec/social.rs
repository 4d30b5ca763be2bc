//! Commands about people in-process: chat, subscribe and unsubscribe, message,
//! broadcast (with the admins file) and vacation, with their refusals.

use crate::support::exec::{Home, address, assert_reply, assert_says};

#[test]
fn chat_goes_to_the_other_player_and_the_watchers_only() {
    let mut home = Home::with_game(&["alice", "bob", "carol"]);
    let done = home.unchanged("bob", "yinsh chat 101 bob bpw", "Nice opening.\n");
    // The chat, then the sender's receipt (issue 26 finding 18).
    assert_eq!(done.replies.len(), 2, "{:?}", done.replies);
    assert_reply(
        &done.replies[0],
        &["alice@example.org"],
        "Yinsh chat 101 bob",
        &["bob writes:\n\nNice opening.\n"],
    );
    assert_reply(
        &done.replies[1],
        &["bob@example.org"],
        "Chat sent on board 101",
        &["Your chat on board 101 was sent to alice."],
    );
    home.refused(
        "carol",
        "yinsh chat 101 carol cpw",
        "Hello?",
        "You are NOT playing this game nor watching it",
    );
    home.refused(
        "alice",
        "yinsh chat 101 alice apw",
        "  \n",
        "The chat is empty",
    );
    let r = home.refused(
        "alice",
        "yinsh chat 404 alice apw",
        "Hi",
        "Yinsh board 404 not found",
    );
    assert_eq!(r.subject, "Yinsh error");
    home.run("carol", "yinsh subscribe 101 carol cpw");
    let done = home.unchanged("carol", "yinsh chat 101 carol cpw", "Watching!");
    assert_eq!(
        done.recipients(),
        [
            ["alice@example.org"],
            ["bob@example.org"],
            ["carol@example.org"]
        ]
    );
    assert!(
        done.replies[..2]
            .iter()
            .all(|r| r.subject == "Yinsh chat 101 carol")
    );
    assert_says(&done.replies[2], "was sent to alice, bob.");
}

#[test]
fn a_watcher_gets_every_board_mail_until_unsubscribing() {
    let mut home = Home::with_game(&["alice", "bob", "carol"]);
    let done = home.run("carol", "yinsh subscribe 101 carol cpw");
    assert_eq!(done.changed, ["boards/101.json"]);
    assert_reply(
        done.only(),
        &["carol@example.org"],
        "Yinsh Board 101 alice",
        &["You now watch board 101", "Subscribers: carol"],
    );
    assert_eq!(
        home.game(101)["extra"]["subscribers"],
        serde_json::json!(["carol"])
    );
    let done = home.unchanged("carol", "yinsh subscribe 101 carol cpw", "");
    assert_says(done.only(), "You already watch board 101.");
    let done = home.run("alice", "yinsh move 101 alice apw e5");
    assert_eq!(
        done.recipients(),
        [
            ["alice@example.org"],
            ["bob@example.org"],
            ["carol@example.org"]
        ]
    );
    assert!(
        done.replies
            .iter()
            .all(|r| r.body.contains("Subscribers: carol"))
    );
    home.refused(
        "bob",
        "yinsh subscribe 101 bob bpw",
        "",
        "You play this game: you get its mails already.",
    );
    let done = home.run("carol", "yinsh unsubscribe 101 carol cpw");
    assert_says(done.only(), "You no longer watch board 101.");
    let done = home.run("bob", "yinsh move 101 bob bpw f6");
    assert_eq!(
        done.recipients(),
        [["alice@example.org"], ["bob@example.org"]]
    );
    let done = home.unchanged("carol", "yinsh unsubscribe 101 carol cpw", "");
    assert_says(done.only(), "You were not watching board 101.");
}

#[test]
fn a_message_goes_to_each_named_player_or_to_nobody() {
    let mut home = Home::with_players(&["alice", "bob", "carol"]);
    let done = home.unchanged(
        "alice",
        "message alice apw bob CAROL",
        "See you at the club.",
    );
    assert_eq!(
        done.recipients(),
        [
            ["bob@example.org"],
            ["carol@example.org"],
            ["alice@example.org"]
        ]
    );
    for (r, to) in done
        .replies
        .iter()
        .zip(["bob@example.org", "carol@example.org"])
    {
        assert_reply(
            r,
            &[to],
            "Message from alice",
            &["alice writes:\n\nSee you at the club.\n"],
        );
    }
    assert_reply(
        &done.replies[2],
        &["alice@example.org"],
        "Message sent",
        &["Your message was sent to bob, CAROL."],
    );
    let r = home.refused(
        "alice",
        "message alice apw bob zed",
        "Hi",
        "Invalid userid entered: zed (nothing was sent)",
    );
    assert_eq!(r.subject, "Yinsh error");
    home.refused("alice", "message alice apw bob", "", "The message is empty");
    home.refused(
        "alice",
        "message alice bpw bob",
        "Hi",
        "Invalid password entered",
    );
}

#[test]
fn only_an_admin_listed_in_the_admins_file_may_broadcast() {
    let mut home = Home::with_players(&["alice", "bob", "carol"]);
    home.refused(
        "alice",
        "broadcast alice apw",
        "Server down tonight.",
        "Only the server's admins may broadcast",
    );
    std::fs::write(
        home.path().join("admins"),
        "# who may broadcast\nAlice  # the operator\n",
    )
    .expect("admins");
    home.refused(
        "bob",
        "broadcast bob bpw",
        "Me too.",
        "Only the server's admins may broadcast",
    );
    home.refused("alice", "broadcast alice apw", "", "The broadcast is empty");
    let done = home.unchanged("alice", "broadcast alice apw", "Server down tonight.");
    assert_eq!(
        done.recipients(),
        [
            ["alice@example.org"],
            ["bob@example.org"],
            ["carol@example.org"]
        ]
    );
    for (r, to) in done.replies.iter().zip(["alice", "bob", "carol"]) {
        assert_reply(
            r,
            &[address(to).as_str()],
            "Broadcast from alice",
            &["alice writes:\n\nServer down tonight.\n"],
        );
    }
}

#[test]
fn vacation_is_stored_then_ended_and_too_long_is_refused() {
    let mut home = Home::with_players(&["bob"]);
    let done = home.run("bob", "vacation bob bpw 10");
    assert_eq!(done.changed, ["vacations.json"]);
    assert_reply(
        done.only(),
        &["bob@example.org"],
        "Vacation for bob",
        &[
            "bob is on vacation until ",
            "Your clocks are stopped",
            "vacation bob <password> 0",
        ],
    );
    let stored = std::fs::read_to_string(home.path().join("vacations.json")).expect("vacations");
    assert!(stored.contains("\"bob\""), "{stored}");
    home.refused(
        "bob",
        "vacation bob bpw 91",
        "",
        "A vacation is at most 90 days",
    );
    home.refused("bob", "vacation bob apw 5", "", "Invalid password entered");
    let done = home.run("bob", "vacation bob bpw 0");
    assert_eq!(done.changed, ["vacations.json"]);
    assert_says(
        done.only(),
        "bob is back from vacation: the clocks run again.",
    );
}
