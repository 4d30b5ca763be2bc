//! Driving `yinsh-pbem deliver` and `tick` against a temporary home, and reading the
//! replies they write to the outbox. By default they run in-process, on the test's
//! own thread, through the same library functions the binary's `main` calls
//! (`cli::deliver_in`, `cli::tick_in`: the settings resolved from the same arguments
//! and variables, the same panic guard and exit codes); [`TestServer::with_binary`]
//! starts the real binary instead, for the tests of what only a process has (faults
//! injected by `YINSH_PBEM_FAULT`, command-line arguments, stderr, kills, locks
//! between processes). In-process, new password hashes use the cheap argon2
//! parameters of the tests (`store::with_cheap_hashes`); the binary's, the real ones.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use yinsh_pbem::server::model::BoardId;

use mail_parser::MimeHeaders as _;
use yinsh_pbem::cli::{self, Host, Panics};
use yinsh_pbem::rules;
use yinsh_pbem::server::store::with_cheap_hashes;

use super::bin;
use super::mail;

/// A server home in a temporary folder, with a fixed clock.
pub struct TestServer {
    pub dir: tempfile::TempDir,
    pub now: u64,
    /// Extra arguments for every `deliver` (e.g. `--sender`): only with
    /// [`with_binary`](TestServer::with_binary).
    pub args: Vec<String>,
    /// Extra environment variables for every `deliver` and `tick`. In-process, only
    /// those `config::resolve_with` reads ([`IN_PROCESS_VARIABLES`]).
    pub envs: Vec<(&'static str, &'static str)>,
    /// How `deliver` and `tick` run.
    pub runs: Runs,
    seq: u32,
}

/// How a [`TestServer`] runs `deliver` and `tick`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runs {
    /// In the test's own process and thread, through the library.
    InProcess,
    /// As the real `yinsh-pbem` binary, a process each.
    Binary,
}

/// The variables an in-process run reads: those `config::resolve_with` reads through
/// the environment it is given. The others are read by the binary's argument parser
/// (`YINSH_PBEM_HOME`, ...) or once per process (`YINSH_PBEM_FAULT`): a test setting
/// them needs [`TestServer::with_binary`].
pub const IN_PROCESS_VARIABLES: [&str; 4] = [
    bin::CONFIRM,
    "YINSH_PBEM_NOW",
    "YINSH_PBEM_ROBOT_THINK_MS",
    "YINSH_PBEM_SMTP_CA_FILE",
];

/// One reply read back from the outbox.
#[derive(Debug, Clone)]
pub struct Sent {
    pub to: Vec<String>,
    pub subject: String,
    pub body: String,
    /// The whole mail as sent, except that the base64 of its images is left out
    /// (random base64 holds any short word, a test password among them) and its MIME
    /// boundaries are written `[boundary]` (random letters too).
    pub raw: String,
    /// The HTML part, decoded, when the mail has one.
    pub html: Option<String>,
    /// The images the mail carries: Content-ID and bytes.
    pub images: Vec<(String, Vec<u8>)>,
    /// The Message-ID, without `<>`.
    pub message_id: String,
    /// The In-Reply-To, without `<>`.
    pub in_reply_to: Option<String>,
    /// The References, without `<>`.
    pub references: Vec<String>,
}

impl Sent {
    /// What a reply to this mail answers (`mail::reply` builds the reply).
    pub fn original(&self) -> mail::Original<'_> {
        mail::Original {
            subject: &self.subject,
            message_id: &self.message_id,
            references: &self.references,
            body: &self.body,
        }
    }
}

impl TestServer {
    pub fn new() -> TestServer {
        TestServer {
            dir: crate::support::tmp::dir(),
            now: 1_795_384_020,
            args: Vec::new(),
            envs: Vec::new(),
            runs: Runs::InProcess,
            seq: 0,
        }
    }

    /// A server whose `deliver` and `tick` are the real binary, a process each: for
    /// the tests of command-line arguments, injected faults, stderr and processes.
    pub fn with_binary() -> TestServer {
        TestServer {
            runs: Runs::Binary,
            ..TestServer::new()
        }
    }

    /// A server that asks new addresses to confirm themselves, as by default.
    pub fn confirming() -> TestServer {
        TestServer {
            envs: bin::confirming().to_vec(),
            ..TestServer::new()
        }
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("games")
    }

    pub fn outbox(&self) -> PathBuf {
        self.home().join("outbox")
    }

    /// A plain text mail from `from` with this Subject and body.
    pub fn mail(&mut self, from: &str, subject: &str, body: &str) -> String {
        self.seq += 1;
        mail::plain(
            from,
            subject,
            &format!("test-{}-{}@example.org", self.seq, self.now),
            &format!("{body}\n"),
        )
    }

