//! Delivering one mail of the soak as the mail system does: through the real binary,
//! sometimes killed (`kill -9`) after a random delay or while it writes its journal,
//! and then delivered again until it exits 0; each clean run measured by
//! `/usr/bin/time` (its peak resident size). Each mail writes its replies into a fresh
//! outbox folder, so the replies of every mail are known exactly; they are then moved
//! into the soak's one outbox.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use yinsh_pbem::ai::Rng;
use yinsh_pbem::server::store::Store;

use crate::support::bin::{command_of, confirming};
use crate::support::server::{Sent, read_sent};

use super::MAX_KIB;

/// The longest a kill aimed at the journal waits for it to be written (a mail that
/// writes none exits long before).
const JOURNAL_WAIT: Duration = Duration::from_secs(10);

/// GNU time, which reports a child's peak resident size (`%M`, KiB).
const TIME: &str = "/usr/bin/time";

/// What the runs so far measured.
#[derive(Debug, Default)]
pub struct Stats {
    /// Mails delivered (each counted once, however many runs it took).
    pub mails: usize,
    /// Runs of `deliver` started (killed ones included).
    pub runs: usize,
    /// Runs killed before they exited.
    pub killed: usize,
    /// The largest peak resident size of a clean run, KiB, and the mail's Subject.
    pub peak_kib: u64,
    pub peak_subject: String,
    /// Clean runs measured (0 when `/usr/bin/time` is missing).
    pub measured: usize,
}

/// The binary, the home and the clock of a soak.
pub struct Runner {
    bin: PathBuf,
    pub home: PathBuf,
    /// Where one mail's replies are written (emptied after each mail).
    fresh: PathBuf,
    /// Every reply of the soak, moved here from `fresh`.
    pub outbox: PathBuf,
    pub now: u64,
    rng: Rng,
    time: bool,
    pub stats: Stats,
}

impl Runner {
    pub fn new(bin: PathBuf, home: PathBuf, now: u64, seed: u64) -> Runner {
        let fresh = home.join("fresh-outbox");
        let outbox = home.join("outbox");
        for d in [&fresh, &outbox] {
            std::fs::create_dir_all(d).expect("outbox folders");
        }
        let time = Path::new(TIME).exists();
        if !time {
            assert!(
                std::env::var_os("CI").is_none(),
                "{TIME} (Debian package `time`) is missing: .ci/run installs it; the soak measures each run's memory with it"
            );
            eprintln!("soak: {TIME} is missing: peak memory per run is not measured");
        }
        Runner {
            bin,
            home,
            fresh,
            outbox,
            now,
            rng: Rng::new(seed),
            time,
            stats: Stats::default(),
        }
    }

