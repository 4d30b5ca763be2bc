//! `Row`: five adjacent points on one line (yinsh-rules.md §1, §3). A row is stored
//! by its canonical first point (lower letter first, then lower number) and its axis,
//! so two spellings of the same row are the same value. There are 123 of them.

use std::fmt;
use std::str::FromStr;

use super::direction::{Axis, Direction};
use super::point::{ParsePointError, Point};

/// Five adjacent collinear points: one possible five-in-a-row window.
///
/// ```
/// use yinsh_pbem::rules::Row;
/// let row: Row = "g6-c2".parse().unwrap();
/// assert_eq!(row.to_string(), "c2-g6");
/// assert_eq!(Row::ALL.len(), 123);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Row {
    start: Point,
    axis: Axis,
}

const fn build_rows() -> [Row; 123] {
    let mut rows = [Row {
        start: Point::ALL[0],
        axis: Axis::Column,
    }; 123];
    let mut k = 0;
    let mut a = 0;
    while a < 3 {
        let axis = match a {
            0 => Axis::Column,
            1 => Axis::Number,
            _ => Axis::Diagonal,
        };
        let (dl, dn) = axis.step();
        let mut i = 0;
        while i < 85 {
            let p = Point::ALL[i];
            let c = p.column() as i32;
            let n = p.number() as i32;
            if Point::from_coords(c + 4 * dl as i32, n + 4 * dn as i32).is_some() {
                rows[k] = Row { start: p, axis };
                k += 1;
            }
            i += 1;
        }
        a += 1;
    }
    assert!(k == 123);
    rows
}

impl Row {
    /// All 123 windows, by axis (column, number, diagonal), then by first point.
    pub const ALL: [Row; 123] = build_rows();

    /// The row with these two end points, given in either order, if they are four
    /// steps apart on one line.
    pub fn from_ends(a: Point, b: Point) -> Option<Row> {
        let (start, end) = if a <= b { (a, b) } else { (b, a) };
        match Axis::between(start, end) {
            Some((dir, 4)) => Some(Row {
                start,
                axis: dir.axis,
            }),
            _ => None,
        }
    }

    /// The row made of exactly these five points (any order), if they are adjacent
    /// and collinear.
    pub fn from_points(points: [Point; 5]) -> Option<Row> {
        let mut sorted = points;
        sorted.sort();
        let row = Row::from_ends(sorted[0], sorted[4])?;
        (row.points() == sorted).then_some(row)
    }

    /// The row that starts at `start` (its canonical first point) along `axis`.
    pub fn starting_at(start: Point, axis: Axis) -> Option<Row> {
        let dir = Direction::forward(axis);
        let mut end = start;
        for _ in 0..4 {
            end = dir.step(end)?;
        }
        Some(Row { start, axis })
    }

    /// The row at `start` along `axis`, known to fit on the board (a bit of
    /// `row_starts`).
    #[inline]
    pub(crate) fn fitting(start: Point, axis: Axis) -> Row {
        debug_assert!(Row::starting_at(start, axis).is_some());
        Row { start, axis }
    }

    /// The canonical first end point.
    pub const fn start(self) -> Point {
        self.start
    }

    /// The other end point.
    pub fn end(self) -> Point {
        self.points()[4]
    }

    /// The axis it lies on.
    pub const fn axis(self) -> Axis {
        self.axis
    }

    /// Its five points, from the first end to the last.
    pub fn points(self) -> [Point; 5] {
        let s = self.start.bit_index();
        let d = self.axis.shift() as u8;
        [0u8, 1, 2, 3, 4].map(|k| Point::from_bit_index(s + k * d))
    }

    /// Its five points as a mask.
    #[inline]
    pub(crate) const fn mask(self) -> u128 {
        let s = self.axis.shift();
        let one = 1u128 | 1u128 << s | 1u128 << (2 * s) | 1u128 << (3 * s) | 1u128 << (4 * s);
        one << self.start.bit_index()
    }

    /// Whether this row contains the point.
    pub fn contains(self, p: Point) -> bool {
        self.mask() & p.bit() != 0
    }
}

impl fmt::Display for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.start, self.end())
    }
}

impl fmt::Debug for Row {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseRowError {
    /// Not two points joined by `-`.
    #[error("`{0}` is not a row: write its two end points, like c2-g6")]
    Malformed(String),
    /// An end is not a point.
    #[error(transparent)]
    Point(#[from] ParsePointError),
    /// Two points that are not the ends of five in a line.
    #[error("{0}-{1} is not five points in a line")]
    NotFiveInLine(Point, Point),
}

impl FromStr for Row {
    type Err = ParseRowError;

    fn from_str(s: &str) -> Result<Row, ParseRowError> {
        let (a, b) = s
            .split_once('-')
            .ok_or_else(|| ParseRowError::Malformed(s.to_string()))?;
        let (a, b): (Point, Point) = (a.parse()?, b.parse()?);
        Row::from_ends(a, b).ok_or(ParseRowError::NotFiveInLine(a, b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_123_windows_41_per_axis_section_1() {
        for axis in Axis::ALL {
            assert_eq!(Row::ALL.iter().filter(|r| r.axis() == axis).count(), 41);
        }
        let mut seen = std::collections::HashSet::new();
        for r in Row::ALL {
            assert!(seen.insert(r.mask()));
            assert_eq!(r.mask().count_ones(), 5);
        }
    }

    #[test]
    fn every_row_round_trips_through_text_in_either_order_section_5() {
        for r in Row::ALL {
            assert_eq!(r.to_string().parse::<Row>(), Ok(r));
            let reversed = format!("{}-{}", r.end(), r.start()).to_uppercase();
            assert_eq!(reversed.parse::<Row>(), Ok(r));
            assert_eq!(Row::from_points(r.points()), Some(r));
            assert_eq!(Row::starting_at(r.start(), r.axis()), Some(r));
        }
    }

    #[test]
    fn canonical_order_is_lower_letter_then_lower_number_section_5() {
        assert_eq!("f7-f3".parse::<Row>().unwrap().to_string(), "f3-f7");
        assert_eq!("g6-c2".parse::<Row>().unwrap().to_string(), "c2-g6");
        assert_eq!("g5-c5".parse::<Row>().unwrap().to_string(), "c5-g5");
        assert!("c2-g2".parse::<Row>().is_ok());
        assert!("c6-g2".parse::<Row>().is_err(), "(1,-1) is not a line");
        assert!("c2-c7".parse::<Row>().is_err(), "six points");
        assert!("e5".parse::<Row>().is_err());
    }
}
