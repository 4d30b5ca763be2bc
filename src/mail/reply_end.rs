//! Where a player's own text ends in a reply: the lines that open what a mail program
//! adds below it (a signature, a phone's "Sent from my iPhone", the quote header of
//! Outlook, Gmail, Apple Mail, Yahoo or Thunderbird in English, German, French,
//! Spanish, Italian, Dutch and Portuguese), found by [`comment_end`]; and the
//! attribution above a `>` quote, which `comment.rs` drops with its quote
//! (`attribution_lines`). An attribution may be broken over up to four lines
//! (`On <date>, Name` / `<address>` / `wrote:`, as some programs wrap it): all of
//! them go, and no line of the player's above them.

/// Markers that end an attribution line ("On Mon, Al wrote:") in common languages,
/// lower case.
pub(super) const ATTRIBUTION_WORDS: [&str; 11] = [
    "wrote",
    "schrieb",
    "a écrit",
    "escribió",
    "skrev",
    "schreef",
    "scrisse",
    "ha scritto",
    "escreveu",
    "kirjoitti",
    "napisał",
];

/// Starts of the first line of an attribution (a wrapped one's too), lower case:
/// English, German, French, Spanish, Dutch, Italian, Portuguese.
pub(super) const ATTRIBUTION_STARTS: [&str; 7] = ["on ", "am ", "le ", "el ", "op ", "il ", "em "];

/// The most lines an attribution is broken over (`On <date>,` / the name / the
/// address / `wrote:`).
pub(super) const ATTRIBUTION_LINES: usize = 4;

/// The names of the header that opens a quoted mail's header block (Outlook's
/// `From:`), lower case, in the languages of [`ATTRIBUTION_STARTS`].
const FROM_HEADERS: [&str; 5] = ["from", "von", "de", "da", "van"];

/// The names of the header that follows [`FROM_HEADERS`] in such a block (`Sent:`,
/// `Date:`), lower case.
const SENT_HEADERS: [&str; 11] = [
    "sent",
    "date",
    "gesendet",
    "datum",
    "envoyé",
    "enviado",
    "enviada em",
    "fecha",
    "inviato",
    "data",
    "verzonden",
];

/// The inner words of a `-----Original Message-----` line (any number of dashes),
/// lower case.
const ORIGINAL_MESSAGE: [&str; 11] = [
    "original message",
    "ursprüngliche nachricht",
    "message d'origine",
    "mensaje original",
    "messaggio originale",
    "oorspronkelijk bericht",
    "mensagem original",
    "forwarded message",
    "weitergeleitete nachricht",
    "message transféré",
    "doorgestuurd bericht",
];

/// Starts of the signatures phones and web mail programs add without a `-- ` line
/// above them, lower case ("Sent from my iPhone", "Von meinem iPhone gesendet"...).
const SIGNATURE_STARTS: [&str; 31] = [
    "sent from my ",
    "sent from samsung mobile",
    "sent from gmail mobile",
    "sent from protonmail",
    "sent from bluemail",
    "sent from yahoo mail",
    "sent from outlook",
    "sent from mail for windows",
    "sent from aol",
    "sent from proton mail",
    "sent with proton mail",
    "get outlook for ",
    "envoyé de mon ",
    "envoyé depuis mon ",
    "envoyé de yahoo mail",
    "envoyé à partir de ",
    "von meinem ",
    "gesendet von meinem ",
    "gesendet von yahoo mail",
    "gesendet mit ",
    "enviado desde mi ",
    "enviado desde yahoo mail",
    "enviado desde outlook",
    "enviado do meu ",
    "enviado de meu ",
    "enviado do yahoo mail",
    "inviato da ",
    "inviato dal mio ",
    "verzonden vanaf mijn ",
    "verstuurd vanaf mijn ",
    "verzonden met ",
];

/// The most words of a line read as a phone's signature: a longer line is a
/// sentence of the player's.
const SIGNATURE_WORDS: usize = 8;

/// The longest line (in bytes) read as a signature, a quote header or an attribution:
/// longer ones are the player's text, and are never lower-cased whole.
const MARKER_BYTES: usize = 300;

/// The fewest underscores of Outlook's line above a quoted mail's headers (it writes
/// 32).
const OUTLOOK_RULE: usize = 30;

