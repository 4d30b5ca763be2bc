//! The pbmserv command families, adapted to `Command::Board`: offers are moves with a
//! keyword, queue, submit, preview and options, show by userid, showas and all show,
//! and the people commands.

use super::*;

// The tests below came with command_ext.rs, adapted to `Command::Board`.

#[test]
fn offers_are_moves_with_a_keyword() {
    assert!(matches!(
        parse("yinsh move 101 alice pw ACCEPT"),
        Ok(Command::Board {
            board,
            action: BoardAction::Offer(OfferAction::Accept),
            ..
        }) if board == 101
    ));
    assert!(matches!(
        parse("yinsh move 101 alice pw undo"),
        Ok(Command::Board {
            action: BoardAction::Offer(OfferAction::Undo),
            ..
        })
    ));
}

#[test]
fn queue_submit_preview_and_options() {
    assert!(matches!(
        parse("yinsh queue 101 bob pw e5-e9#12"),
        Ok(Command::Board { action: BoardAction::Queue { moveno: Some(12), ref text }, .. }) if text.as_written() == "e5-e9"
    ));
    assert!(matches!(
        parse("yinsh preview 101#3 e5 f6"),
        Ok(Command::Preview { at: BoardRef { board, at: Some(3) }, ref moves }) if moves.len() == 2 && board == 101
    ));
    assert!(parse("yinsh preview 101").is_err());
    assert!(matches!(
        parse("yinsh challenge --nagtime=3 --forfeittime=9 a b"),
        Ok(Command::Challenge {
            nag_days: Some(3),
            forfeit_days: Some(9),
            ..
        })
    ));
    let e = parse("yinsh challenge --nagtime=0 a b")
        .unwrap_err()
        .to_string();
    assert!(e.contains("1 to 365"), "{e}");
}

#[test]
fn show_by_userid_showas_and_all_show() {
    assert!(matches!(
        parse("yinsh show alice bob next"),
        Ok(Command::ShowPlayers { ref userids, filter: GameFilter::Next }) if userids.len() == 2
    ));
    assert!(matches!(
        parse("yinsh showas alice pw 101 102#4"),
        Ok(Command::ShowAs { ref boards, .. }) if boards.len() == 2
    ));
    assert!(matches!(
        parse("ALL show alice"),
        Ok(Command::ShowPlayers { .. })
    ));
    assert!(parse("all games alice").is_err());
    assert!(parse("yinsh show 101 alice").is_err());
}

#[test]
fn people_commands() {
    assert!(matches!(
        parse("message alice pw bob carol"),
        Ok(Command::Message { ref to, .. }) if to.len() == 2
    ));
    assert!(parse("message alice pw").is_err());
    assert!(matches!(
        parse("vacation alice pw 14"),
        Ok(Command::Vacation { days: 14, .. })
    ));
    let e = parse("vacation alice pw soon").unwrap_err().to_string();
    assert!(
        e.ends_with(": the number of days is not a number like 14 (0 ends a vacation)"),
        "{e}"
    );
    assert!(matches!(
        parse("broadcast alice pw"),
        Ok(Command::Broadcast { .. })
    ));
    assert!(matches!(
        parse("yinsh ratings"),
        Ok(Command::Standings { page: 1 })
    ));
}
