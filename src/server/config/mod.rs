//! The server's configuration: [`Settings`] (where the data lives, how mail leaves,
//! the limits), read from a TOML file, overridden by environment variables,
//! overridden by the command line, on top of the embedded defaults. `check-config`
//! (what will be used, and what is wrong with it) is `server::check`'s.
//!
//! ```toml
//! home = "/var/lib/yinsh"
//! from = "YINSH PBeM <yinsh@example.org>"
//! operator = "ops@example.org"  # told of every reply given up (nobody by default)
//!
//! [transport]
//! kind = "smtp"                 # "outbox" (default), "smtp" or "sendmail"
//! url = "smtp://mail.example.org:587?tls=required"
//! ca_file = "/etc/yinsh-pbem/relay-ca.pem"  # trusted besides the machine's roots
//!
//! [limits]
//! max_message_bytes = 1048576   # bigger mails get a short error
//! mails_per_sender = 60         # per period, then dropped (one notice per period)
//! period_seconds = 3600
//! commands_per_mail = 25        # lines of a `multiple` mail carried out
//! replies_per_mail = 50         # replies one mail may cause
//! challenges_for_others_per_day = 5 # games a day a sender may start for two others
//!                               # (and a player be put in by others); 0: none
//! lock_wait_seconds = 120       # a deliver waiting longer for the store exits 75
//! send_timeout_seconds = 30     # per SMTP connection or sendmail run
//!
//! [security]
//! confirm_addresses = true      # false: every address counts as confirmed
//! unconfirmed_mails_per_day = 5 # mails a day to an address nobody confirmed
//! stranger_mails_per_day = 10   # mails a day that mail proving no sender may cause
//!                               # to one mailbox (replies, verify and board mails)
//! trusted_authserv_id = "mx.example.org"  # the local MTA's Authentication-Results
//!                               # id: a From failing DMARC there proves nothing (none)
//! require_dmarc_pass = false    # true: a Reply or play link proves only a From the
//!                               # trusted checks passed (needs trusted_authserv_id)
//!
//! [mail]
//! html = true                   # false: board mails are text/plain only
//! hard_bounces = 3              # hard bounces over >= 1 day that mark an address
//!                               # failing (no more mail to it until it writes)
//! verp = true                   # false: replies leave with `from` as envelope
//!                               # sender (bounces then are not read)
//!
//! [dkim]                        # replies signed as they leave (none by default)
//! domain = "example.org"        # d=: the domain of `from`
//! selector = "yinsh"            # the TXT record: yinsh._domainkey.example.org
//! key_file = "/etc/yinsh-pbem/dkim.key"  # PEM, Ed25519 or RSA (check-config
//!                               # prints the record to publish)
//!
//! [site]                        # the static web site of the games (none by default)
//! out = "/var/www/yinsh"        # refreshed after every mail that changes a game
//! url = "https://example.org/yinsh"  # board mails link to the game's page
//!
//! [robot]
//! think_ms = 2000               # robot5's think time a turn (YINSH_PBEM_ROBOT_THINK_MS)
//! turns_per_run = 3             # robot turns one deliver or tick plays at most
//! think_seconds_per_hour = 1200 # all robots' think time in one clock hour, at most
//! think_seconds_per_player_hour = 300 # ... spent on one person's games (all the
//!                               # accounts whose first confirmed address is one mailbox)
//! strangers_think_seconds_per_hour = 60 # ... on all games of accounts without a
//!                               # confirmed address, together (the least share)
//! review_seconds_per_hour = 120 # ... spent on reviews of finished games
//! review_playouts = 600         # a review's playouts a position (ai::REVIEW_PLAYOUTS)
//! ```

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Deserialize;

use crate::mail::auth_results::TokenRule;
use crate::mail::transport::SMTP_TIMEOUT;
use crate::mail::{Address, Smtp, Transport, bare_address};

use super::site::settings::{SiteConfig, SiteSettings, site_settings};
use super::store::RateLimit;

mod file;
pub mod keys;

pub use file::{DkimSettings, Limits, MailConfig, RobotConfig, Security, TransportConfig};

