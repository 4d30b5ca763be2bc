//! Issue 28, the server's half of the robot's review: a game that ends is reviewed by
//! the next `flush` or `tick` (issue 46: the deliver that ends it sends its mails
//! without making it) and the review mailed to each human player, naming the turning
//! points, in a mail of at most 100 kB; the players' own games are reviewed before
//! accounts' requests of other games; a game nobody moved in is not reviewed; the review kept equals `ai::review` of the
//! game at the configured budget; `yinsh review` of a game going on, of a reviewed
//! game (at once) and by reply; an account that asks gets the queued review too; a
//! stranger's flood of requests spends at most the reviews' hourly share and the
//! stranger's mail budget; a claim of a killed run lapses and the review is made.

use std::path::Path;

use yinsh_pbem::ai::review;
use yinsh_pbem::rules::{Color, Variant};
use yinsh_pbem::server::game::review::stored;
use yinsh_pbem::server::model::BoardId;
use yinsh_pbem::server::store::{OwedKind, OwedReview, RobotTime, Store};

use crate::support::data::fixture_tokens;
use crate::support::mail::Client;
use crate::support::sent::{ALICE, BOB, CAROL, html, mails_to, one_to};
use crate::support::server::{Sent, TestServer, assert_says};

const MALLORY: &str = "Mallory <mallory@example.net>";
const HOUR: u64 = 3600;

/// The blunder fixture's turns (`tests/data/transcripts/review-blunder.txt`): White's
/// last turn wins, after Black's blunder on turn 64.
fn blunder_turns() -> Vec<String> {
    fixture_tokens("review-blunder.txt")
}

/// Board `board` (alice White, bob Black) fast-forwarded to just before White's
/// winning turn, which is returned.
pub(crate) fn before_the_end(s: &mut TestServer, board: u32) -> String {
    let mut turns = blunder_turns();
    let last = turns.pop().expect("turns");
    let played: Vec<(Color, String)> = turns
        .into_iter()
        .enumerate()
        .map(|(k, t)| {
            (
                if k % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                t,
            )
        })
        .collect();
    s.fast_forward(board, &played);
    last
}

/// The review mails among `sent`.
pub(crate) fn reviews(sent: &[Sent]) -> Vec<Sent> {
    sent.iter()
        .filter(|m| m.subject.ends_with(" review"))
        .cloned()
        .collect()
}

pub(crate) fn write_config(s: &TestServer, robot: &str) {
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(s.home().join("config.toml"), format!("[robot]\n{robot}\n")).expect("config");
}

/// The reviews' think time of the hour of `now` counted spent, so that the runs of
/// that hour make none (the reviews owed wait).
fn spend_the_reviews_hour(home: &Path, now: u64) {
    let store = Store::open(home).expect("store");
    let time = RobotTime {
        hour: now / HOUR,
        review_ms: 10_000_000,
        ..RobotTime::default()
    };
    store.put_robot_time(&time).expect("robot time");
}

fn reviews_made(home: &Path) -> usize {
    std::fs::read_dir(home.join("reviews"))
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                .count()
        })
        .unwrap_or(0)
}

/// Issue 28 and 46: the mail that ends a game sends its board mails and makes no
/// review (it is owed, none is kept); the next flush makes it: one review mail to each
/// player (none to carol), naming Black's blunder of turn 64 with the robot's winning
/// turn; the HTML part carries the chart and the turning points' boards; the review
/// kept is `ai::review` of the game at 600 playouts; nothing is owed and a later tick
/// reviews nothing again.
#[test]
fn a_finished_game_is_reviewed_once_and_mailed_to_each_player() {
    let mut s = TestServer::alice_bob_carol("");
    let last = before_the_end(&mut s, 101);
    let sent = s.send(ALICE, &format!("yinsh move 101 alice apw {last}"), "");
    assert!(reviews(&sent).is_empty(), "{sent:?}");
    assert_eq!(sent.len(), 2, "the final board mails: {sent:?}");
    let store = Store::open(&s.home()).expect("store");
    assert!(
        store
            .owed::<OwedReview>(BoardId::from(101))
            .expect("read")
            .is_some()
    );
    assert_eq!(reviews_made(&s.home()), 0, "no review made in the deliver");
    let now = s.now + 60;
    let sent = s.flush(now);
    let mails = reviews(&sent);
    assert_eq!(mails.len(), 2, "{sent:?}");
    assert!(mails_to(&mails, "carol@example.org").is_empty());
    for who in ["alice@example.org", "bob@example.org"] {
        let m = one_to(&mails, who);
        assert_eq!(m.subject, "Yinsh Board 101 review");
        assert_says(
            &m,
            "The robot's review of board 101: alice (White) - bob (Black)",
        );
        assert_says(&m, "Game won by alice.");
        assert_says(
            &m,
            "Turn 64, bob (Black): played g10-d7. White's chance before it",
        );
        assert_says(&m, "The robot preferred h7-k7");
        assert_says(&m, "Turns 61-65: ");
        let page = html(&m);
        assert!(page.contains("cid:review-101@"), "{page}");
        assert!(page.contains("Turn 64, bob (Black)"), "{page}");
        assert!(m.images.len() >= 3, "the chart and two boards at least");
        assert!(m.images.len() <= 5, "at most the chart and two pairs");
    }
    // The review kept is the library's review of the game at the budget.
    let kept = store
        .review(BoardId::from(101))
        .expect("read")
        .expect("kept");
    let played = yinsh_pbem::notation::play_transcript(
        Variant::Normal,
        &blunder_turns().join(" "),
        yinsh_pbem::notation::FinalPass::Play,
    )
    .expect("plays");
    let turns = yinsh_pbem::notation::split_turns(
        &yinsh_pbem::rules::Game::new(Variant::Normal),
        &played.actions,
    )
    .expect("turns");
    let expected = review(Variant::Normal, &turns, None, 600).expect("review");
    assert_eq!(kept, stored(BoardId::from(101), &expected, kept.made));
    assert!(kept.points.iter().any(|p| p.number == 64), "{kept:?}");
    assert!(store.all_owed::<OwedReview>().expect("owed").is_empty());
    let later = s.tick(s.now + 60);
    assert!(
        reviews(&later).is_empty(),
        "never reviewed twice: {later:?}"
    );
}

