//! The word splitter of the command parsers: words split on spaces and tabs (nom, one
//! small parser per rule, the rule written above it), a runner that fits a command's
//! arguments to their rule or says what was expected, and the typed readings of a word
//! that several commands share: userid, password, credentials, e-mail addresses
//! ([`Address`]), board
//! references, a move with its `#moveno`, and the userid/board/filter lists of the
//! listings.

use nom::bytes::complete::take_till1;
use nom::character::complete::{char, digit1, space0};
use nom::combinator::{all_consuming, eof, map_res, not, opt, peek};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::error::{CommandError, Problem};
use super::types::{BoardRef, Credentials, GameFilter, OfferAction};
use crate::mail::{Address, strip_angles};
use crate::notation::{mend, parse_turn};
use crate::server::model::{BoardId, Password, UserId};

pub(super) type Res<'a, T> = IResult<&'a str, T>;

// word := space* (any non-space char)+
pub(super) fn word(i: &str) -> Res<'_, &str> {
    preceded(space0, take_till1(char::is_whitespace)).parse(i)
}

// rest := space* (anything)   — the rest of the line, trimmed
pub(super) fn rest(i: &str) -> Res<'_, &str> {
    Ok(("", i.trim()))
}

// digits := space* digit+
fn digits(i: &str) -> Res<'_, u32> {
    preceded(space0, map_res(digit1, str::parse::<u32>)).parse(i)
}

// word_end := &(space | eof)   — nothing of the word is left
fn word_end(i: &str) -> Res<'_, ()> {
    let (i, _) = peek(not(take_till1(char::is_whitespace))).parse(i)?;
    Ok((i, ()))
}

// board := digits word_end   — a whole word: "101x" is no board 101 followed by "x"
pub(super) fn board(i: &str) -> Res<'_, u32> {
    let (i, n) = digits(i)?;
    let (i, ()) = word_end(i)?;
    Ok((i, n))
}

// board_ref := digits ("#" digit+)? word_end
pub(super) fn board_ref(i: &str) -> Res<'_, BoardRef> {
    let (i, board) = digits(i)?;
    let (i, at) = opt(preceded(char('#'), map_res(digit1, str::parse::<u32>))).parse(i)?;
    let (i, ()) = word_end(i)?;
    Ok((
        i,
        BoardRef {
            board: board.into(),
            at,
        },
    ))
}

// end := space* eof
pub(super) fn end(i: &str) -> Res<'_, ()> {
    let (i, _) = space0(i)?;
    eof(i).map(|(i, _)| (i, ()))
}

/// Run a nom parser over all of `args`; when it does not fit, say that `what` was
/// expected in the command's syntax `usage`, and which word does not fit (its number,
/// never the word: it may be a password pushed out of its place).
pub(super) fn args<'a, O>(
    args: &'a str,
    usage: &'static str,
    what: &'static str,
    p: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
) -> Result<O, CommandError> {
    all_consuming(p).parse(args).map(|(_, o)| o).map_err(|e| {
        let rest = match &e {
            nom::Err::Error(e) | nom::Err::Failure(e) => e.input,
            nom::Err::Incomplete(_) => "",
        };
        let word = (!rest.trim().is_empty()).then(|| {
            let done = args
                .get(..args.len().saturating_sub(rest.len()))
                .unwrap_or("");
            let whole = done.split_whitespace().count();
            // Stopped inside a word ("101|x"): that word, else the next one.
            let inside = done.ends_with(|c: char| !c.is_whitespace())
                && rest.starts_with(|c: char| !c.is_whitespace());
            if inside { whole } else { whole + 1 }
        });
        Problem::Expected { what, word }.within(usage)
    })
}

/// `text` as a userid.
pub(super) fn userid(text: &str, usage: &'static str) -> Result<UserId, CommandError> {
    text.parse::<UserId>().map_err(|why| {
        Problem::Userid {
            text: text.to_string().into(),
            why,
        }
        .within(usage)
    })
}

/// `text` as a password; the error never echoes the text.
pub(super) fn password(text: &str, usage: &'static str) -> Result<Password, CommandError> {
    text.parse::<Password>()
        .map_err(|why| Problem::Password(why).within(usage))
}

/// A userid and its password, read in that order (the userid's error comes first).
pub(super) fn credentials(
    id: &str,
    pw: &str,
    usage: &'static str,
) -> Result<Credentials, CommandError> {
    Ok(Credentials {
        userid: userid(id, usage)?,
        password: password(pw, usage)?,
    })
}

/// Read `<userid> <password>`.
pub(super) fn auth_args(after: &str, usage: &'static str) -> Result<Credentials, CommandError> {
    let (id, pw) = args(after, usage, "a userid and a password", (word, word))?;
    credentials(id, pw, usage)
}

