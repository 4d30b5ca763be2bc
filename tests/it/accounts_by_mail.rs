//! The server-wide commands by mail through the real binary: signup/add, change
//! password, change address, signoff/delete, list, help, multiple, and the refusals a
//! player can meet (taken userid, unknown userid, wrong password, bad challenges).

use crate::support::server::{TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";

#[test]
fn signup_registers_and_refuses_a_taken_userid_in_any_case() {
    let mut s = TestServer::new();
    let r = s.send(ALICE, "signup alice apw", "");
    assert_eq!(
        r[0].to,
        vec!["alice@example.org"],
        "no address given: the sender's"
    );
    assert!(r[0].body.contains("Your userid alice is registered"));
    assert!(!r[0].raw.contains("apw"));
    let r = s.send(BOB, "ADD Alice other", "");
    assert_eq!(r[0].subject, "Yinsh error");
    assert_says(&r[0], "The userid Alice is already taken");
    let r = s.send(
        BOB,
        "add bob bpw bob@work.example.org bob@home.example.org",
        "",
    );
    assert_eq!(
        r[0].to,
        vec![
            "bob@work.example.org",
            "bob@home.example.org",
            "bob@example.org"
        ]
    );
    let account = std::fs::read_to_string(s.home().join("accounts/bob.json")).unwrap();
    assert!(account.contains("$argon2id$"), "stored hashed");
    assert!(!account.contains("bpw"));
}

#[test]
fn signup_syntax_errors_say_the_syntax() {
    let mut s = TestServer::new();
    for (subject, want) in [
        (
            "signup",
            "Syntax is \"signup <userid> <password> [<e-mail address> ...]\"",
        ),
        ("signup ../evil pw", "is not a valid userid"),
        (
            "signup carol pw not-an-address",
            // The word is not quoted: it could be a password pushed out of its place.
            "the 1st e-mail address is not one: it is not name@domain",
        ),
        (
            "change colour carol pw",
            "expected \"password\" or \"address\"",
        ),
    ] {
        let r = s.send(ALICE, subject, "");
        assert_eq!(r.len(), 1, "{subject}");
        assert_says(&r[0], want);
    }
    assert!(!s.home().join("accounts/evil.json").exists());
}

#[test]
fn change_password_makes_the_old_one_stop_working() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice old1", "");
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(ALICE, "change password alice wrong new2", "");
    assert!(
        r[0].body.starts_with("Invalid password entered"),
        "{}",
        r[0].body
    );
    let r = s.send(ALICE, "change password alice old1 new2", "");
    assert_eq!(r[0].subject, "Password changed for alice");
    assert!(!r[0].raw.contains("old1") && !r[0].raw.contains("new2"));
    s.send(ALICE, "yinsh challenge alice bob", "");
    let r = s.send(ALICE, "yinsh move 101 alice old1 e5", "");
    assert!(r[0].body.starts_with("Invalid password entered"));
    let r = s.send(ALICE, "yinsh move 101 alice new2 e5", "");
    assert_eq!(r.len(), 2);
}

#[test]
fn change_address_sends_board_mails_to_the_new_address() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(ALICE, "change address alice apw alice@new.example.org", "");
    assert_eq!(
        r[0].to,
        vec!["alice@new.example.org", "alice@example.org"],
        "old and new are told"
    );
    let r = s.send(BOB, "yinsh challenge alice bob", "");
    assert!(
        r.iter().any(|m| m.to == vec!["alice@new.example.org"]),
        "{r:?}"
    );
}

#[test]
fn signoff_is_refused_while_games_are_active_and_works_after() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    let r = s.send(ALICE, "signoff alice apw", "");
    assert_says(&r[0], "alice still plays board 101");
    assert!(s.home().join("accounts/alice.json").exists());
    let r = s.send(ALICE, "yinsh resign 101 alice apw", "");
    assert!(r.iter().all(|m| m.body.contains("Game won by bob.")));
    let r = s.send(ALICE, "delete alice apw", "");
    assert_eq!(r[0].subject, "Signoff for alice");
    assert!(!s.home().join("accounts/alice.json").exists());
    let r = s.send(ALICE, "yinsh move 101 alice apw e5", "");
    assert!(r[0].body.starts_with("Invalid userid entered"));
}

