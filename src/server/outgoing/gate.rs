//! THE gate: every mail of every run passes here before it is committed (`run::txn`
//! calls [`pass`] on all the replies of a transaction, so no path can go round it).
//! The threat model and the budgets are in `docs/reliability.md` ("Strangers,
//! players, operator").
//!
//! - An address marked failing after hard bounces (issue 30, `run::bounces`) gets
//!   nothing; the other recipients of the reply get it.
//! - A reply for the operator ([`Audience::Operator`]: the server's own notices of
//!   damaged files and of replies given up) goes only to the configured operator.
//! - **What a stranger causes is budgeted per mailbox.** A reply to a mail that proved
//!   no account with a confirmed address ([`Cause::Unproven`]: anyone can send it,
//!   from any From, to any Reply-To) is counted against each mailbox it reaches
//!   ([`Address::canonical`]: every spelling and `+tag` of one mailbox is one), at
//!   most `stranger_mails_per_day` a day (`<home>/strangers/`, inside the
//!   transaction); the last one of the day says so and until when, the rest are
//!   dropped with a log line. Such a reply never carries text another person chose
//!   (its [`Foreign`] part is left out, a chat or message is not sent). Honest play
//!   ([`Cause::Proven`]) and the server's own runs (reminders, robot turns and reviews
//!   with their cause, bounces: [`Source`]) are not counted. All this when `[security]
//!   confirm_addresses` is on (the default); off, the operator trusts every address.
//! - A mailbox gets at most [`MESSAGES_PER_MAILBOX_PER_DAY`] chats and messages a day
//!   (`<home>/messages/`), so that an account, even one with a confirmed address,
//!   cannot bury another player in text.
//! - When `[security] confirm_addresses` is on, a recipient address that no account has
//!   confirmed gets no text another person chose either, and at most
//!   `unconfirmed_mails_per_day` mails a day (`<home>/quota/`); and a reply token goes
//!   only to an address the token's own account confirmed (another recipient gets the
//!   mail without it), and so does a play token (its link).
//!
//! With fault injection compiled in, `YINSH_PBEM_FAULT=gate-closed` makes the gate let
//! nothing through (`durable::fault`): the test that every run's mail passes it.

use crate::durable::fault;
use crate::mail::Address;
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::store::{Account, Store};
use crate::server::text::notices;

use super::failing::without_failing;
use super::reply::{Audience, Cause, Foreign, Reply};

/// Which run made the replies the gate judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    /// The answer to one incoming mail (`deliver`): each reply is judged by its
    /// [`Cause`].
    Mail,
    /// Work owed (a robot's turn, a review), with the cause of what made it owed.
    Owed(Cause),
    /// The games' clock (`tick`). These three are the server's own: not budgeted.
    Clock,
    /// The server's own run otherwise (its notices, `reindex`).
    Server,
}

/// Seconds in a day.
const DAY: u64 = 86_400;

/// Chats and messages (whole texts another person chose, [`Foreign::All`]) one
/// mailbox gets a day, however many players send them: a player proven by password
/// or token is never throttled, but one account may not bury another player in text.
/// Far above a lively game's chat; `<home>/messages/`.
pub const MESSAGES_PER_MAILBOX_PER_DAY: u32 = 100;

/// The replies as they may be sent; `note` gets a line for each address left out.
pub fn pass(
    store: &Store,
    settings: &Settings,
    now: u64,
    source: Source,
    replies: Vec<Reply>,
    note: &mut dyn FnMut(String),
) -> Result<Vec<Reply>, InternalError> {
    if fault::gate_closed() {
        for r in &replies {
            note(format!(
                "not sent to {} (the gate is closed): {}",
                crate::mail::address::list(&r.to),
                r.subject
            ));
        }
        return Ok(Vec::new());
    }
    let judge = Judge {
        store,
        settings,
        now,
        source,
    };
    let mut out = Vec::with_capacity(replies.len());
    for reply in replies {
        match reply.audience {
            Audience::Operator => out.extend(to_operator(settings, reply, note)),
            Audience::Players => {
                if let Some(reply) = without_failing(store, reply, note) {
                    out.extend(judge.to_players(reply, note)?);
                }
            }
        }
    }
    Ok(out)
}

