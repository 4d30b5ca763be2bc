//! Commands as players write them in a Subject line (pbmserv-reference.md §2), parsed
//! with nom: words split on white space, command words case-insensitive. A command
//! that does not fit its syntax is refused with the syntax players know
//! (`Syntax is "yinsh move <board> <userid> <password> <move>"`) and what was wrong.

use nom::bytes::complete::take_till1;
use nom::character::complete::{digit1, space0};
use nom::combinator::{all_consuming, map_res, opt};
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

pub use super::command_ext::{GameFilter, UnknownFilter};
use super::store::{Password, UserId};

/// A board and, optionally, the turn number to show it at (`104#12`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardRef {
    /// The board number.
    pub board: u32,
    /// Show the game as it was after this many turns.
    pub at: Option<u32>,
}

/// A server-wide or YINSH command, as parsed from a Subject line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// `help [subject ...]`
    Help {
        /// Topics asked for.
        topics: Vec<String>,
    },
    /// `signup userid password [address ...]` (also `add`).
    Signup {
        /// The new userid.
        userid: UserId,
        /// Its password.
        password: Password,
        /// Addresses for its mail; the sender's when empty.
        addresses: Vec<String>,
    },
    /// `change password userid current-password new-password`
    ChangePassword {
        /// The account.
        userid: UserId,
        /// Its current password.
        password: Password,
        /// The new one.
        new_password: Password,
    },
    /// `change address userid password [address ...]`
    ChangeAddress {
        /// The account.
        userid: UserId,
        /// Its password.
        password: Password,
        /// The new addresses; the sender's when empty.
        addresses: Vec<String>,
    },
    /// `signoff userid password` (also `delete`).
    Signoff {
        /// The account.
        userid: UserId,
        /// Its password.
        password: Password,
    },
    /// `list [game-type ...]`
    List,
    /// `multiple`: the body holds one command per line.
    Multiple,
    /// `yinsh help`
    YinshHelp,
    /// `yinsh challenge [-blitz] [--nagtime=N] [--forfeittime=N] userid1 userid2`
    Challenge {
        /// Blitz variant.
        blitz: bool,
        /// Days without a move before the player to move is nagged (default 7).
        nag_days: Option<u32>,
        /// Days without a move before the player to move forfeits (default 21).
        forfeit_days: Option<u32>,
        /// userid1: plays White and moves first.
        white: UserId,
        /// userid2: plays Black.
        black: UserId,
    },
    /// `yinsh move board userid password move[#moveno]`
    Move {
        /// The board.
        board: u32,
        /// Who moves.
        userid: UserId,
        /// Their password.
        password: Password,
        /// The turn as written (without `#moveno`).
        text: String,
        /// The turn number it is meant to get.
        moveno: Option<u32>,
    },
    /// `yinsh resign board userid password` (or `resign` as the move).
    Resign {
        /// The board.
        board: u32,
        /// Who resigns.
        userid: UserId,
        /// Their password.
        password: Password,
    },
    /// `yinsh show board[#moveno] ...`
    Show {
        /// Boards to show.
        boards: Vec<BoardRef>,
    },
    /// `yinsh move board userid password propose|undo|accept|reject`
    Offer {
        /// The board.
        board: u32,
        /// Who offers or answers.
        userid: UserId,
        /// Their password.
        password: Password,
        /// What they do.
        action: OfferAction,
    },
    /// `yinsh queue board userid password move[#moveno]`: played when it is their turn.
    Queue {
        /// The board.
        board: u32,
        /// Who queues.
        userid: UserId,
        /// Their password.
        password: Password,
        /// The turn as written.
        text: String,
        /// The turn number it is meant to get.
        moveno: Option<u32>,
    },
    /// `yinsh submit board userid password move[#moveno]`: a preview, played on confirm.
    Submit {
        /// The board.
        board: u32,
        /// Who submits.
        userid: UserId,
        /// Their password.
        password: Password,
        /// The turn as written.
        text: String,
        /// The turn number it is meant to get.
        moveno: Option<u32>,
    },
    /// `yinsh confirm board userid password`: play the submitted move.
    Confirm {
        /// The board.
        board: u32,
        /// Who confirms.
        userid: UserId,
        /// Their password.
        password: Password,
    },
    /// `yinsh preview board[#moveno] move+`: the board after hypothetical turns.
    Preview {
        /// The board, and the turn to start from.
        at: BoardRef,
        /// The turns to try, in order.
        moves: Vec<String>,
    },
    /// `yinsh chat board userid password`: the body goes to the other player and watchers.
    Chat {
        /// The board.
        board: u32,
        /// Who writes.
        userid: UserId,
        /// Their password.
        password: Password,
    },
    /// `yinsh subscribe|unsubscribe board userid password`
    Subscribe {
        /// The board.
        board: u32,
        /// Who watches.
        userid: UserId,
        /// Their password.
        password: Password,
        /// `true` to subscribe, `false` to unsubscribe.
        on: bool,
    },
    /// `yinsh showas userid password [board+ | all | active | inactive | next]`
    ShowAs {
        /// Who reads.
        userid: UserId,
        /// Their password.
        password: Password,
        /// Boards named; when empty, the player's games chosen by `filter`.
        boards: Vec<BoardRef>,
        /// Which of their games.
        filter: GameFilter,
    },
    /// `yinsh show userid+ [filter]` and `all show userid [next|active]`
    ShowPlayers {
        /// Whose games.
        userids: Vec<UserId>,
        /// Which games.
        filter: GameFilter,
    },
    /// `yinsh standings` or `yinsh ratings`
    Standings,
    /// `yinsh history`: finished games.
    History,
    /// `message userid password to+`: the body goes to those players.
    Message {
        /// Who writes.
        userid: UserId,
        /// Their password.
        password: Password,
        /// The recipients.
        to: Vec<UserId>,
    },
    /// `broadcast userid password`: the body goes to every player (admins only).
    Broadcast {
        /// Who writes.
        userid: UserId,
        /// Their password.
        password: Password,
    },
    /// `vacation userid password days`: pause the player's clocks (0 ends it).
    Vacation {
        /// Who.
        userid: UserId,
        /// Their password.
        password: Password,
        /// How many days from now.
        days: u32,
    },
    /// `yinsh games userid ... [all|active|inactive|next]`
    Games {
        /// Players whose games to list: at least one (the mail does not say whose
        /// account the sender has).
        userids: Vec<UserId>,
        /// Which games.
        filter: GameFilter,
    },
}

