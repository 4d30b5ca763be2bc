//! The HTML part of a board mail, and of an error mail about a game
//! (`docs/mail-formats.md`): the heading and status lines of the text part, the
//! picture of the position (an inline PNG the mail carries, shown through `cid:`), a
//! link to the game's web page when the server has one, the comment, the command the
//! reader sends next, the position in words, the move list, and the ASCII board in a
//! `<pre>`. The server's own lines are reflowed paragraphs (`prose`); a player's text
//! is shown exactly as written (`written`). Plain HTML with inline styles and no colours of its own, so
//! a client's dark mode keeps it readable; no scripts, no external resources. Every
//! text in it is escaped ([`escape`]): the comments and userids in it come from
//! players.

use std::fmt::Write as _;

use crate::picture::Picture;
use crate::rules::{Color, Game};
use crate::server::game::picture::picture_at;
use crate::server::game::record::{self, ReplayError};
use crate::server::model::BoardId;

use super::new_game;
use super::play_link::PLAY_YOUR_MOVE;
use super::position::{position_in_words, words_section};
use super::reply::{BoardMail, Event, STARS, drawing};

/// The HTML alternative of one board mail, waiting for what only the sending side
/// knows (the picture's Content-ID, the game page's address): see
/// [`BoardHtml::document`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardHtml {
    /// The board shown.
    pub board: BoardId,
    /// The position shown, with the last turn marked.
    pub picture: Picture,
    /// The heading, escaped.
    title: String,
    /// The status lines, escaped, as paragraphs.
    status: String,
    /// The picture's alternative text, escaped.
    alt: String,
    /// The board after the turn a queued move answered, when the mail shows one
    /// (below the game's own board).
    pub earlier: Option<EarlierBoard>,
    /// The sections after the board (comment, command to send), the move list and
    /// the board as text, escaped.
    rest: String,
    /// What an error mail says above the board ([`BoardHtml::under_error`]), escaped.
    error: String,
}

/// The board a queued-answer mail shows below the game's own (`BeforeQueued`): its
/// picture when the mail carries one, else its drawing as text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EarlierBoard {
    /// The position, with the answered turn marked.
    pub picture: Picture,
    /// Its heading, escaped.
    heading: String,
    /// Its drawing with the status block, escaped.
    drawing: String,
}

/// A picture the mail carries (`cid:`), in a paragraph with `margin`: `size` wide
/// and high at most, narrower when the window is (a phone's).
pub(super) fn picture(cid: &str, (w, h): (u32, u32), alt: &str, margin: &str) -> String {
    format!(
        "<p style=\"margin:{margin}\"><img src=\"cid:{}\" width=\"{w}\" height=\"{h}\" alt=\"{alt}\" \
         style=\"display:block;max-width:100%;height:auto;border:0\"></p>",
        escape(cid)
    )
}

/// `s` with `& < > " '` written as entities, safe inside elements and quoted
/// attributes.
///
/// ```
/// use yinsh_pbem::server::text::html::escape;
/// assert_eq!(escape(r#"<a href="x">'&'</a>"#), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
/// ```
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + s.len() / 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The start of a mail's HTML document up to its content's `<div>`, `max` pixels
/// wide at most: the `<head>` with `title` (escaped already), the body's font. The
/// document ends with `</div>\n</body></html>\n`.
pub fn head(title: &str, max: u32) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"color-scheme\" content=\"light dark\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>{title}</title></head>\n\
         <body style=\"margin:0;padding:12px;font-family:Helvetica,Arial,sans-serif;font-size:15px;line-height:1.4\">\n\
         <div style=\"max-width:{max}px\">\n"
    )
}

/// The style of every `<pre>`.
pub const PRE: &str = "font-family:Menlo,Consolas,'DejaVu Sans Mono',monospace;font-size:13px;line-height:1.25;white-space:pre-wrap;overflow-wrap:anywhere";

