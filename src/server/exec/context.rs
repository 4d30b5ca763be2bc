//! What every command handler shares: the mail ([`Request`], built once per mail),
//! the proof of a command ([`Proven`], made once by `inbound::identity::prove`: the
//! [`Actor`] it acts for, where its answers go, who answers for them), one command as
//! its handler sees it ([`Asked`]: the mail, the proof, the comment), replies to the
//! sender, and loading a board for a player. The reply type and the board mails to
//! everyone concerned are `outgoing`'s.

use crate::mail::Address;
use crate::mail::auth_results::FromAuth;
use crate::rules::Color;
use crate::server::config::Settings;
use crate::server::game::record::LiveGame;
use crate::server::game::vacation::Vacations;
use crate::server::model::{BoardId, Proof};
use crate::server::outgoing::board_mails::html_part;
use crate::server::outgoing::reply::{Cause, Foreign, HtmlPart, Reply};
use crate::server::outgoing::thread::Thread;
use crate::server::store::{Account, LoginGate, MAX_FAILURES, ReplyScope, Store, UserId};
use crate::server::text::html::BoardHtml;
use crate::server::text::reply::{self, BoardMail, Event};
use crate::server::text::subjects::Commented;
use crate::server::text::{notices, subjects};
use std::ops::Deref;

use super::error::{ExecError, InternalError, Refusal};
use super::plain;

/// Who a command acts for, as `inbound::identity` proved it: handlers never check a
/// password, a reply token or a code themselves.
#[derive(Debug, Clone)]
pub struct Actor {
    /// The account (as read when it was proved; a `verify` actor's holds the address
    /// its code confirmed, not yet stored).
    pub account: Account,
    /// How it was proved.
    pub proof: Proof,
}

/// The mail the commands came in, as each of them sees it: built once per mail
/// (`run::deliver`), its fields named as the mail names them.
#[derive(Clone, Copy)]
pub struct Request<'a> {
    /// The mail's From (none when it has no usable one): a play token plays only from
    /// a confirmed address of its player (`inbound::identity`). Never answered as such.
    pub from: Option<&'a Address>,
    /// The mail's reply address as written (its Reply-To, else its From, else the
    /// envelope sender): what a command takes as "the sender's address" (`signup` or
    /// `change address` without one), and where the answers go when nothing proved
    /// more ([`Proven::answer_to`]).
    pub reply_to: Option<&'a Address>,
    /// The original message as the sender sees it, quoted with `>`, passwords
    /// masked.
    pub quoted: &'a str,
    /// The time now, unix seconds.
    pub now: u64,
    /// The server's settings (its address, whether new addresses must be confirmed,
    /// the day's challenges for others...).
    pub settings: &'a Settings,
    /// What the trusted mail system's `Authentication-Results` say of the mail's From
    /// (`[security] trusted_authserv_id`; `Unknown` without one): a `Fail` From proves
    /// nothing (`inbound::identity`).
    pub from_auth: FromAuth,
}

/// What the one proof of a command (`inbound::identity::prove`) decided, used by
/// everything after it: the storm limit, the handlers, the old password's notice,
/// the bounce restore.
#[derive(Debug, Clone, Default)]
pub struct Proven {
    /// Who the command acts for: `None` when it names no account of the sender's (a
    /// challenge without password, a listing, a new account's signup...) or when the
    /// proof was refused.
    pub actor: Option<Actor>,
    /// Why the command is not carried out, when the proof was refused (a wrong
    /// password, logins paused, a play link whose move has passed...).
    pub refusal: Option<Refusal>,
    /// Where the answers go: the actor's own confirmed address (the mail's reply
    /// address when it is one of them), the address a verify code confirms, else the
    /// mail's reply address; `None` when nobody can be answered.
    pub answer_to: Option<Address>,
    /// Who answers for what carrying the command out makes: [`Cause::Owner`] when the
    /// actor owns an account with a confirmed address and nothing was refused, or when
    /// the mail itself proves its owner ([`Proven::vouched`]), else
    /// [`Cause::Stranger`] (budgeted by the gate).
    pub cause: Cause,
    /// Whether the command logged in with a password that could be shown where a
    /// mistyped line puts it (`command::could_show`; set before that rule): its owner
    /// is asked to change it (`old_password.rs`).
    pub showable_password: bool,
    /// What the reply token that proved the actor allows (its board and move, a chat,
    /// a message back); `None` for every other proof.
    pub scope: Option<ReplyScope>,
    /// The owner's confirmed mailbox when [`Cause::Owner`] rests on the mail alone,
    /// not on a password or a play: a password-less command from a confirmed From the
    /// trusted mail system passed, or from a reply carrying its player's genuine
    /// token, and a token's reply answered with a refusal (no move, an old mail, a
    /// game over). Only the answers to this mailbox are the owner's; such mails count
    /// in its daily cap of them (`inbound::identity::OWN_MAILS_PER_DAY`, against mail
    /// loops), past which they are a stranger's.
    pub vouched: Option<Address>,
}

