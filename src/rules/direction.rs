//! The three line axes of the board and the six directions along them
//! (yinsh-rules.md §1): (0,1) along a column, (1,0) along a number, (1,1) with letter
//! and number rising together. (1,-1) is not a line.

use super::point::{Point, VALID};

/// One of the three axes of the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    /// Along a column: the number changes, the letter stays (`e1`..`e10`).
    Column,
    /// Along a number: the letter changes, the number stays (`a5`..`j5`).
    Number,
    /// Letter and number rise together (`a2`..`j11`).
    Diagonal,
}

impl Axis {
    /// The three axes.
    pub const ALL: [Axis; 3] = [Axis::Column, Axis::Number, Axis::Diagonal];

    /// (letter step, number step) of the positive direction.
    pub const fn step(self) -> (i8, i8) {
        match self {
            Axis::Column => (0, 1),
            Axis::Number => (1, 0),
            Axis::Diagonal => (1, 1),
        }
    }

    /// Distance in bits between neighbours along this axis.
    pub(crate) const fn shift(self) -> u32 {
        match self {
            Axis::Column => 1,
            Axis::Number => 11,
            Axis::Diagonal => 12,
        }
    }

    /// The axis on which `from` and `to` lie, with the sign of the way from `from` to
    /// `to` and the number of steps; `None` when they are not on one line or equal.
    pub fn between(from: Point, to: Point) -> Option<(Direction, u8)> {
        let dl = to.column() as i32 - from.column() as i32;
        let dn = to.number() as i32 - from.number() as i32;
        let (axis, len) = if dl == 0 && dn != 0 {
            (Axis::Column, dn)
        } else if dn == 0 && dl != 0 {
            (Axis::Number, dl)
        } else if dl == dn && dl != 0 {
            (Axis::Diagonal, dl)
        } else {
            return None;
        };
        Some((
            Direction {
                axis,
                forward: len > 0,
            },
            len.unsigned_abs() as u8,
        ))
    }
}

/// A direction: an axis and a sense along it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Direction {
    /// The axis.
    pub axis: Axis,
    /// True for the positive sense (letter and/or number rising).
    pub forward: bool,
}

impl Direction {
    /// The six directions.
    pub const ALL: [Direction; 6] = [
        Direction::forward(Axis::Column),
        Direction::backward(Axis::Column),
        Direction::forward(Axis::Number),
        Direction::backward(Axis::Number),
        Direction::forward(Axis::Diagonal),
        Direction::backward(Axis::Diagonal),
    ];

    /// The positive sense along `axis` (letter and/or number rising).
    pub const fn forward(axis: Axis) -> Direction {
        Direction {
            axis,
            forward: true,
        }
    }

    /// The negative sense along `axis`.
    pub const fn backward(axis: Axis) -> Direction {
        Direction {
            axis,
            forward: false,
        }
    }

    /// The neighbour of `p` in this direction, if it is on the board.
    ///
    /// ```
    /// use yinsh_pbem::rules::{Axis, Direction, Point};
    /// let e5: Point = "e5".parse().unwrap();
    /// let up = Direction::forward(Axis::Diagonal);
    /// assert_eq!(up.step(e5), Some("f6".parse().unwrap()));
    /// assert_eq!(up.step("j11".parse().unwrap()), None);
    /// ```
    #[inline]
    pub fn step(self, p: Point) -> Option<Point> {
        let b = p.bit_index() as i32;
        let s = self.axis.shift() as i32;
        let n = if self.forward { b + s } else { b - s };
        if (0..121).contains(&n) && VALID & (1u128 << n) != 0 {
            Some(Point::from_bit_index(n as u8))
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Point {
        s.parse().unwrap()
    }

    #[test]
    fn stepping_matches_coordinates_section_1() {
        for &a in &Point::ALL {
            for d in Direction::ALL {
                let (dl, dn) = d.axis.step();
                let (dl, dn) = if d.forward { (dl, dn) } else { (-dl, -dn) };
                let want = Point::from_coords(
                    a.column() as i32 + dl as i32,
                    a.number() as i32 + dn as i32,
                );
                assert_eq!(d.step(a), want, "{a} {d:?}");
            }
        }
    }

    #[test]
    fn anti_diagonal_is_not_a_line_section_1() {
        assert_eq!(Axis::between(p("e5"), p("f4")), None);
        assert_eq!(Axis::between(p("e5"), p("e5")), None);
        assert_eq!(
            Axis::between(p("e5"), p("g7")),
            Some((Direction::forward(Axis::Diagonal), 2))
        );
        assert_eq!(
            Axis::between(p("e5"), p("e2")),
            Some((Direction::backward(Axis::Column), 3))
        );
        assert_eq!(
            Axis::between(p("e5"), p("a5")),
            Some((Direction::backward(Axis::Number), 4))
        );
    }

    #[test]
    fn each_axis_has_eleven_lines_of_the_right_lengths_section_1() {
        for axis in Axis::ALL {
            let back = Direction::backward(axis);
            let fwd = Direction::forward(axis);
            let mut lens: Vec<usize> = Point::ALL
                .iter()
                .filter(|&&q| back.step(q).is_none())
                .map(|&start| std::iter::successors(Some(start), |&q| fwd.step(q)).count())
                .collect();
            lens.sort();
            assert_eq!(lens, vec![4, 4, 7, 7, 8, 8, 9, 9, 9, 10, 10], "{axis:?}");
        }
    }
}
