//! The picture of a position: the board drawn as SVG from the rules' types, and the
//! same picture as a small PNG for mails and web pages: the part that tells the
//! position rasterised (resvg) over the part that is the same in every picture, kept
//! drawn (`base.rs`). Depends on `rules` only; no fonts are needed (the labels are
//! paths, `glyphs.rs`).
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

mod base;
mod chart;
mod deflate;
mod geometry;
mod glyphs;
mod last_move;
mod panel;
mod png;
mod svg;

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
        let mut out = String::with_capacity(48 * 1024);
        let labels = geometry::labels();
        svg::head(
            &mut out,
            labels
                .iter()
                .map(|l| l.text.as_str())
                .chain(panel::FIXED_WORDS)
                .chain(panel::STATE_WORDS)
                .chain(["0123456789"]),
        );
        svg::page(&mut out);
        svg::grid(&mut out);
        panel::fixed(&mut out);
        self.position(&mut out);
        out.push_str("</svg>\n");
        out
    }

    /// The picture as a PNG file's bytes: what tells the position drawn over the
    /// fixed part kept drawn (`base.rs`); the same picture as [`Picture::to_svg`]'s.
    pub fn to_png(&self) -> Result<Vec<u8>, PictureError> {
        let mut out = String::with_capacity(16 * 1024);
        svg::head(
            &mut out,
            panel::STATE_WORDS.into_iter().chain(["0123456789"]),
        );
        self.position(&mut out);
        out.push_str("</svg>\n");
        base::over_base(&out)
    }

    /// What tells this position: the pieces and marks on the board, the panel's state.
    fn position(&self, out: &mut String) {
        svg::pieces(out, &self.game, &self.last);
        panel::state(out, &self.game);
    }
}
