//! Characters a reader cannot see but that change what they see: control characters
//! (ESC and the other C0 and C1 controls but newline and tab), the bidirectional
//! controls (U+202E writes `gpj.exe` as `exe.jpg`) and the zero-width and other
//! invisible format characters. Removed from a mail's text on the way in
//! ([`without_hidden`], called once by `inbound::parse_inbound` on the body and the
//! Subject, so every player's text that another reads is clean in both parts of every
//! mail); escaped as `\u{..}` and cut in the server's log ([`log_field`],
//! [`log_line`]), so a log line shows exactly what came and stays short (issue 25
//! finding 12).

use std::borrow::Cow;

/// The most characters of one field (a run without spaces) that a log line keeps:
/// a 5,000-character Message-ID is cut here, with a mark.
pub const MAX_LOG_FIELD_CHARS: usize = 200;

/// Whether `c` is a character that is removed from a mail's text: a control character
/// but newline and tab, a bidirectional control (U+061C, U+200E, U+200F,
/// U+202A-U+202E, U+2066-U+2069), or an invisible format character (U+200B-U+200D,
/// U+2060-U+2064, U+206A-U+206F, U+FEFF).
///
/// ```
/// use yinsh_pbem::mail::hidden::is_hidden;
/// assert!(is_hidden('\u{202E}') && is_hidden('\u{1b}') && is_hidden('\u{200B}'));
/// assert!(!is_hidden('\n') && !is_hidden('\t') && !is_hidden('é') && !is_hidden('א'));
/// ```
pub fn is_hidden(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' => true,
        '\u{2066}'..='\u{2069}' => true,
        '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{206A}'..='\u{206F}' => true,
        '\u{FEFF}' => true,
        c => c.is_control(),
    }
}

/// `text` without its [hidden](is_hidden) characters (borrowed when it has none).
///
/// ```
/// use yinsh_pbem::mail::hidden::without_hidden;
/// assert_eq!(without_hidden("nice\u{202E}gpj.exe\u{1b}[2J\u{200B}!\n\tok"), "nicegpj.exe[2J!\n\tok");
/// assert_eq!(without_hidden("plain"), "plain");
/// ```
pub fn without_hidden(text: &str) -> Cow<'_, str> {
    if text.contains(is_hidden) {
        Cow::Owned(text.chars().filter(|&c| !is_hidden(c)).collect())
    } else {
        Cow::Borrowed(text)
    }
}

/// Whether the log writes `c` escaped: a [hidden](is_hidden) character, newline,
/// tab, or a line or paragraph separator (U+2028, U+2029), which would break a line.
fn escaped_in_log(c: char) -> bool {
    is_hidden(c) || matches!(c, '\n' | '\t' | '\r' | '\u{2028}' | '\u{2029}')
}

/// One field of a log line that came from a mail (a Message-ID, an address, a word
/// of a Subject): every [hidden](is_hidden) character, line end and tab written
/// `\u{..}`, cut after [`MAX_LOG_FIELD_CHARS`] characters (counted as written) with
/// the mark ` [cut: N characters]` (N the field's length as it came). Borrowed when
/// nothing changes.
///
/// ```
/// use yinsh_pbem::mail::hidden::log_field;
/// assert_eq!(log_field("a\u{202E}b\nc"), r"a\u{202e}b\u{a}c");
/// let id = "x".repeat(5000);
/// assert_eq!(log_field(&id), format!("{} [cut: 5000 characters]", "x".repeat(200)));
/// assert_eq!(log_field("plain@example.org"), "plain@example.org");
/// ```
pub fn log_field(text: &str) -> Cow<'_, str> {
    let short = text.len() <= MAX_LOG_FIELD_CHARS || text.chars().count() <= MAX_LOG_FIELD_CHARS;
    if short && !text.contains(escaped_in_log) {
        return Cow::Borrowed(text);
    }
    let mut out = String::new();
    let mut written = 0;
    for c in text.chars() {
        let escape = escaped_in_log(c).then(|| format!("\\u{{{:x}}}", u32::from(c)));
        let width = escape.as_ref().map_or(1, String::len);
        if written + width > MAX_LOG_FIELD_CHARS {
            let total = text.chars().count();
            out.push_str(&format!(" [cut: {total} characters]"));
            break;
        }
        written += width;
        match escape {
            Some(escape) => out.push_str(&escape),
            None => out.push(c),
        }
    }
    Cow::Owned(out)
}

/// A whole log line: each run of it between spaces is a [`log_field`], so every
/// field from a mail is escaped and cut wherever a caller put it in the line.
/// Applying it to its own result changes nothing (every run is then short and plain).
///
/// ```
/// use yinsh_pbem::mail::hidden::log_line;
/// assert_eq!(log_line("mail <a\u{202E}b> from x@y"), r"mail <a\u{202e}b> from x@y");
/// ```
pub fn log_line(text: &str) -> Cow<'_, str> {
    let plain = text.split(' ').all(|w| w.len() <= MAX_LOG_FIELD_CHARS);
    if plain && !text.contains(escaped_in_log) {
        return Cow::Borrowed(text);
    }
    let fields: Vec<Cow<'_, str>> = text.split(' ').map(log_field).collect();
    Cow::Owned(fields.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 25 finding 12: every character the issue names is removed from player
    /// text; newline, tab and the letters of right-to-left scripts stay.
    #[test]
    fn bidi_zero_width_and_controls_are_removed() {
        let named = [
            '\u{202E}', '\u{2066}', '\u{2067}', '\u{2068}', '\u{2069}', '\u{200E}', '\u{200F}',
            '\u{061C}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{200B}', '\u{200C}',
            '\u{200D}', '\u{2060}', '\u{FEFF}', '\u{1b}', '\u{0}', '\u{7}', '\u{8}', '\r',
            '\u{7f}', '\u{85}', '\u{9b}',
        ];
        for c in named {
            assert_eq!(
                without_hidden(&format!("a{c}b")),
                "ab",
                "{:x}",
                u32::from(c)
            );
        }
        assert_eq!(without_hidden("שלום\n\tمرحبا"), "שלום\n\tمرحبا");
    }

    #[test]
    fn a_log_line_escapes_and_cuts_each_field() {
        let id = format!("<{}\u{202E}@x>", "i".repeat(5000));
        let line = format!("mail {id} from a@b.c: yinsh\nmove \u{1b}[2J");
        let logged = log_line(&line);
        assert!(
            logged.starts_with(&format!("mail <{}", "i".repeat(199))),
            "{logged}"
        );
        assert!(
            logged.contains(" [cut: 5005 characters] from a@b.c: yinsh\\u{a}move \\u{1b}[2J"),
            "{logged}"
        );
        assert!(
            logged.chars().all(|c| c.is_ascii_graphic() || c == ' '),
            "{logged}"
        );
        assert_eq!(log_line(&logged), logged);
        let escapes = "\u{202E}".repeat(100);
        assert_eq!(
            log_field(&escapes).len(),
            200 + " [cut: 100 characters]".len()
        );
    }
}
