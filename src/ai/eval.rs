//! The static evaluation of a position, from one side's view: rings removed, rows
//! waiting to be removed, row threats (windows holding four or three of the side's
//! markers and none of the opponent's), markers, and how much room the rings have
//! (the threes and the markers weigh nothing in [`Weights::DEFAULT`]: they are kept
//! as terms so that other weights can be measured). It turns into a win chance
//! through a logistic curve. The search uses it for its
//! priors and to end its playouts early; the greedy baseline plays by it alone.
//!
//! Row threats are counted with bit-sliced adders over the marker masks, one axis at
//! a time (the same shifts as the engine's row finder), so no window is visited.

use crate::rules::{Axis, Color, Direction, Game, Outcome, Point, Row};

/// The weights of the evaluation's terms, in rings removed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    /// A ring removed.
    pub ring: f32,
    /// A row of the side's colour on the board (it will be removed, costing a ring).
    pub row: f32,
    /// A window with four of the side's markers and no opponent marker.
    pub four: f32,
    /// A window with three of the side's markers and no opponent marker.
    pub three: f32,
    /// A marker showing the side's colour.
    pub marker: f32,
    /// A point a ring could reach on an empty board (room to move).
    pub room: f32,
    /// The slope of the logistic curve from score to win chance.
    pub slope: f32,
}

impl Weights {
    /// The weights the search and the greedy player use. The threes and the markers
    /// weigh nothing: scored against 408 real games they told nothing (threes) or
    /// the loser (markers) before the first ring is removed, and cancelled what the
    /// fours and the room know (docs/strength.md, "What the evaluation knows").
    pub const DEFAULT: Weights = Weights {
        ring: 1.0,
        row: 0.8,
        four: 0.15,
        three: 0.0,
        marker: 0.0,
        room: 0.003,
        slope: 1.3,
    };
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

/// For each point (dense index), the points a ring there reaches on an empty board.
fn room_table() -> &'static [f32; 85] {
    static TABLE: std::sync::OnceLock<[f32; 85]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [0.0f32; 85];
        for p in Point::ALL {
            let mut n = 0;
            for d in Direction::ALL {
                let mut q = p;
                while let Some(next) = d.step(q) {
                    n += 1;
                    q = next;
                }
            }
            t[p.dense_index()] = n as f32;
        }
        t
    })
}

/// The rings and markers of both sides as bit masks.
#[derive(Clone, Copy, Debug)]
struct Masks {
    markers: [u128; 2],
    room: [f32; 2],
}

impl Masks {
    fn of(game: &Game) -> Masks {
        let room = room_table();
        let mut m = Masks {
            markers: [0; 2],
            room: [0.0; 2],
        };
        for c in Color::BOTH {
            m.markers[c.index()] = game.markers(c).fold(0, |acc, p| acc | p.bit());
            m.room[c.index()] = game.rings(c).map(|p| room[p.dense_index()]).sum();
        }
        m
    }
}

/// Windows holding exactly four and exactly three of the markers `mine` and none of
/// `theirs`.
#[inline]
fn threats(mine: u128, theirs: u128) -> (u32, u32) {
    let (mut fours, mut threes) = (0, 0);
    for (a, axis) in Axis::ALL.into_iter().enumerate() {
        let s = axis.shift();
        let (mut ones, mut twos, mut four) = (0u128, 0u128, 0u128);
        let mut blocked = 0u128;
        for k in 0..5 {
            let b = mine >> (k * s);
            let carry = ones & b;
            ones ^= b;
            four |= twos & carry;
            twos ^= carry;
            blocked |= theirs >> (k * s);
        }
        let open = WINDOW_STARTS[a] & !blocked;
        fours += (open & four & !twos & !ones).count_ones();
        threes += (open & !four & twos & ones).count_ones();
    }
    (fours, threes)
}

/// The score of `game` for `me`, in rings removed (positive: `me` is ahead). Not
/// meaningful for a finished game: see [`win_chance`].
pub fn score(game: &Game, me: Color) -> f32 {
    score_with(game, me, &Weights::DEFAULT)
}

/// [`score`] with other weights.
pub fn score_with(game: &Game, me: Color, w: &Weights) -> f32 {
    let m = Masks::of(game);
    let (i, o) = (me.index(), me.other().index());
    let (f_me, t_me) = threats(m.markers[i], m.markers[o]);
    let (f_op, t_op) = threats(m.markers[o], m.markers[i]);
    let has_row = |c: Color| f32::from(u8::from(game.row_count(c) > 0));
    w.ring * (f32::from(game.rings_removed(me)) - f32::from(game.rings_removed(me.other())))
        + w.row * (has_row(me) - has_row(me.other()))
        + w.four * (f_me as f32 - f_op as f32)
        + w.three * (t_me as f32 - t_op as f32)
        + w.marker * (f32::from(game.markers_of(me)) - f32::from(game.markers_of(me.other())))
        + w.room * (m.room[i] - m.room[o])
}

/// The chance that `me` wins from `game`: exact for a finished game (1, 0, or 0.5
/// for a draw), else the logistic curve of [`score`].
///
/// ```
/// use yinsh_pbem::ai::win_chance;
/// use yinsh_pbem::rules::{Color, Game, Variant};
/// let p = win_chance(&Game::new(Variant::Normal), Color::White);
/// assert!((p - 0.5).abs() < 1e-6);
/// ```
pub fn win_chance(game: &Game, me: Color) -> f32 {
    match game.outcome() {
        Some(Outcome::Win(c)) => f32::from(u8::from(c == me)),
        Some(Outcome::Draw) => 0.5,
        None => logistic(score(game, me) * Weights::DEFAULT.slope),
    }
}

/// 1 / (1 + e^-x).
#[inline]
pub(crate) fn logistic(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Setup, Variant};

    fn pts(s: &str) -> Vec<Point> {
        s.split_whitespace().map(|p| p.parse().unwrap()).collect()
    }

    #[test]
    fn threats_count_open_windows_only() {
        let four: u128 = pts("e3 e4 e5 e6").iter().fold(0, |a, p| a | p.bit());
        // e3-e6: fours in e2-e6 and e3-e7, threes in e1-e5 and e4-e8.
        assert_eq!(threats(four, 0), (2, 2));
        // An opponent marker on e7 closes e3-e7 and e4-e8.
        let blocker: u128 = "e7".parse::<Point>().unwrap().bit();
        assert_eq!(threats(four, blocker), (1, 1));
        let three: u128 = pts("e3 e4 e5").iter().fold(0, |a, p| a | p.bit());
        // e1-e5, e2-e6, e3-e7 hold three each (e1 is on the board).
        assert_eq!(threats(three, 0), (0, 3));
    }

    #[test]
    fn the_side_with_a_threat_scores_higher() {
        let g = Setup::new(Variant::Normal)
            .rings(Color::White, pts("a2 b1 c1 d1 k10"))
            .rings(Color::Black, pts("a3 b2 c2 d2 k9"))
            .markers(Color::White, pts("e3 e4 e5 e6"))
            .markers(Color::Black, pts("g3 h4"))
            .build()
            .unwrap();
        assert!(score(&g, Color::White) > 0.2);
        assert!((score(&g, Color::White) + score(&g, Color::Black)).abs() < 1e-5);
        assert!(win_chance(&g, Color::White) > 0.5);
    }
}
