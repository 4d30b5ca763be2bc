//! [`Command::parse`]: a line read through the table (`table.rs`), and, when its
//! command word is unknown, the command the player meant: a yinsh command without
//! `yinsh`, or the command word nearest by edit distance (letters added, dropped,
//! changed or swapped: `challange`, `mvoe`, `singup`) when only one is that near. The
//! line as meant is shown when the table reads it, as the player should send it,
//! with every password as `**`.

use super::error::CommandError;
use super::said::SaidLine;
use super::secret::{masking, unshowable};
use super::table::{entries, families, parse_exact};
use super::types::Command;
use super::words::word;

impl Command {
    /// Parse a Subject line (already stripped of `Re:` and tags). The fields a reply
    /// may echo are masked where the line's masking hides their word
    /// ([`unshowable`]): a misspelt line's suggestion where the line meant hides it.
    ///
    /// ```
    /// use yinsh_pbem::server::command::Command;
    /// let c = Command::parse("YINSH show 104#12").unwrap();
    /// assert!(matches!(c, Command::Show { .. }));
    /// assert!(Command::parse("yinsh move 104 alice").unwrap_err().to_string()
    ///     .starts_with("Syntax is \"yinsh move <board> <userid> <password> <move>\""));
    /// ```
    pub fn parse(line: &str) -> Result<Command, CommandError> {
        let max = super::bounds::MAX_LINE_CHARS;
        if line.chars().nth(max).is_some() {
            return Err(CommandError::TooLong {
                chars: line.chars().count(),
                max,
            });
        }
        let secrets = unshowable(line);
        match parse_exact(line) {
            Ok(mut cmd) => {
                cmd.mark(&secrets);
                Ok(cmd)
            }
            Err(e @ (CommandError::Unknown(_) | CommandError::UnknownYinsh(_))) => {
                Err(meant(line).unwrap_or(e))
            }
            Err(mut e) => {
                e.mark(&secrets);
                Err(e)
            }
        }
    }
}

impl CommandError {
    /// The command a misspelt line meant, as the table writes it (`signup`, `yinsh
    /// move`), with its syntax line: the server's own words, none of the line's.
    ///
    /// ```
    /// use yinsh_pbem::server::command::Command;
    /// let e = Command::parse("singup bob s3cret").unwrap_err();
    /// assert_eq!(e.meant_command().map(|(w, _)| w), Some("signup"));
    /// ```
    pub fn meant_command(&self) -> Option<(&'static str, &'static str)> {
        let meant = match self {
            CommandError::DidYouMean { meant, .. } | CommandError::WithoutYinsh { meant, .. } => {
                meant.to_string()
            }
            _ => return None,
        };
        let mut words = meant.split_whitespace().map(str::to_ascii_lowercase);
        let first = words.next()?;
        let pair = words.next().map(|second| format!("{first} {second}"));
        entries()
            .find(|(w, _)| pair.as_deref() == Some(*w))
            .or_else(|| entries().find(|(w, _)| *w == first))
    }
}

