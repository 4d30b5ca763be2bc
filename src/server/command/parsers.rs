//! One parser per command (pbmserv-reference.md §2): each reads the words after its
//! command word(s) into a [`Command`], or says, in the command's syntax line `usage`
//! (given by the table in `table.rs`), what does not fit. The word rules and the
//! shared readings (userid, password, move, listing) are in `words.rs`.

use nom::combinator::opt;
use nom::multi::many0;

use crate::server::model::{Password, UserId};

use super::error::{CommandError, Problem};
use super::said::Said;
use super::types::{BoardAction, Command, GameFilter, OfferAction, SettingChoice};
use super::words::{
    Listing, MoveArgs, addresses, args, auth_args, board_args, board_ref, credentials, end,
    listing, move_args, password, userid, word,
};

/// The result of a command parser.
pub(super) type Parsed = Result<Command, CommandError>;

/// `help [<subject> ...]`
pub(super) fn help(after: &str, usage: &'static str) -> Parsed {
    let topics = args(after, usage, "topics", many0(word))?;
    Ok(Command::Help {
        topics: topics.into_iter().map(str::to_ascii_lowercase).collect(),
    })
}

/// `signup|add <userid> <password> [<e-mail address> ...]`
pub(super) fn signup(after: &str, usage: &'static str) -> Parsed {
    let (id, pw, a) = id_pw_addresses(after, usage)?;
    Ok(Command::Signup {
        userid: userid(id, usage)?,
        password: password(pw, usage)?,
        addresses: addresses(&a, usage)?,
    })
}

/// The words `<userid> <password> [<e-mail address> ...]`, not yet read.
fn id_pw_addresses<'a>(
    after: &'a str,
    usage: &'static str,
) -> Result<(&'a str, &'a str, Vec<&'a str>), CommandError> {
    args(
        after,
        usage,
        "a userid, a password and optional e-mail addresses",
        (word, word, many0(word)),
    )
}

/// `change password <userid> <current-password> <new-password>`
pub(super) fn change_password(after: &str, usage: &'static str) -> Parsed {
    let (id, old, new) = args(
        after,
        usage,
        "a userid, the current password and the new one",
        (word, word, word),
    )?;
    Ok(Command::ChangePassword {
        auth: credentials(id, old, usage)?,
        new_password: password(new, usage)?,
    })
}

/// `change address <userid> <password> [<e-mail address> ...]`
pub(super) fn change_address(after: &str, usage: &'static str) -> Parsed {
    let (id, pw, a) = id_pw_addresses(after, usage)?;
    Ok(Command::ChangeAddress {
        auth: credentials(id, pw, usage)?,
        addresses: addresses(&a, usage)?,
    })
}

/// `signoff|delete <userid> <password>`
pub(super) fn signoff(after: &str, usage: &'static str) -> Parsed {
    Ok(Command::Signoff {
        auth: auth_args(after, usage)?,
    })
}

/// `list [<game-type> ...]`: the words after it do not matter.
pub(super) fn list(_after: &str, _usage: &'static str) -> Parsed {
    Ok(Command::List)
}

/// `multiple`, alone: the commands are in the body.
pub(super) fn multiple(after: &str, usage: &'static str) -> Parsed {
    args(
        after,
        usage,
        "nothing more (the commands go in the body, one per line)",
        end,
    )?;
    Ok(Command::Multiple)
}

/// `message <userid> <password> <to-userid> ...`
pub(super) fn message(after: &str, usage: &'static str) -> Parsed {
    let (id, pw, to) = args(
        after,
        usage,
        "a userid, a password and the userids to write to",
        (word, word, many0(word)),
    )?;
    if to.is_empty() {
        return Err(Problem::NoRecipient.within(usage));
    }
    let auth = credentials(id, pw, usage)?;
    let to = to
        .iter()
        .enumerate()
        .map(|(k, w)| {
            w.parse::<UserId>()
                .map(Said::from)
                .map_err(|_| Problem::Recipient { nth: k + 1 }.within(usage))
        })
        .collect::<Result<_, _>>()?;
    Ok(Command::Message { auth, to })
}

/// `broadcast <userid> <password>`
pub(super) fn broadcast(after: &str, usage: &'static str) -> Parsed {
    Ok(Command::Broadcast {
        auth: auth_args(after, usage)?,
    })
}

/// `verify <userid> <token>`
pub(super) fn verify(after: &str, usage: &'static str) -> Parsed {
    let (id, token) = args(after, usage, "a userid and the code", (word, word))?;
    Ok(Command::Verify {
        userid: userid(id, usage)?,
        token: password(token, usage)?,
    })
}

