//! What a command says, once parsed: [`Command`], with every per-board command as
//! [`Command::Board`] (the board, who asks, and the [`BoardAction`]), and the small
//! types its fields are made of: [`Credentials`], [`BoardRef`], [`OfferAction`] and
//! the [`GameFilter`] words of the listings. No parsing of command lines here beyond
//! the filter words' `FromStr`.

use crate::mail::Address;
use std::fmt;
use std::str::FromStr;

use super::said::Said;
pub use crate::server::model::Credentials;
use crate::server::model::{BoardId, Password, UserId};
use crate::server::store::{Format, TournamentName};
pub use crate::server::store::{OwnTurnMail, SubjectStyle};

/// A board and, optionally, the turn number to show it at (`104#12`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BoardRef {
    /// The board number.
    pub board: BoardId,
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
    /// `signup userid password [address ...]` (also `add`): it creates the account,
    /// so its userid and password are not yet [`Credentials`].
    Signup {
        /// The new userid.
        userid: UserId,
        /// Its password.
        password: Password,
        /// Addresses for its mail; the sender's when empty.
        addresses: Vec<Address>,
    },
    /// `change password userid current-password new-password`
    ChangePassword {
        /// The account and its current password.
        auth: Credentials,
        /// The new one.
        new_password: Password,
    },
    /// `change address userid password [address ...]`
    ChangeAddress {
        /// The account.
        auth: Credentials,
        /// The new addresses; the sender's when empty.
        addresses: Vec<Address>,
    },
    /// `signoff userid password` (also `delete`).
    Signoff {
        /// The account.
        auth: Credentials,
    },
    /// `list [game-type ...]`
    List,
    /// `multiple`: the body holds one command per line.
    Multiple,
    /// `yinsh help`
    YinshHelp,
    /// `yinsh challenge [-blitz] [--nagtime=N] [--forfeittime=N] [-password <pw>]
    /// userid1 userid2`
    Challenge {
        /// The password of one of the two players (`-password <pw>`): a challenge
        /// proven as theirs, whose message (the mail's body) reaches the other player.
        password: Option<Password>,
        /// Blitz variant.
        blitz: bool,
        /// Days without a move before the player to move is nagged (default 7).
        nag_days: Option<u32>,
        /// Days without a move before the player to move forfeits (default 21).
        forfeit_days: Option<u32>,
        /// userid1: plays White and moves first.
        white: Said<UserId>,
        /// userid2: plays Black.
        black: Said<UserId>,
    },
    /// `yinsh <word> board userid password ...`: a player acts on one of their boards.
    Board {
        /// The board.
        board: BoardId,
        /// Who acts.
        auth: Credentials,
        /// What they do.
        action: BoardAction,
    },
    /// `yinsh review board`: the robot's review of a finished game, asked by nobody
    /// proven (it is mailed to the players; to the asker only once it is made).
    Review {
        /// The board.
        board: BoardId,
    },
    /// `yinsh show board[#moveno] ...`
    Show {
        /// Boards to show.
        boards: Vec<BoardRef>,
    },
    /// `yinsh preview board[#moveno] move+`: the board after hypothetical turns.
    Preview {
        /// The board, and the turn to start from.
        at: BoardRef,
        /// The turns to try, in order.
        moves: Vec<Said<String>>,
    },
    /// `yinsh showas userid password [board+ | all | active | inactive | next]`
    ShowAs {
        /// Who reads.
        auth: Credentials,
        /// Boards named; when empty, the player's games chosen by `filter`.
        boards: Vec<BoardRef>,
        /// Which of their games.
        filter: GameFilter,
    },
    /// `yinsh show userid+ [filter]` and `all show userid [next|active]`
    ShowPlayers {
        /// Whose games.
        userids: Vec<Said<UserId>>,
        /// Which games.
        filter: GameFilter,
    },
    /// `yinsh standings [page <n>]` or `yinsh ratings`
    Standings {
        /// Which page of each list (1: the top ranks).
        page: u32,
    },
    /// `yinsh history [<userid>] [page <n>]`: finished games, most recent first.
    History {
        /// Only this player's games.
        player: Option<Said<UserId>>,
        /// Which page (1: the most recent games).
        page: u32,
    },
    /// `message userid password to+`: the body goes to those players.
    Message {
        /// Who writes.
        auth: Credentials,
        /// The recipients.
        to: Vec<Said<UserId>>,
    },
    /// `broadcast userid password`: the body goes to every player (admins only).
    Broadcast {
        /// Who writes.
        auth: Credentials,
    },
    /// `verify userid token`: confirms the address the token was mailed to.
    Verify {
        /// Whose address.
        userid: UserId,
        /// The code from the Subject of the mail (a [`Password`], so never shown).
        token: Password,
    },
    /// `vacation userid password days`: pause the player's clocks (0 ends it).
    Vacation {
        /// Who.
        auth: Credentials,
        /// How many days from now.
        days: u32,
    },
    /// `yinsh settings userid password [text-only | html | subject stable|moving |
    /// own-turn skip|send]`: how the player's board mails come (without a choice: the
    /// settings as they are).
    Settings {
        /// Whose settings.
        auth: Credentials,
        /// The choice, if one is made.
        choice: Option<SettingChoice>,
    },
    /// `yinsh tournament create|join|leave|start|show <name> ...` (issue 49).
    Tournament {
        /// The tournament.
        name: TournamentName,
        /// Who asks (none for `show`).
        auth: Option<Credentials>,
        /// What they ask.
        action: TournamentAction,
    },
    /// `yinsh tournaments`: the list.
    Tournaments,
    /// `yinsh games userid ... [all|active|inactive|next] [page <n>]`
    Games {
        /// Players whose games to list: at least one (the mail does not say whose
        /// account the sender has).
        userids: Vec<Said<UserId>>,
        /// Which games.
        filter: GameFilter,
        /// Which page of each list (1: the most recent games).
        page: u32,
    },
    /// The open seeks' commands: `yinsh seek`, `seeks`, `take`, `withdraw`.
    Seek(super::seek_command::SeekCommand),
}

