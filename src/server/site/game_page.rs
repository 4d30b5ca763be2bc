//! One game's folder of the web site, `games/<n>/`: its page (players, result, the
//! clock of a game going on, the board, the move list), one picture of the position
//! now (`p<k>-<hash>.png`, named by the turns that lead to it, so it is drawn once and
//! an undo never shows a stale one; the board for readers without the script, in a
//! `<noscript>` so that the script's readers never fetch it), and its record to download, as our transcript and as Boardspace SGF.
//!
//! Every other position is drawn in the browser by the site's `board.js` from the
//! page's data (`#game-data`, JSON: each position as 85 characters and the rings
//! removed, each turn's atomic actions, the captions), so a finished game costs five
//! files. While a person is to move, the data holds the legal turns of the position
//! (`legal`) for the play mode (`#play=<token>`), and the page lists them as mail
//! links for readers without the script. Moves' comments are not published.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::notation::sgf;
use crate::notation::{play_turn, write_transcript};
use crate::picture::Picture;
use crate::rules::{Action, Color, Game, Piece, Point, Variant};
use crate::server::game::clock::deadlines;
use crate::server::game::picture::positions;
use crate::server::game::record::{LiveGame, ReplayError};
use crate::server::game::vacation::Vacations;
use crate::server::model::BoardId;
use crate::server::store::{GameReview, KeptPictures};
use crate::server::text::clock::clock_line;
use crate::server::text::dates::format_date;
use crate::server::text::html::escape;
use crate::server::text::position::position_in_words;
use crate::server::text::reply::{ending_line, status_line};

use super::legal::{PlayData, legal_turns};
use super::page::page;
use super::play::{USED_LINK, mail_links, play_section};
use super::review;
use super::{Files, SiteError, Summary};

/// What a game's page needs beside the game: the server's mail address (where moves
/// are sent), the vacations (they stop the clock) and the pictures the mails kept.
pub(super) struct Around<'a> {
    pub(super) address: &'a str,
    pub(super) vacations: &'a Vacations,
    pub(super) kept: KeptPictures,
}

/// Writes the folder of `live` under `dir` (its picture only where missing), with the
/// robot's `review` of the game when there is one, and returns the game's line of the
/// index.
pub(super) fn write_game(
    files: &mut Files,
    dir: &Path,
    live: &LiveGame,
    around: &Around<'_>,
    review: Option<&GameReview>,
) -> Result<Summary, SiteError> {
    let file = live.file();
    let board = live.board();
    let white = live.player(Color::White).as_str();
    let black = live.player(Color::Black).as_str();
    if let Some(r) = review {
        review::check(board, r, file.turns.len())?;
    }
    files.make_dir(dir)?;
    let (picture, mut data) = write_picture(files, dir, live, around)?;
    data.chances = review.map(review::percents);
    write_records(files, dir, live)?;
    files.remove_others(dir, std::slice::from_ref(&picture))?;
    let status = status_line(live, live.game());
    let title = format!("Board {board}: {white} - {black}");
    let shown = Page {
        picture: &picture,
        data: &data,
        review,
        title: &title,
        status: &status,
    };
    let body = page_body(live, &shown, around);
    files.write(
        &dir.join("index.html"),
        page(&title, "../../", &body).as_bytes(),
    )?;
    Ok(Summary {
        board,
        white: white.to_string(),
        black: black.to_string(),
        blitz: file.variant == Variant::Blitz,
        turns: file.turns.len(),
        over: live.game().is_over(),
        status,
        updated: file.updated,
    })
}

/// The page's data, read by `board.js` (the JSON in `#game-data`).
#[derive(Debug, Serialize)]
pub(super) struct GameData {
    board: BoardId,
    /// Each position from the start: 85 characters in `Point::ALL`'s order (`.`
    /// empty, `W`/`B` a ring, `w`/`b` a marker), then the rings White and Black
    /// removed, a digit each.
    states: Vec<String>,
    /// The atomic actions of each turn, in their perft text.
    moves: Vec<Vec<String>>,
    /// What each position shows, in words.
    captions: Vec<String>,
    /// Whether the game is over (its waiting rows are not marked).
    over: bool,
    /// The play mode's data, while a person is to move.
    play: Option<PlayData>,
    /// With the robot's review: White's chance in whole percent at each point of its
    /// chart (each position, then the result when the game ended off the board).
    #[serde(skip_serializing_if = "Option::is_none")]
    chances: Option<Vec<u8>>,
}

