//! Mails to the server as the tests write them.

/// A plain UTF-8 text mail from `from` to the server with this Subject, Message-ID
/// (without angle brackets) and body.
pub fn plain(from: &str, subject: &str, message_id: &str, body: &str) -> String {
    format!(
        "From: {from}\nTo: yinsh@localhost\nSubject: {subject}\nDate: Sun, 22 Nov 2026 21:00:00 +0000\nMessage-ID: <{message_id}>\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n\n{body}"
    )
}

/// The mail programs whose replies the tests imitate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Client {
    /// Thunderbird: plain text, `format=flowed`, the reply above `On ... wrote:` and
    /// the quote.
    Thunderbird,
    /// Gmail: multipart/alternative (plain and HTML), a signature, the quote in a
    /// `gmail_quote` blockquote.
    Gmail,
    /// Apple Mail: quoted-printable plain text, the attribution inside the quote.
    AppleMail,
    /// An HTML-only reply (Outlook on the web), quoted-printable.
    HtmlOnly,
    /// A bottom-poster: the quote first, the reply below it, then a signature.
    BottomPost,
}

impl Client {
    /// Every client, for tests that go round them.
    pub const ALL: [Client; 5] = [
        Client::Thunderbird,
        Client::Gmail,
        Client::AppleMail,
        Client::HtmlOnly,
        Client::BottomPost,
    ];
}

/// What a reply answers: the mail's Subject, Message-ID, References and body.
pub struct Original<'a> {
    pub subject: &'a str,
    pub message_id: &'a str,
    pub references: &'a [String],
    pub body: &'a str,
}

/// A reply from `from` to `original` the way `client` writes one, with `text` typed
/// by the player (its first line the move, the rest a comment) and this Message-ID.
pub fn reply(
    client: Client,
    from: &str,
    original: &Original<'_>,
    text: &str,
    message_id: &str,
) -> String {
    let subject = format!("Re: {}", original.subject);
    let mut references: Vec<String> = original
        .references
        .iter()
        .map(|r| format!("<{r}>"))
        .collect();
    references.push(format!("<{}>", original.message_id));
    let quoted: String = original
        .body
        .lines()
        .map(|l| {
            if l.is_empty() {
                ">\n".to_string()
            } else {
                format!("> {l}\n")
            }
        })
        .collect();
    let head = format!(
        "From: {from}\nTo: YINSH PBeM <yinsh@localhost>\nSubject: {subject}\nDate: Sun, 22 Nov 2026 21:05:00 +0000\nMessage-ID: <{message_id}>\nIn-Reply-To: <{}>\nReferences: {}\nMIME-Version: 1.0\n",
        original.message_id,
        references.join("\n ")
    );
    let attribution = "On 22/11/2026 21:00, YINSH PBeM wrote:";
    match client {
        Client::Thunderbird => format!(
            "{head}Content-Type: text/plain; charset=UTF-8; format=flowed\nContent-Transfer-Encoding: 8bit\nUser-Agent: Mozilla Thunderbird\n\n{text}\n\n{attribution}\n{quoted}"
        ),
        Client::BottomPost => format!(
            "{head}Content-Type: text/plain; charset=UTF-8\n\n{attribution}\n{quoted}\n{text}\n\n-- \nSent from my desk\n"
        ),
        Client::AppleMail => {
            let plain = format!(
                "{text}\n\n> On 22 Nov 2026, at 21:00, YINSH PBeM <yinsh@localhost> wrote:\n>\n{quoted}"
            );
            format!(
                "{head}Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\nX-Mailer: Apple Mail (2.3731)\n\n{}",
                quoted_printable(&plain)
            )
        }
        Client::Gmail => {
            let html_text = html_lines(text);
            let html_quote = html_lines(original.body);
            format!(
                "{head}Content-Type: multipart/alternative; boundary=\"000000000000b0a1\"\n\n--000000000000b0a1\nContent-Type: text/plain; charset=\"UTF-8\"\n\n{text}\n\n-- \nAlice from the phone\n\nOn Sun, 22 Nov 2026 at 21:00, YINSH PBeM <yinsh@localhost> wrote:\n\n{quoted}\n--000000000000b0a1\nContent-Type: text/html; charset=\"UTF-8\"\n\n<div dir=\"ltr\">{html_text}</div><br><div class=\"gmail_quote\"><div dir=\"ltr\" class=\"gmail_attr\">On Sun, 22 Nov 2026 at 21:00, YINSH PBeM &lt;yinsh@localhost&gt; wrote:<br></div><blockquote class=\"gmail_quote\" style=\"margin:0px 0px 0px 0.8ex\"><pre>{html_quote}</pre></blockquote></div>\n--000000000000b0a1--\n"
            )
        }
        Client::HtmlOnly => {
            let html = format!(
                "<html><body><div>{}</div><br><blockquote type=\"cite\"><div>{attribution}</div><pre>{}</pre></blockquote></body></html>",
                html_lines(text),
                html_lines(original.body)
            );
            format!(
                "{head}Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: quoted-printable\n\n{}",
                quoted_printable(&html)
            )
        }
    }
}

/// `text` as HTML lines: escaped, joined by `<br>`.
fn html_lines(text: &str) -> String {
    text.lines()
        .map(|l| {
            l.replace('&', "&amp;")
                .replace('<', "&lt;")
                .replace('>', "&gt;")
        })
        .collect::<Vec<_>>()
        .join("<br>\n")
}

/// Quoted-printable as mail programs write it: `=` and non-ASCII bytes escaped, lines
/// over 72 characters broken with soft line breaks.
fn quoted_printable(text: &str) -> String {
    let mut out = String::new();
    for line in text.split('\n') {
        let mut width = 0;
        for b in line.bytes() {
            let piece = if b == b'=' || !(b == b' ' || b.is_ascii_graphic()) {
                format!("={b:02X}")
            } else {
                char::from(b).to_string()
            };
            if width + piece.len() > 72 {
                out.push_str("=\n");
                width = 0;
            }
            width += piece.len();
            out.push_str(&piece);
        }
        out.push('\n');
    }
    out
}
