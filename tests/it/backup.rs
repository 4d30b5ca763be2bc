//! Issue 48, backups and dry runs: `yinsh-pbem backup FILE` and `restore FILE` carry
//! a busy store (a game in play, replies waiting in the spool) to another home that
//! plays on (the next move by mail, the spooled replies sent by flush, an old mail
//! replayed recognised as seen); `restore` refuses a home that holds files and an
//! archive that is not a backup; `deliver --dry-run` says what a mail would do and
//! writes nothing.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::support::bin;
use crate::support::server::TestServer;

/// Every file under `dir` (by its path inside `dir`) with its bytes, but the lock
/// files (which the runs open, and which a backup leaves out).
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("read a folder") {
            let path = entry.expect("entry").path();
            let rel = path.strip_prefix(dir).expect("inside").to_path_buf();
            if path.is_dir() {
                todo.push(path);
            } else if rel != Path::new("lock") && rel != Path::new("counters.lock") {
                out.insert(rel, std::fs::read(&path).expect("read a file"));
            }
        }
    }
    out
}

/// A sendmail script at `path` running `body`.
fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).expect("script");
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Runs the binary with `args` at the clock `now`; returns exit code, stdout, stderr.
fn run(args: &[&std::ffi::OsStr], now: u64, stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut cmd = bin::assert_command();
    cmd.args(args).env("YINSH_PBEM_NOW", now.to_string());
    if let Some(input) = stdin {
        cmd.write_stdin(input.to_vec());
    }
    let out = cmd.output().expect("run yinsh-pbem");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `yinsh-pbem backup --home <home> <archive>`: exit code, stdout, stderr.
fn backup(home: &Path, archive: &Path, now: u64) -> (i32, String, String) {
    run(
        &[
            os("backup"),
            os("--home"),
            home.as_os_str(),
            archive.as_os_str(),
        ],
        now,
        None,
    )
}

/// `yinsh-pbem restore --home <home> <archive>`: exit code, stdout, stderr.
fn restore(home: &Path, archive: &Path, now: u64) -> (i32, String, String) {
    run(
        &[
            os("restore"),
            os("--home"),
            home.as_os_str(),
            archive.as_os_str(),
        ],
        now,
        None,
    )
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// The turns of board 101 in `home`.
fn turns(home: &Path) -> usize {
    let text = std::fs::read_to_string(home.join("boards/101.json")).expect("board 101");
    let game: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    game["turns"].as_array().expect("turns").len()
}

/// Issue 48, backup: a store with a game in play and replies waiting in the spool
/// (its sendmail failing) is backed up and restored into another home, file for file;
/// there the next move by mail is played, flush sends the replies that were waiting,
/// and the first move's mail delivered again is recognised as already handled.
#[test]
fn backup_and_restore_carry_a_busy_store_that_plays_on() {
    let tmp = crate::support::tmp::dir();
    let failing = tmp.path().join("failing-sendmail");
    script(&failing, "cat >/dev/null; exit 75");
    let mut s = TestServer::with_binary();
    s.args = vec!["--sendmail".into(), failing.display().to_string()];
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let first_move = s.mail("alice@example.org", "yinsh move 101 alice apw e5", "");
    s.send_raw(first_move.as_bytes());
    let home = s.home();
    assert_eq!(turns(&home), 1, "alice's ring placed");
    let waiting = std::fs::read_dir(home.join("spool"))
        .expect("spool")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".msg"))
        .count();
    assert!(waiting >= 4, "the replies wait in the spool: {waiting}");

    let archive = tmp.path().join("store.tar");
    let (code, out, err) = backup(&home, &archive, s.now);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("backed up "), "{out}");
    use std::os::unix::fs::PermissionsExt as _;
    let mode = std::fs::metadata(&archive)
        .expect("archive")
        .permissions()
        .mode();
    assert_eq!(
        mode & 0o777,
        0o600,
        "it holds password hashes and the reply key"
    );

    // Restored elsewhere: the same files, the reply key and seen marks among them.
    let restored = tmp.path().join("restored");
    let (code, out, err) = restore(&restored, &archive, s.now);
    assert_eq!(code, 0, "{out}{err}");
    let (old, new) = (files(&home), files(&restored));
    assert_eq!(
        old.keys().collect::<Vec<_>>(),
        new.keys().collect::<Vec<_>>()
    );
    assert!(old == new, "a restored file differs");
    assert!(new.contains_key(Path::new("reply-key")));
    assert!(
        new.keys().any(|p| p.starts_with("seen")),
        "{:?}",
        new.keys()
    );
    let accounts = std::fs::metadata(restored.join("accounts")).expect("accounts");
    assert_eq!(accounts.permissions().mode() & 0o777, 0o700);

    // The restored store plays on, its replies now leaving through a working sendmail.
    let sent = tmp.path().join("sent");
    std::fs::create_dir(&sent).expect("sent");
    let working = tmp.path().join("working-sendmail");
    script(
        &working,
        &format!("cat > \"{}/$$-$(date +%s%N).eml\"", sent.display()),
    );
    let server = |home: &Path| {
        vec![
            os("--home").to_owned(),
            home.as_os_str().to_owned(),
            os("--sendmail").to_owned(),
            working.as_os_str().to_owned(),
        ]
    };
    let with = |cmd: &str, home: &Path| {
        let mut v = vec![os(cmd).to_owned()];
        v.extend(server(home));
        v
    };
    fn args(v: &[std::ffi::OsString]) -> Vec<&std::ffi::OsStr> {
        v.iter().map(|a| a.as_os_str()).collect()
    }
    let later = s.now + 3 * 3600;
    let next = s.mail("bob@example.org", "yinsh move 101 bob bpw f6", "");
    let (code, out, err) = run(
        &args(&with("deliver", &restored)),
        later,
        Some(next.as_bytes()),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(
        turns(&restored),
        2,
        "bob's move played on the restored store"
    );
    let (code, out, err) = run(&args(&with("flush", &restored)), later + 60, None);
    assert_eq!(code, 0, "{out}{err}");
    let spool_left = std::fs::read_dir(restored.join("spool"))
        .expect("spool")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".msg"))
        .count();
    assert_eq!(spool_left, 0, "flush sent what the backup carried");
    let mails = std::fs::read_dir(&sent).expect("sent").count();
    assert!(
        mails > waiting,
        "{mails} sent, {waiting} were waiting before the backup"
    );
    // alice's first move, delivered again to the restored store: already handled.
    let (code, out, err) = run(
        &args(&with("deliver", &restored)),
        later + 120,
        Some(first_move.as_bytes()),
    );
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(turns(&restored), 2, "the old mail was not played again");
    let log = std::fs::read_to_string(restored.join("log/yinsh-pbem.log")).expect("log");
    assert!(log.contains("already handled"), "{log}");
    // The original home was never touched by any of it.
    assert!(files(&home) == old, "the backed-up home changed");
}

