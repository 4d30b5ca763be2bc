//! The `yinsh-pbem` command: parse the arguments, call the library, map to an exit code.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, CommandFactory, Parser, Subcommand};
use yinsh_pbem::ai::PlayerSpec;
use yinsh_pbem::cli;

/// yinsh-pbem: a play-by-email server for YINSH.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// Where the server keeps its data. Each option overrides the config file; the config
/// file overrides the embedded defaults.
#[derive(Args)]
struct HomeArgs {
    /// A TOML config file, see yinsh-pbem.toml(5) (default: <home>/config.toml when it exists).
    #[arg(long, env = "YINSH_PBEM_CONFIG")]
    config: Option<PathBuf>,
    /// The home folder: games, accounts, spool and outbox [default: the config's home, else games in the working directory].
    #[arg(long, env = "YINSH_PBEM_HOME")]
    home: Option<PathBuf>,
}

/// The server's address (From of its mails, address on its pages).
#[derive(Args)]
struct FromArgs {
    /// The From of every reply [default: "YINSH PBeM <yinsh@localhost>"].
    #[arg(long, env = "YINSH_PBEM_FROM")]
    from: Option<String>,
}

/// How replies leave: for the subcommands that send mail.
#[derive(Args)]
struct MailArgs {
    #[command(flatten)]
    from: FromArgs,
    /// Send replies by SMTP: smtp://host:25 (plain), smtp://host:587?tls=required (STARTTLS), smtps://host:465; user@ for a login, its password in --smtp-password-file (never in this URL: `ps` shows it).
    #[arg(long, conflicts_with = "sendmail", value_parser = cli::SmtpUrlArgument)]
    smtp: Option<String>,
    /// A file holding the SMTP password (its first line), for the user of the SMTP URL.
    #[arg(long, env = "YINSH_PBEM_SMTP_PASSWORD_FILE")]
    smtp_password_file: Option<PathBuf>,
    /// Send replies through a sendmail-compatible program.
    #[arg(long)]
    sendmail: Option<PathBuf>,
    /// Write replies as .eml files into this folder [default: <home>/outbox].
    #[arg(long, conflicts_with_all = ["smtp", "sendmail"])]
    outbox: Option<PathBuf>,
}

/// The size limit of a mail handled.
#[derive(Args)]
struct SizeArgs {
    /// Mails larger than this get a short error and are not handled [default: 1048576].
    #[arg(long, env = "YINSH_PBEM_MAX_MESSAGE_BYTES")]
    max_message_bytes: Option<usize>,
}

