//! Reading Boardspace's YINSH SGF: the header (players, variant, date) and the stream
//! of GUI events, turned into atomic actions and checked against the rules as they
//! come. A ring move is written as a marker placed on the ring (`place w  F 6`) and a
//! drop (`drop board  E 6`); a `pick board` right after the drop takes the ring up
//! again, so the move is settled only by the next other event.

use super::syntax::nodes;
use super::{Record, RecordEnd, SgfError};
use crate::rules::{Action, Color, Game, IllegalAction, Point, Row, Variant};

/// The record in `text`, every action checked against the rules.
///
/// ```
/// use yinsh_pbem::notation::sgf;
/// let text = "(;SU[Yinsh]\n; P0[1 place wr  F 6]\n; P1[3 place br  C 3]\n)";
/// let record = sgf::read(text).unwrap();
/// assert_eq!(record.actions.len(), 2);
/// assert!(sgf::read("(;SU[Yinsh]\n; P1[1 place br  F 6]\n)").is_err());
/// ```
pub fn read(text: &str) -> Result<Record, SgfError> {
    let nodes = nodes(text)?;
    let mut reader = Reader {
        record: Record {
            variant: Variant::Normal,
            white: "White".to_string(),
            black: "Black".to_string(),
            date: None,
            actions: Vec::new(),
            ending: None,
        },
        game: Game::new(Variant::Normal),
        ring: None,
    };
    let mut started = false;
    for (k, node) in nodes.iter().enumerate() {
        for property in node {
            match (property.id.as_str(), started) {
                ("SU", false) => reader.variant(&property.values[0])?,
                ("GM", false) if property.values[0].trim() != "24" => {
                    return Err(SgfError::NotYinsh {
                        found: format!("GM[{}]", property.values[0]),
                    });
                }
                ("DT", false) => reader.record.date = Some(property.values[0].clone()),
                ("P0" | "P1", _) => {
                    let side = if property.id == "P0" {
                        Color::White
                    } else {
                        Color::Black
                    };
                    let value = &property.values[0];
                    if let Some(name) = player_id(value) {
                        match side {
                            Color::White => reader.record.white = name,
                            Color::Black => reader.record.black = name,
                        }
                    } else {
                        started = true;
                        reader.event(k + 1, side, value)?;
                    }
                }
                _ => {}
            }
        }
    }
    reader.settle(nodes.len(), "the end of the record")?;
    Ok(reader.record)
}

/// The name in a `P0[id "name"]` header value.
fn player_id(value: &str) -> Option<String> {
    let rest = value.trim().strip_prefix("id")?.trim();
    Some(rest.trim_matches('"').to_string())
}

/// The state of a reading: the record so far, the game it has reached and the ring
/// move under way.
struct Reader {
    record: Record,
    game: Game,
    /// The ring being moved: by whom, where it stood, and where it was dropped (if
    /// it was).
    ring: Option<(Color, Point, Option<Point>)>,
}

impl Reader {
    /// Set the variant from `SU`.
    fn variant(&mut self, su: &str) -> Result<(), SgfError> {
        self.record.variant = match su.trim().to_ascii_lowercase().as_str() {
            "yinsh" => Variant::Normal,
            "yinsh-blitz" => Variant::Blitz,
            _ => {
                return Err(SgfError::NotYinsh {
                    found: su.to_string(),
                });
            }
        };
        self.game = Game::new(self.record.variant);
        Ok(())
    }

    /// Handle one event (`P0`/`P1` value) of node `node`, made by `side`.
    fn event(&mut self, node: usize, side: Color, value: &str) -> Result<(), SgfError> {
        let words = event_words(value);
        let bad = || SgfError::Event {
            node,
            text: value.trim().to_string(),
        };
        let point = |at: usize| -> Result<Point, SgfError> {
            match (words.get(at), words.get(at + 1)) {
                (Some(letter), Some(number)) => {
                    format!("{letter}{number}").parse().map_err(|_| bad())
                }
                _ => Err(bad()),
            }
        };
        let verb = verb_of(&words);
        let verb: Vec<&str> = verb.iter().map(String::as_str).collect();
        if !matches!(verb.as_slice(), ["drop" | "pick", "board"]) {
            self.settle(node, value)?;
        }
        match verb.as_slice() {
            ["start", ..] | ["done", ..] | ["time", ..] => Ok(()),
            ["pick" | "drop", "wr" | "br"] => Ok(()),
            ["place", "wr" | "br"] => self.play(node, side, value, Action::Place(point(2)?)),
            ["place", "w" | "b"] => {
                self.ring = Some((side, point(2)?, None));
                Ok(())
            }
            ["drop", "board"] => match self.ring {
                Some((by, from, None)) if by == side => {
                    self.ring = Some((by, from, Some(point(2)?)));
                    Ok(())
                }
                _ => Err(bad()),
            },
            ["pick", "board"] => match self.ring {
                Some((by, from, Some(_))) if by == side => {
                    self.ring = Some((by, from, None));
                    Ok(())
                }
                _ => Err(bad()),
            },
            ["move", ..] => {
                let (from, to) = (point(1)?, point(3)?);
                self.play(node, side, value, Action::Move { from, to })
            }
            ["remove", "w" | "b"] => {
                let row = Row::from_ends(point(2)?, point(4)?).ok_or_else(bad)?;
                self.play(node, side, value, Action::RemoveRow(row))
            }
            ["remove", "wr" | "br"] => self.play(node, side, value, Action::RemoveRing(point(2)?)),
            ["pass", ..] => self.play(node, side, value, Action::Pass),
            ["resign", ..] => {
                self.game.resign(side).map_err(illegal(node, value))?;
                self.record.ending = Some(RecordEnd::Resigned(side));
                Ok(())
            }
            // An offer or its refusal changes nothing; the acceptance ends the game.
            ["offerdraw" | "declinedraw", ..] => Ok(()),
            ["acceptdraw", ..] => {
                self.game.agree_draw().map_err(illegal(node, value))?;
                self.record.ending = Some(RecordEnd::DrawAgreed);
                Ok(())
            }
            _ => Err(bad()),
        }
    }

