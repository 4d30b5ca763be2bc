//! The pieces laid from kept coverage masks, not drawn: `pieces.masks` beside this
//! file holds, for every point and every element of a piece's drawing
//! (`svg::Stroke`), how much of each pixel around the point the element covers, as
//! the drawing computes it there (tiny-skia's anti-aliased scan of the stroked
//! circle, at the picture's own coordinates). A picture blends each element's colour
//! into its canvas through its mask, one element after the other and with
//! tiny-skia's own rounding, so the pixels are the drawing's to the last bit
//! (`stamped_pieces_are_the_drawn_ones`). Drawing the stroked circles was most of the
//! rasterising of a picture (issue 29). A test keeps `pieces.masks` equal to what the
//! drawing makes (`the_kept_masks_are_what_the_drawing_makes`).
//!
//! `pieces.masks`: for each stroke (in `Stroke::ALL` order) and each point (in
//! `Point::ALL` order), where its mask's runs start and end (two u32, little end
//! first, counted from the end of this table; equal masks share their runs); then
//! the runs, each a count (u8, 1 or more) and a coverage (u8, 0 to 255), over a
//! square of [`SIDE`] x [`SIDE`] pixels around the point, row after row.

use super::geometry;
use super::png::PictureError;
use super::strip::Strip;
use super::svg::{self, Stroke};
use crate::rules::{Game, Point};

/// The side of a mask's square, in pixels: a ring with its outline, and a margin.
const SIDE: usize = 44;
/// Where a mask's point is, from its square's top left corner (whole pixels; the
/// point's fraction of a pixel is in the mask).
const CENTRE: usize = SIDE / 2;
/// The masks in the file: every stroke on every point.
const MASKS: usize = Stroke::ALL.len() * Point::ALL.len();

/// The masks (the layout above), written by the test below.
const MASK_FILE: &[u8] = include_bytes!("pieces.masks");

/// The top left corner of the square of `p`'s masks, in the picture's pixels.
fn corner(p: Point) -> (usize, usize) {
    let (x, y) = geometry::point(p);
    (
        (x.floor() as usize).saturating_sub(CENTRE),
        (y.floor() as usize).saturating_sub(CENTRE),
    )
}

/// The runs of the mask of `stroke` on `p`, from `file` (the layout above).
fn mask(file: &[u8], stroke: Stroke, p: Point) -> Option<&[u8]> {
    let (table, runs) = file.split_at_checked(MASKS * 8)?;
    let s = Stroke::ALL.iter().position(|&x| x == stroke)?;
    let k = 8 * (s * Point::ALL.len() + p.dense_index());
    let word = |at: usize| -> Option<usize> {
        let b = table.get(at..at + 4)?;
        Some(u32::from_le_bytes(b.try_into().ok()?) as usize)
    };
    runs.get(word(k)?..word(k + 4)?)
}

