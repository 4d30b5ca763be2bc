//! Text in and text out: the pbmserv move notation (yinsh-rules.md §5) parsed with nom
//! and resolved against a `Game`, the canonical printer, and the ASCII board.
//! Depends on `rules` only.

pub mod render;
