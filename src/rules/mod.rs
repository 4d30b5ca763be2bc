//! The pure YINSH engine (yinsh-rules.md §1-§4, §6): points, rows, actions, the game's
//! phase machine and perft, and the questions the robot's evaluation asks the board
//! (`questions.rs`: row threats, what the ring moves could do), answered over the
//! engine's own bits. Also the crate's one seedable generator (`rng.rs`), which the
//! robot re-exports as `ai::Rng` and the rules' own tests draw from. No I/O, no text
//! parsing beyond `FromStr` of single points, rows and atomic actions, no clock.

mod action;
mod board;
mod direction;
mod game;
mod illegal;
mod outcome;
mod perft;
mod point;
mod questions;
mod ray;
pub(crate) mod rng;
mod row;
mod setup;

pub use action::{Action, ActionKind, ActionList, MAX_ACTIONS, ParseActionError};
pub use board::{Color, ParseColorError, Piece};
pub use direction::{Axis, Direction};
pub use game::{Game, MARKERS, RINGS};
pub use illegal::IllegalAction;
pub use outcome::{EndReason, Ending, Outcome, Variant};
pub use perft::{perft, perft_divide};
pub use point::{ParsePointError, Point};
pub use questions::{RingReach, Threats};
pub use row::{ParseRowError, Row};
pub use setup::{Setup, SetupError};
