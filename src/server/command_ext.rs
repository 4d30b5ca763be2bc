//! The parsing of the pbmserv commands added to the first set (pbmserv-reference.md
//! §2): `message`, `broadcast`, `vacation`, `all show`, and `yinsh showas`, `queue`,
//! `submit`, `confirm`, `chat`, `subscribe`, `unsubscribe`, `preview`; and the
//! [`GameFilter`] words of the listings. The helpers and the [`Command`] type are
//! those of `command.rs`.

use std::fmt;
use std::str::FromStr;

use nom::Parser;
use nom::combinator::all_consuming;
use nom::multi::many0;

use super::command::{
    BoardRef, Command, CommandError, MoveArgs, args, board, board_ref, move_args, password, syntax,
    usage, userid, word,
};
use super::store::UserId;

/// Which of a player's games a listing shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum GameFilter {
    /// Every game.
    All,
    /// Games still being played (the default).
    #[default]
    Active,
    /// Finished games.
    Inactive,
    /// Games where it is the player's turn.
    Next,
}

/// A word that is not one of `all`, `active`, `inactive`, `next`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("\"{0}\" is not a game filter: write all, active, inactive or next")]
pub struct UnknownFilter(pub String);

/// The filter words, in any case.
///
/// ```
/// use yinsh_pbem::server::command::GameFilter;
/// assert_eq!("NEXT".parse::<GameFilter>(), Ok(GameFilter::Next));
/// assert_eq!(GameFilter::Inactive.to_string().parse(), Ok(GameFilter::Inactive));
/// assert!("alice".parse::<GameFilter>().is_err());
/// ```
impl FromStr for GameFilter {
    type Err = UnknownFilter;

    fn from_str(s: &str) -> Result<GameFilter, UnknownFilter> {
        match s.to_ascii_lowercase().as_str() {
            "all" => Ok(GameFilter::All),
            "active" => Ok(GameFilter::Active),
            "inactive" => Ok(GameFilter::Inactive),
            "next" => Ok(GameFilter::Next),
            _ => Err(UnknownFilter(s.to_string())),
        }
    }
}

impl fmt::Display for GameFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameFilter::All => "all",
            GameFilter::Active => "active",
            GameFilter::Inactive => "inactive",
            GameFilter::Next => "next",
        })
    }
}

/// The server-wide commands `message`, `broadcast`, `vacation` and `all show`
/// (`first` lower-cased, `after` the rest of the line).
pub(super) fn parse_server(first: &str, after: &str) -> Result<Command, CommandError> {
    match first {
        "message" => {
            let u = usage::MESSAGE;
            let (id, p, to) = args(
                after,
                u,
                "a userid, a password and the userids to write to",
                (word, word, many0(word)),
            )?;
            if to.is_empty() {
                return Err(syntax(u, "expected at least one userid to write to"));
            }
            Ok(Command::Message {
                userid: userid(id, u)?,
                password: password(p, u)?,
                to: to
                    .into_iter()
                    .map(|t| userid(t, u))
                    .collect::<Result<_, _>>()?,
            })
        }
        "broadcast" => {
            let u = usage::BROADCAST;
            let (id, p) = args(after, u, "a userid and a password", (word, word))?;
            Ok(Command::Broadcast {
                userid: userid(id, u)?,
                password: password(p, u)?,
            })
        }
        "vacation" => {
            let u = usage::VACATION;
            let (id, p, d) = args(
                after,
                u,
                "a userid, a password and a number of days",
                (word, word, word),
            )?;
            let days = d.parse::<u32>().map_err(|_| {
                syntax(
                    u,
                    format!("\"{d}\" is not a number of days (0 ends a vacation)"),
                )
            })?;
            Ok(Command::Vacation {
                userid: userid(id, u)?,
                password: password(p, u)?,
                days,
            })
        }
        "all" => {
            let u = usage::ALL_SHOW;
            let words = args(after, u, "show and a userid", many0(word))?;
            match words.split_first() {
                Some((w, rest)) if w.eq_ignore_ascii_case("show") => {
                    let (userids, filter, boards) = ids_and_filter(rest, u)?;
                    if !boards.is_empty() || userids.is_empty() {
                        return Err(syntax(u, "expected a userid"));
                    }
                    Ok(Command::ShowPlayers { userids, filter })
                }
                _ => Err(syntax(u, "expected \"show\" after \"all\"")),
            }
        }
        _ => Err(CommandError::Unknown(first.to_string())),
    }
}

