//! Passwords masked where the command is parsed (issue 24): the fields of a command
//! and of its error that a reply may echo (a userid to list, challenge or write to, a
//! move, a word that does not fit, the line suggested back) carry whether the line's
//! masking hides their word, and show it masked unless it names an account. No reply
//! is searched for the words afterwards, so nothing of a password shows, not even a
//! part of it or its lower case.

use crate::support::server::{Sent, TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";
/// alice's password.
const PW: &str = "Pw7marker";

/// A server with alice (password [`PW`]) and bob, and board 101 between them.
fn server() -> TestServer {
    let mut s = TestServer::new();
    s.send(ALICE, &format!("signup alice {PW}"), "");
    s.send(BOB, "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    s
}

/// Whether any reply or the log shows `part` (any case).
#[track_caller]
fn assert_nowhere(s: &TestServer, replies: &[Sent], part: &str) {
    assert!(!replies.is_empty(), "no reply");
    let part = part.to_ascii_lowercase();
    for m in replies {
        assert!(
            !m.raw.to_ascii_lowercase().contains(&part)
                && !m.body.to_ascii_lowercase().contains(&part),
            "{part} shows in\n{}",
            m.raw
        );
    }
    assert!(!s.log().to_ascii_lowercase().contains(&part), "{}", s.log());
}

/// issue 24 finding: a move of `yinsh preview` that may be a password was masked in
/// the reply afterwards, but the notation's error quoted the rest of it after its
/// first letter (`but found \`w7marker\``). Masked where it is parsed, the move's error
/// says how to write a turn instead of quoting it.
#[test]
fn a_preview_move_that_may_be_a_password_shows_no_part_of_it() {
    let mut s = server();
    for line in [
        format!("yinsh preview 101 e5 {PW} e5"),
        format!("yinsh preview 101 {PW}"),
    ] {
        let r = s.send(ALICE, &line, "");
        assert_nowhere(&s, &r, &PW[1..]);
        assert_says(&r[0], "Move ******** is not legal: it is not shown");
    }
    // A move that is no password is quoted as ever.
    let r = s.send(ALICE, "yinsh preview 101 e5 e5", "");
    assert_says(&r[0], "Move e5 is not legal: e5 is not empty");
}

/// issue 24 finding: a misspelt `yinsh` before a word the table does not know
/// (`ynish Pw7marker help`) was answered with `Did you mean: yinsh pw7marker`: the
/// password in lower case, which no mask searched for. Only a command word of the
/// family is shown now.
#[test]
fn a_misspelt_family_word_does_not_show_the_next_word_in_lower_case() {
    let mut s = server();
    let r = s.send(ALICE, &format!("ynish {PW} help"), "");
    assert_nowhere(&s, &r, PW);
    assert_says(&r[0], "Did you mean:\n    yinsh\n");
    let r = s.send(ALICE, "ynish move 101 alice pw e5", "");
    assert_says(&r[0], "Did you mean:\n    yinsh move 101 alice ** e5\n");
}

/// The echo sites, masked at the source: a userid that names no account is masked in
/// a listing, a challenge and a suggested line; one that names an account is shown.
#[test]
fn each_echo_of_a_hidden_word_is_masked_unless_it_names_an_account() {
    let mut s = server();
    let r = s.send(ALICE, &format!("yinsh games alice {PW}"), "");
    assert_says(&r[0], "active games of alice (1):");
    assert_says(&r[0], "********: no such userid");
    let r = s.send(ALICE, &format!("yinsh history {PW}"), "");
    assert_says(&r[0], "Games of ********");
    let r = s.send(ALICE, &format!("yinsh challenge {PW} bob"), "");
    assert_says(&r[0], "******** is not signed up");
    let r = s.send(ALICE, &format!("yinsh shwo alice {PW}"), "");
    assert_says(&r[0], "Did you mean:\n    yinsh show alice ********\n");
    let r = s.send(ALICE, "yinsh shwo alice bob", "");
    assert_says(&r[0], "Did you mean:\n    yinsh show alice bob\n");
    let r = s.send(ALICE, &format!("all show {PW}"), "");
    assert_says(&r[0], "Invalid userid entered: ********");
    let r = s.send(ALICE, &format!("message alice {PW} nobody"), "hello");
    assert_says(&r[0], "Invalid userid entered: nobody (nothing was sent)");
    let r = s.send(ALICE, &format!("message alice {PW} {PW}"), "hello");
    assert_says(&r[0], "Invalid userid entered: ******** (nothing was sent)");
    let r = s.send(ALICE, &format!("yinsh move 101 alice {PW} {PW}#1"), "");
    assert_says(&r[0], "Move ******** is not legal: it is not shown");
    let r = s.send(ALICE, &format!("yinsh move 101 alice {PW} {PW}#7"), "");
    assert_says(
        &r[0],
        "Move ******** received as move #1, but it is marked #7",
    );
    assert_nowhere(&s, &r, PW);
}
