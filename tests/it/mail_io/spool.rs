//! The outgoing spool and its flush: puts are idempotent and entries come oldest
//! first, each mail goes to the outbox once, a damaged entry is kept while the others
//! go, a failing sendmail or unreachable SMTP server keeps the mail for a later flush,
//! SMTP delivers the exact bytes, and spool paths stay inside the folder.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;

use yinsh_pbem::mail::outbound::{BuiltMail, build, new_message_id};
use yinsh_pbem::mail::spool::SpoolError;
use yinsh_pbem::mail::transport::RETRY_FIRST;

use super::*;

fn built(id: &str) -> BuiltMail {
    build(&reply(BOARD), &settings(), june_3(), id).expect("build")
}

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.retain(|n| !n.starts_with('.'));
    names.sort();
    names
}

#[test]
fn spool_put_is_idempotent_and_entries_come_oldest_first() {
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(&tmp.path().join("spool")).expect("open");
    let first = spool.put(&built("z-first@localhost")).expect("put");
    // A second put of the same id, other bytes: the first entry is kept as it was.
    let mut other = built("z-first@localhost");
    other.bytes = b"other bytes\r\n".to_vec();
    let again = spool.put(&other).expect("put again");
    assert_eq!(first, again);
    spool.put(&built("a-second@localhost")).expect("put");
    spool.put(&built("m/third@localhost")).expect("put");
    let entries = spool.entries().expect("entries");
    let ids: Vec<&str> = entries.iter().map(|e| e.mail.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "z-first@localhost",
            "a-second@localhost",
            "m/third@localhost"
        ]
    );
    assert_eq!(entries[0].mail, built("z-first@localhost"));
    assert_eq!(
        names(spool.dir()),
        [
            "a-second@localhost.msg",
            "m%2Fthird@localhost.msg",
            "z-first@localhost.msg"
        ]
    );
    let raw = fs::read(&entries[0].path).expect("entry file");
    let first_line = raw.split(|&b| b == b'\n').next().unwrap_or_default();
    let header: serde_json::Value = serde_json::from_slice(first_line).expect("JSON header");
    assert_eq!(header["from"], "yinsh@localhost");
    assert_eq!(header["to"][1], "bob@example.net");
}

#[test]
fn flush_to_outbox_moves_each_mail_once() {
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(&tmp.path().join("spool")).expect("open");
    let outbox = tmp.path().join("outbox");
    let mail = built("o-1@localhost");
    spool.put(&mail).expect("put");
    spool.put(&built("o-2@localhost")).expect("put");
    let entry_bytes = fs::read(spool.dir().join("o-1@localhost.msg")).expect("entry");

    let report = flush(&spool, &Transport::Outbox(outbox.clone()), &now()).expect("flush");
    assert_eq!((report.sent, report.failed.len()), (2, 0), "{report:?}");
    assert!(spool.entries().expect("entries").is_empty());
    assert_eq!(names(&outbox), ["o-1@localhost.eml", "o-2@localhost.eml"]);
    assert_eq!(
        fs::read(outbox.join("o-1@localhost.eml")).expect("eml"),
        mail.bytes
    );

    // A crash between send and removal leaves the entry: the next flush rewrites the
    // same outbox file instead of adding a copy.
    fs::write(spool.dir().join("o-1@localhost.msg"), entry_bytes).expect("restore entry");
    let report = flush(&spool, &Transport::Outbox(outbox.clone()), &now()).expect("flush again");
    assert_eq!(report.sent, 1);
    assert_eq!(names(&outbox), ["o-1@localhost.eml", "o-2@localhost.eml"]);
    assert_eq!(
        flush(&spool, &Transport::Outbox(outbox), &now())
            .expect("empty flush")
            .sent,
        0
    );
}

