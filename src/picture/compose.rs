//! A picture's pixels made strip by strip, from the top down, and handed on row after
//! row (to `png.rs`'s runs), without holding the whole picture: a page of memory
//! touched for the first time costs as much as thousands of instructions, and the
//! whole picture is 272 of them (issue 29; `docs/performance.md`).
//!
//! Only what is rasterised (the marks, `svg.rs`: what goes under the pieces and over
//! them) needs the picture's whole canvas: tiny-skia clips what it draws to the
//! canvas's edges, so a drawing on a smaller canvas is not the same to the last bit.
//! So the two drawings are read first and the rows they can reach found (their
//! bounding boxes, strokes included, and a margin for anti-aliasing). Those rows are
//! made in a canvas of the picture's size, in the SVG's order (the fixed part, what
//! goes under the pieces, the pieces, the panel's state, what goes over them), the
//! canvas's other rows never touched (fresh zeroed memory costs nothing until
//! written). Every other row is made in a strip of a few rows (the fixed part, the
//! pieces, the panel's state), reused down the picture. A test keeps the rows made so
//! equal to the whole position drawn at once (`mod.rs`).

use std::ops::Range;

use resvg::usvg;

use super::last_move::LastMove;
use super::png::{self, PictureError};
use super::strip::Strip;
use super::{base, panel, panel_kept, stamps, svg};
use crate::rules::Game;

/// Rows of a strip that rows no drawing reaches are made in: as many as fit in the
/// PNG's rows of indices (`Spent`), whose memory it is, so that a piece (44 rows of
/// pixels, `stamps.rs`) falls in one strip or two.
const BAND: usize = 64;
/// Rows above and below a drawing's bounding box taken as reached too: tiny-skia's
/// anti-aliasing reaches no farther than the pixel a box's edge is in.
const MARGIN: usize = 2;

/// The memory a picture was made in, for its PNG's rows of indices (`png.rs`) once
/// its pixels are all handed on.
pub(crate) struct Spent {
    /// The memory.
    memory: Vec<u8>,
    /// Where the rows go in it: over the pages the picture touched, as far as can be.
    rows_at: usize,
}

impl Spent {
    /// Room for the PNG's rows: `height` times `width` + 1 bytes.
    pub(crate) fn rows(&mut self) -> &mut [u8] {
        let length = (Strip::WIDTH + 1) * Strip::HEIGHT;
        let at = self.rows_at.min(self.memory.len().saturating_sub(length));
        if self.memory.len() < at + length {
            self.memory.resize(at + length, 0);
        }
        &mut self.memory[at..at + length]
    }
}

/// The pixels of `game` with `last`'s marks (RGBA, opaque), handed to `rows` in order,
/// a few rows at a time, top to bottom.
pub(crate) fn compose(
    game: &Game,
    last: &LastMove,
    mut rows: impl FnMut(&[u8]),
) -> Result<Spent, PictureError> {
    let drawings = Drawings::new(game, last)?;
    let stride = 4 * Strip::WIDTH;
    let band_bytes = BAND * stride;
    let rows_length = (Strip::WIDTH + 1) * Strip::HEIGHT;
    // The strip is put just below the canvas's rows that are made whole (in rows no
    // drawing reaches, or past the picture), and the PNG's rows end where it ends:
    // they lie over pages already touched, as far as they can.
    let (mut memory, band_at) = match drawings.reached.last() {
        Some(lowest) => (drawings.canvas(game, band_bytes)?, lowest.end * stride),
        None => (vec![0u8; rows_length.max(band_bytes)], 0),
    };
    let mut base = base::cursor()?;
    let mut y = 0;
    let bottom = Strip::HEIGHT..Strip::HEIGHT;
    for whole in drawings.reached.iter().chain([&bottom]) {
        while y < whole.start {
            let end = (y + BAND).min(whole.start);
            let pixels = memory
                .get_mut(band_at..band_at + (end - y) * stride)
                .ok_or(PictureError::Base)?;
            base.fill(pixels).ok_or(PictureError::Base)?;
            let mut strip = Strip { pixels, top: y };
            stamps::lay(&mut strip, game)?;
            panel_kept::lay(&mut strip, game)?;
            rows(strip.pixels);
            y = end;
        }
        if !whole.is_empty() {
            base.skip(whole.len() * Strip::WIDTH)
                .ok_or(PictureError::Base)?;
            rows(
                memory
                    .get(whole.start * stride..whole.end * stride)
                    .ok_or(PictureError::Base)?,
            );
            y = whole.end;
        }
    }
    let rows_at = (band_at + band_bytes).saturating_sub(rows_length);
    Ok(Spent { memory, rows_at })
}

