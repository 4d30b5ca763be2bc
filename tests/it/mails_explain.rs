//! Mails that explain themselves (issue 14), through the real binary: `help yinsh`
//! and how to read the drawing, the vacation notices, the move template, a forfeit
//! told as a forfeit everywhere.

use crate::support::sent::{ALICE, BOB, CAROL, first_to, html, split_reviews};
use crate::support::server::{TestServer, assert_says};
use yinsh_pbem::server::text::wrap::wrap;

const DAY: u64 = 86_400;

#[test]
fn help_yinsh_gives_the_yinsh_help() {
    let mut s = TestServer::new();
    let yinsh = s.send(ALICE, "yinsh help", "");
    let r = s.send(ALICE, "help yinsh", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Yinsh help");
    assert_eq!(r[0].body, yinsh[0].body);
    // Plain `help` is still the general help.
    let r = s.send(ALICE, "help", "");
    assert_eq!(r[0].subject, "Yinsh PBeM help");
}

#[test]
fn opponents_are_told_of_a_vacation_and_of_its_end() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send("Carol <carol@example.org>", "signup carol cpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh challenge bob alice", "");
    s.send(ALICE, "yinsh challenge alice carol", "");
    let r = s.send(ALICE, "vacation alice apw 10", "");
    assert_eq!(r.len(), 3, "alice, bob once for two boards, carol: {r:?}");
    let bob: Vec<_> = r.iter().filter(|m| m.to == ["bob@example.org"]).collect();
    assert_eq!(bob.len(), 1, "{r:?}");
    assert_eq!(bob[0].subject, "Vacation for alice");
    assert_says(bob[0], "alice is on vacation until ");
    assert_says(bob[0], "On boards 101, 102 the clocks are stopped");
    let carol = r
        .iter()
        .find(|m| m.to == ["carol@example.org"])
        .expect("carol told");
    assert_says(carol, "On board 103 the clocks are stopped");
    let r = s.send(ALICE, "vacation alice apw 0", "");
    let bob = r
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .expect("bob told");
    assert_says(
        bob,
        "alice is back from vacation: the clocks of boards 101, 102 run again.",
    );
}

/// The board mail's "Your move" template, filled with the turn each player of the
/// 408 Boardspace games really played there, is accepted as that turn: a removal that
/// wins asks for no ring move after it, and a lone row is named.
#[test]
fn the_move_template_filled_in_is_the_turn_played_in_every_real_game() {
    use yinsh_pbem::notation::{play_turn, write_turn};
    use yinsh_pbem::rules::{Action, Game};
    use yinsh_pbem::server::text::reply::move_template;

    use crate::boardspace::records;
    use crate::support::turns::group_turns;

    let Some(records) = records() else {
        return;
    };
    let (mut checked, mut winning_removals) = (0, 0);
    for record in &records {
        let actions: Vec<Action> = record.actions.iter().map(|(_, a)| *a).collect();
        for (before, turn) in group_turns(Game::new(record.variant), &actions) {
            let template = move_template(&before).to_string();
            let mut filled = template.clone();
            for a in &turn {
                let (hole, text) = match a {
                    Action::Place(p) => ("<point>", p.to_string()),
                    Action::RemoveRow(r) => ("<row>", r.to_string()),
                    Action::RemoveRing(p) => ("<ring>", p.to_string()),
                    Action::Move { from, to } => ("<from>-<to>", format!("{from}-{to}")),
                    Action::Pass => ("--", "--".to_string()),
                };
                if let Some(at) = filled.find(hole) {
                    filled.replace_range(at..at + hole.len(), &text);
                }
            }
            // The template is the turn's shape up to its last hole; a ring move may be
            // followed by the removals it makes, which no template can foresee.
            let canonical = write_turn(&turn);
            let mut after = before;
            let played = play_turn(&mut after, &canonical);
            if after.to_act() == before.to_act() && !after.is_over() {
                continue; // the record's last turn, cut short by a resignation
            }
            assert_eq!(played.as_deref(), Ok(&turn[..]), "{}", record.file);
            assert!(
                canonical.starts_with(&filled) && !filled.contains('<'),
                "{}: template {template:?} filled as {filled:?}, played {canonical:?}",
                record.file
            );
            let mut shape = before;
            if filled.len() < canonical.len() {
                assert!(canonical[filled.len()..].starts_with(';'), "{canonical}");
            } else {
                assert_eq!(play_turn(&mut shape, &filled).as_deref(), Ok(&turn[..]));
            }
            checked += 1;
            winning_removals += usize::from(after.is_over() && template.starts_with('x'));
        }
    }
    assert!(checked > 20_000, "{checked} turns checked");
    assert!(
        winning_removals > 0,
        "no game ended by a removal at the start of a turn"
    );
}

