//! The server's store: accounts and game files round-trip, board numbers are never
//! reused, userids are safe file names, passwords never print; and the helpers the
//! store tests share. Atomic writes and bad files are in `files.rs`, the lock and
//! concurrent writers in `lock.rs`.

use std::collections::HashSet;
use std::fs;

use serde_json::json;
use yinsh_pbem::server::model::{BoardId, EndReason, Variant};
use yinsh_pbem::server::store::{
    Account, CommentRecord, EndRecord, GameFile, InvalidUserId, Password, Store, StoreError,
    TurnRecord, UserId, hash_password, verify_password,
};

mod files; // atomic writes, corrupt and stray files
mod lock; // the store lock and concurrent board allocation

fn store() -> (tempfile::TempDir, Store) {
    let dir = crate::support::tmp::dir();
    let store = Store::open(&dir.path().join("games")).expect("open");
    (dir, store)
}

fn uid(s: &str) -> UserId {
    s.parse().expect("valid userid")
}

fn account(userid: &str, games: Vec<u32>) -> Account {
    Account {
        userid: uid(userid),
        password_hash: "$argon2id$v=19$m=7168,t=5,p=1$c2FsdHNhbHRzYWx0$aGFzaA".to_string(),
        // No address for the invalid userids of the tests that refuse them.
        addresses: format!("{}@example.org", userid.to_lowercase())
            .parse()
            .into_iter()
            .collect(),
        created: 1_700_000_000,
        games: games.into_iter().map(BoardId::from).collect(),
        unconfirmed: Vec::new(),
        text_only: false,
        old_password_told: None,
        prefs: Default::default(),
    }
}

fn sample_game(board: u32) -> GameFile {
    let mut game = GameFile::new(
        board,
        Variant::Blitz,
        uid("Alice"),
        uid("bob"),
        1_700_000_000,
    );
    game.updated = 1_700_000_500;
    game.turns = vec![
        TurnRecord {
            text: "e5".to_string(),
            by: uid("Alice"),
            at: 1_700_000_100,
            auto: false,
        },
        TurnRecord {
            text: "pass".to_string(),
            by: uid("bob"),
            at: 1_700_000_200,
            auto: true,
        },
    ];
    game.ended = Some(EndRecord {
        reason: EndReason::Resigned,
        by: uid("bob"),
        at: 1_700_000_500,
    });
    game.comments = vec![CommentRecord {
        turn: 1,
        by: uid("Alice"),
        at: 1_700_000_100,
        text: "Good luck! \"quoted\" ünïcode".to_string(),
    }];
    game.extra.other.insert(
        "clock".to_string(),
        json!({"white": 3600, "black": [1, 2.5, null]}),
    );
    game
}

#[test]
fn open_creates_the_home_and_its_folders() {
    let (_dir, store) = store();
    for sub in ["accounts", "boards", "spool", "outbox", "log"] {
        assert!(store.home().join(sub).is_dir(), "{sub} missing");
    }
    // Opening again is harmless and keeps what is there.
    store.put_game(&sample_game(101)).expect("put");
    let again = Store::open(store.home()).expect("reopen");
    assert_eq!(again.games().expect("games"), vec![101]);
}

#[test]
fn accounts_round_trip_by_case_insensitive_key() {
    let (_dir, store) = store();
    let alice = account("Alice", vec![101, 104]);
    store.put_account(&alice).expect("put");
    assert_eq!(
        store.account(&uid("alice")).expect("get"),
        Some(alice.clone())
    );
    assert_eq!(
        store.account(&uid("ALICE")).expect("get"),
        Some(alice.clone())
    );
    assert_eq!(store.account(&uid("bob")).expect("get"), None);

    // One file per account, named by the lower-case key, pretty JSON ending in a newline.
    let path = store.home().join("accounts/alice.json");
    assert_eq!(store.account_path(&uid("Alice")), path);
    let text = fs::read_to_string(&path).expect("file");
    assert!(text.ends_with("}\n"), "{text}");
    assert!(text.contains("\n  \"userid\": \"Alice\",\n"), "{text}");

    // A missing `games` field reads as no games.
    fs::write(
        store.home().join("accounts/old.json"),
        r#"{"userid":"Old","password_hash":"x","addresses":[],"created":5}"#,
    )
    .expect("write");
    let old = store.account(&uid("old")).expect("get").expect("present");
    assert_eq!(old.games, Vec::<u32>::new());
}

