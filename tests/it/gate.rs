//! Every mail of every run passes the one outgoing gate (`server::outgoing::gate`):
//! with the gate closed (`YINSH_PBEM_FAULT=gate-closed`, a fault-injection switch read
//! once per process, so these runs are real processes) a mail's replies, a robot's
//! board mails, tick's reminders and forfeits, the operator's notice of a damaged game
//! file and flush's bounce of a reply given up are none of them sent, while the same
//! runs with the gate open send each of them; the games change the same either way.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::mail_io::script;
use crate::support::bin::command;
use crate::support::mail::plain;

/// The clock of the first mail.
const T0: u64 = 1_795_384_020;
const DAY: u64 = 86_400;

/// Whether the gate lets mail through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Gate {
    Open,
    Closed,
}

/// A home, driven through the binary with the gate open or closed.
struct Home {
    dir: tempfile::TempDir,
    gate: Gate,
    seq: u32,
}

impl Home {
    fn new(gate: Gate) -> Home {
        let dir = tempfile::tempdir().expect("tempdir");
        let home = Home { dir, gate, seq: 0 };
        std::fs::create_dir_all(home.path()).expect("home");
        std::fs::write(
            home.path().join("config.toml"),
            "operator = \"ops@example.org\"\n",
        )
        .expect("config");
        home
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join("games")
    }

    /// `yinsh-pbem <run> --home <home>` at `now`, with the gate as set.
    fn command(&self, run: &str, now: u64) -> Command {
        let mut cmd = command();
        cmd.arg(run)
            .arg("--home")
            .arg(self.path())
            .env("YINSH_PBEM_NOW", now.to_string())
            .env("YINSH_PBEM_ROBOT_THINK_MS", "50");
        if self.gate == Gate::Closed {
            cmd.env("YINSH_PBEM_FAULT", "gate-closed");
        }
        cmd
    }

    /// Delivers a mail from `from` with `subject`; returns the mails it sent.
    fn deliver(&mut self, from: &str, subject: &str, now: u64) -> usize {
        self.seq += 1;
        let raw = plain(
            from,
            subject,
            &format!("gate-{}@example.org", self.seq),
            "\n",
        );
        let before = self.sent();
        let mut child = self
            .command("deliver", now)
            .stdin(std::process::Stdio::piped())
            .spawn()
            .expect("deliver");
        {
            use std::io::Write as _;
            let mut stdin = child.stdin.take().expect("stdin");
            stdin.write_all(raw.as_bytes()).expect("write the mail");
        }
        let status = child.wait().expect("wait");
        assert_eq!(status.code(), Some(0), "deliver {subject:?}");
        self.sent() - before
    }

    /// Runs `tick` or `flush` (with `args`) at `now`; returns the mails it sent.
    fn run(&self, run: &str, args: &[&str], now: u64) -> usize {
        let before = self.sent();
        let out = self.command(run, now).args(args).output().expect(run);
        assert_eq!(out.status.code(), Some(0), "{run}: {out:?}");
        self.sent() - before
    }

    /// The mails sent so far: the outbox's, and those the sendmail script took.
    fn sent(&self) -> usize {
        let outbox = std::fs::read_dir(self.path().join("outbox"))
            .map(|d| {
                d.filter_map(Result::ok)
                    .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                    .count()
            })
            .unwrap_or(0);
        outbox + self.taken().len()
    }

    /// The recipients of the mails the sendmail script took, one line a mail.
    fn taken(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.path().join("taken"))
            .map(|t| t.lines().map(str::to_string).collect())
            .unwrap_or_default()
    }

    fn game(&self, board: u32) -> serde_json::Value {
        let text = std::fs::read_to_string(self.path().join(format!("boards/{board}.json")))
            .expect("game file");
        serde_json::from_str(&text).expect("json")
    }
}

/// What each path sent in one scenario.
#[derive(Debug, Default, PartialEq, Eq)]
struct Sent {
    replies: usize,
    robot: usize,
    nag: usize,
    forfeit: usize,
    damaged: usize,
    bounce: usize,
}

