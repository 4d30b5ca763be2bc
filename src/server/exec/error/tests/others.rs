//! The refusals' smaller cases: a signoff naming its games, ordinals, the typed
//! notation error kept, `?`, a listing's unknown userids.

use super::*;

#[test]
fn signoff_with_several_games_names_them_all() {
    let r = Refusal::StillPlaying {
        userid: u("alice"),
        boards: vec![3.into(), 12.into()],
    };
    assert_eq!(
        r.to_string(),
        "alice still plays boards 3, 12: finish or resign them first (yinsh resign <board> <userid> <password>)."
    );
}

#[test]
fn ordinals_after_the_third_count() {
    let r = Refusal::PreviewStopped {
        board: 1.into(),
        from: 0,
        nth: 4,
        text: "e5-a1".to_string().into(),
        error: parse_error().into(),
    };
    assert!(
        r.to_string()
            .starts_with("Preview stopped at the 4th move given: ")
    );
    let draw = Refusal::OfferWaiting {
        board: 5.into(),
        by: u("bob"),
        kind: OfferKind::Draw,
        me: u("alice"),
    };
    assert!(
        draw.to_string()
            .starts_with("bob has made a draw offer that waits")
    );
}

#[test]
fn a_refusal_keeps_the_typed_notation_error() {
    let r = Refusal::IllegalMove {
        board: 1.into(),
        text: "e5-a1".to_string().into(),
        error: parse_error().into(),
    };
    let Refusal::IllegalMove { error, .. } = r else {
        panic!("not an illegal move");
    };
    assert_eq!(error, NotationError::Parse(parse_error()));
}

#[test]
fn a_refusal_goes_up_through_question_mark() {
    fn refused() -> Result<(), ExecError> {
        Err(Refusal::NotAdmin)?;
        Ok(())
    }
    assert!(matches!(
        refused(),
        Err(ExecError::Refused(Refusal::NotAdmin))
    ));
}

#[test]
fn a_listing_names_an_unknown_userid_after_the_first_by_its_place_only() {
    let r = |nth| Refusal::NoSuchPlayer {
        userid: u("Pw7marker").into(),
        nth,
    };
    assert_eq!(
        r(2).to_string(),
        "Invalid userid entered: the 2nd userid named has no account"
    );
    assert_eq!(
        r(11).to_string(),
        "Invalid userid entered: the 11th userid named has no account"
    );
    assert_eq!(r(1).to_string(), "Invalid userid entered: Pw7marker");
}
