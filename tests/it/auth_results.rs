//! `[security] trusted_authserv_id` (issue 25, defence in depth for a forged From):
//! read from the config file and shown by `check-config`; with it, the
//! `Authentication-Results` headers of that id in a mail say whether its From failed
//! DMARC (or DKIM and SPF), and headers naming another id are ignored; every header
//! of that id is read (issue 45); `require_dmarc_pass` read and shown.

use std::ffi::OsString;
use std::path::Path;

use yinsh_pbem::mail::auth_results::{FromAuth, TokenRule};
use yinsh_pbem::mail::parse_inbound;
use yinsh_pbem::server::config::{Overrides, resolve_with};

use crate::support::bin;

/// The settings of a home whose config file is `config`.
fn settings(dir: &Path, config: &str) -> yinsh_pbem::server::Settings {
    let path = dir.join("y.toml");
    std::fs::write(&path, config).expect("config");
    let o = Overrides {
        config: Some(path),
        home: Some(dir.join("home")),
        ..Overrides::default()
    };
    let env = |_: &str| None::<OsString>;
    resolve_with(&o, &env).expect("settings").settings
}

/// A mail from alice with these headers on top.
fn mail_with(headers: &str) -> yinsh_pbem::mail::InboundMail {
    let raw = format!(
        "{headers}From: Alice <alice@example.org>\nSubject: yinsh move 101 alice apw e5\nMessage-ID: <f1@evil.test>\n\nhi\n"
    );
    parse_inbound(raw.as_bytes()).expect("mail")
}

/// `check-config` of a home in `dir` with the config file `config`: (exit code,
/// stdout and stderr).
fn check_config(dir: &Path, config: &str) -> (Option<i32>, String) {
    let cfg = dir.join("y.toml");
    std::fs::write(&cfg, config).expect("config");
    let out = bin::command()
        .arg("check-config")
        .arg("--config")
        .arg(&cfg)
        .arg("--home")
        .arg(dir.join("h"))
        .output()
        .expect("check-config");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (out.status.code(), text)
}

#[test]
fn the_trusted_authserv_id_is_read_and_judges_only_its_own_headers() {
    let dir = crate::support::tmp::dir();
    assert_eq!(settings(dir.path(), "").trusted_authserv_id, None);
    let s = settings(
        dir.path(),
        "[security]\ntrusted_authserv_id = \"mail.yinsh.example\"\n",
    );
    let trusted = s.trusted_authserv_id.expect("set");
    assert_eq!(trusted, "mail.yinsh.example");
    // opendmarc's verdict on a forged From, written by our MTA.
    let forged = mail_with(
        "Authentication-Results: mail.yinsh.example; dmarc=fail (p=reject dis=none) header.from=example.org\n\
         Authentication-Results: mail.yinsh.example;\n\tdkim=none; spf=fail smtp.mailfrom=evil.test\n",
    );
    assert_eq!(forged.from_verdict(Some(&trusted)), FromAuth::Fail);
    // The forger's own header, with another id, changes nothing: ignored.
    let with_theirs = mail_with(
        "Authentication-Results: mail.yinsh.example; dmarc=fail header.from=example.org\n\
         Authentication-Results: evil.test; dmarc=pass header.from=example.org; dkim=pass header.d=example.org\n",
    );
    assert_eq!(with_theirs.from_verdict(Some(&trusted)), FromAuth::Fail);
    let only_theirs =
        mail_with("Authentication-Results: evil.test; dmarc=fail; dkim=fail; spf=fail\n");
    assert_eq!(only_theirs.from_verdict(Some(&trusted)), FromAuth::Unknown);
    let genuine = mail_with(
        "Authentication-Results: MAIL.yinsh.example; dkim=pass header.d=example.org; dmarc=pass header.from=example.org\n",
    );
    assert_eq!(genuine.from_verdict(Some(&trusted)), FromAuth::Pass);
}

#[test]
fn check_config_shows_the_trusted_authserv_id_and_refuses_a_broken_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let check = |config: &str| check_config(dir.path(), config);
    let (code, out) = check("");
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("trusted authserv:   none"), "{out}");
    let (code, out) = check("[security]\ntrusted_authserv_id = \"mx.yinsh.example\"\n");
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("trusted authserv:   mx.yinsh.example ("),
        "{out}"
    );
    let (code, out) = check("[security]\ntrusted_authserv_id = \"mx; dmarc=pass\"\n");
    assert_ne!(code, Some(0), "{out}");
    assert!(out.contains("trusted_authserv_id"), "{out}");
}

/// Issue 45 attack 3: every header of the trusted id is read, however many forged
/// ones come first (it was the first 20 of any id: 30 forged ones on top pushed the
/// trusted one a mail system appends below them out); one longer than 4,096 bytes is
/// left out.
#[test]
fn every_trusted_header_is_read_below_any_number_of_forged_ones() {
    let headers = "Authentication-Results: evil.test; dmarc=pass\n".repeat(30)
        + "Authentication-Results: mx.y.example; dmarc=fail header.from=example.org\n";
    let m = mail_with(&headers);
    assert_eq!(m.auth_results.len(), 31);
    assert_eq!(m.from_verdict(Some("mx.y.example")), FromAuth::Fail);
    let long = format!(
        "Authentication-Results: mx.y.example; dmarc=fail{}\n",
        " (x)".repeat(2000)
    );
    assert!(mail_with(&long).auth_results.is_empty());
}

/// Issue 45 attack 3: `require_dmarc_pass` is read, shown by `check-config`, and
/// refused without a trusted id (no From would ever pass).
#[test]
fn require_dmarc_pass_is_read_shown_and_needs_a_trusted_id() {
    let dir = crate::support::tmp::dir();
    assert_eq!(settings(dir.path(), "").token_rule, TokenRule::NotFailed);
    let strict =
        "[security]\ntrusted_authserv_id = \"mx.yinsh.example\"\nrequire_dmarc_pass = true\n";
    assert_eq!(
        settings(dir.path(), strict).token_rule,
        TokenRule::TrustedPass
    );
    let (code, out) = check_config(dir.path(), strict);
    assert_eq!(code, Some(0), "{out}");
    assert!(
        out.contains("token proofs:       a Reply or play link proves its player only when"),
        "{out}"
    );
    let (code, out) = check_config(dir.path(), "[security]\nrequire_dmarc_pass = true\n");
    assert_ne!(code, Some(0), "{out}");
    assert!(
        out.contains("require_dmarc_pass = true needs trusted_authserv_id"),
        "{out}"
    );
}
