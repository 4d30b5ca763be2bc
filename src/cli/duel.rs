//! `yinsh-pbem match`: engine against engine. Plays N games, the two players taking
//! White in turn (A has White in odd games), and prints A's wins, losses and draws
//! and the Elo difference of A over B with its 95% margin. Progress goes to stderr.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use crate::ai::{PlayerSpec, Tally, play_game};
use crate::rules::{Color, Outcome, Variant};

/// The settings of one match.
#[derive(Clone, Copy, Debug)]
pub struct MatchArgs {
    /// Play blitz games.
    pub blitz: bool,
    /// How many games.
    pub games: u32,
    /// The number of the first game (1-based): game `i`'s seeds and colours do not
    /// depend on where the run started.
    pub first: u32,
    /// The first player (White in game 1).
    pub a: PlayerSpec,
    /// The second player.
    pub b: PlayerSpec,
    /// The seed from which each game's players are seeded.
    pub seed: u64,
    /// The think time of `level5`.
    pub think_time: Duration,
}

/// Run the match; exit 0 with the result on stdout, 1 if a player played an illegal
/// turn (named on stderr).
pub fn play_match(args: MatchArgs) -> ExitCode {
    let variant = if args.blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    };
    let start = Instant::now();
    let mut tally = Tally::default();
    let mut as_white = Tally::default();
    let mut turns: u64 = 0;
    let first = args.first.saturating_sub(1);
    for i in first..first.saturating_add(args.games) {
        let seed = |k: u64| {
            args.seed
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .wrapping_add(u64::from(i) * 2 + k)
        };
        let mut a = args.a.player(seed(0), args.think_time);
        let mut b = args.b.player(seed(1), args.think_time);
        let a_color = if i % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let record = match a_color {
            Color::White => play_game(&mut a, &mut b, variant),
            Color::Black => play_game(&mut b, &mut a, variant),
        };
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                eprintln!("game {}: {e}", i + 1);
                return ExitCode::from(1);
            }
        };
        turns += record.turns.len() as u64;
        let add = |t: &mut Tally| match record.outcome {
            Outcome::Win(c) if c == a_color => t.wins += 1,
            Outcome::Win(_) => t.losses += 1,
            Outcome::Draw => t.draws += 1,
        };
        add(&mut tally);
        if a_color == Color::White {
            add(&mut as_white);
        }
        eprintln!(
            "game {}: {} as {}: {}, {} turns",
            i + 1,
            args.a,
            a_color,
            match record.outcome {
                Outcome::Win(c) if c == a_color => "won",
                Outcome::Win(_) => "lost",
                Outcome::Draw => "drawn",
            },
            record.turns.len()
        );
        if (i + 1 - first).is_multiple_of(10) {
            eprintln!(
                "{} games, {} {}-{}-{} (w-l-d), {:.0} s",
                i + 1 - first,
                args.a,
                tally.wins,
                tally.losses,
                tally.draws,
                start.elapsed().as_secs_f64()
            );
        }
    }
    out!(
        "{}",
        report(&args, &tally, &as_white, turns, start.elapsed())
    );
    ExitCode::SUCCESS
}

/// The result text.
fn report(args: &MatchArgs, tally: &Tally, as_white: &Tally, turns: u64, took: Duration) -> String {
    let as_black = Tally {
        wins: tally.wins - as_white.wins,
        losses: tally.losses - as_white.losses,
        draws: tally.draws - as_white.draws,
    };
    let elo = tally.elo();
    let elo_text = if elo.diff.is_finite() && elo.margin().is_finite() {
        format!("{:+.0} +/- {:.0}", elo.diff, elo.margin())
    } else if elo.diff.is_finite() {
        format!("{:+.0}, from {:+.0} to {:+.0}", elo.diff, elo.low, elo.high)
    } else if elo.diff > 0.0 {
        format!("above {:+.0}", elo.low)
    } else {
        format!("below {:+.0}", elo.high)
    };
    let games = tally.games().max(1);
    format!(
        "{a} vs {b}, {n} {kind} games from game {first} ({a} White in odd games)\n\
         {a}: {w} wins, {l} losses, {d} draws (as White {ww}-{wl}-{wd}, as Black {bw}-{bl}-{bd})\n\
         score {score:.1}%, Elo difference {elo_text} (95%)\n\
         {turns} turns, {per:.1} per game, {secs:.1} s\n",
        a = args.a,
        b = args.b,
        n = tally.games(),
        first = args.first,
        kind = if args.blitz { "blitz" } else { "normal" },
        w = tally.wins,
        l = tally.losses,
        d = tally.draws,
        ww = as_white.wins,
        wl = as_white.losses,
        wd = as_white.draws,
        bw = as_black.wins,
        bl = as_black.losses,
        bd = as_black.draws,
        score = tally.score() * 100.0,
        per = turns as f64 / f64::from(games),
        secs = took.as_secs_f64(),
    )
}
