//! Sending replies on a hostile or broken network (issue 13 §2): a reply the relay
//! refuses for good leaves the spool for `spool/failed/` with a log line and a bounce
//! to the operator; a temporary failure waits, longer after each failure, and is
//! given up after days; `deliver` sends only its own replies, never the stuck rest of
//! the spool; a hung sendmail is killed after the time limit; a `deliver` waiting
//! for the store's lock gives up with exit 75 instead of piling up.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use yinsh_pbem::mail::outbound::{BuiltMail, MailSettings, OutgoingMail, build};
use yinsh_pbem::mail::spool::Spool;
use yinsh_pbem::mail::transport::{FlushOptions, GIVE_UP_AFTER, RETRY_FIRST, Transport, flush};
use yinsh_pbem::server::store::Store;

use crate::mail_io::{flush_retrying, script};
use crate::support::bin::{command, spawn_deliver};
use crate::support::server::{Runs, TestServer};

/// A fixed clock for the flushes.
const T0: u64 = 1_795_384_020;

/// An SMTP relay on 127.0.0.1 for any number of connections: RCPT TO an address
/// containing `refuse` gets `550`, one containing `later` gets `450`, others `250`.
/// Every envelope line (MAIL, RCPT) it receives is recorded.
struct Relay {
    port: u16,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Relay {
    fn start() -> Relay {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let seen = Arc::clone(&lines);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let seen = Arc::clone(&seen);
                std::thread::spawn(move || serve(stream, &seen));
            }
        });
        Relay { port, lines }
    }

    fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    fn rcpts(&self) -> Vec<String> {
        self.lines
            .lock()
            .expect("lines")
            .iter()
            .filter(|l| l.starts_with("RCPT"))
            .cloned()
            .collect()
    }
}

fn serve(stream: TcpStream, seen: &Mutex<Vec<String>>) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(60)));
    let Ok(mut out) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    let _ = out.write_all(b"220 relay ESMTP\r\n");
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        let cmd = line.trim_end().to_string();
        let upper = cmd.to_ascii_uppercase();
        let answer: &[u8] = if upper.starts_with("MAIL") {
            seen.lock().expect("lines").push(cmd);
            b"250 ok\r\n"
        } else if upper.starts_with("RCPT") {
            seen.lock().expect("lines").push(cmd.clone());
            if cmd.contains("refuse") {
                b"550 5.1.1 no such user\r\n"
            } else if cmd.contains("later") {
                b"450 4.2.1 try again later\r\n"
            } else {
                b"250 ok\r\n"
            }
        } else if upper == "DATA" {
            let _ = out.write_all(b"354 go on\r\n");
            let mut raw = Vec::new();
            loop {
                raw.clear();
                if reader.read_until(b'\n', &mut raw).unwrap_or(0) == 0 || raw == b".\r\n" {
                    break;
                }
            }
            b"250 queued\r\n"
        } else if upper == "QUIT" {
            let _ = out.write_all(b"221 bye\r\n");
            return;
        } else if upper.starts_with("RSET") || upper.starts_with("NOOP") {
            b"250 ok\r\n"
        } else {
            b"250 relay\r\n"
        };
        if out.write_all(answer).is_err() {
            return;
        }
    }
}

pub(crate) fn built(id: &str, to: &str) -> BuiltMail {
    let settings = MailSettings {
        from: "YINSH PBeM <yinsh@localhost>".into(),
        loop_id: "yinsh@localhost".into(),
    };
    let out = OutgoingMail {
        to: vec![to.to_string()],
        subject: "Yinsh Board 101".into(),
        body: "a board\n".into(),
        in_reply_to: None,
        references: Vec::new(),
        html: None,
    };
    build(
        &out,
        &settings,
        std::time::UNIX_EPOCH + Duration::from_secs(T0),
        id,
    )
    .expect("build")
}

fn msg_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|x| x == "msg"));
    v.sort();
    v
}

