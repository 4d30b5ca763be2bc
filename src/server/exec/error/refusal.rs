//! [`Refusal`]: a command refused because of the player's mistake, answered by an
//! error mail. Its `Display` is the text the player reads, byte for byte.

use super::play_link::PlayLinkRefusal;
use super::sender::sender_doubt;
use super::words::{join, nth_userid, or_nobody, ordinal, plural, reason, turn_of, yours};
use crate::mail::Address;
use crate::mail::auth_results::Doubt;
use crate::notation::{NotationError, ParseError};
use crate::server::command::{Echo, Said};
use crate::server::model::{BoardId, OfferKind, UserId};
use crate::server::text::dates::format_date;

/// A command refused: the player's mistake, answered by an error mail. `Display` is
/// the text the player reads; [`Refusal::board`] the board shown below it.
///
/// ```
/// use yinsh_pbem::server::exec::error::Refusal;
/// let r = Refusal::NotPlaying { board: 7.into() };
/// assert_eq!(r.to_string(), "You are NOT playing this game");
/// assert_eq!(r.board(), Some(7.into()));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// No account has the userid given with a password.
    #[error("Invalid userid entered")]
    UnknownUserid,
    /// The password does not match the account.
    #[error("Invalid password entered")]
    WrongPassword,
    /// No game has this board number.
    #[error("Yinsh board {board} not found")]
    BoardNotFound {
        /// The board asked for.
        board: BoardId,
    },
    /// A command on a board that does not exist, from a player whose password was
    /// right: their games going on are listed (never the userid, which could be the
    /// password too).
    #[error(
        "Yinsh board {board} not found. {}",
        yours(.boards)
    )]
    BoardNotFoundFor {
        /// The board asked for.
        board: BoardId,
        /// The sender's games going on.
        boards: Vec<BoardId>,
    },
    /// A command on a board with a userid nobody has (the userid is not repeated: it
    /// may be a password in the wrong place).
    #[error(
        "Invalid userid entered for board {board}: no account has the userid given. Nothing was done."
    )]
    UnknownUseridOn {
        /// The board named.
        board: BoardId,
    },
    /// A command on a board with a wrong password.
    #[error("Invalid password entered for board {board}. Nothing was done.")]
    WrongPasswordOn {
        /// The board named.
        board: BoardId,
    },
    /// The sender is not one of the board's two players.
    #[error("You are NOT playing this game")]
    NotPlaying {
        /// The board.
        board: BoardId,
    },
    /// The game is over: nothing can be played on it.
    #[error("The game has ended")]
    GameEnded {
        /// The board.
        board: BoardId,
    },
    /// `multiple` inside `multiple`.
    #[error("\"multiple\" cannot be nested: put one command per line in the body.")]
    NestedMultiple,
    /// `signup` or `change address` with no address and none to reply to.
    #[error(
        "No e-mail address given and none to take from the mail: write the address after the password."
    )]
    NoAddress,
    /// `signup` with a userid that already has an account.
    #[error(
        "The userid {userid} is already taken. Choose another one: signup <userid> <password> [<e-mail address> ...]"
    )]
    UseridTaken {
        /// The userid asked for.
        userid: UserId,
    },
    /// `signup` or `change address` naming an address that `max` accounts name
    /// already (when addresses must be confirmed).
    #[error(
        "The address {address} is already used by {max} accounts, the most one address may have: use another address."
    )]
    AddressCrowded {
        /// The address.
        address: String,
        /// The cap.
        max: usize,
    },
    /// `signup`, `add` or `change address` naming an address that
    /// `PENDING_PER_ADDRESS` new accounts name already, none of them confirmed and
    /// none free to be dropped (each is in a game).
    #[error(
        "The address {address} already waits for the codes of {max} new accounts, the most at a time: nothing was changed. Confirm one of them (reply to its \"verify\" mail), or try again after {}.",
        format_date(*until)
    )]
    AddressBusy {
        /// The address.
        address: Address,
        /// The most at a time.
        max: usize,
        /// When the oldest of them expires (unix seconds).
        until: u64,
    },
    /// `signup`, `add` or `change address` naming an address of this machine or a
    /// private network (`localhost`, an IP address, `.local`): never a player's.
    #[error(
        "The address {address} names this machine or a private network (localhost, an IP address, .local, .internal ...), not a mailbox of its own: give an address such as name@example.org. Nothing was changed."
    )]
    LocalAddress {
        /// The address.
        address: Address,
    },
    /// `verify` with a wrong code after too many wrong ones for the userid this hour.
    /// They are counted apart from wrong passwords, and the right code still works.
    #[error(
        "Too many wrong verify codes were sent for {userid} this hour (until {}): this one is wrong too, and nothing was confirmed. The right code, in the Subject of the \"verify\" mail, still works: press Reply on that mail.",
        format_date(*until)
    )]
    CodesPaused {
        /// The userid.
        userid: UserId,
        /// When the hour of the count ends (unix seconds).
        until: u64,
    },
    /// A password, reply token or code in a mail whose From proves nothing, for the
    /// reason carried: it failed the sender checks of the trusted mail system
    /// (`[security] trusted_authserv_id`: DMARC failed, or DKIM and SPF failed with
    /// no pass), it names several mailboxes, or (a token under `[security]
    /// require_dmarc_pass`) the checks did not pass it.
    #[error("{}", sender_doubt(*.0))]
    SenderNotVerified(Doubt),
    /// `verify` with a code that is wrong, used or older than 7 days.
    #[error(
        "This verify code is wrong or older than 7 days: nothing was confirmed. Send \"change address <userid> <password> <address>\" for a new one."
    )]
    WrongCode,
    /// `signoff` while the player has games going on.
    #[error(
        "{userid} still plays board{} {}: finish or resign {} first (yinsh resign <board> <userid> <password>).",
        plural(.boards.len(), "", "s"),
        join(.boards),
        plural(.boards.len(), "it", "them")
    )]
    StillPlaying {
        /// The player.
        userid: UserId,
        /// The games not over yet.
        boards: Vec<BoardId>,
    },
    /// `propose` or `undo` while the opponent's offer waits for an answer.
    #[error(
        "{by} has made a {} that waits for your answer: send \"yinsh move {board} {me} <password> accept\" or \"... reject\" first.",
        .kind.words()
    )]
    OfferWaiting {
        /// The board.
        board: BoardId,
        /// The opponent who made the offer.
        by: UserId,
        /// What they offered.
        kind: OfferKind,
        /// The sender.
        me: UserId,
    },
    /// `undo` before the sender played any turn of their own.
    #[error("You have not played a move on this board yet: there is nothing to take back.")]
    NothingToTakeBack {
        /// The board.
        board: BoardId,
    },
    /// `accept` or `reject` with no offer from the opponent pending.
    #[error(
        "There is no draw offer or take-back request from {other} to answer on board {board}. To offer a draw write \"propose\" as your move; to ask to take back your last move, \"undo\"."
    )]
    NoOfferToAnswer {
        /// The board.
        board: BoardId,
        /// The opponent.
        other: UserId,
    },
    /// An accepted take-back request finds no turn of its asker left.
    #[error("There is no move left to take back.")]
    NoMoveLeftToTakeBack {
        /// The board.
        board: BoardId,
    },
    /// A move (or `confirm`) when it is the other side's turn.
    #[error("It is not your move: it is {}'s turn.", or_nobody(.to_move))]
    NotYourMove {
        /// The board.
        board: BoardId,
        /// Who is to move.
        to_move: Option<UserId>,
    },
    /// `submit` when it is the other side's turn.
    #[error(
        "It is not your move: it is {}'s turn. (To have a move played when your turn comes, use yinsh queue.)",
        or_nobody(.to_move)
    )]
    SubmitNotYourMove {
        /// The board.
        board: BoardId,
        /// Who is to move.
        to_move: Option<UserId>,
    },
    /// A move marked `#n` that is not the next turn's number: not played.
    #[error(
        "Move {text} received as move #{number}, but it is marked #{marked}: it was not played.\n\
         (A mail sent twice or crossed with another one does this.) Check the board below and send your move again if it is still wanted."
    )]
    StaleMoveNumber {
        /// The board.
        board: BoardId,
        /// The move as written (masked where the line's masking hides it).
        text: Echo,
        /// The number the move would have had.
        number: u32,
        /// The number it was marked with.
        marked: u32,
    },
    /// A submitted move marked `#n` that is not the next turn's number.
    #[error("Move {text} received as move #{number}, but it is marked #{marked}.")]
    SubmitMoveNumber {
        /// The board.
        board: BoardId,
        /// The move as written (masked where the line's masking hides it).
        text: Echo,
        /// The number the move would have had.
        number: u32,
        /// The number it was marked with.
        marked: u32,
    },
    /// A move that cannot be read or does not fit the game.
    #[error("Move {text} is not legal: {}", reason(.text, .error))]
    IllegalMove {
        /// The board.
        board: BoardId,
        /// The move as written (masked where the line's masking hides it).
        text: Echo,
        /// What is wrong with it.
        error: NotationError,
    },
    /// A queued move that is not a turn at all.
    #[error("Move {text} cannot be queued: {}", reason(.text, .error))]
    CannotQueue {
        /// The board.
        board: BoardId,
        /// The move as written (masked where the line's masking hides it).
        text: Echo,
        /// Where it stops reading.
        error: ParseError,
    },
    /// A queued move marked with a number it cannot have.
    #[error(
        "Move {text} is marked #{marked}, but the next move is #{next} and it is {opponent}'s: a queued move gets #{} or later.",
        .next + 1
    )]
    QueueMoveNumber {
        /// The board.
        board: BoardId,
        /// The move as written (masked where the line's masking hides it).
        text: Echo,
        /// The number it was marked with.
        marked: u32,
        /// The next turn's number (the opponent's).
        next: u32,
        /// The opponent, to move now.
        opponent: UserId,
    },
    /// `confirm` with no submitted move waiting.
    #[error(
        "You have no submitted move waiting on board {board} (a move played since cancels it). Send \"yinsh submit {board} {userid} <password> <move>\" first, or play with yinsh move."
    )]
    NothingSubmitted {
        /// The board.
        board: BoardId,
        /// The sender.
        userid: UserId,
    },
    /// `preview` from a turn the game has not reached.
    #[error("Board {board} has only {total} moves: there is no move #{from} to start from.")]
    PreviewTooFar {
        /// The board.
        board: BoardId,
        /// Its number of turns.
        total: usize,
        /// The turn asked for.
        from: usize,
    },
    /// A `preview` move that does not fit.
    #[error(
        "Preview stopped at the {} move given: Move {text} is not legal: {}",
        ordinal(.nth),
        reason(.text, .error)
    )]
    PreviewStopped {
        /// The board.
        board: BoardId,
        /// The turns of the position the preview started from: the board its error
        /// mail shows.
        from: u32,
        /// Which of the given moves (1-based).
        nth: usize,
        /// The move as written (masked where the line's masking hides it).
        text: Echo,
        /// What is wrong with it.
        error: NotationError,
    },
    /// `showas` at a turn the game has not reached.
    #[error("Board {board} has only {total} moves.")]
    ShowAsTooFar {
        /// The board.
        board: BoardId,
        /// Its number of turns.
        total: usize,
    },
    /// `show` at a turn the game has not reached (told in the error mail of that
    /// board alone, the other boards are shown).
    #[error("Board {board} has only {total} moves: there is no move #{at} to show.")]
    ShowTooFar {
        /// The board.
        board: BoardId,
        /// Its number of turns.
        total: usize,
        /// The turn asked for.
        at: u32,
    },
    /// A listing names a userid nobody has. Only the first word after the command
    /// is named: a later one may be a password (`yinsh show alice pw` meant as
    /// `yinsh showas alice pw`).
    #[error("Invalid userid entered: {}", nth_userid(userid, *nth))]
    NoSuchPlayer {
        /// The userid (masked where the line's masking hides it).
        userid: Said<UserId>,
        /// Its place among the words after the command (1 for the first).
        nth: usize,
    },
    /// `chat` by someone neither playing nor watching.
    #[error(
        "You are NOT playing this game nor watching it: subscribe first (yinsh subscribe <board> <userid> <password>)."
    )]
    NotPlayingNorWatching {
        /// The board.
        board: BoardId,
    },
    /// `chat` with an empty body.
    #[error("The chat is empty: write your message in the body of the mail.")]
    EmptyChat {
        /// The board.
        board: BoardId,
    },
    /// `subscribe` or `unsubscribe` by one of the players.
    #[error("You play this game: you get its mails already.")]
    SubscribeOwnGame {
        /// The board.
        board: BoardId,
    },
    /// `message` with an empty body.
    #[error("The message is empty: write it in the body of the mail.")]
    EmptyMessage,
    /// `message` to a userid nobody has.
    #[error("Invalid userid entered: {userid} (nothing was sent)")]
    NoSuchRecipient {
        /// The userid (masked where the line's masking hides it).
        userid: Said<UserId>,
    },
    /// `broadcast` by someone not an admin.
    #[error(
        "Only the server's admins may broadcast (their userids are listed in the file admins of the server's home). Use message <userid> <password> <to-userid> ... to write to players."
    )]
    NotAdmin,
    /// Too many wrong passwords for a userid in the last hour: every login for it is
    /// refused until the hour is over, the right password too (so a right guess
    /// does not stand out). `owner` holds the owner's addresses the first time, when
    /// they are to be told.
    #[error(
        "Too many wrong passwords were sent for {userid}: its logins are paused until {}. Nothing was done. Its owner has been told.",
        format_date(*until)
    )]
    LoginsPaused {
        /// The userid.
        userid: UserId,
        /// When logins open again (unix seconds).
        until: u64,
        /// The owner's addresses, when this refusal is the one that tells them.
        owner: Vec<Address>,
    },
    /// `signup` of a userid the operator listed as an admin: only an account the
    /// operator made may hold admin rights.
    #[error(
        "The userid {userid} is reserved by the server's operator. Choose another one: signup <userid> <password> [<e-mail address> ...]"
    )]
    ReservedUserid {
        /// The userid.
        userid: UserId,
    },
    /// `signup` of a userid that reads as a role of the server or the mail system
    /// (`postmaster`, `MAILER-DAEMON`, `admin`, `yinsh`: `model::ROLE_NAMES`, by
    /// skeleton).
    #[error(
        "Choose another userid: {userid} reads as a role of the server or the mail system (postmaster, mailer-daemon, admin, operator, yinsh ...), and players would take its mails for the server's. Nothing was changed."
    )]
    RoleUserid {
        /// The userid.
        userid: UserId,
    },
    /// `signup` of a userid that looks like a taken one (`aIice` beside `alice`: the
    /// same `model::skeleton`).
    #[error(
        "Choose another userid: {userid} looks like {like}, which is taken (0 and o, 1, I and l, rn and m read alike), and players could take one for the other. Nothing was changed."
    )]
    LookAlikeUserid {
        /// The userid asked for.
        userid: UserId,
        /// The taken userid it looks like.
        like: UserId,
    },
    /// `signup` of a userid kept for the robots (`robot`, `robot7`, `Robot_3`).
    #[error(
        "The userid {userid} is kept for the server's robots (robot1 .. robot5 play YINSH by themselves). Choose another one: signup <userid> <password> [<e-mail address> ...]"
    )]
    RobotName {
        /// The userid.
        userid: UserId,
    },
    /// A command with a robot's userid and a password: nobody logs in as a robot.
    #[error(
        "{userid} is one of the server's robots: it plays by itself, and nobody can log in as it. Challenge it with: yinsh challenge <your userid> {userid}"
    )]
    RobotAccount {
        /// The robot's userid.
        userid: UserId,
    },
    /// `signup` of the userid of an account that was signed off, with another
    /// password than its last one: its games keep the name, so only its former owner
    /// may take it again.
    #[error(
        "The userid {userid} belonged to an account that was signed off; its games and ratings keep the name, so it is not given to anyone else. Choose another one: signup <userid> <password> [<e-mail address> ...] (its former owner takes it back by signing up with its last password)."
    )]
    UseridRetired {
        /// The userid.
        userid: UserId,
    },
    /// A new userid with a dot before a letter (`cheap.example`): mail programs show
    /// such a name as a link, and a userid is shown to addresses nobody confirmed
    /// (board mails, listings), so none may read as a web address.
    #[error(
        "Choose another userid: {userid} has a dot before a letter, so mail programs would show it as a web address. Use - or _ instead of the dot. Nothing was changed."
    )]
    UseridLikeWebAddress {
        /// The userid.
        userid: UserId,
    },
    /// A new password (`signup`, `change password`) that reads as a move, a number,
    /// an e-mail address, a board or a listing word: a line with a word too many
    /// could show it in that place.
    #[error(
        "Choose another password: this one reads as a move, a number, an e-mail address, a board number or a listing word, and could then be shown where those are. Add a letter from l to z (other than x) or a sign such as ! or _ . Nothing was changed."
    )]
    PasswordCouldShow,
    /// `subscribe` to a game that has all the watchers it may have.
    #[error("Board {board} has {max} watchers already, the most a game may have.")]
    TooManyWatchers {
        /// The board.
        board: BoardId,
        /// The most allowed.
        max: usize,
    },
    /// `broadcast` with an empty body.
    #[error("The broadcast is empty: write it in the body of the mail.")]
    EmptyBroadcast,
    /// `vacation` for more days than allowed.
    #[error(
        "A vacation is at most {max} days: send a new vacation command when it ends. (0 ends a vacation.)"
    )]
    VacationTooLong {
        /// The days asked for.
        days: u32,
        /// The most allowed.
        max: u32,
    },
    /// A reply to a board mail whose first line is empty (or only quoted text).
    #[error(
        "Your reply holds no move. Write your move as the first line of the reply, above the quoted\n\
         mail (or one of: resign, propose, accept, reject, undo, pass, chat; or decline, in a game\n\
         someone else started for you, before your first move); anything below it goes to the\n\
         other player as your comment."
    )]
    EmptyReply {
        /// The board.
        board: BoardId,
    },
    /// A reply to a board mail sent for an earlier move than the game's next one: a
    /// reply to an old mail. Nothing is played; the board as it is now is shown.
    #[error(
        "You answered an old mail (move {answered}): nothing was played. The game is at move {now}\n\
         and it is {}. The board as it is now is below.",
        turn_of(.to_move, .me)
    )]
    OldBoardMail {
        /// The board.
        board: BoardId,
        /// The move the mail answered was sent for.
        answered: u32,
        /// The game's next move.
        now: u32,
        /// Who is to move now.
        to_move: Option<UserId>,
        /// The sender.
        me: UserId,
    },
    /// A reply to a board mail whose first line reads as a sentence, not a move
    /// (`Hi Carol,`).
    #[error(
        "The first line of your reply must be your move, e.g. d4; \"{text}\" is not one. Write your\n\
         move as the first line of the reply, above the quoted mail (or one of: resign, propose,\n\
         accept, reject, undo, pass, chat); anything below it goes to the other player as your\n\
         comment. Send \"yinsh help\" for how moves are written."
    )]
    FirstLineNotAMove {
        /// The board.
        board: BoardId,
        /// The first line as written (masked where the line's masking hides it).
        text: Echo,
    },
    /// A reply to a board mail whose first line is no move and no answer the server
    /// reads, while the opponent's offer waits for the sender's answer ("No thanks,
    /// let us play on."): nothing is done, the offer still waits.
    #[error(
        "{by} has made a {} that waits for your answer; the first line of your reply is not\n\
         one the server reads, so nothing was done. To answer it, press Reply and write reject\n\
         (or accept) as the first line; anything below it goes to {by} as your comment.",
        .kind.words()
    )]
    OfferAnsweredInWords {
        /// The board.
        board: BoardId,
        /// The opponent who made the offer.
        by: UserId,
        /// What they offered.
        kind: OfferKind,
    },
    /// `subscribe` from an account with no confirmed address (issue 25: throwaway
    /// accounts must not fill a game's watcher places).
    #[error(
        "Board {board} may be watched only from an account with a confirmed address. Confirm yours\n\
         by replying to the \"verify\" mail the server sent it, then subscribe again. Nothing was done."
    )]
    WatcherUnconfirmed {
        /// The board.
        board: BoardId,
    },
    /// `decline` after the player's first move in the game.
    #[error(
        "You played move #{moved} on board {board}: a game can be declined only before your first\n\
         move. Nothing was done. To end it, resign: yinsh resign {board} <userid> <password>"
    )]
    DeclineAfterMove {
        /// The board.
        board: BoardId,
        /// The number of the player's first move.
        moved: u32,
    },
    /// A reply carrying a genuine reply token, sent from an address that is not the
    /// token's player's.
    #[error(
        "This reply answers a mail sent to {userid}, but it comes from {from}, which is not one of\n\
         {userid}'s addresses: nothing was done. Reply from the address the mail went to."
    )]
    ReplyNotYours {
        /// The player the token was minted for.
        userid: UserId,
        /// The From address of the reply.
        from: String,
    },
    /// A `yinsh move` whose play link's token played nothing ([`PlayLinkRefusal`]).
    #[error(transparent)]
    PlayLink(#[from] PlayLinkRefusal),
    /// A tournament command refused ([`super::TournamentRefusal`]).
    #[error(transparent)]
    Tournament(#[from] super::TournamentRefusal),
}
