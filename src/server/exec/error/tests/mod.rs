//! Each refusal's text, byte for byte as players read it, and the board its error
//! mail shows; the `Invalid challenge` answers' texts are tested in `challenge.rs`.

use super::*;
use crate::mail::auth_results::Doubt;
use crate::notation::{NotationError, ParseError, parse_turn};
use crate::server::model::{BoardId, OfferKind, UserId};

mod names;
mod others;
use names::name;

/// A userid of the tests.
fn u(text: &str) -> UserId {
    text.parse().expect("a userid")
}

/// What `e5-a1` reads to: a1 is not a point.
fn parse_error() -> ParseError {
    match parse_turn("e5-a1") {
        Err(e) => e,
        Ok(t) => panic!("e5-a1 parsed as {t:?}"),
    }
}

const NOT_A_POINT: &str =
    "at character 4 of `e5-a1`: a1 is not a point of the board (column a runs from a2 to a5)";

const VARIANTS: usize = 61;

/// Every variant with sample facts, the exact text, and the board shown.
fn table() -> Vec<(Refusal, String, Option<u32>)> {
    use Refusal::*;
    let s = |t: &str| t.to_string();
    let said = |t: &str| crate::server::command::Echo::from(t.to_string());
    vec![
        (UnknownUserid, s("Invalid userid entered"), None),
        (WrongPassword, s("Invalid password entered"), None),
        (
            BoardNotFound { board: 42.into() },
            s("Yinsh board 42 not found"),
            None,
        ),
        (
            BoardNotFoundFor {
                board: 42.into(),
                boards: vec![101.into(), 104.into()],
            },
            s("Yinsh board 42 not found. Your games going on are boards 101, 104."),
            None,
        ),
        (
            UnknownUseridOn { board: 42.into() },
            s(
                "Invalid userid entered for board 42: no account has the userid given. Nothing was done.",
            ),
            None,
        ),
        (
            WrongPasswordOn { board: 42.into() },
            s("Invalid password entered for board 42. Nothing was done."),
            None,
        ),
        (
            NotPlaying { board: 7.into() },
            s("You are NOT playing this game"),
            Some(7),
        ),
        (
            GameEnded { board: 7.into() },
            s("The game has ended"),
            Some(7),
        ),
        (
            NestedMultiple,
            s("\"multiple\" cannot be nested: put one command per line in the body."),
            None,
        ),
        (
            NoAddress,
            s(
                "No e-mail address given and none to take from the mail: write the address after the password.",
            ),
            None,
        ),
        (
            UseridTaken { userid: u("Alice") },
            s(
                "The userid Alice is already taken. Choose another one: signup <userid> <password> [<e-mail address> ...]",
            ),
            None,
        ),
        (
            AddressCrowded {
                address: s("al@example.org"),
                max: 3,
            },
            s(
                "The address al@example.org is already used by 3 accounts, the most one address may have: use another address.",
            ),
            None,
        ),
        (
            SenderNotVerified(Doubt::Failed),
            s(
                "This mail failed our mail system's sender checks (DMARC/DKIM/SPF): its From is not an address it was sent from, so no password, reply token or code is accepted from it and nothing was done. Send the command from your own mail account.",
            ),
            None,
        ),
        (
            WrongCode,
            s(
                "This verify code is wrong or older than 7 days: nothing was confirmed. Send \"change address <userid> <password> <address>\" for a new one.",
            ),
            None,
        ),
        (
            StillPlaying {
                userid: u("alice"),
                boards: vec![3.into()],
            },
            s(
                "alice still plays board 3: finish or resign it first (yinsh resign <board> <userid> <password>).",
            ),
            None,
        ),
        (
            OfferWaiting {
                board: 5.into(),
                by: u("bob"),
                kind: OfferKind::Undo,
                me: u("alice"),
            },
            s(
                "bob has made a take-back request that waits for your answer: send \"yinsh move 5 alice <password> accept\" or \"... reject\" first.",
            ),
            Some(5),
        ),
        (
            NothingToTakeBack { board: 5.into() },
            s("You have not played a move on this board yet: there is nothing to take back."),
            Some(5),
        ),
        (
            NoOfferToAnswer {
                board: 5.into(),
                other: u("bob"),
            },
            s(
                "There is no draw offer or take-back request from bob to answer on board 5. To offer a draw write \"propose\" as your move; to ask to take back your last move, \"undo\".",
            ),
            Some(5),
        ),
        (
            NoMoveLeftToTakeBack { board: 5.into() },
            s("There is no move left to take back."),
            Some(5),
        ),
        (
            NotYourMove {
                board: 9.into(),
                to_move: Some(u("bob")),
            },
            s("It is not your move: it is bob's turn."),
            Some(9),
        ),
        (
            SubmitNotYourMove {
                board: 9.into(),
                to_move: None,
            },
            s(
                "It is not your move: it is nobody's turn. (To have a move played when your turn comes, use yinsh queue.)",
            ),
            Some(9),
        ),
        (
            StaleMoveNumber {
                board: 9.into(),
                text: said("e5"),
                number: 4,
                marked: 3,
            },
            s(
                "Move e5 received as move #4, but it is marked #3: it was not played.\n(A mail sent twice or crossed with another one does this.) Check the board below and send your move again if it is still wanted.",
            ),
            Some(9),
        ),
        (
            SubmitMoveNumber {
                board: 9.into(),
                text: said("e5"),
                number: 4,
                marked: 3,
            },
            s("Move e5 received as move #4, but it is marked #3."),
            Some(9),
        ),
        (
            IllegalMove {
                board: 9.into(),
                text: said("e5-a1"),
                error: parse_error().into(),
            },
            format!("Move e5-a1 is not legal: {NOT_A_POINT}"),
            Some(9),
        ),
        (
            CannotQueue {
                board: 9.into(),
                text: said("e5-a1"),
                error: parse_error(),
            },
            format!("Move e5-a1 cannot be queued: {NOT_A_POINT}"),
            Some(9),
        ),
        (
            QueueMoveNumber {
                board: 9.into(),
                text: said("f6"),
                marked: 4,
                next: 4,
                opponent: u("bob"),
            },
            s(
                "Move f6 is marked #4, but the next move is #4 and it is bob's: a queued move gets #5 or later.",
            ),
            Some(9),
        ),
        (
            NothingSubmitted {
                board: 9.into(),
                userid: u("alice"),
            },
            s(
                "You have no submitted move waiting on board 9 (a move played since cancels it). Send \"yinsh submit 9 alice <password> <move>\" first, or play with yinsh move.",
            ),
            Some(9),
        ),
        (
            PreviewTooFar {
                board: 9.into(),
                total: 12,
                from: 20,
            },
            s("Board 9 has only 12 moves: there is no move #20 to start from."),
            Some(9),
        ),
        (
            PreviewStopped {
                board: 9.into(),
                from: 3,
                nth: 2,
                text: said("e5-a1"),
                error: parse_error().into(),
            },
            format!(
                "Preview stopped at the second move given: Move e5-a1 is not legal: {NOT_A_POINT}"
            ),
            Some(9),
        ),
        (
            ShowAsTooFar {
                board: 9.into(),
                total: 12,
            },
            s("Board 9 has only 12 moves."),
            Some(9),
        ),
        (
            ShowTooFar {
                board: 9.into(),
                total: 12,
                at: 30,
            },
            s("Board 9 has only 12 moves: there is no move #30 to show."),
            Some(9),
        ),
        (
            NoSuchPlayer {
                userid: u("nobody").into(),
                nth: 1,
            },
            s("Invalid userid entered: nobody"),
            None,
        ),
        (
            UseridRetired { userid: u("alice") },
            s(
                "The userid alice belonged to an account that was signed off; its games and ratings keep the name, so it is not given to anyone else. Choose another one: signup <userid> <password> [<e-mail address> ...] (its former owner takes it back by signing up with its last password).",
            ),
            None,
        ),
        (
            UseridLikeWebAddress {
                userid: u("cheap.example"),
            },
            s(
                "Choose another userid: cheap.example has a dot before a letter, so mail programs would show it as a web address. Use - or _ instead of the dot. Nothing was changed.",
            ),
            None,
        ),
        (
            PasswordCouldShow,
            s(
                "Choose another password: this one reads as a move, a number, an e-mail address, a board number or a listing word, and could then be shown where those are. Add a letter from l to z (other than x) or a sign such as ! or _ . Nothing was changed.",
            ),
            None,
        ),
        (
            NotPlayingNorWatching { board: 2.into() },
            s(
                "You are NOT playing this game nor watching it: subscribe first (yinsh subscribe <board> <userid> <password>).",
            ),
            Some(2),
        ),
        (
            EmptyChat { board: 2.into() },
            s("The chat is empty: write your message in the body of the mail."),
            Some(2),
        ),
        (
            SubscribeOwnGame { board: 2.into() },
            s("You play this game: you get its mails already."),
            Some(2),
        ),
        (
            EmptyMessage,
            s("The message is empty: write it in the body of the mail."),
            None,
        ),
        (
            NoSuchRecipient {
                userid: u("carol").into(),
            },
            s("Invalid userid entered: carol (nothing was sent)"),
            None,
        ),
        (
            NotAdmin,
            s(
                "Only the server's admins may broadcast (their userids are listed in the file admins of the server's home). Use message <userid> <password> <to-userid> ... to write to players.",
            ),
            None,
        ),
        (
            EmptyBroadcast,
            s("The broadcast is empty: write it in the body of the mail."),
            None,
        ),
        (
            LoginsPaused {
                userid: u("alice"),
                until: 1_795_387_620,
                owner: Vec::new(),
            },
            s(
                "Too many wrong passwords were sent for alice: its logins are paused until 2026-11-22 22:47 UTC. Nothing was done. Its owner has been told.",
            ),
            None,
        ),
        (
            ReservedUserid { userid: u("admin") },
            s(
                "The userid admin is reserved by the server's operator. Choose another one: signup <userid> <password> [<e-mail address> ...]",
            ),
            None,
        ),
        (
            RobotName {
                userid: u("Robot_7"),
            },
            s(
                "The userid Robot_7 is kept for the server's robots (robot1 .. robot5 play YINSH by themselves). Choose another one: signup <userid> <password> [<e-mail address> ...]",
            ),
            None,
        ),
        (
            RobotAccount {
                userid: u("robot3"),
            },
            s(
                "robot3 is one of the server's robots: it plays by itself, and nobody can log in as it. Challenge it with: yinsh challenge <your userid> robot3",
            ),
            None,
        ),
        (
            TooManyWatchers {
                board: 101.into(),
                max: 20,
            },
            s("Board 101 has 20 watchers already, the most a game may have."),
            Some(101),
        ),
        (
            VacationTooLong { days: 120, max: 90 },
            s(
                "A vacation is at most 90 days: send a new vacation command when it ends. (0 ends a vacation.)",
            ),
            None,
        ),
        (
            EmptyReply { board: 101.into() },
            s(
                "Your reply holds no move. Write your move as the first line of the reply, above the quoted\nmail (or one of: resign, propose, accept, reject, undo, pass, chat; or decline, in a game\nsomeone else started for you, before your first move); anything below it goes to the\nother player as your comment.",
            ),
            Some(101),
        ),
        (
            OldBoardMail {
                board: 101.into(),
                answered: 16,
                now: 19,
                to_move: Some(u("alice")),
                me: u("bob"),
            },
            s(
                "You answered an old mail (move 16): nothing was played. The game is at move 19\nand it is alice's turn. The board as it is now is below.",
            ),
            Some(101),
        ),
        (
            FirstLineNotAMove {
                board: 101.into(),
                text: said("Hi Carol,"),
            },
            s(
                "The first line of your reply must be your move, e.g. d4; \"Hi Carol,\" is not one. Write your\nmove as the first line of the reply, above the quoted mail (or one of: resign, propose,\naccept, reject, undo, pass, chat); anything below it goes to the other player as your\ncomment. Send \"yinsh help\" for how moves are written.",
            ),
            Some(101),
        ),
        (
            OfferAnsweredInWords {
                board: 101.into(),
                by: u("bob"),
                kind: OfferKind::Draw,
            },
            s(
                "bob has made a draw offer that waits for your answer; the first line of your reply is not\none the server reads, so nothing was done. To answer it, press Reply and write reject\n(or accept) as the first line; anything below it goes to bob as your comment.",
            ),
            Some(101),
        ),
        (
            ReplyNotYours {
                userid: u("alice"),
                from: s("mallory@evil.example"),
            },
            s(
                "This reply answers a mail sent to alice, but it comes from mallory@evil.example, which is not one of\nalice's addresses: nothing was done. Reply from the address the mail went to.",
            ),
            None,
        ),
        (
            WatcherUnconfirmed { board: 101.into() },
            s(
                "Board 101 may be watched only from an account with a confirmed address. Confirm yours\nby replying to the \"verify\" mail the server sent it, then subscribe again. Nothing was done.",
            ),
            Some(101),
        ),
        (
            DeclineAfterMove {
                board: 101.into(),
                moved: 2,
            },
            s(
                "You played move #2 on board 101: a game can be declined only before your first\nmove. Nothing was done. To end it, resign: yinsh resign 101 <userid> <password>",
            ),
            Some(101),
        ),
        (
            PlayLink(crate::server::exec::error::PlayLinkRefusal::MovedOn {
                board: 101.into(),
                number: 9,
                marked: 7,
            }),
            s(
                "The game moved on: the play link was for move #7 of board 101, and the next move\nis #9. Nothing was played. The board as it is now is below; play from the link of\nyour latest board mail.",
            ),
            Some(101),
        ),
    ]
    .into_iter()
    .chain(super::account_texts::table())
    .collect()
}

