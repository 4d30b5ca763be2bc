//! Bounds on what one command may ask for, so that no Subject line (and no line of a
//! `multiple` body) can make the server do unbounded work or send unbounded mail:
//! repeated boards, userids and addresses count once, and each list has a cap. A
//! command over a cap is refused whole with [`Problem::TooMany`], nothing done.

use crate::mail::Address;

use super::error::{CommandError, Problem};
use super::types::Command;

/// Boards one `show` or `showas` may name.
pub const MAX_BOARDS: usize = 20;
/// Userids one listing (`show`, `games`, `all show`) or `message` may name.
pub const MAX_USERIDS: usize = 10;
/// E-mail addresses one account may have.
pub const MAX_ADDRESSES: usize = 3;
/// Moves one `preview` may try.
pub const MAX_PREVIEW_MOVES: usize = 40;
/// Topics one `help` may ask for.
pub const MAX_TOPICS: usize = 10;
/// Characters of one command line (a Subject, a line of a `multiple` body). The
/// longest real commands (a signup with three long addresses, a preview of 40 moves)
/// stay under 1,000, and a 100 kB `show` of one board repeated is still read (as one
/// board, issue 13's example); a longer line is refused unread, so no parser, spelling check or error
/// text ever works on more (a 1 MiB word was quoted twice in its error mail).
pub const MAX_LINE_CHARS: usize = 131_072;

/// `items` with repeats removed (the first of each kept, in order), refused when more
/// than `max` remain.
fn distinct<T>(
    items: Vec<T>,
    same: impl Fn(&T, &T) -> bool,
    max: usize,
    what: &'static str,
    usage: &'static str,
) -> Result<Vec<T>, CommandError> {
    let mut out: Vec<T> = Vec::with_capacity(items.len().min(max + 1));
    for item in items {
        if !out.iter().any(|o| same(o, &item)) {
            out.push(item);
        }
    }
    if out.len() > max {
        return Err(Problem::TooMany {
            what,
            max,
            found: out.len(),
        }
        .within(usage));
    }
    Ok(out)
}

/// `cmd` with its lists made distinct and checked against the caps.
pub(super) fn bounded(cmd: Command, usage: &'static str) -> Result<Command, CommandError> {
    let boards = |b: Vec<_>| distinct(b, |x, y| x == y, MAX_BOARDS, "boards", usage);
    let userids = |u: Vec<_>| distinct(u, |x, y| x == y, MAX_USERIDS, "userids", usage);
    let addresses = |a: Vec<Address>| {
        distinct(
            a,
            |x, y| x.eq_ignore_ascii_case(y),
            MAX_ADDRESSES,
            "e-mail addresses",
            usage,
        )
    };
    Ok(match cmd {
        Command::Help { topics } => Command::Help {
            topics: distinct(topics, |x, y| x == y, MAX_TOPICS, "topics", usage)?,
        },
        Command::Signup {
            userid,
            password,
            addresses: a,
        } => Command::Signup {
            userid,
            password,
            addresses: addresses(a)?,
        },
        Command::ChangeAddress { auth, addresses: a } => Command::ChangeAddress {
            auth,
            addresses: addresses(a)?,
        },
        Command::Show { boards: b } => Command::Show { boards: boards(b)? },
        Command::ShowAs {
            auth,
            boards: b,
            filter,
        } => Command::ShowAs {
            auth,
            boards: boards(b)?,
            filter,
        },
        Command::ShowPlayers { userids: u, filter } => Command::ShowPlayers {
            userids: userids(u)?,
            filter,
        },
        Command::Games {
            userids: u,
            filter,
            page,
        } => Command::Games {
            userids: userids(u)?,
            filter,
            page,
        },
        Command::Message { auth, to } => Command::Message {
            auth,
            to: userids(to)?,
        },
        Command::Preview { moves, .. } if moves.len() > MAX_PREVIEW_MOVES => {
            return Err(Problem::TooMany {
                what: "moves",
                max: MAX_PREVIEW_MOVES,
                found: moves.len(),
            }
            .within(usage));
        }
        other => other,
    })
}

#[cfg(test)]
mod tests {
    use super::super::types::BoardRef;
    use super::*;

    #[test]
    fn repeats_count_once_and_caps_refuse_the_whole_command() {
        let line = format!("yinsh show {}", "101 ".repeat(5000).trim_end());
        assert_eq!(
            Command::parse(&line),
            Ok(Command::Show {
                boards: vec![BoardRef {
                    board: 101.into(),
                    at: None
                }]
            })
        );
        let many: Vec<String> = (101..=121).map(|b| b.to_string()).collect();
        let e = Command::parse(&format!("yinsh show {}", many.join(" "))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "Syntax is \"yinsh show <board>[#<moveno>] ...\": at most 20 boards in one command (21 given): send the rest in another mail"
        );
        let to = "spam1 ".repeat(5000);
        let to = to.trim_end();
        match Command::parse(&format!("message spam1 pw1 {to}")) {
            Ok(Command::Message { to, .. }) => assert_eq!(to.len(), 1),
            other => panic!("{other:?}"),
        }
        let names: Vec<String> = (0..11).map(|k| format!("p{k}")).collect();
        assert!(Command::parse(&format!("message a pw {}", names.join(" "))).is_err());
        assert!(Command::parse("signup a pw a@x.org b@x.org c@x.org d@x.org").is_err());
        match Command::parse("signup a pw a@x.org A@X.ORG") {
            Ok(Command::Signup { addresses, .. }) => assert_eq!(addresses, ["a@x.org"]),
            other => panic!("{other:?}"),
        }
        let moves = "e5 ".repeat(41);
        let moves = moves.trim_end();
        assert!(Command::parse(&format!("yinsh preview 101 {moves}")).is_err());
    }
}
