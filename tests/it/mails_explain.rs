//! Mails that explain themselves (issue 14), through the real binary: `help yinsh`.

use crate::support::server::{TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";

#[test]
fn help_yinsh_gives_the_yinsh_help() {
    let mut s = TestServer::new();
    let yinsh = s.send(ALICE, "yinsh help", "");
    let r = s.send(ALICE, "help yinsh", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Yinsh help");
    assert_eq!(r[0].body, yinsh[0].body);
    // Plain `help` is still the general help.
    let r = s.send(ALICE, "help", "");
    assert_eq!(r[0].subject, "Yinsh PBeM help");
}

