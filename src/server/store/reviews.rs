//! The robot's reviews of finished games (issue 28): `<home>/reviews/<board>.json`,
//! one [`GameReview`] for each game reviewed, written in a transaction of its own once
//! the review was thought (outside the store's lock). A review depends only on the
//! game and its playout budget (`ai::review`), so it is made once and kept: the mails
//! and the game's web page read it.
//!
//! ```text
//! {"board": 101, "playouts": 600, "made": 1795384020,
//!  "chart": [0.5, 0.52, ..., 1.0],
//!  "points": [{"number": 27, "side": "white", "played": "g8-i8", "preferred": "f5-f9",
//!              "before": 0.61, "after": 0.38, "preferred_after": 0.6}]}
//! ```
//! (pretty-printed; `preferred_after` is absent from reviews kept before issue 46)

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::{Store, StoreError};
use crate::server::model::BoardId;

/// A side of the board, as a review stores it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewSide {
    White,
    Black,
}

/// One turning point: a turn that lost its player much of their win chance.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurningPoint {
    /// The turn's number in the move list (the first is 1): the position it was played
    /// from is `chart[number - 1]`, the one after it `chart[number]`.
    pub number: u32,
    /// Who played it.
    pub side: ReviewSide,
    /// The turn played, in notation (`g8-i8;xd5-h9xc6`).
    pub played: String,
    /// The turn the robot preferred, in notation.
    pub preferred: String,
    /// White's win chance before the turn (the preferred turn's chance).
    pub before: f32,
    /// White's win chance after the turn played.
    pub after: f32,
    /// White's win chance after the preferred turn (absent from reviews made before
    /// issue 46: [`TurningPoint::preferred_chance`] then says `before`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preferred_after: Option<f32>,
}

impl TurningPoint {
    /// White's win chance after the preferred turn: `preferred_after`, or `before`
    /// in a review kept before it was stored.
    pub fn preferred_chance(&self) -> f32 {
        self.preferred_after.unwrap_or(self.before)
    }
}

/// The review of one finished game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameReview {
    /// The board reviewed.
    pub board: BoardId,
    /// The playouts spent on each position.
    pub playouts: u64,
    /// When the review was made, Unix seconds.
    pub made: u64,
    /// White's win chance at every position: `chart[0]` the empty board, `chart[k]`
    /// after k turns; the last is the result (1 won by White, 0 by Black, 0.5 drawn).
    pub chart: Vec<f32>,
    /// The turning points, in the order of the game.
    pub points: Vec<TurningPoint>,
}

impl Store {
    /// `<home>/reviews`.
    pub fn reviews_dir(&self) -> PathBuf {
        self.home.join("reviews")
    }

    fn review_path(&self, board: BoardId) -> PathBuf {
        self.reviews_dir().join(format!("{board}.json"))
    }

    /// The review of `board`, if it was made.
    pub fn review(&self, board: BoardId) -> Result<Option<GameReview>, StoreError> {
        self.read_json(&self.review_path(board), "review")
    }

    /// Keep the review of its board (replacing any earlier one).
    pub fn put_review(&self, review: &GameReview) -> Result<(), StoreError> {
        self.write_json(&self.review_path(review.board), "review", review)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_review_round_trips_and_a_corrupt_one_is_a_named_error() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("open");
        let board = BoardId::from(101);
        assert_eq!(store.review(board).expect("read"), None);
        let review = GameReview {
            board,
            playouts: 600,
            made: 1_795_384_020,
            chart: vec![0.5, 0.6, 0.25, 0.0],
            points: vec![TurningPoint {
                number: 2,
                side: ReviewSide::White,
                played: "f6".to_string(),
                preferred: "e5".to_string(),
                before: 0.6,
                after: 0.25,
                preferred_after: Some(0.58),
            }],
        };
        store.put_review(&review).expect("write");
        assert_eq!(store.review(board).expect("read"), Some(review));
        let path = dir.path().join("reviews/101.json");
        let text = std::fs::read_to_string(&path).expect("file");
        assert!(text.contains(r#""side": "white""#), "{text}");
        std::fs::write(&path, b"{\"board\": 101}").expect("corrupt");
        let err = store.review(board).expect_err("corrupt");
        assert!(err.to_string().contains("101.json"), "{err}");
    }

    /// Issue 46: a review kept before `preferred_after` was stored still loads; its
    /// preferred turn's chance is then the chance before the turn, as it was shown.
    #[test]
    fn a_review_kept_without_the_preferred_turns_chance_loads() {
        let old = r#"{"board": 101, "playouts": 600, "made": 1,
            "chart": [0.5, 0.6, 0.25, 0.0],
            "points": [{"number": 2, "side": "white", "played": "f6", "preferred": "e5",
                        "before": 0.6, "after": 0.25}]}"#;
        let review: GameReview = serde_json::from_str(old).expect("an old review");
        assert_eq!(review.points[0].preferred_after, None);
        assert_eq!(review.points[0].preferred_chance(), 0.6);
        let text = serde_json::to_string(&review).expect("written");
        assert!(!text.contains("preferred_after"), "{text}");
    }
}
