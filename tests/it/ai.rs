//! The computer opponent (src/ai/): a thousand fast games of the robot against
//! itself in each variant, every turn legal and whole and every game ending;
//! `yinsh-pbem think` through the real binary on turns that start with an owed
//! removal, a forced pass, a placement and a blitz win; `match` through the binary;
//! determinism for a seed; the match statistics on known inputs.

use std::process::Output;

use serde_json::Value;
use yinsh_pbem::ai::{
    Budget, Player, PlayerSpec, Robot, SearchConfig, Tally, ThinkSettings, elo_of_score, play_game,
};
use yinsh_pbem::rules::{Game, Variant};

use crate::support::bin;
use crate::support::data::fixture_tokens;

/// `yinsh-pbem <args>` with `stdin`.
fn run(args: &[&str], stdin: &str) -> Output {
    bin::assert_command()
        .args(args)
        .write_stdin(stdin)
        .output()
        .unwrap()
}

/// `think` must succeed and print exactly one line: the turn.
fn think(args: &[&str], transcript: &str) -> String {
    let mut all = vec!["think"];
    all.extend_from_slice(args);
    let out = run(&all, transcript);
    assert!(
        out.status.success(),
        "think {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("I estimate my chances at"),
        "the estimate goes to stderr"
    );
    text.trim_end().to_string()
}

/// `replay --json` of a transcript.
fn summary(blitz: bool, transcript: &str) -> Value {
    let args: &[&str] = if blitz {
        &["replay", "--blitz", "--json"]
    } else {
        &["replay", "--json"]
    };
    let out = run(args, transcript);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The fixture's turns before the `k`-th (counting from 0), as a transcript.
fn prefix(file: &str, k: usize) -> String {
    fixture_tokens(file)[..k].join(" ")
}

/// The robot with a tiny budget finishes many games against itself: `play_game`
/// writes each turn, reads it back, resolves it against the game and requires it to
/// be one whole turn, so any illegal or unfinished turn fails the game.
fn self_play(variant: Variant, games: u64) -> (u64, u64) {
    let spec = PlayerSpec::Robot(Budget::Playouts(4));
    let (mut owed, mut passes) = (0, 0);
    for seed in 0..games {
        let mut white = spec.player(2 * seed, Default::default());
        let mut black = spec.player(2 * seed + 1, Default::default());
        let record = play_game(&mut white, &mut black, variant)
            .unwrap_or_else(|e| panic!("{variant:?} game {seed}: {e}"));
        assert!(record.game.is_over(), "{variant:?} game {seed}");
        owed += record.turns.iter().filter(|t| t.starts_with('x')).count() as u64;
        passes += record.turns.iter().filter(|t| t.ends_with("--")).count() as u64;
    }
    (owed, passes)
}

#[test]
fn a_thousand_normal_games_against_itself_end_with_legal_turns() {
    let (owed, _) = self_play(Variant::Normal, 1000);
    // Turns that begin with removals owed for the opponent's rows did occur.
    assert!(owed > 0, "{owed}");
}

#[test]
fn a_thousand_blitz_games_against_itself_end_with_legal_turns() {
    self_play(Variant::Blitz, 1000);
}

#[test]
fn think_places_a_ring_on_an_empty_board_and_after_a_placement() {
    let first = think(&["--playouts", "50"], "");
    let game = summary(false, &first);
    assert_eq!(game["to_move"], "black", "{first}");
    let second = think(&["--playouts", "50"], "e5");
    assert_ne!(second, "e5");
    assert_eq!(summary(false, &format!("e5 {second}"))["turns"], 2);
}

#[test]
fn think_plays_the_removal_owed_at_the_start_of_the_turn() {
    // The last turn of start-of-turn-win.txt wins by removals alone.
    let tokens = fixture_tokens("start-of-turn-win.txt");
    let before = prefix("start-of-turn-win.txt", tokens.len() - 1);
    let mover = summary(false, &before)["to_move"].clone();
    let turn = think(&["--playouts", "200"], &before);
    assert!(turn.starts_with('x'), "{turn}");
    let end = summary(false, &format!("{before} {turn}"));
    assert_eq!(end["status"], "won", "{turn}");
    assert_eq!(end["winner"], mover, "{turn}");
}

#[test]
fn think_passes_when_it_has_no_ring_move() {
    let tokens = fixture_tokens("forced-passes-written.txt");
    let k = tokens.iter().position(|t| t == "--").unwrap();
    let turn = think(
        &["--playouts", "50"],
        &prefix("forced-passes-written.txt", k),
    );
    assert_eq!(turn, "--");
}

#[test]
fn think_finds_the_blitz_win() {
    let tokens = fixture_tokens("blitz-win.txt");
    let before = prefix("blitz-win.txt", tokens.len() - 1);
    let mover = summary(true, &before)["to_move"].clone();
    let turn = think(&["--blitz", "--playouts", "3000"], &before);
    let end = summary(true, &format!("{before} {turn}"));
    assert_eq!(end["status"], "won", "{turn}");
    assert_eq!(end["winner"], mover, "{turn}");
}

#[test]
fn think_refuses_a_finished_game_and_an_unknown_level() {
    let out = run(&["think"], &fixture_tokens("rings-win.txt").join(" "));
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the game is over"));
    assert!(out.stdout.is_empty());
    let out = run(&["think", "--level", "9"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("there is no level 9"));
}

/// Issue 29 "make the search scale with time": `think --stats` tells what each
/// decision's search did, and measuring it does not change the turn.
#[test]
fn think_stats_profiles_the_search_without_changing_the_turn() {
    let transcript = fixture_tokens("in-progress.txt").join(" ");
    let plain = think(&["--playouts", "400", "--seed", "5"], &transcript);
    let out = run(
        &["think", "--playouts", "400", "--seed", "5", "--stats"],
        &transcript,
    );
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim_end(), plain);
    let stderr = String::from_utf8(out.stderr).unwrap();
    let line = stderr
        .lines()
        .find(|l| l.starts_with("search 1: "))
        .unwrap_or_else(|| panic!("no profile: {stderr}"));
    // A fresh robot's tree starts from its root; the ring move gets the budget.
    assert!(line.starts_with("search 1: 400 iterations in "), "{line}");
    assert!(line.contains("; tree 1 -> "), "{line}");
    for part in [
        "MB reserved",
        "depth max ",
        "playouts ",
        "expansions ",
        "evaluations about ",
    ] {
        assert!(line.contains(part), "{part}: {line}");
    }
    // Without --stats, no profile.
    let out = run(&["think", "--playouts", "40"], &transcript);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("search 1:"));
}