#[test]
fn a_damaged_entry_is_reported_and_kept_while_the_others_go() {
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(&tmp.path().join("spool")).expect("open");
    fs::write(spool.dir().join("junk.msg"), b"not a spool entry").expect("junk");
    spool.put(&built("ok@localhost")).expect("put");
    assert!(matches!(spool.entries(), Err(SpoolError::BadEntry { .. })));
    let report = flush(&spool, &Transport::Outbox(tmp.path().join("out")), &now()).expect("flush");
    assert_eq!(report.sent, 1);
    assert_eq!(report.failed.len(), 1);
    assert_eq!(report.failed[0].0, "junk.msg");
    assert!(
        report.failed[0].1.contains("damaged"),
        "{:?}",
        report.failed
    );
    assert_eq!(names(spool.dir()), ["junk.msg"]);
}

/// A fixed time for the flushes that test waits after failures.
const T0: u64 = 1_795_384_020;

/// Flush options at the real time now.
fn now() -> FlushOptions<'static> {
    FlushOptions::at(
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    )
}

#[cfg(unix)]
#[test]
fn a_failing_sendmail_keeps_the_mail_until_a_later_flush_sends_it_once() {
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(&tmp.path().join("spool")).expect("open");
    let mail = built("s-1@localhost");
    spool.put(&mail).expect("put");
    let prog = tmp.path().join("sendmail");
    script(&prog, "cat >/dev/null\necho 'mail system down' >&2\nexit 1");
    let transport = Transport::Sendmail(prog.clone());

    let report = flush_retrying(&spool, &transport, &FlushOptions::at(T0));
    assert_eq!(report.sent, 0);
    assert_eq!(report.failed.len(), 1, "{report:?}");
    assert_eq!(report.failed[0].0, "s-1@localhost");
    assert!(
        report.failed[0].1.contains("mail system down"),
        "{:?}",
        report.failed
    );
    assert_eq!(spool.entries().expect("entries").len(), 1);

    let log = tmp.path().join("log");
    script(
        &prog,
        &format!(
            "echo \"ARGS $*\" >>'{0}'\ncat >>'{0}'\necho END >>'{0}'",
            log.display()
        ),
    );
    // A later flush, once the mail's wait after its failure is over.
    let later = T0 + RETRY_FIRST.as_secs();
    let report = flush_retrying(&spool, &transport, &FlushOptions::at(later));
    assert_eq!((report.sent, report.failed.len()), (1, 0), "{report:?}");
    assert!(spool.entries().expect("entries").is_empty());
    assert_eq!(
        flush_retrying(&spool, &transport, &FlushOptions::at(later)).sent,
        0
    );

    let logged = fs::read_to_string(&log).expect("log");
    assert_eq!(logged.matches("ARGS ").count(), 1, "{logged}");
    assert!(
        logged.starts_with("ARGS -i -f yinsh@localhost -- alice@example.org bob@example.net\n"),
        "{logged}"
    );
    let lf = String::from_utf8(mail.bytes.clone())
        .expect("ascii")
        .replace("\r\n", "\n");
    assert!(logged.contains(&lf) && !logged.contains('\r'), "{logged}");
    let parsed = parse_inbound(lf.as_bytes()).expect("parse");
    assert_eq!(parsed.body, BOARD);
}

#[test]
fn a_bad_smtp_url_is_refused_without_showing_the_password() {
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(tmp.path()).expect("open");
    let err = flush(
        &spool,
        &Transport::Smtp("smtpx://al:s3cret@mail.example.org".into()),
        &now(),
    )
    .expect_err("bad scheme");
    let text = err.to_string();
    assert!(matches!(err, SpoolError::Transport { .. }), "{text}");
    assert!(
        text.contains("al:***@mail.example.org") && !text.contains("s3cret"),
        "{text}"
    );
}

#[test]
fn an_unreachable_smtp_server_keeps_every_mail_and_tries_only_once() {
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(tmp.path()).expect("open");
    spool.put(&built("u-1@localhost")).expect("put");
    spool.put(&built("u-2@localhost")).expect("put");
    let port = {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.local_addr().expect("addr").port()
    }; // closed again: connections are refused
    let report = flush(
        &spool,
        &Transport::Smtp(format!("smtp://127.0.0.1:{port}").into()),
        &now(),
    )
    .expect("flush");
    assert_eq!(report.sent, 0);
    let ids: Vec<&str> = report.failed.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["u-1@localhost", "u-2@localhost"]);
    assert!(
        report.failed[1].1.starts_with("not tried"),
        "{:?}",
        report.failed
    );
    assert_eq!(spool.entries().expect("entries").len(), 2);
}

