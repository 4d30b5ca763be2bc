//! Commands carried out in-process, with no process started: a [`Home`] is a store in
//! a temporary folder with a fixed clock; [`Home::run`] parses a Subject line with
//! `Command::parse` (its masked words naming an account shown, `inbound::line`) and
//! carries it out with `exec::execute` inside a transaction of
//! the server's own runner (`run::txn::Locked`: the store's lock, the indexes kept,
//! the gate, one journal committed), and returns the replies with the files changed
//! (the derived indexes left out of that list). [`Home::refused`] also checks that
//! nothing changed. Passwords are hashed with the tests' cheap argon2 parameters
//! (`store::with_cheap_hashes`).
//! The store is read back through its read API, as JSON, so the tests keep working
//! when the stored types gain stronger field types.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::Value;
use yinsh_pbem::mail::auth_results::FromAuth;
use yinsh_pbem::mail::{Address, Transport};
use yinsh_pbem::rules::Color;
use yinsh_pbem::server::command::Command;
use yinsh_pbem::server::exec::{Reply, Request};
use yinsh_pbem::server::game::index;
use yinsh_pbem::server::inbound::identity::{self, Offered};
use yinsh_pbem::server::inbound::line;
use yinsh_pbem::server::model::BoardId;
use yinsh_pbem::server::run::context::Ctx;
use yinsh_pbem::server::run::log::Log;
use yinsh_pbem::server::run::txn::{Locked, Notes, Started, Txn, Work};
use yinsh_pbem::server::store::{Store, with_cheap_hashes};
use yinsh_pbem::server::{Report, Settings};

/// The server's own address, for the help texts.
pub const SERVER: &str = "yinsh@example.org";

/// The clock of a new home: Sun, 22 Nov 2026 21:47:00 UTC.
pub const START: u64 = 1_795_384_020;

/// A player of the tests: userid `name`, password `<first letter>pw`, mail address
/// `<name>@example.org`.
pub fn address(name: &str) -> String {
    format!("{name}@example.org")
}

/// The password the helpers give `name`.
pub fn password(name: &str) -> String {
    format!("{}pw", &name[..1])
}

/// A server home in a temporary folder.
pub struct Home {
    dir: tempfile::TempDir,
    /// The store, opened on the home.
    pub store: Store,
    /// The clock: each command runs a minute after the one before.
    pub now: u64,
}

/// What one command did.
#[derive(Debug)]
pub struct Done {
    /// The replies, in the order the handler made them.
    pub replies: Vec<Reply>,
    /// The files it changed (written or removed), relative to the home, sorted.
    pub changed: Vec<String>,
}

impl Done {
    /// The one reply, checking there is exactly one.
    #[track_caller]
    pub fn only(&self) -> &Reply {
        assert_eq!(self.replies.len(), 1, "{:#?}", self.replies);
        &self.replies[0]
    }

    /// The recipients of each reply, in order.
    pub fn recipients(&self) -> Vec<Vec<String>> {
        self.replies.iter().map(to).collect()
    }
}

/// The recipients of `reply`, as text.
pub fn to(reply: &Reply) -> Vec<String> {
    reply.to.iter().map(ToString::to_string).collect()
}

/// Asserts that the body of `reply` contains `text`, showing the body when it does not.
#[track_caller]
pub fn assert_says(reply: &Reply, text: &str) {
    assert!(
        reply.body.contains(text),
        "{text:?} is not in the body:\n{}",
        reply.body
    );
}

/// Asserts that `reply` goes to exactly `to`, under `subject`, and that its body
/// contains each of `lines`.
#[track_caller]
pub fn assert_reply(reply: &Reply, to: &[&str], subject: &str, lines: &[&str]) {
    assert_eq!(self::to(reply), to, "recipients of {reply:#?}");
    assert_eq!(reply.subject, subject, "subject of {reply:#?}");
    for line in lines {
        assert_says(reply, line);
    }
}

impl Home {
    /// An empty home.
    pub fn new() -> Home {
        let dir = crate::support::tmp::dir();
        let store = Store::open(&dir.path().join("games")).expect("open the store");
        index::rebuild(&store, START).expect("build the indexes");
        Home {
            dir,
            store,
            now: START,
        }
    }

    /// A home where each of `names` has signed up (see [`address`], [`password`]).
    pub fn with_players(names: &[&str]) -> Home {
        let mut home = Home::new();
        for name in names {
            let done = home.run(
                name,
                &format!("signup {name} {} {}", password(name), address(name)),
            );
            assert_eq!(done.changed, [format!("accounts/{name}.json")], "{done:#?}");
        }
        home
    }

    /// A home with `names` signed up and board 101 made by `yinsh challenge` between
    /// the first two (White first).
    pub fn with_game(names: &[&str]) -> Home {
        let mut home = Home::with_players(names);
        let done = home.run(
            names[0],
            &format!("yinsh challenge {} {}", names[0], names[1]),
        );
        assert_eq!(done.replies.len(), 2, "{done:#?}");
        home
    }

