//! Which words of a command line must never be shown (in a log line, a quoted original
//! or an error), decided by the command table itself: a password's place is where the
//! command's syntax line says `<password>` (`<current-password>`, `<new-password>`).
//!
//! - A line whose words fit its command: the words in password places are hidden, and
//!   after the first of them every word that does not fit its place as only a move,
//!   an e-mail address, a number, a board number or a filter can: an extra word before
//!   the password pushes the password there (`yinsh move 101 alice alice pw e5` takes
//!   `alice` for the password and `pw e5` for the move). `message`'s userids after the
//!   password are always hidden (a password looks like a userid).
//! - A line that does not fit (a mistyped, joined or unknown command word, a word too
//!   many or too few, a wrong board number): every word after the command word(s) is
//!   hidden, since no place in it can be trusted.
//! - A line that fits a command without password places (`yinsh games alice pw`,
//!   `yinsh help pw`, `yinsh show alice pw` meant as `yinsh showas alice pw`): every
//!   word after the command words is hidden unless it [`could_show`] (no new password
//!   may be such a word), the userids named with the rest.
//!
//! Words are counted as `str::split_whitespace` counts them.

use super::table::{Shape, shape, syntax_lines};
use super::types::{GameFilter, OfferAction};
use super::words::board_ref;
use crate::mail::{Address, strip_angles};

/// What to hide of one line.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Masking {
    hide: Vec<usize>,
    passwords: Vec<String>,
    command: bool,
    unplaced: bool,
    placed: bool,
}

impl Masking {
    /// The numbers (from 0, as `split_whitespace` counts) of the words to hide.
    pub fn hidden(&self) -> &[usize] {
        &self.hide
    }

    /// The words standing in password places of the line's command (also when the
    /// line does not fit it): to be hidden wherever else they appear, e.g. in a body.
    pub fn passwords(&self) -> &[String] {
        &self.passwords
    }

    /// Whether the line fits a command without password places: its hidden words
    /// are userids or topics that may be a password written out of place, to be
    /// shown only where they name an account ([`unshowable`], `Said`).
    pub fn unplaced(&self) -> bool {
        self.unplaced
    }

    /// Whether the line starts with a command word, a family word (`yinsh`, `change`,
    /// `all`) or another game's name.
    pub fn is_command(&self) -> bool {
        self.command
    }
}

/// What a word after the password may be and still be shown.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Tail {
    Move,
    Address,
    Number,
    BoardsOrFilters,
    Hidden,
}

/// The places of the syntax line `usage` after its command words: the password
/// places and what may follow the last one.
fn places(usage: &str) -> (Vec<usize>, Tail) {
    let tokens: Vec<&str> = usage
        .split_whitespace()
        .skip_while(|t| !t.starts_with(['<', '[']))
        .collect();
    let passwords: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| t.contains("password>") || **t == "<token>")
        .map(|(k, _)| k)
        .collect();
    let after = passwords
        .last()
        .map(|&p| tokens[p + 1..].join(" "))
        .unwrap_or_default();
    let tail = if after.contains("<move>") {
        Tail::Move
    } else if after.contains("e-mail") {
        Tail::Address
    } else if after.contains("<days>") {
        Tail::Number
    } else if after.contains("<board>") {
        Tail::BoardsOrFilters
    } else {
        Tail::Hidden
    };
    (passwords, tail)
}

/// Whether `w` may be shown in the place `tail`: it fits it, and only it.
fn shown(w: &str, tail: Tail) -> bool {
    match tail {
        Tail::Move => {
            OfferAction::from_word(w).is_some() || w.eq_ignore_ascii_case("resign") || notation(w)
        }
        Tail::Address => strip_angles(w.trim_matches(',')).parse::<Address>().is_ok(),
        Tail::Number => !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()),
        Tail::BoardsOrFilters => {
            w.parse::<GameFilter>().is_ok() || board_ref(w).is_ok_and(|(rest, _)| rest.is_empty())
        }
        Tail::Hidden => false,
    }
}

/// Whether `w` is a word shown after a password when it fits there: move notation
/// only, an e-mail address, a number, a board number or a listing filter. A new
/// password may not be such a word (`signup`, `change password` refuse it), so a
/// password pushed out of its place by an extra word is never shown.
///
/// ```
/// use yinsh_pbem::server::command::could_show;
/// assert!(could_show("e5-e9") && could_show("123456") && could_show("a@b.org"));
/// assert!(!could_show("s3cret") && !could_show("Pw7marker"));
/// ```
pub fn could_show(w: &str) -> bool {
    [
        Tail::Move,
        Tail::Address,
        Tail::Number,
        Tail::BoardsOrFilters,
    ]
    .into_iter()
    .any(|tail| shown(w, tail))
}

