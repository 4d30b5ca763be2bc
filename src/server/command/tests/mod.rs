//! Unit tests of the command parsers: every word and alias of the table parses to its
//! command, each command alone parses or is refused in its own syntax, unknown words
//! and refusals in each family; and the helpers the command tests share. The pbmserv
//! families (offers, queue, show, people) are in `pbmserv_commands.rs`, properties over random
//! word lists and the checks of the help texts and the line bound in `properties.rs`.

use super::table::{entries, families};
use super::*;
use crate::mail::Address;
use crate::server::model::{BoardId, Password, UserId};

mod pbmserv_commands; // offers, queue and submit, show, people: the pbmserv families
mod properties; // random word lists, the help texts' syntax lines, the line bound
mod seeks; // the open seeks' commands

fn parse(s: &str) -> Result<Command, CommandError> {
    Command::parse(s)
}

fn uid(s: &str) -> UserId {
    s.parse().expect("a valid userid")
}

/// A userid as a listing or challenge reads it: masked, as its line's masking hides
/// it, until an account is found for it.
fn hidden(s: &str) -> Said<UserId> {
    let mut said = Said::from(uid(s));
    said.hide();
    said
}

fn pw(s: &str) -> Password {
    s.parse().expect("a valid password")
}

fn address(s: &str) -> Address {
    s.parse().expect("a valid address")
}

fn auth(id: &str, p: &str) -> Credentials {
    Credentials {
        userid: uid(id),
        password: pw(p),
    }
}

fn on(board: u32, action: BoardAction) -> Command {
    Command::Board {
        board: board.into(),
        auth: auth("alice", "pw"),
        action,
    }
}

fn text_move(text: &str, moveno: Option<u32>) -> BoardAction {
    BoardAction::Move {
        text: text.to_string().into(),
        moveno,
    }
}

