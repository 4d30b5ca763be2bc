//! The reply key and the tokens it signs: `<home>/reply-key` holds 32 random bytes
//! (hex, file mode 0600), made on first use (when [`Store::open`] first opens the
//! home) and replaced by
//! [`Store::rotate_reply_key`]. A [`ReplyToken`] is an HMAC-SHA256 under that key over
//! what it allows ([`ReplyScope`]: one player's turn on one board at one move number, a
//! chat on one board, or a message to one player), cut to 128 bits; the server puts
//! it in the Message-ID of the mail a player may answer by pressing Reply
//! (`docs/mail-formats.md`). Checking is constant-time (the `hmac` crate's verify).
//! The `hmac` and `sha2` crates stay beside ring: the tags are cut (128 bits here, 64
//! in the bounce tag), `ring::hmac::verify` checks whole tags only, and ring's
//! compare of slices is deprecated "with no promises regarding side channels";
//! `hmac`'s `verify_truncated_left` compares a cut tag in constant time.
//! The key is outside the store's transactions: it is written at once and durably,
//! under the store's lock, before any mail naming a token made with it is committed.

use std::fmt;
use std::fs::{self, OpenOptions};
use std::io::{self, Write as _};
use std::path::PathBuf;
use std::str::FromStr;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use super::fs as store_fs;
use super::{Store, StoreError};
use crate::durable;
use crate::server::model::{BoardId, UserId};

/// The key's length in bytes.
const KEY_LEN: usize = 32;

/// The tag's length in bytes: the left half of the HMAC-SHA256.
const TAG_LEN: usize = 16;

/// What the HMAC covers before the scope: names the scheme and its version.
const DOMAIN: &[u8] = b"yinsh-pbem reply token 1\n";

/// The secret key of the reply tokens. Its `Debug` hides it.
pub struct ReplyKey([u8; KEY_LEN]);

impl fmt::Debug for ReplyKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ReplyKey(********)")
    }
}

/// What a reply token allows its player to do by replying.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplyScope {
    /// A board mail of `board` to `userid`, sent when the next turn was `moveno`: a
    /// reply plays (or resigns, offers...) for `userid` while that is still the turn.
    Board {
        /// The board.
        board: BoardId,
        /// The number of the next turn when the mail was sent.
        moveno: u32,
        /// The reader of the mail.
        userid: UserId,
    },
    /// A chat mail of `board` to `userid`: a reply chats on that board.
    Chat {
        /// The board.
        board: BoardId,
        /// The reader of the mail.
        userid: UserId,
    },
    /// A message from `to` to `userid`: a reply is a message back to `to`.
    Message {
        /// The reader of the mail.
        userid: UserId,
        /// Who sent the message.
        to: UserId,
    },
    /// The answer to `userid`'s challenge that started `board` without a password,
    /// whose message is held (`store::held`): a reply proves the challenger and
    /// passes the message on to the opponent.
    Held {
        /// The board the challenge started.
        board: BoardId,
        /// The challenger, the reader of the answer.
        userid: UserId,
    },
}

impl ReplyScope {
    /// The player the token speaks for.
    pub fn userid(&self) -> &UserId {
        match self {
            ReplyScope::Board { userid, .. }
            | ReplyScope::Chat { userid, .. }
            | ReplyScope::Message { userid, .. }
            | ReplyScope::Held { userid, .. } => userid,
        }
    }

    /// The scope as the token writes it (userids lower-cased), without the tag.
    fn text(&self) -> String {
        match self {
            ReplyScope::Board {
                board,
                moveno,
                userid,
            } => format!("y1~b~{board}~{moveno}~{}", userid.key()),
            ReplyScope::Chat { board, userid } => format!("y1~c~{board}~{}", userid.key()),
            ReplyScope::Message { userid, to } => format!("y1~m~{}~{}", userid.key(), to.key()),
            ReplyScope::Held { board, userid } => format!("y1~h~{board}~{}", userid.key()),
        }
    }
}

/// A signed [`ReplyScope`], written `y1~b~101~7~alice~<32 hex digits>` (`~` never occurs in
/// a userid). Whether it is genuine is [`ReplyKey::check`]'s question.
///
/// ```
/// use yinsh_pbem::server::store::ReplyToken;
/// let text = "y1~b~101~7~alice~00112233445566778899aabbccddeeff";
/// let token: ReplyToken = text.parse().unwrap();
/// assert_eq!(token.to_string(), text);
/// assert!("y1~b~101~x~alice~00".parse::<ReplyToken>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct ReplyToken {
    /// What it allows.
    pub scope: ReplyScope,
    tag: [u8; TAG_LEN],
}

