//! The notation on hand-built positions: the shorthand removal (accepted with exactly
//! one row, refused for a line of six or crossing rows) and every refusal that teaches
//! (rows, ring moves, removals owed, parts after a complete turn, forced passes, resign),
//! plus `play_turn` and `group_turns` at their edges.

use yinsh_pbem::notation::{Expected, ParseErrorKind, auto_pass_due};
use yinsh_pbem::rules::ActionKind;

use super::*;
use crate::support::turns::group_turns;

// ----- the shorthand (yinsh-rules.md §5) -------------------------------------------------

const W_RINGS: &[&str] = &["a2", "a3", "a4", "a5", "j6"];
const B_RINGS: &[&str] = &["e7", "f8", "g9", "h9", "i9"];

/// White to move, owing the removal of `markers` (White's, made by Black).
fn owing(markers: &[&str]) -> Game {
    position(
        Variant::Normal,
        [W_RINGS, B_RINGS],
        [markers, &[]],
        Color::White,
    )
}

#[test]
fn shorthand_is_accepted_with_exactly_one_row_section_5() {
    let g = owing(&["d3", "e3", "f3", "g3", "h3"]);
    let (a, _) = accepted(&g, "XA2 : j6-j7");
    assert_eq!(a, acts(&["xd3-h3", "xa2", "j6-j7"]));
}

#[test]
fn shorthand_is_refused_for_a_line_of_six_section_5() {
    let g = owing(&["c3", "d3", "e3", "f3", "g3", "h3"]);
    let e = refused(&g, "xa2;j6-j7");
    assert_eq!(
        e.to_string(),
        "part 1 (xa2): two rows of yours exist, write the row: xc3-g3xa2 or xd3-h3xa2"
    );
    let (a, _) = accepted(&g, "xh3-d3xa2;j6-j7");
    assert_eq!(a, acts(&["xd3-h3", "xa2", "j6-j7"]));
}

#[test]
fn shorthand_is_refused_for_crossing_rows_section_3_rule_4() {
    let g = owing(&["f2", "f3", "f4", "f5", "f6", "d3", "e3", "g3", "h3"]);
    let e = refused(&g, "xa2");
    assert!(matches!(&e, TurnError::AmbiguousRemoval { rows, .. } if rows.len() == 2));
    assert_eq!(
        e.to_string(),
        "two rows of yours exist, write the row: xf2-f6xa2 or xd3-h3xa2"
    );
    // Removing the column breaks the crossing row: one removal is all that is owed.
    let (a, _) = accepted(&g, "xf2-f6xa2;j6-j7");
    assert_eq!(a, acts(&["xf2-f6", "xa2", "j6-j7"]));
}

// ----- refusals that teach, on hand-built positions --------------------------------------

#[test]
fn a_row_that_is_not_yours_names_your_rows_section_3_rule_4() {
    let g = owing(&["b2", "b3", "b4", "b5", "b6", "d3", "e3", "f3", "g3", "h3"]);
    assert_eq!(
        refused(&g, "xg5-g9xa2;j6-j7").to_string(),
        "part 1 (xg5-g9xa2): g5-g9 is not a row of yours; your rows are b2-b6 and d3-h3"
    );
    assert_eq!(
        refused(&g, "xb2-b6xe7").to_string(),
        "e7 is not one of your rings (yours: a2, a3, a4, a5, j6)"
    );
    assert_eq!(
        refused(&g, "xa5").to_string(),
        "two rows of yours exist, write the row: xb2-b6xa5 or xd3-h3xa5"
    );
    // Two disjoint rows: both must go before the move.
    assert_eq!(
        refused(&g, "xb2-b6xa2;j6-j7").to_string(),
        "part 2 (j6-j7): you must first remove the row your opponent made for you: \
         xd3-h3x<ring>;<your move> (your rings: a3, a4, a5, j6)"
    );
    let (a, after) = accepted(&g, "xb2-b6xa2;xd3-h3xa3;j6-j7");
    assert_eq!(a.len(), 5);
    assert_eq!(after.rings_removed(Color::White), 2);
    assert_eq!(after.to_act(), Some(Color::Black));
}

#[test]
fn rows_the_opponent_made_come_first_section_3_rule_6() {
    let g = owing(&["d3", "e3", "f3", "g3", "h3"]);
    assert_eq!(
        refused(&g, "j6-j7").to_string(),
        "you must first remove the row your opponent made for you: xd3-h3x<ring>;<your move> \
         (your rings: a2, a3, a4, a5, j6)"
    );
    let e = refused(&g, "xd3-h3xa2");
    assert!(matches!(e, TurnError::MoveMissing { .. }));
    assert!(
        e.to_string()
            .starts_with("after your removals you must still move a ring: add ;"),
        "{e}"
    );
}

/// White: rings a2 e5 f5 g3 k7, markers c3-f3; Black: rings e7 h9 i9 j9 b7, markers f6 f7.
fn moving() -> Game {
    position(
        Variant::Normal,
        [
            &["a2", "e5", "f5", "g3", "k7"],
            &["e7", "h9", "i9", "j9", "b7"],
        ],
        [&["c3", "d3", "e3", "f3"], &["f6", "f7"]],
        Color::White,
    )
}

