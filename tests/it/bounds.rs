//! Bounded work and mail per inbound mail (issue 13 §1): a `multiple` of thousands of
//! lines, `show` of one board thousands of times, `message` to one name thousands of
//! times, repeated challenges: each is cut to the documented bounds, through the real
//! binary, with one clear notice to the sender.

use crate::support::server::{TestServer, assert_says};

fn signed_up() -> TestServer {
    let mut s = TestServer::new();
    s.send("alice@example.org", "signup alice Zq7secretA", "");
    s.send("bob@example.org", "signup bob Kx9secretB", "");
    s
}

/// A mail from `from` with a Reply-To.
fn with_reply_to(
    s: &mut TestServer,
    from: &str,
    reply_to: &str,
    subject: &str,
    body: &str,
) -> Vec<crate::support::server::Sent> {
    s.send_with_reply_to(from, reply_to, subject, body)
}

#[test]
fn a_multiple_of_ten_thousand_help_lines_sends_at_most_the_reply_cap() {
    let mut s = TestServer::new();
    let body = "help\n".repeat(10_000);
    let sent = with_reply_to(
        &mut s,
        "attacker@example.org",
        "victim@example.org",
        "multiple",
        &body,
    );
    assert_eq!(
        sent.len(),
        26,
        "25 commands a mail by default, and one notice"
    );
    let notice = sent
        .iter()
        .find(|m| m.body.contains("were carried out"))
        .expect("a notice of what was not done");
    assert_says(
        notice,
        "Only the first 25 of the 10000 commands of your multiple mail were carried out",
    );
    assert!(s.log().contains("mail "), "{}", s.log());
}

#[test]
fn one_show_of_the_same_board_thousands_of_times_is_one_board_mail() {
    let mut s = signed_up();
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let line = format!("yinsh show {}", vec!["101"; 20_000].join(" "));
    let sent = s.send("carol@example.org", &line, "");
    assert_eq!(sent.len(), 1);
    assert!(
        sent[0].subject.starts_with("Yinsh Board 101"),
        "{}",
        sent[0].subject
    );
}

#[test]
fn a_message_to_one_name_repeated_thousands_of_times_is_one_mail() {
    let mut s = signed_up();
    let to = vec!["bob"; 5_000].join(" ");
    let sent = s.send(
        "alice@example.org",
        &format!("message alice Zq7secretA {to}"),
        "hello bob",
    );
    let to_bob: Vec<_> = sent
        .iter()
        .filter(|m| m.to == ["bob@example.org"])
        .collect();
    assert_eq!(to_bob.len(), 1, "{sent:#?}");
}

#[test]
fn a_mail_starts_at_most_three_games() {
    let mut s = signed_up();
    let body = "yinsh challenge alice bob\n".repeat(10);
    let sent = s.send("mallory@example.org", "multiple", &body);
    let new_games = sent
        .iter()
        .filter(|m| m.subject.starts_with("New Yinsh Board"))
        .count();
    assert_eq!(new_games, 6, "3 games, 2 board mails each");
    assert!(s.home().join("boards/103.json").exists());
    assert!(!s.home().join("boards/104.json").exists());
    let refused = sent
        .iter()
        .filter(|m| m.body.contains("One mail may start at most 3 games"))
        .count();
    assert_eq!(refused, 7);
}

#[test]
fn an_admins_broadcast_reaches_every_player_past_the_reply_cap() {
    let mut s = TestServer::new();
    for batch in 0..3 {
        let body: String = (0..20)
            .map(|k| format!("signup p{batch}x{k} pw{k} p{batch}x{k}@example.org\n"))
            .collect();
        s.send("ops@example.org", "multiple", &body);
    }
    std::fs::write(s.home().join("admins"), "p0x0\n").expect("admins");
    let sent = s.send(
        "p0x0@example.org",
        "broadcast p0x0 pw0",
        "Server down at noon",
    );
    assert_eq!(sent.len(), 60, "one broadcast per player");
    assert!(sent.iter().all(|m| m.subject == "Broadcast from p0x0"));
}

/// Found on 2026-11-25: seven moves of 120,000 characters in one `multiple` (the right
/// password, so each is read as a move) took 8 s a line (`notation::mend` was
/// quadratic) and each error mail repeated its move: 260 kB each. Now the mending is
/// linear and an error's message is cut at `text::reply::MAX_ERROR_CHARS`.
#[test]
fn a_multiple_of_huge_moves_is_answered_with_errors_cut_to_size() {
    let mut s = signed_up();
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let line = format!("yinsh move 101 alice Zq7secretA {}\n", "e5".repeat(60_000));
    let sent = s.send("alice@example.org", "multiple", &line.repeat(7));
    assert_eq!(sent.len(), 7, "one error a move");
    for m in &sent {
        assert_says(m, "[this error is cut at 8000 characters");
        assert!(m.raw.len() < 64 * 1024, "a {} byte error mail", m.raw.len());
        assert!(!m.raw.contains("Zq7secretA"));
    }
}
