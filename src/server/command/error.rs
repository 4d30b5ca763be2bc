//! Why a Subject line is not a command: [`CommandError`] (no command word, an unknown
//! one, another game) and, for a command whose words do not fit its syntax, the
//! [`Problem`] found. Their `Display` is the text players read in the error mail,
//! after `Syntax is "<usage>": `. A problem never quotes a word in or after a password's
//! place, nor the rest of a line that does not fit: a word pushed out of its place by a
//! missing or extra word may be the password. It names the word by its number instead.

use super::said::{Said, SaidLine};
use crate::mail::AddressProblem;
use crate::server::model::{InvalidPassword, InvalidUserId};

/// Why a Subject line is not a command.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum CommandError {
    /// Nothing in the Subject.
    #[error("The Subject line is empty: it must hold a command, like \"yinsh help\" or \"help\".")]
    Empty,
    /// An unknown first word (the error mail adds the list of commands,
    /// [`command_list`](super::command_list)).
    #[error("Unknown command \"{0}\".")]
    Unknown(String),
    /// A game this server does not run.
    #[error("This server runs YINSH only; \"{0}\" is not a game here. Write \"yinsh ...\".")]
    OtherGame(String),
    /// An unknown `yinsh` subcommand (empty when `yinsh` stands alone).
    #[error("Unknown yinsh command \"{0}\". Send \"yinsh help\" for the commands.")]
    UnknownYinsh(String),
    /// A misspelt command word (`yinsh challange`, `singup`): the command meant, as
    /// the whole line with every password as `**` when the table reads it so, else
    /// its command words.
    #[error(
        "Unknown command \"{written}\". Did you mean:\n    {meant}\n{}",
        stars(meant)
    )]
    DidYouMean {
        /// The word as written.
        written: String,
        /// The line or command words meant.
        meant: SaidLine,
    },
    /// A yinsh command without `yinsh` before it (`move 101 alice ...`).
    #[error(
        "\"{written}\" is a yinsh command: write \"yinsh\" before it, like this:\n    {meant}\n{}",
        stars(meant)
    )]
    WithoutYinsh {
        /// The word as written.
        written: String,
        /// The line or command words meant.
        meant: SaidLine,
    },
    /// A line longer than any command ([`MAX_LINE_CHARS`](super::bounds::MAX_LINE_CHARS)):
    /// refused unread, none of it repeated.
    #[error(
        "The line is {chars} characters long; a command is at most {max} characters. Put a long text in the body of a mail (a comment), not on the command line."
    )]
    TooLong {
        /// The line's length in characters (counted up to `max + 1`).
        chars: usize,
        /// The most a command line may have.
        max: usize,
    },
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
    #[error("expected {what}, {}", match word {
        Some(n) => format!("but the {} word after the command does not fit", Ordinal(*n)),
        None => "but the line ends too soon".to_string(),
    })]
    Expected {
        /// What the syntax wants, in words ("a userid and a password").
        what: &'static str,
        /// The number (1 = the first after the command word(s)) of the first word that
        /// does not fit; `None` when the line ends.
        word: Option<usize>,
    },
    /// A word where a userid belongs is not one.
    #[error("\"{text}\" is not a valid userid ({why})")]
    Userid {
        /// The word.
        text: Said<String>,
        /// Why it is not a userid.
        why: InvalidUserId,
    },
    /// A word where a password belongs is not one (the word itself is not kept).
    #[error("the password is not valid ({0})")]
    Password(InvalidPassword),
    /// A word where an e-mail address belongs is not one: which of them and why (the
    /// word itself is not kept: it may be a password pushed out of its place).
    #[error("the {} e-mail address is not one: {problem}", Ordinal(*nth))]
    Address {
        /// Which of the addresses, from 1.
        nth: usize,
        /// What is wrong with it.
        problem: AddressProblem,
    },
    /// A move command whose password was left out: the word in its place is the move.
    #[error(
        "the password is missing before the move. Write:\n    {meant}\n(with your password in place of **)"
    )]
    NoPassword {
        /// The line as it should be written, the password as `**`.
        meant: SaidLine,
    },
    /// A move command with nothing after the password.
    #[error("the move is missing after the password")]
    MissingMove,
    /// The text after the last `#` of a move is not a number (the text is not kept).
    #[error(
        "the text after # is not a move number: write the move, then # and the number it will get, like e5-e9#12"
    )]
    Moveno,
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
    /// A word where a tournament's name belongs is not one.
    #[error("{0}")]
    TournamentName(crate::server::store::InvalidTournamentName),
    /// An option of `tournament create` it does not know, or a bad value of one.
    #[error(
        "\"{0}\" does not fit: the options are roundrobin or swiss, -rounds=<1-20>, -blitz, --nagtime=<days>, --forfeittime=<days>, -min=<2-64>, -max=<2-64> and -start=YYYY-MM-DD"
    )]
    TournamentOption(String),
    /// `challenge` with other than two userids.
    #[error("expected two userids, found {0}")]
    NotTwoUserids(usize),
    /// `yinsh show` with nothing to show.
    #[error("expected at least one board number or userid")]
    NothingToShow,
    /// `yinsh show` with both board numbers and userids.
    #[error("write board numbers or userids, not both (send two mails)")]
    BoardsAndUserids,
    /// `message` without a recipient.
    #[error("expected at least one userid to write to")]
    NoRecipient,
    /// A word where `message` wants a userid to write to is not one (not kept).
    #[error("the {} userid to write to is not a valid userid", Ordinal(*nth))]
    Recipient {
        /// Which of the recipients, from 1.
        nth: usize,
    },
    /// The days of `vacation` are not a number (the word is not kept).
    #[error("the number of days is not a number like 14 (0 ends a vacation)")]
    Days,
    /// The choice of `yinsh settings` is not one (the word is not kept).
    #[error(
        "the setting is not text-only or html, nor subject stable or moving, nor own-turn skip or send"
    )]
    MailChoice,
    /// `all` not followed by `show`.
    #[error("expected \"show\" after \"all\"")]
    AllWithoutShow,
    /// `all show` without exactly userids.
    #[error("expected a userid")]
    AllShowUserid,
    /// `yinsh showas` without a userid and a password.
    #[error("expected a userid and a password")]
    MissingCredentials,
    /// `yinsh showas` with a word after the password that is neither a board nor a
    /// filter (the word is not kept).
    #[error(
        "expected board numbers like 104 or all/active/inactive/next after the password; the {} word after it is neither",
        Ordinal(*nth)
    )]
    ShowAsWord {
        /// Which word after the password, from 1.
        nth: usize,
    },
    /// A word starting with a digit that is not `104` or `104#12`.
    #[error("\"{0}\" is not a board number like 104 or 104#12")]
    Board(Said<String>),
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

/// The note under a suggested line that hides a password as `**`.
fn stars(meant: &SaidLine) -> &'static str {
    if meant.as_written().any(|w| w == "**") {
        "(with your password in place of **)"
    } else {
        ""
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ... `11th`, `21st`: a word's place, as a person says it.
struct Ordinal(usize);

impl std::fmt::Display for Ordinal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0;
        let suffix = match (n % 10, n % 100) {
            (_, 11..=13) => "th",
            (1, _) => "st",
            (2, _) => "nd",
            (3, _) => "rd",
            _ => "th",
        };
        write!(f, "{n}{suffix}")
    }
}

#[cfg(test)]
mod tests {
    use super::Ordinal;

    #[test]
    fn ordinals_read_as_english() {
        let got: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 103, 111]
            .iter()
            .map(|&n| Ordinal(n).to_string())
            .collect();
        assert_eq!(
            got,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "103rd",
                "111th"
            ]
        );
    }
}
