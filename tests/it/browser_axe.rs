//! Issue 47 item 12: a screen reader can read the board. axe-core (the npm package,
//! installed into `target/tmp/axe/` by `.ci/run`, or here with `npm` when it is
//! missing) runs in headless Chromium on every page of the site (index, standings,
//! history, rules, a game page without and with a play token) and on the HTML part of
//! a board mail, an error mail and a review mail, in light and dark mode: it finds
//! nothing serious or critical. The position is there in words: the game page's list
//! (written by `board.js`) and the board mail's are the lines of
//! `text::position::position_in_words`, and the board points to the page's list.
//! Without Chromium or axe-core the tests say so and pass; under CI (`CI` set) their
//! absence fails them. Screenshots in `target/tmp/browser/`: `position-words.png` and
//! `position-words-dark.png` (the game page with the position in words unfolded).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use yinsh_pbem::notation::play_turn;
use yinsh_pbem::rules::{Color, Game, Variant};
use yinsh_pbem::server::text::position::position_in_words;

use crate::browser::{DrivenPage, Scheme, artefacts, chromium, driven};
use crate::review_mail::{before_the_end, reviews, write_config};
use crate::support::play_page::PlayPage;
use crate::support::sent::{ALICE, one_to};
use crate::support::server::{Sent, TestServer};
use crate::support::turns::random_turns;

/// One test at a time installs axe-core.
static INSTALL: Mutex<()> = Mutex::new(());

/// axe-core's `axe.min.js`, installed with `npm` when missing; `None` (after saying
/// so) outside CI when it cannot be had.
pub(crate) fn axe() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("axe");
    let script = dir.join("node_modules/axe-core/axe.min.js");
    let _one = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if !script.is_file() {
        std::fs::create_dir_all(&dir).expect("axe folder");
        let installed = Command::new("npm")
            .args([
                "install",
                "--no-save",
                "--no-audit",
                "--no-fund",
                "--prefix",
            ])
            .arg(&dir)
            .arg("axe-core@4")
            .status();
        eprintln!(
            "npm install axe-core@4 into {}: {installed:?}",
            dir.display()
        );
    }
    if script.is_file() {
        return Some(script);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but axe-core is missing: .ci/run installs it (npm install --prefix target/tmp/axe axe-core@4)"
    );
    eprintln!(
        "SKIPPED axe-core checks: no axe-core (npm install --prefix target/tmp/axe axe-core@4)"
    );
    None
}

/// The script that runs axe-core once the page has loaded and its own scripts ran,
/// and writes the violations (rule, impact, the elements) into `#driven`.
const RUN_AXE: &str = "<script src=\"axe.min.js\"></script><script>\
 window.addEventListener('load', function () {\
   axe.run(document, { resultTypes: ['violations'] }).then(function (r) {\
     var d = document.createElement('div'); d.id = 'driven';\
     d.setAttribute('data-violations', JSON.stringify(r.violations.map(function (v) {\
       return { id: v.id, impact: v.impact, help: v.help,\
         nodes: v.nodes.map(function (n) { return n.html.slice(0, 160); }) }; })));\
     document.body.appendChild(d); }); });</script>";

/// A finding of axe-core.
#[derive(Debug, serde::Deserialize)]
struct Violation {
    id: String,
    impact: Option<String>,
    help: String,
    nodes: Vec<String>,
}

/// Runs axe-core on `html` (the page as shown at `page`, whose folder gets a copy of
/// axe's script) opened with `fragment`, in light and dark mode; checks that it finds
/// nothing serious or critical, and that no request left the machine. Returns the DOM
/// of the light run.
pub(crate) fn check_page(
    program: &Path,
    axe: &Path,
    page: &Path,
    html: &str,
    fragment: &str,
) -> String {
    let copy = page.with_file_name("axe.min.js");
    std::fs::copy(axe, &copy).expect("axe's script beside the page");
    let driven_page = DrivenPage::new(
        page,
        &html.replace("</body>", &format!("{RUN_AXE}</body>")),
        fragment,
    );
    let mut first = None;
    for dark in [false, true] {
        let mut args = vec!["--window-size=1024,1400".to_string()];
        if dark {
            args.push("--force-dark-mode".to_string());
        }
        let dom = driven_page.dom(program, &args);
        let found: Vec<Violation> =
            serde_json::from_str(&driven(&dom, "data-violations")).expect("axe's findings");
        let (grave, minor): (Vec<&Violation>, Vec<&Violation>) = found
            .iter()
            .partition(|v| matches!(v.impact.as_deref(), Some("serious") | Some("critical")));
        for v in &minor {
            eprintln!(
                "{} (dark {dark}): axe-core, {:?}: {} ({}) {:?}",
                page.display(),
                v.impact,
                v.id,
                v.help,
                v.nodes
            );
        }
        assert!(
            grave.is_empty(),
            "{}{fragment} (dark {dark}): axe-core finds {grave:#?}",
            page.display()
        );
        first.get_or_insert(dom);
    }
    driven_page.close();
    std::fs::remove_file(&copy).expect("remove axe's copy");
    first.unwrap_or_default()
}

