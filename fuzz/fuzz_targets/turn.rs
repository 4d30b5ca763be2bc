//! Fuzz target: the turn parser and resolver. The first byte picks how many random
//! legal actions (chosen by the next bytes) lead to the position; the rest is parsed
//! as a turn and resolved there. Invariants: no panic, and every action of an
//! accepted turn is legal when replayed one by one with `Game::check`/`Game::play`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yinsh_pbem::notation::parse_turn;
use yinsh_pbem::rules::{Game, Variant};

fuzz_target!(|data: &[u8]| {
    let Some((&n, rest)) = data.split_first() else {
        return;
    };
    let steps = usize::from(n % 64);
    let (choices, text) = rest.split_at(steps.min(rest.len()));
    let mut game = Game::new(if n & 0x80 != 0 {
        Variant::Blitz
    } else {
        Variant::Normal
    });
    for &c in choices {
        let legal = game.legal_actions();
        if legal.is_empty() {
            break;
        }
        let a = legal[usize::from(c) % legal.len()];
        game.play(a).expect("a listed legal action plays");
    }
    let text = String::from_utf8_lossy(text);
    let Ok(written) = parse_turn(&text) else {
        return;
    };
    let Ok(actions) = written.resolve(&game) else {
        return;
    };
    let mut replay = game.clone();
    for a in actions {
        assert_eq!(
            replay.check(a),
            Ok(()),
            "resolved action {a} of {text:?} is illegal"
        );
        replay.play(a).expect("checked action plays");
    }
});
