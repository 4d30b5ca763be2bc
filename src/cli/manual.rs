//! The manual pages: clap_mangen's sections of each subcommand (NAME, SYNOPSIS,
//! DESCRIPTION, OPTIONS) with EXIT STATUS, and for the server's subcommands
//! CONFIGURATION, ENVIRONMENT and FILES; and `yinsh-pbem.toml(5)`, every key of the
//! config file, written from `server::config::keys`.

use clap_mangen::Man;
use roff::{Roff, bold, italic, roman};

use crate::server::config::keys::{KEYS, SECTIONS};

/// The subcommands that run the server on its home (the others are tools on files).
const SERVER: [&str; 8] = [
    "deliver",
    "flush",
    "tick",
    "status",
    "reindex",
    "check-config",
    "rotate-reply-key",
    "site",
];

/// The environment variables the server reads, with what they do.
const ENVIRONMENT: [(&str, &str); 9] = [
    ("YINSH_PBEM_CONFIG", "The config file, as --config."),
    ("YINSH_PBEM_HOME", "The home folder, as --home."),
    ("YINSH_PBEM_FROM", "The From of the replies, as --from."),
    (
        "YINSH_PBEM_MAX_MESSAGE_BYTES",
        "The size limit of a mail, as --max-message-bytes.",
    ),
    (
        "YINSH_PBEM_SMTP_PASSWORD_FILE",
        "The SMTP password file, as --smtp-password-file.",
    ),
    (
        "YINSH_PBEM_SMTP_CA_FILE",
        "A PEM file of CAs trusted for the SMTP relay, over [transport] ca_file (empty: none).",
    ),
    (
        "YINSH_PBEM_CONFIRM_ADDRESSES",
        "true or false, over [security] confirm_addresses.",
    ),
    (
        "YINSH_PBEM_ROBOT_THINK_MS",
        "robot5's think time a turn, over [robot] think_ms.",
    ),
    (
        "YINSH_PBEM_NOW",
        "The clock, unix seconds (for tests; unset in use).",
    ),
];

/// The FILES of a server page.
const FILES: [(&str, &str); 6] = [
    (
        "/etc/yinsh-pbem/config.toml",
        "The package's config file (its units and pipe lines name it with --config).",
    ),
    (
        "<home>/config.toml",
        "Read when no config file is named and it exists.",
    ),
    (
        "<home>",
        "Games, accounts, indexes and the spool; the package's is /var/lib/yinsh-pbem/games. Without --home, YINSH_PBEM_HOME or home in the config, games in the working folder.",
    ),
    (
        "<home>/log/yinsh-pbem.log",
        "What every run did and every failure (nothing goes to stderr in deliver).",
    ),
    (
        "<home>/spool/",
        "Replies waiting to be sent (flush sends them).",
    ),
    (
        "<home>/outbox/",
        "Replies written as .eml files by the outbox transport.",
    ),
];

fn section(roff: &mut Roff, title: &str) {
    roff.control("SH", [title]);
}

fn item(roff: &mut Roff, term: &str, text: &str) {
    roff.control("TP", []);
    roff.text([bold(term)]);
    roff.text([roman(text)]);
}

/// What the exit code of `name` means.
fn exit_status(name: &str) -> Vec<(&'static str, &'static str)> {
    match name {
        "yinsh-pbem" => vec![
            ("0", "Done."),
            (
                "1",
                "check-config found a problem, or a tool's input is wrong.",
            ),
            ("2", "The arguments are wrong (except for deliver)."),
            (
                "75",
                "EX_TEMPFAIL: an internal failure (disk, mail, configuration) of a server subcommand; for deliver also wrong arguments, so that the mail system keeps the mail and retries.",
            ),
        ],
        "deliver" => vec![
            (
                "0",
                "The mail was handled, a player's mistake included (it is answered by mail).",
            ),
            (
                "75",
                "EX_TEMPFAIL: an internal failure, an unusable configuration, or wrong arguments; the mail system keeps the mail and retries. Nothing else is returned.",
            ),
        ],
        "check-config" => vec![
            ("0", "No problem found."),
            ("1", "At least one problem (each printed)."),
            ("2", "The arguments are wrong."),
        ],
        n if SERVER.contains(&n) => vec![
            ("0", "Done."),
            ("2", "The arguments are wrong."),
            (
                "75",
                "EX_TEMPFAIL: an internal failure or an unusable configuration (said in the log or on stderr); a timer runs it again.",
            ),
        ],
        _ => vec![
            ("0", "Done."),
            ("1", "The input cannot be read or played (said on stderr)."),
            ("2", "The arguments are wrong."),
        ],
    }
}

