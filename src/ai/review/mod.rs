//! The robot's review of a game (issue 28, issue 46): White's win chance before and
//! after every turn, what each turn cost its player against the robot's preferred
//! turn, and the turns whose cost a deeper search confirms (the turning points, the
//! [`TURNING_POINTS`] costliest of each side).
//!
//! Each position is searched on its own by a fresh robot with the same playout budget
//! and a seed made from the position itself ([`position_seed`]), so a review depends
//! only on the game and the budget: the same on every machine, whoever asks. A
//! search's value for the side to act becomes a win chance through a curve fitted on
//! games whose outcome is known ([`chance_to_act`]), which removes the search's
//! favour for the side to act. A turn's cost is its player's chance after the
//! preferred turn less their chance after the turn played, both positions with the
//! opponent to act and searched alike: a turn that is the preferred one costs 0. A
//! turn costing at least [`MIN_COST`] has both positions searched again with
//! [`CONFIRM_FACTOR`] times the playouts, and is a turning point when that cost still
//! reaches [`MIN_COST`]. A turn the rules force (a lone pass, a lone removal) costs
//! nothing: its chance before is its chance after. A finished position's chance is
//! its result (1 won by White, 0 won by Black, 0.5 drawn).
//!
//! What a review costs: one search a position where a turn is chosen, one more for
//! each turn other than the preferred one, and two searches of [`CONFIRM_FACTOR`]
//! times the budget for each candidate (docs/performance.md, "The robot's review").
//!
//! ```
//! use yinsh_pbem::ai::{review, TurnReview};
//! use yinsh_pbem::rules::Variant;
//! let turns: Vec<Vec<_>> = ["e5", "f6", "e4"].iter().map(|t| vec![t.parse().unwrap()]).collect();
//! let r = review(Variant::Normal, &turns, None, 20).unwrap();
//! assert_eq!(r.turns.len(), 3);
//! assert_eq!(r.chart().len(), 4);
//! assert_eq!(r, review(Variant::Normal, &turns, None, 20).unwrap(), "deterministic");
//! ```

mod chance;

pub use chance::{chance_to_act, placing};

use super::robot::{Budget, Robot, ThinkSettings};
use crate::rules::{Action, Color, Game, IllegalAction, Outcome, Point, Variant};

/// The playouts a review spends on each position unless told otherwise: level 3's
/// search (600).
pub const REVIEW_PLAYOUTS: u64 = 600;

/// How many turning points of each side a review names.
pub const TURNING_POINTS: usize = 3;

/// A turn that cost its player less than this (5 percentage points) is no turning
/// point, and is not searched again.
pub const MIN_COST: f32 = 0.05;

/// A candidate turning point's two positions are searched again with this many times
/// the review's playouts.
pub const CONFIRM_FACTOR: u64 = 4;

/// One turn of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct TurnReview {
    /// Its number in the move list, the first being 1 (forced passes count).
    pub number: u32,
    /// The side that played it.
    pub side: Color,
    /// The position before it.
    pub before: Game,
    /// The atomic actions played.
    pub played: Vec<Action>,
    /// White's win chance before the turn.
    pub chance_before: f32,
    /// White's win chance after the turn.
    pub chance_after: f32,
    /// The turn the robot preferred (the played one when the rules forced it).
    pub preferred: Vec<Action>,
    /// White's win chance after the preferred turn (`chance_after` when it is the
    /// turn played).
    pub preferred_after: f32,
    /// The search's own value of `before` for its side to act, that `chance_before`
    /// is made from; `None` when the rules forced the turn.
    pub value: Option<f32>,
    /// What the turn cost its player at the review's budget: their chance after the
    /// preferred turn less after the turn played (0 when it is the preferred one,
    /// negative when the turn played was found the better).
    pub cost: f32,
    /// The cost again from [`CONFIRM_FACTOR`] times the playouts, when `cost`
    /// reached [`MIN_COST`].
    pub confirmed: Option<f32>,
}

