//! `Setup`: the validated way to build a position other than the empty board, for
//! tests, puzzles and tools. It checks everything a real game could never contain
//! and computes what the side to move owes (yinsh-rules.md §3-§4).

use super::board::{Color, has_row};
use super::game::{Game, MARKERS, RINGS};
use super::outcome::Variant;
use super::point::Point;

/// A position under construction.
///
/// ```
/// use yinsh_pbem::rules::{Color, Setup, Variant};
/// let p = |s: &str| s.parse().unwrap();
/// let game = Setup::new(Variant::Normal)
///     .rings(Color::White, ["a2", "b2", "c2", "d2", "e2"].map(p))
///     .rings(Color::Black, ["a5", "b7", "c8", "d9", "e10"].map(p))
///     .marker(Color::White, p("f6"))
///     .to_move(Color::Black)
///     .build()
///     .unwrap();
/// assert_eq!(game.markers_in_pool(), 50);
/// ```
#[derive(Clone, Debug)]
pub struct Setup {
    variant: Variant,
    pieces: Vec<(Point, bool, Color)>,
    removed: [u8; 2],
    to_move: Color,
}

/// Why a setup is not a position that play could reach.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// Two pieces on one point.
    #[error("{0} holds two pieces")]
    PointTwice(Point),
    /// More than 5 rings of a side, on the board and removed together.
    #[error("{0} has more than 5 rings")]
    TooManyRings(Color),
    /// More than 51 markers.
    #[error("more than 51 markers")]
    TooManyMarkers,
    /// Markers or removals before all rings are placed.
    #[error("markers or removed rings before all 10 rings are placed")]
    PlacementUnfinished,
    /// During placement the side to move does not match the ring counts.
    #[error("during placement White places first: the counts say {0} is to place")]
    WrongSideToPlace(Color),
    /// During placement the ring counts are not those of alternate placement, White
    /// first (White has as many rings as Black, or one more).
    #[error(
        "during placement the sides alternate, White first: {white} White and {black} Black rings cannot happen"
    )]
    UnevenPlacement {
        /// White's rings on the board.
        white: u8,
        /// Black's rings on the board.
        black: u8,
    },
    /// A side has already won.
    #[error("{0} has already removed enough rings to win")]
    AlreadyWon(Color),
    /// The side not to move has a row it should already have removed.
    #[error("{0} is not to move but has a row it should have removed")]
    RowLeftBehind(Color),
}

impl Setup {
    /// An empty board, White to move.
    pub fn new(variant: Variant) -> Setup {
        Setup {
            variant,
            pieces: Vec::new(),
            removed: [0; 2],
            to_move: Color::White,
        }
    }

    /// Put a ring of `color` on `p`.
    pub fn ring(mut self, color: Color, p: Point) -> Setup {
        self.pieces.push((p, true, color));
        self
    }

    /// Put rings of `color` on every point given.
    pub fn rings(self, color: Color, ps: impl IntoIterator<Item = Point>) -> Setup {
        ps.into_iter().fold(self, |s, p| s.ring(color, p))
    }

    /// Put a marker showing `color` on `p`.
    pub fn marker(mut self, color: Color, p: Point) -> Setup {
        self.pieces.push((p, false, color));
        self
    }

    /// Put markers showing `color` on every point given.
    pub fn markers(self, color: Color, ps: impl IntoIterator<Item = Point>) -> Setup {
        ps.into_iter().fold(self, |s, p| s.marker(color, p))
    }

    /// Record that `color` has already removed `n` rings.
    pub fn removed(mut self, color: Color, n: u8) -> Setup {
        self.removed[color.index()] = n;
        self
    }

    /// The side whose turn starts (default White).
    pub fn to_move(mut self, color: Color) -> Setup {
        self.to_move = color;
        self
    }

    /// Check the position and build the game. If the side to move has rows (made for
    /// it by the opponent's last move) it owes their removal first.
    pub fn build(&self) -> Result<Game, SetupError> {
        let mut rings = [0u128; 2];
        let mut markers = [0u128; 2];
        for &(p, is_ring, c) in &self.pieces {
            if (rings[0] | rings[1] | markers[0] | markers[1]) & p.bit() != 0 {
                return Err(SetupError::PointTwice(p));
            }
            let set = if is_ring { &mut rings } else { &mut markers };
            set[c.index()] |= p.bit();
        }
        for c in Color::BOTH {
            let i = c.index();
            if rings[i].count_ones() as u8 + self.removed[i] > RINGS {
                return Err(SetupError::TooManyRings(c));
            }
            if self.removed[i] >= self.variant.rings_to_win() {
                return Err(SetupError::AlreadyWon(c));
            }
        }
        if (markers[0] | markers[1]).count_ones() > MARKERS as u32 {
            return Err(SetupError::TooManyMarkers);
        }
        let placed: u32 = (0..2)
            .map(|i| rings[i].count_ones() + self.removed[i] as u32)
            .sum();
        if placed < 2 * RINGS as u32 {
            if markers[0] | markers[1] != 0 || self.removed != [0, 0] {
                return Err(SetupError::PlacementUnfinished);
            }
            let (w, b) = (rings[0].count_ones(), rings[1].count_ones());
            if w < b || w > b + 1 {
                return Err(SetupError::UnevenPlacement {
                    white: w as u8,
                    black: b as u8,
                });
            }
            let side = if w == b { Color::White } else { Color::Black };
            if side != self.to_move {
                return Err(SetupError::WrongSideToPlace(side));
            }
        }
        let other = self.to_move.other();
        if has_row(markers[other.index()]) {
            return Err(SetupError::RowLeftBehind(other));
        }
        Ok(Game::from_parts(
            self.variant,
            rings,
            markers,
            self.removed,
            self.to_move,
        ))
    }
}