    /// Deliver raw mail bytes; returns the exit code.
    pub fn deliver_raw(&mut self, raw: &[u8]) -> i32 {
        self.now += 60;
        if self.runs == Runs::InProcess {
            let code = self.in_process(self.now, |host, opts| {
                cli::deliver_in(host, opts, raw, None, false)
            });
            return exit_code(code);
        }
        let out = bin::assert_command()
            .arg("deliver")
            .arg("--home")
            .arg(self.home())
            .args(&self.args)
            .env("YINSH_PBEM_NOW", self.now.to_string())
            .envs(self.envs.iter().copied())
            .write_stdin(raw.to_vec())
            .output()
            .expect("run deliver");
        assert!(
            out.stderr.is_empty(),
            "deliver wrote to stderr: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.status.code().unwrap_or(-1)
    }

    /// Deliver a plain mail, expect exit 0, and return the replies it produced.
    pub fn send(&mut self, from: &str, subject: &str, body: &str) -> Vec<Sent> {
        let raw = self.mail(from, subject, body);
        self.send_raw(raw.as_bytes())
    }

    /// Deliver a plain mail from `from` with a Reply-To, expect exit 0, and return
    /// the replies it produced.
    pub fn send_with_reply_to(
        &mut self,
        from: &str,
        reply_to: &str,
        subject: &str,
        body: &str,
    ) -> Vec<Sent> {
        let raw = self.mail(from, subject, body);
        let raw = raw.replacen("\nTo: ", &format!("\nReply-To: {reply_to}\nTo: "), 1);
        self.send_raw(raw.as_bytes())
    }

    /// Deliver raw mail bytes, expect exit 0, and return the replies it produced.
    pub fn send_raw(&mut self, raw: &[u8]) -> Vec<Sent> {
        let before = self.outbox_files();
        assert_eq!(
            self.deliver_raw(raw),
            0,
            "deliver of {}",
            String::from_utf8_lossy(&raw[..raw.len().min(200)])
        );
        self.sent_since(&before)
    }

    /// The replies in the outbox that are not among `before` (an earlier
    /// [`outbox_files`](TestServer::outbox_files)), read back and sorted by recipients,
    /// then subject.
    pub fn sent_since(&self, before: &[PathBuf]) -> Vec<Sent> {
        let mut new: Vec<Sent> = self
            .outbox_files()
            .into_iter()
            .filter(|f| !before.contains(f))
            .map(|f| read_sent(&f))
            .collect();
        new.sort_by(|a, b| a.to.cmp(&b.to).then(a.subject.cmp(&b.subject)));
        new
    }

    /// The mails in the outbox: its `.eml` files (not the temp file of a mail being
    /// written by a process still running, which a mail client would not see either).
    pub fn outbox_files(&self) -> Vec<PathBuf> {
        let mut v: Vec<PathBuf> = std::fs::read_dir(self.outbox())
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "eml"))
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    }

    /// Run `tick` at `now` (with the server's arguments' environment) and return the
    /// mails it sent.
    pub fn tick(&mut self, now: u64) -> Vec<Sent> {
        self.run_at(now, "tick", |host, opts| cli::tick_in(host, opts, false))
    }

    /// Run `flush` at `now` (as the package's timer does every 5 minutes: the spool
    /// sent, then the reviews owed made) and return the mails it sent.
    pub fn flush(&mut self, now: u64) -> Vec<Sent> {
        self.run_at(now, "flush", |host, opts| cli::flush_in(host, opts, false))
    }

    /// Run the subcommand `name` (`tick` or `flush`) at `now`, in this process through
    /// `in_process` or through the binary, and return the mails it sent.
    fn run_at(
        &mut self,
        now: u64,
        name: &str,
        in_process: impl FnOnce(&Host<'_>, &cli::Overrides) -> ExitCode,
    ) -> Vec<Sent> {
        let before = self.outbox_files();
        if self.runs == Runs::InProcess {
            let code = self.in_process(now, in_process);
            assert_eq!(exit_code(code), 0, "{name}");
            self.now = now;
            return self.sent_since(&before);
        }
        let out = bin::command()
            .arg(name)
            .arg("--home")
            .arg(self.home())
            .env("YINSH_PBEM_NOW", now.to_string())
            .envs(self.envs.iter().copied())
            .output()
            .expect(name);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
        assert!(out.stderr.is_empty());
        self.now = now;
        self.sent_since(&before)
    }

    /// Runs `run` in-process with the home as `--home` and the environment the binary
    /// would see: the clock `now`, confirmation off (as [`bin::command`] has it), then
    /// the server's variables.
    fn in_process(
        &self,
        now: u64,
        run: impl FnOnce(&Host<'_>, &cli::Overrides) -> ExitCode,
    ) -> ExitCode {
        assert!(
            self.args.is_empty(),
            "arguments {:?} need the binary: TestServer::with_binary()",
            self.args
        );
        for (name, _) in &self.envs {
            assert!(
                IN_PROCESS_VARIABLES.contains(name),
                "{name} needs the binary: TestServer::with_binary()"
            );
        }
        let now = now.to_string();
        let env = |name: &str| {
            let set = self.envs.iter().rev().find(|(n, _)| *n == name);
            match (set, name) {
                (Some((_, value)), _) => Some(OsString::from(value)),
                (None, "YINSH_PBEM_NOW") => Some(OsString::from(&now)),
                (None, bin::CONFIRM) => Some(OsString::from("false")),
                (None, _) => None,
            }
        };
        let host = Host {
            env: &env,
            panics: Panics::Caught,
        };
        let opts = cli::Overrides {
            home: Some(self.home()),
            ..cli::Overrides::default()
        };
        // The hashes of in-process runs are cheap (`store::with_cheap_hashes`).
        with_cheap_hashes(|| run(&host, &opts))
    }

    /// The server's log.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.home().join("log/yinsh-pbem.log")).unwrap_or_default()
    }

    /// Appends `turns` to the game file of `board` (by the side's player), as if they
    /// had been played.
    pub fn fast_forward(&mut self, board: impl Into<BoardId>, turns: &[(rules::Color, String)]) {
        let board: BoardId = board.into();
        let path = self.home().join("boards").join(format!("{board}.json"));
        let mut game = self.game_file(board);
        let players = [game["white"].clone(), game["black"].clone()];
        let list = game["turns"].as_array_mut().expect("turns");
        for (side, turn) in turns {
            let by = players[usize::from(*side == rules::Color::Black)].clone();
            self.now += 60;
            list.push(serde_json::json!({ "text": turn, "by": by, "at": self.now }));
        }
        let text = serde_json::to_string_pretty(&game).expect("JSON") + "\n";
        std::fs::write(&path, text).expect("write the game");
    }

    pub fn game_file(&self, board: impl Into<BoardId>) -> serde_json::Value {
        let board: BoardId = board.into();
        let text =
            std::fs::read_to_string(self.home().join("boards").join(format!("{board}.json")))
                .expect("game file");
        serde_json::from_str(&text).expect("game json")
    }
}

