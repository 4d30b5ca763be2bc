//! The text of a mail whose body is HTML only, as a reply from a web mail program
//! writes it: the quoted mail below the player's text (a `<blockquote>`, Gmail's
//! `gmail_quote`, Thunderbird's `moz-cite-prefix`, Outlook's `divRplyFwdMsg` block...)
//! is cut off before mail-parser renders the rest as text, because the rendering
//! keeps no `>` marks that would tell the quote from what the player wrote.

use std::borrow::Cow;

use mail_parser::decoders::html::html_to_text;
use mail_parser::{Message, PartType};

/// What starts the quoted mail in an HTML reply, lower case; the cut is made at the
/// tag holding the first one found.
const QUOTE_MARKERS: [&str; 9] = [
    "<blockquote",
    "class=\"gmail_quote",
    "class=gmail_quote",
    "class=\"moz-cite-prefix",
    "id=\"divrplyfwdmsg",
    "id=\"appendonsend",
    "class=\"yahoo_quoted",
    "class=\"protonmail_quote",
    "id=\"mail-editor-reference-message-container",
];

/// The first text body of `message` (an HTML one rendered without its quoted part).
pub(super) fn body_text<'a>(message: &'a Message<'_>) -> Cow<'a, str> {
    match message.text_part(0).map(|part| &part.body) {
        // Borrowed: the caller makes the one copy it keeps.
        Some(PartType::Text(text)) => Cow::Borrowed(text),
        Some(PartType::Html(html)) => Cow::Owned(html_to_text(without_quote(html))),
        _ => Cow::Borrowed(""),
    }
}

/// `html` up to the tag that starts its quoted mail, if it has one.
fn without_quote(html: &str) -> &str {
    let lower = html.to_ascii_lowercase();
    let cut = QUOTE_MARKERS
        .iter()
        .filter_map(|m| lower.find(m))
        .min()
        .map(|at| lower[..=at].rfind('<').unwrap_or(at));
    match cut {
        Some(at) => &html[..at],
        None => html,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_quote_of_each_web_mail_program_is_cut() {
        for html in [
            "<div dir=\"ltr\">e5<br>Hi</div><br><div class=\"gmail_quote\"><div>On Sun, X wrote:</div><blockquote>board</blockquote></div>",
            "<p>e5<br>Hi</p><div class=\"moz-cite-prefix\">On 22/11, X wrote:<br></div><blockquote type=\"cite\">board</blockquote>",
            "<div>e5<br>Hi</div><div id=\"appendonsend\"></div><hr><div id=\"divRplyFwdMsg\"><b>From:</b> X</div><pre>board</pre>",
            "<div>e5</div><div>Hi</div><BLOCKQUOTE type=cite>board</BLOCKQUOTE>",
        ] {
            let text = html_to_text(without_quote(html));
            assert!(
                text.contains("e5") && text.contains("Hi"),
                "{html}: {text:?}"
            );
            assert!(
                !text.contains("board") && !text.contains("wrote"),
                "{html}: {text:?}"
            );
        }
        assert_eq!(without_quote("<p>no quote</p>"), "<p>no quote</p>");
    }
}