#[test]
fn the_same_seed_gives_the_same_turns() {
    let transcript = fixture_tokens("in-progress.txt").join(" ");
    let a = think(&["--playouts", "400", "--seed", "5"], &transcript);
    let b = think(&["--playouts", "400", "--seed", "5"], &transcript);
    assert_eq!(a, b);
    // A whole game between two seeded robots, twice.
    let settings = |seed| ThinkSettings {
        budget: Budget::Playouts(60),
        search: SearchConfig::ROBOT,
        seed,
    };
    let game = || {
        let mut w = Player::Search(Box::new(Robot::new(settings(1))));
        let mut b = Player::Search(Box::new(Robot::new(settings(2))));
        play_game(&mut w, &mut b, Variant::Normal).unwrap()
    };
    let (g1, g2) = (game(), game());
    assert_eq!(g1.turns, g2.turns);
    assert!(g1.game.is_over());
    // Another seed plays another game.
    let mut w = Player::Search(Box::new(Robot::new(settings(3))));
    let mut b = Player::Search(Box::new(Robot::new(settings(2))));
    assert_ne!(
        play_game(&mut w, &mut b, Variant::Normal).unwrap().turns,
        g1.turns
    );
}

#[test]
fn the_robot_keeps_its_tree_between_turns() {
    let settings = |seed| ThinkSettings::new(Budget::Playouts(10_000), seed);
    let tokens = fixture_tokens("in-progress.txt");
    let mut game = Game::new(Variant::Normal);
    for t in &tokens {
        yinsh_pbem::notation::play_turn(&mut game, t).unwrap();
    }
    let play = |game: &mut Game, actions: &[yinsh_pbem::rules::Action]| {
        for &a in actions {
            game.play(a).unwrap();
        }
    };
    let mut robot = Robot::new(settings(1));
    let first = robot.think(&game).unwrap();
    assert_eq!(first.reused, 1, "a new robot starts from the root alone");
    play(&mut game, &first.actions);
    // The opponent's reply (another robot's) is found below the old root.
    let reply = Robot::new(settings(2)).think(&game).unwrap();
    play(&mut game, &reply.actions);
    let second = robot.think(&game).unwrap();
    assert!(second.reused > 100, "{}", second.reused);
    play(&mut game, &second.actions);
    // Playing the other side too, the robot starts from its whole last tree.
    let third = robot.think(&game).unwrap();
    assert_eq!(third.reused, second.kept);
}

