//! Every Subject the server writes, and the reading of them back: a reply to one of
//! our mails keeps its Subject (`Re: Yinsh Board 101 alice`), and [`OurMail::named`]
//! says which mail it answers. Both live here so that a subject and its reading
//! cannot drift apart (the round-trip test below builds each one and reads it back).

use crate::server::game::record::LiveGame;
use crate::server::model::{BoardId, UserId};
use crate::server::store::SubjectStyle;

use super::reply::Event;

/// `Yinsh Board %s %s` (board, userid to move; nothing when the game is over), or
/// `New Yinsh Board %s %s` for a new game; ` **` after it when the mail carries a
/// comment.
pub fn board_mail(live: &LiveGame, event: &Event, comment: Commented) -> String {
    let to_move = live.player_to_move();
    let subject = match event {
        Event::NewGame => new_board(live.board(), to_move),
        _ => board(live.board(), to_move),
    };
    match comment {
        Commented::Yes => subject + " **",
        Commented::No => subject,
    }
}

/// The Subject of a board mail for a reader who chose `style`: [`board_mail`]'s,
/// or for [`SubjectStyle::Stable`] the game's one Subject, [`stable`].
pub fn board_mail_for(
    live: &LiveGame,
    event: &Event,
    comment: Commented,
    style: SubjectStyle,
) -> String {
    match style {
        SubjectStyle::Moving => board_mail(live, event, comment),
        SubjectStyle::Stable => stable(live),
    }
}

/// `Yinsh Board %s: %s - %s` (board, White, Black): the one Subject of every board
/// mail of a game for a player who chose `subject stable` (issue 26 finding 16), so
/// that mail programs threading by Subject keep the game in one conversation.
pub fn stable(live: &LiveGame) -> String {
    let f = live.file();
    format!("Yinsh Board {}: {} - {}", live.board(), f.white, f.black)
}

/// Whether a board mail carries a player's comment (its Subject then ends in `**`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Commented {
    /// It does.
    Yes,
    /// It does not.
    No,
}

/// `Yinsh Board %s %s`: the board and the userid to move (none when it is over).
pub fn board(board: BoardId, to_move: Option<&UserId>) -> String {
    let to_move = to_move.map_or("", UserId::as_str);
    format!("Yinsh Board {board} {to_move}")
        .trim_end()
        .to_string()
}

/// `New Yinsh Board %s %s`: the first board mail of a game.
pub fn new_board(board: BoardId, to_move: Option<&UserId>) -> String {
    format!("New {}", self::board(board, to_move))
}

/// `Nag: Yinsh Board %s %s`: the reminder to `player`, whose turn it is.
pub fn nag(board: BoardId, player: &UserId) -> String {
    format!("Nag: Yinsh Board {board} {player}")
}

/// `Yinsh Board %s Error`: an error mail about a board (showing it).
pub fn board_error(board: BoardId) -> String {
    format!("Yinsh Board {board} Error")
}

/// `Yinsh Board %s preview`: a move previewed, not played.
pub fn preview(board: BoardId) -> String {
    format!("Yinsh Board {board} preview")
}

/// `Yinsh Board %s declined`: a game declined by a player before their first move.
pub fn declined(board: BoardId) -> String {
    format!("Yinsh Board {board} declined")
}

/// `Yinsh Board %s cancelled`: a game between strangers in which the player to move
/// never moved, cancelled at its forfeit time (`run::tick`).
pub fn cancelled(board: BoardId) -> String {
    format!("Yinsh Board {board} cancelled")
}

/// `Yinsh Board %s review`: the robot's review of a finished game (issue 28).
pub fn review(board: BoardId) -> String {
    format!("Yinsh Board {board} review")
}

/// `Yinsh Board %s review asked`: the answer to a `review` request that does not
/// carry the review (the game goes on, or its review is queued).
pub fn review_asked(board: BoardId) -> String {
    format!("Yinsh Board {board} review asked")
}

/// `Yinsh chat %s %s`: a chat on a board, from `from`.
pub fn chat(board: BoardId, from: &UserId) -> String {
    format!("Yinsh chat {board} {from}")
}

/// `Your challenge's message`: a challenge's message was not passed on.
pub fn challenge_message() -> String {
    "Your challenge's message".to_string()
}

/// `Your challenge's message on board %s was passed on`: a held challenge message
/// reached the opponent (issue 45).
pub fn challenge_message_passed_on(board: BoardId) -> String {
    format!("Your challenge's message on board {board} was passed on")
}

/// `Chat sent on board %s`: the sender's receipt of a chat.
pub fn chat_sent(board: BoardId) -> String {
    format!("Chat sent on board {board}")
}

/// `Message from %s`: a message from one player to another.
pub fn message_from(from: &UserId) -> String {
    format!("Message from {from}")
}

