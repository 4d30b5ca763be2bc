//! The text of the server's mails: board mails and error mails (`reply`), dates,
//! the help texts, and password masking (`redact`).

pub mod dates;
pub mod help;
pub mod redact;
pub mod reply;
