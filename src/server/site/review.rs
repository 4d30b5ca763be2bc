//! The robot's review on a finished game's page (issue 28), from the store's
//! `reviews/<n>.json`: under the board, the win-chance chart (inline SVG from
//! `picture::Chart`, the turning points ringed) with its caption, and the list of the
//! turning points (the move, who, what was played, White's chance before and after,
//! the robot's preferred turn). Each point of the chart carries its position
//! (`data-position`) and each turning point links its move (`#m<k>`, `data-k`), so the
//! page's script steps the board there; without the script the chart and the list are
//! still read. A game without a review gets no section.

use std::fmt::Write as _;

use crate::picture::Chart;
use crate::rules::Color;
use crate::server::game::record::LiveGame;
use crate::server::model::BoardId;
use crate::server::store::{GameReview, ReviewSide, TurningPoint};
use crate::server::text::html::escape;

/// A review that does not fit its game: more chart values than positions (and the
/// result), none at all, or a turning point outside the moves.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "board {board}: its review (reviews/{board}.json: {values} chart values, turning \
     points at moves {numbers:?}) does not fit the game of {turns} moves; remove the \
     file so that the game is reviewed again"
)]
pub struct MisfitReview {
    /// The board.
    pub board: BoardId,
    /// The chart's values.
    pub values: usize,
    /// The turning points' move numbers.
    pub numbers: Vec<u32>,
    /// The game's moves.
    pub turns: usize,
}

/// `review` checked against the game of `turns` moves on `board`: a value for each
/// position (the first before any move), one more for a result off the board, and
/// each turning point one of the moves.
pub(super) fn check(board: BoardId, review: &GameReview, turns: usize) -> Result<(), MisfitReview> {
    let values = review.chart.len();
    let fits = review.board == board
        && (1..=turns + 2).contains(&values)
        && review
            .points
            .iter()
            .all(|p| (1..=turns).contains(&(p.number as usize)));
    if fits {
        return Ok(());
    }
    Err(MisfitReview {
        board,
        values,
        numbers: review.points.iter().map(|p| p.number).collect(),
        turns,
    })
}

/// White's chance at each point of the chart, in whole percent (the page's data: the
/// script names the chart's points with them).
pub(super) fn percents(review: &GameReview) -> Vec<u8> {
    review
        .chart
        .iter()
        .map(|v| (v.clamp(0.0, 1.0) * 100.0).round() as u8)
        .collect()
}

/// The chart of `review`: White's chance at each position, the turning points ringed
/// at the position after them.
fn chart(review: &GameReview) -> Chart {
    review
        .points
        .iter()
        .fold(Chart::new(&review.chart), |chart, p| {
            chart.mark(p.number as usize, color(p.side))
        })
}

fn color(side: ReviewSide) -> Color {
    match side {
        ReviewSide::White => Color::White,
        ReviewSide::Black => Color::Black,
    }
}

/// A chance as a whole percentage.
fn pct(chance: f32) -> String {
    format!("{:.0}%", chance.clamp(0.0, 1.0) * 100.0)
}

/// The review's section of the page of `live` (checked to fit it with [`check`]).
pub(super) fn section(live: &LiveGame, review: &GameReview) -> String {
    let mut out = String::with_capacity(24 * 1024);
    let _ = write!(
        out,
        "<section class=\"review\" id=\"review\" aria-labelledby=\"review-h\">\n\
         <h2 id=\"review-h\">The robot's review</h2>\n<figure id=\"review-chart\">\n{}\
         <figcaption>White's chance to win after each move, as the robot sees it \
         ({} playouts a position): above the dashed line White leads, below it Black. \
         The turning points are ringed, White's in orange, Black's in blue.\
         <span id=\"review-how\" hidden> Click a point (or focus it and press Enter) to \
         see that position.</span></figcaption>\n</figure>\n<h3>Turning points</h3>\n",
        chart(review).to_svg(),
        review.playouts,
    );
    if review.points.is_empty() {
        out.push_str("<p>No move lost its player much: no turning points.</p>\n");
    } else {
        out.push_str("<ol class=\"turning\">\n");
        for p in &review.points {
            out.push_str(&turning_point(live, p));
        }
        out.push_str("</ol>\n");
    }
    out.push_str("</section>\n");
    out
}

/// One turning point as an item of the list, linking the position after it.
fn turning_point(live: &LiveGame, p: &TurningPoint) -> String {
    let side = color(p.side);
    let k = p.number;
    format!(
        "<li><a href=\"#m{k}\" data-k=\"{k}\">Move {k}</a>, {} ({}): played <code>{}</code>; \
         White's chance {} &rarr; {}; the robot preferred <code>{}</code> ({}).</li>\n",
        side,
        escape(live.player(side).as_str()),
        escape(&p.played),
        pct(p.before),
        pct(p.after),
        escape(&p.preferred),
        pct(p.preferred_chance()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn review(chart: Vec<f32>, numbers: &[u32]) -> GameReview {
        GameReview {
            board: BoardId::from(7),
            playouts: 20,
            made: 0,
            chart,
            points: numbers
                .iter()
                .map(|&number| TurningPoint {
                    number,
                    side: ReviewSide::Black,
                    played: "e5".to_string(),
                    preferred: "f6".to_string(),
                    before: 0.4,
                    after: 0.7,
                    preferred_after: None,
                })
                .collect(),
        }
    }

    #[test]
    fn a_review_fits_its_game_or_is_a_named_error() {
        let board = BoardId::from(7);
        let five = vec![0.5; 5];
        assert_eq!(check(board, &review(five.clone(), &[4]), 4), Ok(()));
        // A result off the board is one value more.
        assert_eq!(check(board, &review(vec![0.5; 6], &[1]), 4), Ok(()));
        let long = check(board, &review(vec![0.5; 7], &[]), 4).expect_err("too long");
        assert_eq!(long.values, 7);
        assert!(long.to_string().contains("reviews/7.json"), "{long}");
        assert!(
            check(board, &review(five.clone(), &[5]), 4).is_err(),
            "move 5"
        );
        assert!(
            check(board, &review(five.clone(), &[0]), 4).is_err(),
            "move 0"
        );
        assert!(check(board, &review(Vec::new(), &[]), 4).is_err(), "empty");
        assert!(
            check(BoardId::from(8), &review(five, &[]), 4).is_err(),
            "board"
        );
    }

    #[test]
    fn percents_are_whole_and_clamped() {
        let r = review(vec![0.0, 0.505, 0.994, 1.2, -0.1], &[]);
        assert_eq!(percents(&r), [0, 51, 99, 100, 0]);
    }
}