/// A one-connection SMTP server on 127.0.0.1: accepts one mail, returns the
/// envelope lines and the DATA (dot-unstuffed, CRLF kept).
fn tiny_smtp_server(listener: TcpListener) -> std::thread::JoinHandle<(Vec<String>, Vec<u8>)> {
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().expect("accept");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        let mut out: TcpStream = stream.try_clone().expect("clone");
        let mut reader = BufReader::new(stream);
        let mut envelope = Vec::new();
        let mut data = Vec::new();
        out.write_all(b"220 tiny ESMTP\r\n").expect("greet");
        let mut line = String::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                break;
            }
            let cmd = line.trim_end().to_ascii_uppercase();
            let answer: &[u8] = if cmd.starts_with("EHLO") || cmd.starts_with("HELO") {
                b"250 tiny\r\n"
            } else if cmd.starts_with("MAIL") || cmd.starts_with("RCPT") {
                envelope.push(line.trim_end().to_string());
                b"250 ok\r\n"
            } else if cmd == "DATA" {
                out.write_all(b"354 go on\r\n").expect("354");
                loop {
                    let mut raw = Vec::new();
                    reader.read_until(b'\n', &mut raw).expect("data line");
                    if raw == b".\r\n" || raw.is_empty() {
                        break;
                    }
                    let unstuffed = if raw.starts_with(b"..") {
                        &raw[1..]
                    } else {
                        &raw[..]
                    };
                    data.extend_from_slice(unstuffed);
                }
                b"250 queued\r\n"
            } else if cmd == "QUIT" {
                let _ = out.write_all(b"221 bye\r\n");
                break;
            } else {
                b"250 ok\r\n"
            };
            out.write_all(answer).expect("answer");
        }
        (envelope, data)
    })
}

#[test]
fn flush_over_smtp_delivers_the_exact_bytes() {
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(tmp.path()).expect("open");
    let mut mail = reply(&format!("{BOARD}.\n..two dots\n"));
    mail.subject = "smtp".into();
    let mail = build(
        &mail,
        &settings(),
        june_3(),
        &new_message_id("localhost", "smtp"),
    )
    .expect("build");
    spool.put(&mail).expect("put");
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let server = tiny_smtp_server(listener);
    let report = flush(
        &spool,
        &Transport::Smtp(format!("smtp://127.0.0.1:{port}").into()),
        &now(),
    )
    .expect("flush");
    // Unblocks the server's accept should the flush never have connected.
    let _ = TcpStream::connect(("127.0.0.1", port));
    let (envelope, data) = server.join().expect("server thread");
    assert_eq!((report.sent, report.failed.len()), (1, 0), "{report:?}");
    assert_eq!(
        envelope,
        [
            "MAIL FROM:<yinsh@localhost>",
            "RCPT TO:<alice@example.org>",
            "RCPT TO:<bob@example.net>"
        ]
    );
    assert_eq!(
        String::from_utf8_lossy(&data),
        String::from_utf8_lossy(&mail.bytes)
    );
    assert!(spool.entries().expect("entries").is_empty());
}

#[test]
fn spool_paths_stay_inside_the_folder() {
    let tmp = crate::support::tmp::dir();
    let spool = Spool::open(&tmp.path().join("s")).expect("open");
    let mut evil = built("x@localhost");
    evil.id = "../../etc/passwd".into();
    let path: PathBuf = spool.put(&evil).expect("put");
    assert_eq!(path.parent(), Some(spool.dir()));
    assert_eq!(names(spool.dir()), ["%2E.%2F..%2Fetc%2Fpasswd.msg"]);
}
