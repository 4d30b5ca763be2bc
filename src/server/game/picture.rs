//! The pictures of a stored game: the position after any number of its turns, with the
//! last of those turns marked (what board mails and the web pages show), and every
//! position in order (what a game page steps through). The move list is replayed
//! through the notation, as [`super::record`] does.

use crate::notation;
use crate::picture::{LastMove, Picture};
use crate::rules::Game;
use crate::server::store::GameFile;

use super::record::{LiveGame, ReplayError};

/// The picture of `live` after its first `upto` turns (all of them when `upto` is the
/// number of turns or more: then the recorded ending shows too), the turn that led
/// there marked.
pub fn picture_at(live: &LiveGame, upto: usize) -> Result<Picture, ReplayError> {
    let total = live.file().turns.len();
    let upto = upto.min(total);
    let mut shown = None;
    for (k, (game, last)) in positions(live.file()).enumerate() {
        if k == upto {
            shown = Some((game?, last));
            break;
        }
    }
    let (game, last) = match shown {
        Some((game, last)) if upto < total => (game, last),
        Some((_, last)) => (*live.game(), last),
        None => (*live.game(), LastMove::default()),
    };
    Ok(Picture::new(&game).last_move(&last))
}

/// Every position of `file` in order: the start, then the position after each turn
/// with that turn's marks (the recorded ending not applied). Stops after the first
/// turn that does not replay, which comes as an error.
pub fn positions(file: &GameFile) -> impl Iterator<Item = (Result<Game, ReplayError>, LastMove)> {
    let mut game = Game::new(file.variant);
    let mut next = 0usize;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed || next > file.turns.len() {
            return None;
        }
        if next == 0 {
            next = 1;
            return Some((Ok(game), LastMove::default()));
        }
        let turn = &file.turns[next - 1];
        let before = game;
        let played = notation::play_turn(&mut game, &turn.text);
        let item = match played {
            Ok(actions) => {
                let last = LastMove::from_turn(&before, &actions).unwrap_or_default();
                (Ok(game), last)
            }
            Err(why) => {
                failed = true;
                (
                    Err(ReplayError::Turn {
                        board: file.board,
                        turn: next,
                        text: turn.text.clone(),
                        why,
                    }),
                    LastMove::default(),
                )
            }
        };
        next += 1;
        Some(item)
    })
}