/// What a line whose command word is unknown was meant to say: a `yinsh` command
/// without `yinsh` (`move 101 ...`), a command word written as two (`sign up`), or a
/// command word misspelt (`yinsh challange`, `singup`, `yinhs move`). The line as meant is shown when the table reads it, with
/// every password as `**`; else only its command words.
fn meant(line: &str) -> Option<CommandError> {
    let (after, first) = word(line).ok()?;
    let lower = first.to_ascii_lowercase();
    let yinsh_words = || {
        entries()
            .filter_map(|(w, _)| w.strip_prefix("yinsh "))
            .filter(|w| *w != "help")
    };
    // `sign up bob ...`: a command word written as two (a phone's keyboard, or a
    // newcomer who says it aloud): the two joined are the command.
    if let Ok((rest, second)) = word(after) {
        let joined = format!("{lower}{}", second.to_ascii_lowercase());
        if let Some(fixed) = entries()
            .map(|(w, _)| w)
            .find(|w| !w.contains(' ') && *w == joined)
        {
            return Some(CommandError::DidYouMean {
                written: format!("{first} {second}"),
                meant: as_shown(&format!("{fixed}{rest}"), fixed),
            });
        }
    }
    // `move 101 alice ...`: a yinsh command word written alone.
    if yinsh_words().any(|w| w == lower) {
        let meant = format!("yinsh {}", line.trim_start());
        return Some(CommandError::WithoutYinsh {
            written: first.to_string(),
            meant: as_shown(&meant, &format!("yinsh {lower}")),
        });
    }
    let one_word = entries()
        .map(|(w, _)| w)
        .filter(|w| !w.contains(' '))
        .chain(families());
    if let Some(fixed) = nearest(&lower, one_word) {
        let meant = format!("{fixed}{after}");
        // The family's second word only when it is one of its commands: another word
        // there may be a password (`ynish Sekrit ...`), in any case.
        let words = match word(after) {
            Ok((_, second))
                if families().any(|w| w == fixed)
                    && entries().any(|(w, _)| {
                        w.strip_prefix(fixed)
                            .and_then(|w| w.strip_prefix(' '))
                            .is_some_and(|w| w.eq_ignore_ascii_case(second))
                    }) =>
            {
                format!("{fixed} {}", second.to_ascii_lowercase())
            }
            _ => fixed.to_string(),
        };
        return Some(CommandError::DidYouMean {
            written: first.to_string(),
            meant: as_shown(&meant, &words),
        });
    }
    // `chalenge alice bob`: a yinsh command word misspelt and without `yinsh`.
    if let Some(fixed) = nearest(&lower, yinsh_words()) {
        let meant = format!("yinsh {fixed}{after}");
        return Some(CommandError::WithoutYinsh {
            written: first.to_string(),
            meant: as_shown(&meant, &format!("yinsh {fixed}")),
        });
    }
    // `yinsh challange ...`: a misspelt second word.
    if lower == "yinsh"
        && let Ok((rest, second)) = word(after)
        && let Some(fixed) = nearest(second, yinsh_words())
    {
        let meant = format!("yinsh {fixed}{rest}");
        return Some(CommandError::DidYouMean {
            written: second.to_string(),
            meant: as_shown(&meant, &format!("yinsh {fixed}")),
        });
    }
    None
}

/// `meant` as shown to the player when the table reads it (passwords as `**`, the
/// words its masking hides otherwise masked), else only its command words `words`.
fn as_shown(meant: &str, words: &str) -> SaidLine {
    let read = parse_exact(meant).ok();
    let text = read
        .as_ref()
        .and_then(|_| shown(meant))
        .unwrap_or_else(|| words.to_string());
    let mut line = SaidLine::from(text.as_str());
    let mut secrets = unshowable(&text);
    // The word in an existing account's userid place may be a password pushed out
    // of its place (`insh review 101 <password> alice`): shown only where it names
    // an account (`Said::reveal`).
    if let Some(auth) = read.as_ref().and_then(Command::credentials) {
        secrets.push(auth.userid.as_str());
    }
    line.mark(&secrets);
    line
}

/// The most edits a misspelt command word may be from the one meant.
const MAX_EDITS: usize = 2;

/// The one word of `candidates` nearest to `written` (any case), if it is at most
/// `MAX_EDITS` edits away, fewer than half the written word's letters, and no other
/// candidate is as near.
///
/// ```
/// use yinsh_pbem::server::command::nearest;
/// assert_eq!(nearest("challange", ["challenge", "chat"]), Some("challenge"));
/// assert_eq!(nearest("mvoe", ["move", "show"]), Some("move"));
/// assert_eq!(nearest("xyz", ["move", "show"]), None);
/// ```
pub fn nearest<'a>(
    written: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let written = written.to_ascii_lowercase();
    let length = written.chars().count();
    let limit = MAX_EDITS.min((length.saturating_sub(1)) / 2);
    let mut best: Option<(usize, &str)> = None;
    let mut tied = false;
    for c in candidates {
        // At least one edit per letter of difference in length: a word much longer
        // or shorter than `c` is not compared (a 1 MiB word would cost a 1 MiB table).
        if length.abs_diff(c.chars().count()) > limit {
            continue;
        }
        let d = edits(&written, c);
        if d == 0 || d > limit {
            continue;
        }
        match best {
            Some((b, w)) if d == b && w != c => tied = true,
            Some((b, _)) if d >= b => {}
            _ => {
                best = Some((d, c));
                tied = false;
            }
        }
    }
    best.filter(|_| !tied).map(|(_, c)| c)
}

