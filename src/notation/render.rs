//! The ASCII board in the pbmserv layout (pbmserv-reference.md §6) and its status block.
//!
//! The drawing puts point (column index `i`, number `n`) on text line `18 + i - 2n`,
//! character column `4 + 3i`: `.` when empty, `o`/`x` for a White/Black marker and
//! `(o)`/`(x)` for a ring, centred on the point. Number labels sit one step before the
//! start of their row, column letters one step below the foot of their column. The
//! status block under it tells a newcomer the score, the markers, whose turn it is and
//! what they must do, any rows owed, and how a finished game ended. The rules know a
//! game given up only as a resignation; a caller that knows it was a forfeit on time
//! (the server's game record does) says so with [`Forfeit`]. Every line ends in
//! `'\n'` and carries no trailing spaces.

use super::error::list;
use crate::rules::{
    ActionKind, Color, EndReason, Game, Outcome, Piece, Point, RINGS, Row, Variant,
};

/// Names shown for the two sides in the status block.
///
/// ```
/// use yinsh_pbem::notation::render::{SideNames, render_status};
/// use yinsh_pbem::rules::{Game, Variant};
/// let game = Game::new(Variant::Normal);
/// let names = SideNames { white: "alice", black: "bob" };
/// assert!(render_status(&game, &names).contains("White (o) alice: 0 of 5 rings placed"));
/// assert!(render_status(&game, &SideNames::default()).contains("White (o): 0 of 5"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SideNames<'a> {
    /// The name of the White player (userid1, who moves first).
    pub white: &'a str,
    /// The name of the Black player.
    pub black: &'a str,
}

impl Default for SideNames<'_> {
    fn default() -> Self {
        SideNames {
            white: "White",
            black: "Black",
        }
    }
}

impl SideNames<'_> {
    /// The name given for `color`, trimmed, with any inner white space or control
    /// character shown as `_` so that it cannot break the layout.
    fn of(&self, color: Color) -> String {
        let name = match color {
            Color::White => self.white,
            Color::Black => self.black,
        };
        name.trim()
            .chars()
            .map(|c| {
                if c.is_whitespace() || c.is_control() {
                    '_'
                } else {
                    c
                }
            })
            .collect()
    }

    /// Whether `color` has a name of its own (not empty, not just its colour).
    fn has_own_name(&self, color: Color) -> bool {
        let name = self.of(color);
        !name.is_empty() && !name.eq_ignore_ascii_case(&color.to_string())
    }

    /// `bob (Black)`, or just `Black` when the side has no name of its own.
    fn who(&self, color: Color) -> String {
        if self.has_own_name(color) {
            format!("{} ({color})", self.of(color))
        } else {
            color.to_string()
        }
    }
}

/// A game the rules see as resigned was in fact forfeited on time: the side that
/// resigned made no move in `days` days. Given to [`render_status_with`] by a caller
/// that knows it (the rules have no clock).
///
/// ```
/// use yinsh_pbem::notation::render::{Forfeit, SideNames, render_status_with};
/// use yinsh_pbem::rules::{Color, Game, Variant};
/// let mut game = Game::new(Variant::Normal);
/// game.resign(Color::White).unwrap();
/// let names = SideNames { white: "alice", black: "bob" };
/// let status = render_status_with(&game, &names, Some(Forfeit { days: 21 }));
/// assert!(status.contains(
///     "Game over: alice (White) forfeited: no move in 21 days; bob (Black) wins"
/// ));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Forfeit {
    /// The days without a move after which the game was forfeited.
    pub days: u32,
}

/// Text lines in the drawing (line 0 holds the `11` label, line 23 the `F`).
const LINES: usize = 24;
/// Enough characters for the widest line (the `K` label and rings on column k).
const WIDTH: usize = 37;
/// Wrap status lines to this many characters.
const STATUS_WIDTH: usize = 72;

/// The marker symbol of a side.
fn symbol(color: Color) -> char {
    match color {
        Color::White => 'o',
        Color::Black => 'x',
    }
}

/// Text line and character column of grid position (column index `i`, number `n`);
/// `i` may be -1 and `n` 0 for the labels just outside the board.
fn position(i: i32, n: i32) -> (usize, usize) {
    let line = 18 + i - 2 * n;
    let col = 4 + 3 * i;
    debug_assert!((0..LINES as i32).contains(&line) && (0..WIDTH as i32).contains(&col));
    (line.max(0) as usize, col.max(0) as usize)
}

