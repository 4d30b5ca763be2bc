//! Keeping passwords out of every mail and log: which words of a command line are
//! passwords, masking them, and the original message as quoted back to its sender.

/// The mask shown in place of a password.
pub const MASK: &str = "********";

/// Indices of the words of a command line that hold passwords (pbmserv-reference.md
/// §2: the password follows the userid).
fn secret_words(words: &[&str]) -> Vec<usize> {
    let lw: Vec<String> = words
        .iter()
        .take(2)
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let first = lw.first().map(String::as_str).unwrap_or("");
    let second = lw.get(1).map(String::as_str).unwrap_or("");
    match (first, second) {
        ("signup" | "add" | "signoff" | "delete" | "message" | "broadcast" | "vacation", _) => {
            vec![2]
        }
        ("change", "password") => vec![3, 4],
        ("change", _) => vec![3],
        // Per-game commands, for this game or any other a player may name.
        (_, "showas") => vec![3],
        (
            _,
            "move" | "queue" | "resign" | "chat" | "submit" | "confirm" | "subscribe"
            | "unsubscribe",
        ) => {
            vec![4]
        }
        _ => Vec::new(),
    }
}

/// The passwords written in a command line.
pub fn secrets_in(line: &str) -> Vec<String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    secret_words(&words)
        .into_iter()
        .filter_map(|k| words.get(k))
        .filter(|w| !w.is_empty())
        .map(|w| w.to_string())
        .collect()
}

/// `text` with every whole-word occurrence of each secret replaced by the mask.
pub fn mask(text: &str, secrets: &[String]) -> String {
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
/// with `>`, with every password masked: the ones in the Subject and in any body line
/// that is a command (as in `multiple`).
pub fn quoted_original(
    from: Option<&str>,
    subject: &str,
    date: Option<&str>,
    body: &str,
) -> String {
    let mut secrets = secrets_in(subject);
    for line in body.lines() {
        secrets.extend(secrets_in(line));
    }
    let mut text = String::new();
    if let Some(f) = from {
        text.push_str(&format!("From: {f}\n"));
    }
    text.push_str(&format!("Subject: {subject}\n"));
    if let Some(d) = date {
        text.push_str(&format!("Date: {d}\n"));
    }
    text.push('\n');
    let mut lines: Vec<&str> = body.lines().collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    for line in lines.iter().take(QUOTE_LINES) {
        let line: String = line.chars().take(QUOTE_WIDTH).collect();
        text.push_str(&line);
        text.push('\n');
    }
    if lines.len() > QUOTE_LINES {
        text.push_str(&format!(
            "[{} more lines not quoted]\n",
            lines.len() - QUOTE_LINES
        ));
    }
    crate::mail::quote(&mask(&text, &secrets))
}

/// A command line fit for a log: passwords masked, cut to 200 characters.
pub fn loggable(line: &str) -> String {
    let masked = mask(line, &secrets_in(line));
    masked
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
                "message alice ******** bob carol",
            ),
            ("broadcast alice pw", "broadcast alice ********"),
            ("vacation bob pw 14", "vacation bob ******** 14"),
            ("yinsh show 104", "yinsh show 104"),
            ("chess move 5 carol pw e4", "chess move 5 carol ******** e4"),
        ];
        for (line, want) in cases {
            assert_eq!(mask(line, &secrets_in(line)), want);
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
}