impl Command {
    /// The userid and password of an existing account the command carries (a
    /// `change password`'s current one among them); `None` for commands that take
    /// none or only a new account's (`signup`).
    pub fn credentials(&self) -> Option<&Credentials> {
        match self {
            Command::Board { auth, .. }
            | Command::ChangePassword { auth, .. }
            | Command::ChangeAddress { auth, .. }
            | Command::Signoff { auth }
            | Command::ShowAs { auth, .. }
            | Command::Message { auth, .. }
            | Command::Broadcast { auth }
            | Command::Settings { auth, .. }
            | Command::Vacation { auth, .. } => Some(auth),
            Command::Seek(s) => s.credentials(),
            Command::Tournament { auth, .. } => auth.as_ref(),
            _ => None,
        }
    }
}

/// What a [`Command::Tournament`] asks.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TournamentAction {
    /// `create`: a new tournament with these rules, its creator its first player.
    Create(TournamentRules),
    /// `join`, before the start.
    Join,
    /// `leave`: before the start, off the list; after it, a withdrawal.
    Leave,
    /// `start`, by its creator.
    Start,
    /// `show`: the crosstable, the round, the games going on.
    Show,
}

/// A new tournament's rules (`yinsh tournament create`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TournamentRules {
    /// Round robin or Swiss.
    pub format: Format,
    /// Blitz games.
    pub blitz: bool,
    /// Reminder days of its games.
    pub nag_days: Option<u32>,
    /// Forfeit days of its games.
    pub forfeit_days: Option<u32>,
    /// Fewest players.
    pub min: u32,
    /// Most players.
    pub max: u32,
    /// When `tick` starts it (unix seconds, 00:00 UTC of the day given).
    pub start: Option<u64>,
}

