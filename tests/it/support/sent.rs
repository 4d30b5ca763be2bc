//! Finding the mails a test expects among those a run sent, and the set-ups many
//! tests share: accounts confirmed by answering their verify mail, the game of alice,
//! bob and carol, and the game of alice and bob on a server that writes a site.

use std::path::Path;

use super::mail::{Client, reply};
use super::server::{Sent, TestServer};

pub const ALICE: &str = "Alice <alice@example.org>";
pub const BOB: &str = "Bob <bob@example.org>";
pub const CAROL: &str = "Carol <carol@example.org>";

/// The mails of `sent` naming `address` among their recipients (any case).
pub fn mails_to(sent: &[Sent], address: &str) -> Vec<Sent> {
    sent.iter()
        .filter(|m| m.to.iter().any(|t| t.eq_ignore_ascii_case(address)))
        .cloned()
        .collect()
}

/// The one mail of `sent` naming `address` among its recipients (any case).
#[track_caller]
pub fn one_to(sent: &[Sent], address: &str) -> Sent {
    let mine = mails_to(sent, address);
    assert_eq!(mine.len(), 1, "one mail to {address}: {sent:?}");
    mine[0].clone()
}

/// The one mail of `sent` to `address` and nobody else.
#[track_caller]
pub fn only_to(sent: &[Sent], address: &str) -> Sent {
    let mine: Vec<&Sent> = sent.iter().filter(|m| m.to == [address]).collect();
    assert_eq!(mine.len(), 1, "one mail to {address}: {sent:?}");
    mine[0].clone()
}

/// The first mail of `sent` to `userid@example.org`.
#[track_caller]
pub fn first_to<'a>(sent: &'a [Sent], userid: &str) -> &'a Sent {
    let address = format!("{userid}@example.org");
    sent.iter()
        .find(|m| m.to.contains(&address))
        .unwrap_or_else(|| panic!("no mail to {userid}: {sent:?}"))
}

/// No mail of `sent` carries `text`, in its text or its HTML part.
#[track_caller]
pub fn nowhere(sent: &[Sent], text: &str) {
    for m in sent {
        assert!(!m.raw.contains(text), "{text:?} in {}", m.raw);
        assert!(
            !m.html.as_deref().unwrap_or("").contains(text),
            "{text:?} in the HTML of {m:?}"
        );
    }
}

/// The HTML part of `m`, which must have one.
#[track_caller]
pub fn html(m: &Sent) -> &str {
    m.html
        .as_deref()
        .unwrap_or_else(|| panic!("no HTML: {}", m.body))
}

impl TestServer {
    /// Signs `userid` up from `address` and confirms it by answering its verify mail.
    pub fn confirmed(&mut self, userid: &str, password: &str, address: &str) {
        let sent = self.send(address, &format!("signup {userid} {password}"), "");
        let verify = mails_to(&sent, address)
            .into_iter()
            .find(|m| m.subject.starts_with(&format!("verify {userid} ")))
            .unwrap_or_else(|| panic!("no verify mail in {sent:?}"));
        let sent = self.send(address, &format!("Re: {}", verify.subject), "");
        assert!(
            sent.iter()
                .any(|m| m.subject.starts_with("Address confirmed")),
            "{sent:?}"
        );
    }

    /// alice, bob and carol signed up; board 101 alice (White) against bob, with the
    /// challenge's `options` (`--nagtime=2` ...).
    pub fn alice_bob_carol(options: &str) -> TestServer {
        let mut s = TestServer::new();
        s.send(ALICE, "signup alice apw", "");
        s.send(BOB, "signup bob bpw", "");
        s.send(CAROL, "signup carol cpw", "");
        let r = s.send(ALICE, &format!("yinsh challenge {options} alice bob"), "");
        assert_eq!(r.len(), 2, "{r:?}");
        s
    }

    /// Writes a configuration whose site (`[site] out`) goes to `site`, signs alice
    /// (`apw`) and bob (`bpw`) up and starts board 101, alice (White) against bob.
    pub fn alice_bob_on_site(&mut self, site: &Path) {
        std::fs::create_dir_all(self.home()).expect("home");
        std::fs::write(
            self.home().join("config.toml"),
            format!("[site]\nout = \"{}\"\n", site.display()),
        )
        .expect("config");
        self.send("alice@example.org", "signup alice apw", "");
        self.send("bob@example.org", "signup bob bpw", "");
        self.send("alice@example.org", "yinsh challenge alice bob", "");
    }

    /// The reply of `from` to `m` written by `client` (its Reply button pressed),
    /// delivered; the replies to it.
    pub fn press_reply(&mut self, client: Client, from: &str, m: &Sent, text: &str) -> Vec<Sent> {
        let id = format!(
            "reply-{}-{}@client.example",
            self.now,
            self.outbox_files().len()
        );
        let raw = reply(client, from, &m.original(), text, &id);
        self.send_raw(raw.as_bytes())
    }
}

/// `sent` split into the review mails (issue 28: the run that ends a game also makes
/// its review and mails it to each human player, `Yinsh Board <n> review`) and the
/// others.
pub fn split_reviews(sent: Vec<Sent>) -> (Vec<Sent>, Vec<Sent>) {
    sent.into_iter()
        .partition(|m| m.subject.ends_with(" review"))
}
