//! Carrying out one command: check who asks (userid and password; the From address
//! alone authorises nothing), change the store, and compose the replies. A player's
//! mistake becomes an error reply; only internal failures come back as `Err`.

use crate::rules::{Color, Variant};

use super::command::{BoardAction, BoardRef, Command, Credentials, GameFilter};
use super::help;
use super::record::{LiveGame, ReplayError};
use super::reply::{self, BoardMail, Event};
use super::store::{Account, EndRecord, Password, Store, StoreError, UserId};
use super::vacation::Vacations;
use super::{actions, extra, ratings, social};

/// An internal failure: the mail is to be retried later (exit 75).
#[derive(Debug, thiserror::Error)]
pub enum InternalError {
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game does not replay.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// Sending or spooling mail failed.
    #[error("mail: {0}")]
    Mail(String),
}

/// One reply to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// Recipients.
    pub to: Vec<String>,
    /// Subject.
    pub subject: String,
    /// Body.
    pub body: String,
}

/// What the dispatcher knows of the mail a command came in.
pub struct Request<'a> {
    /// Where errors and query results go (Reply-To, else From, else the envelope
    /// sender); `None` when nobody can be answered.
    pub reply_to: Option<String>,
    /// The comment (body without signature and quotes).
    pub comment: &'a str,
    /// The original message as the sender sees it, quoted with `>`, passwords
    /// masked.
    pub quoted: &'a str,
    /// The time now, unix seconds.
    pub now: u64,
    /// The server's own address, for help texts.
    pub server_address: &'a str,
}

/// A refusal: the error message and the board it concerns.
pub(super) struct Refusal {
    pub(super) message: String,
    pub(super) board: Option<u32>,
}

pub(super) fn refuse(message: impl Into<String>) -> Refusal {
    Refusal {
        message: message.into(),
        board: None,
    }
}

pub(super) fn refuse_on(board: u32, message: impl Into<String>) -> Refusal {
    Refusal {
        message: message.into(),
        board: Some(board),
    }
}

pub(super) type Outcome = Result<Result<Vec<Reply>, Refusal>, InternalError>;

/// Carry out `cmd` and return the replies to send.
pub fn execute(
    store: &Store,
    req: &Request<'_>,
    cmd: &Command,
) -> Result<Vec<Reply>, InternalError> {
    let outcome = match cmd {
        Command::Help { .. } => Ok(Ok(vec![to_sender(
            req,
            "Yinsh PBeM help",
            help::general_help(req.server_address),
        )])),
        Command::List => Ok(Ok(vec![to_sender(req, "List of games", help::list_text())])),
        Command::YinshHelp => Ok(Ok(vec![to_sender(req, "Yinsh help", help::yinsh_help())])),
        Command::Multiple => Ok(Err(refuse(
            "\"multiple\" cannot be nested: put one command per line in the body.",
        ))),
        Command::Signup {
            userid,
            password,
            addresses,
        } => signup(store, req, userid, password, addresses),
        Command::ChangePassword { auth, new_password } => {
            change_password(store, &auth.userid, &auth.password, new_password)
        }
        Command::ChangeAddress { auth, addresses } => {
            change_address(store, req, &auth.userid, &auth.password, addresses)
        }
        Command::Signoff { auth } => signoff(store, &auth.userid, &auth.password),
        Command::Challenge {
            blitz,
            nag_days,
            forfeit_days,
            white,
            black,
        } => challenge(store, req, *blitz, (*nag_days, *forfeit_days), white, black),
        Command::Board {
            board,
            auth,
            action,
        } => on_board(store, req, *board, auth, action),
        Command::Show { boards } => show(store, req, boards),
        Command::Games { userids, filter } => games(store, req, userids, *filter),
        Command::Preview { at, moves } => actions::preview(store, req, *at, moves),
        Command::ShowAs {
            auth,
            boards,
            filter,
        } => social::show_as(store, req, &auth.userid, &auth.password, boards, *filter),
        Command::ShowPlayers { userids, filter } => {
            social::show_players(store, req, userids, *filter)
        }
        Command::Standings => Ok(Ok(vec![to_sender(
            req,
            "Yinsh Standings",
            ratings::standings(store, req.now)?,
        )])),
        Command::History => Ok(Ok(vec![to_sender(
            req,
            "Historical List of Yinsh games",
            ratings::history(store)?,
        )])),
        Command::Message { auth, to } => {
            social::message(store, req, &auth.userid, &auth.password, to)
        }
        Command::Broadcast { auth } => social::broadcast(store, req, &auth.userid, &auth.password),
        Command::Vacation { auth, days } => {
            social::vacation(store, req, &auth.userid, &auth.password, *days)
        }
    };
    match outcome? {
        Ok(replies) => Ok(replies),
        Err(refusal) => Ok(error_reply(store, req, refusal)?.into_iter().collect()),
    }
}

