//! Keeping passwords out of every mail and log: a command line with the words that
//! the command table says must not be shown (`command::masking`: password places,
//! and everything after the command words of a line that does not fit) replaced by a
//! mask, and the original message as quoted back to its sender.

use super::error::CommandError;
use super::secret::masking;
use super::table::shape;
use super::types::Command;
use crate::mail::clean_subject;
use crate::mail::subject::subject_prefix;
use crate::server::text::subjects::OurMail;

pub use super::said::MASK;

/// `line` with the words `command::masking` hides replaced by the mask, spacing kept.
///
/// ```
/// use yinsh_pbem::server::command::redact::mask_line;
/// assert_eq!(mask_line("yinsh move 104 alice s3cret e5"), "yinsh move 104 alice ******** e5");
/// assert_eq!(mask_line("yinsh mvoe 104 alice s3cret"), "yinsh mvoe ******** ******** ********");
/// ```
pub fn mask_line(line: &str) -> String {
    mask_line_naming(line, &|_| false)
}

/// [`mask_line`], but the hidden words of a line that fits a command without
/// password places (`yinsh challenge alice bob`: they may be a password written out
/// of place) shown where `named` says they name an account, userids being public.
fn mask_line_naming(line: &str, named: &dyn Fn(&str) -> bool) -> String {
    let m = masking(line);
    let mut out = String::with_capacity(line.len());
    let mut k = 0;
    let mut rest = line;
    while let Some(start) = rest.find(|c: char| !c.is_whitespace()) {
        out.push_str(&rest[..start]);
        let word = &rest[start..];
        let len = word.find(char::is_whitespace).unwrap_or(word.len());
        let hidden = m.hidden().contains(&k) && !(m.unplaced() && named(&word[..len]));
        out.push_str(if hidden { MASK } else { &word[..len] });
        rest = &word[len..];
        k += 1;
    }
    out.push_str(rest);
    out
}

