//! The texts about mail that did not arrive (`run::bounces`, `run::send`): the notice
//! to an account's owner that one of its addresses bounces, the operator's notices of
//! an address marked failing and of a reply given up, and the log lines of bounce
//! reports read and of sending. Each is a function of the facts it tells; the runs
//! decide when to send or log them. The Subject of a reply given up is in
//! `subjects.rs` (read back as our notice); the two Subjects of a failing address are
//! here, and a reply to them is read as any other mail.

use std::fmt::Display;
use std::path::Path;

use crate::mail::Address;
use crate::server::model::UserId;

/// `Yinsh: mail to %s bounces`: to the account's other addresses.
pub fn address_bounces_subject(address: &Address) -> String {
    format!("Yinsh: mail to {address} bounces")
}

/// `yinsh-pbem: %s marked failing`: to the operator.
pub fn address_failing_subject(address: &Address) -> String {
    format!("yinsh-pbem: {address} marked failing")
}

/// The body of the notice to the confirmed other addresses of the account `userid`:
/// mail to its address `address` bounces, and the server sends nothing more there.
pub fn address_bounces(address: &Address, userid: &UserId) -> String {
    format!(
        "Mail from the YINSH server to {address}, an address of your account {userid}, \
         came back undelivered several times over more than a day, so the server \
         sends nothing more there.\n\nYour games go on, and their clocks run. To \
         get mail at {address} again, send any mail from it (`help` will \
         do), or change your address.\n"
    )
}

/// The body of the operator's notice that `address` is marked failing after
/// `hard_bounces` hard bounces; `userids`: the accounts naming it.
pub fn address_failing(address: &Address, hard_bounces: u32, userids: &[String]) -> String {
    format!(
        "Mail to {address} bounced for good {hard_bounces} times over more than a day: no more \
         mail goes to it (accounts: {}). A mail from the address restores it; \
         <home>/bounces/ holds the record.\n",
        if userids.is_empty() {
            "none".to_string()
        } else {
            userids.join(", ")
        }
    )
}

/// The body of the operator's notice of a reply given up: its Message-ID `id`, its
/// `recipients`, `why`, and the file it is kept in.
pub fn reply_given_up(id: &str, recipients: &[String], why: &str, kept_in: &Path) -> String {
    format!(
        "A reply of the YINSH server could not be delivered and was given up.\n\n\
         Message-ID: {id}\nTo: {}\nWhy: {why}\nKept in: {}\n\n\
         Nothing else is sent about it. Move the file back into the spool folder to \
         try it again.\n",
        recipients.join(", "),
        kept_in.display()
    )
}

/// Log: `address`, marked failing, wrote a mail that restores it.
pub fn no_longer_failing(address: &Address) -> String {
    format!("{address} is no longer failing: a mail came from it")
}

/// Log: a mail to the bounce address of `recipient` whose tag is not ours.
pub fn forged_bounce_tag(recipient: &str) -> String {
    format!(
        "dropped a mail to the bounce address of {recipient}: its tag is not ours \
         (forged, or made before `rotate-reply-key`)"
    )
}

/// Log: a mail to the bounce address of `recipient` that reports no hard bounce.
pub fn not_a_hard_bounce(recipient: &str) -> String {
    format!("a mail to the bounce address of {recipient} is no hard bounce: not counted")
}

/// Log: the notification `id` about `recipient` was counted before.
pub fn counted_already(recipient: &str, id: &str) -> String {
    format!("bounce for {recipient} counted already: {id}")
}

/// Log: a hard bounce of `recipient` counted (a notification of `shape`, `counted` in
/// its record now); `newly_failing`: it marked the address failing.
pub fn hard_bounce_counted(
    recipient: &str,
    shape: &str,
    counted: usize,
    newly_failing: bool,
) -> String {
    format!(
        "hard bounce for {recipient} ({shape}, {counted} counted){}",
        if newly_failing {
            ": marked failing, no more mail goes to it"
        } else {
            ""
        }
    )
}

/// Log: nothing is sent now, the replies stay in the spool (`why`: a DKIM key that
/// cannot be used).
pub fn kept_in_the_spool(why: &dyn Display) -> String {
    format!("not sent now, kept in the spool: {why}")
}

/// Log: nothing is sent now (`why`: the spool is busy with another flush).
pub fn not_sent_now(why: &dyn Display) -> String {
    format!("not sent now: {why}")
}

/// Log: sending the reply `id` failed for `why`; it stays spooled.
pub fn send_failed(id: &str, why: &str) -> String {
    format!("send failed, kept in the spool: {id}: {why}")
}

/// Log: `n` replies wait in the spool after earlier failures.
pub fn replies_wait(n: usize) -> String {
    format!("{n} replies wait after earlier failures")
}

/// Log: the reply `id` to `recipients` was given up for `why`, moved to `moved_to`.
pub fn given_up(id: &str, recipients: &[String], why: &str, moved_to: &Path) -> String {
    format!(
        "reply given up, moved to {}: {id} to {}: {why}",
        moved_to.display(),
        recipients.join(", ")
    )
}

/// Log: the operator's notices of replies given up could not be committed (`why`).
pub fn notice_not_spooled(why: &dyn Display) -> String {
    format!("bounce to the operator not spooled: {why}")
}
