//! Passwords never leave the server (issue 13 §3): whatever shape a command line has,
//! mistyped, joined, with a word too many or too few, the password written in it
//! appears in no reply and no log line. The lines go through the real `deliver`,
//! in-process, against a home where alice's password is the marker (hashed with the
//! tests' cheap argon2 parameters: `store::with_cheap_hashes`).

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use proptest::prelude::*;
use yinsh_pbem::mail::Transport;
use yinsh_pbem::server::command::{Command, syntax_lines};
use yinsh_pbem::server::store::{RateLimit, with_cheap_hashes};
use yinsh_pbem::server::{Settings, deliver};

use crate::support::server::{read_sent, words};

/// alice's password, searched for in every reply and log line.
const MARKER: &str = "Pw7marker";

fn settings(home: &Path) -> Settings {
    let mut s = Settings::defaults(home.to_path_buf());
    s.transport = Transport::Outbox(home.join("outbox"));
    s.now = Some(1_795_384_020);
    // Quoted originals are what these tests search: as for a confirmed address.
    s.confirm_addresses = false;
    s.rate_limit = RateLimit {
        max: u32::MAX,
        period: 1,
    };
    s
}

fn mail(subject: &str, body: &str, id: &str) -> String {
    format!(
        "From: Alice <alice@example.org>\nTo: yinsh@localhost\nSubject: {subject}\nMessage-ID: <{id}@example.org>\n\n{body}\n"
    )
}

/// A home with alice (password [`MARKER`]) and bob signed up and board 101 started,
/// made once; each case works on a copy.
fn template() -> &'static Path {
    static HOME: OnceLock<(tempfile::TempDir, PathBuf)> = OnceLock::new();
    &HOME
        .get_or_init(|| {
            // A static is never dropped: the template stays in the system's temporary
            // folder, not in memory (`/dev/shm`); each case copies it to its own home.
            let dir = tempfile::tempdir().expect("tempdir");
            let home = dir.path().join("home");
            let body = format!(
                "signup alice {MARKER} alice@example.org\nsignup bob bpw bob@example.org\nyinsh challenge alice bob"
            );
            let raw = mail("multiple", &body, "setup");
            with_cheap_hashes(|| deliver(raw.as_bytes(), raw.len(), None, &settings(&home)))
                .expect("setup");
            assert!(home.join("boards/101.json").exists());
            // The set-up's own mails and log lines are not what is tested.
            std::fs::remove_dir_all(home.join("outbox")).expect("clear outbox");
            std::fs::remove_file(home.join("log/yinsh-pbem.log")).expect("clear log");
            (dir, home)
        })
        .1
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read_dir").flatten() {
        let p = e.path();
        if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else if e.file_name() != "lock" {
            std::fs::copy(&p, to.join(e.file_name())).expect("copy");
        }
    }
}

