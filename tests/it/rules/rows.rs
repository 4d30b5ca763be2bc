//! Rows and their removal (yinsh-rules.md §3.3-§3.6): which rows a move makes, who
//! removes them and when, longer lines, crossing and disjoint rows, the winning
//! removal, and what is refused while a removal is owed.

use yinsh_pbem::rules::{
    ActionKind, Color, EndReason, Ending, Game, IllegalAction, Outcome, SetupError, Variant,
};

use super::{act, before_rows_for_both, legal, list, p, play, refused, ring_on_c3};
use crate::naive::Spec;

/// The position's stage in one value: who acts, what, and whose move made the rows.
fn stage(g: &Game) -> (Option<Color>, Option<ActionKind>, Option<bool>) {
    (g.to_act(), g.expects(), g.removing_after_own_move())
}

const WHITE_REMOVES_OWN: (Option<Color>, Option<ActionKind>, Option<bool>) =
    (Some(Color::White), Some(ActionKind::RemoveRow), Some(true));

#[test]
fn section_3_3_rings_never_count_in_a_row() {
    // White's ring on c3 with four White markers on each of two lines through it: in
    // the middle of c1..c5, at the end of c3..g7. Neither is a row.
    for white in ["c1 c2 c4 c5", "d4 e5 f6 g7"] {
        let g = ring_on_c3(white, "", [0, 0]).game();
        assert_eq!(g.row_count(Color::White), 0, "{white}");
        assert_eq!(
            stage(&g),
            (Some(Color::White), Some(ActionKind::Move), None),
            "{white}"
        );
        assert!(!legal(&g).iter().any(|a| a.starts_with('x')), "{white}");
    }
    let g = ring_on_c3("c1 c2 c4 c5", "", [0, 0]).game();
    refused(
        &g,
        "xc1-c5",
        IllegalAction::WrongPhase {
            expected: ActionKind::Move,
            found: ActionKind::RemoveRow,
        },
    );
    // The ring leaves c3 and its marker takes the point: now it is a row.
    let mut g = g;
    play(&mut g, "c3-d3");
    assert_eq!(stage(&g), WHITE_REMOVES_OWN);
    assert_eq!(legal(&g), list("xc1-c5"));
}

#[test]
fn section_3_3_row_along_the_line_of_travel_of_flipped_markers_counts() {
    // c3 jumps four black markers: the start marker and the four flipped ones make
    // the white row c3-g7, all on the ring's line of travel.
    let mut g = ring_on_c3("", "d4 e5 f6 g7", [0, 0]).game();
    play(&mut g, "c3-h8");
    assert_eq!(stage(&g), WHITE_REMOVES_OWN);
    assert_eq!(legal(&g), list("xc3-g7"));
    assert_eq!(g.markers_of(Color::Black), 0);
}

#[test]
fn section_3_3_a_row_of_five_flipped_markers_only_cannot_arise() {
    // Five flipped markers in a row means five alike were jumped: a row already on the
    // board when the ring moves. The opponent's would have been removed (Setup refuses
    // it); the mover's must be removed before moving. So rows of flipped markers only
    // never happen; with the start marker they do (test above).
    let black_row = ring_on_c3("", "d4 e5 f6 g7 h8", [0, 0]).setup().build();
    assert_eq!(black_row, Err(SetupError::RowLeftBehind(Color::Black)));
    let g = ring_on_c3("d4 e5 f6 g7 h8", "", [0, 0]).game();
    assert_eq!(g.expects(), Some(ActionKind::RemoveRow));
    assert_eq!(g.removing_after_own_move(), Some(false));
    refused(
        &g,
        "c3-i9",
        IllegalAction::RemovalOwed {
            expected: ActionKind::RemoveRow,
        },
    );
}

#[test]
fn section_3_3_one_flipped_marker_can_complete_a_row_across_the_line() {
    let mut g = ring_on_c3("f2 f3 f4 f5", "f6", [0, 0]).game();
    play(&mut g, "c3-g7");
    assert_eq!(stage(&g), WHITE_REMOVES_OWN);
    assert_eq!(legal(&g), list("xf2-f6"));
}

#[test]
fn section_3_6_row_made_only_for_the_opponent_is_removed_at_the_start_of_its_turn() {
    let mut g = ring_on_c3("f6", "f2 f3 f4 f5", [0, 0]).game();
    play(&mut g, "c3-g7");
    // White has no row: its turn is over and Black's starts with the removal.
    assert_eq!(
        stage(&g),
        (Some(Color::Black), Some(ActionKind::RemoveRow), Some(false))
    );
    assert_eq!(legal(&g), list("xf2-f6"));
    let owed = IllegalAction::RemovalOwed {
        expected: ActionKind::RemoveRow,
    };
    refused(&g, "a5-a4", owed);
    refused(&g, "--", owed);
    assert_eq!(g.markers_in_pool(), 45);
    play(&mut g, "xf2-f6");
    assert_eq!(g.markers_in_pool(), 50);
    assert_eq!(
        stage(&g),
        (
            Some(Color::Black),
            Some(ActionKind::RemoveRing),
            Some(false)
        )
    );
    assert_eq!(legal(&g), list("xa5 xg11 xh11 xi11 xj11"));
    play(&mut g, "xa5");
    assert_eq!(g.rings_removed(Color::Black), 1);
    assert_eq!(
        stage(&g),
        (Some(Color::Black), Some(ActionKind::Move), None)
    );
    play(&mut g, "g11-g10");
    assert_eq!(g.to_act(), Some(Color::White));
}

