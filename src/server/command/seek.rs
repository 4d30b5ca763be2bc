//! The parsers of the open seeks' commands (issue 49), one per command of the table,
//! each into a [`Command::Seek`] (`seek_command.rs`): `yinsh seek`
//! (its options read strictly: a rating range as `-rating=MIN-MAX`, a robot's level
//! 1-5, the clock options as `yinsh challenge` reads them), `yinsh seeks`,
//! `yinsh take` and `yinsh withdraw` (also `yinsh unseek`).

use nom::multi::many0;

use super::error::{CommandError, Problem};
use super::parsers::Parsed;
use super::seek_command::SeekCommand;
use super::types::{Command, Credentials};
use super::words::{args, credentials, end, word};
use crate::server::model::Variant;
use crate::server::store::{RatingRange, SeekColour, SeekId, SeekWish};

/// The value of option `w` (`-name=value`, one or two dashes, any case) when its name
/// is `name`.
fn option<'a>(w: &'a str, name: &str) -> Option<&'a str> {
    let (n, value) = w
        .strip_prefix('-')?
        .trim_start_matches('-')
        .split_once('=')?;
    n.eq_ignore_ascii_case(name).then_some(value)
}

/// Word `nth` (from 1 after the command words) does not fit: `what` was expected. The
/// word itself is never repeated: it may be a password pushed out of its place.
fn expected(what: &'static str, nth: usize, usage: &'static str) -> CommandError {
    Problem::Expected {
        what,
        word: Some(nth),
    }
    .within(usage)
}

/// What `yinsh seek` takes after the password.
const OPTIONS: &str = "options such as -blitz, -unrated, -rating=1400-1800, -robot=3, --nagtime=7, --forfeittime=21, -white or -black";

/// One option of `yinsh seek` (word `nth` of the line) taken into `wish`.
fn take_option(
    wish: &mut SeekWish,
    w: &str,
    nth: usize,
    usage: &'static str,
) -> Result<(), CommandError> {
    let flag = w
        .strip_prefix('-')
        .map(|f| f.trim_start_matches('-').to_ascii_lowercase());
    let days = |value: &str| {
        value
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=365).contains(d))
            .ok_or_else(|| {
                expected(
                    "a number of days from 1 to 365, like --nagtime=7",
                    nth,
                    usage,
                )
            })
    };
    match flag.as_deref() {
        Some("blitz") => wish.variant = Variant::Blitz,
        Some("normal") => wish.variant = Variant::Normal,
        Some("unrated") => wish.rated = false,
        Some("rated") => wish.rated = true,
        Some("white") => wish.colour = SeekColour::White,
        Some("black") => wish.colour = SeekColour::Black,
        _ => {
            if let Some(v) = option(w, "rating") {
                let range = v.parse::<RatingRange>().map_err(|_| {
                    let what = "a rating range like -rating=1400-1800: two whole numbers from 0 to 4000, the lower first";
                    expected(what, nth, usage)
                })?;
                wish.range = Some(range);
            } else if let Some(v) = option(w, "robot") {
                let level = v.parse::<u8>().ok().filter(|n| (1..=5).contains(n));
                let what = "a robot's level from 1 to 5, like -robot=3";
                wish.robot = Some(level.ok_or_else(|| expected(what, nth, usage))?);
            } else if let Some(v) = option(w, "nagtime") {
                wish.nag_days = Some(days(v)?);
            } else if let Some(v) = option(w, "forfeittime") {
                wish.forfeit_days = Some(days(v)?);
            } else {
                return Err(expected(OPTIONS, nth, usage));
            }
        }
    }
    Ok(())
}

/// `yinsh seek <userid> <password> [-blitz] [-unrated] [-rating=MIN-MAX] [-robot=N]
/// [--nagtime=N] [--forfeittime=N] [-white|-black]`
pub(super) fn seek(after: &str, usage: &'static str) -> Parsed {
    let (id, pw, options) = args(
        after,
        usage,
        "a userid, a password and options",
        (word, word, many0(word)),
    )?;
    let auth = credentials(id, pw, usage)?;
    let mut wish = SeekWish::default();
    for (k, w) in options.into_iter().enumerate() {
        take_option(&mut wish, w, k + 3, usage)?;
    }
    Ok(Command::Seek(SeekCommand::Post { auth, wish }))
}

/// `yinsh seeks`
pub(super) fn seeks(after: &str, usage: &'static str) -> Parsed {
    args(after, usage, "nothing more", end)?;
    Ok(Command::Seek(SeekCommand::List))
}

/// `<seekno> <userid> <password>`.
fn numbered(after: &str, usage: &'static str) -> Result<(SeekId, Credentials), CommandError> {
    let (n, id, pw) = args(
        after,
        usage,
        "a seek number, a userid and a password",
        (word, word, word),
    )?;
    let seek = n
        .parse::<SeekId>()
        .map_err(|_| Problem::Expected {
            what: "a seek number like 7 (yinsh seeks lists them)",
            word: Some(1),
        })
        .map_err(|p| p.within(usage))?;
    Ok((seek, credentials(id, pw, usage)?))
}

/// `yinsh take <seekno> <userid> <password>`
pub(super) fn take(after: &str, usage: &'static str) -> Parsed {
    let (seek, auth) = numbered(after, usage)?;
    Ok(Command::Seek(SeekCommand::Take { seek, auth }))
}

/// `yinsh withdraw|unseek <seekno> <userid> <password>`
pub(super) fn withdraw(after: &str, usage: &'static str) -> Parsed {
    let (seek, auth) = numbered(after, usage)?;
    Ok(Command::Seek(SeekCommand::Withdraw { seek, auth }))
}
