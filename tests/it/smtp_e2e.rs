//! The real binary behind a real SMTP server: Python's aiosmtpd (`scripts/smtp-sink.py`)
//! listens on 127.0.0.1 at a port picked at run time and saves every mail it receives
//! with its envelope. Signups, a challenge and moves arrive with the right envelope
//! (the server's address as MAIL FROM, the players' registered addresses as RCPT TO),
//! the right headers, and the board drawing byte for byte. With the SMTP server down a
//! move still exits 0 and its replies stay in `<home>/spool`; once it is back,
//! `yinsh-pbem flush` sends each of them exactly once. The plain `smtp://host:port` URL
//! (no `tls` parameter) is lettre's unencrypted SMTP, right for a local relay.
//!
//! Skipped (with a message) when python3 with aiosmtpd is missing, except under CI
//! (the `CI` environment variable set), where that is a failure.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

use yinsh_pbem::notation::render::{SideNames, render};
use yinsh_pbem::rules::{Action, Game, Variant};

use crate::support::bin;
use crate::support::server::TestServer;

/// The server's address in these tests.
const SERVER: &str = "yinsh@yinsh.test";

/// A running `smtp-sink.py`; killed and reaped when dropped.
pub(crate) struct Sink {
    child: Child,
    /// Kept open: the sink exits by itself when it closes (if this test dies).
    _stdin: ChildStdin,
    port: u16,
}

impl Drop for Sink {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Sink {
    /// Start the sink saving into `dir`, on `port` (0: any free port).
    pub(crate) fn start(dir: &Path, port: u16) -> Sink {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/smtp-sink.py");
        let mut child = Command::new("python3")
            .arg(&script)
            .arg(dir)
            .arg("--port")
            .arg(port.to_string())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start python3 scripts/smtp-sink.py");
        let stdin = child.stdin.take().expect("sink stdin");
        let stdout = child.stdout.take().expect("sink stdout");
        // From here on the guard owns the child, so a failed start still kills it.
        let mut sink = Sink {
            child,
            _stdin: stdin,
            port: 0,
        };
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the sink's port line");
        sink.port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("smtp-sink.py did not report its port: {line:?}"));
        sink
    }

    pub(crate) fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }
}

/// One mail as the SMTP server received it.
#[derive(Debug, Clone)]
pub(crate) struct Received {
    mail_from: String,
    rcpt_tos: Vec<String>,
    pub(crate) raw: Vec<u8>,
}

impl Received {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.raw).into_owned()
    }

    /// The value of the first header `name` (unfolded), if any.
    fn header(&self, name: &str) -> Option<String> {
        let text = self.text();
        let head = text.split("\r\n\r\n").next().unwrap_or("");
        let mut lines = head.split("\r\n").peekable();
        while let Some(l) = lines.next() {
            let Some((k, v)) = l.split_once(':') else {
                continue;
            };
            if k.eq_ignore_ascii_case(name) {
                let mut v = v.trim().to_string();
                while let Some(next) = lines.peek().filter(|n| n.starts_with([' ', '\t'])) {
                    v.push(' ');
                    v.push_str(next.trim());
                    lines.next();
                }
                return Some(v);
            }
        }
        None
    }

    fn subject(&self) -> String {
        let msg = mail_parser::MessageParser::default().parse(&self.raw);
        msg.and_then(|m| m.subject().map(str::to_string))
            .unwrap_or_default()
    }
}

/// Every mail in the sink's folder, in arrival order.
fn received(dir: &Path) -> Vec<Received> {
    let mut metas: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect()
        })
        .unwrap_or_default();
    metas.sort();
    metas
        .iter()
        .map(|p| {
            let meta: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(p).expect("read meta"))
                    .expect("meta json");
            let eml = meta["eml"].as_str().expect("eml name");
            Received {
                mail_from: meta["mail_from"].as_str().unwrap_or("").to_string(),
                rcpt_tos: meta["rcpt_tos"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default(),
                raw: std::fs::read(dir.join(eml)).expect("read eml"),
            }
        })
        .collect()
}

