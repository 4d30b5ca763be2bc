//! Why an atomic action was refused: a closed set of reasons, each with the points
//! and kinds it concerns, that the notation layer turns into teaching errors.

use super::action::ActionKind;
use super::point::Point;
use super::row::Row;

/// Why an action was refused. The game is unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum IllegalAction {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The action is of a kind the game does not expect now.
    #[error("it is time to {expected}, not to {found}")]
    WrongPhase {
        /// What the position expects.
        expected: ActionKind,
        /// What was given.
        found: ActionKind,
    },
    /// A removal is owed before anything else.
    #[error("a removal is owed first: it is time to {expected}")]
    RemovalOwed {
        /// The removal expected.
        expected: ActionKind,
    },
    /// Placing a ring on an occupied point.
    #[error("{0} is occupied")]
    Occupied(Point),
    /// Moving or removing a ring that is not the mover's.
    #[error("there is no ring of yours at {0}")]
    NotYourRing(Point),
    /// The two points are not on one line (or are the same point).
    #[error("{from}-{to} is not a straight line")]
    NotInLine {
        /// Start.
        from: Point,
        /// End.
        to: Point,
    },
    /// A ring stands between the two points.
    #[error("{from}-{to} would jump the ring at {at}")]
    JumpsRing {
        /// Start.
        from: Point,
        /// End.
        to: Point,
        /// The ring in the way.
        at: Point,
    },
    /// The landing point holds a ring.
    #[error("{0} holds a ring: a ring cannot land on a ring")]
    OntoRing(Point),
    /// The landing point holds a marker.
    #[error("{0} holds a marker: a ring must land on an empty point")]
    OntoMarker(Point),
    /// The move goes on past the first empty point after a group of markers.
    #[error("after {} the ring must stop at {stop}", jumped_markers(*.first, *.last))]
    PastMarkers {
        /// First jumped marker.
        first: Point,
        /// Last jumped marker.
        last: Point,
        /// The only point where the ring may stop.
        stop: Point,
    },
    /// The row is not five markers of the mover's colour.
    #[error("{0} is not a row of yours")]
    NotYourRow(Row),
    /// Passing while a ring move exists.
    #[error("you cannot pass: you have a ring move")]
    CannotPass,
    /// No ring move exists; the only action is a pass.
    #[error("you have no legal ring move and must pass")]
    MustPass,
}

/// "the marker at e5" or "the markers at f6-g7", for `IllegalAction::PastMarkers`.
fn jumped_markers(first: Point, last: Point) -> String {
    if first == last {
        format!("the marker at {first}")
    } else {
        format!("the markers at {first}-{last}")
    }
}