#[test]
fn section_3_6_opponents_removal_at_the_start_of_its_turn_can_win() {
    let mut g = ring_on_c3("f6", "f2 f3 f4 f5", [0, 2]).game();
    play(&mut g, "c3-g7");
    play(&mut g, "xf2-f6");
    play(&mut g, "xa5");
    assert_eq!(
        g.ending(),
        Some(Ending {
            outcome: Outcome::Win(Color::Black),
            reason: EndReason::RingsRemoved
        })
    );
}

/// White's c3-e5 puts its start marker into c1-c5 and flips d4 into Black's d4-d8.
fn rows_for_both(removed: [u8; 2]) -> Game {
    let mut g = before_rows_for_both(removed).game();
    play(&mut g, "c3-e5");
    g
}

#[test]
fn section_3_4_rows_for_both_the_mover_removes_first_then_the_opponent() {
    let mut g = rows_for_both([0, 0]);
    assert_eq!(stage(&g), WHITE_REMOVES_OWN);
    assert_eq!(legal(&g), list("xc1-c5"));
    refused(
        &g,
        "xd4-d8",
        IllegalAction::NotYourRow("d4-d8".parse().unwrap()),
    );
    play(&mut g, "xc1-c5");
    play(&mut g, "xk7");
    assert_eq!(
        stage(&g),
        (Some(Color::Black), Some(ActionKind::RemoveRow), Some(false))
    );
    assert_eq!(legal(&g), list("xd4-d8"));
    play(&mut g, "xd4-d8");
    play(&mut g, "xg11");
    assert_eq!(
        stage(&g),
        (Some(Color::Black), Some(ActionKind::Move), None)
    );
    assert_eq!(g.rings_removed(Color::White), 1);
    assert_eq!(g.rings_removed(Color::Black), 1);
    assert_eq!(g.markers_on_board(), 0);
    assert_eq!(g.markers_in_pool(), 51);
}

#[test]
fn section_3_5_mover_reaching_the_winning_count_wins_though_the_opponent_has_rows() {
    let mut g = rows_for_both([2, 2]);
    play(&mut g, "xc1-c5");
    play(&mut g, "xk7");
    assert_eq!(
        g.ending(),
        Some(Ending {
            outcome: Outcome::Win(Color::White),
            reason: EndReason::RingsRemoved
        })
    );
    assert_eq!(g.row_count(Color::Black), 1, "Black's row is never removed");
    assert!(g.legal_actions().is_empty());
    assert_eq!(g.count_legal_actions(), 0);
    assert_eq!(g.to_act(), None);
    refused(&g, "xd4-d8", IllegalAction::GameOver);
    refused(&g, "e5-e6", IllegalAction::GameOver);
}

#[test]
fn section_3_4_line_of_six_gives_two_windows_each_a_choice() {
    // The start marker c3 fills the hole in c1 c2 _ c4 c5 c6.
    let before = ring_on_c3("c1 c2 c4 c5 c6", "", [0, 0]).game();
    let mut g = before;
    play(&mut g, "c3-d3");
    assert_eq!(legal(&g), list("xc1-c5 xc2-c6"));
    for (window, left) in [("xc1-c5", "c6"), ("xc2-c6", "c1")] {
        let mut h = g;
        play(&mut h, window);
        assert_eq!(h.row_count(Color::White), 0);
        assert_eq!(h.markers(Color::White).collect::<Vec<_>>(), vec![p(left)]);
        assert_eq!(h.expects(), Some(ActionKind::RemoveRing));
        play(&mut h, "xk8");
        assert_eq!(
            stage(&h),
            (Some(Color::Black), Some(ActionKind::Move), None)
        );
    }
}

#[test]
fn section_3_4_line_of_ten_is_two_rows_each_costing_a_ring() {
    // One move cannot make a line of 10: the ring's landing point would lie on it if it
    // travels along it, and otherwise the move changes at most one of its points, which
    // would leave a run of five already there. So the line is set up as owed to White.
    let g = ring_on_c3("e1..e10", "", [0, 0]).game();
    assert_eq!(g.removing_after_own_move(), Some(false));
    assert_eq!(
        legal(&g),
        list("xe1-e5 xe2-e6 xe3-e7 xe4-e8 xe5-e9 xe6-e10")
    );
    // An end window leaves the other five: a second row, a second ring.
    let mut h = g;
    play(&mut h, "xe1-e5");
    play(&mut h, "xc3");
    assert_eq!(h.expects(), Some(ActionKind::RemoveRow));
    assert_eq!(legal(&h), list("xe6-e10"));
    play(&mut h, "xe6-e10");
    play(&mut h, "xk7");
    assert_eq!(h.rings_removed(Color::White), 2);
    assert_eq!(
        stage(&h),
        (Some(Color::White), Some(ActionKind::Move), None)
    );
    // A middle window leaves 2 + 3 markers: after the re-scan no row is owed.
    let mut h = g;
    play(&mut h, "xe3-e7");
    play(&mut h, "xc3");
    assert_eq!(h.rings_removed(Color::White), 1);
    assert_eq!(
        stage(&h),
        (Some(Color::White), Some(ActionKind::Move), None)
    );
}