impl Proven {
    /// The original message of `req` quoted, as an error mail shows it under the
    /// error; with confirmation on (`[security] confirm_addresses`), nothing when only
    /// the mail itself proves its owner ([`Proven::vouched`]) and the trusted mail
    /// system did not pass its From: a reply token alone, which whoever holds an old
    /// board mail can send under the player's From, proves no word of the mail the
    /// player's, so none is echoed to them (the error and the board still are).
    pub fn original<'r>(&self, req: &Request<'r>) -> &'r str {
        let unproven_words = req.settings.confirm_addresses && req.from_auth != FromAuth::Pass;
        match self.vouched {
            Some(_) if unproven_words => "",
            _ => req.quoted,
        }
    }

    /// The player whose own reply this mail is, as far as its answers go: a reply
    /// token's player, or a play link's whose move has passed. Their error mails
    /// carry their fresh reply tokens, and their own text-only choice.
    pub fn token_player(&self) -> Option<&UserId> {
        let actor = self.actor.as_ref()?;
        match actor.proof {
            Proof::ReplyToken => Some(&actor.account.userid),
            Proof::PlayToken if self.refusal.is_some() => Some(&actor.account.userid),
            _ => None,
        }
    }
}

/// One command of a mail as its handler sees it: the mail ([`Request`], which it
/// derefs to), the proof of the command, and its comment (the mail's comment, a
/// reply's lines after the first, nothing for a line of `multiple`).
#[derive(Clone, Copy)]
pub struct Asked<'a> {
    /// The mail.
    pub mail: &'a Request<'a>,
    /// The command's proof.
    pub proven: &'a Proven,
    /// The comment (body without signature and quotes).
    pub comment: &'a str,
}

impl<'a> Deref for Asked<'a> {
    type Target = Request<'a>;

    fn deref(&self) -> &Request<'a> {
        self.mail
    }
}

impl<'a> Asked<'a> {
    /// The same command with another comment (cut to its bound, a reply's, one
    /// without a play token's lines).
    pub fn with_comment<'c>(&self, comment: &'c str) -> Asked<'c>
    where
        'a: 'c,
    {
        Asked {
            mail: self.mail,
            proven: self.proven,
            comment,
        }
    }

    /// Where the answers go ([`Proven::answer_to`]).
    pub fn answer_to(&self) -> Option<&Address> {
        self.proven.answer_to.as_ref()
    }

    /// Who the command acts for ([`Proven::actor`]).
    pub fn actor(&self) -> Option<&Actor> {
        self.proven.actor.as_ref()
    }

    /// The original message quoted, as an error mail shows it ([`Proven::original`]).
    pub fn original(&self) -> &str {
        self.proven.original(self.mail)
    }
}

pub(super) fn to_sender(req: &Asked<'_>, subject: &str, body: String) -> Reply {
    Reply {
        to: req.answer_to().into_iter().cloned().collect(),
        subject: subject.to_string(),
        body,
        ..Reply::default()
    }
}

/// A board mail to the sender, under the board's subject (`Yinsh Board %s %s`, no
/// comment mark); with its HTML part unless `text_only` (the reader's choice).
pub(super) fn board_reply(
    req: &Asked<'_>,
    mail: &BoardMail<'_>,
    text_only: bool,
) -> Result<Reply, InternalError> {
    board_to_sender(
        req,
        &subjects::board_mail(mail.live, &Event::Show, Commented::No),
        mail,
        text_only,
    )
}

/// A board mail to the sender under `subject`, with its HTML part unless `text_only`.
pub(super) fn board_to_sender(
    req: &Asked<'_>,
    subject: &str,
    mail: &BoardMail<'_>,
    text_only: bool,
) -> Result<Reply, InternalError> {
    let body = mail.body()?;
    let html = html_part(mail, &body, text_only)?;
    Ok(Reply {
        html: html.map(HtmlPart::Board),
        ..to_sender(req, subject, body)
    })
}