/// Carry out what a player does on one board.
fn on_board(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    auth: &Credentials,
    action: &BoardAction,
) -> Outcome {
    let Credentials { userid, password } = auth;
    match action {
        BoardAction::Move { text, moveno } => {
            play_move(store, req, board, userid, password, text, *moveno)
        }
        BoardAction::Resign => resign(store, req, board, userid, password),
        BoardAction::Offer(offer) => actions::offer(store, req, board, userid, password, *offer),
        BoardAction::Queue { text, moveno } => {
            actions::queue(store, req, board, userid, password, text, *moveno)
        }
        BoardAction::Submit { text, moveno } => {
            actions::submit(store, req, board, userid, password, text, *moveno)
        }
        BoardAction::Confirm => actions::confirm(store, req, board, userid, password),
        BoardAction::Chat => social::chat(store, req, board, userid, password),
        BoardAction::Subscribe { on } => {
            social::subscribe(store, req, board, userid, password, *on)
        }
    }
}

pub(super) fn to_sender(req: &Request<'_>, subject: &str, body: String) -> Reply {
    Reply {
        to: req.reply_to.iter().cloned().collect(),
        subject: subject.to_string(),
        body,
    }
}

/// A board mail to the sender, under the board's subject (`Yinsh Board %s %s`, no
/// comment mark).
pub(super) fn board_reply(req: &Request<'_>, mail: &BoardMail<'_>) -> Result<Reply, InternalError> {
    Ok(to_sender(
        req,
        &reply::board_subject(mail.live, &Event::Show, false),
        mail.body()?,
    ))
}

/// The error mail for a refusal, to the sender: `Yinsh Board %s Error` with the board,
/// or `Yinsh error`.
fn error_reply(
    store: &Store,
    req: &Request<'_>,
    r: Refusal,
) -> Result<Option<Reply>, InternalError> {
    if req.reply_to.is_none() {
        return Ok(None);
    }
    let (subject, board_text) = match r.board {
        Some(n) => {
            let board = match store.game(n)? {
                Some(file) => {
                    let live = LiveGame::load(file)?;
                    let mail = BoardMail::new(&live);
                    Some(mail.body()?)
                }
                None => None,
            };
            (format!("Yinsh Board {n} Error"), board)
        }
        None => ("Yinsh error".to_string(), None),
    };
    Ok(Some(to_sender(
        req,
        &subject,
        reply::error_body(&r.message, board_text.as_deref(), req.quoted),
    )))
}

/// The account of `userid` if `password` is right; else the refusal pbmserv gave.
pub(super) fn authenticate(
    store: &Store,
    userid: &UserId,
    password: &Password,
) -> Result<Result<Account, Refusal>, InternalError> {
    let Some(account) = store.account(userid)? else {
        return Ok(Err(refuse("Invalid userid entered")));
    };
    if !account.check_password(password) {
        return Ok(Err(refuse("Invalid password entered")));
    }
    Ok(Ok(account))
}

macro_rules! tri {
    ($e:expr) => {
        match $e? {
            Ok(v) => v,
            Err(refusal) => return Ok(Err(refusal)),
        }
    };
}
pub(super) use tri;

fn addresses_or_sender(req: &Request<'_>, given: &[String]) -> Result<Vec<String>, Refusal> {
    if !given.is_empty() {
        return Ok(given.to_vec());
    }
    match &req.reply_to {
        Some(a) => Ok(vec![a.clone()]),
        None => Err(refuse(
            "No e-mail address given and none to take from the mail: write the address after the password.",
        )),
    }
}

