//! The command handlers in-process (`exec::execute` on a store in a temporary folder,
//! no process started), one file per command family: the replies (recipients,
//! subject, the lines that matter) and the store afterwards, and for each family's
//! typical mistakes an error mail and a home left byte for byte as it was. The
//! fixture is `support::exec`.

// signup/add, change password, change address, signoff/delete.
mod account;
// show, show at a move, show userid, showas, games, standings, history, help, list.
mod listing;
// propose, undo, accept, reject.
mod offer;
// challenge, move (removals, stale #moveno), resign, queue, submit/confirm, preview.
mod play;
// chat, subscribe/unsubscribe, message, broadcast, vacation.
mod social;
