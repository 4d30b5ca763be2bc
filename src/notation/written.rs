//! A turn as written (syntax only): its [`Part`]s and the optional `#N` turn number,
//! and how they print. What a written turn means against a game is `turn.rs`'s job;
//! the grammar that reads one is `grammar.rs`.

use std::fmt;

use crate::rules::Point;

/// One part of a written turn, as written (the meaning comes with [`WrittenTurn::resolve`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    /// Place a ring: `e5`.
    Place(Point),
    /// Move a ring: `i8-f5`.
    Move {
        /// Where the ring stands.
        from: Point,
        /// Where it lands.
        to: Point,
    },
    /// Remove a row and a ring: `xg5-g9xa5`, or `xa5` when the row goes without saying.
    Removal {
        /// The row's two end points as written (either order); `None` for the shorthand.
        row: Option<(Point, Point)>,
        /// The ring removed.
        ring: Point,
    },
    /// Pass: `--`.
    Pass,
}

impl fmt::Display for Part {
    /// Lower case; row ends in the order written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Part::Place(p) => write!(f, "{p}"),
            Part::Move { from, to } => write!(f, "{from}-{to}"),
            Part::Removal {
                row: Some((a, b)),
                ring,
            } => write!(f, "x{a}-{b}x{ring}"),
            Part::Removal { row: None, ring } => write!(f, "x{ring}"),
            Part::Pass => f.write_str("--"),
        }
    }
}

/// A whole turn as written: its parts and the optional `#N` turn number.
///
/// ```
/// use yinsh_pbem::notation::WrittenTurn;
/// let t: WrittenTurn = " XG5-G9xa5 : d3-b3 #14".parse().unwrap();
/// assert_eq!(t.parts.len(), 2);
/// assert_eq!(t.moveno, Some(14));
/// assert_eq!(t.to_string(), "xg5-g9xa5;d3-b3#14");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct WrittenTurn {
    /// The parts, in order.
    pub parts: Vec<Part>,
    /// The turn number written after `#`, if any.
    pub moveno: Option<u32>,
}

impl fmt::Display for WrittenTurn {
    /// Lower case, parts joined by `;`, then `#N` if a number was written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, part) in self.parts.iter().enumerate() {
            if k > 0 {
                f.write_str(";")?;
            }
            write!(f, "{part}")?;
        }
        if let Some(n) = self.moveno {
            write!(f, "#{n}")?;
        }
        Ok(())
    }
}
