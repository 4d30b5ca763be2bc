//! The panel's state laid from kept pixels, not drawn: each part of it (a side's
//! status, its removed rings, the pool's count, the blitz box: `panel::Part`) is drawn
//! over the fixed part only, in rows no other part or mark reaches, so its pixels are
//! the same in every picture that shows it. `panel.parts` beside this file keeps them
//! for every part a game can show (`panel::all`); a picture copies the rectangles of
//! its parts into its canvas. Drawing them (dashed circles, stroked lettering) was a
//! tenth of a picture's work (issue 29). A test keeps `panel.parts` equal to what the
//! drawing makes (`the_kept_panel_is_what_the_drawing_makes`).
//!
//! `panel.parts`: for each part of `panel::all`, in that order, the rectangle its
//! drawing covers (left, top, width, height: four u16, little end first), the length
//! of its pixels (u32) and its pixels, as `base.rs` keeps runs of colours (an empty
//! rectangle has none).

use super::base;
use super::panel::{self, Part};
use super::png::PictureError;
use super::strip::Strip;
use crate::rules::Game;

/// The kept parts (the layout above), written by the test below.
const PARTS_FILE: &[u8] = include_bytes!("panel.parts");

/// A rectangle of pixels: left, top, width, height.
type Rect = [usize; 4];

/// The rectangle and the runs of the `k`th part of `file` (the layout above).
fn entry(file: &[u8], k: usize) -> Option<(Rect, &[u8])> {
    let mut rest = file;
    for at in 0..=k {
        let (head, tail) = rest.split_first_chunk::<12>()?;
        let word = |i: usize| usize::from(u16::from_le_bytes([head[i], head[i + 1]]));
        let rect = [word(0), word(2), word(4), word(6)];
        let len = u32::from_le_bytes([head[8], head[9], head[10], head[11]]) as usize;
        let (runs, tail) = tail.split_at_checked(len)?;
        if at == k {
            return Some((rect, runs));
        }
        rest = tail;
    }
    None
}

/// Copy the `k`th part of `file` into `strip`: its rows that are in the strip.
fn lay_part(file: &[u8], k: usize, strip: &mut Strip) -> Option<()> {
    let ([left, top, w, h], runs) = entry(file, k)?;
    if w == 0 || h == 0 {
        return Some(());
    }
    if left + w > Strip::WIDTH {
        return None;
    }
    let rows = strip.rows()?;
    let (first, last) = (top.max(rows.start), (top + h).min(rows.end));
    if first >= last {
        return Some(());
    }
    let mut pixels = base::Cursor::new(runs)?;
    pixels.skip((first - top) * w)?;
    for y in first..last {
        pixels.fill(strip.span(y, left, w)?)?;
    }
    Some(())
}

/// The rectangles [`lay`] copies `game`'s parts into, each its left, top, width and
/// height in the picture's pixels: it touches no other pixel.
pub(crate) fn rects(game: &Game) -> Vec<[usize; 4]> {
    kept_parts(game)
        .into_iter()
        .filter_map(|k| entry(PARTS_FILE, k).map(|(rect, _)| rect))
        .collect()
}

/// The parts of the panel's state of `game` that are not kept (none, while
/// `panel::all` lists every part a game can show), for the caller to draw.
pub(crate) fn unkept(game: &Game) -> Vec<Part> {
    let all = panel::all();
    panel::parts(game)
        .into_iter()
        .filter(|part| !all.contains(part))
        .collect()
}

/// Lay the panel's state of `game` over `strip` (the fixed part under it): the parts
/// it shows that are kept, in the strip's rows.
pub(crate) fn lay(strip: &mut Strip, game: &Game) -> Result<(), PictureError> {
    lay_from(PARTS_FILE, strip, game).ok_or(PictureError::Base)
}

/// `lay` from the kept parts `file`; `None` when it is broken.
fn lay_from(file: &[u8], strip: &mut Strip, game: &Game) -> Option<()> {
    for k in kept_parts(game) {
        lay_part(file, k, strip)?;
    }
    Some(())
}

