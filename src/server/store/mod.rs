//! The server's store: one home folder holding accounts and game files as
//! human-readable JSON, the board counter, and the one lock that serialises every
//! process that changes them. Every record write is atomic (see [`write_atomic`]); the
//! journal alone is written in place, checked by its header (`journal/`). The store
//! only reads and writes records; replaying a game's moves is the server's job.
//!
//! ```text
//! <home>/lock                  the lock file (flock)
//! <home>/next-board            the next board number as decimal text; starts at 101
//! <home>/accounts/<key>.json   one account per file; key = userid lower-cased
//! <home>/accounts/<key>.retired the last record of a signed-off account (retired.rs)
//! <home>/boards/<n>.json       one game per file
//! <home>/journal/pending      one mail's effect while it is being applied (journal/)
//! <home>/seen/<day>/<sha256>   mails already handled, by Message-ID, kept 30 days (seen.rs)
//! <home>/rate/<sha256>.json    mails per sender in the current period (seen.rs)
//! <home>/logins/<key>.json     wrong passwords per userid in the current hour (logins.rs)
//! <home>/codes/<key>.json      wrong verify codes per userid in the current hour (logins.rs)
//! <home>/addresses/<sha256>.json the userids naming a mailbox (confirm.rs)
//! <home>/skeletons/<sha256>.json the userids of one look-alike skeleton (skeletons.rs)
//! <home>/unconfirmed/<key>.json accounts that never confirmed an address (unconfirmed.rs)
//! <home>/quota/<sha256>.json   mails today to an unconfirmed address (daily.rs)
//! <home>/challenges/<sha256>.json games started today for others, per sender (daily.rs)
//! <home>/robot-turns/<n>.json  a robot's turn owed on board n (owed/robot_turn.rs)
//! <home>/robot-time.json       the robots' think time in the current hour (robot_time.rs)
//! <home>/reviews/<n>.json      the robot's review of finished game n (reviews.rs)
//! <home>/reviews/owed/<n>.json the review of finished game n owed (owed/review.rs)
//! <home>/tournaments.json    every tournament, by name (tournaments.rs)
//! <home>/held/<n>.json        game n's challenge message, held for its challenger's proof (held.rs)
//! <home>/pictures/<slot>.png   the last board picture drawn for a slot's games, a cache
//!                              (kept_pictures.rs)
//! <home>/index/               derived indexes, rebuilt from the game files (index.rs)
//! <home>/damaged.json          damaged game files the operator was told of (index.rs)
//! <home>/vacations.json        the players' vacations
//! <home>/seeks.json            the open seeks and the next seek's number (seeks.rs)
//! <home>/reply-key             the key of the reply and play tokens, mode 0600 (reply_key.rs,
//!                              play_token.rs)
//! <home>/admins                the userids allowed to broadcast (written by the operator)
//! <home>/last-tick, last-flush when the last tick and flush ended (figures.rs)
//! <home>/log/yinsh-pbem.log    the log
//! <home>/spool/ <home>/outbox/ replies waiting to be sent / written as .eml files
//! ```
//! `docs/storage.md` describes the formats.

mod accounts;
mod bounces;
mod confirm;
mod daily;
mod extra;
mod figures;
mod fs;
mod games;
mod held;
mod index;
mod journal;
mod kept_pictures;
mod leftovers;
mod logins;
mod owed;
mod password;
mod play_token;
mod ranking;
mod reply_key;
mod retired;
mod reviews;
mod robot_time;
mod seeks;
mod seen;
mod skeletons;
mod tournaments;
mod tx;
mod unconfirmed;

use std::io;
use std::path::{Path, PathBuf};

pub use crate::server::model::{InvalidPassword, InvalidUserId, Password, UserId};
pub use accounts::{Account, OwnTurnMail, PendingAddress, Prefs, SubjectStyle, UnknownChoice};
pub use bounces::{BounceRecord, exact_address};
pub use confirm::{ACCOUNTS_PER_ADDRESS, PENDING_PER_ADDRESS, TOKEN_SECONDS, Token};
pub use extra::{Challenger, Extra, InTournament, LastNag, Offer, Stored};
pub use figures::{Figures, LastRun, mark_run};
pub use fs::{StoreLock, write_atomic};
pub use games::{CommentRecord, EndRecord, GameFile, TurnRecord};
pub use held::HeldMessage;
pub use index::{
    DAY, DueEntry, Finished, HISTORY_PAGE, INDEX_VERSION, IndexState, IndexWriter, PlayerIndex,
    Record, Standing, Standings,
};
pub use journal::{Journal, Recovered, fnv1a64};
pub use kept_pictures::{KeptError, KeptPictures};
pub use logins::{Failures, LoginGate, MAX_FAILURES, WINDOW};
pub use owed::{Answerable, MAX_REQUESTERS, Owed, OwedBy, OwedKind, OwedReview, RobotTurn};
pub use password::{
    ARGON2_M_KIB, ARGON2_P, ARGON2_T, CHEAP_PARAMS, hash_password, release_hash_memory,
    verify_password, with_cheap_hashes,
};
pub use ranking::{CHUNK, ChunkRef, IdleEntry, RankDir, RankKey, Section, rank_key};
pub use reply_key::{InvalidToken, ReplyKey, ReplyScope, ReplyToken};
pub use reviews::{GameReview, ReviewSide, TurningPoint};
pub use robot_time::RobotTime;
pub use seeks::{
    InvalidRange, InvalidSeekId, MAX_OPEN, MAX_PER_PLAYER, ROBOT_AFTER_SECONDS, RatingRange,
    SEEK_SECONDS, Seek, SeekColour, SeekId, SeekWish, Seeks,
};
pub use seen::{RateLimit, RateVerdict, SEEN_DAYS, day_name, key_name};
pub use tournaments::{
    Bye, Entrant, Format, InvalidTournamentName, Tournament, TournamentGame, TournamentName,
    Verdict,
};
pub use tx::Change;
pub use unconfirmed::UNCONFIRMED_SECONDS;