/// A home whose replies go to `relay`, with an operator.
fn server(relay: &Relay) -> TestServer {
    let mut s = TestServer::new();
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        "operator = \"ops@example.org\"\n[limits]\nsend_timeout_seconds = 5\n",
    )
    .expect("config");
    s.runs = Runs::Binary;
    s.args = vec!["--smtp".into(), relay.url()];
    s
}

#[test]
fn a_reply_refused_for_good_leaves_the_spool_with_a_log_line_and_a_bounce_to_the_operator() {
    let relay = Relay::start();
    let mut s = server(&relay);
    let raw = s.mail("refuse@example.org", "help", "");
    assert_eq!(s.deliver_raw(raw.as_bytes()), 0);
    let spool = s.home().join("spool");
    assert_eq!(msg_files(&spool), Vec::<PathBuf>::new(), "still spooled");
    let dead = msg_files(&spool.join("failed"));
    assert_eq!(dead.len(), 1, "{dead:?}");
    let text = std::fs::read_to_string(&dead[0]).expect("dead letter");
    assert!(
        text.contains("550") && text.contains("refuse@example.org"),
        "{text}"
    );
    let log = s.log();
    assert!(
        log.contains("reply given up") && log.contains("refuse@example.org"),
        "{log}"
    );
    let rcpts = relay.rcpts();
    assert!(
        rcpts.iter().any(|r| r.contains("<ops@example.org>")),
        "no bounce to the operator: {rcpts:?}"
    );
    // The next mail does not try it again.
    let before = relay.rcpts().len();
    let raw = s.mail("carol@example.org", "help", "");
    assert_eq!(s.deliver_raw(raw.as_bytes()), 0);
    let after = relay.rcpts();
    assert_eq!(after.len(), before + 1, "{after:?}");
    assert!(after[before].contains("carol@example.org"));
}

#[test]
fn deliver_sends_only_its_own_replies_and_leaves_the_stuck_spool_to_flush() {
    let relay = Relay::start();
    let mut s = server(&relay);
    let store = Store::open(&s.home()).expect("store");
    let spool = Spool::open(&store.spool_dir()).expect("spool");
    for k in 0..5 {
        spool
            .put(&built(&format!("stuck-{k}@localhost"), "later@example.org"))
            .expect("put");
    }
    let raw = s.mail("carol@example.org", "help", "");
    assert_eq!(s.deliver_raw(raw.as_bytes()), 0);
    let rcpts = relay.rcpts();
    assert_eq!(
        rcpts,
        ["RCPT TO:<carol@example.org>"],
        "deliver tried other mails of the spool"
    );
    assert_eq!(msg_files(spool.dir()).len(), 5);
    // `flush` is the one that tries them.
    let out = command()
        .args(["flush", "-v", "--home"])
        .arg(s.home())
        .args(&s.args)
        .env("YINSH_PBEM_NOW", T0.to_string())
        .env_remove("YINSH_PBEM_HOME")
        .env_remove("YINSH_PBEM_CONFIG")
        .output()
        .expect("flush");
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(relay.rcpts().len(), 1 + 5, "{:?}", relay.rcpts());
}

