//! The seeded mix of challenges (some started by a third player), moves,
//! resignations, undos, draws, forfeits and declines: after every forty mails the
//! indexes kept mail by mail equal the ones rebuilt from the game files.

use yinsh_pbem::notation::{auto_pass_due, write_turn};
use yinsh_pbem::server::game::index;
use yinsh_pbem::server::game::record::LiveGame;

use super::{DAY, PLAYERS, rebuilt, tick};
use crate::support::exec::{Home, password};
use yinsh_pbem::ai::Rng;

/// A random legal turn of the player to move on `board`, with their userid.
fn random_turn(home: &Home, board: u32, rng: &mut Rng) -> Option<(String, String)> {
    let file = home.store.game(board).expect("read").expect("a game");
    let live = LiveGame::load(file).expect("replays");
    let player = live.player_to_move()?.to_string();
    let mut game = *live.game();
    if auto_pass_due(&game) {
        return None;
    }
    let side = game.to_act()?;
    let mut actions = Vec::new();
    while game.to_act() == Some(side) {
        let legal = game.legal_actions();
        let a = legal[(rng.next_u64() % legal.len() as u64) as usize];
        game.play(a).expect("legal");
        actions.push(a);
    }
    Some((player, write_turn(&actions)))
}

/// One step of the mix; returns what it did, for the failure message.
fn step(home: &mut Home, rng: &mut Rng, boards: &mut Vec<u32>) -> String {
    let pick = |rng: &mut Rng, n: usize| (rng.next_u64() % n as u64) as usize;
    let active: Vec<u32> = boards
        .iter()
        .copied()
        .filter(|&b| {
            // A declined game has no file any more.
            home.store
                .game(b)
                .expect("read")
                .is_some_and(|file| !LiveGame::load(file).expect("replays").game().is_over())
        })
        .collect();
    let roll = pick(rng, 100);
    if active.len() < 3 || roll < 8 {
        let (w, b) = (pick(rng, 6), pick(rng, 6));
        if w == b {
            return "nothing".into();
        }
        let blitz = if pick(rng, 3) == 0 { "-blitz " } else { "" };
        let line = format!("yinsh challenge {blitz}{} {}", PLAYERS[w], PLAYERS[b]);
        // Some games are started by a third player: they may be declined.
        let sender = if (w + b) % 3 == 0 {
            (0..PLAYERS.len()).find(|&t| t != w && t != b).unwrap_or(w)
        } else {
            w
        };
        home.run(PLAYERS[sender], &line);
        let next = boards.last().map_or(101, |b| b + 1);
        // (A third player's challenges are capped a day: a refused one makes no game.)
        if home.store.game(next).expect("read").is_some() {
            boards.push(next);
        }
        return line;
    }
    let board = active[pick(rng, active.len())];
    let game = home.game(board);
    let white = game["white"].as_str().expect("white").to_string();
    let black = game["black"].as_str().expect("black").to_string();
    let (me, other) = if pick(rng, 2) == 0 {
        (white, black)
    } else {
        (black, white)
    };
    let lines: Vec<(String, String)> = match roll {
        8..=11 => vec![(
            me.clone(),
            format!("yinsh resign {board} {me} {}", password(&me)),
        )],
        12..=16 => vec![
            (
                me.clone(),
                format!("yinsh move {board} {me} {} undo", password(&me)),
            ),
            (
                other.clone(),
                format!("yinsh move {board} {other} {} accept", password(&other)),
            ),
        ],
        17..=19 => vec![
            (
                me.clone(),
                format!("yinsh move {board} {me} {} propose", password(&me)),
            ),
            (
                other.clone(),
                format!("yinsh move {board} {other} {} accept", password(&other)),
            ),
        ],
        20..=22 => {
            // Three weeks pass: tick forfeits whoever is to move, everywhere.
            home.now += 22 * DAY;
            tick(home);
            return "22 days and a tick".into();
        }
        23..=25 => {
            home.now += 8 * DAY;
            tick(home);
            return "8 days and a tick".into();
        }
        // The newest game declined (when someone else started it and `me` has not
        // moved in it yet; refused otherwise): its file and its index entries go.
        26..=27 => {
            let newest = boards.last().copied().unwrap_or(board);
            let Some(file) = home.store.game(newest).expect("read") else {
                return "nothing".into();
            };
            let me = if pick(rng, 2) == 0 {
                file.white
            } else {
                file.black
            }
            .to_string();
            vec![(
                me.clone(),
                format!("yinsh decline {newest} {me} {}", password(&me)),
            )]
        }
        _ => match random_turn(home, board, rng) {
            Some((player, turn)) => vec![(
                player.clone(),
                format!("yinsh move {board} {player} {} {turn}", password(&player)),
            )],
            None => return "nothing".into(),
        },
    };
    for (from, line) in &lines {
        home.run(from, line);
    }
    lines
        .iter()
        .map(|(_, l)| l.as_str())
        .collect::<Vec<_>>()
        .join(" / ")
}

#[test]
fn indexes_kept_mail_by_mail_equal_the_ones_rebuilt_from_the_game_files() {
    for seed in [7u64, 1_000_003] {
        let mut home = Home::with_players(&PLAYERS);
        let mut rng = Rng::new(seed);
        let mut boards = Vec::new();
        let mut done = Vec::new();
        for k in 0..260 {
            done.push(step(&mut home, &mut rng, &mut boards));
            if k % 40 == 39 || k == 259 {
                let kept = index::snapshot(&home.store).expect("snapshot");
                let fresh = rebuilt(home.path(), home.now);
                assert_eq!(
                    kept,
                    fresh,
                    "seed {seed}, after step {k}: {:?}",
                    &done[done.len().saturating_sub(5)..]
                );
            }
        }
        let kept = index::snapshot(&home.store).expect("snapshot");
        // Some games were declined.
        let declined = boards
            .iter()
            .filter(|&&b| home.store.game(b).expect("read").is_none())
            .count();
        assert!(declined > 0, "seed {seed}: nothing declined");
        // The mix did reach every kind of ending and kept games going on.
        let hows: Vec<&str> = kept.history.iter().map(|f| f.how.as_str()).collect();
        for kind in ["resigned", "forfeited", "draw agreed"] {
            assert!(
                hows.iter().any(|h| h.contains(kind)),
                "seed {seed}: no {kind}: {hows:?}"
            );
        }
        assert!(
            kept.history.iter().any(|f| f.rated),
            "seed {seed}: nothing rated"
        );
        assert!(!kept.due.is_empty(), "seed {seed}: no game going on");
        assert!(
            kept.standings[0].values().any(|s| s.record.games() > 0),
            "seed {seed}: no ratings"
        );
    }
}
