//! Issue 27: the game page that types the move. The legal turns the page is given
//! equal the engine's (positions of real games); headless Chromium plays a placement,
//! a ring move, a row on a longer line (the five chosen, then the ring) and a move
//! making two rows by clicking the board in play mode (`#play=<token>`), and each
//! composed Subject delivered through `deliver` plays exactly that turn. The token in
//! the page's address is the one the player's board mail links with: a play token
//! made with the server's reply key.
//!
//! Screenshots in `target/tmp/browser/`: `play-place.png`, `play-move.png`,
//! `play-long-row.png` (and `play-long-row-phone.png`, 390 px wide), `play-two-rows.png`.

use std::collections::HashSet;

use yinsh_pbem::notation::play_turn;
use yinsh_pbem::rules::{Action, Game, Row, Variant};
use yinsh_pbem::server::site::legal::{LegalTurn, legal_turns};

use crate::browser::chromium;
use crate::support::play_page::{clicks, find_turn, parsed, play_and_deliver, play_by_clicks};
use crate::support::turns::random_turns;
use yinsh_pbem::ai::Rng;

/// Every complete turn of the side to act, found by playing the engine's legal
/// actions one by one (apart from the site's own walk).
fn engine_turns(game: &Game) -> HashSet<Vec<Action>> {
    let mut out = HashSet::new();
    let Some(side) = game.to_act() else {
        return out;
    };
    let mut todo = vec![(*game, Vec::new())];
    while let Some((g, path)) = todo.pop() {
        if !path.is_empty() && g.to_act() != Some(side) {
            out.insert(path);
            continue;
        }
        for &a in g.legal_actions().iter() {
            let mut next = g;
            next.play(a).expect("a legal action plays");
            let mut longer = path.clone();
            longer.push(a);
            todo.push((next, longer));
        }
    }
    out
}

/// Checks the page's list of `game` against the engine: the same turns, and each
/// text plays through the notation as exactly its actions.
#[track_caller]
fn check_list(game: &Game) {
    let listed = legal_turns(game).expect("a list");
    let actions: HashSet<Vec<Action>> = listed
        .iter()
        .map(|t| {
            t.actions
                .iter()
                .map(|a| a.parse().expect("action"))
                .collect()
        })
        .collect();
    assert_eq!(actions.len(), listed.len(), "no turn twice");
    assert_eq!(actions, engine_turns(game));
    for t in &listed {
        let mut g = *game;
        let played = play_turn(&mut g, &t.text).unwrap_or_else(|e| panic!("{}: {e}", t.text));
        let parsed: Vec<Action> = t.actions.iter().map(|a| a.parse().expect("a")).collect();
        assert_eq!(played, parsed, "{}", t.text);
    }
}

/// issue 27: for positions of real games (every start of a turn of a seeded sample
/// of the Boardspace games), the page's list of legal turns equals the engine's.
#[test]
fn the_pages_legal_turns_equal_the_engines_on_real_games() {
    let Some(records) = crate::boardspace::records() else {
        return;
    };
    let mut rng = Rng::new(27);
    let mut checked = 0;
    for record in &records {
        if !rng.next_u64().is_multiple_of(8) {
            continue;
        }
        let mut game = Game::new(record.variant);
        let mut side = None;
        for (k, &(_, action)) in record.actions.iter().enumerate() {
            if game.to_act() != side && rng.next_u64().is_multiple_of(6) {
                check_list(&game);
                checked += 1;
            }
            side = game.to_act();
            if game.play(action).is_err() || k > 400 {
                break;
            }
        }
    }
    assert!(checked > 100, "{checked} positions");
}

/// issue 27: the list of a seeded sample of random positions (rows and owed removals
/// among them) equals the engine's too.
#[test]
fn the_pages_legal_turns_equal_the_engines_on_random_games() {
    for seed in 1..40 {
        let mut game = Game::new(Variant::Normal);
        for (_, text) in random_turns(seed, 90) {
            check_list(&game);
            play_turn(&mut game, &text).expect("plays");
        }
    }
}

/// Whether two rows lie on one line (they share four points).
fn same_line(a: Row, b: Row) -> bool {
    a != b && a.points().iter().filter(|p| b.contains(**p)).count() == 4
}

/// issue 27: a placement (chosen by the keyboard) and a ring move (a ring picked, undone,
/// picked again, then its target) clicked on the board compose the mail that plays
/// them.
#[test]
fn a_browser_plays_a_placement_and_a_ring_move() {
    let Some(program) = chromium() else { return };
    let place = LegalTurn {
        text: "e5".to_string(),
        actions: vec!["e5".to_string()],
    };
    // By the keyboard: the arrow keys reach the point from the board's Tab stop, Enter
    // chooses it.
    play_by_clicks(
        &program,
        &[],
        &place,
        &["key:e5".to_string()],
        &[("play-place.png", 900)],
    );
    let turns = random_turns(5, 10);
    let mut game = Game::new(Variant::Normal);
    for (_, t) in &turns {
        play_turn(&mut game, t).expect("plays");
    }
    let list = legal_turns(&game).expect("a list");
    let ring_move = list
        .iter()
        .rev()
        .find(|t| t.actions.len() == 1 && t.text.contains('-'))
        .expect("a ring move");
    // A ring picked, then taken back by Undo, then the move clicked.
    let mut by = clicks(ring_move);
    by.splice(0..0, [by[0].clone(), "undo".to_string()]);
    play_by_clicks(&program, &turns, ring_move, &by, &[("play-move.png", 900)]);
}

/// issue 27: a move that makes a row on a longer line: the five are chosen on the
/// board (an end that only they hold), then the ring; the mail plays it.
#[test]
fn a_browser_plays_a_row_on_a_longer_line() {
    let Some(program) = chromium() else { return };
    let (turns, turn) = find_turn(|list, t| {
        let a = parsed(t);
        let (Some(Action::Move { .. }), Some(&Action::RemoveRow(row))) = (a.first(), a.get(1))
        else {
            return false;
        };
        list.iter().any(|other| {
            let b = parsed(other);
            b[0] == a[0] && matches!(b.get(1), Some(&Action::RemoveRow(r)) if same_line(r, row))
        })
    });
    play_and_deliver(
        &program,
        &turns,
        &turn,
        &[("play-long-row.png", 900), ("play-long-row-phone.png", 390)],
    );
}

/// issue 27: a move that makes two rows: both removed with their rings by clicks.
#[test]
fn a_browser_plays_a_move_making_two_rows() {
    let Some(program) = chromium() else { return };
    let (turns, turn) = find_turn(|_, t| {
        let a = parsed(t);
        matches!(a.first(), Some(Action::Move { .. }))
            && a.iter()
                .filter(|x| matches!(x, Action::RemoveRow(_)))
                .count()
                == 2
    });
    play_and_deliver(&program, &turns, &turn, &[("play-two-rows.png", 900)]);
}