/// A forfeit is told as a forfeit, with the game's own number of days, in the status
/// block of the board (text and HTML), in every mail of it and in `show`: never as a
/// resignation.
#[test]
fn a_forfeit_is_told_as_a_forfeit_with_its_days_never_as_a_resignation() {
    let mut s = TestServer::alice_bob_carol("--nagtime=2 --forfeittime=5");
    // bob moves once: a game he never moved in would be cancelled (issue 25).
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(BOB, "yinsh move 101 bob bpw f6", "");
    s.send(ALICE, "yinsh move 101 alice apw e4", "");
    let r = s.tick(s.now + 5 * DAY);
    let (reviews, r) = split_reviews(r);
    assert_eq!(
        reviews.len(),
        2,
        "the game ended: one review mail a player: {reviews:?}"
    );
    assert_eq!(r.len(), 2, "{r:?}");
    let show = s.send(CAROL, "yinsh show 101", "");
    assert_eq!(show.len(), 1, "{show:?}");
    let ending = "Game over: bob (Black) forfeited: no move in 5 days; alice (White) wins\n";
    // Issue 26 finding 19: the mails of the forfeit say it once, in their event line;
    // `show` says it in the ending line.
    for m in &r {
        assert_says(m, "bob has not moved for 5 days and forfeits the game.");
    }
    assert_says(&show[0], "bob forfeited the game: no move in 5 days.");
    for m in r.iter().chain(&show) {
        assert_says(m, ending);
        assert!(!m.body.contains("resigned"), "{}", m.body);
        assert!(html(m).contains(ending.trim_end()), "{}", html(m));
        assert!(!html(m).contains("resigned"), "{}", html(m));
    }
}

/// `yinsh help` says how to read the drawing: which labels name which lines.
#[test]
fn yinsh_help_explains_which_labels_name_which_lines_of_the_drawing() {
    use yinsh_pbem::rules::Point;

    let mut s = TestServer::new();
    let r = s.send(ALICE, "yinsh help", "");
    assert_eq!(r.len(), 1);
    for line in [
        "How to read the drawing: a point is named by its column letter and its number.",
        "the letters A to K stand below the foot of their columns; a column",
        "runs straight up the page from its letter (e1 at the bottom, e10 at the top).",
        "Numbers: each of 1 to 11 stands at the upper left end of its line, which runs",
        "names a5, b5, c5 ... j5. The dots level with a number belong to other lines.",
        "The third direction runs up to the right, letter and number rising together:",
    ] {
        assert_says(&r[0], line);
    }
    // What it says of the board is true.
    for p in ["e1", "e10", "a5", "j5", "c3", "f6"] {
        assert!(p.parse::<Point>().is_ok(), "{p}");
    }
    for p in ["e0", "e11", "k5"] {
        assert!(p.parse::<Point>().is_err(), "{p}");
    }
}

/// Board mails tell the player to move when their clock started and when, without a
/// move, they get their next reminder and forfeit, their vacations not counted; and
/// `tick` acts at exactly those times.
#[test]
fn board_mails_tell_the_dates_of_the_next_reminder_and_of_the_forfeit() {
    use yinsh_pbem::server::text::dates::format_date;

    let clock = |since: u64, reminder: u64, forfeit: u64| {
        format!(
            "Clock: last move {}; without a move bob gets a reminder on {} and forfeits on {}.",
            format_date(since),
            format_date(reminder),
            format_date(forfeit)
        )
    };
    let mut s = TestServer::alice_bob_carol("--nagtime=2 --forfeittime=5");
    // bob moves once: a game he never moved in is not reminded (issue 25).
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(BOB, "yinsh move 101 bob bpw f6", "");
    let r = s.send(ALICE, "yinsh move 101 alice apw e4", "");
    let t1 = s.now;
    let told = clock(t1, t1 + 2 * DAY, t1 + 5 * DAY);
    for m in &r {
        assert_says(m, &told);
        assert!(html(m).contains(&told), "{}", html(m));
    }
    // bob goes on vacation for 3 days a day later: the dates move by 3 days.
    s.now = t1 + DAY;
    s.send(BOB, "vacation bob bpw 3", "");
    let show = s.send(CAROL, "yinsh show 101", "");
    let (reminder, forfeit) = (t1 + 5 * DAY, t1 + 8 * DAY);
    assert_says(&show[0], &clock(t1, reminder, forfeit));
    // tick reminds and forfeits at exactly the times told, not a minute earlier.
    assert!(s.tick(reminder - 60).is_empty());
    let r = s.tick(reminder);
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Nag: Yinsh Board 101 bob");
    // The reminder counts the days as the clock does, and tells the next one.
    // Its first line says which days count (issue 14).
    let told = r[0].body.lines().nth(1).unwrap_or_default();
    assert_eq!(
        told, "You have not moved on board 101 for 2 days (vacation days not counted).",
        "{}",
        r[0].body
    );
    assert_says(&r[0], &clock(t1, reminder + 2 * DAY, forfeit));
    assert!(
        s.tick(forfeit - 60)
            .iter()
            .all(|m| m.subject.starts_with("Nag"))
    );
    let r = s.tick(forfeit);
    let (reviews, r) = split_reviews(r);
    assert_eq!(
        reviews.len(),
        2,
        "the game ended: one review mail a player: {reviews:?}"
    );
    assert_eq!(r.len(), 2, "{r:?}");
    assert_says(&r[0], "forfeits the game");
    // A finished game has no clock.
    assert!(!r[0].body.contains("Clock:"), "{}", r[0].body);
}

