//! The static evaluation of a position, from one side's view: rings removed, rows
//! waiting to be removed, row threats (windows holding four or three of the side's
//! markers and none of the opponent's), markers, how much room the rings have, and
//! what the ring moves could do now (`Game::ring_reach`: whether a move makes a row,
//! for the side to act and for the side that waits, and how many of the other side's
//! markers the moves can turn over), and the side to act. It turns into a win chance
//! through a logistic curve. The search uses it for its priors and to end its
//! playouts early; the greedy baseline plays by it alone; the playouts choose their
//! moves by [`Weights::PLAYOUT`], the cheap terms only.
//!
//! The weights were fitted to the 408 Boardspace games (issue 29; a logistic
//! regression of who won on the terms, every position after the rings are placed,
//! cross-checked game by game): `docs/strength.md`, "What the evaluation knows".
//!
//! Row threats are counted with bit-sliced adders over the marker masks, one axis at
//! a time (the same shifts as the engine's row finder), so no window is visited.

use crate::rules::{ActionKind, Axis, Color, Direction, Game, Outcome, Point, Row};

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
    /// The side to act has a ring move that makes a row of its own.
    pub row_now: f32,
    /// The side that waits has a ring move that would make a row of its own.
    pub row_next: f32,
    /// Being the side to act.
    pub to_act: f32,
    /// A point of room while the rings are placed (the other terms weigh nothing
    /// then: measured on real games, nothing the evaluation knows tells the winner
    /// of a position before the first ring moves).
    pub placing_room: f32,
    /// A marker of the opponent's that some ring move of the side's would turn over
    /// (and the same with the sides swapped, against it).
    pub flippable: f32,
    /// The slope of the logistic curve from score to win chance.
    pub slope: f32,
}

impl Weights {
    /// The weights the search and the greedy player use: fitted to 408 real games
    /// (docs/strength.md, "What the evaluation knows"), in rings removed (the fit's
    /// weight of a ring removed is the slope). The threes weigh nothing (they told
    /// nothing); a marker on the board counts a little for its side once the markers
    /// the opponent can turn over count against it.
    pub const DEFAULT: Weights = Weights {
        ring: 1.0,
        row: 0.06,
        four: 0.03,
        three: 0.0,
        marker: 0.032,
        room: 0.014,
        row_now: 0.48,
        row_next: 0.26,
        to_act: 0.064,
        flippable: 0.076,
        placing_room: 0.0015,
        slope: 2.6,
    };
}

impl Weights {
    /// The weights the playouts choose their moves by (the best of a few random ones,
    /// one action ahead): the evaluation before issue 29's threats, cheap (no ring
    /// move is looked at) and eager to make rows and fours.
    pub const PLAYOUT: Weights = Weights {
        ring: 1.0,
        row: 0.8,
        four: 0.15,
        three: 0.0,
        marker: 0.0,
        room: 0.003,
        row_now: 0.0,
        row_next: 0.0,
        to_act: 0.0,
        flippable: 0.0,
        placing_room: 0.003,
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
            m.markers[c.index()] = game.marker_bits(c);
            m.room[c.index()] = game.rings(c).map(|p| room[p.dense_index()]).sum();
        }
        m
    }
}

/// The windows (by their first point, one mask per axis) holding exactly four and
/// exactly three of a side's markers and none of the other side's.
struct Threats {
    fours: [u128; 3],
    threes: [u128; 3],
}

/// The windows holding four and three markers of each side (by colour index) and
/// none of the other side's. Each side's markers are counted in every window at once
/// (a bit-sliced adder over the five shifted masks); a window holds some of a side's
/// markers where that side's count is not zero, so no second pass finds the windows
/// the other side blocks.
#[inline]
fn threats(markers: [u128; 2]) -> [Threats; 2] {
    let mut t = [0, 1].map(|_| Threats {
        fours: [0; 3],
        threes: [0; 3],
    });
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
            t[c].fours[a] = open & four & !twos & !ones;
            t[c].threes[a] = open & !four & twos & ones;
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

/// The score of `game` for `me`, in rings removed (positive: `me` is ahead). Not
/// meaningful for a finished game: see [`win_chance`].
pub fn score(game: &Game, me: Color) -> f32 {
    score_with(game, me, &Weights::DEFAULT)
}

/// [`score`] with other weights.
pub fn score_with(game: &Game, me: Color, w: &Weights) -> f32 {
    let m = Masks::of(game);
    let (i, o) = (me.index(), me.other().index());
    if game.expects() == Some(ActionKind::Place) {
        return w.placing_room * (m.room[i] - m.room[o]);
    }
    let [white, black] = threats(m.markers);
    let (mine, theirs) = match me {
        Color::White => (white, black),
        Color::Black => (black, white),
    };
    let fours = few_ones(mine.fours) as f32 - few_ones(theirs.fours) as f32;
    let threes = match w.three != 0.0 {
        true => few_ones(mine.threes) as f32 - few_ones(theirs.threes) as f32,
        false => 0.0,
    };
    let has_row = |c: Color| f32::from(u8::from(game.has_row(c)));
    let mut reach = 0.0;
    let looks = w.row_now != 0.0 || w.row_next != 0.0 || w.flippable != 0.0;
    if looks && m.markers[0] | m.markers[1] != 0 {
        let (mine, theirs) = (game.ring_reach(me), game.ring_reach(me.other()));
        let one = |b: bool| f32::from(u8::from(b));
        let (first, second) = match game.to_act() == Some(me) {
            true => (w.row_now, w.row_next),
            false => (w.row_next, w.row_now),
        };
        reach = first * one(mine.makes_row) - second * one(theirs.makes_row)
            + w.flippable * (f32::from(mine.flippable[o]) - f32::from(theirs.flippable[i]));
    }
    let tempo = match game.to_act() {
        Some(c) if c == me => w.to_act,
        Some(_) => -w.to_act,
        None => 0.0,
    };
    reach
        + tempo
        + w.ring * (f32::from(game.rings_removed(me)) - f32::from(game.rings_removed(me.other())))
        + w.row * (has_row(me) - has_row(me.other()))
        + w.four * fours
        + w.three * threes
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
        // White's threats, against Black's markers.
        let threats = |mine, theirs| {
            let [t, _] = threats([mine, theirs]);
            (few_ones(t.fours), few_ones(t.threes))
        };
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

    /// A four alone is worth little (the real games say so); a four that a ring move
    /// of the side to act completes is worth about half a ring, and less when the
    /// side waits for its turn.
    #[test]
    fn the_side_with_a_threat_scores_higher() {
        let game = |ring: &str| {
            Setup::new(Variant::Normal)
                .rings(Color::White, pts(&format!("a2 b1 c1 d1 {ring}")))
                .rings(Color::Black, pts("a3 b2 c2 d2 k9"))
                .markers(Color::White, pts("e3 e4 e5 e6"))
                .markers(Color::Black, pts("g3 h4"))
                .build()
                .unwrap()
        };
        let (four, threat) = (game("k10"), game("e7"));
        assert!(!four.ring_reach(Color::White).makes_row);
        assert!(threat.ring_reach(Color::White).makes_row);
        assert_eq!(threat.to_act(), Some(Color::White));
        let (s_four, s_threat) = (score(&four, Color::White), score(&threat, Color::White));
        assert!(s_threat > s_four + 0.4, "{s_threat} against {s_four}");
        assert!(s_threat > 0.4, "{s_threat}");
        for g in [four, threat] {
            assert!((score(&g, Color::White) + score(&g, Color::Black)).abs() < 1e-5);
        }
        assert!(win_chance(&threat, Color::White) > 0.7);
    }
}