/// How the server runs: where its data lives and how mail leaves.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The home folder (`./games` by default).
    pub home: PathBuf,
    /// The From of every reply, e.g. `YINSH PBeM <yinsh@localhost>`.
    pub from: String,
    /// How replies are sent.
    pub transport: Transport,
    /// The clock: unix seconds; `None` for the system clock.
    pub now: Option<u64>,
    /// Mails larger than this many bytes get a short error and are not handled.
    pub max_message_bytes: usize,
    /// Mails one sender may send per period before being dropped.
    pub rate_limit: RateLimit,
    /// Commands one `multiple` mail may carry; the lines after them are not carried out.
    pub commands_per_mail: usize,
    /// Replies one mail may cause; a mail that would cause more stops there.
    pub replies_per_mail: usize,
    /// Games a day one sender (reply address, and each account naming it) may start
    /// between two other players, and games a day one player may be put in by
    /// others' challenges.
    pub challenges_for_others_per_day: u32,
    /// Whether addresses must be confirmed (`[security] confirm_addresses`); when
    /// off, every address counts as confirmed.
    pub confirm_addresses: bool,
    /// Mails a day to an address nobody confirmed; more are dropped with a log line.
    pub unconfirmed_mails_per_day: u32,
    /// Mails a day that mail proving no sender (no password, reply token or code of
    /// an account with a confirmed address) may cause to one mailbox, by every path
    /// (`outgoing::gate`); more are dropped with a log line.
    pub stranger_mails_per_day: u32,
    /// The authserv-id the local mail system writes in `Authentication-Results`
    /// (`[security] trusted_authserv_id`): only its headers are believed
    /// (`mail::auth_results::from_verdict`); `None` (the default) reads none.
    pub trusted_authserv_id: Option<String>,
    /// What a reply token or play token needs of the From (`[security]
    /// require_dmarc_pass`): by default a From the trusted checks did not fail; with
    /// the key, one they passed.
    pub token_rule: TokenRule,
    /// How long `deliver`, `flush` and `tick` wait for the store's lock (and a
    /// `flush` for the spool's) before giving up with exit 75.
    pub lock_wait: Duration,
    /// The time limit of one SMTP connection or one sendmail run.
    pub send_timeout: Duration,
    /// Who is told of every reply given up (a bounce), if anyone.
    pub operator: Option<Address>,
    /// Whether board mails carry their HTML part (`[mail] html`).
    pub html_mail: bool,
    /// Hard bounces (over at least a day) that mark an address failing (`[mail]
    /// hard_bounces`).
    pub hard_bounces: u32,
    /// Whether a reply to one recipient leaves with its VERP bounce address as
    /// envelope sender (`[mail] verp`, default true; off for a provider that refuses
    /// envelope senders other than the account's own).
    pub verp: bool,
    /// The key that signs every reply as it leaves (`[dkim]`), if any.
    pub dkim: Option<DkimSettings>,
    /// The static web site to keep (`[site]`), if any.
    pub site: Option<SiteSettings>,
    /// The top robot's (`robot5`'s) think time a turn.
    pub robot_think: Duration,
    /// Robot turns one `deliver` or `tick` plays at most (the rest wait for the next).
    pub robot_turns_per_run: usize,
    /// All robots' think time in one clock hour, at most (the turns owed past it wait
    /// for the next hour).
    pub robot_think_per_hour: Duration,
    /// The robots' think time in one clock hour spent on one person's games, at most
    /// (a person: the accounts whose first confirmed address is one mailbox); past
    /// it, the robot answers that person at once with level 1's search.
    pub robot_think_per_player_hour: Duration,
    /// The robots' think time in one clock hour spent on the games of all accounts
    /// without a confirmed address together, at most (`[robot]
    /// strangers_think_seconds_per_hour`, the least share); past it, as a person's.
    /// With the defaults one person (300 s), all strangers (60 s) and all reviews
    /// (120 s) take at most 480 s (and one turn or review past each share) of the
    /// hour's 1,200 s: more than 700 s, two persons' whole shares, are left for every
    /// other player (`check::problems` asks for at least one).
    pub robot_think_strangers_per_hour: Duration,
    /// The robots' think time in one clock hour spent on reviews of finished games,
    /// at most (`[robot] review_seconds_per_hour`; the reviews owed past it wait).
    pub review_per_hour: Duration,
    /// The playouts a review spends on each position (`[robot] review_playouts`).
    pub review_playouts: u64,
}

