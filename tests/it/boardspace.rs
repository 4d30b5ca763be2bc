//! Replays of 408 real games from Boardspace.net (../shared/data/boardspace-yinsh)
//! through the engine, atomic action by atomic action: every action must be legal for
//! the side the record names, and each game must end as the record says.

use yinsh_pbem::rules::{Action, Color, EndReason, Game, Outcome, Variant};

use crate::common::boardspace_dir;

struct Record {
    file: String,
    variant: Variant,
    result: String,
    actions: Vec<(Color, Action)>,
}

fn records() -> Option<Vec<Record>> {
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
fn every_boardspace_game_replays_to_its_recorded_result() {
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
