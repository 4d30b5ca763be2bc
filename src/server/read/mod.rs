//! The commands that read how the server is doing without changing it: they take no
//! lock and write nothing ([`status`]). They read typed figures the store and the
//! spool give (`Store::figures`, `Spool::summary`), never a file of the home by its
//! path.

pub mod status;
