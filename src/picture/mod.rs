//! The picture of a position: the board drawn as SVG from the rules' types, and the
//! same SVG rasterised to a small PNG (resvg) for mails and web pages. Depends on
//! `rules` only; no fonts are needed (the labels are paths, `glyphs.rs`).
//!
//! ```
//! use yinsh_pbem::picture::{LastMove, Picture};
//! use yinsh_pbem::rules::{Action, Game, Variant};
//! let before = Game::new(Variant::Normal);
//! let place = Action::Place("e5".parse().unwrap());
//! let game = before.after(place).unwrap();
//! let last = LastMove::from_turn(&before, &[place]).unwrap();
//! let picture = Picture::new(&game).last_move(&last);
//! assert!(picture.to_svg().starts_with("<svg"));
//! let png = picture.to_png().unwrap();
//! assert_eq!(&png[1..4], b"PNG");
//! ```

mod chart;
mod geometry;
mod glyphs;
mod last_move;
mod panel;
mod png;
mod svg;

use std::fmt::Write;

pub use chart::Chart;
pub use last_move::LastMove;
pub use png::PictureError;

use crate::rules::{Game, Point};

/// A position to draw, with the marks of the turn that led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    game: Game,
    last: LastMove,
}

impl Picture {
    /// The picture of `game`, with no last move marked.
    pub fn new(game: &Game) -> Picture {
        Picture {
            game: *game,
            last: LastMove::default(),
        }
    }

    /// Mark `last` (normally the turn that led to this position).
    pub fn last_move(mut self, last: &LastMove) -> Picture {
        self.last = last.clone();
        self
    }

    /// Width and height of the picture in pixels (the SVG's user units).
    pub fn size() -> (u32, u32) {
        (
            geometry::WIDTH.round() as u32,
            geometry::HEIGHT.round() as u32,
        )
    }

    /// Where the centre of point `p` is drawn, in pixels from the top left corner
    /// (for image maps, and for tests that look at the picture).
    ///
    /// ```
    /// use yinsh_pbem::picture::Picture;
    /// let (x, y) = Picture::pixel("f6".parse().unwrap());
    /// let (w, h) = Picture::size();
    /// assert!(x > 0.0 && x < w as f64 && y > 0.0 && y < h as f64);
    /// ```
    pub fn pixel(p: Point) -> (f64, f64) {
        geometry::point(p)
    }

    /// The picture as a standalone SVG document (no external resources, no text
    /// elements: it draws the same everywhere).
    pub fn to_svg(&self) -> String {
        let (w, h) = Picture::size();
        let mut out = String::with_capacity(48 * 1024);
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
        );
        out.push_str("<title>YINSH board</title>\n<defs>\n");
        let labels = geometry::labels();
        out.push_str(&glyphs::defs(
            labels
                .iter()
                .map(|l| l.text.as_str())
                .chain(panel::WORDS)
                .chain(["0123456789"]),
        ));
        out.push_str("</defs>\n");
        let _ = writeln!(
            out,
            r#"<rect width="{w}" height="{h}" fill="{}"/>"#,
            svg::PAGE
        );
        svg::board(&mut out, &self.game, &self.last);
        panel::panel(&mut out, &self.game);
        out.push_str("</svg>\n");
        out
    }

    /// The picture as a PNG file's bytes.
    pub fn to_png(&self) -> Result<Vec<u8>, PictureError> {
        png::rasterise(&self.to_svg())
    }
}