/// The yinsh subcommands of this file (`lsub` lower-cased, `sub` as written).
pub(super) fn parse_yinsh(lsub: &str, sub: &str, after: &str) -> Result<Command, CommandError> {
    match lsub {
        "showas" => {
            let u = usage::SHOWAS;
            let words = args(after, u, "a userid and a password", many0(word))?;
            let [id, p, rest @ ..] = words.as_slice() else {
                return Err(syntax(u, "expected a userid and a password"));
            };
            let (others, filter, boards) = ids_and_filter(rest, u)?;
            if let Some(o) = others.first() {
                return Err(syntax(
                    u,
                    format!("expected board numbers or all/active/inactive/next, found \"{o}\""),
                ));
            }
            Ok(Command::ShowAs {
                userid: userid(id, u)?,
                password: password(p, u)?,
                boards,
                filter,
            })
        }
        "queue" | "submit" => {
            let queue = lsub == "queue";
            let u = if queue { usage::QUEUE } else { usage::SUBMIT };
            let MoveArgs {
                board,
                userid,
                password,
                text,
                moveno,
            } = move_args(after, u)?;
            let text = text.to_string();
            Ok(if queue {
                Command::Queue {
                    board,
                    userid,
                    password,
                    text,
                    moveno,
                }
            } else {
                Command::Submit {
                    board,
                    userid,
                    password,
                    text,
                    moveno,
                }
            })
        }
        "confirm" | "chat" | "subscribe" | "unsubscribe" => {
            let u = match lsub {
                "confirm" => usage::CONFIRM,
                "chat" => usage::CHAT,
                "subscribe" => usage::SUBSCRIBE,
                _ => usage::UNSUBSCRIBE,
            };
            let (b, id, p) = args(
                after,
                u,
                "a board number, a userid and a password",
                (board, word, word),
            )?;
            let (board, userid, password) = (b, userid(id, u)?, password(p, u)?);
            Ok(match lsub {
                "confirm" => Command::Confirm {
                    board,
                    userid,
                    password,
                },
                "chat" => Command::Chat {
                    board,
                    userid,
                    password,
                },
                s => Command::Subscribe {
                    board,
                    userid,
                    password,
                    on: s == "subscribe",
                },
            })
        }
        "preview" => {
            let u = usage::PREVIEW;
            let (at, moves) = args(
                after,
                u,
                "a board number and moves",
                (board_ref, many0(word)),
            )?;
            if moves.is_empty() {
                return Err(syntax(u, "expected at least one move after the board"));
            }
            Ok(Command::Preview {
                at,
                moves: moves.into_iter().map(str::to_string).collect(),
            })
        }
        _ => Err(CommandError::UnknownYinsh(sub.to_string())),
    }
}

/// Split words into userids, a filter word and board references.
pub(super) fn ids_and_filter(
    words: &[&str],
    usage: &'static str,
) -> Result<(Vec<UserId>, GameFilter, Vec<BoardRef>), CommandError> {
    let mut filter = GameFilter::Active;
    let (mut ids, mut boards) = (Vec::new(), Vec::new());
    for w in words {
        if let Ok(f) = w.parse::<GameFilter>() {
            filter = f;
        } else if w.starts_with(|c: char| c.is_ascii_digit()) {
            match all_consuming(board_ref).parse(w) {
                Ok((_, r)) => boards.push(r),
                Err(_) => {
                    return Err(syntax(
                        usage,
                        format!("\"{w}\" is not a board number like 104 or 104#12"),
                    ));
                }
            }
        } else {
            ids.push(userid(w, usage)?);
        }
    }
    Ok((ids, filter, boards))
}

#[cfg(test)]
mod tests {
    use super::super::command::{Command, OfferAction};
    use super::*;

    fn parse(s: &str) -> Result<Command, CommandError> {
        Command::parse(s)
    }

    #[test]
    fn offers_are_moves_with_a_keyword() {
        assert!(matches!(
            parse("yinsh move 101 alice pw ACCEPT"),
            Ok(Command::Offer {
                board: 101,
                action: OfferAction::Accept,
                ..
            })
        ));
        assert!(matches!(
            parse("yinsh move 101 alice pw undo"),
            Ok(Command::Offer {
                action: OfferAction::Undo,
                ..
            })
        ));
    }

    #[test]
    fn queue_submit_preview_and_options() {
        assert!(matches!(
            parse("yinsh queue 101 bob pw e5-e9#12"),
            Ok(Command::Queue { moveno: Some(12), ref text, .. }) if text == "e5-e9"
        ));
        assert!(matches!(
            parse("yinsh preview 101#3 e5 f6"),
            Ok(Command::Preview { at: BoardRef { board: 101, at: Some(3) }, ref moves }) if moves.len() == 2
        ));
        assert!(parse("yinsh preview 101").is_err());
        assert!(matches!(
            parse("yinsh challenge --nagtime=3 --forfeittime=9 a b"),
            Ok(Command::Challenge {
                nag_days: Some(3),
                forfeit_days: Some(9),
                ..
            })
        ));
        let e = parse("yinsh challenge --nagtime=0 a b")
            .unwrap_err()
            .to_string();
        assert!(e.contains("1 to 365"), "{e}");
    }

    #[test]
    fn show_by_userid_showas_and_all_show() {
        assert!(matches!(
            parse("yinsh show alice bob next"),
            Ok(Command::ShowPlayers { ref userids, filter: GameFilter::Next }) if userids.len() == 2
        ));
        assert!(matches!(
            parse("yinsh showas alice pw 101 102#4"),
            Ok(Command::ShowAs { ref boards, .. }) if boards.len() == 2
        ));
        assert!(matches!(
            parse("ALL show alice"),
            Ok(Command::ShowPlayers { .. })
        ));
        assert!(parse("all games alice").is_err());
        assert!(parse("yinsh show 101 alice").is_err());
    }

    #[test]
    fn people_commands() {
        assert!(matches!(
            parse("message alice pw bob carol"),
            Ok(Command::Message { ref to, .. }) if to.len() == 2
        ));
        assert!(parse("message alice pw").is_err());
        assert!(matches!(
            parse("vacation alice pw 14"),
            Ok(Command::Vacation { days: 14, .. })
        ));
        let e = parse("vacation alice pw soon").unwrap_err().to_string();
        assert!(e.contains("\"soon\" is not a number of days"), "{e}");
        assert!(matches!(
            parse("broadcast alice pw"),
            Ok(Command::Broadcast { .. })
        ));
        assert!(matches!(parse("yinsh ratings"), Ok(Command::Standings)));
    }
}
