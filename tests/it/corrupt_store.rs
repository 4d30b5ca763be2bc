//! Corrupt stored data is loud: a game file whose extras, ending or variant do not
//! decode is a `StoreError::Corrupt` naming the file, and a mail touching it exits 75
//! with a log line naming the file (never a silently dropped offer).

use serde_json::{Value, json};
use yinsh_pbem::server::store::{Store, StoreError};

use crate::support::server::TestServer;

const A: &str = "alice@example.org";

fn new_game() -> TestServer {
    let mut s = TestServer::new();
    s.send(A, "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    let r = s.send(A, "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    s
}

/// A way of spoiling board 101: what it is, the change, and what the error must say.
type Spoiler = (&'static str, fn(&mut Value), &'static str);

fn spoilers() -> Vec<Spoiler> {
    vec![
        (
            "an offer of an unknown kind",
            |g| g["extra"]["offer"] = json!({"kind": "truce", "by": "bob", "turns": 0}),
            "extra \"offer\"",
        ),
        (
            "an offer without its asker",
            |g| g["extra"]["offer"] = json!({"kind": "draw", "turns": 0}),
            "extra \"offer\"",
        ),
        (
            "a watcher that is no userid",
            |g| g["extra"]["subscribers"] = json!(["../carol"]),
            "extra \"subscribers\"",
        ),
        (
            "a reminder time that is text",
            |g| g["extra"]["nagtime"] = json!("seven"),
            "extra \"nagtime\"",
        ),
        (
            "an unknown end reason",
            |g| g["ended"] = json!({"reason": "timeout", "by": "bob", "at": 5}),
            "timeout",
        ),
        (
            "an unknown variant",
            |g| g["variant"] = json!("speed"),
            "speed",
        ),
        (
            "a turn by no userid",
            |g| g["turns"] = json!([{"text": "e5", "by": "", "at": 5}]),
            "userid",
        ),
    ]
}

#[test]
fn a_spoiled_game_file_is_an_error_naming_the_file_and_a_mail_touching_it_exits_75() {
    let mut s = new_game();
    let path = s.home().join("boards/101.json");
    let good = std::fs::read(&path).expect("game file");
    for (what, spoil, says) in spoilers() {
        let mut game: Value = serde_json::from_slice(&good).expect("json");
        spoil(&mut game);
        std::fs::write(&path, game.to_string()).expect("write");

        let store = Store::open(&s.home()).expect("open");
        let err = store.game(101).expect_err(what);
        assert!(matches!(err, StoreError::Corrupt { .. }), "{what}: {err}");
        let text = err.to_string();
        assert!(text.contains("boards/101.json"), "{what}: {text}");
        assert!(text.contains(says), "{what}: {text}");

        let outbox = s.outbox_files();
        let raw = s.mail(A, "yinsh move 101 alice apw e5", "");
        assert_eq!(s.deliver_raw(raw.as_bytes()), 75, "{what}");
        assert_eq!(s.outbox_files(), outbox, "{what}: no reply is sent");
        let log = s.log();
        let last = log.lines().last().unwrap_or_default();
        assert!(last.contains("boards/101.json"), "{what}: {log}");
        assert_eq!(
            std::fs::read(&path).expect("file"),
            game.to_string().into_bytes()
        );
    }
    // Repaired, the same game plays on.
    std::fs::write(&path, &good).expect("restore");
    let r = s.send(A, "yinsh move 101 alice apw e5", "");
    assert_eq!(r.len(), 2, "{r:?}");
}

#[test]
fn unknown_extra_keys_and_every_known_one_survive_a_move_unchanged() {
    let mut s = new_game();
    let path = s.home().join("boards/101.json");
    let mut game = s.game_file(101);
    game["extra"]["future"] = json!({"nested": [1, "two", true]});
    game["extra"]["offer"] = json!({"kind": "draw", "by": "bob", "turns": 0});
    game["extra"]["subscribers"] = json!(["Carol"]);
    std::fs::write(&path, serde_json::to_string_pretty(&game).expect("json")).expect("write");
    s.send(A, "yinsh move 101 alice apw e5", "");
    let after = s.game_file(101);
    assert_eq!(
        after["extra"]["future"],
        json!({"nested": [1, "two", true]})
    );
    assert_eq!(after["extra"]["subscribers"], json!(["Carol"]));
    // The move cancels the draw offer: it lapses (no turn may pass it by), so it
    // stays stored but no longer counts; bob's accept finds nothing to accept.
    assert_eq!(after["extra"]["nagtime"], game["extra"]["nagtime"]);
    let r = s.send("bob@example.org", "yinsh move 101 bob bpw accept", "");
    assert!(
        r.iter().any(|m| m.body.contains("There is no draw offer")),
        "{r:?}"
    );
}
