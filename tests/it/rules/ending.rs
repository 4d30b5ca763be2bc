//! Forced passes, blocked boards, marker exhaustion and resignation (yinsh-rules.md
//! §4), and how a finished game is scored.

use yinsh_pbem::rules::{
    ActionKind, Color, EndReason, Ending, Game, IllegalAction, Outcome, Variant,
};

use super::{
    both_blocked_draw, boxed_in_with_a_row_owed, legal, list, moves_from, one_marker_left, play,
    refused, white_boxed_in,
};
use crate::naive::{Spec, patterned};

#[test]
fn section_4_forced_pass_is_the_only_action() {
    let g = white_boxed_in().game();
    assert_eq!(g.to_act(), Some(Color::White));
    assert_eq!(g.expects(), Some(ActionKind::Pass));
    assert!(!g.has_ring_move(Color::White));
    assert!(g.has_ring_move(Color::Black));
    assert_eq!(legal(&g), list("--"));
    assert_eq!(g.count_legal_actions(), 1);
    refused(&g, "a2-a3", IllegalAction::OntoRing("a3".parse().unwrap()));
    refused(
        &g,
        "e5-e6",
        IllegalAction::NotYourRing("e5".parse().unwrap()),
    );
    for text in ["e5", "xa2", "xb2-b6"] {
        refused(&g, text, IllegalAction::MustPass);
    }
    let mut g2 = g;
    play(&mut g2, "--");
    assert_eq!(g2.to_act(), Some(Color::Black));
    assert_eq!(g2.expects(), Some(ActionKind::Move));
    assert_eq!(g2.markers_in_pool(), 51, "a pass takes no marker");
    refused(&g2, "--", IllegalAction::CannotPass);
    play(&mut g2, "b6-c6");
    // b6 now holds Black's marker: White's a5 can jump it, landing on c7 only.
    assert_eq!(g2.to_act(), Some(Color::White));
    assert_eq!(g2.expects(), Some(ActionKind::Move));
    assert_eq!(moves_from(&g2, "a5"), list("c7"));
}

#[test]
fn section_4_pass_is_refused_while_a_ring_move_exists() {
    let g = Game::new(Variant::Normal);
    refused(
        &g,
        "--",
        IllegalAction::WrongPhase {
            expected: ActionKind::Place,
            found: ActionKind::Pass,
        },
    );
    let g = Spec {
        to_move: Color::Black,
        ..white_boxed_in()
    }
    .game();
    assert_eq!(g.expects(), Some(ActionKind::Move));
    refused(&g, "--", IllegalAction::CannotPass);
}

#[test]
fn section_4_removals_owed_are_made_before_a_forced_pass() {
    let mut g = boxed_in_with_a_row_owed().game();
    assert!(!g.has_ring_move(Color::White));
    assert_eq!(g.expects(), Some(ActionKind::RemoveRow));
    assert_eq!(g.removing_after_own_move(), Some(false));
    refused(
        &g,
        "--",
        IllegalAction::RemovalOwed {
            expected: ActionKind::RemoveRow,
        },
    );
    play(&mut g, "xf10-j10");
    assert_eq!(legal(&g), list("xa2 xa3 xa4 xa5 xb1"));
    // Removing b1 leaves the other four boxed in: White passes.
    let mut h = g;
    play(&mut h, "xb1");
    assert_eq!(h.to_act(), Some(Color::White));
    assert_eq!(legal(&h), list("--"));
    // Removing a2 frees a3's way down: White moves.
    let mut h = g;
    play(&mut h, "xa2");
    assert_eq!(h.expects(), Some(ActionKind::Move));
    assert_eq!(moves_from(&h, "a3"), list("a2"));
}

/// Rings and markers found by a search: every ray of every ring runs over markers to
/// the edge or to another ring, so nobody can move.
const BLOCKED_7: (&str, &str, &str) = (
    "c1 c8 d1",
    "d2 d9 k8 k9",
    "a2 b1 b2 b7 c2 c3 c4 c5 c6 c7 d3 d4 d5 d6 d7 d8 e1 e10 e2 e3 e8 e9 f2 f3 f4 \
     f8 f9 g2 g4 g5 g8 g9 h5 h6 h8 h9 i6 i7 i8 i9 j7 j8 j9 k10 k7",
);

#[test]
fn section_4_both_blocked_after_a_move_ends_the_game_scored_by_count() {
    // Black's ring starts on k10 (not yet a marker) and steps to k9, leaving its
    // marker on k10: now neither side can move. White removed 2 rings, Black 1.
    let markers = patterned(&BLOCKED_7.2.replace(" k10", ""));
    let mut g = Spec {
        rings: [BLOCKED_7.0, "d2 d9 k8 k10"],
        markers,
        removed: [2, 1],
        to_move: Color::Black,
        ..Spec::default()
    }
    .game();
    assert_eq!(g.expects(), Some(ActionKind::Move));
    play(&mut g, "k10-k9");
    assert!(!g.has_ring_move(Color::White));
    assert!(!g.has_ring_move(Color::Black));
    assert_eq!(
        g.ending(),
        Some(Ending {
            outcome: Outcome::Win(Color::White),
            reason: EndReason::BothBlocked
        })
    );
    assert!(g.markers_in_pool() > 0);
    refused(&g, "--", IllegalAction::GameOver);
    // The same blocked board set up directly, with d2 White's and Black ahead.
    let g = Spec {
        rings: ["c1 c8 d1 d2", "d9 k8 k9"],
        markers: patterned(BLOCKED_7.2),
        removed: [1, 2],
        ..Spec::default()
    }
    .game();
    assert_eq!(
        g.ending(),
        Some(Ending {
            outcome: Outcome::Win(Color::Black),
            reason: EndReason::BothBlocked
        })
    );
}

