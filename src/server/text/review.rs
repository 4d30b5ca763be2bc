//! The robot's review mail (issue 28, `docs/mail-formats.md`), and the answers to a
//! `review` request. The text part reads in a proportional font (no columns): the
//! game and its result, the turning points (each: its number, who played it, the
//! turn played and White's chance before and after it, the robot's preferred turn and
//! its chance), then White's chance after every turn, ten turns a line. The HTML part
//! ([`ReviewHtml`]) shows the chart (an inline PNG: mail programs do not show SVG),
//! for the [`PICTURED_POINTS`] largest turning points the board before it drawn twice
//! small (`Picture::to_small_png`) (after the turn played, and after the preferred turn, each turn
//! marked; side by side where the window holds both, else one under the other), the
//! other turning points written only, and the same lists. Every text in it is
//! escaped: userids come from players.

use std::fmt::Write as _;

use crate::ai::for_side;
use crate::picture::{Chart, Picture};
use crate::rules::Color;
use crate::server::game::record::LiveGame;
use crate::server::game::review::{TurningBoards, turning_boards};
use crate::server::model::BoardId;
use crate::server::store::{GameReview, ReviewSide, TurningPoint};

use super::ending::{ending_line, status_line};
use super::html::{escape, head, picture};

/// The turning points a review mail draws boards for (the largest drops first): two
/// pictures each, so a review mail carries at most `1 + 2 * PICTURED_POINTS`, and
/// stays under 100 kB (`tests/it/review_mail.rs`).
pub const PICTURED_POINTS: usize = 2;

/// The answer to `review` for a game still going on.
pub fn still_played(board: BoardId) -> String {
    format!(
        "Board {board} is still being played: its review comes when it ends.\n\n\
         When a game ends, the robot reviews it and mails the review to both players.\n"
    )
}

/// The answer to `review` for a finished game no person moved in.
pub fn unplayed(board: BoardId) -> String {
    format!("Board {board} ended before anyone moved in it: there is nothing to review.\n")
}

/// The answer to `review` for a finished game whose review is queued; `added`: the
/// asker will get it by mail too (an account asked, and the requesters are not full).
pub fn queued(board: BoardId, added: Added) -> String {
    let who = match added {
        Added::Asker => "the players and to you",
        Added::PlayersOnly => "the players",
    };
    let mut out = format!(
        "The robot will review board {board} shortly; the review comes by mail to {who}.\n"
    );
    match added {
        Added::Asker => {}
        Added::PlayersOnly => out.push_str(
            "\nTo have it mailed to you, send this again once it is made (or with your\n\
             userid and password now: yinsh review <board> <userid> <password>).\n",
        ),
    }
    out
}

/// Whether the asker of a queued review gets it by mail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Added {
    /// A player, or an account added to the requesters.
    Asker,
    /// Nobody proven, or the requesters are full: only the players.
    PlayersOnly,
}

/// A chance in whole percent: `61`.
fn percent(c: f32) -> String {
    format!("{:.0}", (c.clamp(0.0, 1.0) * 100.0).round())
}

/// A chance as a whole percentage: `61%`.
fn pct(c: f32) -> String {
    format!("{}%", percent(c))
}

/// The review mail of one finished game.
pub struct ReviewMail<'a> {
    /// The game.
    pub live: &'a LiveGame,
    /// Its review.
    pub review: &'a GameReview,
}

