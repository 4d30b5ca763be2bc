//! Game records in Boardspace's YINSH SGF (the format of its archive, and of the games
//! in `../shared/data/boardspace-yinsh`): [`read`] turns one into a [`Record`] of
//! atomic actions, checked move by move against the rules; [`write()`] writes a record
//! back in the same dialect, one action per node.
//!
//! Boardspace writes GUI events as text properties `P0[number verb args]` (P0 is the
//! first player, White): `place wr  F 6` (a ring placed), `place w  F 6` then
//! `drop board  E 6` (a ring moved from f6 to e6; a `pick board` after the drop takes
//! it back up), `move F 6 E 6` (the same in one event), `remove w H 8 D 4` (a row, by
//! its ends), `remove wr D 5` (a ring), `resign`, `offerdraw` then `acceptdraw` (a
//! draw agreed); `Start`, `Done`, a `declinedraw` and picking a ring
//! from the reserve and dropping it back change nothing. Points are written `G 11`.
//!
//! ```
//! use yinsh_pbem::notation::sgf;
//! use yinsh_pbem::rules::Variant;
//! let text = "(;GM[24]SU[Yinsh]P0[id \"ann\"]P1[id \"bob\"]\n; P0[0 Start White]\n; P0[1 place wr  F 6]\n)";
//! let record = sgf::read(text).unwrap();
//! assert_eq!((record.white.as_str(), record.variant), ("ann", Variant::Normal));
//! assert_eq!(record.actions[0].to_string(), "f6");
//! assert_eq!(sgf::read(&sgf::write(&record)).unwrap(), record);
//! ```

mod read;
mod syntax;
mod write;

use thiserror::Error;

use crate::rules::{Action, Color, Game, IllegalAction, Point, Variant};

pub use read::read;
pub use write::{write, write_in};

/// One game as a record holds it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    /// Normal or blitz (`SU[yinsh-blitz]`).
    pub variant: Variant,
    /// The first player's name (White).
    pub white: String,
    /// The second player's name (Black).
    pub black: String,
    /// When it was played, as the record writes it (`DT`), if it says.
    pub date: Option<String>,
    /// The atomic actions in order, each legal after those before it.
    pub actions: Vec<Action>,
    /// How the game ended beyond its actions: a resignation or an agreed draw.
    pub ending: Option<RecordEnd>,
}

/// An ending that is no action on the board, which a record writes after the moves.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RecordEnd {
    /// This side resigned.
    Resigned(Color),
    /// The players agreed to a draw.
    DrawAgreed,
}

impl RecordEnd {
    /// End `game` so: the side resigns, or the draw is agreed.
    pub fn apply(self, game: &mut Game) -> Result<(), IllegalAction> {
        match self {
            RecordEnd::Resigned(side) => game.resign(side),
            RecordEnd::DrawAgreed => game.agree_draw(),
        }
    }
}

impl Record {
    /// The position after all the actions (and the resignation or agreed draw).
    pub fn game(&self) -> Result<Game, IllegalAction> {
        let mut game = Game::new(self.variant);
        for &action in &self.actions {
            game.play(action)?;
        }
        if let Some(end) = self.ending {
            end.apply(&mut game)?;
        }
        Ok(game)
    }
}

/// Why a text is not a YINSH record we can read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SgfError {
    /// Not SGF at all.
    #[error("not an SGF record: at byte {offset}, expected {expected}")]
    Syntax {
        /// Byte offset of the problem.
        offset: usize,
        /// What should have been there.
        expected: &'static str,
    },
    /// An SGF record of another game.
    #[error("not a YINSH record: the game is `{found}` (SU)")]
    NotYinsh {
        /// The `SU` (or `GM`) value found.
        found: String,
    },
    /// An event this reader does not know.
    #[error("node {node}: cannot read the event `{text}`")]
    Event {
        /// The node's number, the first node being 1.
        node: usize,
        /// The event's text.
        text: String,
    },
    /// A ring picked up to be moved and never put down.
    #[error("node {node}: the ring on {from} is picked up but never put down")]
    RingInHand {
        /// The node's number, the first node being 1.
        node: usize,
        /// Where the ring stood.
        from: Point,
    },
    /// An event that does not fit the game at that point.
    #[error("node {node}: `{text}` is not legal here: {reason}")]
    Illegal {
        /// The node's number, the first node being 1.
        node: usize,
        /// The event's text.
        text: String,
        /// What the rules say.
        reason: IllegalAction,
    },
    /// An event by the side that is not to act.
    #[error("node {node}: `{text}` is made by {by}, but {expected} is to act")]
    WrongSide {
        /// The node's number, the first node being 1.
        node: usize,
        /// The event's text.
        text: String,
        /// The side that made it.
        by: Color,
        /// The side to act (none when the game is over).
        expected: String,
    },
}