/// `text` with every whole-word occurrence of each secret replaced by the mask.
fn mask(text: &str, secrets: &[String]) -> String {
    if secrets.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if secrets.iter().any(|s| s == word) {
            out.push_str(MASK);
        } else {
            out.push_str(word);
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_whitespace() {
            flush(&mut word, &mut out);
            out.push(c);
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// Most lines of a body quoted back in an error mail.
const QUOTE_LINES: usize = 200;
/// Most characters of one quoted line.
const QUOTE_WIDTH: usize = 200;

/// The original message as its sender wrote it (From, Subject, Date, body), quoted
/// with `>`, passwords masked: the Subject (`written`, prefixes and all) as
/// [`quoted_subject`] shows it, every command line of the body (each body line of a
/// `multiple` mail; in another mail, the lines written as a command, misspelt or
/// without `yinsh` too) masked as [`mask_line`] does, and the words in their password
/// places masked wherever else they appear.
pub fn quoted_original(
    from: Option<&str>,
    written: &str,
    date: Option<&str>,
    body: &str,
) -> String {
    let subject = clean_subject(written);
    let multiple = subject
        .split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("multiple"));
    let mut secrets = masking(&subject).passwords().to_vec();
    let mut text = String::new();
    if let Some(f) = from {
        text.push_str(&format!("From: {f}\n"));
    }
    text.push_str(&format!("Subject: {}\n", quoted_subject(written)));
    if let Some(d) = date {
        text.push_str(&format!("Date: {d}\n"));
    }
    text.push('\n');
    // What the sender wrote: the mail they answered (quoted, with its attribution),
    // their signature left out (issue 47 item 5); a `multiple` mail's lines as they
    // are.
    let own = if multiple {
        body.to_string()
    } else {
        crate::mail::comment_of(body)
    };
    let body = own.as_str();
    // The body up to its last line that is not blank, read twice without a list of its
    // lines; only the passwords that appear in the quote are kept for masking it (a
    // 1 MiB `multiple` has 40,000 lines and as many passwords).
    let n = body
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .last()
        .map_or(0, |(k, _)| k + 1);
    for line in body.lines().take(n.min(QUOTE_LINES)) {
        let line: String = line.chars().take(QUOTE_WIDTH).collect();
        if multiple || command_line(&line) {
            text.push_str(&mask_line(&line));
        } else {
            text.push_str(&line);
        }
        text.push('\n');
    }
    for line in body.lines().take(n) {
        let m = masking(line);
        if multiple || m.is_command() {
            for p in m.passwords() {
                if text.contains(p.as_str()) && !secrets.contains(p) {
                    secrets.push(p.clone());
                }
            }
        }
    }
    if n > QUOTE_LINES {
        text.push_str(&format!("[{} more lines not quoted]\n", n - QUOTE_LINES));
    }
    crate::mail::quote(&mask(&text, &secrets))
}

/// The words of our own Subjects (`Yinsh Board 101 alice **`, `New Yinsh Board`,
/// `Nag: Yinsh Board`, `Yinsh Chat`, `Broadcast from alice`), lower case.
const OUR_SUBJECT_WORDS: [&str; 10] = [
    "yinsh",
    "board",
    "new",
    "nag:",
    "chat",
    "error",
    "**",
    "message",
    "broadcast",
    "from",
];

/// A Subject as an error mail quotes it: its `Re:`/`[tag]` prefixes as written, then
/// the rest masked as [`mask_line`] does; a reply's Subject naming one of our mails
/// (`Re: Yinsh Board 101 alice **`, no command) shows its own words (the board number,
/// the userid after it or after `from`, `**`), and only a word of another kind, which
/// only the player can have put there, is masked.
///
/// ```
/// use yinsh_pbem::server::command::redact::quoted_subject;
/// assert_eq!(quoted_subject("Re: Yinsh Board 101 alice **"), "Re: Yinsh Board 101 alice **");
/// assert_eq!(quoted_subject("Re: Yinsh Board 101 alice s3cret"), "Re: Yinsh Board 101 alice ********");
/// assert_eq!(quoted_subject("AW: yinsh move 101 alice s3cret e5"), "AW: yinsh move 101 alice ******** e5");
/// ```
pub fn quoted_subject(written: &str) -> String {
    let prefix = subject_prefix(written);
    let rest = clean_subject(written);
    // A Subject written as a command (no `Re:`) in a command's shape (`yinsh chat 101
    // <password>` reads as our chat mail's `Yinsh chat 101 <userid>`) is masked as
    // that command; a reply's (`Re: Yinsh chat 101 bob`) is ours, quoted as written.
    let a_command = prefix.is_empty() && shape(&rest).usage.is_some();
    let shown = if OurMail::named(&rest).is_some() && Command::parse(&rest).is_err() && !a_command {
        let mut after_name_place = false;
        let words: Vec<&str> = rest
            .split_whitespace()
            .map(|w| {
                let name_place = after_name_place;
                after_name_place =
                    w.bytes().all(|b| b.is_ascii_digit()) || w.eq_ignore_ascii_case("from");
                let ours = OUR_SUBJECT_WORDS.contains(&w.to_ascii_lowercase().as_str())
                    || w.bytes().all(|b| b.is_ascii_digit());
                if ours || name_place { w } else { MASK }
            })
            .collect();
        words.join(" ")
    } else {
        mask_line(&rest)
    };
    if prefix.is_empty() {
        shown
    } else {
        format!("{prefix} {shown}")
    }
}

/// Whether `line` is written as a command: it starts with a command word, a family
/// word or another game's name, or the parser reads it as a command misspelt or
/// without `yinsh` (`move 101 alice pw e5`, the first line of a reply) and it is no
/// sentence: a word near a command's starts many ("Last move: e4", "Move, please"),
/// whose first two words hold a comma or colon, as no command's do (a userid has
/// neither; a password comes later) (issue 47 item 5).
fn command_line(line: &str) -> bool {
    masking(line).is_command()
        || (matches!(
            Command::parse(line),
            Err(CommandError::DidYouMean { .. } | CommandError::WithoutYinsh { .. })
        ) && !line
            .split_whitespace()
            .take(2)
            .any(|w| w.contains([':', ','])))
}

/// A command line fit for a log: masked as [`mask_line`] does, control characters
/// dropped, cut to 200 characters.
pub fn loggable(line: &str) -> String {
    loggable_naming(line, &|_| false)
}

/// [`loggable`], the userids of a command without password places shown where
/// `named` says they name an account (`yinsh challenge alice bob` logged as written,
/// issue 47 item 11).
///
/// ```
/// use yinsh_pbem::server::command::redact::loggable_naming;
/// let named = |w: &str| w == "alice" || w == "bob";
/// assert_eq!(loggable_naming("yinsh challenge alice bob", &named), "yinsh challenge alice bob");
/// assert_eq!(loggable_naming("yinsh challenge alice s3cret", &named), "yinsh challenge alice ********");
/// assert_eq!(loggable_naming("yinsh move 101 alice bob e5", &named), "yinsh move 101 alice ******** e5");
/// ```
pub fn loggable_naming(line: &str, named: &dyn Fn(&str) -> bool) -> String {
    mask_line_naming(line, named)
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_masked_in_every_command_shape() {
        let cases = [
            (
                "yinsh move 104 alice s3cret e5-e9",
                "yinsh move 104 alice ******** e5-e9",
            ),
            (
                "signup bob hunter2 bob@example.org",
                "signup bob ******** bob@example.org",
            ),
            (
                "change password bob old new",
                "change password bob ******** ********",
            ),
            (
                "change address bob pw a@b.org",
                "change address bob ******** a@b.org",
            ),
            (
                "YINSH RESIGN 104 alice pw",
                "YINSH RESIGN 104 alice ********",
            ),
            (
                "yinsh showas alice s3cret 104 next",
                "yinsh showas alice ******** 104 next",
            ),
            (
                "yinsh queue 104 alice pw e5-e9#12",
                "yinsh queue 104 alice ******** e5-e9#12",
            ),
            (
                "yinsh submit 104 alice pw e5",
                "yinsh submit 104 alice ******** e5",
            ),
            (
                "yinsh confirm 104 alice pw",
                "yinsh confirm 104 alice ********",
            ),
            ("yinsh chat 104 bob pw", "yinsh chat 104 bob ********"),
            (
                "yinsh subscribe 104 carol pw",
                "yinsh subscribe 104 carol ********",
            ),
            (
                "yinsh unsubscribe 104 carol pw",
                "yinsh unsubscribe 104 carol ********",
            ),
            (
                "message alice pw bob carol",
                // The userids written to are hidden too: an extra word before the
                // password would push the password among them.
                "message alice ******** ******** ********",
            ),
            ("broadcast alice pw", "broadcast alice ********"),
            ("vacation bob pw 14", "vacation bob ******** 14"),
            ("yinsh show 104", "yinsh show 104"),
            ("chess move 5 carol pw e4", "chess move 5 carol ******** e4"),
        ];
        for (line, want) in cases {
            assert_eq!(mask_line(line), want);
            assert_eq!(loggable(line), want);
        }
    }

    #[test]
    fn quoted_original_masks_subject_and_body_commands() {
        let q = quoted_original(
            Some("alice@example.org"),
            "yinsh move 104 alice pw1 e5",
            None,
            "signup carol pw2\nmy pw1 again\n\nbye",
        );
        assert!(!q.contains("pw1") && !q.contains("pw2"), "{q}");
        assert!(q.contains("> Subject: yinsh move 104 alice ******** e5\n"));
        assert!(q.contains(">\n> bye\n"));
    }

    /// Issue 47 item 5: what the sender wrote is quoted, not the mail they answered;
    /// a sentence is no misspelt command, a misspelt command still is.
    #[test]
    fn the_senders_words_are_quoted_and_a_sentence_unmasked() {
        let body = "Last move: a fine one.\nsingup zoe zpw\n\nOn Mon, Server wrote:\n> Summary of Yinsh Board 101\n> Last move: #4 robot1: e4\n";
        let q = quoted_original(None, "Re: Yinsh Board 101 alice", None, body);
        assert!(q.contains("> Last move: a fine one.\n"), "{q}");
        assert!(q.contains("> singup ******** ********\n"), "{q}");
        assert!(!q.contains("Summary") && !q.contains("wrote:"), "{q}");
        assert!(!q.contains("zpw"), "{q}");
    }

    /// Issue 26 item 14: a reply's Subject is quoted as written, its `Re:` and board
    /// number and userid shown; a command in it stays masked.
    #[test]
    fn a_replys_subject_is_quoted_as_written() {
        let q = quoted_original(None, "Re: Yinsh Board 101 alice **", None, "e5");
        assert!(
            q.contains("> Subject: Re: Yinsh Board 101 alice **\n"),
            "{q}"
        );
        let q = quoted_original(None, "Re: New Yinsh Board 7 bob", None, "");
        assert!(q.contains("> Subject: Re: New Yinsh Board 7 bob\n"), "{q}");
        let q = quoted_original(None, "Re: Yinsh Chat 101 alice", None, "");
        assert!(q.contains("> Subject: Re: Yinsh Chat 101 alice\n"), "{q}");
        // Written as a command, the same words are masked as one: the word after the
        // board may be a password (`yinsh chat 101 <password>`, the userid left out).
        let q = quoted_original(None, "yinsh chat 101 Pw7marker", None, "");
        assert!(
            q.contains("> Subject: yinsh chat ******** ********\n"),
            "{q}"
        );
        // Read as a command (`message <userid> <password>`): masked as one.
        let q = quoted_original(None, "Re: Message from alice", None, "");
        assert!(q.contains("> Subject: Re: Message from ********\n"), "{q}");
        let q = quoted_original(None, "Re: yinsh move 101 alice pw1 e5", None, "");
        assert!(
            q.contains("> Subject: Re: yinsh move 101 alice ******** e5\n"),
            "{q}"
        );
        let q = quoted_original(None, "Re: Yinsh Board 101 alice pw1 hello", None, "");
        assert!(!q.contains("pw1") && !q.contains("hello"), "{q}");
    }
}