#[derive(Subcommand)]
enum Command {
    /// Handle ONE mail read from stdin (as an MTA pipe hands it over).
    Deliver {
        #[command(flatten)]
        home: HomeArgs,
        #[command(flatten)]
        mail: MailArgs,
        #[command(flatten)]
        size: SizeArgs,
        /// The envelope sender, when the mail system passes it; write --sender=VALUE (a
        /// value may start with `-`).
        #[arg(long, allow_hyphen_values = true)]
        sender: Option<String>,
        /// Print what was done (replies and where they went) on stdout.
        #[arg(long, short)]
        verbose: bool,
        /// Print what the mail would be answered and would change; write nothing.
        #[arg(long)]
        dry_run: bool,
    },
    /// Send the replies waiting in the spool, then make the robot's reviews owed (two at most).
    Flush {
        #[command(flatten)]
        home: HomeArgs,
        #[command(flatten)]
        mail: MailArgs,
        /// Print what was done.
        #[arg(long, short)]
        verbose: bool,
    },
    /// How the server is doing: spool, last tick and flush, failing addresses,
    /// robots' time, games going on and due, store; for a person or for Prometheus.
    Status {
        #[command(flatten)]
        home: HomeArgs,
        /// Write the figures in the Prometheus text format (a node_exporter's
        /// textfile collector reads it): into FILE, written whole then renamed, or on
        /// standard output without FILE.
        #[arg(long, value_name = "FILE", num_args = 0..=1)]
        prometheus: Option<Option<PathBuf>>,
    },
    /// Send reminders and forfeit games whose player to move is too late (run from cron).
    Tick {
        #[command(flatten)]
        home: HomeArgs,
        #[command(flatten)]
        mail: MailArgs,
        /// Print what was done.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Build every index (history, ratings, each player's games, due games) again
    /// from the game files: after game files were edited or restored by hand.
    Reindex {
        #[command(flatten)]
        home: HomeArgs,
        /// Print what was done.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Write the whole store into the archive FILE (tar), under the store's lock: a
    /// consistent copy of accounts, games, reply key, seen marks, spool and outbox.
    Backup {
        #[command(flatten)]
        home: HomeArgs,
        /// The archive to write (mode 0600).
        file: PathBuf,
    },
    /// Unpack an archive `backup` wrote into the home, which must be missing or empty.
    Restore {
        #[command(flatten)]
        home: HomeArgs,
        /// The archive to read.
        file: PathBuf,
    },
    /// Report the settings that deliver, flush and tick would use, and what is wrong with them.
    CheckConfig {
        #[command(flatten)]
        home: HomeArgs,
        #[command(flatten)]
        mail: MailArgs,
        #[command(flatten)]
        size: SizeArgs,
        /// Also log in to the SMTP relay as a send would (connect, STARTTLS, AUTH, QUIT).
        #[arg(long)]
        test_smtp: bool,
    },
    /// Write the manual pages and shell completions into DIR (for packaging).
    #[command(hide = true)]
    GeneratePackageFiles {
        /// The folder; `man/` and `completions/` are made in it.
        dir: PathBuf,
    },
    /// Replace the key of the reply tokens: every mail sent so far can no longer be
    /// answered by pressing Reply (players reply to a newer mail, or use their password).
    RotateReplyKey {
        #[command(flatten)]
        home: HomeArgs,
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
    /// Print the turn the robot plays for the side to move after a transcript (FILE or stdin).
    ///
    /// Levels: 1 (30 playouts a turn), 2 (150), 3 (600), 4 (2500), 5 (the whole think time, 2 s).
    /// The robot's estimate goes to stderr.
    Think {
        /// Play the blitz variant.
        #[arg(long)]
        blitz: bool,
        /// The robot's level, 1 (weakest) to 5 (strongest) [default: 5].
        #[arg(long, conflicts_with_all = ["ms", "playouts"])]
        level: Option<u8>,
        /// Think this many milliseconds (the top level's search).
        #[arg(long, conflicts_with = "playouts")]
        ms: Option<u64>,
        /// Think this many playouts (the top level's search; reproducible with --seed).
        #[arg(long)]
        playouts: Option<u64>,
        /// The seed of the robot's generator.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also print to stderr what each decision's search did: iterations, the tree's
        /// nodes, memory and depth, the time in playouts, expansions and evaluations.
        #[arg(long)]
        stats: bool,
        /// The transcript; stdin when absent.
        file: Option<PathBuf>,
    },
    /// Print the robot's review of a transcript's game (FILE or stdin): White's win chance
    /// before and after every turn, and each side's turning points with the robot's
    /// preferred turn. The same for a budget on every machine.
    Review {
        /// Play the blitz variant.
        #[arg(long)]
        blitz: bool,
        /// The playouts spent on each position.
        #[arg(long, default_value_t = yinsh_pbem::ai::REVIEW_PLAYOUTS)]
        playouts: u64,
        /// Print one JSON object instead of the table.
        #[arg(long)]
        json: bool,
        /// Also write the win-chance chart to this file (PNG for *.png, else SVG).
        #[arg(long)]
        chart: Option<PathBuf>,
        /// The transcript; stdin when absent.
        file: Option<PathBuf>,
    },
    /// Play engine against engine, colours alternating, and print the result and the Elo difference.
    ///
    /// A player is: level1 .. level5 (the robot's levels); msN (the robot thinking N ms a turn);
    /// playoutsN (the robot, N playouts a turn); uct-msN, uct-playoutsN (plain UCT: random
    /// playouts, no heuristics); random; greedy (one ply by the evaluation).
    Match {
        /// Play the blitz variant.
        #[arg(long)]
        blitz: bool,
        /// How many games (A has White in the odd ones).
        #[arg(long)]
        games: u32,
        /// The number of the first game: `--first 101 --games 100` plays games 101 to
        /// 200 of the match, with the same seeds and colours as in one run of 200, so a
        /// long match can be played in parts and the parts added up.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
        first: u32,
        /// The seed the players' generators are drawn from.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The think time of level5, in milliseconds.
        #[arg(long, default_value_t = 2000)]
        think_ms: u64,
        /// The first player.
        a: PlayerSpec,
        /// The second player.
        b: PlayerSpec,
    },
    /// Read a Boardspace SGF game record (FILE or stdin) and print it as a transcript.
    Import {
        /// The SGF record; stdin when absent.
        file: Option<PathBuf>,
    },
    /// Play a transcript (FILE or stdin) and print it as a Boardspace SGF game record.
    Export {
        /// Play the blitz variant.
        #[arg(long)]
        blitz: bool,
        /// The transcript; stdin when absent.
        file: Option<PathBuf>,
    },
    /// Write the static web site of the games: index, one page per game with every
    /// position, standings, history, rules.
    Site {
        #[command(flatten)]
        home: HomeArgs,
        #[command(flatten)]
        from: FromArgs,
        /// The folder to write it into [default: the config's [site] out].
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Draw the final position of a transcript (as `replay` plays it), its last turn marked.
    Render {
        /// Write SVG text (the default).
        #[arg(long, conflicts_with = "png")]
        svg: bool,
        /// Write a PNG image.
        #[arg(long)]
        png: bool,
        /// Play the blitz variant.
        #[arg(long)]
        blitz: bool,
        /// Write the picture to this file instead of stdout.
        #[arg(long, short)]
        out: Option<PathBuf>,
        /// The transcript; stdin when absent.
        file: Option<PathBuf>,
    },
}

/// The overrides of the command line and environment, for `config::resolve`.
fn overrides(
    home: HomeArgs,
    mail: Option<MailArgs>,
    from: Option<FromArgs>,
    size: Option<SizeArgs>,
) -> cli::Overrides {
    let mut o = cli::Overrides {
        config: home.config,
        home: home.home,
        from: from.and_then(|f| f.from),
        max_message_bytes: size.and_then(|s| s.max_message_bytes),
        ..cli::Overrides::default()
    };
    if let Some(m) = mail {
        o.from = m.from.from;
        o.smtp = m.smtp;
        o.smtp_password_file = m.smtp_password_file;
        o.sendmail = m.sendmail;
        o.outbox = m.outbox;
    }
    o
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // A mail system treats any exit but 0 and 75 as a bounce to the player: a
        // usage error in `deliver`'s arguments keeps the mail queued instead.
        Err(e) if cli::is_deliver(std::env::args_os()) && e.use_stderr() => {
            return cli::deliver_usage_error(std::env::args_os(), &e.to_string());
        }
        Err(e) => e.exit(),
    };
    run(cli.command)
}

/// Runs one subcommand: one function of `cli` each.
fn run(command: Command) -> ExitCode {
    match command {
        Command::Deliver {
            home,
            mail,
            size,
            sender,
            dry_run: true,
            ..
        } => cli::deliver_dry_run(
            overrides(home, Some(mail), None, Some(size)),
            sender.as_deref(),
        ),
        Command::Deliver {
            home,
            mail,
            size,
            sender,
            verbose,
            dry_run: false,
        } => cli::deliver(
            overrides(home, Some(mail), None, Some(size)),
            sender.as_deref(),
            verbose,
        ),
        Command::Flush {
            home,
            mail,
            verbose,
        } => cli::flush(overrides(home, Some(mail), None, None), verbose),
        Command::Tick {
            home,
            mail,
            verbose,
        } => cli::tick(overrides(home, Some(mail), None, None), verbose),
        Command::Status { home, prometheus } => cli::status(
            overrides(home, None, None, None),
            match prometheus {
                None => cli::StatusOutput::Text,
                Some(None) => cli::StatusOutput::PrometheusStdout,
                Some(Some(file)) => cli::StatusOutput::PrometheusFile(file),
            },
        ),
        Command::Reindex { home, verbose } => {
            cli::reindex(overrides(home, None, None, None), verbose)
        }
        Command::Backup { home, file } => cli::backup(overrides(home, None, None, None), &file),
        Command::Restore { home, file } => cli::restore(overrides(home, None, None, None), &file),
        Command::CheckConfig {
            home,
            mail,
            size,
            test_smtp,
        } => cli::check_config(overrides(home, Some(mail), None, Some(size)), test_smtp),
        Command::GeneratePackageFiles { dir } => cli::generate_package_files(Cli::command(), &dir),
        Command::RotateReplyKey { home } => {
            cli::rotate_reply_key(overrides(home, None, None, None))
        }
        Command::Perft {
            blitz,
            divide,
            depth,
            actions,
        } => cli::perft(blitz, divide, depth, &actions),
        Command::Replay { blitz, json, file } => cli::replay(blitz, json, file.as_deref()),
        Command::Think {
            blitz,
            level,
            ms,
            playouts,
            seed,
            stats,
            file,
        } => cli::think(
            blitz,
            effort(level, ms, playouts),
            seed,
            stats,
            file.as_deref(),
        ),
        Command::Review {
            blitz,
            playouts,
            json,
            chart,
            file,
        } => {
            let format = if json {
                cli::ReviewFormat::Json
            } else {
                cli::ReviewFormat::Text
            };
            cli::review_game(blitz, playouts, format, chart.as_deref(), file.as_deref())
        }
        Command::Match {
            blitz,
            games,
            first,
            seed,
            think_ms,
            a,
            b,
        } => cli::play_match(cli::MatchArgs {
            blitz,
            games,
            first,
            a,
            b,
            seed,
            think_time: Duration::from_millis(think_ms),
        }),
        Command::Import { file } => cli::import(file.as_deref()),
        Command::Site { home, from, out } => {
            cli::site(overrides(home, None, Some(from), None), out.as_deref())
        }
        Command::Export { blitz, file } => cli::export(blitz, file.as_deref()),
        Command::Render {
            svg: _,
            png,
            blitz,
            out,
            file,
        } => {
            let format = if png {
                cli::PictureFormat::Png
            } else {
                cli::PictureFormat::Svg
            };
            cli::render(format, blitz, out.as_deref(), file.as_deref())
        }
    }
}

/// How long `think` thinks: `--ms` before `--playouts` before `--level` (5 when none
/// is given).
fn effort(level: Option<u8>, ms: Option<u64>, playouts: Option<u64>) -> cli::Effort {
    match (level, ms, playouts) {
        (_, Some(ms), _) => cli::Effort::Ms(ms),
        (_, _, Some(n)) => cli::Effort::Playouts(n),
        (level, _, _) => cli::Effort::Level(level.unwrap_or(5)),
    }
}