/// The same runs, with the gate as given: signups and a challenge (replies), a game
/// against robot1 that moves first (the robot's board mails), tick at 8 days (a
/// reminder) and at 22 days (forfeits), a damaged game file met by a listing (the
/// operator's notice), and a flush through a sendmail that refuses a spooled reply for
/// good (the operator's bounce).
fn scenario(gate: Gate) -> (Home, Sent) {
    let mut h = Home::new(gate);
    let mut sent = Sent::default();
    for (who, line) in [
        ("alice@example.org", "signup alice apw"),
        ("bob@example.org", "signup bob bpw"),
        ("carol@example.org", "signup carol cpw"),
        ("alice@example.org", "yinsh challenge alice bob"),
    ] {
        sent.replies += h.deliver(who, line, T0);
    }
    // Board 102: robot1 plays White, so its first turn is owed at once.
    sent.robot = h.deliver("carol@example.org", "yinsh challenge robot1 carol", T0 + 60);
    sent.nag = h.run("tick", &[], T0 + 8 * DAY);
    sent.forfeit = h.run("tick", &[], T0 + 22 * DAY);
    // Board 103, spoiled: a listing of carol's games meets it.
    h.deliver(
        "carol@example.org",
        "yinsh challenge carol bob",
        T0 + 22 * DAY + 60,
    );
    let spoiled = h.path().join("boards/103.json");
    std::fs::write(&spoiled, "").expect("spoil");
    sent.damaged = h.deliver(
        "carol@example.org",
        "yinsh games carol all",
        T0 + 22 * DAY + 120,
    );
    // A reply spooled for refuse@, which the sendmail script refuses for good.
    let sendmail = h.dir.path().join("sendmail");
    let taken = h.dir.path().join("taken");
    script(
        &sendmail,
        &format!(
            "case \"$*\" in *refuse@*) cat >/dev/null; exit 67;; esac\ncat >/dev/null\necho \"$*\" >> '{}'",
            taken.display()
        ),
    );
    spool_one(&h.path(), "refuse@example.org");
    let args = ["--sendmail", sendmail.to_str().expect("path")];
    sent.bounce = h.run("flush", &args, T0 + 22 * DAY + 180);
    (h, sent)
}

/// Puts one reply to `to` in the spool of `home`.
fn spool_one(home: &Path, to: &str) {
    use yinsh_pbem::mail::spool::Spool;
    use yinsh_pbem::server::store::Store;
    let store = Store::open(home).expect("store");
    let spool = Spool::open(&store.spool_dir()).expect("spool");
    spool
        .put(&crate::sending::built("stuck-1@localhost", to))
        .expect("spool");
}

#[test]
fn a_closed_gate_lets_no_mail_of_any_run_through_and_changes_no_game() {
    let (open, sent) = scenario(Gate::Open);
    // Each path sends mail when the gate is open: the scenario reaches them all.
    assert!(sent.replies >= 4, "{sent:?}");
    assert!(sent.robot >= 1, "{sent:?}");
    assert!(sent.nag >= 1 && sent.forfeit >= 1, "{sent:?}");
    assert!(
        sent.damaged >= 2,
        "the listing and the operator's notice: {sent:?}"
    );
    let taken = open.taken();
    assert!(
        taken.len() == 1 && taken[0].ends_with("-- ops@example.org"),
        "the bounce goes to the operator alone: {taken:?}"
    );
    assert_eq!(sent.bounce, 1, "{sent:?}");

    let (closed, none) = scenario(Gate::Closed);
    assert_eq!(none, Sent::default(), "mail went past a closed gate");
    assert_eq!(closed.sent(), 0);
    let log = std::fs::read_to_string(closed.path().join("log/yinsh-pbem.log")).expect("log");
    assert!(log.contains("(the gate is closed)"), "{log}");
    // The games went on the same: the gate holds back mail, nothing else.
    for board in [101, 102] {
        assert_eq!(
            closed.game(board)["turns"],
            open.game(board)["turns"],
            "board {board}"
        );
        assert_eq!(
            closed.game(board)["ended"],
            open.game(board)["ended"],
            "board {board}"
        );
    }
    assert!(
        !closed.game(101)["ended"].is_null(),
        "tick's forfeit took place"
    );
    assert!(
        closed.game(102)["turns"]
            .as_array()
            .is_some_and(|t| !t.is_empty()),
        "the robot played"
    );
}
