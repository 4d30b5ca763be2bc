//! The identity checks in-process: the one proof ([`prove`]) of each kind (password,
//! `<password>`, reply token, verify code, a challenge's password, a retired userid's),
//! wrong passwords, tokens of other accounts, where answers go, who answers for them.

use std::path::PathBuf;

use super::*;
use crate::mail::auth_results::{Doubt, FromAuth};
use crate::mail::{InboundMail, parse_inbound};
use crate::server::config::Settings;
use crate::server::model::{Password, UserId};
use crate::server::outgoing::threading;
use crate::server::store::ReplyScope;

const NOW: u64 = 1_795_384_020;

fn userid(text: &str) -> UserId {
    text.parse().expect("a userid")
}

fn address(text: &str) -> Address {
    text.parse().expect("an address")
}

/// A store in a transaction with alice (password `alice-secret`, address
/// alice@example.org).
fn home() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().expect("tempdir");
    let store = Store::open(&dir.path().join("home")).expect("store");
    store.begin();
    let password: Password = "alice-secret".parse().expect("password");
    let addresses = vec![address("alice@example.org")];
    let alice = Account::new(&userid("alice"), &password, addresses, 0).expect("account");
    store.put_account(&alice).expect("put");
    (dir, store)
}

/// The server's settings, addresses to be confirmed or not.
fn settings(confirm_addresses: bool) -> Settings {
    let mut s = Settings::defaults(PathBuf::from("/nonexistent/yinsh"));
    s.confirm_addresses = confirm_addresses;
    s
}

/// A mail from alice@example.org (its From and reply address).
fn request<'a>(settings: &'a Settings, from: Option<&'a Address>) -> Request<'a> {
    Request {
        from,
        reply_to: from,
        quoted: "",
        now: NOW,
        settings,
        from_auth: FromAuth::Unknown,
    }
}

/// The proof of `line`, as a command.
fn proof(store: &Store, req: &Request<'_>, line: &str) -> Proven {
    let cmd = parsed(line);
    prove(store, req, Offered::Command(&cmd), &mut |_| {}).expect("proved")
}

/// The refusal of `proven`, which must have one and no actor.
fn refusal(proven: Proven) -> Refusal {
    assert!(proven.actor.is_none(), "{proven:?}");
    proven.refusal.expect("refused")
}

fn actor_of(proven: &Proven) -> &Actor {
    assert!(proven.refusal.is_none(), "{proven:?}");
    proven.actor.as_ref().expect("an actor")
}

fn parsed(line: &str) -> Command {
    Command::parse(line).expect("a command")
}

#[test]
fn a_right_password_proves_the_account_and_a_wrong_one_is_counted() {
    let (_dir, store) = home();
    let (s, alice) = (settings(false), address("alice@example.org"));
    let req = request(&s, Some(&alice));
    let none = proof(&store, &req, "yinsh games alice");
    assert!(none.actor.is_none() && none.refusal.is_none());
    assert_eq!(none.cause, Cause::Stranger);
    let proven = proof(&store, &req, "yinsh settings alice alice-secret");
    let actor = actor_of(&proven);
    assert_eq!(actor.account.userid, userid("alice"));
    assert_eq!(actor.proof, Proof::Password);
    assert_eq!(proven.cause, Cause::Owner);
    assert!(!proven.showable_password);
    let bracketed = proof(&store, &req, "yinsh settings alice <alice-secret>");
    assert_eq!(actor_of(&bracketed).proof, Proof::Password);
    let wrong = proof(&store, &req, "yinsh settings alice guess");
    assert_eq!(wrong.answer_to, Some(alice.clone()));
    assert_eq!(wrong.cause, Cause::Stranger);
    assert_eq!(refusal(wrong), Refusal::WrongPassword);
    let failures = store
        .login_failures(&userid("alice"), NOW)
        .expect("failures");
    assert_eq!(failures.count, 1);
}

