//! The seed corpus of the `deliver` fuzz target reaches the commands, not only the
//! parser: each seed of `fuzz/corpus/deliver/` is delivered in-process against the
//! fuzz target's own home (`fuzz/fuzz_targets/deliver_home.rs`, included here) and
//! must do what a player expects of it (a move played, an account made, a board
//! started, a verify code refused, a password guess counted...). Every seed is
//! covered by a check, so a new seed needs one too.

#[path = "../../fuzz/fuzz_targets/deliver_home.rs"]
mod deliver_home;

use std::path::Path;

use yinsh_pbem::server::deliver;
use yinsh_pbem::server::store::Store;

use crate::support::server::{Sent, read_sent};

/// What one seed did: its replies and the store after it, and whether the accounts,
/// boards and board counter are as in the template.
struct Outcome {
    sent: Vec<Sent>,
    store: Store,
    unchanged: bool,
}

impl Outcome {
    fn turns(&self, board: u32) -> usize {
        self.store
            .game(board)
            .expect("loads")
            .map_or(0, |g| g.turns.len())
    }

    fn says(&self, text: &str) -> bool {
        self.sent
            .iter()
            .any(|m| m.subject.contains(text) || m.body.contains(text))
    }

    fn account(&self, userid: &str) -> Option<yinsh_pbem::server::store::Account> {
        self.store
            .account(&userid.parse().expect("userid"))
            .expect("loads")
    }
}

fn run(template: &Path, raw: &[u8]) -> (deliver_home::TempHome, Outcome) {
    let home = deliver_home::copy_of(template);
    let before = deliver_home::records(&home.0);
    let s = deliver_home::settings(&home.0);
    deliver(raw, raw.len(), None, &s).expect("no internal error");
    let mut sent: Vec<Sent> = std::fs::read_dir(home.0.join("outbox"))
        .map(|d| d.flatten().map(|e| read_sent(&e.path())).collect())
        .unwrap_or_default();
    sent.sort_by(|a, b| a.subject.cmp(&b.subject));
    let store = Store::open(&home.0).expect("store");
    let unchanged = deliver_home::records(&home.0) == before;
    (
        home,
        Outcome {
            sent,
            store,
            unchanged,
        },
    )
}

#[test]
fn every_deliver_fuzz_seed_reaches_its_command() {
    let template = deliver_home::template();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/deliver");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the seed corpus")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert!(names.len() >= 15, "{names:?}");
    for name in &names {
        let raw = std::fs::read(dir.join(name)).expect("seed");
        let (_home, o) = run(&template.0, &raw);
        let sent = &o.sent;
        let ok = match name.split('-').next().unwrap_or("") {
            // A move of alice on board 102 (her third turn), in three MIME shapes.
            "01" | "03" | "04" => o.turns(102) == 3,
            "13" => o.says("Yinsh error") && o.unchanged,
            "20" | "30" | "32" => o.turns(101) == 1,
            "21" => {
                o.account("dave").is_some()
                    && sent.iter().any(|m| m.subject.starts_with("verify dave "))
            }
            "22" => o.says("wrong or older than 7 days") && o.unchanged,
            "23" => o.store.game(103).expect("loads").is_some(),
            "24" => o.turns(101) == 2 && sent.len() >= 10,
            "25" => o
                .store
                .game(102)
                .expect("loads")
                .is_some_and(|g| g.ended.is_some()),
            "26" => {
                o.says("Invalid password")
                    && o.store.home().join("logins/alice.json").exists()
                    && !o.says("PHISHING")
            }
            "27" => o
                .account("bob")
                .is_some_and(|a| a.unconfirmed.iter().any(|p| p.address == "new@example.org")),
            "28" => {
                o.account("spam1").is_some()
                    && o.says("at most 3 games")
                    && o.store.game(105).expect("loads").is_some()
                    && o.store.game(106).expect("loads").is_none()
            }
            "29" => o.says("Vacation for alice") && sent.len() >= 4,
            "31" => o.store.game(103).expect("loads").is_some(),
            other => panic!("seed {name}: no check for {other:?}: add one"),
        };
        assert!(ok, "seed {name} did not do its command: {sent:#?}");
    }
}