#[test]
fn ring_moves_follow_the_movement_rules_section_3_rule_2() {
    let g = moving();
    let e = refused(&g, "e5-e9");
    assert!(
        e.to_string()
            .starts_with("e5-e9 would jump the ring at e7; the ring at e5 can reach "),
        "{e}"
    );
    assert!(
        refused(&g, "f5-f9")
            .to_string()
            .starts_with("after the markers at f6-f7 the ring must stop at f8; ")
    );
    assert!(
        refused(&g, "e5-f4")
            .to_string()
            .starts_with("e5-f4 is not a straight line; the ring at e5 can reach ")
    );
    assert!(
        refused(&g, "e5-f6")
            .to_string()
            .starts_with("f6 holds a marker: a ring must land on an empty point;")
    );
    assert_eq!(
        refused(&g, "e7-e8").to_string(),
        "e7 is not one of your rings (yours: a2, e5, f5, g3, k7)"
    );
    let (a, _) = accepted(&g, "f5-f8");
    assert_eq!(a, acts(&["f5-f8"]));
}

#[test]
fn a_row_made_by_the_move_must_be_removed_in_the_same_turn_section_3_rule_4() {
    let g = moving();
    assert_eq!(
        refused(&g, "g3-g4").to_string(),
        "your move made the row c3-g3: add ;xc3-g3x<ring> (your rings: a2, e5, f5, g4, k7)"
    );
    assert_eq!(
        refused(&g, "g3-g4;e5-e6").to_string(),
        "part 2 (e5-e6): your move made the row c3-g3: remove it first with xc3-g3x<ring> \
         (your rings: a2, e5, f5, g4, k7)"
    );
    let (a, after) = accepted(&g, "g3-g4;xg3-c3xa2");
    assert_eq!(a, acts(&["g3-g4", "xc3-g3", "xa2"]));
    assert_eq!(after.to_act(), Some(Color::Black));
    let (b, _) = accepted(&g, "g3-g4;xa2");
    assert_eq!(a, b);
}

#[test]
fn parts_after_a_complete_turn_are_refused_section_5() {
    let g = moving();
    let e = refused(&g, "e5-e6;xa2");
    assert_eq!(
        e.to_string(),
        "the turn is complete after e5-e6; remove the extra part `xa2`"
    );
    assert_eq!(
        e,
        TurnError::ExtraParts {
            after: "e5-e6".to_string(),
            extra: "xa2".to_string(),
            count: 1,
            ended: None,
        }
    );
    assert_eq!(
        refused(&g, "e5-e6;xa2;k7-k8").to_string(),
        "the turn is complete after e5-e6; remove the extra parts `xa2;k7-k8`"
    );
}

#[test]
fn the_wrong_kind_of_part_is_explained_section_3() {
    let g = moving();
    assert!(
        refused(&g, "--")
            .to_string()
            .starts_with("you cannot pass: you have a ring move, like ")
    );
    assert!(
        refused(&g, "xa2")
            .to_string()
            .starts_with("you have no row to remove: it is time to move a ring, like ")
    );
    assert!(
        refused(&g, "e6")
            .to_string()
            .starts_with("all rings are placed: move one of your rings, like ")
    );
    let e = refused(&g, "e5-e6;--");
    assert!(matches!(e, TurnError::ExtraParts { count: 1, .. }), "{e:?}");
}

#[test]
fn placement_phase_wants_one_empty_point_section_3_rule_1() {
    let mut g = Game::new(Variant::Normal);
    assert_eq!(
        refused(&g, "e5-e6").to_string(),
        "it is the placement phase: write one empty point, like e5"
    );
    // Issue 47 item 7: a pass while placing is answered in a player's words.
    assert_eq!(
        refused(&g, "--").to_string(),
        "you cannot pass while the rings are being placed: place a ring on a free point, \
         like e5"
    );
    play_turn(&mut g, "F6").unwrap();
    assert_eq!(
        refused(&g, "f6").to_string(),
        "f6 is not empty: place your ring on an empty point, like e5"
    );
    play_turn(&mut g, "e5").unwrap();
    // With e5 and f6 taken the example is the first empty point.
    assert_eq!(
        refused(&g, "e5").to_string(),
        "e5 is not empty: place your ring on an empty point, like a2"
    );
    assert_eq!(
        refused(&g, "a2;b2").to_string(),
        "the turn is complete after a2; remove the extra part `b2`"
    );
}

/// White (to move) has no ring move: rings a2-a5 and b1 walled in by Black's rings
/// b2-b6 and lines of markers that run off the board.
fn walled_in() -> Game {
    position(
        Variant::Normal,
        [
            &["a2", "a3", "a4", "a5", "b1"],
            &["b2", "b3", "b4", "b5", "b6"],
        ],
        [
            &["c1", "e1", "c2", "d3", "g6", "h7", "k10"],
            &["d1", "e4", "f5", "i8", "j9"],
        ],
        Color::White,
    )
}

