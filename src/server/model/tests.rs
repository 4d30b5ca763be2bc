//! The typed values' text forms and comparisons.

use super::*;

#[test]
fn refusals_name_the_position_and_kind_but_never_the_password() {
    let cases = [
        ("ab cd", 3, "a space"),
        ("ab\"cd", 3, "a quote"),
        ("it's", 3, "a quote"),
        ("a:b", 2, "a colon"),
        ("ab\u{7}", 3, "a control character"),
        ("tab\there", 4, "a space"),
    ];
    for (text, at, kind) in cases {
        let err = text.parse::<Password>().expect_err(text);
        assert_eq!(err, InvalidPassword::BadChar { at, kind }, "{text:?}");
        assert!(!err.to_string().contains(text), "{err}");
    }
    assert_eq!("".parse::<Password>(), Err(InvalidPassword::Empty));
    let long = "x".repeat(65);
    assert_eq!(
        long.parse::<Password>(),
        Err(InvalidPassword::TooLong { len: 65 })
    );
    assert!("x".repeat(64).parse::<Password>().is_ok());
    assert!("pässwörd€".parse::<Password>().is_ok());
}

#[test]
fn a_userid_pads_like_a_str_in_the_move_list_columns() {
    let id: UserId = "Alice".parse().expect("valid");
    assert_eq!(format!("{id:<9}|{id:>7}"), "Alice    |  Alice");
}

#[test]
fn stored_spellings_round_trip() {
    for r in EndReason::ALL {
        let json = serde_json::to_string(&r).expect("encode");
        assert_eq!(json, format!("\"{r}\""));
        assert_eq!(serde_json::from_str::<EndReason>(&json).expect("decode"), r);
        assert_eq!(r.to_string().parse::<EndReason>(), Ok(r));
    }
    for v in [Variant::Normal, Variant::Blitz] {
        assert_eq!(parse_variant(variant_name(v)), Some(v));
    }
    assert_eq!(parse_variant("Normal"), None);
    for (k, s) in [(OfferKind::Draw, "\"draw\""), (OfferKind::Undo, "\"undo\"")] {
        assert_eq!(serde_json::to_string(&k).expect("encode"), s);
    }
    for bad in ["", "-1", "+7", "1 2", "4294967296"] {
        assert!(bad.parse::<BoardId>().is_err(), "{bad:?}");
    }
    assert_eq!("4294967295".parse::<BoardId>(), Ok(BoardId(u32::MAX)));
    assert_eq!(BoardId(u32::MAX).checked_next(), None);
}