fn signup(
    store: &Store,
    req: &Request<'_>,
    userid: &UserId,
    password: &Password,
    addresses: &[String],
) -> Outcome {
    if store.account(userid)?.is_some() {
        return Ok(Err(refuse(format!(
            "The userid {userid} is already taken. Choose another one: signup <userid> <password> [<e-mail address> ...]"
        ))));
    }
    let addresses = tri!(Ok::<_, InternalError>(addresses_or_sender(req, addresses)));
    let account = Account::new(userid, password, addresses.clone(), req.now)?;
    store.put_account(&account)?;
    let body = format!(
        "Welcome to YINSH by e-mail, {userid}.\n\n\
         Your userid {userid} is registered. Mail for it goes to: {}\n\
         Keep your password: every move needs it, and it is never mailed to you.\n\n\
         To start a game, send the Subject:\n    yinsh challenge {userid} <opponent's userid>\n\
         (you play White and move first). Send \"yinsh help\" for how to play.\n",
        addresses.join(", ")
    );
    let mut to = addresses;
    if let Some(s) = &req.reply_to
        && !to.iter().any(|a| a.eq_ignore_ascii_case(s))
    {
        to.push(s.clone());
    }
    Ok(Ok(vec![Reply {
        to,
        subject: format!("Signup for {userid}"),
        body,
    }]))
}

fn change_password(
    store: &Store,
    userid: &UserId,
    password: &Password,
    new_password: &Password,
) -> Outcome {
    let mut account = tri!(authenticate(store, userid, password));
    account.set_password(new_password)?;
    store.put_account(&account)?;
    let body = format!(
        "The password of {} has been changed.\nIf you did not ask for this, reply at once.\n",
        account.userid
    );
    Ok(Ok(vec![Reply {
        to: account.addresses.clone(),
        subject: format!("Password changed for {}", account.userid),
        body,
    }]))
}

fn change_address(
    store: &Store,
    req: &Request<'_>,
    userid: &UserId,
    password: &Password,
    addresses: &[String],
) -> Outcome {
    let mut account = tri!(authenticate(store, userid, password));
    let new = tri!(Ok::<_, InternalError>(addresses_or_sender(req, addresses)));
    let old = std::mem::replace(&mut account.addresses, new.clone());
    store.put_account(&account)?;
    let body = format!(
        "The e-mail addresses of {} are now: {}\n(They were: {}.)\n",
        account.userid,
        new.join(", "),
        old.join(", ")
    );
    let mut to = new;
    for a in old {
        if !to.iter().any(|b| b.eq_ignore_ascii_case(&a)) {
            to.push(a);
        }
    }
    Ok(Ok(vec![Reply {
        to,
        subject: format!("Address changed for {}", account.userid),
        body,
    }]))
}

fn signoff(store: &Store, userid: &UserId, password: &Password) -> Outcome {
    let account = tri!(authenticate(store, userid, password));
    let mut active = Vec::new();
    for &b in &account.games {
        if let Some(file) = store.game(b)?
            && !LiveGame::load(file)?.game.is_over()
        {
            active.push(b.to_string());
        }
    }
    if !active.is_empty() {
        return Ok(Err(refuse(format!(
            "{} still plays board{} {}: finish or resign {} first (yinsh resign <board> <userid> <password>).",
            account.userid,
            if active.len() == 1 { "" } else { "s" },
            active.join(", "),
            if active.len() == 1 { "it" } else { "them" }
        ))));
    }
    store.delete_account(userid)?;
    Ok(Ok(vec![Reply {
        to: account.addresses.clone(),
        subject: format!("Signoff for {}", account.userid),
        body: format!(
            "The account {} has been removed. Thank you for playing.\n",
            account.userid
        ),
    }]))
}

/// Board mails for every player and subscriber of `live` after `event`; a finished
/// game's mails carry the rating lines.
pub(super) fn board_mails(
    store: &Store,
    live: &LiveGame,
    event: Event,
    comment: Option<(&str, &str)>,
) -> Result<Vec<Reply>, InternalError> {
    let mut out = Vec::new();
    let comment = comment.filter(|(_, text)| !text.trim().is_empty());
    let subject = reply::board_subject(live, &event, comment.is_some());
    let subscribers = extra::subscribers(&live.file);
    let (ratings, vacations) = if live.game.is_over() && event != Event::Show {
        (
            ratings::rating_lines(store, live)?,
            Some(Vacations::load(store)?),
        )
    } else {
        (Vec::new(), None)
    };
    let readers = Color::BOTH
        .iter()
        .map(|&side| (live.player(side).to_string(), true))
        .chain(subscribers.iter().map(|s| (s.clone(), false)));
    for (reader, is_player) in readers {
        let Ok(id) = reader.parse::<UserId>() else {
            continue;
        };
        let Some(account) = store.account(&id)? else {
            continue;
        };
        let queued = extra::queued(&live.file, &reader).map(|q| q.text);
        let mail = BoardMail {
            event: event.clone(),
            comment,
            reader: is_player.then_some(reader.as_str()),
            subscribers: &subscribers,
            ratings: &ratings,
            queued: queued.as_deref().filter(|_| is_player),
            vacations: vacations.as_ref(),
            ..BoardMail::new(live)
        };
        out.push(Reply {
            to: account.addresses.clone(),
            subject: subject.clone(),
            body: mail.body()?,
        });
    }
    Ok(out)
}