/// One position as the page's data holds it (see [`GameData::states`]).
fn state(game: &Game) -> String {
    let mut out: String = Point::ALL
        .iter()
        .map(|&p| match game.piece_at(p) {
            None => '.',
            Some(Piece::Ring(Color::White)) => 'W',
            Some(Piece::Ring(Color::Black)) => 'B',
            Some(Piece::Marker(Color::White)) => 'w',
            Some(Piece::Marker(Color::Black)) => 'b',
        })
        .collect();
    for color in Color::BOTH {
        out.push(char::from(b'0' + game.rings_removed(color).min(9)));
    }
    out
}

/// Replays `live`: draws the picture of the position now when `dir` does not hold it
/// yet, and gathers the page's data. Returns the picture's name and the data. The
/// picture is named by what it shows: a hash of the turns that lead to it (and of the
/// game's end).
fn write_picture(
    files: &mut Files,
    dir: &Path,
    live: &LiveGame,
    around: &Around<'_>,
) -> Result<(String, GameData), SiteError> {
    let file = live.file();
    let board = live.board();
    let total = file.turns.len();
    let mut data = GameData {
        board,
        states: Vec::with_capacity(total + 1),
        moves: Vec::with_capacity(total),
        captions: (0..=total).map(|k| caption(live, k)).collect(),
        over: live.game().is_over(),
        play: play_data(live, around),
        chances: None,
    };
    let mut hasher = Sha256::new();
    let mut before = Game::new(file.variant);
    let mut shown = None;
    for (k, (game, last)) in positions(file).enumerate() {
        let game = game?;
        if k > 0 {
            let text = &file.turns[k - 1].text;
            hasher.update(text.as_bytes());
            hasher.update(b"\n");
            let actions = play_turn(&mut before, text).map_err(|why| ReplayError::Turn {
                board,
                turn: k,
                text: text.clone(),
                why,
            })?;
            data.moves
                .push(actions.iter().map(Action::to_string).collect());
        }
        data.states.push(state(&game));
        if k == total {
            shown = Some(last);
        }
    }
    let ending = file
        .ended
        .as_ref()
        .map_or(String::new(), |end| format!("{}:{}", end.reason, end.by));
    hasher.update(ending.as_bytes());
    let hex = hex::encode(&hasher.finalize()[..6]);
    let name = format!("p{total}-{hex}.png");
    let path = dir.join(&name);
    if !path.exists() {
        let picture = Picture::new(live.game()).last_move(&shown.unwrap_or_default());
        // The picture the move's mail kept, when it is this one (read only: the mails
        // keep pictures under the store's lock, the site is made after it; a broken
        // kept file is drawn over here, and named in the log by the next mail that
        // shows it, which keeps it anew).
        let png = match around.kept.get(board, &picture.key()) {
            Ok(Some(png)) => png,
            Ok(None) | Err(_) => picture
                .to_png()
                .map_err(|source| SiteError::Picture { board, source })?,
        };
        files.write(&path, &png)?;
    }
    Ok((name, data))
}

/// The play mode's data of `live`: while a person is to move and the position's
/// legal turns are listed.
fn play_data(live: &LiveGame, around: &Around<'_>) -> Option<PlayData> {
    let game = live.game();
    let side = game.to_act()?;
    let player = live.player(side);
    if player.robot_level().is_some() {
        return None;
    }
    Some(PlayData {
        to: around.address.to_string(),
        player: player.as_str().to_string(),
        side: match side {
            Color::White => 'W',
            Color::Black => 'B',
        },
        k: live.file().turns.len() + 1,
        turns: legal_turns(game)?,
    })
}

