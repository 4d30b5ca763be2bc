//! The web site's icon (issue 47 item 16: `/favicon.ico` was a 404): a white ring
//! around a black marker on the board's colour, as SVG (`favicon.svg`, linked from
//! every page) and as an ICO holding its 32 px PNG (`favicon.ico`, for browsers that
//! ask the site's top folder without a link).

use super::png::{PictureError, rasterise};

/// The icon as SVG, 32 by 32.
pub const ICON_SVG: &str = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"32\" height=\"32\" \
viewBox=\"0 0 32 32\"><rect width=\"32\" height=\"32\" fill=\"#ece6da\"/>\
<circle cx=\"16\" cy=\"16\" r=\"11\" fill=\"none\" stroke=\"#111111\" stroke-width=\"8\"/>\
<circle cx=\"16\" cy=\"16\" r=\"11\" fill=\"none\" stroke=\"#ffffff\" stroke-width=\"5\"/>\
<circle cx=\"16\" cy=\"16\" r=\"4.5\" fill=\"#1e1e1e\" stroke=\"#111111\" stroke-width=\"1\"/></svg>\n";

/// The icon as an ICO file: one 32 by 32 image, stored as PNG (which every browser
/// that reads ICO files reads).
///
/// ```
/// let ico = yinsh_pbem::picture::icon_ico().unwrap();
/// assert_eq!(&ico[..6], &[0, 0, 1, 0, 1, 0]);
/// assert_eq!(&ico[23..26], b"PNG");
/// ```
pub fn icon_ico() -> Result<Vec<u8>, PictureError> {
    let png = rasterise(ICON_SVG)?;
    let size = u32::try_from(png.len()).unwrap_or(u32::MAX);
    let mut out = Vec::with_capacity(22 + png.len());
    // ICONDIR: reserved, type 1 (icon), one image.
    out.extend_from_slice(&[0, 0, 1, 0, 1, 0]);
    // ICONDIRENTRY: 32 x 32, no palette, reserved, one plane, 32 bits a pixel, the
    // image's size and where it starts (after these 22 bytes).
    out.extend_from_slice(&[32, 32, 0, 0, 1, 0, 32, 0]);
    out.extend_from_slice(&size.to_le_bytes());
    out.extend_from_slice(&22u32.to_le_bytes());
    out.extend_from_slice(&png);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ico_holds_one_32_pixel_png() {
        let ico = icon_ico().expect("icon");
        assert_eq!(&ico[..6], &[0, 0, 1, 0, 1, 0]);
        assert_eq!((ico[6], ico[7]), (32, 32));
        let size = u32::from_le_bytes([ico[14], ico[15], ico[16], ico[17]]) as usize;
        assert_eq!(size + 22, ico.len());
        assert_eq!(&ico[23..26], b"PNG");
        // The PNG's own header says 32 by 32.
        assert_eq!(&ico[22 + 16..22 + 24], &[0, 0, 0, 32, 0, 0, 0, 32]);
    }
}