#[test]
fn board_commands_name_their_board_and_robots_are_never_logged_into() {
    let (_dir, store) = home();
    let (s, alice) = (settings(false), address("alice@example.org"));
    let req = request(&s, Some(&alice));
    assert_eq!(
        refusal(proof(&store, &req, "yinsh move 101 alice guess e5")),
        Refusal::WrongPasswordOn { board: 101.into() }
    );
    assert_eq!(
        refusal(proof(&store, &req, "yinsh move 101 nobody pw e5")),
        Refusal::UnknownUseridOn { board: 101.into() }
    );
    assert_eq!(
        refusal(proof(&store, &req, "yinsh settings Robot1 pw")),
        Refusal::RobotAccount {
            userid: userid("robot1")
        }
    );
}

/// A reply mail from `from` naming a chat token of `userid_of_token`.
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

/// The proof of `mail`'s reply tokens.
fn token_proof(store: &Store, s: &Settings, mail: &InboundMail) -> Proven {
    let req = Request {
        from: mail.from.as_ref(),
        reply_to: mail.from.as_ref(),
        ..request(s, None)
    };
    let tokens = threading::tokens_named(mail);
    prove(store, &req, Offered::Reply(&tokens), &mut |_| {}).expect("proved")
}

#[test]
fn a_reply_tokens_player_needs_no_password_and_acts_for_no_one_else() {
    let (_dir, store) = home();
    let s = settings(false);
    let own = reply_with(&store, "alice@example.org", "alice");
    let proven = token_proof(&store, &s, &own);
    assert_eq!(actor_of(&proven).proof, Proof::ReplyToken);
    assert_eq!(proven.token_player(), Some(&userid("alice")));
    assert!(matches!(proven.scope, Some(ReplyScope::Chat { .. })));
    assert_eq!(proven.cause, Cause::Owner);
    // A token of an account that is not there proves nobody, and nothing else does.
    let bob = token_proof(&store, &s, &reply_with(&store, "alice@example.org", "bob"));
    assert!(bob.actor.is_none() && bob.refusal.is_none() && bob.scope.is_none());
    // alice's token from another address is refused, answered there as a stranger's.
    let forged = token_proof(
        &store,
        &s,
        &reply_with(&store, "mallory@evil.test", "alice"),
    );
    assert_eq!(forged.answer_to, Some(address("mallory@evil.test")));
    assert_eq!(forged.cause, Cause::Stranger);
    assert!(matches!(
        refusal(forged),
        Refusal::ReplyNotYours { ref userid, .. } if *userid == self::userid("alice")
    ));
}

#[test]
fn a_reply_token_proves_its_player_only_from_their_address() {
    let (_dir, store) = home();
    let mut notes = Vec::new();
    let mut note = |l: String| notes.push(l);
    let own = reply_with(&store, "alice@example.org", "alice");
    let tokens = |m: &InboundMail| threading::tokens_named(m);
    assert!(matches!(
        reply_token(&store, own.from.as_ref(), &tokens(&own), &mut note).expect("read"),
        TokenProof::Theirs { ref account, .. } if account.userid == userid("alice")
    ));
    let forged = reply_with(&store, "mallory@evil.test", "alice");
    assert!(matches!(
        reply_token(&store, forged.from.as_ref(), &tokens(&forged), &mut note).expect("read"),
        TokenProof::NotTheirs(_)
    ));
    let gone = reply_with(&store, "bob@example.org", "bob");
    assert!(matches!(
        reply_token(&store, gone.from.as_ref(), &tokens(&gone), &mut note).expect("read"),
        TokenProof::NoAccount(_)
    ));
    let raw = b"From: alice@example.org\nSubject: Re: hello\nMessage-ID: <r2@x>\n\nhi\n";
    let plain = parse_inbound(raw).expect("a mail");
    assert!(matches!(
        reply_token(&store, plain.from.as_ref(), &tokens(&plain), &mut note).expect("read"),
        TokenProof::Nothing
    ));
    // alice's address counts as confirmed (an account made before confirmation).
    let s = settings(true);
    let req = request(&s, None);
    assert!(proves_sender(&token_proof(&store, &s, &own), &req));
    assert!(!proves_sender(&token_proof(&store, &s, &forged), &req));
    // A From the trusted mail system failed proves nothing, token or not.
    let s = settings(false);
    let alice = address("alice@example.org");
    let failed = Request {
        from_auth: FromAuth::Fail,
        ..request(&s, Some(&alice))
    };
    let tokens = threading::tokens_named(&own);
    let by_token = prove(&store, &failed, Offered::Reply(&tokens), &mut |_| {}).expect("proof");
    assert!(!proves_sender(&by_token, &failed));
    assert_eq!(refusal(by_token), Refusal::SenderNotVerified(Doubt::Failed));
    assert_eq!(
        refusal(proof(&store, &failed, "yinsh settings alice alice-secret")),
        Refusal::SenderNotVerified(Doubt::Failed)
    );
    assert_eq!(
        refusal(proof(&store, &failed, "verify alice ABCDEFGHJK")),
        Refusal::SenderNotVerified(Doubt::Failed)
    );
}

