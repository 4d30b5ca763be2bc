//! What can be wrong with a written turn, in words a player can act on: a
//! [`ParseError`] when the text is not a turn at all (with the byte offset and a caret
//! under the problem), a [`TurnError`] when it reads fine but does not fit the game
//! (naming the part that is wrong and showing how to write it right), and
//! [`NotationError`] for either.

use std::fmt;

use super::written::Part;
use crate::rules::{Action, Color, IllegalAction, Outcome, Point, Row};

/// What the parser expected where it stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// The start of a part: a placement, a ring move, a removal or a pass.
    Part,
    /// The number after the letter of a point.
    PointNumber,
    /// The point a ring moves to, after `-`.
    Destination,
    /// After `x`: a row and a ring, or just the ring.
    RowOrRing,
    /// The second end of a row, after `-`.
    RowEnd,
    /// The `x` between a row and its ring.
    RingAfterRow,
    /// The ring to remove, after the `x` that follows a row.
    Ring,
    /// The second `-` of a pass.
    Pass,
    /// The digits after `#`.
    MoveNumber,
    /// A separator before the next part, `#`, or the end of the turn.
    SeparatorOrEnd,
    /// Nothing more after the turn number.
    End,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Expected::Part => {
                "a placement like e5, a ring move like i8-f5, a removal like xg5-g9xa5, or the pass --"
            }
            Expected::PointNumber => "the number of the point after its letter, like the 5 of e5",
            Expected::Destination => "the point the ring moves to, like f5 in i8-f5",
            Expected::RowOrRing => {
                "after `x` a row and a ring like g5-g9xa5, or just the ring like a5"
            }
            Expected::RowEnd => "the other end of the row, like g9 in xg5-g9xa5",
            Expected::RingAfterRow => "`x` and the ring to remove after the row, like xg5-g9xa5",
            Expected::Ring => "the ring to remove, like a5 in xg5-g9xa5",
            Expected::Pass => "a second `-`: a pass is written --",
            Expected::MoveNumber => "the turn number after `#`, like #12",
            Expected::SeparatorOrEnd => {
                "`;` before the next part, `#` and the turn number, or the end of the turn"
            }
            Expected::End => "the end of the turn after its number",
        })
    }
}

/// What is wrong at the place a [`ParseError`] points to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// Something else was expected here.
    Expected(Expected),
    /// A letter and a number that are not one of the 85 points (as written, lower case).
    NotAPoint {
        /// The text, like `a1` or `z5`.
        text: String,
    },
    /// Two points that are not the ends of five in a line.
    NotARow {
        /// The first end as written.
        from: Point,
        /// The second end as written.
        to: Point,
    },
    /// The number after `#` does not fit.
    MoveNumberTooLarge,
}

/// Why a text is not a turn: where (a byte offset into the input), what was expected
/// there, and the input itself.
///
/// ```
/// use yinsh_pbem::notation::parse_turn;
/// let e = parse_turn("e5-a1").unwrap_err();
/// assert_eq!(e.offset(), 3);
/// assert!(e.to_string().contains("a1 is not a point of the board"));
/// assert_eq!(e.caret(), "e5-a1\n   ^");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.sentence())]
pub struct ParseError {
    input: String,
    offset: usize,
    kind: ParseErrorKind,
}

impl ParseError {
    /// An error at byte `offset` of `input` (clamped to a char boundary inside it).
    pub fn new(input: &str, offset: usize, kind: ParseErrorKind) -> ParseError {
        let mut offset = offset.min(input.len());
        while !input.is_char_boundary(offset) {
            offset -= 1;
        }
        ParseError {
            input: input.to_string(),
            offset,
            kind,
        }
    }

    /// Byte offset of the problem in the input (always on a char boundary).
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// What is wrong there.
    pub fn kind(&self) -> &ParseErrorKind {
        &self.kind
    }

    /// The input on one line and a `^` under the problem on the next.
    pub fn caret(&self) -> String {
        let shown: String = self.input.chars().map(printable).collect();
        let pad: String = self.input[..self.offset]
            .chars()
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        format!("{shown}\n{pad}^")
    }

