//! Writing a record in Boardspace's YINSH SGF: the header, then one node per atomic
//! action, in the spellings Boardspace itself uses (`place wr  F 6`, `move F 6 E 6`,
//! `remove w H 8 D 4`, `remove wr D 5`, `resign`, `offerdraw` and `acceptdraw`; a
//! pass as `pass`), so that
//! Boardspace-style readers, and [`super::read`], take it back.

use std::fmt::Write;

use super::syntax::escape;
use super::{Record, RecordEnd};
use crate::rules::{Action, Color, Game, Point, Variant};

/// The SGF text of `record`. Actions that do not follow the rules from the empty
/// board are written as far as they do.
///
/// ```
/// use yinsh_pbem::notation::sgf::{Record, write};
/// use yinsh_pbem::rules::{Action, Variant};
/// let record = Record {
///     variant: Variant::Blitz,
///     white: "ann".into(),
///     black: "bob".into(),
///     date: None,
///     actions: vec![Action::Place("g11".parse().unwrap())],
///     ending: None,
/// };
/// let text = write(&record);
/// assert!(text.contains("SU[yinsh-blitz]"));
/// assert!(text.contains("; P0[1 place wr  G 11]"));
/// ```
pub fn write(record: &Record) -> String {
    write_in(record, None)
}

/// The SGF text of `record`, played in the event `event` (a tournament's name and
/// round: `EV[Spring]RO[2]`, after the game's name).
///
/// ```
/// use yinsh_pbem::notation::sgf::{Record, write_in};
/// use yinsh_pbem::rules::Variant;
/// let record = Record { variant: Variant::Normal, white: "ann".into(), black: "bob".into(),
///     date: None, actions: vec![], ending: None };
/// assert!(write_in(&record, Some(("Spring", 2))).contains("\nEV[Spring]\nRO[2]\n"));
/// ```
pub fn write_in(record: &Record, played_in: Option<(&str, u32)>) -> String {
    let mut out = String::from("(;\nGM[24]VV[2]\n");
    let su = match record.variant {
        Variant::Normal => "Yinsh",
        Variant::Blitz => "yinsh-blitz",
    };
    let (white, black) = (name(&record.white), name(&record.black));
    let _ = writeln!(out, "SU[{su}]\nGN[{}]", escape(&format!("{white}-{black}")));
    if let Some((name, round)) = played_in {
        let _ = writeln!(out, "EV[{}]\nRO[{round}]", escape(name));
    }
    if let Some(date) = &record.date {
        let _ = writeln!(out, "DT[{}]", escape(date));
    }
    let _ = writeln!(
        out,
        "P0[id \"{}\"]\nP1[id \"{}\"]",
        escape(&white),
        escape(&black)
    );
    out.push_str("; P0[0 Start White]\n");
    let mut game = Game::new(record.variant);
    let mut number = 1;
    for &action in &record.actions {
        let Some(side) = game.to_act() else { break };
        if game.play(action).is_err() {
            break;
        }
        let _ = writeln!(out, "; {}[{number} {}]", player(side), event(side, action));
        number += 1;
    }
    match record.ending {
        Some(RecordEnd::Resigned(side)) => {
            let _ = writeln!(out, "; {}[{number} resign]", player(side));
        }
        // Offered by the side to act (White once the game is over), accepted by the other.
        Some(RecordEnd::DrawAgreed) => {
            let offers = game.to_act().unwrap_or(Color::White);
            let _ = writeln!(out, "; {}[{number} offerdraw]", player(offers));
            let _ = writeln!(
                out,
                "; {}[{} acceptdraw]",
                player(offers.other()),
                number + 1
            );
        }
        None => {}
    }
    out.push_str(")\n");
    out
}

/// A player's name without the characters the header's quoting cannot hold.
fn name(name: &str) -> String {
    name.chars()
        .filter(|&c| c != '"' && !c.is_control())
        .collect()
}

/// `P0` for White, `P1` for Black.
fn player(side: Color) -> &'static str {
    match side {
        Color::White => "P0",
        Color::Black => "P1",
    }
}

/// Boardspace's spelling of a point: `G 11`.
fn point(p: Point) -> String {
    format!("{} {}", p.letter().to_ascii_uppercase(), p.number())
}

/// The event text of `action` made by `side`.
fn event(side: Color, action: Action) -> String {
    let c = match side {
        Color::White => 'w',
        Color::Black => 'b',
    };
    match action {
        Action::Place(p) => format!("place {c}r  {}", point(p)),
        Action::Move { from, to } => format!("move {} {}", point(from), point(to)),
        Action::RemoveRow(row) => format!("remove {c} {} {}", point(row.start()), point(row.end())),
        Action::RemoveRing(p) => format!("remove {c}r {}", point(p)),
        Action::Pass => "pass".to_string(),
    }
}
