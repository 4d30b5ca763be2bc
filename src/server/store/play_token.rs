//! The play tokens of "Play your move on the board" links, signed with the reply key
//! (`reply_key.rs`), so that `rotate-reply-key` voids them with the reply tokens. A
//! [`PlayToken`] is an HMAC-SHA256 under that key over its own domain, the board, the
//! move number and the player's userid (lower-cased), cut to 128 bits: nothing is
//! stored, and a token plays only that move of that board for that player. Once the
//! move is played the game's next move number has passed it, so it never plays again
//! (`inbound::identity::play`). Checking is constant-time (the `hmac` crate's verify).

use hmac::Mac;

use super::reply_key::ReplyKey;
use crate::server::model::{BoardId, PLAY_TAG_LEN, PlayToken, UserId};

/// What the HMAC covers before the board, move and player: names the scheme and its
/// version, apart from the reply tokens'.
const DOMAIN: &[u8] = b"yinsh-pbem play token 1\n";

impl ReplyKey {
    /// The play token of move `moveno` of `board` for `userid`.
    ///
    /// ```
    /// # let dir = tempfile::tempdir().unwrap();
    /// use yinsh_pbem::server::store::Store;
    /// let key = Store::open(dir.path()).unwrap().reply_key().unwrap();
    /// let alice = "Alice".parse().unwrap();
    /// let token = key.mint_play(101.into(), 27, &alice);
    /// assert!(key.check_play(&token, 101.into(), &"alice".parse().unwrap()));
    /// assert!(!key.check_play(&token, 102.into(), &alice));
    /// ```
    pub fn mint_play(&self, board: BoardId, moveno: u32, userid: &UserId) -> PlayToken {
        let full = self.play_mac(board, moveno, userid).finalize().into_bytes();
        let mut tag = [0u8; PLAY_TAG_LEN];
        tag.copy_from_slice(&full[..PLAY_TAG_LEN]);
        PlayToken::new(moveno, tag)
    }

    /// Whether `token` was made with this key for its move of `board` and `userid`.
    pub fn check_play(&self, token: &PlayToken, board: BoardId, userid: &UserId) -> bool {
        self.play_mac(board, token.moveno(), userid)
            .verify_truncated_left(token.tag())
            .is_ok()
    }

    fn play_mac(&self, board: BoardId, moveno: u32, userid: &UserId) -> hmac::Hmac<sha2::Sha256> {
        let mut mac = self.keyed(DOMAIN);
        mac.update(format!("{board}~{moveno}~{}", userid.key()).as_bytes());
        mac
    }
}

#[cfg(test)]
mod tests {
    use crate::server::model::{PlayToken, UserId};
    use crate::server::store::{ReplyScope, Store};

    fn user(s: &str) -> UserId {
        s.parse().expect("userid")
    }

    /// Issue 27: a play token is bound to its board, move and player, and to the key.
    #[test]
    fn a_play_token_plays_only_its_board_move_and_player_under_its_key() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("store");
        let key = store.reply_key().expect("key");
        let token = key.mint_play(101.into(), 7, &user("alice"));
        assert!(key.check_play(&token, 101.into(), &user("ALICE")));
        assert!(!key.check_play(&token, 102.into(), &user("alice")));
        assert!(!key.check_play(&token, 101.into(), &user("bob")));
        let moved: PlayToken = token
            .to_string()
            .replace("play-7-", "play-8-")
            .parse()
            .expect("well formed");
        assert!(!key.check_play(&moved, 101.into(), &user("alice")));
        // Not the tag of the reply token of the same board mail.
        let reply = key.mint(ReplyScope::Board {
            board: 101.into(),
            moveno: 7,
            userid: user("alice"),
        });
        let reply_tag = reply.to_string().rsplit('~').next().map(str::to_string);
        assert!(!token.to_string().ends_with(&reply_tag.expect("tag")));
        store.rotate_reply_key().expect("rotated");
        let rotated = store.reply_key().expect("key");
        assert!(!rotated.check_play(&token, 101.into(), &user("alice")));
    }
}