impl BoardMail<'_> {
    /// The HTML part of this mail, whose text part is `text` (what [`BoardMail::body`]
    /// returned).
    pub fn html(&self, text: &str) -> Result<BoardHtml, ReplayError> {
        let live = self.live;
        let total = live.file().turns.len();
        let historic = self.at_turn.filter(|&n| n < total);
        let upto = historic.unwrap_or(total);
        let game = match historic {
            Some(n) => record::replay_turns(live.file(), Some(n))?,
            None => *live.game(),
        };
        let drawing = drawing(live, &game);
        // The text: heading and status lines, the move list, then the board and what
        // follows it (the comment, the command to send, ...).
        let mut parts = text.splitn(3, "\n\n");
        let head = parts.next().unwrap_or_default();
        let _move_list = parts.next();
        let tail = parts.next().unwrap_or_default();
        let (board_text, after) = match tail.strip_prefix(drawing.as_str()) {
            Some(after) => (drawing.as_str(), after),
            None => (tail, ""),
        };
        // The position in words under the board: its own section below.
        let words = words_section(live, &game, upto)?;
        let after = after.strip_prefix(words.as_str()).unwrap_or(after);
        let (title, status) = head.split_once('\n').unwrap_or((head, ""));
        let alt = match status.lines().next() {
            Some(line) => format!("The board. {line}"),
            None => String::from("The board"),
        };
        let title = escape(title);
        let status = prose(status, Margin::Status);
        // The board before an answering queued move: drawn as text too.
        let before = self.before_queued()?;
        let (before, after) = match &before {
            Some(b) => match after.strip_prefix(b.text().as_str()) {
                Some(after) => (Some(b), after),
                None => (None, after),
            },
            None => (None, after),
        };
        let earlier = match before {
            Some(b) => Some(EarlierBoard {
                picture: picture_at(live, b.upto)?,
                heading: escape(&b.heading),
                drawing: escape(b.drawing.trim_end()),
            }),
            None => None,
        };
        let mut rest = self.after_board(after, &game, historic);
        rest.push_str(&position_section(&game));
        rest.push_str(&move_table(self, upto));
        let _ = write!(
            rest,
            "<h2 style=\"font-size:16px;margin:16px 0 4px\">The board as text</h2>\n\
             <pre style=\"{PRE}\">{}</pre>\n",
            escape(board_text.trim_end())
        );
        Ok(BoardHtml {
            board: live.board(),
            picture: picture_at(live, upto)?,
            title,
            status,
            alt: escape(&alt),
            earlier,
            rest,
            error: String::new(),
        })
    }
}

impl BoardMail<'_> {
    /// The sections of a board mail's text after the board, as HTML: the server's
    /// lines (watchers, a queued move) and the command to send as [`prose`], the
    /// comment shown as its player wrote it ([`written`]), the dates of a finished
    /// game line by line. `after` is the text part from the end of the board on.
    fn after_board(&self, after: &str, game: &Game, historic: Option<usize>) -> String {
        let tail = match historic {
            None => self.turn_or_end(game),
            Some(_) => String::new(),
        };
        let comment = self.comment_section().unwrap_or_default();
        // A new game's mail to a player ends with what its Subject says.
        let note = match (&self.event, self.reader) {
            (Event::NewGame, Some(_)) => new_game::subject_note(self.subject),
            _ => String::new(),
        };
        let Some(server) = after
            .strip_suffix(note.as_str())
            .and_then(|rest| rest.strip_suffix(tail.as_str()))
            .and_then(|rest| rest.strip_suffix(comment.as_str()))
        else {
            // Not laid out as expected: shown as paragraphs, no line as written.
            return paragraphs(after);
        };
        let mut out = prose(server, Margin::Section);
        if let Some((who, text)) = self.comment {
            let _ = writeln!(
                out,
                "{RULE}\n<p style=\"margin:10px 0 4px\">{} writes:</p>\n{}",
                escape(who),
                written(text)
            );
        }
        if game.is_over() && historic.is_none() {
            // The dates of a finished game, under a rule: their lines kept.
            let dates = tail.trim_start_matches('\n');
            if let Some(dates) = dates.strip_prefix(STARS) {
                let _ = writeln!(out, "{RULE}");
                out.push_str(&written(dates));
            } else {
                out.push_str(&written(dates));
            }
        } else {
            out.push_str(&prose(&tail, Margin::Section));
        }
        out.push_str(&prose(&note, Margin::Section));
        out
    }
}