#[test]
fn a_temporary_failure_waits_longer_each_time_and_is_given_up_after_days() {
    let relay = Relay::start();
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(&tmp.path().join("spool")).expect("spool");
    spool
        .put(&built("t-1@localhost", "later@example.org"))
        .expect("put");
    // Its age is counted from when it was spooled (the real clock), so the tries'
    // times are counted from there too.
    let t0 = spool.entries().expect("entries")[0].queued_ns / 1_000_000_000;
    let smtp = Transport::Smtp(relay.url().into());
    let tries = |at: u64| {
        let r = flush(&spool, &smtp, &FlushOptions::at(at)).expect("flush");
        (r, relay.rcpts().len())
    };
    let (r, n) = tries(t0);
    assert_eq!((r.sent, r.failed.len(), n), (0, 1, 1), "{r:?}");
    assert!(r.failed[0].1.contains("450"), "{r:?}");
    let first = RETRY_FIRST.as_secs();
    // Not tried again before its wait is over.
    let (r, n) = tries(t0 + first - 1);
    assert_eq!((r.waiting, n), (1, 1), "{r:?}");
    let (r, n) = tries(t0 + first);
    assert_eq!((r.failed.len(), n), (1, 2), "{r:?}");
    // The second wait is twice the first.
    let (r, n) = tries(t0 + first + 2 * first - 1);
    assert_eq!((r.waiting, n), (1, 2), "{r:?}");
    let entry = &spool.entries().expect("entries")[0];
    assert_eq!(
        (entry.tries, entry.next_try),
        (2, t0 + 3 * first),
        "{entry:?}"
    );
    // Days later it still fails: given up.
    let (r, _) = tries(t0 + 2 * GIVE_UP_AFTER.as_secs());
    assert_eq!(r.dead.len(), 1, "{r:?}");
    assert!(spool.entries().expect("entries").is_empty());
    assert_eq!(msg_files(&spool.failed_dir()).len(), 1);
}

/// Flushes through the sendmail script `prog`.
fn flush_sendmail(
    spool: &Spool,
    prog: &Path,
    opts: &FlushOptions<'_>,
) -> yinsh_pbem::mail::FlushReport {
    flush_retrying(spool, &Transport::Sendmail(prog.to_path_buf()), opts)
}

#[test]
fn a_hung_sendmail_is_killed_after_the_time_limit_and_a_refusing_one_is_given_up() {
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(&tmp.path().join("spool")).expect("spool");
    spool
        .put(&built("h-1@localhost", "alice@example.org"))
        .expect("put");
    spool
        .put(&built("h-2@localhost", "bob@example.org"))
        .expect("put");
    let prog = tmp.path().join("sendmail");
    script(&prog, "sleep 60");
    let opts = FlushOptions {
        timeout: Duration::from_secs(1),
        ..FlushOptions::at(T0)
    };
    // Killed at its limit (a sendmail that had run its 60 s would have exited 0 and
    // counted as sent), and the second not tried after it.
    let r = flush_sendmail(&spool, &prog, &opts);
    assert_eq!(r.failed.len(), 2, "{r:?}");
    assert!(r.failed[0].1.contains("killed"), "{r:?}");
    assert!(r.failed[1].1.starts_with("not tried"), "{r:?}");
    assert_eq!(spool.entries().expect("entries").len(), 2);
    // EX_NOUSER (67): refused for good.
    script(&prog, "cat >/dev/null\necho 'no such user' >&2\nexit 67");
    let r = flush_sendmail(&spool, &prog, &FlushOptions::at(T0 + 3600));
    assert_eq!(r.dead.len(), 2, "{r:?}");
    assert!(r.dead[0].why.contains("no such user"), "{r:?}");
    assert!(spool.entries().expect("entries").is_empty());
}

#[test]
fn a_deliver_waiting_for_the_store_gives_up_with_exit_75() {
    let mut s = TestServer::new();
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        "[limits]\nlock_wait_seconds = 1\n",
    )
    .expect("config");
    let store = Store::open(&s.home()).expect("store");
    let lock = store.lock().expect("lock");
    let raw = s.mail("carol@example.org", "help", "");
    let (mut child, written) = spawn_deliver(&s.home(), s.now, &[], raw.as_bytes());
    written.expect("write mail");
    let started = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status.code();
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    drop(lock);
    assert_eq!(code, Some(75), "deliver did not give up");
    assert!(s.log().contains("stayed locked for 1 s"), "{}", s.log());
    // Once the lock is free the same mail goes through.
    assert_eq!(s.send_raw(raw.as_bytes()).len(), 1);
}
