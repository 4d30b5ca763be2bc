//! `yinsh-pbem think`: read a transcript (as `replay` does) and print the turn the
//! robot plays for the side to move, in canonical notation; its estimate goes to
//! stderr. The turn is read back and resolved against the game before it is printed,
//! so an illegal turn is never printed.

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use super::transcript::read;
use crate::ai::{
    Budget, DEFAULT_THINK_TIME, Robot, SearchConfig, ThinkSettings, level_budget, win_chance,
};
use crate::notation::{FinalPass, play_transcript};
use crate::notation::{parse_turn, write_turn};
use crate::rules::{Game, Variant};

/// How hard `think` thinks: a level, a time or a number of playouts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effort {
    /// A level of the table (1..=5; 5 thinks `DEFAULT_THINK_TIME`).
    Level(u8),
    /// The robot's search for this many milliseconds.
    Ms(u64),
    /// The robot's search for this many playouts.
    Playouts(u64),
}

/// `yinsh-pbem think [--blitz] [--level N | --ms N | --playouts N] [--seed S] [--stats]
/// [FILE]`; with `stats`, what each decision's search did goes to stderr after the
/// estimate.
///
/// Exit 0 with the turn on stdout; exit 1 when the transcript cannot be read or
/// played, the game is over or the level does not exist.
pub fn think(blitz: bool, effort: Effort, seed: u64, stats: bool, file: Option<&Path>) -> ExitCode {
    match run(blitz, effort, seed, stats, file) {
        Ok((text, comment)) => {
            outln!("{text}");
            eprintln!("{comment}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

/// The turn's text and the robot's comment, or the message for the user.
fn run(
    blitz: bool,
    effort: Effort,
    seed: u64,
    stats: bool,
    file: Option<&Path>,
) -> Result<(String, String), String> {
    let budget = match effort {
        Effort::Level(n) => level_budget(n, DEFAULT_THINK_TIME)
            .ok_or_else(|| format!("there is no level {n}: choose 1 (weakest) to 5 (strongest)"))?,
        Effort::Ms(ms) => Budget::Time(Duration::from_millis(ms.max(1))),
        Effort::Playouts(n) => Budget::Playouts(n.max(1)),
    };
    let variant = if blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    };
    let text = read(file)?;
    let game = play_transcript(variant, &text, FinalPass::Leave)
        .map_err(|e| e.to_string())?
        .game;
    let mut robot = Robot::new(ThinkSettings {
        budget,
        search: SearchConfig::ROBOT,
        seed,
    });
    robot.set_profiling(stats);
    let turn = robot.think(&game).map_err(|e| e.to_string())?;
    let text = write_turn(&turn.actions);
    check(&game, &text, &turn.actions)?;
    let mut comment = turn.comment();
    if stats {
        let each = evaluation_cost(&game);
        for (k, p) in robot.profiles().iter().enumerate() {
            let share = p.percent(each.mul_f64(p.evaluations as f64));
            comment.push_str(&format!(
                "\nsearch {}: {p}; evaluations about {share:.0}% of the time ({:.2} us each, timed on the position)",
                k + 1,
                each.as_secs_f64() * 1e6,
            ));
        }
    }
    Ok((text, comment))
}

/// What one evaluation of `game` costs: the mean of many, timed together.
fn evaluation_cost(game: &Game) -> Duration {
    const TIMES: u32 = 20_000;
    let side = game.to_act().unwrap_or(crate::rules::Color::White);
    let start = Instant::now();
    for _ in 0..TIMES {
        std::hint::black_box(win_chance(std::hint::black_box(game), side));
    }
    start.elapsed() / TIMES
}

/// Refuse to print a turn that does not read back as the same legal, whole turn.
fn check(game: &Game, text: &str, actions: &[crate::rules::Action]) -> Result<(), String> {
    let internal = |why: String| format!("internal error: the robot chose `{text}`: {why}");
    let written = parse_turn(text).map_err(|e| internal(e.to_string()))?;
    let mut after = *game;
    let read_back = written
        .play(&mut after)
        .map_err(|e| internal(e.to_string()))?;
    if read_back != actions || (after.to_act() == game.to_act() && !after.is_over()) {
        return Err(internal("it is not one whole legal turn".to_string()));
    }
    Ok(())
}
