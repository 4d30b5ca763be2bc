//! The body of an incoming mail as a player's comment ([`comment_of`]: no signature,
//! no quoted reply text or its attribution, no Outlook original-message block) and
//! the quoting of a mail under "Original message follows:" ([`quote`]).

/// Markers that end an attribution line ("On Mon, Al wrote:") in common languages,
/// lower case.
const ATTRIBUTION_WORDS: [&str; 9] = [
    "wrote",
    "schrieb",
    "a écrit",
    "escribió",
    "skrev",
    "schreef",
    "scrisse",
    "kirjoitti",
    "napisał",
];

/// Starts of the first line of an attribution that a mail program wrapped over two
/// lines, lower case.
const ATTRIBUTION_STARTS: [&str; 5] = ["on ", "am ", "le ", "el ", "op "];

/// Whether a line is the quoted text of a reply (`>` after optional indentation).
fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// Whether a line is an attribution like `On 1 May 2024, Al <al@x> wrote:`.
fn is_attribution(line: &str) -> bool {
    let line = line.trim().to_lowercase();
    let Some(head) = line.strip_suffix(':') else {
        return false;
    };
    ATTRIBUTION_WORDS.iter().any(|w| head.contains(w))
}

/// Whether a line opens an Outlook-style original-message block.
fn is_original_message_marker(line: &str) -> bool {
    let line = line.trim();
    let Some(inner) = line.strip_prefix("-----") else {
        return false;
    };
    let inner = inner.trim_matches('-').trim().to_lowercase();
    matches!(
        inner.as_str(),
        "original message"
            | "ursprüngliche nachricht"
            | "message d'origine"
            | "oorspronkelijk bericht"
    )
}

/// The body as a comment for the other players: leading blank lines dropped; a
/// signature (a line exactly `-- ` or `--`) and all after it cut; quoted reply text
/// (lines starting with `>`) dropped with the attribution line right before a quote
/// block (`On ... wrote:`, `Am ... schrieb:`, also wrapped over two lines); an
/// Outlook `-----Original Message-----` block cut; trailing white space of every line
/// and trailing blank lines dropped; runs of blank lines left by the removals
/// collapsed to one.
///
/// ```
/// use yinsh_pbem::mail::comment_of;
/// let body = "\nNice move!\n\nOn Mon, Al <al@x.org> wrote:\n> yinsh move 3\n-- \nBob\n";
/// assert_eq!(comment_of(body), "Nice move!");
/// ```
pub fn comment_of(body: &str) -> String {
    let mut lines: Vec<&str> = Vec::new();
    for line in body.lines() {
        let line = line.trim_end();
        if line == "-- " || line == "--" || is_original_message_marker(line) {
            break;
        }
        lines.push(line);
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
        if j > 0 && is_attribution(lines[j - 1]) {
            keep[j - 1] = false;
            let start = lines[j - 1].trim_start().to_lowercase();
            let wrapped = !ATTRIBUTION_STARTS.iter().any(|s| start.starts_with(s));
            if wrapped && j > 1 {
                let above = lines[j - 2].trim_start().to_lowercase();
                if ATTRIBUTION_STARTS.iter().any(|s| above.starts_with(s)) {
                    keep[j - 2] = false;
                }
            }
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
