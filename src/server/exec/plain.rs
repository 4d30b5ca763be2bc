//! A refusal told in the server's own words alone: the text an address nobody has
//! confirmed reads instead of the refusal's `Display` (`outgoing::gate` sends it). The
//! mail may be a stranger's with the victim in Reply-To, and a refusal that quotes
//! what it found (an unknown userid, a move as written, a player's name) would carry
//! up to two 32-character words of the stranger's choice. These texts keep the kind
//! of error and what to send instead; numbers (boards, move numbers, limits) stay.
//! Every variant is listed, so a new one must be sorted here.

use super::error::{InvalidChallenge, Refusal};
use crate::server::text::dates::format_date;

/// The line below a plain refusal, saying why it has no details.
pub const NO_DETAILS: &str = "(The words of your mail are not repeated here: either this\naddress is not a confirmed address of any account, or the mail carried no\npassword and was no reply to one of our mails, so anyone could have sent it. An\naccount's new address is confirmed by replying to the \"verify\" mail the server\nsends it.)";

const SIGNUP: &str = "signup <userid> <password> [<e-mail address> ...]";

impl Refusal {
    /// The refusal in words that repeat nothing of the mail and no name a person chose.
    ///
    /// ```
    /// use yinsh_pbem::server::exec::error::Refusal;
    /// use yinsh_pbem::server::model::UserId;
    /// let userid = "buy-now".parse::<UserId>().unwrap().into();
    /// let r = Refusal::NoSuchRecipient { userid };
    /// assert!(!r.plain().contains("buy-now"));
    /// ```
    pub fn plain(&self) -> String {
        use Refusal::*;
        match self {
            UnknownUserid
            | WrongPassword
            | BoardNotFound { .. }
            | BoardNotFoundFor { .. }
            | UnknownUseridOn { .. }
            | WrongPasswordOn { .. }
            | NotPlaying { .. }
            | GameEnded { .. }
            | NestedMultiple
            | NoAddress
            | WrongCode
            | SenderNotVerified(_)
            | NothingToTakeBack { .. }
            | NoMoveLeftToTakeBack { .. }
            | PreviewTooFar { .. }
            | ShowAsTooFar { .. }
            | ShowTooFar { .. }
            | NotPlayingNorWatching { .. }
            | EmptyChat { .. }
            | SubscribeOwnGame { .. }
            | EmptyMessage
            | NotAdmin
            | PasswordCouldShow
            | TooManyWatchers { .. }
            | EmptyBroadcast
            | VacationTooLong { .. }
            | EmptyReply { .. }
            | WatcherUnconfirmed { .. }
            | DeclineAfterMove { .. }
            | PlayLink(_) => self.to_string(),
            Tournament(t) => t.plain(),
            UseridLikeWebAddress { .. } => format!("This userid has a dot before a letter, so mail programs would show it as a web address. Use - or _ instead of the dot: {SIGNUP}"),
            UseridTaken { .. } => format!("This userid is already taken. Choose another one: {SIGNUP}"),
            AddressBusy { max, until, .. } => format!(
                "An address named already waits for the codes of {max} new accounts, the most at a time: nothing was changed. Try again after {}.",
                format_date(*until)
            ),
            LocalAddress { .. } => "An address named is on the server's machine or a private network (localhost, an IP address, .local ...): give an address such as name@example.org. Nothing was changed.".to_string(),
            CodesPaused { until, .. } => format!(
                "Too many wrong verify codes were sent for this userid this hour (until {}): nothing was confirmed. The right code, in the Subject of the \"verify\" mail, still works.",
                format_date(*until)
            ),
            RoleUserid { .. } => format!("This userid reads as a role of the server or the mail system. Choose another one: {SIGNUP}"),
            LookAlikeUserid { .. } => format!("This userid looks like one that is taken. Choose another one: {SIGNUP}"),
            AddressCrowded { max, .. } => format!(
                "An address named is already used by {max} accounts, the most one address may have: use another address."
            ),
            StillPlaying { boards, .. } => format!(
                "This account still plays {} game{}: finish or resign {} first (yinsh resign <board> <userid> <password>).",
                boards.len(),
                if boards.len() == 1 { "" } else { "s" },
                if boards.len() == 1 { "it" } else { "them" }
            ),
            OfferWaiting { board, .. } => format!(
                "Your opponent has made an offer that waits for your answer: send \"yinsh move {board} <userid> <password> accept\" or \"... reject\" first."
            ),
            NoOfferToAnswer { board, .. } => format!(
                "There is no draw offer or take-back request from your opponent to answer on board {board}. To offer a draw write \"propose\" as your move; to ask to take back your last move, \"undo\"."
            ),
            NotYourMove { .. } => "It is not your move: it is your opponent's turn.".to_string(),
            SubmitNotYourMove { .. } => "It is not your move: it is your opponent's turn. (To have a move played when your turn comes, use yinsh queue.)".to_string(),
            StaleMoveNumber { number, marked, .. } => format!(
                "The move received as move #{number} is marked #{marked}: it was not played.\n\
                 (A mail sent twice or crossed with another one does this.) Check the board and send your move again if it is still wanted."
            ),
            SubmitMoveNumber { number, marked, .. } => {
                format!("The move received as move #{number} is marked #{marked}.")
            }
            IllegalMove { board, .. } => format!(
                "The move is not legal on board {board}. Send \"yinsh show {board}\" for the board and \"yinsh help\" for how moves are written."
            ),
            CannotQueue { .. } => "The move cannot be queued: it does not read as a turn. Send \"yinsh help\" for how moves are written.".to_string(),
            QueueMoveNumber { marked, next, .. } => format!(
                "The move is marked #{marked}, but the next move is #{next} and it is your opponent's: a queued move gets #{} or later.",
                next + 1
            ),
            NothingSubmitted { board, .. } => format!(
                "You have no submitted move waiting on board {board} (a move played since cancels it). Send \"yinsh submit {board} <userid> <password> <move>\" first, or play with yinsh move."
            ),
            PreviewStopped { nth, .. } => format!(
                "Preview stopped at move number {nth} of those given: it is not legal there. Send \"yinsh help\" for how moves are written."
            ),
            NoSuchPlayer { .. } => "Invalid userid entered: a userid named has no account.".to_string(),
            NoSuchRecipient { .. } => "Invalid userid entered: a userid named has no account (nothing was sent).".to_string(),
            LoginsPaused { until, .. } => format!(
                "Too many wrong passwords were sent for this userid: its logins are paused until {}. Nothing was done. Its owner has been told.",
                format_date(*until)
            ),
            ReservedUserid { .. } => format!("This userid is reserved by the server's operator. Choose another one: {SIGNUP}"),
            RobotName { .. } => format!("This userid is kept for the server's robots (robot1 .. robot5). Choose another one: {SIGNUP}"),
            RobotAccount { .. } => "This userid is one of the server's robots: nobody can log in as it. Challenge it with: yinsh challenge <your userid> robot3".to_string(),
            UseridRetired { .. } => format!("This userid belonged to an account that was signed off and is not given to anyone else. Choose another one: {SIGNUP}"),
            OldBoardMail { answered, now, to_move, me, .. } => format!(
                "You answered an old mail (move {answered}): nothing was played. The game is at move {now}\nand it is {}.",
                match to_move {
                    Some(u) if u == me => "your turn",
                    Some(_) => "your opponent's turn",
                    None => "nobody's turn",
                }
            ),
            FirstLineNotAMove { .. } => "The first line of your reply must be your move, e.g. d4. Write your move as the first line of the reply, above the quoted mail (or one of: resign, propose, accept, reject, undo, pass, chat).".to_string(),
            OfferAnsweredInWords { .. } => "Your opponent has made an offer that waits for your answer; the first line of your reply is not one the server reads, so nothing was done. To answer it, reply with reject (or accept) as the first line.".to_string(),
            ReplyNotYours { .. } => "This reply answers a mail sent to another address than the one it comes from: nothing was done. Reply from the address the mail went to.".to_string(),
        }
    }
}

