//! The body of a mail: its `text/plain` part, made so that a parser gives back the
//! text exactly; and for a mail that carries an HTML part beside it,
//! `multipart/alternative` holding that same text, then a `multipart/related` part
//! with the HTML and its inline images (each named by a `Content-ID`, which the HTML
//! shows as `cid:`). The HTML is written by the server (`server::text::html`); this
//! file only assembles the MIME parts with lettre.

use lettre::message::header::{ContentTransferEncoding, ContentType};
use lettre::message::{Attachment, Body, MessageBuilder, MultiPart, SinglePart};
use lettre::{Message, error::Error};

/// The HTML alternative of a mail: the document and the images it shows inline.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HtmlBody {
    /// The whole HTML document (UTF-8), whose images are `cid:` references.
    pub html: String,
    /// The images the document shows.
    pub images: Vec<InlineImage>,
}

/// One PNG image carried inside the mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InlineImage {
    /// Its Content-ID without `<>` (the HTML writes `cid:` and this).
    pub cid: String,
    /// The file name a client offers when the reader saves it.
    pub name: String,
    /// The PNG file's bytes.
    pub png: Vec<u8>,
}

/// Ends a message with its body: the text part alone, or with the HTML beside it.
pub(super) trait MimeBody {
    /// The message with `text` as its body, inside `multipart/alternative` with `html`
    /// when there is one.
    fn mime_body(self, text: &str, html: Option<&HtmlBody>) -> Result<Message, Error>;
}

impl MimeBody for MessageBuilder {
    fn mime_body(self, text: &str, html: Option<&HtmlBody>) -> Result<Message, Error> {
        match html {
            None => self.singlepart(text_part(text)),
            // Inside a multipart the line end before the boundary belongs to the
            // boundary, so the text keeps all of its own.
            Some(html) => self.multipart(alternative(
                SinglePart::builder()
                    .header(ContentType::TEXT_PLAIN)
                    .body(Body::new(text.to_string())),
                html,
            )),
        }
    }
}

/// The plain text part of a mail, made so that a parser gives back exactly `body`.
///
/// lettre ends every body with a line end of its own, so with 7bit and
/// quoted-printable the body's last line end is left to lettre; base64 carries the
/// body's bytes exactly and gets all of them.
fn text_part(body: &str) -> SinglePart {
    let full = Body::new(body.to_string());
    let chosen = match body.strip_suffix('\n') {
        Some(stripped) if full.encoding() != ContentTransferEncoding::Base64 => {
            let stripped = stripped.strip_suffix('\r').unwrap_or(stripped);
            let shorter = Body::new(stripped.to_string());
            if shorter.encoding() == ContentTransferEncoding::Base64 {
                full
            } else {
                shorter
            }
        }
        _ => full,
    };
    SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(chosen)
}

/// `multipart/alternative`: `text` first (the plainer part comes first, RFC 2046
/// §5.1.4), then the HTML with its images as `multipart/related`.
fn alternative(text: SinglePart, html: &HtmlBody) -> MultiPart {
    let png = ContentType::parse("image/png").unwrap_or(ContentType::TEXT_PLAIN);
    let mut related = MultiPart::related().singlepart(SinglePart::html(html.html.clone()));
    for image in &html.images {
        related = related.singlepart(
            Attachment::new_inline_with_name(image.cid.clone(), image.name.clone())
                .body(image.png.clone(), png.clone()),
        );
    }
    MultiPart::alternative().singlepart(text).multipart(related)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parts_come_in_order_with_the_image_named() {
        let body = HtmlBody {
            html: "<p>hi</p>".into(),
            images: vec![InlineImage {
                cid: "board.1@x".into(),
                name: "board.png".into(),
                png: b"\x89PNG....".to_vec(),
            }],
        };
        let text = SinglePart::plain("hello".to_string());
        let bytes = String::from_utf8_lossy(&alternative(text, &body).formatted()).into_owned();
        let alt = bytes.find("multipart/alternative").expect("alternative");
        let plain = bytes.find("text/plain").expect("plain");
        let related = bytes.find("multipart/related").expect("related");
        let html = bytes.find("text/html").expect("html");
        let png = bytes.find("image/png").expect("png");
        assert!(alt < plain && plain < related && related < html && html < png);
        assert!(bytes.contains("Content-ID: <board.1@x>"), "{bytes}");
    }
}