/// Issue 48, restore: a home that holds any file is refused (nothing unpacked into
/// it), and so is an archive that is not a backup (no reply-key, or an entry leading
/// out of the home); a backup of a home no run has made is refused.
#[test]
fn restore_refuses_a_home_with_files_and_an_archive_that_is_no_backup() {
    let tmp = crate::support::tmp::dir();
    let mut s = TestServer::with_binary();
    s.send("alice@example.org", "signup alice apw", "");
    let archive = tmp.path().join("store.tar");
    let home = s.home();
    let (code, _, err) = backup(&home, &archive, s.now);
    assert_eq!(code, 0, "{err}");
    let other = tmp.path().join("other");
    std::fs::create_dir(&other).expect("other");
    std::fs::write(other.join("notes"), b"mine").expect("a file");
    let (code, _, err) = restore(&other, &archive, s.now);
    assert_eq!(code, 1);
    assert!(err.contains("is not empty"), "{err}");
    assert_eq!(
        std::fs::read_dir(&other).expect("other").count(),
        1,
        "nothing unpacked"
    );
    // A tar of something else.
    let stranger = tmp.path().join("stranger.tar");
    let mut b = tar::Builder::new(std::fs::File::create(&stranger).expect("tar"));
    let mut header = tar::Header::new_gnu();
    header.set_size(4);
    header.set_mode(0o644);
    header.set_cksum();
    b.append_data(&mut header, "notes", &b"mine"[..])
        .expect("entry");
    b.finish().expect("finish");
    drop(b);
    let fresh = tmp.path().join("fresh");
    let (code, _, err) = restore(&fresh, &stranger, s.now);
    assert_eq!(code, 1);
    assert!(err.contains("holds no reply-key"), "{err}");
    assert!(!fresh.exists(), "nothing made");
    // An entry written to climb out of the home (the tar crate's own writer refuses
    // `..`, so the name is put in the header's bytes).
    let climbing = tmp.path().join("climbing.tar");
    let mut b = tar::Builder::new(std::fs::File::create(&climbing).expect("tar"));
    let mut header = tar::Header::new_gnu();
    header.as_old_mut().name[..13].copy_from_slice(b"../reply-key\0");
    header.set_size(4);
    header.set_mode(0o644);
    header.set_entry_type(tar::EntryType::Regular);
    header.set_cksum();
    b.append(&header, &b"mine"[..]).expect("entry");
    b.finish().expect("finish");
    drop(b);
    let (code, _, err) = restore(&fresh, &climbing, s.now);
    assert_eq!(code, 1);
    assert!(err.contains("a path outside the home"), "{err}");
    assert!(!fresh.exists() && !tmp.path().join("reply-key").exists());
    // No store to back up.
    let (code, _, err) = backup(&fresh, &archive, s.now);
    assert_eq!(code, 1);
    assert!(err.contains("holds no store"), "{err}");
}