/// The mails of subscribe (a watcher's first board), submit, confirm and preview tell
/// the same `Clock:` line as the board mails of a move: for submit and preview the
/// clock of the game as stored, since nothing was played.
#[test]
fn subscribe_submit_confirm_and_preview_mails_tell_the_clock() {
    use yinsh_pbem::server::text::dates::format_date;

    let clock = |since: u64, who: &str| {
        format!(
            "Clock: last move {}; without a move {who} gets a reminder on {} and forfeits on {}.",
            format_date(since),
            format_date(since + 2 * DAY),
            format_date(since + 5 * DAY)
        )
    };
    let mut s = TestServer::alice_bob_carol("--nagtime=2 --forfeittime=5");
    // bob moves once: a game he never moved in is not reminded (issue 25).
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(BOB, "yinsh move 101 bob bpw f6", "");
    s.send(ALICE, "yinsh move 101 alice apw e4", "");
    let t1 = s.now;
    let bobs = clock(t1, "bob");
    let r = s.send(CAROL, "yinsh subscribe 101 carol cpw", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(&r[0], &bobs);
    assert!(html(&r[0]).contains(&bobs), "{}", html(&r[0]));
    let r = s.send(BOB, "yinsh submit 101 bob bpw a2", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Yinsh Board 101 preview");
    assert_says(&r[0], &bobs);
    let r = s.send(CAROL, "yinsh preview 101 a2 e6", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(&r[0], &bobs);
    let r = s.send(BOB, "yinsh confirm 101 bob bpw", "");
    assert_eq!(r.len(), 3, "alice, bob, carol: {r:?}");
    let alices = clock(s.now, "alice");
    for m in &r {
        assert_says(m, &alices);
    }
}

/// When alice's queued move answers bob's move in the same mail, every mail of it
/// (bob's, alice's, a watcher's) still draws the board after bob's move, below the
/// board as it is now, in the text and the HTML part (as a second picture).
#[test]
fn a_queued_answer_still_shows_the_board_after_the_move_it_answered() {
    let mut s = TestServer::alice_bob_carol("");
    s.send(CAROL, "yinsh subscribe 101 carol cpw", "");
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    s.send(ALICE, "yinsh queue 101 alice apw e6#3", "");
    let shown = s.send(CAROL, "yinsh show 101", "");
    let r = s.send(BOB, "yinsh move 101 bob bpw a2", "");
    assert_eq!(r.len(), 3, "alice, bob, carol: {r:?}");
    // The board after bob's move: `show` sent just then, with bob's move added, is
    // what `yinsh show 101#2` now draws.
    let at2 = s.send(CAROL, "yinsh show 101#2", "");
    // The drawing with its status block, without the position in words under it.
    let drawing_of = |m: &crate::support::server::Sent| {
        m.body
            .splitn(3, "\n\n")
            .nth(2)
            .unwrap_or_default()
            .split("\n\nThe position in words:")
            .next()
            .unwrap_or_default()
            .trim_end()
            .to_string()
    };
    let drawing = drawing_of(&at2[0]);
    assert!(drawing.contains("bob"), "{}", at2[0].body);
    assert_ne!(drawing, drawing_of(&shown[0]));
    let heading = "The board after bob's move #2, before alice's queued move was played:";
    for m in &r {
        assert_says(m, "alice's queued move e6 was played as move #3.");
        assert!(
            m.body.contains(&wrap(&format!("{heading}\n{drawing}"))),
            "{}\n---\n{drawing}",
            m.body
        );
        let html = html(m);
        assert!(html.contains(&heading.replace('\'', "&#39;")), "{html}");
        // Its picture, the one `show 101#2` carries, below the board now.
        let earlier = html
            .find("cid:board-101-earlier@")
            .expect("the earlier picture");
        assert!(
            html.find("cid:board-101@").is_some_and(|now| now < earlier),
            "{html}"
        );
        assert_eq!(m.images.len(), 2, "{html}");
        assert!(
            m.images[1].0.starts_with("board-101-earlier@"),
            "{:?}",
            m.images[1].0
        );
        assert_eq!(
            m.images[1].1, at2[0].images[0].1,
            "the board after bob's move"
        );
        assert_ne!(m.images[0].1, m.images[1].1);
    }
    // The next move's mails draw one board again.
    let r = s.send(BOB, "yinsh move 101 bob bpw a3", "");
    assert!(
        r.iter()
            .all(|m| !m.body.contains("before alice's queued") && m.images.len() == 1),
        "{r:?}"
    );
}

/// A game without a move yet counts from its start; a robot's turn has no clock.
#[test]
fn the_clock_of_a_new_game_counts_from_its_start_and_robots_have_none() {
    use yinsh_pbem::server::text::dates::format_date;

    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    let r = s.send(ALICE, "yinsh challenge alice bob", "");
    let t0 = s.now;
    assert_says(
        first_to(&r, "bob"),
        &format!(
            "Clock: game started {}; without a move alice gets a reminder on {} and forfeits on {}.",
            format_date(t0),
            format_date(t0 + 7 * DAY),
            format_date(t0 + 21 * DAY)
        ),
    );
    let r = s.send(ALICE, "yinsh challenge robot1 alice", "");
    assert!(!r[0].body.contains("Clock:"), "{}", r[0].body);
}

/// A draw offer or take-back request that lapses because a move was played is said so
/// in that move's mails, to both players (text and HTML), not first on `accept`.
#[test]
fn an_offer_that_lapses_is_said_so_in_the_mails_of_the_move() {
    let mut s = TestServer::alice_bob_carol("");
    s.send(ALICE, "yinsh move 101 alice apw propose", "");
    let r = s.send(ALICE, "yinsh move 101 alice apw e5", "");
    assert_eq!(r.len(), 2, "{r:?}");
    let lapse = "alice's draw offer lapsed: alice played move #1 before bob answered it.";
    for m in &r {
        assert_says(m, lapse);
        assert!(
            html(m).contains(&lapse.replace('\'', "&#39;")),
            "{}",
            html(m)
        );
    }
    // The next mails do not say it again.
    s.send(ALICE, "yinsh move 101 alice apw undo", "");
    let r = s.send(BOB, "yinsh move 101 bob bpw a2", "");
    assert_eq!(r.len(), 2, "{r:?}");
    for m in &r {
        assert_says(
            m,
            "alice's take-back request lapsed: bob played move #2 instead of answering it.",
        );
        assert!(!m.body.contains("draw offer"), "{}", m.body);
    }
    let r = s.send(ALICE, "yinsh move 101 alice apw e6", "");
    assert!(r.iter().all(|m| !m.body.contains("lapsed")), "{r:?}");
}

/// `yinsh games` with no userid lists the server's games going on, most recent first,
/// and says where the ended ones are.
#[test]
fn yinsh_games_without_a_userid_lists_the_servers_games() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send("Carol <carol@example.org>", "signup carol cpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh challenge bob carol", "");
    s.send(ALICE, "yinsh challenge carol alice", "");
    s.send(BOB, "yinsh resign 101 bob bpw", "");
    let r = s.send(ALICE, "yinsh games", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "List of Yinsh games");
    assert_says(&r[0], "Games going on at this server (2):\n");
    let b103 = r[0].body.find("   103  carol").expect("board 103");
    let b102 = r[0].body.find("   102  bob").expect("board 102");
    assert!(b103 < b102, "most recent first: {}", r[0].body);
    assert!(!r[0].body.contains("   101  "), "ended: {}", r[0].body);
    assert_says(&r[0], "The games that have ended: send \"yinsh history\".");
    // With a userid, as before.
    let r = s.send(ALICE, "yinsh games bob", "");
    assert_says(&r[0], "active games of bob (1):");
}
