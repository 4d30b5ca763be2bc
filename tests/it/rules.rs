//! Hand-made positions that pin down the rules engine against yinsh-rules.md, one
//! test per rule, each named after its section. Positions are built only through
//! `rules::Setup` (via `naive::Spec`) or by playing legal actions. Every refusal is
//! checked to leave the whole `Game` unchanged. The positions perft.rs counts from are
//! built here, once, and used by both.

mod ending;
mod jumps;
mod placement;
mod rows;
mod setup;

use yinsh_pbem::rules::{Action, Game, IllegalAction, Point, Variant};

use crate::naive::{Spec, patterned};

/// Rings parked out of the way in most positions here: White on column k, Black on
/// number 11. Tests add each side's fifth ring (or more) where the action is.
pub const PARK: [&str; 2] = ["k7 k8 k9 k10", "g11 h11 i11 j11"];

/// Ring lists: White's `white` and Black's `black` plus the parked rings.
pub fn parked(white: &str, black: &str) -> [&'static str; 2] {
    [
        format!("{white} {}", PARK[0]).leak(),
        format!("{black} {}", PARK[1]).leak(),
    ]
}

// ----- positions shared with perft.rs -----------------------------------------------

/// Ten placements, White first (placement.rs plays them one by one).
pub const TEN: &str = "e5 f6 a2 k10 b1 j11 c8 i4 g2 e10";

/// The ten rings of `TEN` placed; White moves the first ring.
pub fn ten_placed(variant: Variant) -> Spec {
    Spec {
        variant,
        then: TEN,
        ..Spec::default()
    }
}

/// White's ring on c3 and Black's on a5 plus the parked rings (fewer of them when
/// rings are already removed), these markers; White to move (rows.rs, yinsh-rules.md
/// §3.3-§3.6).
pub fn ring_on_c3(white: &'static str, black: &'static str, removed: [u8; 2]) -> Spec {
    let mut rings = parked("c3", "a5");
    if removed[0] > 0 {
        rings[0] = ["c3 k7 k8 k9 k10", "c3 k7 k8 k9", "c3 k7 k8"][removed[0] as usize];
    }
    if removed[1] > 0 {
        rings[1] = ["a5 g11 h11 i11 j11", "a5 g11 h11 i11", "a5 g11 h11"][removed[1] as usize];
    }
    Spec {
        rings,
        markers: [white, black],
        removed,
        ..Spec::default()
    }
}

/// Before White's c3-e5, which puts its start marker into c1-c5 and flips d4 into
/// Black's d4-d8: rows for both sides in one move (yinsh-rules.md §3.4).
pub fn before_rows_for_both(removed: [u8; 2]) -> Spec {
    ring_on_c3("c1 c2 c4 c5 d4", "d5 d6 d7 d8", removed)
}

/// White's four rings on column a are boxed in by each other and Black's five rings on
/// b2..b6 (White has removed one ring); White to move, so White must pass (§4).
pub fn white_boxed_in() -> Spec {
    Spec {
        rings: ["a2 a3 a4 a5", "b2 b3 b4 b5 b6"],
        removed: [1, 0],
        ..Spec::default()
    }
}

/// White boxed in as above plus a fifth ring on b1 whose rays run over markers off the
/// board; White owes the row f10-j10 that Black made for it (§4).
pub fn boxed_in_with_a_row_owed() -> Spec {
    let m = patterned("c1 d1 e1 c2 d3 e4 f5 g6 h7 i8 j9 k10");
    Spec {
        rings: ["a2 a3 a4 a5 b1", "b2 b3 b4 b5 b6"],
        markers: [format!("{} f10..j10", m[0]).leak(), m[1]],
        ..Spec::default()
    }
}

/// Neither side can move a ring, two rings removed each: a draw (§4).
pub fn both_blocked_draw() -> Spec {
    Spec {
        rings: ["a2 b1 b2", "b3 c2 c3"],
        markers: patterned(
            "a3 a4 a5 b4 b5 b6 b7 c1 c4 c5 c6 c7 c8 d1 d2 d3 d4 d5 e1 e2 e3 e4 e5 e6 \
             f2 f3 f5 f6 f7 g2 g3 g6 g7 g8 h3 h7 h8 h9 i10 i8 i9 j10 j11 j9 k10",
        ),
        removed: [2, 2],
        ..Spec::default()
    }
}

