//! The identity checks in-process: passwords, reply tokens, codes, where answers go.

use super::*;
use crate::mail::parse_inbound;
use crate::server::model::{Password, UserId};
use crate::server::store::ReplyScope;

const NOW: u64 = 1_795_384_020;

fn userid(text: &str) -> UserId {
    text.parse().expect("a userid")
}

/// A store in a transaction with alice (password `alice-secret`, address
/// alice@example.org).
fn home() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("home")).expect("store");
    store.begin();
    let password: Password = "alice-secret".parse().expect("password");
    let addresses = vec!["alice@example.org".parse().expect("address")];
    let alice = Account::new(&userid("alice"), &password, addresses, 0).expect("account");
    store.put_account(&alice).expect("put");
    (dir, store)
}

fn request(proven: Option<&UserId>) -> Request<'_> {
    Request {
        reply_to: "alice@example.org".parse().ok(),
        sender: None,
        from: None,
        comment: "",
        quoted: "",
        now: NOW,
        server_address: "yinsh@localhost",
        confirm_addresses: false,
        challenges_for_others: 5,
        from_auth: FromAuth::Unknown,
        proven,
    }
}

fn refusal(r: Result<Option<Actor>, ExecError>) -> Refusal {
    match r {
        Err(ExecError::Refused(refusal)) => refusal,
        other => panic!("not refused: {other:?}"),
    }
}

fn parsed(line: &str) -> Command {
    Command::parse(line).expect("a command")
}

#[test]
fn a_right_password_proves_the_account_and_a_wrong_one_is_counted() {
    let (_dir, store) = home();
    let req = request(None);
    let actor = actor(&store, &req, &parsed("yinsh games alice"));
    assert!(actor.expect("no proof needed").is_none());
    let cmd = parsed("yinsh settings alice alice-secret");
    let actor = actor_of(&store, &req, &cmd);
    assert_eq!(actor.account.userid, userid("alice"));
    assert_eq!(actor.proof, Proof::Password);
    let bracketed = parsed("yinsh settings alice <alice-secret>");
    assert_eq!(actor_of(&store, &req, &bracketed).proof, Proof::Password);
    let wrong = parsed("yinsh settings alice guess");
    assert_eq!(
        refusal(super::actor(&store, &req, &wrong)),
        Refusal::WrongPassword
    );
    let failures = store
        .login_failures(&userid("alice"), NOW)
        .expect("failures");
    assert_eq!(failures.count, 1);
}

fn actor_of(store: &Store, req: &Request<'_>, cmd: &Command) -> Actor {
    actor(store, req, cmd).expect("proved").expect("an actor")
}

#[test]
fn board_commands_name_their_board_and_robots_are_never_logged_into() {
    let (_dir, store) = home();
    let req = request(None);
    let on_board = parsed("yinsh move 101 alice guess e5");
    assert_eq!(
        refusal(actor(&store, &req, &on_board)),
        Refusal::WrongPasswordOn { board: 101.into() }
    );
    let nobody = parsed("yinsh move 101 nobody pw e5");
    assert_eq!(
        refusal(actor(&store, &req, &nobody)),
        Refusal::UnknownUseridOn { board: 101.into() }
    );
    let robot = parsed("yinsh settings Robot1 pw");
    assert_eq!(
        refusal(actor(&store, &req, &robot)),
        Refusal::RobotAccount {
            userid: userid("robot1")
        }
    );
}

#[test]
fn a_reply_tokens_player_needs_no_password_and_acts_for_no_one_else() {
    let (_dir, store) = home();
    let alice = userid("alice");
    let req = request(Some(&alice));
    let cmd = parsed("yinsh settings alice anything");
    assert_eq!(actor_of(&store, &req, &cmd).proof, Proof::ReplyToken);
    let bob = userid("bob");
    let as_bob = request(Some(&bob));
    assert_eq!(
        refusal(actor(&store, &as_bob, &cmd)),
        Refusal::WrongPassword
    );
}

fn reply_with(store: &Store, from: &str, userid_of_token: &str) -> InboundMail {
    let token = store.reply_key().expect("key").mint(ReplyScope::Chat {
        board: 101.into(),
        userid: userid(userid_of_token),
    });
    let raw = format!(
        "From: {from}\nTo: yinsh@localhost\nSubject: Re: Yinsh chat 101 alice\nMessage-ID: <r1@example.org>\nIn-Reply-To: <{token}~x@localhost>\n\nhello\n"
    );
    parse_inbound(raw.as_bytes()).expect("a mail")
}

