//! Why a Subject line is not a command: [`CommandError`] (no command word, an unknown
//! one, another game) and, for a command whose words do not fit its syntax, the
//! [`Problem`] found. Their `Display` is the text players read in the error mail,
//! after `Syntax is "<usage>": `. A problem never quotes a password.

use crate::mail::InvalidAddress;
use crate::server::store::{InvalidPassword, InvalidUserId};

/// Why a Subject line is not a command.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum CommandError {
    /// Nothing in the Subject.
    #[error("The Subject line is empty: it must hold a command, like \"yinsh help\" or \"help\".")]
    Empty,
    /// An unknown first word.
    #[error(
        "Unknown command \"{0}\". Commands are: help, signup, change, signoff, list, multiple, and yinsh ... (send \"help\" for the list)."
    )]
    Unknown(String),
    /// A game this server does not run.
    #[error("This server runs YINSH only; \"{0}\" is not a game here. Write \"yinsh ...\".")]
    OtherGame(String),
    /// An unknown `yinsh` subcommand (empty when `yinsh` stands alone).
    #[error("Unknown yinsh command \"{0}\". Send \"yinsh help\" for the commands.")]
    UnknownYinsh(String),
    /// The words do not fit the command's syntax.
    #[error("Syntax is \"{usage}\": {problem}")]
    Syntax {
        /// The command's syntax (one of [`usage`](super::usage)).
        usage: &'static str,
        /// What was wrong.
        problem: Problem,
    },
}

/// What is wrong with the words of a command whose first word is known.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Problem {
    /// The words ran out, or one of them is not what the syntax wants there.
    #[error("expected {what}, {}", match found {
        Some(found) => format!("found \"{found}\""),
        None => "but the line ends too soon".to_string(),
    })]
    Expected {
        /// What the syntax wants, in words ("a userid and a password").
        what: &'static str,
        /// The rest of the line from the first word that does not fit (trimmed);
        /// `None` when the line ends.
        found: Option<String>,
    },
    /// A word where a userid belongs is not one.
    #[error("\"{text}\" is not a valid userid ({why})")]
    Userid {
        /// The word.
        text: String,
        /// Why it is not a userid.
        why: InvalidUserId,
    },
    /// A word where a password belongs is not one (the word itself is not kept).
    #[error("the password is not valid ({0})")]
    Password(InvalidPassword),
    /// A word where an e-mail address belongs is not one (it says which and why).
    #[error("{0}")]
    Address(InvalidAddress),
    /// A move command with nothing after the password.
    #[error("the move is missing after the password")]
    MissingMove,
    /// The text after the last `#` of a move is not a number.
    #[error(
        "\"#{0}\" is not a move number: write the move, then # and the number it will get, like e5-e9#12"
    )]
    Moveno(String),
    /// `change` without `password` or `address` after it.
    #[error("expected \"password\" or \"address\" after change")]
    ChangeWhat,
    /// `change` followed by another word (lower-cased).
    #[error("expected \"password\" or \"address\", found \"{0}\"")]
    ChangeOther(String),
    /// A `--nagtime=`/`--forfeittime=` option whose value is not 1 to 365.
    #[error("{option}: the number of days must be 1 to 365, like --{name}=14")]
    OptionDays {
        /// The option as written.
        option: String,
        /// Its name, lower case: `nagtime` or `forfeittime`.
        name: &'static str,
    },
    /// An option `challenge` does not know.
    #[error(
        "unknown option \"{0}\": the options are -blitz, --nagtime=<days> and --forfeittime=<days>"
    )]
    UnknownOption(String),
    /// `challenge` with other than two userids.
    #[error("expected two userids, found {0}")]
    NotTwoUserids(usize),
    /// `yinsh show` with nothing to show.
    #[error("expected at least one board number or userid")]
    NothingToShow,
    /// `yinsh show` with both board numbers and userids.
    #[error("write board numbers or userids, not both (send two mails)")]
    BoardsAndUserids,
    /// `yinsh games` without a userid.
    #[error("expected at least one userid")]
    NoUserid,
    /// `message` without a recipient.
    #[error("expected at least one userid to write to")]
    NoRecipient,
    /// The days of `vacation` are not a number.
    #[error("\"{0}\" is not a number of days (0 ends a vacation)")]
    Days(String),
    /// `all` not followed by `show`.
    #[error("expected \"show\" after \"all\"")]
    AllWithoutShow,
    /// `all show` without exactly userids.
    #[error("expected a userid")]
    AllShowUserid,
    /// `yinsh showas` without a userid and a password.
    #[error("expected a userid and a password")]
    MissingCredentials,
    /// `yinsh showas` with a word that is neither a board nor a filter.
    #[error("expected board numbers or all/active/inactive/next, found \"{0}\"")]
    ShowAsWord(String),
    /// A word starting with a digit that is not `104` or `104#12`.
    #[error("\"{0}\" is not a board number like 104 or 104#12")]
    Board(String),
    /// `yinsh preview` without moves.
    #[error("expected at least one move after the board")]
    NoMoves,
    /// More distinct items than one command may name (`command::bounds`).
    #[error("at most {max} {what} in one command ({found} given): send the rest in another mail")]
    TooMany {
        /// What was listed: "boards", "userids", ...
        what: &'static str,
        /// The cap.
        max: usize,
        /// How many distinct ones were given.
        found: usize,
    },
}

impl Problem {
    /// This problem in the syntax of the command `usage`.
    pub fn within(self, usage: &'static str) -> CommandError {
        CommandError::Syntax {
            usage,
            problem: self,
        }
    }
}