#[test]
fn accounts_are_listed_sorted_by_key_and_deleted() {
    let (_dir, store) = store();
    for name in ["carol_2", "Bob", "alice", "Al.x-1"] {
        store.put_account(&account(name, vec![])).expect("put");
    }
    // Replacing an account with a differently-cased userid keeps one file.
    store.put_account(&account("BOB", vec![7])).expect("put");
    let listed: Vec<String> = store
        .accounts()
        .expect("list")
        .into_iter()
        .map(|a| a.userid.to_string())
        .collect();
    assert_eq!(listed, ["Al.x-1", "alice", "BOB", "carol_2"]);

    store.delete_account(&uid("bob")).expect("delete");
    assert_eq!(store.account(&uid("Bob")).expect("get"), None);
    store
        .delete_account(&uid("bob"))
        .expect("deleting again is fine");
    assert_eq!(store.accounts().expect("list").len(), 3);
}

#[test]
fn put_account_refuses_an_invalid_userid_instead_of_writing_a_path() {
    let (_dir, store) = store();
    // An Account holds a UserId, so an invalid one cannot reach put_account: it is
    // refused where it is parsed, and an account file carrying one is corrupt.
    let mut value = serde_json::to_value(account("alice", vec![])).expect("value");
    for bad in ["../evil", "a/b", ".hidden", ""] {
        assert!(bad.parse::<UserId>().is_err(), "{bad:?}");
        value["userid"] = json!(bad);
        fs::write(store.home().join("accounts/alice.json"), value.to_string()).expect("write");
        let err = store.account(&uid("alice")).expect_err(bad);
        assert!(matches!(err, StoreError::Corrupt { .. }), "{err}");
        assert!(err.to_string().contains("accounts/alice.json"), "{err}");
        fs::remove_file(store.home().join("accounts/alice.json")).expect("rm");
    }
    assert_eq!(
        fs::read_dir(store.home().join("accounts"))
            .expect("ls")
            .count(),
        0
    );
    assert!(!store.home().join("evil.json").exists());
}

#[test]
fn games_round_trip_with_extra_preserved() {
    let (_dir, store) = store();
    let game = sample_game(123);
    store.put_game(&game).expect("put");
    assert_eq!(store.game(123).expect("get"), Some(game.clone()));
    assert_eq!(store.game(124).expect("get"), None);

    // A file written by hand (or by a later version) keeps its `extra` on rewrite.
    let path = store.game_path(130);
    assert_eq!(path, store.home().join("boards/130.json"));
    fs::write(
        &path,
        r#"{"board":130,"variant":"normal","white":"a","black":"b","created":1,"updated":2,
            "turns":[{"text":"e5","by":"a","at":2}],
            "extra":{"future":{"nested":[1,"two",true]},"n":1.5}}"#,
    )
    .expect("write");
    let mut read = store.game(130).expect("get").expect("present");
    assert!(read.ended.is_none() && read.comments.is_empty());
    assert!(!read.turns[0].auto);
    read.updated = 3;
    store.put_game(&read).expect("put");
    let raw: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&path).expect("read")).expect("json");
    assert_eq!(
        raw["extra"],
        json!({"future": {"nested": [1, "two", true]}, "n": 1.5})
    );
    assert_eq!(raw["updated"], json!(3));
    assert_eq!(store.game(130).expect("get"), Some(read));

    assert_eq!(store.games().expect("games"), vec![123, 130]);
}

#[test]
fn board_numbers_start_at_101_increase_and_are_never_reused() {
    let (_dir, store) = store();
    let first: Vec<u32> = (0..3)
        .map(|_| store.allocate_board().expect("alloc").get())
        .collect();
    assert_eq!(first, [101, 102, 103]);
    for &b in &first {
        store.put_game(&sample_game(b)).expect("put");
    }
    fs::remove_file(store.game_path(103)).expect("rm");
    fs::remove_file(store.game_path(102)).expect("rm");
    // A fresh Store on the same home continues the sequence.
    let again = Store::open(store.home()).expect("reopen");
    assert_eq!(again.allocate_board().expect("alloc"), 104);
    assert_eq!(
        fs::read_to_string(store.home().join("next-board")).expect("counter"),
        "105\n"
    );
    // Holding the lock already is fine: allocate_board does not lock twice.
    let lock = store.lock().expect("lock");
    assert_eq!(store.allocate_board().expect("alloc under lock"), 105);
    drop(lock);
}

#[test]
fn a_lost_counter_never_hands_out_a_board_that_has_a_file() {
    let (_dir, store) = store();
    store.put_game(&sample_game(250)).expect("put");
    assert_eq!(store.allocate_board().expect("alloc"), 251);
    fs::write(store.counter_path(), "120\n").expect("roll back");
    assert_eq!(store.allocate_board().expect("alloc"), 251);
}