#[test]
fn a_reply_token_proves_its_player_only_from_their_address() {
    let (_dir, store) = home();
    let mut notes = Vec::new();
    let mut note = |l: String| notes.push(l);
    let own = reply_with(&store, "alice@example.org", "alice");
    assert!(matches!(
        reply_token(&store, &own, &mut note).expect("read"),
        TokenProof::Proven { ref account, .. } if account.userid == userid("alice")
    ));
    let forged = reply_with(&store, "mallory@evil.test", "alice");
    assert!(matches!(
        reply_token(&store, &forged, &mut note).expect("read"),
        TokenProof::NotTheirs(_)
    ));
    let gone = reply_with(&store, "bob@example.org", "bob");
    assert!(matches!(
        reply_token(&store, &gone, &mut note).expect("read"),
        TokenProof::NoAccount(_)
    ));
    let raw = b"From: alice@example.org\nSubject: Re: hello\nMessage-ID: <r2@x>\n\nhi\n";
    let plain = parse_inbound(raw).expect("a mail");
    assert!(matches!(
        reply_token(&store, &plain, &mut note).expect("read"),
        TokenProof::Nothing
    ));
    // alice's address counts as confirmed (an account made before confirmation).
    let req = Request {
        confirm_addresses: true,
        ..request(None)
    };
    assert!(proves_sender(&store, &own, &req).expect("proof"));
    assert!(!proves_sender(&store, &forged, &req).expect("proof"));
    // A From the trusted mail system failed proves nothing, token or not.
    let failed = Request {
        from_auth: FromAuth::Fail,
        ..request(None)
    };
    assert!(!proves_sender(&store, &own, &failed).expect("proof"));
    assert!(matches!(
        actor(
            &store,
            &failed,
            &parsed("yinsh settings alice alice-secret")
        ),
        Err(ExecError::Refused(Refusal::SenderNotVerified))
    ));
    assert!(matches!(
        actor(&store, &failed, &parsed("verify alice ABCDEFGHJK")),
        Err(ExecError::Refused(Refusal::SenderNotVerified))
    ));
}

/// Issue 25 finding 1: the answers to a request proven for alice go to alice's own
/// address, whatever Reply-To the mail names; a verify code's answer goes to the
/// address it confirms; a request proving nobody is answered where it asks.
#[test]
fn a_proven_request_is_answered_at_the_accounts_own_address_only() {
    let (_dir, store) = home();
    let mut req = request(None);
    req.reply_to = "mallory@evil.test".parse().ok();
    let alice = store
        .account(&userid("alice"))
        .expect("read")
        .expect("alice");
    let actor = Actor {
        account: alice.clone(),
        proof: Proof::ReplyToken,
    };
    let answered = answering(&req, Some(&actor));
    assert_eq!(answered.reply_to, "alice@example.org".parse().ok());
    let upper = Request {
        reply_to: "ALICE+games@Example.org".parse().ok(),
        ..request(None)
    };
    assert_eq!(
        answering(&upper, Some(&actor)).reply_to,
        upper.reply_to,
        "one of her own mailboxes, as she wrote it"
    );
    let code = Actor {
        account: alice,
        proof: Proof::VerifyCode("alice2@example.org".parse().expect("address")),
    };
    assert_eq!(
        answering(&req, Some(&code)).reply_to,
        "alice2@example.org".parse().ok()
    );
    assert_eq!(answering(&req, None).reply_to, req.reply_to);
    assert!(owns(&actor, true));
}

/// An account whose only address waits for its code owns nothing yet: its
/// requests are a stranger's (issue 25 finding 3).
#[test]
fn an_account_without_a_confirmed_address_is_no_owner() {
    let (_dir, store) = home();
    let password: Password = "mal-secret-1".parse().expect("password");
    let mut mal = Account::new(&userid("mal1"), &password, Vec::new(), 0).expect("account");
    let victim: Address = "alice@example.org".parse().expect("address");
    mal.addresses.push(victim.clone());
    mal.add_pending(&victim, NOW).expect("pending");
    store.put_account(&mal).expect("put");
    let actor = Actor {
        account: mal,
        proof: Proof::Password,
    };
    assert!(!owns(&actor, true));
    assert!(
        owns(&actor, false),
        "with confirmation off every address counts"
    );
    let mut req = request(None);
    req.reply_to = "mallory@evil.test".parse().ok();
    req.confirm_addresses = true;
    assert_eq!(answering(&req, Some(&actor)).reply_to, req.reply_to);
}
