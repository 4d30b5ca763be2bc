//! Ring moves (yinsh-rules.md §3.2, §1): every legal and illegal shape of a move,
//! which markers flip, and the marker left at the start point.

use yinsh_pbem::rules::{Color, Game, IllegalAction, Piece};

use super::{act, list, moves_from, p, parked, play, refused};
use crate::naive::Spec;

/// White's ring on c3, whose up-right ray is d4 e5 f6 g7 h8 i9 j10 (then the corner
/// k11, not a point); Black's fifth ring on a5; White to move.
fn c3(white_markers: &'static str, black_markers: &'static str) -> Game {
    c3_with(parked("c3", "a5"), white_markers, black_markers)
}

fn c3_with(rings: [&'static str; 2], white: &'static str, black: &'static str) -> Game {
    Spec {
        rings,
        markers: [white, black],
        ..Spec::default()
    }
    .game()
}

#[test]
fn section_3_2_ring_slides_over_any_number_of_empty_points() {
    let g = c3("", "");
    assert_eq!(
        moves_from(&g, "c3"),
        list("c2 c1 c4 c5 c6 c7 c8 b3 a3 d3 e3 f3 g3 h3 b2 d4 e5 f6 g7 h8 i9 j10")
    );
    let mut g2 = g;
    play(&mut g2, "c3-j10");
    assert_eq!(g2.piece_at(p("j10")), Some(Piece::Ring(Color::White)));
    assert_eq!(g2.piece_at(p("c3")), Some(Piece::Marker(Color::White)));
    assert_eq!(
        g2.markers_on_board(),
        1,
        "sliding over empties leaves no markers"
    );
    assert_eq!(g2.markers_in_pool(), 50);
}

#[test]
fn section_3_2_slide_then_jump_one_group_landing_on_first_empty_point() {
    let g = c3("f6", "g7");
    assert_eq!(
        moves_from(&g, "c3"),
        list("c2 c1 c4 c5 c6 c7 c8 b3 a3 d3 e3 f3 g3 h3 b2 d4 e5 h8")
    );
    let past = IllegalAction::PastMarkers {
        first: p("f6"),
        last: p("g7"),
        stop: p("h8"),
    };
    refused(&g, "c3-i9", past);
    refused(&g, "c3-j10", past);
    refused(&g, "c3-f6", IllegalAction::OntoMarker(p("f6")));
    refused(&g, "c3-g7", IllegalAction::OntoMarker(p("g7")));
    let mut g2 = g;
    play(&mut g2, "c3-h8");
    assert_eq!(g2.piece_at(p("c3")), Some(Piece::Marker(Color::White)));
    assert_eq!(g2.piece_at(p("d4")), None);
    assert_eq!(g2.piece_at(p("e5")), None);
    assert_eq!(g2.piece_at(p("f6")), Some(Piece::Marker(Color::Black)));
    assert_eq!(g2.piece_at(p("g7")), Some(Piece::Marker(Color::White)));
    assert_eq!(g2.piece_at(p("h8")), Some(Piece::Ring(Color::White)));
    assert_eq!(g2.markers_on_board() + g2.markers_in_pool(), 51);
}

#[test]
fn section_3_2_jumping_a_group_at_once_flips_every_marker_of_it() {
    // An unbroken group of mixed colours right next to the ring is one group.
    let g = c3("d4 f6", "e5 g7");
    let diagonal: Vec<String> = moves_from(&g, "c3")
        .into_iter()
        .filter(|m| ["d4", "e5", "f6", "g7", "h8", "i9", "j10"].contains(&m.as_str()))
        .collect();
    assert_eq!(diagonal, list("h8"));
    refused(
        &g,
        "c3-i9",
        IllegalAction::PastMarkers {
            first: p("d4"),
            last: p("g7"),
            stop: p("h8"),
        },
    );
    let mut g2 = g;
    play(&mut g2, "c3-h8");
    for (pt, c) in [
        ("c3", Color::White),
        ("d4", Color::Black),
        ("e5", Color::White),
        ("f6", Color::Black),
        ("g7", Color::White),
    ] {
        assert_eq!(g2.piece_at(p(pt)), Some(Piece::Marker(c)), "{pt}");
    }
    assert_eq!(g2.markers_of(Color::White), 3);
    assert_eq!(g2.markers_of(Color::Black), 2);
}

#[test]
fn section_3_2_no_sliding_on_over_empty_points_after_a_jump() {
    let g = c3("", "e5");
    assert_eq!(
        moves_from(&g, "c3"),
        list("c2 c1 c4 c5 c6 c7 c8 b3 a3 d3 e3 f3 g3 h3 b2 d4 f6")
    );
    for to in ["g7", "h8", "i9", "j10"] {
        refused(
            &g,
            &format!("c3-{to}"),
            IllegalAction::PastMarkers {
                first: p("e5"),
                last: p("e5"),
                stop: p("f6"),
            },
        );
    }
}

#[test]
fn section_3_2_two_separate_groups_cannot_both_be_jumped() {
    let g = c3("d4 g7", "f6");
    assert!(moves_from(&g, "c3").contains(&"e5".to_string()));
    for to in ["h8", "i9", "j10"] {
        refused(
            &g,
            &format!("c3-{to}"),
            IllegalAction::PastMarkers {
                first: p("d4"),
                last: p("d4"),
                stop: p("e5"),
            },
        );
    }
    let after = g.after(act("c3-e5")).unwrap();
    assert_eq!(after.piece_at(p("d4")), Some(Piece::Marker(Color::Black)));
    assert_eq!(after.piece_at(p("f6")), Some(Piece::Marker(Color::Black)));
    assert_eq!(after.piece_at(p("g7")), Some(Piece::Marker(Color::White)));
}

#[test]
fn section_3_2_ring_never_jumps_or_lands_on_a_ring() {
    // Black's fifth ring on f6 blocks the ray: no landing on it, no passing it.
    let g = c3_with(parked("c3", "f6"), "", "");
    assert!(moves_from(&g, "c3").contains(&"e5".to_string()));
    refused(&g, "c3-f6", IllegalAction::OntoRing(p("f6")));
    for to in ["g7", "j10"] {
        refused(
            &g,
            &format!("c3-{to}"),
            IllegalAction::JumpsRing {
                from: p("c3"),
                to: p(to),
                at: p("f6"),
            },
        );
    }
    // Markers then a ring (White's own, on f6): nothing to land on; the ring is named.
    let g = c3_with(["c3 f6 k7 k8 k9", "a5 g11 h11 i11 j11"], "d4", "e5");
    let up_right = ["d4", "e5", "f6", "g7", "h8", "i9", "j10"];
    assert!(
        moves_from(&g, "c3")
            .iter()
            .all(|m| !up_right.contains(&m.as_str()))
    );
    refused(
        &g,
        "c3-g7",
        IllegalAction::JumpsRing {
            from: p("c3"),
            to: p("g7"),
            at: p("f6"),
        },
    );
    refused(&g, "c3-f6", IllegalAction::OntoRing(p("f6")));
    refused(&g, "c3-e5", IllegalAction::OntoMarker(p("e5")));
}

#[test]
fn section_3_2_jump_that_would_leave_the_board_is_not_a_move() {
    // The group h8 i9 j10 runs to the edge (k11 is no point): no landing point.
    let g = c3("h8 j10", "i9");
    let up_right: Vec<String> = moves_from(&g, "c3")
        .into_iter()
        .filter(|m| ["d4", "e5", "f6", "g7", "h8", "i9", "j10"].contains(&m.as_str()))
        .collect();
    assert_eq!(up_right, list("d4 e5 f6 g7"));
    refused(&g, "c3-j10", IllegalAction::OntoMarker(p("j10")));
    // Same along column c: c4..c8 are markers up to the edge, so no move up.
    let g = c3("c4 c6 c8", "c5 c7");
    assert_eq!(
        moves_from(&g, "c3"),
        list("c2 c1 b3 a3 d3 e3 f3 g3 h3 b2 d4 e5 f6 g7 h8 i9 j10")
    );
}

#[test]
fn section_1_moves_must_follow_one_of_the_three_lines() {
    let g = c3("", "");
    for to in ["d2", "b4", "e4", "d5", "a4", "c3", "e1"] {
        let why = IllegalAction::NotInLine {
            from: p("c3"),
            to: p(to),
        };
        refused(&g, &format!("c3-{to}"), why);
    }
}

#[test]
fn section_3_2_only_a_ring_of_ones_own_moves() {
    let g = c3("d4", "e4");
    refused(&g, "a5-a4", IllegalAction::NotYourRing(p("a5")));
    refused(&g, "g11-g10", IllegalAction::NotYourRing(p("g11")));
    refused(&g, "e6-e7", IllegalAction::NotYourRing(p("e6")));
    refused(&g, "d4-d5", IllegalAction::NotYourRing(p("d4")));
    refused(&g, "e4-e5", IllegalAction::NotYourRing(p("e4")));
}

#[test]
fn section_3_2_start_marker_shows_the_movers_colour_and_is_not_flipped() {
    let mut g = c3("", "e4");
    play(&mut g, "c3-c5");
    assert_eq!(g.piece_at(p("c3")), Some(Piece::Marker(Color::White)));
    assert_eq!(g.to_act(), Some(Color::Black));
    play(&mut g, "a5-a2");
    assert_eq!(g.piece_at(p("a5")), Some(Piece::Marker(Color::Black)));
    // White's next move starts on c5 and passes d5 e5: only its own start marker is
    // added, and the earlier markers (c3, a5, e4 off the path) keep their colours.
    play(&mut g, "c5-f5");
    assert_eq!(g.piece_at(p("c5")), Some(Piece::Marker(Color::White)));
    assert_eq!(g.piece_at(p("c3")), Some(Piece::Marker(Color::White)));
    assert_eq!(g.piece_at(p("a5")), Some(Piece::Marker(Color::Black)));
    assert_eq!(g.piece_at(p("e4")), Some(Piece::Marker(Color::Black)));
    assert_eq!(g.markers_on_board(), 4);
    assert_eq!(g.markers_in_pool(), 47);
}

#[test]
fn section_3_2_black_jump_flips_to_the_other_side_too() {
    let g = Spec {
        rings: parked("b7", "c3"),
        markers: ["d4 e5", "f6"],
        to_move: Color::Black,
        ..Spec::default()
    }
    .game();
    assert!(moves_from(&g, "c3").contains(&"g7".to_string()));
    let mut g2 = g;
    play(&mut g2, "c3-g7");
    assert_eq!(g2.piece_at(p("c3")), Some(Piece::Marker(Color::Black)));
    assert_eq!(g2.piece_at(p("d4")), Some(Piece::Marker(Color::Black)));
    assert_eq!(g2.piece_at(p("e5")), Some(Piece::Marker(Color::Black)));
    assert_eq!(g2.piece_at(p("f6")), Some(Piece::Marker(Color::White)));
    assert_eq!(g2.to_act(), Some(Color::White));
}

#[test]
fn section_3_2_markers_beside_the_path_and_beyond_the_landing_stay() {
    // A ring only slides over empties, so only the jumped group flips: markers next to
    // the path, behind the ring and beyond the landing point are untouched.
    let g = c3("b2 d5 h8", "c4 e4 i9");
    let mut g2 = g;
    play(&mut g2, "c3-g7");
    for pt in ["b2", "d5", "h8", "c4", "e4", "i9"] {
        assert_eq!(g2.piece_at(p(pt)), g.piece_at(p(pt)), "{pt}");
    }
    assert_eq!(g2.markers_on_board(), g.markers_on_board() + 1);
}

#[test]
fn past_markers_message_names_a_single_marker_once() {
    // Regression: a jump over one marker was reported as "the markers at e5-e5".
    let g = c3("", "e5");
    let why = g.check(act("c3-g7")).unwrap_err();
    assert_eq!(
        why.to_string(),
        "after the marker at e5 the ring must stop at f6"
    );
    let g = c3("f6", "g7");
    let why = g.check(act("c3-i9")).unwrap_err();
    assert_eq!(
        why.to_string(),
        "after the markers at f6-g7 the ring must stop at h8"
    );
}
