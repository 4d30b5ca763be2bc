//! [`SeekRefusal`]: why a seek command (`yinsh seek`, `take`, `withdraw`) is not
//! carried out, told in a normal reply (`Open seeks`), as an invalid challenge is.
//! Its texts name numbers and limits only, never a word of the mail, so an address
//! nobody confirmed reads them as they are.

use crate::server::store::{RatingRange, SeekId};

/// Why a seek command is not carried out; `Display` is the reply's body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SeekRefusal {
    /// The account has no confirmed address.
    #[error(
        "Only an account with a confirmed address may post or take an open seek: reply to the \"verify\" mail the server sent to your address, then send this again. Nothing was done.\n"
    )]
    Unconfirmed,
    /// The player has as many open seeks as one may have.
    #[error(
        "You have {max} open seeks already ({}), the most one player may have: this seek was not posted. Withdraw one first: yinsh withdraw <seekno> <userid> <password>\n",
        numbers(.open)
    )]
    TooMany {
        /// The player's open seeks.
        open: Vec<SeekId>,
        /// The limit.
        max: usize,
    },
    /// The server keeps as many open seeks as it may.
    #[error(
        "The server has {max} open seeks, the most it keeps at a time: this seek was not posted. Take one of them instead (yinsh seeks lists them), or try again later.\n"
    )]
    Full {
        /// The limit.
        max: usize,
    },
    /// A reminder time not shorter than the forfeit time.
    #[error(
        "The reminder time ({nag} days) must be shorter than the forfeit time ({forfeit} days): set both, like --nagtime=7 --forfeittime=21. This seek was not posted.\n"
    )]
    Times {
        /// Days before a reminder.
        nag: u32,
        /// Days before a forfeit.
        forfeit: u32,
    },
    /// No open seek has this number.
    #[error(
        "There is no open seek #{seek}: it was taken, withdrawn or it expired. yinsh seeks lists the open ones.\n"
    )]
    NoSuchSeek {
        /// The number named.
        seek: SeekId,
    },
    /// The player's own seek, to take.
    #[error(
        "Seek #{seek} is your own: another player takes it. To withdraw it: yinsh withdraw {seek} <userid> <password>\n"
    )]
    OwnSeek {
        /// The seek.
        seek: SeekId,
    },
    /// Another player's seek, to withdraw.
    #[error("Seek #{seek} is not yours: only the player who posted it may withdraw it.\n")]
    NotYours {
        /// The seek.
        seek: SeekId,
    },
    /// The taker's rating is outside the seek's range.
    #[error(
        "Seek #{seek} is for players rated {range}; your rating in its games is {rating}, so it was not taken. yinsh seeks lists the others.\n"
    )]
    OutOfRange {
        /// The seek.
        seek: SeekId,
        /// Its range.
        range: RatingRange,
        /// The taker's rating.
        rating: i32,
    },
    /// A seek with a robot to fall back on from a player who plays as many games
    /// against the robots as one may.
    #[error(
        "You already play {max} unfinished games against the robots, the most at a time: post the seek without -robot, or finish one of them first.\n"
    )]
    TooManyRobotGames {
        /// The limit.
        max: usize,
    },
}

/// `#1, #2`.
fn numbers(ids: &[SeekId]) -> String {
    ids.iter()
        .map(|s| format!("#{s}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seek_refusal_names_numbers_only() {
        let r = SeekRefusal::TooMany {
            open: vec![SeekId(1), SeekId(4), SeekId(9)],
            max: 3,
        };
        assert!(
            r.to_string()
                .starts_with("You have 3 open seeks already (#1, #4, #9)"),
            "{r}"
        );
        let range = "1400-1800".parse().expect("range");
        let r = SeekRefusal::OutOfRange {
            seek: SeekId(2),
            range,
            rating: 1900,
        };
        assert!(
            r.to_string()
                .contains("rated 1400-1800; your rating in its games is 1900")
        );
    }
}
