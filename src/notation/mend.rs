//! Common slips in a written turn, mended where only one reading is possible: a dash
//! other than `-` (an en dash as mail programs make of `-`, an em dash, a minus
//! sign) or an arrow (`->`, `→`), spaces around `-` (`c5 - c7`), the word `to`
//! between two points (`c5 to c7`), two points written together or with only spaces
//! between them (`c5c7`, `c5 c7`), a space inside a point or after the `x` of a
//! removal (`G 3`, `G 3-G 7`, `x a5`, `xg5-g9 xa5`), a chess player's annotation
//! marks after a part (`f4!`, `e5-e8!?`), the word `pass` for `--`, and the full stop
//! a phone puts after a sentence (`D4.`). [`mend`] gives the turn as it should have
//! been written; [`parse_turn`](super::parse_turn) reads it only when the text as
//! written does not parse, so a turn that parses is never read another way.

/// The arrow some write between a ring's two points (`e5→e8`).
const ARROW: char = '\u{2192}';

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
/// assert_eq!(mend("G 3-G 7").as_deref(), Some("G3-G7"));
/// assert_eq!(mend("f4!").as_deref(), Some("f4"));
/// assert_eq!(mend("Pass").as_deref(), Some("--"));
/// assert_eq!(mend("G8-I8.").as_deref(), Some("G8-I8"));
/// assert_eq!(mend("c5-c7"), None);
/// ```
pub fn mend(text: &str) -> Option<String> {
    // A phone's keyboard ends a "sentence" with a full stop.
    let dashes: String = text
        .trim_end()
        .trim_end_matches('.')
        .replace("->", "-")
        .chars()
        .map(|c| {
            if DASHES.contains(&c) || c == ARROW {
                '-'
            } else {
                c
            }
        })
        .collect();
    let unmarked = without_marks(&dashes);
    let words = glued(unmarked.split_whitespace().map(|w| {
        if w.eq_ignore_ascii_case("to") {
            "-"
        } else if w.eq_ignore_ascii_case("pass") {
            "--"
        } else {
            w
        }
    }));
    let mut out = String::with_capacity(text.len());
    for (k, w) in words.iter().enumerate() {
        if k > 0 {
            let prev = &words[k - 1];
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

/// `text` without the annotation marks a chess player writes after a move (`f4!`,
/// `e5-e8!?`, `xa5??`): a run of `!` and `?` right after a point's number (spaces
/// between allowed) and before the end of the part (the end of the text, a space,
/// `;`, `:` or `#`). A mark anywhere else is kept, and the text stays refused.
fn without_marks(text: &str) -> String {
    let is_mark = |c: char| c == '!' || c == '?';
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut k = 0;
    while k < chars.len() {
        if is_mark(chars[k]) {
            let end = (k..chars.len())
                .find(|&j| !is_mark(chars[j]))
                .unwrap_or(chars.len());
            let after_point = out.trim_end().ends_with(|c: char| c.is_ascii_digit());
            let part_ends = chars
                .get(end)
                .is_none_or(|&c| c.is_whitespace() || matches!(c, ';' | ':' | '#'));
            if !(after_point && part_ends) {
                out.extend(&chars[k..end]);
            }
            k = end;
        } else {
            out.push(chars[k]);
            k += 1;
        }
    }
    out
}

/// The words with a space inside a point taken out: a point's letter standing alone
/// (at the start of a word or after `-`, `x`, `;`, `:`) and the number in the next
/// word (`G 3`, `G 3-G 7`); the `x` of a removal and the point after it (`x a5`,
/// `xg5-g9x a5`); a row and the `x` of its ring (`xg5-g9 xa5`). Each can mean nothing
/// else: a letter or an `x` alone is no part of a turn.
fn glued<'a>(words: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in words {
        if let Some(prev) = out.last_mut() {
            let starts_with_digit = w.starts_with(|c: char| c.is_ascii_digit());
            let glue = (ends_with_column(prev) && starts_with_digit)
                || (ends_with_x(prev) && starts_with_column(w))
                || (is_removal_row(prev) && w.starts_with(['x', 'X']));
            if glue {
                prev.push_str(w);
                continue;
            }
        }
        out.push(w.to_string());
    }
    out
}

/// Whether `w` ends with a point's letter (a to k, any case) standing for itself: at
/// the start of `w` or after `-`, `x`, `;` or `:`.
fn ends_with_column(w: &str) -> bool {
    let mut back = w.chars().rev();
    match (back.next(), back.next()) {
        (Some(l), before) if ('a'..='k').contains(&l.to_ascii_lowercase()) => {
            before.is_none_or(|c| matches!(c, '-' | 'x' | 'X' | ';' | ':'))
        }
        _ => false,
    }
}

/// Whether `w` ends with the `x` of a removal: `x` alone, after a separator, or after
/// a row's last digit (`xg5-g9x`).
fn ends_with_x(w: &str) -> bool {
    let mut back = w.chars().rev();
    match (back.next(), back.next()) {
        (Some('x' | 'X'), before) => {
            before.is_none_or(|c| matches!(c, ';' | ':')) || is_removal_row(&w[..w.len() - 1])
        }
        _ => false,
    }
}

/// Whether `w` is the start of a removal up to its row: `x`, a point, `-`, a point
/// (`xg5-g9`).
fn is_removal_row(w: &str) -> bool {
    let w = w.rsplit([';', ':']).next().unwrap_or(w);
    let Some(row) = w.strip_prefix(['x', 'X']) else {
        return false;
    };
    row.split_once('-')
        .is_some_and(|(a, b)| is_point(a) && is_point(b))
}

/// Whether `w` is a point's letter (a to k) and one or two digits.
fn is_point(w: &str) -> bool {
    let mut cs = w.chars();
    cs.next()
        .is_some_and(|l| ('a'..='k').contains(&l.to_ascii_lowercase()))
        && (1..=2).contains(&cs.as_str().len())
        && cs.all(|c| c.is_ascii_digit())
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

/// Whether `w` starts with a point's letter (a to k, any case) followed by a digit or
/// by nothing (`G` of `x G 5`).
fn starts_with_column(w: &str) -> bool {
    let mut cs = w.chars();
    matches!(
        (cs.next(), cs.next()),
        (Some(l), d) if ('a'..='k').contains(&l.to_ascii_lowercase())
            && d.is_none_or(|d| d.is_ascii_digit())
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

    /// Issue 47 item 7: a space inside a point, where it can mean nothing else.
    #[test]
    fn a_space_inside_a_point_is_mended() {
        for (slip, mended) in [
            ("G 3", "G3"),
            ("g 3", "g3"),
            ("G 3-G 7", "G3-G7"),
            ("e 10", "e10"),
            ("G 3 - G 7", "G3-G7"),
            ("g 3 to g 7", "g3-g7"),
            ("x a5", "xa5"),
            ("x G 5", "xG5"),
            ("xg5-g9 xa5", "xg5-g9xa5"),
            ("xg5-g9 x a5", "xg5-g9xa5"),
            ("x g 5-g 9 x a 5", "xg5-g9xa5"),
            ("i8-f5; xg5-g9 x a5", "i8-f5; xg5-g9xa5"),
            ("e 5 #3", "e5 #3"),
        ] {
            assert_eq!(mend(slip).as_deref(), Some(mended), "{slip}");
            assert!(crate::notation::parse_turn(slip).is_ok(), "{slip}");
        }
        // What could be read more than one way stays refused.
        for ambiguous in ["g 3 4", "g 34", "e5 6", "ge 5", "g", "x", "e5 x"] {
            assert!(
                crate::notation::parse_turn(ambiguous).is_err(),
                "{ambiguous}"
            );
        }
    }

    /// Issue 47 item 7: a chess player's annotation marks after a part are dropped.
    #[test]
    fn annotation_marks_are_dropped() {
        for (slip, mended) in [
            ("f4!", "f4"),
            ("f4?", "f4"),
            ("f4!!", "f4"),
            ("e5-e8!?", "e5-e8"),
            ("e5-e8 ?!", "e5-e8"),
            ("e5-e8!;xa5??", "e5-e8;xa5"),
            ("e5-e8! #12", "e5-e8 #12"),
            ("F4!.", "F4"),
        ] {
            assert_eq!(mend(slip).as_deref(), Some(mended), "{slip}");
            assert!(crate::notation::parse_turn(slip).is_ok(), "{slip}");
        }
        // A mark that is not after a part is no annotation: the text stays refused.
        for odd in ["!f4", "e5?e8", "e5-!e8", "e5!-e8", "?"] {
            assert!(crate::notation::parse_turn(odd).is_err(), "{odd}");
        }
    }

    /// Issue 47 item 7: other plain slips: an arrow, mixed case, spaces, a full stop.
    #[test]
    fn arrows_and_mixed_slips_are_mended() {
        for (slip, mended) in [
            ("e5->e8", "e5-e8"),
            ("e5 -> e8", "e5-e8"),
            ("e5\u{2192}e8", "e5-e8"),
            ("E5 \u{2013} e8.", "E5-e8"),
            ("e5 TO E8!", "e5-E8"),
        ] {
            assert_eq!(mend(slip).as_deref(), Some(mended), "{slip}");
            assert!(crate::notation::parse_turn(slip).is_ok(), "{slip}");
        }
        assert!(crate::notation::parse_turn("D5-D2 ; XB1").is_ok());
    }
}