/// What is rasterised of a picture, read, and the rows it reaches.
struct Drawings {
    /// What goes under the pieces (rows waiting, the last move's path, removed rows).
    under: Option<usvg::Tree>,
    /// What goes over the pieces (the last move's marks) and the panel's parts that
    /// are not kept (none).
    over: Option<usvg::Tree>,
    /// The picture's rows the drawings reach, in order, apart (each holds a row that
    /// the next does not).
    reached: Vec<Range<usize>>,
}

impl Drawings {
    /// The drawings of `game` with `last`'s marks.
    fn new(game: &Game, last: &LastMove) -> Result<Drawings, PictureError> {
        let mut out = String::with_capacity(16 * 1024);
        svg::head(&mut out, []);
        let head = out.len();
        svg::under(&mut out, game, last);
        let under = read(&mut out, head)?;
        let unkept = panel_kept::unkept(game);
        out.clear();
        match unkept.is_empty() {
            true => svg::head(&mut out, []),
            false => svg::head(
                &mut out,
                panel::STATE_WORDS.into_iter().chain(["0123456789"]),
            ),
        }
        let head = out.len();
        svg::marks_over(&mut out, last);
        for part in unkept {
            panel::draw(&mut out, part);
        }
        let over = read(&mut out, head)?;
        let mut reached: Vec<Range<usize>> = [&under, &over]
            .into_iter()
            .flatten()
            .map(reach)
            .filter(|rows| !rows.is_empty())
            .collect();
        reached.sort_by_key(|rows| rows.start);
        let mut apart: Vec<Range<usize>> = Vec::with_capacity(reached.len());
        for rows in reached {
            match apart.last_mut() {
                Some(before) if rows.start <= before.end => before.end = before.end.max(rows.end),
                _ => apart.push(rows),
            }
        }
        Ok(Drawings {
            under,
            over,
            reached: apart,
        })
    }

    /// A canvas of the picture's size (and `spare` bytes more below it), its rows the
    /// drawings reach made in the SVG's order, its other rows untouched (zeros).
    fn canvas(&self, game: &Game, spare: usize) -> Result<Vec<u8>, PictureError> {
        let stride = 4 * Strip::WIDTH;
        let size = Strip::HEIGHT * stride;
        let mut canvas = vec![0u8; size + spare];
        let mut base = base::cursor()?;
        let mut y = 0;
        for rows in &self.reached {
            base.skip((rows.start - y) * Strip::WIDTH)
                .ok_or(PictureError::Base)?;
            base.fill(strip(&mut canvas, rows)?.pixels)
                .ok_or(PictureError::Base)?;
            y = rows.end;
        }
        let whole = canvas.get_mut(..size).ok_or(PictureError::Base)?;
        if let Some(under) = &self.under {
            png::render(under, whole)?;
        }
        for rows in &self.reached {
            let mut strip = strip(&mut canvas, rows)?;
            stamps::lay(&mut strip, game)?;
            panel_kept::lay(&mut strip, game)?;
        }
        let whole = canvas.get_mut(..size).ok_or(PictureError::Base)?;
        if let Some(over) = &self.over {
            png::render(over, whole)?;
        }
        Ok(canvas)
    }
}

/// The strip of `canvas` (the picture's rows from the top) that holds `rows`.
fn strip<'a>(canvas: &'a mut [u8], rows: &Range<usize>) -> Result<Strip<'a>, PictureError> {
    let stride = 4 * Strip::WIDTH;
    let pixels = canvas
        .get_mut(rows.start * stride..rows.end * stride)
        .ok_or(PictureError::Base)?;
    Ok(Strip {
        pixels,
        top: rows.start,
    })
}

/// The drawing `out` ends, its `<svg>` start and defs `head` bytes long: read, when it
/// draws anything.
fn read(out: &mut String, head: usize) -> Result<Option<usvg::Tree>, PictureError> {
    if out.len() == head {
        return Ok(None);
    }
    out.push_str("</svg>\n");
    let tree = png::parse(out)?;
    Ok(tree.root().has_children().then_some(tree))
}

/// The picture's rows `tree` can change: its bounding box's, strokes included,
/// widened by [`MARGIN`].
fn reach(tree: &usvg::Tree) -> Range<usize> {
    let bounds = tree.root().abs_stroke_bounding_box();
    let row = |y: f32| (y.max(0.0) as usize).min(Strip::HEIGHT);
    let top = row(bounds.top().floor()).saturating_sub(MARGIN);
    let bottom = (row(bounds.bottom().ceil()) + MARGIN).min(Strip::HEIGHT);
    top..bottom.max(top)
}