#[test]
fn section_3_4_crossing_rows_removing_one_breaks_the_other() {
    // c3's start marker completes both c1-c5 and a3-e3.
    let mut g = ring_on_c3("c1 c2 c4 c5 a3 b3 d3 e3", "", [0, 0]).game();
    play(&mut g, "c3-d4");
    assert_eq!(legal(&g), list("xa3-e3 xc1-c5"));
    for row in ["xa3-e3", "xc1-c5"] {
        let mut h = g;
        play(&mut h, row);
        assert_eq!(h.row_count(Color::White), 0);
        play(&mut h, "xk7");
        assert_eq!(h.rings_removed(Color::White), 1);
        assert_eq!(
            stage(&h),
            (Some(Color::Black), Some(ActionKind::Move), None)
        );
        assert_eq!(h.markers_on_board(), 4);
    }
}

/// White's c3-e5 completes c1-c5 with its start marker and d4-d8 with a flip.
fn two_disjoint_rows(removed: [u8; 2]) -> Game {
    let mut g = ring_on_c3("c1 c2 c4 c5 d5 d6 d7 d8", "d4", removed).game();
    play(&mut g, "c3-e5");
    g
}

#[test]
fn section_3_4_two_disjoint_rows_must_both_be_removed_each_costing_a_ring() {
    let mut g = two_disjoint_rows([0, 0]);
    assert_eq!(legal(&g), list("xc1-c5 xd4-d8"));
    play(&mut g, "xd4-d8");
    play(&mut g, "xk7");
    assert_eq!(stage(&g), WHITE_REMOVES_OWN);
    assert_eq!(legal(&g), list("xc1-c5"));
    play(&mut g, "xc1-c5");
    play(&mut g, "xe5");
    assert_eq!(g.rings_removed(Color::White), 2);
    assert_eq!(
        stage(&g),
        (Some(Color::Black), Some(ActionKind::Move), None)
    );
}

#[test]
fn section_3_5_the_winning_removal_ends_the_game_with_rows_left() {
    let mut g = two_disjoint_rows([2, 0]);
    play(&mut g, "xc1-c5");
    play(&mut g, "xe5");
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::White)));
    assert_eq!(g.ending().map(|e| e.reason), Some(EndReason::RingsRemoved));
    assert_eq!(g.row_count(Color::White), 1);
    refused(&g, "xd4-d8", IllegalAction::GameOver);
}

#[test]
fn section_3_4_an_owed_removal_blocks_every_other_action() {
    let g = two_disjoint_rows([0, 0]);
    let row_owed = IllegalAction::RemovalOwed {
        expected: ActionKind::RemoveRow,
    };
    for text in ["e5-e6", "--", "xk7", "e6", "a5-a4"] {
        refused(&g, text, row_owed);
    }
    for row in ["d5-d9", "c2-c6", "e1-e5", "f2-f6"] {
        let why = IllegalAction::NotYourRow(row.parse().unwrap());
        refused(&g, &format!("x{row}"), why);
    }
    let g = g.after(act("xc1-c5")).unwrap();
    let ring_owed = IllegalAction::RemovalOwed {
        expected: ActionKind::RemoveRing,
    };
    for text in ["xd4-d8", "e5-e6", "--", "e6"] {
        refused(&g, text, ring_owed);
    }
    for point in ["a5", "g11", "e6", "d5", "c3"] {
        refused(
            &g,
            &format!("x{point}"),
            IllegalAction::NotYourRing(p(point)),
        );
    }
}

#[test]
fn section_3_5_blitz_ends_at_the_first_ring_removed() {
    let mut g = Spec {
        variant: Variant::Blitz,
        ..ring_on_c3("c1 c2 c4 c5 d5 d6 d7 d8", "d4", [0, 0])
    }
    .game();
    play(&mut g, "c3-e5");
    play(&mut g, "xd4-d8");
    assert!(!g.is_over());
    play(&mut g, "xk9");
    assert_eq!(
        g.ending(),
        Some(Ending {
            outcome: Outcome::Win(Color::White),
            reason: EndReason::RingsRemoved
        })
    );
    assert_eq!(g.row_count(Color::White), 1);
    // Blitz, Black's row made by White: Black's first ring wins at its turn's start.
    let mut g = Spec {
        variant: Variant::Blitz,
        ..ring_on_c3("f6", "f2 f3 f4 f5", [0, 0])
    }
    .game();
    play(&mut g, "c3-g7");
    play(&mut g, "xf2-f6");
    play(&mut g, "xh11");
    assert_eq!(g.outcome(), Some(Outcome::Win(Color::Black)));
}
