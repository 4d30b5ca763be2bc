//! Sides and pieces, and the bit tricks on whole boards: finding every five-in-a-row
//! of one colour with a few shifts (yinsh-rules.md §3, rule 3).

use std::fmt;
use std::str::FromStr;

use super::direction::Axis;
use super::point::{Point, Points};
use super::row::Row;

/// A side. White moves first (yinsh-rules.md §2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Color {
    /// The first player (userid1 of a challenge): rings `(o)`, markers `o`.
    White,
    /// The second player: rings `(x)`, markers `x`.
    Black,
}

impl Color {
    /// Both sides, White first.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// The other side.
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Lower-case name: `white` or `black`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "White",
            Color::Black => "Black",
        })
    }
}

/// The text is neither `white` nor `black`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a side: write white or black")]
pub struct ParseColorError(pub String);

impl FromStr for Color {
    type Err = ParseColorError;
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParseColorError(s.to_string())),
        }
    }
}

/// What stands on a point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// A ring of that side.
    Ring(Color),
    /// A marker showing that side's colour.
    Marker(Color),
}

/// The first points of every row of the markers in `m` along `axis`: bit p is set when
/// p and the four points after it on that axis are all in `m`.
#[inline]
pub(crate) const fn row_starts(m: u128, axis: Axis) -> u128 {
    let s = axis.shift();
    let two = m & (m >> s);
    let four = two & (two >> (2 * s));
    four & (m >> (4 * s))
}

/// Does `m` hold at least one row?
#[inline]
pub(crate) const fn has_row(m: u128) -> bool {
    row_starts(m, Axis::Column) | row_starts(m, Axis::Number) | row_starts(m, Axis::Diagonal) != 0
}

/// Every row in `m`, by axis then first point.
pub(crate) fn rows_in(m: u128) -> impl Iterator<Item = Row> {
    Axis::ALL
        .into_iter()
        .flat_map(move |axis| Points(row_starts(m, axis)).map(move |p| Row::fitting(p, axis)))
}

/// The number of rows in `m`.
#[inline]
pub(crate) const fn count_rows(m: u128) -> u32 {
    row_starts(m, Axis::Column).count_ones()
        + row_starts(m, Axis::Number).count_ones()
        + row_starts(m, Axis::Diagonal).count_ones()
}

/// Points in `m`, as `Point`s.
pub(crate) fn points_of(m: u128) -> impl Iterator<Item = Point> {
    Points(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn row_starts_find_exactly_the_windows_section_3() {
        for r in Row::ALL {
            let found: Vec<Row> = rows_in(r.mask()).collect();
            assert_eq!(found, vec![r]);
            // Four of the five points make no row.
            for p in r.points() {
                assert!(!has_row(r.mask() & !p.bit()));
            }
        }
    }
}
