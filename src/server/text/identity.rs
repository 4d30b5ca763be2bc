//! The sentences that follow from who a mail was proved to be (`inbound::identity`):
//! the notice asking the owner of a password set before `command::could_show` to
//! change it (`exec::old_password`), and who is at the day's limit of games started
//! for others (`exec::for_others`).

use crate::server::model::UserId;

/// The body of the mail asking the owner of `userid` to change a password that
/// could be shown where a mistyped line puts it.
pub fn change_old_password(userid: &UserId) -> String {
    format!(
        "The password of {userid} was set before passwords that read as a move, a number,\n\
         an e-mail address, a board number or a listing word were refused. It still\n\
         works, but if a command is mistyped so that the password lands where such a\n\
         word goes, the answer and the server's log could show it there.\n\n\
         Please change it (the new one with a letter from l to z other than x, or a\n\
         sign such as ! or _):\n\n\
         \x20   change password {userid} <current-password> <new-password>\n\n\
         This mail comes at most once a week while the password is unchanged.\n"
    )
}

/// Who is at the limit of games started for others, when it is the sender.
pub const SENDER_HAS_STARTED: &str = "You have started";

/// Who is at the limit of games started for others, when it is `player`.
pub fn player_put_in(player: &UserId) -> String {
    format!("{player} has been put in")
}
