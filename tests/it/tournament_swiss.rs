//! Issue 49, a three-round Swiss of seven by mail: a bye, one withdrawal (its game
//! resigned, the player paired no more), one forfeit by `tick` with the
//! clock moved on, every pairing and the final table with its tie-breaks checked
//! against values worked out by hand here; and a stranger's tournament commands,
//! which reach no player and cost at most the stranger's budget.

use crate::support::sent::{mails_to, one_to};
use crate::support::server::{Sent, TestServer, assert_says};
use crate::tournament::{addr, draw, players, pw, resign, sides, table_lines};

const DAY: u64 = 86_400;

/// The mail of the tournament to `userid` in `r`.
fn told<'a>(r: &'a [Sent], userid: &str) -> &'a Sent {
    r.iter()
        .find(|m| m.subject == "Yinsh tournament Swiss7" && m.to.iter().any(|t| t == addr(userid)))
        .unwrap_or_else(|| panic!("nothing of Swiss7 to {userid}: {r:?}"))
}

fn pairs(s: &TestServer, boards: std::ops::RangeInclusive<u32>) -> Vec<(String, String)> {
    boards.map(|b| sides(s, b)).collect()
}

fn p(w: &str, b: &str) -> (String, String) {
    (w.to_string(), b.to_string())
}

#[test]
fn a_swiss_of_seven_with_a_bye_a_withdrawal_and_a_forfeit() {
    let mut s = players(7);
    s.send(
        addr("alice"),
        "yinsh tournament create Swiss7 alice apw swiss -rounds=3",
        "",
    );
    for u in ["bob", "carol", "dave", "erin", "frank", "gina"] {
        s.send(
            addr(u),
            &format!("yinsh tournament join Swiss7 {u} {}", pw(u)),
            "",
        );
    }
    let r = s.send(addr("alice"), "yinsh tournament start Swiss7 alice apw", "");
    // Round 1. Everyone rated 1600, so ranked by userid: alice, bob, carol, dave,
    // erin, frank, gina. Seven: the lowest ranked, gina, has the bye. The six left
    // are one score group: the top half (alice, bob, carol) against the bottom half
    // (dave, erin, frank); on the first board the higher ranked has White, then the
    // colours alternate by board.
    assert_eq!(
        pairs(&s, 101..=103),
        [p("alice", "dave"), p("erin", "bob"), p("carol", "frank")]
    );
    assert_says(told(&r, "gina"), "You have the bye this round");
    assert_says(told(&r, "alice"), "round 1 of 3 has started");
    resign(&mut s, 101, "dave");
    // erin withdraws while board 102 goes on: she resigns it.
    let r = s.send(addr("erin"), "yinsh tournament leave Swiss7 erin epw", "");
    assert_says(
        told(&r, "erin"),
        "erin withdrew from tournament Swiss7: the 1 game not finished is resigned",
    );
    let board = r
        .iter()
        .find(|m| m.subject == "Yinsh Board 102" && m.to == [addr("bob")])
        .expect("bob's board mail");
    assert_says(
        board,
        "erin withdrew from tournament Swiss7, and so resigns this game.",
    );
    assert_eq!(s.game_file(102)["ended"]["reason"], "resigned");
    assert_says(board, "erin resigned.");
    let r = s.send("zoe@example.org", "yinsh tournament show Swiss7", "");
    assert_says(&one_to(&r, "zoe@example.org"), "Round 1 of 3.");
    let r = draw(&mut s, 103, "carol", "frank");
    // Round 2, paired when board 103 ended. Points: alice 1, bob 1, gina 1 (the
    // bye), carol .5, frank .5, dave 0; erin is out. Ranked: alice, bob, gina,
    // carol, frank, dave. alice meets bob (half her group below her); gina's group
    // has nobody left, she meets carol; frank meets dave. Colours: bob had Black,
    // alice White: bob White. gina had none, carol White: gina White. frank and dave
    // both had Black once: the higher ranked, frank, gets the other colour, White.
    assert_eq!(
        pairs(&s, 104..=106),
        [p("bob", "alice"), p("gina", "carol"), p("frank", "dave")]
    );
    assert_says(told(&r, "alice"), "round 2 of 3 has started");
    assert!(
        !r.iter()
            .any(|m| m.to.iter().any(|t| t == addr("erin"))
                && m.subject == "Yinsh tournament Swiss7"),
        "erin is paired no more: {r:?}"
    );
    resign(&mut s, 104, "bob");
    draw(&mut s, 106, "frank", "dave");
    // gina places a ring on board 105; carol never answers: tick, 22 days on,
    // forfeits her (21 days by default), and round 3 is paired in that tick.
    let r = s.send(addr("gina"), "yinsh move 105 gina gpw e5", "");
    assert!(!r.is_empty());
    let r = s.tick(s.now + 22 * DAY);
    assert_eq!(s.game_file(105)["ended"]["reason"], "forfeit");
    assert_eq!(s.game_file(105)["ended"]["by"], "carol");
    // Round 3. Points: alice 2, gina 2, bob 1, frank 1, carol .5, dave .5. alice
    // meets gina, bob frank, carol dave (no pair met before). Colours: alice had
    // W, B and gina W: gina had White more, alice gets it. bob (B, W) and frank
    // (B, W) are level and both had White last: the higher ranked, bob, gets Black.
    // dave had Black twice running: he gets White.
    assert_eq!(
        pairs(&s, 107..=109),
        [p("alice", "gina"), p("frank", "bob"), p("dave", "carol")]
    );
    assert_says(told(&r, "dave"), "round 3 of 3 has started");
    draw(&mut s, 107, "alice", "gina");
    resign(&mut s, 108, "frank");
    let r = resign(&mut s, 109, "carol");
    // Worked by hand. Points (a win 1, a draw 1/2, the bye 1):
    //   alice: 101 1 + 104 1 + 107 .5 = 2.5
    //   gina:  bye 1 + 105 1 + 107 .5 = 2.5
    //   bob:   102 1 (erin's forfeit) + 104 0 + 108 1 = 2
    //   dave:  101 0 + 106 .5 + 109 1 = 1.5
    //   frank: 103 .5 + 106 .5 + 108 0 = 1
    //   carol: 103 .5 + 105 0 (forfeit) + 109 0 = .5
    //   erin:  102 0, withdrawn = 0
    // Buchholz (the opponents' points; the bye counts as nothing):
    //   alice: dave 1.5 + bob 2 + gina 2.5 = 6
    //   gina:  bye 0 + carol .5 + alice 2.5 = 3
    //   bob:   erin 0 + alice 2.5 + frank 1 = 3.5
    //   dave:  alice 2.5 + frank 1 + carol .5 = 4
    //   frank: carol .5 + dave 1.5 + bob 2 = 4
    //   carol: frank 1 + gina 2.5 + dave 1.5 = 5
    //   erin:  bob 2 = 2
    // Sonneborn-Berger (each opponent's points times the score against them):
    //   alice: dave 1.5*1 + bob 2*1 + gina 2.5*.5 = 4.75
    //   gina:  carol .5*1 + alice 2.5*.5 = 1.75
    //   bob:   erin 0*1 + frank 1*1 = 1
    //   dave:  frank 1*.5 + carol .5*1 = 1
    //   frank: carol .5*.5 + dave 1.5*.5 = 1
    //   carol: frank 1*.5 = .5
    //   erin:  0
    // alice and gina are level on points: Buchholz 6 against 3 puts alice first.
    let want = [
        "1 alice 2.5 6 4.75",
        "2 gina 2.5 3 1.75",
        "3 bob 2 3.5 1",
        "4 dave 1.5 4 1",
        "5 frank 1 4 1",
        "6 carol 0.5 5 0.5",
        "7 erin (withdrew) 0 2 0",
    ];
    for u in ["alice", "bob", "carol", "dave", "erin", "frank", "gina"] {
        let last = told(&r, u);
        assert_says(last, "Tournament Swiss7 is over. The winner: alice.");
        assert_eq!(table_lines(last), want, "{}", last.body);
    }
    // The records carry the tournament and round.
    let f = s.game_file(109);
    assert_eq!(f["extra"]["tournament"]["name"], "Swiss7");
    assert_eq!(f["extra"]["tournament"]["round"], 3);
}

