//! Common typos get the fix, not parser-speak (issue 14), through the real binary: a
//! move with an en dash, spaces, `to` or no dash is played; `pass` is read as `--`;
//! `<password>` with its brackets is the password; a forgotten password, a yinsh
//! command without `yinsh` and a misspelt command word are answered with the command
//! as it should be sent, the password as `**`, never echoed.

use crate::support::server::{Sent, TestServer, assert_says};
use crate::support::turns::random_turns;
use yinsh_pbem::rules::Color;

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";

/// Alice (White) and Bob on board 101, before the turn of the random game `seed`
/// that is the first plain ring move of White's; that move, as `(from, to)`.
fn game_before_a_ring_move(seed: u64) -> (TestServer, String, String, u32) {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
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
    (s, from.to_string(), to.to_string(), k as u32 + 1)
}

/// The reply to alice among `r`.
fn to_alice(r: &[Sent]) -> &Sent {
    r.iter()
        .find(|m| m.to == ["alice@example.org"])
        .unwrap_or_else(|| panic!("no mail to alice: {r:?}"))
}

#[test]
fn a_move_written_with_an_en_dash_spaces_to_or_no_dash_is_played() {
    for (k, written) in [
        "{from} \u{2013} {to}",
        "{from}\u{2014}{to}",
        "{from} - {to}",
        "{from} to {to}",
        "{from}{to}",
    ]
    .iter()
    .enumerate()
    {
        let (mut s, from, to, number) = game_before_a_ring_move(11 + k as u64);
        let text = written.replace("{from}", &from).replace("{to}", &to);
        let r = s.send(ALICE, &format!("yinsh move 101 alice apw {text}"), "");
        let mail = to_alice(&r);
        assert!(!mail.subject.contains("Error"), "{text}: {}", mail.body);
        let turns = s.game_file(101)["turns"].as_array().expect("turns").clone();
        assert_eq!(turns.len() as u32, number, "{text} was played");
        assert_eq!(turns[number as usize - 1]["text"], format!("{from}-{to}"));
    }
}

#[test]
fn pass_is_read_as_the_pass_and_refused_for_what_it_is() {
    let (mut s, ..) = game_before_a_ring_move(5);
    let r = s.send(ALICE, "yinsh move 101 alice apw pass", "");
    let mail = to_alice(&r);
    assert_says(mail, "you cannot pass: you have a ring move");
}

#[test]
fn the_password_in_angle_brackets_is_the_password() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    let r = s.send(ALICE, "yinsh move 101 alice <apw> e5", "");
    assert!(!to_alice(&r).subject.contains("Error"), "{r:?}");
    assert_eq!(s.game_file(101)["turns"][0]["text"], "e5");
    // Other brackets around a wrong password are still a wrong password.
    let r = s.send(BOB, "yinsh move 101 bob <apw> e6", "");
    assert_says(&r[0], "Invalid password entered");
}

/// The mails `r` hold no `password`.
fn never_echoed(r: &[Sent], password: &str) {
    for m in r {
        assert!(
            !m.raw
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w == password),
            "{password} echoed: {}",
            m.raw
        );
    }
}

#[test]
fn a_forgotten_password_is_answered_with_the_command_as_it_should_be() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    let r = s.send(ALICE, "yinsh move 101 alice e5", "");
    assert_says(
        &r[0],
        "the password is missing before the move. Write:\n    yinsh move 101 alice ** e5\n",
    );
    // The command stands on its own line, as written.
    assert!(
        r[0].body.contains("\n    yinsh move 101 alice ** e5\n"),
        "{}",
        r[0].body
    );
    assert!(s.game_file(101)["turns"].as_array().unwrap().is_empty());
}

#[test]
fn a_yinsh_command_without_yinsh_gets_the_line_with_yinsh() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    let r = s.send(ALICE, "move 101 alice apw e5", "");
    assert_says(
        &r[0],
        "\"move\" is a yinsh command: write \"yinsh\" before it, like this:\n    yinsh move 101 alice ** e5\n(with your password in place of **)",
    );
    never_echoed(&r, "apw");
    assert!(s.game_file(101)["turns"].as_array().unwrap().is_empty());
}

#[test]
fn a_misspelt_command_word_gets_did_you_mean() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(ALICE, "yinsh challange alice bob", "");
    assert_says(
        &r[0],
        "Unknown command \"challange\". Did you mean:\n    yinsh challenge alice bob\n",
    );
    s.send(ALICE, "yinsh challenge alice bob", "");
    let r = s.send(ALICE, "yinsh mvoe 101 alice apw e5", "");
    assert_says(&r[0], "Did you mean:\n    yinsh move 101 alice ** e5\n");
    never_echoed(&r, "apw");
    let r = s.send(ALICE, "singup carol cpw", "");
    assert_says(&r[0], "Did you mean:\n    signup carol **\n");
    never_echoed(&r, "cpw");
    let r = s.send(ALICE, "yinhs show 101", "");
    assert_says(&r[0], "Did you mean:\n    yinsh show 101\n");
    assert!(s.game_file(101)["turns"].as_array().unwrap().is_empty());
}

#[test]
fn login_errors_name_the_board_and_an_unknown_board_lists_the_players_games() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send("Carol <carol@example.org>", "signup carol cpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh challenge carol alice", "");
    let r = s.send(ALICE, "yinsh move 999 alice apw e5", "");
    assert_says(
        &r[0],
        "Yinsh board 999 not found. Your games going on are boards 101, 102.",
    );
    let r = s.send(ALICE, "yinsh chat 998 alice apw", "Hello");
    assert_says(
        &r[0],
        "Yinsh board 998 not found. Your games going on are boards 101, 102.",
    );
    // A wrong password lists nothing.
    let r = s.send(BOB, "yinsh move 999 alice bpw e5", "");
    assert_says(
        &r[0],
        "Invalid password entered for board 999. Nothing was done.",
    );
    assert!(!r[0].body.contains("102"), "{}", r[0].body);
    let r = s.send(BOB, "yinsh move 101 bbo bpw e5", "");
    assert_says(
        &r[0],
        "Invalid userid entered for board 101: no account has the userid given.",
    );
    assert!(s.game_file(101)["turns"].as_array().unwrap().is_empty());
}
