//! The text of the mails the server sends (pbmserv-reference.md §3-§4): board
//! mails with their move list, board, the position in words and comment, error
//! mails with the original message quoted, and the dates in them.

use std::fmt::Write as _;

use crate::notation::render::{Forfeit, SideNames, render_with};
use crate::rules::{ActionKind, Color, EndReason, Game};

use crate::server::game::clock::deadlines;
use crate::server::game::extra;
use crate::server::game::record::{self, LiveGame, ReplayError};
use crate::server::game::vacation::Vacations;
use crate::server::model::{self, UserId};
use crate::server::store::SubjectStyle;

use super::clock::{clock_line, stored_clock_line};
use super::dates::{format_date, format_duration};
use super::last_move::{before_robots_line, forced_passes, last_move_line};
use super::new_game;
use super::position::words_section;
use super::seeks;

pub use super::ending::{ending_line, offer_line, status_line};

/// 60 stars: the rule between sections of a board mail.
pub const STARS: &str = "************************************************************";

/// What happened that a board mail reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A new game.
    NewGame,
    /// A turn (or several, with automatic passes) was played.
    Moved,
    /// A player resigned.
    Resigned(UserId),
    /// A player forfeited the game: no move in this many days (tick).
    Forfeited(UserId, u32),
    /// Just showing the board.
    Show,
    /// Something else happened, told in this line (draw offered, undo accepted,
    /// forfeit...).
    Note(String),
    /// A turn was answered at once by the opponent's queued move (or moves), told in
    /// `notes`; the mails also draw the board as it was after that turn, the first
    /// `before` turns of the game, which no mail showed (`docs/mail-formats.md`).
    Queued {
        /// What was played, a line each (a lapsed offer too).
        notes: String,
        /// How many turns the game had before the first queued move.
        before: usize,
    },
}

/// The ASCII board of `game` (a position of `live`) with its status block, the
/// players named; a game `live` records as forfeited says so (the rules know only a
/// resignation).
pub fn drawing(live: &LiveGame, game: &Game) -> String {
    let names = SideNames {
        white: live.player(Color::White).as_str(),
        black: live.player(Color::Black).as_str(),
    };
    let forfeit = live
        .file()
        .ended
        .as_ref()
        .filter(|e| e.reason == model::EndReason::Forfeit)
        .map(|_| Forfeit {
            days: extra::forfeit_days(live.file()),
        });
    render_with(game, &names, forfeit)
}