/// 50 markers on the board (pool 1): columns a..g filled except the top of g, where
/// White's d4 e4 f4 g4 wait for a fifth marker on h4; rings on columns h..k (§4).
pub fn one_marker_left(variant: Variant, removed: [u8; 2]) -> Spec {
    let white = ["h4 h6 i8 j10 k8", "h4 h6 i8 j10"][removed[0] as usize];
    let black = ["i4 h8 i10 j6 k10", "i4 h8 i10 j6"][removed[1] as usize];
    Spec {
        variant,
        rings: [white, black],
        markers: ["d4 e4 f4 g4", "c4"],
        removed,
        ..Spec::default()
    }
    .filled(45, "g5..g11 h3..h11 i4..i11 j5..j11 k7..k10")
}

// ----- helpers ---------------------------------------------------------------------------

/// A point from its text.
pub fn p(s: &str) -> Point {
    s.parse().unwrap()
}

/// An atomic action from its text.
pub fn act(s: &str) -> Action {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Play `text`: it must be listed, `check` must accept it, and `play` must do it.
pub fn play(game: &mut Game, text: &str) {
    let a = act(text);
    assert!(
        game.legal_actions().contains(&a),
        "{a} is not listed: {:?}",
        game.legal_actions()
    );
    assert_eq!(game.check(a), Ok(()), "{a}");
    game.play(a).unwrap_or_else(|e| panic!("{a}: {e}"));
}

/// `text` is refused for `why`, is not listed, and leaves the whole game unchanged.
pub fn refused(game: &Game, text: &str, why: IllegalAction) {
    let a = act(text);
    assert_eq!(game.check(a), Err(why), "check {a}");
    assert!(!game.legal_actions().contains(&a), "{a} is listed");
    let mut copy = *game;
    assert_eq!(copy.play(a), Err(why), "play {a}");
    assert_eq!(copy, *game, "refusing {a} changed the game");
    assert_eq!(game.after(a), Err(why), "after {a}");
    assert_eq!(why.to_string(), message(why), "{a}");
}

/// The words each refusal must print, written out here so that a change of wording
/// (or a point left out) is caught.
fn message(why: IllegalAction) -> String {
    match why {
        IllegalAction::GameOver => "the game is over".to_string(),
        IllegalAction::WrongPhase { expected, found } => {
            format!("it is time to {expected}, not to {found}")
        }
        IllegalAction::RemovalOwed { expected } => {
            format!("a removal is owed first: it is time to {expected}")
        }
        IllegalAction::Occupied(p) => format!("{p} is occupied"),
        IllegalAction::NotYourRing(p) => format!("there is no ring of yours at {p}"),
        IllegalAction::NotInLine { from, to } => format!("{from}-{to} is not a straight line"),
        IllegalAction::JumpsRing { from, to, at } => {
            format!("{from}-{to} would jump the ring at {at}")
        }
        IllegalAction::OntoRing(p) => format!("{p} holds a ring: a ring cannot land on a ring"),
        IllegalAction::OntoMarker(p) => {
            format!("{p} holds a marker: a ring must land on an empty point")
        }
        IllegalAction::PastMarkers { first, last, stop } if first == last => {
            format!("after the marker at {first} the ring must stop at {stop}")
        }
        IllegalAction::PastMarkers { first, last, stop } => {
            format!("after the markers at {first}-{last} the ring must stop at {stop}")
        }
        IllegalAction::NotYourRow(row) => format!("{row} is not a row of yours"),
        IllegalAction::CannotPass => "you cannot pass: you have a ring move".to_string(),
        IllegalAction::MustPass => "you have no legal ring move and must pass".to_string(),
    }
}

/// The legal actions as sorted text.
pub fn legal(game: &Game) -> Vec<String> {
    crate::naive::sorted(game.legal_actions().iter().copied())
}

/// The landing points of the legal moves of the ring at `from`, sorted.
pub fn moves_from(game: &Game, from: &str) -> Vec<String> {
    let from = p(from);
    let mut v: Vec<String> = game
        .legal_actions()
        .iter()
        .filter_map(|a| match *a {
            Action::Move { from: f, to } if f == from => Some(to.to_string()),
            _ => None,
        })
        .collect();
    v.sort();
    v
}

/// Sorted text of a space-separated list, to compare with `legal` and `moves_from`.
pub fn list(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}