/// Whether a line is the quoted text of a reply (`>` after optional indentation).
pub(super) fn is_quoted(line: &str) -> bool {
    line.trim_start().starts_with('>')
}

/// `line` trimmed and lower-cased, when it is short enough to be a marker.
fn lower(line: &str) -> Option<String> {
    let line = line.trim();
    (line.len() <= MARKER_BYTES).then(|| line.to_lowercase())
}

/// Whether a line is an attribution like `On 1 May 2024, Al <al@x> wrote:`.
pub(super) fn is_attribution(line: &str) -> bool {
    let Some(line) = lower(line) else {
        return false;
    };
    let Some(head) = line.strip_suffix(':') else {
        return false;
    };
    ATTRIBUTION_WORDS.iter().any(|w| head.contains(w))
}

/// Whether a line starts an attribution (`On `, `Am `, `Le `...).
pub(super) fn starts_attribution(line: &str) -> bool {
    let head: String = line.trim_start().chars().take(3).collect();
    let head = head.to_lowercase();
    ATTRIBUTION_STARTS.iter().any(|s| head.starts_with(s))
}

/// How many of `lines` (the lines right above a `>` quote, nearest last, with no
/// blank line among them and at most [`ATTRIBUTION_LINES`]) are the attribution of
/// that quote: 0 when the last one ends none; 1 for one line (`Al wrote:`); 2 when
/// it is wrapped from an `On `/`Am `... line; more when it is broken around its
/// address ([`addressed_attribution_lines`]).
pub(super) fn attribution_lines(lines: &[&str]) -> usize {
    if let Some(n) = addressed_attribution_lines(lines) {
        return n;
    }
    let Some((&last, above)) = lines.split_last() else {
        return 0;
    };
    if !is_attribution(last) {
        return 0;
    }
    let wrapped = !starts_attribution(last) && above.last().is_some_and(|l| starts_attribution(l));
    if wrapped { 2 } else { 1 }
}

/// How many of `lines` (as for [`attribution_lines`]) are an attribution broken around
/// its address: the address opening the last line (`<al@x> wrote:`, `<al@x>:`) or
/// ending the line above a bare `wrote:`; the name on the line above an address that
/// opens its line; and above a name, its `On <date>,` broken from it. `None` when the
/// last line ends no such attribution, or the lines joined read as none.
fn addressed_attribution_lines(lines: &[&str]) -> Option<usize> {
    let (&last, above) = lines.split_last()?;
    // The lines from the end down to the one holding the address.
    let mut count = if is_bare_attribution_end(last)
        && above
            .last()
            .is_some_and(|l| ends_with_address(l) && !l.trim_end().ends_with(':'))
    {
        2
    } else if starts_with_address(last) {
        1
    } else {
        return None;
    };
    let address = lines[lines.len() - count];
    if (starts_with_address(address) || is_address_line(address)) && count < lines.len() {
        count += 1;
    }
    if count < lines.len()
        && !starts_attribution(lines[lines.len() - count])
        && is_broken_date(lines[lines.len() - count - 1])
    {
        count += 1;
    }
    let group = &lines[lines.len() - count..];
    (group.iter().all(|l| !is_quoted(l)) && is_attribution(&group.join(" "))).then_some(count)
}

/// Whether a line is an address alone (`<al@x>`, `al@x>`, `(al@x)`), maybe with the
/// colon that ends an attribution (`<al@x>:`).
fn is_address_line(line: &str) -> bool {
    let line = line.trim();
    let line = line.strip_suffix(':').unwrap_or(line).trim_end();
    line.len() <= MARKER_BYTES && line.contains('@') && !line.contains(char::is_whitespace)
}

/// Whether a line opens with an address in `<>` or `()` (`<al@x> wrote:`).
fn starts_with_address(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| (w.starts_with('<') || w.starts_with('(')) && w.contains('@'))
}

/// Whether a line ends with an address (`Al <al@x>`, `<al@x>`).
fn ends_with_address(line: &str) -> bool {
    line.split_whitespace()
        .next_back()
        .is_some_and(|w| w.contains('@'))
}

/// Whether a line is only an attribution's word and its colon (`wrote:`, `a écrit :`).
fn is_bare_attribution_end(line: &str) -> bool {
    lower(line).is_some_and(|l| {
        l.strip_suffix(':')
            .is_some_and(|w| ATTRIBUTION_WORDS.contains(&w.trim()))
    })
}