/// The first board number handed out in a new home.
pub const FIRST_BOARD: u32 = 101;

/// A failure of the store: the disk, or a file in the home that is not as this
/// program writes it. Every variant is an internal failure (the caller exits 75).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A file-system call failed.
    #[error("cannot {action} {}: {source}", path.display())]
    Io {
        /// What we were doing, e.g. "read" or "rename the temp file onto".
        action: &'static str,
        /// The file or folder concerned.
        path: PathBuf,
        /// The operating system's error.
        source: io::Error,
    },
    /// A file exists but does not parse as the record it should hold.
    #[error("{} is not a valid {what} file ({source}); repair it or restore it from a backup", path.display())]
    Corrupt {
        /// The kind of record expected, e.g. "account".
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The parser's complaint, with line and column.
        source: serde_json::Error,
    },
    /// A record could not be turned into JSON.
    #[error("cannot encode the {what} for {}: {source}", path.display())]
    Encode {
        /// The kind of record, e.g. "game".
        what: &'static str,
        /// The file it was meant for.
        path: PathBuf,
        /// The encoder's complaint.
        source: serde_json::Error,
    },
    /// The board counter holds something other than a decimal number.
    #[error("{} holds {found:?}, expected one board number in decimal such as \"101\"", path.display())]
    BadCounter {
        /// The counter file.
        path: PathBuf,
        /// What it holds (trimmed).
        found: String,
    },
    /// Every board number up to `u32::MAX` has been used.
    #[error("{} has reached board {found}: no board numbers are left", path.display())]
    BoardsExhausted {
        /// The counter file.
        path: PathBuf,
        /// The number that could not be increased.
        found: u32,
    },
    /// A record's own key disagrees with its file name.
    #[error("{} holds the {what} {found:?} but its file name says {expected:?}; rename the file or fix the field", path.display())]
    Mismatch {
        /// The field, e.g. "userid" or "board".
        what: &'static str,
        /// The file.
        path: PathBuf,
        /// The value in the file.
        found: String,
        /// The value the file name implies.
        expected: String,
    },
    /// A `.json` file whose name this store would never write.
    #[error("{} does not belong here: expected {expected}; move it out of the folder", path.display())]
    StrayFile {
        /// The file.
        path: PathBuf,
        /// What a name in that folder looks like.
        expected: &'static str,
    },
    /// Argon2 failed to hash a password (e.g. the OS random source failed).
    #[error("cannot hash the password: {source}")]
    Hash {
        /// Argon2's error.
        source: argon2::password_hash::Error,
    },
    /// The operating system's random source failed (for a confirmation token).
    #[error("cannot draw a random confirmation token: {source}")]
    Random {
        /// getrandom's error.
        source: getrandom::Error,
    },
    /// `<home>/reply-key` does not hold 64 lower-case hex digits.
    #[error("{} does not hold a reply key (64 hex digits); run `yinsh-pbem rotate-reply-key` to make a new one", path.display())]
    BadReplyKey {
        /// The key file.
        path: PathBuf,
    },
    /// Another process held the lock for longer than we wait.
    #[error("{} stayed locked for {seconds} s (another run holds the store); giving up for now", path.display())]
    LockTimeout {
        /// The lock file.
        path: PathBuf,
        /// How long we waited.
        seconds: u64,
    },
    /// This thread already holds the lock through this store; a second `lock()` would
    /// wait for itself forever.
    #[error("this thread already holds the lock on {}; use that StoreLock instead of locking again", path.display())]
    AlreadyLocked {
        /// The lock file.
        path: PathBuf,
    },
}

impl StoreError {
    /// An [`StoreError::Io`] for `action` on `path`.
    pub(crate) fn io(action: &'static str, path: &Path, source: io::Error) -> StoreError {
        StoreError::Io {
            action,
            path: path.to_path_buf(),
            source,
        }
    }
}