/// A draw offer, a take-back request, or the answer to one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OfferAction {
    /// Offer a draw.
    Propose,
    /// Ask to take back your last turn.
    Undo,
    /// Accept the other player's offer.
    Accept,
    /// Reject it.
    Reject,
}

/// Why a Subject line is not a command.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum CommandError {
    /// Nothing in the Subject.
    #[error("The Subject line is empty: it must hold a command, like \"yinsh help\" or \"help\".")]
    Empty,
    /// An unknown first word.
    #[error(
        "Unknown command \"{0}\". Commands are: help, signup, change, signoff, list, multiple, and yinsh ... (send \"help\" for the list)."
    )]
    Unknown(String),
    /// A game this server does not run.
    #[error("This server runs YINSH only; \"{0}\" is not a game here. Write \"yinsh ...\".")]
    OtherGame(String),
    /// An unknown `yinsh` subcommand.
    #[error("Unknown yinsh command \"{0}\". Send \"yinsh help\" for the commands.")]
    UnknownYinsh(String),
    /// The words do not fit the command's syntax.
    #[error("Syntax is \"{usage}\": {problem}")]
    Syntax {
        /// The command's syntax.
        usage: &'static str,
        /// What was wrong.
        problem: String,
    },
}

/// Syntax lines, as `help` shows them.
pub mod usage {
    /// `signup`
    pub const SIGNUP: &str = "signup <userid> <password> [<e-mail address> ...]";
    /// `add`
    pub const ADD: &str = "add <userid> <password> [<e-mail address> ...]";
    /// `change password`
    pub const CHANGE_PASSWORD: &str = "change password <userid> <current-password> <new-password>";
    /// `change address`
    pub const CHANGE_ADDRESS: &str = "change address <userid> <password> [<e-mail address> ...]";
    /// `change`
    pub const CHANGE: &str = "change password ... | change address ...";
    /// `signoff`
    pub const SIGNOFF: &str = "signoff <userid> <password>";
    /// `delete`
    pub const DELETE: &str = "delete <userid> <password>";
    /// `multiple`
    pub const MULTIPLE: &str = "multiple";
    /// `yinsh challenge`
    pub const CHALLENGE: &str = "yinsh challenge [-blitz] <userid1> <userid2>";
    /// `yinsh move`
    pub const MOVE: &str = "yinsh move <board> <userid> <password> <move>";
    /// `yinsh resign`
    pub const RESIGN: &str = "yinsh resign <board> <userid> <password>";
    /// `yinsh show`
    pub const SHOW: &str = "yinsh show <board>[#<moveno>] ...";
    /// `yinsh games`
    pub const GAMES: &str = "yinsh games <userid> ... [all | active | inactive | next]";
    /// `yinsh help`
    pub const YINSH_HELP: &str = "yinsh help";
    /// `yinsh queue`
    pub const QUEUE: &str = "yinsh queue <board> <userid> <password> <move>[#<moveno>]";
    /// `yinsh submit`
    pub const SUBMIT: &str = "yinsh submit <board> <userid> <password> <move>[#<moveno>]";
    /// `yinsh confirm`
    pub const CONFIRM: &str = "yinsh confirm <board> <userid> <password>";
    /// `yinsh preview`
    pub const PREVIEW: &str = "yinsh preview <board>[#<moveno>] <move> ...";
    /// `yinsh chat`
    pub const CHAT: &str = "yinsh chat <board> <userid> <password>";
    /// `yinsh subscribe`
    pub const SUBSCRIBE: &str = "yinsh subscribe <board> <userid> <password>";
    /// `yinsh unsubscribe`
    pub const UNSUBSCRIBE: &str = "yinsh unsubscribe <board> <userid> <password>";
    /// `yinsh showas`
    pub const SHOWAS: &str =
        "yinsh showas <userid> <password> [<board> ... | all | active | inactive | next]";
    /// `message`
    pub const MESSAGE: &str = "message <userid> <password> <to-userid> ...";
    /// `broadcast`
    pub const BROADCAST: &str = "broadcast <userid> <password>";
    /// `vacation`
    pub const VACATION: &str = "vacation <userid> <password> <days>";
    /// `all show`
    pub const ALL_SHOW: &str = "all show <userid> [next | active]";
}

