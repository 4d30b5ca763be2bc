//! A complete game played by mail through the real binary: two signups, a challenge,
//! every turn of a finished game with removals and a forced pass (played by the
//! server and marked (Auto)), a stale `#moveno` refused without changing anything,
//! until both players get `Game won by ...`.

use yinsh_pbem::notation::{auto_pass_due, write_turn};
use yinsh_pbem::rules::{Action, ActionKind, Color, Game, Variant};

use crate::server_util::TestServer;

/// A small deterministic generator for the playout search.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// One turn of a game: who played it, its canonical text, and whether the server
/// plays it itself.
struct Turn {
    side: Color,
    text: String,
    auto: bool,
}

/// A random game from `seed`, split into turns.
fn random_game(seed: u64) -> (Game, Vec<Turn>) {
    let mut rng = XorShift(seed | 1);
    let mut game = Game::new(Variant::Normal);
    let mut turns = Vec::new();
    while let Some(side) = game.to_act() {
        let auto = auto_pass_due(&game);
        let mut actions: Vec<Action> = Vec::new();
        while game.to_act() == Some(side) {
            let legal = game.legal_actions();
            let a = legal[(rng.next() % legal.len() as u64) as usize];
            game.play(a).expect("legal");
            actions.push(a);
        }
        turns.push(Turn { side, text: write_turn(&actions), auto });
    }
    (game, turns)
}

/// The first seed whose game ends by rings, with removals and a forced pass that the
/// server must play.
fn interesting_game() -> (u64, Game, Vec<Turn>) {
    for seed in 1..5000u64 {
        let (game, turns) = random_game(seed);
        let won = game.ending().is_some_and(|e| e.reason == yinsh_pbem::rules::EndReason::RingsRemoved);
        let has_auto = turns.iter().any(|t| t.auto);
        let removals = turns.iter().filter(|t| t.text.contains('x')).count();
        if won && has_auto && removals >= 3 && turns.len() < 160 {
            return (seed, game, turns);
        }
    }
    panic!("no random game with a forced pass found in 5000 seeds");
}

#[test]
fn a_whole_game_by_mail_ends_with_game_won_by() {
    let (seed, final_game, turns) = interesting_game();
    let mut s = TestServer::new();
    let alice = "Alice <alice@example.org>";
    let bob = "Bob <bob@example.org>";
    let r = s.send(alice, "signup alice apw", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Signup for alice");
    let r = s.send(bob, "signup bob bpw bob@example.org", "");
    assert_eq!(r[0].to, vec!["bob@example.org"]);
    let r = s.send(alice, "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(r.iter().all(|m| m.subject == "New Yinsh Board 101 alice"), "{r:?}");
    assert!(r.iter().any(|m| m.to == vec!["alice@example.org"] && m.body.contains("yinsh move 101 alice <password> <point>#1")));

    let mut number = 1u32;
    let mut stale_checked = false;
    let mut finals = Vec::new();
    for (k, t) in turns.iter().enumerate() {
        let (userid, pw, from) = match t.side {
            Color::White => ("alice", "apw", alice),
            Color::Black => ("bob", "bpw", bob),
        };
        if t.auto {
            // The server already played it: the game file shows it marked auto.
            let file = s.game_file(101);
            assert_eq!(file["turns"][k]["text"], "--", "seed {seed} turn {}", k + 1);
            assert_eq!(file["turns"][k]["auto"], true);
            number += 1;
            continue;
        }
        if !stale_checked && number > 12 && t.text.contains('-') {
            stale_checked = true;
            let before = std::fs::read(s.home().join("boards/101.json")).unwrap();
            let r = s.send(from, &format!("yinsh move 101 {userid} {pw} {}#{}", t.text, number - 1), "");
            assert_eq!(r.len(), 1);
            assert_eq!(r[0].subject, "Yinsh Board 101 Error");
            assert!(r[0].body.contains(&format!("received as move #{number}")), "{}", r[0].body);
            assert!(!r[0].body.contains(pw), "password leaked");
            assert_eq!(std::fs::read(s.home().join("boards/101.json")).unwrap(), before, "a refused move changed the game");
        }
        let comment = if k == 20 { "Nice try!" } else { "" };
        let r = s.send(from, &format!("yinsh move 101 {userid} {pw} {}#{number}", t.text), comment);
        assert_eq!(r.len(), 2, "seed {seed} turn {number} {}: {r:?}", t.text);
        for m in &r {
            assert!(m.subject.starts_with("Yinsh Board 101"), "{}: {}", m.subject, m.body);
            assert!(!m.body.contains(pw) && !m.raw.contains(pw), "password leaked");
            if !comment.is_empty() {
                assert!(m.subject.ends_with(" **"));
                assert!(m.body.contains(&format!("{userid} writes:\nNice try!")));
            }
        }
        number += 1;
        finals = r;
    }
    assert!(stale_checked);
    let file = s.game_file(101);
    assert_eq!(file["turns"].as_array().unwrap().len(), turns.len());
    let winner = match final_game.outcome().and_then(|o| o.winner()) {
        Some(Color::White) => "alice",
        Some(Color::Black) => "bob",
        None => unreachable!("ends by rings"),
    };
    for m in &finals {
        assert!(m.body.contains(&format!("Game won by {winner}.")), "{}", m.body);
        assert!(m.body.contains("Game ended...... "));
        assert!(m.body.contains(" (Auto)"), "the forced pass is shown as (Auto)");
        assert_eq!(m.subject, "Yinsh Board 101");
    }
    assert_eq!(final_game.expects(), None::<ActionKind>);
}
