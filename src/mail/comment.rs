//! The body of an incoming mail as a player's comment ([`comment_of`]: nothing from
//! where [`comment_end`] says the player's text ends, no quoted reply text or its
//! attribution) and the quoting of a mail under "Original message follows:"
//! ([`quote`]).

use std::collections::VecDeque;

use super::reply_end::{ATTRIBUTION_LINES, attribution_lines, comment_end, is_quoted};

/// The most bytes of a comment that [`comment_of`] keeps: a longer one is cut there
/// (on a character boundary). The server cuts comments much shorter still; this bound
/// keeps the work and memory of any body in proportion to it, whatever its size.
pub const MAX_COMMENT_BYTES: usize = 64 * 1024;

/// The body as a comment for the other players: leading blank lines dropped; all
/// from where [`comment_end`] says the player's text ends cut (a signature, a phone's
/// "Sent from my iPhone", a quoted mail's header block or an attribution above text
/// that is not `>`-quoted, an Outlook `-----Original Message-----` line); quoted
/// reply text (lines starting with `>`) dropped with the attribution right before a
/// quote block (`On ... wrote:`, `Am ... schrieb:`, also wrapped over two lines or
/// broken around its address: `Name` / `<address>` / `wrote:`); trailing white space
/// of every line
/// and trailing blank lines dropped; runs of blank lines left by the removals
/// collapsed to one; the result cut after [`MAX_COMMENT_BYTES`].
///
/// One pass over the lines, holding back only the last few lines (at most
/// `ATTRIBUTION_LINES`) and the count of blank lines after them (an attribution is known only when its quote comes), so
/// its memory is the comment's, never the body's.
///
/// ```
/// use yinsh_pbem::mail::comment_of;
/// let body = "\nNice move!\n\nOn Mon, Al <al@x.org> wrote:\n> yinsh move 3\n-- \nBob\n";
/// assert_eq!(comment_of(body), "Nice move!");
/// ```
pub fn comment_of(body: &str) -> String {
    let mut out = Comment::default();
    // The lines whose fate a later quote can still change: the last lines with no
    // blank line among them (at most ATTRIBUTION_LINES, the last one last), and the
    // count of blank lines after them. Each is (text, kept).
    let mut held: VecDeque<(&str, bool)> = VecDeque::with_capacity(ATTRIBUTION_LINES + 1);
    let mut blanks = 0usize;
    let mut prev_quoted = false;
    for line in body[..comment_end(body)].lines() {
        if out.full() {
            return out.text;
        }
        let line = line.trim_end();
        if line.is_empty() {
            blanks += 1;
            prev_quoted = false;
            continue;
        }
        let quoted = is_quoted(line);
        if quoted && !prev_quoted {
            // The first line of a quote block: drop the attribution above it,
            // skipping blank lines in between (all its lines when broken).
            let mut texts = [""; ATTRIBUTION_LINES];
            for (text, (held_text, _)) in texts.iter_mut().zip(&held) {
                *text = held_text;
            }
            let n = attribution_lines(&texts[..held.len()]);
            for (_, kept) in held.iter_mut().rev().take(n) {
                *kept = false;
            }
        }
        prev_quoted = quoted;
        // `line` joins the held lines; what they leave behind is settled.
        if blanks > 0 {
            for held_line in held.drain(..) {
                out.push(Some(held_line));
            }
            for _ in 0..blanks {
                out.push(Some(("", true)));
            }
            blanks = 0;
        }
        held.push_back((line, !quoted));
        if held.len() > ATTRIBUTION_LINES {
            out.push(held.pop_front());
        }
    }
    for held_line in held {
        out.push(Some(held_line));
    }
    // Trailing blank lines are dropped, so `blanks` ends here.
    out.text
}

/// The comment being written: lines kept, blank runs left by removals collapsed.
#[derive(Default)]
struct Comment {
    text: String,
    /// Blank lines kept since the last line of text, not written yet (trailing ones
    /// are dropped).
    blanks: usize,
    /// Whether a line was removed since the last line of text.
    removed_since_text: bool,
}

impl Comment {
    fn full(&self) -> bool {
        self.text.len() >= MAX_COMMENT_BYTES
    }

    fn push(&mut self, line: Option<(&str, bool)>) {
        let Some((line, kept)) = line else {
            return;
        };
        if !kept {
            self.removed_since_text = true;
            return;
        }
        if line.is_empty() {
            let skip = self.text.is_empty() || (self.removed_since_text && self.blanks > 0);
            if !skip {
                self.blanks += 1;
            }
            return;
        }
        self.removed_since_text = false;
        if !self.text.is_empty() {
            for _ in 0..=self.blanks {
                self.text.push('\n');
            }
        }
        self.blanks = 0;
        let room = MAX_COMMENT_BYTES.saturating_sub(self.text.len());
        let mut end = line.len().min(room);
        while !line.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&line[..end]);
    }
}