#[test]
fn challenges_need_two_different_signed_up_players() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    let r = s.send(ALICE, "yinsh challenge alice carol", "");
    assert_eq!(r[0].subject, "Invalid challenge");
    // An unknown userid may be a password written out of place: it is not echoed.
    assert_says(&r[0], "******** is not signed up");
    let r = s.send(ALICE, "yinsh challenge alice ALICE", "");
    assert_eq!(r[0].subject, "Invalid challenge");
    let r = s.send(ALICE, "yinsh challenge -fast alice bob", "");
    assert_says(&r[0], "unknown option \"-fast\"");
    assert!(!s.home().join("boards/101.json").exists());
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(BOB, "yinsh challenge -blitz Bob ALICE", "");
    assert_eq!(r.len(), 2);
    assert!(
        r.iter().all(|m| m.subject == "New Yinsh Board 101 bob"),
        "userid1 moves first: {r:?}"
    );
    assert!(r[0].body.contains("This is a blitz game"));
    assert_eq!(s.game_file(101)["variant"], "blitz");
    assert_eq!(s.game_file(101)["white"], "bob");
}

#[test]
fn help_list_and_multiple_answer_each_command() {
    let mut s = TestServer::new();
    let r = s.send(ALICE, "HELP", "");
    assert!(r[0].body.contains("signup <userid> <password>"));
    let r = s.send(ALICE, "list", "");
    assert_eq!(r[0].subject, "List of games");
    assert!(r[0].body.contains("yinsh"));
    let r = s.send(ALICE, "yinsh help", "");
    assert!(
        r[0].body
            .contains("yinsh move <board> <userid> <password> <move>[#<moveno>]")
    );
    assert!(
        r[0].body.contains(" 6     .     .     .     .     ."),
        "the board drawing"
    );
    let r = s.send(
        ALICE,
        "Re: multiple",
        "signup alice apw\nsignup bob bpw bob@example.org\n\nyinsh challenge alice bob\nnonsense here\n-- \nsignup mallory mpw",
    );
    let subjects: Vec<&str> = r.iter().map(|m| m.subject.as_str()).collect();
    assert_eq!(r.len(), 5, "{subjects:?}");
    assert!(subjects.contains(&"Signup for alice") && subjects.contains(&"Signup for bob"));
    assert_eq!(
        subjects
            .iter()
            .filter(|s| **s == "New Yinsh Board 101 alice")
            .count(),
        2
    );
    assert!(
        r.iter()
            .any(|m| m.subject == "Yinsh error" && m.body.contains("Unknown command \"nonsense\""))
    );
    assert!(
        !s.home().join("accounts/mallory.json").exists(),
        "the signature ends the commands"
    );
    for m in &r {
        assert!(
            !m.raw.contains("apw") && !m.raw.contains("bpw"),
            "password in {}",
            m.subject
        );
    }
}

#[test]
fn games_lists_by_filter() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh challenge bob alice", "");
    s.send(ALICE, "yinsh resign 102 alice apw", "");
    let r = s.send(ALICE, "yinsh games alice next", "");
    assert_says(&r[0], "next games of alice (1):");
    assert!(r[0].body.contains("   101  alice"));
    let r = s.send(ALICE, "yinsh games alice inactive", "");
    assert_says(&r[0], "   102  bob");
    assert!(r[0].body.contains("won by bob"));
    let r = s.send(ALICE, "yinsh games nobody", "");
    // An unknown userid may be a password written out of place: it is not echoed.
    assert!(
        r[0].body.contains("********: no such userid"),
        "{}",
        r[0].body
    );
}