impl Settings {
    /// The embedded defaults: home `./games`, From `yinsh@localhost`, replies written
    /// to `<home>/outbox/`.
    pub fn defaults(home: PathBuf) -> Settings {
        let outbox = home.join("outbox");
        Settings {
            home,
            from: "YINSH PBeM <yinsh@localhost>".to_string(),
            transport: Transport::Outbox(outbox),
            now: None,
            max_message_bytes: 1024 * 1024,
            rate_limit: RateLimit {
                max: 60,
                period: 3600,
            },
            commands_per_mail: 25,
            replies_per_mail: 50,
            challenges_for_others_per_day: 5,
            confirm_addresses: true,
            unconfirmed_mails_per_day: 5,
            stranger_mails_per_day: 10,
            trusted_authserv_id: None,
            token_rule: TokenRule::NotFailed,
            lock_wait: Duration::from_secs(120),
            send_timeout: SMTP_TIMEOUT,
            operator: None,
            html_mail: true,
            hard_bounces: 3,
            verp: true,
            dkim: None,
            site: None,
            robot_think: crate::ai::DEFAULT_THINK_TIME,
            robot_turns_per_run: 3,
            robot_think_per_hour: Duration::from_secs(1200),
            robot_think_per_player_hour: Duration::from_secs(300),
            robot_think_strangers_per_hour: Duration::from_secs(60),
            review_per_hour: Duration::from_secs(120),
            review_playouts: crate::ai::REVIEW_PLAYOUTS,
        }
    }

    /// The server's bare address, taken from `from`.
    pub fn address(&self) -> String {
        bare_address(&self.from).to_string()
    }

    /// The time now, unix seconds.
    pub fn now(&self) -> u64 {
        self.now.unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        })
    }
}

/// The config file's contents; every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// The home folder.
    pub home: Option<PathBuf>,
    /// The From of replies.
    pub from: Option<String>,
    /// How replies leave.
    pub transport: Option<TransportConfig>,
    /// Who is told of replies given up.
    pub operator: Option<String>,
    /// Limits against abuse.
    pub limits: Option<Limits>,
    /// Address confirmation.
    pub security: Option<Security>,
    /// What mails look like.
    pub mail: Option<MailConfig>,
    /// The DKIM key of the replies.
    pub dkim: Option<DkimSettings>,
    /// The web site.
    pub site: Option<SiteConfig>,
    /// The robots.
    pub robot: Option<RobotConfig>,
}