    /// The home folder.
    pub fn path(&self) -> &Path {
        self.store.home()
    }

    /// Carries out `subject` sent by `from` (a userid of [`address`]) with an empty body.
    pub fn run(&mut self, from: &str, subject: &str) -> Done {
        self.run_with(from, subject, "")
    }

    /// Carries out `subject` sent by `from` with the comment `comment`, and writes
    /// what it changed; panics on an internal failure.
    pub fn run_with(&mut self, from: &str, subject: &str, comment: &str) -> Done {
        self.try_run(from, subject, comment)
            .unwrap_or_else(|e| panic!("{subject:?} failed inside: {e}"))
    }

    /// Carries out `subject` sent by `from` with the comment `comment` inside a
    /// transaction of the real runner (`run::txn::Locked`: the lock, the indexes, the
    /// gate, the replies built and the journal committed), and writes what it
    /// changed; an internal failure comes back as its message, with nothing written.
    pub fn try_run(&mut self, from: &str, subject: &str, comment: &str) -> Result<Done, String> {
        self.now += 60;
        let now = self.now;
        let cmd = Command::parse(subject).unwrap_or_else(|e| panic!("{subject:?}: {e}"));
        let quoted = format!("> Subject: {subject}\n");
        let sender: Address = address(from).parse().expect("an address");
        let mut settings = Settings::defaults(self.path().to_path_buf());
        settings.now = Some(now);
        settings.confirm_addresses = false;
        settings.challenges_for_others_per_day = 5;
        settings.from = SERVER.to_string();
        // The replies are read here as the handlers made them; the mails built from
        // them go to an outbox beside the home, without a picture.
        settings.transport = Transport::Outbox(self.dir.path().join("outbox"));
        settings.html_mail = false;
        let (locked, recovered) =
            Locked::take(&self.store, &settings).map_err(|e| e.to_string())?;
        assert_eq!(recovered, None, "a journal was left before {subject:?}");
        let log = Log::in_home(self.path());
        let mut report = Report::default();
        let mut ctx = Ctx::new(&self.store, &settings, &log, &mut report);
        let key = format!("home-{now}");
        let txn = Txn {
            key: &key,
            started: Started::Server,
            seed: &|k, _| format!("home-{now}-{k}"),
            notes: Notes::Reported,
        };
        let committed = with_cheap_hashes(|| {
            locked.transaction(&mut ctx, txn, |ctx| {
                let store = ctx.store;
                // Read as inbound reads a line: its masked words that name an
                // account are shown.
                let mut read = Ok(cmd.clone());
                line::reveal(store, &mut read)?;
                let cmd = read.expect("a command");
                let req = Request {
                    from: Some(&sender),
                    reply_to: Some(&sender),
                    quoted: &quoted,
                    now,
                    settings: &settings,
                    from_auth: FromAuth::Unknown,
                };
                let proven = identity::prove(store, &req, Offered::Command(&cmd), &mut |_| {})?;
                Ok(Work::from(identity::act(
                    store, &req, &proven, &cmd, comment,
                )?))
            })
        })
        .map_err(|e| e.to_string())?;
        assert!(
            !self.store.journal_waits().expect("the journal"),
            "{subject:?} left a journal"
        );
        // The derived indexes are checked by tests of their own (index.rs; the
        // look-alike index and the list of unconfirmed accounts: accounts_attacks.rs;
        // the address index: confirm.rs).
        let derived = [
            self.store.index_dir(),
            self.store.home().join("addresses"),
            self.store.home().join("skeletons"),
            self.store.home().join("unconfirmed"),
        ];
        let mut changed: Vec<String> = committed
            .files_changed
            .iter()
            .filter(|path| !derived.iter().any(|d| path.starts_with(d)))
            .map(|path| self.relative(path))
            .collect();
        changed.sort();
        Ok(Done {
            replies: committed.replies,
            changed,
        })
    }

    /// Carries out `subject` sent by `from` with `comment`, checking that no file of
    /// the home changed.
    #[track_caller]
    pub fn unchanged(&mut self, from: &str, subject: &str, comment: &str) -> Done {
        let before = self.files();
        let done = self.run_with(from, subject, comment);
        assert_eq!(
            done.changed,
            Vec::<String>::new(),
            "{subject:?} changed files"
        );
        assert!(self.files() == before, "{subject:?} changed the home");
        done
    }