#[test]
fn a_strangers_tournament_commands_reach_no_player() {
    let mut s = players(3);
    s.send(addr("alice"), "yinsh tournament create Open1 alice apw", "");
    let players = [addr("alice"), addr("bob"), addr("carol")];
    // What reaches a player: nothing but the login throttle's notice to an owner
    // whose password was guessed (any command's, once an hour: `Wrong passwords for`).
    let reaches_players = |r: &[Sent]| {
        r.iter().any(|m| {
            m.to.iter().any(|t| players.contains(&t.as_str()))
                && !m.subject.starts_with("Wrong passwords for ")
        })
    };
    // Forged: alice's From without a password, bob's userid with a wrong one, and a
    // stranger's mails sent to a victim through Reply-To, twenty times.
    let mut to_victim = 0;
    for k in 0..20 {
        let lines = [
            "yinsh tournament start Open1 alice wrongpw",
            "yinsh tournament join Open1 bob wrongpw",
            "yinsh tournament leave Open1 alice wrongpw",
            "yinsh tournament create Spam1 carol wrongpw",
        ];
        let line = lines[k % lines.len()];
        let r = s.send_with_reply_to(
            "Mallory <mallory@evil.example>",
            "victim@example.net",
            line,
            "",
        );
        assert!(!reaches_players(&r), "{line}: {r:?}");
        to_victim += mails_to(&r, "victim@example.net").len();
    }
    // alice's From without her password starts nothing and reaches no other player.
    let r = s.send(addr("alice"), "yinsh tournament start Open1 alice", "");
    assert!(r.iter().all(|m| m.to == [addr("alice")]), "{r:?}");
    // The stranger's budget: five mails a day to an address nobody confirmed.
    assert!(to_victim <= 5, "{to_victim} mails to the victim");
    // Nothing changed: Open1 has its one player and has not started; no Spam1.
    let r = s.send("zoe@example.org", "yinsh tournament show Open1", "");
    assert_says(
        &one_to(&r, "zoe@example.org"),
        "Not started. Players (1): alice",
    );
    let r = s.send("zoe@example.org", "yinsh tournaments", "");
    assert!(!one_to(&r, "zoe@example.org").body.contains("Spam1"));
    // An account that never confirmed its address creates nothing and is told so.
    s.send("mallory@evil.example", "signup mallory mpw", "");
    let r = s.send_with_reply_to(
        "mallory@evil.example",
        "victim@example.net",
        "yinsh tournament create Spam2 mallory mpw",
        "",
    );
    assert!(!reaches_players(&r), "{r:?}");
    let r = s.send("zoe@example.org", "yinsh tournaments", "");
    assert!(!one_to(&r, "zoe@example.org").body.contains("Spam2"));
}