    /// A random number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n.max(1) as usize) as u64
    }

    /// `yinsh-pbem <args> --home <home>` with confirmation on and the soak's clock.
    fn command(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = if self.time {
            let mut c = command_of(Path::new(TIME));
            c.arg("-f").arg("%M").arg("-o").arg(self.home.join("rss"));
            c.arg(&self.bin);
            c
        } else {
            command_of(&self.bin)
        };
        cmd.args(args)
            .arg("--home")
            .arg(&self.home)
            .env("YINSH_PBEM_NOW", self.now.to_string())
            .envs(confirming());
        cmd
    }

    /// Runs `yinsh-pbem <args>` (`flush`, `tick`) on the soak's home; asserts exit 0
    /// and nothing on stderr.
    pub fn run(&mut self, args: &[&str]) {
        let out = self.command(args).output().expect("run yinsh-pbem");
        assert!(
            out.status.success() && out.stderr.is_empty(),
            "yinsh-pbem {args:?}: {:?} {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
        self.measure(&format!("({})", args.join(" ")), b"");
    }

    /// Reads the peak size `/usr/bin/time` wrote for the last run, which ran on
    /// `raw` (empty for `flush` and `tick`); a run over [`MAX_KIB`] fails the soak at
    /// once, its mail kept in the temp folder to reproduce it.
    fn measure(&mut self, what: &str, raw: &[u8]) {
        if !self.time {
            return;
        }
        let text = std::fs::read_to_string(self.home.join("rss")).expect("time's output");
        let kib: u64 = text
            .trim()
            .lines()
            .last()
            .and_then(|l| l.trim().parse().ok())
            .unwrap_or_else(|| panic!("time's output: {text:?}"));
        self.stats.measured += 1;
        if kib > MAX_KIB {
            let keep = std::env::temp_dir().join("yinsh-soak-over-20mb.eml");
            std::fs::write(&keep, raw).expect("keep the mail");
            panic!(
                "a run used {kib} KiB (mail {what:?}, kept in {})",
                keep.display()
            );
        }
        if kib > self.stats.peak_kib {
            self.stats.peak_kib = kib;
            self.stats.peak_subject = what.chars().take(80).collect();
        }
    }

    /// Delivers `raw` as the mail system would: with chance `kill_percent` the first
    /// run is killed (after 0-`max_kill_ms` ms, or as soon as its journal is being
    /// written) and the same bytes delivered again; a
    /// run that exits 0 ends it (after a kill that left the replies in the spool, a
    /// `flush` sends them). Returns the replies this mail caused.
    pub fn deliver(&mut self, raw: &[u8], kill_percent: u64, max_kill_ms: u64) -> Vec<Sent> {
        self.stats.mails += 1;
        let mut killed = false;
        if self.below(100) < kill_percent {
            let delay = Duration::from_millis(self.below(max_kill_ms + 1));
            // A kill at a random moment reaches a journal only by luck (its write
            // and apply are a millisecond or two of a run); one kill in three is
            // aimed at it, so every soak crashes inside the transaction too.
            let at_journal = self.below(3) == 0;
            let mut child = command_of(&self.bin)
                .args(["deliver", "--home"])
                .arg(&self.home)
                .arg("--outbox")
                .arg(&self.fresh)
                .env("YINSH_PBEM_NOW", self.now.to_string())
                .envs(confirming())
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("spawn deliver");
            self.stats.runs += 1;
            let mut stdin = child.stdin.take().expect("stdin");
            // A child killed early closes the pipe: the write may fail.
            let _ = std::io::Write::write_all(&mut stdin, raw);
            drop(stdin);
            let start = Instant::now();
            if at_journal {
                // Watched, not slept: the kill lands while the journal is being
                // written or applied (it is emptied, not removed, when done).
                let store = Store::open(&self.home).expect("store");
                while start.elapsed() < JOURNAL_WAIT {
                    let written = store.journal_waits().unwrap_or(false);
                    if written || child.try_wait().expect("try_wait").is_some() {
                        break;
                    }
                    std::thread::yield_now();
                }
            } else {
                while start.elapsed() < delay {
                    if child.try_wait().expect("try_wait").is_some() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            let _ = child.kill();
            let status = child.wait().expect("wait");
            if status.code().is_none() {
                self.stats.killed += 1;
                killed = true;
            } else {
                assert_eq!(status.code(), Some(0), "deliver before the kill");
                return self.collect();
            }
        }
        self.stats.runs += 1;
        let mut cmd = self.command(&["deliver"]);
        cmd.arg("--outbox").arg(&self.fresh);
        let out = assert_cmd::Command::from_std(cmd)
            .write_stdin(raw.to_vec())
            .output()
            .expect("run deliver");
        assert!(
            out.status.code() == Some(0) && out.stderr.is_empty(),
            "deliver exited {:?} ({}) on {}",
            out.status,
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&raw[..raw.len().min(300)])
        );
        let subject = subject_of(raw);
        self.measure(&subject, raw);
        let sent = self.collect();
        if killed && sent.is_empty() {
            // Killed after its commit and before it sent: the mail delivered again is
            // a duplicate, and its replies wait in the spool. The package's flush
            // timer sends them; here a flush at once, into this mail's outbox.
            let fresh = self.fresh.to_str().expect("a UTF-8 path").to_string();
            self.run(&["flush", "--outbox", &fresh]);
            return self.collect();
        }
        sent
    }

    /// Moves this mail's replies into the outbox and reads them back.
    fn collect(&mut self) -> Vec<Sent> {
        let mut names: Vec<PathBuf> = std::fs::read_dir(&self.fresh)
            .expect("fresh outbox")
            .map(|e| e.expect("entry").path())
            .collect();
        names.sort();
        let mut sent = Vec::new();
        for path in names {
            let name = path.file_name().expect("name").to_owned();
            assert!(
                !name.to_string_lossy().starts_with('.'),
                "a temporary file is left in the outbox: {}",
                path.display()
            );
            let to = self.outbox.join(&name);
            assert!(!to.exists(), "two replies named {}", to.display());
            sent.push(read_sent(&path));
            std::fs::rename(&path, &to).expect("move reply");
        }
        sent
    }
}

/// The Subject header of a raw mail, for reports (its first 80 characters).
fn subject_of(raw: &[u8]) -> String {
    let head = &raw[..raw.len().min(4096)];
    String::from_utf8_lossy(head)
        .lines()
        .find_map(|l| l.strip_prefix("Subject: ").map(str::to_string))
        .unwrap_or_default()
        .chars()
        .take(80)
        .collect()
}