#[test]
fn every_refusal_reads_as_players_read_it_today() {
    for (refusal, text, _) in table() {
        assert_eq!(refusal.to_string(), text, "{}", name(&refusal));
    }
}

#[test]
fn every_refusal_shows_the_board_it_concerns() {
    for (refusal, _, board) in table() {
        assert_eq!(
            refusal.board(),
            board.map(BoardId::from),
            "{}",
            name(&refusal)
        );
    }
}

/// Issue 45 attack 3: the other reasons a From proves nothing, each told as it is (the
/// table holds `Doubt::Failed`'s).
#[test]
fn a_from_proving_nothing_says_why() {
    use Refusal::*;
    let s = |t: &str| t.to_string();
    let texts: Vec<(Refusal, String, Option<u32>)> = vec![
        (
            SenderNotVerified(Doubt::SeveralFrom),
            s(
                "This mail names more than one sender (several From headers, or several addresses or a group in one): our mail system checks one of them and we would read another, so no password, reply token or code is accepted from it and nothing was done. Send the command with your own address alone in From.",
            ),
            None,
        ),
        (
            SenderNotVerified(Doubt::NoPass),
            s(
                "Our mail system could not confirm that this mail comes from the address in its From (no DMARC pass), which this server requires before a Reply or a play link acts for a player: nothing was done. Send the command with your password instead (\"help\" shows how), or from a mail account whose mail passes DMARC.",
            ),
            None,
        ),
    ];
    for (refusal, text, board) in texts {
        assert_eq!(refusal.to_string(), text);
        assert_eq!(refusal.board(), board.map(BoardId::from));
    }
}

#[test]
fn the_table_holds_every_variant_once() {
    let mut names: Vec<&str> = table().iter().map(|(r, _, _)| name(r)).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), VARIANTS);
    assert_eq!(table().len(), VARIANTS);
}