/// The number a process would exit with: 0 or 75 (`cli::EX_TEMPFAIL`).
fn exit_code(code: ExitCode) -> i32 {
    if code == ExitCode::SUCCESS {
        0
    } else if code == ExitCode::from(cli::EX_TEMPFAIL) {
        i32::from(cli::EX_TEMPFAIL)
    } else {
        panic!("an exit code neither 0 nor 75: {code:?}")
    }
}

/// Asserts that the body of `m` says `text`, however the lines of either are broken
/// (the text part is broken at 78 columns where it is finished, issue 47 item 8:
/// `tests/it/mail_words.rs` checks the layout), showing the body when it does not.
#[track_caller]
pub fn assert_says(m: &Sent, text: &str) {
    assert!(
        m.body.contains(text) || words(&m.body).contains(&words(text)),
        "{}",
        m.body
    );
}

/// `text` with every run of spaces and line breaks one space.
pub fn words(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Read an outbox `.eml` back with mail-parser.
pub fn read_sent(path: &Path) -> Sent {
    let raw = std::fs::read(path).expect("read eml");
    let msg = mail_parser::MessageParser::default()
        .parse(&raw)
        .expect("parse eml");
    let to = msg
        .to()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.address().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let mut images = Vec::new();
    let mut text = raw.clone();
    for part in msg.parts.iter().rev() {
        let is_image = part
            .content_type()
            .is_some_and(|t| t.ctype().eq_ignore_ascii_case("image"));
        if is_image {
            let (from, to) = (
                part.raw_body_offset() as usize,
                part.raw_end_offset() as usize,
            );
            text.splice(from..to, b"[image left out]\r\n".iter().copied());
            let cid = part.content_id().unwrap_or_default().to_string();
            images.insert(0, (cid, part.contents().to_vec()));
        }
    }
    // MIME boundaries are random letters too, and hold any short word (a test's
    // `apw`) now and then: they are named, not shown.
    let mut raw_text = String::from_utf8_lossy(&text).into_owned();
    for boundary in msg
        .parts
        .iter()
        .filter_map(|p| p.content_type()?.attribute("boundary"))
    {
        raw_text = raw_text.replace(boundary, "[boundary]");
    }
    Sent {
        to,
        subject: msg.subject().unwrap_or("").to_string(),
        body: msg
            .body_text(0)
            .map(|b| b.replace("\r\n", "\n"))
            .unwrap_or_default(),
        raw: raw_text,
        html: msg
            .parts
            .iter()
            .find(|p| {
                p.content_type().is_some_and(|t| {
                    t.ctype().eq_ignore_ascii_case("text")
                        && t.subtype().is_some_and(|s| s.eq_ignore_ascii_case("html"))
                })
            })
            .and_then(|p| p.text_contents())
            .map(str::to_string),
        images,
        message_id: msg.message_id().unwrap_or("").to_string(),
        in_reply_to: msg.in_reply_to().as_text().map(str::to_string),
        references: ids(msg.references()),
    }
}

/// The ids of a References-like header value.
fn ids(value: &mail_parser::HeaderValue<'_>) -> Vec<String> {
    match value {
        mail_parser::HeaderValue::Text(id) => vec![id.to_string()],
        mail_parser::HeaderValue::TextList(list) => list.iter().map(|id| id.to_string()).collect(),
        _ => Vec::new(),
    }
}
