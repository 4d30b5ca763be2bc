//! Fuzz target: the whole `deliver` on arbitrary bytes (parsing, the robot rules, the
//! duplicate and storm checks, the commands carried out, the store's transaction and
//! journal, the confirmation gate, the replies written to the outbox), each input
//! against a fresh copy of one home (`deliver_home.rs`: three accounts, board 101
//! before its first move, board 102 after two), with every limit as shipped and
//! confirmation on. Invariants: no panic, no internal error, and a mail whose Subject
//! is not a command never changes the accounts, the boards or the board counter (only
//! the rate/seen/log/outbox bookkeeping). Memory and time per input are bounded by
//! libFuzzer's `-malloc_limit_mb`, `-rss_limit_mb` and `-timeout` (`.ci/run`).
#![no_main]

mod deliver_home;

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use yinsh_pbem::mail::parse_inbound;
use yinsh_pbem::server::command::Command;
use yinsh_pbem::server::deliver;

use deliver_home::{TempHome, copy_of, records, settings, template};

fn template_home() -> &'static PathBuf {
    static T: OnceLock<TempHome> = OnceLock::new();
    &T.get_or_init(template).0
}

fuzz_target!(|data: &[u8]| {
    let home = copy_of(template_home());
    let s = settings(&home.0);
    let before = records(&home.0);
    let result = deliver(data, data.len(), None, &s);
    assert!(result.is_ok(), "internal error on fuzz input: {result:?}");
    let is_command = parse_inbound(data)
        .ok()
        .is_some_and(|m| Command::parse(&m.subject).is_ok());
    if !is_command {
        assert_eq!(
            records(&home.0),
            before,
            "a mail that is no command changed the store"
        );
    }
});