/// The board drawing alone (pbmserv layout), every line ending in `'\n'`, no trailing
/// spaces.
///
/// ```
/// use yinsh_pbem::notation::render::render_board;
/// use yinsh_pbem::rules::{Game, Variant};
/// let board = render_board(&Game::new(Variant::Normal));
/// assert_eq!(board.lines().count(), 24);
/// assert_eq!(board.matches('.').count(), 85);
/// ```
pub fn render_board(game: &Game) -> String {
    /// Where a text goes at a point's column: centred on it, or starting there.
    #[derive(Clone, Copy)]
    enum Place {
        Centred,
        From,
    }
    let mut grid = [[b' '; WIDTH]; LINES];
    let mut put = |i: i32, n: i32, text: &[u8], at: Place| {
        let (line, col) = position(i, n);
        let start = match at {
            Place::Centred => col - text.len() / 2,
            Place::From => col,
        };
        grid[line][start..start + text.len()].copy_from_slice(text);
    };
    // Number labels: one step before the first point of their row (rows 1 and 6
    // start at the missing corners a1 and a6, so their labels sit left of those).
    for n in 1..=11 {
        put((n - 7).max(-1), n, n.to_string().as_bytes(), Place::From);
    }
    // Column letters: one step below the lowest point of the column (counting the
    // missing corners a1, f1 and k6 as the foot of their columns).
    for (i, letter) in (b'A'..=b'K').enumerate() {
        let i = i as i32;
        put(i, (i - 5).max(0), &[letter], Place::From);
    }
    for p in Point::ALL {
        let (i, n) = (i32::from(p.column()), i32::from(p.number()));
        match game.piece_at(p) {
            None => put(i, n, b".", Place::Centred),
            Some(Piece::Marker(c)) => put(i, n, &[symbol(c) as u8], Place::Centred),
            Some(Piece::Ring(c)) => put(i, n, &[b'(', symbol(c) as u8, b')'], Place::Centred),
        }
    }
    let mut out = String::with_capacity(LINES * (WIDTH + 1));
    for line in &grid {
        // The grid holds ASCII only.
        out.push_str(String::from_utf8_lossy(line).trim_end());
        out.push('\n');
    }
    out
}

/// The status block alone: the variant, each side's score, the markers, then whose
/// turn it is and what they must do (with any rows to remove), or how the game ended.
///
/// ```
/// use yinsh_pbem::notation::render::{SideNames, render_status};
/// use yinsh_pbem::rules::{Game, Variant};
/// let names = SideNames { white: "alice", black: "bob" };
/// let status = render_status(&Game::new(Variant::Normal), &names);
/// assert!(status.contains("To move: alice (White) - place a ring"));
/// ```
pub fn render_status(game: &Game, names: &SideNames) -> String {
    render_status_with(game, names, None)
}

/// [`render_status`], saying of a resigned game that it was a forfeit on time when
/// `forfeit` is given (it is ignored for any other ending).
pub fn render_status_with(game: &Game, names: &SideNames, forfeit: Option<Forfeit>) -> String {
    let mut out = String::new();
    let to_win = game.variant().rings_to_win();
    push_wrapped(
        &mut out,
        &match game.variant() {
            Variant::Normal => format!("Normal game: the first side to remove {to_win} rings wins"),
            Variant::Blitz => "Blitz game: the first side to remove a ring wins".to_string(),
        },
    );
    push_side_lines(&mut out, game, names);
    let on_board = game.markers_on_board();
    push_wrapped(
        &mut out,
        &format!(
            "Markers: {on_board} on the board ({} o, {} x), {} in the pool",
            game.markers_of(Color::White),
            game.markers_of(Color::Black),
            game.markers_in_pool()
        ),
    );
    match game.to_act() {
        Some(side) => push_turn(&mut out, game, names, side),
        None => push_ending(&mut out, game, names, forfeit),
    }
    out
}

/// The board, a blank line, then the status block.
///
/// ```
/// use yinsh_pbem::notation::render::{SideNames, render, render_board, render_status};
/// use yinsh_pbem::rules::{Game, Variant};
/// let game = Game::new(Variant::Blitz);
/// let names = SideNames::default();
/// let text = render(&game, &names);
/// assert_eq!(text, format!("{}\n{}", render_board(&game), render_status(&game, &names)));
/// ```
pub fn render(game: &Game, names: &SideNames) -> String {
    render_with(game, names, None)
}

