//! The SMTP relay replies leave through: [`Smtp`] (a lettre URL and an optional CA
//! file), how it becomes a lettre transport with TLS that always verifies the
//! server's certificate (against the machine's roots, `/etc/ssl/certs` or
//! `SSL_CERT_FILE`, read by lettre's `rustls-native-certs`, plus the CA file's
//! certificates when one is set), what a failed send means ([`judge`]), and the login test of
//! `check-config --test-smtp` ([`test_login`]): connect, STARTTLS, AUTH, QUIT.
//!
//! There is no setting that turns certificate verification off: a relay with a
//! certificate of a private CA is reached by naming that CA's certificate in
//! `[transport] ca_file` (or `YINSH_PBEM_SMTP_CA_FILE`).

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use lettre::SmtpTransport;
use lettre::transport::smtp::Error as SmtpError;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};

/// An SMTP relay: where and how replies are sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Smtp {
    /// A lettre URL: `smtp://host:25` (plain), `smtp://host:587?tls=required` or
    /// `?tls=opportunistic` (STARTTLS), `smtps://host:465` (TLS), with
    /// `user:password@` for a login.
    pub url: String,
    /// A PEM file of CA certificates trusted besides the machine's roots.
    pub ca_file: Option<PathBuf>,
}

impl From<String> for Smtp {
    fn from(url: String) -> Smtp {
        Smtp { url, ca_file: None }
    }
}

impl From<&str> for Smtp {
    fn from(url: &str) -> Smtp {
        Smtp::from(url.to_string())
    }
}

impl fmt::Display for Smtp {
    /// The URL without its password, and the CA file when there is one.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`", redact_url(&self.url))?;
        if let Some(ca) = &self.ca_file {
            write!(f, " trusting the CA file `{}`", ca.display())?;
        }
        Ok(())
    }
}

/// Why an SMTP relay cannot be used at all (nothing was sent).
#[derive(Debug, thiserror::Error)]
pub enum SmtpSetupError {
    /// The URL is not one lettre understands.
    #[error(
        "{reason}; write it like smtp://host:25, smtp://user:pass@host:587?tls=required \
         or smtps://host:465"
    )]
    Url {
        /// lettre's words.
        reason: String,
    },
    /// The CA file cannot be read.
    #[error("cannot read the CA file {}: {source}", path.display())]
    CaRead {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The CA file holds no PEM certificate.
    #[error(
        "the CA file {} holds no PEM certificate (-----BEGIN CERTIFICATE-----)",
        path.display()
    )]
    CaPem {
        /// The file.
        path: PathBuf,
    },
    /// A CA file is set but the URL asks for no TLS, so it would be ignored.
    #[error(
        "a CA file is set but the URL uses no TLS: add ?tls=required (STARTTLS) or use \
         smtps:// (TLS from the first byte)"
    )]
    CaWithoutTls,
    /// The URL logs in (`user:password@`) with no TLS to a host that is not this
    /// machine: the password would cross the network in clear.
    #[error(
        "the URL logs in to {host} without TLS, so the password would cross the network \
         in clear: add ?tls=required (STARTTLS) or use smtps:// (TLS from the first byte)"
    )]
    LoginInClear {
        /// The URL's host.
        host: String,
    },
    /// lettre could not build the TLS parameters.
    #[error("TLS set-up: {reason}")]
    Tls {
        /// lettre's words.
        reason: String,
    },
}

/// How the URL asks for TLS.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TlsMode {
    None,
    Opportunistic,
    Required,
    Wrapper,
}

/// The URL's TLS mode and host (for the certificate's name), read with lettre's
/// own URL rules.
fn mode_and_host(url: &str) -> Result<(TlsMode, String), SmtpSetupError> {
    let bad = |reason: String| SmtpSetupError::Url { reason };
    let parsed = url::Url::parse(url).map_err(|e| bad(e.to_string()))?;
    let host = parsed
        .host_str()
        .ok_or_else(|| bad("the URL names no host".to_string()))?;
    // url writes an IPv6 host in brackets; a certificate names it without.
    let host = host
        .trim_start_matches('[')
        .trim_end_matches(']')
        .to_string();
    let tls = parsed
        .query_pairs()
        .find(|(k, _)| k == "tls")
        .map(|(_, v)| v.into_owned());
    let mode = match (parsed.scheme(), tls.as_deref()) {
        ("smtps", _) => TlsMode::Wrapper,
        ("smtp", None) => TlsMode::None,
        ("smtp", Some("required")) => TlsMode::Required,
        ("smtp", Some("opportunistic")) => TlsMode::Opportunistic,
        (scheme, tls) => {
            return Err(bad(format!(
                "unknown scheme `{scheme}` or tls parameter `{}`",
                tls.unwrap_or("")
            )));
        }
    };
    Ok((mode, host))
}