#[test]
fn section_4_both_blocked_with_equal_counts_is_a_draw() {
    let g = both_blocked_draw().game();
    assert_eq!(
        g.ending(),
        Some(Ending {
            outcome: Outcome::Draw,
            reason: EndReason::BothBlocked
        })
    );
    assert!(g.legal_actions().is_empty());
}

#[test]
fn section_4_last_marker_making_a_row_is_resolved_and_play_goes_on() {
    let mut g = one_marker_left(Variant::Normal, [0, 0]).game();
    assert_eq!(g.markers_in_pool(), 1);
    play(&mut g, "h4-h5");
    assert_eq!(g.markers_in_pool(), 0);
    assert_eq!(legal(&g), list("xd4-h4"));
    play(&mut g, "xd4-h4");
    assert_eq!(
        g.markers_in_pool(),
        5,
        "the row's markers go back to the pool"
    );
    play(&mut g, "xk8");
    assert_eq!(g.to_act(), Some(Color::Black));
    assert_eq!(g.expects(), Some(ActionKind::Move));
    play(&mut g, "i4-i5");
    assert_eq!(g.markers_in_pool(), 4);
}

#[test]
fn section_4_last_marker_making_no_row_ends_the_game_when_the_next_must_take_one() {
    for (removed, outcome) in [
        ([0, 0], Outcome::Draw),
        ([1, 0], Outcome::Win(Color::White)),
        ([0, 1], Outcome::Win(Color::Black)),
        ([1, 1], Outcome::Draw),
    ] {
        let mut g = one_marker_left(Variant::Normal, removed).game();
        assert_eq!(g.markers_in_pool(), 1);
        play(&mut g, "h6-h7");
        assert_eq!(
            g.ending(),
            Some(Ending {
                outcome,
                reason: EndReason::MarkersExhausted
            }),
            "removed {removed:?}"
        );
        assert!(
            g.has_ring_move(Color::Black),
            "Black could move but has no marker"
        );
    }
}

/// 51 markers on the board (pool empty): `white` and `black` plus 45 filling columns
/// a..g except the top of g; rings on columns h..k; White to move.
fn no_marker_left(white: &'static str, black: &'static str) -> Game {
    Spec {
        rings: ["h3 h6 i8 j10 k8", "i4 h8 i10 j6 k10"],
        markers: [white, black],
        ..Spec::default()
    }
    .filled(45, "g5..g11 h5..h11 i5..i11 j5..j11 k7..k10")
    .game()
}

#[test]
fn section_4_an_empty_pool_ends_the_game_only_after_the_removals_owed() {
    // White owes the row d4-h4 (made by Black's last move): removals take no marker,
    // and this one refills the pool, so play goes on.
    let mut g = no_marker_left("d4 e4 f4 g4 h4", "c4");
    assert_eq!(g.markers_in_pool(), 0);
    assert_eq!(g.expects(), Some(ActionKind::RemoveRow));
    play(&mut g, "xd4-h4");
    play(&mut g, "xk8");
    assert_eq!(g.expects(), Some(ActionKind::Move));
    assert_eq!(g.markers_in_pool(), 5);
    // With no row owed, the same full board is over at once.
    let over = no_marker_left("d4 e4 f4 g4", "c4 h4");
    assert_eq!(
        over.ending(),
        Some(Ending {
            outcome: Outcome::Draw,
            reason: EndReason::MarkersExhausted
        })
    );
}

#[test]
fn section_4_an_empty_pool_ends_the_game_even_for_a_side_that_would_pass() {
    // The engine's documented choice (game.rs): with the pool empty the game ends when
    // a side must move a ring, even if it has none and would otherwise pass.
    let g = white_boxed_in().filled(51, "c2..c7").game();
    assert!(!g.has_ring_move(Color::White));
    assert!(g.has_ring_move(Color::Black));
    assert_eq!(
        g.ending(),
        Some(Ending {
            outcome: Outcome::Win(Color::White),
            reason: EndReason::MarkersExhausted
        })
    );
}

#[test]
fn section_4_resignation_ends_the_game_for_either_side_at_any_time() {
    // During placement, by the side to act or the other one.
    for (placed, side) in [(0, Color::White), (0, Color::Black), (3, Color::White)] {
        let mut g = Game::new(Variant::Normal);
        for text in ["e5", "f6", "g7"].into_iter().take(placed) {
            play(&mut g, text);
        }
        g.resign(side).unwrap();
        assert_eq!(
            g.ending(),
            Some(Ending {
                outcome: Outcome::Win(side.other()),
                reason: EndReason::Resignation
            })
        );
        assert_eq!(g.to_act(), None);
        let before = g;
        assert_eq!(g.resign(side.other()), Err(IllegalAction::GameOver));
        assert_eq!(g, before);
        refused(&g, "a2", IllegalAction::GameOver);
    }
    // Mid-game while White owes a removal, by Black (not to act).
    let mut g = boxed_in_with_a_row_owed().game();
    g.resign(Color::Black).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));
    assert_eq!(g.resign(Color::White), Err(IllegalAction::GameOver));
    // Blitz, by the side to act.
    let mut g = Spec {
        variant: Variant::Blitz,
        rings: ["a2 a3 a4 a5 b1", "b2 b3 b4 b5 b6"],
        ..Spec::default()
    }
    .game();
    assert_eq!(g.expects(), Some(ActionKind::Move));
    g.resign(Color::White).unwrap();
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));
    assert!(g.legal_actions().is_empty());
}
