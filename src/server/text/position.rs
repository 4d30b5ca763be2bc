//! The position in words (issue 47 item 12): each side's rings and markers by point,
//! and the rings each side removed, a line each, for readers who cannot see the
//! picture (a screen reader, a proportional font). The board mail's HTML part shows
//! these lines; the game page shows them for the position now, and `board.js` writes
//! them the same way for each position it steps to. The text part of every board
//! mail (and of an error mail that shows the board) has them under the ASCII board,
//! with the last move and whose turn it is ([`words_section`], issue 47 item 8): what
//! reads in any font.

use crate::rules::{Color, EndReason, Game, Piece, Point};
use crate::server::game::record::{LiveGame, ReplayError};

use super::ending::{ending_line, status_line};
use super::last_move::last_move_line;

/// The heading of [`words_section`].
pub const IN_WORDS: &str = "The position in words:";

/// The text part's section under the ASCII board of `game`, the position of `live`
/// after its first `upto` turns: [`IN_WORDS`], then a list item for each line of
/// [`position_in_words`], the last move and whose turn it is (or how the game
/// ended), in sentences that read the same in any font.
pub fn words_section(live: &LiveGame, game: &Game, upto: usize) -> Result<String, ReplayError> {
    let mut out = format!("\n{IN_WORDS}\n");
    let last = last_move_line(live.file(), upto)?;
    // An agreed draw is told by its ending line alone, as at the top of the mail.
    let turn = match game.ending() {
        Some(e) if e.reason == EndReason::Agreement => ending_line(live, game),
        _ => Some(status_line(live, game)),
    };
    let lines = position_in_words(game).into_iter().chain(last).chain(turn);
    for line in lines {
        out.push_str("- ");
        out.push_str(&line);
        out.push('\n');
    }
    Ok(out)
}

/// The lines of `game`'s position: White's rings, White's markers, Black's rings,
/// Black's markers (each a count and the points in the engine's order), then the
/// rings removed.
///
/// ```
/// use yinsh_pbem::notation::play_turn;
/// use yinsh_pbem::rules::{Game, Variant};
/// use yinsh_pbem::server::text::position::position_in_words;
/// let mut game = Game::new(Variant::Normal);
/// play_turn(&mut game, "e5").unwrap();
/// assert_eq!(position_in_words(&game), [
///     "White's rings (1): e5.",
///     "White's markers: none.",
///     "Black's rings: none.",
///     "Black's markers: none.",
///     "Rings removed: White 0, Black 0.",
/// ]);
/// ```
pub fn position_in_words(game: &Game) -> Vec<String> {
    let mut out = Vec::with_capacity(5);
    for color in Color::BOTH {
        for (what, piece) in [
            ("rings", Piece::Ring(color)),
            ("markers", Piece::Marker(color)),
        ] {
            let points: Vec<String> = Point::ALL
                .iter()
                .filter(|&&p| game.piece_at(p) == Some(piece))
                .map(Point::to_string)
                .collect();
            out.push(listed(&format!("{color}'s {what}"), &points));
        }
    }
    out.push(format!(
        "Rings removed: White {}, Black {}.",
        game.rings_removed(Color::White),
        game.rings_removed(Color::Black)
    ));
    out
}

/// One line of [`position_in_words`]: `what`, the count and the points, or none.
fn listed(what: &str, points: &[String]) -> String {
    if points.is_empty() {
        format!("{what}: none.")
    } else {
        format!("{what} ({}): {}.", points.len(), points.join(", "))
    }
}