/// Each word an [`Address`] (`<a@b.org>` and commas around it allowed).
pub(super) fn addresses(words: &[&str], usage: &'static str) -> Result<Vec<Address>, CommandError> {
    words
        .iter()
        .enumerate()
        .map(|(k, w)| {
            strip_angles(w.trim_matches(','))
                .parse::<Address>()
                .map_err(|e| {
                    let problem = e.problem;
                    Problem::Address {
                        nth: k + 1,
                        problem,
                    }
                    .within(usage)
                })
        })
        .collect()
}

/// The words of a command that carries a move:
/// `<board> <userid> <password> <move>[#<moveno>]`.
pub(super) struct MoveArgs<'a> {
    pub(super) board: BoardId,
    pub(super) auth: Credentials,
    /// The move as written, without `#<moveno>`.
    pub(super) text: &'a str,
    pub(super) moveno: Option<u32>,
}

/// Read `<board> <userid> <password> <move>[#<moveno>]` (`usage` is the command's
/// syntax line, for the errors).
pub(super) fn move_args<'a>(
    after: &'a str,
    usage: &'static str,
) -> Result<MoveArgs<'a>, CommandError> {
    let (board, id, pw, text) = args(
        after,
        usage,
        "a board number, a userid, a password and a move",
        (board, word, word, rest),
    )?;
    if text.is_empty() {
        return Err(forgotten_password(board, id, pw, usage)
            .unwrap_or(Problem::MissingMove)
            .within(usage));
    }
    let (text, moveno) = split_moveno(text, usage)?;
    Ok(MoveArgs {
        board: board.into(),
        auth: credentials(id, pw, usage)?,
        text,
        moveno,
    })
}

/// A move command whose password was left out (`yinsh move 101 alice c5-c7`): the
/// word in the password's place is a turn, `resign` or an offer word (which no
/// password may be), so it is shown in the line as it should be written.
fn forgotten_password(board: u32, id: &str, pw: &str, usage: &'static str) -> Option<Problem> {
    // A turn as written, not mended: no password may be one (`signup` refuses them).
    let a_move = (mend(pw).is_none() && parse_turn(pw).is_ok())
        || OfferAction::from_word(pw).is_some()
        || pw.eq_ignore_ascii_case("resign");
    let command = usage
        .split_whitespace()
        .take_while(|w| !w.starts_with(['<', '[']))
        .collect::<Vec<_>>()
        .join(" ");
    (a_move && id.parse::<UserId>().is_ok()).then(|| Problem::NoPassword {
        meant: format!("{command} {board} {id} ** {pw}").as_str().into(),
    })
}

/// Read `<board> <userid> <password>`.
pub(super) fn board_args(
    after: &str,
    usage: &'static str,
) -> Result<(BoardId, Credentials), CommandError> {
    let (board, id, pw) = args(
        after,
        usage,
        "a board number, a userid and a password",
        (board, word, word),
    )?;
    Ok((board.into(), credentials(id, pw, usage)?))
}

/// Split `text` at a trailing `#N` turn number.
fn split_moveno<'a>(
    text: &'a str,
    usage: &'static str,
) -> Result<(&'a str, Option<u32>), CommandError> {
    match text.rsplit_once('#') {
        None => Ok((text, None)),
        Some((mv, n)) => match n.trim().parse::<u32>() {
            Ok(n) => Ok((mv.trim_end(), Some(n))),
            Err(_) => Err(Problem::Moveno.within(usage)),
        },
    }
}

/// The words of a listing, sorted: userids, the last filter word (`active` when
/// none), and board references (words starting with a digit).
pub(super) struct Listing {
    pub(super) userids: Vec<UserId>,
    pub(super) filter: GameFilter,
    pub(super) boards: Vec<BoardRef>,
}

/// Sort `words` into a [`Listing`].
pub(super) fn listing(words: &[&str], usage: &'static str) -> Result<Listing, CommandError> {
    let mut out = Listing {
        userids: Vec::new(),
        filter: GameFilter::Active,
        boards: Vec::new(),
    };
    for w in words {
        if let Ok(f) = w.parse::<GameFilter>() {
            out.filter = f;
        } else if w.starts_with(|c: char| c.is_ascii_digit()) {
            match all_consuming(board_ref).parse(w) {
                Ok((_, r)) => out.boards.push(r),
                Err(_) => return Err(Problem::Board(w.to_string().into()).within(usage)),
            }
        } else {
            out.userids.push(userid(w, usage)?);
        }
    }
    Ok(out)
}
