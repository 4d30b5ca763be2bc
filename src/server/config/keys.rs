//! Every key of the config file with an example value, its default and what it does:
//! the one table `yinsh-pbem.toml(5)` is written from (`cli::generate`). The tests
//! below hold it against the config file's structs (every field has a row, every row
//! a field, every example parses) and against `debian/config.toml` (every key it
//! names has a row).

/// One key of the config file.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// Its table (`transport`, `limits`, ...); empty for the top level.
    pub section: &'static str,
    /// The key.
    pub name: &'static str,
    /// An example value, written as TOML.
    pub example: &'static str,
    /// What it is when not set.
    pub default: &'static str,
    /// What it does.
    pub doc: &'static str,
}

const fn key(
    section: &'static str,
    name: &'static str,
    example: &'static str,
    default: &'static str,
    doc: &'static str,
) -> Key {
    Key {
        section,
        name,
        example,
        default,
        doc,
    }
}

/// The tables in the order of the manual, each with one sentence.
pub const SECTIONS: &[(&str, &str)] = &[
    ("", "Where the data lives and who the server is."),
    ("transport", "How replies leave."),
    ("limits", "Limits against abuse and hung runs."),
    (
        "security",
        "Address confirmation and whose mail headers are believed.",
    ),
    ("mail", "What the replies look like."),
    (
        "dkim",
        "The key that signs every reply as it leaves (all three keys, or no table).",
    ),
    (
        "site",
        "The static web site of the games (none by default).",
    ),
    ("robot", "The robots' think time."),
];