/// The places in `panel::all` (and so in `panel.parts`) of the parts `game` shows that
/// are kept.
fn kept_parts(game: &Game) -> Vec<usize> {
    let all = panel::all();
    panel::parts(game)
        .into_iter()
        .filter_map(|part| all.iter().position(|&p| p == part))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::{geometry, png, svg};
    use super::*;
    use crate::rules::{Color, Variant};
    use resvg::{tiny_skia, usvg};

    /// The picture's width in pixels.
    fn width() -> usize {
        geometry::WIDTH.round() as usize
    }

    /// The SVG of `part` alone.
    fn part_svg(part: Part) -> String {
        let mut out = String::new();
        svg::head(
            &mut out,
            panel::STATE_WORDS.into_iter().chain(["0123456789"]),
        );
        panel::draw(&mut out, part);
        out.push_str("</svg>\n");
        out
    }

    /// The rectangle of the pixels `part`'s drawing touches at all (its coverage over
    /// a transparent canvas, however faint).
    fn covered(part: Part) -> Rect {
        let tree = usvg::Tree::from_str(&part_svg(part), &usvg::Options::default()).unwrap();
        let size = tree.size().to_int_size();
        let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        let w = width();
        let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
        for (k, p) in pixmap.data().chunks(4).enumerate() {
            if p[3] > 0 {
                let (x, y) = (k % w, k / w);
                (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
            }
        }
        match x0 {
            usize::MAX => [0; 4],
            _ => [x0, y0, x1 - x0, y1 - y0],
        }
    }

    /// The picture's fixed part with `part` drawn over it.
    fn drawn(part: Part) -> Vec<u8> {
        let mut canvas = base::pixels().unwrap();
        png::draw(&part_svg(part), &mut canvas).unwrap();
        canvas
    }

    /// The kept parts' file of the drawing as it is now.
    fn file_now() -> Vec<u8> {
        let w = width();
        let mut file = Vec::new();
        for part in panel::all() {
            let rect @ [left, top, rw, rh] = covered(part);
            let pixels: Vec<u8> = drawn(part)
                .chunks(4 * w)
                .skip(top)
                .take(rh)
                .flat_map(|row| row[4 * left..4 * (left + rw)].to_vec())
                .collect();
            let runs = match rw * rh {
                0 => Vec::new(),
                _ => base::pack(&pixels).expect("at most 256 colours"),
            };
            for v in rect {
                file.extend_from_slice(&u16::try_from(v).unwrap().to_le_bytes());
            }
            file.extend_from_slice(&(runs.len() as u32).to_le_bytes());
            file.extend(runs);
        }
        file
    }

    /// Issue 29 finding "the picture": every kept part laid over the fixed part is,
    /// pixel for pixel, that part drawn over it; after a change of the drawing, write
    /// the file anew with `UPDATE_PICTURE_BASE=1 cargo test --lib picture::panel_kept`
    /// (twice: the second run builds the new file in).
    #[test]
    fn the_kept_panel_is_what_the_drawing_makes() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/picture/panel.parts");
        if std::env::var_os("UPDATE_PICTURE_BASE").is_some() {
            std::fs::write(path, file_now()).unwrap();
        }
        let all = panel::all();
        assert_eq!(all.len(), 2 * (3 + 4 + 2) + 52 + 1);
        for (k, &part) in all.iter().enumerate() {
            let mut canvas = base::pixels().unwrap();
            lay_part(PARTS_FILE, k, &mut Strip::from_top(&mut canvas)).unwrap();
            let differing = canvas
                .chunks(4)
                .zip(drawn(part).chunks(4))
                .filter(|(a, b)| a != b)
                .count();
            assert_eq!(
                differing, 0,
                "{part:?}: src/picture/panel.parts is stale: \
                 UPDATE_PICTURE_BASE=1 cargo test --lib picture::panel_kept"
            );
            assert_eq!(entry(PARTS_FILE, k).unwrap().0, covered(part), "{part:?}");
        }
        assert!(
            entry(PARTS_FILE, all.len()).is_none(),
            "no more parts than listed"
        );
    }

    /// Which place of the panel a part is drawn in: the parts of one place replace
    /// each other, those of two places are shown together.
    fn place(part: Part) -> (u8, Option<Color>) {
        match part {
            Part::Status(c, _) => (0, Some(c)),
            Part::Removed { color, .. } => (1, Some(color)),
            Part::Pool(_) => (2, None),
            Part::Blitz => (3, None),
        }
    }

    /// Parts shown together never reach each other's pixels, nor the board's (the
    /// marks): so each is drawn over the fixed part alone, and its kept pixels are
    /// right in every picture.
    #[test]
    fn the_panel_parts_keep_to_their_own_places() {
        let all = panel::all();
        let rects: Vec<Rect> = (0..all.len())
            .map(|k| entry(PARTS_FILE, k).unwrap().0)
            .collect();
        let meet = |a: Rect, b: Rect| {
            a[0] < b[0] + b[2] && b[0] < a[0] + a[2] && a[1] < b[1] + b[3] && b[1] < a[1] + a[3]
        };
        for (i, &a) in rects.iter().enumerate() {
            assert!(a[0] as f64 >= geometry::PANEL_LEFT.floor(), "{:?}", all[i]);
            for (j, &b) in rects.iter().enumerate() {
                if place(all[i]) != place(all[j]) {
                    assert!(!meet(a, b), "{:?} and {:?}", all[i], all[j]);
                }
            }
        }
        // Each of them draws something.
        assert!(rects.iter().all(|r| r[2] * r[3] > 0));
    }

    /// What a game shows is kept: nothing is left to draw, in both variants, from
    /// the start to the end (the parts are listed by `panel::all`).
    #[test]
    fn every_part_a_game_shows_is_kept() {
        for variant in [Variant::Normal, Variant::Blitz] {
            let mut game = Game::new(variant);
            let mut canvas = base::pixels().unwrap();
            while !game.is_over() {
                assert_eq!(unkept(&game), Vec::new());
                lay(&mut Strip::from_top(&mut canvas), &game).unwrap();
                let legal = game.legal_actions();
                game.play(legal.as_slice()[0]).unwrap();
            }
            assert_eq!(unkept(&game), Vec::new());
        }
    }

    #[test]
    fn a_broken_parts_file_is_refused() {
        let game = Game::new(Variant::Blitz);
        let mut canvas = base::pixels().unwrap();
        let cut = &PARTS_FILE[..PARTS_FILE.len() - 1];
        assert!(lay_from(cut, &mut Strip::from_top(&mut canvas), &game).is_none());
        assert!(lay_from(&[], &mut Strip::from_top(&mut canvas), &game).is_none());
        // A rectangle past the canvas's edge is refused, not written past it.
        let mut wide = Vec::new();
        for v in [width() as u16, 0, 1, 1] {
            wide.extend_from_slice(&v.to_le_bytes());
        }
        wide.extend_from_slice(&0u32.to_le_bytes());
        assert!(lay_part(&wide, 0, &mut Strip::from_top(&mut canvas)).is_none());
    }
}
