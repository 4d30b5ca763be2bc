//! Every line of a mail's text part at most [`WIDTH`] columns (issue 47 item 8), so
//! that the text reads the same in a phone's proportional font as in a terminal:
//! `outgoing::build` passes each finished text body through [`wrap`] once, whoever
//! wrote its lines. A line that fits is kept as it is, and so are the lines that are
//! no prose: a quoted line (`>`), a line indented by a tab or four spaces or more
//! (a command to send, a link, the board's drawing), a table's row (its columns
//! apart by two spaces or more: a listing). A longer line is broken at
//! spaces, never inside a word, so a URL or any long token stays whole on a line of
//! its own; a list item's continuation lines are indented under its text. When the
//! broken line's sentence goes on in the next line, the words left over are set
//! before that line and the two are filled together, so that a paragraph written
//! a few columns too wide comes out filled, not ragged.

/// The most characters of a line of a mail's text part (RFC 5322 recommends 78).
pub const WIDTH: usize = 78;

/// `text` with every line of prose longer than [`WIDTH`] broken at spaces (see the
/// module's words for what is prose and what is left alone).
///
/// ```
/// use yinsh_pbem::server::text::wrap::wrap;
/// let long = format!("{}end.", "word ".repeat(20));
/// let wrapped = wrap(&long);
/// assert!(wrapped.lines().all(|l| l.chars().count() <= 78));
/// assert_eq!(wrapped.split_whitespace().count(), 21);
/// assert_eq!(wrap("> quoted stays\n    yinsh move 101"), "> quoted stays\n    yinsh move 101");
/// ```
pub fn wrap(text: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    // The words left over from a broken line whose sentence goes on in the next,
    // with the indentation of the line they belong on.
    let mut pending: Option<(String, String)> = None;
    let input: Vec<&str> = text.split('\n').collect();
    // A line with a caret under it (a line of the player's mail, the caret pointing
    // into it) keeps its columns.
    let above_caret = |k: usize| input.get(k + 1).is_some_and(|next| next.trim() == "^");
    for (k, &line) in input.iter().enumerate() {
        let line = match pending.take() {
            Some((indent, words)) => format!("{indent}{words} {}", line.trim_start()),
            None => line.to_string(),
        };
        if kept(&line) || above_caret(k) {
            out.push(line);
            continue;
        }
        let (first, rest) = item_start(&line);
        let hanging = " ".repeat(first.chars().count());
        let mut lines = fill(first, &hanging, rest);
        let goes_on = !ends_sentence(&line)
            && !tabular(rest)
            && lines.len() > 1
            && input
                .get(k + 1)
                .is_some_and(|next| continues(next, &hanging) && !above_caret(k + 1));
        if goes_on && let Some(last) = lines.pop() {
            pending = Some((hanging, last.trim_start().to_string()));
        } else {
            no_word_alone(&mut lines, first, &hanging);
        }
        out.extend(lines);
    }
    out.join("\n")
}

/// Whether `line` is left as it is: it fits, or it is no prose (quoted, indented by
/// a tab or four spaces or more, a table's row).
fn kept(line: &str) -> bool {
    line.chars().count() <= WIDTH
        || tabular(line)
        || line.starts_with('>')
        || line.starts_with('\t')
        || line.starts_with("    ")
        || line.trim().is_empty()
}

/// Whether `line` goes on the sentence of the words left over from the line before,
/// whose continuation is indented by `indent`: a line of prose at that indentation
/// that starts no list item, no quote, no rule and no new sentence (a capital), and
/// is no table.
fn continues(line: &str, indent: &str) -> bool {
    let body = line.trim_start_matches(' ');
    let spaces = line.len() - body.len();
    !body.trim().is_empty()
        && spaces == indent.len()
        && !body.starts_with(['>', '\t', '*'])
        && !body.starts_with(char::is_uppercase)
        && item_start(line).0.len() == spaces
        && !tabular(body)
}

/// `line` split into its start (indentation and a list marker: `- `, `* `, `1. `,
/// `1) `) and its text.
fn item_start(line: &str) -> (&str, &str) {
    let body = line.trim_start_matches(' ');
    let spaces = line.len() - body.len();
    let marker = if body.starts_with("- ") || body.starts_with("* ") {
        2
    } else {
        let digits = body.bytes().take_while(u8::is_ascii_digit).count();
        let after = &body[digits..];
        if digits > 0 && digits < 4 && (after.starts_with(". ") || after.starts_with(") ")) {
            digits + 2
        } else {
            0
        }
    };
    line.split_at(spaces + marker)
}