/// An operator's notice, to the configured operator only.
fn to_operator(settings: &Settings, reply: Reply, note: &mut dyn FnMut(String)) -> Option<Reply> {
    let operator = settings.operator.as_ref();
    let (to, other): (Vec<Address>, Vec<Address>) = reply
        .to
        .iter()
        .cloned()
        .partition(|a| operator.is_some_and(|op| a.same_mailbox(op)));
    for a in other {
        note(format!(
            "not sent to {a} (not the operator): {}",
            reply.subject
        ));
    }
    (!to.is_empty()).then_some(Reply { to, ..reply })
}

/// How one recipient gets a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Share {
    /// Without the text another person chose (and without the HTML part).
    servers_words_only: bool,
    /// With the reply token of its thread.
    token: bool,
    /// The last mail of the day a stranger may cause to this mailbox (or that an
    /// unconfirmed address may get): it says so, and until when.
    last_of_budget: bool,
}

/// What the gate needs to judge one reply to players.
struct Judge<'a> {
    store: &'a Store,
    settings: &'a Settings,
    now: u64,
    source: Source,
}

impl Judge<'_> {
    /// A reply to players and senders, as each recipient may get it (see the module
    /// text); recipients who get it alike share one reply.
    fn to_players(
        &self,
        reply: Reply,
        note: &mut dyn FnMut(String),
    ) -> Result<Vec<Reply>, InternalError> {
        // The reader a reply token names (a board, chat or message mail's): its mail
        // carries another person's text and a token only to addresses it confirmed.
        let reader = match &reply.thread.token {
            Some(token) => self.store.account(token.scope.userid())?,
            None => None,
        };
        let mut lots: Vec<(Share, Vec<Address>)> = Vec::new();
        for a in &reply.to {
            let Some(share) = self.share(&reply, reader.as_ref(), a, note)? else {
                continue;
            };
            match lots.iter_mut().find(|(s, _)| *s == share) {
                Some((_, to)) => to.push(a.clone()),
                None => lots.push((share, vec![a.clone()])),
            }
        }
        Ok(lots
            .into_iter()
            .map(|(share, to)| self.shaped(&reply, share, to))
            .collect())
    }

    /// How `a` gets `reply` (whose token names `reader`, if any), or `None` when it
    /// does not (with a line to `note`).
    fn share(
        &self,
        reply: &Reply,
        reader: Option<&Account>,
        a: &Address,
        note: &mut dyn FnMut(String),
    ) -> Result<Option<Share>, InternalError> {
        let (store, settings) = (self.store, self.settings);
        // With confirmation off the operator trusts every address (`[security]
        // confirm_addresses`): nothing is a stranger's.
        let stranger = settings.confirm_addresses
            && self.source == Source::Mail
            && reply.cause == Cause::Unproven;
        // A confirmation belongs to an account and an address together: a reader's
        // mail needs the reader's own; any other, anyone's.
        let confirmed = !settings.confirm_addresses
            || match reader {
                Some(account) => account.is_confirmed(a),
                None => store.is_confirmed(a)?,
            };
        let servers_words_only = stranger || !confirmed;
        if servers_words_only && reply.foreign == Foreign::All {
            let why = if stranger {
                "the mail that caused it proved no sender"
            } else {
                "address not confirmed"
            };
            note(format!("not sent to {a} ({why}): {}", reply.subject));
            return Ok(None);
        }
        let mut last_of_budget = false;
        let counts = [
            (
                stranger,
                "strangers",
                settings.stranger_mails_per_day,
                "mails today caused by mail that proved no sender",
            ),
            (
                !stranger && self.source == Source::Mail && reply.foreign == Foreign::All,
                "messages",
                MESSAGES_PER_MAILBOX_PER_DAY,
                "chats and messages today",
            ),
            (
                !confirmed,
                "quota",
                settings.unconfirmed_mails_per_day,
                "mails today to an unconfirmed address",
            ),
        ];
        let mailbox = a.canonical();
        for (applies, folder, max, what) in counts {
            if !applies {
                continue;
            }
            let Some(last) = self.count(folder, &mailbox, max)? else {
                note(format!(
                    "not sent to {a}: over {max} {what}: {}",
                    reply.subject
                ));
                return Ok(None);
            };
            // The messages' count says nothing: it is no stranger's.
            last_of_budget |= last && folder != "messages";
        }
        // A reply token only to an address its own account confirmed (any of its
        // addresses when confirmation is off).
        let token = reader.is_some_and(|account| {
            account.addresses.iter().any(|x| x.same_mailbox(a)) && confirmed
        });
        Ok(Some(Share {
            servers_words_only,
            token,
            last_of_budget,
        }))
    }

    /// Counts one mail to `mailbox` in the daily counts of `folder`, at most `max`
    /// a day: `None` when the day's are spent (nothing counted), else whether this
    /// is the day's last.
    fn count(
        &self,
        folder: &'static str,
        mailbox: &str,
        max: u32,
    ) -> Result<Option<bool>, InternalError> {
        let sent = self.store.counted_today(folder, mailbox, self.now)?;
        if sent >= max {
            return Ok(None);
        }
        self.store.count_today(folder, mailbox, self.now)?;
        Ok(Some(sent + 1 == max))
    }

    /// `reply` as the recipients `to`, who share `share`, get it.
    fn shaped(&self, reply: &Reply, share: Share, to: Vec<Address>) -> Reply {
        let mut out = Reply {
            to,
            ..reply.clone()
        };
        if share.servers_words_only {
            if let Foreign::Part(without) = &reply.foreign {
                out.body = without.clone();
                out.html = None;
            }
            out.foreign = Foreign::Nothing;
        }
        if !share.token {
            out.thread.token = None;
            out.thread.play = None;
        }
        if share.last_of_budget {
            let until = (self.now / DAY + 1) * DAY;
            out.body.push_str(&notices::stranger_budget_spent(
                self.settings.stranger_mails_per_day,
                until,
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::server::model::{Password, UserId};

    fn address(text: &str) -> Address {
        text.parse().expect("an address")
    }

    /// A store in a temporary home, in a transaction, with alice's confirmed address,
    /// and the settings of that home with confirmation on and a quota of `quota`.
    fn home(quota: u32) -> (tempfile::TempDir, Store, Settings) {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("home")).expect("store");
        store.begin();
        let userid: UserId = "alice".parse().expect("userid");
        let password: Password = "a-long-password".parse().expect("password");
        let alice = Account::new(&userid, &password, vec![address("alice@example.org")], 0)
            .expect("account");
        store.reindex(None, Some(&alice)).expect("index");
        store.put_account(&alice).expect("put");
        let mut settings = Settings::defaults(store.home().to_path_buf());
        settings.confirm_addresses = true;
        settings.unconfirmed_mails_per_day = quota;
        settings.operator = Some(address("ops@example.org"));
        (dir, store, settings)
    }

    /// A reply of honest play (a proven request's).
    fn reply(to: &[&str], foreign: Foreign) -> Reply {
        Reply {
            to: to.iter().map(|a| address(a)).collect(),
            subject: "Yinsh Board 101".into(),
            body: "the board, and bob's comment\n".into(),
            foreign,
            cause: Cause::Proven,
            ..Reply::default()
        }
    }

    /// A reply to a mail that proved no sender.
    fn strangers(to: &[&str], foreign: Foreign) -> Reply {
        Reply {
            cause: Cause::Unproven,
            ..reply(to, foreign)
        }
    }

    const NOW: u64 = 1_795_384_020;

    fn passed(
        store: &Store,
        settings: &Settings,
        replies: Vec<Reply>,
    ) -> (Vec<Reply>, Vec<String>) {
        passed_from(store, settings, Source::Mail, replies)
    }

    fn passed_from(
        store: &Store,
        settings: &Settings,
        source: Source,
        replies: Vec<Reply>,
    ) -> (Vec<Reply>, Vec<String>) {
        let mut notes = Vec::new();
        let out = pass(store, settings, NOW, source, replies, &mut |l| {
            notes.push(l)
        })
        .expect("gate");
        (out, notes)
    }

    /// Issue 25 findings 2 and 4: however many spellings of one mailbox a stranger
    /// writes, the mails its unproven mail causes there stay within the daily budget;
    /// the last says until when; a confirmed player's mailbox is no exception.
    #[test]
    fn a_strangers_mail_reaches_one_mailbox_at_most_the_daily_budget() {
        let (_dir, store, settings) = home(100);
        let spellings = [
            "alice@example.org",
            "Alice@example.org",
            "ALICE@EXAMPLE.ORG",
            "alice+1@example.org",
            "alice+yinsh@Example.Org",
        ];
        let replies: Vec<Reply> = (0..14)
            .map(|k| strangers(&[spellings[k % spellings.len()]], Foreign::Nothing))
            .collect();
        let (out, notes) = passed(&store, &settings, replies);
        assert_eq!(out.len(), 10, "{notes:?}");
        assert_eq!(notes.len(), 4, "{notes:?}");
        assert!(
            notes.iter().all(|n| n.contains("over 10 mails today")),
            "{notes:?}"
        );
        assert!(
            out[9].body.contains("not sent until 2026-11-23 00:00 UTC"),
            "{}",
            out[9].body
        );
        assert!(!out[8].body.contains("not sent until"));
        // The next day the budget is whole again.
        let mut notes = Vec::new();
        let next = pass(
            &store,
            &settings,
            NOW + 86_400,
            Source::Mail,
            vec![strangers(&["alice@example.org"], Foreign::Nothing)],
            &mut |l| notes.push(l),
        )
        .expect("gate");
        assert_eq!(next.len(), 1, "{notes:?}");
    }

    /// Issue 25 finding 2: a stranger's text never goes out from the server's address,
    /// not even to a confirmed player; the server's own run and honest play are not
    /// budgeted.
    #[test]
    fn a_strangers_mail_carries_only_the_servers_words_and_honest_mail_is_not_counted() {
        let (_dir, store, settings) = home(100);
        let without = "the board\n".to_string();
        let (out, _) = passed(
            &store,
            &settings,
            vec![strangers(
                &["alice@example.org"],
                Foreign::Part(without.clone()),
            )],
        );
        assert_eq!(out[0].body, without);
        let (out, notes) = passed(
            &store,
            &settings,
            vec![strangers(&["alice@example.org"], Foreign::All)],
        );
        assert!(out.is_empty());
        assert!(notes[0].contains("proved no sender"), "{notes:?}");
        let many = |r: fn(&[&str], Foreign) -> Reply| -> Vec<Reply> {
            (0..30)
                .map(|_| r(&["alice@example.org"], Foreign::Nothing))
                .collect()
        };
        let (out, _) = passed(&store, &settings, many(reply));
        assert_eq!(out.len(), 30, "honest play is never budgeted");
        for source in [Source::Server, Source::Clock, Source::Owed(Cause::Unproven)] {
            let (out, _) = passed_from(&store, &settings, source, many(strangers));
            assert_eq!(out.len(), 30, "the server's own runs are not a stranger's");
        }
    }

    /// Issue 25 finding 3: a throwaway account naming alice's confirmed address gets
    /// its board mails there without another player's text or a token: alice's
    /// confirmation is hers, not the account's.
    #[test]
    fn a_readers_mail_needs_the_readers_own_confirmation() {
        use crate::server::outgoing::thread::Thread;
        use crate::server::store::ReplyScope;
        let (_dir, store, settings) = home(100);
        let mal1: UserId = "mal1".parse().expect("userid");
        let password: Password = "a-long-password".parse().expect("password");
        let victim = address("alice@example.org");
        let mut mal = Account::new(&mal1, &password, Vec::new(), 0).expect("account");
        mal.addresses.push(victim.clone());
        mal.add_pending(&victim, NOW).expect("pending");
        store.put_account(&mal).expect("put");
        let token = store.reply_key().expect("key").mint(ReplyScope::Chat {
            board: 101.into(),
            userid: mal1,
        });
        let without = "the board\n".to_string();
        let r = Reply {
            thread: Thread {
                game: None,
                token: Some(token),
                play: None,
            },
            ..reply(&["alice@example.org"], Foreign::Part(without.clone()))
        };
        let (out, _) = passed(&store, &settings, vec![r]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].body, without);
        assert_eq!(out[0].thread.token, None);
    }

    /// A confirmed account's chats and messages are honest play, but one mailbox gets
    /// at most 100 a day of them.
    #[test]
    fn a_mailbox_gets_at_most_a_hundred_chats_and_messages_a_day() {
        let (_dir, store, settings) = home(100);
        let replies = (0..105)
            .map(|_| reply(&["alice@example.org"], Foreign::All))
            .collect();
        let (out, notes) = passed(&store, &settings, replies);
        assert_eq!(out.len(), 100);
        assert_eq!(notes.len(), 5, "{notes:?}");
        assert!(notes[0].contains("over 100 chats and messages today"));
    }

    /// Issue 25 finding 1: a reply token goes only to an address its own account
    /// confirmed; another recipient gets the mail without it.
    #[test]
    fn a_reply_token_reaches_only_its_accounts_own_confirmed_address() {
        use crate::server::outgoing::thread::Thread;
        use crate::server::store::ReplyScope;
        let (_dir, store, settings) = home(100);
        let token = store.reply_key().expect("key").mint(ReplyScope::Chat {
            board: 101.into(),
            userid: "alice".parse().expect("userid"),
        });
        let r = Reply {
            thread: Thread {
                game: None,
                token: Some(token.clone()),
                play: None,
            },
            ..reply(
                &["alice@example.org", "mallory@evil.test"],
                Foreign::Nothing,
            )
        };
        let (out, _) = passed(&store, &settings, vec![r]);
        let to_alice = out
            .iter()
            .find(|o| o.to == [address("alice@example.org")])
            .expect("alice");
        assert_eq!(to_alice.thread.token, Some(token));
        let to_mallory = out
            .iter()
            .find(|o| o.to == [address("mallory@evil.test")])
            .expect("mallory");
        assert_eq!(to_mallory.thread.token, None);
    }

    #[test]
    fn a_confirmed_address_gets_the_whole_reply_and_an_unconfirmed_one_the_servers_words() {
        let (_dir, store, settings) = home(5);
        let without = "the board\n".to_string();
        let r = reply(
            &["alice@example.org", "stranger@example.org"],
            Foreign::Part(without.clone()),
        );
        let (out, notes) = passed(&store, &settings, vec![r.clone()]);
        assert_eq!(notes, Vec::<String>::new());
        let to = |r: &Reply| r.to.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        let stranger = out
            .iter()
            .find(|o| to(o) == ["stranger@example.org"])
            .expect("sent");
        assert_eq!(stranger.body, without);
        assert_eq!(stranger.foreign, Foreign::Nothing);
        let alice = out
            .iter()
            .find(|o| to(o) == ["alice@example.org"])
            .expect("sent");
        assert_eq!(alice.body, r.body);
    }

    #[test]
    fn another_persons_whole_text_never_reaches_an_unconfirmed_address() {
        let (_dir, store, settings) = home(5);
        let (out, notes) = passed(
            &store,
            &settings,
            vec![reply(&["stranger@example.org"], Foreign::All)],
        );
        assert!(out.is_empty(), "{out:?}");
        assert!(notes[0].contains("address not confirmed"), "{notes:?}");
    }

    #[test]
    fn an_unconfirmed_address_gets_at_most_its_daily_quota() {
        let (_dir, store, settings) = home(2);
        let replies = (0..4)
            .map(|_| reply(&["stranger@example.org"], Foreign::Nothing))
            .collect();
        let (out, notes) = passed(&store, &settings, replies);
        assert_eq!(out.len(), 2);
        assert_eq!(notes.len(), 2, "{notes:?}");
        assert!(notes.iter().all(|n| n.contains("over 2 mails today")));
    }

    #[test]
    fn an_operators_notice_goes_to_the_operator_alone() {
        let (_dir, store, settings) = home(5);
        let notice = Reply {
            audience: Audience::Operator,
            ..reply(&["ops@example.org", "alice@example.org"], Foreign::Nothing)
        };
        let (out, notes) = passed(&store, &settings, vec![notice]);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].to, [address("ops@example.org")]);
        assert!(notes[0].contains("not the operator"), "{notes:?}");
    }

    #[test]
    fn with_confirmation_off_the_players_replies_pass_as_they_are() {
        let (_dir, store, mut settings) = home(0);
        settings.confirm_addresses = false;
        let r = reply(&["stranger@example.org"], Foreign::All);
        let (out, _) = passed(&store, &settings, vec![r.clone()]);
        assert_eq!(out, [r]);
    }
}
