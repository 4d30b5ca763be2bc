//! Replays of 408 real games from Boardspace.net (../shared/data/boardspace-yinsh)
//! through the engine, atomic action by atomic action: every action must be legal for
//! the side the record names, and each game must end as the record says; then turn
//! by turn, each written in our notation and played back through it. Also
//! Boardspace's own `G 11` spelling of our points, read from its `.sgf` files.

use std::collections::BTreeSet;

use yinsh_pbem::notation::{play_turn, write_turn};
use yinsh_pbem::rules::{Action, Color, EndReason, Game, Outcome, Point, Variant};

use crate::support::data::boardspace_dir;
use crate::support::turns::{group_turns, turn_complete};

/// One game of `atomic-moves.tsv`, with its variant from `index.tsv`.
pub(crate) struct Record {
    /// The `.sgf` file, relative to the data directory.
    pub(crate) file: String,
    pub(crate) variant: Variant,
    /// `W+rings`, `B+resign`, ...
    pub(crate) result: String,
    /// The atomic actions, each with the side that made it.
    pub(crate) actions: Vec<(Color, Action)>,
}

/// Every game of the data set, or `None` (with a message) when it is absent.
pub(crate) fn records() -> Option<Vec<Record>> {
    let dir = boardspace_dir()?;
    let index = std::fs::read_to_string(dir.join("index.tsv")).expect("index.tsv");
    let variants: std::collections::HashMap<String, Variant> = index
        .lines()
        .skip(1)
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let v = if cols[1] == "yinsh-blitz" {
                Variant::Blitz
            } else {
                Variant::Normal
            };
            (cols[0].to_string(), v)
        })
        .collect();
    let text = std::fs::read_to_string(dir.join("atomic-moves.tsv")).expect("atomic-moves.tsv");
    let recs: Vec<Record> = text
        .lines()
        .skip(1)
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            let actions = cols[2]
                .split_whitespace()
                .map(|tok| {
                    let (side, act) = tok.split_once(':').expect("side:action");
                    let side = if side == "W" {
                        Color::White
                    } else {
                        Color::Black
                    };
                    (side, act.parse().unwrap_or_else(|e| panic!("{tok}: {e}")))
                })
                .collect();
            Record {
                file: cols[0].to_string(),
                variant: variants[cols[0]],
                result: cols[1].to_string(),
                actions,
            }
        })
        .collect();
    Some(recs)
}

#[test]
fn index_names_both_variants() {
    let Some(dir) = boardspace_dir() else { return };
    let index = std::fs::read_to_string(dir.join("index.tsv")).unwrap();
    let variants: std::collections::BTreeSet<&str> = index
        .lines()
        .skip(1)
        .map(|l| l.split('\t').nth(1).unwrap())
        .collect();
    assert_eq!(
        variants.into_iter().collect::<Vec<_>>(),
        vec!["yinsh", "yinsh-blitz"]
    );
}

#[test]
fn every_boardspace_game_replays_to_its_recorded_result_section_1() {
    let Some(recs) = records() else { return };
    assert_eq!(recs.len(), 408);
    for rec in &recs {
        let mut game = Game::new(rec.variant);
        for (k, &(side, action)) in rec.actions.iter().enumerate() {
            assert_eq!(
                game.to_act(),
                Some(side),
                "{} action {} {action}",
                rec.file,
                k + 1
            );
            assert!(
                game.legal_actions().contains(&action),
                "{} action {} {action} not listed",
                rec.file,
                k + 1
            );
            game.play(action)
                .unwrap_or_else(|e| panic!("{} action {} {action}: {e}", rec.file, k + 1));
            assert_eq!(game.markers_on_board() + game.markers_in_pool(), 51);
        }
        let (winner, how) = rec.result.split_once('+').unwrap();
        let winner = if winner == "W" {
            Color::White
        } else {
            Color::Black
        };
        match how {
            "rings" => {
                let end = game
                    .ending()
                    .unwrap_or_else(|| panic!("{} did not end", rec.file));
                assert_eq!(end.outcome, Outcome::Win(winner), "{}", rec.file);
                assert_eq!(end.reason, EndReason::RingsRemoved, "{}", rec.file);
                assert_eq!(game.rings_removed(winner), rec.variant.rings_to_win());
            }
            "resign" => {
                assert!(!game.is_over(), "{} ended before the resignation", rec.file);
                game.resign(winner.other()).unwrap();
                assert_eq!(game.outcome(), Some(Outcome::Win(winner)));
            }
            other => panic!("unknown result {other}"),
        }
    }
}

