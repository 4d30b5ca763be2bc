//! Issue 48, monitoring that does not lie: the alerting rules the package ships
//! (`debian/prometheus-alerts.yml`) checked by `promtool test rules` on series of
//! Prometheus files the real binary wrote (`status --prometheus` once a minute of
//! its clock, as the package's status timer runs it), each file accepted by
//! `promtool check metrics`: the alerts fire when flush stopped, when replies wait
//! too long in the spool, when a run fails and when an address is failing, and not
//! while the server is healthy. promtool is Debian's `prometheus` package (.ci/run
//! installs it); without it the test says so and passes, under CI it fails.

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use yinsh_pbem::server::store::Store;

use crate::status::samples;
use crate::support::bin;
use crate::support::dsn::{user_unknown, verp};

/// The server's clock at the first scrape: the promtool series start at 0 and are
/// blank before it (`time()` in the rules is the evaluation time).
const T0: u64 = 3600;

/// `promtool`, or `None` (after saying so; a failure under CI).
pub fn promtool() -> Option<PathBuf> {
    let found = Command::new("promtool").arg("--version").output().is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none(),
            "promtool is missing (Debian's prometheus package; .ci/run installs it)"
        );
        eprintln!("SKIPPED: promtool is not installed (apt-get install prometheus)");
        return None;
    }
    Some(PathBuf::from("promtool"))
}

/// Checks the Prometheus file `text` with `promtool check metrics`: accepted, and
/// nothing said about it (panics with promtool's words).
pub fn check_metrics(promtool: &Path, text: &str) {
    let mut check = Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("promtool");
    use std::io::Write as _;
    check
        .stdin
        .take()
        .expect("stdin")
        .write_all(text.as_bytes())
        .expect("write");
    let checked = check.wait_with_output().expect("promtool");
    assert!(
        checked.status.success() && checked.stdout.is_empty() && checked.stderr.is_empty(),
        "promtool check metrics: {}{}\n{text}",
        String::from_utf8_lossy(&checked.stdout),
        String::from_utf8_lossy(&checked.stderr)
    );
}

/// A server home driven through the binary at its own clock, scraped each minute.
struct Scraped {
    dir: tempfile::TempDir,
    /// Extra arguments of every run (a sendmail, a config).
    args: Vec<OsString>,
    /// The samples of each scrape, by minute since 0.
    scrapes: BTreeMap<u64, BTreeMap<String, u64>>,
    promtool: PathBuf,
    seq: u32,
}

impl Scraped {
    fn new(promtool: &Path) -> Scraped {
        Scraped {
            dir: crate::support::tmp::dir(),
            args: Vec::new(),
            scrapes: BTreeMap::new(),
            promtool: promtool.to_path_buf(),
            seq: 0,
        }
    }

    fn home(&self) -> PathBuf {
        self.dir.path().join("games")
    }

    /// Runs `yinsh-pbem <cmd>` at `now` with the home and the extra arguments.
    fn run(&self, cmd: &str, now: u64, stdin: Option<&[u8]>) -> std::process::Output {
        let mut c = bin::assert_command();
        c.arg(cmd)
            .arg("--home")
            .arg(self.home())
            .args(&self.args)
            .env("YINSH_PBEM_NOW", now.to_string());
        if let Some(input) = stdin {
            c.write_stdin(input.to_vec());
        }
        c.output().expect("run yinsh-pbem")
    }

    /// Delivers a mail from `from` with this Subject at `now` (exit 0).
    fn mail(&mut self, from: &str, subject: &str, now: u64) {
        self.seq += 1;
        let raw = crate::support::mail::plain(
            from,
            subject,
            &format!("alerts-{}@example.org", self.seq),
            "\n",
        );
        self.mail_raw(raw.as_bytes(), now);
    }

    fn mail_raw(&mut self, raw: &[u8], now: u64) {
        let out = self.run("deliver", now, Some(raw));
        assert_eq!(out.status.code(), Some(0), "{out:?}");
    }

    /// Runs `flush` or `tick` at `now`; returns its exit code.
    fn periodic(&self, cmd: &str, now: u64) -> Option<i32> {
        self.run(cmd, now, None).status.code()
    }

    /// Writes the Prometheus file at `now` (a whole minute), checks it with promtool
    /// and keeps its samples as the minute `now / 60` of the series.
    fn scrape(&mut self, now: u64) {
        self.scrape_as(now, now / 60);
    }

