//! Common slips in a written turn, mended where only one reading is possible: a dash
//! other than `-` (an en dash as mail programs make of `-`, an em dash, a minus
//! sign), spaces around `-` (`c5 - c7`), the word `to` between two points (`c5 to c7`),
//! two points written together or with only spaces between them (`c5c7`, `c5 c7`),
//! the word `pass` for `--`, and the full stop a phone puts after a sentence (`D4.`). [`mend`] gives the turn as it should have been
//! written; [`parse_turn`](super::parse_turn) reads it only when the text as written
//! does not parse, so a turn that parses is never read another way.

/// The dashes a player may type or a mail program may put for `-`.
const DASHES: [char; 8] = [
    '\u{2010}', // hyphen
    '\u{2011}', // non-breaking hyphen
    '\u{2012}', // figure dash
    '\u{2013}', // en dash
    '\u{2014}', // em dash
    '\u{2015}', // horizontal bar
    '\u{2212}', // minus sign
    '\u{FF0D}', // full-width hyphen-minus
];

/// `text` with its slips mended, or `None` when there is nothing to mend.
///
/// ```
/// use yinsh_pbem::notation::mend;
/// assert_eq!(mend("c5 \u{2013} c7").as_deref(), Some("c5-c7"));
/// assert_eq!(mend("c5 to C7").as_deref(), Some("c5-C7"));
/// assert_eq!(mend("c5c7").as_deref(), Some("c5-c7"));
/// assert_eq!(mend("Pass").as_deref(), Some("--"));
/// assert_eq!(mend("G8-I8.").as_deref(), Some("G8-I8"));
/// assert_eq!(mend("c5-c7"), None);
/// ```
pub fn mend(text: &str) -> Option<String> {
    // A phone's keyboard ends a "sentence" with a full stop.
    let dashes: String = text
        .trim_end()
        .trim_end_matches('.')
        .chars()
        .map(|c| if DASHES.contains(&c) { '-' } else { c })
        .collect();
    let words: Vec<&str> = dashes
        .split_whitespace()
        .map(|w| {
            if w.eq_ignore_ascii_case("to") {
                "-"
            } else if w.eq_ignore_ascii_case("pass") {
                "--"
            } else {
                w
            }
        })
        .collect();
    let mut out = String::with_capacity(text.len());
    for (k, w) in words.iter().enumerate() {
        if k > 0 {
            let prev = words[k - 1];
            // No space next to a dash; a dash between two points written apart.
            if prev.ends_with('-') || w.starts_with('-') {
            } else if ends_with_point(prev) && starts_with_point(w) {
                out.push('-');
            } else {
                out.push(' ');
            }
        }
        out.push_str(&joined_points_split(w));
    }
    (out != text).then_some(out)
}

/// `w` with a `-` between two points written together (`c5c7`): a digit directly
/// followed by a point's letter (a to k, never the `x` of a removal) and its digit.
fn joined_points_split(w: &str) -> String {
    let mut out = String::with_capacity(w.len() + 1);
    let mut after_digit = false;
    for (at, c) in w.char_indices() {
        if after_digit && starts_with_point(&w[at..]) {
            out.push('-');
        }
        out.push(c);
        after_digit = c.is_ascii_digit();
    }
    out
}

/// Whether `w` starts with a point's letter (a to k, any case) and a digit.
fn starts_with_point(w: &str) -> bool {
    let mut cs = w.chars();
    matches!(
        (cs.next(), cs.next()),
        (Some(l), Some(d)) if ('a'..='k').contains(&l.to_ascii_lowercase()) && d.is_ascii_digit()
    )
}

/// Whether `w` ends with a point's letter (a to k) and its digits.
fn ends_with_point(w: &str) -> bool {
    let letters = w.trim_end_matches(|c: char| c.is_ascii_digit());
    letters.len() < w.len()
        && letters
            .chars()
            .last()
            .is_some_and(|l| ('a'..='k').contains(&l.to_ascii_lowercase()))
}

#[cfg(test)]
mod tests {
    use super::mend;

    #[test]
    fn each_slip_is_mended_and_a_good_turn_left_alone() {
        for (slip, mended) in [
            ("c5 \u{2013} c7", "c5-c7"),
            ("c5\u{2014}c7", "c5-c7"),
            ("c5 - c7", "c5-c7"),
            ("c5 -c7", "c5-c7"),
            ("c5 to c7", "c5-c7"),
            ("c5 TO c7", "c5-c7"),
            ("c5c7", "c5-c7"),
            ("c5 c7", "c5-c7"),
            ("c10 c7", "c10-c7"),
            ("pass", "--"),
            ("xg5 \u{2013} g9xa5; c5 to c7", "xg5-g9xa5; c5-c7"),
            ("c5 to c7 #12", "c5-c7 #12"),
        ] {
            assert_eq!(mend(slip).as_deref(), Some(mended), "{slip}");
        }
        // Letters of more than one byte before joined points.
        assert_eq!(mend("ü é5c7").as_deref(), Some("ü é5-c7"));
        for good in ["c5-c7", "--", "xg5-g9xa5;c5-c7", "e5"] {
            assert_eq!(mend(good), None, "{good}");
        }
    }

    /// Issue 26 item 13: a phone's auto-capital and full stop, and a trailing space,
    /// are mended; the capitals need no mending.
    #[test]
    fn a_phones_full_stop_is_mended() {
        for (slip, mended) in [
            ("D4.", "D4"),
            ("d4 ", "d4"),
            ("G8-I8.", "G8-I8"),
            ("g8 to i8. ", "g8-i8"),
        ] {
            assert_eq!(mend(slip).as_deref(), Some(mended), "{slip}");
        }
        assert!(crate::notation::parse_turn("D4.").is_ok());
        assert!(crate::notation::parse_turn("G8-I8.").is_ok());
    }
}