    /// Play the ring move under way, if its ring has been dropped.
    fn settle(&mut self, node: usize, text: &str) -> Result<(), SgfError> {
        match self.ring.take() {
            Some((side, from, Some(to))) => self.play(node, side, text, Action::Move { from, to }),
            Some((_, from, None)) => Err(SgfError::RingInHand { node, from }),
            None => Ok(()),
        }
    }

    /// Play `action`, made by `side` in node `node` (event `text`).
    fn play(
        &mut self,
        node: usize,
        side: Color,
        text: &str,
        action: Action,
    ) -> Result<(), SgfError> {
        if self.game.to_act() != Some(side) {
            return Err(SgfError::WrongSide {
                node,
                text: text.trim().to_string(),
                by: side,
                expected: self
                    .game
                    .to_act()
                    .map_or("nobody".to_string(), |c| c.to_string()),
            });
        }
        self.game.play(action).map_err(illegal(node, text))?;
        self.record.actions.push(action);
        Ok(())
    }
}

/// The words of an event, without its number (most events start with it; the
/// robot's moves do not).
fn event_words(value: &str) -> Vec<&str> {
    let mut words: Vec<&str> = value.split_whitespace().collect();
    if words
        .first()
        .is_some_and(|w| w.bytes().all(|b| b.is_ascii_digit()))
    {
        words.remove(0);
    }
    words
}

/// The first two words of an event, in lower case: what it does (`place`, `move`,
/// `drop board`, ...).
fn verb_of(words: &[&str]) -> Vec<String> {
    words
        .iter()
        .take(2)
        .map(|w| w.to_ascii_lowercase())
        .collect()
}

/// The error of the event `text` of node `node` that the rules refuse.
fn illegal(node: usize, text: &str) -> impl FnOnce(IllegalAction) -> SgfError + '_ {
    move |reason| SgfError::Illegal {
        node,
        text: text.trim().to_string(),
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLACED: &str = "(;GM[24]SU[Yinsh]P0[id \"ann\"]P1[id \"bob\"]
; P0[0 Start White]
; P0[1 place wr  F 6]; P1[3 place br  C 3]; P0[5 place wr  E 5]; P1[7 place br  H 7]
; P0[9 place wr  G 7]; P1[11 place br  F 9]; P0[13 place wr  H 8]; P1[15 place br  G 6]
; P0[17 pick wr]; P0[18 drop wr]
; P0[19 place wr  F 7]; P1[21 place br  E 2]
";

    fn read_with(events: &str) -> Result<Record, SgfError> {
        read(&format!("{PLACED}{events})"))
    }

    #[test]
    fn a_drop_taken_back_is_no_move_and_the_robot_moves_in_one_event() {
        let r = read_with("; P0[21 place w  F 6]; P0[22 drop board  E 6]; P0[23 pick board  F 6]; P0[24 drop board  D 6]\n; P1[move F 9 A 4]\n; P0[30 resign]\n").unwrap();
        assert_eq!((r.white.as_str(), r.black.as_str()), ("ann", "bob"));
        let moves: Vec<String> = r.actions[10..].iter().map(|a| a.to_string()).collect();
        assert_eq!(moves, ["f6-d6", "f9-a4"]);
        assert_eq!(r.ending, Some(RecordEnd::Resigned(Color::White)));
        assert!(r.game().unwrap().is_over());
    }

    #[test]
    fn bad_records_are_refused_with_the_node() {
        let e = read_with("; P1[21 place w  F 6]\n; P1[22 drop board  E 6]\n").unwrap_err();
        assert!(
            matches!(
                e,
                SgfError::WrongSide {
                    by: Color::Black,
                    ..
                }
            ),
            "{e}"
        );
        let e = read_with("; P0[21 place w  F 6]\n; P0[22 drop board  F 8]\n").unwrap_err();
        assert!(matches!(e, SgfError::Illegal { .. }), "{e}");
        let e = read_with("; P0[21 place w  F 6]\n").unwrap_err();
        assert!(e.to_string().contains("never put down"), "{e}");
        let e = read_with("; P0[21 fly  F 6]\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "node 15: cannot read the event `21 fly  F 6`"
        );
        let e = read_with("; P0[21 move F 6 Z 9]\n").unwrap_err();
        assert!(matches!(e, SgfError::Event { .. }), "{e}");
        let e = read("(;GM[1]SU[Go])").unwrap_err();
        assert!(matches!(e, SgfError::NotYinsh { .. }), "{e}");
        let e = read("(;SU[Gipf])").unwrap_err();
        assert_eq!(e.to_string(), "not a YINSH record: the game is `Gipf` (SU)");
    }
}
