//! The SVG drawing of the board: the grid (hexagon, lines, coordinate labels: the same
//! in every picture), then the position over it (rows waiting to be removed, the last
//! move's marks and the pieces). The side panel is `panel.rs`'s. Colours and sizes are
//! the constants at the top.
//!
//! Pieces are white and black with dark outlines on a neutral board, so they tell
//! apart by lightness alone (colour-blind players, grey-scale printing) and the
//! opaque picture reads the same in a dark-mode mail. Rings are wide annuli, markers
//! discs; black pieces carry a light inner line as a second cue. The last move is
//! marked in orange and waiting rows in blue (Okabe-Ito colours, told apart in every
//! common colour blindness), each with a shape of its own: an arrow from the start,
//! a dashed circle on the start, a halo on the end, a small circle on each flipped
//! marker, a cross where a ring was removed; a wide band under a waiting row.

use std::fmt::Write;

use super::geometry::{self, STEP};
use super::glyphs::{self, Anchor};
use super::last_move::LastMove;
use crate::rules::{Color, Game, Piece, Point, Row};

/// The page around the board.
pub(crate) const PAGE: &str = "#cdc6b8";
/// The board's hexagon.
const BOARD: &str = "#ece6da";
/// Grid lines.
const GRID: &str = "#8d8578";
/// Coordinate labels and other text.
pub(crate) const INK: &str = "#2b2723";
/// Outlines of every piece.
const OUTLINE: &str = "#111111";
/// The last move's marks.
pub(crate) const MOVE_MARK: &str = "#d55e00";
/// Rows waiting to be removed.
pub(crate) const ROW_MARK: &str = "#0072b2";

/// The light inner line of black pieces.
pub(crate) const GREY: &str = "#9a9a9a";

/// One element of a piece's drawing (`strokes` gives each piece's, in the order drawn).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stroke {
    /// A ring's dark outline: a wide stroke under its body.
    RingOutline,
    /// A ring's body: the stroke of its colour.
    RingBody,
    /// A black ring's light inner line.
    RingGrey,
    /// A marker's disc.
    Disc,
    /// A marker's dark outline.
    DiscOutline,
    /// A black marker's light inner line.
    DiscGrey,
}

impl Stroke {
    /// Every stroke, in the order of `pieces.masks` (`stamps.rs`).
    pub(crate) const ALL: [Stroke; 6] = [
        Stroke::RingOutline,
        Stroke::RingBody,
        Stroke::RingGrey,
        Stroke::Disc,
        Stroke::DiscOutline,
        Stroke::DiscGrey,
    ];
}

/// The elements that draw `piece`, in order, each with its colour.
pub(crate) fn strokes(piece: Piece) -> &'static [(Stroke, &'static str)] {
    match piece {
        Piece::Ring(Color::White) => &[
            (Stroke::RingOutline, OUTLINE),
            (Stroke::RingBody, "#ffffff"),
        ],
        Piece::Ring(Color::Black) => &[
            (Stroke::RingOutline, OUTLINE),
            (Stroke::RingBody, "#1e1e1e"),
            (Stroke::RingGrey, GREY),
        ],
        Piece::Marker(Color::White) => &[(Stroke::Disc, "#ffffff"), (Stroke::DiscOutline, OUTLINE)],
        Piece::Marker(Color::Black) => &[
            (Stroke::Disc, "#1e1e1e"),
            (Stroke::DiscOutline, OUTLINE),
            (Stroke::DiscGrey, GREY),
        ],
    }
}