impl TurnReview {
    /// What the turn cost its player: the deeper search's cost when there was one,
    /// else the review's.
    ///
    /// ```
    /// use yinsh_pbem::ai::TurnReview;
    /// use yinsh_pbem::rules::{Color, Game, Variant};
    /// let t = TurnReview { number: 12, side: Color::Black, before: Game::new(Variant::Normal),
    ///     played: vec![], chance_before: 0.4, chance_after: 0.7, preferred: vec![],
    ///     preferred_after: 0.3, value: Some(0.6), cost: 0.4, confirmed: Some(0.35) };
    /// assert_eq!(t.cost(), 0.35);
    /// ```
    pub fn cost(&self) -> f32 {
        self.confirmed.unwrap_or(self.cost)
    }

    /// The player's own win chance before the turn and after it.
    pub fn player_chances(&self) -> (f32, f32) {
        (
            for_side(self.chance_before, self.side),
            for_side(self.chance_after, self.side),
        )
    }
}

/// `white`'s chance seen from `side`.
pub fn for_side(white: f32, side: Color) -> f32 {
    match side {
        Color::White => white,
        Color::Black => 1.0 - white,
    }
}

/// A whole game reviewed.
#[derive(Clone, Debug, PartialEq)]
pub struct Review {
    /// Normal or blitz.
    pub variant: Variant,
    /// The playouts spent on each position.
    pub playouts: u64,
    /// Every turn, in order.
    pub turns: Vec<TurnReview>,
    /// White's chance by the game's result when it ended off the board (a
    /// resignation, a forfeit, an agreed draw) rather than by its last turn.
    pub result: Option<f32>,
    /// The playouts the whole review spent.
    pub spent: u64,
}

/// A turn of the game that the rules refuse.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("turn {number} cannot be played: {error}")]
pub struct ReviewError {
    /// Its number in the move list.
    pub number: u32,
    /// Why.
    pub error: IllegalAction,
}

impl Review {
    /// White's win chance at every position, from the empty board to the end: the
    /// chance before the first turn, after each turn, then the result when the game
    /// ended off the board.
    pub fn chart(&self) -> Vec<f32> {
        let mut out: Vec<f32> = self
            .turns
            .first()
            .map(|t| t.chance_before)
            .into_iter()
            .collect();
        out.extend(self.turns.iter().map(|t| t.chance_after));
        out.extend(self.result);
        out
    }

    /// The turning points of `side`: its turns whose confirmed cost reached
    /// [`MIN_COST`], at most [`TURNING_POINTS`], the costliest first (the earlier
    /// first when equal).
    pub fn turning_points(&self, side: Color) -> Vec<&TurnReview> {
        let mut out: Vec<&TurnReview> = self
            .turns
            .iter()
            .filter(|t| t.side == side && t.confirmed.is_some_and(|c| c >= MIN_COST))
            .collect();
        out.sort_by(|a, b| b.cost().total_cmp(&a.cost()).then(a.number.cmp(&b.number)));
        out.truncate(TURNING_POINTS);
        out
    }
}

/// The review of the game of `variant` whose turns were `turns` (each the atomic
/// actions of one turn, forced passes included), with `playouts` a position;
/// `ending` is the result when the game ended off the board after them.
pub fn review(
    variant: Variant,
    turns: &[Vec<Action>],
    ending: Option<Outcome>,
    playouts: u64,
) -> Result<Review, ReviewError> {
    let playouts = playouts.max(1);
    let mut positions = Vec::with_capacity(turns.len() + 1);
    let mut game = Game::new(variant);
    positions.push(game);
    for (i, turn) in turns.iter().enumerate() {
        for &a in turn {
            game.play(a).map_err(|error| ReviewError {
                number: turn_number(i),
                error,
            })?;
        }
        positions.push(game);
    }
    let mut spent = 0;
    // The chance of each position, from the end back (a forced turn takes the next's).
    let mut after = white_chance(&game, playouts, &mut spent);
    let mut reviewed = Vec::with_capacity(turns.len());
    for (i, turn) in turns.iter().enumerate().rev() {
        let (before, next) = (&positions[i], &positions[i + 1]);
        let side = before.to_act().unwrap_or(Color::White);
        let mut t = TurnReview {
            number: turn_number(i),
            side,
            before: *before,
            played: turn.clone(),
            chance_before: after,
            chance_after: after,
            preferred: turn.clone(),
            preferred_after: after,
            value: None,
            cost: 0.0,
            confirmed: None,
        };
        if let Searched::Chose { value, turn: best } = search(before, playouts, &mut spent) {
            t.value = Some(value);
            t.chance_before = for_side(chance_to_act(before, value), side);
            if best != *turn {
                let best_after = played(before, &best);
                t.preferred_after = white_chance(&best_after, playouts, &mut spent);
                t.cost = for_side(t.preferred_after, side) - for_side(after, side);
                if t.cost >= MIN_COST {
                    let deep = playouts.saturating_mul(CONFIRM_FACTOR);
                    let preferred = white_chance(&best_after, deep, &mut spent);
                    let played = white_chance(next, deep, &mut spent);
                    t.confirmed = Some(for_side(preferred, side) - for_side(played, side));
                }
            }
            t.preferred = best;
        }
        after = t.chance_before;
        reviewed.push(t);
    }
    reviewed.reverse();
    let result = ending
        .filter(|_| game.outcome().is_none())
        .map(|o| outcome_value(Some(o)).unwrap_or(0.5));
    Ok(Review {
        variant,
        playouts,
        turns: reviewed,
        result,
        spent,
    })
}

