//! A strip of the picture: whole rows of its pixels (RGBA, opaque), from some row of
//! the picture down. The fixed part, the pieces and the panel's state are laid into
//! strips, so a picture is made a few rows at a time and only the rows a drawing
//! reaches are held whole (`compose.rs`; issue 29).

use std::ops::Range;

use super::geometry;

/// Rows of the picture's pixels: `pixels` holds whole rows, the first of them the
/// picture's row `top`.
pub(crate) struct Strip<'a> {
    /// The rows' RGBA bytes.
    pub(crate) pixels: &'a mut [u8],
    /// The picture's row that is the strip's first.
    pub(crate) top: usize,
}

impl Strip<'_> {
    /// The picture's width in pixels: the length of a strip's rows.
    pub(crate) const WIDTH: usize = geometry::WIDTH.round() as usize;
    /// The picture's height in pixels.
    pub(crate) const HEIGHT: usize = geometry::HEIGHT.round() as usize;

    /// `pixels` as the picture's rows from the top (tests lay into whole canvases).
    #[cfg(test)]
    pub(crate) fn from_top(pixels: &mut [u8]) -> Strip<'_> {
        Strip { pixels, top: 0 }
    }

    /// The picture's rows the strip holds; `None` when its bytes are not whole rows
    /// of the picture.
    pub(crate) fn rows(&self) -> Option<Range<usize>> {
        let stride = 4 * Strip::WIDTH;
        let bottom = self.top + self.pixels.len() / stride;
        (self.pixels.len().is_multiple_of(stride) && bottom <= Strip::HEIGHT)
            .then_some(self.top..bottom)
    }

    /// The bytes of the picture's row `y` from column `left`, `width` pixels of it;
    /// `None` when that is not in the strip.
    pub(crate) fn span(&mut self, y: usize, left: usize, width: usize) -> Option<&mut [u8]> {
        if left + width > Strip::WIDTH {
            return None;
        }
        let at = 4 * (y.checked_sub(self.top)? * Strip::WIDTH + left);
        self.pixels.get_mut(at..at + 4 * width)
    }
}
