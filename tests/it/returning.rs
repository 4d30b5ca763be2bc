//! A retired userid taken back (issue 24): its former owner's last password is
//! checked by `inbound::identity`, the one place that decides who a mail acts for,
//! never inside the `signup` handler.

use yinsh_pbem::mail::Address;
use yinsh_pbem::mail::auth_results::FromAuth;
use yinsh_pbem::server::Settings;
use yinsh_pbem::server::command::Command;
use yinsh_pbem::server::exec::{Actor, Proven, Refusal, Request};
use yinsh_pbem::server::inbound::identity::{self, Offered};
use yinsh_pbem::server::model::Proof;
use yinsh_pbem::server::store::{Store, with_cheap_hashes};

use crate::support::server::{TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";

fn request<'a>(now: u64, settings: &'a Settings, from: &'a Address) -> Request<'a> {
    Request {
        from: None,
        reply_to: Some(from),
        quoted: "",
        now,
        settings,
        from_auth: FromAuth::Unknown,
    }
}

/// The proof of `cmd` (`identity::prove`, the one proof of a command).
fn proof(store: &Store, req: &Request<'_>, cmd: &Command) -> Proven {
    identity::prove(store, req, Offered::Command(cmd), &mut |_| {}).expect("no internal failure")
}

/// Who `proven` proves, or its refusal.
fn actor_of(proven: Proven) -> Result<Option<Actor>, Refusal> {
    match proven.refusal {
        Some(refusal) => Err(refusal),
        None => Ok(proven.actor),
    }
}

/// issue 24 item 3: `returning` checked the password of a retired userid inside the
/// `signup` handler, so `identity::actor` said nobody acted. Now the actor of such a
/// signup is the retired account, proved by its last password; a wrong one is
/// refused there.
#[test]
fn identity_proves_the_former_owner_of_a_retired_userid() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(ALICE, "signoff alice apw", "");
    let store = Store::open(&s.home()).expect("store");
    let settings = Settings::defaults(s.home());
    let alice: Address = "alice@example.org".parse().expect("an address");
    let req = request(1_900_000_000, &settings, &alice);
    let back = Command::parse("signup alice apw").expect("a command");
    let actor = with_cheap_hashes(|| {
        actor_of(proof(&store, &req, &back)).map_err(|e| format!("refused: {e:?}"))
    })
    .expect("not refused")
    .expect("an actor");
    assert_eq!(actor.account.userid.as_str(), "alice");
    assert!(matches!(actor.proof, Proof::Password), "{:?}", actor.proof);
    let other = Command::parse("signup alice other").expect("a command");
    let refused = with_cheap_hashes(|| {
        let got = actor_of(proof(&store, &req, &other));
        let retired = matches!(got, Err(Refusal::UseridRetired { .. }));
        (retired, format!("{got:?}"))
    });
    assert!(refused.0, "{}", refused.1);
    let new = Command::parse("signup carol cpw").expect("a command");
    assert!(matches!(actor_of(proof(&store, &req, &new)), Ok(None)));
    // By mail, as ever: the owner takes it back, anyone else is refused.
    let r = s.send(ALICE, "signup alice other", "");
    assert_says(&r[0], "belonged to an account that was signed off");
    let r = s.send(ALICE, "signup alice apw", "");
    assert_says(&r[0], "Your userid alice is registered");
}
