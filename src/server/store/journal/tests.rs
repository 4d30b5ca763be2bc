//! The journal's tests: its format read back as written (any bytes, any text, any
//! names; the bodies an older writer left), whole journals told from torn ones, the
//! file kept with its blocks, the storm counts written in place, paths that leave the
//! home refused.

use std::path::Path;

use proptest::prelude::*;

use crate::mail::{BuiltMail, Transport};

use super::super::{Store, StoreError};
use super::format::{
    EMPTY, FileOut, Journal, MAGIC, StoredJournal, body_of, fnv1a64, framed, stored_bytes, unhex,
};
use super::recover::Recovered;
use super::write::{KEEP_AT_MOST, folder_mode, written_in_place};

fn hex(bytes: &[u8]) -> String {
    hex::encode(bytes)
}

/// A journal of the mail `key` writing each file (removing it, for `None`) and
/// sending `replies`.
fn journal_of<'a>(
    key: &'a str,
    files: &[(&str, Option<&'a [u8]>)],
    replies: &'a [BuiltMail],
) -> Journal<'a> {
    let files = files
        .iter()
        .map(|&(path, content)| FileOut {
            path: path.to_string(),
            content,
        })
        .collect();
    Journal {
        key,
        files,
        replies,
    }
}

#[test]
fn only_a_whole_journal_has_a_body() {
    let body = br#"{"v":2,"key":"k","files":[],"replies":[]}"#;
    let whole = framed(body);
    assert_eq!(body_of(&whole), Some(&body[..]));
    // Cut short anywhere, one byte changed, or a header not ours: no body.
    for cut in 0..whole.len() {
        assert_eq!(body_of(&whole[..cut]), None, "cut at {cut}");
    }
    let mut flipped = whole.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert_eq!(body_of(&flipped), None);
    // What follows the body is an older, longer journal's end, not read.
    let mut longer = whole.clone();
    longer.extend_from_slice(b"older journal");
    assert_eq!(body_of(&longer), Some(&body[..]));
    let other = [b"journal ".as_slice(), &whole[MAGIC.len() + 1..]].concat();
    assert_eq!(body_of(&other), None);
}

#[test]
fn the_body_written_is_the_json_the_reader_reads_every_string_escaped() {
    let empty = journal_of("k", &[], &[]);
    let mut body = Vec::new();
    empty.write_body(&mut body).expect("write");
    assert_eq!(body, br#"{"v":3,"key":"k","files":[],"replies":[]}"#);
    // Bytes of every value (not UTF-8: in hex), longer than one chunk of the hex
    // writer; and UTF-8 text needing every kind of escape (as it is).
    let content: Vec<u8> = (0..5000u32).map(|k| (k % 256) as u8).collect();
    let record = "{\"n\":\"\u{e9}\\\"\n\r\t\u{1}\"}\n"
        .repeat(300)
        .into_bytes();
    let binary = BuiltMail {
        bytes: (0..=255).collect(),
        id: "a\"b\\c@x".to_string(),
        envelope_from: "s\u{1}@x".to_string(),
        recipients: vec!["\u{e9}@x".to_string(), "q\n@x".to_string()],
    };
    let mail = BuiltMail {
        bytes: b"Subject: a\r\n\r\n\xc3\xa9 \"quoted\" \\ end\r\n".to_vec(),
        id: "m@x".to_string(),
        envelope_from: "f@x".to_string(),
        recipients: vec!["t@x".to_string()],
    };
    let replies = [binary.clone(), mail.clone()];
    let journal = journal_of(
        "k\"ey\u{7f}",
        &[
            ("boards/1\".json", Some(&content)),
            ("gone", None),
            ("boards/2.json", Some(&record)),
        ],
        &replies,
    );
    let mut body = Vec::new();
    journal.write_body(&mut body).expect("write");
    let value: serde_json::Value = serde_json::from_slice(&body).expect("JSON");
    let text = |b: &[u8]| String::from_utf8(b.to_vec()).expect("UTF-8");
    assert_eq!(
        value,
        serde_json::json!({
            "v": 3,
            "key": "k\"ey\u{7f}",
            "files": [
                {"path": "boards/1\".json", "content": hex(&content)},
                {"path": "gone", "content": null},
                {"path": "boards/2.json", "text": text(&record)},
            ],
            "replies": [{
                "id": "a\"b\\c@x",
                "from": "s\u{1}@x",
                "to": ["\u{e9}@x", "q\n@x"],
                "bytes": hex(&binary.bytes),
            }, {
                "id": "m@x",
                "from": "f@x",
                "to": ["t@x"],
                "text": text(&mail.bytes),
            }],
        })
    );
    // Read back, every content is the bytes written.
    let stored: StoredJournal = serde_json::from_slice(&body).expect("read back");
    let path = Path::new("journal");
    let read: Vec<Option<Vec<u8>>> = stored
        .files
        .into_iter()
        .map(|f| stored_bytes(f.content, f.text, path).expect("content"))
        .collect();
    assert_eq!(read, [Some(content), None, Some(record)]);
    let read: Vec<Option<Vec<u8>>> = stored
        .replies
        .into_iter()
        .map(|r| stored_bytes(r.bytes, r.text, path).expect("reply"))
        .collect();
    assert_eq!(read, [Some(binary.bytes), Some(mail.bytes)]);
    // Both at once is a broken journal.
    let both = stored_bytes(Some("00".into()), Some("x".into()), path);
    assert!(both.is_err());
}

/// Contents of either kind: any bytes (mostly not UTF-8), or any text.
fn contents() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        any::<String>().prop_map(String::into_bytes),
    ]
}

