//! The game page and the site's lists after issues 26 (items 20 and 21) and 27: a
//! finished game costs a few files and at most about 150 kB, the positions drawn by
//! the page's script from the page's data; without the script, the player to move
//! finds the legal turns as mail links; the index names the server's address; the
//! standings and the history are tables; every move has an address (`#m<k>`); a game
//! going on shows its clock; on a 390 px phone the points are 32 px targets and a
//! tapped move keeps the board in view (`target/tmp/browser/phone-game.png`).

use std::path::{Path, PathBuf};

use yinsh_pbem::rules::{Game, Variant};
use yinsh_pbem::server::site::legal::legal_turns;

use crate::browser::{Trap, artefacts, chromium, run_chromium};
use crate::support::server::TestServer;
use crate::support::turns::random_turns;

/// A server with a site, alice (`apw`) and bob (`bpw`), board 101 started.
pub(crate) fn server() -> (TestServer, PathBuf) {
    let mut s = TestServer::new();
    let site = s.home().with_file_name("site");
    s.alice_bob_on_site(&site);
    (s, site)
}

/// Plays `turns` on board 101 by mail, alice White.
fn play(s: &mut TestServer, turns: &[(yinsh_pbem::rules::Color, String)]) {
    for (k, (_, text)) in turns.iter().enumerate() {
        let (who, pw) = if k % 2 == 0 {
            ("alice", "apw")
        } else {
            ("bob", "bpw")
        };
        s.send(
            &format!("{who}@example.org"),
            &format!("yinsh move 101 {who} {pw} {text}#{}", k + 1),
            "",
        );
    }
}

pub(crate) fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The JSON of a game page's `#game-data`.
pub(crate) fn game_data(page: &str) -> serde_json::Value {
    let start = page
        .find("<script type=\"application/json\" id=\"game-data\">")
        .expect("game data")
        + "<script type=\"application/json\" id=\"game-data\">".len();
    let end = start + page[start..].find("</script>").expect("end");
    serde_json::from_str(&page[start..end]).expect("json")
}

/// issue 27 (a page that scales): a finished game of 64 turns is five files and at
/// most 150 kB (it was 69 files and 2 MB, a picture a position); its page holds every
/// position for the script, and the final board, the moves and the record without it.
#[test]
fn a_finished_game_costs_a_few_files_and_at_most_150_kb() {
    let (mut s, site) = server();
    let turns = random_turns(3, 64);
    play(&mut s, &turns);
    s.send("bob@example.org", "yinsh resign 101 bob bpw", "");
    let dir = site.join("games/101");
    let files: Vec<(String, u64)> = std::fs::read_dir(&dir)
        .expect("game folder")
        .flatten()
        .map(|e| {
            let meta = e.metadata().expect("meta");
            (e.file_name().to_string_lossy().into_owned(), meta.len())
        })
        .collect();
    let bytes: u64 = files.iter().map(|(_, n)| n).sum();
    assert!(files.len() <= 5, "{files:?}");
    assert!(bytes <= 150_000, "{bytes} bytes: {files:?}");
    assert_eq!(files.iter().filter(|(n, _)| n.ends_with(".png")).count(), 1);
    let page = read(&dir.join("index.html"));
    let data = game_data(&page);
    assert_eq!(
        data["states"].as_array().expect("states").len(),
        turns.len() + 1
    );
    assert_eq!(data["moves"].as_array().expect("moves").len(), turns.len());
    assert!(data["play"].is_null(), "no play on a finished game");
    assert!(
        page.contains("<img id=\"board\" src=\"p64-"),
        "the final board"
    );
    assert!(page.contains(&format!(">{}</a>", turns[63].1)), "the moves");
    assert!(page.contains("board-101.sgf") && page.contains("board-101.txt"));
    assert!(site.join("board.js").is_file());
}

/// issue 27 (without JavaScript): the page of a game going on lists the legal turns of
/// the player to move as mail links to the server (placements a list of points; the
/// password written `<password>`), and its data holds the same list for the script.
#[test]
fn without_the_script_the_legal_turns_are_mail_links() {
    let (_s, site) = server();
    let page = read(&site.join("games/101/index.html"));
    assert!(page.contains("<noscript>"), "{page}");
    assert!(page.contains("Place a ring:"), "{page}");
    assert!(
        page.contains(
            "<a href=\"mailto:yinsh@localhost?subject=yinsh%20move%20101%20alice%20%3Cpassword%3E%20e5%231\">e5</a>"
        ),
        "{page}"
    );
    assert_eq!(page.matches("href=\"mailto:").count(), 85);
    let data = game_data(&page);
    let listed = serde_json::to_value(legal_turns(&Game::new(Variant::Normal))).expect("json");
    assert_eq!(data["play"]["turns"], listed);
    assert_eq!(data["play"]["player"], "alice");
    assert_eq!(data["play"]["k"], 1);
    assert_eq!(data["play"]["to"], "yinsh@localhost");
}

