//! `check-config`: what is wrong with settings that parsed ([`problems`]: each a
//! sentence saying what to fix) and the report of the settings in use
//! ([`describe`]). The settings themselves are `config`'s.

use std::path::Path;
use std::time::Duration;

use crate::mail::auth_results::TokenRule;
use crate::mail::transport::{GIVE_UP_AFTER, RETRY_FIRST, RETRY_MAX};
use crate::mail::{Address, DkimKey, Transport, bare_address};

use super::config::{Resolved, Settings};

/// The most playouts a review may spend on a position: some 25 s for a long game.
pub const MAX_REVIEW_PLAYOUTS: u64 = 10_000;

/// `check-config --test-smtp`: log in to the SMTP relay as a send would; `Ok` says
/// what was done, `Err` what failed and what to fix.
pub fn test_smtp_login(s: &Settings) -> Result<String, String> {
    match &s.transport {
        Transport::Smtp(target) => crate::mail::smtp::test_login(target, s.send_timeout),
        other => Ok(format!("not run ({other} is not SMTP)")),
    }
}

/// What is wrong with settings that parsed: each a sentence saying what to fix.
pub fn problems(s: &Settings) -> Vec<String> {
    let mut out = Vec::new();
    if let Err(e) = bare_address(&s.from).parse::<Address>() {
        out.push(format!(
            "from: \"{}\" has no valid address ({}; write \"Name <user@example.org>\")",
            s.from, e.problem
        ));
    }
    match writable_dir(&s.home) {
        Ok(()) => {}
        Err(e) => out.push(format!("home {}: {e}", s.home.display())),
    }
    match &s.transport {
        Transport::Outbox(dir) => {
            if let Err(e) = writable_dir(dir) {
                out.push(format!("outbox {}: {e}", dir.display()));
            }
        }
        Transport::Smtp(target) => {
            if let Err(e) = crate::mail::smtp::transport(target, s.send_timeout) {
                out.push(format!("smtp {target}: {e}"));
            } else if crate::mail::smtp::login_may_go_in_clear(target) {
                out.push(format!(
                    "smtp {target}: ?tls=opportunistic goes on without TLS when the server \
                     offers no STARTTLS, and the password would then cross the network in \
                     clear: write ?tls=required"
                ));
            }
        }
        Transport::Sendmail(p) => {
            use std::os::unix::fs::PermissionsExt;
            match std::fs::metadata(p) {
                Ok(m) if m.is_file() && m.permissions().mode() & 0o111 != 0 => {}
                Ok(_) => out.push(format!(
                    "sendmail {} is not an executable file",
                    p.display()
                )),
                Err(e) => out.push(format!("sendmail {}: {e}", p.display())),
            }
        }
    }
    if s.max_message_bytes < 4096 {
        out.push(format!(
            "limits.max_message_bytes = {} is too small for any mail (at least 4096)",
            s.max_message_bytes
        ));
    }
    if s.commands_per_mail == 0 || s.replies_per_mail < 2 {
        out.push(
            "limits.commands_per_mail must be above 0 and limits.replies_per_mail at least 2"
                .to_string(),
        );
    }
    if s.send_timeout.is_zero() {
        out.push("limits.send_timeout_seconds must be above 0".to_string());
    }
    if let Some(site) = &s.site
        && let Err(e) = writable_dir(&site.out)
    {
        out.push(format!("site out {}: {e}", site.out.display()));
    }
    if s.robot_think.is_zero() || s.robot_think > Duration::from_secs(60) {
        out.push("robot.think_ms must be between 1 and 60000".to_string());
    }
    if s.robot_think_per_hour < s.robot_think || s.robot_think_per_hour > Duration::from_secs(3600)
    {
        out.push(format!(
            "robot.think_seconds_per_hour = {} must be at least robot5's think time ({} ms) \
             and at most 3600 (one core all the time)",
            s.robot_think_per_hour.as_secs(),
            s.robot_think.as_millis()
        ));
    }
    if s.robot_think_per_player_hour.is_zero() {
        out.push(
            "robot.think_seconds_per_player_hour must be above 0 (robot5's think time or more)"
                .to_string(),
        );
    }
    if s.robot_think_strangers_per_hour.is_zero()
        || s.robot_think_strangers_per_hour > s.robot_think_per_player_hour
    {
        out.push(format!(
            "robot.strangers_think_seconds_per_hour = {} must be above 0 and at most \
             robot.think_seconds_per_player_hour ({}): strangers' games get the least share",
            s.robot_think_strangers_per_hour.as_secs(),
            s.robot_think_per_player_hour.as_secs()
        ));
    }
    if let Some(line) = robot_hour_too_small(s) {
        out.push(line);
    }
    if s.review_per_hour.is_zero() || s.review_per_hour > s.robot_think_per_hour {
        out.push(format!(
            "robot.review_seconds_per_hour = {} must be above 0 and at most \
             robot.think_seconds_per_hour ({}): reviews take a share of the robots' think time",
            s.review_per_hour.as_secs(),
            s.robot_think_per_hour.as_secs()
        ));
    }
    if s.review_playouts == 0 || s.review_playouts > MAX_REVIEW_PLAYOUTS {
        out.push(format!(
            "robot.review_playouts = {} must be between 1 and {MAX_REVIEW_PLAYOUTS} \
             (600, the default, reviews a game in a second or two)",
            s.review_playouts
        ));
    }
    if let Some(d) = &s.dkim
        && let Err(e) = DkimKey::load(&d.domain, &d.selector, &d.key_file)
    {
        out.push(format!("dkim: {e}"));
    }
    if let Some(d) = &s.dkim
        && let Some(mode) = crate::mail::dkim::exposed_mode(&d.key_file)
    {
        let path = d.key_file.display();
        out.push(format!(
            "dkim: the private key file {path} has mode {mode:04o}: its group or others can \
             read it, and whoever reads it can sign mail as {}; run `chmod 600 {path}` \
             (owned by the user the server runs as)",
            d.domain
        ));
    }
    if s.rate_limit.max == 0 || s.rate_limit.period == 0 {
        out.push("limits.mails_per_sender and limits.period_seconds must be above 0".to_string());
    }
    out
}

