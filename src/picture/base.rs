//! The part of the picture that is the same in every position, kept drawn: the page,
//! the board's hexagon, grid lines and coordinate labels, and the panel's names,
//! legends and words. Rasterising it took most of a picture's drawing (the labels are
//! stroked paths); now `base.png` beside this file holds it, built into the program,
//! decoded once a process, and each picture rasterises only what tells its position
//! over a copy (issue 29). A test keeps `base.png` equal to what the drawing makes
//! (`the_kept_base_is_what_the_drawing_makes`).

use std::sync::OnceLock;

use super::geometry;
use super::png::{self, PictureError};

/// The fixed part's pixels as a PNG (RGB), written by the test below.
const BASE_PNG: &[u8] = include_bytes!("base.png");

/// The fixed part's pixels (RGBA, opaque), decoded from `base.png` at first use.
fn pixels() -> Result<&'static [u8], PictureError> {
    static PIXELS: OnceLock<Option<Vec<u8>>> = OnceLock::new();
    PIXELS
        .get_or_init(|| png::decode_rgba(BASE_PNG, geometry_size()))
        .as_deref()
        .ok_or(PictureError::Base)
}

/// The picture's size in pixels.
fn geometry_size() -> (u32, u32) {
    (
        geometry::WIDTH.round() as u32,
        geometry::HEIGHT.round() as u32,
    )
}

/// The PNG of `svg` (a whole picture's size, transparent where it draws nothing)
/// rasterised over the fixed part.
pub(crate) fn over_base(svg: &str) -> Result<Vec<u8>, PictureError> {
    png::rasterise_over(svg, pixels()?.to_vec())
}

#[cfg(test)]
mod tests {
    use super::super::{panel, svg};
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
    /// `UPDATE_PICTURE_BASE=1 cargo test --lib picture::base` (and look at it).
    #[test]
    fn the_kept_base_is_what_the_drawing_makes() {
        let drawn = png::rasterise_rgba(&fixed_svg()).unwrap();
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/picture/base.png");
        if std::env::var_os("UPDATE_PICTURE_BASE").is_some() {
            let (w, h) = geometry_size();
            std::fs::write(path, png::encode_rgb_best(w, h, &drawn).unwrap()).unwrap();
        }
        let kept = pixels().unwrap();
        assert_eq!(kept.len(), drawn.len());
        let differing = kept.chunks(4).zip(drawn.chunks(4)).filter(|(a, b)| a != b).count();
        assert_eq!(
            differing, 0,
            "src/picture/base.png is stale: UPDATE_PICTURE_BASE=1 cargo test --lib picture::base"
        );
        // Opaque, so its premultiplied bytes are its colours.
        assert!(kept.chunks(4).all(|p| p[3] == 255));
    }
}