/// Issue 25 finding 1: the answers to a request proven for alice go to alice's own
/// address, whatever Reply-To the mail names; a verify code's answer goes to the
/// address it confirms; a request proving nobody is answered where it asks.
#[test]
fn a_proven_request_is_answered_at_the_accounts_own_address_only() {
    let (_dir, store) = home();
    let s = settings(false);
    let mallory = address("mallory@evil.test");
    let req = request(&s, Some(&mallory));
    let alice = store
        .account(&userid("alice"))
        .expect("read")
        .expect("alice");
    let actor = Actor {
        account: alice.clone(),
        proof: Proof::ReplyToken,
    };
    assert_eq!(
        answering(&req, Some(&actor)),
        Some(address("alice@example.org"))
    );
    let upper_address = address("ALICE+games@Example.org");
    let upper = request(&s, Some(&upper_address));
    assert_eq!(
        answering(&upper, Some(&actor)),
        upper.reply_to.cloned(),
        "one of her own mailboxes, as she wrote it"
    );
    let code = Actor {
        account: alice,
        proof: Proof::VerifyCode(address("alice2@example.org")),
    };
    assert_eq!(
        answering(&req, Some(&code)),
        Some(address("alice2@example.org"))
    );
    assert_eq!(answering(&req, None), req.reply_to.cloned());
    assert!(owns(&actor, true));
    // The proof says so too: a password from mallory's Reply-To is answered at
    // alice's own address.
    let proven = proof(&store, &req, "yinsh settings alice alice-secret");
    assert_eq!(proven.answer_to, Some(address("alice@example.org")));
}

/// An account whose only address waits for its code owns nothing yet: its
/// requests are a stranger's (issue 25 finding 3).
#[test]
fn an_account_without_a_confirmed_address_is_no_owner() {
    let (_dir, store) = home();
    let password: Password = "mal-secret-1".parse().expect("password");
    let mut mal = Account::new(&userid("mal1"), &password, Vec::new(), 0).expect("account");
    let victim = address("alice@example.org");
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
    let s = settings(true);
    let mallory = address("mallory@evil.test");
    let req = request(&s, Some(&mallory));
    assert_eq!(answering(&req, Some(&actor)), req.reply_to.cloned());
    let proven = proof(&store, &req, "yinsh settings mal1 mal-secret-1");
    assert_eq!(actor_of(&proven).proof, Proof::Password);
    assert_eq!(proven.cause, Cause::Stranger, "proven, but owning nothing");
    assert!(!proves_sender(&proven, &req));
}