/// The home folder of the server and everything in it.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use yinsh_pbem::server::store::Store;
/// let dir = tempfile::tempdir()?;
/// let store = Store::open(&dir.path().join("games"))?;
/// let _lock = store.lock()?;
/// assert_eq!(store.allocate_board()?, 101);
/// assert_eq!(store.allocate_board()?, 102);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct Store {
    home: PathBuf,
    holders: fs::Holders,
    overlay: tx::Overlay,
    /// The counter value this transaction's last board allocation wrote, after
    /// checking it against the boards folder: later allocations of the same
    /// transaction need not list the folder again (cleared by [`Store::begin`]).
    checked_next: std::sync::Arc<std::sync::Mutex<Option<crate::server::model::BoardId>>>,
    /// Damaged files a scan skipped, for the operator (`index.rs`).
    skipped: index::Skipped,
}

impl Store {
    /// Opens the store at `home`, creating it and its folders if they are missing.
    pub fn open(home: &Path) -> Result<Store, StoreError> {
        let store = Store {
            home: home.to_path_buf(),
            holders: fs::Holders::default(),
            overlay: tx::Overlay::default(),
            checked_next: Default::default(),
            skipped: Default::default(),
        };
        fs::create_dir(home, 0o755)?;
        // Accounts hold password hashes: only the server's user may read them.
        fs::create_dir(&store.accounts_dir(), 0o700)?;
        fs::create_dir(&store.home.join("logins"), 0o700)?;
        // The spool and the outbox name mails by their Message-ID, which carries the
        // reader's reply token: their listings are the server's user's alone.
        fs::create_dir(&store.spool_dir(), 0o700)?;
        fs::create_dir(&store.outbox_dir(), 0o700)?;
        // The reply key exists from the first run on, so that a command's work never
        // changes the home only by making it (a refused command changes nothing).
        store.ensure_reply_key()?;
        for dir in [
            store.boards_dir(),
            store.log_dir(),
            store.owed_dir(OwedKind::RobotTurn),
            store.reviews_dir(),
            store.owed_dir(OwedKind::Review),
        ] {
            fs::create_dir(&dir, 0o755)?;
        }
        Ok(store)
    }

    /// The home folder, as given to [`Store::open`].
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// Takes the exclusive lock on `<home>/lock`, waiting as long as another process
    /// or thread holds it; it is released when the returned value is dropped.
    ///
    /// Hold it around every read-modify-write of the store. A thread that already
    /// holds it through this `Store` (or a clone) gets [`StoreError::AlreadyLocked`];
    /// one holding it through a different `Store` on the same home would wait for
    /// itself, so a process uses one `Store` (cloned where needed).
    pub fn lock(&self) -> Result<StoreLock, StoreError> {
        StoreLock::acquire(&self.lock_path(), &self.holders, None)
    }

    /// [`Store::lock`], waiting at most `wait`: then [`StoreError::LockTimeout`]
    /// (another process has held the store that long; the caller exits 75).
    pub fn lock_within(&self, wait: std::time::Duration) -> Result<StoreLock, StoreError> {
        StoreLock::acquire(&self.lock_path(), &self.holders, Some(wait))
    }

    /// The lock of the runs' counters (`<home>/counters.lock`, apart from the store's
    /// own: a run that failed waiting for the store's lock still counts its failure),
    /// waiting at most `wait`.
    pub fn lock_counters(&self, wait: std::time::Duration) -> Result<StoreLock, StoreError> {
        let holders = fs::Holders::default();
        StoreLock::acquire(&self.home.join("counters.lock"), &holders, Some(wait))
    }

    /// Whether the current thread holds the lock through this `Store` (or a clone).
    pub fn is_locked_here(&self) -> bool {
        fs::holds(&self.holders)
    }

    /// `<home>/lock`.
    pub fn lock_path(&self) -> PathBuf {
        self.home.join("lock")
    }

    /// `<home>/next-board`.
    pub fn counter_path(&self) -> PathBuf {
        self.home.join("next-board")
    }

    /// `<home>/accounts`.
    pub fn accounts_dir(&self) -> PathBuf {
        self.home.join("accounts")
    }

    /// `<home>/boards`.
    pub fn boards_dir(&self) -> PathBuf {
        self.home.join("boards")
    }

    /// `<home>/spool`, for the mail module.
    pub fn spool_dir(&self) -> PathBuf {
        self.home.join("spool")
    }

    /// `<home>/outbox`, for the mail module.
    pub fn outbox_dir(&self) -> PathBuf {
        self.home.join("outbox")
    }

    /// `<home>/log`.
    pub fn log_dir(&self) -> PathBuf {
        self.home.join("log")
    }

    /// `<home>/vacations.json`.
    pub fn vacations_path(&self) -> PathBuf {
        self.home.join("vacations.json")
    }

    /// The userids allowed to `broadcast`, lower-cased, from `<home>/admins` (one per
    /// line, `#` starts a comment; none when the file is missing).
    pub fn admins(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .read_text(&self.home.join("admins"))?
            .unwrap_or_default()
            .lines()
            .map(|l| {
                l.split('#')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_ascii_lowercase()
            })
            .filter(|l| !l.is_empty())
            .collect())
    }
}

/// `<home>/log/yinsh-pbem.log`, the log file of the server whose home is `home`.
pub fn log_file(home: &Path) -> PathBuf {
    home.join("log").join("yinsh-pbem.log")
}