/// The element `stroke` of a piece centred on (`x`, `y`) in `colour`; `r` is a ring's
/// outer radius or a marker's radius.
pub(crate) fn stroke(out: &mut String, stroke: Stroke, colour: &str, x: f64, y: f64, r: f64) {
    // A ring is a wide stroke along the middle of its annulus.
    let width = r * 0.38;
    let mid = r - width / 2.0;
    let (radius, fill, line) = match stroke {
        Stroke::RingOutline => (mid, "none", Some(width + 3.0)),
        Stroke::RingBody => (mid, "none", Some(width)),
        Stroke::RingGrey => (mid, "none", Some(1.0)),
        Stroke::Disc => (r, colour, None),
        Stroke::DiscOutline => (r, "none", Some(1.8)),
        Stroke::DiscGrey => (r * 0.6, "none", Some(1.0)),
    };
    let _ = write!(
        out,
        r#"<circle cx="{x:.1}" cy="{y:.1}" r="{radius:.1}" fill="{fill}""#
    );
    if let Some(line) = line {
        let _ = write!(out, r#" stroke="{colour}" stroke-width="{line:.1}""#);
    }
    out.push_str("/>\n");
}

/// A ring of `color` centred on (`x`, `y`), `r` its outer radius.
pub(crate) fn ring(out: &mut String, color: Color, x: f64, y: f64, r: f64) {
    piece(out, Piece::Ring(color), x, y, r);
}

/// A marker of `color` centred on (`x`, `y`) with radius `r`.
pub(crate) fn marker(out: &mut String, color: Color, x: f64, y: f64, r: f64) {
    piece(out, Piece::Marker(color), x, y, r);
}

/// `piece` centred on (`x`, `y`), `r` its outer radius.
fn piece(out: &mut String, piece: Piece, x: f64, y: f64, r: f64) {
    for &(s, colour) in strokes(piece) {
        stroke(out, s, colour, x, y, r);
    }
}

/// The `<svg>` start tag of a picture and its `<defs>`: the glyphs `texts` use.
pub(crate) fn head<'a>(out: &mut String, texts: impl IntoIterator<Item = &'a str>) {
    let (w, h) = (geometry::WIDTH.round(), geometry::HEIGHT.round());
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    out.push_str("<title>YINSH board</title>\n<defs>\n");
    out.push_str(&glyphs::defs(texts));
    out.push_str("</defs>\n");
}

/// The page under the board and the panel, the whole picture's size.
pub(crate) fn page(out: &mut String) {
    let (w, h) = (geometry::WIDTH.round(), geometry::HEIGHT.round());
    let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="{PAGE}"/>"#);
}

/// Radius of a ring on the board.
const RING: f64 = 0.44 * STEP;
/// Radius of a marker on the board.
const MARKER: f64 = 0.27 * STEP;

