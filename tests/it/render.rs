//! The ASCII board and its status block (`notation::render`): the empty board is the
//! pbmserv drawing byte for byte (pbmserv-reference.md §6), every point sits where the
//! formula puts it, rings never collide, and insta snapshots pin the drawing and the
//! status text through placement, play, removals (yinsh-rules.md §3), blitz and every
//! way a game ends (yinsh-rules.md §4).

use insta::assert_snapshot;
use yinsh_pbem::notation::render::{SideNames, render, render_board, render_status};
use yinsh_pbem::rules::{
    Action, ActionKind, Color, EndReason, Game, Outcome, Point, Row, Setup, Variant,
};

/// The empty board exactly as pbmserv-reference.md §6 draws it.
const REFERENCE: &str = "                11
             10
          9     .     .
       8     .     .     .
    7     .     .     .     .
 6     .     .     .     .     .
          .     .     .     .
 5     .     .     .     .     .
    .     .     .     .     .     .
 4     .     .     .     .     .
    .     .     .     .     .     .
 3     .     .     .     .     .
    .     .     .     .     .     .
 2     .     .     .     .     .
    .     .     .     .     .     .
 1     .     .     .     .     .
          .     .     .     .
       .     .     .     .     .
    A     .     .     .     .     K
       B     .     .     .     J
          C     .     .     I
             D           H
                E     G
                   F
";

const NAMES: SideNames<'static> = SideNames {
    white: "alice",
    black: "bob",
};

fn p(s: &str) -> Point {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn ps<const N: usize>(names: [&str; N]) -> [Point; N] {
    names.map(p)
}

fn act(game: &mut Game, text: &str) {
    let action: Action = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    game.play(action)
        .unwrap_or_else(|e| panic!("{text} refused: {e}"));
}

/// Text line and character column of a point (pbmserv-reference.md §6).
fn formula(pt: Point) -> (usize, usize) {
    let (i, n) = (i32::from(pt.column()), i32::from(pt.number()));
    ((18 + i - 2 * n) as usize, (4 + 3 * i) as usize)
}

/// The character at (line, col) of a drawing; a space beyond the end of a line.
fn char_at(text: &str, line: usize, col: usize) -> char {
    text.lines()
        .nth(line)
        .and_then(|l| l.chars().nth(col))
        .unwrap_or(' ')
}

/// A marker colour with no five in a row anywhere: along every line `i + n` runs
/// through all three residues mod 3 within any three steps, and each colour takes at
/// most two of them.
fn pattern_color(pt: Point) -> Color {
    match (pt.column() + pt.number()) % 3 {
        0 => Color::White,
        1 => Color::Black,
        _ if pt.column().is_multiple_of(2) => Color::White,
        _ => Color::Black,
    }
}

/// Ten rings placed alternately, White first; White is then to move a ring.
fn after_placement() -> Game {
    let mut game = Game::new(Variant::Normal);
    for pt in ["e5", "f6", "c3", "h8", "d7", "g4", "b2", "j9", "f9", "e2"] {
        act(&mut game, pt);
    }
    game
}

/// A crowded middle game: rings on the edges and corners of the drawing, 43 markers.
fn crowded() -> Game {
    let white_rings = ps(["a2", "a5", "g11", "k10", "f2"]);
    let black_rings = ps(["b1", "e10", "k7", "j11", "e1"]);
    let rings: Vec<Point> = white_rings.iter().chain(&black_rings).copied().collect();
    let mut setup = Setup::new(Variant::Normal)
        .rings(Color::White, white_rings)
        .rings(Color::Black, black_rings)
        .to_move(Color::Black);
    for pt in Point::ALL {
        let (i, n) = (u32::from(pt.column()), u32::from(pt.number()));
        if !rings.contains(&pt) && (i * 7 + n * 3) % 5 != 0 && (2..=8).contains(&i) {
            setup = setup.marker(pattern_color(pt), pt);
        }
    }
    setup.build().expect("crowded setup")
}

/// White to move g3-g5: the marker left on g3 completes c3-h3 (six whites, two
/// windows) and the jump flips g4, completing c4-g4 for Black.
fn before_double_row() -> Game {
    Setup::new(Variant::Normal)
        .rings(Color::White, ps(["g3", "a5", "k10", "e9", "i5"]))
        .rings(Color::Black, ps(["a4", "d8", "h4", "i9"]))
        .markers(Color::White, ps(["c3", "d3", "e3", "f3", "h3", "g4", "e6"]))
        .markers(Color::Black, ps(["c4", "d4", "e4", "f4", "f6", "h6"]))
        .removed(Color::Black, 1)
        .build()
        .expect("double row setup")
}

/// 51 markers and four rings each, one ring removed each: the pool is empty.
fn markers_exhausted() -> Game {
    let white_rings = ps(["a2", "b1", "k10", "j11"]);
    let black_rings = ps(["a5", "e10", "k7", "f2"]);
    let rings: Vec<Point> = white_rings.iter().chain(&black_rings).copied().collect();
    let mut setup = Setup::new(Variant::Normal)
        .rings(Color::White, white_rings)
        .rings(Color::Black, black_rings)
        .removed(Color::White, 1)
        .removed(Color::Black, 1);
    for pt in Point::ALL
        .into_iter()
        .filter(|pt| !rings.contains(pt))
        .take(51)
    {
        setup = setup.marker(pattern_color(pt), pt);
    }
    setup.build().expect("exhausted setup")
}

/// Seven rings huddled near a2, and the 46 points on the lines out of them up to the
/// board's edge or the next ring: filled with markers, no ring can move.
fn blocked_setup() -> (Setup, Vec<Point>) {
    let white_rings = ps(["a2", "b2", "b3"]);
    let black_rings = ps(["a3", "b4", "c3", "c4"]);
    let rings: Vec<Point> = white_rings.iter().chain(&black_rings).copied().collect();
    let mut needed = Vec::new();
    for &r in &rings {
        for (dl, dn) in [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)] {
            let (mut i, mut n) = (i32::from(r.column()), i32::from(r.number()));
            while let Some(q) = Point::from_coords(i + dl, n + dn) {
                if rings.contains(&q) {
                    break;
                }
                if !needed.contains(&q) {
                    needed.push(q);
                }
                (i, n) = (i + dl, n + dn);
            }
        }
    }
    let setup = Setup::new(Variant::Normal)
        .rings(Color::White, white_rings)
        .rings(Color::Black, black_rings)
        .removed(Color::White, 2)
        .removed(Color::Black, 1);
    (setup, needed)
}