/// The certificates of the CA file, checked to hold at least one.
fn read_ca(path: &Path) -> Result<Certificate, SmtpSetupError> {
    let pem = std::fs::read(path).map_err(|source| SmtpSetupError::CaRead {
        path: path.to_path_buf(),
        source,
    })?;
    let no_pem = || SmtpSetupError::CaPem {
        path: path.to_path_buf(),
    };
    if !pem
        .windows(b"-----BEGIN CERTIFICATE-----".len())
        .any(|w| w == b"-----BEGIN CERTIFICATE-----")
    {
        return Err(no_pem());
    }
    Certificate::from_pem(&pem).map_err(|_| no_pem())
}

/// The lettre transport for `smtp`, each connection limited to `timeout`. With a CA
/// file, its certificates are trusted besides the machine's roots; the server's
/// certificate and name are always verified.
pub fn transport(smtp: &Smtp, timeout: Duration) -> Result<SmtpTransport, SmtpSetupError> {
    let (mode, host) = mode_and_host(&smtp.url)?;
    let mut builder = SmtpTransport::from_url(&smtp.url).map_err(|e| SmtpSetupError::Url {
        reason: e.to_string(),
    })?;
    if mode == TlsMode::None && has_login(&smtp.url) && !is_loopback(&host) {
        return Err(SmtpSetupError::LoginInClear { host });
    }
    if let Some(path) = &smtp.ca_file {
        if mode == TlsMode::None {
            return Err(SmtpSetupError::CaWithoutTls);
        }
        let ca = read_ca(path)?;
        let params = TlsParameters::builder(host)
            .add_root_certificate(ca)
            .build_rustls()
            .map_err(|e| SmtpSetupError::Tls {
                reason: e.to_string(),
            })?;
        let tls = match mode {
            // TlsMode::None was refused above.
            TlsMode::None | TlsMode::Required => Tls::Required(params),
            TlsMode::Opportunistic => Tls::Opportunistic(params),
            TlsMode::Wrapper => Tls::Wrapper(params),
        };
        builder = builder.tls(tls);
    }
    Ok(builder.timeout(Some(timeout)).build())
}

/// What a failed SMTP send means for the mail and the ones after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// The relay cannot be used now (no connection, TLS, the login refused, 421):
    /// the mail stays as it is, the rest of the flush is not tried.
    Unreachable,
    /// This mail failed for now (4xx): it waits, then is tried again.
    Later,
    /// This mail is refused for good (5xx to its envelope or data).
    Never,
}

/// SMTP reply codes that refuse the login, not the mail (RFC 4954): a set-up
/// problem of the server's own, never a reason to give a reply up.
const LOGIN_CODES: [&str; 4] = ["530", "534", "535", "538"];

/// What `e` means, and the sentence for the log: a refused login or an untrusted
/// certificate says which setting to fix.
pub fn judge(e: &SmtpError) -> (Verdict, String) {
    let code = e.status().map(|c| c.to_string());
    match code.as_deref() {
        Some(c) if LOGIN_CODES.contains(&c) => (
            Verdict::Unreachable,
            format!(
                "SMTP: the server refused the login ({e}): check the user and password in \
                 the [transport] url"
            ),
        ),
        Some("421") => (Verdict::Unreachable, format!("SMTP: {e}")),
        Some(_) if e.is_permanent() => (Verdict::Never, format!("SMTP: {e}")),
        Some(_) => (Verdict::Later, format!("SMTP: {e}")),
        // rustls's refusals reach lettre's blocking client as I/O errors.
        None if e.is_tls() || e.to_string().contains("certificate") => (
            Verdict::Unreachable,
            format!(
                "SMTP: TLS failed ({e}): is the server's certificate issued for the URL's \
                 host, by a CA of this machine's (/etc/ssl/certs) or in [transport] ca_file?"
            ),
        ),
        None if e.is_client() => (Verdict::Never, format!("SMTP: {e}")),
        None => (Verdict::Unreachable, format!("SMTP: {e}")),
    }
}

/// Connect to the relay as a send would (TLS, login), then QUIT. `Ok` with what was
/// done; `Err` with the sentence saying what failed and what to fix.
pub fn test_login(smtp: &Smtp, timeout: Duration) -> Result<String, String> {
    let (mode, _) = mode_and_host(&smtp.url).map_err(|e| e.to_string())?;
    let transport = transport(smtp, timeout).map_err(|e| e.to_string())?;
    match transport.test_connection() {
        Ok(true) => {
            let tls = match mode {
                TlsMode::None => "no TLS",
                TlsMode::Opportunistic => "STARTTLS when offered",
                TlsMode::Required => "STARTTLS",
                TlsMode::Wrapper => "TLS",
            };
            let login = if has_login(&smtp.url) {
                "login accepted"
            } else {
                "no login configured"
            };
            Ok(format!("connected ({tls}), {login}"))
        }
        Ok(false) => Err("SMTP: the server closed the connection".to_string()),
        Err(e) => Err(judge(&e).1),
    }
}

