//! The text of the server's mails: board mails and error mails (`reply`), their
//! clock line (`clock`), the lines that say how a game stands or ended (`ending`), the HTML
//! part of board mails (`html`), dates, the help texts, password masking (`redact`),
//! player comments cut to a bound (`cut`), every Subject and its reading back
//! (`subjects`), the short notices (`notices`), what a new game's mail adds
//! (`new_game`), the link to play a move on the game's page (`play_link`), the robot's review
//! mail with the answers to a `review` request (`review`), what is told of mail that
//! did not arrive: bounces, failing addresses, replies given up (`delivery`), and what
//! follows from who a mail was proved to be (`identity`: the old password's notice,
//! the limits of games started for others).

pub mod clock;
pub mod cut;
pub mod dates;
pub mod delivery;
pub mod ending;
pub mod help;
pub mod html;
pub mod identity;
pub mod last_move;
pub mod new_game;
pub mod notices;
pub mod play_link;
pub mod reply;
pub mod review;
pub mod subjects;