/// issue 26 item 21: the index says where to send `help` to join (the server's
/// address); item 20: the standings are tables without "Active/Limit" and "no limit".
#[test]
fn the_index_names_the_address_and_the_standings_are_a_table() {
    let (mut s, site) = server();
    play(&mut s, &random_turns(5, 12));
    s.send("bob@example.org", "yinsh resign 101 bob bpw", "");
    let index = read(&site.join("index.html"));
    assert!(index.contains("yinsh@localhost"), "{index}");
    let standings = read(&site.join("standings.html"));
    assert!(standings.contains("<table"), "{standings}");
    assert!(!standings.contains("<pre>"), "{standings}");
    assert!(!standings.contains("Limit"), "{standings}");
    assert!(standings.contains("<td>alice</td>"), "{standings}");
}

/// issue 26 item 21: the history is a table whose boards link their pages; each move
/// of a game has an address (`#m<k>`); a game going on shows its clock.
#[test]
fn the_history_links_the_boards_and_moves_have_addresses() {
    let (mut s, site) = server();
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    play(&mut s, &random_turns(7, 3));
    let page = read(&site.join("games/101/index.html"));
    assert!(
        page.contains("<td id=\"m3\"><a href=\"#m3\" data-k=\"3\">"),
        "{page}"
    );
    assert!(page.contains("Clock: last move"), "{page}");
    assert!(page.contains("forfeits on"), "{page}");
    s.send("bob@example.org", "yinsh resign 101 bob bpw", "");
    let history = read(&site.join("history.html"));
    assert!(!history.contains("<pre>"), "{history}");
    assert!(
        history.contains("<td><a href=\"games/101/index.html\">101</a></td>"),
        "{history}"
    );
    let page = read(&site.join("games/101/index.html"));
    assert!(
        !page.contains("Clock:"),
        "a finished game has no clock: {page}"
    );
}

/// issue 26 item 21 and issue 27: on a 390 px phone, a point of the board is a target
/// of at least 32 px, and tapping a move far down the list keeps the board in view.
#[test]
fn a_phone_keeps_the_board_in_view_and_its_points_are_big_enough() {
    let Some(program) = chromium() else { return };
    let (mut s, site) = server();
    play(&mut s, &random_turns(11, 40));
    let page = site.join("games/101/index.html");
    let html = read(&page);
    let probe = "<script>window.addEventListener('load', function () {\
        var links = document.querySelectorAll('a[data-k]'), a = links[links.length - 3];\
        a.scrollIntoView(); a.dispatchEvent(new MouseEvent('click', { bubbles: true }));\
        var box = document.getElementById('svgboard').getBoundingClientRect();\
        var pt = document.querySelector('circle.pt').getBoundingClientRect();\
        var d = document.createElement('div'); d.id = 'phone';\
        d.setAttribute('data-top', Math.round(box.top));\
        d.setAttribute('data-bottom', Math.round(box.bottom));\
        d.setAttribute('data-inner', window.innerHeight);\
        d.setAttribute('data-scrolled', Math.round(window.scrollY));\
        d.setAttribute('data-point', Math.floor(pt.width));\
        d.setAttribute('data-caption', document.getElementById('caption').textContent);\
        document.body.appendChild(d); });</script>";
    let probed = page.with_file_name("phone.html");
    std::fs::write(&probed, html.replace("</body>", &format!("{probe}</body>"))).expect("write");
    let url = format!("file://{}", probed.display());
    let trap = Trap::new();
    let size = "--window-size=390,844".to_string();
    let dom = run_chromium(
        &program,
        &trap,
        &url,
        &["--dump-dom".to_string(), size.clone()],
    );
    // The page as a phone shows it first (a headless screenshot of a scrolled page
    // comes out blank).
    let shot = artefacts().join("phone-game.png");
    run_chromium(
        &program,
        &trap,
        &format!("file://{}", page.display()),
        &[format!("--screenshot={}", shot.display()), size],
    );
    std::fs::remove_file(&probed).expect("remove");
    let at = dom.find("id=\"phone\"").expect("the probe ran");
    let dom = &dom[at..dom[at..].find('>').map_or(dom.len(), |e| at + e)];
    let at = 0;
    let attr = |name: &str| -> i64 {
        let tag = &dom[at..];
        let start = tag.find(&format!("{name}=\"")).expect(name) + name.len() + 2;
        tag[start..start + tag[start..].find('"').expect("end")]
            .parse()
            .expect("number")
    };
    assert!(
        attr("data-scrolled") > 0,
        "the move list was scrolled: {dom}"
    );
    let shot = std::fs::read(&shot).expect("screenshot");
    assert!(shot.len() > 10_000, "a screenshot of the page");
    assert!(attr("data-top") >= 0, "the board's top is in view: {dom}");
    assert!(
        attr("data-bottom") <= attr("data-inner"),
        "the board is in view: {dom}"
    );
    assert!(attr("data-point") >= 32, "a point is a 32 px target: {dom}");
    assert!(dom.contains("data-caption=\"After move 38"), "{dom}");
}
