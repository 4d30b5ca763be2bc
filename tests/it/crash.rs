//! Crash safety of `deliver`: over a scripted game, every move mail is first delivered
//! with the process killed at each fault-injection point (`YINSH_PBEM_FAULT`), with an
//! injected disk-full error, or with a real `kill -9` after a random few milliseconds;
//! after each kill the home must be consistent (every game file loads and replays, a
//! move whose reply exists is in the game), and delivering the same mail again must
//! complete it exactly once: no lost or doubled move, no lost or doubled reply.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use yinsh_pbem::durable::fault::POINTS;
use yinsh_pbem::rules::Color;
use yinsh_pbem::server::game::record::LiveGame;
use yinsh_pbem::server::store::Store;

use crate::support::bin::{command, spawn_deliver};
use crate::support::mail;
use crate::support::server::TestServer;
use crate::support::turns::random_turns as script;
use yinsh_pbem::ai::Rng;

/// How one attempt is disturbed.
#[derive(Debug, Clone)]
enum Disturb {
    /// `YINSH_PBEM_FAULT=<spec>`.
    Fault(String),
    /// `kill -9` after this many milliseconds.
    Kill(u64),
    /// Nothing.
    None,
}

/// Runs `deliver` on `raw` with `d`; returns the exit code (`None`: killed).
fn run(home: &Path, now: u64, raw: &[u8], d: &Disturb) -> Option<i32> {
    let fault: Vec<(&str, &str)> = match d {
        Disturb::Fault(spec) => vec![("YINSH_PBEM_FAULT", spec)],
        _ => Vec::new(),
    };
    // A killed child closes the pipe: ignore the write error then.
    let (mut child, _) = spawn_deliver(home, now, &fault, raw);
    if let Disturb::Kill(ms) = d {
        std::thread::sleep(Duration::from_millis(*ms));
        let _ = child.kill();
    }
    let out = child.wait_with_output().expect("wait");
    if let Disturb::Fault(spec) = d
        && spec.starts_with("enospc")
    {
        assert!(
            out.stderr.is_empty(),
            "stderr with {spec}: {:?}",
            out.stderr
        );
    }
    out.status.code()
}

/// The outbox and spool files that answer the mail `mid` (their In-Reply-To), by name.
fn replies_to(home: &Path, mid: &str) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let needle = format!("In-Reply-To: <{mid}>");
    let list = |dir: PathBuf| -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        v.retain(|p| {
            !p.file_name().unwrap().to_string_lossy().starts_with('.')
                && std::fs::read_to_string(p).is_ok_and(|t| t.contains(&needle))
        });
        v.sort();
        v
    };
    (list(home.join("outbox")), list(home.join("spool")))
}

/// The number of turns of board 101, after checking that the file loads and replays
/// and is the script's prefix.
fn check_game(home: &Path, script: &[(Color, String)]) -> usize {
    let store = Store::open(home).expect("store");
    let file = store.game(101).expect("readable").expect("board 101");
    let n = file.turns.len();
    for (k, t) in file.turns.iter().enumerate() {
        assert_eq!(
            t.text,
            script[k].1,
            "turn {} differs from the script",
            k + 1
        );
    }
    LiveGame::load(file).expect("the game file replays");
    n
}

fn move_mail(seq: usize, k: usize, side: Color, text: &str) -> (String, String) {
    let (from, user, pw) = match side {
        Color::White => ("alice@example.org", "alice", "apw"),
        Color::Black => ("bob@example.org", "bob", "bpw"),
    };
    let mid = format!("crash-{seq}-{k}@example.org");
    let subject = format!("yinsh move 101 {user} {pw} {text}#{}", k + 1);
    let raw = mail::plain(from, &subject, &mid, "ok\n");
    (mid, raw)
}