/// Values from the command line or the environment (both already merged by clap:
/// the command line wins).
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--config` / `YINSH_PBEM_CONFIG`.
    pub config: Option<PathBuf>,
    /// `--home` / `YINSH_PBEM_HOME`.
    pub home: Option<PathBuf>,
    /// `--from` / `YINSH_PBEM_FROM`.
    pub from: Option<String>,
    /// `--smtp` (a URL without a password: `smtp_url_argument` refuses one).
    pub smtp: Option<String>,
    /// `--smtp-password-file` / `YINSH_PBEM_SMTP_PASSWORD_FILE`.
    pub smtp_password_file: Option<PathBuf>,
    /// `--sendmail`.
    pub sendmail: Option<PathBuf>,
    /// `--outbox`.
    pub outbox: Option<PathBuf>,
    /// `--max-message-bytes` / `YINSH_PBEM_MAX_MESSAGE_BYTES`.
    pub max_message_bytes: Option<usize>,
}

/// Why the configuration cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file cannot be read.
    #[error("cannot read the config file {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not valid TOML of the expected shape.
    #[error("the config file {} is not valid: {message}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// The parser's message (with line and column).
        message: String,
    },
    /// The SMTP password file cannot be read.
    #[error("cannot read the SMTP password file {}: {source}", path.display())]
    PasswordFile {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A value is wrong.
    #[error("{0}")]
    Invalid(String),
}

/// Where the settings came from, for `check-config`.
#[derive(Debug, Clone)]
pub struct Resolved {
    /// The settings to use.
    pub settings: Settings,
    /// The config file read, if any.
    pub config_file: Option<PathBuf>,
}

/// The config file to read: the one named, else `<home>/config.toml` when it exists
/// (home from the command line or environment, else `games`).
fn config_path(o: &Overrides) -> Option<PathBuf> {
    if let Some(p) = &o.config {
        return Some(p.clone());
    }
    let home = o.home.clone().unwrap_or_else(|| PathBuf::from("games"));
    let p = home.join("config.toml");
    p.is_file().then_some(p)
}

/// Read a config file.
pub fn read_config(path: &Path) -> Result<ConfigFile, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_path_buf(),
        source,
    })?;
    toml::from_str(&text).map_err(|e| ConfigError::Parse {
        path: path.to_path_buf(),
        message: e.to_string().trim().to_string(),
    })
}

/// A lookup of one environment variable: the process's own (`std::env::var_os`), or
/// a test's, given to [`resolve_with`] so that it never sets the process's variables.
pub type Env<'a> = &'a dyn Fn(&str) -> Option<OsString>;

/// Merge defaults, the config file, the process's environment variables
/// (`YINSH_PBEM_CONFIRM_ADDRESSES`, `YINSH_PBEM_ROBOT_THINK_MS`, `YINSH_PBEM_NOW`,
/// `YINSH_PBEM_SMTP_CA_FILE`) and the overrides into settings.
pub fn resolve(o: &Overrides) -> Result<Resolved, ConfigError> {
    resolve_with(o, &|name| std::env::var_os(name))
}

/// [`resolve`] with the environment variables read through `env`.
///
/// ```
/// use std::ffi::OsString;
/// use yinsh_pbem::server::config::{Overrides, resolve_with};
///
/// let o = Overrides { home: Some("/nonexistent/games".into()), ..Overrides::default() };
/// let env = |name: &str| (name == "YINSH_PBEM_NOW").then(|| OsString::from("1000"));
/// assert_eq!(resolve_with(&o, &env).unwrap().settings.now, Some(1000));
/// ```
pub fn resolve_with(o: &Overrides, env: Env<'_>) -> Result<Resolved, ConfigError> {
    let var = |name: &str| env(name).and_then(|v| v.into_string().ok());
    let config_file = config_path(o);
    let file = match &config_file {
        Some(p) => read_config(p)?,
        None => ConfigFile::default(),
    };
    let home = o
        .home
        .clone()
        .or(file.home.clone())
        .unwrap_or_else(|| PathBuf::from("games"));
    let mut s = Settings::defaults(home.clone());
    if let Some(from) = o.from.clone().or(file.from.clone()) {
        s.from = from;
    }
    s.transport = transport(o, &file.transport.unwrap_or_default(), &home, env)?;
    limits(&mut s, o, &file.limits.unwrap_or_default());
    security(&mut s, &file.security.unwrap_or_default())?;
    if let Some(on) = var("YINSH_PBEM_CONFIRM_ADDRESSES").and_then(|v| parse_switch(&v)) {
        s.confirm_addresses = on;
    }
    if let Some(op) = &file.operator {
        s.operator = Some(
            op.parse()
                .map_err(|e| ConfigError::Invalid(format!("operator = \"{op}\": {e}")))?,
        );
    }
    if let Some(mail) = file.mail {
        s.html_mail = mail.html.unwrap_or(s.html_mail);
        s.hard_bounces = mail.hard_bounces.unwrap_or(s.hard_bounces);
        s.verp = mail.verp.unwrap_or(s.verp);
    }
    s.dkim = file.dkim;
    s.site = site_settings(file.site).map_err(ConfigError::Invalid)?;
    let think_ms = var("YINSH_PBEM_ROBOT_THINK_MS").and_then(|v| v.trim().parse().ok());
    robot(&mut s, &file.robot.unwrap_or_default(), think_ms);
    s.now = var("YINSH_PBEM_NOW").and_then(|v| v.parse().ok());
    Ok(Resolved {
        settings: s,
        config_file,
    })
}