/// Every position the snapshots show, with its snapshot name.
fn all_positions() -> Vec<(&'static str, Game)> {
    let mut v = vec![
        ("empty", Game::new(Variant::Normal)),
        ("after_placement", after_placement()),
        ("crowded", crowded()),
        ("removal_after_own_move", removal_after_own_move()),
        ("removal_owed_at_start_of_turn", removal_owed()),
        ("blitz", blitz()),
        ("won_by_rings", won_by_rings()),
        ("draw_markers_exhausted", markers_exhausted()),
        ("won_both_blocked", both_blocked()),
        ("resigned", resigned()),
        ("must_pass", must_pass()),
    ];
    let mut placing = Game::new(Variant::Normal);
    for pt in ["e5", "f6", "c3"] {
        act(&mut placing, pt);
    }
    v.push(("during_placement", placing));
    v
}

fn removal_after_own_move() -> Game {
    let mut game = before_double_row();
    act(&mut game, "g3-g5");
    game
}

fn ring_removal_after_own_move() -> Game {
    let mut game = removal_after_own_move();
    act(&mut game, "xc3-g3");
    game
}

fn removal_owed() -> Game {
    let mut game = ring_removal_after_own_move();
    act(&mut game, "xa5");
    game
}

fn blitz() -> Game {
    let mut game = Game::new(Variant::Blitz);
    for pt in ["e5", "f6", "c3", "h8", "d7", "g4", "b2", "j9", "f9", "e2"] {
        act(&mut game, pt);
    }
    for mv in ["e5-e7", "f6-d4", "c3-c6", "h8-h6"] {
        act(&mut game, mv);
    }
    game
}

fn won_by_rings() -> Game {
    let mut game = Setup::new(Variant::Normal)
        .rings(Color::White, ps(["g3", "a5", "k10"]))
        .rings(Color::Black, ps(["a4", "d8", "h4", "k8"]))
        .markers(Color::White, ps(["c3", "d3", "e3", "f3", "e6"]))
        .markers(Color::Black, ps(["c4", "d4", "f6", "h6"]))
        .removed(Color::White, 2)
        .removed(Color::Black, 1)
        .build()
        .expect("winning setup");
    for a in ["g3-g5", "xc3-g3", "xk10"] {
        act(&mut game, a);
    }
    game
}

fn both_blocked() -> Game {
    let (mut setup, needed) = blocked_setup();
    for &q in &needed {
        setup = setup.marker(pattern_color(q), q);
    }
    setup.build().expect("blocked setup")
}

/// The blocked position less the first marker whose absence frees Black but not
/// White: White, to move, must pass.
fn must_pass() -> Game {
    let (setup, needed) = blocked_setup();
    for skip in 0..needed.len() {
        let mut s = setup.clone();
        for (k, &q) in needed.iter().enumerate() {
            if k != skip {
                s = s.marker(pattern_color(q), q);
            }
        }
        let game = s.build().expect("pass setup");
        if game.expects() == Some(ActionKind::Pass) {
            return game;
        }
    }
    panic!("no single missing marker leaves White blocked and Black free");
}