/// Whether `w` is made of move notation only: points (a letter a-k and its digits),
/// `x`, numbers and the separators `- # ; : , ( )`.
fn notation(w: &str) -> bool {
    let mut chars = w.chars().peekable();
    let mut any = false;
    while let Some(c) = chars.next() {
        let c = c.to_ascii_lowercase();
        if ('a'..='k').contains(&c) {
            if !chars.peek().is_some_and(char::is_ascii_digit) {
                return false;
            }
        } else if !(c == 'x' || c.is_ascii_digit() || "-#;:,()".contains(c)) {
            return false;
        }
        any = true;
    }
    any
}

/// The words of `line` that a reply may show only where they name an account: of a
/// line that fits a command with password places, the words in those places (found
/// anywhere else in the line, they are shown masked); of any other line, every word
/// its masking hides that could be a password ([`could_show`] does not call it a
/// board, number, move, address or filter; no word of the command table's syntax
/// lines such as `page` or a help topic, nor an option word such as `-fast`). A
/// handler may echo such a word as a userid or a move (`sekrit: no such userid`,
/// `Games of sekrit`): it may be a password written out of its place.
///
/// ```
/// use yinsh_pbem::server::command::unshowable;
/// assert_eq!(unshowable("yinsh games alice sekrit next"), ["alice", "sekrit"]);
/// assert_eq!(unshowable("yinsh move 101 alice pw e5"), ["pw"]);
/// assert!(unshowable("yinsh help move").is_empty());
/// ```
pub fn unshowable(line: &str) -> Vec<&str> {
    let m = masking(line);
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut out: Vec<&str> = if m.placed {
        words
            .iter()
            .copied()
            .filter(|w| m.passwords.iter().any(|p| p == w))
            .collect()
    } else {
        m.hide
            .iter()
            .filter_map(|&k| words.get(k).copied())
            .filter(|w| !could_show(w) && !table_word(w) && !w.starts_with('-'))
            .collect()
    };
    // The stars a suggested line shows in place of its password are no password.
    out.retain(|w| !w.chars().all(|c| c == '*'));
    out.dedup();
    out
}

/// Whether `w` is a word of the command table's syntax lines (`yinsh`, `page`,
/// `next`, a help topic such as `move`): the server's own words.
fn table_word(w: &str) -> bool {
    syntax_lines().any(|u| {
        u.split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
            .any(|t| !t.is_empty() && t.eq_ignore_ascii_case(w))
    })
}

/// What to hide of `line`.
///
/// ```
/// use yinsh_pbem::server::command::masking;
/// assert_eq!(masking("yinsh move 101 alice s3cret e5-e9").hidden(), &[4]);
/// // Mistyped: nothing after the command words can be trusted.
/// assert_eq!(masking("yinsh mvoe 101 alice s3cret e5").hidden(), &[2, 3, 4, 5]);
/// assert_eq!(masking("yinsh move x101 alice s3cret e5").passwords(), &["s3cret"]);
/// ```
pub fn masking(line: &str) -> Masking {
    let Shape {
        command_words,
        usage,
        fits,
        known,
    } = shape(line);
    let words: Vec<&str> = line.split_whitespace().collect();
    let (places, tail) = usage.map(places).unwrap_or((Vec::new(), Tail::Hidden));
    let passwords = places
        .iter()
        .filter_map(|p| words.get(command_words + p))
        .map(|w| (*w).to_string())
        .collect();
    let args = command_words..words.len();
    let hide = if !fits {
        args.collect()
    } else if let Some(&first) = places.first() {
        args.filter(|&k| {
            let place = k - command_words;
            place >= first && (places.contains(&place) || !shown(words[k], tail))
        })
        .collect()
    } else {
        Vec::new()
    };
    let mut m = Masking {
        hide,
        passwords,
        command: known,
        unplaced: false,
        placed: fits && !places.is_empty(),
    };
    if fits && places.is_empty() {
        without_places(&words, command_words, &mut m);
    }
    m
}