/// One line per word and alias of the table, and the command it must give.
fn samples() -> Vec<(&'static str, Command)> {
    let b = |board: u32, at| BoardRef {
        board: board.into(),
        at,
    };
    vec![
        (
            "help Move",
            Command::Help {
                topics: vec!["move".to_string()],
            },
        ),
        (
            "signup alice pw a@b.org",
            Command::Signup {
                userid: uid("alice"),
                password: pw("pw"),
                addresses: vec![address("a@b.org")],
            },
        ),
        (
            "ADD alice pw",
            Command::Signup {
                userid: uid("alice"),
                password: pw("pw"),
                addresses: vec![],
            },
        ),
        (
            "change password alice old new",
            Command::ChangePassword {
                auth: auth("alice", "old"),
                new_password: pw("new"),
            },
        ),
        (
            "change Address alice pw <a@b.org>,",
            Command::ChangeAddress {
                auth: auth("alice", "pw"),
                addresses: vec![address("a@b.org")],
            },
        ),
        (
            "change addresses alice pw",
            Command::ChangeAddress {
                auth: auth("alice", "pw"),
                addresses: vec![],
            },
        ),
        (
            "signoff alice pw",
            Command::Signoff {
                auth: auth("alice", "pw"),
            },
        ),
        (
            "delete alice pw",
            Command::Signoff {
                auth: auth("alice", "pw"),
            },
        ),
        ("list yinsh", Command::List),
        ("multiple", Command::Multiple),
        (
            "message alice pw bob",
            Command::Message {
                auth: auth("alice", "pw"),
                to: vec![uid("bob").into()],
            },
        ),
        (
            "broadcast alice pw",
            Command::Broadcast {
                auth: auth("alice", "pw"),
            },
        ),
        ("yinsh tournaments", Command::Tournaments),
        (
            "tournament create Spring alice pw swiss -rounds=4 -blitz -min=5 --forfeittime=9 -start=2027-01-01",
            Command::Tournament {
                name: "Spring".parse().expect("a name"),
                auth: Some(auth("alice", "pw")),
                action: crate::server::command::TournamentAction::Create(
                    crate::server::command::TournamentRules {
                        format: crate::server::store::Format::Swiss { rounds: 4 },
                        blitz: true,
                        nag_days: None,
                        forfeit_days: Some(9),
                        min: 5,
                        max: 16,
                        start: Some(1_798_761_600),
                    },
                ),
            },
        ),
        (
            "yinsh tournament join Spring alice pw",
            Command::Tournament {
                name: "spring".parse().expect("a name"),
                auth: Some(auth("alice", "pw")),
                action: crate::server::command::TournamentAction::Join,
            },
        ),
        (
            "tournament join Spring alice pw",
            Command::Tournament {
                name: "spring".parse().expect("a name"),
                auth: Some(auth("alice", "pw")),
                action: crate::server::command::TournamentAction::Join,
            },
        ),
        (
            "tournament leave Spring alice pw",
            Command::Tournament {
                name: "Spring".parse().expect("a name"),
                auth: Some(auth("alice", "pw")),
                action: crate::server::command::TournamentAction::Leave,
            },
        ),
        (
            "tournament start Spring alice pw",
            Command::Tournament {
                name: "Spring".parse().expect("a name"),
                auth: Some(auth("alice", "pw")),
                action: crate::server::command::TournamentAction::Start,
            },
        ),
        (
            "Tournament show Spring",
            Command::Tournament {
                name: "Spring".parse().expect("a name"),
                auth: None,
                action: crate::server::command::TournamentAction::Show,
            },
        ),
        (
            "vacation alice pw 0",
            Command::Vacation {
                auth: auth("alice", "pw"),
                days: 0,
            },
        ),
        (
            "yinsh settings alice pw TEXT-only",
            Command::Settings {
                auth: auth("alice", "pw"),
                choice: Some(SettingChoice::Mail(MailChoice::TextOnly)),
            },
        ),
        (
            "yinsh settings alice pw",
            Command::Settings {
                auth: auth("alice", "pw"),
                choice: None,
            },
        ),
        (
            "verify alice ABCDEFGHJK",
            Command::Verify {
                userid: uid("alice"),
                token: pw("ABCDEFGHJK"),
            },
        ),
        (
            "all show alice next",
            Command::ShowPlayers {
                userids: vec![hidden("alice")],
                filter: GameFilter::Next,
            },
        ),
        ("yinsh help", Command::YinshHelp),
        (
            "yinsh challenge -blitz alice bob",
            Command::Challenge {
                password: None,
                blitz: true,
                nag_days: None,
                forfeit_days: None,
                white: hidden("alice"),
                black: hidden("bob"),
            },
        ),
        (
            "yinsh challenge -password pw alice bob",
            Command::Challenge {
                password: Some(pw("pw")),
                blitz: false,
                nag_days: None,
                forfeit_days: None,
                white: hidden("alice"),
                black: hidden("bob"),
            },
        ),
        (
            "yinsh settings alice pw subject STABLE",
            Command::Settings {
                auth: auth("alice", "pw"),
                choice: Some(SettingChoice::Subject(SubjectStyle::Stable)),
            },
        ),
        (
            "yinsh settings alice pw own-turn skip",
            Command::Settings {
                auth: auth("alice", "pw"),
                choice: Some(SettingChoice::OwnTurn(OwnTurnMail::Skip)),
            },
        ),
        (
            "yinsh move 101 alice pw e5-e9#12",
            on(101, text_move("e5-e9", Some(12))),
        ),
        (
            "yinsh move 101 alice pw Resign",
            on(101, BoardAction::Resign),
        ),
        (
            "yinsh move 101 alice pw propose",
            on(101, BoardAction::Offer(OfferAction::Propose)),
        ),
        ("yinsh resign 7 alice pw", on(7, BoardAction::Resign)),
        (
            "yinsh queue 101 alice pw e5",
            on(
                101,
                BoardAction::Queue {
                    text: "e5".to_string().into(),
                    moveno: None,
                },
            ),
        ),
        (
            "yinsh submit 101 alice pw e5#3",
            on(
                101,
                BoardAction::Submit {
                    text: "e5".to_string().into(),
                    moveno: Some(3),
                },
            ),
        ),
        ("yinsh confirm 101 alice pw", on(101, BoardAction::Confirm)),
        ("yinsh decline 101 alice pw", on(101, BoardAction::Decline)),
        ("yinsh chat 101 alice pw", on(101, BoardAction::Chat)),
        (
            "yinsh subscribe 101 alice pw",
            on(101, BoardAction::Subscribe { on: true }),
        ),
        (
            "yinsh unsubscribe 101 alice pw",
            on(101, BoardAction::Subscribe { on: false }),
        ),
        ("yinsh review 101 alice pw", on(101, BoardAction::Review)),
        (
            "yinsh review 101",
            Command::Review {
                board: BoardId::from(101),
            },
        ),
        (
            "yinsh preview 101 e5 f6",
            Command::Preview {
                at: b(101, None),
                moves: vec!["e5".to_string().into(), "f6".to_string().into()],
            },
        ),
        (
            "yinsh show 101 102#4",
            Command::Show {
                boards: vec![b(101, None), b(102, Some(4))],
            },
        ),
        (
            "yinsh showas alice pw inactive",
            Command::ShowAs {
                auth: auth("alice", "pw"),
                boards: vec![],
                filter: GameFilter::Inactive,
            },
        ),
        (
            "yinsh games alice bob all",
            Command::Games {
                userids: vec![hidden("alice"), hidden("bob")],
                filter: GameFilter::All,
                page: 1,
            },
        ),
        (
            "yinsh games alice inactive page 3",
            Command::Games {
                userids: vec![hidden("alice")],
                filter: GameFilter::Inactive,
                page: 3,
            },
        ),
        ("yinsh standings", Command::Standings { page: 1 }),
        ("YINSH RATINGS", Command::Standings { page: 1 }),
        ("yinsh standings page 2", Command::Standings { page: 2 }),
        (
            "yinsh history",
            Command::History {
                player: None,
                page: 1,
            },
        ),
        (
            "yinsh history Page 7",
            Command::History {
                player: None,
                page: 7,
            },
        ),
        (
            "yinsh history alice page 2",
            Command::History {
                player: Some(hidden("alice")),
                page: 2,
            },
        ),
        (
            "yinsh seek alice apw -blitz",
            Command::Seek(SeekCommand::Post {
                auth: auth("alice", "apw"),
                wish: crate::server::store::SeekWish {
                    variant: crate::rules::Variant::Blitz,
                    ..Default::default()
                },
            }),
        ),
        ("yinsh seeks", Command::Seek(SeekCommand::List)),
        (
            "yinsh take 3 bob bpw",
            Command::Seek(SeekCommand::Take {
                seek: crate::server::store::SeekId(3),
                auth: auth("bob", "bpw"),
            }),
        ),
        (
            "yinsh withdraw 3 alice apw",
            Command::Seek(SeekCommand::Withdraw {
                seek: crate::server::store::SeekId(3),
                auth: auth("alice", "apw"),
            }),
        ),
        (
            "yinsh unseek 3 alice apw",
            Command::Seek(SeekCommand::Withdraw {
                seek: crate::server::store::SeekId(3),
                auth: auth("alice", "apw"),
            }),
        ),
        (
            "yinsh history page",
            Command::History {
                // `page` is a word of the table's syntax lines: never masked.
                player: Some(uid("page").into()),
                page: 1,
            },
        ),
    ]
}