/// Quotes a text for an error reply: every line, its trailing white space cut,
/// prefixed with `> `; an empty line becomes `>`; each line ends with `\n`.
///
/// ```
/// use yinsh_pbem::mail::quote;
/// assert_eq!(quote("Subject: x\n\nhi"), "> Subject: x\n>\n> hi\n");
/// ```
pub fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 16 + 4);
    for line in text.lines() {
        let line = line.trim_end();
        if line.is_empty() {
            out.push_str(">\n");
        } else {
            out.push_str("> ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The comment as the first version worked it out (three passes over all the
    /// lines, in memory): [`comment_of`] must agree with it below its size bound.
    fn reference(body: &str) -> String {
        let mut lines: Vec<&str> = Vec::new();
        for line in body[..comment_end(body)].lines() {
            lines.push(line.trim_end());
        }
        let mut keep = vec![true; lines.len()];
        for (i, line) in lines.iter().enumerate() {
            if !is_quoted(line) {
                continue;
            }
            keep[i] = false;
            if i > 0 && is_quoted(lines[i - 1]) {
                continue;
            }
            // The first line of a quote block: drop the attribution above it, skipping
            // blank lines in between.
            let mut j = i;
            while j > 0 && lines[j - 1].trim().is_empty() {
                j -= 1;
            }
            // The lines above, back to a blank one (at most ATTRIBUTION_LINES).
            let mut k = j;
            while k > 0 && j - k < ATTRIBUTION_LINES && !lines[k - 1].trim().is_empty() {
                k -= 1;
            }
            let n = attribution_lines(&lines[k..j]);
            for keep in &mut keep[j - n..j] {
                *keep = false;
            }
        }
        let mut out: Vec<&str> = Vec::new();
        let mut removed_since_text = false;
        for (line, kept) in lines.iter().zip(keep) {
            if !kept {
                removed_since_text = true;
                continue;
            }
            let line = line.trim_end();
            if line.is_empty() && out.is_empty() {
                continue;
            }
            if line.is_empty() && removed_since_text && out.last().is_some_and(|l| l.is_empty()) {
                continue;
            }
            if !line.is_empty() {
                removed_since_text = false;
            }
            out.push(line);
        }
        while out.last().is_some_and(|l| l.is_empty()) {
            out.pop();
        }
        out.join("\n")
    }

    /// Lines made of the pieces that matter to comments.
    fn body_lines() -> impl Strategy<Value = String> {
        let line = prop::sample::select(vec![
            "",
            " ",
            "text",
            "> q",
            "  > q",
            ">",
            "On Mon, Al wrote:",
            "Al wrote:",
            "On Mon, 3 Jun, YINSH <",
            "yinsh@x> wrote:",
            "Am Mo schrieb:",
            "-- ",
            "--",
            "-----Original Message-----",
            "a\t",
            "é ü",
            "My moves:",
            "le 4 juin",
            "YINSH PBeM",
            "<yinsh@x>",
            "<yinsh@x>:",
            "<yinsh@x> wrote:",
            "wrote:",
            "a écrit :",
            "On Mon, 3 Jun 2024,",
            "wrote: nice game",
        ]);
        prop::collection::vec(line, 0..24).prop_map(|v| v.join("\n"))
    }

    proptest! {
        #[test]
        fn the_one_pass_comment_is_the_reference_comment(body in body_lines()) {
            prop_assert_eq!(comment_of(&body), reference(&body));
        }
    }

    #[test]
    fn a_body_of_a_million_short_lines_gives_a_comment_within_its_bound() {
        let body = "x\n".repeat(512 * 1024);
        let comment = comment_of(&body);
        assert_eq!(comment.len(), MAX_COMMENT_BYTES);
        assert!(comment.starts_with("x\nx\n"));
        let long_line = "é".repeat(MAX_COMMENT_BYTES);
        let comment = comment_of(&format!("a\n{long_line}"));
        assert!(comment.len() <= MAX_COMMENT_BYTES && comment.len() > MAX_COMMENT_BYTES - 2);
        assert!(comment.starts_with("a\né"));
    }

    #[test]
    fn comment_drops_leading_and_trailing_blank_lines_and_trailing_spaces() {
        assert_eq!(
            comment_of("\n \n\t\nHello  \n  indented\t\n\n \n"),
            "Hello\n  indented"
        );
        assert_eq!(comment_of(""), "");
        assert_eq!(comment_of("\n\n"), "");
        assert_eq!(comment_of("a\r\nb\r\n"), "a\nb");
    }

    #[test]
    fn comment_cuts_the_signature_with_or_without_its_space() {
        assert_eq!(comment_of("Hi\n-- \nBob\n"), "Hi");
        assert_eq!(comment_of("Hi\n--\nBob\n"), "Hi");
        assert_eq!(comment_of("-- \nonly a signature"), "");
        // Not a signature delimiter: more dashes, text after, indentation.
        assert_eq!(comment_of("a\n---\nb"), "a\n---\nb");
        assert_eq!(comment_of("a\n-- b\nc"), "a\n-- b\nc");
        assert_eq!(comment_of("a\n -- \nc"), "a\n --\nc");
    }

    #[test]
    fn comment_drops_quotes_and_their_attribution() {
        let body = "Top\n\nOn Tue, 4 Jun 2024, Al <al@x.org> wrote:\n> q1\n>\n> q2\n\nBottom\n";
        assert_eq!(comment_of(body), "Top\n\nBottom");
        let body = "Le 4 juin 2024, Al a écrit :\n> q\nMerci\n";
        assert_eq!(comment_of(body), "Merci");
        let body = "El mar, 4 jun 2024, Al escribió:\n\n> q\n";
        assert_eq!(comment_of(body), "");
        // Indented quotes are quotes too.
        assert_eq!(comment_of("  > q\nA"), "A");
    }

    #[test]
    fn comment_drops_an_attribution_wrapped_over_two_lines() {
        let body =
            "Fine.\nOn Mon, 3 Jun 2024 at 12:00, YINSH PBeM <\nyinsh@localhost> wrote:\n> x\n";
        assert_eq!(comment_of(body), "Fine.");
    }

    #[test]
    fn comment_drops_an_attribution_broken_around_its_address() {
        for attribution in [
            "YINSH PBeM\n<yinsh@localhost>\nwrote:",
            "On Sun, 22 Nov 2026 at 21:00, YINSH PBeM\n<yinsh@localhost>\nwrote:",
            "On Sun, 22 Nov 2026 at 21:00,\nYINSH PBeM\n<yinsh@localhost>\nwrote:",
            "Am So., 22. Nov. 2026 um 21:00 Uhr schrieb YINSH PBeM\n<yinsh@localhost>:",
            "Le dim. 22 nov. 2026 à 21:00, YINSH PBeM\n<yinsh@localhost>\na écrit :",
        ] {
            let body = format!("Fine.\n{attribution}\n> board\n>\n> x\n");
            assert_eq!(comment_of(&body), "Fine.", "{attribution}");
            let body = format!("Fine.\n\n{attribution}\n\n> board\n\nBottom\n");
            assert_eq!(comment_of(&body), "Fine.\n\nBottom", "{attribution}");
        }
        // A player's line that starts with the word is theirs.
        let body = "e5\nwrote: nice game\n\nYINSH PBeM\n<yinsh@localhost>\nwrote:\n> x\n";
        assert_eq!(comment_of(body), "e5\nwrote: nice game");
        assert_eq!(comment_of("wrote: nice game\n> x\n"), "wrote: nice game");
    }

    #[test]
    fn comment_keeps_colon_lines_that_are_no_attribution() {
        // Ends with ':' but names no writer: kept. Says "wrote:" but no quote follows: kept.
        assert_eq!(comment_of("My moves:\n> e5\n"), "My moves:");
        assert_eq!(
            comment_of("Here is what I wrote:\nnothing"),
            "Here is what I wrote:\nnothing"
        );
    }

    #[test]
    fn comment_cuts_an_outlook_original_message_block() {
        assert_eq!(
            comment_of("Done.\n\n-----Original Message-----\nFrom: x\n"),
            "Done."
        );
        assert_eq!(
            comment_of("Ok\n----- Ursprüngliche Nachricht -----\nVon: x"),
            "Ok"
        );
        assert_eq!(comment_of("a\n-----\nb"), "a\n-----\nb");
    }

    #[test]
    fn comment_collapses_only_blank_runs_left_by_removals() {
        assert_eq!(comment_of("a\n\n> q\n\nb"), "a\n\nb");
        assert_eq!(comment_of("a\n\n\n\nb"), "a\n\n\n\nb");
    }

    #[test]
    fn quote_prefixes_every_line() {
        assert_eq!(quote(""), "");
        assert_eq!(quote("a\n\nb\n"), "> a\n>\n> b\n");
        assert_eq!(quote("a\r\n\r\n (o)"), "> a\n>\n>  (o)\n");
        assert_eq!(quote("> old"), "> > old\n");
    }
}