/// A verify code proves the account and the address it confirms, where the answer
/// goes; a wrong one is refused and counted apart from the passwords.
#[test]
fn a_verify_code_proves_the_address_it_confirms() {
    let (_dir, store) = home();
    let mut alice = store
        .account(&userid("alice"))
        .expect("read")
        .expect("alice");
    let second = address("alice2@example.org");
    alice.addresses.push(second.clone());
    let code = alice.add_pending(&second, NOW).expect("pending");
    store.put_account(&alice).expect("put");
    let s = settings(true);
    let stranger = address("someone@example.net");
    let req = request(&s, Some(&stranger));
    let proven = proof(&store, &req, &format!("verify alice {}", code.reveal()));
    assert_eq!(actor_of(&proven).proof, Proof::VerifyCode(second.clone()));
    assert_eq!(proven.answer_to, Some(second));
    assert_eq!(proven.cause, Cause::Owner);
    assert_eq!(
        refusal(proof(&store, &req, "verify alice ABCDEFGHJK")),
        Refusal::WrongCode
    );
    let failures = |what: &str| match what {
        "codes" => {
            store
                .code_failures(&userid("alice"), NOW)
                .expect("read")
                .count
        }
        _ => {
            store
                .login_failures(&userid("alice"), NOW)
                .expect("read")
                .count
        }
    };
    assert_eq!((failures("codes"), failures("passwords")), (1, 0));
}

/// Every password is read alike (`password_of`): a challenge's and a retired
/// userid's as a command's, `<password>` included; a wrong one is counted.
#[test]
fn every_password_is_read_the_same_way() {
    let (_dir, store) = home();
    let s = settings(false);
    let alice = address("alice@example.org");
    let req = request(&s, Some(&alice));
    for line in [
        "yinsh challenge -password alice-secret alice bob",
        "yinsh challenge -password <alice-secret> alice bob",
    ] {
        let proven = proof(&store, &req, line);
        let actor = actor_of(&proven);
        assert_eq!(
            (&actor.account.userid, &actor.proof),
            (&userid("alice"), &Proof::Password)
        );
    }
    assert_eq!(
        refusal(proof(
            &store,
            &req,
            "yinsh challenge -password guess alice bob"
        )),
        Refusal::WrongPassword
    );
    let old = store
        .account(&userid("alice"))
        .expect("read")
        .expect("alice");
    store.retire_account(&old).expect("retire");
    let back = proof(&store, &req, "signup alice <alice-secret>");
    assert_eq!(actor_of(&back).account.userid, userid("alice"));
    assert!(matches!(
        refusal(proof(&store, &req, "signup alice guess")),
        Refusal::UseridRetired { .. }
    ));
    let failures = store
        .login_failures(&userid("alice"), NOW)
        .expect("failures");
    assert_eq!(failures.count, 2);
}

/// A password set before `command::could_show` refused such ones is recorded in the
/// proof (the old password's notice needs no second check); `change password` is
/// not, nor a password that could not be shown.
#[test]
fn the_proof_records_a_password_that_could_be_shown() {
    let (_dir, store) = home();
    let password: Password = "123456".parse().expect("password");
    let bob = Account::new(
        &userid("bob"),
        &password,
        vec![address("bob@example.org")],
        0,
    )
    .expect("account");
    store.put_account(&bob).expect("put");
    let s = settings(false);
    let from = address("bob@example.org");
    let req = request(&s, Some(&from));
    assert!(proof(&store, &req, "yinsh settings bob 123456").showable_password);
    assert!(proof(&store, &req, "yinsh settings bob <123456>").showable_password);
    let change = proof(&store, &req, "change password bob 123456 n3w-secret");
    assert_eq!(actor_of(&change).proof, Proof::Password);
    assert!(!change.showable_password);
    let alice = address("alice@example.org");
    let req = request(&s, Some(&alice));
    assert!(!proof(&store, &req, "yinsh settings alice alice-secret").showable_password);
}