/// One attempt disturbed by `d`, then the same mail again until it goes through
/// undisturbed, checking the invariants after each step. Returns how many runs it took.
fn attempt(
    home: &Path,
    now: u64,
    script: &[(Color, String)],
    k: usize,
    seq: usize,
    ds: &[Disturb],
) -> usize {
    let (mid, raw) = move_mail(seq, k, script[k].0, &script[k].1);
    let mut runs = 0;
    for d in ds {
        runs += 1;
        let code = run(home, now, raw.as_bytes(), d);
        if let (Disturb::Fault(spec), Some(c)) = (d, code)
            && spec.starts_with("enospc")
        {
            assert!(c == 75 || c == 0, "{spec}: exit {c}");
        }
        let n = check_game(home, script);
        assert!(
            n == k || n == k + 1,
            "after {d:?}: {n} turns, expected {k} or {}",
            k + 1
        );
        let (outbox, spool) = replies_to(home, &mid);
        if !outbox.is_empty() || !spool.is_empty() {
            assert_eq!(
                n,
                k + 1,
                "after {d:?}: a reply exists but the move is not in the game"
            );
        }
        assert!(
            outbox.len() <= 2,
            "after {d:?}: {} replies in the outbox",
            outbox.len()
        );
    }
    // Then the mail system delivers it again (twice: the second is a duplicate).
    for _ in 0..2 {
        runs += 1;
        assert_eq!(run(home, now, raw.as_bytes(), &Disturb::None), Some(0));
        assert_eq!(
            check_game(home, script),
            k + 1,
            "move {} lost or doubled",
            k + 1
        );
        let (outbox, spool) = replies_to(home, &mid);
        assert_eq!(outbox.len(), 2, "replies to move {}: {outbox:?}", k + 1);
        assert!(spool.is_empty(), "left in the spool: {spool:?}");
        // Nothing pending: the journal file is empty (or absent), and alone.
        let journal = home.join("journal");
        let others: Vec<_> = std::fs::read_dir(&journal)
            .map(|d| d.map(|e| e.expect("entry").file_name()).collect())
            .unwrap_or_default();
        assert!(
            others.iter().all(|n| n == "pending"),
            "stray files in {}: {others:?}",
            journal.display()
        );
        let store = Store::open(home).expect("store");
        let waits = store.journal_waits().expect("the journal");
        assert!(!waits, "a journal was left in {}", journal.display());
    }
    runs
}

