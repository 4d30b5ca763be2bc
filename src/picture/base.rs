//! The part of the picture that is the same in every position, kept drawn: the page,
//! the board's hexagon, grid lines and coordinate labels, and the panel's names,
//! legends and words. Rasterising it took most of a picture's drawing (the labels are
//! stroked paths); now `base.runs` beside this file holds it, built into the program,
//! read for each picture in order, a strip of rows at a time (`Cursor`, about 2 M
//! instructions; kept unpacked for the whole process, its 1.1 MB took a mail of many
//! pictures past the 20 MB a run may use; `compose.rs` holds only the rows a drawing
//! reaches whole), and each picture makes only what tells its position over it
//! (issue 29). A
//! test keeps `base.runs` equal to what the drawing makes
//! (`the_kept_base_is_what_the_drawing_makes`).
//!
//! `base.runs` is the pixels' colours as runs, unpacked by a loop of copies (a PNG of
//! them took a fifth of a picture's work to inflate): the number of colours (u16, little
//! end first), the colours (3 bytes each, red green blue), then each run's length (u16,
//! 1 or more) and colour number (u8), row after row from the top left.

#[cfg(test)]
use super::geometry;
use super::png::PictureError;

/// The fixed part's pixels as runs of colours (the file's layout above), written by
/// the test below.
const BASE_RUNS: &[u8] = include_bytes!("base.runs");

/// The fixed part's pixels (RGBA, opaque), unpacked from `base.runs`, the whole
/// picture at once (a picture is made a strip at a time from [`cursor`]).
#[cfg(test)]
pub(crate) fn pixels() -> Result<Vec<u8>, PictureError> {
    unpack(BASE_RUNS, geometry_size()).ok_or(PictureError::Base)
}

/// The fixed part's pixels to be read in order, row after row from the top left.
pub(crate) fn cursor() -> Result<Cursor<'static>, PictureError> {
    Cursor::new(BASE_RUNS).ok_or(PictureError::Base)
}

/// The RGBA pixels of `runs` (the layout above), when they are `size`'s.
#[cfg(test)]
pub(crate) fn unpack(runs: &[u8], size: (u32, u32)) -> Option<Vec<u8>> {
    let mut cursor = Cursor::new(runs)?;
    let mut out = vec![0u8; size.0 as usize * size.1 as usize * 4];
    cursor.fill(&mut out)?;
    cursor.is_done().then_some(out)
}

/// A reader of runs (the layout above) that hands their pixels on in order, a
/// stretch at a time, as pixels ([`Cursor::fill`]) or as runs ([`Cursor::runs`]): a
/// picture is made in strips of rows, from the top down.
#[derive(Clone)]
pub(crate) struct Cursor<'a> {
    /// The colours, 3 bytes each.
    colours: &'a [u8],
    /// The runs not read yet.
    runs: std::slice::ChunksExact<'a, u8>,
    /// The run being read: its pixel, its colour's number, and how many of its pixels
    /// are left.
    pending: ([u8; 4], u8, usize),
}

impl<'a> Cursor<'a> {
    /// The start of `runs`; `None` when its colours are cut short.
    pub(crate) fn new(runs: &'a [u8]) -> Option<Cursor<'a>> {
        let (count, rest) = runs.split_first_chunk::<2>()?;
        let (colours, runs) = rest.split_at_checked(3 * usize::from(u16::from_le_bytes(*count)))?;
        Some(Cursor {
            colours,
            runs: runs.chunks_exact(3),
            pending: ([0; 4], 0, 0),
        })
    }

    /// The colours (red, green, blue) in the order of their numbers.
    pub(crate) fn colours(&self) -> impl Iterator<Item = [u8; 3]> + use<'a> {
        self.colours.as_chunks::<3>().0.iter().copied()
    }

    /// The next `pixels` pixels handed to `run` as runs: each its colour's number and
    /// its length (a run cut where the stretch begins or ends); `None` when the runs
    /// end first or `run` says so.
    pub(crate) fn runs(
        &mut self,
        mut pixels: usize,
        mut run: impl FnMut(u8, usize) -> Option<()>,
    ) -> Option<()> {
        while pixels > 0 {
            if self.pending.2 == 0 {
                self.pending = self.next_run()?;
            }
            let here = self.pending.2.min(pixels);
            run(self.pending.1, here)?;
            self.pending.2 -= here;
            pixels -= here;
        }
        Some(())
    }

    /// The next `out.len() / 4` pixels written into `out` (RGBA); `None` when the
    /// runs end first or name a colour there is not.
    pub(crate) fn fill(&mut self, out: &mut [u8]) -> Option<()> {
        let mut out = out.as_chunks_mut::<4>().0;
        let (mut pixel, mut number, mut left) = self.pending;
        loop {
            let (here, rest) = out.split_at_mut(left.min(out.len()));
            here.fill(pixel);
            left -= here.len();
            out = rest;
            if out.is_empty() {
                break;
            }
            (pixel, number, left) = self.next_run()?;
        }
        self.pending = (pixel, number, left);
        Some(())
    }

    /// The next `pixels` passed over; `None` as for [`Cursor::fill`].
    pub(crate) fn skip(&mut self, mut pixels: usize) -> Option<()> {
        while pixels > self.pending.2 {
            pixels -= self.pending.2;
            self.pending = self.next_run()?;
        }
        self.pending.2 -= pixels;
        Some(())
    }

    /// Whether every pixel of the runs has been read.
    #[cfg(test)]
    fn is_done(&self) -> bool {
        self.pending.2 == 0 && self.runs.len() == 0
    }