#[test]
fn every_word_and_alias_parses_to_its_command() {
    for (line, want) in samples() {
        assert_eq!(parse(line), Ok(want), "{line}");
    }
}

#[test]
fn every_table_entry_has_a_sample_and_two_words_have_a_family() {
    let lines: Vec<String> = samples()
        .into_iter()
        .map(|(l, _)| l.to_ascii_lowercase())
        .collect();
    for (words, _) in entries() {
        let sampled = lines
            .iter()
            .any(|l| l == words || l.starts_with(&format!("{words} ")));
        assert!(sampled, "no sample line for \"{words}\"");
        if let Some((first, _)) = words.split_once(' ') {
            assert!(families().any(|f| f == first), "no family for \"{words}\"");
        }
    }
    for family in families() {
        let prefix = format!("{family} ");
        assert!(entries().any(|(w, _)| w.starts_with(&prefix)), "{family}");
    }
}

#[test]
fn each_command_alone_parses_or_is_refused_in_its_own_syntax() {
    let no_arguments = [
        "help",
        "list",
        "multiple",
        "yinsh help",
        "yinsh standings",
        "yinsh ratings",
        "yinsh history",
        "yinsh games",
        "yinsh seeks",
        "yinsh tournaments",
    ];
    for (words, usage) in entries() {
        match parse(words) {
            Ok(_) => assert!(no_arguments.contains(&words), "{words} parsed alone"),
            Err(CommandError::Syntax { usage: u, .. }) => assert_eq!(u, usage, "{words}"),
            Err(e) => panic!("{words}: {e}"),
        }
    }
}