fn challenge(
    store: &Store,
    req: &Request<'_>,
    blitz: bool,
    (nag, forfeit): (Option<u32>, Option<u32>),
    white: &UserId,
    black: &UserId,
) -> Outcome {
    let invalid = |message: String| Ok(Ok(vec![to_sender(req, "Invalid challenge", message)]));
    if white == black {
        return invalid(format!(
            "{white} cannot play against themselves: name two different userids.\nSyntax is \"yinsh challenge [-blitz] <userid1> <userid2>\"\n"
        ));
    }
    let (n, f) = (
        nag.unwrap_or(extra::NAG_DAYS),
        forfeit.unwrap_or(extra::FORFEIT_DAYS),
    );
    if n >= f {
        return invalid(format!(
            "The reminder time ({n} days) must be shorter than the forfeit time ({f} days): set both, like --nagtime=7 --forfeittime=21.\n"
        ));
    }
    let (mut wa, mut ba) = match (store.account(white)?, store.account(black)?) {
        (Some(wa), Some(ba)) => (wa, ba),
        (wa, ba) => {
            let missing: Vec<String> = [(white, wa), (black, ba)]
                .into_iter()
                .filter(|(_, account)| account.is_none())
                .map(|(u, _)| u.to_string())
                .collect();
            return invalid(format!(
                "{} {} not signed up. Both players must sign up first: signup <userid> <password> [<e-mail address>]\n",
                missing.join(" and "),
                if missing.len() == 1 { "is" } else { "are" }
            ));
        }
    };
    let board = store.allocate_board()?;
    let variant = if blitz {
        Variant::Blitz
    } else {
        Variant::Normal
    };
    let mut live = LiveGame::new(board, variant, &wa.userid, &ba.userid, req.now);
    extra::set_times(&mut live.file, nag, forfeit);
    store.put_game(&live.file)?;
    wa.games.push(board);
    store.put_account(&wa)?;
    ba.games.push(board);
    store.put_account(&ba)?;
    Ok(Ok(board_mails(store, &live, Event::NewGame, None)?))
}

/// Load a board for a player's command: checks password, board, membership, end.
pub(super) fn load_for_player(
    store: &Store,
    board: u32,
    userid: &UserId,
    password: &Password,
) -> Result<Result<(Account, LiveGame, Color), Refusal>, InternalError> {
    let account = tri!(authenticate(store, userid, password));
    let Some(file) = store.game(board)? else {
        return Ok(Err(refuse(format!("Yinsh board {board} not found"))));
    };
    let live = LiveGame::load(file)?;
    let Some(side) = live.side(userid) else {
        return Ok(Err(refuse_on(board, "You are NOT playing this game")));
    };
    if live.game.is_over() {
        return Ok(Err(refuse_on(board, "The game has ended")));
    }
    Ok(Ok((account, live, side)))
}

fn play_move(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    userid: &UserId,
    password: &Password,
    text: &str,
    moveno: Option<u32>,
) -> Outcome {
    let (account, live, side) = tri!(load_for_player(store, board, userid, password));
    play_loaded(store, req, &account, live, side, text, moveno)
}

