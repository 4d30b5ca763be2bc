//! The side panel right of the board: for each side its name, its ring and marker (a
//! legend), whose turn it is or who won, and the rings it has removed out of those it
//! needs; then the markers left in the pool, and `BLITZ` for the blitz variant.

use std::fmt::Write;

use super::geometry::PANEL_LEFT;
use super::glyphs::{self, Anchor};
use super::svg::{INK, MOVE_MARK, marker, ring};
use crate::rules::{Color, Game, Outcome, Variant};

/// Every word the panel may write (the glyphs it needs).
pub(crate) const WORDS: [&str; 8] = [
    "WHITE", "BLACK", "TO PLAY", "WINS", "DRAW", "REMOVED", "POOL", "BLITZ",
];

/// Left edge of the panel's text.
const LEFT: f64 = PANEL_LEFT + 6.0;

/// The panel's SVG.
pub(crate) fn panel(out: &mut String, game: &Game) {
    side(out, game, Color::White, 22.0);
    side(out, game, Color::Black, 190.0);
    let top = 362.0;
    out.push_str(&glyphs::text("POOL", LEFT, top, 13.0, Anchor::Start, INK));
    out.push_str(&glyphs::text(
        &game.markers_in_pool().to_string(),
        LEFT + 62.0,
        top,
        18.0,
        Anchor::Middle,
        INK,
    ));
    // What the pool holds: markers, white on one side and black on the other.
    marker(out, Color::White, LEFT + 10.0, top + 26.0, 8.0);
    marker(out, Color::Black, LEFT + 32.0, top + 26.0, 8.0);
    if game.variant() == Variant::Blitz {
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

/// One side's block, its top at `top`.
fn side(out: &mut String, game: &Game, color: Color, top: f64) {
    let name = match color {
        Color::White => "WHITE",
        Color::Black => "BLACK",
    };
    out.push_str(&glyphs::text(name, LEFT, top, 15.0, Anchor::Start, INK));
    // The legend: this side's ring and marker.
    ring(out, color, LEFT + 17.0, top + 32.0, 15.0);
    marker(out, color, LEFT + 52.0, top + 32.0, 10.0);
    let status = match (game.to_act(), game.outcome()) {
        (Some(c), _) if c == color => Some("TO PLAY"),
        (_, Some(Outcome::Win(c))) if c == color => Some("WINS"),
        (_, Some(Outcome::Draw)) => Some("DRAW"),
        _ => None,
    };
    if let Some(status) = status {
        let y = top + 62.0;
        let _ = writeln!(
            out,
            r#"<path d="M{:.1} {:.1}l9 6l-9 6z" fill="{MOVE_MARK}"/>"#,
            LEFT,
            y - 6.0
        );
        out.push_str(&glyphs::text(
            status,
            LEFT + 14.0,
            y,
            11.0,
            Anchor::Start,
            INK,
        ));
    }
    let y = top + 86.0;
    out.push_str(&glyphs::text("REMOVED", LEFT, y, 10.0, Anchor::Start, INK));
    let removed = game.rings_removed(color);
    let needed = game.variant().rings_to_win().max(removed);
    for k in 0..needed {
        let (x, y) = (LEFT + 13.0 + 27.0 * f64::from(k), top + 114.0);
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