/// A rule between sections (the text part's line of stars).
const RULE: &str = "<hr style=\"border:0;border-top:1px solid #888;margin:4px 0\">";

/// The space around a paragraph of [`prose`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Margin {
    /// The status lines under the heading: close together.
    Status,
    /// The sections after the board.
    Section,
}

/// The server's own text as HTML paragraphs in the reader's font, reflowed to the
/// reader's width (issue 26): the text part's lines of one sentence are joined (a
/// line that does not end in `.`, `:`, `!` or `?` goes on in the next), a blank line
/// or the end of a sentence ends a paragraph, a line indented by four spaces (a
/// command to send) is set as code on a line of its own, and a rule of stars
/// becomes a line. Never given a player's text: that is [`written`].
fn prose(text: &str, margin: Margin) -> String {
    let style = match margin {
        Margin::Status => "margin:4px 0",
        Margin::Section => "margin:10px 0",
    };
    let mut out = String::new();
    let mut open: Vec<&str> = Vec::new();
    let close = |open: &mut Vec<&str>, out: &mut String| {
        if !open.is_empty() {
            let joined = open.join(" ");
            let _ = writeln!(
                out,
                "<p style=\"{style};overflow-wrap:anywhere\">{}</p>",
                escape(&joined)
            );
            open.clear();
        }
    };
    for line in text.lines() {
        if line.trim().is_empty() {
            close(&mut open, &mut out);
        } else if line.chars().all(|c| c == '*') {
            close(&mut open, &mut out);
            let _ = writeln!(out, "{RULE}");
        } else if let Some(code) = line.strip_prefix("    ") {
            close(&mut open, &mut out);
            let _ = writeln!(
                out,
                "<p style=\"{style};overflow-wrap:anywhere\"><code style=\"font-size:15px;font-weight:bold\">{}</code></p>",
                escape(code.trim())
            );
        } else {
            open.push(line.trim());
            if line.trim_end().ends_with(['.', ':', '!', '?']) {
                close(&mut open, &mut out);
            }
        }
    }
    close(&mut open, &mut out);
    out
}

/// Text shown exactly as written, in the reader's font: escaped, its line breaks and
/// spaces kept, nothing in it read as markup or set as code (a player's comment;
/// issue 26).
fn written(text: &str) -> String {
    let text = text.trim_matches('\n');
    if text.trim().is_empty() {
        return String::new();
    }
    format!(
        "<div style=\"margin:4px 0 10px;white-space:pre-wrap;overflow-wrap:anywhere\">{}</div>\n",
        escape(text)
    )
}

/// Text of the server's that may hold lines of a player's mail (an error repeating
/// a line with a caret under it, the original quoted) as HTML (issue 47 item 9): the
/// server's lines as [`prose`] paragraphs (its line breaks gone, so nothing is ragged
/// at a phone's width), the lines of the mail (quoted with `>`, indented by fewer
/// than four spaces or a tab, a caret and the line above it) kept as [`written`].
fn paragraphs(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let caret = |line: &str| line.trim() == "^";
    let as_written = |k: usize| {
        let line = lines[k];
        let indent = line.len() - line.trim_start_matches(' ').len();
        line.starts_with(['>', '\t'])
            || (1..4).contains(&indent)
            || caret(line)
            || lines.get(k + 1).is_some_and(|next| caret(next))
    };
    let shown = |run: &str, as_written: bool| {
        if as_written {
            written(run)
        } else {
            prose(run, Margin::Section)
        }
    };
    let mut out = String::new();
    let mut run = String::new();
    let mut run_written = false;
    for (k, line) in lines.iter().enumerate() {
        let kept = as_written(k) && !line.trim().is_empty();
        if kept != run_written && !run.is_empty() {
            out.push_str(&shown(&run, run_written));
            run.clear();
        }
        run_written = kept;
        run.push_str(line);
        run.push('\n');
    }
    out.push_str(&shown(&run, run_written));
    out
}

