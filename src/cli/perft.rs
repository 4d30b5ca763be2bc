//! `yinsh-pbem perft`: count atomic-action sequences after some actions.

use std::process::ExitCode;

use crate::rules::{Action, Game, Variant, perft as count, perft_divide};

/// `yinsh-pbem perft`: play `actions` from the empty board, then print the perft
/// count of `depth` as the last line of stdout. A bad or illegal action: exit 1.
pub fn perft(blitz: bool, divide: bool, depth: u32, actions: &[String]) -> ExitCode {
    let variant = if blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    };
    let mut game = Game::new(variant);
    for (k, text) in actions.iter().enumerate() {
        let action: Action = match text.parse() {
            Ok(a) => a,
            Err(e) => {
                eprintln!("action {} `{text}`: {e}", k + 1);
                return ExitCode::from(1);
            }
        };
        if let Err(e) = game.play(action) {
            eprintln!("action {} `{text}` is illegal: {e}", k + 1);
            return ExitCode::from(1);
        }
    }
    if divide {
        let mut total = 0;
        for (a, n) in perft_divide(&game, depth) {
            outln!("{a} {n}");
            total += n;
        }
        outln!("{total}");
    } else {
        outln!("{}", count(&game, depth));
    }
    ExitCode::SUCCESS
}