fn new_game() -> TestServer {
    let mut s = TestServer::new();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw bob@example.org", "");
    let r = s.send("alice@example.org", "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    s
}

#[test]
fn a_kill_at_every_fault_point_is_completed_exactly_once_by_redelivery() {
    let s = new_game();
    let home = s.home();
    let script = script(7, 40);
    let mut specs: Vec<String> = Vec::new();
    for p in POINTS {
        specs.push((*p).to_string());
    }
    for n in 2..=4 {
        specs.push(format!("apply-file:{n}"));
    }
    specs.push("after-spool:2".into());
    for n in 1..=5 {
        specs.push(format!("enospc:{n}"));
    }
    let mut runs = 0;
    for (k, _) in script.iter().enumerate() {
        // Two different faults per move, one after the other, then redelivery.
        let ds = [
            Disturb::Fault(specs[(2 * k) % specs.len()].clone()),
            Disturb::Fault(specs[(2 * k + 1) % specs.len()].clone()),
        ];
        runs += attempt(&home, s.now + 600 * k as u64, &script, k, 0, &ds);
    }
    assert!(runs >= 150, "{runs} runs");
}

#[test]
fn random_kill_9_mid_delivery_never_loses_or_doubles_a_move_or_reply() {
    let s = new_game();
    let home = s.home();
    let script = script(11, 40);
    let mut rng = Rng::new(0x5eed_cafe);
    let mut runs = 0;
    for (k, _) in script.iter().enumerate() {
        let ds: Vec<Disturb> = (0..3).map(|_| Disturb::Kill(rng.next_u64() % 40)).collect();
        runs += attempt(&home, s.now + 600 * k as u64, &script, k, 1, &ds);
    }
    assert!(runs >= 150, "{runs} runs");
}

#[test]
fn disk_full_on_any_write_exits_75_and_changes_nothing_until_retried() {
    let s = new_game();
    let home = s.home();
    let script = script(3, 1);
    let board = home.join("boards/101.json");
    let before = std::fs::read(&board).unwrap();
    // The first atomic write of a move mail is its journal: nothing may change.
    let (mid, raw) = move_mail(2, 0, script[0].0, &script[0].1);
    let code = run(
        &home,
        s.now,
        raw.as_bytes(),
        &Disturb::Fault("enospc:1".into()),
    );
    assert_eq!(code, Some(75));
    assert_eq!(std::fs::read(&board).unwrap(), before, "the game changed");
    let (outbox, spool) = replies_to(&home, &mid);
    assert!(outbox.is_empty() && spool.is_empty());
    assert!(
        !yinsh_pbem::server::store::Store::open(&home)
            .expect("store")
            .seen(&mid)
    );
    // The retry goes through.
    assert_eq!(run(&home, s.now, raw.as_bytes(), &Disturb::None), Some(0));
    assert_eq!(check_game(&home, &script), 1);
}

/// Issue 13 §4: a journal write that fills the disk (the injected error comes after
/// half of the journal is written, as a real full disk cuts a write short) leaves no
/// journal behind: the file is emptied at once, not at the next mail.
#[test]
fn a_journal_that_fills_the_disk_is_emptied_at_once() {
    let s = new_game();
    let home = s.home();
    let script = script(3, 1);
    let (_, raw) = move_mail(3, 0, script[0].0, &script[0].1);
    let code = run(
        &home,
        s.now,
        raw.as_bytes(),
        &Disturb::Fault("enospc:1".into()),
    );
    assert_eq!(code, Some(75));
    let pending = std::fs::metadata(home.join("journal/pending")).map_or(0, |m| m.len());
    assert_eq!(pending, 0, "the failed journal was left on the full disk");
    assert_eq!(run(&home, s.now, raw.as_bytes(), &Disturb::None), Some(0));
    assert_eq!(check_game(&home, &script), 1);
}

/// A real full file system: a tiny tmpfs (needs root and mount rights; skipped
/// otherwise).
#[test]
fn a_real_full_tmpfs_gives_exit_75() {
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let ok = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=256k", "tmpfs"])
        .arg(&mnt)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("skipped: cannot mount a tmpfs here (not root or no mount rights)");
        return;
    }
    let home = mnt.join("games");
    let raw = mail::plain(
        "carol@example.org",
        "signup carol cpw",
        "full-1@example.org",
        "",
    );
    // Fill the disk to the brim.
    let _ = std::fs::create_dir_all(&home);
    let mut filler = std::fs::File::create(mnt.join("filler")).unwrap();
    let chunk = vec![0u8; 4096];
    while filler.write_all(&chunk).is_ok() {}
    let _ = filler.sync_all();
    drop(filler);
    let code = run(&home, 1_795_384_020, raw.as_bytes(), &Disturb::None);
    let accounts = home.join("accounts/carol.json");
    let exists = accounts.exists();
    let _ = Command::new("umount").arg(&mnt).status();
    assert_eq!(code, Some(75), "a full disk must be a temporary failure");
    assert!(!exists, "an account was written on a full disk");
}

#[test]
fn a_panic_mid_command_exits_75_silently_and_changes_nothing() {
    let s = new_game();
    let home = s.home();
    let script = script(5, 1);
    let before = std::fs::read(home.join("boards/101.json")).unwrap();
    let (mid, raw) = move_mail(3, 0, script[0].0, &script[0].1);
    let code = run(
        &home,
        s.now,
        raw.as_bytes(),
        &Disturb::Fault("panic-after-command".into()),
    );
    assert_eq!(code, Some(75));
    assert_eq!(std::fs::read(home.join("boards/101.json")).unwrap(), before);
    assert!(replies_to(&home, &mid).0.is_empty());
    let log = std::fs::read_to_string(home.join("log/yinsh-pbem.log")).unwrap();
    assert!(log.contains("injected panic"), "{log}");
    assert_eq!(run(&home, s.now, raw.as_bytes(), &Disturb::None), Some(0));
    assert_eq!(check_game(&home, &script), 1);
}

