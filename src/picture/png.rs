//! The SVG rasterised with resvg (over a canvas given, `base.rs`'s) and written as a
//! small PNG: its colours reduced to a palette of 256 (`quantise`; the drawing has a
//! few flat colours and their anti-aliased edges, so the picture looks the same),
//! indexed colour, deflated by `deflate.rs` (as tight as zlib's default level, which
//! took most of a picture's work; issue 29).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use resvg::{tiny_skia, usvg};

use super::deflate;
use super::geometry::STEP;
use thiserror::Error;

/// Why a picture could not be made into a PNG (an internal failure: the SVG is ours).
#[derive(Debug, Error)]
pub enum PictureError {
    /// resvg could not read the SVG.
    #[error("cannot read the board's SVG: {0}")]
    Svg(#[from] usvg::Error),
    /// The canvas could not be allocated.
    #[error("cannot make a {width}x{height} canvas")]
    Canvas {
        /// The width asked for.
        width: u32,
        /// The height asked for.
        height: u32,
    },
    /// The kept drawing of the picture's fixed part (`base.rs`) did not decode.
    #[error("cannot read the board's kept drawing")]
    Base,
    /// The PNG encoder failed.
    #[error("cannot write the PNG: {0}")]
    Png(#[from] ::png::EncodingError),
}

/// `svg` rasterised over a white canvas, at its own size, or scaled by `scale` onto a
/// canvas of `size` (what falls outside it is cut off): its size and RGBA bytes.
fn on_white(
    svg: &str,
    scaled: Option<(f32, (u32, u32))>,
) -> Result<(u32, u32, Vec<u8>), PictureError> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())?;
    let own = tree.size().to_int_size();
    let (scale, (width, height)) = scaled.unwrap_or((1.0, (own.width(), own.height())));
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(PictureError::Canvas { width, height })?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let transform = tiny_skia::Transform::from_scale(scale, scale);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    Ok((width, height, pixmap.take()))
}

/// `svg` rasterised at its own size over a white canvas: its RGBA bytes.
#[cfg(test)]
pub(crate) fn rasterise_rgba(svg: &str) -> Result<Vec<u8>, PictureError> {
    on_white(svg, None).map(|(_, _, rgba)| rgba)
}

/// The PNG of `svg` drawn whole over a white canvas (a picture with no kept fixed
/// part, such as a review's chart).
pub(crate) fn rasterise(svg: &str) -> Result<Vec<u8>, PictureError> {
    let (width, height, rgba) = on_white(svg, None)?;
    encode(width, height, rgba)
}

/// The PNG of `svg` scaled by `scale` over a white canvas of `size` (its top left
/// part when the scaled drawing is larger).
pub(crate) fn rasterise_scaled(
    svg: &str,
    scale: f32,
    size: (u32, u32),
) -> Result<Vec<u8>, PictureError> {
    let (width, height, rgba) = on_white(svg, Some((scale, size)))?;
    encode(width, height, rgba)
}

/// `svg` (of the picture's size) rasterised over `canvas`, the RGBA bytes, opaque, of a
/// picture of that size.
#[cfg(test)]
pub(crate) fn draw(svg: &str, canvas: &mut [u8]) -> Result<(), PictureError> {
    render(&parse(svg)?, canvas)
}

/// The drawing `svg`, read.
pub(crate) fn parse(svg: &str) -> Result<usvg::Tree, PictureError> {
    Ok(usvg::Tree::from_str(svg, &usvg::Options::default())?)
}

/// `tree` rasterised over `canvas`, the RGBA bytes, opaque, of a picture of its size.
pub(crate) fn render(tree: &usvg::Tree, canvas: &mut [u8]) -> Result<(), PictureError> {
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let mut pixmap = tiny_skia::PixmapMut::from_bytes(canvas, width, height)
        .ok_or(PictureError::Canvas { width, height })?;
    resvg::render(tree, tiny_skia::Transform::default(), &mut pixmap);
    Ok(())
}

/// The RGBA bytes of the PNG `bytes`, when it decodes to `size`.
#[cfg(test)]
fn decode_rgba(bytes: &[u8], size: (u32, u32)) -> Option<Vec<u8>> {
    let mut decoder = ::png::Decoder::new(std::io::Cursor::new(bytes));
    decoder.set_transformations(::png::Transformations::ALPHA);
    let mut reader = decoder.read_info().ok()?;
    let mut rgba = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut rgba).ok()?;
    let right = info.color_type == ::png::ColorType::Rgba && (info.width, info.height) == size;
    right.then_some(rgba)
}

