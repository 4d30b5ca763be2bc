//! The texts of the refusals of new accounts' names and addresses (issue 25 findings
//! 6, 7, 10, 11), byte for byte, for `tests.rs`'s table of every refusal.

use super::Refusal;

/// Each refusal with sample facts, its exact text, and the board shown (none).
pub(super) fn table() -> Vec<(Refusal, String, Option<u32>)> {
    use Refusal::*;
    let u = |t: &str| t.parse().expect("a userid");
    let a = |t: &str| t.parse().expect("an address");
    vec![
        (
            AddressBusy {
                address: a("newbie@example.org"),
                max: 3,
                until: 1_795_384_020,
            },
            "The address newbie@example.org already waits for the codes of 3 new accounts, the most at a time: nothing was changed. Confirm one of them (reply to its \"verify\" mail), or try again after 2026-11-22 21:47 UTC.".to_string(),
            None,
        ),
        (
            LocalAddress {
                address: a("victim@127.0.0.1"),
            },
            "The address victim@127.0.0.1 names this machine or a private network (localhost, an IP address, .local, .internal ...), not a mailbox of its own: give an address such as name@example.org. Nothing was changed.".to_string(),
            None,
        ),
        (
            CodesPaused {
                userid: u("alice"),
                until: 1_795_384_020,
            },
            "Too many wrong verify codes were sent for alice this hour (until 2026-11-22 21:47 UTC): this one is wrong too, and nothing was confirmed. The right code, in the Subject of the \"verify\" mail, still works: press Reply on that mail.".to_string(),
            None,
        ),
        (
            RoleUserid {
                userid: u("MAILER-DAEMON"),
            },
            "Choose another userid: MAILER-DAEMON reads as a role of the server or the mail system (postmaster, mailer-daemon, admin, operator, yinsh ...), and players would take its mails for the server's. Nothing was changed.".to_string(),
            None,
        ),
        (
            LookAlikeUserid {
                userid: u("aIice"),
                like: u("alice"),
            },
            "Choose another userid: aIice looks like alice, which is taken (0 and o, 1, I and l, rn and m read alike), and players could take one for the other. Nothing was changed.".to_string(),
            None,
        ),
    ]
}