/// Whether `text` (a line without its indentation) is laid out in columns: spaces
/// inside it run two or more, not only after the end of a sentence (`end.  Next`).
fn tabular(text: &str) -> bool {
    let text = text.trim();
    text.match_indices("  ")
        .any(|(at, _)| !text[..at].ends_with(['.', '!', '?', ':', ' ']))
}

/// Whether `line` ends a sentence (or a heading): its last character is `.`, `:`,
/// `!` or `?`, maybe inside a closing bracket or quote.
fn ends_sentence(line: &str) -> bool {
    line.trim_end()
        .trim_end_matches([')', '"', '\''])
        .ends_with(['.', ':', '!', '?'])
}

/// The most characters of a placeholder [`words`] keeps together.
const PLACEHOLDER: usize = 40;

/// The words of `text`, a placeholder in brackets one word with its spaces
/// (`<e-mail address>`, `[<e-mail address> ...]`: a command's template is never
/// broken inside one) when its bracket closes within [`PLACEHOLDER`] characters.
fn words(text: &str) -> Vec<String> {
    let split: Vec<&str> = text.split_whitespace().collect();
    let balance = |w: &str| {
        w.chars().fold(0i32, |n, c| match c {
            '<' | '[' => n + 1,
            '>' | ']' => n - 1,
            _ => n,
        })
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < split.len() {
        let mut open = balance(split[k]);
        let mut len = split[k].chars().count();
        let mut end = k;
        while open > 0 && end + 1 < split.len() && len <= PLACEHOLDER {
            end += 1;
            open += balance(split[end]);
            len += 1 + split[end].chars().count();
        }
        if open > 0 || len > PLACEHOLDER {
            end = k;
        }
        out.push(split[k..=end].join(" "));
        k = end + 1;
    }
    out
}

/// The words of `text` filled into lines of at most [`WIDTH`] characters, the first
/// starting with `first`, the others with `hanging`; a word longer than a line has
/// room for stands alone on its line.
fn fill(first: &str, hanging: &str, text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in words(text) {
        let word = word.as_str();
        let len = line.chars().count();
        if !empty && len + 1 + word.chars().count() > WIDTH {
            lines.push(std::mem::replace(&mut line, hanging.to_string()));
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    if !empty || lines.is_empty() {
        lines.push(line);
    }
    lines
}

/// `lines` (as [`fill`] made them, the first starting with `first`, the others with
/// `hanging`) without a word alone on the last line when the line above can spare
/// one.
fn no_word_alone(lines: &mut [String], first: &str, hanging: &str) {
    if let [.., above, last] = lines
        && !last.trim_start().contains(' ')
        && let Some(cut) = above.rfind(' ').filter(|&c| c > first.len())
        && !above[cut + 1..].contains(['>', ']'])
        && last.chars().count() + 1 + above[cut + 1..].chars().count() <= WIDTH
    {
        let word = above[cut + 1..].to_string();
        above.truncate(cut);
        last.insert_str(hanging.len(), &format!("{word} "));
    }
}

#[cfg(test)]
mod tests {
    use super::{WIDTH, wrap};

    fn widest(text: &str) -> usize {
        text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
    }

    #[test]
    fn a_long_line_is_broken_at_spaces_and_no_word_is_split() {
        let line = "Clock: last move 2026-11-22 21:52 UTC; without a move alice gets a reminder on 2026-11-29 21:52 UTC and forfeits on 2026-12-13 21:52 UTC.";
        let out = wrap(line);
        assert_eq!(
            out,
            "Clock: last move 2026-11-22 21:52 UTC; without a move alice gets a reminder on\n2026-11-29 21:52 UTC and forfeits on 2026-12-13 21:52 UTC."
        );
        assert!(widest(&out) <= WIDTH);
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(out.split_whitespace().collect::<Vec<_>>(), words);
    }

    #[test]
    fn lines_that_fit_and_lines_that_are_no_prose_are_left_alone() {
        let long = "x ".repeat(60);
        let row = format!("   101  alice        bob   {long}");
        let text = format!(
            "short line\n> {long}\n    yinsh move 101 alice <password> {long}\n\t{long}\n\n   11\n{row}\n"
        );
        assert_eq!(wrap(&text), text);
    }

    #[test]
    fn a_url_or_any_long_token_stays_whole_on_its_own_line() {
        let url = format!("https://example.org/games/101/#play={}", "t".repeat(90));
        let out = wrap(&format!("Open the page {url} and click."));
        assert_eq!(out, format!("Open the page\n{url}\nand click."));
        let word = "é".repeat(100);
        assert_eq!(wrap(&word), word);
    }

    #[test]
    fn a_list_item_goes_on_indented_under_its_text() {
        let points: Vec<String> = (1..=30).map(|n| format!("p{n}")).collect();
        let item = format!("- White's markers (30): {}.", points.join(", "));
        let out = wrap(&format!("{item}\n- Black's markers: none."));
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() > 3, "{out}");
        assert!(lines[0].starts_with("- White's markers (30): p1,"));
        for l in &lines[1..lines.len() - 1] {
            assert!(l.starts_with("  p"), "{l:?} in {out}");
        }
        assert_eq!(lines[lines.len() - 1], "- Black's markers: none.");
        assert!(widest(&out) <= WIDTH);
        let numbered = wrap(&format!("12. {}", "word ".repeat(30)));
        assert!(
            numbered.lines().skip(1).all(|l| l.starts_with("    word")),
            "{numbered}"
        );
    }

    #[test]
    fn a_paragraph_written_too_wide_comes_out_filled() {
        let text = "You have sent more than 60 mails in 60 minutes that proved no sender. Such mail from you\nis not handled until 2026-11-22 21:47 UTC; this notice is sent once per period. Nothing from the\ndropped mails was done.\n\nNext paragraph.";
        let out = wrap(text);
        assert_eq!(
            out,
            "You have sent more than 60 mails in 60 minutes that proved no sender. Such\nmail from you is not handled until 2026-11-22 21:47 UTC; this notice is sent\nonce per period. Nothing from the dropped mails was done.\n\nNext paragraph."
        );
    }

    #[test]
    fn the_words_left_over_never_join_a_quote_a_list_item_a_table_or_a_blank_line() {
        let long = format!("{} and so", "word ".repeat(16));
        for next in ["> quoted", "- item", "101  alice  bob", "", "    command"] {
            let out = wrap(&format!("{long}\n{next}"));
            assert!(out.ends_with(&format!("and so\n{next}")), "{out:?}");
        }
        // A sentence that ended is not carried on either.
        let ended = format!("{} the end.", "word ".repeat(16));
        assert!(wrap(&format!("{ended}\nNew line")).ends_with("the end.\nNew line"));
        // Nor a line that starts a sentence of its own (an error without its stop).
        let soon = "Syntax is \"yinsh move <board> <userid> <password> <move>\": expected a board number, a userid, a password and a move, but the line ends too soon";
        let out = wrap(&format!("{soon}\nSend \"help\" for the commands."));
        assert!(
            out.ends_with("too soon\nSend \"help\" for the commands."),
            "{out}"
        );
    }

    #[test]
    fn no_word_stands_alone_on_the_last_line() {
        let out = wrap(
            "Move e5 is not legal: e5 is not empty: place your ring on an empty point, like f6",
        );
        assert_eq!(
            out,
            "Move e5 is not legal: e5 is not empty: place your ring on an empty point,\nlike f6"
        );
    }

    #[test]
    fn a_placeholder_in_brackets_is_never_broken() {
        let text = format!(
            "{} the dot: signup <userid> <password> [<e-mail address> ...]",
            "x".repeat(48)
        );
        let out = wrap(&text);
        assert!(
            out.ends_with("\n[<e-mail address> ...]")
                || out.contains("<password> [<e-mail address> ...]"),
            "{out}"
        );
        assert!(widest(&out) <= WIDTH, "{out}");
        // A bracket that never closes (or closes far on) holds nothing together.
        let open = format!("{}<unclosed {}", "a ".repeat(30), "b ".repeat(30));
        assert!(widest(&wrap(&open)) <= WIDTH, "{}", wrap(&open));
        let far = format!("{}<far {}>", "a ".repeat(30), "b ".repeat(30));
        assert!(widest(&wrap(&far)) <= WIDTH, "{}", wrap(&far));
    }

    #[test]
    fn a_line_with_a_caret_under_it_keeps_its_columns() {
        let line = format!("yinsh move 101 alice ******** {}e13", "e5 ".repeat(20));
        let caret = format!("{}^", " ".repeat(line.len() - 3));
        let text = format!("Not a point of the board:\n{line}\n{caret}\n");
        assert_eq!(wrap(&text), text);
    }

    #[test]
    fn two_spaces_after_a_sentence_make_no_table() {
        let text = format!("{}end.  Next {}", "word ".repeat(12), "word ".repeat(8));
        let out = wrap(text.trim_end());
        assert!(widest(&out) <= WIDTH, "{out}");
        assert!(out.contains("end. Next"), "{out}");
    }

    #[test]
    fn wrapping_twice_changes_nothing() {
        let text = "Clock: last move 2026-11-22 21:52 UTC; without a move alice gets a reminder on 2026-11-29 21:52 UTC and forfeits on 2026-12-13 21:52 UTC.\n- a list item that is long enough to be wrapped over two lines of text in the mail part\n";
        let once = wrap(text);
        assert_eq!(wrap(&once), once);
        assert!(once.ends_with('\n'));
    }
}
