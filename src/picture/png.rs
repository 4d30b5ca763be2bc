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

/// `svg` rasterised at its own size over a white canvas: its size and RGBA bytes.
fn on_white(svg: &str) -> Result<(u32, u32, Vec<u8>), PictureError> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let mut pixmap =
        tiny_skia::Pixmap::new(width, height).ok_or(PictureError::Canvas { width, height })?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok((width, height, pixmap.take()))
}

/// `svg` rasterised at its own size over a white canvas: its RGBA bytes.
#[cfg(test)]
pub(crate) fn rasterise_rgba(svg: &str) -> Result<Vec<u8>, PictureError> {
    on_white(svg).map(|(_, _, rgba)| rgba)
}

/// The PNG of `svg` drawn whole over a white canvas (a picture with no kept fixed
/// part, such as a review's chart).
pub(crate) fn rasterise(svg: &str) -> Result<Vec<u8>, PictureError> {
    let (width, height, rgba) = on_white(svg)?;
    encode(width, height, &rgba)
}

/// The PNG of `svg` rasterised over `canvas`: the RGBA bytes, opaque, of a picture of
/// `svg`'s size.
pub(crate) fn rasterise_over(svg: &str, canvas: Vec<u8>) -> Result<Vec<u8>, PictureError> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())?;
    let size = tree.size().to_int_size();
    let (width, height) = (size.width(), size.height());
    let mut pixmap =
        tiny_skia::Pixmap::from_vec(canvas, size).ok_or(PictureError::Canvas { width, height })?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    drop(tree);
    // Opaque: premultiplied equals straight colour, and alpha is left out as the
    // pixels are read. The canvas's own bytes are the only copy of the picture: no
    // other buffer of 3-4 bytes a pixel is made (a mail renders up to 22 pictures;
    // `docs/performance.md`, "Pictured replies").
    encode(width, height, &pixmap.take())
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

/// The runs of one colour of RGBA bytes (alpha ignored): each colour packed, and how
/// many pixels in a row have it. Runs are the rule in a picture: everything after
/// this works on them, not on pixels.
fn runs(rgba: &[u8]) -> Vec<(u32, u32)> {
    let mut out = Vec::with_capacity(rgba.len() / 32);
    let mut last = (u32::MAX, 0u32);
    for p in rgba.chunks_exact(4) {
        let c = pack([p[0], p[1], p[2]]);
        if c == last.0 {
            last.1 += 1;
        } else {
            if last.1 > 0 {
                out.push(last);
            }
            last = (c, 1);
        }
    }
    if last.1 > 0 {
        out.push(last);
    }
    out
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

/// A colour packed as `0x00RRGGBB`.
fn pack(c: [u8; 3]) -> u32 {
    u32::from(c[0]) << 16 | u32::from(c[1]) << 8 | u32::from(c[2])
}

/// The colour of a packed value.
fn unpack(c: u32) -> [u8; 3] {
    [(c >> 16) as u8, (c >> 8) as u8, c as u8]
}

/// The palette of `rgba` (alpha ignored): its colours when there are at most 256, or
/// else the 256 most frequent ones (the drawing's flat colours and its commonest edge
/// shades), each pixel then taking the nearest. Returns the palette and each pixel's
/// index.
fn quantise(rgba: &[u8]) -> (Vec<[u8; 3]>, Vec<u8>) {
    let runs = runs(rgba);
    let mut counts: ColourMap<u32> = ColourMap::default();
    for &(c, n) in &runs {
        *counts.entry(c).or_default() += n;
    }
    let mut by_count: Vec<(u32, u32)> = counts.into_iter().collect();
    // Most frequent first; ties by colour, so the output never depends on hashing.
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<[u8; 3]> = by_count.iter().take(256).map(|&(c, _)| unpack(c)).collect();
    let mut index: ColourMap<u8> = ColourMap::default();
    index.reserve(by_count.len());
    for (k, &(c, _)) in by_count.iter().take(256).enumerate() {
        index.insert(c, k as u8);
    }
    for &(c, _) in by_count.iter().skip(256) {
        index.insert(c, nearest(&palette, unpack(c)));
    }
    let mut pixels = Vec::with_capacity(rgba.len() / 4);
    for (c, n) in runs {
        let k = index.get(&c).copied().unwrap_or(0);
        pixels.resize(pixels.len() + n as usize, k);
    }
    (palette, pixels)
}

/// The index of the colour of `palette` nearest to `c` (0 for an empty palette).
fn nearest(palette: &[[u8; 3]], c: [u8; 3]) -> u8 {
    let distance = |p: &[u8; 3]| -> i32 {
        (0..3)
            .map(|k| {
                let d = i32::from(p[k]) - i32::from(c[k]);
                d * d
            })
            .sum()
    };
    let mut best = (i32::MAX, 0u8);
    for (k, p) in palette.iter().enumerate() {
        let d = distance(p);
        if d < best.0 {
            best = (d, k as u8);
        }
    }
    best.1
}

/// `rgba` (row by row, alpha ignored) as an indexed-colour PNG, its rows unfiltered
/// and deflated by `deflate.rs` (matches one pixel, one row and one step of the board
/// back tried first).
fn encode(width: u32, height: u32, rgba: &[u8]) -> Result<Vec<u8>, PictureError> {
    let (palette, pixels) = quantise(rgba);
    let row = width as usize;
    let mut raw = Vec::with_capacity(pixels.len() + height as usize);
    for line in pixels.chunks(row.max(1)) {
        raw.push(0); // filter type None
        raw.extend_from_slice(line);
    }
    let stride = row + 1;
    let z = deflate::zlib(&raw, &[1, stride, STEP as usize * stride]);
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

    /// Issue 29 finding "the picture": `deflate.rs`'s stream decodes (png's own
    /// decoder) to exactly the pixels written, for runs, repeats at every distance,
    /// noise, and pictures of one pixel or one row.
    #[test]
    fn every_picture_decodes_to_its_pixels() {
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as u32
        };
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
            let png = encode(w, h, &rgba).unwrap();
            assert_eq!(decode_rgba(&png, (w, h)), Some(rgba), "{w}x{h}");
        }
    }
}