/// Whether a line is the start of an attribution broken before the name: it starts
/// like one, gives a date, and ends with a comma or an attribution's word
/// (`On Sun, 22 Nov 2026 at 21:00,`, `Am So., 22. Nov. 2026 um 21:00 Uhr schrieb`).
fn is_broken_date(line: &str) -> bool {
    let Some(lower) = lower(line) else {
        return false;
    };
    starts_attribution(&lower)
        && lower.bytes().any(|b| b.is_ascii_digit())
        && (lower.ends_with(',') || ATTRIBUTION_WORDS.iter().any(|w| lower.ends_with(w)))
}

/// Whether a line is a signature delimiter (`-- ` or `--`).
pub(super) fn is_signature_delimiter(line: &str) -> bool {
    let line = line.trim_end();
    line == "--"
}

/// Whether a line opens an Outlook-style original-message block
/// (`-----Original Message-----`, `-------- Ursprüngliche Nachricht --------`).
pub(super) fn is_original_message_marker(line: &str) -> bool {
    let line = line.trim();
    let Some(inner) = line.strip_prefix("-----") else {
        return false;
    };
    let inner = inner.trim_matches('-').trim();
    lower(inner).is_some_and(|inner| ORIGINAL_MESSAGE.contains(&inner.as_str()))
}

/// Whether a line is a phone's or web mail program's signature ("Sent from my
/// iPhone", "Get Outlook for Android", "Envoyé de mon iPhone"...).
fn is_phone_signature(line: &str) -> bool {
    let Some(line) = lower(line) else {
        return false;
    };
    let line = without_links(&line);
    line.split_whitespace().count() <= SIGNATURE_WORDS
        && SIGNATURE_STARTS.iter().any(|s| line.starts_with(s))
}

