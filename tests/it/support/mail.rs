//! Mails to the server as the tests write them.

/// A plain UTF-8 text mail from `from` to the server with this Subject, Message-ID
/// (without angle brackets) and body.
pub fn plain(from: &str, subject: &str, message_id: &str, body: &str) -> String {
    format!(
        "From: {from}\nTo: yinsh@localhost\nSubject: {subject}\nDate: Sun, 22 Nov 2026 21:00:00 +0000\nMessage-ID: <{message_id}>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n{body}"
    )
}
