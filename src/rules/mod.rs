//! The pure YINSH engine (yinsh-rules.md §1-§4, §6): points, rows, actions, the game's
//! phase machine and perft. No I/O, no text parsing beyond `FromStr` of single
//! points, rows and atomic actions, no clock.

mod action;
mod board;
mod direction;
mod game;
mod illegal;
mod outcome;
mod perft;
mod point;
mod ray;
mod row;
mod setup;

pub use action::{Action, ActionKind, ActionList, MAX_ACTIONS, ParseActionError};
pub use board::{Color, ParseColorError, Piece};
pub use direction::{Axis, Direction};
pub use game::{Game, MARKERS, RINGS, RingReach};
pub use illegal::IllegalAction;
pub use outcome::{EndReason, Ending, Outcome, Variant};
pub use perft::{perft, perft_divide};
pub use point::{ParsePointError, Point};
pub use row::{ParseRowError, Row};
pub use setup::{Setup, SetupError};
