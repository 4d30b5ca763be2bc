//! The one table of commands: each command word (or pair of words: `yinsh move`,
//! `change password`, `all show`), lower case, with its syntax line and its parser,
//! aliases included (`add`, `delete`, `yinsh ratings`, `change addresses`); the
//! syntax lines themselves ([`usage`]); and [`parse_exact`], which looks a Subject
//! line up in the table. Command words are case-insensitive.

use super::bounds::bounded;
use super::error::{CommandError, Problem};
use super::parsers::{self, Parsed};
use super::seek;
use super::tournament;
use super::types::Command;
use super::words::word;

/// Syntax lines, as the errors show them.
pub mod usage {
    /// `help`
    pub const HELP: &str = "help [<subject> ...]";
    /// `signup`
    pub const SIGNUP: &str = "signup <userid> <password> [<e-mail address> ...]";
    /// `add`
    pub const ADD: &str = "add <userid> <password> [<e-mail address> ...]";
    /// `change password`
    pub const CHANGE_PASSWORD: &str = "change password <userid> <current-password> <new-password>";
    /// `change address`
    pub const CHANGE_ADDRESS: &str = "change address <userid> <password> [<e-mail address> ...]";
    /// `change`
    pub const CHANGE: &str = "change password ... | change address ...";
    /// `signoff`
    pub const SIGNOFF: &str = "signoff <userid> <password>";
    /// `delete`
    pub const DELETE: &str = "delete <userid> <password>";
    /// `list`
    pub const LIST: &str = "list [<game-type> ...]";
    /// `multiple`
    pub const MULTIPLE: &str = "multiple";
    /// `yinsh challenge`
    pub const CHALLENGE: &str = "yinsh challenge [-blitz] <userid1> <userid2>";
    /// `yinsh move`
    pub const MOVE: &str = "yinsh move <board> <userid> <password> <move>";
    /// `yinsh resign`
    pub const RESIGN: &str = "yinsh resign <board> <userid> <password>";
    /// `yinsh review`
    pub const REVIEW: &str = "yinsh review <board> [<userid> <password>]";
    /// `yinsh show`
    pub const SHOW: &str = "yinsh show <board>[#<moveno>] ...";
    /// `yinsh settings`
    pub const SETTINGS: &str = "yinsh settings <userid> <password> [text-only | html | subject stable|moving | own-turn skip|send]";
    /// `yinsh games`
    pub const GAMES: &str =
        "yinsh games [<userid> ...] [all | active | inactive | next] [page <n>]";
    /// `yinsh help`
    pub const YINSH_HELP: &str = "yinsh help";
    /// `yinsh standings`
    pub const STANDINGS: &str = "yinsh standings [page <n>]";
    /// `yinsh ratings`
    pub const RATINGS: &str = "yinsh ratings";
    /// `yinsh history`
    pub const HISTORY: &str = "yinsh history [<userid>] [page <n>]";
    /// `yinsh queue`
    pub const QUEUE: &str = "yinsh queue <board> <userid> <password> <move>[#<moveno>]";
    /// `yinsh submit`
    pub const SUBMIT: &str = "yinsh submit <board> <userid> <password> <move>[#<moveno>]";
    /// `yinsh confirm`
    pub const CONFIRM: &str = "yinsh confirm <board> <userid> <password>";
    /// `yinsh decline`
    pub const DECLINE: &str = "yinsh decline <board> <userid> <password>";
    /// `yinsh preview`
    pub const PREVIEW: &str = "yinsh preview <board>[#<moveno>] <move> ...";
    /// `yinsh chat`
    pub const CHAT: &str = "yinsh chat <board> <userid> <password>";
    /// `yinsh subscribe`
    pub const SUBSCRIBE: &str = "yinsh subscribe <board> <userid> <password>";
    /// `yinsh unsubscribe`
    pub const UNSUBSCRIBE: &str = "yinsh unsubscribe <board> <userid> <password>";
    /// `yinsh showas`
    pub const SHOWAS: &str =
        "yinsh showas <userid> <password> [<board> ... | all | active | inactive | next]";
    /// `message`
    pub const MESSAGE: &str = "message <userid> <password> <to-userid> ...";
    /// `broadcast`
    pub const BROADCAST: &str = "broadcast <userid> <password>";
    /// `vacation`
    pub const VACATION: &str = "vacation <userid> <password> <days>";
    /// `verify` (the token is hidden like a password)
    pub const VERIFY: &str = "verify <userid> <token>";
    /// `yinsh seek`
    pub const SEEK: &str = "yinsh seek <userid> <password> [-blitz] [-unrated] [-rating=<min>-<max>] [-robot=<n>] [-white|-black]";
    /// `yinsh seeks`
    pub const SEEKS: &str = "yinsh seeks";
    /// `yinsh take`
    pub const TAKE: &str = "yinsh take <seekno> <userid> <password>";
    /// `yinsh withdraw`
    pub const WITHDRAW: &str = "yinsh withdraw <seekno> <userid> <password>";
    /// `yinsh unseek`
    pub const UNSEEK: &str = "yinsh unseek <seekno> <userid> <password>";
    /// `all show`
    pub const ALL_SHOW: &str = "all show <userid> [next | active]";
    /// `tournament create` (also after `yinsh`)
    pub const TOURNAMENT_CREATE: &str =
        "yinsh tournament create <name> <userid> <password> [roundrobin | swiss] [<option> ...]";
    /// `tournament join`
    pub const TOURNAMENT_JOIN: &str = "yinsh tournament join <name> <userid> <password>";
    /// `tournament leave`
    pub const TOURNAMENT_LEAVE: &str = "yinsh tournament leave <name> <userid> <password>";
    /// `tournament start`
    pub const TOURNAMENT_START: &str = "yinsh tournament start <name> <userid> <password>";
    /// `tournament show`
    pub const TOURNAMENT_SHOW: &str = "yinsh tournament show <name>";
    /// `yinsh tournaments`
    pub const TOURNAMENTS: &str = "yinsh tournaments";
}