/// The optimal string alignment distance: insertions, deletions, substitutions and
/// swaps of two neighbouring letters, each one edit.
fn edits(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// `line` (a line the table reads) as it may be shown: each word in a password place
/// as `**`. `None` when the masking hides another word too (a userid after
/// `message`'s password, a word that may be a password pushed out of its place), or
/// a word shown elsewhere is a password too: the line is then not shown at all. A
/// line of a command without password places is shown whole: [`as_shown`] masks its
/// words that may be a password written out of place, unless they name an account.
pub(super) fn shown(line: &str) -> Option<String> {
    let m = masking(line);
    let words: Vec<&str> = line.split_whitespace().collect();
    if m.unplaced() {
        return Some(words.join(" "));
    }
    let mut out = Vec::with_capacity(words.len());
    let secret = |w: &str| m.passwords().iter().any(|p| p == w);
    for (k, w) in words.iter().enumerate() {
        if !m.hidden().contains(&k) {
            if secret(w) {
                return None;
            }
            out.push(*w);
        } else if secret(w) {
            out.push("**");
        } else {
            return None;
        }
    }
    Some(out.join(" "))
}

#[cfg(test)]
mod tests {
    use super::{edits, nearest, shown};
    use crate::server::command::Command;

    /// Issue 26 (a newcomer's stumble beyond finding 12): `sign up bob ...` is
    /// answered "Did you mean signup", its line shown with the password masked.
    #[test]
    fn a_command_word_written_as_two_is_the_command_meant() {
        for (line, meant) in [
            ("sign up bob s3cret", "signup"),
            ("Sign Off bob s3cret", "signoff"),
        ] {
            let e = Command::parse(line).unwrap_err();
            assert_eq!(e.meant_command().map(|(w, _)| w), Some(meant), "{line}");
            assert!(!e.to_string().contains("s3cret"), "{e}");
        }
        // Two words that join into no command are read as before.
        let e = Command::parse("sign bob s3cret").unwrap_err();
        assert_eq!(e.meant_command().map(|(w, _)| w), None, "{e}");
    }

    #[test]
    fn edits_count_swaps_as_one() {
        assert_eq!(edits("mvoe", "move"), 1);
        assert_eq!(edits("challange", "challenge"), 1);
        assert_eq!(edits("singup", "signup"), 1);
        assert_eq!(edits("show", "showas"), 2);
    }

    #[test]
    fn a_word_far_longer_than_every_command_is_not_compared() {
        let long = "x".repeat(1 << 20);
        assert_eq!(nearest(&long, ["show", "move"]), None);
        assert_eq!(nearest("movexx", ["move"]), Some("move"));
        assert_eq!(nearest("movexxx", ["move"]), None);
    }

    #[test]
    fn a_tie_or_a_short_word_suggests_nothing() {
        assert_eq!(nearest("shw", ["show", "shaw"]), None);
        assert_eq!(nearest("ab", ["add", "all"]), None);
        assert_eq!(nearest("Signpu", ["signup", "signoff"]), Some("signup"));
    }

    #[test]
    fn passwords_are_shown_as_stars_and_nothing_else_is_hidden() {
        assert_eq!(
            shown("yinsh move 101 alice s3cret c5-c7").as_deref(),
            Some("yinsh move 101 alice ** c5-c7")
        );
        assert_eq!(
            shown("yinsh challenge alice bob").as_deref(),
            Some("yinsh challenge alice bob")
        );
        assert_eq!(shown("message alice s3cret bob"), None);
        // A userid that is also the password is not shown either.
        assert_eq!(shown("yinsh move 101 alice alice e5"), None);
    }
}