impl ReviewMail<'_> {
    /// Who played `side`, with the side: `bob (Black)`.
    fn who(&self, side: ReviewSide) -> String {
        let (color, name) = match side {
            ReviewSide::White => (Color::White, "White"),
            ReviewSide::Black => (Color::Black, "Black"),
        };
        format!("{} ({name})", self.live.player(color))
    }

    /// The heading: `The robot's review of board 101: alice (White) - bob (Black)`.
    fn heading(&self) -> String {
        format!(
            "The robot's review of board {}: {} - {}",
            self.live.board(),
            self.who(ReviewSide::White),
            self.who(ReviewSide::Black)
        )
    }

    /// The result: the status line and why the game ended.
    fn result(&self) -> String {
        let game = self.live.game();
        match ending_line(self.live, game) {
            Some(why) => format!("{} {why}", status_line(self.live, game)),
            None => status_line(self.live, game),
        }
    }

    /// How the chances were made, in a sentence.
    fn method(&self) -> String {
        format!(
            "The robot searched every position with {} playouts. The chances are White's \
             chance to win as the robot sees it after each turn; a turn's cost is the \
             chance its player gave up against the robot's preferred turn, and the \
             turning points are the costliest turns whose cost a search {} times deeper \
             confirmed.",
            self.review.playouts,
            crate::ai::CONFIRM_FACTOR
        )
    }

    /// One turning point in two sentences.
    fn point(&self, p: &TurningPoint) -> String {
        format!(
            "Turn {}, {}: played {}. White's chance before it {}, after it {}. \
             The robot preferred {} (White's chance {}).",
            p.number,
            self.who(p.side),
            p.played,
            pct(p.before),
            pct(p.after),
            p.preferred,
            pct(p.preferred_chance())
        )
    }

    /// White's chance after every turn, ten turns a line: `Turns 1-10: 50 52 ...`;
    /// then the result when the game ended off the board (the chart's last value).
    fn chances(&self) -> Vec<String> {
        let mut after: Vec<f32> = self.review.chart.iter().skip(1).copied().collect();
        let result = match self.live.file().ended {
            Some(_) => after.pop(),
            None => None,
        };
        let mut lines: Vec<String> = after
            .chunks(10)
            .enumerate()
            .map(|(k, chunk)| {
                let first = k * 10 + 1;
                let values: Vec<String> = chunk.iter().map(|&c| percent(c)).collect();
                match chunk.len() {
                    1 => format!("Turn {first}: {}", values.join(" ")),
                    n => format!("Turns {first}-{}: {}", first + n - 1, values.join(" ")),
                }
            })
            .collect();
        lines.extend(result.map(|r| format!("The result: {}", percent(r))));
        lines
    }

    /// The text part.
    pub fn body(&self) -> String {
        let mut out = format!(
            "{}\n\n{}\n\n{}\n\n",
            self.heading(),
            self.result(),
            self.method()
        );
        out.push_str("Turning points:\n\n");
        if self.review.points.is_empty() {
            out.push_str("None: no turn lost its player much.\n\n");
        }
        for p in &self.review.points {
            let _ = writeln!(out, "{}\n", self.point(p));
        }
        out.push_str("White's chance in percent after every turn:\n\n");
        for line in self.chances() {
            let _ = writeln!(out, "{line}");
        }
        out
    }

    /// The HTML part: the turning points drawn (the [`PICTURED_POINTS`] largest).
    pub fn html(&self) -> ReviewHtml {
        let mut chart = Chart::new(&self.review.chart);
        for p in &self.review.points {
            chart = chart.mark(p.number as usize, color(p.side));
        }
        let mut by_drop: Vec<&TurningPoint> = self.review.points.iter().collect();
        by_drop.sort_by(|a, b| drop(b).total_cmp(&drop(a)).then(a.number.cmp(&b.number)));
        by_drop.truncate(PICTURED_POINTS);
        let boards = turning_boards(self.live, &by_drop);
        let points = self
            .review
            .points
            .iter()
            .map(|p| (p.number, escape(&self.point(p))))
            .collect();
        ReviewHtml {
            board: self.live.board(),
            chart,
            boards,
            title: escape(&self.heading()),
            intro: format!(
                "<p style=\"margin:4px 0\">{}</p>\n<p style=\"margin:4px 0\">{}</p>\n",
                escape(&self.result()),
                escape(&self.method())
            ),
            points,
            chances: self.chances().iter().map(|l| escape(l)).collect(),
        }
    }
}

/// What the HTML part says when only the `n` largest turning points have boards.
fn pictured(n: usize) -> String {
    match n {
        1 => "Boards are drawn for the turning point that cost most; the others are \
              written only."
            .to_string(),
        n => format!(
            "Boards are drawn for the {n} turning points that cost most; the others are \
             written only."
        ),
    }
}

/// The side of a stored review's turn.
fn color(side: ReviewSide) -> Color {
    match side {
        ReviewSide::White => Color::White,
        ReviewSide::Black => Color::Black,
    }
}

/// What a turning point lost its player.
fn drop(p: &TurningPoint) -> f32 {
    let side = color(p.side);
    for_side(p.before, side) - for_side(p.after, side)
}

