//! A stored game as the robot's review sees it (issue 28): its turns as atomic
//! actions, split as `yinsh-pbem review` splits a transcript's (`notation::
//! split_turns`, so the numbers agree), and the result when it ended off the board; the
//! review kept ([`stored`]: the chart and the turning points in notation); and the
//! positions a review mail draws around a turning point ([`TurningBoards`]); which
//! games are reviewed at all ([`worth_reviewing`]).

use crate::ai::{Review, review};
use crate::notation::{self, split_turns, write_turn};
use crate::picture::{LastMove, Picture};
use crate::rules::{Action, Color, Game, Outcome};
use crate::server::model::BoardId;
use crate::server::store::{GameReview, ReviewSide, TurningPoint};

use super::record::{LiveGame, ReplayError};

/// Whether `live` is worth a review: a person (no robot, not the server's forced
/// pass) played at least one turn of it. A game forfeited, resigned or agreed drawn
/// before anyone moved is not reviewed.
pub fn worth_reviewing(live: &LiveGame) -> bool {
    live.file()
        .turns
        .iter()
        .any(|t| !t.auto && t.by.robot_level().is_none())
}

/// What `ai::review` is given for one game.
#[derive(Debug, Clone)]
pub struct ReviewInput {
    /// The turns, each its atomic actions.
    pub turns: Vec<Vec<Action>>,
    /// The result when the game ended off the board (a resignation, a forfeit, an
    /// agreed draw).
    pub ending: Option<Outcome>,
}

/// The turns of `live` and how it ended, for `ai::review`.
pub fn input(live: &LiveGame) -> Result<ReviewInput, ReplayError> {
    let file = live.file();
    let start = Game::new(file.variant);
    let mut game = start;
    let mut records = Vec::with_capacity(file.turns.len());
    for (k, t) in file.turns.iter().enumerate() {
        let played = notation::play_turn(&mut game, &t.text).map_err(|why| ReplayError::Turn {
            board: file.board,
            turn: k + 1,
            text: t.text.clone(),
            why,
        })?;
        records.push(played);
    }
    // Split as the command line's review splits a transcript: the same numbers (the
    // actions were all played above, so the split cannot fail: the records else).
    let actions: Vec<Action> = records.iter().flatten().copied().collect();
    let turns = split_turns(&start, &actions).unwrap_or(records);
    let ending = file.ended.as_ref().and_then(|_| live.game().outcome());
    Ok(ReviewInput { turns, ending })
}

/// The review of `live` at `playouts` a position (`ai::review`), `None` when a turn
/// of it cannot be played (a damaged file: the caller logs it).
pub fn think(live: &LiveGame, playouts: u64) -> Result<Option<Review>, ReplayError> {
    let input = input(live)?;
    Ok(review(live.file().variant, &input.turns, input.ending, playouts).ok())
}

/// The review of `board` as it is kept: the chart, and each side's turning points in
/// the order of the game, made at `now`.
pub fn stored(board: BoardId, r: &Review, now: u64) -> GameReview {
    let mut points: Vec<TurningPoint> = Color::BOTH
        .into_iter()
        .flat_map(|side| r.turning_points(side))
        .map(|t| TurningPoint {
            number: t.number,
            side: match t.side {
                Color::White => ReviewSide::White,
                Color::Black => ReviewSide::Black,
            },
            played: write_turn(&t.played),
            preferred: write_turn(&t.preferred),
            before: t.chance_before,
            after: t.chance_after,
            preferred_after: Some(t.preferred_after),
        })
        .collect();
    points.sort_by_key(|p| p.number);
    GameReview {
        board,
        playouts: r.playouts,
        made: now,
        chart: r.chart(),
        points,
    }
}

/// The two boards a review mail draws for one turning point: the position before it
/// after the turn played, and after the robot's preferred turn, each turn marked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurningBoards {
    /// After the turn played.
    pub played: Picture,
    /// After the preferred turn.
    pub preferred: Picture,
}

/// The boards of each turning point of `points` in `live`'s game, from one replay of
/// it; a point whose stored turns do not play there (a review of another game) is
/// left out, and all of them when the game does not replay.
pub fn turning_boards(live: &LiveGame, points: &[&TurningPoint]) -> Vec<(u32, TurningBoards)> {
    let Ok(input) = input(live) else {
        return Vec::new();
    };
    // The position before each turn (a game is a small value, copied).
    let mut game = Game::new(live.file().variant);
    let mut positions = Vec::with_capacity(input.turns.len() + 1);
    positions.push(game);
    for turn in &input.turns {
        for &a in turn {
            if game.play(a).is_err() {
                return Vec::new();
            }
        }
        positions.push(game);
    }
    points
        .iter()
        .filter_map(|p| {
            let before = positions.get(usize::try_from(p.number).ok()?.checked_sub(1)?)?;
            Some((p.number, boards_at(before, p)?))
        })
        .collect()
}

/// The boards of the turning point `point` played from `before`.
fn boards_at(before: &Game, point: &TurningPoint) -> Option<TurningBoards> {
    let drawn = |text: &str| -> Option<Picture> {
        let mut after = *before;
        let actions = notation::play_turn(&mut after, text).ok()?;
        let last = LastMove::from_turn(before, &actions).unwrap_or_default();
        Some(Picture::new(&after).last_move(&last))
    };
    Some(TurningBoards {
        played: drawn(&point.played)?,
        preferred: drawn(&point.preferred)?,
    })
}
