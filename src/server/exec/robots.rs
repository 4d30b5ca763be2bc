//! The server's robots as accounts: `robot1` .. `robot5` exist on every server;
//! their accounts are made at their first challenge, with no address and no
//! password, so nobody can log in as one (`context::authenticate` refuses their
//! names) and their names cannot be signed up (`account::signup`). A challenge
//! between two robots, or one that would give a person more than
//! [`MAX_ROBOT_GAMES`] unfinished games against the robots, is refused. Their turns
//! are played after the mail's transaction (`run::opponent`); their answers to
//! offers are `game::robots`'.

use crate::server::game::record::LiveGame;
use crate::server::game::robots::MAX_ROBOT_GAMES;
use crate::server::model::UserId;
use crate::server::store::{Account, Store};

use super::error::{InternalError, InvalidChallenge};

/// The stored password hash of a robot: not a hash at all, so no password matches.
const NO_PASSWORD: &str = "(robot: no password)";

/// The account of `userid`, made now if it is a robot's that does not exist yet.
pub(super) fn account_or_robot(
    store: &Store,
    userid: &UserId,
    now: u64,
) -> Result<Option<Account>, InternalError> {
    if let Some(a) = store.account(userid)? {
        return Ok(Some(a));
    }
    if userid.robot_level().is_none() {
        return Ok(None);
    }
    let account = Account {
        // Written in lower case, as the help lists it, however the challenge wrote it.
        userid: userid.key().parse().unwrap_or_else(|_| userid.clone()),
        password_hash: NO_PASSWORD.to_string(),
        addresses: Vec::new(),
        created: now,
        games: Vec::new(),
        unconfirmed: Vec::new(),
        text_only: true,
        old_password_told: None,
        prefs: Default::default(),
    };
    store.put_account(&account)?;
    Ok(Some(account))
}

/// Why a challenge between `white` and `black` (accounts that exist) may not start
/// because of the robots, if it may not.
pub(super) fn refused_challenge(
    store: &Store,
    white: &Account,
    black: &Account,
) -> Result<Option<InvalidChallenge>, InternalError> {
    let (w, b) = (&white.userid, &black.userid);
    match (w.robot_level(), b.robot_level()) {
        (None, None) => return Ok(None),
        (Some(_), Some(_)) => return Ok(Some(InvalidChallenge::RobotsOnly)),
        _ => {}
    }
    for person in [white, black] {
        if person.userid.robot_level().is_some() {
            continue;
        }
        let mut going = 0;
        for &board in &person.games {
            let Some(file) = store.game(board)? else {
                continue;
            };
            let against_robot = [&file.white, &file.black]
                .iter()
                .any(|u| u.robot_level().is_some());
            if against_robot && file.ended.is_none() && !LiveGame::load(file)?.game().is_over() {
                going += 1;
            }
        }
        if going >= MAX_ROBOT_GAMES {
            return Ok(Some(InvalidChallenge::TooManyRobotGames {
                userid: person.userid.to_string(),
                max: MAX_ROBOT_GAMES,
            }));
        }
    }
    Ok(None)
}
