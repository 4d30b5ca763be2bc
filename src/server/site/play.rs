//! The play mode's part of a game's page (issue 27): the section `board.js` shows
//! with `#play=<token>` in the address (the turn as it grows, why a click was not
//! taken, undo, the pass and row buttons, the composed mail and its Subject to copy),
//! the note a used-up play link
//! gets, and for readers without the script the legal turns as mail links, grouped by
//! ring (placements a list of points). The links carry `<password>` where the script would put the token: the
//! token is in the address only, never in a file of the site.
//!
//! The composed mail has the command in its Subject only and an empty body: a move
//! mail's body is its comment, which the opponent reads.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::server::model::BoardId;
use crate::server::text::html::escape;

use super::legal::PlayData;

/// The play section, hidden until `board.js` finds a token; when the game has no
/// play mode (over, a robot to move), a hidden line `board.js` shows instead.
pub(super) fn play_section(play: Option<&PlayData>) -> String {
    let Some(play) = play else {
        return "<p id=\"play-none\" hidden>There is no move to play on this board now: \
                the game is over, or the move is a robot's.</p>\n"
            .to_string();
    };
    format!(
        "<section id=\"play\" hidden aria-live=\"polite\">\n<h2>Your move, {player}</h2>\n\
         <p id=\"play-help\"></p>\n<p id=\"play-why\" class=\"why\"></p>\n<p>Turn {k}: <code id=\"play-turn\"></code></p>\n\
         <p id=\"play-choices\"></p>\n\
         <p><button type=\"button\" id=\"play-undo\">Undo</button> \
         <a id=\"play-send\" class=\"button\" href=\"#\" hidden>Send the move by mail</a> \
         <button type=\"button\" id=\"play-copy\" hidden>Copy the Subject</button></p>\n\
         <div id=\"play-mail\" hidden><label>To <input id=\"play-to\" readonly></label>\
         <label>Subject <input id=\"play-subject\" readonly></label></div>\n\
         <p class=\"note\">The button opens your mail program with the move in the Subject; \
         send it from your own address. Without a mail program: write a mail to \
         {to} with the copied Subject.</p>\n</section>\n",
        player = escape(&play.player),
        k = play.k,
        to = escape(&play.to),
    )
}

/// The note `board.js` shows when the play link in the address is for a move already
/// played (it fills in the move's number): the link is used up, the page shows the
/// game as it is.
pub(super) const USED_LINK: &str = "<p id=\"play-used\" hidden role=\"status\">\
    This play link was for move <span id=\"play-used-k\"></span>, which has been played: \
    the link is used up. The board shows the game as it is now; the board mail that asks \
    for your next move brings a new link.</p>\n";

/// The legal turns as mail links, for readers without the script (a `<noscript>`):
/// placements as a list of points, ring moves grouped by the ring that moves.
pub(super) fn mail_links(board: BoardId, play: &PlayData) -> String {
    let mut groups: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for turn in &play.turns {
        let key = turn
            .actions
            .iter()
            .find_map(|a| match a.split_once('-') {
                _ if a == "--" => Some("Pass".to_string()),
                Some((from, _)) if !a.starts_with('x') => Some(format!("The ring on {from}")),
                None if !a.starts_with('x') => Some("Place a ring".to_string()),
                _ => None,
            })
            .unwrap_or_else(|| "Removals".to_string());
        groups.entry(key).or_default().push(&turn.text);
    }
    let mut out = format!(
        "<noscript><section id=\"links\">\n<h2>Play move {k} by mail ({player})</h2>\n\
         <p>Each link opens your mail program with the move to {to}; put your password \
         in place of <code>&lt;password&gt;</code> and send it.</p>\n",
        k = play.k,
        player = escape(&play.player),
        to = escape(&play.to),
    );
    for (group, turns) in &groups {
        let _ = write!(out, "<p class=\"links\">{}:", escape(group));
        for text in turns {
            let subject = format!(
                "yinsh move {board} {} <password> {text}#{}",
                play.player, play.k
            );
            let _ = write!(
                out,
                " <a href=\"mailto:{}?subject={}\">{}</a>",
                escape(&play.to),
                url_encode(&subject),
                escape(text)
            );
        }
        out.push_str("</p>\n");
    }
    out.push_str("</section></noscript>\n");
    out
}

/// `text` percent-encoded for a URL's query (every byte but letters, digits and
/// `-_.~`).
fn url_encode(text: &str) -> String {
    percent_encoding::utf8_percent_encode(text, URL_KEPT).to_string()
}

/// What `url_encode` escapes: every byte but the unreserved ones of RFC 3986.
const URL_KEPT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~');

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::site::legal::LegalTurn;

    #[test]
    fn a_subject_is_percent_encoded() {
        assert_eq!(
            url_encode("yinsh move 1 a <password> e5#1"),
            "yinsh%20move%201%20a%20%3Cpassword%3E%20e5%231"
        );
    }

    #[test]
    fn the_links_are_grouped_by_ring() {
        let turn = |t: &str, a: &[&str]| LegalTurn {
            text: t.to_string(),
            actions: a.iter().map(|s| s.to_string()).collect(),
        };
        let play = PlayData {
            to: "yinsh@example.net".to_string(),
            player: "alice".to_string(),
            side: 'W',
            k: 12,
            turns: vec![
                turn("e5-e8", &["e5-e8"]),
                turn("xa2-a6xb3;e5-e9", &["xa2-a6", "xb3", "e5-e9"]),
                turn("c3-c4", &["c3-c4"]),
            ],
        };
        let html = mail_links(101.into(), &play);
        let ring = html.find("The ring on e5:").expect("e5 group");
        assert!(html.find("The ring on c3:").expect("c3 group") < ring);
        assert!(html[ring..].contains(">xa2-a6xb3;e5-e9</a>"), "{html}");
        assert!(html.contains(
            "href=\"mailto:yinsh@example.net?subject=yinsh%20move%20101%20alice%20%3Cpassword%3E%20e5-e8%2312\""
        ));
    }
}