/// `vacation <userid> <password> <days>`
pub(super) fn vacation(after: &str, usage: &'static str) -> Parsed {
    let (id, pw, d) = args(
        after,
        usage,
        "a userid, a password and a number of days",
        (word, word, word),
    )?;
    let auth = credentials(id, pw, usage)?;
    let days = d.parse::<u32>().map_err(|_| Problem::Days.within(usage))?;
    Ok(Command::Vacation { auth, days })
}

/// `yinsh settings <userid> <password> [text-only | html | subject stable|moving |
/// own-turn skip|send]`
pub(super) fn settings(after: &str, usage: &'static str) -> Parsed {
    let (id, pw, name, value) = args(
        after,
        usage,
        "a userid, a password and a setting",
        (word, word, opt(word), opt(word)),
    )?;
    let auth = credentials(id, pw, usage)?;
    let bad = || Problem::MailChoice.within(usage);
    let choice = match (name.map(str::to_ascii_lowercase).as_deref(), value) {
        (None, _) => None,
        (Some("subject"), Some(v)) => Some(SettingChoice::Subject(v.parse().map_err(|_| bad())?)),
        (Some("own-turn" | "ownturn"), Some(v)) => {
            Some(SettingChoice::OwnTurn(v.parse().map_err(|_| bad())?))
        }
        (Some(_), Some(_)) => return Err(bad()),
        (Some(_), None) => Some(SettingChoice::Mail(
            name.unwrap_or_default().parse().map_err(|_| bad())?,
        )),
    };
    Ok(Command::Settings { auth, choice })
}

/// The words of `all` when `show` does not follow: they must still be words.
pub(super) fn all_without_show(after: &str, usage: &'static str) -> CommandError {
    match args(after, usage, "show and a userid", many0(word)) {
        Ok(_) => Problem::AllWithoutShow.within(usage),
        Err(e) => e,
    }
}

/// `all show <userid> [next | active]` (the words after `show`).
pub(super) fn all_show(after: &str, usage: &'static str) -> Parsed {
    let words = args(after, usage, "show and a userid", many0(word))?;
    let Listing {
        userids,
        filter,
        boards,
    } = listing(&words, usage)?;
    if !boards.is_empty() || userids.is_empty() {
        return Err(Problem::AllShowUserid.within(usage));
    }
    Ok(Command::ShowPlayers {
        userids: userids.into_iter().map(Said::from).collect(),
        filter,
    })
}

/// `yinsh help`: the words after it do not matter.
pub(super) fn yinsh_help(_after: &str, _usage: &'static str) -> Parsed {
    Ok(Command::YinshHelp)
}

/// `yinsh standings [page <n>]` (or `ratings`); other words do not matter.
pub(super) fn standings(after: &str, usage: &'static str) -> Parsed {
    let mut words = args(after, usage, "page <number>", many0(word))?;
    let page = take_page(&mut words, usage)?;
    Ok(Command::Standings { page })
}

/// `yinsh history [<userid>] [page <n>]`
pub(super) fn history(after: &str, usage: &'static str) -> Parsed {
    let mut words = args(after, usage, "a userid, page <number>", many0(word))?;
    let page = take_page(&mut words, usage)?;
    let player = match words.as_slice() {
        [] => None,
        [one] => Some(userid(one, usage)?.into()),
        _ => {
            return Err(Problem::Expected {
                what: "at most one userid and page <number>",
                word: Some(2),
            }
            .within(usage));
        }
    };
    Ok(Command::History { player, page })
}

/// The largest page number a listing accepts.
pub const MAX_PAGE: u32 = 1_000_000;

/// Takes `page <n>` out of `words` (1 when absent). A `page` followed by something
/// that is not a number stays (it may be a userid).
fn take_page(words: &mut Vec<&str>, usage: &'static str) -> Result<u32, CommandError> {
    let Some(k) = words.iter().position(|w| w.eq_ignore_ascii_case("page")) else {
        return Ok(1);
    };
    let Some(number) = words.get(k + 1) else {
        return Ok(1);
    };
    if !number.starts_with(|c: char| c.is_ascii_digit()) {
        return Ok(1);
    }
    match number.parse::<u32>() {
        Ok(n) if (1..=MAX_PAGE).contains(&n) => {
            words.drain(k..k + 2);
            Ok(n)
        }
        _ => Err(Problem::Expected {
            what: "a page number from 1 to 1000000",
            word: Some(k + 2),
        }
        .within(usage)),
    }
}

/// The clock settings of a challenge, and its players.
#[derive(Default)]
struct Challenge {
    blitz: bool,
    nag_days: Option<u32>,
    forfeit_days: Option<u32>,
    userids: Vec<UserId>,
    /// The challenger's password (`-password <pw>`), proving the challenge.
    password: Option<Password>,
    /// The last word was `-password`: this one is the password.
    password_next: bool,
}

