//! Fuzz target: the Subject command parser never panics on any text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yinsh_pbem::server::command::Command;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = Command::parse(&text);
});
