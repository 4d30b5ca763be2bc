//! The gate's judgement of a reply to players and senders, recipient by recipient:
//! what a stranger's mail may cause (the daily budget per mailbox), what of another
//! person's text goes along, the chats and messages one mailbox gets a day, the
//! quota of an unconfirmed address, and which recipients get the reader's tokens
//! (the rules in `mod.rs`).

use crate::mail::Address;
use crate::server::config::Settings;
use crate::server::internal::InternalError;
use crate::server::outgoing::reply::{Cause, Foreign, Reply};
use crate::server::store::{Account, Store};
use crate::server::text::notices;

use super::verdict::{Held, HeldBack, Source};

/// Seconds in a day.
const DAY: u64 = 86_400;

/// Chats and messages (whole texts another person chose, [`Foreign::All`]) one
/// mailbox gets a day, however many players send them: a player proven by password
/// or token is never throttled, but one account may not bury another player in text.
/// Far above a lively game's chat; `<home>/messages/`.
pub const MESSAGES_PER_MAILBOX_PER_DAY: u32 = 100;

/// Which of a reply's words one recipient gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Words {
    /// All of them.
    All,
    /// The server's only: without the text another person chose (and without the
    /// HTML part).
    ServersOnly,
    /// Without another person's words sent on ([`Foreign::Words`]): the mailbox got
    /// its day's chats and messages.
    OverCap,
}

/// How one recipient gets a reply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Share {
    /// Which of its words.
    words: Words,
    /// With the reply token of its thread.
    token: bool,
    /// The last mail of the day a stranger may cause to this mailbox, or that an
    /// unconfirmed address may get: it says which, and until when.
    last_of: Option<Budget>,
}

/// A daily budget of one mailbox whose last mail says it is spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Budget {
    /// The mails a stranger's mail may cause to it (`stranger_mails_per_day`).
    Strangers,
    /// The mails an unconfirmed address gets (`unconfirmed_mails_per_day`).
    Unconfirmed,
}

/// What one daily count of a mailbox does once the day's are spent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WhenSpent {
    /// The reply is not sent; the day's last one says so when it names a budget.
    NotSent(Option<Budget>),
    /// The board mail goes, without the other person's words.
    WordsLeftOut,
}

/// What the gate needs to judge one reply to players.
pub(super) struct Judge<'a> {
    pub(super) store: &'a Store,
    pub(super) settings: &'a Settings,
    pub(super) now: u64,
    pub(super) source: Source,
}

impl Judge<'_> {
    /// A reply to players and senders, as each recipient may get it (see the module
    /// text); recipients who get it alike share one reply.
    pub(super) fn to_players(
        &self,
        reply: Reply,
        note: &mut dyn FnMut(HeldBack),
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
        note: &mut dyn FnMut(HeldBack),
    ) -> Result<Option<Share>, InternalError> {
        let (store, settings) = (self.store, self.settings);
        // With confirmation off the operator trusts every address (`[security]
        // confirm_addresses`): nothing is a stranger's. A reply to a mail is caused
        // as its own proof says; the mail of work owed (a robot's turn, a review) as
        // the mail that made it owed (`Source::Owed`): a stranger's counts alike.
        let caused_by = match self.source {
            Source::Mail => Some(reply.cause),
            Source::Owed(cause) => Some(cause),
            Source::Clock | Source::Server => None,
        };
        let stranger = settings.confirm_addresses && caused_by == Some(Cause::Stranger);
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
            note(HeldBack::new(
                Held::ForeignText,
                format!("not sent to {a} ({why}): {}", reply.described()),
            ));
            return Ok(None);
        }
        let mut last_of = None;
        let mut over_cap = false;
        // Every mail that carries one person's text to another counts among the
        // chats and messages its mailbox gets a day: past them a comment is left out
        // of its board mail, a chat or message is not sent.
        let carries_words = matches!(reply.foreign, Foreign::All | Foreign::Words { .. });
        let words_spent = if matches!(reply.foreign, Foreign::Words { .. }) {
            WhenSpent::WordsLeftOut
        } else {
            WhenSpent::NotSent(None)
        };
        let counts = [
            (
                stranger,
                "strangers",
                settings.stranger_mails_per_day,
                "mails today caused by mail that proved no sender",
                WhenSpent::NotSent(Some(Budget::Strangers)),
            ),
            (
                !servers_words_only && self.source == Source::Mail && carries_words,
                "messages",
                MESSAGES_PER_MAILBOX_PER_DAY,
                "chats and messages today",
                words_spent,
            ),
            (
                !confirmed,
                "quota",
                settings.unconfirmed_mails_per_day,
                "mails today to an unconfirmed address",
                WhenSpent::NotSent(Some(Budget::Unconfirmed)),
            ),
        ];
        let mailbox = a.canonical();
        for (applies, folder, max, what, when_spent) in counts {
            if !applies {
                continue;
            }
            let last = match (self.count(folder, &mailbox, max)?, when_spent) {
                (Some(last), _) => last,
                (None, WhenSpent::WordsLeftOut) => {
                    over_cap = true;
                    note(HeldBack::new(
                        Held::Budget,
                        format!(
                            "comment left out for {a}: over {max} {what}: {}",
                            reply.described()
                        ),
                    ));
                    continue;
                }
                (None, WhenSpent::NotSent(_)) => {
                    note(HeldBack::new(
                        Held::Budget,
                        format!("not sent to {a}: over {max} {what}: {}", reply.described()),
                    ));
                    return Ok(None);
                }
            };
            if let (true, WhenSpent::NotSent(Some(budget))) = (last, when_spent) {
                last_of = last_of.or(Some(budget));
            }
        }
        // A reply token only to an address its own account confirmed (any of its
        // addresses when confirmation is off).
        let token = reader.is_some_and(|account| {
            account.addresses.iter().any(|x| x.same_mailbox(a)) && confirmed
        });
        let words = if servers_words_only {
            Words::ServersOnly
        } else if over_cap {
            Words::OverCap
        } else {
            Words::All
        };
        Ok(Some(Share {
            words,
            token,
            last_of,
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
        let without = match (share.words, &reply.foreign) {
            (Words::All, _) => None,
            (
                Words::ServersOnly,
                Foreign::Part(without)
                | Foreign::Words {
                    unconfirmed: without,
                    ..
                },
            )
            | (
                Words::OverCap,
                Foreign::Words {
                    over_cap: without, ..
                },
            ) => Some(Some(without)),
            (Words::ServersOnly | Words::OverCap, _) => Some(None),
        };
        if let Some(without) = without {
            if let Some(body) = without {
                out.body = body.clone();
                out.html = None;
            }
            out.foreign = Foreign::Nothing;
        }
        if !share.token {
            out.thread.token = None;
            out.thread.play = None;
        }
        let until = (self.now / DAY + 1) * DAY;
        match share.last_of {
            Some(Budget::Strangers) => out.body.push_str(&notices::stranger_budget_spent(
                self.settings.stranger_mails_per_day,
                until,
            )),
            Some(Budget::Unconfirmed) => out.body.push_str(&notices::unconfirmed_budget_spent(
                self.settings.unconfirmed_mails_per_day,
                until,
            )),
            None => {}
        }
        out
    }
}