/// The number of the turn at index `i`.
fn turn_number(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// `game` after the legal `turn` (a turn the search chose there).
fn played(game: &Game, turn: &[Action]) -> Game {
    let mut g = *game;
    for &a in turn {
        if g.play(a).is_err() {
            debug_assert!(false, "the search chose an illegal action {a}");
            break;
        }
    }
    g
}

/// How many forced turns in a row [`white_chance`] plays before it takes the static
/// estimate (a pass answered by a pass ends the game, so two would do).
const FORCED_TURNS: usize = 4;

/// White's chance in `game` at `playouts`: its result when it is over, else from its
/// search; a turn the rules force is played and the next position valued.
fn white_chance(game: &Game, playouts: u64, spent: &mut u64) -> f32 {
    let mut g = *game;
    for _ in 0..FORCED_TURNS {
        match search(&g, playouts, spent) {
            Searched::Over(white) => return white,
            Searched::Chose { value, .. } => {
                let side = g.to_act().unwrap_or(Color::White);
                return for_side(chance_to_act(&g, value), side);
            }
            Searched::Forced(turn) => g = played(&g, &turn),
        }
    }
    super::eval::win_chance(&g, Color::White)
}

/// White's share of `outcome`: 1, 0 or 0.5; `None` while the game goes on.
fn outcome_value(outcome: Option<Outcome>) -> Option<f32> {
    outcome.map(|o| match o {
        Outcome::Win(Color::White) => 1.0,
        Outcome::Win(Color::Black) => 0.0,
        Outcome::Draw => 0.5,
    })
}

/// What a search of a position found.
enum Searched {
    /// The game is over: White's result.
    Over(f32),
    /// The rules force this whole turn.
    Forced(Vec<Action>),
    /// The robot's preferred turn and the search's value for the side to act.
    Chose { value: f32, turn: Vec<Action> },
}

/// A fresh search of `game` with `playouts` seeded by the position, its playouts
/// added to `spent`.
fn search(game: &Game, playouts: u64, spent: &mut u64) -> Searched {
    if game.to_act().is_none() {
        return Searched::Over(outcome_value(game.outcome()).unwrap_or(0.5));
    }
    let settings =
        ThinkSettings::estimating(Budget::Playouts(playouts.max(1)), position_seed(game));
    match Robot::new(settings).think(game) {
        Err(_) => Searched::Over(outcome_value(game.outcome()).unwrap_or(0.5)),
        Ok(turn) if turn.playouts == 0 => Searched::Forced(turn.actions),
        Ok(turn) => {
            *spent += turn.playouts;
            Searched::Chose {
                value: turn.win_chance,
                turn: turn.actions,
            }
        }
    }
}

/// A seed made from the position alone (FNV-1a over every point's piece, the side to
/// act, what it must do, the rings removed and the variant), so that a position is
/// searched alike wherever it occurs and on every machine.
///
/// ```
/// use yinsh_pbem::ai::position_seed;
/// use yinsh_pbem::rules::{Game, Variant};
/// let g = Game::new(Variant::Normal);
/// assert_eq!(position_seed(&g), position_seed(&g.clone()));
/// assert_ne!(position_seed(&g), position_seed(&Game::new(Variant::Blitz)));
/// ```
pub fn position_seed(game: &Game) -> u64 {
    use crate::rules::{ActionKind, Piece};
    let mut bytes = Vec::with_capacity(Point::ALL.len() + 5);
    bytes.extend(Point::ALL.iter().map(|&p| match game.piece_at(p) {
        None => 0u8,
        Some(Piece::Ring(Color::White)) => 1,
        Some(Piece::Ring(Color::Black)) => 2,
        Some(Piece::Marker(Color::White)) => 3,
        Some(Piece::Marker(Color::Black)) => 4,
    }));
    bytes.push(match game.to_act() {
        None => 0,
        Some(Color::White) => 1,
        Some(Color::Black) => 2,
    });
    bytes.push(match game.expects() {
        None => 0,
        Some(ActionKind::Place) => 1,
        Some(ActionKind::Move) => 2,
        Some(ActionKind::RemoveRow) => 3,
        Some(ActionKind::RemoveRing) => 4,
        Some(ActionKind::Pass) => 5,
    });
    bytes.push(game.rings_removed(Color::White));
    bytes.push(game.rings_removed(Color::Black));
    bytes.push(u8::from(game.variant() == Variant::Blitz));
    bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns(text: &str) -> Vec<Vec<Action>> {
        text.split_whitespace()
            .map(|t| vec![t.parse().expect("action")])
            .collect()
    }

    #[test]
    fn an_illegal_turn_is_named() {
        let e = review(Variant::Normal, &turns("e5 e5"), None, 10).unwrap_err();
        assert_eq!(e.number, 2);
    }

    #[test]
    fn a_resignation_ends_the_chart_at_the_result() {
        let r = review(
            Variant::Normal,
            &turns("e5 f6"),
            Some(Outcome::Win(Color::Black)),
            10,
        )
        .expect("review");
        assert_eq!(r.chart().last().copied(), Some(0.0));
        assert_eq!(r.chart().len(), 4);
    }

    #[test]
    fn turning_points_are_the_confirmed_costliest_turns_of_one_side() {
        let g = Game::new(Variant::Normal);
        let t = |number, side, cost: f32, confirmed: Option<f32>| TurnReview {
            number,
            side,
            before: g,
            played: turns("e5").remove(0),
            chance_before: 0.5,
            chance_after: 0.5,
            preferred: turns("f6").remove(0),
            preferred_after: 0.5,
            value: Some(0.5),
            cost,
            confirmed,
        };
        let r = Review {
            variant: Variant::Normal,
            playouts: 1,
            turns: vec![
                t(1, Color::White, 0.1, Some(0.08)),
                t(2, Color::Black, 0.2, Some(0.04)),
                t(3, Color::White, 0.3, Some(0.3)),
                t(4, Color::Black, 0.3, None),
                t(5, Color::White, 0.04, None),
                t(7, Color::White, 0.1, Some(0.08)),
                t(9, Color::White, 0.2, Some(0.1)),
                t(11, Color::White, 0.2, Some(0.06)),
            ],
            result: None,
            spent: 0,
        };
        let numbers =
            |side| -> Vec<u32> { r.turning_points(side).iter().map(|t| t.number).collect() };
        assert_eq!(
            numbers(Color::White),
            vec![3, 9, 1],
            "the earlier when equal"
        );
        assert!(
            numbers(Color::Black).is_empty(),
            "a cost the deeper search does not confirm is none"
        );
    }

    /// Issue 46: a turn that is the robot's own choice at the review's budget costs
    /// nothing, so a game the review's own search played lists no turning point.
    #[test]
    fn a_game_of_the_reviews_own_choices_has_no_turning_point() {
        let mut game = Game::new(Variant::Normal);
        let mut played = Vec::new();
        while played.len() < 24 && !game.is_over() {
            let Searched::Chose { turn, .. } = search(&game, REVIEW_PLAYOUTS, &mut 0) else {
                panic!("no forced turn this early");
            };
            game = super::played(&game, &turn);
            played.push(turn);
        }
        let r = review(Variant::Normal, &played, None, REVIEW_PLAYOUTS).expect("review");
        assert_eq!(r.turns.len(), 24);
        for t in &r.turns {
            assert_eq!(t.played, t.preferred, "turn {}", t.number);
            assert_eq!((t.cost, t.confirmed), (0.0, None), "turn {}", t.number);
            assert_eq!(t.preferred_after, t.chance_after);
        }
        assert!(Color::BOTH.iter().all(|&s| r.turning_points(s).is_empty()));
    }
}