#[test]
fn a_garbled_counter_is_an_error_naming_the_file() {
    let (_dir, store) = store();
    for bad in ["", "abc", "-5", "+7", "1 2", "99999999999"] {
        fs::write(store.counter_path(), bad).expect("write");
        let err = store.allocate_board().expect_err(bad);
        assert!(
            matches!(err, StoreError::BadCounter { .. }),
            "{bad:?}: {err}"
        );
        assert!(err.to_string().contains("next-board"), "{err}");
    }
    fs::write(store.counter_path(), u32::MAX.to_string()).expect("write");
    let err = store.allocate_board().expect_err("exhausted");
    assert!(matches!(err, StoreError::BoardsExhausted { .. }), "{err}");
}

#[test]
fn userid_validation_refuses_paths_and_odd_characters() {
    let refused: [(&str, InvalidUserId); 12] = [
        ("", InvalidUserId::Empty),
        ("../x", InvalidUserId::BadChar { found: '/', at: 3 }),
        ("a/b", InvalidUserId::BadChar { found: '/', at: 2 }),
        ("a\\b", InvalidUserId::BadChar { found: '\\', at: 2 }),
        (".hidden", InvalidUserId::BadStart { found: '.' }),
        ("..", InvalidUserId::BadStart { found: '.' }),
        ("-rf", InvalidUserId::BadStart { found: '-' }),
        ("two words", InvalidUserId::BadChar { found: ' ', at: 4 }),
        ("zoë", InvalidUserId::BadChar { found: 'ë', at: 3 }),
        ("a\0b", InvalidUserId::BadChar { found: '\0', at: 2 }),
        ("bob\n", InvalidUserId::BadChar { found: '\n', at: 4 }),
        (&"x".repeat(33), InvalidUserId::TooLong { len: 33 }),
    ];
    for (text, expected) in refused {
        assert_eq!(
            text.parse::<UserId>().map(|_| ()),
            Err(expected),
            "{text:?}"
        );
    }
    for ok in [
        "a",
        "Alice",
        "bob_2",
        "x.y-z",
        "_under",
        "9lives",
        &"x".repeat(32),
    ] {
        let id: UserId = ok.parse().expect(ok);
        assert_eq!(id.to_string(), ok);
    }
    // Every refusal says how to do it right.
    let msg = "a/b".parse::<UserId>().expect_err("bad").to_string();
    assert!(msg.contains("use only letters"), "{msg}");
}

#[test]
fn userids_compare_and_hash_without_case() {
    assert_eq!(uid("Alice"), uid("aLICE"));
    assert_ne!(uid("Alice"), uid("Alicia"));
    assert_eq!(uid("Alice").key(), "alice");
    assert_eq!(uid("Alice").to_string(), "Alice");
    let set: HashSet<UserId> = ["Alice", "ALICE", "alice", "bob"]
        .map(uid)
        .into_iter()
        .collect();
    assert_eq!(set.len(), 2);
    assert!(uid("alice") < uid("BOB"));
    // Through serde it is a plain string, validated on the way in.
    assert_eq!(
        serde_json::to_string(&uid("Alice")).expect("ser"),
        "\"Alice\""
    );
    assert!(serde_json::from_str::<UserId>("\"../x\"").is_err());
}

#[test]
fn passwords_never_print() {
    let secret = "Tr0ub4dor&3";
    let p: Password = secret.parse().expect("valid");
    for shown in [format!("{p}"), format!("{p:?}"), format!("{p:#?}")] {
        assert!(!shown.contains(secret), "{shown}");
        assert_eq!(shown, "********");
    }
    let uid = uid("Alice");
    let acct =
        Account::new(&uid, &p, vec!["a@example.org".parse().expect("address")], 5).expect("new");
    let shown = format!("{acct:?} {acct:#?} {:?}", (&p, &acct));
    assert!(!shown.contains(secret), "{shown}");
    assert!(
        !shown.contains(&acct.password_hash),
        "the hash leaked: {shown}"
    );
    assert!(shown.contains("Alice"), "{shown}");
    // A refusal never quotes the password either.
    let err = "my secret".parse::<Password>().expect_err("space");
    assert!(!err.to_string().contains("secret"), "{err}");
}

#[test]
fn hash_and_verify_with_the_agreed_parameters() {
    let right: Password = "correct-horse".parse().expect("valid");
    let wrong: Password = "correct-house".parse().expect("valid");
    let phc = hash_password(&right).expect("hash");
    assert!(phc.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"), "{phc}");
    assert!(verify_password(&right, &phc));
    assert!(!verify_password(&wrong, &phc));
    // A fresh salt each time.
    let again = hash_password(&right).expect("hash");
    assert_ne!(phc, again);
    assert!(verify_password(&right, &again));

    let acct = Account::new(&uid("Zed"), &right, vec![], 1).expect("new");
    assert!(acct.check_password(&right));
    assert!(!acct.check_password(&wrong));
}
