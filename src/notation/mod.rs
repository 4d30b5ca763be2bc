//! Text in and text out: the pbmserv move notation (yinsh-rules.md §5) parsed with nom
//! and resolved against a `Game`, the canonical printer, the ASCII board, and game
//! records in Boardspace's SGF.
//! Depends on `rules` only.
//!
//! ```
//! use yinsh_pbem::notation::{parse_turn, write_turn};
//! use yinsh_pbem::rules::{Game, Variant};
//! let game = Game::new(Variant::Normal);
//! let actions = parse_turn("E5").unwrap().resolve(&game).unwrap();
//! assert_eq!(write_turn(&actions), "e5");
//! ```

mod error;
mod grammar;
mod mend;
pub mod render;
pub mod sgf;
mod transcript;
mod turn;
mod written;

pub use error::{Expected, NotationError, ParseError, ParseErrorKind, PartAt, TurnError};
pub use mend::mend;
pub use transcript::{
    FinalPass, Played, TranscriptError, TranscriptErrorKind, play_transcript, read_transcript,
    split_turns, transcript_header, write_transcript,
};
pub use turn::{auto_pass_due, parse_turn, play_turn, turn_over, write_turn};
pub use written::{Part, WrittenTurn};
