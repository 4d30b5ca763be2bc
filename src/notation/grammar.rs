//! The nom grammar of one written turn (yinsh-rules.md §5), one function per rule with
//! the rule written above it. Nothing here is public outside `notation`: the rest of
//! the crate sees [`parse_turn`](super::parse_turn) and [`ParseError`] only.
//!
//! ```text
//! turn      = ws part { sep part } [ moveno ] ws EOF
//! part      = pass | removal | placement_or_move
//! pass      = "-" "-"
//! removal   = ("x" | "X") ( row ("x" | "X") point | point )
//! row       = point "-" point                  (* five in a line, ends in either order *)
//! placement_or_move = point [ "-" point ]
//! point     = letter digit { digit }           (* one of the 85 points, any case *)
//! sep       = ws (";" | ":") ws
//! moveno    = ws "#" ws digit { digit }
//! ws        = { white space }
//! ```

use nom::branch::alt;
use nom::bytes::complete::{take_while, take_while1};
use nom::character::complete::{char, one_of, satisfy};
use nom::combinator::{cut, eof, opt};
use nom::error::{ErrorKind, ParseError as NomParseError};
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::error::{Expected, ParseError, ParseErrorKind};
use super::written::{Part, WrittenTurn};
use crate::rules::{Point, Row};

/// The grammar's error: where it stopped, and what was wrong when a rule knows
/// (`None` for nom's own failures, which the enclosing rule names).
#[derive(Debug)]
pub(crate) struct GrammarError<'a> {
    rest: &'a str,
    kind: Option<ParseErrorKind>,
}

impl<'a> NomParseError<&'a str> for GrammarError<'a> {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        GrammarError {
            rest: input,
            kind: None,
        }
    }

    fn append(_input: &'a str, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    /// Of two alternatives, keep the one that got further.
    fn or(self, other: Self) -> Self {
        if other.rest.len() < self.rest.len() {
            other
        } else {
            self
        }
    }
}

type Res<'a, O> = IResult<&'a str, O, GrammarError<'a>>;

/// Parse a whole turn; the error carries the offset into `input`.
pub(crate) fn parse(input: &str) -> Result<WrittenTurn, ParseError> {
    match turn(input) {
        Ok((_, t)) => Ok(t),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(ParseError::new(
            input,
            input.len() - e.rest.len(),
            e.kind.unwrap_or(ParseErrorKind::Expected(Expected::Part)),
        )),
        // Only streaming parsers ask for more input; every parser here is complete.
        Err(nom::Err::Incomplete(_)) => Err(ParseError::new(
            input,
            input.len(),
            ParseErrorKind::Expected(Expected::Part),
        )),
    }
}

/// A committed failure at `at`: no other alternative is tried.
fn fail<'a, O>(at: &'a str, kind: ParseErrorKind) -> Res<'a, O> {
    Err(nom::Err::Failure(GrammarError {
        rest: at,
        kind: Some(kind),
    }))
}

/// Run `p`; an error no rule has named yet becomes "expected `what`" where it happened.
fn expect<'a, O>(
    what: Expected,
    mut p: impl Parser<&'a str, Output = O, Error = GrammarError<'a>>,
) -> impl FnMut(&'a str) -> Res<'a, O> {
    move |i: &'a str| {
        p.parse(i).map_err(|e| {
            e.map(|g| GrammarError {
                rest: g.rest,
                kind: g.kind.or(Some(ParseErrorKind::Expected(what))),
            })
        })
    }
}

// turn = ws part { sep part } [ moveno ] ws EOF
fn turn(i: &str) -> Res<'_, WrittenTurn> {
    let (i, _) = ws(i)?;
    let (i, first) = expect(Expected::Part, part)(i)?;
    let (i, more) = many0(preceded(sep, cut(expect(Expected::Part, part)))).parse(i)?;
    let (i, moveno) = opt(moveno).parse(i)?;
    let (i, _) = ws(i)?;
    let end = if moveno.is_some() {
        Expected::End
    } else {
        Expected::SeparatorOrEnd
    };
    let (i, _) = expect(end, eof)(i)?;
    let mut parts = vec![first];
    parts.extend(more);
    Ok((i, WrittenTurn { parts, moveno }))
}

// part = pass | removal | placement_or_move
fn part(i: &str) -> Res<'_, Part> {
    alt((pass, removal, placement_or_move)).parse(i)
}

// pass = "-" "-"
fn pass(i: &str) -> Res<'_, Part> {
    let (i, _) = char('-')(i)?;
    let (i, _) = cut(expect(Expected::Pass, char('-'))).parse(i)?;
    Ok((i, Part::Pass))
}

// removal = ("x" | "X") ( row ("x" | "X") point | point )
fn removal(i: &str) -> Res<'_, Part> {
    let (i, _) = one_of("xX")(i)?;
    let (after_first, first) = cut(expect(Expected::RowOrRing, point)).parse(i)?;
    if after_first.starts_with('-') {
        let (i, ends) = row(i)?;
        let (i, _) = cut(expect(Expected::RingAfterRow, one_of("xX"))).parse(i)?;
        let (i, ring) = cut(expect(Expected::Ring, point)).parse(i)?;
        Ok((
            i,
            Part::Removal {
                row: Some(ends),
                ring,
            },
        ))
    } else {
        Ok((
            after_first,
            Part::Removal {
                row: None,
                ring: first,
            },
        ))
    }
}