#[test]
fn unknown_words_in_each_family() {
    assert_eq!(parse(""), Err(CommandError::Empty));
    assert_eq!(parse(" \t "), Err(CommandError::Empty));
    assert_eq!(
        parse("yinsh"),
        Err(CommandError::UnknownYinsh(String::new()))
    );
    assert_eq!(
        parse("yinsh Frob 1"),
        Err(CommandError::UnknownYinsh("Frob".to_string()))
    );
    assert_eq!(
        parse("change"),
        Err(Problem::ChangeWhat.within(usage::CHANGE))
    );
    assert_eq!(
        parse("change Colour alice"),
        Err(Problem::ChangeOther("colour".to_string()).within(usage::CHANGE))
    );
    assert_eq!(
        parse("all games alice"),
        Err(Problem::AllWithoutShow.within(usage::ALL_SHOW))
    );
    assert_eq!(
        parse("all"),
        Err(Problem::AllWithoutShow.within(usage::ALL_SHOW))
    );
    assert_eq!(
        parse("Chess move 1"),
        Err(CommandError::OtherGame("chess".to_string()))
    );
    assert_eq!(
        parse("Frob"),
        Err(CommandError::Unknown("Frob".to_string()))
    );
}

#[test]
fn refusals_read_as_players_know_them() {
    let text = |l: &str| parse(l).map(|_| ()).unwrap_err().to_string();
    assert_eq!(
        text("yinsh move 104 alice"),
        "Syntax is \"yinsh move <board> <userid> <password> <move>\": expected a board number, \
         a userid, a password and a move, but the line ends too soon"
    );
    assert_eq!(
        text("yinsh resign x alice pw"),
        "Syntax is \"yinsh resign <board> <userid> <password>\": expected a board number, \
         a userid and a password, but the 1st word after the command does not fit"
    );
    assert_eq!(
        text("yinsh move 1 alice pw e5#x"),
        "Syntax is \"yinsh move <board> <userid> <password> <move>\": the text after # is not \
         a move number: write the move, then # and the number it will get, like e5-e9#12"
    );
    let secret = text("signoff alice pass:word");
    assert!(!secret.contains("pass:word"), "{secret}");
    assert!(
        secret.contains("the password is not valid (character 5"),
        "{secret}"
    );
    assert_eq!(
        text("yinsh show alice 1x"),
        "Syntax is \"yinsh show <board>[#<moveno>] ...\": \"1x\" is not a board number like 104 or 104#12"
    );
    assert_eq!(
        text("yinsh challenge -fast a b"),
        "Syntax is \"yinsh challenge [-blitz] <userid1> <userid2>\": unknown option \"-fast\": \
         the options are -blitz, --nagtime=<days> and --forfeittime=<days>"
    );
    assert_eq!(
        text("yinsh review 101 alice"),
        "Syntax is \"yinsh review <board> [<userid> <password>]\": expected a userid and a password"
    );
}

/// A misspelt line whose suggestion puts a password in a userid's place (`insh
/// review 101 <password> alice`, found by `passwords.rs`'s random lines) masks it
/// there: shown only where it names an account.
#[test]
fn regression_a_suggestion_masks_the_word_in_an_accounts_userid_place() {
    let e = parse("insh review 101 Pw7marker alice").expect_err("misspelt");
    assert!(matches!(e, CommandError::DidYouMean { .. }), "{e:?}");
    let text = e.to_string();
    assert!(!text.contains("Pw7marker"), "{text}");
    assert!(text.contains("yinsh review 101 ******** **"), "{text}");
    // A new account's userid (signup) is no password's place: shown as written.
    let e = parse("singup carol cpw").expect_err("misspelt");
    assert!(e.to_string().contains("signup carol **"), "{e}");
}