fn resigned() -> Game {
    let mut game = after_placement();
    for mv in ["e5-e7", "f6-d4", "c3-c6"] {
        act(&mut game, mv);
    }
    game.resign(Color::Black).expect("resign");
    game
}

// ----- the drawing ----------------------------------------------------------------

#[test]
fn empty_board_is_the_pbmserv_drawing_byte_for_byte_reference_section_6() {
    assert_eq!(render_board(&Game::new(Variant::Normal)), REFERENCE);
    assert_eq!(render_board(&Game::new(Variant::Blitz)), REFERENCE);
}

#[test]
fn every_point_lands_on_a_dot_of_the_reference_at_the_formula_position() {
    assert_eq!(REFERENCE.matches('.').count(), 85);
    let mut seen = std::collections::HashSet::new();
    for pt in Point::ALL {
        let (line, col) = formula(pt);
        assert_eq!(
            char_at(REFERENCE, line, col),
            '.',
            "{pt} at line {line}, col {col}"
        );
        assert!(seen.insert((line, col)), "{pt} shares its place");
    }
    // And every dot is some point's place.
    for (line, text) in REFERENCE.lines().enumerate() {
        for (col, ch) in text.chars().enumerate() {
            if ch == '.' {
                assert!(seen.contains(&(line, col)), "stray dot at {line}:{col}");
            }
        }
    }
}

#[test]
fn a_ring_on_any_point_takes_only_the_two_spaces_beside_it() {
    for pt in Point::ALL {
        let game = Setup::new(Variant::Normal)
            .ring(Color::White, pt)
            .to_move(Color::Black)
            .build()
            .expect("one ring");
        let board = render_board(&game);
        let (line, col) = formula(pt);
        assert_eq!(board.lines().count(), REFERENCE.lines().count());
        for (l, (got, want)) in board.lines().zip(REFERENCE.lines()).enumerate() {
            let width = got.len().max(want.len());
            for c in 0..width {
                let (g, w) = (char_at(&board, l, c), char_at(REFERENCE, l, c));
                if l == line && c == col - 1 {
                    assert_eq!((g, w), ('(', ' '), "{pt}: left of the ring");
                } else if l == line && c == col {
                    assert_eq!((g, w), ('o', '.'), "{pt}: the ring's centre");
                } else if l == line && c == col + 1 {
                    assert_eq!((g, w), (')', ' '), "{pt}: right of the ring");
                } else {
                    assert_eq!(g, w, "{pt}: line {l}, col {c} changed");
                }
            }
        }
    }
}

#[test]
fn two_rings_on_one_text_line_always_leave_a_gap() {
    let mut pairs = 0;
    for a in Point::ALL {
        for b in Point::ALL {
            let ((la, ca), (lb, cb)) = (formula(a), formula(b));
            if la != lb || ca >= cb {
                continue;
            }
            pairs += 1;
            let game = Setup::new(Variant::Normal)
                .ring(Color::White, a)
                .ring(Color::Black, b)
                .build()
                .expect("two rings");
            let board = render_board(&game);
            let line: Vec<char> = board.lines().nth(la).unwrap_or("").chars().collect();
            let span = |c: usize| line.get(c - 1..=c + 1).map(String::from_iter);
            assert_eq!(span(ca).as_deref(), Some("(o)"), "{a} beside {b}");
            assert_eq!(span(cb).as_deref(), Some("(x)"), "{b} beside {a}");
            // At least one space between `(o)` and `(x)`.
            assert_eq!(line.get(ca + 2), Some(&' '), "{a} and {b} crowd each other");
            assert_eq!(line.get(cb - 2), Some(&' '), "{a} and {b} crowd each other");
        }
    }
    assert_eq!(pairs, 162, "pairs of points on one text line");
}

#[test]
fn markers_and_rings_show_their_side_symbols_section_2() {
    let game = crowded();
    let board = render_board(&game);
    for pt in Point::ALL {
        let (line, col) = formula(pt);
        let want = match game.piece_at(pt) {
            None => ".".to_string(),
            Some(yinsh_pbem::rules::Piece::Marker(Color::White)) => "o".to_string(),
            Some(yinsh_pbem::rules::Piece::Marker(Color::Black)) => "x".to_string(),
            Some(yinsh_pbem::rules::Piece::Ring(Color::White)) => "(o)".to_string(),
            Some(yinsh_pbem::rules::Piece::Ring(Color::Black)) => "(x)".to_string(),
        };
        let text = board.lines().nth(line).unwrap_or("");
        let start = col - want.len() / 2;
        assert_eq!(
            text.get(start..start + want.len()),
            Some(want.as_str()),
            "{pt}"
        );
    }
}