/// What a mail with this Subject (and body) made the server write: every reply, raw
/// and decoded, and the log.
fn written_for(subject: &str, body: &str) -> (usize, String) {
    let dir = crate::support::tmp::dir();
    let home = dir.path().join("home");
    copy_dir(template(), &home);
    let raw = mail(subject, body, "case");
    with_cheap_hashes(|| deliver(raw.as_bytes(), raw.len(), None, &settings(&home)))
        .expect("deliver");
    let mut all = String::new();
    let mut replies = 0;
    for e in std::fs::read_dir(home.join("outbox"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let sent = read_sent(&e.path());
        all.push_str(&sent.raw);
        all.push_str(&sent.subject);
        all.push_str(&sent.body);
        replies += 1;
    }
    all.push_str(&std::fs::read_to_string(home.join("log/yinsh-pbem.log")).unwrap_or_default());
    (replies, all)
}

#[track_caller]
fn assert_hidden(subject: &str, body: &str) {
    let (replies, written) = written_for(subject, body);
    assert!(replies > 0, "{subject}: no reply");
    assert!(
        !written.contains(MARKER),
        "{subject}: the password shows in\n{written}"
    );
}

#[test]
fn regression_a_wrong_board_number_does_not_show_the_password() {
    assert_hidden(&format!("yinsh move x101 alice {MARKER} e5"), "");
    assert_hidden(&format!("yinsh resign 101x alice {MARKER}"), "");
}

#[test]
fn regression_a_mistyped_command_word_does_not_show_the_password() {
    assert_hidden(&format!("yinsh mvoe 101 alice {MARKER} e5"), "");
    assert_hidden(&format!("yinsh resing 101 alice {MARKER}"), "");
    assert_hidden(&format!("yinsh move101 alice {MARKER} e5"), "");
}

#[test]
fn regression_mistyped_lines_of_a_multiple_mail_do_not_show_the_password() {
    assert_hidden(
        "multiple",
        &format!("yinsh mvoe 101 alice {MARKER} e5\nyinsh move x101 alice {MARKER} e5"),
    );
}

#[test]
fn an_extra_word_before_the_password_does_not_show_it_where_it_lands() {
    // Each line fits its command, with the wrong word taken for the password and the
    // password taken for the move, an address, a userid written to, a board.
    assert_hidden(&format!("yinsh move 101 alice alice {MARKER} e5"), "");
    assert_hidden(&format!("message alice bob {MARKER}"), "");
    assert_hidden(&format!("yinsh showas alice junk {MARKER}"), "");
    assert_hidden(&format!("change address alice junk {MARKER}"), "");
}

#[test]
fn regression_a_listing_meant_as_showas_does_not_show_the_password() {
    // `yinsh show` is a command too: the password is read as a userid to list.
    assert_hidden(&format!("yinsh show alice {MARKER}"), "");
    assert_hidden(&format!("yinsh show alice bob {MARKER}"), "");
    assert_hidden("multiple", &format!("yinsh show alice {MARKER} next"));
    let (_, written) = written_for(&format!("yinsh show alice {MARKER}"), "");
    assert!(
        written.contains("Invalid userid entered: the 2nd userid named has no account"),
        "{written}"
    );
}

#[test]
fn a_new_password_that_could_be_shown_in_a_moves_place_is_refused() {
    // Such a password, pushed into a move's (or a number's, an address's) place by a
    // word too many, would be shown there; no account may have one.
    for pw in [
        "e5e9",
        "123456",
        "c3-c7x",
        "carol@example.org",
        "101#3",
        "next",
    ] {
        let (_, written) = written_for(&format!("signup carol {pw} carol@example.org"), "");
        assert!(
            written.contains("Choose another password"),
            "{pw}: {written}"
        );
        let (_, written) = written_for(&format!("change password alice {MARKER} {pw}"), "");
        assert!(
            written.contains("Choose another password"),
            "{pw}: {written}"
        );
        assert!(!written.contains(MARKER), "{written}");
    }
    let (_, written) = written_for("signup carol C4rolpw carol@example.org", "");
    assert!(
        written.contains("Welcome to YINSH by e-mail, carol."),
        "{written}"
    );
}

#[test]
fn the_errors_name_the_place_of_a_word_that_does_not_fit() {
    let (_, written) = written_for(&format!("yinsh move x101 alice {MARKER} e5"), "");
    assert!(
        words(&written).contains(
            "expected a board number, a userid, a password and a move, but the 1st word after \
             the command does not fit"
        ),
        "{written}"
    );
    assert!(written.contains("Subject: yinsh move ******** ******** ******** ********"));
}

/// A command line of one of the table's shapes that carry a password, with fitting
/// words and [`MARKER`] in every password place.
fn line_of(usage: &str) -> Option<Vec<String>> {
    usage.contains("password>").then(|| line_of_any(usage))
}

/// A command line of any of the table's shapes, with fitting words and [`MARKER`] in
/// every password place (if it has one).
fn line_of_any(usage: &str) -> Vec<String> {
    {
        let mut words = Vec::new();
        for t in usage.split_whitespace() {
            let w = match t {
                t if t.contains("password>") => MARKER,
                t if t.starts_with("<board>") => "101",
                t if t.starts_with("<move>") => "e5",
                "<days>" => "3",
                "<seekno>" => "1",
                "[<e-mail" => "alice@example.org",
                "<to-userid>" => "bob",
                t if t.starts_with('<') => "alice",
                t if t.starts_with(['[', '.', '|']) || t.ends_with(']') => continue,
                t => t,
            };
            words.push(w.to_string());
        }
        words
    }
}

/// The command words of the table (first and second words of the syntax lines).
fn command_words() -> Vec<String> {
    syntax_lines()
        .flat_map(|u| u.split_whitespace().take(2))
        .filter(|w| w.chars().all(|c| c.is_ascii_lowercase()))
        .map(str::to_string)
        .collect()
}

/// A mistake a player makes in a line.
#[derive(Debug, Clone)]
enum Mistake {
    /// One letter of a command word deleted, doubled, changed or swapped with the next.
    Misspell { word: usize, at: usize, how: u8 },
    /// A word joined to the next one (`move101`).
    Join { word: usize },
    /// A word put in before word `at`.
    Insert { at: usize, word: &'static str },
    /// A word left out.
    Delete { at: usize },
    /// A word replaced by a wrong one.
    Replace { at: usize, word: &'static str },
    /// A command word cut short to another command's word (`showas` -> `show`).
    Shorten { word: usize },
}

const EXTRA: &[&str] = &[
    "x101", "101x", "101", "alice", "bob", "e5", "junk", "a@b", "#", "-",
];

fn mistake() -> impl Strategy<Value = Mistake> {
    prop_oneof![
        (0..2usize, 0..8usize, 0..4u8).prop_map(|(word, at, how)| Mistake::Misspell {
            word,
            at,
            how
        }),
        (0..3usize).prop_map(|word| Mistake::Join { word }),
        (0..8usize, proptest::sample::select(EXTRA))
            .prop_map(|(at, word)| Mistake::Insert { at, word }),
        (0..8usize).prop_map(|at| Mistake::Delete { at }),
        (0..8usize, proptest::sample::select(EXTRA))
            .prop_map(|(at, word)| Mistake::Replace { at, word }),
        (0..2usize).prop_map(|word| Mistake::Shorten { word }),
    ]
}

/// `words` with the mistake made (the marker itself is never cut or joined: a
/// password written wrong is not the password). `None` when it does not apply.
fn make(words: &[String], m: &Mistake) -> Option<Vec<String>> {
    let mut w = words.to_vec();
    let n = w.len();
    match *m {
        Mistake::Misspell { word, at, how } => {
            let target = w.get(word)?;
            if target == MARKER || !command_words().contains(&target.to_ascii_lowercase()) {
                return None;
            }
            let mut chars: Vec<char> = target.chars().collect();
            let at = at % chars.len();
            match how {
                0 if chars.len() > 1 => {
                    chars.remove(at);
                }
                1 => chars.insert(at, chars[at]),
                2 => chars[at] = if chars[at] == 'q' { 'z' } else { 'q' },
                _ if at + 1 < chars.len() => chars.swap(at, at + 1),
                _ => return None,
            }
            let spelt: String = chars.into_iter().collect();
            if command_words().contains(&spelt) {
                return None; // another command, not a mistake
            }
            w[word] = spelt;
        }
        Mistake::Join { word } => {
            if word + 1 >= n || w[word] == MARKER || w[word + 1] == MARKER {
                return None;
            }
            let next = w.remove(word + 1);
            w[word].push_str(&next);
        }
        Mistake::Insert { at, word } => w.insert(at.min(n), word.to_string()),
        Mistake::Delete { at } => {
            if at >= n || w[at] == MARKER {
                return None;
            }
            w.remove(at);
        }
        Mistake::Replace { at, word } => {
            if at >= n || w[at] == MARKER {
                return None;
            }
            w[at] = word.to_string();
        }
        Mistake::Shorten { word } => {
            let target = w.get(word)?.to_ascii_lowercase();
            let shorter = command_words()
                .into_iter()
                .filter(|c| c.len() < target.len() && target.starts_with(c.as_str()))
                .max_by_key(String::len)?;
            w[word] = shorter;
        }
    }
    Some(w)
}

/// Whether the line, as the server reads it, names the marker as the userid: then it
/// is a userid (an account may even be made with that name), not a password.
fn marker_is_a_userid(line: &str) -> bool {
    let userid = match Command::parse(line) {
        Ok(Command::Signup { userid, .. }) => userid.to_string(),
        Ok(
            Command::Board { auth, .. }
            | Command::ChangePassword { auth, .. }
            | Command::ChangeAddress { auth, .. }
            | Command::Signoff { auth }
            | Command::Message { auth, .. }
            | Command::Broadcast { auth }
            | Command::Vacation { auth, .. }
            | Command::ShowAs { auth, .. },
        ) => auth.userid.to_string(),
        _ => return false,
    };
    userid.eq_ignore_ascii_case(MARKER)
}

/// The table's shapes with a password, and each of them with a command word cut
/// short to another command's (`yinsh show alice <password>`), so that every run
/// tries those.
fn shapes() -> Vec<Vec<String>> {
    let mut all: Vec<Vec<String>> = syntax_lines().filter_map(line_of).collect();
    let shortened: Vec<Vec<String>> = all
        .iter()
        .flat_map(|w| (0..2).filter_map(|word| make(w, &Mistake::Shorten { word })))
        .collect();
    assert!(
        shortened.iter().any(|w| w[..2] == ["yinsh", "show"]),
        "{shortened:?}"
    );
    all.extend(shortened);
    all
}

/// `words` with each of the mistakes made that applies.
fn with_mistakes(mut words: Vec<String>, mistakes: &[Mistake]) -> Vec<String> {
    for m in mistakes {
        if let Some(w) = make(&words, m) {
            words = w;
        }
    }
    words
}

/// The line `words` (made with `mistakes`) in the Subject or as a line of a
/// `multiple` mail: the marker is in no reply and no log line. Lines that name the
/// marker as a userid, or leave it as the command word itself (no line with a
/// password place: the command words are shown, the rest is not), are not tried.
fn hidden_in_all(
    words: &[String],
    mistakes: &[Mistake],
    in_body: bool,
) -> Result<(), proptest::test_runner::TestCaseError> {
    let line = words.join(" ");
    prop_assume!(!marker_is_a_userid(&line));
    let family = ["yinsh", "change", "all"].contains(&words[0].to_ascii_lowercase().as_str());
    prop_assume!(words[0] != MARKER && !(family && words.get(1).is_some_and(|w| w == MARKER)));
    let (subject, body) = if in_body {
        ("multiple", line.as_str())
    } else {
        (line.as_str(), "")
    };
    let (_, written) = written_for(subject, body);
    prop_assert!(
        !written.contains(MARKER),
        "{line:?} ({mistakes:?}) shows the password in\n{written}"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 128,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(13),
        ..ProptestConfig::default()
    })]

    /// Every shape with a password, with up to two mistakes, in the Subject or as a
    /// line of a `multiple` mail: the marker is in no reply and no log line.
    #[test]
    fn no_reply_or_log_line_shows_a_password_of_any_command_shape(
        shape in proptest::sample::select(shapes()),
        mistakes in proptest::collection::vec(mistake(), 0..=2),
        upper in any::<bool>(),
        in_body in any::<bool>(),
    ) {
        let mut words = shape;
        words = with_mistakes(words, &mistakes);
        if upper {
            words[0] = words[0].to_ascii_uppercase();
        }
        hidden_in_all(&words, &mistakes, in_body)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 96,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(14),
        ..ProptestConfig::default()
    })]

    /// Every shape of the table, those that take no password too (`yinsh games`,
    /// `yinsh help`, `yinsh history`, `help`, `yinsh challenge` ...), with the marker
    /// (alice's password, her address CONFIRMED) put in at any place after the first
    /// word as a player used to other commands adds it, and up to two mistakes, in
    /// the Subject or as a line of a `multiple` mail: the marker is in no reply and no
    /// log line.
    #[test]
    fn no_reply_or_log_line_shows_a_password_added_to_any_command_shape(
        shape in proptest::sample::select(syntax_lines().map(line_of_any).collect::<Vec<_>>()),
        at in 1..8usize,
        mistakes in proptest::collection::vec(mistake(), 0..=2),
        in_body in any::<bool>(),
    ) {
        let mut words = shape;
        if !words.iter().any(|w| w == MARKER) {
            let at = at.min(words.len());
            words.insert(at, MARKER.to_string());
        }
        words = with_mistakes(words, &mistakes);
        hidden_in_all(&words, &mistakes, in_body)?;
    }
}