#[test]
fn a_side_without_a_ring_move_must_pass_section_4() {
    let g = walled_in();
    assert_eq!(g.expects(), Some(ActionKind::Pass));
    assert!(auto_pass_due(&g));
    assert_eq!(
        refused(&g, "b1-c1").to_string(),
        "you have no ring move and must pass: write --"
    );
    let (a, after) = accepted(&g, "--");
    assert_eq!(a, vec![Action::Pass]);
    assert_eq!(after.to_act(), Some(Color::Black));
}

#[test]
fn a_pass_after_removals_owed_at_the_start_may_be_left_out_section_4() {
    // walled_in, plus a White row c8-g8 that Black made: after removing it and the
    // ring b1, White's rings a2-a5 still cannot move.
    let g = position(
        Variant::Normal,
        [
            &["a2", "a3", "a4", "a5", "b1"],
            &["b2", "b3", "b4", "b5", "b6"],
        ],
        [
            &[
                "c1", "e1", "c2", "d3", "g6", "h7", "k10", "c8", "d8", "e8", "f8", "g8",
            ],
            &["d1", "e4", "f5", "i8", "j9"],
        ],
        Color::White,
    );
    assert!(!auto_pass_due(&g), "a removal is owed first");
    let want = acts(&["xc8-g8", "xb1", "--"]);
    let (a, after) = accepted(&g, "xc8-g8xb1");
    assert_eq!(a, want);
    assert_eq!(after.to_act(), Some(Color::Black));
    assert_eq!(accepted(&g, "xg8-c8xb1 ; --").0, want);
    assert_eq!(accepted(&g, "xb1").0, want);
    assert_eq!(write_turn(&want), "xc8-g8xb1;--");
    // Removing a2 instead frees a3, so a move is due.
    assert!(matches!(
        refused(&g, "xc8-g8xa2"),
        TurnError::MoveMissing { .. }
    ));
    assert_eq!(
        refused(&g, "xc8-g8xb1;a2-a3").to_string(),
        "part 2 (a2-a3): you have no ring move and must pass: write --"
    );
}

#[test]
fn a_removal_that_wins_ends_the_turn_and_the_game_section_3_rule_5() {
    let g = position(
        Variant::Blitz,
        [W_RINGS, B_RINGS],
        [&["d3", "e3", "f3", "g3", "h3"], &[]],
        Color::White,
    );
    let (a, after) = accepted(&g, "xd3-h3xa2");
    assert_eq!(a, acts(&["xd3-h3", "xa2"]));
    assert_eq!(after.outcome().and_then(|o| o.winner()), Some(Color::White));
    assert_eq!(
        refused(&g, "xd3-h3xa2;j6-j7").to_string(),
        "the game is over after xd3-h3xa2 (White won); remove the extra part `j6-j7`"
    );
    assert_eq!(
        refused(&after, "e5").to_string(),
        "the game is over: White won"
    );
}

#[test]
fn resign_is_a_command_not_a_move_section_5() {
    // The notation has no word for resigning: `resign` is the server's command
    // (`yinsh move <board> <userid> <password> resign`), which deliver_corpus.rs plays
    // with tests/data/deliver/19-resign.eml.
    for text in ["resign", "RESIGN", "e5;resign"] {
        let e = parse_turn(text).unwrap_err();
        let at = text.find(['r', 'R']).unwrap() + 1;
        assert_eq!(e.offset(), at, "{text}");
        assert_eq!(
            e.kind(),
            &ParseErrorKind::Expected(Expected::PointNumber),
            "{text}"
        );
    }
    let mut g = Game::new(Variant::Normal);
    assert!(matches!(
        play_turn(&mut g, "resign"),
        Err(NotationError::Parse(_))
    ));
    assert_eq!(g, Game::new(Variant::Normal));
}

#[test]
fn parse_errors_and_turn_errors_both_come_from_play_turn() {
    let mut g = Game::new(Variant::Normal);
    let e = play_turn(&mut g, "e5 ,e6").unwrap_err();
    assert!(matches!(e, NotationError::Parse(_)));
    assert!(
        e.to_string()
            .contains("expected `;` before the next part, `#` and the turn number"),
        "{e}"
    );
    // Two points with only a space between them are mended to a ring move
    // (`notation::mend`), which does not fit the placement phase: a turn error.
    let e = play_turn(&mut g, "e5 e6").unwrap_err();
    assert!(matches!(e, NotationError::Turn(_)), "{e}");
    assert_eq!(g, Game::new(Variant::Normal));
}

#[test]
fn group_turns_cuts_where_the_side_to_act_changes() {
    let g = owing(&["d3", "e3", "f3", "g3", "h3"]);
    let turns = group_turns(g, &acts(&["xd3-h3", "xa2", "j6-j7", "e7-e6"]));
    assert_eq!(turns.len(), 2);
    assert_eq!(turns[0].1.len(), 3);
    assert_eq!(turns[1].0.to_act(), Some(Color::Black));
}
