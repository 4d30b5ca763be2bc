//! Issue 47, a first game without a stumble, part 2 (items 3, 4, 5, 6, 11), through
//! real mails: one mail a turn against a robot, the robot's telling the player's turn
//! too; `pass` by Reply during the placements answered in the player's word; a
//! reply to an old board mail answered with the board and whose turn it is, in the
//! server's own words too; an error mail quoting what the player wrote, not the mail
//! they answered, and a sentence near a command word left unmasked; a game's error
//! in the server's words with the position it speaks of; and the small ones: a
//! preview's clock said to be the game's, the settings' first line, `yinsh help`'s
//! lines, the welcome naming the robots, the operator log showing userids.

use crate::support::mail::Client;
use crate::support::sent::{mails_to, only_to};
use crate::support::server::{Sent, TestServer, assert_says};

const ALICE: &str = "alice@example.org";
const BOB: &str = "bob@example.org";

/// The words the server's own version of an error mail ends its text with.
const SERVERS_WORDS: &str = "The words of your mail are not repeated here";

/// A confirming server, alice confirmed, board 101 alice (White) against robot1;
/// alice's New Yinsh Board mail.
fn against_robot1() -> (TestServer, Sent) {
    let mut s = TestServer::confirming();
    s.confirmed("alice", "apw", ALICE);
    let r = s.send(ALICE, "yinsh challenge alice robot1", "");
    let a = only_to(&r, ALICE);
    (s, a)
}