/// Hides in `m` every word of `words` (a line fitting a command without password
/// places) after the command words that does not [`could_show`]: a player used to
/// other commands adds the password anywhere (`yinsh games alice pw`, `yinsh help
/// pw`, `yinsh show alice pw` meant as `showas`), where it is read as a userid or a
/// topic. Userids named are hidden with it: no place of such a line can be trusted.
fn without_places(words: &[&str], command_words: usize, m: &mut Masking) {
    for (k, w) in words.iter().enumerate().skip(command_words) {
        if !could_show(w) && !m.hide.contains(&k) {
            m.hide.push(k);
            m.passwords.push((*w).to_string());
            m.unplaced = true;
        }
    }
    m.hide.sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::command::table::entries;

    #[test]
    fn every_password_place_of_the_table_is_one_the_parser_checks_as_a_password() {
        // Fill each syntax line with fitting words; a password place given a word
        // that is no password (it has a quote) must be refused as a password.
        for (words, usage) in entries() {
            let (places, _) = places(usage);
            let filled: Vec<&str> = usage
                .split_whitespace()
                .skip_while(|t| !t.starts_with(['<', '[']))
                // An optional userid and password (`yinsh review`) are filled too.
                .filter(|t| t.starts_with('<') || *t == "[<userid>")
                .map(|t| match t {
                    t if t.contains("password>") => "pw",
                    t if t.starts_with("<board>") => "104",
                    "<move>" | "<move>[#<moveno>]" => "e5",
                    "<days>" => "3",
                    "<seekno>" => "7",
                    _ => "alice",
                })
                .collect();
            let line = format!("{words} {}", filled.join(" "))
                .trim_end()
                .to_string();
            assert!(
                crate::server::command::Command::parse(&line).is_ok(),
                "{line}"
            );
            for p in &places {
                let mut bad = filled.clone();
                bad[*p] = "pw\"";
                let line = format!("{words} {}", bad.join(" "));
                let e = crate::server::command::Command::parse(&line).map(|_| ());
                assert!(
                    matches!(
                        e,
                        Err(crate::server::command::CommandError::Syntax {
                            problem: crate::server::command::Problem::Password(_),
                            ..
                        })
                    ),
                    "{line}: {e:?}"
                );
            }
        }
    }

    #[test]
    fn the_table_has_password_places_where_players_expect_them() {
        let with: Vec<(&str, Vec<usize>)> = entries()
            .map(|(w, u)| (w, places(u).0))
            .filter(|(_, p)| !p.is_empty())
            .collect();
        let names: Vec<&str> = with.iter().map(|(w, _)| *w).collect();
        assert_eq!(
            names,
            [
                "signup",
                "add",
                "change password",
                "change address",
                "change addresses",
                "signoff",
                "delete",
                "message",
                "broadcast",
                "vacation",
                "verify",
                "yinsh move",
                "yinsh resign",
                "yinsh queue",
                "yinsh submit",
                "yinsh confirm",
                "yinsh decline",
                "yinsh chat",
                "yinsh subscribe",
                "yinsh unsubscribe",
                "yinsh review",
                "yinsh showas",
                "yinsh settings",
                "yinsh seek",
                "yinsh take",
                "yinsh withdraw",
                "yinsh unseek",
                "tournament create",
                "tournament join",
                "tournament leave",
                "tournament start",
            ]
        );
        assert!(
            with.iter()
                .any(|(w, p)| *w == "tournament join" && *p == [2])
        );
        assert!(
            with.iter()
                .any(|(w, p)| *w == "change password" && *p == [1, 2])
        );
        assert!(with.iter().any(|(w, p)| *w == "yinsh move" && *p == [2]));
    }

    #[test]
    fn a_fitting_line_shows_what_fits_after_the_password_and_hides_the_rest() {
        let hidden = |l: &str| masking(l).hidden().to_vec();
        assert_eq!(hidden("yinsh move 104 alice pw e5-e9 x a1-a5 b2#12"), [4]);
        assert_eq!(hidden("yinsh move 104 alice pw draw"), [4, 5]);
        assert_eq!(hidden("yinsh move 104 alice alice Pw7marker e5"), [4, 5]);
        assert_eq!(hidden("yinsh move 104 alice alice hijack1"), [4, 5]);
        assert_eq!(hidden("signup bob pw bob@example.org"), [2]);
        assert_eq!(
            hidden("signup bob pw junk@example.org bob@example.org"),
            [2]
        );
        // "pw" is no address: the line does not fit, nothing after "signup" is shown.
        assert_eq!(hidden("signup bob junk pw bob@example.org"), [1, 2, 3, 4]);
        assert_eq!(hidden("message alice pw bob carol"), [2, 3, 4]);
        assert_eq!(hidden("yinsh showas alice pw 104#3 next"), [3]);
        assert_eq!(hidden("vacation alice pw 14"), [2]);
        assert_eq!(hidden("change password alice old new"), [3, 4]);
        assert_eq!(hidden("chess move 5 carol pw e4"), [4]);
        // Read as `yinsh showas alice bob`, "bob" may be alice's password; in a line
        // of a command without password places no word that could be one is shown.
        assert_eq!(hidden("yinsh show alice bob"), [2, 3]);
        assert_eq!(
            masking("yinsh show alice bob").passwords(),
            ["alice", "bob"]
        );
        assert_eq!(hidden("yinsh show alice"), [2]);
        assert_eq!(hidden("yinsh show 104 105"), Vec::<usize>::new());
        assert_eq!(hidden("yinsh show alice bob Pw7marker next"), [2, 3, 4]);
        assert_eq!(hidden("yinsh games alice sekrit"), [2, 3]);
        assert_eq!(hidden("yinsh help sekrit"), [2]);
        assert_eq!(hidden("yinsh standings page 2"), [2]);
        assert_eq!(hidden("thanks for the game"), [1, 2, 3]);
        assert!(!masking("thanks for the game").is_command());
        assert!(masking("YINSH mvoe 1").is_command());
    }
}