impl InvalidChallenge {
    /// Why the challenge was not made, in words that repeat no userid.
    pub fn plain(&self) -> String {
        match self {
            InvalidChallenge::Themselves { .. } => {
                "A player cannot play against themselves: name two different userids.\nSyntax is \"yinsh challenge [-blitz] <userid1> <userid2>\"\n".to_string()
            }
            InvalidChallenge::Times { .. }
            | InvalidChallenge::RobotsOnly
            | InvalidChallenge::ForOthersOff => self.to_string(),
            InvalidChallenge::NotSignedUp { missing } => format!(
                "{} signed up. Both players must sign up first: {SIGNUP}\n",
                if missing.len() == 1 {
                    "One of the userids named is not"
                } else {
                    "Neither of the userids named is"
                }
            ),
            InvalidChallenge::ForOthers { max, .. } => format!(
                "A daily limit of games started through challenges between two other players ({max}) is reached: this challenge was not made. Players may always challenge each other from their own addresses: \"yinsh challenge <your userid> <opponent's userid>\".\n"
            ),
            InvalidChallenge::TooManyWaiting { boards, max, confirmed_max, .. } => format!(
                "The player who sent this challenge has started {} game{} waiting for the other player's first move, the most at a time: this challenge was not made.\n{}",
                boards.len(),
                if boards.len() == 1 { "" } else { "s" },
                super::error::free_a_place(*max, *confirmed_max)
            ),
            InvalidChallenge::TooManyRobotGames { max, .. } => format!(
                "A player named already plays {max} unfinished games against the robots, the most at a time. Finish one (or resign it) first.\n"
            ),
        }
    }
}