pub(super) type Res<'a, T> = IResult<&'a str, T>;

// word := space* (any non-space char)+
pub(super) fn word(i: &str) -> Res<'_, &str> {
    preceded(space0, take_till1(char::is_whitespace)).parse(i)
}

// rest := space* (anything)   — the rest of the line, trimmed
pub(super) fn rest(i: &str) -> Res<'_, &str> {
    Ok(("", i.trim()))
}

// board := space* digit+
pub(super) fn board(i: &str) -> Res<'_, u32> {
    preceded(space0, map_res(digit1, str::parse::<u32>)).parse(i)
}

// board_ref := board ("#" digit+)?
pub(super) fn board_ref(i: &str) -> Res<'_, BoardRef> {
    let (i, board) = board(i)?;
    let (i, at) = opt(preceded(
        nom::character::complete::char('#'),
        map_res(digit1, str::parse::<u32>),
    ))
    .parse(i)?;
    Ok((i, BoardRef { board, at }))
}

fn end(i: &str) -> Res<'_, ()> {
    let (i, _) = space0(i)?;
    nom::combinator::eof(i).map(|(i, _)| (i, ()))
}

pub(super) fn syntax(usage: &'static str, problem: impl Into<String>) -> CommandError {
    CommandError::Syntax {
        usage,
        problem: problem.into(),
    }
}