/// A read-only home (a tmpfs remounted read-only; needs root and mount rights, skipped
/// otherwise): exit 75 and nothing changed, then the same mail succeeds once the home
/// is writable again.
#[test]
fn a_read_only_home_gives_exit_75_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mnt = dir.path().join("mnt");
    std::fs::create_dir(&mnt).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=4m", "tmpfs"])
        .arg(&mnt)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        eprintln!("skipped: cannot mount a tmpfs here (not root or no mount rights)");
        return;
    }
    let home = mnt.join("games");
    let first = mail::plain(
        "dave@example.org",
        "signup dave dpw",
        "ro-0@example.org",
        "",
    );
    let setup = run(&home, 1_795_384_020, first.as_bytes(), &Disturb::None);
    let remount = |mode: &str| {
        Command::new("mount")
            .args(["-o", &format!("remount,{mode}")])
            .arg(&mnt)
            .status()
            .is_ok_and(|s| s.success())
    };
    let read_only = remount("ro");
    let raw = mail::plain(
        "carol@example.org",
        "signup carol cpw",
        "ro-1@example.org",
        "",
    );
    let raw = raw.as_bytes();
    let code = run(&home, 1_795_384_080, raw, &Disturb::None);
    let written_while_ro = home.join("accounts/carol.json").exists();
    let writable = remount("rw");
    let retry = run(&home, 1_795_384_140, raw, &Disturb::None);
    let written_after = home.join("accounts/carol.json").exists();
    let _ = Command::new("umount").arg(&mnt).status();
    assert_eq!(setup, Some(0));
    assert!(read_only && writable, "remounting the tmpfs failed");
    assert_eq!(
        code,
        Some(75),
        "a read-only home must be a temporary failure"
    );
    assert!(!written_while_ro);
    assert_eq!(retry, Some(0));
    assert!(written_after, "the retried mail was handled");
}

/// A journal whose write a crash cut short (its body shorter than its header says,
/// or not matching its checksum) was never committed: the next run discards it and
/// says so in the log, and the mail, delivered again, is handled once.
#[test]
fn a_torn_journal_is_discarded_and_the_redelivered_mail_is_handled_once() {
    let s = new_game();
    let home = s.home();
    let script = script(5, 2);
    let (mid, raw) = move_mail(3, 0, script[0].0, &script[0].1);
    // A kill right after the commit leaves the whole journal of the move.
    let fault = Disturb::Fault("after-journal".into());
    assert_eq!(run(&home, s.now, raw.as_bytes(), &fault), None);
    let journal = home.join("journal/pending");
    let whole = std::fs::read(&journal).expect("the committed journal");
    for (n, torn) in [whole[..whole.len() / 2].to_vec(), {
        let mut flipped = whole.clone();
        let last = flipped.len() - 2;
        flipped[last] ^= 0x20;
        flipped
    }]
    .into_iter()
    .enumerate()
    {
        std::fs::write(&journal, &torn).expect("tear the journal");
        let before = std::fs::read(home.join("boards/101.json")).expect("board");
        // Another mail (a show) runs the recovery: nothing of the torn move appears.
        let show = mail::plain(
            "carol@example.org",
            "yinsh show 101",
            &format!("torn-{n}@example.org"),
            "",
        );
        assert_eq!(run(&home, s.now, show.as_bytes(), &Disturb::None), Some(0));
        assert_eq!(
            std::fs::read(home.join("boards/101.json")).expect("board"),
            before
        );
        let store = Store::open(&home).expect("store");
        assert!(!store.journal_waits().expect("the journal"), "emptied");
        let log = std::fs::read_to_string(home.join("log/yinsh-pbem.log")).expect("log");
        assert!(log.contains("discarded a journal"), "{log}");
        let (outbox, spool) = replies_to(&home, &mid);
        assert!(
            outbox.is_empty() && spool.is_empty(),
            "{outbox:?} {spool:?}"
        );
    }
    // The mail system delivers the move again: played once, answered once.
    assert_eq!(run(&home, s.now, raw.as_bytes(), &Disturb::None), Some(0));
    assert_eq!(check_game(&home, &script), 1);
    assert_eq!(replies_to(&home, &mid).0.len(), 2);
}

/// `vacation` writes through the mail's journal like every other command: a kill after
/// the command ran but before the journal leaves no vacation behind.
#[test]
fn a_vacation_is_part_of_the_journal_and_a_killed_mail_leaves_none() {
    let s = new_game();
    let home = s.home();
    let raw = mail::plain(
        "bob@example.org",
        "vacation bob bpw 10",
        "vac-1@example.org",
        "",
    );
    let kill = Disturb::Fault("after-command".into());
    assert_eq!(run(&home, s.now, raw.as_bytes(), &kill), None);
    assert!(
        !home.join("vacations.json").exists(),
        "written before the journal"
    );
    assert_eq!(run(&home, s.now, raw.as_bytes(), &Disturb::None), Some(0));
    let text = std::fs::read_to_string(home.join("vacations.json")).expect("vacations");
    assert!(text.contains("\"bob\""), "{text}");
}