/// [`render`] with the status block of [`render_status_with`].
pub fn render_with(game: &Game, names: &SideNames, forfeit: Option<Forfeit>) -> String {
    format!(
        "{}\n{}",
        render_board(game),
        render_status_with(game, names, forfeit)
    )
}

/// `1 ring` / `2 rings`.
fn rings(n: u8) -> String {
    if n == 1 {
        "1 ring".to_string()
    } else {
        format!("{n} rings")
    }
}

/// Whether all ten rings are placed (or some already removed).
fn placement_over(game: &Game) -> bool {
    Color::BOTH
        .iter()
        .map(|&c| game.rings_on_board(c) + game.rings_removed(c))
        .sum::<u8>()
        >= 2 * RINGS
}

/// One line per side, their labels padded so the figures line up:
/// `White (o) alice: 1 ring removed, 2 more to win`.
fn push_side_lines(out: &mut String, game: &Game, names: &SideNames) {
    let labels = Color::BOTH.map(|c| {
        if names.has_own_name(c) {
            format!("{c} ({}) {}:", symbol(c), names.of(c))
        } else {
            format!("{c} ({}):", symbol(c))
        }
    });
    let width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let to_win = game.variant().rings_to_win();
    for (c, label) in Color::BOTH.into_iter().zip(&labels) {
        let removed = game.rings_removed(c);
        let figures = if !placement_over(game) {
            format!("{} of 5 rings placed", game.rings_on_board(c))
        } else if game.is_over() {
            format!("{} removed", rings(removed))
        } else {
            let more = to_win.saturating_sub(removed);
            format!("{} removed, {more} more to win", rings(removed))
        };
        push_wrapped(out, &format!("{label:<width$} {figures}"));
    }
}

/// Whose turn it is and what they must do, with the rows they must choose from and
/// any rows left for the other side's next turn.
fn push_turn(out: &mut String, game: &Game, names: &SideNames, side: Color) {
    let s = symbol(side);
    let other = side.other();
    let own_move = game.removing_after_own_move() == Some(true);
    let task = match game.expects() {
        Some(ActionKind::Place) => "place a ring on any empty point".to_string(),
        Some(ActionKind::Move) => format!("move a ring; it leaves an {s} marker behind"),
        Some(ActionKind::Pass) => "pass (--), as none of their rings can move".to_string(),
        Some(ActionKind::RemoveRow) if own_move => {
            format!("remove a row of five {s} markers, then one of their own rings")
        }
        Some(ActionKind::RemoveRow) => format!(
            "{other}'s last move made a row for {side}: before moving, remove a row \
             of five {s} markers, then one of their own rings"
        ),
        Some(ActionKind::RemoveRing) if own_move => "now remove one of their own rings".to_string(),
        Some(ActionKind::RemoveRing) => {
            "now remove one of their own rings, then move a ring".to_string()
        }
        None => return,
    };
    push_wrapped(out, &format!("To move: {} - {task}", names.who(side)));
    if game.expects() == Some(ActionKind::RemoveRow) {
        let rows: Vec<Row> = game.rows(side).collect();
        let label = if rows.len() == 1 {
            "Row to remove:"
        } else {
            "Rows to choose from:"
        };
        push_wrapped(out, &format!("{label} {}", list(&rows)));
    }
    let pending: Vec<Row> = game.rows(other).collect();
    if !pending.is_empty() {
        let kind = if pending.len() == 1 { "Row" } else { "Rows" };
        push_wrapped(
            out,
            &format!(
                "{kind} of {} for {} to remove at the start of their turn: {}",
                symbol(other),
                names.who(other),
                list(&pending)
            ),
        );
    }
}

