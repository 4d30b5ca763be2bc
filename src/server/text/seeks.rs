//! The texts of the open seeks (issue 49): the answer to a seek posted, the list of
//! `yinsh seeks`, a seek withdrawn, a seek expired (tick's mail to its owner), the
//! lines a game's mails add for a game that began with a seek or that is unrated,
//! and tick's log lines of the seeks.

use std::fmt::Write as _;

use crate::server::model::{BoardId, UserId, Variant};
use crate::server::store::{GameFile, Seek, SeekColour, SeekId, SeekWish};

use super::dates::format_date;

/// One open seek as the lists show it: the seek and its owner's rating in its variant.
pub struct Listed<'a> {
    /// The seek.
    pub seek: &'a Seek,
    /// Its owner's rating in the seek's variant.
    pub rating: i32,
}

/// `normal` or `blitz`.
pub fn kind(v: Variant) -> &'static str {
    match v {
        Variant::Normal => "normal",
        Variant::Blitz => "blitz",
    }
}

/// `rated` or `unrated`.
pub fn rated(wish: &SeekWish) -> &'static str {
    if wish.rated { "rated" } else { "unrated" }
}

/// The range as the lists show it: `1400-1800`, or `any`.
pub fn range(wish: &SeekWish) -> String {
    wish.range.map_or("any".to_string(), |r| r.to_string())
}

/// The robot fallback as the lists show it: `robot3`, or `-`.
pub fn robot(wish: &SeekWish) -> String {
    wish.robot.map_or("-".to_string(), |n| format!("robot{n}"))
}

/// What a seek asks, in a sentence's words.
fn described(wish: &SeekWish) -> String {
    let article = if wish.rated { "a" } else { "an" };
    let mut out = format!("{article} {} {} game", rated(wish), kind(wish.variant));
    if let Some(r) = wish.range {
        let _ = write!(out, " against a player rated {r}");
    }
    match wish.colour {
        SeekColour::Any => {}
        SeekColour::White => out.push_str(", you playing White"),
        SeekColour::Black => out.push_str(", you playing Black"),
    }
    out
}

/// The answer to `yinsh seek`: its number and what happens next.
pub fn posted(seek: &Seek) -> String {
    let id = seek.id;
    let mut out = format!(
        "Your open seek #{id} is posted: {}.\nyinsh seeks lists it until another player takes it with\nyinsh take {id} <userid> <password>, until it expires on {},\nor until you withdraw it: yinsh withdraw {id} <userid> <password>\n",
        described(&seek.wish),
        format_date(seek.expires)
    );
    if let (Some(n), Some(at)) = (seek.wish.robot, seek.robot_at()) {
        let _ = writeln!(
            out,
            "If nobody takes it by {}, robot{n} plays you, as you asked.",
            format_date(at)
        );
    }
    out.push_str("When it is taken, the game starts and you get its first board mail.\n");
    out
}

/// The answer to `yinsh withdraw`.
pub fn withdrawn(id: SeekId) -> String {
    format!("Your open seek #{id} is withdrawn.\n")
}

/// Tick's mail to the owner of a seek that expired untaken.
pub fn expired(seek: &Seek) -> String {
    format!(
        "Nobody took your open seek #{} ({}) before it expired on {}: it is\nremoved. Post another any time: yinsh seek <userid> <password> [options]\n",
        seek.id,
        described(&seek.wish),
        format_date(seek.expires)
    )
}

/// The list of `yinsh seeks`.
pub fn list(seeks: &[Listed<'_>]) -> String {
    if seeks.is_empty() {
        return "No seek is open. Post one: yinsh seek <userid> <password> [-blitz] [-unrated]\n[-rating=<min>-<max>] [-robot=<n>] [-white|-black]\n".to_string();
    }
    let mut out =
        String::from("Open seeks (yinsh take <seekno> <userid> <password> starts the game):\n\n");
    let _ = writeln!(
        out,
        "{:>5}  {:<16} {:>6}  {:<6} {:<7}  {:<9}  {:<6}  Expires",
        "Seek", "Player", "Rating", "Kind", "Rated", "Range", "Robot"
    );
    for l in seeks {
        let s = l.seek;
        let colour = match s.wish.colour {
            SeekColour::Any => "",
            SeekColour::White => " (plays White)",
            SeekColour::Black => " (plays Black)",
        };
        let _ = writeln!(
            out,
            "{:>5}  {:<16} {:>6}  {:<6} {:<7}  {:<9}  {:<6}  {}{colour}",
            format!("#{}", s.id),
            s.owner.as_str(),
            l.rating,
            kind(s.wish.variant),
            rated(&s.wish),
            range(&s.wish),
            robot(&s.wish),
            format_date(s.expires),
        );
    }
    out
}

/// The line of a new game's mail for a game that began with open seek `file.extra.seek`.
pub fn began_with(file: &GameFile) -> Option<String> {
    let id = file.extra.seek?;
    let robot = [&file.white, &file.black]
        .into_iter()
        .find(|p| p.robot_level().is_some());
    Some(match robot {
        Some(r) => format!(
            "This game began with open seek #{id}: nobody took it within a day, so {r} plays it, as asked."
        ),
        None => format!("This game began with open seek #{id}."),
    })
}

/// The line of every mail of an unrated game.
pub fn unrated_line(file: &GameFile) -> Option<&'static str> {
    file.extra
        .unrated
        .then_some("This game is unrated: it changes nobody's rating.")
}

/// Tick's log line of a seek expired.
pub fn log_expired(id: SeekId, owner: &UserId) -> String {
    format!("open seek #{id} of {owner} expired")
}

/// Tick's log line of a seek the robot took.
pub fn log_robot(id: SeekId, owner: &UserId, board: BoardId) -> String {
    format!("open seek #{id} of {owner}: the robot's game {board} started")
}
