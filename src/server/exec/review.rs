//! `yinsh review <board> [<userid> <password>]`, and `review` as the first line of a
//! reply to a board mail (issue 28): the robot's review of a finished game. A game
//! still going on is told so ("its review comes when it ends"); a game reviewed
//! already gets the review mail at once, to the asker (where `inbound::identity`
//! sends a request's answers: a proven account's own addresses, else the mail's
//! sender, budgeted by the gate); else the review is queued (`store::OwedReview`, made
//! by `run::owed::review` after the run's own work) and the answer says it comes by mail:
//! to the players, and to an account that asked (at most `store::MAX_REQUESTERS` of
//! them). A request proving nobody adds nobody: its sender gets the review once it is
//! made, by asking again. Queued reviews are made players' first, strangers' last
//! (`store::OwedBy`). A game no person moved in is never reviewed
//! (`game::review::worth_reviewing`): the asker is told so.

use crate::server::game::record::LiveGame;
use crate::server::game::review::worth_reviewing;
use crate::server::game::strangers;
use crate::server::model::BoardId;
use crate::server::outgoing::reply::{HtmlPart, Reply};
use crate::server::outgoing::thread::Thread;
use crate::server::store::{Account, Answerable, OwedBy, OwedReview, Store};
use crate::server::text::review::{self, Added, ReviewMail};
use crate::server::text::subjects;

use super::context::{Asked, sender_text_only, to_sender};
use super::error::{ExecError, Refusal};

/// The answer to a review request for `board` by `asker` (`None`: nobody proven).
pub fn review(
    store: &Store,
    req: &Asked<'_>,
    board: BoardId,
    asker: Option<&Account>,
) -> Result<Vec<Reply>, ExecError> {
    let Some(file) = store.game(board)? else {
        return Err(Refusal::BoardNotFound { board }.into());
    };
    let live = LiveGame::load(file)?;
    if !live.game().is_over() {
        let body = review::still_played(board);
        return Ok(vec![to_sender(req, &subjects::review_asked(board), body)]);
    }
    if let Some(made) = store.review(board)? {
        let mail = ReviewMail {
            live: &live,
            review: &made,
        };
        let text_only = match asker {
            Some(a) => a.text_only,
            None => sender_text_only(store, req)?,
        };
        return Ok(vec![Reply {
            html: (!text_only).then(|| HtmlPart::Review(mail.html())),
            thread: Thread::game(&live),
            ..to_sender(req, &subjects::review(board), mail.body())
        }]);
    }
    if !worth_reviewing(&live) {
        let body = review::unplayed(board);
        return Ok(vec![to_sender(req, &subjects::review_asked(board), body)]);
    }
    let by = match asker {
        Some(a) if live.side(&a.userid).is_some() => OwedBy::Player,
        Some(_) => OwedBy::Account,
        None => OwedBy::Stranger,
    };
    // Who is answerable for the review's mails: the asker when proven for an
    // account with a confirmed address, else a stranger.
    let cause = match asker {
        Some(a) if strangers::confirmed(a) => Answerable::Person(a.userid.clone()),
        _ => Answerable::Stranger,
    };
    let old = store.owed::<OwedReview>(board)?;
    let mut owed = match &old {
        Some(o) => o.clone().asked_by(by, cause),
        None => OwedReview::asked(board, req.now, by, cause),
    };
    let added = match asker {
        Some(_) if by == OwedBy::Player => Added::Asker,
        Some(a) if owed.add_requester(&a.userid) => Added::Asker,
        _ => Added::PlayersOnly,
    };
    if old.as_ref() != Some(&owed) {
        store.put_owed(&owed)?;
    }
    let body = review::queued(board, added);
    Ok(vec![to_sender(req, &subjects::review_asked(board), body)])
}
