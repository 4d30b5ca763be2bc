//! Issue 30, `yinsh-pbem status`: the operator's figures (spool, last tick and flush,
//! last mail, failing addresses, unconfirmed accounts, robots' time, games going on
//! and due, boards, disk) as text and in the Prometheus text format, into a file
//! written whole; taken from indexes and small files, never from the game files.

use std::path::Path;

use yinsh_pbem::mail::{BuiltMail, Spool};
use yinsh_pbem::server::config::Settings;
use yinsh_pbem::server::run::status::{Run, mark_run, status};
use yinsh_pbem::server::store::OwedReview;

use crate::support::bin;
use crate::support::exec::Home;

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
    mark_run(home.path(), Run::Tick, now - 120);
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
        .put_owed_review(&OwedReview::new(101.into(), now))
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
/// (each gauge with HELP and TYPE, names `yinsh_pbem_*`, integer values), readable by
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
    let mut samples = std::collections::BTreeMap::new();
    let mut typed = std::collections::BTreeSet::new();
    for line in prom.lines() {
        if let Some(rest) = line.strip_prefix("# TYPE ") {
            let (name, kind) = rest.split_once(' ').expect("TYPE name kind");
            assert_eq!(kind, "gauge");
            typed.insert(name.to_string());
        } else if !line.starts_with("# HELP yinsh_pbem_") {
            let (name, value) = line.split_once(' ').expect("name value");
            assert!(name.starts_with("yinsh_pbem_"), "{line}");
            assert!(typed.contains(name), "{name} has no TYPE line before it");
            samples.insert(name.to_string(), value.parse::<u64>().expect("integer"));
        }
    }
    assert_eq!(samples["yinsh_pbem_spool_waiting"], 1, "{prom}");
    assert_eq!(samples["yinsh_pbem_games_going_on"], 1, "{prom}");
    assert_eq!(samples["yinsh_pbem_boards"], 1, "{prom}");
    assert_eq!(
        samples["yinsh_pbem_status_timestamp_seconds"], home.now,
        "{prom}"
    );
    assert!(samples.contains_key("yinsh_pbem_spool_oldest_timestamp_seconds"));
    assert!(samples["yinsh_pbem_disk_free_bytes"] > 0, "{prom}");
    assert!(
        !samples.contains_key("yinsh_pbem_last_tick_timestamp_seconds"),
        "never ran"
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