/// Boardspace's spelling of a point, an upper-case letter and a number as two words
/// (`G` `11`), read as ours (`g11`); `None` for words that are not such a pair.
fn boardspace_point(letter: &str, number: &str) -> Option<Result<Point, String>> {
    let is_letter = letter.len() == 1 && letter.chars().all(|c| c.is_ascii_uppercase());
    let is_number = !number.is_empty() && number.chars().all(|c| c.is_ascii_digit());
    let ours = format!("{}{number}", letter.to_ascii_lowercase());
    (is_letter && is_number).then(|| ours.parse().map_err(|e| format!("{letter} {number}: {e}")))
}

#[test]
fn boardspace_writes_our_points_as_letter_space_number_section_1() {
    // yinsh-rules.md §1: Boardspace coordinates are ours, written `G 11` for `g11`.
    // Every such pair in the .sgf files must be one of our 85 points, and the ring
    // placements (`place wr  G 2`) must be the placements of atomic-moves.tsv.
    let Some(recs) = records() else { return };
    let dir = boardspace_dir().expect("records() found it");
    let mut spelled = BTreeSet::new();
    for rec in &recs {
        let bytes = std::fs::read(dir.join(&rec.file)).expect("an .sgf file");
        let text = String::from_utf8_lossy(&bytes);
        let mut placed = Vec::new();
        for line in text.lines() {
            let words: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == '[' || c == ']')
                .filter(|w| !w.is_empty())
                .collect();
            for pair in words.windows(2) {
                if let Some(point) = boardspace_point(pair[0], pair[1]) {
                    let point = point.unwrap_or_else(|e| panic!("{}: {e}", rec.file));
                    spelled.insert(point);
                }
            }
            for w in words.windows(4) {
                if let ["place", "wr" | "br", letter, number] = w {
                    match boardspace_point(letter, number) {
                        Some(Ok(point)) => placed.push(point),
                        _ => panic!("{}: {line}", rec.file),
                    }
                }
            }
        }
        let want: Vec<Point> = rec
            .actions
            .iter()
            .filter_map(|&(_, a)| match a {
                Action::Place(p) => Some(p),
                _ => None,
            })
            .collect();
        assert_eq!(placed, want, "{}", rec.file);
    }
    assert_eq!(
        spelled.len(),
        Point::ALL.len(),
        "every point is spelled somewhere"
    );
}

/// Every game again, a whole turn at a time: each turn written in the notation, then
/// parsed, resolved and played (`notation::play_turn`) to the same actions.
#[test]
fn every_boardspace_game_replays_turn_by_turn_section_5() {
    let Some(recs) = records() else { return };
    let mut games = 0;
    let mut turns_with_removals = 0;
    for rec in &recs {
        let actions: Vec<Action> = rec.actions.iter().map(|&(_, a)| a).collect();
        let start = Game::new(rec.variant);
        let mut atomic = start;
        for &a in &actions {
            atomic.play(a).unwrap();
        }
        let mut game = start;
        let turns = group_turns(start, &actions);
        for (k, (before, turn)) in turns.iter().enumerate() {
            assert_eq!(&game, before);
            if !turn_complete(before, &atomic) && k + 1 == turns.len() {
                // The record stops inside a turn: the player resigned mid-removal.
                assert!(
                    rec.result.ends_with("+resign"),
                    "{} ends mid-turn",
                    rec.file
                );
                atomic = *before;
                break;
            }
            let text = write_turn(turn);
            let played = play_turn(&mut game, &text)
                .unwrap_or_else(|e| panic!("{} turn {} `{text}`: {e}", rec.file, k + 1));
            assert_eq!(&played, turn, "{} turn {} `{text}`", rec.file, k + 1);
            turns_with_removals += usize::from(text.contains('x'));
        }
        assert_eq!(game, atomic, "{}", rec.file);
        games += 1;
    }
    assert_eq!(games, 408);
    assert!(turns_with_removals > 408, "{turns_with_removals}");
}
