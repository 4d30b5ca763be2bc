//! The `yinsh-pbem` command: parse the arguments, call the library, map to an exit code.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use yinsh_pbem::cli;

/// yinsh-pbem: a play-by-email server for YINSH.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Count the atomic-action sequences of length DEPTH after the given actions.
    Perft {
        /// Play the blitz variant (first ring removed wins).
        #[arg(long)]
        blitz: bool,
        /// Split the count by first action.
        #[arg(long)]
        divide: bool,
        /// How many plies deep to count.
        depth: u32,
        /// Atomic actions played from the empty board first: e5, e5-e8, xb2-b6, xe5, --.
        #[arg(allow_hyphen_values = true)]
        actions: Vec<String>,
    },
    /// Play a transcript of turns (FILE or stdin) and print the final board.
    Replay {
        /// Play the blitz variant.
        #[arg(long)]
        blitz: bool,
        /// Print one JSON object instead of the board.
        #[arg(long)]
        json: bool,
        /// The transcript; stdin when absent.
        file: Option<std::path::PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Perft {
            blitz,
            divide,
            depth,
            actions,
        } => cli::perft(blitz, divide, depth, &actions),
        Command::Replay { blitz, json, file } => cli::replay(blitz, json, file.as_deref()),
    }
}