/// One command of the table.
struct Entry {
    /// Its word, or first and second word, lower case.
    words: &'static str,
    /// Its syntax line, for the errors.
    usage: &'static str,
    /// Reads the words after `words`.
    parse: Parser,
}

/// A command's parser: the words after the command word(s), and the command's syntax
/// line for its errors.
type Parser = fn(&str, &'static str) -> Parsed;

const fn entry(words: &'static str, usage: &'static str, parse: Parser) -> Entry {
    Entry {
        words,
        usage,
        parse,
    }
}

/// Every command: word(s) -> syntax line and parser.
#[rustfmt::skip]
const COMMANDS: &[Entry] = &[
    entry("help",              usage::HELP,            parsers::help),
    entry("signup",            usage::SIGNUP,          parsers::signup),
    entry("add",               usage::ADD,             parsers::signup),
    entry("change password",   usage::CHANGE_PASSWORD, parsers::change_password),
    entry("change address",    usage::CHANGE_ADDRESS,  parsers::change_address),
    entry("change addresses",  usage::CHANGE_ADDRESS,  parsers::change_address),
    entry("signoff",           usage::SIGNOFF,         parsers::signoff),
    entry("delete",            usage::DELETE,          parsers::signoff),
    entry("list",              usage::LIST,            parsers::list),
    entry("multiple",          usage::MULTIPLE,        parsers::multiple),
    entry("message",           usage::MESSAGE,         parsers::message),
    entry("broadcast",         usage::BROADCAST,       parsers::broadcast),
    entry("vacation",          usage::VACATION,        parsers::vacation),
    entry("verify",            usage::VERIFY,          parsers::verify),
    entry("all show",          usage::ALL_SHOW,        parsers::all_show),
    entry("yinsh help",        usage::YINSH_HELP,      parsers::yinsh_help),
    entry("yinsh challenge",   usage::CHALLENGE,       parsers::challenge),
    entry("yinsh move",        usage::MOVE,            parsers::play),
    entry("yinsh resign",      usage::RESIGN,          parsers::resign),
    entry("yinsh queue",       usage::QUEUE,           parsers::queue),
    entry("yinsh submit",      usage::SUBMIT,          parsers::submit),
    entry("yinsh confirm",     usage::CONFIRM,         parsers::confirm),
    entry("yinsh decline",     usage::DECLINE,         parsers::decline),
    entry("yinsh chat",        usage::CHAT,            parsers::chat),
    entry("yinsh subscribe",   usage::SUBSCRIBE,       parsers::subscribe),
    entry("yinsh unsubscribe", usage::UNSUBSCRIBE,     parsers::unsubscribe),
    entry("yinsh preview",     usage::PREVIEW,         parsers::preview),
    entry("yinsh review",      usage::REVIEW,          parsers::review),
    entry("yinsh show",        usage::SHOW,            parsers::show),
    entry("yinsh showas",      usage::SHOWAS,          parsers::show_as),
    entry("yinsh games",       usage::GAMES,           parsers::games),
    entry("yinsh settings",    usage::SETTINGS,        parsers::settings),
    entry("yinsh standings",   usage::STANDINGS,       parsers::standings),
    entry("yinsh ratings",     usage::RATINGS,         parsers::standings),
    entry("yinsh history",     usage::HISTORY,         parsers::history),
    entry("yinsh seek",        usage::SEEK,            seek::seek),
    entry("yinsh seeks",       usage::SEEKS,           seek::seeks),
    entry("yinsh take",        usage::TAKE,            seek::take),
    entry("yinsh withdraw",    usage::WITHDRAW,        seek::withdraw),
    entry("yinsh unseek",      usage::UNSEEK,          seek::withdraw),
    entry("yinsh tournaments", usage::TOURNAMENTS,     tournament::list),
    entry("tournament create", usage::TOURNAMENT_CREATE, tournament::create),
    entry("tournament join",   usage::TOURNAMENT_JOIN,   tournament::join),
    entry("tournament leave",  usage::TOURNAMENT_LEAVE,  tournament::leave),
    entry("tournament start",  usage::TOURNAMENT_START,  tournament::start),
    entry("tournament show",   usage::TOURNAMENT_SHOW,   tournament::show),
];

/// The words `yinsh tournament` start a tournament command with: read as the family
/// word `tournament` (so `yinsh tournament join ...` is `tournament join ...`).
const YINSH_TOURNAMENT: &str = "tournament";

/// The rest of `line` after `yinsh` when its next word is `tournament`.
fn after_yinsh_tournament(line: &str) -> Option<&str> {
    let (after, first) = word(line).ok()?;
    let (_, second) = word(after).ok()?;
    (first.eq_ignore_ascii_case("yinsh") && second.eq_ignore_ascii_case(YINSH_TOURNAMENT))
        .then_some(after)
}

/// What to say when the second word of a two-word command is missing (`None`) or not
/// in the table (as written); also given the words after the first.
type Unknown = fn(Option<&str>, &str) -> CommandError;

/// The first words of two-word commands, and their [`Unknown`].
const FAMILIES: &[(&str, Unknown)] = &[
    ("yinsh", |second, _| {
        CommandError::UnknownYinsh(second.unwrap_or_default().to_string())
    }),
    ("change", |second, _| {
        let problem = match second {
            None => Problem::ChangeWhat,
            Some(w) => Problem::ChangeOther(w.to_ascii_lowercase()),
        };
        problem.within(usage::CHANGE)
    }),
    ("all", |_, after| {
        parsers::all_without_show(after, usage::ALL_SHOW)
    }),
    ("tournament", |second, _| {
        let problem = Problem::TournamentOption(second.unwrap_or_default().to_string());
        problem.within(usage::TOURNAMENT_SHOW)
    }),
];

/// Other games' names: a command for one of them is told this server runs YINSH.
const OTHER_GAMES: &[&str] = &[
    "chess",
    "go",
    "gipf",
    "zertz",
    "dvonn",
    "tzaar",
    "punct",
    "lyngk",
    "othello",
    "reversi",
    "backgammon",
    "checkers",
];

fn lookup(words: &str) -> Option<&'static Entry> {
    COMMANDS.iter().find(|e| e.words == words)
}