impl Challenge {
    /// Take one word: an option, or a userid.
    fn take(&mut self, w: &str, usage: &'static str) -> Result<(), CommandError> {
        let lw = w.to_ascii_lowercase();
        if self.password_next {
            self.password_next = false;
            self.password = Some(password(w, usage)?);
        } else if lw == "-password" || lw == "--password" {
            if self.password.is_some() {
                return Err(Problem::UnknownOption(w.to_string()).within(usage));
            }
            self.password_next = true;
        } else if lw == "-blitz" || lw == "--blitz" {
            self.blitz = true;
        } else if lw == "-normal" || lw == "--normal" {
            self.blitz = false;
        } else if let Some((name, value)) = lw.trim_start_matches('-').split_once('=')
            && w.starts_with('-')
            && let Some(name) = ["nagtime", "forfeittime"].into_iter().find(|n| *n == name)
        {
            let days = value.parse::<u32>().ok().filter(|d| (1..=365).contains(d));
            let Some(days) = days else {
                let option = w.to_string();
                return Err(Problem::OptionDays { option, name }.within(usage));
            };
            if name == "nagtime" {
                self.nag_days = Some(days);
            } else {
                self.forfeit_days = Some(days);
            }
        } else if w.starts_with('-') {
            return Err(Problem::UnknownOption(w.to_string()).within(usage));
        } else {
            self.userids.push(userid(w, usage)?);
        }
        Ok(())
    }
}

/// `yinsh challenge [-blitz] [--nagtime=N] [--forfeittime=N] [-password <pw>] <userid1>
/// <userid2>`: the password is the challenger's (one of the two players), proving
/// the challenge so that its message reaches the other player.
pub(super) fn challenge(after: &str, usage: &'static str) -> Parsed {
    let words = args(after, usage, "two userids", many0(word))?;
    let mut c = Challenge::default();
    for w in words {
        c.take(w, usage)?;
    }
    if c.password_next {
        return Err(Problem::Expected {
            what: "your password after -password",
            word: None,
        }
        .within(usage));
    }
    match <[UserId; 2]>::try_from(c.userids) {
        Ok([white, black]) => Ok(Command::Challenge {
            password: c.password,
            blitz: c.blitz,
            nag_days: c.nag_days,
            forfeit_days: c.forfeit_days,
            white: white.into(),
            black: black.into(),
        }),
        Err(ids) => Err(Problem::NotTwoUserids(ids.len()).within(usage)),
    }
}

/// `yinsh move <board> <userid> <password> <move>[#<moveno>]`, where the move may be
/// `resign` or an offer word.
pub(super) fn play(after: &str, usage: &'static str) -> Parsed {
    let MoveArgs {
        board,
        auth,
        text,
        moveno,
    } = move_args(after, usage)?;
    let action = if let Some(offer) = OfferAction::from_word(text) {
        BoardAction::Offer(offer)
    } else if text.eq_ignore_ascii_case("resign") {
        BoardAction::Resign
    } else {
        let text = text.to_string().into();
        BoardAction::Move { text, moveno }
    };
    Ok(Command::Board {
        board,
        auth,
        action,
    })
}

/// `<board> <userid> <password> <move>[#<moveno>]`, for the action `make` builds.
fn with_move(
    after: &str,
    usage: &'static str,
    make: fn(Said<String>, Option<u32>) -> BoardAction,
) -> Parsed {
    let MoveArgs {
        board,
        auth,
        text,
        moveno,
    } = move_args(after, usage)?;
    Ok(Command::Board {
        board,
        auth,
        action: make(text.to_string().into(), moveno),
    })
}

/// `yinsh queue <board> <userid> <password> <move>[#<moveno>]`
pub(super) fn queue(after: &str, usage: &'static str) -> Parsed {
    with_move(after, usage, |text, moveno| BoardAction::Queue {
        text,
        moveno,
    })
}

/// `yinsh submit <board> <userid> <password> <move>[#<moveno>]`
pub(super) fn submit(after: &str, usage: &'static str) -> Parsed {
    with_move(after, usage, |text, moveno| BoardAction::Submit {
        text,
        moveno,
    })
}

/// `<board> <userid> <password>`, for `action`.
fn on_board(after: &str, usage: &'static str, action: BoardAction) -> Parsed {
    let (board, auth) = board_args(after, usage)?;
    Ok(Command::Board {
        board,
        auth,
        action,
    })
}

/// `yinsh resign <board> <userid> <password>`
pub(super) fn resign(after: &str, usage: &'static str) -> Parsed {
    on_board(after, usage, BoardAction::Resign)
}