/// Every key, table by table.
pub const KEYS: &[Key] = &[
    key(
        "",
        "home",
        "\"/var/lib/yinsh-pbem/games\"",
        "games (in the working folder)",
        "The home folder: games, accounts, the reply spool, the outbox and the log (log/yinsh-pbem.log).",
    ),
    key(
        "",
        "from",
        "\"YINSH PBeM <yinsh@example.org>\"",
        "YINSH PBeM <yinsh@localhost>",
        "The From of every reply, and its envelope sender.",
    ),
    key(
        "",
        "operator",
        "\"ops@example.org\"",
        "nobody",
        "Who is told of every reply given up (a bounce).",
    ),
    key(
        "transport",
        "kind",
        "\"smtp\"",
        "outbox",
        "outbox (replies written as .eml files, nothing leaves), sendmail, or smtp.",
    ),
    key(
        "transport",
        "url",
        "\"smtp://yinsh%40example.org@smtp.example.org:587?tls=required\"",
        "none",
        "For smtp: the relay. smtp://host:25 plain, ?tls=required for STARTTLS, smtps://host:465 for TLS; user[:password]@ for a login, special characters percent-encoded.",
    ),
    key(
        "transport",
        "password_file",
        "\"/etc/yinsh-pbem/smtp-password\"",
        "none",
        "For smtp: a file whose first line is the password of the url's user.",
    ),
    key(
        "transport",
        "ca_file",
        "\"/etc/yinsh-pbem/relay-ca.pem\"",
        "none",
        "For smtp: PEM certificates of CAs trusted besides the machine's (/etc/ssl/certs, or SSL_CERT_FILE). The server's certificate is always verified.",
    ),
    key(
        "transport",
        "path",
        "\"/usr/sbin/sendmail\"",
        "/usr/sbin/sendmail",
        "For sendmail: the program, run as prog -i -f <sender> -- <recipients>.",
    ),
    key(
        "transport",
        "outbox",
        "\"/var/lib/yinsh-pbem/outbox\"",
        "<home>/outbox",
        "For outbox: the folder.",
    ),
    key(
        "limits",
        "max_message_bytes",
        "1048576",
        "1048576",
        "Larger mails get a short error and are not handled.",
    ),
    key(
        "limits",
        "mails_per_sender",
        "60",
        "60",
        "Mails one sender may send per period; more are dropped (one notice a period).",
    ),
    key(
        "limits",
        "period_seconds",
        "3600",
        "3600",
        "The period of mails_per_sender.",
    ),
    key(
        "limits",
        "commands_per_mail",
        "25",
        "25",
        "Lines of a multiple mail carried out.",
    ),
    key(
        "limits",
        "replies_per_mail",
        "50",
        "50",
        "Replies one mail may cause.",
    ),
    key(
        "limits",
        "challenges_for_others_per_day",
        "5",
        "5",
        "Games a day a sender may start between two other players (and a player be put in by others); 0: none.",
    ),
    key(
        "limits",
        "lock_wait_seconds",
        "120",
        "120",
        "How long a run waits for the store's lock before it exits 75.",
    ),
    key(
        "limits",
        "send_timeout_seconds",
        "30",
        "30",
        "The time limit of one SMTP connection or sendmail run.",
    ),
    key(
        "security",
        "confirm_addresses",
        "true",
        "true",
        "New addresses must be confirmed before they get other people's text; false: every address counts as confirmed.",
    ),
    key(
        "security",
        "unconfirmed_mails_per_day",
        "5",
        "5",
        "Mails a day to an address nobody confirmed.",
    ),
    key(
        "security",
        "stranger_mails_per_day",
        "10",
        "10",
        "Mails a day that mail proving no sender may cause to one mailbox.",
    ),
    key(
        "security",
        "trusted_authserv_id",
        "\"mx.example.org\"",
        "none",
        "The authserv-id of the local mail system's Authentication-Results headers: only those are believed (a From failing DMARC there proves nothing).",
    ),
    key(
        "security",
        "require_dmarc_pass",
        "false",
        "false",
        "true: a reply token or play link proves its player only in a mail whose From those headers pass (DMARC, or aligned DKIM or SPF); needs trusted_authserv_id.",
    ),
    key(
        "mail",
        "html",
        "true",
        "true",
        "Board mails carry an HTML part with the picture; false: text only.",
    ),
    key(
        "mail",
        "hard_bounces",
        "3",
        "3",
        "Hard bounces over at least a day that mark an address failing (no more mail to it until it writes).",
    ),
    key(
        "mail",
        "verp",
        "true",
        "true",
        "Replies to one recipient leave with a VERP bounce address; false: with from as envelope sender (bounces are then not read).",
    ),
    key(
        "dkim",
        "domain",
        "\"example.org\"",
        "none",
        "The signing domain (d=), normally the domain of from.",
    ),
    key(
        "dkim",
        "selector",
        "\"yinsh\"",
        "none",
        "The selector (s=): the TXT record is <selector>._domainkey.<domain> (check-config prints it).",
    ),
    key(
        "dkim",
        "key_file",
        "\"/etc/yinsh-pbem/dkim.key\"",
        "none",
        "The private key, PEM: Ed25519, or RSA of 2048 bits or more.",
    ),
    key(
        "site",
        "out",
        "\"/var/www/yinsh\"",
        "none (needed in [site])",
        "The folder the site is written into, refreshed after every mail that changes a game.",
    ),
    key(
        "site",
        "url",
        "\"https://example.org/yinsh\"",
        "none",
        "The address it is published at: board mails link to the game's page.",
    ),
    key(
        "robot",
        "think_ms",
        "2000",
        "2000",
        "robot5's think time a turn, milliseconds (YINSH_PBEM_ROBOT_THINK_MS overrides it).",
    ),
    key(
        "robot",
        "turns_per_run",
        "3",
        "3",
        "Robot turns one deliver or tick plays at most.",
    ),
    key(
        "robot",
        "think_seconds_per_hour",
        "1200",
        "1200",
        "All robots' think time in one clock hour, at most.",
    ),
    key(
        "robot",
        "think_seconds_per_player_hour",
        "300",
        "300",
        "The part of it spent on one person's games (all the accounts whose first \
         confirmed address is one mailbox).",
    ),
    key(
        "robot",
        "strangers_think_seconds_per_hour",
        "60",
        "60",
        "The part of it spent on all games of accounts without a confirmed address, \
         together. The hour must hold one person's share, the strangers', the reviews' \
         and another person's whole share (check-config).",
    ),
    key(
        "robot",
        "review_seconds_per_hour",
        "120",
        "120",
        "The part of it spent on reviews of finished games.",
    ),
    key(
        "robot",
        "review_playouts",
        "600",
        "600",
        "A review's playouts a position.",
    ),
];