#[test]
fn regression_a_password_added_to_a_command_without_one_is_not_shown() {
    for line in [
        format!("yinsh games alice {MARKER}"),
        format!("yinsh games {MARKER}"),
        format!("yinsh help {MARKER}"),
        format!("help {MARKER}"),
        format!("yinsh standings alice {MARKER}"),
        format!("yinsh history alice {MARKER}"),
        format!("yinsh history {MARKER}"),
        format!("yinsh challenge alice {MARKER}"),
        format!("list {MARKER}"),
    ] {
        assert_hidden(&line, "");
        assert_hidden("multiple", &line);
    }
}

#[test]
fn the_owner_of_an_old_password_that_could_be_shown_is_asked_to_change_it() {
    // A password of move notation set before such ones were refused: the server cannot
    // mask it without telling a guesser it is right, so it asks its owner to change it
    // (issue 13 §3), once a week, and only after a command that logged in with it.
    use yinsh_pbem::server::store::{Account, Password, Store, UserId};
    let dir = crate::support::tmp::dir();
    let home = dir.path().join("home");
    copy_dir(template(), &home);
    let old: Password = "e5e9".parse().expect("password");
    let dave: UserId = "dave".parse().expect("userid");
    let account = Account::new(
        &dave,
        &old,
        vec!["dave@example.org".parse().expect("address")],
        1,
    )
    .expect("account");
    Store::open(&home)
        .expect("store")
        .put_account(&account)
        .expect("put");
    let mut settings = settings(&home);
    let mut n = 0;
    let mut send = |subject: &str, settings: &Settings| {
        n += 1;
        let _ = std::fs::remove_dir_all(home.join("outbox"));
        let raw = mail(subject, "", &format!("old{n}"));
        with_cheap_hashes(|| deliver(raw.as_bytes(), raw.len(), None, settings)).expect("deliver");
        std::fs::read_dir(home.join("outbox"))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| read_sent(&e.path()))
            .collect::<Vec<_>>()
    };
    let asked = |sent: &[crate::support::server::Sent]| {
        sent.iter()
            .filter(|s| s.subject == "Yinsh: please change the password of dave")
            .map(|s| (s.to.clone(), s.body.clone()))
            .collect::<Vec<_>>()
    };
    // A wrong password, or another account's, asks nobody.
    assert_eq!(asked(&send("yinsh settings dave e5e8", &settings)), vec![]);
    assert_eq!(
        asked(&send(&format!("yinsh settings alice {MARKER}"), &settings)),
        vec![]
    );
    // The right one, even written <e5e9>: the owner's addresses are asked, not the sender's.
    let sent = send("yinsh settings dave <e5e9>", &settings);
    let got = asked(&sent);
    assert_eq!(got.len(), 1, "{sent:#?}");
    assert_eq!(got[0].0, vec!["dave@example.org".to_string()]);
    assert!(
        got[0]
            .1
            .contains("change password dave <current-password> <new-password>"),
        "{}",
        got[0].1
    );
    assert!(!got[0].1.contains("e5e9"), "{}", got[0].1);
    assert!(
        sent.iter()
            .any(|s| s.subject.starts_with("Yinsh settings of dave")),
        "{sent:#?}"
    );
    // Not again within the week; again after it.
    assert_eq!(asked(&send("yinsh settings dave e5e9", &settings)), vec![]);
    settings.now = settings.now.map(|t| t + 7 * 24 * 3600);
    assert_eq!(asked(&send("yinsh settings dave e5e9", &settings)).len(), 1);
    // Changed to a password that cannot be shown: never again.
    send("change password dave e5e9 D4vepw!", &settings);
    settings.now = settings.now.map(|t| t + 30 * 24 * 3600);
    assert_eq!(
        asked(&send("yinsh settings dave D4vepw!", &settings)),
        vec![]
    );
}
