//! The questions the robot's evaluation asks the board, answered over the game's own
//! bits: what one side's ring moves could do now ([`Game::ring_reach`]: whether some
//! move makes a row, and how many markers of each colour the moves can turn over),
//! and the row threats of both sides ([`Game::threats`]: the windows holding four or
//! three of a side's markers and none of the other side's). The answers are flags and
//! counts; the masks stay here.
//!
//! Row threats are counted with bit-sliced adders over the marker masks, one axis at
//! a time (the same shifts as the engine's row finder), so no window is visited.

use super::board::{Color, has_row};
use super::direction::Axis;
use super::game::Game;
use super::point::for_each_point;
use super::ray::ring_jumps;
use super::row::Row;

/// What one side's ring moves could do (`Game::ring_reach`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RingReach {
    /// Some move leaves a row of the side's own markers.
    pub makes_row: bool,
    /// The markers of each colour (by `Color::index`) that some move would turn over.
    pub flippable: [u8; 2],
}

/// The row threats of both sides (`Game::threats`): the windows (five points in a
/// line) holding exactly four, or exactly three, of a side's markers and none of the
/// other side's.
///
/// ```
/// use yinsh_pbem::rules::{Color, Game, Variant};
/// let threats = Game::new(Variant::Normal).threats();
/// assert_eq!((threats.fours(Color::White), threats.threes(Color::Black)), (0, 0));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Threats {
    /// By colour index, then axis: the first points of the windows holding four.
    fours: [[u128; 3]; 2],
    /// The same for three.
    threes: [[u128; 3]; 2],
}

impl Threats {
    /// The windows holding four of `side`'s markers and none of the other side's.
    #[inline]
    pub fn fours(&self, side: Color) -> u32 {
        few_ones(self.fours[side.index()])
    }

    /// The windows holding three of `side`'s markers and none of the other side's.
    #[inline]
    pub fn threes(&self, side: Color) -> u32 {
        few_ones(self.threes[side.index()])
    }
}

/// The start bits of the windows along each axis that lie wholly on the board.
const WINDOW_STARTS: [u128; 3] = {
    let mut starts = [0u128; 3];
    let mut k = 0;
    while k < Row::ALL.len() {
        let r = Row::ALL[k];
        let a = match r.axis() {
            Axis::Column => 0,
            Axis::Number => 1,
            Axis::Diagonal => 2,
        };
        starts[a] |= r.start().bit();
        k += 1;
    }
    starts
};

/// The windows holding four and three markers of each side (by colour index) and
/// none of the other side's. Each side's markers are counted in every window at once
/// (a bit-sliced adder over the five shifted masks); a window holds some of a side's
/// markers where that side's count is not zero, so no second pass finds the windows
/// the other side blocks.
#[inline]
fn threats_of(markers: [u128; 2]) -> Threats {
    let mut t = Threats {
        fours: [[0; 3]; 2],
        threes: [[0; 3]; 2],
    };
    for (a, axis) in Axis::ALL.into_iter().enumerate() {
        let s = axis.shift();
        // Per window start: the count's bits 1 and 2, and whether it reached 4.
        let count = |m: u128| {
            let (mut ones, mut twos, mut four) = (0u128, 0u128, 0u128);
            for k in 0..5 {
                let b = m >> (k * s);
                let carry = ones & b;
                ones ^= b;
                four |= twos & carry;
                twos ^= carry;
            }
            (ones, twos, four)
        };
        let counts = markers.map(count);
        for (c, &(ones, twos, four)) in counts.iter().enumerate() {
            let (o, w, f) = counts[1 - c];
            let open = WINDOW_STARTS[a] & !(o | w | f);
            t.fours[c][a] = open & four & !twos & !ones;
            t.threes[c][a] = open & !four & twos & ones;
        }
    }
    t
}

/// The windows of `masks`, counted one at a time: they are few, and `count_ones`
/// is a long sequence on the baseline x86-64 target (no `popcnt`), which took a
/// sixth of the search's time when the evaluation counted every term with it.
#[inline]
fn few_ones(masks: [u128; 3]) -> u32 {
    let mut n = 0;
    for mut m in masks {
        while m != 0 {
            m &= m - 1;
            n += 1;
        }
    }
    n
}

impl Game {
    /// The row threats of both sides on this board (the evaluation's fours and
    /// threes).
    #[inline]
    pub fn threats(&self) -> Threats {
        threats_of(Color::BOTH.map(|c| self.marker_bits(c)))
    }

    /// What `color`'s ring moves could do on this board, whoever is to act (the
    /// evaluation's threats; issue 29).
    ///
    /// ```
    /// use yinsh_pbem::rules::{Color, Game, Variant};
    /// let reach = Game::new(Variant::Normal).ring_reach(Color::White);
    /// assert!(!reach.makes_row);
    /// assert_eq!(reach.flippable, [0, 0]);
    /// ```
    pub fn ring_reach(&self, color: Color) -> RingReach {
        let rings = self.ring_bits(Color::White) | self.ring_bits(Color::Black);
        let markers = self.marker_bits(Color::White) | self.marker_bits(Color::Black);
        let mine = self.marker_bits(color);
        let (mut row, mut flips) = (false, 0u128);
        for_each_point(self.ring_bits(color), |from| {
            // The ring leaves one of `color`'s markers where it stood; the points it
            // jumps are all markers, and each turns over. Once a row is found only
            // the markers turned over are still wanted.
            let left = mine | from.bit();
            let slides = ring_jumps(from.bit_index(), rings, markers, |jumped| {
                flips |= jumped;
                row = row || has_row(left ^ jumped);
            });
            row = row || (slides && has_row(left));
        });
        let count = |c: Color| (flips & self.marker_bits(c)).count_ones() as u8;
        RingReach {
            makes_row: row,
            flippable: [count(Color::White), count(Color::Black)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Point;

    fn mask(s: &str) -> u128 {
        s.split_whitespace()
            .map(|p| p.parse::<Point>().unwrap().bit())
            .fold(0, |a, b| a | b)
    }

    #[test]
    fn threats_count_open_windows_only() {
        // White's threats, against Black's markers.
        let threats = |mine, theirs| {
            let t = threats_of([mine, theirs]);
            (t.fours(Color::White), t.threes(Color::White))
        };
        let four = mask("e3 e4 e5 e6");
        // e3-e6: fours in e2-e6 and e3-e7, threes in e1-e5 and e4-e8.
        assert_eq!(threats(four, 0), (2, 2));
        // An opponent marker on e7 closes e3-e7 and e4-e8.
        let blocker = mask("e7");
        assert_eq!(threats(four, blocker), (1, 1));
        let three = mask("e3 e4 e5");
        // e1-e5, e2-e6, e3-e7 hold three each (e1 is on the board).
        assert_eq!(threats(three, 0), (0, 3));
    }
}