    /// The character (1-based, counted in chars) the offset points at.
    fn column(&self) -> usize {
        self.input[..self.offset].chars().count() + 1
    }

    fn sentence(&self) -> String {
        let problem = match &self.kind {
            ParseErrorKind::Expected(what) => {
                let rest = &self.input[self.offset..];
                if rest.is_empty() {
                    format!("expected {what}, but the text ends")
                } else {
                    format!("expected {what}, but found `{}`", snippet(rest))
                }
            }
            ParseErrorKind::NotAPoint { text } => not_a_point(text),
            ParseErrorKind::NotARow { from, to } => format!(
                "{from}-{to} is not five points in a line: a row is written by its two end \
                 points, like g5-g9"
            ),
            ParseErrorKind::MoveNumberTooLarge => {
                "the turn number after `#` is too large".to_string()
            }
        };
        let input: String = shorten(&self.input, 60).chars().map(printable).collect();
        format!("at character {} of `{input}`: {problem}", self.column())
    }
}

/// Control characters are shown as a space, so the caret line stays aligned.
fn printable(c: char) -> char {
    if c.is_control() && c != '\t' { ' ' } else { c }
}

/// At most `n` chars of `s`, with `...` when cut.
fn shorten(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n).collect();
        t.push_str("...");
        t
    }
}

/// The next word of `rest`: up to white space or a separator, at most 12 chars.
fn snippet(rest: &str) -> String {
    let word: String = rest
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != ';' && *c != ':')
        .map(printable)
        .collect();
    if word.is_empty() {
        rest.chars().take(1).map(printable).collect()
    } else {
        shorten(&word, 12)
    }
}

/// "a1 is not a point of the board (column a runs from a2 to a5)".
fn not_a_point(text: &str) -> String {
    let shown = shorten(text, 12);
    let letter = text.chars().next().map(|c| c.to_ascii_lowercase());
    let span: Vec<Point> = Point::ALL
        .iter()
        .copied()
        .filter(|p| Some(p.letter()) == letter)
        .collect();
    match (span.first(), span.last()) {
        (Some(lo), Some(hi)) => format!(
            "{shown} is not a point of the board (column {} runs from {lo} to {hi})",
            lo.letter()
        ),
        _ => format!("{shown} is not a point of the board (the columns are a to k)"),
    }
}

/// Which part of a turn an error is about: its 1-based index, how many parts the turn
/// has, and the part itself (printed in its canonical spelling).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartAt {
    /// 1-based index of the part.
    pub index: usize,
    /// Number of parts in the turn.
    pub count: usize,
    /// The part, printed like `xg5-g9xa5`.
    pub part: Part,
}

impl fmt::Display for PartAt {
    /// `part 2 (xa5): ` when the turn has several parts, nothing when it has one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count > 1 {
            write!(f, "part {} ({}): ", self.index, self.part)
        } else {
            Ok(())
        }
    }
}

