//! Mail in and out: the only place that touches mail-parser (inbound) and lettre
//! (outbound). [`address`] holds the one mail address type, [`Address`]; [`inbound`] reads a command mail (with
//! [`subject`] and [`comment`] for its Subject and body, [`reply_end`] for where a
//! reply's own text ends), [`outbound`] builds a reply,
//! [`spool`] keeps built replies durably on disk until [`transport::flush`] has
//! handed them to the outbox folder, an SMTP server or a sendmail program, signed by
//! [`dkim`] when the server has a key. Files are
//! written through [`crate::durable`]. [`hidden`] removes the characters a reader
//! cannot see from a mail's text, and escapes them in the log.

pub mod address;
pub mod alternative;
pub mod auth_results;
pub mod comment;
pub mod dkim;
pub mod dsn;
pub mod hidden;
mod html_text;
pub mod inbound;
pub mod outbound;
pub mod reply_end;
pub mod sendmail;
pub mod smtp;
pub mod spool;
pub mod subject;
pub mod transport;
pub mod verp;

pub use address::{Address, AddressProblem, InvalidAddress, bare_address, strip_angles};
pub use alternative::{HtmlBody, InlineImage};
pub use comment::{MAX_COMMENT_BYTES, comment_of, quote};
pub use dkim::{DkimError, DkimKey};
pub use inbound::{InboundError, InboundMail, parse_inbound};
pub use outbound::{BuiltMail, MailSettings, OutboundError, OutgoingMail, build, new_message_id};
pub use reply_end::comment_end;
pub use smtp::Smtp;
pub use spool::{Spool, SpoolEntry, SpoolError, SpoolSummary};
pub use subject::clean_subject;
pub use transport::{DeadLetter, FlushOptions, FlushReport, Transport, flush};
