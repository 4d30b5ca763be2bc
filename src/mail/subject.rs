//! Subjects of incoming mails: the command subject without the `Re:`/`Fwd:`/`[tag]`
//! prefixes mail programs add in many languages ([`clean_subject`]), and whether a
//! subject is a reply at all ([`is_reply_subject`]), and the prefixes as written
//! ([`subject_prefix`]).

/// Reply and forward prefixes, lower case, as mail programs in many languages write
/// them (English, German, Scandinavian, Finnish, Dutch, French, Italian, Spanish,
/// Portuguese, Polish).
const REPLY_WORDS: [&str; 19] = [
    "re", "fwd", "fw", "aw", "wg", "sv", "vs", "vl", "antw", "doorst", "réf", "tr", "r", "rif",
    "i", "rv", "res", "enc", "odp",
];

/// Strips reply/forward prefixes (`Re:`, `RE:`, `Re[2]:`, `Fwd:`, `Fw:`, `AW:`, `WG:`,
/// `SV:`, `VS:`, `VL:`, `Antw:`, `Doorst:`, `Réf:`, `TR:`, `R:`, `Rif:`, `I:`, `RV:`,
/// `RES:`, `ENC:`, `Odp:`, any case, also `Re :`) and `[tag]` prefixes, repeatedly,
/// then collapses white space.
///
/// ```
/// use yinsh_pbem::mail::clean_subject;
/// assert_eq!(clean_subject("Re: Fwd: [yinsh]  RE[2]: yinsh  move 1"), "yinsh move 1");
/// ```
pub fn clean_subject(raw: &str) -> String {
    let mut rest = raw.trim_start();
    loop {
        let next = strip_tag(rest).or_else(|| strip_reply_word(rest));
        match next {
            Some(after) => rest = after.trim_start(),
            None => break,
        }
    }
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The reply, forward and `[tag]` prefixes of `raw` as written (trimmed), the part
/// [`clean_subject`] strips.
///
/// ```
/// use yinsh_pbem::mail::subject::subject_prefix;
/// assert_eq!(subject_prefix("Re: AW: Yinsh Board 101 alice"), "Re: AW:");
/// assert_eq!(subject_prefix("yinsh show 7"), "");
/// ```
pub fn subject_prefix(raw: &str) -> &str {
    let mut rest = raw.trim_start();
    while let Some(after) = strip_tag(rest).or_else(|| strip_reply_word(rest)) {
        rest = after.trim_start();
    }
    raw[..raw.len() - rest.len()].trim()
}

/// Whether `raw` starts, after any `[tag]`, with a reply or forward prefix.
pub fn is_reply_subject(raw: &str) -> bool {
    let mut rest = raw.trim_start();
    while let Some(after) = strip_tag(rest) {
        rest = after.trim_start();
    }
    strip_reply_word(rest).is_some()
}

/// `[anything]` at the start: the text after it.
fn strip_tag(text: &str) -> Option<&str> {
    let inner = text.strip_prefix('[')?;
    let close = inner.find(']')?;
    Some(&inner[close + 1..])
}

/// `Re:`, `Re[2]:`, `Re :`, `Réf. :` ... at the start: the text after the colon.
fn strip_reply_word(text: &str) -> Option<&str> {
    let word_len = text
        .char_indices()
        .find(|(_, c)| !c.is_alphabetic())
        .map_or(text.len(), |(i, _)| i);
    let word = text[..word_len].to_lowercase();
    if !REPLY_WORDS.contains(&word.as_str()) {
        return None;
    }
    let mut rest = &text[word_len..];
    rest = rest.strip_prefix('.').unwrap_or(rest);
    if let Some(inner) = rest.strip_prefix('[') {
        let close = inner.find(']')?;
        if !inner[..close].trim().chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        rest = &inner[close + 1..];
    }
    rest.trim_start().strip_prefix(':')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subject_prefixes_of_many_languages_are_stripped() {
        for (raw, want) in [
            ("yinsh move 1 al pw e5", "yinsh move 1 al pw e5"),
            ("Re: yinsh show 7", "yinsh show 7"),
            ("RE: re: Re:yinsh show 7", "yinsh show 7"),
            ("Re[2]: Re[12]: yinsh show 7", "yinsh show 7"),
            ("Fwd: FW: fw: yinsh show 7", "yinsh show 7"),
            ("AW: WG: SV: VS: Antw: TR: yinsh show 7", "yinsh show 7"),
            ("Réf: RÉF : yinsh show 7", "yinsh show 7"),
            ("RE : TR : yinsh show 7", "yinsh show 7"),
            // Italian (Outlook: R:, I:; Thunderbird: Rif:), Spanish (Outlook: RV:),
            // Portuguese (RES:, ENC:), Polish (Odp:), Finnish (VL:), Dutch (Doorst:).
            ("R: I: Rif: yinsh show 7", "yinsh show 7"),
            (
                "RV: RES: ENC: Odp: VL: Doorst: yinsh show 7",
                "yinsh show 7",
            ),
            // A word that only starts like one is no prefix.
            ("Rivals: yinsh show 7", "Rivals: yinsh show 7"),
            ("yinsh move 101 r pw i9", "yinsh move 101 r pw i9"),
            ("[yinsh] [PBeM] Re: [yinsh] yinsh show 7", "yinsh show 7"),
            ("  Re:   Fwd:\t[x]  yinsh \t  show   7  ", "yinsh show 7"),
            ("Re:", ""),
            ("[only tag]", ""),
            ("", ""),
        ] {
            assert_eq!(clean_subject(raw), want, "{raw:?}");
        }
    }

    #[test]
    fn words_that_only_start_like_a_prefix_are_kept() {
        for raw in [
            "Return of the rings",
            "Reply: yinsh",
            "Re[x]: yinsh",
            "[unclosed tag yinsh",
            "yinsh move 1 al pw e5 Re: x",
            "Fwd yinsh",
        ] {
            let want = raw.split_whitespace().collect::<Vec<_>>().join(" ");
            assert_eq!(clean_subject(raw), want, "{raw:?}");
        }
    }
}