/// The fixed part of the board: the hexagon, the grid lines and the coordinate labels
/// (the same in every picture: `base.rs` keeps it drawn).
pub(crate) fn grid(out: &mut String) {
    let hex = |margin: f64| {
        geometry::hexagon(margin)
            .iter()
            .map(|(x, y)| format!("{x:.1},{y:.1}"))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(
        out,
        r#"<polygon points="{}" fill="{BOARD}" stroke="{GRID}" stroke-width="2" stroke-linejoin="round"/>"#,
        hex(0.62)
    );
    let mut d = String::new();
    for (a, b) in geometry::lines() {
        let ((x1, y1), (x2, y2)) = (geometry::point(a), geometry::point(b));
        let _ = write!(d, "M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}");
    }
    let _ = writeln!(
        out,
        r#"<path d="{d}" stroke="{GRID}" stroke-width="1.4" fill="none"/>"#
    );
    for label in geometry::labels() {
        out.push_str(&glyphs::text(
            &label.text,
            label.x,
            label.y,
            13.0,
            Anchor::Middle,
            INK,
        ));
    }
}

/// The position on the board, drawn over the grid: rows waiting to be removed, the
/// last move's marks and the pieces.
pub(crate) fn pieces(out: &mut String, game: &Game, last: &LastMove) {
    under(out, game, last);
    board_pieces(out, game);
    marks_over(out, last);
}

/// The pieces on the board, in `Point::ALL` order (`stamps.rs` lays them so).
pub(crate) fn board_pieces(out: &mut String, game: &Game) {
    for p in Point::ALL {
        let (x, y) = geometry::point(p);
        match game.piece_at(p) {
            Some(Piece::Ring(c)) => ring(out, c, x, y, RING),
            Some(Piece::Marker(c)) => marker(out, c, x, y, MARKER),
            None => {}
        }
    }
}

/// What goes under the pieces: the rows waiting to be removed, the last move's path
/// and removed rows.
pub(crate) fn under(out: &mut String, game: &Game, last: &LastMove) {
    if !game.is_over() {
        for color in Color::BOTH {
            for row in game.rows(color) {
                band(out, row, ROW_MARK, 0.8 * STEP, "0.5");
            }
        }
    }
    marks_under(out, last);
}

/// The radius `stroke` is drawn with on the board (a ring's or a marker's).
#[cfg(test)]
pub(crate) fn board_radius(stroke: Stroke) -> f64 {
    match stroke {
        Stroke::RingOutline | Stroke::RingBody | Stroke::RingGrey => RING,
        Stroke::Disc | Stroke::DiscOutline | Stroke::DiscGrey => MARKER,
    }
}

/// A wide rounded band along `row`, under the pieces.
fn band(out: &mut String, row: Row, color: &str, width: f64, opacity: &str) {
    let ((x1, y1), (x2, y2)) = (geometry::point(row.start()), geometry::point(row.end()));
    let _ = writeln!(
        out,
        r#"<path d="M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}" stroke="{color}" stroke-opacity="{opacity}" stroke-width="{width:.1}" stroke-linecap="round" fill="none"/>"#
    );
}

/// The last move's marks that go under the pieces: the ring's path, removed rows.
fn marks_under(out: &mut String, last: &LastMove) {
    if let Some((from, to)) = last.moved {
        let ((x1, y1), (x2, y2)) = (geometry::point(from), geometry::point(to));
        let _ = writeln!(
            out,
            r#"<path d="M{x1:.1} {y1:.1}L{x2:.1} {y2:.1}" stroke="{MOVE_MARK}" stroke-width="5" stroke-linecap="round" fill="none"/>"#
        );
    }
    for &row in &last.removed_rows {
        band(out, row, MOVE_MARK, 0.3 * STEP, "0.5");
    }
}

/// The last move's marks over the pieces: start, end, flipped markers, removed rings.
pub(crate) fn marks_over(out: &mut String, last: &LastMove) {
    /// A circle's line: dashed where a ring left, solid elsewhere.
    #[derive(Clone, Copy)]
    enum Line {
        Dashed,
        Solid,
    }
    let circle = |out: &mut String, p: Point, r: f64, width: f64, line: Line| {
        let (x, y) = geometry::point(p);
        let dash = match line {
            Line::Dashed => r#" stroke-dasharray="5 3.4""#,
            Line::Solid => "",
        };
        let _ = writeln!(
            out,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="{r:.1}" fill="none" stroke="{MOVE_MARK}" stroke-width="{width}"{dash}/>"#
        );
    };
    if let Some((from, to)) = last.moved {
        circle(out, from, MARKER + 5.0, 3.0, Line::Dashed);
        circle(out, to, RING + 4.0, 3.5, Line::Solid);
    }
    if let Some(p) = last.placed {
        circle(out, p, RING + 4.0, 3.5, Line::Solid);
    }
    for &p in &last.flipped {
        circle(out, p, MARKER + 4.0, 3.0, Line::Solid);
    }
    for &p in &last.removed_rings {
        let (x, y) = geometry::point(p);
        let r = 0.25 * STEP;
        let _ = writeln!(
            out,
            r#"<path d="M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}" stroke="{MOVE_MARK}" stroke-width="4" stroke-linecap="round"/>"#,
            x - r,
            y - r,
            x + r,
            y + r,
            x - r,
            y + r,
            x + r,
            y - r
        );
    }
}
