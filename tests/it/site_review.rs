//! Issue 28 on the site: a finished game's page with the robot's review
//! (`reviews/<n>.json`, written here with `Store::put_review` from `ai::review` at a
//! small playout budget) shows the win-chance chart under the board (one point per
//! position, the turning points ringed, the values the review's), its caption and the
//! list of turning points, escaped; a game without a review shows none of it; the page
//! is rewritten by a refresh after the review is written and by `yinsh-pbem site`; a
//! review that does not fit its game is a named error; the finished game's folder
//! stays within the 150 kB of issue 27.

use std::path::{Path, PathBuf};

use yinsh_pbem::ai::review;
use yinsh_pbem::notation::play_turn;
use yinsh_pbem::rules::{Color, Game, Outcome, Variant};
use yinsh_pbem::server::game::review::stored;
use yinsh_pbem::server::site::{self, SiteError, Target};
use yinsh_pbem::server::store::{
    GameReview, OwedKind, OwedReview, ReviewSide, Store, TurningPoint,
};

use crate::site::build_site;
use crate::site_page::{game_data, read, server};
use crate::support::server::TestServer;
use crate::support::turns::random_turns;

/// The site's target as the tests' config writes it.
fn target(site: &Path) -> Target<'_> {
    Target {
        out: site,
        address: "yinsh@localhost",
    }
}

/// A server with a site whose board 101 is `turns` random turns (seed `seed`), then
/// resigned by bob (Black): White won off the board.
pub(crate) fn finished_game(seed: u64, turns: usize) -> (TestServer, PathBuf) {
    let (mut s, site) = server();
    // The run that ends the game owes its review (issue 28; the next flush makes
    // it, issue 46): taken away, so that each test starts from a finished game
    // without one (as a game finished before reviews were made) and writes the
    // review it needs.
    s.fast_forward(101, &random_turns(seed, turns));
    s.send("bob@example.org", "yinsh resign 101 bob bpw", "");
    let store = Store::open(&s.home()).expect("store");
    let owed = store.owed::<OwedReview>(101.into()).expect("read");
    assert!(
        owed.is_some(),
        "the run that ended the game owes its review"
    );
    assert!(!s.home().join("reviews/101.json").exists(), "none made yet");
    store
        .remove_owed(OwedKind::Review, 101.into())
        .expect("forget it");
    site::refresh(&store, target(&site), s.now, &[101.into()]).expect("refresh");
    (s, site)
}

/// The robot's review of board 101 at `playouts` a position, as the store keeps it:
/// the chart and each side's turning points, in the order of the game.
pub(crate) fn review_of(s: &TestServer, playouts: u64) -> GameReview {
    let store = Store::open(&s.home()).expect("store");
    let file = store.game(101).expect("read").expect("board 101");
    let mut game = Game::new(Variant::Normal);
    let turns: Vec<_> = file
        .turns
        .iter()
        .map(|t| play_turn(&mut game, &t.text).expect("plays"))
        .collect();
    let ending = (!game.is_over()).then_some(Outcome::Win(Color::White));
    let r = review(Variant::Normal, &turns, ending, playouts).expect("review");
    stored(101.into(), &r, s.now)
}

/// Keeps `review` in the store and refreshes board 101's page, as the run that writes
/// a review does.
pub(crate) fn put_and_refresh(s: &TestServer, site: &Path, review: &GameReview) {
    let store = Store::open(&s.home()).expect("store");
    store.put_review(review).expect("put review");
    site::refresh(&store, target(site), s.now, &[101.into()]).expect("refresh");
}

/// The attribute `name` of every element of `html` that has it, in order.
fn attributes(html: &str, name: &str) -> Vec<String> {
    let key = format!(" {name}=\"");
    html.match_indices(&key)
        .map(|(at, _)| {
            let rest = &html[at + key.len()..];
            rest[..rest.find('"').expect("end")].to_string()
        })
        .collect()
}

