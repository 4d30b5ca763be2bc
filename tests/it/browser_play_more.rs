//! Issue 27, the play mode's clicks the first browser tests (`play_page`) left out:
//! removals owed at the start of a turn (the opponent's move made a row of the
//! mover's colour) clicked as the row, its ring, then the ring move; and a turn that
//! ends in a pass (after the owed row and ring the player has no ring move left): the
//! page says so and offers the pass as a button. Each composed Subject, delivered
//! through `deliver`, plays exactly that turn: the stored game holds it and the
//! opponent's board mail tells it.
//!
//! A lone pass never reaches the page: the server plays a forced pass itself (an
//! (Auto) turn) before the site is written, so the pass a player can click is one
//! that their own removals bring about.
//!
//! Screenshots in `target/tmp/browser/`: `play-owed-start.png` (the owed row offered),
//! `play-owed-ring.png` (the row chosen, its ring asked for), `play-owed.png` (the whole
//! turn composed), `play-pass-offered.png` (the removals clicked, the pass offered) and
//! `play-pass.png` (the turn with its pass composed).

use yinsh_pbem::notation::play_turn;
use yinsh_pbem::rules::{Action, Color, Game, Variant};
use yinsh_pbem::server::site::legal::{LegalTurn, legal_turns};

use crate::browser::chromium;
use crate::support::data::fixture_tokens;
use crate::support::play_page::{PlayPage, clicks, find_turn, parsed};
use crate::support::sent::mails_to;
use crate::support::server::Sent;

/// The opponent's board mail among `replies` tells the turn just played: its
/// `Last move:` line, with what it did in words.
#[track_caller]
fn opponent_told(page: &PlayPage, replies: &[Sent], turn: &LegalTurn, words: &str) {
    let opponent = if page.player == "alice" {
        "bob"
    } else {
        "alice"
    };
    let line = format!(
        "Last move: #{} {}: {} - {words}",
        page.k, page.player, turn.text
    );
    let mails = mails_to(replies, &format!("{opponent}@example.org"));
    assert!(
        mails
            .iter()
            .any(|m| m.body.replace("\n  ", " ").contains(&line)),
        "no mail to {opponent} says {line:?}: {mails:?}"
    );
}

/// issue 27: at the start of a turn the player owes a row (the opponent's move made
/// it): the page offers the row, then asks for the ring, then for the move; the
/// composed mail plays the whole turn.
#[test]
fn a_browser_plays_removals_owed_then_a_move() {
    let Some(program) = chromium() else { return };
    let (turns, turn) = find_turn(|_, t| {
        let a = parsed(t);
        matches!(
            a.as_slice(),
            [
                Action::RemoveRow(_),
                Action::RemoveRing(_),
                Action::Move { .. },
                ..
            ]
        )
    });
    let (row, ring, from, to) = match parsed(&turn)[..3] {
        [
            Action::RemoveRow(row),
            Action::RemoveRing(ring),
            Action::Move { from, to },
        ] => (row, ring, from, to),
        _ => unreachable!("the turn found"),
    };
    let mut page = PlayPage::at(&turns);
    let all = clicks(&turn);

    // Nothing clicked: the owed row is offered, on the board and as a button.
    let start = page.open(&program, &[], &[("play-owed-start.png", 900)]);
    assert!(
        start.help.starts_with("Choose the row to remove"),
        "{start:?}"
    );
    assert!(
        start.buttons.contains(&format!("Remove row {row}")),
        "{start:?}"
    );
    assert_eq!(
        (start.turn.as_str(), start.subject.as_str()),
        ("(nothing yet)", "")
    );

    // The row's two ends clicked: the row is taken, its ring asked for.
    let taken = page.open(&program, &all[..2], &[("play-owed-ring.png", 900)]);
    assert_eq!(taken.help, "Click the ring to remove.", "{taken:?}");
    assert_eq!(taken.turn, format!("x{row}"));
    assert!(
        taken.buttons.is_empty() && taken.subject.is_empty(),
        "{taken:?}"
    );

    // The ring clicked: the move is asked for.
    let ringed = page.open(&program, &all[..3], &[]);
    assert_eq!(ringed.help, "Click the ring to move.", "{ringed:?}");
    assert_eq!(ringed.turn, format!("x{row}x{ring}"));

    let shown = page.open(&program, &all, &[("play-owed.png", 900)]);
    let replies = page.deliver(&shown, &turn);
    opponent_told(
        &page,
        &replies,
        &turn,
        &format!(
            "removed the row {row} and the ring on {ring}, then moved the ring from {from} to {to}"
        ),
    );
}

/// The turns of `owed-removals-then-pass.txt` with their sides, and the position
/// they lead to.
fn owed_then_pass() -> (Vec<(Color, String)>, Game) {
    let mut game = Game::new(Variant::Normal);
    let mut turns = Vec::new();
    for text in fixture_tokens("owed-removals-then-pass.txt") {
        let side = game.to_act().expect("the game goes on");
        play_turn(&mut game, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        turns.push((side, text));
    }
    (turns, game)
}

/// issue 27: the player owes a row, and removing it with one ring leaves them no
/// ring move: after those clicks the page says so and offers the pass as a button,
/// and the composed mail plays the removals and the pass.
#[test]
fn a_browser_plays_a_turn_that_ends_in_a_pass() {
    let Some(program) = chromium() else { return };
    let (turns, game) = owed_then_pass();
    let list = legal_turns(&game).expect("a list");
    let turn = list
        .iter()
        .find(|t| t.actions.last().is_some_and(|a| a == "--"))
        .expect("a turn ending in a pass")
        .clone();
    let (row, ring) = match parsed(&turn)[..] {
        [
            Action::RemoveRow(row),
            Action::RemoveRing(ring),
            Action::Pass,
        ] => (row, ring),
        _ => panic!("removals, then the pass: {turn:?}"),
    };
    // Other rings than this one would leave a move: the pass is the player's choice.
    assert!(
        list.iter()
            .any(|t| parsed(t).iter().any(|a| matches!(a, Action::Move { .. })))
    );
    let mut page = PlayPage::at(&turns);
    let all = clicks(&turn);
    assert_eq!(all.last().map(String::as_str), Some("btn:Pass"));

    // The row and the ring clicked: no ring can move, the pass is offered.
    let offered = page.open(
        &program,
        &all[..all.len() - 1],
        &[("play-pass-offered.png", 900)],
    );
    assert_eq!(
        offered.help, "No ring of yours can move: pass.",
        "{offered:?}"
    );
    assert_eq!(offered.buttons, ["Pass"]);
    assert_eq!(offered.turn, format!("x{row}x{ring}"));
    assert!(
        offered.subject.is_empty(),
        "not complete before the pass: {offered:?}"
    );

    let shown = page.open(&program, &all, &[("play-pass.png", 900)]);
    assert_eq!(turn.text, format!("x{row}x{ring};--"));
    // issue 47 item 15: the Pass button chosen is gone; the focus is on the board.
    assert!(
        shown.focus.parse::<yinsh_pbem::rules::Point>().is_ok(),
        "the focus is on a point: {shown:?}"
    );
    let replies = page.deliver(&shown, &turn);
    opponent_told(
        &page,
        &replies,
        &turn,
        &format!("removed the row {row} and the ring on {ring}, then passed."),
    );
}
