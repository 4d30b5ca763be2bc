//! A picture made strip by strip, from the top down, into runs of colours (`png.rs`'s
//! `Runs`), without holding the whole picture: a page of memory touched for the first
//! time costs as much as thousands of instructions, and the whole picture is 272 of
//! them (issue 29; `docs/performance.md`).
//!
//! Only what is rasterised (the marks, `svg.rs`: what goes under the pieces and over
//! them) needs the picture's whole canvas: tiny-skia clips what it draws to the
//! canvas's edges, so a drawing on a smaller canvas is not the same to the last bit.
//! So the two drawings are read first and the rows they can reach found (their
//! bounding boxes, strokes included, and a margin for anti-aliasing). Those rows are
//! made in a canvas of the picture's size, in the SVG's order (the fixed part, what
//! goes under the pieces, the pieces, the panel's state, what goes over them), the
//! canvas's other rows never touched (fresh zeroed memory costs nothing until
//! written). Every other row is made in a strip of a few rows, reused down the
//! picture: the fixed part's pixels only under what is laid over them (the pieces,
//! the panel's state: [`Laid`]), and its runs taken as they are everywhere else. A
//! test keeps the picture made so equal to the whole position drawn at once
//! (`mod.rs`).

use std::ops::Range;

use resvg::usvg;

use super::last_move::LastMove;
use super::png::{self, PictureError, Runs};
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

/// The picture of `game` with `last`'s marks as runs of colours (`png::Runs`), made
/// top to bottom, and the memory it was made in.
pub(crate) fn compose(game: &Game, last: &LastMove) -> Result<(Runs, Spent), PictureError> {
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
    let mut runs = Runs::new(Strip::WIDTH * Strip::HEIGHT, base.colours());
    let laid = Laid::new(game);
    let mut spans = Spans::default();
    let mut y = 0;
    let bottom = Strip::HEIGHT..Strip::HEIGHT;
    for whole in drawings.reached.iter().chain([&bottom]) {
        while y < whole.start {
            let end = (y + BAND).min(whole.start);
            let pixels = memory
                .get_mut(band_at..band_at + (end - y) * stride)
                .ok_or(PictureError::Base)?;
            laid.spans(y..end, &mut spans);
            let mut clean = base.clone();
            // The fixed part's pixels, where something is laid over them.
            for (line, row) in pixels.chunks_exact_mut(stride).zip(spans.rows()) {
                let mut x = 0;
                for &(left, right) in row {
                    base.skip(left - x).ok_or(PictureError::Base)?;
                    base.fill(&mut line[4 * left..4 * right])
                        .ok_or(PictureError::Base)?;
                    x = right;
                }
                base.skip(Strip::WIDTH - x).ok_or(PictureError::Base)?;
            }
            let mut strip = Strip { pixels, top: y };
            stamps::lay(&mut strip, game)?;
            panel_kept::lay(&mut strip, game)?;
            // Its runs where nothing is, the pixels laid where something is.
            for (line, row) in strip.pixels.chunks_exact(stride).zip(spans.rows()) {
                let mut x = 0;
                for &(left, right) in row {
                    clean
                        .runs(left - x, |k, n| runs.push_known(k, n))
                        .ok_or(PictureError::Base)?;
                    clean.skip(right - left).ok_or(PictureError::Base)?;
                    runs.push(&line[4 * left..4 * right]);
                    x = right;
                }
                clean
                    .runs(Strip::WIDTH - x, |k, n| runs.push_known(k, n))
                    .ok_or(PictureError::Base)?;
            }
            y = end;
        }
        if !whole.is_empty() {
            base.skip(whole.len() * Strip::WIDTH)
                .ok_or(PictureError::Base)?;
            runs.push(
                memory
                    .get(whole.start * stride..whole.end * stride)
                    .ok_or(PictureError::Base)?,
            );
            y = whole.end;
        }
    }
    let rows_at = (band_at + band_bytes).saturating_sub(rows_length);
    Ok((runs, Spent { memory, rows_at }))
}

/// The rectangles something is laid in over the fixed part outside the rows a
/// drawing reaches (the pieces' squares, the panel's parts: `stamps::squares`,
/// `panel_kept::rects`): only there are the fixed part's pixels made and read back
/// pixel by pixel; elsewhere its runs are the picture's as they are (unpacking them
/// all and finding them again in the pixels cost a fifth of a picture's instructions).
struct Laid {
    /// Left, top, width, height, by their tops.
    rects: Vec<[usize; 4]>,
}

/// The columns something is laid in, row by row: each row's (left, right) pairs, left
/// to right, apart.
#[derive(Default)]
struct Spans {
    /// Every row's pairs, one row after the other.
    pairs: Vec<(usize, usize)>,
    /// Where each row's pairs end in `pairs`.
    ends: Vec<usize>,
}

impl Spans {
    /// Each row's pairs, in order.
    fn rows(&self) -> impl Iterator<Item = &[(usize, usize)]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.pairs[start..end])
    }
}

impl Laid {
    fn new(game: &Game) -> Laid {
        let mut rects: Vec<[usize; 4]> = stamps::squares(game)
            .chain(panel_kept::rects(game))
            .filter(|&[_, _, w, h]| w > 0 && h > 0)
            .collect();
        rects.sort_unstable_by_key(|r| r[1]);
        Laid { rects }
    }

    /// The columns laid in of each of the picture's `rows`, into `spans`.
    fn spans(&self, rows: Range<usize>, spans: &mut Spans) {
        spans.pairs.clear();
        spans.ends.clear();
        // The rectangles that reach these rows.
        let near: Vec<[usize; 4]> = self
            .rects
            .iter()
            .take_while(|r| r[1] < rows.end)
            .filter(|r| r[1] + r[3] > rows.start)
            .copied()
            .collect();
        for y in rows {
            let start = spans.pairs.len();
            for &[left, top, width, height] in &near {
                if (top..top + height).contains(&y) {
                    let right = (left + width).min(Strip::WIDTH);
                    spans.pairs.push((left.min(right), right));
                }
            }
            let row = &mut spans.pairs[start..];
            row.sort_unstable();
            // Overlapping or touching pairs made one.
            let mut kept = start;
            for k in start..spans.pairs.len() {
                let (left, right) = spans.pairs[k];
                match kept > start && left <= spans.pairs[kept - 1].1 {
                    true => spans.pairs[kept - 1].1 = spans.pairs[kept - 1].1.max(right),
                    false => {
                        spans.pairs[kept] = (left, right);
                        kept += 1;
                    }
                }
            }
            spans.pairs.truncate(kept);
            spans.ends.push(kept);
        }
    }
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