/// Issue 28: the reviewed game's page holds the chart under the board (a point for
/// each position and the result, each with its position and value; the turning points
/// ringed), its caption, and the turning points, each linking the position after it;
/// the page's data holds the percentages the script names the points with. The
/// finished game's folder stays within 150 kB with the review.
#[test]
fn a_reviewed_games_page_shows_the_chart_and_the_turning_points() {
    let (s, site) = finished_game(3, 64);
    let page_path = site.join("games/101/index.html");
    assert!(!read(&page_path).contains("id=\"review\""), "no review yet");
    let review = review_of(&s, 16);
    assert_eq!(review.chart.len(), 66, "64 turns, then the resignation");
    assert!(!review.points.is_empty(), "{review:?}");
    put_and_refresh(&s, &site, &review);
    let page = read(&page_path);

    // Under the board, before the side column; the frame knows it is reviewed.
    let board = page.find("id=\"board-box\"").expect("board");
    let section = page.find("<section class=\"review\"").expect("review");
    let side = page.find("<div class=\"side\">").expect("side");
    assert!(board < section && section < side, "{page}");
    assert!(page.contains("<div class=\"game reviewed\">"), "{page}");
    assert!(page.contains("16 playouts a position"), "{page}");

    // One point per position and one for the result, numbered 0.., each valued.
    let chart = &page[section..side];
    let positions = attributes(chart, "data-position");
    let expected: Vec<String> = (0..review.chart.len()).map(|k| k.to_string()).collect();
    assert_eq!(positions, expected);
    let titles: Vec<&str> = chart
        .split("<title>after ")
        .skip(1)
        .map(|t| t.split_once("</title>").expect("end").0)
        .collect();
    let percents: Vec<String> = review
        .chart
        .iter()
        .enumerate()
        .map(|(k, v)| format!("{k} turns: White {}%", (v * 100.0).round()))
        .collect();
    assert_eq!(titles, percents, "each point's value");
    let data = game_data(&page);
    let chances: Vec<u64> = data["chances"]
        .as_array()
        .expect("chances")
        .iter()
        .map(|v| v.as_u64().expect("a whole percent"))
        .collect();
    let whole: Vec<u64> = review
        .chart
        .iter()
        .map(|v| (v * 100.0).round() as u64)
        .collect();
    assert_eq!(chances, whole);

    // The turning points: ringed on the chart, listed with their links and values.
    assert_eq!(
        chart.matches("r=\"7\" fill=\"none\"").count(),
        review.points.len(),
        "a ring per turning point"
    );
    for p in &review.points {
        let k = p.number;
        let who = if p.side == ReviewSide::White {
            "White (alice)"
        } else {
            "Black (bob)"
        };
        let item = format!(
            "<li><a href=\"#m{k}\" data-k=\"{k}\">Move {k}</a>, {who}: played <code>{}</code>; \
             White's chance {:.0}% &rarr; {:.0}%; the robot preferred <code>{}</code>",
            p.played,
            p.before * 100.0,
            p.after * 100.0,
            p.preferred
        );
        assert!(chart.contains(&item), "{item} in {chart}");
    }

    // Issue 27's bound holds with the review.
    let files: Vec<(String, u64)> = std::fs::read_dir(site.join("games/101"))
        .expect("folder")
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, e.metadata().expect("meta").len())
        })
        .collect();
    let bytes: u64 = files.iter().map(|(_, n)| n).sum();
    eprintln!("a 64-turn game's folder with its review: {bytes} bytes: {files:?}");
    assert!(bytes <= 150_000, "{bytes} bytes");
}

/// Issue 28: a finished game without a review, and a game going on, show no review
/// (no empty box, no data for it), even when a review file is there for the game
/// going on.
#[test]
fn a_page_without_a_review_shows_none() {
    let (mut s, site) = finished_game(5, 20);
    let page = read(&site.join("games/101/index.html"));
    assert!(!page.contains("id=\"review"), "{page}");
    assert!(!page.contains("reviewed"), "{page}");
    assert!(page.contains("<div class=\"game\">"), "{page}");
    assert!(game_data(&page).get("chances").is_none(), "{page}");
    // A second game, going on, with a stray review file: not shown.
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let store = Store::open(&s.home()).expect("store");
    let mut stray = review_of(&s, 4);
    stray.board = 102.into();
    stray.chart = vec![0.5];
    stray.points.clear();
    store.put_review(&stray).expect("put");
    site::refresh(&store, target(&site), s.now, &[102.into()]).expect("refresh");
    let page = read(&site.join("games/102/index.html"));
    assert!(!page.contains("id=\"review\""), "{page}");
}

/// Issue 28: the turns of a review are written into the page escaped (a review is
/// ours, but nothing reaches the page unescaped).
#[test]
fn a_reviews_text_is_escaped() {
    let (s, site) = finished_game(5, 20);
    let mut review = review_of(&s, 4);
    review.points = vec![TurningPoint {
        number: 7,
        side: ReviewSide::Black,
        played: "<script>alert(1)</script>".to_string(),
        preferred: "\"&'".to_string(),
        before: 0.25,
        after: 0.75,
        preferred_after: None,
    }];
    put_and_refresh(&s, &site, &review);
    let page = read(&site.join("games/101/index.html"));
    assert!(!page.contains("<script>alert"), "{page}");
    assert!(
        page.contains("played <code>&lt;script&gt;alert(1)&lt;/script&gt;</code>"),
        "{page}"
    );
    assert!(
        page.contains("preferred <code>&quot;&amp;&#39;</code>"),
        "{page}"
    );
    assert!(page.contains("White's chance 25% &rarr; 75%"), "{page}");
}

/// Issue 28: a review that does not fit its game (more values than positions) is a
/// named error saying which file to remove, and the page is not written with it.
#[test]
fn a_review_that_does_not_fit_its_game_is_a_named_error() {
    let (s, site) = finished_game(5, 20);
    let store = Store::open(&s.home()).expect("store");
    let mut review = review_of(&s, 4);
    review.chart = vec![0.5; 40];
    store.put_review(&review).expect("put");
    let err = site::build(&store, target(&site), s.now).expect_err("a misfit");
    assert!(matches!(err, SiteError::Review(_)), "{err:?}");
    let text = err.to_string();
    assert!(
        text.contains("reviews/101.json") && text.contains("40 chart values"),
        "{text}"
    );
    assert!(!read(&site.join("games/101/index.html")).contains("id=\"review\""));
}

/// Issue 28: `yinsh-pbem site` (the whole site, through the binary) writes the review
/// on the reviewed game's page.
#[test]
fn the_site_command_writes_the_review() {
    let (s, _site) = finished_game(3, 30);
    let review = review_of(&s, 4);
    Store::open(&s.home())
        .expect("store")
        .put_review(&review)
        .expect("put");
    let out = s.home().with_file_name("elsewhere");
    build_site(&s, &out);
    let page = read(&out.join("games/101/index.html"));
    assert!(page.contains("<section class=\"review\""), "{page}");
    assert_eq!(
        attributes(&page, "data-position").len(),
        review.chart.len(),
        "{page}"
    );
}