/// `yinsh confirm <board> <userid> <password>`
pub(super) fn confirm(after: &str, usage: &'static str) -> Parsed {
    on_board(after, usage, BoardAction::Confirm)
}

/// `yinsh decline <board> <userid> <password>`
pub(super) fn decline(after: &str, usage: &'static str) -> Parsed {
    on_board(after, usage, BoardAction::Decline)
}

/// `yinsh chat <board> <userid> <password>`
pub(super) fn chat(after: &str, usage: &'static str) -> Parsed {
    on_board(after, usage, BoardAction::Chat)
}

/// `yinsh subscribe <board> <userid> <password>`
pub(super) fn subscribe(after: &str, usage: &'static str) -> Parsed {
    on_board(after, usage, BoardAction::Subscribe { on: true })
}

/// `yinsh unsubscribe <board> <userid> <password>`
pub(super) fn unsubscribe(after: &str, usage: &'static str) -> Parsed {
    on_board(after, usage, BoardAction::Subscribe { on: false })
}

/// `yinsh review <board> [<userid> <password>]`: the robot's review of a game, asked
/// by anyone (mailed to the players), or by an account (mailed to it too).
pub(super) fn review(after: &str, usage: &'static str) -> Parsed {
    let words = args(after, usage, "a board number", many0(word))?;
    match words.as_slice() {
        [board] => Ok(Command::Review {
            board: args(board, usage, "a board number", super::words::board)?.into(),
        }),
        [_, _, _] => on_board(after, usage, BoardAction::Review),
        [_, _] => Err(Problem::MissingCredentials.within(usage)),
        // Nothing, or a word too many (the 4th does not fit).
        _ => Err(Problem::Expected {
            what: "a board number, then your userid and password or nothing",
            word: (!words.is_empty()).then_some(4),
        }
        .within(usage)),
    }
}

/// `yinsh show <board>[#<moveno>] ...` or `yinsh show <userid> ... [<filter>]`
pub(super) fn show(after: &str, usage: &'static str) -> Parsed {
    let words = args(after, usage, "board numbers or userids", many0(word))?;
    let Listing {
        userids,
        filter,
        boards,
    } = listing(&words, usage)?;
    match (boards.is_empty(), userids.is_empty()) {
        (false, true) => Ok(Command::Show { boards }),
        (true, false) => Ok(Command::ShowPlayers {
            userids: userids.into_iter().map(Said::from).collect(),
            filter,
        }),
        (true, true) => Err(Problem::NothingToShow.within(usage)),
        (false, false) => Err(Problem::BoardsAndUserids.within(usage)),
    }
}

/// `yinsh showas <userid> <password> [<board> ... | <filter>]`
pub(super) fn show_as(after: &str, usage: &'static str) -> Parsed {
    let words = args(after, usage, "a userid and a password", many0(word))?;
    let [id, pw, rest @ ..] = words.as_slice() else {
        return Err(Problem::MissingCredentials.within(usage));
    };
    let auth = credentials(id, pw, usage)?;
    // After the password: boards and filters only; a wrong word is named by its place.
    let misfit = rest
        .iter()
        .position(|w| listing(&[*w], usage).map_or(true, |l| !l.userids.is_empty()));
    if let Some(k) = misfit {
        return Err(Problem::ShowAsWord { nth: k + 1 }.within(usage));
    }
    let Listing { filter, boards, .. } = listing(rest, usage)?;
    Ok(Command::ShowAs {
        auth,
        boards,
        filter,
    })
}

/// `yinsh games [<userid> ...] [<filter>] [page <n>]`: words that are not filters are
/// userids; none lists the server's games.
pub(super) fn games(after: &str, usage: &'static str) -> Parsed {
    let mut words = args(after, usage, "userids", many0(word))?;
    let page = take_page(&mut words, usage)?;
    let mut filter = GameFilter::Active;
    let mut ids = Vec::new();
    for w in words {
        match w.parse::<GameFilter>() {
            Ok(f) => filter = f,
            Err(_) => ids.push(userid(w, usage)?.into()),
        }
    }
    Ok(Command::Games {
        userids: ids,
        filter,
        page,
    })
}

/// `yinsh preview <board>[#<moveno>] <move> ...`
pub(super) fn preview(after: &str, usage: &'static str) -> Parsed {
    let (at, moves) = args(
        after,
        usage,
        "a board number and moves",
        (board_ref, many0(word)),
    )?;
    if moves.is_empty() {
        return Err(Problem::NoMoves.within(usage));
    }
    Ok(Command::Preview {
        at,
        moves: moves.into_iter().map(|m| m.to_string().into()).collect(),
    })
}
