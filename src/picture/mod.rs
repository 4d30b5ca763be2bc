//! The picture of a position: the board drawn as SVG from the rules' types, and the
//! same picture as a small PNG for mails and web pages, made without drawing what is
//! the same every time: over the part that is the same in every picture, kept drawn
//! (`base.rs`), the pieces are laid from kept coverage masks (`stamps.rs`), the
//! panel's state from kept pixels (`panel_kept.rs`), and only the marks are
//! rasterised (resvg). Depends on `rules` only; no fonts are needed (the labels are
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
mod compose;
mod deflate;
#[cfg(test)]
mod deflate_measure;
mod geometry;
mod glyphs;
mod icon;
mod last_move;
mod panel;
mod panel_kept;
mod png;
mod stamps;
mod strip;
mod svg;

pub use chart::Chart;
pub use icon::{ICON_SVG, icon_ico};
pub use last_move::LastMove;
pub use png::PictureError;

use crate::rules::{Game, Point};

/// The version of the drawing, in a picture's [`Picture::key`]: raise it with every
/// change of what a picture looks like (which changes `tests/it/picture_cost.rs`'s
/// references too), so that no picture kept by an older drawing is shown for it.
const DRAWING: u32 = 1;

/// How much smaller [`Picture::to_small_png`] draws the board than [`Picture::size`]:
/// half.
const SMALL: f64 = 0.5;

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

    /// Width and height of [`Picture::to_small_png`]'s picture, in pixels: the board
    /// without the side panel, at half size.
    ///
    /// ```
    /// use yinsh_pbem::picture::Picture;
    /// let ((w, h), (sw, sh)) = (Picture::size(), Picture::small_size());
    /// assert!(sw < w && sh < h);
    /// ```
    pub fn small_size() -> (u32, u32) {
        (
            (geometry::PANEL_LEFT * SMALL).round() as u32,
            (geometry::HEIGHT * SMALL).round() as u32,
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

    /// A text naming this picture exactly, for a picture kept to be shown again: the
    /// position, its marks, the program's version and the drawing's (`DRAWING`,
    /// raised with every change of the drawing). Equal keys, equal pictures.
    ///
    /// ```
    /// use yinsh_pbem::picture::Picture;
    /// use yinsh_pbem::rules::{Game, Variant};
    /// let empty = Picture::new(&Game::new(Variant::Normal));
    /// let blitz = Picture::new(&Game::new(Variant::Blitz));
    /// assert_eq!(empty.key(), Picture::new(&Game::new(Variant::Normal)).key());
    /// assert_ne!(empty.key(), blitz.key());
    /// ```
    pub fn key(&self) -> String {
        format!(
            "yinsh-pbem {} drawing {DRAWING}: {:?} {:?}",
            env!("CARGO_PKG_VERSION"),
            self.game,
            self.last
        )
    }

    /// The picture as a PNG file's bytes: the same picture as [`Picture::to_svg`]'s,
    /// made without drawing what is the same in every picture or every piece: the
    /// fixed part is kept drawn (`base.rs`), the pieces are laid from kept masks
    /// (`stamps.rs`) and the panel's state from kept pixels (`panel_kept.rs`); only
    /// the marks are rasterised, and only the rows they reach are held whole, the
    /// others made a strip at a time (`compose.rs`; issue 29).
    pub fn to_png(&self) -> Result<Vec<u8>, PictureError> {
        let (width, height) = Picture::size();
        let (runs, mut spent) = compose::compose(&self.game, &self.last)?;
        png::encode_runs(width, height, runs, spent.rows())
    }

    /// The board without its side panel, at half size ([`Picture::small_size`]), as
    /// a PNG file's bytes (a review mail's boards, four to a mail, some 11 kB each):
    /// the SVG rasterised at that scale, nothing kept.
    pub fn to_small_png(&self) -> Result<Vec<u8>, PictureError> {
        png::rasterise_scaled(&self.to_svg(), SMALL as f32, Picture::small_size())
    }

    /// What tells this position: the pieces and marks on the board, the panel's state.
    fn position(&self, out: &mut String) {
        svg::pieces(out, &self.game, &self.last);
        panel::state(out, &self.game);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// The pixels of the whole position's SVG rasterised over the kept fixed part:
    /// the picture as it was made before the pieces were laid from masks.
    fn drawn(picture: &Picture) -> Vec<u8> {
        let mut out = String::new();
        svg::head(
            &mut out,
            panel::STATE_WORDS.into_iter().chain(["0123456789"]),
        );
        picture.position(&mut out);
        out.push_str("</svg>\n");
        let mut canvas = base::pixels().unwrap();
        png::draw(&out, &mut canvas).unwrap();
        canvas
    }

    /// The pixels of `picture` as `to_png` makes them: `compose.rs`'s runs unpacked.
    fn made(picture: &Picture) -> Vec<u8> {
        let (runs, _) = compose::compose(&picture.game, &picture.last).unwrap();
        runs.pixels()
    }

    /// How many pixels of `picture` as made differ from its whole drawing.
    fn differing(picture: &Picture) -> usize {
        let (made, drawn) = (made(picture), drawn(picture));
        assert_eq!(made.len(), drawn.len());
        made.chunks(4)
            .zip(drawn.chunks(4))
            .filter(|(a, b)| a != b)
            .count()
    }

    /// Issue 29 finding "the picture": a picture made in parts (marks under the pieces
    /// rasterised, the pieces laid from masks, the panel laid from kept pixels, the
    /// marks over them rasterised; only the rows the marks reach held whole, the
    /// others made a strip at a time) is pixel for pixel the whole position drawn at
    /// once, in games played at random to their end (placements, moves, rows waiting
    /// and removed, removed rings, both variants).
    #[test]
    fn a_picture_in_parts_is_its_whole_drawing() {
        let mut seed = 29u64;
        let mut next = move |n: usize| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as usize % n
        };
        let mut pictures = 0;
        for variant in [Variant::Normal, Variant::Blitz] {
            for _ in 0..3 {
                let mut game = Game::new(variant);
                let mut turn = 0;
                while let Some(mover) = game.to_act() {
                    let before = game;
                    let mut actions = Vec::new();
                    while game.to_act() == Some(mover) {
                        let legal = game.legal_actions();
                        let action = legal.as_slice()[next(legal.len())];
                        game.play(action).unwrap();
                        actions.push(action);
                    }
                    turn += 1;
                    if turn % 4 != 1 && !game.is_over() {
                        continue;
                    }
                    let last = LastMove::from_turn(&before, &actions).unwrap();
                    let picture = Picture::new(&game).last_move(&last);
                    assert_eq!(differing(&picture), 0, "turn {turn} of a {variant:?} game");
                    pictures += 1;
                }
            }
        }
        assert!(pictures > 60, "{pictures}");
    }

    /// Issue 29 finding "the picture": marks at the board's top and bottom edges, and
    /// marks far apart (the rows a drawing reaches at the picture's edges, and a long
    /// way between what is held whole), are made as the whole drawing draws them: on
    /// every point, a ring placed, moved the length of a line (its path, both ends'
    /// marks, the markers flipped on the way), rings removed at both ends, and the
    /// row there removed, over a board full of pieces with rows waiting.
    #[test]
    fn marks_anywhere_are_made_as_drawn() {
        use crate::rules::{Color, Direction, Row};
        // Rings here and there, markers in stripes of one colour along each column
        // but the middle three (a game has 51 markers), so rows wait on both sides.
        let (mut rings, mut markers) = ([0u128; 2], [0u128; 2]);
        for (k, p) in Point::ALL.into_iter().enumerate() {
            match (k % 9, p.letter()) {
                (0, _) => rings[k % 2] |= p.bit(),
                (_, 'e'..='g') => {}
                _ => markers[usize::from(p.column() % 2)] |= p.bit(),
            }
        }
        let on_board = (markers[0] | markers[1]).count_ones();
        assert!(on_board <= u32::from(crate::rules::MARKERS), "{on_board}");
        let game = Game::from_parts(Variant::Normal, rings, markers, [0, 0], Color::White);
        assert!(game.rows(Color::White).count() > 0 && game.rows(Color::Black).count() > 0);
        for p in Point::ALL {
            // The longest way from `p` along a line, and the points on the way.
            let mut way = Vec::new();
            for d in Direction::ALL {
                let mut line = Vec::new();
                let mut q = p;
                while let Some(next) = d.step(q) {
                    line.push(next);
                    q = next;
                }
                if line.len() > way.len() {
                    way = line;
                }
            }
            let far = way.pop().unwrap_or(p);
            let last = LastMove {
                placed: Some(p),
                moved: Some((p, far)),
                flipped: way,
                removed_rows: Row::ALL
                    .into_iter()
                    .filter(|r| r.contains(p) || r.contains(far))
                    .take(2)
                    .collect(),
                removed_rings: vec![p, far],
                passed: false,
            };
            let picture = Picture::new(&game).last_move(&last);
            assert_eq!(differing(&picture), 0, "marks on {p} and {far}");
        }
    }
}
