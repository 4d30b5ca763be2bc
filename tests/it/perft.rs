//! perft (yinsh-rules.md §6) cross-checked against the naive generator of naive.rs:
//! a table of positions (most of them built by rules.rs, shared with the rules tests),
//! each with a depth and the count the naive generator gives, which the engine must
//! give too. Also the `yinsh-pbem perft` command.

use yinsh_pbem::rules::{Color, Game, Variant, perft, perft_divide};

use crate::naive::{self, Spec, assert_agree, patterned};
use crate::rules::{
    before_rows_for_both, both_blocked_draw, boxed_in_with_a_row_owed, one_marker_left, ring_on_c3,
    ten_placed, white_boxed_in,
};
use crate::support::bin;

/// One row of the table.
struct Case {
    name: &'static str,
    spec: Spec,
    depth: u32,
    /// The naive generator's count (checked), which the engine must match.
    count: u64,
}

/// `rules::ring_on_c3` with nothing removed, then `then` (the positions of
/// rules/rows.rs, yinsh-rules.md §3.3-§3.6).
fn c3(white: &'static str, black: &'static str, then: &'static str) -> Spec {
    Spec {
        then,
        ..ring_on_c3(white, black, [0, 0])
    }
}

fn cases() -> Vec<Case> {
    let crowded = Spec {
        rings: ["c3 e6 g4 h8 d9", "f5 b5 i6 e3 g9"],
        markers: patterned(
            "b2 b4 c5 c6 d3 d4 d6 d7 e4 e5 e7 e8 f3 f4 f6 f7 f8 g5 g6 g7 h5 h6 h7 i7 i8 c2",
        ),
        ..Spec::default()
    };
    let both = |removed| Spec {
        then: "c3-e5",
        ..before_rows_for_both(removed)
    };
    let blitz = |s: Spec| Spec {
        variant: Variant::Blitz,
        ..s
    };
    let case = |name, spec, depth, count| Case {
        name,
        spec,
        depth,
        count,
    };
    vec![
        case("empty board", Spec::default(), 1, 85),
        case("empty board", Spec::default(), 2, 7140),
        case("empty board", Spec::default(), 3, 592620),
        case("after placement", ten_placed(Variant::Normal), 3, 522042),
        case("crowded mid-game", crowded, 4, 934638),
        case(
            "removal pending for the mover: two disjoint rows",
            c3("c1 c2 c4 c5 d5 d6 d7 d8", "d4", "c3-e5"),
            6,
            145888,
        ),
        case(
            "removal pending for the opponent at the start of its turn",
            c3("f6", "f2 f3 f4 f5", "c3-g7"),
            4,
            21175,
        ),
        case(
            "line of ten owed by set-up",
            c3("e1..e10", "", ""),
            4,
            79168,
        ),
        case("rows for both", both([0, 0]), 6, 96368),
        case(
            "rows for both, both one ring from winning",
            both([2, 2]),
            2,
            3,
        ),
        case(
            "rows for both, the mover wins at its ring",
            both([2, 2]),
            3,
            0,
        ),
        case(
            "crossing rows",
            c3("c1 c2 c4 c5 a3 b3 d3 e3", "", "c3-d4"),
            4,
            42036,
        ),
        case("line of six", c3("c1 c2 c4 c5 c6", "", "c3-d3"), 4, 46744),
        case(
            "one marker left",
            one_marker_left(Variant::Normal, [0, 0]),
            5,
            16312,
        ),
        case(
            "one marker left, White ahead",
            one_marker_left(Variant::Normal, [1, 0]),
            5,
            11274,
        ),
        case("forced pass", white_boxed_in(), 5, 134238),
        case(
            "row owed before a forced pass",
            boxed_in_with_a_row_owed(),
            5,
            3161,
        ),
        case("both blocked", both_blocked_draw(), 2, 0),
        case(
            "blitz after placement",
            ten_placed(Variant::Blitz),
            3,
            522042,
        ),
        case("blitz rows for both", blitz(both([0, 0])), 2, 5),
        case(
            "blitz rows for both: over after the ring",
            blitz(both([0, 0])),
            3,
            0,
        ),
        case(
            "blitz one marker left",
            one_marker_left(Variant::Blitz, [0, 0]),
            3,
            15,
        ),
    ]
}

