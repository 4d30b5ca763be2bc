//! Reading the indexes for mails and `tick`: the games due now, a page of the history
//! (most recent first), a player's boards; and loading one game for a scan, where a
//! damaged game file is noted for the operator and skipped instead of failing the run.

use crate::server::game::record::LiveGame;
use crate::server::model::BoardId;
use crate::server::store::{DAY, Finished, HISTORY_PAGE, Store, StoreError};

/// The boards whose due time has come at `now`, ascending: tick's work, read from the
/// due files of the days up to today only.
pub fn due_boards(store: &Store, now: u64) -> Result<Vec<BoardId>, StoreError> {
    let mut boards = Vec::new();
    for day in store.due_days()? {
        if day > now / DAY {
            break;
        }
        boards.extend(
            store
                .due_on(day)?
                .into_iter()
                .filter(|e| e.at <= now)
                .map(|e| e.board),
        );
    }
    boards.sort_unstable();
    boards.dedup();
    Ok(boards)
}

/// The first game due after `now` and when (`None` when no game going on has a
/// deadline): from the due files of the days from today on, stopping at the first
/// day that holds one.
pub fn next_due(store: &Store, now: u64) -> Result<Option<(u64, BoardId)>, StoreError> {
    for day in store.due_days()? {
        if day < now / DAY {
            continue;
        }
        let next = store
            .due_on(day)?
            .into_iter()
            .filter(|e| e.at > now)
            .map(|e| (e.at, e.board))
            .min();
        if next.is_some() {
            return Ok(next);
        }
    }
    Ok(None)
}

/// One page of the history, most recent first: page 1 holds the `per_page` games that
/// ended last. Returns the games and the number of finished games in all. Reads only
/// the history files that page needs.
pub fn history_page(
    store: &Store,
    page: u64,
    per_page: u64,
) -> Result<(Vec<Finished>, u64), StoreError> {
    let total = store.index_state()?.map_or(0, |s| s.finished);
    let skip = page.saturating_sub(1).saturating_mul(per_page);
    if page == 0 || skip >= total {
        return Ok((Vec::new(), total));
    }
    // Positions (oldest first) end..start, newest first.
    let end = total - skip;
    let start = end.saturating_sub(per_page);
    let mut out = Vec::new();
    let mut file = end.saturating_sub(1) / HISTORY_PAGE;
    loop {
        let games = store.history_page(file)?;
        let base = file * HISTORY_PAGE;
        for (k, g) in games.into_iter().enumerate().rev() {
            let at = base + k as u64;
            if (start..end).contains(&at) {
                out.push(g);
            }
        }
        if file == 0 || base <= start {
            break;
        }
        file -= 1;
    }
    Ok((out, total))
}

/// Loads the game on `board` for a scan: `None` when there is none, or when its file
/// is damaged (it does not decode or does not replay): that is noted for the operator
/// ([`Store::note_skipped`]) and the scan goes on. A failure of the disk is an error.
pub fn load_scanned(store: &Store, board: BoardId) -> Result<Option<LiveGame>, StoreError> {
    let file = match store.game(board) {
        Ok(Some(file)) => file,
        Ok(None) => return Ok(None),
        Err(e @ (StoreError::Corrupt { .. } | StoreError::Mismatch { .. })) => {
            store.note_skipped(store.game_path(board), e.to_string());
            return Ok(None);
        }
        Err(StoreError::Io { source, .. }) if source.kind() == std::io::ErrorKind::InvalidData => {
            store.note_skipped(store.game_path(board), format!("not UTF-8 text: {source}"));
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    match LiveGame::load(file) {
        Ok(live) => Ok(Some(live)),
        Err(e) => {
            store.note_skipped(store.game_path(board), e.to_string());
            Ok(None)
        }
    }
}
