//! [`PlayToken`]: the capability of a "Play your move on the board" link, as the link
//! and the `yinsh move` command the game's page composes write it. Only its text form
//! lives here; it is minted and checked with the reply key (`store::play_token`).

use std::fmt;
use std::str::FromStr;

/// Bytes of the tag (the truncated HMAC) a play token carries.
pub const PLAY_TAG_LEN: usize = 16;

/// What every play token starts with.
const PREFIX: &str = "play-";

/// A play token: the move number it plays and its tag, written
/// `play-<moveno>-<32 lower-case hex digits>` (only `[A-Za-z0-9_-]`, at most 64
/// characters), so that it stands in a command's password place. Its `Debug` hides
/// the tag; its `Display` is the token itself, for the one link that carries it.
///
/// ```
/// use yinsh_pbem::server::model::PlayToken;
/// let text = "play-27-00112233445566778899aabbccddeeff";
/// let token: PlayToken = text.parse().unwrap();
/// assert_eq!((token.moveno(), token.to_string()), (27, text.to_string()));
/// assert!(!format!("{token:?}").contains("0011"));
/// assert!("play-27-0011".parse::<PlayToken>().is_err());
/// assert!("s3cret".parse::<PlayToken>().is_err());
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct PlayToken {
    moveno: u32,
    tag: [u8; PLAY_TAG_LEN],
}

/// Why a text is not a play token. It never quotes the text (it stands where a
/// password does).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum InvalidPlayToken {
    /// It does not start with `play-` and a move number followed by `-`.
    #[error("it does not start with play-<move number>-")]
    Prefix,
    /// The tag is not 32 lower-case hex digits.
    #[error("its tag is not 32 lower-case hex digits")]
    Tag,
}

impl PlayToken {
    /// The token of move `moveno` with `tag`.
    pub fn new(moveno: u32, tag: [u8; PLAY_TAG_LEN]) -> PlayToken {
        PlayToken { moveno, tag }
    }

    /// The number of the move it plays.
    pub fn moveno(&self) -> u32 {
        self.moveno
    }

    /// Its tag, to be checked in constant time against the key's.
    pub fn tag(&self) -> &[u8; PLAY_TAG_LEN] {
        &self.tag
    }
}

impl fmt::Debug for PlayToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PlayToken({PREFIX}{}-********)", self.moveno)
    }
}

impl fmt::Display for PlayToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{PREFIX}{}-", self.moveno)?;
        f.write_str(&hex::encode(self.tag))
    }
}

impl FromStr for PlayToken {
    type Err = InvalidPlayToken;

    fn from_str(s: &str) -> Result<PlayToken, InvalidPlayToken> {
        let rest = s.strip_prefix(PREFIX).ok_or(InvalidPlayToken::Prefix)?;
        let (number, hex) = rest.split_once('-').ok_or(InvalidPlayToken::Prefix)?;
        let digits = !number.is_empty() && number.len() <= 9;
        if !digits || !number.bytes().all(|b| b.is_ascii_digit()) {
            return Err(InvalidPlayToken::Prefix);
        }
        let moveno = number.parse().map_err(|_| InvalidPlayToken::Prefix)?;
        let bytes = hex.as_bytes();
        if bytes.len() != 2 * PLAY_TAG_LEN {
            return Err(InvalidPlayToken::Tag);
        }
        let value = |d: u8| match d {
            b'0'..=b'9' => Some(d - b'0'),
            b'a'..=b'f' => Some(d - b'a' + 10),
            _ => None,
        };
        let mut tag = [0u8; PLAY_TAG_LEN];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            tag[i] = value(pair[0]).ok_or(InvalidPlayToken::Tag)? << 4
                | value(pair[1]).ok_or(InvalidPlayToken::Tag)?;
        }
        Ok(PlayToken { moveno, tag })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_round_trip_and_fit_a_password_place_and_a_url_fragment() {
        for moveno in [0, 1, 27, 999_999_999] {
            let token = PlayToken::new(moveno, [0xa7; PLAY_TAG_LEN]);
            let text = token.to_string();
            assert!(text.len() <= 64, "{text}");
            assert!(
                text.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'),
                "{text}"
            );
            assert!(text.parse::<crate::server::model::Password>().is_ok());
            assert_eq!(text.parse::<PlayToken>(), Ok(token));
        }
    }

    #[test]
    fn malformed_tokens_are_refused() {
        let tag = "0".repeat(32);
        for (text, want) in [
            (format!("Play-1-{tag}"), InvalidPlayToken::Prefix),
            (format!("play--{tag}"), InvalidPlayToken::Prefix),
            (format!("play-+1-{tag}"), InvalidPlayToken::Prefix),
            (format!("play-1234567890-{tag}"), InvalidPlayToken::Prefix),
            (format!("play-1{tag}"), InvalidPlayToken::Prefix),
            (format!("play-1-{tag}0"), InvalidPlayToken::Tag),
            (format!("play-1-{}", "A".repeat(32)), InvalidPlayToken::Tag),
            ("play-1-".to_string(), InvalidPlayToken::Tag),
        ] {
            assert_eq!(text.parse::<PlayToken>(), Err(want), "{text}");
        }
    }
}