/// Run a nom parser over all of `args`, turning a failure into the command's syntax
/// error.
pub(super) fn args<'a, O>(
    args: &'a str,
    usage: &'static str,
    what: &str,
    p: impl Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
) -> Result<O, CommandError> {
    all_consuming(p).parse(args).map(|(_, o)| o).map_err(|e| {
        let at = match &e {
            nom::Err::Error(e) | nom::Err::Failure(e) => e.input.trim(),
            nom::Err::Incomplete(_) => "",
        };
        if at.is_empty() {
            syntax(
                usage,
                format!("expected {what}, but the line ends too soon"),
            )
        } else {
            syntax(usage, format!("expected {what}, found \"{at}\""))
        }
    })
}

pub(super) fn userid(text: &str, usage: &'static str) -> Result<UserId, CommandError> {
    text.parse::<UserId>()
        .map_err(|e| syntax(usage, format!("\"{text}\" is not a valid userid ({e})")))
}

pub(super) fn password(text: &str, usage: &'static str) -> Result<Password, CommandError> {
    // Never echo the text: it may be a password.
    text.parse::<Password>()
        .map_err(|e| syntax(usage, format!("the password is not valid ({e})")))
}

fn addresses(words: Vec<&str>, usage: &'static str) -> Result<Vec<String>, CommandError> {
    words
        .into_iter()
        .map(|w| {
            let w = w.trim_matches(|c| c == '<' || c == '>' || c == ',');
            if looks_like_address(w) {
                Ok(w.to_string())
            } else {
                Err(syntax(usage, format!("\"{w}\" is not an e-mail address")))
            }
        })
        .collect()
}

/// A plain check that `s` is `local@domain` with no spaces or odd characters.
pub fn looks_like_address(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    !local.is_empty()
        && s.len() <= 254
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && s.chars()
            .all(|c| c.is_ascii_graphic() && !"<>()[]\\,;:\"".contains(c))
        && domain
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '.' || c == '-')
}

/// The words of a command that carries a move:
/// `<board> <userid> <password> <move>[#<moveno>]`.
pub(super) struct MoveArgs<'a> {
    pub(super) board: u32,
    pub(super) userid: UserId,
    pub(super) password: Password,
    /// The move as written, without `#<moveno>`.
    pub(super) text: &'a str,
    pub(super) moveno: Option<u32>,
}

/// Parse the words after `yinsh move`, `queue` or `submit` (`usage` is the command's
/// syntax line, for the errors).
pub(super) fn move_args<'a>(
    after: &'a str,
    usage: &'static str,
) -> Result<MoveArgs<'a>, CommandError> {
    let (b, id, p, text) = args(
        after,
        usage,
        "a board number, a userid, a password and a move",
        (board, word, word, rest),
    )?;
    if text.is_empty() {
        return Err(syntax(usage, "the move is missing after the password"));
    }
    let (text, moveno) = split_moveno(text, usage)?;
    Ok(MoveArgs {
        board: b,
        userid: userid(id, usage)?,
        password: password(p, usage)?,
        text,
        moveno,
    })
}

/// Split `text` at a trailing `#N` turn number.
fn split_moveno<'a>(
    text: &'a str,
    usage: &'static str,
) -> Result<(&'a str, Option<u32>), CommandError> {
    match text.rsplit_once('#') {
        None => Ok((text, None)),
        Some((mv, n)) => match n.trim().parse::<u32>() {
            Ok(n) => Ok((mv.trim_end(), Some(n))),
            Err(_) => Err(syntax(
                usage,
                format!(
                    "\"#{n}\" is not a move number: write the move, then # and the number it will get, like e5-e9#12"
                ),
            )),
        },
    }
}