#[test]
fn section_6_engine_perft_equals_naive_perft_on_the_table() {
    let mut wrong = Vec::new();
    for c in cases() {
        let game = c.spec.game();
        let n = c.spec.naive();
        assert_agree(&game, &n, c.name);
        let naive_count = naive::perft(&n, c.depth);
        let engine_count = perft(&game, c.depth);
        assert_eq!(
            engine_count, naive_count,
            "{} depth {}: engine {engine_count}, naive {naive_count}",
            c.name, c.depth
        );
        if naive_count != c.count {
            wrong.push(format!("{} depth {}: {naive_count}", c.name, c.depth));
        }
    }
    assert!(
        wrong.is_empty(),
        "table counts differ:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn section_6_perft_divide_sums_to_perft() {
    let game = Spec {
        then: "c3-e5",
        ..before_rows_for_both([0, 0])
    }
    .game();
    let split = perft_divide(&game, 4);
    assert_eq!(split.len(), 1);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), perft(&game, 4));
    let g = Game::new(Variant::Normal);
    let split = perft_divide(&g, 2);
    assert_eq!(split.len(), 85);
    assert!(split.iter().all(|&(_, n)| n == 84));
    assert!(perft_divide(&g, 0).is_empty());
    assert_eq!(perft(&g, 0), 1);
}

#[test]
fn section_6_a_finished_game_has_no_children() {
    let mut g = Game::new(Variant::Blitz);
    g.resign(Color::White).unwrap();
    assert_eq!(perft(&g, 1), 0);
    assert_eq!(perft(&g, 3), 0);
    assert_eq!(perft(&g, 0), 1);
}

fn perft_cmd(args: &[&str]) -> assert_cmd::assert::Assert {
    bin::assert_command().arg("perft").args(args).assert()
}

fn last_line(out: &[u8]) -> String {
    String::from_utf8_lossy(out)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

/// Placements, then White's rings c1..c5 each step right while Black's g11 walks down:
/// White's markers c1..c5 make a row.
const WHITE_ROW: [&str; 19] = [
    "c1", "g11", "c2", "h11", "c3", "i11", "c4", "j11", "c5", "k10", "c1-d1", "g11-g10", "c2-d2",
    "g10-g9", "c3-d3", "g9-g8", "c4-d4", "g8-g7", "c5-d5",
];

#[test]
fn cli_perft_counts_from_the_empty_board_section_6() {
    let out = perft_cmd(&["2"]).success().get_output().stdout.clone();
    assert_eq!(last_line(&out), "7140");
    let out = perft_cmd(&["1", "e5"])
        .success()
        .get_output()
        .stdout
        .clone();
    assert_eq!(last_line(&out), "84");
    let out = perft_cmd(&["--blitz", "--divide", "1", "E5"])
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8_lossy(&out);
    assert_eq!(text.lines().count(), 85, "84 actions and the total");
    assert_eq!(last_line(&out), "84");
}

#[test]
fn cli_perft_takes_row_ends_in_either_order_section_5() {
    let mut counts = Vec::new();
    for row in ["xc1-c5", "xc5-c1", "XC5-C1"] {
        let mut args = vec!["1"];
        args.extend(WHITE_ROW);
        args.push(row);
        let out = perft_cmd(&args).success().get_output().stdout.clone();
        counts.push(last_line(&out));
    }
    assert_eq!(counts, vec!["5", "5", "5"], "after the row: one of 5 rings");
    let mut args = vec!["1"];
    args.extend(WHITE_ROW);
    let out = perft_cmd(&args).success().get_output().stdout.clone();
    assert_eq!(last_line(&out), "1", "the row is the only action");
}

#[test]
fn cli_perft_names_a_bad_action_and_why() {
    for (args, wants) in [
        (
            &["1", "e5", "zz"][..],
            &["action 2", "zz", "not a point"][..],
        ),
        (
            &["1", "xa2-a6"],
            &["action 1", "xa2-a6", "a6 is not a point of the board"],
        ),
        (
            &["1", "xa6-a2"],
            &["action 1", "xa6-a2", "a6 is not a point of the board"],
        ),
        (&["1", "e5-"], &["action 1", "e5-"]),
        (&["1", ""], &["action 1", "empty action"]),
    ] {
        let out = perft_cmd(args).code(1).get_output().clone();
        let err = String::from_utf8_lossy(&out.stderr);
        for want in wants {
            assert!(err.contains(want), "{args:?}: {err:?} lacks {want:?}");
        }
        assert!(out.stdout.is_empty(), "{args:?} printed a count");
    }
}

#[test]
fn cli_perft_names_an_illegal_action_and_the_reason() {
    for (args, wants) in [
        (
            &["1", "e5", "e5"][..],
            &["action 2", "e5", "illegal", "e5 is occupied"][..],
        ),
        (
            &["1", "e5-e6"],
            &["action 1", "illegal", "it is time to place a ring"],
        ),
        (
            &["1", "xc1-c5"],
            &["action 1", "illegal", "not to remove a row"],
        ),
    ] {
        let out = perft_cmd(args).code(1).get_output().clone();
        let err = String::from_utf8_lossy(&out.stderr);
        for want in wants {
            assert!(err.contains(want), "{args:?}: {err:?} lacks {want:?}");
        }
    }
    let mut args = vec!["1"];
    args.extend(&WHITE_ROW[..18]);
    args.push("d3-d5");
    let out = perft_cmd(&args).code(1).get_output().clone();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("action 19") && err.contains("d3-d5 would jump the ring at d4"),
        "{err}"
    );
}
