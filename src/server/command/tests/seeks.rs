//! The open seeks' commands parsed: `yinsh seek` with its options read strictly (a
//! rating range, a robot's level, clock times, colour), `yinsh seeks`, `take`,
//! `withdraw` and its alias `unseek`; a word out of place never repeated.

use super::*;
use crate::server::model::Variant;
use crate::server::store::{RatingRange, SeekColour, SeekId, SeekWish};

fn post(line: &str) -> Result<SeekWish, CommandError> {
    match parse(line)? {
        Command::Seek(SeekCommand::Post { auth: a, wish }) => {
            assert_eq!(a, auth("alice", "apw"));
            Ok(wish)
        }
        other => panic!("not a seek: {other:?}"),
    }
}

#[test]
fn a_seek_reads_its_options_in_any_order_and_case() {
    assert_eq!(post("yinsh seek alice apw"), Ok(SeekWish::default()));
    let wish = post("YINSH SEEK alice apw -Unrated --rating=1400-1800 -blitz -robot=3 -black --nagtime=2 --forfeittime=9")
        .expect("parses");
    assert_eq!(
        wish,
        SeekWish {
            variant: Variant::Blitz,
            rated: false,
            range: RatingRange::new(1400, 1800),
            robot: Some(3),
            colour: SeekColour::Black,
            nag_days: Some(2),
            forfeit_days: Some(9),
        }
    );
}

#[test]
fn a_seeks_bad_option_is_refused_by_its_place_never_by_its_words() {
    for (line, nth) in [
        ("yinsh seek alice apw -rating=1800-1400", 3),
        ("yinsh seek alice apw -blitz -rating=1400", 4),
        ("yinsh seek alice apw -rating=1400-99999", 3),
        ("yinsh seek alice apw -rating=+1400-1800", 3),
        ("yinsh seek alice apw -robot=0", 3),
        ("yinsh seek alice apw -robot=6", 3),
        ("yinsh seek alice apw --nagtime=0", 3),
        ("yinsh seek alice apw s3cret-word", 3),
        ("yinsh seek alice apw -s3cret-word", 3),
    ] {
        let e = parse(line).expect_err(line);
        let text = e.to_string();
        assert!(
            text.contains(&format!("the {} word after the command", ordinal(nth))),
            "{line}: {text}"
        );
        assert!(
            !text.contains("s3cret") && !text.contains("99999"),
            "{text}"
        );
    }
    assert!(parse("yinsh seek alice").is_err());
}

fn ordinal(n: usize) -> &'static str {
    match n {
        3 => "3rd",
        4 => "4th",
        _ => "?",
    }
}

#[test]
fn take_withdraw_unseek_and_seeks_parse() {
    assert_eq!(
        parse("yinsh take 7 bob bpw"),
        Ok(Command::Seek(SeekCommand::Take {
            seek: SeekId(7),
            auth: auth("bob", "bpw"),
        }))
    );
    for word in ["withdraw", "unseek", "WITHDRAW"] {
        assert_eq!(
            parse(&format!("yinsh {word} 12 alice apw")),
            Ok(Command::Seek(SeekCommand::Withdraw {
                seek: SeekId(12),
                auth: auth("alice", "apw"),
            }))
        );
    }
    assert_eq!(parse("yinsh seeks"), Ok(Command::Seek(SeekCommand::List)));
    assert!(parse("yinsh seeks alice").is_err());
    for bad in [
        "yinsh take x7 bob bpw",
        "yinsh take 0 bob bpw",
        "yinsh take 7 bob",
        "yinsh withdraw 7",
    ] {
        assert!(parse(bad).is_err(), "{bad}");
    }
    let take = Command::parse("yinsh take 3 bob bpw").expect("parses");
    assert_eq!(take.credentials(), Some(&auth("bob", "bpw")));
}
