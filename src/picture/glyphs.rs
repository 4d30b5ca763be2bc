//! The picture's lettering: a tiny stroke font (capitals, digits) drawn as SVG paths,
//! so the picture looks the same wherever it is rasterised, with no font installed.
//!
//! Each glyph is a path in a box 6 units wide and 10 high (top at y = 0, baseline at
//! y = 10), meant to be stroked with round caps. The SVG gets each glyph used once as
//! a `<path id="g-X">` in `<defs>`; text is then a row of `<use>`.

use std::collections::BTreeSet;
use std::fmt::Write;

/// Width of a glyph's box, in glyph units.
const GLYPH_WIDTH: f64 = 6.0;
/// Height of a glyph's box, in glyph units.
const GLYPH_HEIGHT: f64 = 10.0;
/// Advance from one glyph to the next, in glyph units.
const ADVANCE: f64 = 8.5;
/// Advance for a space.
const SPACE: f64 = 6.0;

/// The path of `c` in the glyph box, or `None` for a character the font lacks.
fn path(c: char) -> Option<&'static str> {
    Some(match c {
        '0' => "M0 3A3 3 0 0 1 6 3L6 7A3 3 0 0 1 0 7Z",
        '1' => "M1.2 2.2L3.6 0L3.6 10",
        '2' => "M0.2 2.8A2.9 2.8 0 0 1 6 2.8C6 5.2 0.3 7 0 10L6 10",
        '3' => "M0.5 0L5.5 0L2.4 3.8A3.1 3.1 0 1 1 0.2 8.6",
        '4' => "M4.6 10L4.6 0L0 7L6 7",
        '5' => "M5.6 0L0.9 0L0.4 4.4A3.1 2.9 0 1 1 0.2 9.2",
        '6' => "M5.2 0.4C2.2 0.6 0 3.6 0 7A3 3 0 1 0 6 7A3 3 0 1 0 0 7",
        '7' => "M0 0L6 0L2.2 10",
        '8' => {
            "M0.6 2.5A2.4 2.5 0 1 1 5.4 2.5A2.4 2.5 0 1 1 0.6 2.5\
             M0 7.5A3 2.5 0 1 0 6 7.5A3 2.5 0 1 0 0 7.5"
        }
        '9' => "M0.8 9.6C3.8 9.4 6 6.4 6 3A3 3 0 1 0 0 3A3 3 0 1 0 6 3",
        'A' => "M0 10L3 0L6 10M1.1 6.5L4.9 6.5",
        'B' => "M0 5L3 5A2.5 2.5 0 0 0 3 0L0 0L0 10L3.3 10A2.5 2.5 0 0 0 3.3 5L3 5",
        'C' => "M5.8 1.6A3.4 5 0 1 0 5.8 8.4",
        'D' => "M0 0L0 10L2 10A4 5 0 0 0 2 0Z",
        'E' => "M6 0L0 0L0 10L6 10M0 5L4.4 5",
        'F' => "M6 0L0 0L0 10M0 5L4.4 5",
        'G' => "M5.8 1.6A3.4 5 0 1 0 6 6.2L6 5.6L3.4 5.6",
        'H' => "M0 0L0 10M6 0L6 10M0 5L6 5",
        'I' => "M3 0L3 10M1 0L5 0M1 10L5 10",
        'J' => "M5 0L5 7A2.5 3 0 0 1 0 7",
        'K' => "M0 0L0 10M6 0L0 6.2M2 4.2L6 10",
        'L' => "M0 0L0 10L6 10",
        'M' => "M0 10L0 0L3 6L6 0L6 10",
        'N' => "M0 10L0 0L6 10L6 0",
        'O' => "M3 0A3 5 0 1 0 3 10A3 5 0 1 0 3 0",
        'P' => "M0 10L0 0L3.2 0A2.6 2.6 0 0 1 3.2 5.2L0 5.2",
        'R' => "M0 10L0 0L3.2 0A2.6 2.6 0 0 1 3.2 5.2L0 5.2M3 5.2L6 10",
        'S' => "M5.6 1.5A2.9 2.5 0 1 0 3 5A2.9 2.5 0 1 1 0.4 8.5",
        'T' => "M0 0L6 0M3 0L3 10",
        'V' => "M0 0L3 10L6 0",
        'W' => "M0 0L1.5 10L3 3L4.5 10L6 0",
        'Y' => "M0 0L3 5L6 0M3 5L3 10",
        'Z' => "M0 0L6 0L0 10L6 10",
        _ => return None,
    })
}