/// The colour `#rrggbb`.
fn colour(hex: &str) -> Option<[u8; 3]> {
    let digits = hex.strip_prefix('#').filter(|d| d.len() == 6)?;
    let byte = |k: usize| u8::from_str_radix(digits.get(k..k + 2)?, 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// The squares [`lay`] lays `game`'s pieces in, each its left, top, width and height
/// in the picture's pixels: it touches no other pixel.
pub(crate) fn squares(game: &Game) -> impl Iterator<Item = [usize; 4]> + '_ {
    Point::ALL
        .iter()
        .filter(|&&p| game.piece_at(p).is_some())
        .map(|&p| {
            let (left, top) = corner(p);
            [left, top, SIDE, SIDE]
        })
}

/// Every piece of `game` laid over `strip` (the fixed part and what goes under the
/// pieces already in it), in `Point::ALL` order and each piece's elements in their
/// order, as the SVG draws them: the parts of them in the strip's rows.
pub(crate) fn lay(strip: &mut Strip, game: &Game) -> Result<(), PictureError> {
    lay_from(MASK_FILE, strip, game).ok_or(PictureError::Base)
}

/// [`lay`] with the masks of `file`; `None` when the file or the strip is broken.
fn lay_from(file: &[u8], strip: &mut Strip, game: &Game) -> Option<()> {
    let rows = strip.rows()?;
    for p in Point::ALL {
        let Some(piece) = game.piece_at(p) else {
            continue;
        };
        let (left, top) = corner(p);
        if left + SIDE > Strip::WIDTH || top + SIDE > Strip::HEIGHT {
            return None;
        }
        // The places of the mask (row after row) that fall in the strip.
        let first = rows.start.saturating_sub(top) * SIDE;
        let last = (rows.end.saturating_sub(top) * SIDE).min(SIDE * SIDE);
        if first >= last {
            continue;
        }
        let width = Strip::WIDTH;
        let origin = 4 * ((top + first / SIDE - rows.start) * width + left);
        for &(stroke, hex) in svg::strokes(piece) {
            let rgb = colour(hex)?;
            let mut k = 0usize;
            for run in mask(file, stroke, p)?.chunks(2) {
                // The runs below the strip are not read.
                if k >= last {
                    break;
                }
                let [n, c] = *run else {
                    return None;
                };
                let n = usize::from(n);
                if n == 0 || k + n > SIDE * SIDE {
                    return None;
                }
                // The run's places in the strip, a row of the square at a time.
                let (mut at, end) = (k.max(first), (k + n).min(last));
                while c > 0 && at < end {
                    let (row, column) = ((at - first) / SIDE, at % SIDE);
                    let stop = end.min(first + (row + 1) * SIDE);
                    let d = origin + 4 * (row * width + column);
                    let span = strip.pixels.get_mut(d..d + 4 * (stop - at))?;
                    blend(span.as_chunks_mut::<4>().0, rgb, c);
                    at = stop;
                }
                k += n;
            }
            // A mask's runs cover its square, all of it (as far as read).
            if k < last {
                return None;
            }
        }
    }
    Some(())
}

/// Opaque colour `s` laid over the opaque pixels `d` (RGBA) with coverage `c`, as
/// tiny-skia's low-precision pipeline does it (`lerp`, dividing by 255 as
/// `(v + 255) >> 8`).
fn blend(d: &mut [[u8; 4]], s: [u8; 3], c: u8) {
    if c == u8::MAX {
        for pixel in d {
            pixel[..3].copy_from_slice(&s);
        }
        return;
    }
    let keep = u32::from(u8::MAX - c);
    let add = s.map(|s| u32::from(s) * u32::from(c) + 255);
    for pixel in d {
        for (d, add) in pixel.iter_mut().zip(add) {
            *d = ((u32::from(*d) * keep + add) >> 8) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{base, png};
    use super::*;
    use crate::rules::{Color, Piece, Variant};
    use resvg::{tiny_skia, usvg};

    /// The alpha of `svg` rasterised alone over a transparent canvas of the
    /// picture's size: the coverage of what it draws in opaque white.
    fn coverage(svg: &str) -> Vec<u8> {
        let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).unwrap();
        let size = tree.size().to_int_size();
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        pixmap.data().chunks(4).map(|p| p[3]).collect()
    }

    /// What the drawing of `stroke` on `p` covers of each pixel of the picture.
    ///
    /// The inner lines of black pieces are one pixel wide: tiny-skia draws them as
    /// hairlines, which blend some pixels twice, so their alpha alone over nothing
    /// does not tell how they change a pixel. They always lie on the black body
    /// (drawn just before), so their coverage is measured over it: for each pixel,
    /// the coverage that takes the body's colour to the drawn one in one blend.
    fn covered(stroke: Stroke, p: Point) -> Vec<u8> {
        let (x, y) = geometry::point(p);
        let mut text = String::new();
        svg::head(&mut text, []);
        let radius = svg::board_radius(stroke);
        if !matches!(stroke, Stroke::RingGrey | Stroke::DiscGrey) {
            svg::stroke(&mut text, stroke, "#ffffff", x, y, radius);
            text.push_str("</svg>\n");
            return coverage(&text);
        }
        let body = svg::strokes(Piece::Ring(Color::Black))[1];
        assert_eq!(body.0, Stroke::RingBody);
        let grey = svg::GREY;
        svg::stroke(&mut text, stroke, grey, x, y, radius);
        text.push_str("</svg>\n");
        let (under, over) = (colour(body.1).unwrap()[0], colour(grey).unwrap()[0]);
        let width = geometry::WIDTH.round() as usize;
        let height = geometry::HEIGHT.round() as usize;
        let mut canvas = [under, under, under, 255].repeat(width * height);
        png::draw(&text, &mut canvas).unwrap();
        canvas
            .chunks(4)
            .map(|pixel| {
                (0..=u8::MAX)
                    .find(|&c| {
                        let mut d = [[under, under, under, 255]];
                        blend(&mut d, [over; 3], c);
                        d[0][..3] == pixel[..3]
                    })
                    .expect("one blend of the grey makes the drawn pixel")
            })
            .collect()
    }

    /// The masks as the drawing makes them now: the file's bytes.
    fn drawn() -> Vec<u8> {
        let width = geometry::WIDTH.round() as usize;
        let mut table = Vec::new();
        let mut runs: Vec<u8> = Vec::new();
        let mut seen: Vec<(Vec<u8>, usize, usize)> = Vec::new();
        for stroke in Stroke::ALL {
            for p in Point::ALL {
                let alpha = covered(stroke, p);
                let (left, top) = corner(p);
                let mut square = Vec::with_capacity(SIDE * SIDE);
                for row in top..top + SIDE {
                    square.extend_from_slice(&alpha[row * width + left..row * width + left + SIDE]);
                }
                // The whole element inside the square, nothing on its edge.
                let inside: u32 = square.iter().map(|&a| u32::from(a)).sum();
                let all: u32 = alpha.iter().map(|&a| u32::from(a)).sum();
                assert_eq!(inside, all, "{stroke:?} on {p} reaches out of its square");
                for i in 0..SIDE {
                    for (x, y) in [(i, 0), (i, SIDE - 1), (0, i), (SIDE - 1, i)] {
                        assert_eq!(
                            square[y * SIDE + x],
                            0,
                            "{stroke:?} on {p} reaches the edge"
                        );
                    }
                }
                let (start, end) = match seen.iter().find(|(m, _, _)| *m == square) {
                    Some(&(_, start, end)) => (start, end),
                    None => {
                        let start = runs.len();
                        for &a in &square {
                            let n = runs.len();
                            if n > start && runs[n - 2] < u8::MAX && runs[n - 1] == a {
                                runs[n - 2] += 1;
                            } else {
                                runs.extend_from_slice(&[1, a]);
                            }
                        }
                        seen.push((square, start, runs.len()));
                        (start, runs.len())
                    }
                };
                table.extend_from_slice(&(start as u32).to_le_bytes());
                table.extend_from_slice(&(end as u32).to_le_bytes());
            }
        }
        table.extend(runs);
        table
    }

    /// Issue 29 finding "the picture": the kept masks are exactly the pieces'
    /// coverage as the drawing makes it now; after a change of the drawing, write them
    /// anew with `UPDATE_PICTURE_BASE=1 cargo test --lib picture::stamps` (twice: the
    /// second run builds the new file in).
    #[test]
    fn the_kept_masks_are_what_the_drawing_makes() {
        let drawn = drawn();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/picture/pieces.masks");
        if std::env::var_os("UPDATE_PICTURE_BASE").is_some() {
            std::fs::write(path, &drawn).unwrap();
        }
        assert!(
            MASK_FILE == drawn.as_slice(),
            "src/picture/pieces.masks is stale: UPDATE_PICTURE_BASE=1 cargo test --lib picture::stamps"
        );
    }

    /// A game with `pieces` on their points (no rule checked: a picture's input).
    fn with(pieces: &[(Point, Piece)]) -> Game {
        let (mut rings, mut markers) = ([0u128; 2], [0u128; 2]);
        for &(p, piece) in pieces {
            match piece {
                Piece::Ring(c) => rings[c.index()] |= p.bit(),
                Piece::Marker(c) => markers[c.index()] |= p.bit(),
            }
        }
        Game::from_parts(Variant::Normal, rings, markers, [0, 0], Color::White)
    }

    /// Issue 29 finding "the picture": pieces laid from the masks are, pixel for
    /// pixel, the pieces the drawing makes in place: every kind of piece on every
    /// point, beside every other kind, over the kept fixed part of the picture.
    #[test]
    fn stamped_pieces_are_the_drawn_ones() {
        let kinds = [
            Piece::Ring(Color::White),
            Piece::Ring(Color::Black),
            Piece::Marker(Color::White),
            Piece::Marker(Color::Black),
        ];
        for shift in 0..kinds.len() {
            let pieces: Vec<(Point, Piece)> = Point::ALL
                .into_iter()
                .enumerate()
                .map(|(k, p)| (p, kinds[(k + shift) % kinds.len()]))
                .collect();
            let game = with(&pieces);
            let mut drawn = base::pixels().unwrap();
            let mut text = String::new();
            svg::head(&mut text, []);
            svg::board_pieces(&mut text, &game);
            text.push_str("</svg>\n");
            png::draw(&text, &mut drawn).unwrap();
            let mut stamped = base::pixels().unwrap();
            lay(&mut Strip::from_top(&mut stamped), &game).unwrap();
            let differing = stamped
                .chunks(4)
                .zip(drawn.chunks(4))
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(differing, 0, "shift {shift}: pixels differ");
        }
    }

    /// A broken masks file or canvas is refused, not read past its end.
    #[test]
    fn a_broken_mask_file_is_refused() {
        let game = with(&[(Point::ALL[84], Piece::Ring(Color::Black))]);
        let mut canvas = base::pixels().unwrap();
        assert_eq!(
            lay_from(MASK_FILE, &mut Strip::from_top(&mut canvas), &game),
            Some(())
        );
        // The table entry of the ring's outline on its point: its start and end.
        let entry = 8 * Point::ALL[84].dense_index();
        let mut past_end = MASK_FILE.to_vec();
        past_end[entry + 4..entry + 8].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(
            lay_from(&past_end, &mut Strip::from_top(&mut canvas), &game),
            None
        );
        let mut empty_run = MASK_FILE.to_vec();
        let start = u32::from_le_bytes(MASK_FILE[entry..entry + 4].try_into().unwrap());
        empty_run[MASKS * 8 + start as usize] = 0;
        assert_eq!(
            lay_from(&empty_run, &mut Strip::from_top(&mut canvas), &game),
            None
        );
        assert_eq!(
            lay_from(&MASK_FILE[..100], &mut Strip::from_top(&mut canvas), &game),
            None
        );
        assert_eq!(
            lay_from(&[], &mut Strip::from_top(&mut canvas), &game),
            None
        );
        assert_eq!(
            lay_from(MASK_FILE, &mut Strip::from_top(&mut canvas[4..]), &game),
            None
        );
        assert_eq!(colour("#d55e00"), Some([0xd5, 0x5e, 0x00]));
        assert_eq!(colour("d55e00"), None);
        assert_eq!(colour("#d55e0"), None);
    }
}