impl Command {
    /// Parse a Subject line (already stripped of `Re:` and tags).
    ///
    /// ```
    /// use yinsh_pbem::server::command::Command;
    /// let c = Command::parse("YINSH show 104#12").unwrap();
    /// assert!(matches!(c, Command::Show { .. }));
    /// assert!(Command::parse("yinsh move 104 alice").unwrap_err().to_string()
    ///     .starts_with("Syntax is \"yinsh move <board> <userid> <password> <move>\""));
    /// ```
    pub fn parse(line: &str) -> Result<Command, CommandError> {
        let (after, first) = match word(line) {
            Ok(ok) => ok,
            Err(_) => return Err(CommandError::Empty),
        };
        match first.to_ascii_lowercase().as_str() {
            "help" => {
                let topics = args(after, "help [<subject> ...]", "topics", many0(word))?;
                Ok(Command::Help {
                    topics: topics.into_iter().map(str::to_ascii_lowercase).collect(),
                })
            }
            "signup" | "add" => {
                let usage = if first.eq_ignore_ascii_case("add") {
                    usage::ADD
                } else {
                    usage::SIGNUP
                };
                let (u, p, a) = args(
                    after,
                    usage,
                    "a userid, a password and optional e-mail addresses",
                    (word, word, many0(word)),
                )?;
                Ok(Command::Signup {
                    userid: userid(u, usage)?,
                    password: password(p, usage)?,
                    addresses: addresses(a, usage)?,
                })
            }
            "change" => {
                let (after, what) = word(after).map_err(|_| {
                    syntax(
                        usage::CHANGE,
                        "expected \"password\" or \"address\" after change",
                    )
                })?;
                match what.to_ascii_lowercase().as_str() {
                    "password" => {
                        let u = usage::CHANGE_PASSWORD;
                        let (id, old, new) = args(
                            after,
                            u,
                            "a userid, the current password and the new one",
                            (word, word, word),
                        )?;
                        Ok(Command::ChangePassword {
                            userid: userid(id, u)?,
                            password: password(old, u)?,
                            new_password: password(new, u)?,
                        })
                    }
                    "address" | "addresses" => {
                        let u = usage::CHANGE_ADDRESS;
                        let (id, p, a) = args(
                            after,
                            u,
                            "a userid, a password and optional e-mail addresses",
                            (word, word, many0(word)),
                        )?;
                        Ok(Command::ChangeAddress {
                            userid: userid(id, u)?,
                            password: password(p, u)?,
                            addresses: addresses(a, u)?,
                        })
                    }
                    other => Err(syntax(
                        usage::CHANGE,
                        format!("expected \"password\" or \"address\", found \"{other}\""),
                    )),
                }
            }
            "signoff" | "delete" => {
                let u = if first.eq_ignore_ascii_case("delete") {
                    usage::DELETE
                } else {
                    usage::SIGNOFF
                };
                let (id, p) = args(after, u, "a userid and a password", (word, word))?;
                Ok(Command::Signoff {
                    userid: userid(id, u)?,
                    password: password(p, u)?,
                })
            }
            "list" => Ok(Command::List),
            "multiple" => {
                args(
                    after,
                    usage::MULTIPLE,
                    "nothing more (the commands go in the body, one per line)",
                    end,
                )?;
                Ok(Command::Multiple)
            }
            "yinsh" => Command::parse_yinsh(after),
            w @ ("message" | "broadcast" | "vacation" | "all") => {
                super::command_ext::parse_server(w, after)
            }
            other => {
                if matches!(
                    other,
                    "chess"
                        | "go"
                        | "gipf"
                        | "zertz"
                        | "dvonn"
                        | "tzaar"
                        | "punct"
                        | "lyngk"
                        | "othello"
                        | "reversi"
                        | "backgammon"
                        | "checkers"
                ) {
                    Err(CommandError::OtherGame(other.to_string()))
                } else {
                    Err(CommandError::Unknown(first.to_string()))
                }
            }
        }
    }