proptest! {
    #[test]
    fn whatever_a_journal_holds_is_read_back_as_written(
        files in prop::collection::vec(
            (any::<String>(), prop::option::of(contents())), 0..4),
        replies in prop::collection::vec(
            (any::<String>(), any::<String>(), prop::collection::vec(any::<String>(), 0..3),
             contents()), 0..3),
        key in any::<String>(),
    ) {
        let built: Vec<BuiltMail> = replies
            .iter()
            .map(|(id, from, to, bytes)| BuiltMail {
                bytes: bytes.clone(),
                id: id.clone(),
                envelope_from: from.clone(),
                recipients: to.clone(),
            })
            .collect();
        let named: Vec<(&str, Option<&[u8]>)> =
            files.iter().map(|(p, c)| (p.as_str(), c.as_deref())).collect();
        let journal = journal_of(&key, &named, &built);
        let mut body = Vec::new();
        journal.write_body(&mut body).expect("write");
        let stored: StoredJournal = serde_json::from_slice(&body).expect("JSON");
        let path = Path::new("journal");
        prop_assert_eq!(&stored.key, &key);
        prop_assert_eq!(stored.files.len(), files.len());
        for (f, (p, content)) in stored.files.into_iter().zip(&files) {
            prop_assert_eq!(&f.path, p);
            prop_assert_eq!(&stored_bytes(f.content, f.text, path).expect("file"), content);
        }
        prop_assert_eq!(stored.replies.len(), built.len());
        for (r, m) in stored.replies.into_iter().zip(&built) {
            prop_assert_eq!((&r.id, &r.from, &r.to), (&m.id, &m.envelope_from, &m.recipients));
            let bytes = stored_bytes(r.bytes, r.text, path).expect("reply");
            prop_assert_eq!(bytes.as_ref(), Some(&m.bytes));
        }
    }
}

#[test]
fn a_journal_an_older_version_left_in_hex_is_completed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("home")).expect("open");
    let mail = b"Subject: old\r\n\r\nbody\r\n";
    let body = format!(
        r#"{{"v":2,"key":"k","files":[{{"path":"boards/1.json","content":"{}"}}],"replies":[{{"id":"old@x","from":"f@x","to":["t@x"],"bytes":"{}"}}]}}"#,
        hex(b"{}"),
        hex(mail)
    );
    std::fs::create_dir_all(store.journal_dir()).expect("mkdir");
    std::fs::write(store.journal_path(), framed(body.as_bytes())).expect("write");
    let outbox = store.home().join("outbox");
    let transport = Transport::Outbox(outbox.clone());
    assert_eq!(
        store.recover(&transport).expect("completed"),
        Recovered::Completed
    );
    assert_eq!(
        std::fs::read(store.home().join("boards/1.json")).expect("board"),
        b"{}"
    );
    let sent: Vec<_> = std::fs::read_dir(&outbox).expect("outbox").collect();
    assert_eq!(sent.len(), 1);
    assert!(!store.journal_waits().expect("emptied"));
}