/// How mail is sent: the command line's `--smtp`, `--sendmail` or `--outbox` first,
/// else the config file's `[transport]` (an outbox in `home` by default).
fn transport(
    o: &Overrides,
    t: &TransportConfig,
    home: &Path,
    env: Env<'_>,
) -> Result<Transport, ConfigError> {
    if let Some(url) = &o.smtp {
        return Ok(Transport::Smtp(smtp_target(url, o, t, env)?));
    }
    if let Some(p) = &o.sendmail {
        return Ok(Transport::Sendmail(p.clone()));
    }
    if let Some(p) = &o.outbox {
        return Ok(Transport::Outbox(p.clone()));
    }
    Ok(match t.kind.as_deref().unwrap_or("outbox") {
        "outbox" => Transport::Outbox(t.outbox.clone().unwrap_or_else(|| home.join("outbox"))),
        "smtp" => Transport::Smtp(smtp_target(
            t.url.as_deref().ok_or_else(|| {
                ConfigError::Invalid(
                    "[transport] kind = \"smtp\" needs url = \"smtp://host:port\"".into(),
                )
            })?,
            o,
            t,
            env,
        )?),
        "sendmail" => Transport::Sendmail(
            t.path
                .clone()
                .unwrap_or_else(|| PathBuf::from("/usr/sbin/sendmail")),
        ),
        other => {
            return Err(ConfigError::Invalid(format!(
                "[transport] kind = \"{other}\": write \"outbox\", \"smtp\" or \"sendmail\""
            )));
        }
    })
}

/// The `[limits]` of the config file (and `--max-message-bytes`) into `s`.
fn limits(s: &mut Settings, o: &Overrides, limits: &Limits) {
    if let Some(n) = o.max_message_bytes.or(limits.max_message_bytes) {
        s.max_message_bytes = n;
    }
    s.rate_limit = RateLimit {
        max: limits.mails_per_sender.unwrap_or(s.rate_limit.max),
        period: limits.period_seconds.unwrap_or(s.rate_limit.period),
    };
    s.commands_per_mail = limits.commands_per_mail.unwrap_or(s.commands_per_mail);
    s.replies_per_mail = limits.replies_per_mail.unwrap_or(s.replies_per_mail);
    s.challenges_for_others_per_day = limits
        .challenges_for_others_per_day
        .unwrap_or(s.challenges_for_others_per_day);
    if let Some(n) = limits.lock_wait_seconds {
        s.lock_wait = Duration::from_secs(n);
    }
    if let Some(n) = limits.send_timeout_seconds {
        s.send_timeout = Duration::from_secs(n);
    }
}

/// The `[security]` of the config file into `s`.
fn security(s: &mut Settings, security: &Security) -> Result<(), ConfigError> {
    s.confirm_addresses = security.confirm_addresses.unwrap_or(s.confirm_addresses);
    s.unconfirmed_mails_per_day = security
        .unconfirmed_mails_per_day
        .unwrap_or(s.unconfirmed_mails_per_day);
    s.stranger_mails_per_day = security
        .stranger_mails_per_day
        .unwrap_or(s.stranger_mails_per_day);
    if let Some(id) = &security.trusted_authserv_id {
        s.trusted_authserv_id = Some(authserv_id(id)?);
    }
    if let Some(strict) = security.require_dmarc_pass {
        if strict && s.trusted_authserv_id.is_none() {
            return Err(ConfigError::Invalid(
                "[security] require_dmarc_pass = true needs trusted_authserv_id: without it no \
                 From ever passes and no Reply or play link would play; name your mail \
                 system's authserv-id, or leave require_dmarc_pass out"
                    .to_string(),
            ));
        }
        s.token_rule = if strict {
            TokenRule::TrustedPass
        } else {
            TokenRule::NotFailed
        };
    }
    Ok(())
}

