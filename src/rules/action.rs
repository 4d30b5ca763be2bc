//! `Action`: one atomic step of the game, one ply for perft (yinsh-rules.md §6):
//! place a ring, move a ring, remove one row, remove one ring, or pass.
//! `ActionList` holds the legal actions of a position without touching the heap.

use std::fmt;
use std::str::FromStr;

use super::point::{ParsePointError, Point};
use super::row::{ParseRowError, Row};

/// One atomic action.
///
/// Its text form is the one perft takes: `e5` (place), `e5-e8` (move), `xb2-b6`
/// (remove a row, ends in either order), `xe5` (remove a ring), `--` (pass).
///
/// ```
/// use yinsh_pbem::rules::Action;
/// let a: Action = "xB6-b2".parse().unwrap();
/// assert_eq!(a.to_string(), "xb2-b6");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Place a ring on an empty point (placement phase).
    Place(Point),
    /// Put a marker under the ring at `from` and move the ring to `to`.
    Move {
        /// Where the ring stands.
        from: Point,
        /// Where it lands.
        to: Point,
    },
    /// Remove the five markers of a row of one's own colour.
    RemoveRow(Row),
    /// Remove one of one's own rings, after removing a row.
    RemoveRing(Point),
    /// Pass: only when no ring move is possible.
    Pass,
}

/// The kind of an action, without its points: also what a position expects next.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ActionKind {
    /// A ring placement.
    Place,
    /// A ring move.
    Move,
    /// A row removal.
    RemoveRow,
    /// A ring removal.
    RemoveRing,
    /// A pass.
    Pass,
}

impl Action {
    /// What kind of action this is.
    pub const fn kind(self) -> ActionKind {
        match self {
            Action::Place(_) => ActionKind::Place,
            Action::Move { .. } => ActionKind::Move,
            Action::RemoveRow(_) => ActionKind::RemoveRow,
            Action::RemoveRing(_) => ActionKind::RemoveRing,
            Action::Pass => ActionKind::Pass,
        }
    }
}

impl fmt::Display for ActionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ActionKind::Place => "place a ring",
            ActionKind::Move => "move a ring",
            ActionKind::RemoveRow => "remove a row",
            ActionKind::RemoveRing => "remove a ring",
            ActionKind::Pass => "pass",
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(p) => write!(f, "{p}"),
            Action::Move { from, to } => write!(f, "{from}-{to}"),
            Action::RemoveRow(r) => write!(f, "x{r}"),
            Action::RemoveRing(p) => write!(f, "x{p}"),
            Action::Pass => f.write_str("--"),
        }
    }
}

/// Why a text is not an atomic action.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseActionError {
    /// A point in it is wrong.
    #[error(transparent)]
    Point(#[from] ParsePointError),
    /// A row in it is wrong.
    #[error(transparent)]
    Row(#[from] ParseRowError),
    /// Empty text.
    #[error("an empty action: write e5, e5-e8, xb2-b6, xe5 or --")]
    Empty,
}

impl FromStr for Action {
    type Err = ParseActionError;

    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(ParseActionError::Empty);
        }
        if s == "--" {
            return Ok(Action::Pass);
        }
        if let Some(rest) = s.strip_prefix(['x', 'X']) {
            return if rest.contains('-') {
                Ok(Action::RemoveRow(rest.parse()?))
            } else {
                Ok(Action::RemoveRing(rest.parse()?))
            };
        }
        match s.split_once('-') {
            Some((a, b)) => Ok(Action::Move {
                from: a.parse()?,
                to: b.parse()?,
            }),
            None => Ok(Action::Place(s.parse()?)),
        }
    }
}

/// The most actions a position can have: 85 placements, or at most 27 moves for each
/// of 5 rings, or at most 123 rows.
pub const MAX_ACTIONS: usize = 160;

/// A fixed-capacity list of actions, filled without heap allocation.
#[derive(Clone)]
pub struct ActionList {
    len: usize,
    items: [Action; MAX_ACTIONS],
}

impl ActionList {
    /// An empty list.
    pub const fn new() -> ActionList {
        ActionList {
            len: 0,
            items: [Action::Pass; MAX_ACTIONS],
        }
    }

    /// Empty the list and refill it: `fill` writes actions with the writer it is
    /// given, which keeps the length in a register.
    #[inline(always)]
    pub(crate) fn refill(&mut self, fill: impl FnOnce(&mut Writer<'_>)) {
        let mut w = Writer {
            items: &mut self.items,
            len: 0,
        };
        fill(&mut w);
        self.len = w.len;
    }

    /// The number of actions.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are none (the game is over).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The actions as a slice.
    pub fn as_slice(&self) -> &[Action] {
        &self.items[..self.len]
    }

    /// Iterate over the actions.
    pub fn iter(&self) -> std::slice::Iter<'_, Action> {
        self.as_slice().iter()
    }

    /// Whether the list holds `a`.
    pub fn contains(&self, a: &Action) -> bool {
        self.as_slice().contains(a)
    }
}

/// Appends actions to an `ActionList` being refilled.
pub(crate) struct Writer<'a> {
    items: &'a mut [Action; MAX_ACTIONS],
    len: usize,
}

impl Writer<'_> {
    /// Append one action.
    #[inline(always)]
    pub(crate) fn push(&mut self, a: Action) {
        self.items[self.len] = a;
        self.len += 1;
    }
}

impl Default for ActionList {
    fn default() -> Self {
        ActionList::new()
    }
}

impl fmt::Debug for ActionList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl std::ops::Deref for ActionList {
    type Target = [Action];
    fn deref(&self) -> &[Action] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a ActionList {
    type Item = &'a Action;
    type IntoIter = std::slice::Iter<'a, Action>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn actions_round_trip_through_text_section_6() {
        for s in ["e5", "e5-e8", "xb2-b6", "xe5", "--", "c2-g6"] {
            assert_eq!(s.parse::<Action>().unwrap().to_string(), s);
        }
        assert_eq!("xb6-b2".parse::<Action>().unwrap().to_string(), "xb2-b6");
        assert!(
            "xa2-a6".parse::<Action>().is_err(),
            "a6 is a corner, not a point"
        );
        assert_eq!("E5-E8".parse::<Action>().unwrap().to_string(), "e5-e8");
        for bad in ["", "a1", "xa2-a7", "e5-", "x", "-e5", "e5-e8-e9"] {
            assert!(bad.parse::<Action>().is_err(), "{bad}");
        }
    }

    #[test]
    fn examples_in_the_empty_action_message_are_real_actions() {
        // Regression: the message (and the docs) offered `xa2-a6`, but a6 is a corner
        // of the hexagon, not a point, so the example itself was refused.
        let text = ParseActionError::Empty.to_string();
        let examples = text.split_once("write ").unwrap().1;
        for ex in examples
            .split([',', ' '])
            .filter(|w| !w.is_empty() && *w != "or")
        {
            assert!(ex.parse::<Action>().is_ok(), "{ex}");
        }
    }
}