/// The HTML part of a review mail, waiting for the Content-IDs of its pictures.
#[derive(Debug, Clone, PartialEq)]
pub struct ReviewHtml {
    /// The board reviewed.
    pub board: BoardId,
    /// The chart, the turning points ringed.
    pub chart: Chart,
    /// The boards drawn, by turning point number.
    pub boards: Vec<(u32, TurningBoards)>,
    /// The heading, escaped.
    title: String,
    /// The result and the method, as paragraphs.
    intro: String,
    /// Each turning point (number, its sentences escaped), in the order of the game.
    points: Vec<(u32, String)>,
    /// The lines of White's chances, escaped.
    chances: Vec<String>,
}

// `Chart` holds floats: equal reviews are equal charts, and nothing compares NaN.
impl Eq for ReviewHtml {}

impl ReviewHtml {
    /// The pictures of the part, in the order [`ReviewHtml::document`] takes their
    /// Content-IDs: the boards' (after the turn played, after the preferred turn).
    pub fn board_pictures(&self) -> Vec<&Picture> {
        self.boards
            .iter()
            .flat_map(|(_, b)| [&b.played, &b.preferred])
            .collect()
    }

    /// The whole document: the chart is `cid:` `chart_cid`, the boards' pictures
    /// `board_cids` (in the order of [`ReviewHtml::board_pictures`]); `page`, when
    /// given, the address of the game's web page.
    pub fn document(&self, chart_cid: &str, board_cids: &[String], page: Option<&str>) -> String {
        let (sw, sh) = Picture::small_size();
        let mut out = String::with_capacity(8192);
        out.push_str(&head(&self.title, 640));
        let _ = write!(
            out,
            "<h1 style=\"font-size:20px;margin:0 0 8px\">{title}</h1>\n{intro}{chart}\n",
            title = self.title,
            intro = self.intro,
            chart = picture(
                chart_cid,
                Chart::size(),
                "White's win chance after each turn",
                "12px 0"
            ),
        );
        if let Some(url) = page {
            let _ = writeln!(
                out,
                "<p style=\"margin:4px 0\"><a href=\"{}\">This game on the web</a> \
                 (every position, and the chart to click)</p>",
                escape(url)
            );
        }
        out.push_str("<h2 style=\"font-size:16px;margin:16px 0 4px\">Turning points</h2>\n");
        if self.points.is_empty() {
            out.push_str("<p style=\"margin:4px 0\">None: no turn lost its player much.</p>\n");
        }
        if self.points.len() > self.boards.len() && !self.boards.is_empty() {
            let _ = writeln!(
                out,
                "<p style=\"margin:4px 0\">{}</p>",
                escape(&pictured(self.boards.len()))
            );
        }
        // Each board its own size, or the window's width when that is less: side by
        // side where the window holds both, else one under the other.
        let cell = format!(
            "display:inline-block;vertical-align:top;width:{sw}px;max-width:100%;margin:0 8px 8px 0;text-align:center"
        );
        let img = format!("display:block;width:100%;max-width:{sw}px;height:auto;border:0");
        for (number, text) in &self.points {
            let _ = writeln!(out, "<p style=\"margin:10px 0 4px\">{text}</p>");
            let Some(k) = self.boards.iter().position(|(n, _)| n == number) else {
                continue;
            };
            let (Some(played), Some(preferred)) =
                (board_cids.get(2 * k), board_cids.get(2 * k + 1))
            else {
                continue;
            };
            out.push_str("<div>");
            for (cid, alt, caption) in [
                (played, "as played", "Played"),
                (preferred, "as the robot preferred", "The robot's choice"),
            ] {
                let _ = write!(
                    out,
                    "<div style=\"{cell}\"><img src=\"cid:{}\" width=\"{sw}\" height=\"{sh}\" alt=\"Turn {number} {alt}\" style=\"{img}\"><div>{caption}</div></div>",
                    escape(cid),
                );
            }
            out.push_str("</div>\n");
        }
        out.push_str(
            "<h2 style=\"font-size:16px;margin:16px 0 4px\">White's chance in percent after every turn</h2>\n",
        );
        for line in &self.chances {
            let _ = writeln!(out, "<p style=\"margin:2px 0\">{line}</p>");
        }
        out.push_str("</div>\n</body></html>\n");
        out
    }
}