/// Issue 48, `deliver --dry-run`: on a store with a game in play, a move by mail is
/// shown as the replies it would send and the files it would change, and the home is
/// the same before and after, file for file; then the same mail without `--dry-run`
/// does what the dry run said.
#[test]
fn a_dry_run_says_what_a_mail_would_do_and_writes_nothing() {
    let mut s = TestServer::with_binary();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let home = s.home();
    let before = files(&home);
    let mail = s.mail("alice@example.org", "yinsh move 101 alice apw e5", "");
    // Its scratch copy goes to the temp folder: one of the test's own here.
    let temp = crate::support::tmp::dir();
    let done = bin::assert_command()
        .args([
            os("deliver"),
            os("--dry-run"),
            os("--home"),
            home.as_os_str(),
        ])
        .env("YINSH_PBEM_NOW", (s.now + 60).to_string())
        .env("TMPDIR", temp.path())
        .write_stdin(mail.as_bytes().to_vec())
        .output()
        .expect("deliver --dry-run");
    let (out, err) = (
        String::from_utf8_lossy(&done.stdout),
        String::from_utf8_lossy(&done.stderr),
    );
    assert_eq!((done.status.code(), &*err), (Some(0), ""), "{out}");
    assert!(files(&home) == before, "the dry run wrote into the home");
    assert_eq!(
        std::fs::read_dir(temp.path()).expect("temp").count(),
        0,
        "the scratch copy was removed"
    );
    assert!(out.starts_with("dry run: nothing was written to "), "{out}");
    assert!(out.contains("would change: boards/101.json"), "{out}");
    let would: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("would send to "))
        .collect();
    assert!(
        would
            .iter()
            .any(|l| l.starts_with("bob@example.org: ") && l.contains("Board 101")),
        "{out}"
    );
    // The real run does what was said.
    let sent = s.send_raw(mail.as_bytes());
    assert_eq!(turns(&home), 1);
    assert!(
        sent.iter()
            .any(|m| m.to == ["bob@example.org"] && m.subject.contains("Board 101")),
        "{sent:?}"
    );
}