/// `tick` takes the lock like `deliver` and first completes a journal a killed run
/// left behind, so its own changes are made to the game as the journal left it (and
/// are not overwritten by it): eight days after the move, the nag is recorded on the
/// game that holds the move.
#[test]
fn tick_first_completes_a_journal_a_killed_deliver_left() {
    // bob sends the challenge, so the game is his own asking and he is reminded of
    // it (a game forced on a stranger is not: `game::extra::quiet`).
    let mut s = TestServer::new();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw bob@example.org", "");
    let r = s.send("bob@example.org", "yinsh challenge alice bob", "");
    assert_eq!(r.len(), 2, "{r:?}");
    let home = s.home();
    let script = script(9, 1);
    let (mid, raw) = move_mail(4, 0, script[0].0, &script[0].1);
    let kill = Disturb::Fault("after-journal".into());
    assert_eq!(run(&home, s.now, raw.as_bytes(), &kill), None);
    assert_eq!(check_game(&home, &script), 0);
    let out = command()
        .args(["tick", "--home"])
        .arg(&home)
        .env("YINSH_PBEM_NOW", (s.now + 8 * 86_400).to_string())
        .output()
        .expect("tick");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(check_game(&home, &script), 1);
    let board = std::fs::read_to_string(home.join("boards/101.json")).expect("board");
    assert!(
        board.contains("last_nag"),
        "the nag was not recorded: {board}"
    );
    assert_eq!(replies_to(&home, &mid).0.len(), 2);
    let store = Store::open(&home).expect("store");
    assert!(!store.journal_waits().expect("the journal"), "completed");
}

/// Issue 13: a killed run may leave temp files of its atomic writes in any folder the
/// store writes into, not only the outbox. Recovering a journal sweeps them all (the
/// spool, where a sender works without the store's lock, is left alone), and the
/// daily expiry sweeps those of a run killed with no journal left.
#[test]
fn temp_files_a_killed_run_left_in_store_folders_are_removed() {
    let mut s = new_game();
    let home = s.home();
    let script = script(7, 1);
    let (_, raw) = move_mail(5, 0, script[0].0, &script[0].1);
    let kill = Disturb::Fault("apply-file".into());
    assert_eq!(run(&home, s.now, raw.as_bytes(), &kill), None);
    let store = Store::open(&home).expect("store");
    assert!(
        store.journal_waits().expect("the journal"),
        "the kill left it"
    );
    let day = yinsh_pbem::server::store::day_name(s.now);
    let left = [
        ".next-board.99999.0.tmp",
        "boards/.101.json.99999.0.tmp",
        "accounts/.alice.json.99999.1.tmp",
        "index/.state.json.99999.2.tmp",
        "rate/.x.json.99999.3.tmp",
        "logins/.alice.json.99999.4.tmp",
    ];
    let plant = |names: &[&str]| {
        for name in names {
            std::fs::write(home.join(name), "{").expect("plant a temp file");
        }
    };
    plant(&left);
    std::fs::create_dir_all(home.join("seen").join(&day)).expect("seen day");
    let seen_temp = format!("seen/{day}/.abc.99999.5.tmp");
    plant(&[seen_temp.as_str(), "spool/.r.eml.99999.6.tmp"]);
    assert_eq!(run(&home, s.now, raw.as_bytes(), &Disturb::None), Some(0));
    for name in left.iter().copied().chain([seen_temp.as_str()]) {
        assert!(!home.join(name).exists(), "{name} was left");
    }
    assert!(home.join("spool/.r.eml.99999.6.tmp").exists());
    // A run killed with no journal left: the next day's first mail sweeps its temps.
    plant(&left);
    s.now += 86_400;
    s.send("carol@example.org", "yinsh show 101", "");
    for name in left {
        assert!(!home.join(name).exists(), "{name} was left a day later");
    }
}