/// Whether the sender of `req` chose text-only board mails, for the commands that
/// need no password (`show`, `preview`) and error mails: the proof's token player
/// ([`Proven::token_player`]), else any account naming the address the answer goes
/// to (the choice is about that mailbox); read without writing anything
/// (`Store::address_owners_read_only`).
pub(super) fn sender_text_only(store: &Store, req: &Asked<'_>) -> Result<bool, InternalError> {
    let owners = match (req.proven.token_player(), req.answer_to()) {
        (Some(userid), _) => vec![userid.clone()],
        (None, Some(address)) => store.address_owners_read_only(address)?,
        (None, None) => return Ok(false),
    };
    for userid in &owners {
        if store.account(userid)?.is_some_and(|a| a.text_only) {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The error mail for a refusal, to the sender: `Yinsh Board %s Error` with the board,
/// or `Yinsh error`.
pub(super) fn error_reply(
    store: &Store,
    req: &Asked<'_>,
    r: &Refusal,
) -> Result<Option<Reply>, InternalError> {
    if req.answer_to().is_none() {
        return Ok(None);
    }
    let mut thread = Thread::default();
    let mut message = r.to_string();
    // The board as the server's own words show it: no player named.
    let mut plain_board = None;
    let (subject, board) = match r.board() {
        Some(n) => {
            let board = match store.game(n)? {
                Some(file) => {
                    let live = LiveGame::load(file)?;
                    // A refused reply gets a fresh token: the player replies again,
                    // and is told so while the game goes on.
                    thread = match req.proven.token_player() {
                        Some(reader) => {
                            let file = live.file();
                            if live.side(reader).is_some() && !live.game().is_over() {
                                message = format!("{message}\n\n{}", notices::REPLY_WORKS);
                            } else if matches!(r, Refusal::GameEnded { .. })
                                && live.side(reader).is_some()
                            {
                                // A player's words after the game ("Thanks, good
                                // game!"): what they can still do.
                                let opponent = if file.white == *reader {
                                    &file.black
                                } else {
                                    &file.white
                                };
                                let after = notices::after_the_game(n, reader, opponent);
                                message = format!("{message}\n\n{after}");
                            }
                            Thread::board(store, &live, reader)?
                        }
                        None => Thread::game(&live),
                    };
                    let shown = match r.shown_turns() {
                        Some(turns) if turns < live.file().turns.len() => {
                            let mut file = live.file().clone();
                            file.turns.truncate(turns);
                            file.ended = None;
                            LiveGame::load(file)?
                        }
                        _ => live,
                    };
                    let vacations = Vacations::load(store)?;
                    plain_board = match nameless(&shown) {
                        Some(nameless) => {
                            let theirs = sides_vacations(&vacations, &shown, &nameless);
                            Some(error_board(store, req, &nameless, &theirs)?.0)
                        }
                        None => None,
                    };
                    Some(error_board(store, req, &shown, &vacations)?)
                }
                None => None,
            };
            (subjects::board_error(n), board)
        }
        None => (subjects::error(), None),
    };
    let (board_text, html) = board.unzip();
    let body = reply::error_body(&message, board_text.as_deref(), req.original());
    // The HTML part: the error, the board as a board mail shows it, then the rest.
    let html = match (html.flatten(), &board_text) {
        (Some(html), Some(text)) => body
            .split_once(text.as_str())
            .map(|(message, after)| html.under_error(message, after)),
        _ => None,
    };
    let mut reply = to_sender(req, &subject, body);
    reply.html = html.map(HtmlPart::Board);
    reply.thread = thread;
    // An unconfirmed address reads the refusal in the server's words only: no quote,
    // no word the refusal found in the mail, no player's name; the position it speaks
    // of, its sides named White and Black (issue 47 items 4, 6).
    reply.foreign = Foreign::Part(reply::error_body(
        &format!("{}\n\n{}", r.plain(), plain::NO_DETAILS),
        plain_board.as_deref(),
        "",
    ));
    Ok(Some(reply))
}

/// `live` with its players named by their sides (`White`, `Black`) in every place a
/// board shows a name (the players, who played each turn, who ended the game), for
/// the error mail in the server's own words (a userid is a word someone chose); its
/// comments left out (the other data naming a player, an offer or a queued move, is
/// shown to a reader only, and an error's board has none). `None` if the sides'
/// names are no userids (they are).
fn nameless(live: &LiveGame) -> Option<LiveGame> {
    let (white, black): (UserId, UserId) = ("White".parse().ok()?, "Black".parse().ok()?);
    let mut file = live.file().clone();
    let side = |u: &UserId| match live.side(u) {
        Some(Color::White) => white.clone(),
        _ => black.clone(),
    };
    for t in &mut file.turns {
        t.by = side(&t.by);
    }
    if let Some(e) = &mut file.ended {
        e.by = side(&e.by);
    }
    file.comments.clear();
    file.white = white.clone();
    file.black = black.clone();
    LiveGame::load(file).ok()
}

/// The vacations of `live`'s players as `nameless` names them (by their sides), so
/// its clock counts theirs, never those of an account that happens to be called
/// `White` or `Black`.
fn sides_vacations(all: &Vacations, live: &LiveGame, nameless: &LiveGame) -> Vacations {
    let (f, n) = (live.file(), nameless.file());
    let mut out = Vacations::default();
    for (player, side) in [(&f.white, &n.white), (&f.black, &n.black)] {
        let key = |u: &UserId| u.as_ref().to_ascii_lowercase();
        if let Some(periods) = all.0.get(&key(player)) {
            out.0.insert(key(side), periods.clone());
        }
    }
    out
}

/// The board an error mail about `live` shows, as a board mail that only shows the
/// game does (issue 26): its status with the Clock line and any offer waiting, the
/// move list and the drawing; and its HTML part (the picture) unless the sender chose
/// text only.
fn error_board(
    store: &Store,
    req: &Asked<'_>,
    live: &LiveGame,
    vacations: &Vacations,
) -> Result<(String, Option<BoardHtml>), InternalError> {
    let mail = BoardMail {
        vacations: Some(vacations),
        ..BoardMail::new(live)
    };
    let text = mail.body()?;
    let html = html_part(&mail, &text, sender_text_only(store, req)?)?;
    Ok((text, html))
}

/// Refuses when too many wrong passwords (or `verify` codes) were sent for `account`
/// in the last hour (`store::logins`); the first refusal of a pause tells the owner.
/// `inbound::identity` asks it before every password or code it checks.
pub fn logins_open(store: &Store, now: u64, account: &Account) -> Result<(), ExecError> {
    match store.login_gate(&account.userid, now)? {
        LoginGate::Open => Ok(()),
        LoginGate::Paused { until, tell_owner } => Err(Refusal::LoginsPaused {
            userid: account.userid.clone(),
            until,
            owner: if tell_owner {
                account.addresses.clone()
            } else {
                Vec::new()
            },
        }
        .into()),
    }
}

/// Refuses a wrong `verify` code when too many were sent for `account` in the last
/// hour (`Store::code_gate`, apart from wrong passwords). `inbound::identity` asks it
/// only after the code was found wrong: a right one is never stopped.
pub fn codes_open(store: &Store, now: u64, account: &Account) -> Result<(), ExecError> {
    match store.code_gate(&account.userid, now)? {
        LoginGate::Open => Ok(()),
        LoginGate::Paused { until, .. } => Err(Refusal::CodesPaused {
            userid: account.userid.clone(),
            until,
        }
        .into()),
    }
}

/// The mail that tells an account's owner that logins for it were paused, when
/// `refusal` is the one that paused them.
pub(super) fn owner_notice(refusal: &Refusal) -> Option<Reply> {
    let Refusal::LoginsPaused {
        userid,
        until,
        owner,
    } = refusal
    else {
        return None;
    };
    (!owner.is_empty()).then(|| Reply {
        to: owner.clone(),
        subject: subjects::wrong_passwords_for(userid),
        body: notices::logins_paused(userid, MAX_FAILURES, *until),
        ..Reply::default()
    })
}

/// The game on `board` for `account`'s player (whom `inbound::identity` proved):
/// checks the board, that they play in it and that it goes on.
pub(super) fn load_for_player(
    store: &Store,
    board: BoardId,
    account: &Account,
) -> Result<(LiveGame, Color), ExecError> {
    let userid = &account.userid;
    let live = load_board_of(store, board, userid)?;
    let Some(side) = live.side(userid) else {
        return Err(Refusal::NotPlaying { board }.into());
    };
    if live.game().is_over() {
        return Err(Refusal::GameEnded { board }.into());
    }
    Ok((live, side))
}

/// The game on `board` for `userid`, whose password was right; when there is none,
/// refused with the list of their games going on.
pub(super) fn load_board_of(
    store: &Store,
    board: BoardId,
    userid: &UserId,
) -> Result<LiveGame, ExecError> {
    match load_board(store, board) {
        Err(ExecError::Refused(Refusal::BoardNotFound { board })) => {
            let boards = store.player_index(&userid.key())?.active;
            Err(Refusal::BoardNotFoundFor { board, boards }.into())
        }
        other => other,
    }
}

/// The game on `board`, replayed; refused when there is none.
pub(super) fn load_board(store: &Store, board: BoardId) -> Result<LiveGame, ExecError> {
    let Some(file) = store.game(board)? else {
        return Err(Refusal::BoardNotFound { board }.into());
    };
    Ok(LiveGame::load(file)?)
}

/// The boards of `account`'s games still going on (what keeps an account from being
/// signed off or removed).
pub(super) fn games_going_on(
    store: &Store,
    account: &Account,
) -> Result<Vec<BoardId>, InternalError> {
    let mut going_on = Vec::new();
    for &b in &account.games {
        if let Some(file) = store.game(b)?
            && !LiveGame::load(file)?.game().is_over()
        {
            going_on.push(b);
        }
    }
    Ok(going_on)
}