#[cfg(test)]
mod tests {
    use serde::Deserialize;
    use serde::de::{Error as _, Visitor};

    use super::{KEYS, SECTIONS};
    use crate::server::config::ConfigFile;
    use crate::server::config::file::{
        DkimSettings, Limits, MailConfig, RobotConfig, Security, TransportConfig,
    };
    use crate::server::site::settings::SiteConfig;

    /// A deserializer that only records the field names a struct asks for.
    struct Names<'a>(&'a mut Vec<&'static str>);

    impl<'de> serde::Deserializer<'de> for Names<'_> {
        type Error = serde::de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(Self::Error::custom("not a struct"))
        }
        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            self.0.extend(fields);
            Err(Self::Error::custom("recorded"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes
            byte_buf option unit unit_struct newtype_struct seq tuple tuple_struct map
            enum identifier ignored_any
        }
    }

    fn fields<T: Deserialize<'static>>() -> Vec<&'static str> {
        let mut names = Vec::new();
        let _ = T::deserialize(Names(&mut names));
        names
    }

    fn rows(section: &str) -> Vec<&'static str> {
        KEYS.iter()
            .filter(|k| k.section == section)
            .map(|k| k.name)
            .collect()
    }

    #[test]
    fn every_field_of_the_config_file_has_a_row_and_every_row_a_field() {
        let tables: Vec<&str> = SECTIONS
            .iter()
            .map(|s| s.0)
            .filter(|s| !s.is_empty())
            .collect();
        let top: Vec<&str> = fields::<ConfigFile>()
            .into_iter()
            .filter(|f| !tables.contains(f))
            .collect();
        let cases = [
            ("", top),
            ("transport", fields::<TransportConfig>()),
            ("limits", fields::<Limits>()),
            ("security", fields::<Security>()),
            ("mail", fields::<MailConfig>()),
            ("dkim", fields::<DkimSettings>()),
            ("site", fields::<SiteConfig>()),
            ("robot", fields::<RobotConfig>()),
        ];
        assert_eq!(cases.len(), SECTIONS.len());
        for (section, mut fields) in cases {
            let mut rows = rows(section);
            fields.sort_unstable();
            rows.sort_unstable();
            assert!(!fields.is_empty(), "[{section}]");
            assert_eq!(fields, rows, "[{section}]: the fields and the rows of KEYS");
        }
    }

    #[test]
    fn a_file_of_every_example_is_read() {
        let mut text = String::new();
        for (section, _) in SECTIONS {
            if !section.is_empty() {
                text.push_str(&format!("[{section}]\n"));
            }
            for k in KEYS.iter().filter(|k| k.section == *section) {
                text.push_str(&format!("{} = {}\n", k.name, k.example));
            }
        }
        let file: Result<ConfigFile, _> = toml::from_str(&text);
        assert!(file.is_ok(), "{file:?}\n{text}");
    }

    #[test]
    fn every_key_debian_config_toml_names_has_a_row() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/debian/config.toml");
        let text = std::fs::read_to_string(path).expect("debian/config.toml");
        let mut section = String::new();
        let mut seen = 0;
        for line in text.lines() {
            let line = line.trim_start_matches('#').trim();
            if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                section = name.to_string();
                continue;
            }
            let Some((name, _)) = line.split_once(" = ") else {
                continue;
            };
            if name.chars().all(|c| c.is_ascii_lowercase() || c == '_') {
                seen += 1;
                assert!(
                    KEYS.iter().any(|k| k.section == section && k.name == name),
                    "debian/config.toml names [{section}] {name}, which KEYS lacks"
                );
            }
        }
        assert!(seen >= 20, "{seen} keys read from debian/config.toml");
    }
}