// row = point "-" point                  (* five in a line, ends in either order *)
fn row(i: &str) -> Res<'_, (Point, Point)> {
    let start = i;
    let (i, a) = point(i)?;
    let (i, _) = char('-')(i)?;
    let (i, b) = cut(expect(Expected::RowEnd, point)).parse(i)?;
    if Row::from_ends(a, b).is_none() {
        return fail(start, ParseErrorKind::NotARow { from: a, to: b });
    }
    Ok((i, (a, b)))
}

// placement_or_move = point [ "-" point ]
fn placement_or_move(i: &str) -> Res<'_, Part> {
    let (i, from) = point(i)?;
    let (i, to) = opt(preceded(
        char('-'),
        cut(expect(Expected::Destination, point)),
    ))
    .parse(i)?;
    Ok((
        i,
        match to {
            Some(to) => Part::Move { from, to },
            None => Part::Place(from),
        },
    ))
}

// point = letter digit { digit }           (* one of the 85 points, any case *)
fn point(i: &str) -> Res<'_, Point> {
    let start = i;
    let (i, letter) = satisfy(|c| c.is_ascii_alphabetic())(i)?;
    let (i, digits) = cut(expect(
        Expected::PointNumber,
        take_while1(|c: char| c.is_ascii_digit()),
    ))
    .parse(i)?;
    let number = if digits.len() <= 2 {
        digits.parse::<u8>().ok()
    } else {
        None
    };
    match number.and_then(|n| Point::new(letter, n)) {
        Some(p) => Ok((i, p)),
        None => fail(
            start,
            ParseErrorKind::NotAPoint {
                text: format!("{}{digits}", letter.to_ascii_lowercase()),
            },
        ),
    }
}

// sep = ws (";" | ":") ws
fn sep(i: &str) -> Res<'_, char> {
    let (i, _) = ws(i)?;
    let (i, c) = one_of(";:")(i)?;
    let (i, _) = ws(i)?;
    Ok((i, c))
}

// moveno = ws "#" ws digit { digit }
fn moveno(i: &str) -> Res<'_, u32> {
    let (i, _) = ws(i)?;
    let (i, _) = char('#')(i)?;
    let (i, _) = ws(i)?;
    let (rest, digits) = cut(expect(
        Expected::MoveNumber,
        take_while1(|c: char| c.is_ascii_digit()),
    ))
    .parse(i)?;
    match digits.parse::<u32>() {
        Ok(n) => Ok((rest, n)),
        Err(_) => fail(i, ParseErrorKind::MoveNumberTooLarge),
    }
}

// ws = { white space }
fn ws(i: &str) -> Res<'_, &str> {
    take_while(char::is_whitespace)(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> String {
        parse(s).unwrap_or_else(|e| panic!("{s}: {e}")).to_string()
    }

    fn err(s: &str) -> ParseError {
        parse(s).expect_err(s)
    }

    #[test]
    fn each_kind_of_part_parses_section_5() {
        assert_eq!(ok("e5"), "e5");
        assert_eq!(ok("I8-F5"), "i8-f5");
        assert_eq!(ok("xG9-g5XA5"), "xg9-g5xa5");
        assert_eq!(ok("xa5"), "xa5");
        assert_eq!(ok("--"), "--");
        assert_eq!(ok("  xg5-g9xa5 : d3-b3  "), "xg5-g9xa5;d3-b3");
        assert_eq!(
            ok("i8-f5;xg5-g9xa5 ;xb2-b6xc3"),
            "i8-f5;xg5-g9xa5;xb2-b6xc3"
        );
        assert_eq!(ok("e5 #12"), "e5#12");
        assert_eq!(ok("e5# 12 "), "e5#12");
    }

    #[test]
    fn errors_point_at_the_problem() {
        let e = err("e5-a1");
        assert_eq!(e.offset(), 3);
        assert!(
            e.to_string().contains("a1 is not a point of the board"),
            "{e}"
        );
        let e = err("e5 e8");
        assert_eq!(e.offset(), 3);
        assert!(matches!(
            e.kind(),
            ParseErrorKind::Expected(Expected::SeparatorOrEnd)
        ));
        let e = err("xg5-g8xa5");
        assert_eq!(e.offset(), 1);
        assert!(matches!(e.kind(), ParseErrorKind::NotARow { .. }));
        let e = err("e5;");
        assert_eq!(e.offset(), 3);
        assert!(e.to_string().contains("the text ends"), "{e}");
        let e = err("-e");
        assert_eq!(e.offset(), 1);
        assert_eq!(err("").offset(), 0);
        assert!(err("z5").to_string().contains("the columns are a to k"));
        assert_eq!(err("e5#99999999999").offset(), 3);
        assert_eq!(err("xg5-g9").offset(), 6);
        assert_eq!(err("é5").offset(), 0);
        assert_eq!(err("e5-é").offset(), 3);
    }
}