#[cfg(unix)]
#[test]
fn a_storm_count_is_written_in_place_and_any_other_file_anew() {
    use std::os::unix::fs::MetadataExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("home")).expect("open");
    let rate = store.home().join("rate/k.json");
    let board = store.home().join("boards/1.json");
    for path in [&rate, &board] {
        std::fs::create_dir_all(path.parent().expect("folder")).expect("mkdir");
        std::fs::write(path, br#"{"count":10,"longer":true}"#).expect("write");
    }
    let inode = |path: &Path| std::fs::metadata(path).expect("metadata").ino();
    let (rate_inode, board_inode) = (inode(&rate), inode(&board));
    let (count, game) = (br#"{"count":9}"#.to_vec(), b"{}".to_vec());
    let journal = journal_of(
        "k",
        &[
            ("rate/k.json", Some(&count)),
            ("boards/1.json", Some(&game)),
        ],
        &[],
    );
    let outbox = Transport::Outbox(store.home().join("outbox"));
    store.commit(&journal, &outbox).expect("commit");
    assert_eq!(std::fs::read(&rate).expect("rate"), count);
    assert_eq!(std::fs::read(&board).expect("board"), game);
    assert_eq!(inode(&rate), rate_inode, "the count written over in place");
    assert_ne!(inode(&board), board_inode, "the game file replaced whole");
    // Only files inside `rate/` are.
    for (rel, in_place) in [
        ("rate/x.json", true),
        ("rate", false),
        ("rates/x.json", false),
        ("boards/rate", false),
    ] {
        assert_eq!(written_in_place(Path::new(rel)), in_place, "{rel}");
    }
}

#[test]
fn an_emptied_journal_keeps_its_blocks_and_waits_no_more() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("home")).expect("open");
    let outbox = Transport::Outbox(store.home().join("outbox"));
    assert!(!store.journal_waits().expect("none yet"));
    let (long, short) = (vec![7u8; 3000], b"{}".to_vec());
    let commit = |content: &[u8]| {
        let journal = journal_of("k", &[("boards/1.json", Some(content))], &[]);
        store.write_journal(&journal).expect("write");
        assert!(store.journal_waits().expect("waits"));
        let len = std::fs::metadata(store.journal_path())
            .expect("journal")
            .len();
        store.apply_journal(&journal, &outbox).expect("apply");
        len
    };
    let long_len = commit(&long);
    let path = store.journal_path();
    let emptied = std::fs::read(&path).expect("journal");
    assert_eq!(emptied.len() as u64, long_len, "the file keeps its length");
    assert_eq!(emptied[0], EMPTY);
    assert!(!store.journal_waits().expect("emptied"));
    assert_eq!(store.recover(&outbox).expect("nothing"), Recovered::Nothing);
    // A shorter journal written over the longer one is whole, and what the
    // longer left after it is not part of it.
    let journal = journal_of("k", &[("boards/1.json", Some(&short))], &[]);
    store.write_journal(&journal).expect("write");
    assert_eq!(std::fs::metadata(&path).expect("journal").len(), long_len);
    assert_eq!(
        store.recover(&outbox).expect("completed"),
        Recovered::Completed
    );
    assert_eq!(
        std::fs::read(store.home().join("boards/1.json")).expect("board"),
        short
    );
    assert!(!store.journal_waits().expect("emptied"));
    // A journal past the size kept is cut to nothing when emptied.
    commit(&vec![1u8; KEEP_AT_MOST as usize]);
    assert_eq!(std::fs::metadata(&path).expect("journal").len(), 0);
}

#[test]
fn hex_round_trips_and_refuses_what_is_not_hex() {
    let all: Vec<u8> = (0..=255).collect();
    let text = hex(&all);
    assert_eq!(&text[..6], "000102");
    assert_eq!(&text[text.len() - 2..], "ff");
    let path = Path::new("journal");
    assert_eq!(unhex(&text, path).expect("hex"), all);
    assert_eq!(unhex("0A", path).expect("upper case"), vec![10]);
    for bad in ["0", "zz", "0g", "+1", "\u{e9}0"] {
        assert!(unhex(bad, path).is_err(), "{bad:?}");
    }
}

#[test]
fn a_journal_whose_path_leaves_the_home_is_refused_and_writes_nothing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("home")).expect("open");
    let body = br#"{"v":2,"key":"k","files":[{"path":"../evil","content":"6869"}],"replies":[]}"#;
    std::fs::create_dir_all(store.journal_dir()).expect("mkdir");
    std::fs::write(store.journal_path(), framed(body)).expect("write");
    let outbox = Transport::Outbox(store.home().join("outbox"));
    let err = store.recover(&outbox).expect_err("refused");
    assert!(matches!(err, StoreError::StrayFile { .. }), "{err}");
    assert!(!dir.path().join("evil").exists());
    // It stays for the operator: every later run refuses it the same way.
    assert!(store.recover(&outbox).is_err());
}

#[test]
fn fnv1a64_matches_the_published_vectors() {
    assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a64(b"foobar"), 0x8594_4171_f739_67e8);
}