/// A line as the table reads it, no misspelling guessed ([`Command::parse`] guesses).
pub(super) fn parse_exact(line: &str) -> Result<Command, CommandError> {
    if let Some(rest) = after_yinsh_tournament(line) {
        return parse_exact(rest);
    }
    let Ok((after, first)) = word(line) else {
        return Err(CommandError::Empty);
    };
    let lower = first.to_ascii_lowercase();
    if let Some(e) = lookup(&lower) {
        return (e.parse)(after, e.usage).and_then(|c| bounded(c, e.usage));
    }
    if let Some((_, unknown)) = FAMILIES.iter().find(|(w, _)| *w == lower) {
        let second = word(after).ok();
        if let Some((rest, second)) = second
            && let Some(e) = lookup(&format!("{lower} {}", second.to_ascii_lowercase()))
        {
            return (e.parse)(rest, e.usage).and_then(|c| bounded(c, e.usage));
        }
        return Err(unknown(second.map(|(_, w)| w), after));
    }
    if OTHER_GAMES.contains(&lower.as_str()) {
        Err(CommandError::OtherGame(lower))
    } else {
        Err(CommandError::Unknown(first.to_string()))
    }
}

/// How the first words of a line fall into the table: what `secret.rs` needs to tell
/// which words are passwords.
pub(super) struct Shape {
    /// How many words name the command: 2 after a family word (`yinsh`, `change`,
    /// `all`) or another game's name, else 1 (0 when no word is read).
    pub(super) command_words: usize,
    /// The command's syntax line when those words are in the table (another game's
    /// command is read with YINSH's: `chess move` as `yinsh move`).
    pub(super) usage: Option<&'static str>,
    /// Whether the words after them fit that syntax.
    pub(super) fits: bool,
    /// Whether the first word is a command word, a family word or a game's name.
    pub(super) known: bool,
}