/// The name of the record files of `board`, without the extension.
fn record_stem(board: BoardId) -> String {
    format!("board-{board}")
}

/// Writes the record of `live` to download, as our transcript and as SGF.
fn write_records(files: &mut Files, dir: &Path, live: &LiveGame) -> Result<(), SiteError> {
    let record = live.record(Some(format_date(live.file().created)))?;
    let stem = record_stem(live.board());
    let event = event_of(live);
    let mut transcript = write_transcript(&record);
    if let Some((name, round)) = &event {
        // A comment line of its own after the first, as `replay` and `import` skip it.
        let at = transcript.find('\n').map_or(0, |k| k + 1);
        transcript.insert_str(at, &format!("# Tournament: {name}, round {round}\n"));
    }
    files.write(&dir.join(format!("{stem}.txt")), transcript.as_bytes())?;
    files.write(
        &dir.join(format!("{stem}.sgf")),
        sgf::write_in(&record, event.as_ref().map(|(n, r)| (n.as_str(), *r))).as_bytes(),
    )
}

/// The tournament and round of `live`, for its record's `EV[]` and `RO[]`.
fn event_of(live: &LiveGame) -> Option<(String, u32)> {
    let t = live.file().extra.tournament.as_ref()?;
    Some((t.name.to_string(), t.round))
}

/// What a game's page shows beside the game itself.
struct Page<'a> {
    /// The picture of the position now.
    picture: &'a str,
    data: &'a GameData,
    /// The robot's review, when the game has one.
    review: Option<&'a GameReview>,
    title: &'a str,
    status: &'a str,
}

/// The body of the game's page: players, result and clock; the board now (drawn
/// by `board.js`, with the buttons that step through the positions); after it the
/// play mode; the robot's review when there is one; the position in words, the mail
/// links, the moves and the record's links; the page's data.
fn page_body(live: &LiveGame, page: &Page<'_>, around: &Around<'_>) -> String {
    let Page {
        picture,
        data,
        title,
        status,
        ..
    } = *page;
    let file = live.file();
    let total = file.turns.len();
    let ending = ending_line(live, live.game()).unwrap_or_default();
    let variant = match file.variant {
        Variant::Normal => "Normal game: the first to remove 3 rings wins.",
        Variant::Blitz => "Blitz game: the first ring removed wins.",
    };
    let stem = record_stem(live.board());
    let last_at = file.turns.last().map_or(file.created, |t| t.at);
    let clock = deadlines(live, around.vacations)
        .map(|d| format!("<p class=\"clock\">{}</p>\n", escape(&clock_line(live, &d))))
        .unwrap_or_default();
    let (w, h) = Picture::size();
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>{}</h1>\n<p class=\"status\">{} {}</p>\n\
         <p>White: <b>{}</b>, Black: <b>{}</b>. {variant} Started {}; {} move{}, the last {}.</p>\n\
         {clock}{USED_LINK}<div class=\"game{reviewed}\"><div class=\"board-box\" id=\"board-box\">\n\
         <noscript><img id=\"board\" src=\"{}\" width=\"{w}\" height=\"{h}\" alt=\"The board after move {total}\"></noscript>\n\
         <p id=\"caption\">{}</p><p id=\"score\"></p>\n\
         <div id=\"step\" hidden><button data-go=\"first\" title=\"start\">|&lt;</button>\
         <button data-go=\"prev\" title=\"back one move (left arrow)\">&lt;</button>\
         <button data-go=\"next\" title=\"on one move (right arrow)\">&gt;</button>\
         <button data-go=\"last\" title=\"the position now\">&gt;|</button></div>\n\
         </div>\n",
        escape(title),
        escape(status),
        escape(&ending),
        escape(live.player(Color::White).as_str()),
        escape(live.player(Color::Black).as_str()),
        format_date(file.created),
        total,
        if total == 1 { "" } else { "s" },
        format_date(last_at),
        escape(picture),
        escape(&caption(live, total)),
        reviewed = if page.review.is_some() {
            " reviewed"
        } else {
            ""
        },
    );
    // The play section right after the board (issue 47 item 16): on a phone its
    // instructions and buttons follow the board, beside it on a wide screen.
    body.push_str(&play_section(data.play.as_ref()));
    if let Some(r) = page.review {
        body.push_str(&review::section(live, r));
    }
    body.push_str("<div class=\"side\">\n");
    body.push_str(&position_section(live, total));
    if let Some(play) = &data.play {
        body.push_str(&mail_links(live.board(), play));
    }
    body.push_str("<h2>Moves</h2>\n");
    body.push_str(&move_table(live));
    let _ = write!(
        body,
        "<h2>Record</h2>\n<ul><li><a href=\"{stem}.txt\" download>Transcript</a> \
         (read by <code>yinsh-pbem replay</code>)</li>\
         <li><a href=\"{stem}.sgf\" download>Boardspace SGF</a></li></ul>\n</div></div>\n",
    );
    let json = serde_json::to_string(data).unwrap_or_default();
    let _ = write!(
        body,
        "<script type=\"application/json\" id=\"game-data\">{}</script>\n\
         <script src=\"../../points.js\"></script><script src=\"../../board.js\"></script>\n",
        script_safe(&json)
    );
    body
}