/// Issue 28: `yinsh review` of a game going on is told its review comes when it ends;
/// of a reviewed game, anyone gets the review mail at once; and a player gets it by
/// replying `review` to the game's last board mail.
#[test]
fn yinsh_review_of_a_running_game_of_a_reviewed_game_and_by_reply() {
    let mut s = TestServer::alice_bob_carol("");
    let r = s.send(CAROL, "yinsh review 101", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Yinsh Board 101 review asked");
    assert_says(
        &r[0],
        "is still being played: its review comes when it ends.",
    );
    let last = before_the_end(&mut s, 101);
    let sent = s.send(ALICE, &format!("yinsh move 101 alice apw {last}"), "");
    let now = s.now;
    assert_eq!(reviews(&s.flush(now)).len(), 2);
    let r = s.send(MALLORY, "yinsh review 101", "");
    let m = one_to(&r, "mallory@example.net");
    assert_eq!(m.subject, "Yinsh Board 101 review");
    assert_says(&m, "Turn 64, bob (Black)");
    let board_mail = sent
        .iter()
        .find(|m| m.to == ["bob@example.org"] && !m.subject.contains("review"))
        .cloned()
        .expect("bob's last board mail");
    let r = s.press_reply(Client::Thunderbird, BOB, &board_mail, "review");
    let m = one_to(&r, "bob@example.org");
    assert_eq!(m.subject, "Yinsh Board 101 review", "{r:?}");
    assert_says(&m, "Turn 64, bob (Black)");
    assert_eq!(reviews_made(&s.home()), 1, "made once, sent three times");
}

/// Issue 28: past the hour's share the review of a game that ended waits, with a log
/// line; carol, who asks with her password, is told it comes to her too; the first
/// run of the next hour makes it and mails it to alice, bob and carol.
#[test]
fn an_account_that_asks_gets_the_queued_review_when_it_is_made() {
    let mut s = TestServer::alice_bob_carol("");
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    spend_the_reviews_hour(&s.home(), s.now);
    let sent = s.send(BOB, "yinsh resign 101 bob bpw", "");
    assert!(reviews(&sent).is_empty(), "{sent:?}");
    let now = s.now;
    assert!(reviews(&s.flush(now)).is_empty(), "the hour is spent");
    assert!(
        s.log().contains("reviews' think time for this hour spent"),
        "{}",
        s.log()
    );
    let r = s.send(CAROL, "yinsh review 101 carol cpw", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(&r[0], "the review comes by mail to the players and to you.");
    let r = s.send(MALLORY, "yinsh review 101", "");
    assert_says(&r[0], "the review comes by mail to the players.");
    let owed = Store::open(&s.home())
        .expect("store")
        .all_owed::<OwedReview>()
        .expect("owed");
    assert_eq!(owed.len(), 1);
    assert_eq!(owed[0].requesters.len(), 1, "carol only: {owed:?}");
    let next_hour = (s.now / HOUR + 1) * HOUR;
    let sent = s.tick(next_hour);
    let mails = reviews(&sent);
    assert_eq!(mails.len(), 3, "{sent:?}");
    for who in ["alice@example.org", "bob@example.org", "carol@example.org"] {
        assert_says(&one_to(&mails, who), "bob resigned.");
    }
    assert!(mails_to(&mails, "mallory@example.net").is_empty());
}

/// Issue 28: a stranger asking 200 times (no password) for the reviews of eight
/// finished games, with the clock fixed within one hour, gets at most the stranger's
/// budget of mails (10 a day), and the reviews made take at most the hour's share
/// (1 s here) and one review more: then they wait, and a tick of the same hour makes
/// none.
#[test]
fn a_strangers_flood_of_review_requests_spends_at_most_the_hourly_share() {
    let mut s = TestServer::confirming();
    write_config(&s, "review_seconds_per_hour = 1");
    s.confirmed("alice", "apw", "alice@example.org");
    s.confirmed("bob", "bpw", "bob@example.org");
    let boards: Vec<u32> = (101..109).collect();
    spend_the_reviews_hour(&s.home(), s.now);
    for &b in &boards {
        s.send(ALICE, "yinsh challenge -password apw alice bob", "");
        before_the_end(&mut s, b);
        // The setup's own hour spent (fast-forwarding moves the clock on).
        spend_the_reviews_hour(&s.home(), s.now + 60);
        s.send(ALICE, &format!("yinsh resign {b} alice apw"), "");
    }
    let store = Store::open(&s.home()).expect("store");
    assert_eq!(
        store.all_owed::<OwedReview>().expect("owed").len(),
        boards.len()
    );
    assert_eq!(reviews_made(&s.home()), 0, "the setup's hour was spent");
    let t0 = (s.now / HOUR + 1) * HOUR;
    spend_the_reviews_hour(&s.home(), s.now);
    let mut to_mallory = 0;
    for k in 0..200 {
        s.now = t0;
        let b = boards[k % boards.len()];
        let r = s.send(MALLORY, &format!("yinsh review {b}"), "");
        to_mallory += mails_to(&r, "mallory@example.net").len();
    }
    assert!(to_mallory <= 10, "{to_mallory} mails to the stranger");
    assert_eq!(reviews_made(&s.home()), 0, "a deliver makes no review");
    for _ in &boards {
        s.flush(t0 + 60);
    }
    let made = reviews_made(&s.home());
    assert!(made >= 1, "the share lets one review start");
    assert!(
        made < boards.len(),
        "{made} reviews: the share was never spent"
    );
    let time = store.robot_time().expect("time");
    let per_review = time.reviewed(t0 + 60) / made as u64;
    assert!(
        time.reviewed(t0 + 60) < 1000 + 2 * per_review.max(1),
        "{time:?}: more than the share and one review"
    );
    s.tick(t0 + 120);
    assert_eq!(
        reviews_made(&s.home()),
        made,
        "none past the share this hour"
    );
    assert!(s.log().contains("reviews' think time for this hour spent"));
}

/// Issue 28: a review claimed by a run that was killed while it thought stays owed:
/// runs leave it alone while the claim holds, and the first run after the claim
/// lapsed makes it.
#[test]
fn a_review_claimed_by_a_killed_run_is_made_once_its_claim_lapses() {
    let mut s = TestServer::alice_bob_carol("");
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    spend_the_reviews_hour(&s.home(), s.now);
    s.send(BOB, "yinsh resign 101 bob bpw", "");
    let store = Store::open(&s.home()).expect("store");
    let next_hour = (s.now / HOUR + 1) * HOUR;
    // As a run killed while thinking leaves it: claimed for 900 s.
    let owed = OwedReview {
        claimed_until: next_hour + 900,
        ..store
            .owed::<OwedReview>(BoardId::from(101))
            .expect("read")
            .expect("owed")
    };
    store.put_owed(&owed).expect("claim");
    assert!(
        reviews(&s.tick(next_hour + 60)).is_empty(),
        "the claim holds"
    );
    let sent = s.tick(next_hour + 901);
    assert_eq!(reviews(&sent).len(), 2, "{sent:?}");
    assert!(store.all_owed::<OwedReview>().expect("owed").is_empty());
}

/// Issue 28 and 46, through the real binary: the last move delivered (no review in
/// it), `flush` run, and the review read from the outbox as a player reads it (its
/// text part); each review mail, its pictures included, is at most 100 kB, with a
/// board drawn for each turning point the HTML part shows them for.
#[test]
fn the_binary_mails_the_review_a_player_reads() {
    let mut s = TestServer::with_binary();
    write_config(&s, "review_playouts = 100");
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    let last = before_the_end(&mut s, 101);
    let ending = s.send(ALICE, &format!("yinsh move 101 alice apw {last}"), "");
    assert!(reviews(&ending).is_empty(), "{ending:?}");
    let before = s.outbox_files();
    s.flush(s.now + 60);
    let files: Vec<_> = (s.outbox_files().into_iter())
        .filter(|f| !before.contains(f))
        .collect();
    let sent = s.sent_since(&before);
    let mails = reviews(&sent);
    assert_eq!(mails.len(), 2, "{sent:?}");
    assert_eq!(files.len(), 2, "{files:?}");
    for m in &mails {
        let page = html(m);
        let drawn = page.matches("alt=\"Turn ").count();
        let sizes: Vec<usize> = m.images.iter().map(|(_, png)| png.len()).collect();
        eprintln!("pictures: {sizes:?}");
        assert_eq!(
            m.images.len(),
            1 + drawn,
            "the chart and each board: {page}"
        );
        assert_eq!(
            drawn, 4,
            "the two largest turning points drawn, two boards each"
        );
        assert!(
            page.contains("Boards are drawn for the 2 turning points that cost most"),
            "{page}"
        );
    }
    for f in &files {
        let bytes = std::fs::metadata(f).expect("mail").len();
        eprintln!("review mail {}: {bytes} bytes", f.display());
        assert!(bytes <= 100_000, "{}: {bytes} bytes", f.display());
    }
    let m = one_to(&mails, "bob@example.org");
    let text = &m.body;
    assert!(
        text.starts_with("The robot's review of board 101: alice (White) - bob (Black)"),
        "{text}"
    );
    assert!(text.contains("100 playouts"), "{text}");
    assert!(text.contains("Turning points:"), "{text}");
    assert!(
        text.contains("White's chance in percent after every turn:"),
        "{text}"
    );
    assert!(text.contains("Turns 1-10: "), "{text}");
    assert!(text.lines().all(|l| l.chars().count() < 400), "{text}");
}

/// Issue 46: reviews are made in order: a player's own finished game before an older
/// review an account asked of a game it plays no part in. Board 101 ended before
/// reviews were made (its owed entry gone) and carol asks for it; board 102 ends
/// later. With the hour's share all but spent, the next flush makes only 102's; the
/// flush of the hour after makes 101's and mails it to carol too.
#[test]
fn a_players_own_game_is_reviewed_before_an_older_request_of_another() {
    let mut s = TestServer::alice_bob_carol("");
    s.send(ALICE, "yinsh move 101 alice apw e5", "");
    spend_the_reviews_hour(&s.home(), s.now);
    s.send(BOB, "yinsh resign 101 bob bpw", "");
    let store = Store::open(&s.home()).expect("store");
    store
        .remove_owed(OwedKind::Review, BoardId::from(101))
        .expect("as a game ended before reviews");
    let r = s.send(CAROL, "yinsh review 101 carol cpw", "");
    assert_says(&r[0], "the review comes by mail to the players and to you.");
    s.send(ALICE, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh move 102 alice apw e5", "");
    s.send(BOB, "yinsh resign 102 bob bpw", "");
    let owed = store.all_owed::<OwedReview>().expect("owed");
    assert_eq!(owed.len(), 2, "{owed:?}");
    assert!(
        owed[0].since > owed[1].since,
        "102's is the newer: {owed:?}"
    );
    // All of the hour's share but a millisecond spent: one review may start.
    let next_hour = (s.now / HOUR + 1) * HOUR;
    let time = RobotTime {
        hour: next_hour / HOUR,
        review_ms: 119_999,
        ..RobotTime::default()
    };
    store.put_robot_time(&time).expect("robot time");
    let mails = reviews(&s.flush(next_hour + 60));
    assert_eq!(mails.len(), 2, "102's to alice and bob: {mails:?}");
    assert!(mails.iter().all(|m| m.subject == "Yinsh Board 102 review"));
    assert!(store.review(BoardId::from(101)).expect("read").is_none());
    let mails = reviews(&s.flush(next_hour + HOUR + 60));
    assert_eq!(mails.len(), 3, "{mails:?}");
    assert!(mails.iter().all(|m| m.subject == "Yinsh Board 101 review"));
    assert_eq!(mails_to(&mails, "carol@example.org").len(), 1);
}

/// Issue 46: a game nobody moved in (bob resigns before any turn) owes no review: no
/// flush makes one, and `yinsh review` says there is nothing to review.
#[test]
fn a_game_nobody_moved_in_is_not_reviewed() {
    let mut s = TestServer::alice_bob_carol("");
    s.send(BOB, "yinsh resign 101 bob bpw", "");
    let store = Store::open(&s.home()).expect("store");
    assert!(store.all_owed::<OwedReview>().expect("owed").is_empty());
    let now = s.now + 60;
    assert!(reviews(&s.flush(now)).is_empty());
    let r = s.send(CAROL, "yinsh review 101 carol cpw", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_says(
        &r[0],
        "ended before anyone moved in it: there is nothing to review.",
    );
    assert!(store.all_owed::<OwedReview>().expect("owed").is_empty());
    assert_eq!(reviews_made(&s.home()), 0);
}
