//! yinsh-pbem: a play-by-email server for the board game YINSH.
//!
//! Three layers, each depending only on the ones before it:
//! [`rules`] (the pure game engine), [`notation`] (text in and out: the pbmserv move
//! notation, the ASCII board, transcripts and SGF records), and the mail server
//! ([`mail`] and [`server`]). [`picture`] (the board as SVG and PNG) sits beside
//! [`notation`]: it depends on [`rules`] only.
//! [`ai`], the computer opponent, uses only `rules` and `notation`.
//! [`durable`] writes files atomically and makes them durable in batches (and holds
//! the crash tests' fault injection): the mail spool and the server's store use it. [`cli`] holds the terminal
//! commands behind the thin `main.rs`.

pub mod ai;
pub mod cli;
pub mod durable;
pub mod mail;
pub mod notation;
pub mod picture;
pub mod rules;
pub mod server;