/// Can the server create files in `dir` (creating it if missing)?
fn writable_dir(dir: &Path) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create it: {e}"))?;
    let probe = dir.join(format!(".check-config.{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|e| format!("cannot write in it: {e}"))?;
    let _ = std::fs::remove_file(&probe);
    Ok(())
}

/// The report `check-config` prints: where the settings come from, the limits, then
/// the mail, the site, the robots and the operator.
pub fn describe(r: &Resolved) -> String {
    let s = &r.settings;
    let mut out = String::new();
    out.push_str(&format!(
        "config file:        {}\n",
        r.config_file
            .as_ref()
            .map_or("(none)".to_string(), |p| p.display().to_string())
    ));
    out.push_str(&format!("home:               {}\n", s.home.display()));
    out.push_str(&format!("from:               {}\n", s.from));
    out.push_str(&format!("transport:          {}\n", s.transport));
    out.push_str(&describe_limits(s));
    out.push_str(&describe_mail_and_more(s));
    out
}

/// The lines of [`describe`] about what one mail or sender may cause: sizes, counts,
/// games for others, confirmation, the lock, sending and retries.
fn describe_limits(s: &Settings) -> String {
    let mut out = String::new();
    out.push_str(&format!("max message bytes:  {}\n", s.max_message_bytes));
    out.push_str(&format!(
        "mails per sender:   {} per {} s\n",
        s.rate_limit.max, s.rate_limit.period
    ));
    out.push_str(&format!(
        "per mail:           {} commands, {} replies\n",
        s.commands_per_mail, s.replies_per_mail
    ));
    out.push_str(&match s.challenges_for_others_per_day {
        0 => "games for others:   none (challenges for two other players are turned off on this server)\n".to_string(),
        n => format!("games for others:   {n} a day per sender and per player\n"),
    });
    out.push_str(&format!(
        "confirm addresses:  {}\n",
        if s.confirm_addresses {
            format!(
                "yes (at most {} mails a day to an unconfirmed address, {} to any mailbox for mail that proves no sender)",
                s.unconfirmed_mails_per_day, s.stranger_mails_per_day
            )
        } else {
            "no (every address counts as confirmed)".to_string()
        }
    ));
    out.push_str(&format!(
        "trusted authserv:   {}\n",
        match &s.trusted_authserv_id {
            Some(id) => format!(
                "{id} (its Authentication-Results are read: a From failing DMARC there proves nothing)"
            ),
            None => "none (Authentication-Results headers are not read)".to_string(),
        }
    ));
    out.push_str(&format!(
        "token proofs:       {}\n",
        match s.token_rule {
            TokenRule::NotFailed => "a Reply or play link proves its player unless the From failed the checks",
            TokenRule::TrustedPass => "a Reply or play link proves its player only when the trusted checks passed the From (require_dmarc_pass)",
        }
    ));
    out.push_str(&format!(
        "store lock wait:    {} s (then exit 75)\n",
        s.lock_wait.as_secs()
    ));
    out.push_str(&format!(
        "send timeout:       {} s per SMTP connection or sendmail run\n",
        s.send_timeout.as_secs()
    ));
    out.push_str(&format!(
        "retries:            after {} s, doubling to {} s; given up after {} days\n",
        RETRY_FIRST.as_secs(),
        RETRY_MAX.as_secs(),
        GIVE_UP_AFTER.as_secs() / 86_400
    ));
    out
}

/// The lines of [`describe`] about the board mails, the web site, the robots and the
/// operator.
fn describe_mail_and_more(s: &Settings) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "board mails:        {}\n",
        if s.html_mail {
            "text and HTML with the picture (text only for players who chose it)"
        } else {
            "text only ([mail] html = false)"
        }
    ));
    out.push_str(&format!(
        "web site:           {}\n",
        s.site.as_ref().map_or("(none)".to_string(), |site| format!(
            "{}{}",
            site.out.display(),
            site.url
                .as_ref()
                .map_or(String::new(), |u| format!(", published at {u}"))
        ))
    ));
    out.push_str(&format!(
        "robots:             robot1 .. robot5; robot5 thinks {} ms a turn; at most {} robot turns a run, \
         {} s of thinking an hour, {} s of it on one person's games (one mailbox), {} s on all \
         strangers' together\n",
        s.robot_think.as_millis(),
        s.robot_turns_per_run,
        s.robot_think_per_hour.as_secs(),
        s.robot_think_per_player_hour.as_secs(),
        s.robot_think_strangers_per_hour.as_secs()
    ));
    out.push_str(&format!(
        "reviews:            {} playouts a position; at most {} s of the robots' thinking an hour\n",
        s.review_playouts,
        s.review_per_hour.as_secs()
    ));
    out.push_str(&format!(
        "bounces:            {}\n",
        if s.verp {
            format!(
                "read (VERP bounce addresses); an address fails after {} hard bounces over a day",
                s.hard_bounces
            )
        } else {
            "not read ([mail] verp = false: replies leave with `from` as envelope sender)"
                .to_string()
        }
    ));
    out.push_str(&describe_dkim(s));
    out.push_str(&format!(
        "operator:           {}\n",
        s.operator.as_ref().map_or(
            "(none: replies given up are only logged)".to_string(),
            |a| a.to_string()
        )
    ));
    out
}