/// The position shown in words (`position.rs`), a list under its heading: what a
/// screen reader reads instead of the picture (issue 47 item 12).
fn position_section(game: &Game) -> String {
    let mut out = String::from(
        "<h2 style=\"font-size:16px;margin:16px 0 4px\">The position in words</h2>\n<ul style=\"margin:4px 0;padding-left:20px\">",
    );
    for line in position_in_words(game) {
        let _ = write!(out, "<li>{}</li>", escape(&line));
    }
    out.push_str("</ul>\n");
    out
}

/// The moves up to `upto` as a table: turn number and text, White's and Black's
/// (plain cells: a long game's list stays small).
fn move_table(mail: &BoardMail<'_>, upto: usize) -> String {
    let live = mail.live;
    let turns = &live.file().turns[..upto.min(live.file().turns.len())];
    let mut out = String::from("<h2 style=\"font-size:16px;margin:16px 0 4px\">Moves</h2>\n");
    if turns.is_empty() {
        out.push_str("<p style=\"margin:4px 0\">No move yet.</p>\n");
        return out;
    }
    let _ = writeln!(
        out,
        "<table cellpadding=\"2\" cellspacing=\"0\" style=\"font-family:monospace;font-size:13px\">\
         <tr><th colspan=\"2\" align=\"left\">White: {}</th><th colspan=\"2\" align=\"left\">Black: {}</th></tr>",
        escape(live.player(Color::White).as_str()),
        escape(live.player(Color::Black).as_str()),
    );
    for (r, pair) in turns.chunks(2).enumerate() {
        out.push_str("<tr>");
        for (k, t) in pair.iter().enumerate() {
            let auto = if t.auto { " (Auto)" } else { "" };
            let _ = write!(
                out,
                "<td align=\"right\">{}</td><td>{}{auto}</td>",
                2 * r + k + 1,
                escape(&t.text)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

impl BoardHtml {
    /// The board as an error mail shows it (issue 26): `message`, the error, above
    /// the heading, and `after`, what the text part says below the board (the
    /// original mail quoted), below the board as text; both as `paragraphs` (an
    /// error may repeat a line of the mail, a caret under it: kept as written).
    pub fn under_error(mut self, message: &str, after: &str) -> BoardHtml {
        self.error = paragraphs(message);
        self.rest.push_str(&paragraphs(after));
        self
    }

    /// The whole HTML document: the picture is `cid:` and `cid` (the Content-ID of the
    /// mail's image part), the [`EarlierBoard`]'s picture `earlier_cid` (its drawing
    /// as text when `None`), `page`, when given, is the address of the game's web
    /// page, and `play` the page's address with the reader's play token, when the
    /// reader is the player to move (`play_link.rs`).
    pub fn document(
        &self,
        cid: &str,
        earlier_cid: Option<&str>,
        page: Option<&str>,
        play: Option<&str>,
    ) -> String {
        let (w, h) = Picture::size();
        let mut out = String::with_capacity(4096 + self.rest.len());
        out.push_str(&head(&self.title, 600));
        let _ = write!(
            out,
            "{error}<h1 style=\"font-size:20px;margin:0 0 8px\">{title}</h1>\n{status}{picture}\n",
            title = self.title,
            error = self.error,
            status = self.status,
            picture = picture(cid, (w, h), &self.alt, "12px 0"),
        );
        if let Some(url) = play {
            let _ = writeln!(
                out,
                "<p style=\"margin:8px 0;font-size:17px\"><a href=\"{}\"><b>{PLAY_YOUR_MOVE}</b></a> \
                 (click your move, then send the mail it writes)</p>",
                escape(url)
            );
        }
        if let Some(url) = page {
            let _ = writeln!(
                out,
                "<p style=\"margin:4px 0\"><a href=\"{}\">This game on the web</a> \
                 (every position, and the record to download)</p>",
                escape(url)
            );
        }
        if let Some(b) = &self.earlier {
            let _ = writeln!(out, "<p style=\"margin:10px 0 4px\">{}</p>", b.heading);
            match earlier_cid {
                Some(cid) => {
                    let _ = writeln!(out, "{}", picture(cid, (w, h), &b.heading, "4px 0 12px"));
                }
                None => {
                    let _ = writeln!(out, "<pre style=\"{PRE}\">{}</pre>", b.drawing);
                }
            }
        }
        out.push_str(&self.rest);
        out.push_str("</div>\n</body></html>\n");
        out
    }
}
