//! The texts of the listings (`exec::listing`, `exec::all_games`): the table of
//! games of `yinsh games` (the server's games going on, or one player's), the line
//! under a page of a listing ([`Page`]), and the short answers of `show` and
//! `showas` (games not all shown, none to show), with what an address nobody
//! confirmed reads instead. A filter (`all`, `active`, `inactive`, `next`) is given
//! as the command wrote it (its `Display`).

use std::fmt::{Display, Write as _};

use crate::rules::{Outcome, Variant};
use crate::server::game::record::LiveGame;
use crate::server::model::UserId;

/// What an unconfirmed address reads instead of a `yinsh games` listing, which names
/// the userids the mail named.
pub const LISTING_WITHHELD: &str = "The list of games is not sent to an address nobody has confirmed yet: it names\nthe userids of the command. Reply to the \"verify\" mail the server sent this address,\nthen ask again.\n";

/// The line under `yinsh games` without a userid and a filter other than `active`.
pub const ONE_PLAYER_GAMES: &str =
    "The games of one player, with all, inactive or next: \"yinsh games <userid> all\".\n";

/// One page of a listing: its number (1 for the first, the most recent entries),
/// how many entries a page holds, how many this one shows, and how many there are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// The page's number, from 1.
    pub number: u32,
    /// Entries a page holds.
    pub per_page: usize,
    /// Entries this page shows.
    pub shown: usize,
    /// Entries in all.
    pub total: usize,
}

impl Page {
    /// The entries before this page.
    pub fn skipped(&self) -> usize {
        (self.number as usize - 1).saturating_mul(self.per_page)
    }

    /// Whether the listing needs the line under the page: more than a page, or a
    /// page after the first.
    fn is_paged(&self) -> bool {
        self.total > self.per_page || self.number > 1
    }
}

/// The listing a page belongs to, for the command that asks for the next page.
enum Listed<'a> {
    /// `yinsh games`: the server's games going on.
    ServerGames,
    /// `yinsh games <userid> <filter>`.
    GamesOf(&'a UserId, &'a dyn Display),
    /// `yinsh history [<userid>]`.
    History(Option<&'a dyn Display>),
}

/// The line under a page of a listing: which entries it shows, and how to ask for
/// the earlier ones when there are any.
fn paging(page: &Page, listed: Listed<'_>) -> String {
    let (skipped, shown, total) = (page.skipped(), page.shown, page.total);
    let next = page.number + 1;
    let (what, next) = match listed {
        Listed::ServerGames => ("", format!("yinsh games page {next}")),
        Listed::GamesOf(userid, filter) => {
            ("", format!("yinsh games {userid} {filter} page {next}"))
        }
        Listed::History(player) => (
            " finished games",
            format!(
                "yinsh history {}page {next}",
                player.map_or(String::new(), |p| format!("{p} "))
            ),
        ),
    };
    let mut line = if shown == 0 {
        format!("There are {total}{what} in all; this page is past the end.")
    } else {
        format!(
            "These are {}-{} of {total}{what}, the most recent first.",
            skipped + 1,
            skipped + shown
        )
    };
    if skipped + shown < total {
        line.push_str(&format!(" For earlier ones send: {next}"));
    }
    line
}

/// The line under a page of `yinsh history` (`player`'s, or everyone's), when the
/// history has more than a page.
pub(super) fn history_paging(page: &Page, player: Option<&dyn Display>) -> Option<String> {
    page.is_paged()
        .then(|| paging(page, Listed::History(player)))
}

/// The header of the table of `yinsh games`.
fn games_header() -> String {
    format!(
        "{:>6}  {:<12} {:<12} {:>5}  {:<6} Status",
        "Board", "White", "Black", "Moves", ""
    )
}

