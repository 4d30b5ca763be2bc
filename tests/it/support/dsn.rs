//! Bounces as the tests send them back: the VERP bounce address of a reply to a
//! recipient ([`verp`]) and Postfix's delivery status notification for it ([`dsn`],
//! from `tests/data/dsn/postfix-unknown-user.eml`).

use std::path::Path;

use yinsh_pbem::mail::verp::bounce_address;
use yinsh_pbem::server::store::Store;

/// The server's address in the tests' homes.
const SERVER: &str = "yinsh@localhost";

/// The VERP bounce address of replies to `recipient` from the home `home`.
pub fn verp(home: &Path, recipient: &str) -> String {
    let key = Store::open(home)
        .and_then(|st| st.reply_key())
        .expect("the reply key");
    bounce_address(SERVER, recipient, &key.bounce_tag(recipient)).expect("fits")
}

/// Postfix's report that `recipient` could not be reached, sent back to `to`, its
/// Message-ID `id`, with the status `status`: a 5.x.x one is a failure
/// ("Action: failed"), any other a delay.
pub fn dsn(to: &str, recipient: &str, id: &str, status: &str) -> String {
    let fixture = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/dsn/postfix-unknown-user.eml"
    ))
    .expect("fixture");
    fixture
        .replace("yinsh+bounce-abc@yinsh.test", to)
        .replace("nobody@example.net", recipient)
        .replace("20261126150102.4F2A61C0A1@mx.yinsh.test", id)
        .replace("Status: 5.1.1", &format!("Status: {status}"))
        .replace(
            "Action: failed",
            if status.starts_with('5') {
                "Action: failed"
            } else {
                "Action: delayed"
            },
        )
}

/// Postfix's report that `recipient` is unknown ("550 5.1.1 User unknown").
pub fn user_unknown(to: &str, recipient: &str, id: &str) -> String {
    dsn(to, recipient, id, "5.1.1")
}