    /// The next run's pixel, colour number and length.
    fn next_run(&mut self) -> Option<([u8; 4], u8, usize)> {
        let run = self.runs.next()?;
        let k = usize::from(run[2]) * 3;
        let c = self.colours.get(k..k + 3)?;
        let n = usize::from(u16::from_le_bytes([run[0], run[1]]));
        Some(([c[0], c[1], c[2], 255], run[2], n))
    }
}

/// RGBA pixels (alpha left out) as runs (the layout above); `None` past 256 colours.
#[cfg(test)]
pub(crate) fn pack(rgba: &[u8]) -> Option<Vec<u8>> {
    let mut colours: Vec<[u8; 3]> = Vec::new();
    let mut runs: Vec<u8> = Vec::new();
    let mut last: Option<([u8; 3], u16)> = None;
    let mut flush = |colours: &mut Vec<[u8; 3]>, (c, n): ([u8; 3], u16)| -> Option<()> {
        let k = match colours.iter().position(|&x| x == c) {
            Some(k) => k,
            None => {
                colours.push(c);
                colours.len() - 1
            }
        };
        runs.extend_from_slice(&n.to_le_bytes());
        runs.push(u8::try_from(k).ok()?);
        Some(())
    };
    for p in rgba.chunks_exact(4) {
        let c = [p[0], p[1], p[2]];
        last = match last {
            Some((l, n)) if l == c && n < u16::MAX => Some((l, n + 1)),
            Some(run) => {
                flush(&mut colours, run)?;
                Some((c, 1))
            }
            None => Some((c, 1)),
        };
    }
    if let Some(run) = last {
        flush(&mut colours, run)?;
    }
    let mut out = (colours.len() as u16).to_le_bytes().to_vec();
    out.extend(colours.concat());
    out.extend(runs);
    Some(out)
}

/// The picture's size in pixels.
#[cfg(test)]
fn geometry_size() -> (u32, u32) {
    (
        geometry::WIDTH.round() as u32,
        geometry::HEIGHT.round() as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::super::{panel, png, svg};
    use super::*;

    /// The SVG of the fixed part alone (what `base.png` holds drawn).
    fn fixed_svg() -> String {
        let mut out = String::with_capacity(32 * 1024);
        let labels = geometry::labels();
        svg::head(
            &mut out,
            labels
                .iter()
                .map(|l| l.text.as_str())
                .chain(panel::FIXED_WORDS),
        );
        svg::page(&mut out);
        svg::grid(&mut out);
        panel::fixed(&mut out);
        out.push_str("</svg>\n");
        out
    }

    /// Issue 29 finding "the picture": the kept base is exactly the fixed part as the
    /// drawing makes it now; after a change of the drawing, write it anew with
    /// `UPDATE_PICTURE_BASE=1 cargo test --lib picture::base` (twice: the second
    /// run builds the new file in).
    #[test]
    fn the_kept_base_is_what_the_drawing_makes() {
        let drawn = png::rasterise_rgba(&fixed_svg()).unwrap();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/picture/base.runs");
        if std::env::var_os("UPDATE_PICTURE_BASE").is_some() {
            std::fs::write(path, pack(&drawn).expect("at most 256 colours")).unwrap();
        }
        let kept = pixels().unwrap();
        assert_eq!(kept.len(), drawn.len());
        let differing = kept
            .chunks(4)
            .zip(drawn.chunks(4))
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(
            differing, 0,
            "src/picture/base.png is stale: UPDATE_PICTURE_BASE=1 cargo test --lib picture::base"
        );
        // Opaque, so its premultiplied bytes are its colours.
        assert!(kept.chunks(4).all(|p| p[3] == 255));
        // A broken file is refused, not read past its end.
        let size = geometry_size();
        assert_eq!(unpack(&BASE_RUNS[..BASE_RUNS.len() - 1], size), None);
        assert_eq!(unpack(&[1, 0, 9, 9, 9, 255, 255, 0], size), None);
        assert_eq!(unpack(&[], size), None);
    }

    /// The fixed part read as runs ([`Cursor::runs`], as `compose.rs` reads it where
    /// nothing is laid) is its pixels as [`Cursor::fill`] writes them, whatever the
    /// stretches it is read in (cut inside runs and at their ends), and each run's
    /// number names its colour; a stretch past the end is refused.
    #[test]
    fn runs_name_the_pixels_fill_writes() {
        let filled = pixels().unwrap();
        let mut reader = cursor().unwrap();
        let colours: Vec<[u8; 3]> = reader.colours().collect();
        let mut read = Vec::with_capacity(filled.len());
        let mut stretch = 0usize;
        while read.len() < filled.len() {
            // Stretches of 1 to 700 pixels, none past the end.
            stretch = (stretch * 7 + 13) % 700 + 1;
            let n = stretch.min((filled.len() - read.len()) / 4);
            let mut handed = 0;
            reader
                .runs(n, |k, length| {
                    let [r, g, b] = *colours.get(usize::from(k))?;
                    for _ in 0..length {
                        read.extend_from_slice(&[r, g, b, 255]);
                    }
                    handed += length;
                    Some(())
                })
                .unwrap();
            assert_eq!(handed, n);
        }
        assert!(read == filled, "the runs are not the pixels");
        assert!(reader.is_done());
        assert_eq!(reader.runs(1, |_, _| Some(())), None);
        // What the caller refuses stops the reading.
        assert_eq!(cursor().unwrap().runs(5, |_, _| None), None);
    }
}