/// Bits of a run's length in its packed form (`runs`); its colour's number has the 24
/// above them, enough for every colour there is.
const RUN_BITS: u32 = 8;

/// The runs of one colour of a picture's pixels (alpha ignored), taken in as its rows
/// come, in order, from pixels (`Runs::push`) or as runs of colours known beforehand
/// (`Runs::push_known`: the fixed part's, `compose.rs`): the colours (packed), each
/// numbered in the order it first appears (the known ones first), and the runs, each
/// packed in four bytes: its colour's number shifted by [`RUN_BITS`] and its length (1
/// to 255 pixels; a longer one is cut). Runs are the rule in a picture: everything
/// after this works on them, not on pixels. A colour's number says nothing of the
/// PNG: `quantise` orders the colours by how often they appear, then by colour.
pub(crate) struct Runs {
    /// The colours, packed as 0x00RRGGBB, in the order met (the known ones first).
    colours: Vec<u32>,
    /// The known colours, by the number they are known by: each its pixel and its
    /// number here.
    known: Vec<([u8; 4], u32)>,
    /// Each colour's number.
    numbers: ColourMap<u32>,
    /// The last colour seen in each of a few slots: most runs find their number here.
    recent: [(u32, u32); 1024],
    /// The runs, packed.
    out: Vec<u32>,
    /// The pixel, its colour's number, and the length of the run so far.
    last: ([u8; 4], u32, u32),
}

impl Runs {
    /// No runs yet, room made for those of a picture of `pixels` pixels; `known` are
    /// the colours (red, green, blue) [`Runs::push_known`] names by their place.
    pub(crate) fn new(pixels: usize, known: impl IntoIterator<Item = [u8; 3]>) -> Runs {
        let mut runs = Runs {
            colours: Vec::new(),
            known: Vec::new(),
            numbers: ColourMap::default(),
            recent: [(u32::MAX, 0); 1024],
            out: Vec::with_capacity(pixels / 8),
            last: ([0; 4], 0, 0),
        };
        for [r, g, b] in known {
            let c = u32::from_be_bytes([0, r, g, b]);
            // A colour known twice has one number.
            let number = *runs.numbers.entry(c).or_insert_with(|| {
                runs.colours.push(c);
                runs.colours.len() as u32 - 1
            });
            runs.known.push(([r, g, b, 255], number));
        }
        runs
    }

    /// The runs of `rgba`, all of them: the runs and the colours.
    fn of(rgba: &[u8]) -> Runs {
        let mut runs = Runs::new(rgba.len() / 4, []);
        runs.push(rgba);
        runs
    }

    /// The picture's next `length` pixels, all of the known colour `k` (opaque);
    /// `None` when no colour is known by `k`.
    pub(crate) fn push_known(&mut self, k: u8, length: usize) -> Option<()> {
        let &(pixel, number) = self.known.get(usize::from(k))?;
        let length = u32::try_from(length).ok()?;
        let last = &mut self.last;
        if last.2 > 0 && last.0 == pixel {
            last.2 += length;
        } else {
            if last.2 > 0 {
                push_run(&mut self.out, last.1, last.2);
            }
            *last = (pixel, number, length);
        }
        Some(())
    }

    /// The RGBA pixels of the runs (opaque), all of them.
    #[cfg(test)]
    pub(crate) fn pixels(self) -> Vec<u8> {
        let (colours, runs) = self.finish();
        let mut out = Vec::new();
        for run in runs {
            let [_, r, g, b] = colours[(run >> RUN_BITS) as usize].to_be_bytes();
            for _ in 0..run & ((1 << RUN_BITS) - 1) {
                out.extend_from_slice(&[r, g, b, 255]);
            }
        }
        out
    }

    /// The picture's next pixels (RGBA bytes) taken in.
    pub(crate) fn push(&mut self, rgba: &[u8]) {
        let Runs {
            colours,
            numbers,
            recent,
            known: _,
            out,
            last,
        } = self;
        let mut run = *last;
        for p in rgba.as_chunks::<4>().0 {
            if *p == run.0 && run.2 > 0 {
                run.2 += 1;
                continue;
            }
            if run.2 > 0 {
                push_run(out, run.1, run.2);
            }
            // Packed as 0x00RRGGBB.
            let c = u32::from_be_bytes(*p) >> 8;
            let slot = (c.wrapping_mul(0x9e37_79b1) >> 22) as usize;
            let number = match recent[slot] {
                (seen, number) if seen == c => number,
                _ => {
                    let number = *numbers.entry(c).or_insert_with(|| {
                        colours.push(c);
                        colours.len() as u32 - 1
                    });
                    recent[slot] = (c, number);
                    number
                }
            };
            run = (*p, number, 1);
        }
        *last = run;
    }

