//! Words of a command line carried with whether they may be shown: [`Said`] (one
//! field of a command or of its error: a userid to list, a move, a word that does not
//! fit) and [`SaidLine`] (a line suggested back, `Did you mean: ...`). When a line is
//! parsed, the words its masking hides ([`secret::unshowable`](super::secret)) are
//! marked; their `Display` is the mask until `inbound` finds an account named by the
//! word ([`Said::reveal`]): userids of accounts are public, any other hidden word may
//! be a password written out of its place. No reply is searched for them afterwards.
//! A refusal keeps a move as [`Echo`]: as written, or only the fact it is masked.

use std::fmt;

/// The mask shown in place of a password.
pub const MASK: &str = "********";

/// A value read from a word (or the words) of a command line, and whether it is
/// shown: its `Display` is the mask when the line's masking hides the word and no
/// account has it as its userid. [`Said::as_written`] is the value itself, for
/// lookups and for what is stored, never for a text a player reads.
///
/// ```
/// use yinsh_pbem::server::command::Said;
/// let mut w = Said::from("alice".to_string());
/// assert_eq!(w.to_string(), "alice");
/// w.hide();
/// assert_eq!(w.to_string(), "********");
/// w.reveal(&mut |word: &str| Ok::<bool, ()>(word == "alice")).unwrap();
/// assert_eq!(w.to_string(), "alice");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Said<T> {
    value: T,
    masked: bool,
}

impl<T> From<T> for Said<T> {
    /// A value shown as written (no masking hides it).
    fn from(value: T) -> Said<T> {
        Said {
            value,
            masked: false,
        }
    }
}

impl<T: AsRef<str>> Said<T> {
    /// The value as the player wrote it: for looking it up or storing it, not for a
    /// text a player reads (that is its `Display`).
    pub fn as_written(&self) -> &T {
        &self.value
    }

    /// The value, for what is stored or looked up.
    pub fn into_written(self) -> T {
        self.value
    }

    /// Whether its `Display` is the mask.
    pub fn is_masked(&self) -> bool {
        self.masked
    }

    /// Masks it: its word is one the line's masking hides.
    pub fn hide(&mut self) {
        self.masked = true;
    }

    /// Masks it when one of its words is among `secrets` (the words of its line
    /// [`unshowable`](super::unshowable) names).
    pub fn mark(&mut self, secrets: &[&str]) {
        if self
            .value
            .as_ref()
            .split_whitespace()
            .any(|w| secrets.contains(&w))
        {
            self.masked = true;
        }
    }

    /// Shows it when it is masked and `named` says an account has it as its userid.
    pub fn reveal<E>(&mut self, named: &mut dyn FnMut(&str) -> Result<bool, E>) -> Result<(), E> {
        if self.masked && named(self.value.as_ref())? {
            self.masked = false;
        }
        Ok(())
    }
}

impl<T: fmt::Display> fmt::Display for Said<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.masked {
            f.write_str(MASK)
        } else {
            self.value.fmt(f)
        }
    }
}

/// A command line suggested back to its sender (`Did you mean: ...`), word by word:
/// shown with single spaces, each word the masking hides as the mask unless it names
/// an account.
///
/// ```
/// use yinsh_pbem::server::command::SaidLine;
/// let line = SaidLine::from("yinsh move 101 alice ** e5");
/// assert_eq!(line.to_string(), "yinsh move 101 alice ** e5");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SaidLine(Vec<Said<String>>);

impl From<&str> for SaidLine {
    /// The words of `line`, each shown as written.
    fn from(line: &str) -> SaidLine {
        SaidLine(
            line.split_whitespace()
                .map(|w| Said::from(w.to_string()))
                .collect(),
        )
    }
}

impl SaidLine {
    /// Its words, each masked when it is among `secrets`.
    pub(super) fn mark(&mut self, secrets: &[&str]) {
        for w in &mut self.0 {
            w.mark(secrets);
        }
    }

    /// Its words, each shown as written: to be compared, never to be mailed.
    pub fn as_written(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|w| w.as_written().as_str())
    }

    /// Its masked words shown when `named` says they are an account's userid.
    pub fn reveal<E>(&mut self, named: &mut dyn FnMut(&str) -> Result<bool, E>) -> Result<(), E> {
        self.0.iter_mut().try_for_each(|w| w.reveal(named))
    }
}

impl fmt::Display for SaidLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, w) in self.0.iter().enumerate() {
            if k > 0 {
                f.write_str(" ")?;
            }
            w.fmt(f)?;
        }
        Ok(())
    }
}

/// A value of a command line as a refusal echoes it: as written, or masked (then the
/// value is not kept at all).
///
/// ```
/// use yinsh_pbem::server::command::{Echo, Said};
/// let mut said = Said::from("s3cret".to_string());
/// said.hide();
/// assert_eq!(Echo::from(&said).to_string(), "********");
/// assert_eq!(Echo::from("e5".to_string()).to_string(), "e5");
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Echo {
    /// Shown as written.
    AsWritten(String),
    /// Shown as the mask.
    Masked,
}

impl Echo {
    /// Whether it is shown as the mask.
    pub fn is_masked(&self) -> bool {
        matches!(self, Echo::Masked)
    }
}

impl From<String> for Echo {
    /// A value shown as written.
    fn from(text: String) -> Echo {
        Echo::AsWritten(text)
    }
}

impl<T: AsRef<str>> From<&Said<T>> for Echo {
    fn from(said: &Said<T>) -> Echo {
        if said.is_masked() {
            Echo::Masked
        } else {
            Echo::AsWritten(said.as_written().as_ref().to_string())
        }
    }
}

impl fmt::Display for Echo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Echo::AsWritten(text) => f.write_str(text),
            Echo::Masked => f.write_str(MASK),
        }
    }
}
