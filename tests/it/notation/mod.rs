//! The pbmserv move notation (yinsh-rules.md §5): the helpers the notation tests share
//! (points, positions, a turn refused or accepted) and every point and row through the
//! parser and printer. Random playouts and arbitrary text are in `playouts.rs`, the
//! shorthand removal and the refusals on hand-built positions in `refusals.rs`, moves as
//! a person writes them through the binary in `spelling.rs`.

use yinsh_pbem::notation::{
    NotationError, Part, TurnError, WrittenTurn, parse_turn, play_turn, write_turn,
};
use yinsh_pbem::rules::{Action, Color, Game, Point, Row, Setup, Variant};

mod playouts; // random playouts printed and read back; arbitrary text
mod refusals; // the shorthand removal and the refusals on hand-built positions
mod spelling; // issue 47 item 7: moves as a person writes them, through the binary

fn p(s: &str) -> Point {
    s.parse().unwrap()
}

fn ps(list: &[&str]) -> Vec<Point> {
    list.iter().map(|s| p(s)).collect()
}

fn acts(list: &[&str]) -> Vec<Action> {
    list.iter().map(|s| s.parse().unwrap()).collect()
}

/// A position: rings and markers of each side, `to_move` to start its turn.
fn position(variant: Variant, rings: [&[&str]; 2], markers: [&[&str]; 2], to_move: Color) -> Game {
    Setup::new(variant)
        .rings(Color::White, ps(rings[0]))
        .rings(Color::Black, ps(rings[1]))
        .markers(Color::White, ps(markers[0]))
        .markers(Color::Black, ps(markers[1]))
        .to_move(to_move)
        .build()
        .unwrap()
}

/// Play `text` on a copy of `g`: it must be refused, leaving the copy unchanged.
fn refused(g: &Game, text: &str) -> TurnError {
    let mut copy = *g;
    let e = play_turn(&mut copy, text).expect_err(text);
    assert_eq!(copy, *g, "a refused turn changed the game: {text}");
    match e {
        NotationError::Turn(t) => t,
        NotationError::Parse(e) => panic!("{text}: {e}"),
    }
}

fn accepted(g: &Game, text: &str) -> (Vec<Action>, Game) {
    let mut copy = *g;
    let a = play_turn(&mut copy, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    (a, copy)
}

// ----- exhaustive ------------------------------------------------------------------------

#[test]
fn every_point_round_trips_through_parser_and_printer_section_5() {
    for &a in &Point::ALL {
        let t = parse_turn(&a.to_string().to_uppercase()).unwrap();
        assert_eq!(t.parts, vec![Part::Place(a)]);
        assert_eq!(t.to_string(), a.to_string());
        assert_eq!(write_turn(&[Action::Place(a)]), a.to_string());
        for &b in &Point::ALL {
            let text = write_turn(&[Action::Move { from: a, to: b }]);
            assert_eq!(text, format!("{a}-{b}"));
            let t = parse_turn(&text).unwrap();
            assert_eq!(t.parts, vec![Part::Move { from: a, to: b }]);
            assert_eq!(t.to_string(), text);
        }
    }
}

#[test]
fn every_row_round_trips_through_parser_and_printer_section_5() {
    for r in Row::ALL {
        for &ring in &Point::ALL {
            let text = write_turn(&[Action::RemoveRow(r), Action::RemoveRing(ring)]);
            assert_eq!(text, format!("x{r}x{ring}"));
            let t: WrittenTurn = text.parse().unwrap();
            assert_eq!(
                t.parts,
                vec![Part::Removal {
                    row: Some((r.start(), r.end())),
                    ring
                }]
            );
            assert_eq!(t.to_string(), text);
            let reversed = format!("X{}-{}x{ring}", r.end(), r.start()).to_uppercase();
            let t = parse_turn(&reversed).unwrap();
            assert_eq!(
                t.parts,
                vec![Part::Removal {
                    row: Some((r.end(), r.start())),
                    ring
                }]
            );
        }
    }
}

#[test]
fn ends_that_are_not_five_in_a_line_are_refused_when_read_section_5() {
    for &a in &Point::ALL {
        for &b in &Point::ALL {
            let text = format!("x{a}-{b}xe5");
            assert_eq!(
                parse_turn(&text).is_ok(),
                Row::from_ends(a, b).is_some(),
                "{text}"
            );
        }
    }
    let e = parse_turn("xg5-g8xa5").unwrap_err();
    assert_eq!(e.offset(), 1);
    assert!(
        e.to_string().contains("g5-g8 is not five points in a line"),
        "{e}"
    );
}

#[test]
fn printer_writes_the_examples_of_section_5() {
    assert_eq!(
        write_turn(&acts(&["xg9-g5", "xa5", "d3-b3"])),
        "xg5-g9xa5;d3-b3"
    );
    assert_eq!(
        write_turn(&acts(&["i8-f5", "xg5-g9", "xa5", "xb6-b2", "xc3"])),
        "i8-f5;xg5-g9xa5;xb2-b6xc3"
    );
    assert_eq!(write_turn(&acts(&["xi8-e4", "xg8", "--"])), "xe4-i8xg8;--");
}

#[test]
fn points_off_the_board_are_refused_with_a_reason_section_1() {
    for (text, at, says) in [
        (
            "a1",
            0,
            "a1 is not a point of the board (column a runs from a2 to a5)",
        ),
        ("e5-K11", 3, "k11 is not a point of the board"),
        (
            "xz5",
            1,
            "z5 is not a point of the board (the columns are a to k)",
        ),
        ("e5-e123", 3, "e123 is not a point of the board"),
    ] {
        let e = parse_turn(text).unwrap_err();
        assert_eq!(e.offset(), at, "{text}");
        assert!(e.to_string().contains(says), "{text}: {e}");
    }
    let e = parse_turn("i8-f5 ; xg5-g9").unwrap_err();
    assert_eq!(e.offset(), 14);
    assert_eq!(e.caret(), format!("i8-f5 ; xg5-g9\n{}^", " ".repeat(14)));
    assert!(e.to_string().contains("but the text ends"), "{e}");
}
