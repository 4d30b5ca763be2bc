//! Player text kept within bounds: a comment (sent with a move, an offer, a
//! resignation, a chat, a `message` or a `broadcast`) longer than
//! [`MAX_COMMENT_CHARS`] characters is cut there, with a visible mark saying so, before
//! any handler sees it; so no mail can make a game file or a reply grow by more.

use std::borrow::Cow;

/// The most characters of a comment that are kept, sent and stored.
pub const MAX_COMMENT_CHARS: usize = 4000;

/// `text` cut at [`MAX_COMMENT_CHARS`] characters, with the mark
/// `[cut at N characters]` on a line of its own; unchanged when it is not longer.
///
/// ```
/// use yinsh_pbem::server::text::cut::{MAX_COMMENT_CHARS, comment};
/// assert_eq!(comment("Nice move!"), "Nice move!");
/// let long = "x".repeat(MAX_COMMENT_CHARS + 1);
/// assert!(comment(&long).ends_with("x\n[cut at 4000 characters]"));
/// ```
pub fn comment(text: &str) -> Cow<'_, str> {
    match text.char_indices().nth(MAX_COMMENT_CHARS) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!(
            "{}\n[cut at {MAX_COMMENT_CHARS} characters]",
            text[..end].trim_end()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_comment_is_cut_on_a_character_boundary_with_a_mark() {
        let exact = "é".repeat(MAX_COMMENT_CHARS);
        assert_eq!(comment(&exact), exact.as_str());
        let long = format!("{exact}ü and more");
        let cut = comment(&long);
        assert_eq!(cut, format!("{exact}\n[cut at 4000 characters]"));
        assert!(cut.chars().count() < MAX_COMMENT_CHARS + 30);
    }
}