/// The `[robot]` of the config file into `s`; `think_ms` (of
/// `YINSH_PBEM_ROBOT_THINK_MS`) before its `think_ms`.
fn robot(s: &mut Settings, robot: &RobotConfig, think_ms: Option<u64>) {
    if let Some(ms) = think_ms.or(robot.think_ms) {
        s.robot_think = Duration::from_millis(ms);
    }
    s.robot_turns_per_run = robot.turns_per_run.unwrap_or(s.robot_turns_per_run);
    if let Some(secs) = robot.think_seconds_per_hour {
        s.robot_think_per_hour = Duration::from_secs(secs);
    }
    if let Some(secs) = robot.think_seconds_per_player_hour {
        s.robot_think_per_player_hour = Duration::from_secs(secs);
    }
    if let Some(secs) = robot.strangers_think_seconds_per_hour {
        s.robot_think_strangers_per_hour = Duration::from_secs(secs);
    }
    if let Some(secs) = robot.review_seconds_per_hour {
        s.review_per_hour = Duration::from_secs(secs);
    }
    s.review_playouts = robot.review_playouts.unwrap_or(s.review_playouts);
}

/// The SMTP relay at `url`, with the CA file of `YINSH_PBEM_SMTP_CA_FILE`, else of
/// `[transport] ca_file` (an empty variable means none), and the password of
/// `--smtp-password-file`, else of `[transport] password_file`, put in the URL.
fn smtp_target(
    url: &str,
    o: &Overrides,
    t: &TransportConfig,
    env: Env<'_>,
) -> Result<Smtp, ConfigError> {
    let ca_file = match env("YINSH_PBEM_SMTP_CA_FILE") {
        Some(v) if v.is_empty() => None,
        Some(v) => Some(PathBuf::from(v)),
        None => t.ca_file.clone(),
    };
    let url = match o.smtp_password_file.as_ref().or(t.password_file.as_ref()) {
        Some(file) => with_password(url, file)?,
        None => url.to_string(),
    };
    Ok(Smtp { url, ca_file })
}

/// `url` with the password read from `file` (its first line), for the URL's user.
fn with_password(url: &str, file: &Path) -> Result<String, ConfigError> {
    let text = std::fs::read_to_string(file).map_err(|source| ConfigError::PasswordFile {
        path: file.to_path_buf(),
        source,
    })?;
    let password = text.lines().next().unwrap_or("");
    let refuse = |why: &str| {
        ConfigError::Invalid(format!("the SMTP password file {}: {why}", file.display()))
    };
    if password.is_empty() {
        return Err(refuse("its first line is empty: write the password there"));
    }
    let mut parsed = url::Url::parse(url).map_err(|_| refuse("the SMTP URL is not a URL"))?;
    if parsed.username().is_empty() {
        return Err(refuse(
            "the SMTP URL names no user: write smtp://user@host:587?tls=required",
        ));
    }
    if parsed.password().is_some() {
        return Err(refuse(
            "the SMTP URL holds a password already: remove one of the two",
        ));
    }
    parsed
        .set_password(Some(password))
        .map_err(|()| refuse("the SMTP URL cannot carry a password"))?;
    Ok(parsed.to_string())
}

/// `true`/`yes`/`1`/`on` or `false`/`no`/`0`/`off`, any case.
fn parse_switch(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" | "on" => Some(true),
        "false" | "no" | "0" | "off" => Some(false),
        _ => None,
    }
}

/// `[security] trusted_authserv_id`, checked: an authserv-id as mail systems write it
/// (a host name such as `mx.example.org`): not empty, no white space, `;`, `(`, `"`
/// or control character.
fn authserv_id(id: &str) -> Result<String, ConfigError> {
    let id = id.trim();
    let odd = |c: char| c.is_whitespace() || c.is_control() || ";()\"".contains(c);
    if id.is_empty() || id.contains(odd) {
        return Err(ConfigError::Invalid(format!(
            "[security] trusted_authserv_id = {id:?}: write the authserv-id your mail system \
             puts first in its Authentication-Results headers (e.g. \"mx.example.org\"; \
             opendkim's and opendmarc's AuthservID)"
        )));
    }
    Ok(id.to_string())
}