/// A confirming server, alice and bob confirmed, board 101 alice against bob.
fn alice_bob() -> TestServer {
    let mut s = TestServer::confirming();
    s.confirmed("alice", "apw", ALICE);
    s.confirmed("bob", "bpw", BOB);
    let r = s.send(ALICE, "yinsh challenge -password apw alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    s
}

/// The robot's board mail to alice among `r` (whatever else came with it).
#[track_caller]
fn robots_mail(r: &[Sent]) -> Sent {
    let robot: Vec<Sent> = mails_to(r, ALICE)
        .into_iter()
        .filter(|m| m.body.contains("robot1 writes:"))
        .collect();
    assert_eq!(robot.len(), 1, "{r:?}");
    robot[0].clone()
}

fn turns(s: &TestServer) -> usize {
    s.game_file(101)["turns"].as_array().map_or(0, Vec::len)
}

/// Item 3: a turn against a robot brings one mail, the robot's board mail, which
/// also tells the player's own turn; it carries the token the next Reply plays with.
#[test]
fn a_turn_against_a_robot_is_one_mail_telling_both_turns() {
    let (mut s, a) = against_robot1();
    let r = s.press_reply(Client::Thunderbird, ALICE, &a, "e5");
    assert_eq!(turns(&s), 2, "e5 and the robot's turn: {}", s.log());
    let mine = mails_to(&r, ALICE);
    assert_eq!(mine.len(), 1, "one mail a turn: {mine:?}");
    let m = &mine[0];
    assert_eq!(
        m.subject, "Yinsh Board 101 alice **",
        "the robot's, with its comment"
    );
    assert_says(m, "It is alice's turn.");
    assert_says(m, "Last move: #2 robot1: ");
    assert_says(m, "Before it: #1 alice: e5 - placed a ring on e5.");
    assert_says(m, "robot1 writes:");
    assert!(!m.body.contains("in a mail of its own"), "{}", m.body);
    // Its Reply plays the next turn: one mail again.
    let r = s.press_reply(Client::Gmail, ALICE, m, "d4");
    assert_eq!(turns(&s), 4, "{}", s.log());
    let mine = mails_to(&r, ALICE);
    assert_eq!(mine.len(), 1, "{mine:?}");
    assert_says(&mine[0], "Before it: #3 alice: d4 - placed a ring on d4.");
}

/// The known bug: `pass` as a Reply's first line while the rings are placed was
/// turned into `--` and answered "Move -- is not legal"; it is told in the player's
/// word, as a Subject's `pass` is (item 7's `TurnError::PassWhilePlacing`).
#[test]
fn pass_by_reply_while_placing_is_told_in_the_players_word() {
    let (mut s, a) = against_robot1();
    let r = s.press_reply(Client::Thunderbird, ALICE, &a, "e5");
    let m = robots_mail(&r);
    let r = s.press_reply(Client::Thunderbird, ALICE, &m, "pass");
    assert_eq!(turns(&s), 2, "nothing played: {r:?}");
    let err = only_to(&r, ALICE);
    assert_eq!(err.subject, "Yinsh Board 101 Error");
    assert_says(
        &err,
        "Move pass is not legal: you cannot pass while the rings are being placed",
    );
    assert!(!err.body.contains("Move --"), "{}", err.body);
}

/// Item 4: a reply to an old board mail is answered with the board as it is now and
/// whose turn it is, also in the server's own words (a reply past the player's own
/// mails of the day, `OWN_MAILS_PER_DAY`, is answered as a stranger's would be).
#[test]
fn an_old_board_mail_is_answered_with_the_board_and_whose_turn_it_is() {
    let (mut s, first) = against_robot1();
    let r = s.press_reply(Client::Thunderbird, ALICE, &first, "e5");
    let latest = robots_mail(&r);
    let r = s.press_reply(Client::Thunderbird, ALICE, &first, "d4");
    let err = only_to(&r, ALICE);
    assert_says(
        &err,
        "You answered an old mail (move 1): nothing was played. The game is at move 3\nand it is your turn.",
    );
    assert_says(&err, "Last move: #2 robot1: ");
    let mut plain = None;
    for _ in 0..60 {
        let r = s.press_reply(Client::Thunderbird, ALICE, &first, "d4");
        if let Some(m) = r.iter().find(|m| m.body.contains("are not repeated here")) {
            plain = Some(m.clone());
            break;
        }
    }
    let plain = plain.expect("past the day's own mails, the server's words");
    assert_says(
        &plain,
        "You answered an old mail (move 1): nothing was played. The game is at move 3\nand it is your turn.",
    );
    // The position, its sides named by colour: no userid in the server's words.
    assert_says(&plain, "Last move: #2 Black: ");
    assert_says(&plain, "It is White's turn.");
    assert!(!plain.body.contains("alice"), "{}", plain.body);
    assert_eq!(turns(&s), 2);
    // The latest board mail still plays.
    s.press_reply(Client::Thunderbird, ALICE, &latest, "d4");
    assert_eq!(turns(&s), 4);
}

/// Item 5: an error mail quotes what the player wrote (confirmation off, so the
/// original is quoted), not the mail they answered; a sentence starting near a
/// command word ("Last move: ...") is quoted as written, not masked.
#[test]
fn an_error_mail_quotes_the_players_words_not_our_mail() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    let a = only_to(&r, ALICE);
    let r = s.press_reply(
        Client::Thunderbird,
        ALICE,
        &a,
        "Last move: I am not sure, how do I start?",
    );
    assert_eq!(turns(&s), 0);
    let err = only_to(&r, ALICE);
    assert_says(&err, "The first line of your reply must be your move");
    let (_, quote) = err
        .body
        .split_once("Original message follows:")
        .expect("the original quoted");
    assert!(
        quote.contains("> Last move: I am not sure, how do I start?\n"),
        "{quote}"
    );
    assert!(!quote.contains("********"), "no word masked: {quote}");
    assert!(!quote.contains("wrote:"), "no attribution: {quote}");
    assert!(!quote.contains("> >"), "not our own mail: {quote}");
    assert!(
        !quote.contains("new Yinsh board"),
        "not our own mail: {quote}"
    );
    // With confirmation on, a reply token alone still proves no word of the mail:
    // nothing of it is quoted (issue 45).
    let (mut s, a) = against_robot1();
    let r = s.press_reply(Client::Thunderbird, ALICE, &a, "Last move: hello");
    let err = only_to(&r, ALICE);
    assert!(
        !err.body.contains("Original message follows"),
        "{}",
        err.body
    );
    assert!(!err.body.contains("hello"), "{}", err.body);
}

