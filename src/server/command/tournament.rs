//! The parsers of the tournament commands (issue 49): `tournament create|join|leave|
//! start|show <name> ...` (also written after `yinsh`, as `table.rs` reads it) and
//! `yinsh tournaments`. The name comes first, then the userid and password, then
//! `create`'s rules: `roundrobin` (the default) or `swiss`, `-rounds=N` (a Swiss's,
//! default 3), `-blitz`, `--nagtime=N`, `--forfeittime=N` (days), `-min=N` (default
//! 3), `-max=N` (default 16) and `-start=YYYY-MM-DD` (00:00 UTC that day).

use nom::multi::many0;

use crate::server::store::{Format, TournamentName};

use super::error::{CommandError, Problem};
use super::parsers::Parsed;
use super::types::{Command, TournamentAction, TournamentRules};
use super::words::{args, credentials, word};

/// The fewest players a tournament may be set to start with by default.
pub const MIN_PLAYERS: u32 = 3;
/// The most players by default.
pub const MAX_PLAYERS: u32 = 16;
/// The most players any tournament takes.
pub const MOST_PLAYERS: u32 = 64;
/// A Swiss's rounds by default.
pub const ROUNDS: u32 = 3;

fn name(w: &str, usage: &'static str) -> Result<TournamentName, CommandError> {
    w.parse()
        .map_err(|e| Problem::TournamentName(e).within(usage))
}

/// `<name> <userid> <password>`, for `action`.
fn with_auth(after: &str, usage: &'static str, action: TournamentAction) -> Parsed {
    let what = "a tournament name, a userid and a password";
    let (n, id, pw) = args(after, usage, what, (word, word, word))?;
    Ok(Command::Tournament {
        name: name(n, usage)?,
        auth: Some(credentials(id, pw, usage)?),
        action,
    })
}

/// `tournament join <name> <userid> <password>`
pub(super) fn join(after: &str, usage: &'static str) -> Parsed {
    with_auth(after, usage, TournamentAction::Join)
}

/// `tournament leave <name> <userid> <password>`
pub(super) fn leave(after: &str, usage: &'static str) -> Parsed {
    with_auth(after, usage, TournamentAction::Leave)
}

/// `tournament start <name> <userid> <password>`
pub(super) fn start(after: &str, usage: &'static str) -> Parsed {
    with_auth(after, usage, TournamentAction::Start)
}

/// `tournament show <name>`
pub(super) fn show(after: &str, usage: &'static str) -> Parsed {
    let n = args(after, usage, "a tournament name", word)?;
    Ok(Command::Tournament {
        name: name(n, usage)?,
        auth: None,
        action: TournamentAction::Show,
    })
}

/// `yinsh tournaments`: the words after it do not matter.
pub(super) fn list(_after: &str, _usage: &'static str) -> Parsed {
    Ok(Command::Tournaments)
}

/// `tournament create <name> <userid> <password> [roundrobin|swiss] [options]`
pub(super) fn create(after: &str, usage: &'static str) -> Parsed {
    let words = args(
        after,
        usage,
        "a tournament name, a userid and a password",
        many0(word),
    )?;
    let [n, id, pw, options @ ..] = words.as_slice() else {
        return Err(Problem::Expected {
            what: "a tournament name, a userid and a password",
            word: None,
        }
        .within(usage));
    };
    let name = name(n, usage)?;
    let auth = credentials(id, pw, usage)?;
    let mut swiss = false;
    let mut rounds = ROUNDS;
    let mut rules = TournamentRules {
        format: Format::RoundRobin,
        blitz: false,
        nag_days: None,
        forfeit_days: None,
        min: MIN_PLAYERS,
        max: MAX_PLAYERS,
        start: None,
    };
    for w in options {
        let lw = w.to_ascii_lowercase();
        let bad = || Problem::TournamentOption(w.to_string()).within(usage);
        let (key, value) = match lw.trim_start_matches('-').split_once('=') {
            Some((k, v)) => (k.to_string(), Some(v.to_string())),
            None => (lw.trim_start_matches('-').to_string(), None),
        };
        let number = |lo: u32, hi: u32| {
            value
                .as_deref()
                .and_then(|v| v.parse::<u32>().ok())
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(bad)
        };
        match key.as_str() {
            "roundrobin" | "round-robin" if value.is_none() => swiss = false,
            "swiss" if value.is_none() => swiss = true,
            "blitz" if value.is_none() => rules.blitz = true,
            "normal" if value.is_none() => rules.blitz = false,
            "rounds" => rounds = number(1, 20)?,
            "nagtime" => rules.nag_days = Some(number(1, 365)?),
            "forfeittime" => rules.forfeit_days = Some(number(1, 365)?),
            "min" => rules.min = number(2, MOST_PLAYERS)?,
            "max" => rules.max = number(2, MOST_PLAYERS)?,
            "start" => {
                rules.start = Some(value.as_deref().and_then(date).ok_or_else(bad)?);
            }
            _ => return Err(bad()),
        }
    }
    if swiss {
        rules.format = Format::Swiss { rounds };
    }
    Ok(Command::Tournament {
        name,
        auth: Some(auth),
        action: TournamentAction::Create(rules),
    })
}

/// `YYYY-MM-DD` as unix seconds at 00:00 UTC (years 2000 to 2999).
///
/// The days are counted from the civil date (Howard Hinnant's `days_from_civil`).
fn date(text: &str) -> Option<u64> {
    let mut parts = text.split('-');
    let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    let (y, m, d): (i64, i64, i64) = (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days_in = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if !(2000..=2999).contains(&y)
        || !(1..=12).contains(&m)
        || d < 1
        || d > days_in[(m - 1) as usize]
    {
        return None;
    }
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    u64::try_from(days * 86_400).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_read_as_midnight_utc() {
        assert_eq!(date("2027-01-01"), Some(1_798_761_600));
        assert_eq!(date("2028-02-29"), Some(1_835_395_200));
        assert_eq!(date("2027-02-29"), None);
        assert_eq!(date("2027-1-01"), None);
        assert_eq!(date("1999-12-31"), None);
    }
}