/// Why a well-written turn does not fit the game. The game is left unchanged. Each
/// message says what to write instead.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TurnError {
    /// The game has already ended.
    #[error("the game is over: {}", outcome_words(*.outcome))]
    GameOver {
        /// How it ended, if it has.
        outcome: Option<Outcome>,
    },
    /// A turn with no parts (only possible for a hand-built `WrittenTurn`).
    #[error("the turn is empty: write a placement like e5, a ring move like i8-f5, or --")]
    Empty,
    /// Rings are still being placed, and the part is not a placement.
    #[error("{part}it is the placement phase: write one empty point, like {example}")]
    PlacementPhase {
        /// The part.
        part: PartAt,
        /// An empty point.
        example: Point,
    },
    /// A pass while rings are being placed: there is always a free point then.
    #[error(
        "{part}you cannot pass while the rings are being placed: place a ring on a free \
         point, like {example}"
    )]
    PassWhilePlacing {
        /// The part.
        part: PartAt,
        /// An empty point.
        example: Point,
    },
    /// The placement point holds a ring.
    #[error("{part}{point} is not empty: place your ring on an empty point, like {example}")]
    Occupied {
        /// The part.
        part: PartAt,
        /// The occupied point.
        point: Point,
        /// An empty point.
        example: Point,
    },
    /// A placement after all rings are placed.
    #[error("{part}all rings are placed: move one of your rings, like {example}")]
    RingsAllPlaced {
        /// The part.
        part: PartAt,
        /// A legal ring move.
        example: Action,
    },
    /// A ring move or removal names a point without a ring of the mover.
    #[error("{part}{point} is not one of your rings (yours: {})", list(yours))]
    NotYourRing {
        /// The part.
        part: PartAt,
        /// The point written.
        point: Point,
        /// The mover's rings.
        yours: Vec<Point>,
    },
    /// The ring move breaks the movement rules (yinsh-rules.md §3, rule 2).
    #[error("{part}{reason}; {}", reach(*.from, reachable))]
    BadMove {
        /// The part.
        part: PartAt,
        /// The engine's reason.
        reason: IllegalAction,
        /// The ring that was to move.
        from: Point,
        /// Where that ring can go.
        reachable: Vec<Point>,
    },
    /// A pass while a ring move exists.
    #[error("{part}you cannot pass: you have a ring move, like {example}")]
    CannotPass {
        /// The part.
        part: PartAt,
        /// A legal ring move.
        example: Action,
    },
    /// A move or removal when the only thing left is to pass (yinsh-rules.md §4).
    #[error("{part}you have no ring move and must pass: write --")]
    MustPass {
        /// The part.
        part: PartAt,
    },
    /// A removal when the mover has no row.
    #[error("{part}you have no row to remove: it is time to move a ring, like {example}")]
    NoRowToRemove {
        /// The part.
        part: PartAt,
        /// A legal ring move.
        example: Action,
    },
    /// Row ends that are not five points in a line.
    #[error(
        "{part}{from}-{to} is not five points in a line: write the row by its two end points{}",
        rows_hint(yours)
    )]
    NotARow {
        /// The part.
        part: PartAt,
        /// First end as written.
        from: Point,
        /// Second end as written.
        to: Point,
        /// The mover's rows.
        yours: Vec<Row>,
    },
    /// The row named is not five markers of the mover's colour.
    #[error("{part}{row} is not a row of yours; {}", rows_are(yours))]
    NotYourRow {
        /// The part.
        part: PartAt,
        /// The row written.
        row: Row,
        /// The mover's rows.
        yours: Vec<Row>,
    },
    /// The shorthand `x<ring>` while the mover has several rows.
    #[error(
        "{part}{} rows of yours exist, write the row: {}",
        number_word(rows.len()),
        alternatives(rows, &ring.to_string())
    )]
    AmbiguousRemoval {
        /// The part.
        part: PartAt,
        /// The ring written.
        ring: Point,
        /// The mover's rows.
        rows: Vec<Row>,
    },
    /// Something other than a removal while rows the opponent made are owed
    /// (yinsh-rules.md §3, rule 6).
    #[error(
        "{part}you must first remove the {} your opponent made for you: {};<your move> \
         (your rings: {})",
        row_or_rows(rows),
        alternatives(rows, "<ring>"),
        list(rings)
    )]
    OwedRemovalFirst {
        /// The part.
        part: PartAt,
        /// The rows owed.
        rows: Vec<Row>,
        /// The mover's rings.
        rings: Vec<Point>,
    },
    /// Something other than a removal right after a move that made a row of the mover.
    #[error(
        "{part}your move made the {} {}: remove it first with {} (your rings: {})",
        row_or_rows(rows),
        and_list(rows),
        alternatives(rows, "<ring>"),
        list(rings)
    )]
    RemovalNotNext {
        /// The part.
        part: PartAt,
        /// The mover's rows.
        rows: Vec<Row>,
        /// The mover's rings.
        rings: Vec<Point>,
    },
    /// The turn ends with a row of the mover still on the board.
    #[error(
        "{part}{} {} {}: add ;{} (your rings: {})",
        if *own_move { "your move made the" } else { "your opponent made for you the" },
        row_or_rows(rows),
        and_list(rows),
        alternatives_with(rows, "<ring>", " or ;"),
        list(rings)
    )]
    RemovalMissing {
        /// The last part of the turn.
        part: PartAt,
        /// True after the mover's own ring move, false for rows owed at the start.
        own_move: bool,
        /// The mover's rows.
        rows: Vec<Row>,
        /// The mover's rings.
        rings: Vec<Point>,
    },
    /// Only removals were written, and a ring move is still due.
    #[error("{part}after your removals you must still move a ring: add ;{example} or another move")]
    MoveMissing {
        /// The last part of the turn.
        part: PartAt,
        /// A legal ring move.
        example: Action,
    },
    /// Parts after the turn (or the game) was complete.
    #[error(
        "the {} after {after}{}; remove the extra {} `{extra}`",
        if ended.is_some() { "game is over" } else { "turn is complete" },
        ended.map(|o| format!(" ({})", outcome_words(Some(o)))).unwrap_or_default(),
        if *count == 1 { "part" } else { "parts" }
    )]
    ExtraParts {
        /// The last part that belongs to the turn.
        after: String,
        /// The extra parts, joined by `;`.
        extra: String,
        /// How many extra parts.
        count: usize,
        /// How the game ended, when it did.
        ended: Option<Outcome>,
    },
    /// Any other refusal by the engine.
    #[error("{part}{reason}")]
    Illegal {
        /// The part.
        part: PartAt,
        /// The engine's reason.
        reason: IllegalAction,
    },
}

