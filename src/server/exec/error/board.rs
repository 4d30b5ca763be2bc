//! Which board a refusal's error mail shows below its text (its subject is then
//! `Yinsh Board N Error`), and at which turn.

use super::refusal::Refusal;
use crate::server::model::BoardId;

impl Refusal {
    /// How many turns of the board the error mail shows, when not all: a preview's
    /// position (`yinsh preview 101#25 ...` shows the board at #25).
    pub fn shown_turns(&self) -> Option<usize> {
        match self {
            Refusal::PreviewStopped { from, .. } => usize::try_from(*from).ok(),
            _ => None,
        }
    }

    /// The board whose drawing the error mail shows (its subject is then `Yinsh Board
    /// N Error`), if the refusal concerns an existing board.
    pub fn board(&self) -> Option<BoardId> {
        use Refusal::*;
        match self {
            NotPlaying { board }
            | GameEnded { board }
            | OfferWaiting { board, .. }
            | NothingToTakeBack { board }
            | NoOfferToAnswer { board, .. }
            | NoMoveLeftToTakeBack { board }
            | NotYourMove { board, .. }
            | SubmitNotYourMove { board, .. }
            | StaleMoveNumber { board, .. }
            | SubmitMoveNumber { board, .. }
            | IllegalMove { board, .. }
            | CannotQueue { board, .. }
            | QueueMoveNumber { board, .. }
            | NothingSubmitted { board, .. }
            | PreviewTooFar { board, .. }
            | PreviewStopped { board, .. }
            | ShowAsTooFar { board, .. }
            | ShowTooFar { board, .. }
            | NotPlayingNorWatching { board }
            | EmptyChat { board }
            | TooManyWatchers { board, .. }
            | SubscribeOwnGame { board }
            | EmptyReply { board }
            | OldBoardMail { board, .. }
            | FirstLineNotAMove { board, .. }
            | OfferAnsweredInWords { board, .. }
            | WatcherUnconfirmed { board }
            | DeclineAfterMove { board, .. } => Some(*board),
            UnknownUserid
            | WrongPassword
            | BoardNotFound { .. }
            | BoardNotFoundFor { .. }
            | UnknownUseridOn { .. }
            | WrongPasswordOn { .. }
            | NestedMultiple
            | NoAddress
            | UseridTaken { .. }
            | AddressCrowded { .. }
            | AddressBusy { .. }
            | LocalAddress { .. }
            | CodesPaused { .. }
            | RoleUserid { .. }
            | LookAlikeUserid { .. }
            | WrongCode
            | SenderNotVerified(_)
            | StillPlaying { .. }
            | NoSuchPlayer { .. }
            | EmptyMessage
            | NoSuchRecipient { .. }
            | NotAdmin
            | LoginsPaused { .. }
            | ReservedUserid { .. }
            | RobotAccount { .. }
            | RobotName { .. }
            | UseridRetired { .. }
            | UseridLikeWebAddress { .. }
            | PasswordCouldShow
            | EmptyBroadcast
            | VacationTooLong { .. }
            | ReplyNotYours { .. }
            | Tournament(_) => None,
            PlayLink(refusal) => refusal.board(),
        }
    }
}