impl fmt::Debug for ReplyToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The tag is a credential: never in a log.
        write!(f, "ReplyToken({}~********)", self.scope.text())
    }
}

impl fmt::Display for ReplyToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}~{}", self.scope.text(), hex(&self.tag))
    }
}

/// Why a text is not a reply token.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InvalidToken {
    /// It does not start with a known version and kind (`y1~b~`, `y1~c~`, `y1~m~`,
    /// `y1~h~`).
    #[error("it does not start with y1~b~, y1~c~, y1~m~ or y1~h~")]
    Kind,
    /// It has the wrong number of `~`-separated fields for its kind.
    #[error("it has {found} fields, expected {expected}")]
    Fields {
        /// Fields found.
        found: usize,
        /// Fields its kind has.
        expected: usize,
    },
    /// A board or move number is not a decimal number.
    #[error("{found:?} is not a number")]
    Number {
        /// The field.
        found: String,
    },
    /// A userid field is not a userid.
    #[error("{found:?} is not a userid")]
    UserId {
        /// The field.
        found: String,
    },
    /// The tag is not 32 lower-case hex digits.
    #[error("the tag is not 32 lower-case hex digits")]
    Tag,
}

impl FromStr for ReplyToken {
    type Err = InvalidToken;

    fn from_str(s: &str) -> Result<ReplyToken, InvalidToken> {
        let fields: Vec<&str> = s.splitn(8, '~').collect();
        let expected = match fields.get(..2) {
            Some(["y1", "b"]) => 6,
            Some(["y1", "c" | "m" | "h"]) => 5,
            _ => return Err(InvalidToken::Kind),
        };
        if fields.len() != expected {
            return Err(InvalidToken::Fields {
                found: fields.len(),
                expected,
            });
        }
        let number = |f: &str| {
            f.parse::<u32>().map_err(|_| InvalidToken::Number {
                found: f.chars().take(20).collect(),
            })
        };
        let userid = |f: &str| {
            f.parse::<UserId>().map_err(|_| InvalidToken::UserId {
                found: f.chars().take(40).collect(),
            })
        };
        let scope = match (fields[1], &fields[2..expected - 1]) {
            ("b", [board, moveno, user]) => ReplyScope::Board {
                board: number(board)?.into(),
                moveno: number(moveno)?,
                userid: userid(user)?,
            },
            ("c", [board, user]) => ReplyScope::Chat {
                board: number(board)?.into(),
                userid: userid(user)?,
            },
            ("m", [user, to]) => ReplyScope::Message {
                userid: userid(user)?,
                to: userid(to)?,
            },
            ("h", [board, user]) => ReplyScope::Held {
                board: number(board)?.into(),
                userid: userid(user)?,
            },
            _ => return Err(InvalidToken::Kind),
        };
        let tag = unhex(fields[expected - 1]).ok_or(InvalidToken::Tag)?;
        Ok(ReplyToken { scope, tag })
    }
}

impl ReplyKey {
    /// A key from the operating system's random source.
    fn generate() -> Result<ReplyKey, StoreError> {
        let mut bytes = [0u8; KEY_LEN];
        getrandom::fill(&mut bytes).map_err(|source| StoreError::Random { source })?;
        Ok(ReplyKey(bytes))
    }

    fn mac(&self, scope: &ReplyScope) -> Hmac<Sha256> {
        let mut mac = self.keyed(DOMAIN);
        mac.update(scope.text().as_bytes());
        mac
    }

