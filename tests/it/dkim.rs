//! Issue 30, DKIM: with `[dkim] domain, selector, key_file` every reply leaves with a
//! `DKIM-Signature` (Ed25519 or RSA, relaxed/relaxed), by a sendmail program and by
//! SMTP (the outbox folder, for tests and dry runs, is written unsigned); `check-config` prints the TXT record to publish, and an independent verifier
//! (dkimpy, `scripts/dkim-verify.py`, the record given directly instead of DNS)
//! accepts the signatures of real replies with exactly that record, and refuses a
//! reply changed on the way. A key file that cannot be used is named by
//! `check-config` and keeps the replies in the spool (as a relay that cannot be
//! reached does) rather than sending them unsigned. A key file its group or others
//! may read is a `check-config` problem (issue 45).
//!
//! Skipped (with a message) when python3 with dkimpy or openssl is missing, except
//! under CI (the `CI` environment variable set), where that is a failure.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::smtp_e2e::{Sink, aiosmtpd_available, wait_for};
use crate::support::bin;
use crate::support::server::TestServer;

/// The two key kinds DKIM signs with.
#[derive(Debug, Clone, Copy)]
enum Kind {
    Ed25519,
    Rsa,
}

/// Whether the tools of these tests are here; `false` (after a message) skips the
/// test, except under CI, where their absence fails it.
fn tools_available(test: &str) -> bool {
    let works = |prog: &str, args: &[&str]| {
        Command::new(prog)
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if works("python3", &["-c", "import dkim, nacl"]) && works("openssl", &["version"]) {
        return true;
    }
    if std::env::var_os("CI").is_some() {
        panic!("CI is set but python3 with dkimpy and pynacl, or openssl, is missing");
    }
    eprintln!(
        "SKIPPED {test}: python3 with dkimpy and pynacl (pip install dkimpy pynacl) or openssl is missing"
    );
    false
}

/// A new private key of `kind` in `dir`, made by openssl.
fn new_key(dir: &Path, kind: Kind) -> PathBuf {
    let path = dir.join(format!("{kind:?}.key").to_lowercase());
    let mut cmd = Command::new("openssl");
    cmd.arg("genpkey").arg("-out").arg(&path);
    match kind {
        Kind::Ed25519 => cmd.args(["-algorithm", "ed25519"]),
        Kind::Rsa => cmd.args(["-algorithm", "rsa", "-pkeyopt", "rsa_keygen_bits:2048"]),
    };
    let out = cmd.output().expect("run openssl");
    assert!(out.status.success(), "openssl genpkey: {out:?}");
    path
}

/// A sendmail program that saves each mail it is given into `dir` (`<n>.eml`).
fn fake_sendmail(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt as _;
    let out = dir.join("sent");
    std::fs::create_dir_all(&out).expect("sent dir");
    let prog = dir.join("sendmail");
    std::fs::write(
        &prog,
        format!(
            "#!/bin/sh
cat > \"{}/$$-$(date +%s%N).eml\"\n",
            out.display()
        ),
    )
    .expect("write sendmail");
    std::fs::set_permissions(&prog, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    format!(
        "[transport]\nkind = \"sendmail\"\npath = \"{}\"",
        prog.display()
    )
}

/// The mails [`fake_sendmail`] saved in `dir`.
fn sent_by_sendmail(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir.join("sent"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.sort();
    v
}

/// Writes `<home>/config.toml` with a `[dkim]` section for `key` (and `extra` lines
/// before it).
fn write_config(home: &Path, key: &Path, extra: &str) {
    std::fs::create_dir_all(home).expect("home");
    std::fs::write(
        home.join("config.toml"),
        format!(
            "from = \"YINSH PBeM <yinsh@yinsh.test>\"\n{extra}\n[dkim]\ndomain = \"yinsh.test\"\n\
             selector = \"sel1\"\nkey_file = \"{}\"\n",
            key.display()
        ),
    )
    .expect("config");
}

/// `check-config`'s output for `home` (exit code checked to be 0).
fn check_config(home: &Path) -> String {
    let out = bin::command()
        .arg("check-config")
        .arg("--home")
        .arg(home)
        .output()
        .expect("check-config");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(0), "check-config: {text}{out:?}");
    text
}

/// The record `check-config` says to publish: (DNS name, TXT text with its quoted
/// pieces joined).
fn published_record(check: &str) -> (String, String) {
    let line = check
        .lines()
        .find(|l| l.contains(" IN TXT "))
        .unwrap_or_else(|| panic!("no TXT record in check-config's output: {check}"));
    let (name, quoted) = line.trim().split_once(" IN TXT ").expect("IN TXT");
    let text: String = quoted.split('"').skip(1).step_by(2).collect();
    (name.to_string(), text)
}

/// Runs `scripts/dkim-verify.py` on `mails`: (all passed, its output).
fn verify(record: &(String, String), mails: &[PathBuf]) -> (bool, String) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/dkim-verify.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&record.0)
        .arg(&record.1)
        .args(mails)
        .output()
        .expect("run dkim-verify.py");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

/// Issue 30, DKIM: replies handed to a sendmail program (LF line ends, as local
/// submission takes them) carry a signature that dkimpy verifies with the record
/// `check-config` prints, for an Ed25519 and an RSA key; a reply whose body changed
/// fails.
#[test]
fn replies_are_signed_and_verify_with_the_record_check_config_prints() {
    if !tools_available("replies_are_signed_and_verify_with_the_record_check_config_prints") {
        return;
    }
    for kind in [Kind::Ed25519, Kind::Rsa] {
        let mut s = TestServer::new();
        let key = new_key(s.dir.path(), kind);
        let transport = fake_sendmail(s.dir.path());
        write_config(&s.home(), &key, &transport);
        let check = check_config(&s.home());
        let algorithm = match kind {
            Kind::Ed25519 => "ed25519-sha256",
            Kind::Rsa => "rsa-sha256",
        };
        assert!(
            check.contains(&format!("dkim:               {algorithm} key")),
            "{check}"
        );
        let record = published_record(&check);
        assert_eq!(record.0, "sel1._domainkey.yinsh.test", "{check}");
        let mail = s.mail("Alice <alice@example.org>", "help", "");
        assert_eq!(s.deliver_raw(mail.as_bytes()), 0);
        let files = sent_by_sendmail(s.dir.path());
        assert!(!files.is_empty(), "help got no reply");
        for f in &files {
            let raw = std::fs::read_to_string(f).expect("read reply");
            assert!(
                raw.starts_with("DKIM-Signature: v=1; a=") && raw.contains("d=yinsh.test; s=sel1;"),
                "{kind:?}: {raw}"
            );
        }
        let (ok, out) = verify(&record, &files);
        assert!(ok, "{kind:?}: dkimpy refused a signature: {out}");
        // Changed on the way: the verifier must notice (it really checks).
        let changed = s.dir.path().join("changed.eml");
        let raw = std::fs::read_to_string(&files[0]).expect("read reply");
        let (head, body) = raw.split_once("\n\n").expect("a body");
        std::fs::write(&changed, format!("{head}\n\nX{body}")).expect("write");
        let (ok, out) = verify(&record, &[changed]);
        assert!(
            !ok && out.contains("FAIL"),
            "{kind:?}: a changed body verified: {out}"
        );
    }
}

/// Issue 45 attack 7, DKIM over-signing: a signed reply with a second `Subject:` (or
/// a `Cc:`) added on top no longer verifies for our domain, while the reply as sent
/// does.
#[test]
fn a_header_added_on_top_of_a_signed_reply_fails_verification() {
    if !tools_available("a_header_added_on_top_of_a_signed_reply_fails_verification") {
        return;
    }
    let mut s = TestServer::new();
    let key = new_key(s.dir.path(), Kind::Ed25519);
    let transport = fake_sendmail(s.dir.path());
    write_config(&s.home(), &key, &transport);
    let record = published_record(&check_config(&s.home()));
    let mail = s.mail("Alice <alice@example.org>", "help", "");
    assert_eq!(s.deliver_raw(mail.as_bytes()), 0);
    let files = sent_by_sendmail(s.dir.path());
    assert!(!files.is_empty(), "help got no reply");
    let (ok, out) = verify(&record, &files[..1]);
    assert!(ok, "the reply as sent does not verify: {out}");
    let raw = std::fs::read_to_string(&files[0]).expect("read reply");
    assert!(raw.contains("\nSubject: "), "{raw}");
    for added in ["Subject: Your password, please", "Cc: mallory@example.net"] {
        let forged = s.dir.path().join("forged.eml");
        std::fs::write(&forged, format!("{added}\n{raw}")).expect("write");
        let (ok, out) = verify(&record, &[forged]);
        assert!(
            !ok && out.contains("FAIL"),
            "a reply with `{added}` added on top verified: {out}"
        );
    }
}

/// Issue 30, DKIM: replies sent by SMTP (the real binary to a real SMTP server) are
/// signed, and dkimpy verifies them as received.
#[test]
fn replies_sent_by_smtp_are_signed_and_verify() {
    if !tools_available("replies_sent_by_smtp_are_signed_and_verify") {
        return;
    }
    if !aiosmtpd_available() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but python3 with aiosmtpd is not available"
        );
        eprintln!("SKIPPED replies_sent_by_smtp_are_signed_and_verify: no aiosmtpd");
        return;
    }
    let mut s = TestServer::with_binary();
    let mail_dir = s.dir.path().join("smtp-received");
    let sink = Sink::start(&mail_dir, 0);
    let key = new_key(s.dir.path(), Kind::Ed25519);
    write_config(
        &s.home(),
        &key,
        &format!("[transport]\nkind = \"smtp\"\nurl = \"{}\"", sink.url()),
    );
    let record = published_record(&check_config(&s.home()));
    let mail = s.mail("Alice <alice@example.org>", "help", "");
    assert_eq!(s.deliver_raw(mail.as_bytes()), 0);
    let got = wait_for(&mail_dir, 1, 0);
    let files: Vec<PathBuf> = got
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let p = s.dir.path().join(format!("received-{i}.eml"));
            std::fs::write(&p, &m.raw).expect("write");
            p
        })
        .collect();
    let (ok, out) = verify(&record, &files);
    assert!(
        ok,
        "dkimpy refused a signature of a mail sent by SMTP: {out}"
    );
}