    /// [`Scraped::scrape`], kept as the series' minute `minute`.
    fn scrape_as(&mut self, now: u64, minute: u64) {
        let file = self.dir.path().join("yinsh-pbem.prom");
        let mut c = bin::command();
        c.arg("status")
            .arg("--home")
            .arg(self.home())
            .arg("--prometheus")
            .arg(&file)
            .env("YINSH_PBEM_NOW", now.to_string());
        let out = c.output().expect("status");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        let text = std::fs::read_to_string(&file).expect("the file");
        if self.scrapes.is_empty() {
            check_metrics(&self.promtool, &text);
        }
        self.scrapes.insert(minute, samples(&text));
    }

    /// The promtool input series of every scrape: a value a minute, `_` where none was
    /// taken. The disk's free space is left out (the test machine's, not the server's).
    fn series(&self) -> String {
        let last = *self.scrapes.keys().last().expect("a scrape");
        let names: std::collections::BTreeSet<&String> =
            self.scrapes.values().flat_map(|s| s.keys()).collect();
        let mut out = String::new();
        for name in names {
            if name.starts_with("yinsh_pbem_disk_free_bytes") {
                continue;
            }
            let values: Vec<String> = (0..=last)
                .map(|m| match self.scrapes.get(&m).and_then(|s| s.get(name)) {
                    Some(v) => v.to_string(),
                    None => "_".to_string(),
                })
                .collect();
            let _ = writeln!(
                out,
                "      - series: '{name}'\n        values: '{}'",
                values.join(" ")
            );
        }
        out
    }
}

/// An expected alert at a time: the alert's name, the minute, and the label sets
/// of the alerts firing then (empty: none fires).
struct Expect<'a> {
    alert: &'a str,
    minute: u64,
    firing: &'a [&'a [(&'a str, &'a str)]],
}

