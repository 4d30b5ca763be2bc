//! The `yinsh-pbem` command: parse the arguments, call the library, map to an exit code.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use yinsh_pbem::cli;

/// yinsh-pbem: a play-by-email server for YINSH.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where the server keeps its data and how it sends mail. Each option overrides the
/// config file; the config file overrides the embedded defaults.
#[derive(Args)]
struct ServerArgs {
    /// A TOML config file (default: <home>/config.toml when it exists).
    #[arg(long, env = "YINSH_PBEM_CONFIG")]
    config: Option<PathBuf>,
    /// The home folder: games, accounts, spool and outbox [default: games].
    #[arg(long, env = "YINSH_PBEM_HOME")]
    home: Option<PathBuf>,
    /// The From of every reply [default: "YINSH PBeM <yinsh@localhost>"].
    #[arg(long, env = "YINSH_PBEM_FROM")]
    from: Option<String>,
    /// Send replies by SMTP: smtp://host:25 (plain), smtp://host:587?tls=required (STARTTLS), smtps://host:465; user:pass@ for auth.
    #[arg(long, conflicts_with = "sendmail")]
    smtp: Option<String>,
    /// Send replies through a sendmail-compatible program.
    #[arg(long)]
    sendmail: Option<PathBuf>,
    /// Write replies as .eml files into this folder [default: <home>/outbox].
    #[arg(long, conflicts_with_all = ["smtp", "sendmail"])]
    outbox: Option<PathBuf>,
    /// Mails larger than this get a short error and are not handled [default: 1048576].
    #[arg(long, env = "YINSH_PBEM_MAX_MESSAGE_BYTES")]
    max_message_bytes: Option<usize>,
}

#[derive(Subcommand)]
enum Command {
    /// Handle ONE mail read from stdin (as an MTA pipe hands it over).
    Deliver {
        #[command(flatten)]
        server: ServerArgs,
        /// The envelope sender, when the mail system passes it.
        #[arg(long)]
        sender: Option<String>,
        /// Print what was done (replies and where they went) on stdout.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Send the replies waiting in the spool.
    Flush {
        #[command(flatten)]
        server: ServerArgs,
        /// Print what was done.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Send reminders and forfeit games whose player to move is too late (run from cron).
    Tick {
        #[command(flatten)]
        server: ServerArgs,
        /// Print what was done.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Report the settings that deliver, flush and tick would use, and what is wrong with them.
    CheckConfig {
        #[command(flatten)]
        server: ServerArgs,
    },
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
        file: Option<PathBuf>,
    },
}

impl ServerArgs {
    fn settings(self) -> cli::Overrides {
        cli::Overrides {
            config: self.config,
            home: self.home,
            from: self.from,
            smtp: self.smtp,
            sendmail: self.sendmail,
            outbox: self.outbox,
            max_message_bytes: self.max_message_bytes,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Deliver {
            server,
            sender,
            verbose,
        } => cli::deliver(server.settings(), sender.as_deref(), verbose),
        Command::Flush { server, verbose } => cli::flush(server.settings(), verbose),
        Command::Tick { server, verbose } => cli::tick(server.settings(), verbose),
        Command::CheckConfig { server } => cli::check_config(server.settings()),
        Command::Perft {
            blitz,
            divide,
            depth,
            actions,
        } => cli::perft(blitz, divide, depth, &actions),
        Command::Replay { blitz, json, file } => cli::replay(blitz, json, file.as_deref()),
    }
}