/// A turn that cannot be read, or cannot be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// The text is not a turn.
    #[error(transparent)]
    Parse(#[from] ParseError),
    /// The turn does not fit the game.
    #[error(transparent)]
    Turn(#[from] TurnError),
}

fn outcome_words(outcome: Option<Outcome>) -> String {
    match outcome {
        Some(Outcome::Win(Color::White)) => "White won".to_string(),
        Some(Outcome::Win(Color::Black)) => "Black won".to_string(),
        Some(Outcome::Draw) => "it ended in a draw".to_string(),
        None => "it has ended".to_string(),
    }
}

/// `a2, b3, c4` (or `none`).
pub(super) fn list<T: fmt::Display>(items: &[T]) -> String {
    if items.is_empty() {
        return "none".to_string();
    }
    items
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `b2-b6`, `b2-b6 and c3-g3`, `a, b and c`.
fn and_list<T: fmt::Display>(items: &[T]) -> String {
    let words: Vec<String> = items.iter().map(|i| i.to_string()).collect();
    match words.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// `xb2-b6x<ring> or xc3-g3x<ring>`.
fn alternatives(rows: &[Row], ring: &str) -> String {
    alternatives_with(rows, ring, " or ")
}

fn alternatives_with(rows: &[Row], ring: &str, or: &str) -> String {
    rows.iter()
        .map(|r| format!("x{r}x{ring}"))
        .collect::<Vec<_>>()
        .join(or)
}

fn row_or_rows(rows: &[Row]) -> &'static str {
    if rows.len() == 1 { "row" } else { "rows" }
}

/// `your rows are b2-b6 and c3-g3`, `your row is b2-b6`, `you have no row`.
fn rows_are(rows: &[Row]) -> String {
    match rows.len() {
        0 => "you have no row".to_string(),
        1 => format!("your row is {}", and_list(rows)),
        _ => format!("your rows are {}", and_list(rows)),
    }
}

fn rows_hint(rows: &[Row]) -> String {
    if rows.is_empty() {
        ", like g5-g9".to_string()
    } else {
        format!("; {}", rows_are(rows))
    }
}

fn number_word(n: usize) -> String {
    const WORDS: [&str; 10] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| w.to_string())
}

/// "the ring at e5 can reach e6, f6" / "the ring at e5 cannot move".
fn reach(from: Point, reachable: &[Point]) -> String {
    if reachable.is_empty() {
        format!("the ring at {from} cannot move now: move another ring")
    } else {
        format!("the ring at {from} can reach {}", list(reachable))
    }
}
