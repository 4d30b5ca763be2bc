//! The threading headers of every mail the server sends, and the reply tokens found
//! in the headers of a mail it receives.
//!
//! A mail with a reply token (`thread.rs`) gets a Message-ID
//! `<token>~<unique>@<domain>`: the reader's mail program copies it into the
//! In-Reply-To and References of a reply, which is how `inbound::by_reply` knows who
//! replies to what. A token is a credential, so no mail ever carries one in its
//! In-Reply-To or References: those of the mail answered are passed on without any
//! token. Every mail of a game references the game's root id
//! `yinsh.game-<board>.<created>@<domain>` first, so mail programs thread a game's
//! mails together (the root is a name only: no mail has it).

use crate::mail::{InboundMail, new_message_id};
use crate::server::store::ReplyToken;

use super::reply::Reply;
use super::thread::GameRef;

/// The longest Message-ID the mail builder accepts, in bytes.
const MAX_ID_LEN: usize = 200;

/// How many ids at the end of References (and In-Reply-To) are looked at for tokens:
/// a reply's own parent is the last one; a huge References header costs no more.
pub const IDS_LOOKED_AT: usize = 16;

/// The threading headers of one outgoing mail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Headers {
    /// The Message-ID, without `<>`.
    pub id: String,
    /// In-Reply-To, without `<>`.
    pub in_reply_to: Option<String>,
    /// References, without `<>`, oldest first.
    pub references: Vec<String>,
}

/// The headers of `reply`, answering `answering` (if a mail), sent from `address`;
/// `seed` starts the Message-ID of a mail without token.
pub fn headers(
    address: &str,
    answering: Option<&InboundMail>,
    reply: &Reply,
    seed: &str,
) -> Headers {
    let in_reply_to = answering
        .and_then(|m| m.message_id.clone())
        .filter(|id| !is_token_id(id));
    let mut references: Vec<String> = reply
        .thread
        .game
        .map(|game| root_id(address, game))
        .into_iter()
        .collect();
    if let Some(mail) = answering {
        references.extend(
            mail.references
                .iter()
                .filter(|id| !is_token_id(id))
                .cloned(),
        );
    }
    references.extend(in_reply_to.clone());
    let id = match &reply.thread.token {
        Some(token) => token_id(address, token),
        None => new_message_id(address, seed),
    };
    Headers {
        id,
        in_reply_to,
        references,
    }
}

/// The root id of a game's thread.
///
/// ```
/// use yinsh_pbem::server::outgoing::thread::GameRef;
/// use yinsh_pbem::server::outgoing::threading::root_id;
/// let game = GameRef { board: 101.into(), created: 1_700_000_000 };
/// assert_eq!(root_id("yinsh@example.org", game), "yinsh.game-101.1700000000@example.org");
/// ```
pub fn root_id(address: &str, game: GameRef) -> String {
    let unique = new_message_id(address, "");
    let domain = unique.rsplit('@').next().unwrap_or("localhost");
    format!("yinsh.game-{}.{}@{domain}", game.board, game.created)
}

/// A Message-ID carrying `token`: `<token>~<unique>@<domain>` (the domain cut to
/// `localhost` if the id would be too long for the mail builder).
fn token_id(address: &str, token: &ReplyToken) -> String {
    let id = format!("{token}~{}", new_message_id(address, ""));
    if id.len() <= MAX_ID_LEN {
        return id;
    }
    let local = id.rsplit_once('@').map_or(id.as_str(), |(local, _)| local);
    format!("{local}@localhost")
}

/// Whether a message id is one of ours that carries a token (well formed or not).
fn is_token_id(id: &str) -> bool {
    id.starts_with("y1~")
}

/// The reply tokens named by the ids a mail answers (In-Reply-To first, then
/// References from the latest), at most [`IDS_LOOKED_AT`] ids looked at; ids that
/// are not ours or not well formed are skipped. Whether a token is genuine is for the
/// caller to check.
pub fn tokens_named(mail: &InboundMail) -> Vec<ReplyToken> {
    mail.references
        .iter()
        .rev()
        .take(IDS_LOOKED_AT)
        .filter(|id| is_token_id(id))
        .filter_map(|id| {
            let local = id.rsplit_once('@')?.0;
            let (token, _unique) = local.rsplit_once('~')?;
            token.parse().ok()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::outgoing::thread::Thread;
    use crate::server::store::{ReplyScope, Store};

    fn token(store: &Store, moveno: u32) -> ReplyToken {
        token_of(store, 101, moveno, "alice")
    }

    fn token_of(store: &Store, board: u32, moveno: u32, userid: &str) -> ReplyToken {
        store.reply_key().expect("key").mint(ReplyScope::Board {
            board: board.into(),
            moveno,
            userid: userid.parse().expect("userid"),
        })
    }

    #[test]
    fn a_token_travels_in_the_message_id_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("store");
        let game = GameRef {
            board: 101.into(),
            created: 5,
        };
        let t = token(&store, 7);
        let reply = Reply {
            thread: Thread {
                game: Some(game),
                token: Some(t.clone()),
                play: None,
            },
            ..Reply::default()
        };
        let h = headers("yinsh@example.org", None, &reply, "x");
        assert!(h.id.starts_with(&format!("{t}~")), "{}", h.id);
        assert!(h.id.ends_with("@example.org"));
        assert_eq!(h.references, ["yinsh.game-101.5@example.org"]);
        // Replying to it: In-Reply-To names it, and the token is found again.
        let answer = InboundMail {
            message_id: Some("their.1@mail.example".into()),
            references: vec!["old@x".into(), h.id.clone()],
            ..InboundMail::default()
        };
        assert_eq!(tokens_named(&answer), std::slice::from_ref(&t));
        // The mails answering it never carry the token on.
        let next = headers("yinsh@example.org", Some(&answer), &Reply::default(), "x");
        assert_eq!(next.in_reply_to.as_deref(), Some("their.1@mail.example"));
        assert_eq!(next.references, ["old@x", "their.1@mail.example"]);
        assert!(!next.id.starts_with("y1~"));
        let game_mail = Reply {
            thread: Thread {
                game: Some(game),
                token: None,
                play: None,
            },
            ..reply
        };
        let next = headers("yinsh@example.org", Some(&answer), &game_mail, "x");
        assert_eq!(next.references[0], "yinsh.game-101.5@example.org");
        assert!(
            next.references
                .iter()
                .all(|id| !id.contains(&t.to_string()))
        );
    }

    #[test]
    fn a_long_domain_is_cut_so_the_id_stays_valid() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("store");
        let t = token_of(&store, u32::MAX, u32::MAX, &"u".repeat(32));
        let address = format!("yinsh@{}.example.org", "d".repeat(90));
        let id = token_id(&address, &t);
        assert!(id.len() <= MAX_ID_LEN, "{id}");
        assert!(id.ends_with("@localhost"));
    }

    #[test]
    fn only_the_latest_ids_are_looked_at() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(dir.path()).expect("store");
        let t = token(&store, 1);
        let mut references = vec![format!("{t}~1.2@x")];
        references.extend((0..10_000).map(|i| format!("y1~b~{i}~1~al~zz~1@x")));
        let mail = InboundMail {
            references,
            ..InboundMail::default()
        };
        assert!(tokens_named(&mail).is_empty());
    }
}
