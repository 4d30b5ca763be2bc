//! The text of a mail whose body is HTML only, as a reply from a web mail program
//! writes it: the quoted mail below the player's text (a `<blockquote>`, Gmail's
//! `gmail_quote`, Thunderbird's `moz-cite-prefix`, Outlook's `divRplyFwdMsg` block...)
//! is cut off before mail-parser renders the rest as text, because the rendering
//! keeps no `>` marks that would tell the quote from what the player wrote. The
//! rendering breaks lines only at `<br>` and `</p>`, so every block element (`<div>`,
//! `<p>`, `<li>`, `<h1>`...) is made a `<br>` first, as a browser shows it: a block
//! starts a new line unless the line is still empty (`<div dir="ltr"><div>c5-a5</div>
//! <div>hi</div></div>` is the two lines `c5-a5` and `hi`).

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
        Some(PartType::Html(html)) => Cow::Owned(as_text(html)),
        _ => Cow::Borrowed(""),
    }
}

/// `html` without its quoted mail, as text: its lines are those a browser shows.
fn as_text(html: &str) -> String {
    html_to_text(&blocks_as_breaks(without_quote(html)))
}

/// The elements a browser shows on lines of their own, lower case (`p` too: made a
/// `<br>` here, it breaks as mail-parser breaks `</p>`).
const BLOCKS: [&str; 31] = [
    "address",
    "article",
    "aside",
    "blockquote",
    "center",
    "dd",
    "div",
    "dl",
    "dt",
    "fieldset",
    "figure",
    "footer",
    "form",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "header",
    "hr",
    "li",
    "main",
    "nav",
    "ol",
    "p",
    "pre",
    "section",
    "table",
    "tr",
    "ul",
];

/// The elements whose content is no text a reader sees, lower case.
const HIDDEN: [&str; 5] = ["head", "script", "style", "template", "title"];

/// `html` with each start and end tag of a [block](BLOCKS) element replaced by a
/// `<br>` when text was written since the last line break, by nothing otherwise;
/// every `<br>` written `<br>`; white space at the start of a line dropped; comments
/// and the content of [hidden](HIDDEN) elements copied as they are.
fn blocks_as_breaks(html: &str) -> String {
    let mut out = String::with_capacity(html.len() + html.len() / 8);
    // Whether text was written since the last line break.
    let mut text = false;
    let mut hidden: Option<&str> = None;
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        let (before, from) = rest.split_at(lt);
        if hidden.is_some() {
            out.push_str(before);
        } else if !before.trim().is_empty() {
            text = true;
            out.push_str(before);
        } else if text {
            // White space at the start of a line is not shown.
            out.push_str(before);
        }
        if let Some(comment) = from.strip_prefix("<!--") {
            let end = comment.find("-->").map_or(from.len(), |at| at + 4 + 3);
            out.push_str(&from[..end]);
            rest = &from[end..];
            continue;
        }
        let end = tag_end(from);
        let tag = &from[..end];
        rest = &from[end..];
        let (closing, name) = tag_name(tag);
        let name = name.to_ascii_lowercase();
        if let Some(open) = hidden {
            if closing && name == open {
                hidden = None;
            }
            out.push_str(tag);
        } else if let Some(&h) = HIDDEN.iter().find(|h| **h == name) {
            hidden = (!closing).then_some(h);
            out.push_str(tag);
        } else if name == "br" {
            text = false;
            out.push_str("<br>");
        } else if BLOCKS.contains(&name.as_str()) {
            if text {
                out.push_str("<br>");
                text = false;
            }
        } else {
            out.push_str(tag);
        }
    }
    out.push_str(rest);
    out
}

/// The length of the tag `from` starts with (`<` to its `>`, quoted attribute values
/// skipped), or of all `from` when the tag is not closed.
fn tag_end(from: &str) -> usize {
    let mut quote: Option<u8> = None;
    for (at, b) in from.bytes().enumerate().skip(1) {
        match (quote, b) {
            (Some(q), _) if b == q => quote = None,
            (Some(_), _) => {}
            (None, b'"' | b'\'') => quote = Some(b),
            (None, b'>') => return at + 1,
            _ => {}
        }
    }
    from.len()
}

/// Whether `tag` (`<div class=x>`, `</P>`, `<br/>`) is an end tag, and its name.
fn tag_name(tag: &str) -> (bool, &str) {
    let inner = tag.strip_prefix('<').unwrap_or(tag);
    let (closing, inner) = match inner.strip_prefix('/') {
        Some(inner) => (true, inner),
        None => (false, inner),
    };
    let len = inner
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(inner.len());
    (closing, &inner[..len])
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
            let text = as_text(html);
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

    #[test]
    fn block_elements_are_lines() {
        for (html, text) in [
            // Gmail, each line a div.
            (
                "<div dir=\"ltr\"><div>c5-a5</div><div>hello there</div></div>",
                "c5-a5\nhello there\n",
            ),
            // Gmail, the first line bare, the next ones in divs.
            ("c5-a5<div>hello there</div>", "c5-a5\nhello there\n"),
            (
                "<div dir=\"ltr\">c5-a5<div>hello there</div></div>",
                "c5-a5\nhello there\n",
            ),
            // An empty line is a div holding a `<br>`.
            (
                "<div>c5-a5</div><div><br></div><div>hello</div>",
                "c5-a5\n\nhello\n",
            ),
            // Paragraphs, `<br>` (also `<br/>`, `<BR >`) and nested divs.
            ("<p>c5-a5</p><p>hello there</p>", "c5-a5\nhello there\n"),
            ("c5-a5<br/>hello<BR >there", "c5-a5\nhello\nthere"),
            (
                "<div><div><div>c5-a5</div></div><div><span>hello</span> there</div></div>",
                "c5-a5\nhello there\n",
            ),
            // Source line breaks and indentation between the blocks are no lines.
            (
                "<div>\n  <div>c5-a5</div>\n  <div>hello</div>\n</div>\n",
                "c5-a5\nhello\n",
            ),
            // Lists and headings.
            ("<ul><li>c5-a5</li><li>gg</li></ul>", "c5-a5\ngg\n"),
            // A `>` in an attribute value does not end its tag.
            ("<div title=\"a>b\">c5-a5</div>hi", "c5-a5\nhi"),
        ] {
            assert_eq!(as_text(html), text, "{html}");
        }
    }

    #[test]
    fn blocks_before_gmails_quote_are_lines_and_the_quote_is_cut() {
        let html = "<div dir=\"ltr\"><div>c5-a5</div><div>hello there</div></div><br>\
                    <div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Sun, \
                    YINSH &lt;y@x&gt; wrote:<br></div><blockquote>board</blockquote></div>";
        let text = as_text(html);
        assert_eq!(text.trim_end(), "c5-a5\nhello there");
    }

    #[test]
    fn comments_and_hidden_elements_make_no_lines() {
        assert_eq!(
            blocks_as_breaks("a<!-- <div> -->b<style>div{}</style><div>c</div>"),
            "a<!-- <div> -->b<style>div{}</style><br>c<br>"
        );
        assert_eq!(
            as_text("<head><title>t</title></head><div>e5</div><div>hi</div>"),
            "e5\nhi\n"
        );
    }
}
