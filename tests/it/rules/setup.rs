//! `rules::Setup`: every refusal (each `SetupError` variant), and what a valid set-up
//! owes at the start of the turn (yinsh-rules.md §2-§4).

use yinsh_pbem::rules::{ActionKind, Color, Game, Setup, SetupError, Variant};

use super::{legal, list, p, parked};
use crate::naive::{Spec, pts};

fn err(spec: Spec) -> SetupError {
    let e = spec
        .setup()
        .build()
        .expect_err("the set-up must be refused");
    assert_eq!(e.to_string(), message(&e));
    e
}

/// The words each refusal must print, written out here so that a change of wording
/// (or a value left out) is caught.
fn message(e: &SetupError) -> String {
    match e {
        SetupError::PointTwice(p) => format!("{p} holds two pieces"),
        SetupError::TooManyRings(c) => format!("{c} has more than 5 rings"),
        SetupError::TooManyMarkers => "more than 51 markers".to_string(),
        SetupError::PlacementUnfinished => {
            "markers or removed rings before all 10 rings are placed".to_string()
        }
        SetupError::WrongSideToPlace(c) => {
            format!("during placement White places first: the counts say {c} is to place")
        }
        SetupError::UnevenPlacement { white, black } => format!(
            "during placement the sides alternate, White first: {white} White and {black} \
             Black rings cannot happen"
        ),
        SetupError::AlreadyWon(c) => format!("{c} has already removed enough rings to win"),
        SetupError::RowLeftBehind(c) => {
            format!("{c} is not to move but has a row it should have removed")
        }
    }
}

#[test]
fn setup_refuses_two_pieces_on_one_point() {
    let rings = parked("c3", "a5");
    let e = err(Spec {
        rings,
        markers: ["c3", ""],
        ..Spec::default()
    });
    assert_eq!(e, SetupError::PointTwice(p("c3")));
    assert!(e.to_string().contains("c3"));
    let e = err(Spec {
        rings,
        markers: ["e5", "e5"],
        ..Spec::default()
    });
    assert_eq!(e, SetupError::PointTwice(p("e5")));
    let e = err(Spec {
        rings: ["c3 k7 k8 k9 k10", "c3 g11 h11 i11 j11"],
        ..Spec::default()
    });
    assert_eq!(e, SetupError::PointTwice(p("c3")));
}

#[test]
fn setup_refuses_more_than_five_rings_a_side_section_2() {
    let e = err(Spec {
        rings: parked("c3 c4", "a5"),
        ..Spec::default()
    });
    assert_eq!(e, SetupError::TooManyRings(Color::White));
    let e = err(Spec {
        rings: parked("c3", "a5"),
        removed: [0, 1],
        ..Spec::default()
    });
    assert_eq!(e, SetupError::TooManyRings(Color::Black));
}

#[test]
fn setup_refuses_more_than_51_markers_section_2() {
    let e = err(Spec {
        rings: ["h3 h6 i8 j10 k8", "i4 h8 i10 j6 k10"],
        ..Spec::default()
    }
    .filled(52, "k7..k10"));
    assert_eq!(e, SetupError::TooManyMarkers);
}

#[test]
fn setup_refuses_markers_or_removals_during_placement_section_3_1() {
    let e = err(Spec {
        rings: ["c3", ""],
        markers: ["e5", ""],
        to_move: Color::Black,
        ..Spec::default()
    });
    assert_eq!(e, SetupError::PlacementUnfinished);
    let e = err(Spec {
        rings: ["c3 k7 k8 k9", "g11 h11 i11 j11"],
        removed: [1, 0],
        ..Spec::default()
    });
    assert_eq!(e, SetupError::PlacementUnfinished);
}

