//! Issue 30, `yinsh-pbem status`: the operator's figures (spool, last tick and flush,
//! last mail, failing addresses, unconfirmed accounts, robots' time, games going on
//! and due, boards, disk) as text and in the Prometheus text format, into a file
//! written whole; taken from indexes and small files, never from the game files.

use std::path::Path;

use yinsh_pbem::mail::{BuiltMail, Spool};
use yinsh_pbem::server::config::Settings;
use yinsh_pbem::server::read::status::status;
use yinsh_pbem::server::store::{Answerable, LastRun, OwedReview, mark_run};

use crate::support::bin;
use crate::support::exec::Home;

/// The samples of a Prometheus text file by name (with their labels), each checked:
/// a `yinsh_pbem_*` name whose family has a TYPE line before it, `gauge` or a
/// `counter` named `*_total`, and an integer value.
pub fn samples(prom: &str) -> std::collections::BTreeMap<String, u64> {
    let mut samples = std::collections::BTreeMap::new();
    let mut typed = std::collections::BTreeMap::new();
    for line in prom.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("TYPE name kind");
            match kind {
                "gauge" => {}
                "counter" => assert!(name.ends_with("_total"), "{line}"),
                _ => panic!("{line}"),
            }
            typed.insert(name.to_string(), kind.to_string());
        } else if !line.starts_with("# HELP yinsh_pbem_") {
            let (name, value) = line.rsplit_once(' ').expect("name value");
            assert!(name.starts_with("yinsh_pbem_"), "{line}");
            let family = name.split('{').next().expect("a name");
            assert!(
                typed.contains_key(family),
                "{name} has no TYPE line before it"
            );
            samples.insert(name.to_string(), value.parse::<u64>().expect("integer"));
        }
    }
    samples
}

/// A spooled reply to `to`.
fn spool_one(home: &Path, id: &str, to: &str) {
    let spool = Spool::open(&home.join("spool")).expect("spool");
    spool
        .put(&BuiltMail {
            id: id.to_string(),
            envelope_from: "yinsh@localhost".to_string(),
            recipients: vec![to.to_string()],
            bytes: b"From: yinsh@localhost\r\nTo: x@example.org\r\n\r\nhi\r\n".to_vec(),
        })
        .expect("put");
}

/// Issue 30, status: every figure comes from its source; a game going on and its due
/// time, the spool, the runs' times and the robots' hour are counted.
#[test]
fn status_counts_the_spool_the_runs_and_the_games() {
    let home = Home::with_game(&["alice", "bob"]);
    let now = home.now;
    spool_one(home.path(), "s-1@localhost", "alice@example.org");
    spool_one(home.path(), "s-2@localhost", "bob@example.org");
    mark_run(home.path(), LastRun::Tick, now - 120);
    std::fs::write(
        home.path().join("robot-time.json"),
        format!(
            "{{\"hour\": {}, \"think_ms\": 41200, \"review_ms\": 9000}}",
            now / 3600
        ),
    )
    .expect("robot time");
    // A review owed (issue 28): counted from `reviews/owed/`.
    let store = yinsh_pbem::server::store::Store::open(home.path()).expect("store");
    store
        .put_owed(&OwedReview::new(101.into(), now, Answerable::Server))
        .expect("owed review");
    let mut settings = Settings::defaults(home.path().to_path_buf());
    settings.now = Some(now);
    let s = status(&settings).expect("status");
    assert_eq!(s.spool_waiting, 2, "{s:?}");
    assert!(s.spool_oldest.is_some(), "{s:?}");
    assert_eq!(s.spool_failed, 0);
    assert_eq!(s.last_tick, Some(now - 120));
    assert_eq!(s.last_flush, None);
    assert_eq!(s.robot_think_ms, 41_200);
    assert_eq!((s.review_ms, s.review_limit_ms), (9_000, 120_000), "{s:?}");
    assert_eq!(s.reviews_owed, 1, "{s:?}");
    assert_eq!(s.games_going_on, 1, "board 101 waits for White: {s:?}");
    assert_eq!(s.games_due, 0);
    assert_eq!(s.boards, 1);
    assert_eq!(s.failing_addresses, 0);
    let text = s.text();
    assert!(text.contains("spool:                2 waiting"), "{text}");
    assert!(
        text.contains("last tick:            ") && text.contains("(2 min ago)"),
        "{text}"
    );
    assert!(text.contains("last flush:           never"), "{text}");
    assert!(
        text.contains("robots' think time:   41 s this hour (of 1200 s)"),
        "{text}"
    );
    assert!(
        text.contains("reviews:              9 s of it on reviews (of 120 s); reviews owed: 1"),
        "{text}"
    );
    // Counts read as counts whatever their number ("reviews owed: 1", not "1 reviews").
    assert!(
        text.contains("(0 due for a reminder or forfeit); robot turns owed: 0"),
        "{text}"
    );
    // Much later the game is due for its reminder.
    settings.now = Some(now + 30 * 86_400);
    let later = status(&settings).expect("status");
    assert_eq!(later.games_due, 1, "{later:?}");
    assert_eq!(later.robot_think_ms, 0, "another hour");
}

