//! Commands as players write them in a Subject line (pbmserv-reference.md §2): what a
//! command says ([`Command`], `types.rs`), why a line is not one ([`CommandError`],
//! `error.rs`), the word splitter (`words.rs`, nom: words split on spaces and tabs),
//! one parser per command (`parsers.rs`) and the one table from command word to
//! parser and syntax line (`table.rs`, [`Command::parse`], [`usage`]), and the caps on
//! what one command may list ([`bounds`]). Command words
//! are case-insensitive. A command that does not fit its syntax is refused with the
//! syntax players know (`Syntax is "yinsh move <board> <userid> <password> <move>"`)
//! and what was wrong. Which words of a line are passwords, to be hidden in logs and
//! quotes, is decided from the same table (`secret.rs`, [`masking`]); the fields a reply may
//! echo (a userid to list, a move, a word that does not fit, the line suggested) carry
//! it ([`Said`], `said.rs`): masked unless they name an account. A misspelt
//! command word, or a yinsh command without `yinsh`, is answered with the line as it
//! was meant (`spelling.rs`, [`nearest`]).

pub mod bounds;
mod error;
mod marks;
mod parsers;
pub mod redact;
mod said;
mod secret;
mod seek;
mod seek_command;
mod spelling;
mod table;
pub mod tournament;
mod types;
mod words;

#[cfg(test)]
mod tests;

pub use error::{CommandError, Problem};
pub use said::{Echo, Said, SaidLine};
pub use secret::{Masking, could_show, masking, unshowable};
pub use seek_command::SeekCommand;
pub use spelling::nearest;
pub use table::{command_list, syntax_lines, usage};
pub use types::{
    BoardAction, BoardRef, Command, Credentials, GameFilter, MailChoice, OfferAction, OwnTurnMail,
    SettingChoice, SubjectStyle, TournamentAction, TournamentRules, UnknownFilter,
    UnknownMailChoice,
};
