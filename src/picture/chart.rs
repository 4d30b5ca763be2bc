//! The chart of a review (issue 28): White's win chance after every turn, from the
//! empty board to the end, as SVG (and PNG through `png.rs`). White's half is above
//! the 50% line, Black's below; the turning points are ringed in the picture's
//! colour-blind-safe marks (White's vermilion, Black's blue). Each point is a circle
//! with `data-position` (the turns played before it), so a web page can step to that
//! position when it is clicked; no text elements (the lettering is `glyphs.rs`'s).
//!
//! ```
//! use yinsh_pbem::picture::Chart;
//! use yinsh_pbem::rules::Color;
//! let chart = Chart::new(&[0.5, 0.6, 0.2, 0.0]).mark(2, Color::White);
//! let svg = chart.to_svg();
//! assert!(svg.starts_with("<svg") && svg.contains(r#"data-position="3""#));
//! assert_eq!(&chart.to_png().unwrap()[1..4], b"PNG");
//! ```

use std::fmt::Write;

use super::glyphs::{self, Anchor};
use super::png::{PictureError, rasterise};
use super::svg::{INK, MOVE_MARK, PAGE, ROW_MARK};
use crate::rules::Color;

/// The chart's width and height in pixels.
const WIDTH: f64 = 640.0;
const HEIGHT: f64 = 220.0;
/// The plot's edges.
const LEFT: f64 = 60.0;
const RIGHT: f64 = WIDTH - 14.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = HEIGHT - 30.0;
/// The plot's own background and its 50% line.
const PLOT: &str = "#ece6da";
const GRID: &str = "#8d8578";

/// White's win chance over a game, with its turning points.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    values: Vec<f32>,
    marks: Vec<(usize, Color)>,
}

impl Chart {
    /// The chart of `values`: White's chance at each position, the first before any
    /// turn; values are clamped to 0..=1.
    pub fn new(values: &[f32]) -> Chart {
        Chart {
            values: values.iter().map(|v| v.clamp(0.0, 1.0)).collect(),
            marks: Vec::new(),
        }
    }

    /// Ring the point after `turns` turns as a turning point of `side`.
    pub fn mark(mut self, turns: usize, side: Color) -> Chart {
        self.marks.push((turns, side));
        self
    }

    /// Width and height in pixels.
    pub fn size() -> (u32, u32) {
        (WIDTH as u32, HEIGHT as u32)
    }

    /// Where the point of position `k` is drawn.
    fn at(&self, k: usize) -> (f64, f64) {
        let last = self.values.len().saturating_sub(1).max(1) as f64;
        let v = f64::from(self.values.get(k).copied().unwrap_or(0.5));
        (
            LEFT + (RIGHT - LEFT) * k as f64 / last,
            BOTTOM - (BOTTOM - TOP) * v,
        )
    }

    /// The chart as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let (w, h) = Chart::size();
        let mut out = String::with_capacity(8 * 1024 + self.values.len() * 160);
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
        );
        out.push_str("<title>White's win chance after each turn</title>\n<defs>\n");
        out.push_str(&glyphs::defs(["0123456789", "WHITE", "BLACK"]));
        out.push_str("</defs>\n");
        let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="{PAGE}"/>"#);
        self.frame(&mut out);
        self.line(&mut out);
        self.points(&mut out);
        out.push_str("</svg>\n");
        out
    }

    /// The plot's background, the 50% line and the lettering.
    fn frame(&self, out: &mut String) {
        let mid = (TOP + BOTTOM) / 2.0;
        let _ = writeln!(
            out,
            r#"<rect x="{LEFT}" y="{TOP}" width="{:.1}" height="{:.1}" fill="{PLOT}" stroke="{GRID}"/>"#,
            RIGHT - LEFT,
            BOTTOM - TOP
        );
        let _ = writeln!(
            out,
            r#"<line x1="{LEFT}" y1="{mid}" x2="{RIGHT}" y2="{mid}" stroke="{GRID}" stroke-dasharray="4 4"/>"#
        );
        for (text, y) in [("100", TOP), ("50", mid), ("0", BOTTOM)] {
            out.push_str(&glyphs::text(
                text,
                LEFT - 24.0,
                y,
                10.0,
                Anchor::Middle,
                INK,
            ));
        }
        out.push_str(&glyphs::text(
            "WHITE",
            LEFT + 30.0,
            TOP + 10.0,
            9.0,
            Anchor::Middle,
            INK,
        ));
        out.push_str(&glyphs::text(
            "BLACK",
            LEFT + 30.0,
            BOTTOM - 10.0,
            9.0,
            Anchor::Middle,
            INK,
        ));
        let turns = self.values.len().saturating_sub(1);
        let step = if turns > 60 { 20 } else { 10 };
        for k in (0..=turns).step_by(step) {
            let (x, _) = self.at(k);
            out.push_str(&glyphs::text(
                &k.to_string(),
                x,
                BOTTOM + 14.0,
                10.0,
                Anchor::Middle,
                INK,
            ));
        }
    }

    /// The line through every position.
    fn line(&self, out: &mut String) {
        let mut points = String::new();
        for k in 0..self.values.len() {
            let (x, y) = self.at(k);
            let _ = write!(points, "{x:.1},{y:.1} ");
        }
        let _ = writeln!(
            out,
            r#"<polyline points="{}" fill="none" stroke="{INK}" stroke-width="2" stroke-linejoin="round"/>"#,
            points.trim_end()
        );
    }

    /// A point for each position (the turning points ringed), each one a target to
    /// click with its position and value in `data-` attributes and a tooltip.
    fn points(&self, out: &mut String) {
        for (k, v) in self.values.iter().enumerate() {
            let (x, y) = self.at(k);
            let percent = (v * 100.0).round();
            if let Some((_, side)) = self.marks.iter().find(|(t, _)| *t == k) {
                let colour = match side {
                    Color::White => MOVE_MARK,
                    Color::Black => ROW_MARK,
                };
                let _ = writeln!(
                    out,
                    r#"<circle cx="{x:.1}" cy="{y:.1}" r="7" fill="none" stroke="{colour}" stroke-width="3"/>"#
                );
            }
            let _ = writeln!(
                out,
                r#"<circle class="pt" data-position="{k}" cx="{x:.1}" cy="{y:.1}" r="3" fill="{INK}"><title>after {k} turns: White {percent}%</title></circle>"#
            );
        }
    }

    /// The chart as a PNG file's bytes.
    pub fn to_png(&self) -> Result<Vec<u8>, PictureError> {
        rasterise(&self.to_svg())
    }
}