/// Play `text` for `account` (playing `side`) on a loaded game, then the opponent's
/// queued move if there is one; store it and mail everyone.
pub(super) fn play_loaded(
    store: &Store,
    req: &Request<'_>,
    account: &Account,
    mut live: LiveGame,
    side: Color,
    text: &str,
    moveno: Option<u32>,
) -> Outcome {
    let board = live.board();
    if live.game.to_act() != Some(side) {
        return Ok(Err(refuse_on(
            board,
            format!(
                "It is not your move: it is {}'s turn.",
                live.player_to_move().unwrap_or("nobody")
            ),
        )));
    }
    let number = live.next_turn_number();
    if let Some(n) = moveno
        && n != number
    {
        return Ok(Err(refuse_on(
            board,
            format!(
                "Move {text} received as move #{number}, but it is marked #{n}: it was not played.\n\
                 (A mail sent twice or crossed with another one does this.) Check the board below and send your move again if it is still wanted."
            ),
        )));
    }
    if let Err(e) = live.play(text, req.now) {
        return Ok(Err(refuse_on(
            board,
            format!("Move {text} is not legal: {e}"),
        )));
    }
    live.add_comment(number, &account.userid, req.now, req.comment);
    extra::set_submitted(&mut live.file, &account.userid, None);
    let (event, mut notices) = actions::play_queued(store, &mut live, req.now)?;
    store.put_game(&live.file)?;
    let mut out = board_mails(
        store,
        &live,
        event,
        Some((account.userid.as_str(), req.comment)),
    )?;
    out.append(&mut notices);
    Ok(Ok(out))
}

fn resign(
    store: &Store,
    req: &Request<'_>,
    board: u32,
    userid: &UserId,
    password: &Password,
) -> Outcome {
    let (account, mut live, side) = tri!(load_for_player(store, board, userid, password));
    if live.game.resign(side).is_err() {
        return Ok(Err(refuse_on(board, "The game has ended")));
    }
    live.file.ended = Some(EndRecord {
        reason: "resigned".to_string(),
        by: account.userid.clone(),
        at: req.now,
    });
    live.file.updated = req.now;
    let turn = live.next_turn_number();
    live.add_comment(turn, &account.userid, req.now, req.comment);
    store.put_game(&live.file)?;
    Ok(Ok(board_mails(
        store,
        &live,
        Event::Resigned(account.userid.clone()),
        Some((account.userid.as_str(), req.comment)),
    )?))
}

fn show(store: &Store, req: &Request<'_>, boards: &[BoardRef]) -> Outcome {
    let mut out = Vec::new();
    for r in boards {
        let Some(file) = store.game(r.board)? else {
            out.push(to_sender(
                req,
                "Yinsh error",
                reply::error_body(
                    &format!("Yinsh board {} not found", r.board),
                    None,
                    req.quoted,
                ),
            ));
            continue;
        };
        let live = LiveGame::load(file)?;
        if let Some(n) = r.at
            && n as usize > live.file.turns.len()
        {
            out.push(to_sender(
                req,
                &format!("Yinsh Board {} Error", r.board),
                reply::error_body(
                    &format!(
                        "Board {} has only {} moves: there is no move #{n} to show.",
                        r.board,
                        live.file.turns.len()
                    ),
                    None,
                    req.quoted,
                ),
            ));
            continue;
        }
        let mail = BoardMail {
            at_turn: r.at.map(|n| n as usize),
            ..BoardMail::new(&live)
        };
        out.push(board_reply(req, &mail)?);
    }
    Ok(Ok(out))
}

fn games(store: &Store, req: &Request<'_>, userids: &[UserId], filter: GameFilter) -> Outcome {
    use std::fmt::Write as _;
    let mut body = String::new();
    for id in userids {
        let Some(account) = store.account(id)? else {
            let _ = writeln!(body, "{id}: no such userid\n");
            continue;
        };
        let mut lines = Vec::new();
        for live in social::boards_of(store, &account, filter)? {
            let status = match (live.player_to_move(), live.game.outcome()) {
                (Some(p), _) => format!("{p} to move"),
                (None, Some(crate::rules::Outcome::Win(c))) => format!("won by {}", live.player(c)),
                (None, _) => "tie".to_string(),
            };
            let variant = if live.game.variant() == Variant::Blitz {
                "blitz"
            } else {
                ""
            };
            lines.push(format!(
                "{:>6}  {:<12} {:<12} {:>5}  {:<6} {}",
                live.board(),
                live.file.white,
                live.file.black,
                live.file.turns.len(),
                variant,
                status
            ));
        }
        let _ = writeln!(
            body,
            "{} games of {} ({}):",
            filter,
            account.userid,
            lines.len()
        );
        if !lines.is_empty() {
            let _ = writeln!(
                body,
                "{:>6}  {:<12} {:<12} {:>5}  {:<6} Status",
                "Board", "White", "Black", "Moves", ""
            );
            for l in lines {
                let _ = writeln!(body, "{}", l.trim_end());
            }
        }
        body.push('\n');
    }
    let body = body
        .lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    Ok(Ok(vec![to_sender(req, "List of Yinsh games", body)]))
}