    /// Carries out `subject`, expecting a wrong password: the only file it changes is
    /// the count of wrong passwords of the userid (`logins/<key>.json`, against
    /// guessing), which now holds one more.
    #[track_caller]
    pub fn only_a_failed_login(&mut self, from: &str, subject: &str, comment: &str) -> Done {
        let before = self.files();
        let done = self.run_with(from, subject, comment);
        let [login] = done.changed.as_slice() else {
            panic!(
                "{subject:?} changed {:?}, expected one login count",
                done.changed
            );
        };
        assert!(
            login.starts_with("logins/") && login.ends_with(".json"),
            "{subject:?} changed {login}"
        );
        let path = self.path().join(login);
        let count = |bytes: Option<&Vec<u8>>| {
            bytes.map_or(0, |b| {
                serde_json::from_slice::<Value>(b).expect("a login count")["count"]
                    .as_u64()
                    .expect("count")
            })
        };
        let after = self.files();
        assert_eq!(
            count(after.get(&path)),
            count(before.get(&path)) + 1,
            "{subject:?}"
        );
        let others = |files: &BTreeMap<PathBuf, Vec<u8>>| {
            files
                .iter()
                .filter(|(p, _)| **p != path)
                .map(|(p, b)| (p.clone(), b.clone()))
                .collect::<Vec<_>>()
        };
        assert!(
            others(&after) == others(&before),
            "{subject:?} changed the home"
        );
        done
    }

    /// Carries out `subject` sent by `from` with `comment`, expecting a refusal: one
    /// error mail to the sender that says `says` and quotes the mail, and no file of
    /// the home changed (a wrong password changes only the userid's count of wrong
    /// passwords). Returns the error mail.
    #[track_caller]
    pub fn refused(&mut self, from: &str, subject: &str, comment: &str, says: &str) -> Reply {
        let reply = if says == "Invalid password entered" {
            self.only_a_failed_login(from, subject, comment)
        } else {
            self.unchanged(from, subject, comment)
        }
        .only()
        .clone();
        assert_says(&reply, says);
        assert_eq!(to(&reply), [address(from)], "{reply:#?}");
        assert!(
            reply.subject == "Yinsh error"
                || reply.subject.starts_with("Yinsh Board ") && reply.subject.ends_with(" Error"),
            "{reply:#?}"
        );
        assert!(
            reply.body.contains(&format!("> Subject: {subject}")),
            "{reply:#?}"
        );
        reply
    }

    /// The journal file, emptied between transactions (`Store::journal_waits`).
    fn journal(&self) -> PathBuf {
        self.path().join("journal").join("pending")
    }

    /// Every file of the home with its content (the lock file and the journal, emptied
    /// between transactions as [`Home::try_run`] checks, aside).
    pub fn files(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        let mut out = BTreeMap::new();
        let mut dirs = vec![self.path().to_path_buf()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("read the home") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path != self.store.lock_path() && path != self.journal() {
                    let bytes = std::fs::read(&path).expect("read a file");
                    out.insert(path, bytes);
                }
            }
        }
        out
    }

    /// The game file of `board`, read through the store, as JSON.
    #[track_caller]
    pub fn game(&self, board: impl Into<BoardId>) -> Value {
        let board: BoardId = board.into();
        let file = self.store.game(board).expect("readable").expect("a game");
        serde_json::to_value(file).expect("as JSON")
    }

    /// The texts of the turns of `board`.
    pub fn turns(&self, board: impl Into<BoardId>) -> Vec<String> {
        let game = self.game(board);
        let turns = game["turns"].as_array().expect("turns");
        turns
            .iter()
            .map(|t| t["text"].as_str().expect("text").to_string())
            .collect()
    }

    /// The account of `userid`, read through the store, as JSON; `None` when there is
    /// none.
    pub fn account(&self, userid: &str) -> Option<Value> {
        let accounts = self.store.accounts().expect("accounts");
        accounts
            .into_iter()
            .map(|a| serde_json::to_value(a).expect("as JSON"))
            .find(|a| a["userid"].as_str() == Some(userid))
    }

    /// Writes `turns` onto `board` as if their sides' players had played them, so a
    /// test can start from a later position without paying a password check per turn.
    pub fn fast_forward(&mut self, board: impl Into<BoardId>, turns: &[(Color, String)]) {
        let board: BoardId = board.into();
        let path = self.store.game_path(board);
        let text = std::fs::read_to_string(&path).expect("game file");
        let mut game: Value = serde_json::from_str(&text).expect("JSON");
        let players = [game["white"].clone(), game["black"].clone()];
        let list = game["turns"].as_array_mut().expect("turns");
        for (side, turn) in turns {
            let by = players[usize::from(*side == Color::Black)].clone();
            self.now += 60;
            list.push(serde_json::json!({ "text": turn, "by": by, "at": self.now }));
        }
        let text = serde_json::to_string_pretty(&game).expect("JSON") + "\n";
        std::fs::write(&path, text).expect("write the game");
        index::rebuild(&self.store, self.now).expect("rebuild the indexes");
    }

    fn relative(&self, path: &Path) -> String {
        path.strip_prefix(self.path())
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned()
    }
}