/// A body the hand-written JSON writer of earlier versions wrote (format 3), kept as
/// it wrote it: text with every kind of escape, a removal, bytes that are not UTF-8
/// (hex), a reply as text and one in hex, a key with a quote and a control character.
const OLD_WRITER_BODY: &str = "{\"v\":3,\"key\":\"<k\\\"1@x>\u{7f}\",\"files\":[{\"path\":\"boards/10\
    1.json\",\"text\":\"{\\n  \\\"n\\\": \\\"\u{e9}\\\\\\\"\\\\n\\\\t\\u00\
    01\\\",\\n  \\\"w\\\": [1, 2]\\n}\\n\"},{\"path\":\"gone.json\",\"cont\
    ent\":null},{\"path\":\"pictures/5.png\",\"content\":\"89504e4700ff10\"\
    }],\"replies\":[{\"id\":\"m-1@x\",\"from\":\"yinsh@localhost\",\"to\":\
    [\"bob@example.org\",\"q\\\"@x\"],\"text\":\"Subject: a \\\"b\\\"\\r\\n\
    \\r\\n\u{e9} end\\r\\n\"},{\"id\":\"bin@x\",\"from\":\"f@x\",\"to\":[]\
    ,\"bytes\":\"fffe61\"}]}";

/// The serde writer writes what the hand writer wrote, byte for byte, and a journal
/// the hand writer left is completed.
#[test]
fn a_journal_the_old_hand_writer_wrote_is_written_alike_and_completed() {
    let record = "{\n  \"n\": \"\u{e9}\\\"\\n\\t\u{1}\",\n  \"w\": [1, 2]\n}\n"
        .as_bytes()
        .to_vec();
    let binary = vec![0x89, b'P', b'N', b'G', 0, 0xff, 0x10];
    let replies = [
        BuiltMail {
            bytes: b"Subject: a \"b\"\r\n\r\n\xc3\xa9 end\r\n".to_vec(),
            id: "m-1@x".into(),
            envelope_from: "yinsh@localhost".into(),
            recipients: vec!["bob@example.org".into(), "q\"@x".into()],
        },
        BuiltMail {
            bytes: vec![0xff, 0xfe, b'a'],
            id: "bin@x".into(),
            envelope_from: "f@x".into(),
            recipients: vec![],
        },
    ];
    let journal = journal_of(
        "<k\"1@x>\u{7f}",
        &[
            ("boards/101.json", Some(&record)),
            ("gone.json", None),
            ("pictures/5.png", Some(&binary)),
        ],
        &replies,
    );
    let mut body = Vec::new();
    journal.write_body(&mut body).expect("write");
    assert_eq!(String::from_utf8(body).expect("UTF-8"), OLD_WRITER_BODY);
    // Left on disk by the old writer, it is completed.
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("home")).expect("open");
    std::fs::write(store.home().join("gone.json"), b"{}").expect("write");
    std::fs::create_dir_all(store.journal_dir()).expect("mkdir");
    std::fs::write(store.journal_path(), framed(OLD_WRITER_BODY.as_bytes())).expect("write");
    let outbox = store.home().join("outbox");
    assert_eq!(
        store
            .recover(&Transport::Outbox(outbox.clone()))
            .expect("completed"),
        Recovered::Completed
    );
    let read = |rel: &str| std::fs::read(store.home().join(rel)).expect(rel);
    assert_eq!(read("boards/101.json"), record);
    assert_eq!(read("pictures/5.png"), binary);
    assert!(!store.home().join("gone.json").exists());
    let sent = std::fs::read_dir(&outbox).expect("outbox").count();
    assert_eq!(sent, 2);
    assert!(!store.journal_waits().expect("emptied"));
}

/// The journal makes the folder of private records 0700 (`bounces/`: addresses in
/// clear), any other folder 0755.
#[test]
fn the_folders_of_private_records_are_made_private() {
    assert_eq!(folder_mode(Path::new("bounces/ab.json")), 0o700);
    for rel in [
        "boards/1.json",
        "index/due/1.json",
        "bounces",
        "rate/x.json",
    ] {
        assert_eq!(folder_mode(Path::new(rel)), 0o755, "{rel}");
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("home")).expect("open");
        let record = b"{}".to_vec();
        let journal = journal_of("k", &[("bounces/ab.json", Some(&record))], &[]);
        let outbox = Transport::Outbox(store.home().join("outbox"));
        store.commit(&journal, &outbox).expect("commit");
        let mode = std::fs::metadata(store.home().join("bounces"))
            .expect("folder")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
    }
}