/// Whether a login configured in `smtp` may still cross the network in clear:
/// `?tls=opportunistic` goes on without TLS when the server offers no STARTTLS (or
/// a man in the middle removes the offer), and lettre then sends the password as it
/// would over TLS. `check-config` says so; the send itself is allowed.
pub fn login_may_go_in_clear(smtp: &Smtp) -> bool {
    matches!(mode_and_host(&smtp.url), Ok((TlsMode::Opportunistic, host)) if !is_loopback(&host))
        && has_login(&smtp.url)
}

/// Whether `host` is this machine (a name or address of the loopback), where a
/// password in clear crosses no network.
fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// Whether the URL carries `user:password@`.
fn has_login(url: &str) -> bool {
    url::Url::parse(url).is_ok_and(|u| u.password().is_some())
}

/// An SMTP URL with the password replaced by `***`.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split_once(':').map_or(userinfo, |(u, _)| u);
            format!("{scheme}://{user}:***@{host}{tail}")
        }
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_login_without_tls_is_refused_off_this_machine() {
        let second = Duration::from_secs(1);
        let refused = transport(&Smtp::from("smtp://al:pw@mail.example.org:25"), second);
        assert!(
            matches!(&refused, Err(SmtpSetupError::LoginInClear { host }) if host == "mail.example.org"),
            "{refused:?}"
        );
        for url in [
            "smtp://al:pw@127.0.0.1:2525",
            "smtp://al:pw@[::1]:2525",
            "smtp://al:pw@localhost:25",
            "smtp://mail.example.org:25",
            "smtp://al:pw@mail.example.org:587?tls=required",
            "smtps://al:pw@mail.example.org:465",
        ] {
            assert!(transport(&Smtp::from(url), second).is_ok(), "{url}");
        }
        assert!(login_may_go_in_clear(&Smtp::from(
            "smtp://al:pw@mail.example.org:587?tls=opportunistic"
        )));
        assert!(!login_may_go_in_clear(&Smtp::from(
            "smtp://mail.example.org:587?tls=opportunistic"
        )));
        assert!(!login_may_go_in_clear(&Smtp::from(
            "smtp://al:pw@127.0.0.1:587?tls=opportunistic"
        )));
    }

    #[test]
    fn urls_are_shown_without_password() {
        assert_eq!(
            redact_url("smtp://al:s3cret@mail.example.org:587?tls=required"),
            "smtp://al:***@mail.example.org:587?tls=required"
        );
        assert_eq!(redact_url("smtp://localhost:25"), "smtp://localhost:25");
        assert_eq!(redact_url("not a url"), "not a url");
    }

    #[test]
    fn the_tls_mode_and_host_follow_lettres_url_rules() {
        let m = |u: &str| mode_and_host(u).map_err(|e| e.to_string());
        assert_eq!(
            m("smtp://u:p@mail.example.org:587?tls=required"),
            Ok((TlsMode::Required, "mail.example.org".to_string()))
        );
        assert_eq!(
            m("smtps://127.0.0.1:465").map(|r| r.0),
            Ok(TlsMode::Wrapper)
        );
        assert_eq!(m("smtp://[::1]:25"), Ok((TlsMode::None, "::1".to_string())));
        assert_eq!(
            m("smtp://h?tls=opportunistic").map(|r| r.0),
            Ok(TlsMode::Opportunistic)
        );
        assert!(m("smtp://h?tls=none").is_err());
        assert!(m("smtpx://h").is_err());
    }

    #[test]
    fn a_ca_file_must_exist_hold_a_certificate_and_come_with_tls() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let t = Duration::from_secs(1);
        let with_ca = |url: &str, ca: PathBuf| Smtp {
            url: url.to_string(),
            ca_file: Some(ca),
        };
        let missing = tmp.path().join("missing.pem");
        let err = transport(&with_ca("smtps://h", missing), t).expect_err("missing");
        assert!(matches!(err, SmtpSetupError::CaRead { .. }), "{err}");
        let empty = tmp.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").expect("write");
        let err = transport(&with_ca("smtps://h", empty.clone()), t).expect_err("empty");
        assert!(
            err.to_string().contains("holds no PEM certificate"),
            "{err}"
        );
        let err = transport(&with_ca("smtp://h:25", empty), t).expect_err("no tls");
        assert!(matches!(err, SmtpSetupError::CaWithoutTls), "{err}");
    }

    #[test]
    fn a_password_never_shows_in_the_display() {
        let s = Smtp {
            url: "smtp://al:s3cret@h:587?tls=required".to_string(),
            ca_file: Some(PathBuf::from("/etc/ca.pem")),
        };
        let text = s.to_string();
        assert!(
            !text.contains("s3cret") && text.contains("/etc/ca.pem"),
            "{text}"
        );
    }
}