/// One game's line in the table of `yinsh games`.
fn game_line(live: &LiveGame) -> String {
    let status = match (live.player_to_move(), live.game().outcome()) {
        (Some(p), _) => format!("{p} to move"),
        (None, Some(Outcome::Win(c))) => format!("won by {}", live.player(c)),
        (None, _) => "tie".to_string(),
    };
    let variant = if live.game().variant() == Variant::Blitz {
        "blitz"
    } else {
        ""
    };
    format!(
        "{:>6}  {:<12} {:<12} {:>5}  {:<6} {}",
        live.board(),
        live.file().white,
        live.file().black,
        live.file().turns.len(),
        variant,
        status
    )
    .trim_end()
    .to_string()
}

/// The table of `games`: its header, then a line a game; nothing without a game.
fn games_table(games: &[LiveGame]) -> String {
    let mut out = String::new();
    if !games.is_empty() {
        let _ = writeln!(out, "{}", games_header());
        for live in games {
            let _ = writeln!(out, "{}", game_line(live));
        }
    }
    out
}

/// `yinsh games` without a userid: a `page` of the server's games going on
/// (`games`), and where the games that ended are.
pub fn server_games(page: &Page, games: &[LiveGame]) -> String {
    let mut body = format!("Games going on at this server ({}):\n", page.total);
    body.push_str(&games_table(games));
    if page.is_paged() {
        let _ = writeln!(body, "{}", paging(page, Listed::ServerGames));
    }
    body.push_str("\nThe games that have ended: send \"yinsh history\".\n");
    body
}

/// `yinsh games <userid> <filter>`: a `page` of the games of `userid` that `filter`
/// keeps (`games`), then an empty line.
pub fn games_of(userid: &UserId, filter: &dyn Display, page: &Page, games: &[LiveGame]) -> String {
    let mut body = format!("{filter} games of {userid} ({}):\n", page.total);
    body.push_str(&games_table(games));
    if page.is_paged() {
        let _ = writeln!(body, "{}", paging(page, Listed::GamesOf(userid, filter)));
    }
    body.push('\n');
    body
}

/// `yinsh games` naming `userid` (as written), which has no account.
pub fn no_such_userid(userid: &dyn Display) -> String {
    format!("{userid}: no such userid\n\n")
}

/// Only the board mails of the `shown` most recent of the `total` games of `userid`
/// that `filter` keeps were sent: how to list them all.
pub fn more_games(userid: &UserId, filter: &dyn Display, total: usize, shown: usize) -> String {
    format!(
        "{userid} has {total} games ({filter}): the board mails of the {shown} most recent were sent.\n\
         For a list of them all send: yinsh games {userid} {filter}\n\
         For one board send: yinsh show <board>\n"
    )
}

/// `showas`: `userid` has no games that `filter` keeps.
pub fn no_games_of(userid: &UserId, filter: &dyn Display) -> String {
    format!("{userid} has no {filter} games.\n")
}

/// [`no_games_of`] for an address nobody confirmed: the userid is not repeated.
pub fn no_games_of_plain(filter: &dyn Display) -> String {
    format!("This player has no {filter} games.\n")
}

/// `show <userid>+`: `userids` have no games that `filter` keeps.
pub fn no_games_for(userids: &[UserId], filter: &dyn Display) -> String {
    format!("No {filter} games for: {}\n", UserId::join(userids, ", "))
}

/// [`no_games_for`] for an address nobody confirmed: the userids are not repeated.
pub fn no_games_for_plain(filter: &dyn Display) -> String {
    format!("No {filter} games for the userids named.\n")
}

#[cfg(test)]
mod tests {
    use super::{Listed, Page, paging};

    #[test]
    fn a_page_says_which_entries_it_shows_and_how_to_ask_for_earlier_ones() {
        let page = |number, shown| Page {
            number,
            per_page: 30,
            shown,
            total: 45,
        };
        assert_eq!(
            paging(&page(1, 30), Listed::ServerGames),
            "These are 1-30 of 45, the most recent first. For earlier ones send: yinsh games page 2"
        );
        assert_eq!(
            paging(&page(2, 15), Listed::History(None)),
            "These are 31-45 of 45 finished games, the most recent first."
        );
        assert_eq!(
            paging(&page(3, 0), Listed::ServerGames),
            "There are 45 in all; this page is past the end."
        );
    }
}
