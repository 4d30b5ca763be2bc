//! Benchmarks of the layers above the engine: replaying a whole game record (parse,
//! resolve, play), drawing the board, password checking (the deliberate cost), and
//! `deliver` in-process from raw mail bytes to replies written into the outbox. Each
//! asserts its result.

use std::path::{Path, PathBuf};

use divan::Bencher;
use yinsh_pbem::mail::Transport;
use yinsh_pbem::notation::render::{SideNames, render};
use yinsh_pbem::notation::{play_turn, write_turn};
use yinsh_pbem::rules::{Action, Game, Variant};
use yinsh_pbem::server::store::RateLimit;
use yinsh_pbem::server::store::{Password, hash_password, verify_password};
use yinsh_pbem::server::{Settings, deliver};

fn main() {
    divan::main();
}

/// A deterministic game of at least `turns` turns (or to its end), as canonical turn
/// texts, with the game it reaches.
fn game_record(turns: usize) -> (Vec<String>, Game) {
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut game = Game::new(Variant::Normal);
    let mut out = Vec::new();
    while out.len() < turns {
        let Some(side) = game.to_act() else { break };
        let mut actions: Vec<Action> = Vec::new();
        while game.to_act() == Some(side) {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let legal = game.legal_actions();
            let a = legal[(seed % legal.len() as u64) as usize];
            game.play(a).expect("legal");
            actions.push(a);
        }
        out.push(write_turn(&actions));
    }
    (out, game)
}

/// The longest record the fixed seeds give, up to 100 turns.
#[divan::bench]
fn replay_game_record(b: Bencher) {
    let (record, want) = game_record(100);
    assert!(record.len() >= 60, "the record is {} turns", record.len());
    b.counter(divan::counter::ItemsCount::new(record.len()))
        .bench(|| {
            let mut game = Game::new(Variant::Normal);
            for t in &record {
                play_turn(&mut game, divan::black_box(t)).expect("replays");
            }
            assert_eq!(game, want);
            game
        });
}

#[divan::bench]
fn render_crowded_board(b: Bencher) {
    let (_, game) = game_record(90);
    assert!(game.markers_on_board() > 10);
    let names = SideNames {
        white: "alice",
        black: "bob",
    };
    b.bench(|| {
        let text = render(divan::black_box(&game), &names);
        assert!(text.contains("alice"));
        text
    });
}

/// argon2id verification with the stored parameters: the deliberate cost of every
/// state-changing mail.
#[divan::bench(sample_count = 20)]
fn verify_password_argon2id(b: Bencher) {
    let pw: Password = "correct-horse".parse().unwrap();
    let phc = hash_password(&pw).unwrap();
    b.bench(|| assert!(verify_password(divan::black_box(&pw), &phc)));
}

fn mail(subject: &str, id: &str) -> Vec<u8> {
    format!(
        "From: Alice <alice@example.org>\nTo: yinsh@localhost\nSubject: {subject}\nMessage-ID: <{id}@example.org>\n\nbench\n"
    )
    .into_bytes()
}

fn settings(home: &Path) -> Settings {
    let mut s = Settings::defaults(home.to_path_buf());
    s.transport = Transport::Outbox(home.join("outbox"));
    s.now = Some(1_795_384_020);
    s.rate_limit = RateLimit {
        max: u32::MAX,
        period: 1,
    };
    s
}

/// A home with alice and bob signed up and board 101 started.
fn template_home() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let body = "signup alice apw alice@example.org\nsignup bob bpw bob@example.org\nyinsh challenge alice bob";
    let raw = format!(
        "From: Alice <alice@example.org>\nTo: yinsh@localhost\nSubject: multiple\nMessage-ID: <setup-0@example.org>\n\n{body}\n"
    );
    deliver(raw.as_bytes(), raw.len(), None, &settings(&home)).unwrap();
    assert!(home.join("boards/101.json").exists());
    (dir, home)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let name = e.file_name();
        if p.is_dir() {
            if name != "outbox" && name != "spool" && name != "log" {
                copy_dir(&p, &to.join(&name));
            }
        } else {
            std::fs::copy(&p, to.join(&name)).unwrap();
        }
    }
}

/// One move mail, in-process: parse, lock, authenticate (argon2), replay the game,
/// play the move, commit the journal, write the game and two board mails (straight
/// into the outbox), make them durable.
#[divan::bench(sample_count = 30)]
fn deliver_one_move_mail(b: Bencher) {
    let (_keep, template) = template_home();
    let raw = mail("yinsh move 101 alice apw e5#1", "bench-move");
    b.with_inputs(|| {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        copy_dir(&template, &home);
        (dir, home)
    })
    .bench_local_values(|(dir, home)| {
        let report = deliver(&raw, raw.len(), None, &settings(&home)).unwrap();
        assert_eq!((report.spooled, report.sent), (0, 2), "{report:?}");
        assert_eq!(std::fs::read_dir(home.join("outbox")).unwrap().count(), 2);
        dir
    });
}