/// The sections after OPTIONS of the page of `name` (`yinsh-pbem` for the top).
fn extra_sections(name: &str) -> Roff {
    let mut roff = Roff::new();
    let server = name == "yinsh-pbem" || SERVER.contains(&name);
    section(&mut roff, "EXIT STATUS");
    for (code, text) in exit_status(name) {
        item(&mut roff, code, text);
    }
    if server {
        section(&mut roff, "CONFIGURATION");
        roff.text([
            roman("Settings come from the config file (every key in "),
            bold("yinsh-pbem.toml"),
            roman("(5)), overridden by the environment, overridden by the command line. "),
            bold("yinsh-pbem check-config"),
            roman(" prints what will be used and what is wrong with it."),
        ]);
        section(&mut roff, "ENVIRONMENT");
        for (var, text) in ENVIRONMENT {
            item(&mut roff, var, text);
        }
        section(&mut roff, "FILES");
        for (file, text) in FILES {
            item(&mut roff, file, text);
        }
    }
    section(&mut roff, "SEE ALSO");
    let mut see = vec![bold("yinsh-pbem.toml"), roman("(5)")];
    if name != "yinsh-pbem" {
        see.extend([roman(", "), bold("yinsh-pbem"), roman("(1)")]);
    }
    see.push(roman(", /usr/share/doc/yinsh-pbem/operations.md"));
    roff.text(see);
    roff
}

/// What the roff crate writes before every piece (apostrophes typeset straight).
const PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";

/// The whole page of `cmd` (its name, `yinsh-pbem`, or the subcommand's).
pub fn page(cmd: clap::Command, name: &str) -> std::io::Result<Vec<u8>> {
    let has_arguments = cmd.get_arguments().any(|a| !a.is_hide_set());
    let has_subcommands = cmd.get_subcommands().any(|s| !s.is_hide_set());
    let has_version = cmd.get_version().or(cmd.get_long_version()).is_some();
    let man = Man::new(cmd);
    type Render = fn(&Man, &mut dyn std::io::Write) -> std::io::Result<()>;
    let mut pieces: Vec<Render> = vec![
        Man::render_title,
        Man::render_name_section,
        Man::render_synopsis_section,
        Man::render_description_section,
    ];
    if has_arguments {
        pieces.push(Man::render_options_section);
    }
    if has_subcommands {
        pieces.push(Man::render_subcommands_section);
    }
    let mut out = Vec::new();
    for render in pieces {
        render(&man, &mut out)?;
    }
    extra_sections(name).to_writer(&mut out)?;
    if has_version {
        man.render_version_section(&mut out)?;
    }
    // One preamble, at the top.
    let text = String::from_utf8_lossy(&out).replace(PREAMBLE, "");
    Ok(format!("{PREAMBLE}{text}").into_bytes())
}

/// `yinsh-pbem.toml(5)`: the config file, every key of `server::config::keys`.
pub fn config_page(version: &str) -> Vec<u8> {
    let mut roff = Roff::new();
    roff.control("TH", ["yinsh-pbem.toml", "5", "", version, "File Formats"]);
    section(&mut roff, "NAME");
    roff.text([roman("yinsh-pbem.toml - the config file of yinsh-pbem")]);
    section(&mut roff, "SYNOPSIS");
    roff.text([
        roman("/etc/yinsh-pbem/config.toml (the package), the file named by "),
        bold("--config"),
        roman(" or YINSH_PBEM_CONFIG, else "),
        italic("<home>"),
        roman("/config.toml when it exists."),
    ]);
    section(&mut roff, "DESCRIPTION");
    roff.text([roman(
        "A TOML file. Every key is optional; an unknown key or table is refused. The \
         environment and the command line override it (see yinsh-pbem(1)); \
         yinsh-pbem check-config shows what is used. A file holding a password (url, \
         the password file) should be readable by the server's user alone: the \
         package's is root:yinsh-pbem, mode 0640. The DKIM key is the server's user's, \
         mode 0600 (check-config names one its group or others may read).",
    )]);
    for (table, about) in SECTIONS {
        let title = if table.is_empty() {
            "TOP LEVEL".to_string()
        } else {
            format!("[{table}]")
        };
        section(&mut roff, &title);
        roff.text([roman(*about)]);
        for k in KEYS.iter().filter(|k| k.section == *table) {
            roff.control("TP", []);
            roff.text([bold(k.name), roman(" = "), roman(k.example)]);
            roff.text([roman(format!("{} Default: {}.", k.doc, k.default))]);
        }
    }
    section(&mut roff, "SEE ALSO");
    roff.text([
        bold("yinsh-pbem"),
        roman("(1), "),
        bold("yinsh-pbem-check-config"),
        roman("(1), /usr/share/doc/yinsh-pbem/operations.md"),
    ]);
    roff.render().into_bytes()
}