impl Shape {
    /// A line without a word.
    const NO_WORD: Shape = Shape {
        command_words: 0,
        usage: None,
        fits: false,
        known: false,
    };

    /// A first word that is no command word, family word or game's name.
    const UNKNOWN_WORD: Shape = Shape {
        command_words: 1,
        ..Shape::NO_WORD
    };

    /// A family word or a game's name with no word after it.
    const FAMILY_WORD_ALONE: Shape = Shape {
        command_words: 1,
        known: true,
        ..Shape::NO_WORD
    };
}

/// The [`Shape`] of a line.
pub(super) fn shape(line: &str) -> Shape {
    if let Some(rest) = after_yinsh_tournament(line) {
        let inner = shape(rest);
        return Shape {
            command_words: inner.command_words + 1,
            ..inner
        };
    }
    let Ok((after, first)) = word(line) else {
        return Shape::NO_WORD;
    };
    let lower = first.to_ascii_lowercase();
    if let Some(e) = lookup(&lower) {
        return Shape {
            command_words: 1,
            usage: Some(e.usage),
            fits: (e.parse)(after, e.usage).is_ok(),
            known: true,
        };
    }
    let family = FAMILIES.iter().any(|(w, _)| *w == lower);
    if !family && !OTHER_GAMES.contains(&lower.as_str()) {
        return Shape::UNKNOWN_WORD;
    }
    let Ok((rest, second)) = word(after) else {
        return Shape::FAMILY_WORD_ALONE;
    };
    let head = if family { lower.as_str() } else { "yinsh" };
    let entry = lookup(&format!("{head} {}", second.to_ascii_lowercase()));
    Shape {
        command_words: 2,
        usage: entry.map(|e| e.usage),
        fits: entry.is_some_and(|e| (e.parse)(rest, e.usage).is_ok()),
        known: true,
    }
}

/// Every syntax line of the table, once each, in the table's order: the shapes of
/// the commands (the password tests build their lines from them).
///
/// ```
/// use yinsh_pbem::server::command::{syntax_lines, usage};
/// assert!(syntax_lines().any(|u| u == usage::MOVE));
/// ```
pub fn syntax_lines() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .enumerate()
        .filter(|(k, e)| !COMMANDS[..*k].iter().any(|o| o.usage == e.usage))
        .map(|(_, e)| e.usage)
}

/// The table's command words and syntax lines.
pub(super) fn entries() -> impl Iterator<Item = (&'static str, &'static str)> {
    COMMANDS.iter().map(|e| (e.words, e.usage))
}

/// Every command of the table by its first word, once each and in the table's order,
/// a family of two-word commands as `yinsh ...`: the list the errors give, so it
/// cannot fall behind the table.
///
/// ```
/// let list = yinsh_pbem::server::command::command_list();
/// assert!(list.starts_with("help, signup, "));
/// assert!(list.contains("message, ") && list.contains("vacation, ") && list.contains("verify, "));
/// assert!(list.ends_with("yinsh ..., tournament ..."));
/// ```
pub fn command_list() -> String {
    let mut out: Vec<String> = Vec::new();
    for e in COMMANDS {
        let first = e.words.split(' ').next().unwrap_or(e.words);
        let name = if e.words.contains(' ') {
            format!("{first} ...")
        } else {
            first.to_string()
        };
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out.join(", ")
}

/// The first words of the two-word commands.
pub(super) fn families() -> impl Iterator<Item = &'static str> {
    FAMILIES.iter().map(|(w, _)| *w)
}
