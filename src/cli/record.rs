//! `yinsh-pbem import` and `yinsh-pbem export`: game records in Boardspace's SGF to
//! transcripts and back (`notation::sgf`, `notation::write_transcript`,
//! `notation::read_transcript`).

use std::path::Path;
use std::process::ExitCode;

use super::transcript::{read, variant};
use crate::notation::sgf;
use crate::notation::{read_transcript, write_transcript};

/// `yinsh-pbem import [FILE]`: read a Boardspace SGF record (stdin when `file` is
/// `None`) and print it as a transcript. Exit 1, saying why, when it cannot be read.
pub fn import(file: Option<&Path>) -> ExitCode {
    let result = read(file).and_then(|text| sgf::read(&text).map_err(|e| e.to_string()));
    match result {
        Ok(record) => {
            out!("{}", write_transcript(&record));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

/// `yinsh-pbem export [--blitz] [FILE]`: play a transcript (stdin when `file` is
/// `None`) and print it as a Boardspace SGF record, the players, the date and a
/// resignation or an agreed draw taken from its comments (`# White: ann`,
/// `# Black resigned.`, `# Draw agreed.`: `notation::read_transcript`). Exit 1,
/// naming the turn, when it cannot be played.
pub fn export(blitz: bool, file: Option<&Path>) -> ExitCode {
    let result = read(file)
        .and_then(|text| read_transcript(variant(blitz), &text).map_err(|e| e.to_string()));
    match result {
        Ok(record) => {
            out!("{}", sgf::write(&record));
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}