    /// An HMAC with this key over `domain` (which names the scheme and its version)
    /// and whatever the caller adds: the play tokens (`play_token.rs`) are signed so.
    pub(super) fn keyed(&self, domain: &[u8]) -> Hmac<Sha256> {
        // Any key length is valid for HMAC: this cannot fail.
        let mut mac = match <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0) {
            Ok(mac) => mac,
            Err(_) => unreachable!("HMAC takes keys of any length"),
        };
        mac.update(domain);
        mac
    }

    /// The token for `scope`.
    pub fn mint(&self, scope: ReplyScope) -> ReplyToken {
        let full = self.mac(&scope).finalize().into_bytes();
        let mut tag = [0u8; TAG_LEN];
        tag.copy_from_slice(&full[..TAG_LEN]);
        ReplyToken { scope, tag }
    }

    /// The tag of the bounce address of mail to `recipient` (`mail::verp`): 16 hex
    /// digits, the left 64 bits of an HMAC-SHA256 under this key over a scheme name
    /// and the address in lower case, so that nobody without the key can name an
    /// address in a bounce.
    pub fn bounce_tag(&self, recipient: &str) -> String {
        let mut mac = match <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0) {
            Ok(mac) => mac,
            Err(_) => unreachable!("HMAC takes keys of any length"),
        };
        mac.update(b"yinsh-pbem bounce address 1\n");
        mac.update(recipient.to_ascii_lowercase().as_bytes());
        let full = mac.finalize().into_bytes();
        hex(&full[..8])
    }

    /// Whether `tag` is [`bounce_tag`](Self::bounce_tag) of `recipient` (compared in
    /// constant time).
    pub fn check_bounce_tag(&self, recipient: &str, tag: &str) -> bool {
        let want = self.bounce_tag(recipient);
        want.len() == tag.len()
            && want
                .bytes()
                .zip(tag.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b.to_ascii_lowercase()))
                == 0
    }

    /// Whether `token` was made with this key (compared in constant time).
    pub fn check(&self, token: &ReplyToken) -> bool {
        self.mac(&token.scope)
            .verify_truncated_left(&token.tag)
            .is_ok()
    }
}

impl Store {
    /// `<home>/reply-key`.
    pub fn reply_key_path(&self) -> PathBuf {
        self.home.join("reply-key")
    }

    /// The reply key, made (mode 0600, durably) when there is none yet. Call it under
    /// the store's lock.
    pub fn reply_key(&self) -> Result<ReplyKey, StoreError> {
        let path = self.reply_key_path();
        match store_fs::read_text(&path)? {
            Some(text) => {
                let bytes = unhex::<KEY_LEN>(text.trim())
                    .ok_or(StoreError::BadReplyKey { path: path.clone() })?;
                Ok(ReplyKey(bytes))
            }
            None => {
                let key = ReplyKey::generate()?;
                self.write_reply_key(&key)?;
                Ok(key)
            }
        }
    }

    /// Make the reply key if there is none yet ([`Store::open`] does, so that it
    /// exists before any command runs).
    pub(super) fn ensure_reply_key(&self) -> Result<(), StoreError> {
        if self.reply_key_path().exists() {
            return Ok(());
        }
        self.reply_key().map(drop)
    }

    /// Replace the reply key by a new random one: every token mailed so far stops
    /// working. Call it under the store's lock.
    pub fn rotate_reply_key(&self) -> Result<(), StoreError> {
        self.write_reply_key(&ReplyKey::generate()?)
    }

    /// Write `key` atomically and durably, readable by the server's user only.
    fn write_reply_key(&self, key: &ReplyKey) -> Result<(), StoreError> {
        let path = self.reply_key_path();
        let tmp = self
            .home
            .join(format!(".reply-key.{}.tmp", std::process::id()));
        let written = write_private(&tmp, format!("{}\n", hex(&key.0)).as_bytes())
            .and_then(|()| fs::rename(&tmp, &path));
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(StoreError::io("write", &path, e));
        }
        durable::sync_dir(&self.home).map_err(|e| StoreError::io("sync the folder", &self.home, e))
    }
}

