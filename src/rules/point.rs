//! `Point`: one of the 85 intersections of the YINSH board (yinsh-rules.md §1), and
//! the bit layout the bitboards use. A `Point` can only be built for a real
//! intersection; the six hexagon corners a1, a6, f1, f11, k6 and k11 are not points.

use std::fmt;
use std::str::FromStr;

/// Number of columns (`a`..`k`) and of numbers (`1`..`11`) on the grid that holds the board.
pub(crate) const SIDE: u8 = 11;

/// One of the 85 intersections.
///
/// Internally the point at column index `i` (a = 0) and number `n` is bit
/// `i * 11 + (n - 1)` of a `u128`; the hexagon's shape guarantees that stepping off one
/// grid column onto the next never lands on a real point, so boards need no padding.
///
/// ```
/// use yinsh_pbem::rules::Point;
/// let p: Point = "E5".parse().unwrap();
/// assert_eq!(p.to_string(), "e5");
/// assert!(Point::new('a', 1).is_none());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point(u8);

/// Is (column index `i`, number `n`) one of the 85 intersections? (yinsh-rules.md §1)
const fn on_board(i: i32, n: i32) -> bool {
    if i < 0 || i > 10 || n < 1 || n > 11 {
        return false;
    }
    let dx = i - 5;
    let dy = n - 6;
    let d = dx - dy;
    let r = {
        let a = if dx < 0 { -dx } else { dx };
        let b = if dy < 0 { -dy } else { dy };
        let c = if d < 0 { -d } else { d };
        let m = if a > b { a } else { b };
        if m > c { m } else { c }
    };
    if r > 5 {
        return false;
    }
    // The six corners of the hexagon are not intersections.
    !((i == 0 && (n == 1 || n == 6))
        || (i == 5 && (n == 1 || n == 11))
        || (i == 10 && (n == 6 || n == 11)))
}

const fn build_all() -> [Point; 85] {
    let mut all = [Point(0); 85];
    let mut k = 0;
    let mut i = 0;
    while i < 11 {
        let mut n = 1;
        while n <= 11 {
            if on_board(i, n) {
                all[k] = Point((i * 11 + n - 1) as u8);
                k += 1;
            }
            n += 1;
        }
        i += 1;
    }
    assert!(k == 85);
    all
}

const fn build_mask() -> u128 {
    let mut m = 0u128;
    let mut k = 0;
    while k < 85 {
        m |= 1u128 << ALL_POINTS[k].0;
        k += 1;
    }
    m
}

const ALL_POINTS: [Point; 85] = build_all();

/// The bits of the 85 real points.
pub(crate) const VALID: u128 = build_mask();

impl Point {
    /// All 85 points, column by column (a2, a3, ..., k10).
    pub const ALL: [Point; 85] = ALL_POINTS;

    /// The point at `letter` (`a`..`k`, either case) and `number` (1..11), if it is an
    /// intersection.
    pub fn new(letter: char, number: u8) -> Option<Point> {
        let l = letter.to_ascii_lowercase();
        if !l.is_ascii_lowercase() {
            return None;
        }
        Point::from_coords(l as i32 - 'a' as i32, number as i32)
    }

    /// The point at column index `i` (a = 0) and number `n`, if it is an intersection.
    pub const fn from_coords(i: i32, n: i32) -> Option<Point> {
        if on_board(i, n) {
            Some(Point((i * 11 + n - 1) as u8))
        } else {
            None
        }
    }

    /// Column index, a = 0 .. k = 10.
    pub const fn column(self) -> u8 {
        self.0 / SIDE
    }

    /// Column letter, `a`..`k`.
    pub const fn letter(self) -> char {
        (b'a' + self.column()) as char
    }

    /// Number, 1..11.
    pub const fn number(self) -> u8 {
        self.0 % SIDE + 1
    }

    /// The bit index of this point in a board mask.
    pub(crate) const fn bit_index(self) -> u8 {
        self.0
    }

    /// The point at a bit index, which must be a real point.
    pub(crate) const fn from_bit_index(b: u8) -> Point {
        debug_assert!(VALID & (1u128 << b) != 0);
        Point(b)
    }

    /// This point as a one-bit mask.
    pub(crate) const fn bit(self) -> u128 {
        1u128 << self.0
    }

    /// The position of this point in `Point::ALL` (0..85).
    pub fn dense_index(self) -> usize {
        (VALID & (self.bit() - 1)).count_ones() as usize
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.letter(), self.number())
    }
}

impl fmt::Debug for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Why a text is not a point.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParsePointError {
    /// Not a letter followed by a number at all.
    #[error("`{0}` is not a point: write a letter a-k and a number 1-11, like e5")]
    Malformed(String),
    /// Letter and number, but not an intersection of the board.
    #[error("{0} is not a point of the board")]
    OffBoard(String),
}

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        let mut chars = s.chars();
        let letter = chars.next().filter(|c| c.is_ascii_alphabetic());
        let digits = chars.as_str();
        let number = if !digits.is_empty()
            && digits.len() <= 2
            && digits.bytes().all(|b| b.is_ascii_digit())
        {
            digits.parse::<u8>().ok()
        } else {
            None
        };
        match (letter, number) {
            (Some(l), Some(n)) => {
                Point::new(l, n).ok_or_else(|| ParsePointError::OffBoard(s.to_ascii_lowercase()))
            }
            _ => Err(ParsePointError::Malformed(s.to_string())),
        }
    }
}

/// Iterate over the points of a mask, lowest bit first.
pub(crate) struct Points(pub(crate) u128);

impl Iterator for Points {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let b = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Point(b))
    }
}

/// Call `f` on every point of a mask, lowest bit first: two 64-bit loops, cheaper than
/// `Points` where the loop is hot.
#[inline(always)]
pub(crate) fn for_each_point(m: u128, mut f: impl FnMut(Point)) {
    let mut lo = m as u64;
    while lo != 0 {
        f(Point(lo.trailing_zeros() as u8));
        lo &= lo - 1;
    }
    let mut hi = (m >> 64) as u64;
    while hi != 0 {
        f(Point(64 + hi.trailing_zeros() as u8));
        hi &= hi - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn board_has_85_points_per_section_1() {
        assert_eq!(VALID.count_ones(), 85);
        let spans = [
            ('a', 2, 5),
            ('b', 1, 7),
            ('c', 1, 8),
            ('d', 1, 9),
            ('e', 1, 10),
            ('f', 2, 10),
            ('g', 2, 11),
            ('h', 3, 11),
            ('i', 4, 11),
            ('j', 5, 11),
            ('k', 7, 10),
        ];
        for (l, lo, hi) in spans {
            for n in 0..=12u8 {
                assert_eq!(Point::new(l, n).is_some(), n >= lo && n <= hi, "{l}{n}");
            }
        }
        for corner in ["a1", "a6", "f1", "f11", "k6", "k11"] {
            assert!(corner.parse::<Point>().is_err());
        }
    }

    #[test]
    fn every_point_round_trips_through_text() {
        for (k, p) in Point::ALL.iter().enumerate() {
            assert_eq!(p.to_string().parse::<Point>(), Ok(*p));
            assert_eq!(p.to_string().to_uppercase().parse::<Point>(), Ok(*p));
            assert_eq!(p.dense_index(), k);
        }
    }

    #[test]
    fn malformed_points_are_refused() {
        for s in ["", "e", "5", "e05x", "ee5", "e123", "z5", "l7", "e0", "e+5"] {
            assert!(s.parse::<Point>().is_err(), "{s}");
        }
    }
}