/// The `<defs>` entries for every glyph that `texts` use (once each).
pub(crate) fn defs<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    let used: BTreeSet<char> = texts.into_iter().flat_map(str::chars).collect();
    let mut out = String::new();
    for c in used {
        if let Some(d) = path(c) {
            // Infallible: writing to a String.
            let _ = writeln!(out, r#"<path id="{}" d="{d}"/>"#, id(c));
        }
    }
    out
}

/// The element id of the glyph for `c`.
fn id(c: char) -> String {
    format!("g{}", c as u32)
}

/// Width of `text` in glyph units.
fn width(text: &str) -> f64 {
    let mut w: f64 = 0.0;
    for c in text.chars() {
        w += if c == ' ' { SPACE } else { ADVANCE };
    }
    // The last glyph takes its box, not its advance.
    if text.ends_with(|c: char| c != ' ') {
        w -= ADVANCE - GLYPH_WIDTH;
    }
    w.max(0.0)
}

/// How a text is placed relative to its anchor point.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Anchor {
    /// The anchor is the middle of the text.
    Middle,
    /// The anchor is the left end of the text, half way up.
    Start,
}

/// `text` drawn `height` pixels tall around (`x`, `y`), stroked in `color`.
/// Characters the font lacks are left blank.
pub(crate) fn text(text: &str, x: f64, y: f64, height: f64, anchor: Anchor, color: &str) -> String {
    let k = height / GLYPH_HEIGHT;
    let left = match anchor {
        Anchor::Middle => x - width(text) * k / 2.0,
        Anchor::Start => x,
    };
    let top = y - height / 2.0;
    // Strokes a little heavier on small text, so it stays readable.
    let stroke = (1.5 / k).clamp(1.2, 2.0);
    let mut out = format!(
        r#"<g transform="translate({left:.1} {top:.1}) scale({k:.3})" fill="none" stroke="{color}" stroke-width="{stroke:.2}" stroke-linecap="round" stroke-linejoin="round">"#
    );
    let mut at = 0.0;
    for c in text.chars() {
        if path(c).is_some() {
            let _ = write!(out, r##"<use href="#{}" x="{at:.1}"/>"##, id(c));
        }
        at += if c == ' ' { SPACE } else { ADVANCE };
    }
    out.push_str("</g>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_and_word_has_its_glyphs() {
        for c in "ABCDEFGHIJK0123456789 WHITE BLACK REMOVED POOL BLITZ TO PLAY WINS DRAW".chars() {
            assert!(c == ' ' || path(c).is_some(), "no glyph for {c:?}");
        }
        assert!(path('Q').is_none());
    }

    #[test]
    fn text_is_centred_on_its_anchor() {
        assert_eq!(width("A"), GLYPH_WIDTH);
        assert_eq!(width("AB"), ADVANCE + GLYPH_WIDTH);
        let svg = text("10", 100.0, 50.0, 10.0, Anchor::Middle, "#000");
        // 14.5 glyph units wide at scale 1: the left edge is 7.25 left of the anchor.
        assert!(svg.contains("translate(92.8 45.0)"), "{svg}");
        assert_eq!(svg.matches("<use").count(), 2);
        let d = defs(["10", "01", "A"]);
        assert_eq!(d.matches("<path").count(), 3, "{d}");
    }
}
