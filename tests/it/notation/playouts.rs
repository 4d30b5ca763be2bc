//! The notation over random play: seeded and proptest playouts printed turn by turn
//! and read back in every written form (mangled case and separators, the shorthand
//! removal), and arbitrary text, notation-like text and bytes through the parser,
//! which must answer without panicking and with a caret where it stopped.

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngSeed};
use yinsh_pbem::notation::auto_pass_due;
use yinsh_pbem::rules::ActionKind;

use super::*;
use crate::support::turns::{group_turns, random_playout, turn_complete};
use yinsh_pbem::ai::Rng;

// ----- random playouts -------------------------------------------------------------------

fn config(seed: u64, cases: u32) -> Config {
    Config {
        cases,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

/// Change case at random, use `:` and spaces around separators, add `#N`.
fn mangle(text: &str, noise: u64, moveno: u32) -> String {
    let mut rng = Rng::new(noise);
    let mut out = String::from([" ", ""][rng.below(2)]);
    for c in text.chars() {
        match c {
            ';' => out.push_str([";", ":", " : ", "; ", " ;"][rng.below(5)]),
            c if rng.below(2) == 0 => out.push(c.to_ascii_uppercase()),
            c => out.push(c),
        }
    }
    if rng.below(2) == 0 {
        out.push_str(&format!(" #{moveno}"));
    }
    out
}

/// The shorthand form of a written turn: every removal without its row.
fn shorthand(turn: &WrittenTurn) -> WrittenTurn {
    let parts = turn.parts.iter().map(|&p| match p {
        Part::Removal { ring, .. } => Part::Removal { row: None, ring },
        p => p,
    });
    WrittenTurn {
        parts: parts.collect(),
        moveno: None,
    }
}

/// What one checked turn showed, to prove the playouts reach the interesting cases.
#[derive(Default, Debug)]
struct Seen {
    turns: usize,
    removals: usize,
    owed_first: usize,
    ambiguous: usize,
}

/// Check one turn of a playout in every written form.
fn check_turn(before: &Game, actions: &[Action], noise: u64, number: u32, seen: &mut Seen) {
    seen.turns += 1;
    let text = write_turn(actions);
    let t = parse_turn(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(t.to_string(), text);
    assert_eq!(t.resolve(before).as_deref(), Ok(actions), "{text}");

    let mangled = mangle(&text, noise, number);
    let t = parse_turn(&mangled).unwrap_or_else(|e| panic!("{mangled}: {e}"));
    assert_eq!(t.resolve(before).as_deref(), Ok(actions), "{mangled}");

    // A forced pass after the removals owed at the start may be left out.
    if let Some(stripped) = text.strip_suffix(";--") {
        let t = parse_turn(stripped).unwrap();
        assert_eq!(t.resolve(before).as_deref(), Ok(actions), "{stripped}");
    }
    seen.owed_first += usize::from(matches!(actions.first(), Some(Action::RemoveRow(_))));

    // The shorthand is accepted exactly when each removal had a single row.
    let me = before.to_act().unwrap();
    let mut g = *before;
    let mut ambiguous = None;
    for &a in actions {
        if let Action::RemoveRow(_) = a {
            seen.removals += 1;
            if g.row_count(me) != 1 && ambiguous.is_none() {
                ambiguous = Some(g.rows(me).collect::<Vec<_>>());
            }
        }
        g.play(a).unwrap();
    }
    let short = shorthand(&t);
    match (short.resolve(before), ambiguous) {
        (Ok(got), None) => assert_eq!(got, actions, "{short}"),
        (Err(TurnError::AmbiguousRemoval { rows, .. }), Some(want)) => {
            seen.ambiguous += 1;
            assert_eq!(rows, want, "{short}")
        }
        (got, want) => panic!("{short}: {got:?}, ambiguous rows {want:?}"),
    }
}

fn check_playout(variant: Variant, actions: &[Action], noise: u64, seen: &mut Seen) {
    let mut game = Game::new(variant);
    for (k, (before, turn)) in group_turns(game, actions).iter().enumerate() {
        assert_eq!(&game, before);
        let mut after = *before;
        turn.iter().for_each(|&a| after.play(a).unwrap());
        if !turn_complete(before, &after) {
            // The playout stopped in the middle of its last turn.
            break;
        }
        check_turn(before, turn, noise ^ k as u64, k as u32 + 1, seen);
        let played = play_turn(&mut game, &write_turn(turn)).unwrap();
        assert_eq!(&played, turn);
        if game.expects() == Some(ActionKind::Pass) {
            assert!(auto_pass_due(&game));
        }
    }
}

#[test]
fn seeded_playouts_reach_every_kind_of_turn_section_5() {
    let mut seen = Seen::default();
    for seed in 0..300u64 {
        let variant = if seed % 4 == 0 {
            Variant::Blitz
        } else {
            Variant::Normal
        };
        let mut rng = Rng::new(seed);
        let actions = random_playout(variant, 1000, |n| rng.below(n));
        check_playout(variant, &actions, seed, &mut seen);
    }
    assert!(seen.turns > 10_000, "{seen:?}");
    assert!(seen.removals > 100, "{seen:?}");
    assert!(seen.owed_first > 5, "{seen:?}");
    assert!(seen.ambiguous > 5, "{seen:?}");
    // Uniform play almost never walls a side in: passes are checked on built
    // positions below (a_side_without_a_ring_move_must_pass_section_4 and
    // a_pass_after_removals_owed_at_the_start_may_be_left_out_section_4).
}

proptest! {
    #![proptest_config(config(0x5eed_0001, 200))]

    #[test]
    fn random_playouts_print_and_read_back_turn_by_turn_section_5(
        choices in prop::collection::vec(any::<Index>(), 1..400),
        blitz in any::<bool>(),
        noise in any::<u64>(),
    ) {
        let variant = if blitz { Variant::Blitz } else { Variant::Normal };
        let mut next = choices.iter().cycle();
        let actions = random_playout(variant, choices.len(), |n| next.next().map_or(0, |i| i.index(n)));
        check_playout(variant, &actions, noise, &mut Seen::default());
    }
}

proptest! {
    #![proptest_config(config(0x5eed_0002, 2000))]

    #[test]
    fn arbitrary_text_never_panics_the_parser(s in any::<String>()) {
        check_any_text(&s);
    }

    #[test]
    fn notation_like_text_never_panics_the_parser(s in "[a-lxX0-9;: #\u{e9}-]{0,24}") {
        check_any_text(&s);
    }

    #[test]
    fn arbitrary_bytes_never_panic_the_parser(b in prop::collection::vec(any::<u8>(), 0..32)) {
        check_any_text(&String::from_utf8_lossy(&b));
    }
}

fn check_any_text(s: &str) {
    match parse_turn(s) {
        Ok(t) => assert_eq!(parse_turn(&t.to_string()), Ok(t)),
        Err(e) => {
            assert!(e.offset() <= s.len() && s.is_char_boundary(e.offset()));
            // The message names the character (1-based, counted in chars) of the caret.
            let column = s[..e.offset()].chars().count() + 1;
            let says = e.to_string();
            assert!(
                says.starts_with(&format!("at character {column} of `")),
                "{says}"
            );
            assert_eq!(e.caret().lines().count(), 2);
        }
    }
}
