//! The texts of the account commands (`exec::account`): the welcome of a new
//! account, the request to confirm an address, an address confirmed, the settings
//! with the commands that change them, a password or the addresses changed, an
//! account signed off; and the log lines of `tick`'s expiry of accounts that never
//! confirmed an address (`exec::unconfirmed`), which the operator reads.

use crate::mail::Address;
use crate::mail::address::list;
use crate::server::model::UserId;
use crate::server::store::{Account, OwnTurnMail, SubjectStyle};

/// The welcome of a new account `userid`, whose mail goes to `addresses`.
///
/// ```
/// use yinsh_pbem::server::text::account::welcome;
/// let text = welcome(&"alice".parse().unwrap(), &["a@example.org".parse().unwrap()]);
/// assert!(text.starts_with("Welcome to YINSH by e-mail, alice.\n"));
/// ```
pub fn welcome(userid: &UserId, addresses: &[Address]) -> String {
    format!(
        "Welcome to YINSH by e-mail, {userid}.\n\n\
         Your userid {userid} is registered. Mail for it goes to: {}\n\
         Keep your password; it is never mailed to you.\n\
         A Reply to one of the server's board mails needs no password (the mail carries\n\
         a code that proves it is yours), but a command you type yourself as a Subject\n\
         (yinsh move ...) needs it.\n\n\
         To start a game, send the Subject:\n    yinsh challenge {userid} <opponent's userid>\n\
         (you play White and move first). To play one of the server's robots at once,\n\
         robot1 (the weakest) to robot5 (the strongest), send:\n    yinsh challenge {userid} robot1\n\
         Send \"yinsh help\" for how to play.\n",
        list(addresses)
    )
}

/// The mail to a new `address` of an account: `text` (what the account's own mail
/// says), then how to confirm the address by replying.
pub fn confirm_address(text: &str, address: &Address) -> String {
    format!(
        "{text}\nConfirm that {address} is yours: press Reply and send this mail back\n\
         (keep the Subject; \"Re:\" in front of it is fine). Until then this address\n\
         gets no text written by other players and at most a few mails a day.\n\
         The code in the Subject is valid for 7 days. If you did not ask for this,\n\
         ignore this mail.\n"
    )
}

/// The answer to a right `verify` code: `address` of `userid` is confirmed.
pub fn address_confirmed(address: &Address, userid: &UserId) -> String {
    format!(
        "The address {address} of {userid} is confirmed: it now gets every mail of the server.\n"
    )
}

/// The settings of `account` as its owner reads them, each with the command that
/// changes it.
pub fn settings(account: &Account) -> String {
    let userid = &account.userid;
    let now = if account.text_only {
        "as text only (text/plain, the ASCII board)"
    } else {
        "as text and HTML:\nthe text as always, and beside it a page with a picture of the board, for\nmail programs that show HTML"
    };
    let (other, word) = if account.text_only {
        ("a picture of the board too", "html")
    } else {
        ("the text alone", "text-only")
    };
    let subject = match account.prefs.subject {
        SubjectStyle::Moving => (
            "Their Subject names the player to move, so it changes every turn\n(\"Yinsh Board 101 bob\"; \" **\" at its end when the mail carries a comment).",
            "one Subject per game (\"Yinsh Board 101: alice - bob\"), which mail\nprograms such as Gmail keep in one conversation",
            SubjectStyle::Stable,
        ),
        SubjectStyle::Stable => (
            "Their Subject is one per game (\"Yinsh Board 101: alice - bob\").",
            "the Subject naming the player to move",
            SubjectStyle::Moving,
        ),
    };
    let own = match account.prefs.own_turn {
        OwnTurnMail::Send => (
            "You get the board mail of your own turns too (against a robot, its answer\nshows them).",
            "no mail for your own turn (your opponent's answer shows it)",
            OwnTurnMail::Skip,
        ),
        OwnTurnMail::Skip => (
            "You get no board mail for your own turns: your opponent's answer shows them\n(a turn that ends the game, or leaves it your turn, still sends one; errors\nalways come).",
            "the board mail of your own turns too",
            OwnTurnMail::Send,
        ),
    };
    format!(
        "Board mails for {userid} come {now}.\n{}\n{}\n\nFor {other}, send:\n    yinsh settings {userid} <password> {word}\nFor {}, send:\n    yinsh settings {userid} <password> subject {}\nFor {}, send:\n    yinsh settings {userid} <password> own-turn {}\n",
        subject.0, own.0, subject.1, subject.2, own.1, own.2
    )
}

/// To every address of `userid`: its password was changed.
pub fn password_changed(userid: &UserId) -> String {
    format!(
        "The password of {userid} has been changed.\nIf you did not ask for this, reply at once.\n"
    )
}

/// To the old and new addresses of `userid`: they are now `new` (were `old`).
pub fn addresses_changed(userid: &UserId, new: &[Address], old: &[Address]) -> String {
    format!(
        "The e-mail addresses of {userid} are now: {}\n(They were: {}.)\n",
        list(new),
        list(old)
    )
}

/// To the addresses of a signed-off account `userid`.
pub fn signed_off(userid: &UserId) -> String {
    format!("The account {userid} has been removed. Thank you for playing.\n")
}

/// The log line of `tick`'s expiry: the account `userid` deleted, no address
/// confirmed in `days` days.
pub fn expired_deleted(userid: &UserId, days: u64) -> String {
    format!("removed the account {userid}: no address confirmed in {days} days")
}

/// The log line of `tick`'s expiry: the account `userid` retired (its ended games
/// keep the userid), no address confirmed in `days` days.
pub fn expired_retired(userid: &UserId, days: u64) -> String {
    format!(
        "retired the account {userid}: no address confirmed in {days} days (its ended games keep the userid)"
    )
}