/// Create `path` (replacing a leftover) with mode 0600 on Unix, write and fsync it.
fn write_private(path: &std::path::Path, bytes: &[u8]) -> io::Result<()> {
    let _ = fs::remove_file(path);
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Lower-case hex.
fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// `N` bytes from exactly `2 * N` lower-case hex digits.
fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.bytes().any(|b| b.is_ascii_uppercase()) {
        return None;
    }
    let mut out = [0u8; N];
    hex::decode_to_slice(text, &mut out).ok()?;
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn user(s: &str) -> UserId {
        s.parse().expect("userid")
    }

    fn board(moveno: u32, who: &str) -> ReplyScope {
        ReplyScope::Board {
            board: 101.into(),
            moveno,
            userid: user(who),
        }
    }

    #[test]
    fn a_minted_token_checks_and_round_trips_through_text() {
        let key = ReplyKey([7; KEY_LEN]);
        for scope in [
            board(7, "Alice"),
            ReplyScope::Chat {
                board: 9.into(),
                userid: user("a.b-c_d"),
            },
            ReplyScope::Message {
                userid: user("bob"),
                to: user("alice"),
            },
            ReplyScope::Held {
                board: 101.into(),
                userid: user("alice"),
            },
        ] {
            let token = key.mint(scope);
            assert!(key.check(&token));
            let text = token.to_string();
            let back: ReplyToken = text.parse().expect("parses");
            assert!(key.check(&back), "{text}");
        }
    }

    #[test]
    fn userids_are_signed_without_case() {
        let key = ReplyKey([1; KEY_LEN]);
        let a = key.mint(board(3, "Alice"));
        let b = key.mint(board(3, "alice"));
        assert_eq!(a, b);
    }

    #[test]
    fn any_change_breaks_the_token() {
        let key = ReplyKey([7; KEY_LEN]);
        let token = key.mint(board(7, "alice")).to_string();
        for forged in [
            token.replace("~7~", "~8~"),
            token.replace("alice", "bob"),
            token.replace("~101~", "~102~"),
            token.replacen("y1~b", "y1~c", 1).replacen("~7~", "~", 1),
            // A chat token is no held message's token.
            token.replacen("y1~b", "y1~h", 1).replacen("~7~", "~", 1),
        ] {
            let parsed: ReplyToken = forged.parse().expect("well formed");
            assert!(!key.check(&parsed), "{forged}");
        }
        // Every single hex digit of the tag matters.
        let tag_at = token.len() - 2 * TAG_LEN;
        for i in tag_at..token.len() {
            let mut bytes = token.clone().into_bytes();
            bytes[i] = if bytes[i] == b'0' { b'1' } else { b'0' };
            let parsed: ReplyToken = String::from_utf8(bytes)
                .expect("ascii")
                .parse()
                .expect("hex");
            assert!(!key.check(&parsed), "digit {i}");
        }
        // Another key: refused.
        let parsed: ReplyToken = token.parse().expect("parses");
        assert!(!ReplyKey([8; KEY_LEN]).check(&parsed));
    }

    #[test]
    fn malformed_tokens_are_refused() {
        let tag = "0".repeat(32);
        for (text, want) in [
            (format!("y2~b~1~2~al~{tag}"), InvalidToken::Kind),
            (format!("y1~x~1~2~al~{tag}"), InvalidToken::Kind),
            (
                format!("y1~b~1~al~{tag}"),
                InvalidToken::Fields {
                    found: 5,
                    expected: 6,
                },
            ),
            (
                format!("y1~c~1~2~al~{tag}"),
                InvalidToken::Fields {
                    found: 6,
                    expected: 5,
                },
            ),
            (
                format!("y1~b~-1~2~al~{tag}"),
                InvalidToken::Number { found: "-1".into() },
            ),
            (
                format!("y1~b~1~2~../x~{tag}"),
                InvalidToken::UserId {
                    found: "../x".into(),
                },
            ),
            ("y1~b~1~2~al~ABCDEF".to_string(), InvalidToken::Tag),
            (format!("y1~b~1~2~al~{}", "A".repeat(32)), InvalidToken::Tag),
            (format!("y1~b~1~2~al~{tag}0"), InvalidToken::Tag),
        ] {
            assert_eq!(text.parse::<ReplyToken>(), Err(want), "{text}");
        }
    }

    #[test]
    fn debug_never_shows_the_tag_or_the_key() {
        let key = ReplyKey([0xab; KEY_LEN]);
        let token = key.mint(board(1, "al"));
        let shown = format!("{token:?} {key:?}");
        assert!(!shown.contains(&hex(&token.tag)), "{shown}");
        assert!(!shown.contains("abab"), "{shown}");
    }

    #[test]
    fn the_key_is_made_once_private_and_rotated() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("store");
        let first = store.reply_key().expect("made");
        let again = store.reply_key().expect("read");
        assert_eq!(first.0, again.0);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = fs::metadata(store.reply_key_path())
                .expect("file")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        let token = first.mint(board(1, "al"));
        store.rotate_reply_key().expect("rotated");
        let rotated = store.reply_key().expect("read");
        assert_ne!(first.0, rotated.0);
        assert!(!rotated.check(&token));
        fs::write(store.reply_key_path(), "not hex\n").expect("write");
        assert!(matches!(
            store.reply_key(),
            Err(StoreError::BadReplyKey { .. })
        ));
    }
}
