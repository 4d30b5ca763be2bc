//! Issue 49: the site's tournament page in headless Chromium: axe-core finds nothing
//! serious or critical on the list and on a Swiss's page (light and dark), and
//! screenshots on a phone (390 px) and a desktop (1280 px) are kept in
//! `target/tmp/browser/`: `tournament-phone.png`, `tournament-desktop.png`.
//! Without Chromium or axe-core the test says so and passes (see `browser_axe.rs`).

use crate::browser::{DrivenPage, chromium};
use crate::browser_axe::{axe, check_page};
use crate::tournament::{addr, draw, players, pw, resign};

#[test]
fn the_tournament_page_reads_on_a_phone_and_to_a_screen_reader() {
    let Some(program) = chromium() else { return };
    let Some(axe) = axe() else { return };
    let mut s = players(5);
    let site = s.dir.path().join("site");
    std::fs::write(
        s.home().join("config.toml"),
        format!("[site]\nout = \"{}\"\n", site.display()),
    )
    .expect("config");
    s.send(
        addr("alice"),
        "yinsh tournament create Autumn-Open alice apw swiss -rounds=2",
        "",
    );
    for u in ["bob", "carol", "dave", "erin"] {
        s.send(
            addr(u),
            &format!("yinsh tournament join Autumn-Open {u} {}", pw(u)),
            "",
        );
    }
    s.send(
        addr("alice"),
        "yinsh tournament start Autumn-Open alice apw",
        "",
    );
    // Round 1: alice-carol, dave-bob; erin has the bye.
    resign(&mut s, 101, "carol");
    draw(&mut s, 102, "dave", "bob");
    let list = site.join("tournaments.html");
    let html = std::fs::read_to_string(&list).expect("the list");
    check_page(&program, &axe, &list, &html, "");
    let page = site.join("tournaments/autumn-open.html");
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(html.contains("<h3>Round 2</h3>"), "{html}");
    check_page(&program, &axe, &page, &html, "");
    let shots = DrivenPage::new(&page, &html, "");
    shots.screenshot(&program, "tournament-phone.png", 390, 900);
    shots.screenshot(&program, "tournament-desktop.png", 1280, 900);
    shots.close();
}
