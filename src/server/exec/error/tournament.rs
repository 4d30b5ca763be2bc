//! Why a tournament command was refused ([`TournamentRefusal`], issue 49): its text
//! is its `Display`; [`TournamentRefusal::plain`] is what an address nobody confirmed
//! reads instead (no name a person chose).

use crate::server::store::TournamentName;

/// A tournament command refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentRefusal {
    /// The account has no confirmed address.
    #[error(
        "Only accounts with a confirmed address may create or join tournaments: confirm yours by replying to the \"verify\" mail the server sent it. Nothing was done."
    )]
    Unconfirmed,
    /// The creator runs as many tournaments not yet finished as they may.
    #[error(
        "You run {max} tournaments that have not finished, the most a player may: create the next one when one of them is over. Nothing was done."
    )]
    TooMany {
        /// The cap.
        max: usize,
    },
    /// The name is taken.
    #[error("There is a tournament called {name} already: choose another name. Nothing was done.")]
    NameTaken {
        /// The name.
        name: TournamentName,
    },
    /// No tournament has that name.
    #[error("There is no tournament called {name}: yinsh tournaments lists them.")]
    NoSuch {
        /// The name.
        name: TournamentName,
    },
    /// It has started: no one joins, its start is past.
    #[error("Tournament {name} has started already: nothing was done.")]
    Started {
        /// The name.
        name: TournamentName,
    },
    /// It has as many players as it takes.
    #[error("Tournament {name} is full ({max} players): nothing was done.")]
    Full {
        /// The name.
        name: TournamentName,
        /// Its most players.
        max: u32,
    },
    /// The player is in it already.
    #[error("You are a player of tournament {name} already.")]
    AlreadyIn {
        /// The name.
        name: TournamentName,
    },
    /// The player is not in it.
    #[error("You are not a player of tournament {name}: nothing was done.")]
    NotIn {
        /// The name.
        name: TournamentName,
    },
    /// Only its creator (or an admin) starts it.
    #[error("Only {creator}, who created tournament {name}, may start it early.")]
    NotCreator {
        /// The name.
        name: TournamentName,
        /// Its creator.
        creator: crate::server::model::UserId,
    },
    /// Too few players to start.
    #[error("Tournament {name} has {have} players and needs {min} to start: nothing was done.")]
    TooFew {
        /// The name.
        name: TournamentName,
        /// Its players.
        have: usize,
        /// Its fewest.
        min: u32,
    },
    /// The rules do not fit together.
    #[error(
        "The rules do not fit: -min={min} is more than -max={max}, or the reminder time ({nag} days) is not before the forfeit time ({forfeit} days). Nothing was done."
    )]
    Rules {
        /// Fewest players.
        min: u32,
        /// Most players.
        max: u32,
        /// Reminder days.
        nag: u32,
        /// Forfeit days.
        forfeit: u32,
    },
    /// A tournament game may not be declined.
    #[error(
        "Board {board} is a game of tournament {name}: it cannot be declined. To end it, resign: yinsh resign {board} <userid> <password>"
    )]
    NoDecline {
        /// The board.
        board: crate::server::model::BoardId,
        /// The tournament.
        name: TournamentName,
    },
    /// It is over.
    #[error("Tournament {name} is over: nothing was done.")]
    Finished {
        /// The name.
        name: TournamentName,
    },
}

impl TournamentRefusal {
    /// The refusal without the tournament's or a player's name.
    pub fn plain(&self) -> String {
        match self {
            TournamentRefusal::Unconfirmed
            | TournamentRefusal::TooMany { .. }
            | TournamentRefusal::Rules { .. } => self.to_string(),
            _ => "The tournament command was refused: send yinsh tournaments for the list, and yinsh help for the commands.".to_string(),
        }
    }
}

impl From<TournamentRefusal> for super::ExecError {
    fn from(r: TournamentRefusal) -> super::ExecError {
        super::ExecError::Refused(super::Refusal::Tournament(r))
    }
}
