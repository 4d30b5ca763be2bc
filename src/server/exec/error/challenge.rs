//! [`InvalidChallenge`]: why a `challenge` is not started, told in a normal reply
//! (`Invalid challenge`), not an error mail.

use super::words::{join, plural};
use crate::server::model::BoardId;

/// Why a `challenge` is not started; told in a normal reply (`Invalid challenge`),
/// not an error mail. `Display` is the reply's body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidChallenge {
    /// The same userid twice.
    #[error(
        "{userid} cannot play against themselves: name two different userids.\nSyntax is \"yinsh challenge [-blitz] <userid1> <userid2>\"\n"
    )]
    Themselves {
        /// The userid.
        userid: String,
    },
    /// A reminder time not shorter than the forfeit time.
    #[error(
        "The reminder time ({nag} days) must be shorter than the forfeit time ({forfeit} days): set both, like --nagtime=7 --forfeittime=21.\n"
    )]
    Times {
        /// Days before a reminder.
        nag: u32,
        /// Days before a forfeit.
        forfeit: u32,
    },
    /// One or both userids have no account.
    #[error(
        "{} {} not signed up. Both players must sign up first: signup <userid> <password> [<e-mail address>]\n",
        .missing.join(" and "),
        plural(.missing.len(), "is", "are")
    )]
    NotSignedUp {
        /// The userids without an account.
        missing: Vec<String>,
    },
    /// A game between two others would pass a daily limit of games started for
    /// others (`[limits] challenges_for_others_per_day`).
    #[error(
        "{who} {counted} games today through challenges between two other players, the most a day ({max}): this challenge was not made. Players may always challenge each other from their own addresses: \"yinsh challenge <your userid> <opponent's userid>\".\n"
    )]
    ForOthers {
        /// Who is at the limit: "You have started" or "alice has been put in".
        who: String,
        /// How many were counted today.
        counted: u32,
        /// The limit.
        max: u32,
    },
    /// Games for two other players are turned off on this server (`[limits]
    /// challenges_for_others_per_day = 0`).
    #[error(
        "Challenges for two other players are turned off on this server: this challenge was not made. Players may always challenge each other from their own addresses: \"yinsh challenge <your userid> <opponent's userid>\".\n"
    )]
    ForOthersOff,
    /// Two robots: a robot plays only people.
    #[error(
        "The robots play only people: name your userid and one robot, like \"yinsh challenge alice robot3\".\n"
    )]
    RobotsOnly,
    /// The person already plays as many unfinished games against the robots as allowed.
    #[error(
        "{userid} already plays {max} unfinished games against the robots, the most at a time. Finish one (or resign it) first.\n"
    )]
    TooManyRobotGames {
        /// The person.
        userid: String,
        /// The limit.
        max: usize,
    },
    /// The player who sends the challenge already started as many games waiting for
    /// the other player's first move as an account may have (issue 25).
    #[error(
        "{userid} has started {} waiting for the other player's first move (board{} {}), the most an account{} may have at a time: this challenge was not made.\n{}",
        games(.boards.len()),
        plural(.boards.len(), "", "s"),
        join(.boards),
        if .confirmed_max.is_some() { " without a confirmed address" } else { "" },
        free_a_place(*.max, *.confirmed_max)
    )]
    TooManyWaiting {
        /// The player.
        userid: String,
        /// The games waiting.
        boards: Vec<BoardId>,
        /// The limit.
        max: usize,
        /// The limit once the account has a confirmed address, when it has none.
        confirmed_max: Option<usize>,
    },
}

/// `1 game`, `2 games`.
fn games(n: usize) -> String {
    format!("{n} game{}", plural(n, "", "s"))
}

/// How a place frees, for [`InvalidChallenge::TooManyWaiting`].
pub(crate) fn free_a_place(max: usize, confirmed_max: Option<usize>) -> String {
    let confirm = confirmed_max.map_or(String::new(), |c| {
        format!(
            "An account with a confirmed address may have {c}: reply to the \"verify\" mail the server sent yours.\n"
        )
    });
    format!(
        "A place frees when the other player moves or declines; or withdraw one of them: before your\nown first move, yinsh decline <board> <userid> <password>; after it, yinsh resign <board>\n<userid> <password> (a game of fewer than 10 moves is not rated). At most {max} at a time.\n{confirm}"
    )
}

#[cfg(test)]
mod tests {
    use super::InvalidChallenge;

    #[test]
    fn invalid_challenges_read_as_today() {
        assert_eq!(
            InvalidChallenge::Themselves {
                userid: "alice".into()
            }
            .to_string(),
            "alice cannot play against themselves: name two different userids.\nSyntax is \"yinsh challenge [-blitz] <userid1> <userid2>\"\n"
        );
        assert_eq!(
            InvalidChallenge::Times { nag: 9, forfeit: 7 }.to_string(),
            "The reminder time (9 days) must be shorter than the forfeit time (7 days): set both, like --nagtime=7 --forfeittime=21.\n"
        );
        assert_eq!(
            InvalidChallenge::NotSignedUp {
                missing: vec!["bob".into()]
            }
            .to_string(),
            "bob is not signed up. Both players must sign up first: signup <userid> <password> [<e-mail address>]\n"
        );
        assert_eq!(
            InvalidChallenge::NotSignedUp {
                missing: vec!["bob".into(), "carol".into()]
            }
            .to_string(),
            "bob and carol are not signed up. Both players must sign up first: signup <userid> <password> [<e-mail address>]\n"
        );
        assert_eq!(
            InvalidChallenge::RobotsOnly.to_string(),
            "The robots play only people: name your userid and one robot, like \"yinsh challenge alice robot3\".\n"
        );
        assert_eq!(
            InvalidChallenge::TooManyRobotGames {
                userid: "alice".into(),
                max: 5
            }
            .to_string(),
            "alice already plays 5 unfinished games against the robots, the most at a time. Finish one (or resign it) first.\n"
        );
        assert_eq!(
            InvalidChallenge::TooManyWaiting {
                userid: "thr1".into(),
                boards: vec![101.into(), 102.into()],
                max: 2,
                confirmed_max: Some(10),
            }
            .to_string(),
            "thr1 has started 2 games waiting for the other player's first move (boards 101, 102), the most an account without a confirmed address may have at a time: this challenge was not made.\nA place frees when the other player moves or declines; or withdraw one of them: before your\nown first move, yinsh decline <board> <userid> <password>; after it, yinsh resign <board>\n<userid> <password> (a game of fewer than 10 moves is not rated). At most 2 at a time.\nAn account with a confirmed address may have 10: reply to the \"verify\" mail the server sent yours.\n"
        );
    }
}