/// The texts of the items of the first list after `mark` in `dom`.
fn list_items(dom: &str, mark: &str) -> Vec<String> {
    let at = dom
        .find(mark)
        .and_then(|m| dom[m..].find("<ul").map(|u| m + u))
        .unwrap_or_else(|| panic!("no list after {mark} in {dom}"));
    let list = &dom[at..at + dom[at..].find("</ul>").expect("the list's end")];
    list.split("<li>")
        .skip(1)
        .map(|item| item.trim_end_matches("</li>").replace("&#39;", "'"))
        .collect()
}

/// The game the turns lead to.
fn game_of(turns: &[(Color, String)]) -> Game {
    let mut game = Game::new(Variant::Normal);
    for (_, t) in turns {
        play_turn(&mut game, t).expect("plays");
    }
    game
}

/// Issue 47 item 12: axe-core finds nothing serious or critical on the index, the
/// standings, the history, the rules, and a game page without and with a play token
/// (light and dark); the game page's position in words (written by `board.js`) is the
/// server's, and the board points to it.
#[test]
fn axe_finds_nothing_serious_on_the_site() {
    let Some(program) = chromium() else { return };
    let Some(axe) = axe() else { return };
    let turns = random_turns(9, 24);
    let page = PlayPage::at(&turns[..23]);
    for name in ["index.html", "standings.html", "history.html", "rules.html"] {
        let path = page.site.join(name);
        let html = std::fs::read_to_string(&path).expect("page");
        check_page(&program, &axe, &path, &html, "");
    }
    let game_page = page.site.join("games/101/index.html");
    let html = std::fs::read_to_string(&game_page).expect("game page");
    let want = position_in_words(&game_of(&turns[..23]));
    assert_eq!(
        list_items(&html, "<details id=\"position\""),
        want,
        "the server's list"
    );
    let dom = check_page(&program, &axe, &game_page, &html, "");
    assert_eq!(
        list_items(&dom, "<details id=\"position\""),
        want,
        "board.js writes the same"
    );
    assert!(
        dom.contains("aria-describedby=\"position-list\""),
        "the board points to the list: {dom}"
    );
    let played = check_page(
        &program,
        &axe,
        &game_page,
        &html,
        &format!("#play={}", page.token),
    );
    assert!(
        played.contains("role=\"group\"") && played.contains("aria-disabled=\"true\""),
        "in play mode the board is a group of point buttons: {played}"
    );
    // Screenshots with the position in words unfolded.
    let unfolded = DrivenPage::new(
        &game_page,
        &html.replace(
            "<details id=\"position\">",
            "<details id=\"position\" open>",
        ),
        "",
    );
    unfolded.screenshot_in(&program, "position-words.png", 1024, 1400, Scheme::Light);
    unfolded.screenshot_in(
        &program,
        "position-words-dark.png",
        1024,
        1400,
        Scheme::Dark,
    );
    unfolded.close();
}

/// The HTML part of `mail` as a page in `dir` (its pictures given as files beside
/// it): the page's path and text.
fn mail_page(mail: &Sent, dir: &Path) -> (PathBuf, String) {
    std::fs::create_dir_all(dir).expect("folder");
    let mut html = mail.html.clone().expect("an HTML part");
    for (k, (cid, png)) in mail.images.iter().enumerate() {
        let file = format!("picture-{k}.png");
        std::fs::write(dir.join(&file), png).expect("picture");
        html = html.replace(&format!("cid:{}", cid.trim_matches(['<', '>'])), &file);
    }
    (dir.join("mail.html"), html)
}

/// Issue 47 item 12: axe-core finds nothing serious or critical in the HTML part of a
/// board mail, an error mail and a review mail (light and dark); the board mail lists
/// the position in words.
#[test]
fn axe_finds_nothing_serious_in_the_mails() {
    let Some(program) = chromium() else { return };
    let Some(axe) = axe() else { return };
    let mut s = TestServer::new();
    write_config(&s, "review_playouts = 100");
    s.send(ALICE, "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    let turns = random_turns(5, 31);
    s.fast_forward(101, &turns[..30]);
    let r = s.send(
        ALICE,
        &format!("yinsh move 101 alice apw {}#31", turns[30].1),
        "Your move!",
    );
    let board = one_to(&r, "bob@example.org");
    let (path, html) = mail_page(&board, &artefacts().join("axe-board-mail"));
    let want = position_in_words(&game_of(&turns[..31]));
    assert_eq!(
        list_items(&html, "The position in words</h2>"),
        want,
        "the board mail's list"
    );
    check_page(&program, &axe, &path, &html, "");

    // An error mail about the game: a move to a point that is no point.
    let r = s.send("bob@example.org", "yinsh move 101 bob bpw e12-e13", "");
    let error = one_to(&r, "bob@example.org");
    assert!(error.html.is_some(), "the error mail has an HTML part");
    let (path, html) = mail_page(&error, &artefacts().join("axe-error-mail"));
    check_page(&program, &axe, &path, &html, "");

    // A review mail: a second game played to its end and reviewed.
    s.send(ALICE, "yinsh challenge alice bob", "");
    let last = before_the_end(&mut s, 102);
    s.send(ALICE, &format!("yinsh move 102 alice apw {last}"), "");
    let sent = s.flush(s.now + 60);
    let review = one_to(&reviews(&sent), "alice@example.org");
    let (path, html) = mail_page(&review, &artefacts().join("axe-review-mail"));
    check_page(&program, &axe, &path, &html, "");
}