/// Wait (at most 120 s: a generous cap for a loaded machine) until the sink holds `n`
/// mails; return the ones after `skip`.
pub(crate) fn wait_for(dir: &Path, n: usize, skip: usize) -> Vec<Received> {
    let start = Instant::now();
    loop {
        let all = received(dir);
        if all.len() >= n || start.elapsed() > Duration::from_secs(120) {
            assert_eq!(all.len(), n, "mails at the SMTP server: {all:#?}");
            return all[skip..].to_vec();
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Whether `python3 -c "import aiosmtpd"` works.
pub(crate) fn aiosmtpd_available() -> bool {
    Command::new("python3")
        .args(["-c", "import aiosmtpd"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The spooled entries of a home.
fn spooled(home: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(home.join("spool"))
        .map(|d| {
            d.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "msg"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// `yinsh-pbem flush -v` with these arguments; returns (exit code, stdout).
fn flush(home: &Path, args: &[String]) -> (i32, String) {
    let out = bin::command()
        .arg("flush")
        .arg("--home")
        .arg(home)
        .args(args)
        .arg("-v")
        .output()
        .expect("run flush");
    assert!(
        out.stderr.is_empty(),
        "flush wrote to stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

/// Headers every reply carries, checked on one received mail answering `request_id`
/// and sent to exactly the addresses `to`.
fn check_reply_headers(m: &Received, to: &[&str], request_id: &str) {
    let ctx = m.text();
    // Issue 30: a mail to one recipient leaves with its VERP bounce address (the
    // server's address with a `+bounce-<tag>-<recipient>` extension), so that a
    // bounce names the address that failed; a mail to several with the server's own.
    if to.len() == 1 {
        let verp = "yinsh+bounce-";
        assert!(
            m.mail_from.starts_with(verp)
                && m.mail_from
                    .ends_with(&format!("-{}@yinsh.test", to[0].replace('@', "=")))
                && m.mail_from.len() == format!("yinsh+bounce--{}@yinsh.test", to[0]).len() + 16,
            "envelope sender {}: {ctx}",
            m.mail_from
        );
    } else {
        assert_eq!(m.mail_from, SERVER, "envelope sender: {ctx}");
    }
    let mut rcpt = m.rcpt_tos.clone();
    rcpt.sort();
    let mut want: Vec<String> = to.iter().map(|a| a.to_string()).collect();
    want.sort();
    assert_eq!(rcpt, want, "envelope recipients: {ctx}");
    let from = m.header("From").expect("From");
    assert!(from.contains(&format!("<{SERVER}>")), "From: {from}");
    let to_header = m.header("To").expect("To");
    for a in to {
        assert!(to_header.contains(a), "To: {to_header} (want {a})");
    }
    let id = m.header("Message-ID").expect("Message-ID");
    assert!(
        id.starts_with('<') && id.ends_with('>') && id.contains('@'),
        "Message-ID: {id}"
    );
    assert_eq!(
        m.header("In-Reply-To").as_deref(),
        Some(request_id),
        "In-Reply-To: {ctx}"
    );
    let refs = m.header("References").expect("References");
    assert!(refs.contains(request_id), "References: {refs}");
    assert_eq!(
        m.header("Auto-Submitted").as_deref(),
        Some("auto-replied"),
        "{ctx}"
    );
    assert_eq!(m.header("X-Loop").as_deref(), Some(SERVER), "{ctx}");
    let date = m.header("Date").expect("Date");
    assert!(
        mail_parser::MessageParser::default()
            .parse(&m.raw)
            .and_then(|p| p.date().cloned())
            .is_some(),
        "Date is not an RFC 5322 date: {date}"
    );
}

/// The Message-ID a test mail carries.
fn request_id(mail: &str) -> String {
    mail.lines()
        .find_map(|l| l.strip_prefix("Message-ID: "))
        .expect("test mail has a Message-ID")
        .to_string()
}

/// Send a mail through the real `deliver`, expecting exit 0; returns its Message-ID.
fn send(s: &mut TestServer, from: &str, subject: &str) -> String {
    let mail = s.mail(from, subject, "");
    let id = request_id(&mail);
    assert_eq!(s.deliver_raw(mail.as_bytes()), 0, "deliver of {subject}");
    id
}

#[test]
fn replies_go_out_by_smtp_and_wait_in_the_spool_while_the_server_is_down() {
    if !aiosmtpd_available() {
        if std::env::var_os("CI").is_some() {
            panic!("CI is set but python3 with aiosmtpd is not available: pip install aiosmtpd");
        }
        eprintln!(
            "SKIPPED smtp_e2e: python3 with aiosmtpd is not available (pip install aiosmtpd)"
        );
        return;
    }
    let mut s = TestServer::with_binary();
    let mail_dir = s.dir.path().join("smtp-received");
    let sink = Sink::start(&mail_dir, 0);
    let url = sink.url();
    let server_args = vec![
        "--smtp".to_string(),
        url.clone(),
        "--from".to_string(),
        format!("YINSH PBeM <{SERVER}>"),
    ];
    s.args = server_args.clone();
    let alice_from = "Alice <alice@example.org>";
    // Bob writes from one address and registers another: replies go to the registered one.
    let bob_from = "Bob <bob@example.org>";
    let bob_to = "bob@example.net";

    let id = send(&mut s, alice_from, "signup alice apw");
    let got = wait_for(&mail_dir, 1, 0);
    check_reply_headers(&got[0], &["alice@example.org"], &id);
    assert_eq!(got[0].subject(), "Signup for alice");
    assert!(!got[0].text().contains("apw"), "password mailed");

    // The signup confirmation also goes to the address it came from.
    let id = send(&mut s, bob_from, &format!("signup bob bpw {bob_to}"));
    let got = wait_for(&mail_dir, 2, 1);
    check_reply_headers(&got[0], &[bob_to, "bob@example.org"], &id);

    let id = send(&mut s, alice_from, "yinsh challenge alice bob");
    let mut got = wait_for(&mail_dir, 4, 2);
    got.sort_by(|a, b| a.rcpt_tos.cmp(&b.rcpt_tos));
    check_reply_headers(&got[0], &["alice@example.org"], &id);
    check_reply_headers(&got[1], &[bob_to], &id);
    for m in &got {
        assert_eq!(m.subject(), "New Yinsh Board 101 alice");
    }

    // A move: both players get the board, drawn byte for byte as the renderer draws it.
    let id = send(&mut s, alice_from, "yinsh move 101 alice apw e5#1");
    let mut got = wait_for(&mail_dir, 6, 4);
    got.sort_by(|a, b| a.rcpt_tos.cmp(&b.rcpt_tos));
    check_reply_headers(&got[0], &["alice@example.org"], &id);
    check_reply_headers(&got[1], &[bob_to], &id);
    let mut game = Game::new(Variant::Normal);
    game.play("e5".parse::<Action>().expect("e5"))
        .expect("e5 is legal");
    let names = SideNames {
        white: "alice",
        black: "bob",
    };
    let board_crlf = render(&game, &names).replace('\n', "\r\n");
    for m in &got {
        assert!(
            m.subject().starts_with("Yinsh Board 101"),
            "{}",
            m.subject()
        );
        assert!(
            m.text().contains(&board_crlf),
            "the board is not in the mail byte for byte:\n{}\nwant:\n{board_crlf}",
            m.text()
        );
    }
    let online = received(&mail_dir).len();
    assert!(spooled(&s.home()).is_empty(), "sent mail left in the spool");

    // The SMTP server goes down: bob's move is still applied, answered into the spool.
    drop(sink);
    let id = send(&mut s, bob_from, "yinsh move 101 bob bpw f6#2");
    assert_eq!(
        s.game_file(101)["turns"][1]["text"],
        "f6",
        "the move was not applied while SMTP was down"
    );
    let waiting = spooled(&s.home());
    assert_eq!(waiting.len(), 2, "replies not spooled: {waiting:?}");
    assert_eq!(received(&mail_dir).len(), online);
    let (code, out) = flush(&s.home(), &server_args);
    assert_eq!(code, 0, "flush with the server down: {out}");
    assert_eq!(spooled(&s.home()).len(), 2, "flush lost mail: {out}");

    // Back on the same port: one flush sends each spooled reply once, a second nothing.
    let sink = Sink::start(&mail_dir, url_port(&url));
    assert_eq!(sink.url(), url);
    let (code, out) = flush(&s.home(), &server_args);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("2 sent"), "{out}");
    let mut got = wait_for(&mail_dir, online + 2, online);
    got.sort_by(|a, b| a.rcpt_tos.cmp(&b.rcpt_tos));
    check_reply_headers(&got[0], &["alice@example.org"], &id);
    check_reply_headers(&got[1], &[bob_to], &id);
    assert!(
        spooled(&s.home()).is_empty(),
        "flushed mail left in the spool"
    );
    let (code, out) = flush(&s.home(), &server_args);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 sent"), "{out}");
    std::thread::sleep(Duration::from_millis(300));
    let all = received(&mail_dir);
    assert_eq!(all.len(), online + 2, "a second flush sent mail again");
    let mut by_id: BTreeMap<String, usize> = BTreeMap::new();
    for m in &all {
        *by_id
            .entry(m.header("Message-ID").expect("Message-ID"))
            .or_default() += 1;
    }
    assert!(
        by_id.values().all(|&n| n == 1),
        "a Message-ID arrived twice: {by_id:?}"
    );
    assert_eq!(by_id.len(), 8);
    assert!(s.log().contains("f6"), "{}", s.log());
    drop(sink);
}

fn url_port(url: &str) -> u16 {
    url.rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("port in url")
}
