//! The side panel right of the board: for each side its name, its ring and marker (a
//! legend), whose turn it is or who won, and the rings it has removed out of those it
//! needs; then the markers left in the pool, and `BLITZ` for the blitz variant. The
//! names, legends and words are the same in every picture (`fixed`), the rest tells
//! the position (`state`).

use std::fmt::Write;

use super::geometry::PANEL_LEFT;
use super::glyphs::{self, Anchor};
use super::svg::{INK, MOVE_MARK, marker, ring};
use crate::rules::{Color, Game, Outcome, Variant};

/// The words `fixed` writes (the glyphs it needs).
pub(crate) const FIXED_WORDS: [&str; 4] = ["WHITE", "BLACK", "REMOVED", "POOL"];

/// The words `state` may write (the glyphs it needs, with the digits).
pub(crate) const STATE_WORDS: [&str; 4] = ["TO PLAY", "WINS", "DRAW", "BLITZ"];

/// Left edge of the panel's text.
const LEFT: f64 = PANEL_LEFT + 6.0;

/// The fixed part of the panel (the same in every picture: `base.rs` keeps it drawn):
/// each side's name, its ring and marker (a legend) and the word `REMOVED`; the word
/// `POOL` and the pool's two markers.
pub(crate) fn fixed(out: &mut String) {
    for (color, name, top) in [
        (Color::White, "WHITE", WHITE_TOP),
        (Color::Black, "BLACK", BLACK_TOP),
    ] {
        out.push_str(&glyphs::text(name, LEFT, top, 15.0, Anchor::Start, INK));
        ring(out, color, LEFT + 17.0, top + 32.0, 15.0);
        marker(out, color, LEFT + 52.0, top + 32.0, 10.0);
        out.push_str(&glyphs::text(
            "REMOVED",
            LEFT,
            top + 86.0,
            10.0,
            Anchor::Start,
            INK,
        ));
    }
    out.push_str(&glyphs::text(
        "POOL",
        LEFT,
        POOL_TOP,
        13.0,
        Anchor::Start,
        INK,
    ));
    // What the pool holds: markers, white on one side and black on the other.
    marker(out, Color::White, LEFT + 10.0, POOL_TOP + 26.0, 8.0);
    marker(out, Color::Black, LEFT + 32.0, POOL_TOP + 26.0, 8.0);
}

/// Top of White's block.
const WHITE_TOP: f64 = 22.0;
/// Top of Black's block.
const BLACK_TOP: f64 = 190.0;
/// Top of the pool's block.
const POOL_TOP: f64 = 362.0;

/// One thing the panel's state shows. Each is drawn in rows of its own, over the fixed
/// part only (`panel_kept.rs` keeps each drawn: every part a game can show is listed by
/// [`all`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// A side's status: its turn, its win, or the draw.
    Status(Color, Status),
    /// The rings a side has removed out of those it needs.
    Removed {
        /// The side.
        color: Color,
        /// Rings it has removed.
        removed: u8,
        /// Rings it needs (at least those removed).
        needed: u8,
    },
    /// The markers left in the pool.
    Pool(u8),
    /// The box saying `BLITZ`.
    Blitz,
}

/// A side's status word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    /// `TO PLAY`.
    ToPlay,
    /// `WINS`.
    Wins,
    /// `DRAW`.
    Draw,
}

impl Status {
    /// The word.
    fn word(self) -> &'static str {
        match self {
            Status::ToPlay => "TO PLAY",
            Status::Wins => "WINS",
            Status::Draw => "DRAW",
        }
    }
}

