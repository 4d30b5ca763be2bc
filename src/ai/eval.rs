//! The static evaluation of a position, from one side's view: rings removed, rows
//! waiting to be removed, row threats (windows holding four or three of the side's
//! markers and none of the opponent's), markers, how much room the rings have, and
//! what the ring moves could do now (`Game::ring_reach`: whether a move makes a row,
//! for the side to act and for the side that waits, and how many of the other side's
//! markers the moves can turn over), and the side to act. The board answers the
//! questions (`Game::threats`, `Game::ring_reach`, in `rules`); no mask is read here. It turns into a win chance
//! through a logistic curve. The search uses it for its priors and to end its
//! playouts early; the greedy baseline plays by it alone; the playouts choose their
//! moves by [`Weights::PLAYOUT`], the cheap terms only.
//!
//! The weights were fitted to the 408 Boardspace games (issue 29; a logistic
//! regression of who won on the terms, every position after the rings are placed,
//! cross-checked game by game): `docs/strength.md`, "What the evaluation knows".

use crate::rules::{ActionKind, Color, Direction, Game, Outcome, Point};

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

/// The room of each side's rings (by colour index): the points they reach on an
/// empty board.
fn room(game: &Game) -> [f32; 2] {
    let table = room_table();
    Color::BOTH.map(|c| game.rings(c).map(|p| table[p.dense_index()]).sum())
}

/// The score of `game` for `me`, in rings removed (positive: `me` is ahead). Not
/// meaningful for a finished game: see [`win_chance`].
pub fn score(game: &Game, me: Color) -> f32 {
    score_with(game, me, &Weights::DEFAULT)
}

/// [`score`] with other weights.
pub fn score_with(game: &Game, me: Color, w: &Weights) -> f32 {
    let room = room(game);
    let (i, o) = (me.index(), me.other().index());
    if game.expects() == Some(ActionKind::Place) {
        return w.placing_room * (room[i] - room[o]);
    }
    let threats = game.threats();
    let fours = threats.fours(me) as f32 - threats.fours(me.other()) as f32;
    let threes = match w.three != 0.0 {
        true => threats.threes(me) as f32 - threats.threes(me.other()) as f32,
        false => 0.0,
    };
    let has_row = |c: Color| f32::from(u8::from(game.has_row(c)));
    let mut reach = 0.0;
    let looks = w.row_now != 0.0 || w.row_next != 0.0 || w.flippable != 0.0;
    if looks && game.markers_on_board() != 0 {
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
        + w.room * (room[i] - room[o])
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
