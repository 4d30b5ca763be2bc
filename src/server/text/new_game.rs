//! What a new game's board mail adds for its players (issue 26): who challenged the
//! reader, which other player is on vacation as it starts, and, at its foot, what
//! the Subject of the game's mails says.

use std::fmt::Write as _;

use crate::server::game::extra;
use crate::server::game::vacation::Vacations;
use crate::server::model::UserId;
use crate::server::store::GameFile;
use crate::server::store::SubjectStyle;

use super::dates::format_date;
use super::seeks;

/// The lines below a new game's first line, for `reader`: that it is a blitz game;
/// the open seek it began with (`text::seeks`), else who challenged them, when
/// the other player did (finding 5: the server's words, fine for anyone); each
/// other player on vacation as the game starts, and until when (finding 7:
/// whoever challenges them is told).
pub fn lines(file: &GameFile, reader: Option<&UserId>, vacations: Option<&Vacations>) -> String {
    let mut out = String::new();
    if file.variant == crate::rules::Variant::Blitz {
        out.push_str("This is a blitz game: the first ring removed wins.\n");
    }
    if let Some(line) = seeks::began_with(file) {
        let _ = writeln!(out, "{line}");
    } else if let (Some(by), Some(reader)) = (extra::started_by(file), reader)
        && by.key() != reader.key()
    {
        let _ = writeln!(out, "{by} challenged you.");
    }
    let Some(vacations) = vacations else {
        return out;
    };
    for player in [&file.white, &file.black] {
        if reader.is_some_and(|r| r == player) {
            continue;
        }
        if let Some(p) = vacations.current(player, file.created) {
            let _ = writeln!(
                out,
                "{player} is on vacation until {}: their clock stops until then.",
                format_date(p.until)
            );
        }
    }
    out
}

/// The foot of a new game's mail to a player (finding 16): what its Subject says,
/// and the setting that changes it.
pub fn subject_note(style: SubjectStyle) -> String {
    match style {
        SubjectStyle::Moving => "\nThe Subject of this game's mails names the player to move; \" **\" at its end\nmeans the mail carries a comment. One Subject per game instead (for mail\nprograms that thread by Subject): yinsh settings <userid> <password> subject stable\n".to_string(),
        SubjectStyle::Stable => "\nEvery mail of this game has this one Subject (your setting \"subject stable\");\nthe first lines say whose turn it is and whether the mail carries a comment.\n".to_string(),
    }
}
