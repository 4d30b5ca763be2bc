//! The sections of the config file as written (`[mail]`, `[dkim]`, `[robot]`,
//! `[security]`, `[transport]`, `[limits]`): every key optional, unknown keys refused.
//! `config/mod.rs` merges them into [`Settings`](super::Settings).

use std::path::PathBuf;

use serde::Deserialize;

/// `[mail]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailConfig {
    /// Board mails carry an HTML part with the picture (default true).
    pub html: Option<bool>,
    /// Hard bounces over at least a day that mark an address failing (default 3).
    pub hard_bounces: Option<u32>,
    /// Replies to one recipient leave with a VERP bounce address (default true).
    pub verp: Option<bool>,
}

/// `[dkim]`: the key that signs the replies (all three keys needed).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DkimSettings {
    /// The signing domain (`d=`), normally the domain of `from`.
    pub domain: String,
    /// The selector (`s=`): the record is `<selector>._domainkey.<domain>`.
    pub selector: String,
    /// The private key, PEM (Ed25519, or RSA of 2048 bits or more).
    pub key_file: PathBuf,
}

/// `[robot]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RobotConfig {
    /// robot5's think time a turn, milliseconds.
    pub think_ms: Option<u64>,
    /// Robot turns one run plays at most.
    pub turns_per_run: Option<usize>,
    /// All robots' think time in one clock hour, seconds.
    pub think_seconds_per_hour: Option<u64>,
    /// The robots' think time in one clock hour on one person's games, seconds.
    pub think_seconds_per_player_hour: Option<u64>,
    /// The robots' think time in one clock hour on all strangers' games, seconds.
    pub strangers_think_seconds_per_hour: Option<u64>,
    /// The robots' think time in one clock hour spent on reviews, seconds.
    pub review_seconds_per_hour: Option<u64>,
    /// A review's playouts a position.
    pub review_playouts: Option<u64>,
}

/// `[security]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Security {
    /// New addresses must be confirmed before they get other people's text.
    pub confirm_addresses: Option<bool>,
    /// Mails a day to an address nobody has confirmed.
    pub unconfirmed_mails_per_day: Option<u32>,
    /// Mails a day that mail proving no sender may cause to one mailbox.
    pub stranger_mails_per_day: Option<u32>,
    /// The authserv-id of the local mail system's `Authentication-Results`.
    pub trusted_authserv_id: Option<String>,
    /// A reply token or play token proves only a From the trusted checks passed.
    pub require_dmarc_pass: Option<bool>,
}

/// `[transport]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TransportConfig {
    /// `outbox`, `smtp` or `sendmail`.
    pub kind: Option<String>,
    /// For `smtp`: the URL.
    pub url: Option<String>,
    /// For `sendmail`: the program.
    pub path: Option<PathBuf>,
    /// For `outbox`: the folder (default `<home>/outbox`).
    pub outbox: Option<PathBuf>,
    /// For `smtp`: a file whose first line is the password of the URL's user.
    pub password_file: Option<PathBuf>,
    /// For `smtp`: a PEM file of CA certificates trusted besides the machine's roots
    /// (`YINSH_PBEM_SMTP_CA_FILE` overrides it).
    pub ca_file: Option<PathBuf>,
}

/// `[limits]`
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Largest mail handled, bytes.
    pub max_message_bytes: Option<usize>,
    /// Mails one sender may send per period.
    pub mails_per_sender: Option<u32>,
    /// The period, seconds.
    pub period_seconds: Option<u64>,
    /// Commands one `multiple` mail may carry.
    pub commands_per_mail: Option<usize>,
    /// Replies one mail may cause.
    pub replies_per_mail: Option<usize>,
    /// Games a day a sender may start for two other players.
    pub challenges_for_others_per_day: Option<u32>,
    /// How long to wait for the store's lock, seconds.
    pub lock_wait_seconds: Option<u64>,
    /// The time limit of one SMTP connection or sendmail run, seconds.
    pub send_timeout_seconds: Option<u64>,
}