/// How the game ended and why.
fn push_ending(out: &mut String, game: &Game, names: &SideNames, forfeit: Option<Forfeit>) {
    let Some(ending) = game.ending() else {
        return;
    };
    let removed = |c: Color| game.rings_removed(c);
    let by_count = match ending.outcome {
        Outcome::Win(c) => format!(
            "{} wins on rings removed, {} to {}",
            names.who(c),
            removed(c),
            removed(c.other())
        ),
        Outcome::Draw => format!("a draw on rings removed, {} each", removed(Color::White)),
    };
    let text = match (ending.reason, ending.outcome) {
        (EndReason::RingsRemoved, Outcome::Win(c)) => format!(
            "Game over: {} wins by removing {}",
            names.who(c),
            rings(removed(c))
        ),
        (EndReason::Resignation, Outcome::Win(c)) if forfeit.is_some() => {
            let days = forfeit.map_or(0, |f| f.days);
            format!(
                "Game over: {} forfeited: no move in {days} day{}; {} wins",
                names.who(c.other()),
                if days == 1 { "" } else { "s" },
                names.who(c)
            )
        }
        (EndReason::Resignation, Outcome::Win(c)) => format!(
            "Game over: {} resigned, so {} wins",
            names.who(c.other()),
            names.who(c)
        ),
        (EndReason::MarkersExhausted, _) => {
            format!("Game over: the marker pool is empty; {by_count}")
        }
        (EndReason::BothBlocked, _) => {
            format!("Game over: neither side can move a ring; {by_count}")
        }
        (EndReason::Agreement, _) => "Game over: a draw agreed by the players".to_string(),
        // Neither can end in a draw; say so plainly should the engine ever allow it.
        (EndReason::RingsRemoved | EndReason::Resignation, Outcome::Draw) => {
            "Game over: a draw".to_string()
        }
    };
    push_wrapped(out, &text);
}

/// Append `text` as lines of at most `STATUS_WIDTH` characters, breaking at the last
/// space that fits (a longer single word stays whole); continuation lines are
/// indented by two spaces. Spaces inside a line are kept as given.
fn push_wrapped(out: &mut String, text: &str) {
    let mut rest = text.trim();
    let mut indent = "";
    loop {
        let room = STATUS_WIDTH - indent.len();
        if rest.chars().count() <= room {
            out.push_str(indent);
            out.push_str(rest);
            out.push('\n');
            return;
        }
        // Byte offset of the first character that does not fit.
        let limit = rest.char_indices().nth(room).map_or(rest.len(), |(b, _)| b);
        let cut = if rest[limit..].starts_with(' ') {
            Some(limit)
        } else {
            rest[..limit].rfind(' ')
        }
        .or_else(|| rest.find(' '))
        .unwrap_or(rest.len());
        out.push_str(indent);
        out.push_str(rest[..cut].trim_end());
        out.push('\n');
        rest = rest[cut..].trim_start();
        if rest.is_empty() {
            return;
        }
        indent = "  ";
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wrapped(text: &str) -> String {
        let mut out = String::new();
        push_wrapped(&mut out, text);
        out
    }

    #[test]
    fn short_text_is_one_line_with_its_inner_spaces_kept() {
        assert_eq!(
            wrapped("Black (x) bob:   0 rings"),
            "Black (x) bob:   0 rings\n"
        );
    }

    #[test]
    fn long_text_breaks_at_the_last_space_that_fits_and_indents() {
        let text = format!("{} {}", "a".repeat(60), "b".repeat(20));
        assert_eq!(
            wrapped(&text),
            format!("{}\n  {}\n", "a".repeat(60), "b".repeat(20))
        );
        let exact = format!("{} {}", "a".repeat(60), "b".repeat(11));
        assert_eq!(wrapped(&exact), format!("{exact}\n"));
    }

    #[test]
    fn an_overlong_word_stays_whole_and_multibyte_text_never_splits() {
        let word = "é".repeat(100);
        assert_eq!(
            wrapped(&format!("x {word} y")),
            format!("x\n  {word}\n  y\n")
        );
        for n in 60..80 {
            let text = format!("{} ü {}", "ä".repeat(n), "ö".repeat(5));
            for line in wrapped(&text).lines() {
                assert!(line.chars().count() <= STATUS_WIDTH || !line.trim().contains(' '));
                assert_eq!(line, line.trim_end());
            }
        }
    }

    #[test]
    fn names_cannot_break_lines() {
        let names = SideNames {
            white: " al\nice ",
            black: "BLACK",
        };
        assert_eq!(names.who(Color::White), "al_ice (White)");
        assert!(!names.has_own_name(Color::Black));
        let swapped = SideNames {
            white: "black",
            black: "white",
        };
        assert_eq!(swapped.who(Color::Black), "white (Black)");
        assert!(!SideNames::default().has_own_name(Color::White));
    }
}