#[test]
fn match_prints_the_result_and_the_elo_difference() {
    let out = run(
        &["match", "--blitz", "--games", "4", "greedy", "random"],
        "",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("greedy vs random, 4 blitz games"),
        "{text}"
    );
    assert!(text.contains("Elo difference"), "{text}");
    let out = run(&["match", "--games", "2", "level7", "random"], "");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("is not a player"));
}

#[test]
fn a_match_played_in_parts_plays_the_same_games_as_one_run() {
    // Levels 1-4 and the baselines are deterministic for a seed, so games 3 and 4 of
    // a 4-game run must be the games of `--first 3 --games 2`, colours included.
    let games = |args: &[&str]| {
        let out = run(args, "");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stderr = String::from_utf8(out.stderr).unwrap();
        let lines: Vec<String> = stderr
            .lines()
            .filter(|l| l.starts_with("game "))
            .map(str::to_string)
            .collect();
        (lines, String::from_utf8(out.stdout).unwrap())
    };
    let (whole, _) = games(&["match", "--blitz", "--games", "4", "level1", "greedy"]);
    let (part, text) = games(&[
        "match", "--blitz", "--first", "3", "--games", "2", "level1", "greedy",
    ]);
    assert_eq!(whole.len(), 4, "{whole:?}");
    assert!(
        whole[2].starts_with("game 3: level1 as White: "),
        "{whole:?}"
    );
    assert_eq!(part, whole[2..].to_vec());
    assert!(text.contains("2 blitz games from game 3"), "{text}");
    let out = run(
        &["match", "--first", "0", "--games", "2", "level1", "random"],
        "",
    );
    assert!(!out.status.success());
}

#[test]
fn elo_and_its_margin_on_known_inputs() {
    // 75% of 200 games: +191 Elo, +/- 56 (the figure of the ai notes).
    let e = Tally {
        wins: 150,
        losses: 50,
        draws: 0,
    }
    .elo();
    assert!((e.diff - 190.85).abs() < 0.01, "{e:?}");
    assert!((e.margin() - 56.46).abs() < 0.01, "{e:?}");
    // Draws count half a point and shrink the variance.
    let d = Tally {
        wins: 100,
        losses: 0,
        draws: 100,
    };
    assert_eq!(d.score(), 0.75);
    let e = d.elo();
    assert!((e.diff - 190.85).abs() < 0.01);
    // variance 0.0625: error 1.96 * 0.25 / sqrt(200) = 0.0346 on the score.
    let want = (elo_of_score(0.75 + 0.034648) - elo_of_score(0.75 - 0.034648)) / 2.0;
    assert!((e.margin() - want).abs() < 0.05, "{e:?} {want}");
    assert!(e.margin() < 40.0);
    // An even match.
    assert_eq!(
        Tally {
            wins: 10,
            losses: 10,
            draws: 0
        }
        .elo()
        .diff,
        0.0
    );
}