/// What a player does on one board ([`Command::Board`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BoardAction {
    /// `yinsh move board userid password move[#moveno]`
    Move {
        /// The turn as written (without `#moveno`).
        text: Said<String>,
        /// The turn number it is meant to get.
        moveno: Option<u32>,
    },
    /// `yinsh resign board userid password` (or `resign` as the move).
    Resign,
    /// `yinsh move board userid password propose|undo|accept|reject`
    Offer(OfferAction),
    /// `yinsh queue board userid password move[#moveno]`: played when it is their turn.
    Queue {
        /// The turn as written.
        text: Said<String>,
        /// The turn number it is meant to get.
        moveno: Option<u32>,
    },
    /// `yinsh submit board userid password move[#moveno]`: a preview, played on confirm.
    Submit {
        /// The turn as written.
        text: Said<String>,
        /// The turn number it is meant to get.
        moveno: Option<u32>,
    },
    /// `yinsh confirm board userid password`: play the submitted move.
    Confirm,
    /// `yinsh decline board userid password`: refuse a game someone else started,
    /// before one's first move in it; the game is removed.
    Decline,
    /// `yinsh chat board userid password`: the body goes to the other player and watchers.
    Chat,
    /// `yinsh subscribe|unsubscribe board userid password`
    Subscribe {
        /// `true` to subscribe, `false` to unsubscribe.
        on: bool,
    },
    /// `yinsh review board userid password` (or `review` as a reply's first line):
    /// the robot's review of a finished game, mailed to the asker too.
    Review,
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

impl OfferAction {
    /// The offer words written as a move, in any case.
    ///
    /// ```
    /// use yinsh_pbem::server::command::OfferAction;
    /// assert_eq!(OfferAction::from_word("ACCEPT"), Some(OfferAction::Accept));
    /// assert_eq!(OfferAction::from_word("e5-e9"), None);
    /// ```
    pub fn from_word(word: &str) -> Option<OfferAction> {
        match word.to_ascii_lowercase().as_str() {
            "propose" => Some(OfferAction::Propose),
            "undo" => Some(OfferAction::Undo),
            "accept" => Some(OfferAction::Accept),
            "reject" => Some(OfferAction::Reject),
            _ => None,
        }
    }
}

/// What a player's board mails hold: text only, or text and HTML with the picture.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum MailChoice {
    /// `text-only`: the `text/plain` part alone.
    TextOnly,
    /// `html`: the text, and an HTML part with the picture of the board (the default).
    Html,
}

/// One choice of `yinsh settings`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SettingChoice {
    /// `text-only` or `html`.
    Mail(MailChoice),
    /// `subject stable` or `subject moving`.
    Subject(SubjectStyle),
    /// `own-turn skip` or `own-turn send`.
    OwnTurn(OwnTurnMail),
}

impl fmt::Display for SettingChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingChoice::Mail(m) => write!(f, "{m}"),
            SettingChoice::Subject(s) => write!(f, "subject {s}"),
            SettingChoice::OwnTurn(o) => write!(f, "own-turn {o}"),
        }
    }
}

/// A word that is not `text-only` or `html`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("\"{0}\" is not a mail setting: write text-only or html")]
pub struct UnknownMailChoice(pub String);

/// The setting words, in any case (`text` and `textonly` read as `text-only`).
///
/// ```
/// use yinsh_pbem::server::command::MailChoice;
/// assert_eq!("Text-Only".parse::<MailChoice>(), Ok(MailChoice::TextOnly));
/// assert_eq!(MailChoice::Html.to_string().parse(), Ok(MailChoice::Html));
/// assert!("pictures".parse::<MailChoice>().is_err());
/// ```
impl FromStr for MailChoice {
    type Err = UnknownMailChoice;

    fn from_str(s: &str) -> Result<MailChoice, UnknownMailChoice> {
        match s.to_ascii_lowercase().as_str() {
            "text-only" | "textonly" | "text" => Ok(MailChoice::TextOnly),
            "html" => Ok(MailChoice::Html),
            _ => Err(UnknownMailChoice(s.to_string())),
        }
    }
}

impl fmt::Display for MailChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MailChoice::TextOnly => "text-only",
            MailChoice::Html => "html",
        })
    }
}

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
