//! The placement phase (yinsh-rules.md §3.1, §2): ten rings placed alternately,
//! White first, on empty points; nothing else until they are all down.

use yinsh_pbem::rules::{ActionKind, Color, Game, IllegalAction, Piece, Variant};

use super::{TEN, p, play, refused, ten_placed};

#[test]
fn section_3_1_ten_placements_alternate_starting_with_white() {
    for variant in [Variant::Normal, Variant::Blitz] {
        let mut g = Game::new(variant);
        for (k, text) in TEN.split_whitespace().enumerate() {
            let side = if k % 2 == 0 {
                Color::White
            } else {
                Color::Black
            };
            assert_eq!(g.to_act(), Some(side), "placement {}", k + 1);
            assert_eq!(g.expects(), Some(ActionKind::Place));
            assert_eq!(g.legal_actions().len(), 85 - k);
            assert_eq!(g.count_legal_actions(), 85 - k as u64);
            play(&mut g, text);
            assert_eq!(g.piece_at(p(text)), Some(Piece::Ring(side)));
            assert_eq!(g.markers_in_pool(), 51);
        }
        assert_eq!(g.rings_on_board(Color::White), 5);
        assert_eq!(g.rings_on_board(Color::Black), 5);
        assert_eq!(
            g,
            ten_placed(variant).game(),
            "the position perft.rs counts from"
        );
        assert_eq!(g.to_act(), Some(Color::White), "White moves the first ring");
        assert_eq!(g.expects(), Some(ActionKind::Move));
        assert!(
            g.legal_actions()
                .iter()
                .all(|a| a.kind() == ActionKind::Move)
        );
        play(&mut g, "e5-e6");
        assert_eq!(g.to_act(), Some(Color::Black));
        assert_eq!(g.markers_in_pool(), 50);
    }
}

#[test]
fn section_3_1_a_ring_is_placed_on_an_empty_point_only() {
    let mut g = Game::new(Variant::Normal);
    play(&mut g, "e5");
    refused(&g, "e5", IllegalAction::Occupied(p("e5")));
    play(&mut g, "f6");
    refused(&g, "e5", IllegalAction::Occupied(p("e5")));
    refused(&g, "F6", IllegalAction::Occupied(p("f6")));
}

#[test]
fn section_3_1_no_other_action_during_placement() {
    let mut g = Game::new(Variant::Normal);
    for text in ["e5", "f6", "a2"] {
        play(&mut g, text);
    }
    for (text, found) in [
        ("e5-e6", ActionKind::Move),
        ("f6-f7", ActionKind::Move),
        ("xa2-e2", ActionKind::RemoveRow),
        ("xe5", ActionKind::RemoveRing),
        ("--", ActionKind::Pass),
    ] {
        refused(
            &g,
            text,
            IllegalAction::WrongPhase {
                expected: ActionKind::Place,
                found,
            },
        );
    }
}

#[test]
fn section_3_1_no_placement_after_the_tenth_ring() {
    let mut g = Game::new(Variant::Normal);
    for text in TEN.split_whitespace() {
        play(&mut g, text);
    }
    for text in ["d4", "e5"] {
        refused(
            &g,
            text,
            IllegalAction::WrongPhase {
                expected: ActionKind::Move,
                found: ActionKind::Place,
            },
        );
    }
    refused(
        &g,
        "xe5",
        IllegalAction::WrongPhase {
            expected: ActionKind::Move,
            found: ActionKind::RemoveRing,
        },
    );
}