/// Item 6: an error about a game told in the server's own words (a preview without
/// a password proves no sender) shows the position it speaks of: a preview's, at
/// the move it started from; its sides named White and Black, no userid (a word
/// someone chose, `unconfirmed.rs`).
#[test]
fn a_games_error_in_the_servers_words_shows_its_position() {
    let mut s = alice_bob();
    s.send(ALICE, "yinsh move 101 alice apw e8", "");
    s.send(BOB, "yinsh move 101 bob bpw f6", "");
    s.send(ALICE, "yinsh move 101 alice apw d4", "");
    assert_eq!(turns(&s), 3);
    let r = s.send(ALICE, "yinsh preview 101#1 e8", "");
    let err = only_to(&r, ALICE);
    assert_eq!(err.subject, "Yinsh Board 101 Error");
    assert_says(&err, SERVERS_WORDS);
    assert_says(&err, "Preview stopped at move number 1 of those given");
    assert_says(&err, "Last move: #1 White: e8 - placed a ring on e8.");
    assert!(!err.body.contains("Last move: #3"), "{}", err.body);
    assert!(!err.body.contains("bob"), "no userid: {}", err.body);
}

/// The position of an error in the server's words counts the players' own
/// vacations under their sides' names: bob's, as Black's; an account called `white`
/// lends the board none of its own.
#[test]
fn a_games_error_in_the_servers_words_counts_the_players_vacations() {
    let mut s = alice_bob();
    s.confirmed("white", "wpw", "white@example.org");
    s.send("white@example.org", "vacation white wpw 20", "");
    s.send(ALICE, "yinsh move 101 alice apw e8", "");
    s.send(BOB, "vacation bob bpw 10", "");
    let r = s.send(ALICE, "yinsh preview 101 e8", "");
    let err = only_to(&r, ALICE);
    assert_says(&err, SERVERS_WORDS);
    assert_says(&err, "Later than usual: Black's vacation");
    assert!(!err.body.contains("White's vacation"), "{}", err.body);
    assert!(!err.body.contains("bob"), "no userid: {}", err.body);
}

/// Item 11: a preview's clock is said to be the game's own, below the preview's
/// "It is alice's turn." (the game waits on bob).
#[test]
fn a_previews_clock_is_said_to_be_the_games() {
    let mut s = alice_bob();
    s.send(ALICE, "yinsh move 101 alice apw e8", "");
    let r = s.send(ALICE, "yinsh preview 101 f6", "");
    let m = only_to(&r, ALICE);
    assert_says(&m, "It is alice's turn.");
    assert_says(
        &m,
        "In the game itself, where nothing was played:\nClock: last move",
    );
}

/// Item 11: the settings' first line is no longer than the others.
#[test]
fn the_settings_first_line_is_short() {
    let mut s = alice_bob();
    let r = s.send(ALICE, "yinsh settings alice apw", "");
    let m = only_to(&r, ALICE);
    let first = m.body.lines().next().expect("a line");
    assert!(first.len() <= 80, "{first:?}");
}

/// Item 11: `yinsh help` leaves no word alone on a line; the welcome names the
/// robots.
#[test]
fn help_and_welcome_read_right() {
    let mut s = TestServer::new();
    let r = s.send("carol@example.org", "yinsh help", "");
    let m = only_to(&r, "carol@example.org");
    assert!(m.body.lines().all(|l| l.trim() != "review);"), "{}", m.body);
    let r = s.send("carol@example.org", "signup carol cpw", "");
    let m = only_to(&r, "carol@example.org");
    assert_says(&m, "yinsh challenge carol robot1");
}

/// Item 11: the operator log shows the userids of a challenge without a password,
/// and still masks a password.
#[test]
fn the_log_shows_a_challenges_userids() {
    let mut s = alice_bob();
    s.send(ALICE, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh challenge alice s3cret", "");
    let log = s.log();
    assert!(log.contains("yinsh challenge alice bob"), "{log}");
    assert!(log.contains("yinsh challenge alice ********"), "{log}");
    assert!(!log.contains("apw") && !log.contains("s3cret"), "{log}");
}

/// Item 11: the challenged player is told they may decline until their first move,
/// also when the two have played before, with or without the challenger's password.
#[test]
fn the_challenged_player_may_decline_whoever_challenges() {
    let mut s = alice_bob();
    s.send(ALICE, "yinsh move 101 alice apw e8", "");
    s.send(BOB, "yinsh move 101 bob bpw f6", "");
    for subject in [
        "yinsh challenge -password apw alice bob",
        "yinsh challenge alice bob",
    ] {
        let r = s.send(ALICE, subject, "");
        let m = only_to(&r, BOB);
        assert_says(&m, "You may decline it until your first move");
    }
}
