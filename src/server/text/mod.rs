//! The text of the server's mails: board mails and error mails (`reply`), their
//! clock line (`clock`), the HTML
//! part of board mails (`html`), dates, the help texts, password masking (`redact`),
//! player comments cut to a bound (`cut`), every Subject and its reading back
//! (`subjects`), the short notices (`notices`), and what a new game's mail adds
//! (`new_game`).

pub mod clock;
pub mod cut;
pub mod dates;
pub mod help;
pub mod html;
pub mod last_move;
pub mod new_game;
pub mod notices;
pub mod reply;
pub mod subjects;