#[test]
fn setup_refuses_the_wrong_side_to_place_section_3_1() {
    for (white, black, to_move, want) in [
        ("c3", "", Color::White, Color::Black),
        ("", "", Color::Black, Color::White),
        ("c3 c4", "a5", Color::White, Color::Black),
        ("c3 c4", "a5 a4", Color::Black, Color::White),
    ] {
        let e = err(Spec {
            rings: [white, black],
            to_move,
            ..Spec::default()
        });
        assert_eq!(e, SetupError::WrongSideToPlace(want), "{white} / {black}");
    }
    // Counts that no placement order gives have their own reason (next test).
    for (white, black) in [("c3", "a5 a4"), ("c3 c4 c5", "a5"), ("", "a5")] {
        for to_move in [Color::White, Color::Black] {
            let e = err(Spec {
                rings: [white, black],
                to_move,
                ..Spec::default()
            });
            assert!(
                matches!(e, SetupError::UnevenPlacement { .. }),
                "{white} / {black}: {e}"
            );
        }
    }
    // The right side is accepted and places.
    let g = Spec {
        rings: ["c3", ""],
        to_move: Color::Black,
        ..Spec::default()
    }
    .game();
    assert_eq!(g.to_act(), Some(Color::Black));
    assert_eq!(g.expects(), Some(ActionKind::Place));
    assert_eq!(g.legal_actions().len(), 84);
}

#[test]
fn setup_refuses_a_side_that_has_already_won_section_3_5() {
    let e = err(Spec {
        rings: ["c3 k7", "a5 g11 h11 i11 j11"],
        removed: [3, 0],
        ..Spec::default()
    });
    assert_eq!(e, SetupError::AlreadyWon(Color::White));
    let e = err(Spec {
        variant: Variant::Blitz,
        rings: ["c3 k7 k8 k9 k10", "g11 h11 i11 j11"],
        removed: [0, 1],
        ..Spec::default()
    });
    assert_eq!(e, SetupError::AlreadyWon(Color::Black));
}

#[test]
fn setup_refuses_a_row_left_behind_by_the_side_not_to_move_section_3_4() {
    let e = err(Spec {
        rings: parked("c3", "a5"),
        markers: ["", "e2..e6"],
        ..Spec::default()
    });
    assert_eq!(e, SetupError::RowLeftBehind(Color::Black));
    let e = err(Spec {
        rings: parked("c3", "a5"),
        markers: ["e2..e6", ""],
        to_move: Color::Black,
        ..Spec::default()
    });
    assert_eq!(e, SetupError::RowLeftBehind(Color::White));
}

#[test]
fn setup_counts_the_pool_and_owes_the_rows_of_the_side_to_move_section_3_6() {
    let g = Spec {
        rings: parked("c3", "a5"),
        markers: ["e2..e6", "f2 f3"],
        ..Spec::default()
    }
    .game();
    assert_eq!(g.markers_in_pool(), 44);
    assert_eq!(g.to_act(), Some(Color::White));
    assert_eq!(g.removing_after_own_move(), Some(false));
    assert_eq!(legal(&g), list("xe2-e6"));
    // Setup and plain placement agree.
    let mut placed = Game::new(Variant::Normal);
    let rings = pts("c3 a5 k7 g11 k8 h11 k9 i11 k10 j11");
    for &r in &rings {
        placed.play(yinsh_pbem::rules::Action::Place(r)).unwrap();
    }
    let set = Setup::new(Variant::Normal)
        .rings(Color::White, pts(parked("c3", "a5")[0]))
        .rings(Color::Black, pts(parked("c3", "a5")[1]))
        .build()
        .unwrap();
    assert_eq!(set, placed);
}

#[test]
fn setup_refuses_impossible_placement_counts_with_their_own_reason() {
    // Regression: 1 White and 2 Black rings with Black to move was refused as
    // "the counts say Black is to place", naming the very side that was to move.
    let e = err(Spec {
        rings: ["c3", "a5 a4"],
        to_move: Color::Black,
        ..Spec::default()
    });
    assert_eq!(e, SetupError::UnevenPlacement { white: 1, black: 2 });
    assert_eq!(
        e.to_string(),
        "during placement the sides alternate, White first: 1 White and 2 Black rings cannot happen"
    );
    let e = err(Spec {
        rings: ["c3 c4 c5", "a5"],
        ..Spec::default()
    });
    assert_eq!(e, SetupError::UnevenPlacement { white: 3, black: 1 });
}