/// Runs `promtool test rules` on the shipped rules with the scrapes of `s` and the
/// expectations; panics with promtool's words when one is not met.
fn check_rules(s: &Scraped, expect: &[Expect<'_>]) {
    let rules = Path::new(env!("CARGO_MANIFEST_DIR")).join("debian/prometheus-alerts.yml");
    let mut yaml = format!(
        "rule_files:\n  - {}\nevaluation_interval: 1m\ntests:\n  - interval: 1m\n    input_series:\n{}    alert_rule_test:\n",
        rules.display(),
        s.series()
    );
    for e in expect {
        let _ = writeln!(
            yaml,
            "      - eval_time: {}m\n        alertname: {}\n        exp_alerts:{}",
            e.minute,
            e.alert,
            if e.firing.is_empty() { " []" } else { "" }
        );
        for labels in e.firing {
            let _ = writeln!(yaml, "          - exp_labels:");
            for (k, v) in *labels {
                let _ = writeln!(yaml, "              {k}: {v}");
            }
        }
    }
    let file = s.dir.path().join("alerts-test.yml");
    std::fs::write(&file, &yaml).expect("write the test");
    let out = Command::new(&s.promtool)
        .args(["test", "rules"])
        .arg(&file)
        .output()
        .expect("promtool test rules");
    assert!(
        out.status.success(),
        "promtool test rules:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

const NONE: &[&[(&str, &str)]] = &[];

/// Issue 48, alerts: a healthy server (flush every 5 minutes, tick hourly) raises
/// none; a flush failing on the store's lock raises "runs failing" for flush; once
/// flush stops, "flush not running" fires after its 30 minutes (and 5 of `for`), not
/// before, while the figures themselves stay fresh.
#[test]
fn the_flush_and_run_alerts_fire_only_when_flush_stops_or_fails() {
    let Some(promtool) = promtool() else { return };
    let mut s = Scraped::new(&promtool);
    let config = s.dir.path().join("config.toml");
    std::fs::write(&config, "[limits]\nlock_wait_seconds = 1\n").expect("config");
    s.args = vec!["--config".into(), config.into_os_string()];
    s.mail("alice@example.org", "signup alice apw", T0);
    for minute in 0..=180 {
        let now = T0 + minute * 60;
        if minute % 60 == 0 {
            assert_eq!(s.periodic("tick", now), Some(0));
        }
        if minute <= 60 && minute % 5 == 0 {
            if minute == 30 {
                // The store's lock held elsewhere: the flush fails, and says why.
                let store = Store::open(&s.home()).expect("store");
                let _lock = store.lock().expect("lock");
                let out = s.run("flush", now, None);
                assert_eq!(out.status.code(), Some(75));
                let err = String::from_utf8_lossy(&out.stderr);
                assert!(
                    err.starts_with("error: internal failure, exit 75: "),
                    "{err}"
                );
            } else {
                assert_eq!(s.periodic("flush", now), Some(0));
            }
        }
        s.scrape(now);
    }
    let start = T0 / 60;
    let flush_failed: &[&[(&str, &str)]] = &[&[("severity", "warning"), ("run", "flush")]];
    let critical: &[&[(&str, &str)]] = &[&[("severity", "critical")]];
    check_rules(
        &s,
        &[
            Expect {
                alert: "YinshPbemFlushNotRunning",
                minute: start + 20,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemRunsFailing",
                minute: start + 20,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemRunsFailing",
                minute: start + 40,
                firing: flush_failed,
            },
            Expect {
                alert: "YinshPbemRunsFailing",
                minute: start + 100,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemFlushNotRunning",
                minute: start + 60 + 30,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemFlushNotRunning",
                minute: start + 60 + 40,
                firing: critical,
            },
            Expect {
                alert: "YinshPbemFlushNotRunning",
                minute: start + 180,
                firing: critical,
            },
            Expect {
                alert: "YinshPbemTickNotRunning",
                minute: start + 180,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemFiguresStale",
                minute: start + 180,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemRepliesStuck",
                minute: start + 180,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemAddressesFailing",
                minute: start + 180,
                firing: NONE,
            },
        ],
    );
}

/// Issue 48, alerts: replies that cannot leave (the sendmail failing for now) grow
/// the spool's oldest age; "replies stuck" fires once the oldest has waited an hour
/// (and 5 minutes of `for`), not before, though flush keeps running. The spool notes
/// the real time a reply was queued, so here the server's clock starts at the real
/// time (the rule reads an age, not `time()`), each scrape kept at its minute from
/// [`T0`].
#[test]
fn the_spool_alert_fires_when_replies_wait_an_hour() {
    let Some(promtool) = promtool() else { return };
    let mut s = Scraped::new(&promtool);
    let failing = s.dir.path().join("sendmail");
    std::fs::write(&failing, "#!/bin/sh\ncat >/dev/null\nexit 75\n").expect("script");
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(&failing, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    s.args = vec!["--sendmail".into(), failing.into_os_string()];
    let real = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    s.mail("alice@example.org", "signup alice apw", real);
    for minute in 0..=80 {
        let now = real + minute * 60;
        if minute % 5 == 0 {
            assert_eq!(s.periodic("flush", now), Some(0));
        }
        s.scrape_as(now, T0 / 60 + minute);
    }
    let last = &s.scrapes[&(T0 / 60 + 80)];
    assert!(last["yinsh_pbem_spool_waiting"] >= 1, "{last:?}");
    assert!(
        last["yinsh_pbem_spool_oldest_age_seconds"] >= 80 * 60,
        "{last:?}"
    );
    let start = T0 / 60;
    let critical: &[&[(&str, &str)]] = &[&[("severity", "critical")]];
    check_rules(
        &s,
        &[
            Expect {
                alert: "YinshPbemRepliesStuck",
                minute: start + 50,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemRepliesStuck",
                minute: start + 62,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemRepliesStuck",
                minute: start + 70,
                firing: critical,
            },
            Expect {
                alert: "YinshPbemFlushNotRunning",
                minute: start + 70,
                firing: NONE,
            },
        ],
    );
}

/// Issue 48, alerts: two hard bounces leave the address working (no alert); the third,
/// a day later, marks it failing and "addresses failing" fires; the bounce reports
/// are counted.
#[test]
fn the_failing_address_alert_fires_after_the_bounces_mark_one() {
    let Some(promtool) = promtool() else { return };
    let mut s = Scraped::new(&promtool);
    s.mail("alice@example.org", "signup alice apw", T0);
    let to = verp(&s.home(), "alice@example.org");
    s.mail_raw(
        user_unknown(&to, "alice@example.org", "t1@mx").as_bytes(),
        T0 + 60,
    );
    s.mail_raw(
        user_unknown(&to, "alice@example.org", "t2@mx").as_bytes(),
        T0 + 120,
    );
    for minute in 0..=10 {
        s.scrape(T0 + minute * 60);
    }
    let later = T0 + 86_400 + 600;
    s.mail_raw(
        user_unknown(&to, "alice@example.org", "t3@mx").as_bytes(),
        later,
    );
    for minute in 0..=10 {
        s.scrape(later + minute * 60);
    }
    let last = &s.scrapes[&((later + 600) / 60)];
    assert_eq!(last["yinsh_pbem_failing_addresses"], 1, "{last:?}");
    assert_eq!(last["yinsh_pbem_bounces_total"], 3, "{last:?}");
    let info: &[&[(&str, &str)]] = &[&[("severity", "info")]];
    check_rules(
        &s,
        &[
            Expect {
                alert: "YinshPbemAddressesFailing",
                minute: T0 / 60 + 8,
                firing: NONE,
            },
            Expect {
                alert: "YinshPbemAddressesFailing",
                minute: later / 60 + 8,
                firing: info,
            },
        ],
    );
}