/// Issue 30, status: `--prometheus FILE` writes the Prometheus text format whole
/// (each metric with HELP and TYPE, names `yinsh_pbem_*`, counters `*_total`, integer
/// values, every metric present from the start: a time never seen is 0), readable by
/// a node_exporter; `--prometheus` alone prints it; plain `status` prints the text.
#[test]
fn status_prometheus_writes_the_text_format_into_a_file() {
    let home = Home::with_game(&["alice", "bob"]);
    spool_one(home.path(), "s-1@localhost", "alice@example.org");
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("yinsh-pbem.prom");
    let run = |args: &[&str]| {
        let out = bin::command()
            .arg("status")
            .arg("--home")
            .arg(home.path())
            .args(args)
            .env("YINSH_PBEM_NOW", home.now.to_string())
            .output()
            .expect("status");
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert_eq!(run(&["--prometheus", file.to_str().expect("utf-8")]), "");
    let prom = std::fs::read_to_string(&file).expect("the .prom file");
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(&file).expect("meta").permissions().mode() & 0o777;
    assert_eq!(mode, 0o644, "node_exporter must be able to read it");
    let samples = samples(&prom);
    assert_eq!(samples["yinsh_pbem_spool_waiting"], 1, "{prom}");
    assert_eq!(samples["yinsh_pbem_games_going_on"], 1, "{prom}");
    assert_eq!(samples["yinsh_pbem_boards_total"], 1, "{prom}");
    assert_eq!(
        samples["yinsh_pbem_status_timestamp_seconds"], home.now,
        "{prom}"
    );
    assert!(
        samples["yinsh_pbem_spool_oldest_age_seconds"] < 600,
        "{prom}"
    );
    assert!(samples["yinsh_pbem_disk_free_bytes"] > 0, "{prom}");
    assert_eq!(
        samples["yinsh_pbem_last_tick_timestamp_seconds"], 0,
        "never ran: 0, present from the start"
    );
    assert_eq!(
        samples[&format!(
            "yinsh_pbem_build_info{{version=\"{}\"}}",
            env!("CARGO_PKG_VERSION")
        )],
        1,
        "{prom}"
    );
    assert_eq!(
        samples["yinsh_pbem_run_failures_total{run=\"flush\"}"], 0,
        "{prom}"
    );
    // The same figures on stdout; the free space of the disk may have moved between
    // the two runs (other processes write to it), so its value is left out.
    let steady = |text: &str| -> String {
        text.lines()
            .filter(|l| !l.starts_with("yinsh_pbem_disk_free_bytes "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let stdout = run(&["--prometheus"]);
    assert!(stdout.contains("\nyinsh_pbem_disk_free_bytes "), "{stdout}");
    assert_eq!(steady(&stdout), steady(&prom), "stdout and file differ");
    assert!(run(&[]).contains("games going on:       1 with a person to move"));
}

/// Issue 30, status: the last mail handled is read from the day folders of `seen/`
/// (`YYYY-MM-DD`), so after a mail delivered through the real binary `status` names
/// its time (the folder's last change, the real clock), in the text and in the
/// Prometheus figures; a store that has handled no mail says "never".
#[test]
fn status_names_the_last_mail_handled() {
    let mut s = crate::support::server::TestServer::with_binary();
    let figures = |s: &crate::support::server::TestServer| {
        let mut settings = Settings::defaults(s.home());
        settings.now = Some(s.now);
        status(&settings).expect("status")
    };
    let empty = Home::new();
    let mut settings = Settings::defaults(empty.path().to_path_buf());
    settings.now = Some(empty.now);
    let never = status(&settings).expect("status");
    assert_eq!(never.last_mail, None);
    assert!(never.text().contains("last mail handled:    never"));
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    s.send("alice@example.org", "yinsh help", "");
    let last = figures(&s).last_mail.expect("a mail was handled");
    assert!(
        last + 1 >= before && last <= before + 600,
        "{last} against {before}"
    );
    let prom = figures(&s).prometheus();
    assert!(
        prom.contains(&format!(
            "\nyinsh_pbem_last_mail_timestamp_seconds {last}\n"
        )),
        "{prom}"
    );
}

/// Runs the binary with `args` and the variables `envs`; exit code, stdout, stderr.
fn binary(args: &[&std::ffi::OsStr], envs: &[(&str, &str)]) -> (Option<i32>, String, String) {
    let out = bin::assert_command()
        .args(args)
        .envs(envs.iter().copied())
        .write_stdin(&b"From: a@example.org\nSubject: yinsh help\n\n"[..])
        .output()
        .expect("run");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Issue 48, status: a home no run has made yet is a healthy empty server: exit 0,
/// zeros (every metric present), and `status` makes nothing there.
#[test]
fn status_of_a_fresh_home_is_zeros_and_makes_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let home = tmp.path().join("games");
    let h = home.as_os_str();
    let (code, text, err) = binary(&["status".as_ref(), "--home".as_ref(), h], &[]);
    assert_eq!(code, Some(0), "{text}{err}");
    assert!(text.contains("spool:                0 waiting"), "{text}");
    assert!(text.contains("last flush:           never"), "{text}");
    let (code, prom, err) = binary(
        &[
            "status".as_ref(),
            "--home".as_ref(),
            h,
            "--prometheus".as_ref(),
        ],
        &[],
    );
    assert_eq!(code, Some(0), "{prom}{err}");
    let samples = samples(&prom);
    for name in [
        "yinsh_pbem_spool_waiting",
        "yinsh_pbem_boards_total",
        "yinsh_pbem_mails_total",
        "yinsh_pbem_last_flush_timestamp_seconds",
        "yinsh_pbem_last_mail_timestamp_seconds",
        "yinsh_pbem_games_going_on",
    ] {
        assert_eq!(samples.get(name), Some(&0), "{name}: {prom}");
    }
    assert_eq!(samples["yinsh_pbem_up"], 1);
    assert!(!home.exists(), "status made the home");
}

/// Issue 48, status: the counters count what the runs did: each mail `deliver`
/// handled, the replies it wrote, a mail delivered again left unanswered; kept
/// across runs.
#[test]
fn status_counts_the_mails_and_replies_of_the_runs() {
    let mut s = crate::support::server::TestServer::with_binary();
    let a = s.send("alice@example.org", "signup alice apw", "");
    let help = s.mail("bob@example.org", "yinsh help", "");
    let b = s.send_raw(help.as_bytes());
    assert!(s.send_raw(help.as_bytes()).is_empty(), "already handled");
    let mut settings = Settings::defaults(s.home());
    settings.now = Some(s.now);
    let figures = status(&settings).expect("status");
    let prom = figures.prometheus();
    let samples = samples(&prom);
    assert_eq!(samples["yinsh_pbem_mails_total"], 3, "{prom}");
    assert_eq!(samples["yinsh_pbem_mails_unanswered_total"], 1, "{prom}");
    assert_eq!(
        samples["yinsh_pbem_replies_sent_total"],
        (a.len() + b.len()) as u64,
        "{prom}"
    );
    assert_eq!(samples["yinsh_pbem_run_failures_total{run=\"deliver\"}"], 0);
}

/// Issue 48, logs: a failing `flush` or `tick` says why on stderr with a level: `<3>`
/// (err) where stderr is the journal's (systemd sets JOURNAL_STREAM), `error: `
/// elsewhere; a failing `deliver` says nothing on stderr (its mail system would
/// bounce it), only exit 75.
#[test]
fn a_failing_run_says_why_on_stderr_with_a_level_but_deliver_stays_quiet() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // A home that is a file: no store can be opened there.
    let home = tmp.path().join("games");
    std::fs::write(&home, b"not a folder").expect("file");
    let h = home.as_os_str();
    for run in ["flush", "tick"] {
        let (code, _, err) = binary(&[run.as_ref(), "--home".as_ref(), h], &[]);
        assert_eq!(code, Some(75), "{run}: {err}");
        assert!(
            err.starts_with("error: internal failure, exit 75: "),
            "{run}: {err}"
        );
        assert!(
            err.contains(&*home.to_string_lossy()),
            "the cause names the home: {err}"
        );
        let (code, _, err) = binary(
            &[run.as_ref(), "--home".as_ref(), h],
            &[("JOURNAL_STREAM", "8:12345")],
        );
        assert_eq!(code, Some(75));
        assert!(
            err.starts_with("<3>internal failure, exit 75: "),
            "{run}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    let (code, out, err) = binary(
        &["deliver".as_ref(), "--home".as_ref(), h],
        &[("JOURNAL_STREAM", "8:12345")],
    );
    assert_eq!((code, out.as_str(), err.as_str()), (Some(75), "", ""));
}

/// Issue 48, the refused counter: the replies the gate holds back are counted by
/// reason across runs (a stranger's mails past an unconfirmed address's daily quota:
/// `budget`), shown by `status` and in the Prometheus file, which `promtool check
/// metrics` still accepts.
#[test]
fn status_counts_the_replies_the_gate_refused_by_reason() {
    let mut s = crate::support::server::TestServer::confirming();
    let sent: usize = (0..7)
        .map(|_| s.send("eve@example.org", "yinsh help", "").len())
        .sum();
    assert_eq!(sent, 5, "an unconfirmed address gets 5 mails a day");
    let mut settings = Settings::defaults(s.home());
    settings.now = Some(s.now);
    let figures = status(&settings).expect("status");
    assert_eq!(figures.counters.refused.budget, 2, "{figures:?}");
    assert_eq!(figures.counters.refused.total(), 2, "{figures:?}");
    let text = figures.text();
    assert!(
        text.contains("replies refused:      2 by the gate (budget 2, failing 0,"),
        "{text}"
    );
    let prom = figures.prometheus();
    let samples = samples(&prom);
    assert_eq!(
        samples["yinsh_pbem_replies_refused_total{reason=\"budget\"}"], 2,
        "{prom}"
    );
    for reason in ["failing", "foreign_text", "not_operator", "gate_closed"] {
        assert_eq!(
            samples[&format!("yinsh_pbem_replies_refused_total{{reason=\"{reason}\"}}")],
            0,
            "{prom}"
        );
    }
    if let Some(promtool) = crate::alerts::promtool() {
        crate::alerts::check_metrics(&promtool, &prom);
    }
}