    /// The colours and the runs.
    fn finish(mut self) -> (Vec<u32>, Vec<u32>) {
        let (_, number, length) = self.last;
        if length > 0 {
            push_run(&mut self.out, number, length);
        }
        (self.colours, self.out)
    }
}

/// A run of `length` pixels of colour `number`, packed (`runs`), cut where longer
/// than a packed run can say.
fn push_run(out: &mut Vec<u32>, number: u32, mut length: u32) {
    const MAX: u32 = (1 << RUN_BITS) - 1;
    while length > 0 {
        let n = length.min(MAX);
        out.push(number << RUN_BITS | n);
        length -= n;
    }
}

/// A hasher for packed colours: one multiplication (the default SipHash took as long
/// as drawing the picture).
#[derive(Default)]
struct ColourHasher(u64);

impl Hasher for ColourHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
    }

    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}

/// A map keyed by packed colours.
type ColourMap<V> = HashMap<u32, V, BuildHasherDefault<ColourHasher>>;

/// The colour of a packed value.
fn unpack(c: u32) -> [u8; 3] {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

/// The palette of a picture's `runs` (alpha ignored): its colours when there are at
/// most 256, or else the 256 most frequent ones (the drawing's flat colours and its
/// commonest edge shades), each pixel then taking the nearest. Returns the palette
/// and writes the PNG's rows of `width` pixels into `rows`, every byte of it: each a
/// filter byte (0, none) and its pixels' indices. `rows` is memory the picture was
/// made in (no other buffer of the picture's size is made: a page of memory touched
/// for the first time costs as much as thousands of instructions;
/// `docs/performance.md`).
pub(super) fn quantise(runs: Runs, width: usize, rows: &mut [u8]) -> Vec<[u8; 3]> {
    let (colours, runs) = runs.finish();
    let mut counts = vec![0u32; colours.len()];
    for &run in &runs {
        counts[(run >> RUN_BITS) as usize] += run & ((1 << RUN_BITS) - 1);
    }
    let mut by_count: Vec<(u32, u32, usize)> = colours
        .iter()
        .zip(&counts)
        .enumerate()
        .map(|(number, (&c, &n))| (n, c, number))
        // A known colour no pixel has (the fixed part's, all of it under pieces).
        .filter(|&(n, _, _)| n > 0)
        .collect();
    // Most frequent first; ties by colour, so the output never depends on the order
    // colours were met.
    by_count.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let palette: Vec<[u8; 3]> = by_count
        .iter()
        .take(256)
        .map(|&(_, c, _)| unpack(c))
        .collect();
    let mut index = vec![0u8; colours.len()];
    let by_sum = BySum::new(&palette);
    for (k, &(_, c, number)) in by_count.iter().enumerate() {
        index[number] = match u8::try_from(k) {
            Ok(k) => k,
            Err(_) => by_sum.nearest(unpack(c)),
        };
    }
    let width = width.max(1);
    // Where the next pixel goes, and its column (counted: two divisions a run cost
    // more time than their instructions say).
    let (mut at, mut column) = (0, 0);
    for run in runs {
        let k = index[(run >> RUN_BITS) as usize];
        let mut left = (run & ((1 << RUN_BITS) - 1)) as usize;
        while left > 0 {
            if column == 0 {
                if let Some(filter) = rows.get_mut(at) {
                    *filter = 0;
                }
                at += 1;
            }
            let here = (width - column).min(left);
            // Most runs are short: eight bytes stored at once (the bytes past the run
            // are written again by what follows) cost a tenth of a call of memset.
            if here <= 8
                && let Some(eight) = rows.get_mut(at..at + 8)
            {
                eight.copy_from_slice(&[k; 8]);
            } else if let Some(span) = rows.get_mut(at..at + here) {
                span.fill(k);
            }
            at += here;
            column += here;
            left -= here;
            if column == width {
                column = 0;
            }
        }
    }
    // Pixels missing from the runs (none) are the first colour's, not what the
    // memory held.
    if let Some(rest) = rows.get_mut(at..) {
        rest.fill(0);
    }
    palette
}

/// The index of the colour of `palette` nearest to `c` (the first of the nearest; 0
/// for an empty palette): every colour tried (`BySum` finds the same one faster).
#[cfg(test)]
fn nearest(palette: &[[u8; 3]], c: [u8; 3]) -> u8 {
    palette
        .iter()
        .take(256)
        .enumerate()
        .map(|(k, &p)| key(p, c, k))
        .min()
        .unwrap_or(0) as u8
}

/// The squared distance of `p` and `c` (at most 3 * 255 * 255, 18 bits) above `p`'s
/// index `k` in the palette: the least is the nearest, the first of equals.
fn key(p: [u8; 3], c: [u8; 3], k: usize) -> u32 {
    let d: i32 = (0..3)
        .map(|i| (i32::from(p[i]) - i32::from(c[i])).pow(2))
        .sum();
    (d as u32) << 8 | k as u32
}

/// A palette in the order of its colours' sums of red, green and blue, to find the
/// nearest colour by trying only those whose sum is near enough: two colours whose
/// sums differ by `s` are at least `s * s / 3` apart (squared), so the search stops
/// where that passes the best distance found (a colour past 256 of a picture tried
/// all 256 before, 1.5 M instructions a picture).
struct BySum {
    /// Each colour's sum, the colour and its index in the palette, by sum.
    sorted: Vec<(i32, [u8; 3], usize)>,
}

impl BySum {
    fn new(palette: &[[u8; 3]]) -> BySum {
        let mut sorted: Vec<(i32, [u8; 3], usize)> = palette
            .iter()
            .take(256)
            .enumerate()
            .map(|(k, &p)| (sum(p), p, k))
            .collect();
        sorted.sort_unstable();
        BySum { sorted }
    }

    /// The index of the palette's colour nearest to `c` (the first of the nearest; 0
    /// for an empty palette), as `nearest` finds it.
    fn nearest(&self, c: [u8; 3]) -> u8 {
        let s = sum(c);
        let from = self.sorted.partition_point(|&(t, _, _)| t < s);
        let mut best = u32::MAX;
        // Past this the colours are farther than the best (its distance is the key's
        // bits above the index).
        let near = |best: u32, t: i32| (t - s).pow(2) as u32 <= 3 * (best >> 8);
        for &(t, p, k) in &self.sorted[from..] {
            if !near(best, t) {
                break;
            }
            best = best.min(key(p, c, k));
        }
        for &(t, p, k) in self.sorted[..from].iter().rev() {
            if !near(best, t) {
                break;
            }
            best = best.min(key(p, c, k));
        }
        match best {
            u32::MAX => 0,
            found => found as u8,
        }
    }
}

/// A colour's sum of red, green and blue.
fn sum(c: [u8; 3]) -> i32 {
    c.iter().map(|&v| i32::from(v)).sum()
}

/// `rgba` (row by row, alpha ignored) as an indexed-colour PNG (`encode_runs`), its
/// rows of indices written in `rgba`'s own memory once its runs are read.
pub(crate) fn encode(width: u32, height: u32, rgba: Vec<u8>) -> Result<Vec<u8>, PictureError> {
    let runs = Runs::of(&rgba);
    let mut memory = rgba;
    let length = (width as usize + 1) * height as usize;
    if memory.len() < length {
        memory.resize(length, 0);
    }
    encode_runs(width, height, runs, &mut memory[..length])
}

/// The picture of `runs` as an indexed-colour PNG, its rows unfiltered and deflated by
/// `deflate.rs` (matches one pixel, one row and one step of the board back tried
/// first); its rows of indices are written into `rows` (`height` times `width` + 1
/// bytes), memory the picture was made in. Opaque pixels are read as they are:
/// premultiplied equals straight colour. No buffer of the picture's size is made (a
/// mail renders up to 22 pictures; `docs/performance.md`, "Pictured replies").
pub(crate) fn encode_runs(
    width: u32,
    height: u32,
    runs: Runs,
    rows: &mut [u8],
) -> Result<Vec<u8>, PictureError> {
    let palette = quantise(runs, width as usize, rows);
    let stride = width as usize + 1;
    let z = deflate::zlib(rows, &[1, stride, STEP as usize * stride]);
    let mut out = Vec::with_capacity(z.len() + 1024);
    let mut encoder = ::png::Encoder::new(&mut out, width, height);
    encoder.set_color(::png::ColorType::Indexed);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_palette(palette.concat());
    let mut writer = encoder.write_header()?;
    writer.write_chunk(::png::chunk::IDAT, &z)?;
    writer.finish()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fixed sequence of pseudo-random numbers (an LCG) from `seed`.
    fn numbers(mut seed: u64) -> impl FnMut() -> u32 {
        move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as u32
        }
    }

    /// The nearest colour found among the colours of near sums is the one found by
    /// trying them all, ties included (the first of equals), for palettes of few
    /// and many colours, near and far ones.
    #[test]
    fn the_nearest_colour_is_found_by_its_sum() {
        let mut next = numbers(11);
        for size in [0, 1, 2, 5, 40, 255, 256, 300] {
            // Some colours twice, and shades of a few, so that ties happen.
            let palette: Vec<[u8; 3]> = (0..size)
                .map(|_| match next() % 3 {
                    0 => [(next() % 4 * 60) as u8; 3],
                    _ => [next() as u8, next() as u8, next() as u8],
                })
                .collect();
            let by_sum = BySum::new(&palette);
            for _ in 0..2000 {
                let c = match next() % 2 {
                    0 => [(next() % 256) as u8; 3],
                    _ => [next() as u8, next() as u8, next() as u8],
                };
                assert_eq!(by_sum.nearest(c), nearest(&palette, c), "{c:?} of {size}");
            }
        }
    }

    /// Runs of known colours (`compose.rs`'s fixed part) and of pixels go together:
    /// the pixels are those named, a run of pixels and a known run of one colour are
    /// one run, an unknown number is refused, and a known colour no pixel has is not
    /// in the palette.
    #[test]
    fn known_runs_and_pixels_make_one_picture() {
        let (red, blue, unused) = ([200, 0, 0], [0, 0, 200], [9, 9, 9]);
        let mut runs = Runs::new(16, [red, blue, unused, red]);
        runs.push_known(0, 3).unwrap();
        runs.push(&[200, 0, 0, 255, 0, 200, 0, 255]);
        runs.push_known(1, 2).unwrap();
        runs.push_known(3, 1).unwrap();
        assert_eq!(runs.push_known(4, 1), None);
        // Red three times and once as pixels: one run; green; blue; red known twice.
        assert_eq!(runs.out, [4, (3 << RUN_BITS) | 1, (1 << RUN_BITS) | 2]);
        assert_eq!(runs.last.1, 0, "a colour known twice has one number");
        let expected: Vec<u8> = [red, red, red, red, [0, 200, 0], blue, blue, red]
            .iter()
            .flat_map(|&[r, g, b]| [r, g, b, 255])
            .collect();
        let mut rows = vec![0; 9];
        let palette = quantise(
            {
                let mut again = Runs::new(16, [red, blue, unused]);
                again.push_known(0, 4).unwrap();
                again.push(&[0, 200, 0, 255]);
                again.push_known(1, 2).unwrap();
                again.push_known(0, 1).unwrap();
                again
            },
            8,
            &mut rows,
        );
        assert_eq!(runs.pixels(), expected);
        assert_eq!(palette, [red, blue, [0, 200, 0]]);
        assert_eq!(rows, [0, 0, 0, 0, 0, 2, 1, 1, 0]);
    }

    /// Issue 29 finding "the picture": `deflate.rs`'s stream decodes (png's own
    /// decoder) to exactly the pixels written, for runs, repeats at every distance,
    /// noise, and pictures of one pixel or one row.
    #[test]
    fn every_picture_decodes_to_its_pixels() {
        let mut next = numbers(7);
        for (w, h, colours, noise) in [
            (1, 1, 1, 0),
            (300, 1, 3, 50),
            (37, 41, 200, 100),
            (548, 90, 256, 2),
            (64, 700, 12, 10),
        ] {
            let palette: Vec<u32> = (0..colours).map(|_| next() & 0xff_ffff).collect();
            let mut rgba = Vec::new();
            let mut c = palette[0];
            for _ in 0..w * h {
                if next() % 100 < noise {
                    c = palette[next() as usize % palette.len()];
                }
                rgba.extend_from_slice(&[(c >> 16) as u8, (c >> 8) as u8, c as u8, 255]);
            }
            let png = encode(w, h, rgba.clone()).unwrap();
            assert_eq!(decode_rgba(&png, (w, h)), Some(rgba), "{w}x{h}");
        }
    }
}