/// Issue 30, DKIM: a key file that cannot be used is named by `check-config`, and a
/// reply is kept in the spool rather than sent unsigned.
#[test]
fn an_unusable_key_is_named_and_keeps_replies_in_the_spool() {
    let mut s = TestServer::new();
    let key = s.dir.path().join("not-a-key.pem");
    std::fs::write(&key, "hello\n").expect("write");
    let transport = fake_sendmail(s.dir.path());
    write_config(&s.home(), &key, &transport);
    let out = bin::command()
        .arg("check-config")
        .arg("--home")
        .arg(s.home())
        .output()
        .expect("check-config");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("holds no PEM private key") && text.contains("openssl genpkey"),
        "{text}"
    );
    assert_ne!(out.status.code(), Some(0), "{text}");
    let mail = s.mail("Alice <alice@example.org>", "help", "");
    assert_eq!(s.deliver_raw(mail.as_bytes()), 0);
    assert!(
        sent_by_sendmail(s.dir.path()).is_empty(),
        "an unsigned reply left"
    );
    let spooled = std::fs::read_dir(s.home().join("spool"))
        .expect("spool")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "msg"))
        })
        .count();
    assert!(spooled > 0, "the reply is not in the spool");
}

/// Issue 45 attack 8: a private key file its group or others may read is a
/// `check-config` problem (non-zero exit), naming the file, its mode and the fix;
/// mode 0600 is none.
#[test]
fn a_key_file_others_can_read_is_a_check_config_problem() {
    use std::os::unix::fs::PermissionsExt as _;
    if !tools_available("a_key_file_others_can_read_is_a_check_config_problem") {
        return;
    }
    let s = TestServer::new();
    let key = new_key(s.dir.path(), Kind::Ed25519);
    write_config(&s.home(), &key, "");
    let check = || {
        let out = bin::command()
            .arg("check-config")
            .arg("--home")
            .arg(s.home())
            .output()
            .expect("check-config");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    for mode in [0o644, 0o640, 0o604] {
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(mode)).expect("chmod");
        let (code, out) = check();
        assert_ne!(code, Some(0), "{mode:o}: {out}");
        let said = format!(
            "dkim: the private key file {} has mode {mode:04o}",
            key.display()
        );
        assert!(out.contains(&said), "{mode:o}: {out}");
        assert!(
            out.contains(&format!("chmod 600 {}", key.display())),
            "{out}"
        );
    }
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    let (code, out) = check();
    assert_eq!(code, Some(0), "{out}");
    assert!(!out.contains("has mode"), "{out}");
}
