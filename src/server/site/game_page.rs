//! One game's folder of the web site, `games/<n>/`: its page (players, result, the
//! board, the move list), the picture of every position (`p<k>-<hash>.png`, named by
//! the turns that lead to it, so a picture is drawn once and an undo never shows a
//! stale one), and its record to download, as our transcript and as Boardspace SGF.
//! Stepping through the positions needs no server: each move links to its picture,
//! and a small script shows them in place. Moves' comments are not published.

use std::fmt::Write as _;
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::notation::sgf::{self, Record, RecordEnd};
use crate::notation::{play_turn, write_transcript};
use crate::picture::Picture;
use crate::rules::{Action, Color, Variant};
use crate::server::game::picture::positions;
use crate::server::game::record::{LiveGame, ReplayError};
use crate::server::model::{BoardId, EndReason};
use crate::server::text::dates::format_date;
use crate::server::text::html::escape;
use crate::server::text::reply::{ending_line, status_line};

use super::page::page;
use super::{Files, SiteError, Summary};

/// Writes the folder of `live` under `dir` (its pictures only where missing) and
/// returns the game's line of the index.
pub(super) fn write_game(
    files: &mut Files,
    dir: &Path,
    live: &LiveGame,
) -> Result<Summary, SiteError> {
    let file = live.file();
    let board = live.board();
    let white = live.player(Color::White).as_str();
    let black = live.player(Color::Black).as_str();
    files.make_dir(dir)?;
    let names = write_pictures(files, dir, live)?;
    write_records(files, dir, live)?;
    files.remove_others(dir, &names)?;
    let status = status_line(live, live.game());
    let title = format!("Board {board}: {white} - {black}");
    files.write(
        &dir.join("index.html"),
        page(&title, "../../", &page_body(live, &names, &title, &status)).as_bytes(),
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

/// Draws the picture of every position of `live` that `dir` does not hold yet;
/// returns their names, from the start to the position now. A picture is named by
/// what it shows: a hash of the turns that lead to it (and of the game's end).
fn write_pictures(
    files: &mut Files,
    dir: &Path,
    live: &LiveGame,
) -> Result<Vec<String>, SiteError> {
    let file = live.file();
    let board = live.board();
    let total = file.turns.len();
    let mut names = Vec::with_capacity(total + 1);
    let mut hasher = Sha256::new();
    for (k, (game, last)) in positions(file).enumerate() {
        let game = game?;
        if k > 0 {
            hasher.update(file.turns[k - 1].text.as_bytes());
            hasher.update(b"\n");
        }
        let (game, ending) = match &file.ended {
            Some(end) if k == total => (*live.game(), format!("{}:{}", end.reason, end.by)),
            _ => (game, String::new()),
        };
        let mut h = hasher.clone();
        h.update(ending.as_bytes());
        let hex: String = h.finalize()[..6]
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let name = format!("p{k}-{hex}.png");
        let path = dir.join(&name);
        if !path.exists() {
            let png = Picture::new(&game)
                .last_move(&last)
                .to_png()
                .map_err(|source| SiteError::Picture { board, source })?;
            files.write(&path, &png)?;
        }
        names.push(name);
    }
    Ok(names)
}

/// The name of the record files of `board`, without the extension.
fn record_stem(board: BoardId) -> String {
    format!("board-{board}")
}

/// Writes the record of `live` to download, as our transcript and as SGF.
fn write_records(files: &mut Files, dir: &Path, live: &LiveGame) -> Result<(), SiteError> {
    let record = record(live)?;
    let stem = record_stem(live.board());
    files.write(
        &dir.join(format!("{stem}.txt")),
        write_transcript(&record).as_bytes(),
    )?;
    files.write(
        &dir.join(format!("{stem}.sgf")),
        sgf::write(&record).as_bytes(),
    )
}

/// The record of `live`, as atomic actions.
fn record(live: &LiveGame) -> Result<Record, ReplayError> {
    let file = live.file();
    let mut actions: Vec<Action> = Vec::new();
    let mut replay = crate::rules::Game::new(file.variant);
    for (k, t) in file.turns.iter().enumerate() {
        actions.extend(
            play_turn(&mut replay, &t.text).map_err(|why| ReplayError::Turn {
                board: file.board,
                turn: k + 1,
                text: t.text.clone(),
                why,
            })?,
        );
    }
    // A forfeit is written as the resignation of the side that lost on time.
    let ending = file.ended.as_ref().and_then(|e| match e.reason {
        EndReason::Resigned | EndReason::Forfeit => live.side(&e.by).map(RecordEnd::Resigned),
        EndReason::DrawAgreed => Some(RecordEnd::DrawAgreed),
    });
    Ok(Record {
        variant: file.variant,
        white: live.player(Color::White).as_str().to_string(),
        black: live.player(Color::Black).as_str().to_string(),
        date: Some(format_date(file.created)),
        actions,
        ending,
    })
}

/// The body of the game's page: players and result, the board now with the buttons
/// that step through the pictures (`names`), the moves and the record's links.
fn page_body(live: &LiveGame, names: &[String], title: &str, status: &str) -> String {
    let file = live.file();
    let total = file.turns.len();
    let ending = ending_line(live, live.game()).unwrap_or_default();
    let variant = match file.variant {
        Variant::Normal => "Normal game: the first to remove 3 rings wins.",
        Variant::Blitz => "Blitz game: the first ring removed wins.",
    };
    let stem = record_stem(live.board());
    let last_at = file.turns.last().map_or(file.created, |t| t.at);
    let (w, h) = Picture::size();
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>{}</h1>\n<p class=\"status\">{} {}</p>\n\
         <p>White: <b>{}</b>, Black: <b>{}</b>. {variant} Started {}; {} move{}, the last {}.</p>\n\
         <div class=\"game\"><div>\n\
         <img id=\"board\" src=\"{}\" width=\"{w}\" height=\"{h}\" alt=\"The board after move {total}\">\n\
         <p id=\"caption\">{}</p>\n\
         <div id=\"step\" hidden><button data-go=\"first\" title=\"start\">|&lt;</button>\
         <button data-go=\"prev\" title=\"back one move (left arrow)\">&lt;</button>\
         <button data-go=\"next\" title=\"on one move (right arrow)\">&gt;</button>\
         <button data-go=\"last\" title=\"the position now\">&gt;|</button></div>\n\
         </div><div>\n<h2>Moves</h2>\n",
        escape(title),
        escape(status),
        escape(&ending),
        escape(live.player(Color::White).as_str()),
        escape(live.player(Color::Black).as_str()),
        format_date(file.created),
        total,
        if total == 1 { "" } else { "s" },
        format_date(last_at),
        names.last().map_or("", String::as_str),
        escape(&caption(live, total)),
    );
    body.push_str(&move_table(live, names));
    let _ = write!(
        body,
        "<h2>Record</h2>\n<ul><li><a href=\"{stem}.txt\" download>Transcript</a> \
         (read by <code>yinsh-pbem replay</code>)</li>\
         <li><a href=\"{stem}.sgf\" download>Boardspace SGF</a></li></ul>\n</div></div>\n",
    );
    body.push_str(&step_script(live, names));
    body
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

/// The moves, each a link to the picture after it (the no-script way to step).
fn move_table(live: &LiveGame, names: &[String]) -> String {
    let turns = &live.file().turns;
    let mut out = String::from("<table class=\"moves\"><tr><td></td><td><a href=\"");
    let _ = writeln!(
        out,
        "{}\" data-k=\"0\">start</a></td></tr>",
        names.first().map_or("", String::as_str)
    );
    for (r, pair) in turns.chunks(2).enumerate() {
        out.push_str("<tr>");
        for (i, t) in pair.iter().enumerate() {
            let k = 2 * r + i + 1;
            let auto = if t.auto { " (auto)" } else { "" };
            let _ = write!(
                out,
                "<td class=\"n\">{k}</td><td><a href=\"{}\" data-k=\"{k}\">{}</a>{auto}</td>",
                names.get(k).map_or("", String::as_str),
                escape(&t.text)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</table>\n");
    out
}

/// The script that steps through the pictures in place (buttons, arrow keys, the
/// move links); without it the links open the pictures.
fn step_script(live: &LiveGame, names: &[String]) -> String {
    let list = |items: Vec<String>| {
        items
            .iter()
            .map(|s| js_string(s))
            .collect::<Vec<_>>()
            .join(",")
    };
    let captions = (0..names.len()).map(|k| caption(live, k)).collect();
    format!(
        "<script>\n(function () {{\n\
         var P = [{}];\nvar C = [{}];\n\
         var img = document.getElementById('board'), cap = document.getElementById('caption');\n\
         var links = document.querySelectorAll('a[data-k]'), at = P.length - 1;\n\
         function show(k) {{\n\
           at = Math.max(0, Math.min(P.length - 1, k));\n\
           img.src = P[at]; img.alt = C[at]; cap.textContent = C[at];\n\
           links.forEach(function (a) {{ a.className = (+a.dataset.k === at) ? 'here' : ''; }});\n\
         }}\n\
         var go = {{ first: function () {{ show(0); }}, prev: function () {{ show(at - 1); }},\n\
           next: function () {{ show(at + 1); }}, last: function () {{ show(P.length - 1); }} }};\n\
         document.querySelectorAll('#step button').forEach(function (b) {{\n\
           b.addEventListener('click', go[b.dataset.go]); }});\n\
         links.forEach(function (a) {{ a.addEventListener('click', function (e) {{\n\
           e.preventDefault(); show(+a.dataset.k); }}); }});\n\
         document.addEventListener('keydown', function (e) {{\n\
           if (e.key === 'ArrowLeft') go.prev(); if (e.key === 'ArrowRight') go.next(); }});\n\
         document.getElementById('step').hidden = false;\n\
         show(at);\n}})();\n</script>\n",
        list(names.to_vec()),
        list(captions),
    )
}

/// `s` as a JavaScript string literal that cannot end the script or the string.
fn js_string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::js_string;

    #[test]
    fn js_strings_cannot_close_the_script() {
        assert_eq!(
            js_string("a\"b</script>\\"),
            r#""a\"b\u003c/script\u003e\\""#
        );
    }
}
