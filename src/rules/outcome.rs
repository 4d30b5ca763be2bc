//! How a game is played and how it ends: the [`Variant`] (normal or blitz), the
//! [`Outcome`] (who won, or a draw), the [`EndReason`] and the [`Ending`] that pairs
//! them (yinsh-rules.md §4).

use super::board::Color;

/// The two ways to play (yinsh-rules.md §4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Variant {
    /// The first to remove three rings wins.
    #[default]
    Normal,
    /// The first to remove one ring wins.
    Blitz,
}

impl Variant {
    /// Rings a side must remove to win.
    pub const fn rings_to_win(self) -> u8 {
        match self {
            Variant::Normal => 3,
            Variant::Blitz => 1,
        }
    }
}

/// How a finished game came out.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// That side won.
    Win(Color),
    /// Equal counts at the end.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win(c) => Some(c),
            Outcome::Draw => None,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum EndReason {
    /// A side removed its winning ring (3rd, or 1st in blitz).
    RingsRemoved,
    /// The side to move had to take a marker from an empty pool; scored by count.
    MarkersExhausted,
    /// Neither side had a legal ring move; scored by count.
    BothBlocked,
    /// A side resigned.
    Resignation,
    /// The players agreed to a draw.
    Agreement,
}

/// A finished game's result and its cause.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Ending {
    /// Who won, or a draw.
    pub outcome: Outcome,
    /// Why it ended.
    pub reason: EndReason,
}
