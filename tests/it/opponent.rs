//! The robots by mail, through the real binary: a whole game against robot1 to the
//! end; the challenge forms (the robot White or Black, normal or blitz, any case);
//! refused challenges (two robots, too many robot games); the draw and take-back rule;
//! the reserved names (no signup, no login, no message or watch through a robot);
//! a mail flood bounded to `[robot] turns_per_run` robot turns a run; and a `deliver`
//! killed (SIGKILL) while the robot thinks, whose robot turn the next `tick` or
//! `deliver` plays (a tick a month later forfeits nothing: robots are never nagged or
//! forfeited), while other mails go through meanwhile.

use std::path::Path;
use std::time::{Duration, Instant};

use yinsh_pbem::ai::{Baseline, Budget, Rng, ThinkSettings, baseline_turn, think};
use yinsh_pbem::notation::{play_turn, write_turn};
use yinsh_pbem::rules::{Color, Game, Variant};

use crate::support::bin;
use crate::support::server::{Sent, TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";

fn with_alice() -> TestServer {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s
}

/// The game on `board` as the file's turns replay it, and how many turns it has.
fn replayed(s: &TestServer, board: u32) -> (Game, usize) {
    let file = s.game_file(board);
    let variant = if file["variant"] == "blitz" {
        Variant::Blitz
    } else {
        Variant::Normal
    };
    let mut game = Game::new(variant);
    let turns = file["turns"].as_array().expect("turns");
    for t in turns {
        play_turn(&mut game, t["text"].as_str().expect("text")).expect("replays");
    }
    (game, turns.len())
}

fn by_of_last_turn(s: &TestServer, board: u32) -> String {
    let file = s.game_file(board);
    let turns = file["turns"].as_array().expect("turns");
    turns.last().expect("a turn")["by"]
        .as_str()
        .expect("by")
        .to_string()
}

fn robot_turns(home: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(home.join("robot-turns"))
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_whole_game_against_robot1_by_mail_to_the_end() {
    let mut s = with_alice();
    let r = s.send(ALICE, "yinsh challenge alice robot1", "");
    assert_eq!(r.len(), 1, "only alice reads mail: {r:?}");
    assert_says(&r[0], "It is alice's turn.");
    let mut moves = 0;
    loop {
        let (game, n) = replayed(&s, 101);
        let Some(side) = game.to_act() else { break };
        assert_eq!(
            side,
            Color::White,
            "after each mail it is alice's turn again"
        );
        let turn = think(&game, &ThinkSettings::new(Budget::Playouts(20), n as u64))
            .expect("alice has a turn");
        let text = write_turn(&turn.actions);
        let r = s.send(
            ALICE,
            &format!("yinsh move 101 alice apw {text}#{}", n + 1),
            "",
        );
        moves += 1;
        assert!(moves < 200, "the game does not end");
        let (after, _) = replayed(&s, 101);
        if after.is_over() {
            assert!(!r.is_empty());
            break;
        }
        // One mail a turn (issue 47 item 3): the robot's, telling alice's move
        // too (more if alice had to pass): each a board mail to alice.
        assert!(!r.is_empty(), "{r:?}");
        assert!(
            r.iter().all(|m| !m.body.contains("in a mail of its own")),
            "{r:?}"
        );
        assert!(r.iter().all(|m| m.to == ["alice@example.org"]));
        let robot: Vec<&Sent> = r
            .iter()
            .filter(|m| m.body.contains("robot1 writes:"))
            .collect();
        assert!(!robot.is_empty(), "{r:?}");
        assert_says(robot[0], "I estimate my chances at ");
        if !after.is_over() && by_of_last_turn(&s, 101) != "alice" {
            assert_says(robot[0], "It is alice's turn.");
        }
        assert!(robot_turns(&s.home()).is_empty(), "no robot turn left owed");
    }
    let (game, _) = replayed(&s, 101);
    assert!(game.is_over());
    let last = s
        .sent_since(&[])
        .into_iter()
        .filter(|m| m.body.contains("Game won by"))
        .count();
    assert!(last >= 1, "nobody was told the game ended");
    let standings = s.send(ALICE, "yinsh standings", "");
    assert_says(&standings[0], "robot1");
    assert_says(&standings[0], "alice");
}

#[test]
fn the_robot_plays_white_or_black_normal_or_blitz_whatever_the_case() {
    let mut s = with_alice();
    // robot3 is White: it moves at once, in a mail of its own.
    let r = s.send(ALICE, "yinsh challenge Robot3 alice", "");
    assert_eq!(r.len(), 2, "{r:?}");
    let file = s.game_file(101);
    assert_eq!(file["white"], "robot3");
    assert_eq!(file["variant"], "normal");
    assert_eq!(by_of_last_turn(&s, 101), "robot3");
    assert!(
        r.iter()
            .any(|m| m.subject.starts_with("New Yinsh Board 101"))
    );
    assert!(r.iter().any(|m| m.body.contains("robot3 writes:")));
    // Blitz, alice White: nothing is played until alice moves.
    let r = s.send(ALICE, "yinsh challenge -blitz alice robot2", "");
    assert_eq!(r.len(), 1, "{r:?}");
    let file = s.game_file(102);
    assert_eq!(
        (file["black"].as_str(), file["variant"].as_str()),
        (Some("robot2"), Some("blitz"))
    );
    assert_eq!(replayed(&s, 102).1, 0);
    let r = s.send(ALICE, "yinsh move 102 alice apw e5#1", "");
    // One mail a turn (issue 47 item 3): the robot's answer tells alice's move too.
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(&r[0], "robot2 writes:");
    assert_says(&r[0], "Before it: #1 alice: e5 - placed a ring on e5.");
    assert!(!r[0].body.contains("It is robot2's turn."), "{}", r[0].body);
    assert_eq!(replayed(&s, 102).1, 2);
    assert_eq!(by_of_last_turn(&s, 102), "robot2");
    // The robots' accounts exist now, without address or password.
    let account: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(s.home().join("accounts/robot3.json")).expect("account"),
    )
    .expect("json");
    assert_eq!(account["addresses"], serde_json::json!([]));
    let games = s.send(ALICE, "yinsh games robot3", "");
    assert_says(&games[0], "101");
}

#[test]
fn two_robots_or_too_many_robot_games_are_refused() {
    let mut s = with_alice();
    let r = s.send(ALICE, "yinsh challenge robot1 robot5", "");
    assert_says(&r[0], "The robots play only people");
    assert!(!s.home().join("boards/101.json").exists());
    for k in 0..5 {
        let r = s.send(
            ALICE,
            &format!("yinsh challenge alice robot{}", k % 5 + 1),
            "",
        );
        assert_eq!(r.len(), 1, "{r:?}");
    }
    let r = s.send(ALICE, "yinsh challenge robot4 alice", "");
    assert_says(
        &r[0],
        "alice already plays 5 unfinished games against the robots",
    );
    assert!(!s.home().join("boards/106.json").exists());
    // A finished game frees a place.
    s.send(ALICE, "yinsh resign 101 alice apw", "");
    let r = s.send(ALICE, "yinsh challenge robot4 alice", "");
    assert!(
        r.iter()
            .any(|m| m.subject.starts_with("New Yinsh Board 106")),
        "{r:?}"
    );
}

/// A game in which Black (alice) has removed two rings and White (the robot) none,
/// alice to move: as (turn texts).
fn robot_losing_game() -> Vec<String> {
    for seed in 1..400 {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(Variant::Normal);
        let mut texts = Vec::new();
        while let Some(side) = game.to_act() {
            let kind = if side == Color::Black {
                Baseline::Greedy
            } else {
                Baseline::Random
            };
            let turn = baseline_turn(kind, &game, &mut rng).expect("a turn");
            for &a in &turn.actions {
                game.play(a).expect("legal");
            }
            texts.push(write_turn(&turn.actions));
            let ahead =
                game.rings_removed(Color::Black) == 2 && game.rings_removed(Color::White) == 0;
            if ahead && game.to_act() == Some(Color::Black) {
                return texts;
            }
        }
    }
    panic!("no game with Black two rings ahead");
}

#[test]
fn a_robot_refuses_take_backs_and_accepts_a_draw_only_when_losing() {
    let mut s = with_alice();
    s.send(ALICE, "yinsh challenge alice robot1", "");
    s.send(ALICE, "yinsh move 101 alice apw e5#1", "");
    let before = s.game_file(101);
    let r = s.send(ALICE, "yinsh move 101 alice apw undo", "");
    assert_says(&r[0], "robot1 rejected alice's take-back request");
    assert_eq!(s.game_file(101)["turns"], before["turns"]);
    assert!(
        s.game_file(101)["extra"]["offer"].is_null(),
        "the request is answered"
    );
    let r = s.send(ALICE, "yinsh move 101 alice apw propose", "");
    assert_says(
        &r[0],
        "robot1 rejected alice's draw offer: it estimates its chances at",
    );
    assert!(s.game_file(101)["ended"].is_null());
    // A game the robot is losing: it takes the draw.
    s.send(ALICE, "yinsh challenge robot1 alice", "");
    let mut file = s.game_file(102);
    let texts = robot_losing_game();
    file["turns"] = serde_json::Value::Array(
        texts
            .iter()
            .enumerate()
            .map(|(k, t)| {
                serde_json::json!({"text": t, "by": if k % 2 == 0 { "robot1" } else { "alice" }, "at": 1})
            })
            .collect(),
    );
    file["comments"] = serde_json::json!([]);
    std::fs::write(
        s.home().join("boards/102.json"),
        serde_json::to_string_pretty(&file).expect("json"),
    )
    .expect("write");
    let r = s.send(ALICE, "yinsh move 102 alice apw propose", "");
    assert_says(&r[0], "robot1 accepted alice's draw offer");
    assert_eq!(s.game_file(102)["ended"]["reason"], "draw agreed");
    assert!(robot_turns(&s.home()).is_empty());
}

#[test]
fn robot_names_cannot_be_signed_up_logged_in_or_spoken_through() {
    let mut s = TestServer::new();
    for name in ["robot3", "Robot_3", "robot", "robot9"] {
        let r = s.send(ALICE, &format!("signup {name} pw"), "");
        assert_says(&r[0], "is kept for the server's robots");
        assert!(
            !s.home()
                .join(format!("accounts/{}.json", name.to_lowercase()))
                .exists()
        );
    }
    s.send(ALICE, "signup alice apw", "");
    s.send(ALICE, "yinsh challenge robot3 alice", "");
    let account_before = std::fs::read(s.home().join("accounts/robot3.json")).expect("account");
    let game_before = s.game_file(101);
    for cmd in [
        "yinsh move 101 robot3 x e5",
        "yinsh resign 101 robot3 x",
        "yinsh move 101 robot3 x propose",
        "yinsh subscribe 101 robot3 x",
        "message robot3 x alice",
        "vacation robot3 x 10",
        "change address robot3 x evil@example.org",
        "change password robot3 x y",
        "signoff robot3 x",
    ] {
        let r = s.send("Mallory <mallory@example.org>", cmd, "spam for alice");
        assert_eq!(r.len(), 1, "{cmd}: {r:?}");
        assert_eq!(r[0].to, ["mallory@example.org"], "{cmd}");
        assert_says(&r[0], "robot3 is one of the server's robots");
    }
    assert_eq!(
        std::fs::read(s.home().join("accounts/robot3.json")).expect("account"),
        account_before
    );
    assert_eq!(s.game_file(101), game_before);
    let help = s.send(ALICE, "help", "");
    assert_says(&help[0], "robot1 .. robot5");
    let list = s.send(ALICE, "list", "");
    assert_says(&list[0], "robot1 .. robot5");
}

#[test]
fn a_flood_of_robot_challenges_costs_a_bounded_number_of_robot_turns_a_mail() {
    let mut s = with_alice();
    std::fs::write(s.home().join("config.toml"), "[robot]\nturns_per_run = 1\n").expect("config");
    let body = "yinsh challenge robot1 alice\nyinsh challenge robot2 alice\nyinsh challenge robot3 alice\n";
    s.send("Mallory <mallory@example.org>", "multiple", body);
    let played = |s: &TestServer| (101..=103).filter(|&b| replayed(s, b).1 == 1).count();
    assert_eq!(played(&s), 1, "one robot turn a run");
    assert_eq!(robot_turns(&s.home()).len(), 2);
    // Each later run (a mail of anyone, or tick) plays one more.
    s.send(ALICE, "help", "");
    assert_eq!(played(&s), 2);
    let at = s.now + 60;
    tick(&mut s, at, &[]);
    assert_eq!(played(&s), 3);
    assert!(robot_turns(&s.home()).is_empty());
}

#[test]
fn the_robots_think_at_most_their_hourly_time_and_the_turns_owed_wait_for_the_next_hour() {
    let mut s = with_alice();
    // This hour's think time is spent already (the default cap is 1,200 s).
    let hour = s.now / 3600;
    let spent = format!("{{\"hour\": {hour}, \"think_ms\": 1200000}}");
    std::fs::write(s.home().join("robot-time.json"), spent).expect("robot-time");
    let r = s.send(ALICE, "yinsh challenge robot4 alice", "");
    assert_says(&r[0], "It is robot4's turn.");
    assert_eq!(replayed(&s, 101).1, 0, "robot4 did not think");
    assert_eq!(robot_turns(&s.home()), ["101.json"]);
    let log = s.log();
    assert!(
        log.contains("robots' think time for this hour spent (1200 of 1200 s)"),
        "{log}"
    );
    // A tick in the same hour plays nothing; one in the next hour plays the turn and
    // starts the new hour's count with it.
    let same_hour = hour * 3600 + 3599;
    if same_hour > s.now {
        tick(&mut s, same_hour, &[]);
        assert_eq!(replayed(&s, 101).1, 0);
    }
    let next_hour = (hour + 1) * 3600 + 5;
    tick(&mut s, next_hour, &[]);
    assert_eq!(replayed(&s, 101).1, 1, "robot4 played in the next hour");
    assert!(robot_turns(&s.home()).is_empty());
    let time: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(s.home().join("robot-time.json")).expect("robot-time"),
    )
    .expect("json");
    assert_eq!(time["hour"], hour + 1);
    assert!(time["think_ms"].as_u64().expect("ms") > 0, "{time}");
}