/// `Message sent`: the sender's receipt of a message.
pub fn message_sent() -> String {
    "Message sent".to_string()
}

/// `Broadcast from %s`: an admin's mail to every player.
pub fn broadcast_from(from: &UserId) -> String {
    format!("Broadcast from {from}")
}

/// `Vacation for %s`: a vacation begun or ended, to the player and the opponents.
pub fn vacation_for(userid: &UserId) -> String {
    format!("Vacation for {userid}")
}

/// `Signup for %s`: a new account.
pub fn signup_for(userid: &UserId) -> String {
    format!("Signup for {userid}")
}

/// `verify %s %s`: the mail to a new address, its Subject the command that confirms
/// it (so it is read as that command when it comes back, never as a reply to us).
pub fn verify(userid: &UserId, code: &str) -> String {
    format!("verify {userid} {code}")
}

/// `Address confirmed for %s`.
pub fn address_confirmed_for(userid: &UserId) -> String {
    format!("Address confirmed for {userid}")
}

/// `Address changed for %s`.
pub fn address_changed_for(userid: &UserId) -> String {
    format!("Address changed for {userid}")
}

/// `Password changed for %s`.
pub fn password_changed_for(userid: &UserId) -> String {
    format!("Password changed for {userid}")
}

/// `Wrong passwords for %s`: logins paused, told to the account's owner.
pub fn wrong_passwords_for(userid: &UserId) -> String {
    format!("Wrong passwords for {userid}")
}

/// `Yinsh: please change the password of %s`: a password set before the stricter
/// rules.
pub fn change_password_of(userid: &UserId) -> String {
    format!("Yinsh: please change the password of {userid}")
}

/// `Signoff for %s`: an account removed.
pub fn signoff_for(userid: &UserId) -> String {
    format!("Signoff for {userid}")
}

/// `Yinsh settings of %s`.
pub fn settings_of(userid: &UserId) -> String {
    format!("Yinsh settings of {userid}")
}

/// `Yinsh error`: an error mail that shows no board, and the short notices.
pub fn error() -> String {
    "Yinsh error".to_string()
}

/// `Invalid challenge`.
pub fn invalid_challenge() -> String {
    "Invalid challenge".to_string()
}

/// `Yinsh open seeks`: every answer of the open seeks' commands, and tick's mail of
/// a seek expired.
pub fn open_seeks() -> String {
    "Yinsh open seeks".to_string()
}

/// `Yinsh help`: yinsh help (and help yinsh).
pub fn yinsh_help() -> String {
    "Yinsh help".to_string()
}

/// `Yinsh PBeM help`: the server's help.
pub fn help() -> String {
    "Yinsh PBeM help".to_string()
}

/// `List of games`: the games this server plays.
pub fn list() -> String {
    "List of games".to_string()
}

/// `List of Yinsh games`: games listed, of a player or of the server.
pub fn games() -> String {
    "List of Yinsh games".to_string()
}

/// `Yinsh Standings`.
pub fn standings() -> String {
    "Yinsh Standings".to_string()
}

/// `Historical List of Yinsh games`: yinsh history.
pub fn history() -> String {
    "Historical List of Yinsh games".to_string()
}

/// `Yinsh reply given up: %s` (a Message-ID): to the operator.
pub fn reply_given_up(id: &str) -> String {
    format!("Yinsh reply given up: {id}")
}

/// `yinsh-pbem: damaged game file %s`: to the operator.
pub fn damaged_game_file(name: &str) -> String {
    format!("yinsh-pbem: damaged game file {name}")
}

/// One of the server's mails, as its Subject names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OurMail {
    /// A board mail, a nag, a preview or a board's error mail.
    Board(u32),
    /// A chat mail.
    Chat(u32),
    /// A message from this player.
    Message(String),
    /// A broadcast.
    Broadcast,
    /// The notice of a password change or of wrong passwords.
    Security,
    /// Any other notice, listing or help text.
    Notice,
}