/// What the panel's state shows of `game`, in the order `state` draws it.
pub(crate) fn parts(game: &Game) -> Vec<Part> {
    let mut parts = Vec::with_capacity(6);
    for color in Color::BOTH {
        let status = match (game.to_act(), game.outcome()) {
            (Some(c), _) if c == color => Some(Status::ToPlay),
            (_, Some(Outcome::Win(c))) if c == color => Some(Status::Wins),
            (_, Some(Outcome::Draw)) => Some(Status::Draw),
            _ => None,
        };
        if let Some(status) = status {
            parts.push(Part::Status(color, status));
        }
        let removed = game.rings_removed(color);
        parts.push(Part::Removed {
            color,
            removed,
            needed: game.variant().rings_to_win().max(removed),
        });
    }
    parts.push(Part::Pool(game.markers_in_pool()));
    if game.variant() == Variant::Blitz {
        parts.push(Part::Blitz);
    }
    parts
}

/// Every part a game can show: each side's statuses and removed rings in both
/// variants, every count of the pool, the blitz box.
pub(crate) fn all() -> Vec<Part> {
    let mut all = Vec::new();
    for color in Color::BOTH {
        for status in [Status::ToPlay, Status::Wins, Status::Draw] {
            all.push(Part::Status(color, status));
        }
        for variant in [Variant::Normal, Variant::Blitz] {
            let needed = variant.rings_to_win();
            for removed in 0..=needed {
                all.push(Part::Removed {
                    color,
                    removed,
                    needed,
                });
            }
        }
    }
    let most = [Variant::Normal, Variant::Blitz]
        .map(|v| Game::new(v).markers_in_pool())
        .into_iter()
        .max()
        .unwrap_or(0);
    all.extend((0..=most).map(Part::Pool));
    all.push(Part::Blitz);
    all
}

/// The part of the panel that tells this position, drawn beside the fixed part (they
/// do not overlap): whose turn it is or who won, the rings each side has removed out
/// of those it needs, the markers left in the pool, and `BLITZ` for the blitz variant.
pub(crate) fn state(out: &mut String, game: &Game) {
    for part in parts(game) {
        draw(out, part);
    }
}

/// The top of `color`'s block.
fn top(color: Color) -> f64 {
    match color {
        Color::White => WHITE_TOP,
        Color::Black => BLACK_TOP,
    }
}

/// One part of the panel's state.
pub(crate) fn draw(out: &mut String, part: Part) {
    match part {
        Part::Status(color, status) => {
            let y = top(color) + 62.0;
            let _ = writeln!(
                out,
                r#"<path d="M{:.1} {:.1}l9 6l-9 6z" fill="{MOVE_MARK}"/>"#,
                LEFT,
                y - 6.0
            );
            out.push_str(&glyphs::text(
                status.word(),
                LEFT + 14.0,
                y,
                11.0,
                Anchor::Start,
                INK,
            ));
        }
        Part::Removed {
            color,
            removed,
            needed,
        } => {
            for k in 0..needed {
                let (x, y) = (LEFT + 13.0 + 27.0 * f64::from(k), top(color) + 114.0);
                if k < removed {
                    ring(out, color, x, y, 12.0);
                } else {
                    let _ = writeln!(
                        out,
                        r#"<circle cx="{x:.1}" cy="{y:.1}" r="10" fill="none" stroke="{INK}" stroke-opacity="0.5" stroke-width="1.5" stroke-dasharray="3 3"/>"#
                    );
                }
            }
        }
        Part::Pool(n) => out.push_str(&glyphs::text(
            &n.to_string(),
            LEFT + 62.0,
            POOL_TOP,
            18.0,
            Anchor::Middle,
            INK,
        )),
        Part::Blitz => {
            let y = 432.0;
            let _ = writeln!(
                out,
                r#"<rect x="{:.1}" y="{:.1}" width="74" height="26" rx="5" fill="none" stroke="{MOVE_MARK}" stroke-width="2.5"/>"#,
                LEFT,
                y - 13.0
            );
            out.push_str(&glyphs::text(
                "BLITZ",
                LEFT + 37.0,
                y,
                14.0,
                Anchor::Middle,
                INK,
            ));
        }
    }
}
