//! Issue 29, the evaluation fitted to the real games: the terms of every position of
//! the 408 Boardspace games after the placements, for each side, written as CSV for
//! `scripts/fit-eval` (a logistic regression of who won, cross-validated over whole
//! games; docs/strength.md, "The evaluation fitted to the real games"). Run by hand:
//! `EVAL_TERMS_CSV=/tmp/terms.csv cargo test --release --test it eval_terms -- --ignored`.

use std::fmt::Write as _;

use yinsh_pbem::rules::{Color, Direction, Game, Piece, Row};

use crate::boardspace::records;
use crate::support::turns::ring_moves;

/// The columns written for each side, in order.
const TERMS: [&str; 14] = [
    "removed",
    "row",
    "markers",
    "four_empty",
    "four_ring",
    "four_open",
    "three_open",
    "two_open",
    "mobility",
    "stuck",
    "room",
    "row_moves",
    "flippable",
    "rings",
];

/// `side`'s terms in `game`, each followed by a comma.
fn terms(game: &Game, side: Color, out: &mut String) {
    let mut windows = [0u32; 5];
    for r in Row::ALL {
        let (mut mine, mut theirs, mut my_ring, mut their_ring, mut empty) = (0, 0, 0, 0, 0);
        for p in r.points() {
            match game.piece_at(p) {
                Some(Piece::Marker(c)) if c == side => mine += 1,
                Some(Piece::Marker(_)) => theirs += 1,
                Some(Piece::Ring(c)) if c == side => my_ring += 1,
                Some(Piece::Ring(_)) => their_ring += 1,
                None => empty += 1,
            }
        }
        let open = theirs == 0 && their_ring == 0;
        for (k, hit) in [
            mine == 4 && empty == 1,
            mine == 4 && my_ring == 1,
            mine == 4 && open,
            mine == 3 && open,
            mine == 2 && open,
        ]
        .into_iter()
        .enumerate()
        {
            windows[k] += u32::from(hit);
        }
    }
    let (mut mobility, mut stuck, mut room) = (0, 0, 0);
    for ring in game.rings(side) {
        let moves = ring_moves(game, ring) as u32;
        mobility += moves;
        stuck += u32::from(moves == 0);
        // Room: the points the ring reaches on an empty board.
        for d in Direction::ALL {
            let mut at = ring;
            while let Some(next) = d.step(at) {
                room += 1;
                at = next;
            }
        }
    }
    let reach = game.ring_reach(side);
    let flippable = game.ring_reach(side.other()).flippable[side.index()];
    let values = [
        u32::from(game.rings_removed(side)),
        u32::from(game.row_count(side) > 0),
        u32::from(game.markers_of(side)),
        windows[0],
        windows[1],
        windows[2],
        windows[3],
        windows[4],
        mobility,
        stuck,
        room,
        u32::from(reach.makes_row),
        u32::from(flippable),
        game.rings(side).count() as u32,
    ];
    for v in values {
        let _ = write!(out, ",{v}");
    }
}

/// Writes the CSV to `$EVAL_TERMS_CSV`: one line a position (game, action, White won,
/// White to act, rings removed in all, then each side's [`TERMS`], White's first).
#[test]
#[ignore = "writes the terms for scripts/fit-eval; run by hand"]
fn dump_terms() {
    let Some(records) = records() else {
        return;
    };
    let path = std::env::var("EVAL_TERMS_CSV").expect("EVAL_TERMS_CSV names the file");
    let mut out = String::from("game,k,white_won,to_act_white,removed_total");
    for side in ["w", "b"] {
        for t in TERMS {
            let _ = write!(out, ",{side}_{t}");
        }
    }
    out.push('\n');
    for (n, rec) in records.iter().enumerate() {
        let won = rec.result.starts_with("W+");
        let mut game = Game::new(rec.variant);
        for (k, &(_, action)) in rec.actions.iter().enumerate() {
            game.play(action).expect("a game of the data set");
            if k < 10 || game.is_over() {
                continue;
            }
            let removed = game.rings_removed(Color::White) + game.rings_removed(Color::Black);
            let white = game.to_act() == Some(Color::White);
            let _ = write!(
                out,
                "{n},{k},{},{},{removed}",
                u8::from(won),
                u8::from(white)
            );
            terms(&game, Color::White, &mut out);
            terms(&game, Color::Black, &mut out);
            out.push('\n');
        }
    }
    std::fs::write(&path, out).expect("write the CSV");
}