impl OurMail {
    /// The mail a cleaned Subject names, if it is one of ours.
    pub fn named(subject: &str) -> Option<OurMail> {
        let words: Vec<&str> = subject.split_whitespace().collect();
        let lower: Vec<String> = words.iter().map(|w| w.to_ascii_lowercase()).collect();
        let lower: Vec<&str> = lower.iter().map(String::as_str).collect();
        // `101:` in a stable Subject (`Yinsh Board 101: alice - bob`).
        let number = |w: Option<&&str>| w.and_then(|w| w.trim_end_matches(':').parse::<u32>().ok());
        Some(match lower.as_slice() {
            ["yinsh", "board", n, ..]
            | ["new", "yinsh", "board", n, ..]
            | ["nag:", "yinsh", "board", n, ..] => OurMail::Board(number(Some(n))?),
            ["yinsh", "chat", n, ..] => OurMail::Chat(number(Some(n))?),
            ["message", "from", _] => OurMail::Message(words[2].to_string()),
            ["broadcast", "from", _] => OurMail::Broadcast,
            ["password", "changed", "for", _] | ["wrong", "passwords", "for", _] => {
                OurMail::Security
            }
            ["signup", "for", _]
            | ["address", "confirmed", "for", _]
            | ["address", "changed", "for", _]
            | ["signoff", "for", _]
            | ["vacation", "for", _]
            | ["yinsh:", "please", "change", "the", "password", "of", _]
            | ["yinsh", "settings", "of", _]
            | ["message", "sent"]
            | ["chat", "sent", "on", "board", _]
            | ["your", "challenge's", "message", ..]
            | ["yinsh", "error"]
            | ["yinsh", "pbem", "help"]
            | ["yinsh", "help"]
            | ["list", "of", "games"]
            | ["list", "of", "yinsh", "games"]
            | ["yinsh", "standings"]
            | ["historical", "list", "of", "yinsh", "games"]
            | ["invalid", "challenge"]
            | ["yinsh", "open", "seeks"]
            | ["yinsh", "reply", "given", "up:", ..]
            | ["yinsh-pbem:", "damaged", "game", "file", ..] => OurMail::Notice,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_subjects_are_known_and_commands_are_not() {
        for (subject, want) in [
            ("Yinsh Board 101 alice **", Some(OurMail::Board(101))),
            ("New Yinsh Board 7 bob", Some(OurMail::Board(7))),
            ("Nag: Yinsh Board 9 bob", Some(OurMail::Board(9))),
            ("Yinsh Board 101 Error", Some(OurMail::Board(101))),
            ("Yinsh chat 103 carol", Some(OurMail::Chat(103))),
            ("Message from alice", Some(OurMail::Message("alice".into()))),
            ("Password changed for bob", Some(OurMail::Security)),
            ("Yinsh error", Some(OurMail::Notice)),
            ("yinsh move 101 alice pw d1", None),
            ("verify alice ABCDEFGHJK", None),
            ("yinsh board x", None),
        ] {
            assert_eq!(OurMail::named(subject), want, "{subject}");
        }
    }

    #[test]
    fn every_subject_built_is_read_back_as_its_kind() {
        let b = BoardId::from(101);
        let alice: UserId = "alice".parse().expect("a userid");
        let board = |n| Some(OurMail::Board(n));
        let notice = Some(OurMail::Notice);
        for (subject, want) in [
            (self::board(b, Some(&alice)), board(101)),
            (self::board(b, None), board(101)),
            (self::board(b, Some(&alice)) + " **", board(101)),
            ("Yinsh Board 101: alice - bob".to_string(), board(101)),
            (new_board(b, Some(&alice)), board(101)),
            (nag(b, &alice), board(101)),
            (board_error(b), board(101)),
            (preview(b), board(101)),
            (declined(b), board(101)),
            (cancelled(b), board(101)),
            (review(b), board(101)),
            (review_asked(b), board(101)),
            (chat(b, &alice), Some(OurMail::Chat(101))),
            (message_from(&alice), Some(OurMail::Message("alice".into()))),
            (message_sent(), notice.clone()),
            (chat_sent(b), notice.clone()),
            (challenge_message(), notice.clone()),
            (challenge_message_passed_on(b), notice.clone()),
            (broadcast_from(&alice), Some(OurMail::Broadcast)),
            (vacation_for(&alice), notice.clone()),
            (signup_for(&alice), notice.clone()),
            // Its Subject is the command: read as that command when it comes back.
            (verify(&alice, "ABCDEFGHJK"), None),
            (address_confirmed_for(&alice), notice.clone()),
            (address_changed_for(&alice), notice.clone()),
            (password_changed_for(&alice), Some(OurMail::Security)),
            (
                wrong_passwords_for(&"alice".parse().expect("a userid")),
                Some(OurMail::Security),
            ),
            (change_password_of(&alice), notice.clone()),
            (signoff_for(&alice), notice.clone()),
            (settings_of(&alice), notice.clone()),
            (error(), notice.clone()),
            (invalid_challenge(), notice.clone()),
            (open_seeks(), notice.clone()),
            (yinsh_help(), notice.clone()),
            (help(), notice.clone()),
            (list(), notice.clone()),
            (games(), notice.clone()),
            (standings(), notice.clone()),
            (history(), notice.clone()),
            (reply_given_up("<x.1@example.org>"), notice.clone()),
            (damaged_game_file("boards/101.json"), notice.clone()),
        ] {
            assert_eq!(OurMail::named(&subject), want, "{subject}");
        }
    }
}
