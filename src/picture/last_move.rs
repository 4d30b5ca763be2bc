//! `LastMove`: what the last turn did, in the terms the picture marks: the ring placed,
//! the ring moved (start and end) with the markers it flipped, the rows and rings
//! removed, a pass. Built from the position before the turn and the turn's actions.

use crate::rules::{Action, Axis, Game, IllegalAction, Point, Row};

/// The marks of one turn (or any run of actions) on the board.
///
/// ```
/// use yinsh_pbem::picture::LastMove;
/// use yinsh_pbem::rules::{Action, Color, Setup, Variant};
/// let p = |s: &str| s.parse().unwrap();
/// let before = Setup::new(Variant::Normal)
///     .rings(Color::White, ["e5", "a2", "b1", "c1", "d1"].map(p))
///     .rings(Color::Black, ["k7", "k8", "k9", "k10", "j11"].map(p))
///     .markers(Color::Black, ["e6", "e7"].map(p))
///     .to_move(Color::White)
///     .build()
///     .unwrap();
/// let last = LastMove::from_turn(&before, &[Action::Move { from: p("e5"), to: p("e8") }]).unwrap();
/// assert_eq!(last.moved, Some((p("e5"), p("e8"))));
/// assert_eq!(last.flipped, vec![p("e6"), p("e7")]);
/// ```
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct LastMove {
    /// The point where a ring was placed.
    pub placed: Option<Point>,
    /// The ring moved: where it stood (a marker now) and where it landed.
    pub moved: Option<(Point, Point)>,
    /// The markers the ring move flipped.
    pub flipped: Vec<Point>,
    /// The rows removed (their points are empty now).
    pub removed_rows: Vec<Row>,
    /// The points whose ring was removed.
    pub removed_rings: Vec<Point>,
    /// Whether the turn was (or held) a pass.
    pub passed: bool,
}

impl LastMove {
    /// The marks of `actions` played in order from `before`; the error of the first
    /// action that is not legal there.
    pub fn from_turn(before: &Game, actions: &[Action]) -> Result<LastMove, IllegalAction> {
        let mut game = *before;
        let mut last = LastMove::default();
        for &action in actions {
            game.check(action)?;
            match action {
                Action::Place(p) => last.placed = Some(p),
                Action::Move { from, to } => {
                    last.moved = Some((from, to));
                    last.flipped = between(from, to)
                        .into_iter()
                        .filter(|&q| game.piece_at(q).is_some())
                        .collect();
                }
                Action::RemoveRow(row) => last.removed_rows.push(row),
                Action::RemoveRing(p) => last.removed_rings.push(p),
                Action::Pass => last.passed = true,
            }
            game.play(action)?;
        }
        Ok(last)
    }

    /// Whether there is nothing to mark.
    pub fn is_empty(&self) -> bool {
        *self == LastMove::default()
    }
}

/// The points strictly between `from` and `to` on their line (none if not on one).
fn between(from: Point, to: Point) -> Vec<Point> {
    let Some((direction, steps)) = Axis::between(from, to) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut at = from;
    for _ in 1..steps {
        match direction.step(at) {
            Some(q) => {
                out.push(q);
                at = q;
            }
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn a_whole_turn_is_marked_and_an_illegal_one_refused() {
        let mut game = Game::new(Variant::Normal);
        for s in ["e5", "f6", "a2", "k7", "b1", "k8", "c1", "k9", "d1", "k10"] {
            game.play(Action::Place(s.parse().unwrap())).unwrap();
        }
        let p = |s: &str| -> Point { s.parse().unwrap() };
        let last = LastMove::from_turn(
            &game,
            &[Action::Move {
                from: p("e5"),
                to: p("e8"),
            }],
        )
        .unwrap();
        assert_eq!(last.moved, Some((p("e5"), p("e8"))));
        assert!(last.flipped.is_empty() && !last.passed && !last.is_empty());
        let placing = LastMove::from_turn(&Game::new(Variant::Normal), &[Action::Place(p("e5"))]);
        assert_eq!(placing.unwrap().placed, Some(p("e5")));
        assert!(LastMove::from_turn(&game, &[Action::Place(p("e6"))]).is_err());
        assert!(LastMove::default().is_empty());
        assert_eq!(between(p("e5"), p("e8")), vec![p("e6"), p("e7")]);
        assert_eq!(between(p("e5"), p("f7")), Vec::<Point>::new());
    }
}
