//! The command parser over any line: random word lists (the table's words among
//! them) never panic and a syntax error names a syntax line of the table, command
//! words are case-insensitive; the help texts show every syntax line the errors name;
//! a line longer than any command is refused unread.

use proptest::prelude::*;

use super::*;

/// Words players write, the table's words among them, and anything at all.
fn any_word() -> impl Strategy<Value = String> {
    let known: Vec<String> = entries()
        .flat_map(|(w, _)| w.split(' '))
        .chain([
            "101",
            "101#3",
            "7#",
            "e5-e9#12",
            "e5",
            "#x",
            "alice",
            "pw",
            "p:w",
            "a@b.org",
            "-blitz",
            "--nagtime=3",
            "--forfeittime=0",
            "-x",
            "next",
            "all",
            "resign",
            "accept",
            "0",
            "99999999999",
        ])
        .map(str::to_string)
        .collect();
    prop_oneof![
        3 => proptest::sample::select(known),
        1 => "\\PC{0,6}",
        1 => "[ \t\u{a0}\r\n#<>,]{1,3}",
    ]
}

fn words_strategy() -> impl Strategy<Value = (Vec<String>, Vec<&'static str>)> {
    (
        proptest::collection::vec(any_word(), 0..7),
        proptest::collection::vec(proptest::sample::select(vec![" ", "\t", "  "]), 7),
    )
}

fn join(words: &[String], seps: &[&str]) -> String {
    let mut line = String::new();
    for (w, s) in words.iter().zip(seps) {
        line.push_str(w);
        line.push_str(s);
    }
    line
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Nothing panics, and a syntax error names a syntax line of the table.
    #[test]
    fn parse_never_panics_and_names_a_known_syntax(
        command in proptest::option::of(proptest::sample::select(
            entries().map(|(w, _)| w).collect::<Vec<_>>(),
        )),
        (words, seps) in words_strategy(),
    ) {
        let line = format!("{}{}", command.map(|c| format!("{c} ")).unwrap_or_default(), join(&words, &seps));
        if let Err(CommandError::Syntax { usage: u, .. }) = parse(&line) {
            prop_assert!(u == usage::CHANGE || entries().any(|(_, known)| known == u), "{line:?}: {u}");
        }
    }

    /// Command words are case-insensitive: the same arguments give the same result.
    #[test]
    fn command_words_in_any_case_give_the_same_result(
        e in proptest::sample::select(entries().map(|(w, _)| w).collect::<Vec<_>>()),
        (words, seps) in words_strategy(),
    ) {
        let line = format!("{e} {}", join(&words, &seps));
        let upper = format!("{} {}", e.to_ascii_uppercase(), join(&words, &seps));
        prop_assert_eq!(parse(&line), parse(&upper));
    }
}

#[test]
fn the_help_texts_show_the_syntax_lines_of_the_errors() {
    let help = format!(
        "{}{}",
        crate::server::text::help::general_help("yinsh@example.org"),
        crate::server::text::help::yinsh_help()
    );
    // Written otherwise in the help: aliases and families in prose, and challenge
    // with its clock options.
    let elsewhere = [
        usage::HELP,
        usage::ADD,
        usage::CHANGE,
        usage::LIST,
        usage::CHALLENGE,
    ];
    for (words, u) in entries() {
        assert!(
            elsewhere.contains(&u) || help.contains(u),
            "the help does not show \"{u}\" ({words})"
        );
    }
}

#[test]
fn a_line_longer_than_any_command_is_refused_unread() {
    let max = bounds::MAX_LINE_CHARS;
    let long = format!("yinsh {}", "y".repeat(max));
    let e = parse(&long).expect_err("too long");
    assert_eq!(
        e,
        CommandError::TooLong {
            chars: max + 6,
            max
        }
    );
    assert!(!e.to_string().contains("yyy"), "{e}");
    // At the bound the line is read, and its unknown word named.
    let at = "x".repeat(max);
    assert_eq!(parse(&at), Err(CommandError::Unknown(at.clone())));
}
