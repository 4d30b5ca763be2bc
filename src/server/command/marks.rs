//! Marking, when a line is parsed, the fields of its [`Command`] (or of the
//! [`CommandError`] it gets) read from words its masking hides, and showing those
//! that name an account again ([`Command::reveal`], called by `inbound`): the one
//! visit of every field a reply may echo.

use super::error::{CommandError, Problem};
use super::said::{Said, SaidLine};
use super::types::{BoardAction, Command};
use crate::server::model::UserId;

/// One field of a command or of its error read from the line's words.
enum SaidMut<'a> {
    Userid(&'a mut Said<UserId>),
    Text(&'a mut Said<String>),
    Line(&'a mut SaidLine),
}

impl SaidMut<'_> {
    fn mark(self, secrets: &[&str]) {
        match self {
            SaidMut::Userid(s) => s.mark(secrets),
            SaidMut::Text(s) => s.mark(secrets),
            SaidMut::Line(s) => s.mark(secrets),
        }
    }

    fn reveal<E>(self, named: &mut dyn FnMut(&str) -> Result<bool, E>) -> Result<(), E> {
        match self {
            SaidMut::Userid(s) => s.reveal(named),
            SaidMut::Text(s) => s.reveal(named),
            SaidMut::Line(s) => s.reveal(named),
        }
    }
}

impl Command {
    /// The fields read from words a reply may echo: the userids to list, challenge or
    /// write to, and the moves.
    fn said_mut(&mut self) -> Vec<SaidMut<'_>> {
        match self {
            Command::Challenge { white, black, .. } => {
                vec![SaidMut::Userid(white), SaidMut::Userid(black)]
            }
            Command::ShowPlayers { userids, .. }
            | Command::Games { userids, .. }
            | Command::Message { to: userids, .. } => {
                userids.iter_mut().map(SaidMut::Userid).collect()
            }
            Command::History { player, .. } => player.iter_mut().map(SaidMut::Userid).collect(),
            Command::Preview { moves, .. } => moves.iter_mut().map(SaidMut::Text).collect(),
            Command::Board {
                action:
                    BoardAction::Move { text, .. }
                    | BoardAction::Queue { text, .. }
                    | BoardAction::Submit { text, .. },
                ..
            } => vec![SaidMut::Text(text)],
            _ => Vec::new(),
        }
    }

    /// Masks the fields read from a word among `secrets`
    /// ([`unshowable`](super::secret::unshowable) of its line).
    pub(super) fn mark(&mut self, secrets: &[&str]) {
        self.said_mut().into_iter().for_each(|s| s.mark(secrets));
    }

    /// Shows the masked fields whose word `named` says is an account's userid: what
    /// `inbound` does, with the store, before the command is carried out.
    pub fn reveal<E>(&mut self, named: &mut dyn FnMut(&str) -> Result<bool, E>) -> Result<(), E> {
        self.said_mut()
            .into_iter()
            .try_for_each(|s| s.reveal(named))
    }
}

impl CommandError {
    /// The fields read from words of the line (a word that is no userid or board,
    /// the line suggested).
    fn said_mut(&mut self) -> Vec<SaidMut<'_>> {
        match self {
            CommandError::DidYouMean { meant, .. } | CommandError::WithoutYinsh { meant, .. } => {
                vec![SaidMut::Line(meant)]
            }
            CommandError::Syntax { problem, .. } => match problem {
                Problem::Userid { text, .. } | Problem::Board(text) => vec![SaidMut::Text(text)],
                Problem::NoPassword { meant } => vec![SaidMut::Line(meant)],
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// Masks the fields read from a word among `secrets`.
    pub(super) fn mark(&mut self, secrets: &[&str]) {
        self.said_mut().into_iter().for_each(|s| s.mark(secrets));
    }

    /// Shows the masked fields whose word `named` says is an account's userid.
    pub fn reveal<E>(&mut self, named: &mut dyn FnMut(&str) -> Result<bool, E>) -> Result<(), E> {
        self.said_mut()
            .into_iter()
            .try_for_each(|s| s.reveal(named))
    }
}