// ----- text hygiene ---------------------------------------------------------------

#[test]
fn no_line_has_trailing_spaces_and_status_lines_fit_72_columns() {
    let long = SideNames {
        white: "a_remarkably_long_userid_that_forces_wrapping",
        black: "another_equally_long_userid_for_black",
    };
    let accented = SideNames {
        white: "žluťoučký_kůň_úpěl_ďábelské_ódy",
        black: "Ørjan",
    };
    for (name, game) in all_positions() {
        for names in [SideNames::default(), NAMES, long, accented] {
            let text = render(&game, &names);
            assert!(text.ends_with('\n'), "{name}: no final newline");
            assert!(!text.contains('\t'), "{name}: a tab");
            for line in text.lines() {
                assert_eq!(line, line.trim_end(), "{name}: trailing space in {line:?}");
            }
            for line in render_status(&game, &names).lines() {
                let chars = line.chars().count();
                assert!(chars <= 72, "{name}: {chars} chars: {line:?}");
            }
        }
    }
}

// ----- the status block -----------------------------------------------------------

#[test]
fn side_names_default_to_the_colours_and_are_not_repeated() {
    let names = SideNames::default();
    assert_eq!((names.white, names.black), ("White", "Black"));
    let status = render_status(&after_placement(), &names);
    assert!(status.contains("White (o): 0 rings removed"), "{status}");
    assert!(
        status.contains("To move: White - move a ring; it leaves an o marker"),
        "{status}"
    );
    assert!(!status.contains("White (White)"), "{status}");
}

#[test]
fn status_follows_the_game_through_a_double_row_section_3() {
    // The positions the snapshots show really are the stages their names claim.
    let g = removal_after_own_move();
    assert_eq!(g.to_act(), Some(Color::White));
    assert_eq!(g.expects(), Some(ActionKind::RemoveRow));
    assert_eq!(g.removing_after_own_move(), Some(true));
    let white_rows: Vec<Row> = g.rows(Color::White).collect();
    assert_eq!(white_rows.len(), 2);
    assert_eq!(g.row_count(Color::Black), 1);
    let s = render_status(&g, &NAMES);
    assert!(s.contains("Rows to choose from: c3-g3, d3-h3"), "{s}");
    assert!(
        s.contains("for bob (Black) to remove at the start of"),
        "{s}"
    );

    let g = removal_owed();
    assert_eq!(g.to_act(), Some(Color::Black));
    assert_eq!(g.removing_after_own_move(), Some(false));
    let s = render_status(&g, &NAMES);
    assert!(s.contains("Row to remove: c4-g4"), "{s}");
    assert!(
        s.contains("White's last move made a row for Black: before"),
        "{s}"
    );
}

#[test]
fn endings_state_the_result_and_the_reason_section_4() {
    let cases: [(Game, Outcome, EndReason, &str); 4] = [
        (
            won_by_rings(),
            Outcome::Win(Color::White),
            EndReason::RingsRemoved,
            "Game over: alice (White) wins by removing 3 rings",
        ),
        (
            markers_exhausted(),
            Outcome::Draw,
            EndReason::MarkersExhausted,
            "Game over: the marker pool is empty; a draw on rings removed, 1 each",
        ),
        (
            both_blocked(),
            Outcome::Win(Color::White),
            EndReason::BothBlocked,
            "Game over: neither side can move a ring; alice (White) wins on rings",
        ),
        (
            resigned(),
            Outcome::Win(Color::White),
            EndReason::Resignation,
            "Game over: bob (Black) resigned, so alice (White) wins",
        ),
    ];
    for (game, outcome, reason, text) in cases {
        let ending = game.ending().expect("game over");
        assert_eq!((ending.outcome, ending.reason), (outcome, reason));
        let s = render_status(&game, &NAMES);
        assert!(s.contains(text), "{s}");
        assert!(!s.contains("To move"), "{s}");
    }
}

// ----- snapshots ------------------------------------------------------------------

#[test]
fn snapshots() {
    for (name, game) in all_positions() {
        let names = if name == "empty" {
            SideNames::default()
        } else {
            NAMES
        };
        assert_snapshot!(name, render(&game, &names));
    }
    assert_snapshot!(
        "ring_removal_after_own_move",
        render(&ring_removal_after_own_move(), &NAMES)
    );
    let long = SideNames {
        white: "a_remarkably_long_userid_that_forces_wrapping",
        black: "Ørjan",
    };
    assert_snapshot!(
        "status_with_long_names",
        format!(
            "{}\n{}",
            render_status(&removal_after_own_move(), &long),
            render_status(&both_blocked(), &long)
        )
    );
}
