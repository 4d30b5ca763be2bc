//! The robot's review of a game (issue 28): White's win chance before and after every
//! turn, the turns that lost their player the most (the [`TURNING_POINTS`] largest
//! drops of each side), and for each the turn the robot preferred with its chance.
//!
//! Each position is searched on its own by a fresh robot with the same playout budget
//! and a seed made from the position itself ([`position_seed`]), so a review depends
//! only on the game and the budget: the same on every machine, whoever asks, and the
//! positions could be searched in any order. One search per position gives both the
//! position's value (the chance of the robot's preferred turn) and that turn; the
//! chance after a turn is the value of the next position, so a game of n turns costs n
//! searches. A turn the rules force (a lone pass, a lone removal) costs nothing and
//! loses nothing: its chance before is its chance after. A finished position's value
//! is its result (1 won by White, 0 won by Black, 0.5 drawn).
//!
//! Each position is valued by its side to move, who sees its chances higher than the
//! other side does (in YINSH the move is worth much, and a search's best turn is an
//! optimistic estimate): the chart zigzags by some points from turn to turn in the
//! middle game, and every turn shows a small drop. The turning points are therefore
//! the largest drops among one side's own turns, which all carry that bias alike.
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

use super::robot::{Budget, Robot, ThinkSettings};
use crate::rules::{Action, Color, Game, IllegalAction, Outcome, Point, Variant};

/// The playouts a review spends on each position unless told otherwise: level 3's
/// search (600), some 15 ms a position, a second or two a game.
pub const REVIEW_PLAYOUTS: u64 = 600;

/// How many turning points of each side a review names.
pub const TURNING_POINTS: usize = 3;

/// A turn whose player lost less than this (2 percentage points) is no turning point.
pub const MIN_DROP: f32 = 0.02;

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
    /// White's win chance before the turn: the robot's preferred turn's chance.
    pub chance_before: f32,
    /// White's win chance after the turn.
    pub chance_after: f32,
    /// The turn the robot preferred (the played one when the rules forced it).
    pub preferred: Vec<Action>,
}

impl TurnReview {
    /// What the turn lost its player: their win chance before it minus after it
    /// (negative when it gained).
    ///
    /// ```
    /// use yinsh_pbem::ai::TurnReview;
    /// use yinsh_pbem::rules::{Color, Game, Variant};
    /// let t = TurnReview { number: 12, side: Color::Black, before: Game::new(Variant::Normal),
    ///     played: vec![], chance_before: 0.4, chance_after: 0.7, preferred: vec![] };
    /// assert!((t.drop() - 0.3).abs() < 1e-6);
    /// ```
    pub fn drop(&self) -> f32 {
        for_side(self.chance_before, self.side) - for_side(self.chance_after, self.side)
    }

    /// The player's own win chance before the turn (what the preferred turn keeps)
    /// and after it.
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
    /// value before the first turn, after each turn, then the result when the game
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

    /// The turns of `side` that lost it the most: at most [`TURNING_POINTS`], each a
    /// drop of at least [`MIN_DROP`] by a turn other than the robot's preferred one,
    /// the largest first (the earlier first when equal).
    pub fn turning_points(&self, side: Color) -> Vec<&TurnReview> {
        let mut out: Vec<&TurnReview> = self
            .turns
            .iter()
            .filter(|t| t.side == side && t.played != t.preferred && t.drop() >= MIN_DROP)
            .collect();
        out.sort_by(|a, b| b.drop().total_cmp(&a.drop()).then(a.number.cmp(&b.number)));
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
    let mut positions = Vec::with_capacity(turns.len() + 1);
    let mut game = Game::new(variant);
    for (i, turn) in turns.iter().enumerate() {
        positions.push(game);
        for &a in turn {
            game.play(a).map_err(|error| ReviewError {
                number: turn_number(i),
                error,
            })?;
        }
    }
    // The value of each position, from the end back (a forced turn takes the next's).
    let mut after = value_of_end(&game);
    let mut reviewed = Vec::with_capacity(turns.len());
    for (i, (turn, before)) in turns.iter().zip(&positions).enumerate().rev() {
        let side = before.to_act().unwrap_or(Color::White);
        let (chance_before, preferred) = match search(before, playouts) {
            Some((chance, preferred)) => (for_side(chance, side), preferred),
            None => (after, turn.clone()),
        };
        reviewed.push(TurnReview {
            number: turn_number(i),
            side,
            before: *before,
            played: turn.clone(),
            chance_before,
            chance_after: after,
            preferred,
        });
        after = chance_before;
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
    })
}

/// The number of the turn at index `i`.
fn turn_number(i: usize) -> u32 {
    u32::try_from(i + 1).unwrap_or(u32::MAX)
}

/// White's chance in the final position: its result, or the static estimate of a
/// game left unfinished (a search of it would be one turn more).
fn value_of_end(game: &Game) -> f32 {
    outcome_value(game.outcome()).unwrap_or_else(|| super::eval::win_chance(game, Color::White))
}

/// White's share of `outcome`: 1, 0 or 0.5; `None` while the game goes on.
fn outcome_value(outcome: Option<Outcome>) -> Option<f32> {
    outcome.map(|o| match o {
        Outcome::Win(Color::White) => 1.0,
        Outcome::Win(Color::Black) => 0.0,
        Outcome::Draw => 0.5,
    })
}

/// The robot's preferred turn in `game` and its chance for the side to move, from a
/// fresh search of `playouts` seeded by the position; `None` when the rules force
/// the whole turn (or the game is over).
fn search(game: &Game, playouts: u64) -> Option<(f32, Vec<Action>)> {
    game.to_act()?;
    let settings =
        ThinkSettings::estimating(Budget::Playouts(playouts.max(1)), position_seed(game));
    let turn = Robot::new(settings).think(game).ok()?;
    (turn.playouts > 0).then_some((turn.win_chance, turn.actions))
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
    fn turning_points_are_the_largest_drops_of_one_side_not_the_preferred_turns() {
        let g = Game::new(Variant::Normal);
        let t = |number, side, before: f32, after: f32, same: bool| TurnReview {
            number,
            side,
            before: g,
            played: turns("e5").remove(0),
            chance_before: before,
            chance_after: after,
            preferred: turns(if same { "e5" } else { "f6" }).remove(0),
        };
        let r = Review {
            variant: Variant::Normal,
            playouts: 1,
            turns: vec![
                t(1, Color::White, 0.5, 0.4, false),
                t(2, Color::Black, 0.4, 0.6, false),
                t(3, Color::White, 0.6, 0.3, false),
                t(4, Color::Black, 0.3, 0.29, false),
                t(5, Color::White, 0.3, 0.2, true),
                t(7, Color::White, 0.3, 0.25, false),
                t(9, Color::White, 0.3, 0.22, false),
            ],
            result: None,
        };
        let numbers =
            |side| -> Vec<u32> { r.turning_points(side).iter().map(|t| t.number).collect() };
        assert_eq!(numbers(Color::White), vec![3, 1, 9]);
        assert_eq!(
            numbers(Color::Black),
            vec![2],
            "a drop under 2 points is none"
        );
    }
}