/// The position now in words (issue 47 item 12): the last move, then the lines of
/// [`position_in_words`], folded under a summary; `board.js` rewrites them for each
/// position it shows, and the board points to them (`aria-describedby`).
fn position_section(live: &LiveGame, total: usize) -> String {
    let mut out = format!(
        "<details id=\"position\"><summary>The position in words</summary>\n\
         <p id=\"position-last\">{}</p>\n<ul id=\"position-list\">",
        escape(&caption(live, total))
    );
    for line in position_in_words(live.game()) {
        let _ = write!(out, "<li>{}</li>", escape(&line));
    }
    out.push_str("</ul></details>\n");
    out
}

/// What the picture after `k` turns shows, in words.
fn caption(live: &LiveGame, k: usize) -> String {
    match k.checked_sub(1).and_then(|i| live.file().turns.get(i)) {
        None => "The start.".to_string(),
        Some(t) => {
            let side = if (k - 1).is_multiple_of(2) {
                "White"
            } else {
                "Black"
            };
            format!("After move {k}: {side} ({}) {}", t.by, t.text)
        }
    }
}

/// The moves, two a row (White's, Black's), each a link to its position
/// (`#m<k>`: the address of a move; without the script, the move's place in the list).
fn move_table(live: &LiveGame) -> String {
    let turns = &live.file().turns;
    let mut out = String::from(
        "<table class=\"moves\"><tr><th></th><th>White</th><th>Black</th></tr>\n\
         <tr><td></td><td id=\"m0\"><a href=\"#m0\" data-k=\"0\">start</a></td><td></td></tr>\n",
    );
    for (r, pair) in turns.chunks(2).enumerate() {
        let _ = write!(out, "<tr><td class=\"n\">{}</td>", 2 * r + 1);
        for (i, t) in pair.iter().enumerate() {
            let k = 2 * r + i + 1;
            let auto = if t.auto { " (auto)" } else { "" };
            let _ = write!(
                out,
                "<td id=\"m{k}\"><a href=\"#m{k}\" data-k=\"{k}\">{}</a>{auto}</td>",
                escape(&t.text)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

/// `json` made safe inside a `<script>` element: no `<` (so no `</script>`), which
/// JSON only has inside strings, where `\u003c` reads the same.
fn script_safe(json: &str) -> String {
    json.replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_cannot_close_the_script() {
        assert_eq!(
            script_safe(r#"{"a":"</script>"}"#),
            r#"{"a":"\u003c/script>"}"#
        );
    }

    #[test]
    fn a_position_is_85_points_and_two_scores() {
        let mut game = Game::new(Variant::Normal);
        play_turn(&mut game, "a2").expect("a2");
        let s = state(&game);
        assert_eq!(s.len(), 87);
        assert_eq!(&s[..1], "W", "a2 is the first point");
        assert_eq!(&s[85..], "00");
    }
}
