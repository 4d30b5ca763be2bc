//! The "Play your move on the board" link of a board mail to the player to move
//! (issue 27): the game's page, with the play token in the URL's fragment (a
//! fragment is never sent to a web server), where the player clicks the move and
//! their mail program sends it. The same words in the text part and the HTML part
//! (`html.rs` writes its paragraph).

/// The link's words.
pub const PLAY_YOUR_MOVE: &str = "Play your move on the board";

/// The text part's lines of the link to `url`, after the rest of the body.
///
/// ```
/// use yinsh_pbem::server::text::play_link::text;
/// assert_eq!(
///     text("https://example.org/games/101/#play=t"),
///     "\nPlay your move on the board (click it, then send the mail it writes):\n    https://example.org/games/101/#play=t\n"
/// );
/// ```
pub fn text(url: &str) -> String {
    format!("\n{PLAY_YOUR_MOVE} (click it, then send the mail it writes):\n    {url}\n")
}