/// `line` without the links a text part writes after a word (`Mail<https://x> for
/// Windows` is `Mail for Windows`): every `<...>` holding no space.
fn without_links(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(lt) = rest.find('<') {
        let (before, from) = rest.split_at(lt);
        out.push_str(before);
        match from.find('>') {
            Some(gt) if !from[..gt].contains(char::is_whitespace) => rest = &from[gt + 1..],
            _ => {
                out.push('<');
                rest = &from[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether a line is Outlook's rule of underscores above a quoted mail's headers.
fn is_outlook_rule(line: &str) -> bool {
    let line = line.trim();
    line.len() >= OUTLOOK_RULE && line.bytes().all(|b| b == b'_')
}

/// The name of a line's header (`From`, `De `, `*Von:*`), lower case and trimmed,
/// when the line starts like one.
fn header_name(line: &str) -> Option<String> {
    let line = line.trim_start().trim_start_matches('*');
    let (name, _) = line.split_once(':')?;
    (name.len() <= 16 && !name.is_empty()).then(|| name.trim().to_lowercase())
}

/// Whether a line opens a quoted mail's headers (`From: ...`, `Von: ...`, `De : ...`).
fn is_from_header(line: &str) -> bool {
    header_name(line).is_some_and(|n| FROM_HEADERS.contains(&n.as_str()))
}

/// Whether a line is the header after the From of a quoted mail (`Sent: ...`,
/// `Gesendet: ...`, `Envoyé : ...`, `Date: ...`).
fn is_sent_header(line: &str) -> bool {
    header_name(line).is_some_and(|n| SENT_HEADERS.contains(&n.as_str()))
}

/// Whether a line is an attribution that the mail program writes above a quote
/// without `>` marks (Yahoo, Outlook on the web): it ends like one and names an
/// address, or starts like one and gives a date.
fn is_full_attribution(line: &str) -> bool {
    is_attribution(line)
        && !is_quoted(line)
        && (line.contains('@')
            || (starts_attribution(line) && line.bytes().any(|b| b.is_ascii_digit())))
}

/// What a line seen may still start, once the next line written shows it.
#[derive(Clone, Copy)]
enum Pending {
    /// An attribution at this offset: the comment ends there unless a `>` quote
    /// follows (then `comment.rs` drops the two).
    Attribution(usize),
    /// A `From:` header at this offset: the comment ends there if a `Sent:` header
    /// follows right below it.
    From(usize),
}

/// The byte offset in `body` where the player's own text ends: at the first line that
/// opens what a mail program adds (a signature delimiter `-- `, a phone's signature,
/// an `-----Original Message-----` line, Outlook's rule of underscores, a quoted
/// mail's `From:` with its `Sent:`/`Date:` below, an attribution, on one line or
/// broken over a few, followed by text that is not `>`-quoted); `body.len()` when
/// there is none.
///
/// One pass over the lines, holding back only the last few lines an attribution may
/// be broken over and what they may still start.
///
/// ```
/// use yinsh_pbem::mail::comment_end;
/// let body = "e5\nSee you\n\nSent from my iPhone\n\n> On 1 May, Al wrote:\n";
/// assert_eq!(&body[..comment_end(body)], "e5\nSee you\n\n");
/// ```
pub fn comment_end(body: &str) -> usize {
    let mut pending: Option<Pending> = None;
    // The last lines with no blank line among them (at most ATTRIBUTION_LINES, the
    // current one last) and their offsets.
    let mut recent: [&str; ATTRIBUTION_LINES] = [""; ATTRIBUTION_LINES];
    let mut starts = [0usize; ATTRIBUTION_LINES];
    let mut held = 0;
    let mut at = 0;
    for line in body.split_inclusive('\n') {
        let start = at;
        at += line.len();
        if line.trim().is_empty() {
            if let Some(Pending::From(_)) = pending {
                pending = None;
            }
            held = 0;
            continue;
        }
        match pending.take() {
            Some(Pending::Attribution(cut)) if !is_quoted(line) => return cut,
            Some(Pending::From(cut)) if is_sent_header(line) => return cut,
            _ => {}
        }
        if is_signature_delimiter(line)
            || is_original_message_marker(line)
            || is_phone_signature(line)
            || is_outlook_rule(line)
        {
            return start;
        }
        if held == ATTRIBUTION_LINES {
            recent.rotate_left(1);
            starts.rotate_left(1);
            held -= 1;
        }
        recent[held] = line;
        starts[held] = start;
        held += 1;
        if is_from_header(line) {
            pending = Some(Pending::From(start));
        } else if let Some(n) = addressed_attribution_lines(&recent[..held]) {
            // Broken around its address: it starts n - 1 lines above.
            pending = Some(Pending::Attribution(starts[held - n]));
        } else if is_full_attribution(line) {
            // A wrapped attribution starts on the line above.
            let above = held
                .checked_sub(2)
                .filter(|&i| starts_attribution(recent[i]));
            let cut = match above {
                Some(i) if !starts_attribution(line) => starts[i],
                _ => start,
            };
            pending = Some(Pending::Attribution(cut));
        }
    }
    match pending {
        Some(Pending::Attribution(cut)) => cut,
        _ => body.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(body: &str) -> &str {
        &body[..comment_end(body)]
    }

    #[test]
    fn phone_signatures_in_each_language_end_the_text() {
        for sig in [
            "Sent from my iPhone",
            "Sent from my iPad",
            "Sent from my Samsung Galaxy smartphone.",
            "Sent from my Galaxy",
            "Sent from my Verizon, Samsung Galaxy smartphone",
            "Sent from my Huawei phone",
            "Sent from Samsung Mobile",
            "Sent from Outlook for Android",
            "Sent from Outlook for iOS",
            "Sent from Gmail Mobile",
            "Sent from ProtonMail mobile",
            "Sent from BlueMail",
            "Sent from Mail for Windows 10",
            "Sent from Mail<https://go.microsoft.com/fwlink/?LinkId=550986> for Windows",
            "Sent from Outlook for Android<https://aka.ms/AAb9ysg>",
            "Get Outlook for iOS<https://aka.ms/o0ukef>",
            "Get Outlook for Android",
            "Sent from Yahoo Mail on Android",
            "Sent from Yahoo Mail for iPhone",
            "Sent from Mail for Windows",
            "Envoyé de mon iPhone",
            "Von meinem iPhone gesendet",
            "Enviado desde mi iPhone",
            "Enviado do meu iPhone",
            "Inviato da iPhone",
            "Verzonden vanaf mijn iPhone",
        ] {
            let body = format!("d4\nthanks\n\n{sig}\n\nmore\n");
            assert_eq!(kept(&body), "d4\nthanks\n\n", "{sig}");
        }
        // A sentence that starts like one is the player's.
        let body =
            "d4\nSent from my hotel room in Rome, where the wifi is slow and the coffee good\n";
        assert_eq!(kept(body), body);
    }

    #[test]
    fn outlook_header_blocks_in_each_language_end_the_text() {
        for block in [
            "________________________________\nFrom: YINSH <y@x>\nSent: Sunday, 22 November 2026 21:00\nTo: bob\nSubject: Yinsh Board 101",
            "From: YINSH <y@x>\nSent: Sunday, 22 November 2026 21:00\n",
            "From: YINSH <y@x>\nDate: Sunday, 22 November 2026 at 21:00\n",
            "Von: YINSH <y@x>\nGesendet: Sonntag, 22. November 2026 21:00\nAn: bob\nBetreff: x",
            "De : YINSH <y@x>\nEnvoyé : dimanche 22 novembre 2026 21:00\nÀ : bob\nObjet : x",
            "De: YINSH <y@x>\nEnviado: domingo, 22 de noviembre de 2026 21:00\nPara: bob\nAsunto: x",
            "Da: YINSH <y@x>\nInviato: domenica 22 novembre 2026 21:00\nA: bob\nOggetto: x",
            "Van: YINSH <y@x>\nVerzonden: zondag 22 november 2026 21:00\nAan: bob\nOnderwerp: x",
            "De: YINSH <y@x>\nEnviada em: domingo, 22 de novembro de 2026 21:00\nPara: bob",
            "*From:* YINSH <y@x>\n*Sent:* Sunday",
            "-----Original Message-----\nFrom: x",
            "-------- Mensaje original --------\nDe: x",
            "-------- Messaggio originale --------",
            "-------- Mensagem original --------",
        ] {
            let body = format!("g8-i8\nwell played\n\n{block}\n\nYinsh Board 101\n");
            assert_eq!(kept(&body), "g8-i8\nwell played\n\n", "{block}");
        }
        // A From: the player writes, with no Sent: below it, is theirs.
        let body = "e5\nFrom: the bottom of my heart\nthanks\n";
        assert_eq!(kept(body), body);
        let body = "e5\n______\n";
        assert_eq!(kept(body), body);
    }

    #[test]
    fn an_attribution_above_unquoted_text_ends_the_text() {
        for attribution in [
            "On Sunday, November 22, 2026, 09:00:00 PM GMT, YINSH PBeM <yinsh@localhost> wrote:",
            "   On Sunday, November 22, 2026 at 09:00:00 PM GMT, YINSH PBeM wrote:  ",
            "Am So., 22. Nov. 2026 um 21:00 Uhr schrieb YINSH PBeM <yinsh@localhost>:",
            "Le dim. 22 nov. 2026 à 21:00, YINSH PBeM <yinsh@localhost> a écrit :",
            "El dom, 22 nov 2026 a las 21:00, YINSH PBeM (<yinsh@localhost>) escribió:",
            "Il giorno dom 22 nov 2026 alle ore 21:00 YINSH PBeM <yinsh@localhost> ha scritto:",
            "Op zo 22 nov. 2026 om 21:00 schreef YINSH PBeM <yinsh@localhost>:",
            "Em dom., 22 de nov. de 2026 às 21:00, YINSH PBeM <yinsh@localhost> escreveu:",
        ] {
            let body = format!("e5\nhi\n\n{attribution}\n\nYinsh Board 101\n");
            assert_eq!(kept(&body), "e5\nhi\n\n", "{attribution}");
        }
        // Wrapped over two lines: both go.
        let body =
            "e5\nOn Sun, 22 Nov 2026 at 21:00, YINSH PBeM <\nyinsh@localhost> wrote:\nboard\n";
        assert_eq!(kept(body), "e5\n");
        // Above a `>` quote it stays (comment.rs drops it with the quote); a bottom
        // post's text below the quote is the player's.
        let body = "On 22/11/2026 21:00, YINSH PBeM wrote:\n> board\n\ne5\n";
        assert_eq!(kept(body), body);
        // No address and no date: a sentence of the player's.
        let body = "e5\nHere is what I wrote:\nnothing\n";
        assert_eq!(kept(body), body);
    }

    #[test]
    fn an_attribution_broken_around_its_address_ends_the_text() {
        for attribution in [
            "YINSH PBeM\n<yinsh@localhost>\nwrote:",
            "YINSH PBeM\n<yinsh@localhost> wrote:",
            "On Sun, 22 Nov 2026 at 21:00, YINSH PBeM\n<yinsh@localhost>\nwrote:",
            "On Sun, 22 Nov 2026 at 21:00,\nYINSH PBeM\n<yinsh@localhost>\nwrote:",
            "On Sun, 22 Nov 2026 at 21:00, YINSH PBeM <yinsh@localhost>\nwrote:",
            "On Sun, 22 Nov 2026 at 21:00, YINSH PBeM <\nyinsh@localhost>\nwrote:",
            "Am So., 22. Nov. 2026 um 21:00 Uhr schrieb YINSH PBeM\n<yinsh@localhost>:",
            "Am So., 22. Nov. 2026 um 21:00 Uhr schrieb\nYINSH PBeM\n<yinsh@localhost>:",
            "Le dim. 22 nov. 2026 à 21:00, YINSH PBeM\n<yinsh@localhost>\na écrit :",
            "Le dim. 22 nov. 2026 à 21:00, YINSH PBeM\n<yinsh@localhost> a écrit :",
            "El dom, 22 nov 2026 a las 21:00, YINSH PBeM\n(<yinsh@localhost>)\nescribió:",
            "Il giorno dom 22 nov 2026 alle ore 21:00 YINSH PBeM\n<yinsh@localhost>\nha scritto:",
            "Op zo 22 nov 2026 om 21:00 schreef YINSH PBeM\n<yinsh@localhost>:",
            "Em dom., 22 de nov. de 2026 às 21:00, YINSH PBeM\n<yinsh@localhost>\nescreveu:",
        ] {
            for above in ["e5\nhi\n", "e5\nhi\n\n"] {
                let body = format!("{above}{attribution}\n\nYinsh Board 101\n");
                assert_eq!(kept(&body), above, "{attribution}");
            }
        }
        // The player's line above the name stays, though it starts like an "On ".
        let body =
            "e5\nOn my way to work, good luck!\nYINSH PBeM\n<yinsh@localhost>\nwrote:\nboard\n";
        assert_eq!(kept(body), "e5\nOn my way to work, good luck!\n");
        // A line of the player's that starts with the word is theirs.
        for body in [
            "e5\nwrote: nice game\n",
            "e5\n<alice@example.org>\nwrote: nice game\n",
            "e5\nmail me at\nalice@example.org\n",
        ] {
            assert_eq!(kept(body), body);
        }
        assert_eq!(
            kept("e5\nwrote: nice game\n\nYINSH PBeM\n<yinsh@localhost>\nwrote:\nboard\n"),
            "e5\nwrote: nice game\n\n"
        );
    }

    #[test]
    fn a_broken_attribution_above_a_quote_is_all_its_lines() {
        for (lines, n) in [
            (&["e5", "YINSH PBeM", "<yinsh@localhost>", "wrote:"][..], 3),
            (
                &["On Sun, 22 Nov 2026,", "YINSH PBeM", "<y@x>", "wrote:"][..],
                4,
            ),
            (
                &["hi", "Am So., 22. Nov. 2026 schrieb YINSH", "<y@x>:"][..],
                2,
            ),
            (&["hi", "Al <al@x>", "wrote:"][..], 2),
            (&["hi", "Al wrote:"][..], 1),
            (&["On Mon, 3 Jun, YINSH <", "yinsh@x> wrote:"][..], 2),
            (&["hi", "wrote: nice game"][..], 0),
            (&["hi", "<y@x>:"][..], 0),
            (&["> YINSH", "<y@x>", "wrote:"][..], 1),
        ] {
            assert_eq!(attribution_lines(lines), n, "{lines:?}");
        }
    }

    #[test]
    fn a_long_line_is_never_a_marker() {
        let long = format!("Sent from my {}", "x".repeat(MARKER_BYTES));
        let body = format!("e5\n{long}\n");
        assert_eq!(kept(&body), body);
        assert!(!is_attribution(&format!(
            "{} wrote:",
            "y".repeat(MARKER_BYTES)
        )));
    }
}
