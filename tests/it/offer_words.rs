//! Issue 45 attack 4: every mail that carries one person's text to another counts
//! among the chats and messages a mailbox gets a day
//! (`outgoing::gate::MESSAGES_PER_MAILBOX_PER_DAY`). Draw offers carried alice's text
//! to bob 130 times a day around that cap; now the board mails of an offer or a
//! commented move count, and over the day's cap they come without the comment (the
//! game's mails still come). Through the real binary with confirmation on.

use crate::support::bin;
use crate::support::sent::{ALICE, mails_to};
use crate::support::server::{TestServer, assert_says};

const SPAM: &str = "Cheap rings at spam.example";
const CAP: usize = 100;

#[test]
fn draw_offers_carry_one_persons_words_to_another_at_most_the_days_cap() {
    let mut s = TestServer::with_binary();
    s.envs = bin::confirming().to_vec();
    s.confirmed("alice", "apw", "alice@example.org");
    s.confirmed("bob", "bpw", "bob@example.org");
    let start = s.send(ALICE, "yinsh challenge -password apw alice bob", "");
    assert_eq!(start.len(), 2, "{start:?}");
    let (mut carried, mut bare) = (0, 0);
    for _ in 0..CAP + 3 {
        let sent = s.send(ALICE, "yinsh move 101 alice apw propose", SPAM);
        let to_bob = mails_to(&sent, "bob@example.org");
        assert_eq!(to_bob.len(), 1, "bob's board mail: {sent:?}");
        if to_bob[0].raw.contains(SPAM) {
            carried += 1;
        } else {
            // Over the cap the board mail still comes, saying why the words do not.
            assert_says(&to_bob[0], "The comment is not shown");
            assert_says(&to_bob[0], "chats, messages and comments");
            bare += 1;
        }
        // Alice's own words in her own board mail are no other person's text.
        let to_alice = mails_to(&sent, "alice@example.org");
        assert!(
            to_alice.iter().any(|m| m.raw.contains(SPAM)),
            "alice's own mail: {sent:?}"
        );
    }
    assert_eq!(carried, CAP, "mails carrying alice's words to bob in a day");
    assert_eq!(bare, 3);
    assert!(
        s.log().contains("comment left out for bob@example.org"),
        "{}",
        s.log()
    );
    // The next day the cap is new.
    s.now += 86_400;
    let sent = s.send(ALICE, "yinsh move 101 alice apw propose", SPAM);
    assert!(mails_to(&sent, "bob@example.org")[0].raw.contains(SPAM));
}
