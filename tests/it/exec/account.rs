//! Account commands in-process: signup (and its alias add), change password, change
//! address, signoff (and delete), with their refusals.

use crate::support::exec::{Home, address, assert_reply};

#[test]
fn signup_stores_the_account_and_welcomes_every_address() {
    let mut home = Home::new();
    let done = home.run("alice", "signup alice apw alice@example.org a2@example.org");
    assert_eq!(done.changed, ["accounts/alice.json"]);
    assert_reply(
        done.only(),
        &["alice@example.org", "a2@example.org"],
        "Signup for alice",
        &[
            "Welcome to YINSH by e-mail, alice.",
            "Mail for it goes to: alice@example.org, a2@example.org",
            "yinsh challenge alice <opponent's userid>",
        ],
    );
    let account = home.account("alice").expect("stored");
    assert_eq!(
        account["addresses"],
        serde_json::json!(["alice@example.org", "a2@example.org"])
    );
    assert_eq!(account["created"], home.now);
    let hash = account["password_hash"].as_str().expect("hash");
    assert!(
        hash.starts_with("$argon2id$") && !hash.contains("apw"),
        "{hash}"
    );
    // `add` without an address takes the sender's, and answers it once.
    let done = home.run("bob", "add bob bpw");
    assert_reply(done.only(), &["bob@example.org"], "Signup for bob", &[]);
    assert_eq!(
        home.account("bob").expect("stored")["addresses"],
        serde_json::json!(["bob@example.org"])
    );
}

#[test]
fn a_taken_userid_is_refused_whatever_its_case() {
    let mut home = Home::with_players(&["alice"]);
    let r = home.refused(
        "mallory",
        "signup ALICE mpw mallory@example.org",
        "",
        "The userid ALICE is already taken.",
    );
    assert_eq!(r.subject, "Yinsh error");
    assert_eq!(
        home.account("alice").expect("kept")["addresses"],
        serde_json::json!(["alice@example.org"])
    );
}

#[test]
fn change_password_replaces_the_hash_and_only_the_new_one_works() {
    let mut home = Home::with_players(&["alice"]);
    let old = home.account("alice").expect("stored")["password_hash"].clone();
    let done = home.run("alice", "change password alice apw n3w");
    assert_eq!(done.changed, ["accounts/alice.json"]);
    assert_reply(
        done.only(),
        &["alice@example.org"],
        "Password changed for alice",
        &["The password of alice has been changed."],
    );
    assert_ne!(home.account("alice").expect("stored")["password_hash"], old);
    let r = home.refused(
        "alice",
        "change password alice apw other",
        "",
        "Invalid password entered",
    );
    assert_eq!(r.subject, "Yinsh error");
    let r = home.refused(
        "zed",
        "change password zed zpw other",
        "",
        "Invalid userid entered",
    );
    assert_eq!(r.subject, "Yinsh error");
    let done = home.run("alice", "change password alice n3w apw");
    assert_eq!(done.changed, ["accounts/alice.json"]);
}

#[test]
fn change_address_tells_the_old_and_the_new_addresses() {
    let mut home = Home::with_players(&["alice"]);
    let done = home.run("alice", "change address alice apw new@example.org");
    assert_eq!(done.changed, ["accounts/alice.json"]);
    assert_reply(
        done.only(),
        &["new@example.org", "alice@example.org"],
        "Address changed for alice",
        &[
            "The e-mail addresses of alice are now: new@example.org",
            "(They were: alice@example.org.)",
        ],
    );
    assert_eq!(
        home.account("alice").expect("stored")["addresses"],
        serde_json::json!(["new@example.org"])
    );
    // Without an address, the sender's is taken.
    let done = home.run("alice", "change addresses alice apw");
    assert_eq!(
        done.recipients(),
        [["alice@example.org", "new@example.org"]]
    );
    assert_eq!(
        home.account("alice").expect("stored")["addresses"],
        serde_json::json!([address("alice")])
    );
    let r = home.refused(
        "alice",
        "change address alice wrong x@example.org",
        "",
        "Invalid password entered",
    );
    assert_eq!(r.subject, "Yinsh error");
}

#[test]
fn signoff_is_refused_while_a_game_runs_and_then_removes_the_account() {
    let mut home = Home::with_game(&["alice", "bob"]);
    let r = home.refused(
        "alice",
        "signoff alice apw",
        "",
        "alice still plays board 101: finish or resign it first",
    );
    assert_eq!(r.subject, "Yinsh error");
    let r = home.refused("alice", "delete alice bpw", "", "Invalid password entered");
    assert_eq!(r.subject, "Yinsh error");
    home.run("bob", "yinsh resign 101 bob bpw");
    let done = home.run("alice", "delete alice apw");
    // The account's last record stays as retired: the userid is not given away.
    assert_eq!(
        done.changed,
        ["accounts/alice.json", "accounts/alice.retired"]
    );
    assert_reply(
        done.only(),
        &["alice@example.org"],
        "Signoff for alice",
        &["The account alice has been removed."],
    );
    assert!(home.account("alice").is_none());
    assert!(home.account("bob").is_some());
    assert!(!home.path().join("accounts/alice.json").exists());
    // The finished game stays.
    assert_eq!(home.game(101)["white"], "alice");
}