/// `tick` at `now` with `envs` through [`TestServer::tick`], leaving the server's
/// clock and environment as they were.
fn tick(s: &mut TestServer, now: u64, envs: &[(&'static str, &'static str)]) {
    let saved = std::mem::replace(&mut s.envs, envs.to_vec());
    let was = s.now;
    s.tick(now);
    (s.now, s.envs) = (was, saved);
}

/// Wait until `done` holds, at most `limit`.
fn wait_for(limit: Duration, mut done: impl FnMut() -> bool) -> bool {
    let start = Instant::now();
    while start.elapsed() < limit {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    done()
}

#[test]
fn a_deliver_killed_while_the_robot_thinks_loses_nothing() {
    for finisher in ["tick", "deliver"] {
        let mut s = with_alice();
        s.send(ALICE, "yinsh challenge alice robot5", "");
        // robot5 thinks 50 s: long enough to kill it while it thinks, even on a
        // loaded machine (the process is killed as soon as the checks are done).
        let slow = [("YINSH_PBEM_ROBOT_THINK_MS", "50000")];
        s.now += 60;
        let raw = s.mail(ALICE, "yinsh move 101 alice apw e5#1", "");
        let outbox_before = s.outbox_files();
        let (mut child, written) = bin::spawn_deliver(&s.home(), s.now, &slow, raw.as_bytes());
        written.expect("mail written");
        // alice's move is stored before the robot thinks; its one mail is the
        // robot's, telling both turns (issue 47 item 3): nothing is sent yet.
        let stored = wait_for(Duration::from_secs(30), || {
            robot_turns(&s.home()) == ["101.json"]
        });
        assert!(stored, "alice's move was not stored at once");
        assert_eq!(replayed(&s, 101).1, 1);
        assert!(
            s.sent_since(&outbox_before).is_empty(),
            "a mail before the robot's"
        );
        // Meanwhile another mail goes through: the store is not locked while it thinks.
        // Answered while the robot still thinks (its 50 s are not over: the deliver
        // has not exited), so the signup did not wait for the robot's lock.
        let r = s.send("Bob <bob@example.org>", "signup bob bpw", "");
        assert_eq!(r.len(), 1);
        assert!(
            child.try_wait().expect("wait").is_none(),
            "the signup was answered only after the robot stopped thinking"
        );
        child.kill().expect("kill -9");
        child.wait().expect("reap");
        assert_eq!(
            replayed(&s, 101).1,
            1,
            "nothing of the robot's turn was stored"
        );
        assert_eq!(
            robot_turns(&s.home()),
            ["101.json"],
            "the owed turn is kept"
        );
        // Within its claim, the next runs leave it alone; after it, they play it.
        let fast = [("YINSH_PBEM_ROBOT_THINK_MS", "200")];
        let at = s.now + 1;
        tick(&mut s, at, &fast);
        assert_eq!(
            replayed(&s, 101).1,
            1,
            "a run took a turn claimed by another"
        );
        // The claim lasts twice the think time and 30 s.
        let later = s.now + 50 * 2 + 31;
        let before = s.outbox_files();
        match finisher {
            // A month later: the robot, to move all that time, is not forfeited.
            "tick" => tick(&mut s, later + 30 * 86_400, &fast),
            _ => {
                s.now = later - 60;
                s.envs = fast.to_vec();
                s.send("Bob <bob@example.org>", "help", "");
            }
        }
        assert_eq!(
            replayed(&s, 101).1,
            2,
            "{finisher} did not play the robot's turn"
        );
        assert_eq!(by_of_last_turn(&s, 101), "robot5");
        assert!(
            s.game_file(101)["ended"].is_null(),
            "{finisher}: the game ended"
        );
        assert!(robot_turns(&s.home()).is_empty());
        let robot_mail: Vec<Sent> = s
            .sent_since(&before)
            .into_iter()
            .filter(|m| m.body.contains("robot5 writes:"))
            .collect();
        assert_eq!(robot_mail.len(), 1, "{finisher}");
        assert_eq!(robot_mail[0].to, ["alice@example.org"]);
        assert_says(
            &robot_mail[0],
            "Before it: #1 alice: e5 - placed a ring on e5.",
        );
    }
}

/// Issue 44: a robot turn owed names who made it the robot's turn (`"cause"` in
/// `robot-turns/<board>.json`), and its mails pass the gate with that cause: a mail
/// that proved nobody is a stranger's, a move proven by the password of an account
/// with a confirmed address is that person's.
#[test]
fn a_robot_turn_owed_names_who_made_it_owed() {
    let mut s = TestServer::new();
    s.send("Bob <bob@example.org>", "help", "");
    // Every address counts as confirmed: alice's password proves her.
    std::fs::write(
        s.home().join("config.toml"),
        "[security]\nconfirm_addresses = false\n",
    )
    .expect("config");
    s.send(ALICE, "signup alice apw", "");
    // The robots' hour is spent: the turns owed stay owed, to be read.
    let hour = s.now / 3600;
    let spent = format!("{{\"hour\": {hour}, \"think_ms\": 1200000}}");
    std::fs::write(s.home().join("robot-time.json"), spent).expect("robot-time");
    let cause = |s: &TestServer, board: u32| -> serde_json::Value {
        let path = s.home().join(format!("robot-turns/{board}.json"));
        let text = std::fs::read_to_string(&path).expect("a robot turn owed");
        let record: serde_json::Value = serde_json::from_str(&text).expect("json");
        record["cause"].clone()
    };
    s.send(
        "Mallory <mallory@example.org>",
        "yinsh challenge robot1 alice",
        "",
    );
    assert_eq!(cause(&s, 101), "stranger", "nobody proven started it");
    s.send(ALICE, "yinsh challenge alice robot2", "");
    assert_eq!(replayed(&s, 102).1, 0, "alice moves first");
    let (game, _) = replayed(&s, 102);
    let turn = think(&game, &ThinkSettings::new(Budget::Playouts(20), 1)).expect("a turn");
    let text = write_turn(&turn.actions);
    s.send(ALICE, &format!("yinsh move 102 alice apw {text}#1"), "");
    assert_eq!(robot_turns(&s.home()), ["101.json", "102.json"]);
    assert_eq!(
        cause(&s, 102)["person"],
        "alice",
        "alice's move made it owed"
    );
}
