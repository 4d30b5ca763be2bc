//! Every text a player or the operator reads, written from the facts the code that
//! decides gives it (`exec/` and `run/` decide; the test in `guard.rs` finds no
//! sentence there outside the files it lists). A refusal's text is its type's
//! `Display`, kept with the type in `exec::error` (house style: an error carries its
//! facts and says what to do).
//!
//! Board mails and error mails (`reply`), their clock line (`clock`), the lines that
//! say how a game stands or ended (`ending`), the HTML part of board mails (`html`),
//! dates, the help texts, player comments cut to a bound (`cut`), every Subject and
//! its reading back (`subjects`), the short notices (`notices`), what a new game's
//! mail adds (`new_game`), the link to play a move on the game's page (`play_link`), the position in
//! words (`position`),
//! the robot's review mail with the answers to a `review` request (`review`); the
//! texts of the account commands (`account`), of the listings (`listing`) and the
//! tables of results (`standings`), of moves queued, submitted or previewed (`play`),
//! of offers (`offers`), of a game declined or cancelled (`decline`), of a challenge's held message
//! (`held`), of chats,
//! messages, watching and vacations (`social`), of mail that did not arrive: bounces,
//! failing addresses, replies given up (`delivery`), of what follows from who a
//! mail was proved to be (`identity`: the old password's notice, the limits of games
//! started for others), the log lines of the runs that keep the store (`log`) and of
//! the robots' turns and reviews owed (`owed`); every text part's lines broken at 78
//! columns (`wrap`).

pub mod account;
pub mod clock;
pub mod cut;
pub mod dates;
pub mod decline;
pub mod delivery;
pub mod ending;
pub mod held;
pub mod help;
pub mod html;
pub mod identity;
pub mod last_move;
pub mod listing;
pub mod log;
pub mod new_game;
pub mod notices;
pub mod offers;
pub mod owed;
pub mod play;
pub mod play_link;
pub mod position;
pub mod reply;
pub mod review;
pub mod seeks;
pub mod social;
pub mod standings;
pub mod subjects;
pub mod tournament;
pub mod wrap;

#[cfg(test)]
mod guard;