/// The lines of [`describe`] about DKIM: the key in use and the TXT record to publish
/// for it, or why there is none.
fn describe_dkim(s: &Settings) -> String {
    let Some(d) = &s.dkim else {
        return "dkim:               none (replies leave unsigned unless the mail system \
                signs them: docs/operations.md)\n"
            .to_string();
    };
    match DkimKey::load(&d.domain, &d.selector, &d.key_file) {
        Ok(key) => format!(
            "dkim:               {} key {}, replies signed for d={}{}\n\
             dkim record:        publish this TXT record:\n    {} IN TXT {}\n",
            key.algorithm(),
            d.key_file.display(),
            d.domain,
            if matches!(s.transport, Transport::Outbox(_)) {
                " (not the outbox folder's: it is written unsigned)"
            } else {
                ""
            },
            key.record_name(),
            quoted_pieces(&key.record())
        ),
        Err(e) => format!("dkim:               not usable: {e}\n"),
    }
}

/// A TXT record's text as a zone file writes it: quoted pieces of at most 250
/// characters (one DNS string holds 255 at most), joined by spaces.
fn quoted_pieces(text: &str) -> String {
    text.as_bytes()
        .chunks(250)
        .map(|c| format!("\"{}\"", String::from_utf8_lossy(c)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The problem when the robots' hour cannot hold what one person, all strangers and
/// the reviews may take together and still leave another person's whole share: then
/// an honest player's robot turn could wait for the next hour. One turn may go past
/// each of the two shares (robot5's think time each), and one review past the
/// reviews' share (counted as one more robot5 turn: a review of a long game takes
/// about a second at the default playouts). With the defaults: 300 + 60 + 120 + 3 x 2
/// + 300 = 786 s of 1,200.
fn robot_hour_too_small(s: &Settings) -> Option<String> {
    let (person, strangers) = (
        s.robot_think_per_player_hour,
        s.robot_think_strangers_per_hour,
    );
    let past = s.robot_think * 3;
    let needed = person * 2 + strangers + s.review_per_hour + past;
    (s.robot_think_per_hour < needed).then(|| {
        format!(
            "robot.think_seconds_per_hour = {} is too small: one person ({} s), all strangers \
             ({} s), the reviews ({} s) and the turns past their shares ({} ms) must leave \
             another person's whole share ({} s), or an honest player's robot turn waits for \
             the next hour: make it at least {} s",
            s.robot_think_per_hour.as_secs(),
            person.as_secs(),
            strangers.as_secs(),
            s.review_per_hour.as_secs(),
            past.as_millis(),
            person.as_secs(),
            needed.as_secs_f64().ceil()
        )
    })
}