    fn parse_yinsh(line: &str) -> Result<Command, CommandError> {
        let (after, sub) = word(line).map_err(|_| CommandError::UnknownYinsh(String::new()))?;
        match sub.to_ascii_lowercase().as_str() {
            "help" => Ok(Command::YinshHelp),
            "challenge" => {
                let u = usage::CHALLENGE;
                let words = args(after, u, "two userids", many0(word))?;
                let mut blitz = false;
                let (mut nag_days, mut forfeit_days) = (None, None);
                let mut ids = Vec::new();
                for w in words {
                    let lw = w.to_ascii_lowercase();
                    if lw == "-blitz" || lw == "--blitz" {
                        blitz = true;
                    } else if lw == "-normal" || lw == "--normal" {
                        blitz = false;
                    } else if let Some((name, value)) = lw.trim_start_matches('-').split_once('=')
                        && w.starts_with('-')
                        && (name == "nagtime" || name == "forfeittime")
                    {
                        let days = value.parse::<u32>().ok().filter(|d| (1..=365).contains(d));
                        let Some(days) = days else {
                            return Err(syntax(
                                u,
                                format!(
                                    "{w}: the number of days must be 1 to 365, like --{name}=14"
                                ),
                            ));
                        };
                        if name == "nagtime" {
                            nag_days = Some(days);
                        } else {
                            forfeit_days = Some(days);
                        }
                    } else if w.starts_with('-') {
                        return Err(syntax(
                            u,
                            format!(
                                "unknown option \"{w}\": the options are -blitz, --nagtime=<days> and --forfeittime=<days>"
                            ),
                        ));
                    } else {
                        ids.push(userid(w, u)?);
                    }
                }
                match <[UserId; 2]>::try_from(ids) {
                    Ok([white, black]) => Ok(Command::Challenge {
                        blitz,
                        nag_days,
                        forfeit_days,
                        white,
                        black,
                    }),
                    Err(ids) => Err(syntax(
                        u,
                        format!("expected two userids, found {}", ids.len()),
                    )),
                }
            }
            "move" => {
                let MoveArgs {
                    board: b,
                    userid,
                    password,
                    text,
                    moveno,
                } = move_args(after, usage::MOVE)?;
                let action = match text.to_ascii_lowercase().as_str() {
                    "propose" => Some(OfferAction::Propose),
                    "undo" => Some(OfferAction::Undo),
                    "accept" => Some(OfferAction::Accept),
                    "reject" => Some(OfferAction::Reject),
                    _ => None,
                };
                if let Some(action) = action {
                    return Ok(Command::Offer {
                        board: b,
                        userid,
                        password,
                        action,
                    });
                }
                if text.eq_ignore_ascii_case("resign") {
                    return Ok(Command::Resign {
                        board: b,
                        userid,
                        password,
                    });
                }
                Ok(Command::Move {
                    board: b,
                    userid,
                    password,
                    text: text.to_string(),
                    moveno,
                })
            }
            "resign" => {
                let u = usage::RESIGN;
                let (b, id, p) = args(
                    after,
                    u,
                    "a board number, a userid and a password",
                    (board, word, word),
                )?;
                Ok(Command::Resign {
                    board: b,
                    userid: userid(id, u)?,
                    password: password(p, u)?,
                })
            }
            "show" => {
                let u = usage::SHOW;
                let words = args(after, u, "board numbers or userids", many0(word))?;
                let (userids, filter, boards) = super::command_ext::ids_and_filter(&words, u)?;
                match (boards.is_empty(), userids.is_empty()) {
                    (false, true) => Ok(Command::Show { boards }),
                    (true, false) => Ok(Command::ShowPlayers { userids, filter }),
                    (true, true) => Err(syntax(u, "expected at least one board number or userid")),
                    (false, false) => Err(syntax(
                        u,
                        "write board numbers or userids, not both (send two mails)",
                    )),
                }
            }
            w @ ("showas" | "queue" | "submit" | "confirm" | "chat" | "subscribe"
            | "unsubscribe" | "preview") => super::command_ext::parse_yinsh(w, sub, after),
            "standings" | "ratings" => Ok(Command::Standings),
            "history" => Ok(Command::History),
            "games" => {
                let u = usage::GAMES;
                let words = args(after, u, "userids", many0(word))?;
                let mut filter = GameFilter::Active;
                let mut userids = Vec::new();
                for w in words {
                    match w.parse::<GameFilter>() {
                        Ok(f) => filter = f,
                        Err(_) => userids.push(userid(w, u)?),
                    }
                }
                if userids.is_empty() {
                    return Err(syntax(u, "expected at least one userid"));
                }
                Ok(Command::Games { userids, filter })
            }
            _ => Err(CommandError::UnknownYinsh(sub.to_string())),
        }
    }
}