/// The move list in two columns (White, Black): a header of side names, a line of
/// userids, then ` %3d %-9s` per turn. `last_rounds` keeps only the last rounds.
pub fn move_list(live: &LiveGame, upto: usize, last_rounds: Option<usize>) -> String {
    let turns = &live.file().turns[..upto.min(live.file().turns.len())];
    let text = |k: usize| {
        let t = &turns[k];
        if t.auto {
            format!("{} (Auto)", t.text)
        } else {
            t.text.clone()
        }
    };
    let rounds = turns.len().div_ceil(2);
    let first_round = last_rounds.map_or(0, |n| rounds.saturating_sub(n));
    let width = (first_round * 2..turns.len())
        .step_by(2)
        .map(|k| text(k).len())
        .max()
        .unwrap_or(0)
        .max(9);
    let mut out = String::new();
    let _ = writeln!(out, "     {:<w$}     Black", "White", w = width);
    let _ = writeln!(
        out,
        "     {:<w$}     {}",
        live.player(Color::White),
        live.player(Color::Black),
        w = width
    );
    for r in first_round..rounds {
        let mut line = format!(" {:>3} {:<w$}", 2 * r + 1, text(2 * r), w = width);
        if 2 * r + 1 < turns.len() {
            let _ = write!(line, " {:>3} {}", 2 * r + 2, text(2 * r + 1));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// What the player to move must write, as a template for the Subject: the exact
/// shape the turn takes, with the row to remove filled in when there is only one,
/// and no ring move after a removal that wins the game.
///
/// ```
/// use yinsh_pbem::rules::{Game, Variant};
/// use yinsh_pbem::server::text::reply::move_template;
/// assert_eq!(move_template(&Game::new(Variant::Normal)), "<point>");
/// ```
pub fn move_template(game: &Game) -> String {
    match (
        game.expects(),
        game.removing_after_own_move(),
        game.to_act(),
    ) {
        (Some(ActionKind::Place), ..) => "<point>".to_string(),
        (Some(ActionKind::RemoveRow | ActionKind::RemoveRing), Some(false), Some(side)) => {
            let rows: Vec<_> = game.rows(side).collect();
            let row = match rows.as_slice() {
                [one] => one.to_string(),
                _ => "<row>".to_string(),
            };
            if game.rings_removed(side) + 1 >= game.variant().rings_to_win() {
                format!("x{row}x<ring>")
            } else {
                format!("x{row}x<ring>;<from>-<to>")
            }
        }
        (Some(ActionKind::Pass), ..) => "--".to_string(),
        _ => "<from>-<to>".to_string(),
    }
}

/// Time each side took over its turns (from the previous turn, or the start); when
/// the game ended off the board (resignation, forfeit, agreed draw), the time from
/// the last turn to the end counts for the side that was to move.
/// Time on vacation (`vacations`) does not count.
pub fn time_used(live: &LiveGame, vacations: Option<&Vacations>) -> [u64; 2] {
    let players = [live.file().white.as_str(), live.file().black.as_str()];
    let span = |side: usize, from: u64, to: u64| {
        to.saturating_sub(from)
            .saturating_sub(vacations.map_or(0, |v| v.paused(players[side], from, to)))
    };
    let mut used = [0u64; 2];
    let mut last = live.file().created;
    for (k, t) in live.file().turns.iter().enumerate() {
        used[k % 2] += span(k % 2, last, t.at);
        last = t.at;
    }
    if let Some(e) = &live.file().ended {
        let side = live.file().turns.len() % 2;
        used[side] += span(side, last, e.at);
    }
    used
}

/// The body of a board mail for one reader.
#[derive(Clone)]
pub struct BoardMail<'a> {
    /// The game.
    pub live: &'a LiveGame,
    /// Show it as it was after this many turns (`show 104#12`); all when `None`.
    pub at_turn: Option<usize>,
    /// What happened.
    pub event: Event,
    /// The comment sent with the command, and who wrote it.
    pub comment: Option<(&'a str, &'a str)>,
    /// The reader, when a player: the player to move gets the command to send next.
    pub reader: Option<&'a UserId>,
    /// Watchers of the game.
    pub subscribers: &'a [UserId],
    /// Rating lines of a finished game (`ending::rating_lines`).
    pub ratings: &'a [String],
    /// The move the reader has queued, shown to them only.
    pub queued: Option<&'a str>,
    /// The players' vacations, left out of the time used and of the deadlines; the
    /// deadlines of the player to move are told only when they are given.
    pub vacations: Option<&'a Vacations>,
    /// The game as stored, when `live` is only a preview of it (`submit`,
    /// `preview`): its clock is the one told, since nothing was played.
    pub stored: Option<&'a LiveGame>,
    /// The text for an address nobody confirmed: who started the game for its
    /// players is not named (a stranger chose that address).
    pub withhold: bool,
    /// The Subject the reader chose, which a new game's mail explains.
    pub subject: SubjectStyle,
}

impl<'a> BoardMail<'a> {
    /// A plain showing of the game as it is now, to nobody in particular; set the other
    /// fields with struct update syntax.
    pub fn new(live: &'a LiveGame) -> BoardMail<'a> {
        BoardMail {
            live,
            at_turn: None,
            event: Event::Show,
            comment: None,
            reader: None,
            subscribers: &[],
            ratings: &[],
            queued: None,
            vacations: None,
            stored: None,
            withhold: false,
            subject: SubjectStyle::Moving,
        }
    }

    /// The mail body.
    pub fn body(&self) -> Result<String, ReplayError> {
        let live = self.live;
        let historic = self.at_turn.filter(|&n| n < live.file().turns.len());
        let game = match historic {
            Some(n) => record::replay_turns(live.file(), Some(n))?,
            None => *live.game(),
        };
        let upto = historic.unwrap_or(live.file().turns.len());
        let mut out = String::new();
        self.write_status(&mut out, &game, historic)?;
        out.push('\n');
        let full = matches!(self.event, Event::NewGame | Event::Show) || game.is_over();
        let last = if full { None } else { Some(4) };
        out.push_str(&move_list(live, upto, last));
        out.push('\n');
        out.push_str(&drawing(live, &game));
        out.push_str(&words_section(live, &game, upto)?);
        self.write_after_board(&mut out, historic)?;
        if historic.is_none() {
            self.write_turn_or_end(&mut out, &game);
        }
        if self.event == Event::NewGame && self.reader.is_some() {
            out.push_str(&new_game::subject_note(self.subject));
        }
        Ok(out)
    }

    /// The status part of [`body`](BoardMail::body): what happened, whose turn it is,
    /// the ending, ratings, the last move, the clock, who may still decline.
    fn write_status(
        &self,
        out: &mut String,
        game: &Game,
        historic: Option<usize>,
    ) -> Result<(), ReplayError> {
        let live = self.live;
        self.write_event(out);
        let upto = historic.unwrap_or(live.file().turns.len());
        if historic.is_none() {
            out.push_str(&forced_passes(live.file()));
        }
        if let Some(n) = historic {
            let total = live.file().turns.len();
            let _ = writeln!(
                out,
                "As it was after move {n} (the game has {total} move{}).",
                if total == 1 { "" } else { "s" }
            );
        }
        // An agreed draw is told by its ending line alone (issue 26 finding 19).
        let agreed = game
            .ending()
            .is_some_and(|e| e.reason == EndReason::Agreement);
        if !agreed {
            let _ = writeln!(out, "{}", status_line(live, game));
        }
        if let Some(line) = seeks::unrated_line(live.file()) {
            let _ = writeln!(out, "{line}");
        }
        if let Some(robot) = live.player_to_move().filter(|p| p.robot_level().is_some())
            && historic.is_none()
        {
            let _ = writeln!(
                out,
                "{robot} is a robot: its move follows in a mail of its own."
            );
        }
        if let Some(why) = ending_line(live, game).filter(|_| historic.is_none())
            && !matches!(self.event, Event::Resigned(_) | Event::Forfeited(..))
        {
            let _ = writeln!(out, "{why}");
        }
        if historic.is_none() {
            for line in self.ratings {
                let _ = writeln!(out, "{line}");
            }
        }
        if let Some(line) = last_move_line(live.file(), upto)? {
            let _ = writeln!(out, "{line}");
        }
        if let Some(line) = before_robots_line(live.file(), upto)?.filter(|_| historic.is_none()) {
            let _ = writeln!(out, "{line}");
        }
        let clocked = self.stored.unwrap_or(live);
        if let Some(d) = self
            .vacations
            .filter(|_| historic.is_none())
            .and_then(|v| deadlines(clocked, v))
        {
            let line = match self.stored {
                Some(_) => stored_clock_line(clocked, &d),
                None => clock_line(clocked, &d),
            };
            let _ = writeln!(out, "{line}");
        }
        if let Some(lines) = self.decline_lines().filter(|_| historic.is_none()) {
            out.push_str(&lines);
        }
        // A mail that only shows the game (`show`, an error mail) tells the offer
        // waiting; the mail of the offer says it in its own words.
        if let Some(line) =
            offer_line(live).filter(|_| self.event == Event::Show && historic.is_none())
        {
            let _ = writeln!(out, "{line}");
        }
        Ok(())
    }

    /// The first lines of [`write_status`](BoardMail::write_status): the board, and
    /// what happened (a new game, a resignation, a note).
    fn write_event(&self, out: &mut String) {
        let board = self.live.board();
        if let Event::NewGame = self.event {
            let _ = writeln!(out, "A new Yinsh board ({board}) has been started");
            out.push_str(&new_game::lines(
                self.live.file(),
                self.reader,
                self.vacations,
            ));
        } else {
            let _ = writeln!(out, "Summary of Yinsh Board {board}");
        }
        match &self.event {
            Event::Resigned(who) => {
                let _ = writeln!(out, "{who} resigned.");
            }
            Event::Forfeited(who, days) => {
                let _ = writeln!(
                    out,
                    "{who} has not moved for {days} days and forfeits the game."
                );
            }
            Event::Note(line) | Event::Queued { notes: line, .. } => {
                let _ = writeln!(out, "{line}");
            }
            _ => {}
        }
    }

    /// What follows the drawing: the board before a queued move, the watchers, the
    /// reader's queued move, the comment.
    fn write_after_board(
        &self,
        out: &mut String,
        historic: Option<usize>,
    ) -> Result<(), ReplayError> {
        if let Some(section) = self.before_queued()? {
            out.push_str(&section.text());
        }
        if !self.subscribers.is_empty() {
            let names = UserId::join(self.subscribers, ", ");
            let _ = writeln!(out, "\nSubscribers: {names}");
        }
        if let Some(q) = self.queued.filter(|_| historic.is_none()) {
            let _ = writeln!(
                out,
                "\nYour queued move: {q} (played when it is your turn, if it is legal then)."
            );
        }
        if let Some(section) = self.comment_section() {
            out.push_str(&section);
        }
        Ok(())
    }

    /// The comment as the text part writes it, after a rule of stars and the line
    /// naming its writer.
    pub(super) fn comment_section(&self) -> Option<String> {
        let (who, text) = self.comment?;
        Some(format!("\n{STARS}\n{who} writes:\n{text}\n"))
    }

    /// The end of a mail of the game as it is, as the text part writes it
    /// ([`write_turn_or_end`](BoardMail::write_turn_or_end)).
    pub(super) fn turn_or_end(&self, game: &Game) -> String {
        let mut out = String::new();
        self.write_turn_or_end(&mut out, game);
        out
    }

    /// The end of a mail of the game as it is: the command to send when it is the
    /// reader's turn, or the dates and time used of a finished game.
    fn write_turn_or_end(&self, out: &mut String, game: &Game) {
        let live = self.live;
        if let (Some(reader), Some(side)) = (self.reader, game.to_act()) {
            let mover = live.player(side);
            if mover == reader {
                let _ = writeln!(
                    out,
                    "\nYour move, {mover}. Press Reply and write your move as the first line (anything\nbelow it goes to the other player as your comment). Or send a mail with this\nSubject, putting your password in place of <password>:\n    yinsh move {} {mover} <password> {}#{}",
                    live.board(),
                    move_template(game),
                    live.next_turn_number()
                );
            }
        }
        if game.is_over() {
            let f = live.file();
            let end_at = f.ended.as_ref().map_or(f.updated, |e| e.at);
            let last_move = f.turns.last().map_or(f.created, |t| t.at);
            let used = time_used(live, self.vacations);
            let _ = writeln!(
                out,
                "\n{STARS}\nGame started.... {}\nLast move made.. {}\nGame ended...... {}\nTime used: {} {}, {} {}",
                format_date(f.created),
                format_date(last_move),
                format_date(end_at),
                f.white,
                format_duration(used[0]),
                f.black,
                format_duration(used[1])
            );
        }
    }
}

impl BoardMail<'_> {
    /// Whether the mail says who started the game (a player who may still decline
    /// it reads it).
    pub fn names_challenger(&self) -> bool {
        extra::challenger(self.live.file()).is_some() && self.may_decline()
    }

    /// Whether the reader is a player who may still decline the game.
    fn may_decline(&self) -> bool {
        self.reader
            .is_some_and(|r| extra::may_decline(self.live.file(), r) && !self.live.game().is_over())
    }

    /// For a player who may still decline a game someone else started, or the other
    /// player started (issue 25; strangers or not, issue 47): who started it when neither player
    /// did, and how to decline. The starter's userid is not repeated: a stranger
    /// chose it.
    fn decline_lines(&self) -> Option<String> {
        let reader = self.reader?;
        let f = self.live.file();
        // Whoever the other player is, a stranger or not (issue 47 item 11).
        let started_by_other = extra::started_by(f).is_some_and(|s| s.key() != reader.key());
        if !self.may_decline() || !(self.names_challenger() || started_by_other) {
            return None;
        }
        let first = match extra::challenger(f) {
            Some(c) if !self.withhold => format!(
                "This game was started by {}, not by one of its players.\n",
                extra::challenger_words(c)
            ),
            Some(_) => {
                "This game was started by someone else, not by one of its players.\n".to_string()
            }
            None => String::new(),
        };
        let board = self.live.board();
        Some(format!(
            "{first}You may decline it until your first move: reply to this mail with decline as\nthe first line, or send a mail with this Subject:\n    yinsh decline {board} {reader} <password>\n"
        ))
    }
}

/// The board a mail draws below the game's own when the opponent's queued move
/// answered a turn at once: the game after that turn, which no mail showed.
pub struct BeforeQueued {
    /// `The board after bob's move #12, before alice's queued move was played:`
    pub heading: String,
    /// The drawing with its status block.
    pub drawing: String,
    /// How many turns of the game it shows (for its picture).
    pub upto: usize,
}

impl BeforeQueued {
    /// The section as the text part writes it, below the game's own board.
    pub fn text(&self) -> String {
        format!("\n{}\n{}", self.heading, self.drawing)
    }
}

impl BoardMail<'_> {
    /// The board before the queued moves of an [`Event::Queued`] mail (none when
    /// the mail shows an earlier position, `show 101#12`).
    pub fn before_queued(&self) -> Result<Option<BeforeQueued>, ReplayError> {
        let Event::Queued { before, .. } = self.event else {
            return Ok(None);
        };
        let live = self.live;
        let turns = &live.file().turns;
        if self.at_turn.is_some_and(|n| n < turns.len()) || before == 0 || before > turns.len() {
            return Ok(None);
        }
        let game = record::replay_turns(live.file(), Some(before))?;
        // The turn answered: the last one a player sent (forced passes follow it).
        let Some((k, turn)) = turns[..before]
            .iter()
            .enumerate()
            .rev()
            .find(|(_, t)| !t.auto)
        else {
            return Ok(None);
        };
        let answered_by = turns.get(before).map_or("", |t| t.by.as_str());
        Ok(Some(BeforeQueued {
            heading: format!(
                "The board after {}'s move #{}, before {answered_by}'s queued move was played:",
                turn.by,
                k + 1
            ),
            drawing: drawing(live, &game),
            upto: before,
        }))
    }
}

/// The most characters of an error mail's message: the longest real ones (a listing
/// of the player's games, the points a ring may go to) are a few hundred; only a
/// message repeating a very long line of the mail (up to
/// [`MAX_LINE_CHARS`](crate::server::command::bounds::MAX_LINE_CHARS)) is longer.
pub const MAX_ERROR_CHARS: usize = 8000;

/// The body of an error mail: the message (cut at [`MAX_ERROR_CHARS`], with a mark),
/// the board when there is one, then the original message quoted under "Original
/// message follows:" (the heading left out with an empty quote).
pub fn error_body(message: &str, board: Option<&str>, original_quoted: &str) -> String {
    let mut out = String::new();
    let message = message.trim_end();
    match message.char_indices().nth(MAX_ERROR_CHARS) {
        None => out.push_str(message),
        Some((end, _)) => {
            out.push_str(&message[..end]);
            out.push_str(&format!(
                "\n[this error is cut at {MAX_ERROR_CHARS} characters: it repeated a very long line of your mail]"
            ));
        }
    }
    out.push('\n');
    if let Some(b) = board {
        out.push('\n');
        out.push_str(b);
    }
    if !original_quoted.trim().is_empty() {
        out.push_str("\nOriginal message follows:\n\n");
        out.push_str(original_quoted);
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{MAX_ERROR_CHARS, error_body};

    #[test]
    fn an_error_repeating_a_huge_line_is_cut_with_a_mark_and_the_quote_kept() {
        let short = error_body("Unknown move \"e5\".", None, "> yinsh move\n");
        assert_eq!(
            short,
            "Unknown move \"e5\".\n\nOriginal message follows:\n\n> yinsh move\n"
        );
        let huge = format!("Unknown move \"{}\".", "é".repeat(100_000));
        let body = error_body(&huge, Some("BOARD\n"), "> q\n");
        assert!(
            body.chars().count() < MAX_ERROR_CHARS + 200,
            "{}",
            body.len()
        );
        assert!(body.contains("[this error is cut at 8000 characters"));
        assert!(body.ends_with("BOARD\n\nOriginal message follows:\n\n> q\n"));
    }
}
