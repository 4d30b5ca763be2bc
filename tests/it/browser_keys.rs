//! Issue 47 items 13 to 15, the play mode in headless Chromium (the helpers of
//! `browser.rs` and `support/play_page.rs`): by the keyboard alone a ring move is
//! played, the arrow keys moving the focus along the board's lines from its one Tab
//! stop, the focus staying on the board after each choice, ArrowLeft on a point not
//! stepping the game back, and the focus ring unlike the picked mark; an old play link
//! (its move played) says it is used up and shows the game, never offering the
//! opponent's move; and on a plain-http site (served here over 127.0.0.1 as
//! `http://yinsh.test/`, not a secure context) Copy selects and copies the Subject
//! only, and its label starts again after an undo and for a new turn.
//!
//! Screenshots in `target/tmp/browser/`: `keys-picked.png` and `keys-picked-dark.png`
//! (desktop), `keys-picked-phone.png` and `keys-picked-phone-dark.png` (390x844), the
//! ring picked by the keyboard with the focus on a point; `used-link.png` and
//! `used-link-phone-dark.png`.

use std::path::Path;

use yinsh_pbem::notation::play_turn;
use yinsh_pbem::rules::{Action, Game, Variant};
use yinsh_pbem::server::site::legal::legal_turns;
use yinsh_pbem::server::store::Store;

use crate::browser::{
    DrivenPage, Scheme, browser_own, chromium, driven, js_list, run_chromium_via,
};
use crate::support::play_page::{PlayPage, Shot, find_turn, parsed};
use crate::support::web::{Request, WebSite};

/// The picked mark's orange and the open points' blue (`board.js`), as computed
/// styles write them: the focus ring is neither.
const PICKED: &str = "rgb(213, 94, 0)";
const OPEN: &str = "rgb(0, 114, 178)";

/// Issue 47 item 15: a ring move played by the keyboard alone. From the board's one
/// Tab stop the arrow keys walk to the ring (Enter), ArrowLeft on a point moves the
/// focus and does not step the game, the arrow keys walk to the target (Enter): the
/// focus is on the board after each choice, the focus ring is neither the picked
/// orange nor the open blue, and the composed mail plays the move.
#[test]
fn the_keyboard_moves_along_the_lines_and_keeps_the_focus_on_the_board() {
    let Some(program) = chromium() else { return };
    let (turns, turn) = find_turn(|_, t| {
        matches!(parsed(t).as_slice(), [Action::Move { from, to }]
            if from.to_string().as_bytes()[0].abs_diff(to.to_string().as_bytes()[0]) >= 2)
    });
    let [Action::Move { from, to }] = parsed(&turn)[..] else {
        unreachable!("the turn found")
    };
    let mut page = PlayPage::at(&turns);
    let picked = [format!("key:{from}"), "press:ArrowLeft".to_string()];
    let shots = Shot::all([
        ("keys-picked.png", 1024, 1400, Scheme::Light),
        ("keys-picked-dark.png", 1024, 1400, Scheme::Dark),
        ("keys-picked-phone.png", 390, 844, Scheme::Light),
        ("keys-picked-phone-dark.png", 390, 844, Scheme::Dark),
    ]);
    let half = page.open_with(&program, &picked, &shots);
    assert_eq!(half.help, "Click where the ring goes (the points marked).");
    assert!(
        half.caption.contains("Then your turn"),
        "ArrowLeft on a point did not step the game back: {half:?}"
    );
    assert!(
        !half.focus.is_empty() && half.focus.chars().next().is_some_and(char::is_alphabetic),
        "the focus is on a point of the board: {half:?}"
    );
    assert!(
        !half.stroke.is_empty() && half.stroke != PICKED && half.stroke != OPEN,
        "the focus ring is its own colour: {half:?}"
    );
    let all = [
        format!("key:{from}"),
        "press:ArrowLeft".to_string(),
        format!("key:{to}"),
    ];
    let shown = page.open(&program, &all, &[]);
    assert_eq!(shown.focus, to.to_string(), "the focus stays on the board");
    assert!(
        shown
            .keys
            .iter()
            .any(|k| k.contains("ArrowRight") || k.contains("ArrowLeft"))
            || shown
                .keys
                .iter()
                .any(|k| k.contains("ArrowUp") || k.contains("ArrowDown")),
        "the arrow keys moved the focus: {shown:?}"
    );
    page.deliver(&shown, &turn);
}

/// The driver for a page whose play link is not for the move to play: once loaded it
/// writes into `#driven` which notes show, the play section's state, the caption and
/// how many points are buttons.
const LOOK: &str = "<script>window.addEventListener('load', function () {\
 var d = document.createElement('div'); d.id = 'driven';\
 function shown(id) { var e = document.getElementById(id); return e && !e.hidden ? 'shown' : 'hidden'; }\
 d.setAttribute('data-play', shown('play'));\
 d.setAttribute('data-used', shown('play-used'));\
 d.setAttribute('data-none', shown('play-none'));\
 d.setAttribute('data-used-text', document.getElementById('play-used').textContent);\
 d.setAttribute('data-subject', document.getElementById('play-send') ? document.getElementById('play-send').getAttribute('data-subject') || '' : '');\
 d.setAttribute('data-caption', document.getElementById('caption').textContent);\
 d.setAttribute('data-buttons', document.querySelectorAll('#svgboard [role=button]').length);\
 d.setAttribute('data-role', document.getElementById('svgboard').getAttribute('role'));\
 document.body.appendChild(d); });</script>";

/// What [`LOOK`] saw on board 101's page opened with `token`, keeping `shots`.
fn look(page: &PlayPage, program: &Path, token: &str, shots: &[Shot<'_>]) -> String {
    let path = page.site.join("games/101/index.html");
    let html = std::fs::read_to_string(&path).expect("page");
    let driven_page = DrivenPage::new(
        &path,
        &html.replace("</body>", &format!("{LOOK}</body>")),
        &format!("#play={token}"),
    );
    let dom = driven_page.dom(program, &[]);
    for shot in shots {
        driven_page.screenshot_in(program, shot.name, shot.width, shot.height, shot.scheme);
    }
    driven_page.close();
    dom
}

/// Issue 47 item 13: alice's play link, opened after her move, says it is used up and
/// shows the game as it is; it offers no move (bob's least of all). Bob's own link
/// for the move now opens the play mode.
#[test]
fn an_old_play_link_says_it_is_used_up_and_shows_the_game() {
    let Some(program) = chromium() else { return };
    let (turns, _) = find_turn(|_, t| t.actions.len() == 1 && t.text.contains('-'));
    let turns = if turns.len() % 2 == 0 {
        turns
    } else {
        turns[..turns.len() - 1].to_vec()
    };
    let mut page = PlayPage::at(&turns);
    assert_eq!(page.player, "alice");
    let mut game = Game::new(Variant::Normal);
    for (_, t) in &turns {
        play_turn(&mut game, t).expect("plays");
    }
    let list = legal_turns(&game).expect("a list");
    let k = page.k;
    page.server.send(
        "alice@example.org",
        &format!("yinsh move 101 alice apw {}#{k}", list[0].text),
        "",
    );
    let old = page.token.clone();
    let shots = Shot::all([
        ("used-link.png", 1024, 1400, Scheme::Light),
        ("used-link-phone-dark.png", 390, 844, Scheme::Dark),
    ]);
    let dom = look(&page, &program, &old, &shots);
    assert_eq!(driven(&dom, "data-used"), "shown", "{dom}");
    assert_eq!(
        (
            driven(&dom, "data-play").as_str(),
            driven(&dom, "data-none").as_str()
        ),
        ("hidden", "hidden"),
        "{dom}"
    );
    assert!(
        driven(&dom, "data-used-text").contains(&format!("for move {k}, which has been played")),
        "{dom}"
    );
    assert_eq!(driven(&dom, "data-subject"), "", "no move composed");
    assert_eq!(driven(&dom, "data-buttons"), "0", "no point to click");
    assert_eq!(driven(&dom, "data-role"), "img");
    assert!(
        driven(&dom, "data-caption").starts_with(&format!("After move {k}: White (alice)")),
        "the game as it is now: {dom}"
    );

    // Bob's link for the move now plays.
    let store = Store::open(&page.server.home()).expect("store");
    let key = store.reply_key().expect("reply key");
    let moveno = u32::try_from(k + 1).expect("move number");
    let bob = key
        .mint_play(101.into(), moveno, &"bob".parse().expect("userid"))
        .to_string();
    let dom = look(&page, &program, &bob, &[]);
    assert_eq!(
        (
            driven(&dom, "data-play").as_str(),
            driven(&dom, "data-used").as_str()
        ),
        ("shown", "hidden"),
        "{dom}"
    );
    assert_eq!(driven(&dom, "data-buttons"), "85", "{dom}");
}

/// The driver of the copy test: the clicks, then Copy; what the page then holds (the
/// secure context, the focused field and its selection, what a copy from it puts on
/// the clipboard, the label); an undo, and a new turn clicked.
fn copy_driver(first: &str, second: &str) -> String {
    let steps = js_list(&[first.to_string(), second.to_string()]);
    format!(
        "<script>window.addEventListener('load', function () {{\
         var d = document.createElement('div'); d.id = 'driven';\
         function pt(name) {{ document.querySelector('circle.pt[data-point=\"' + name + '\"]')\
           .dispatchEvent(new MouseEvent('click', {{ bubbles: true }})); }}\
         var copy = document.getElementById('play-copy'), steps = {steps};\
         pt(steps[0]);\
         d.setAttribute('data-before', copy.textContent);\
         copy.click();\
         var a = document.activeElement;\
         d.setAttribute('data-secure', String(window.isSecureContext));\
         d.setAttribute('data-active', a.id);\
         d.setAttribute('data-selected', a.value.slice(a.selectionStart, a.selectionEnd));\
         d.setAttribute('data-field', document.getElementById('play-subject').value);\
         d.setAttribute('data-to', document.getElementById('play-to').value);\
         var ev = new ClipboardEvent('copy', {{ clipboardData: new DataTransfer(), bubbles: true, cancelable: true }});\
         a.dispatchEvent(ev);\
         d.setAttribute('data-copied', ev.clipboardData.getData('text/plain'));\
         d.setAttribute('data-label', copy.textContent);\
         document.getElementById('play-undo').click();\
         d.setAttribute('data-undone', copy.textContent + '|' + (document.getElementById('play-mail').hidden ? 'hidden' : 'shown'));\
         pt(steps[1]);\
         d.setAttribute('data-again', copy.textContent + '|' + document.getElementById('play-subject').value);\
         document.body.appendChild(d); }});</script>"
    )
}

/// Issue 47 item 14: on a plain-http site (no secure context, no Clipboard API) Copy
/// selects the Subject field, which holds the Subject alone, and a copy from it puts
/// exactly the Subject on the clipboard; after an undo the label is Copy again, and
/// for a new turn too.
#[test]
fn copy_on_a_plain_http_site_copies_the_subject_only() {
    let Some(program) = chromium() else { return };
    let page = PlayPage::at(&[]);
    let dir = page.site.join("games/101");
    let html = std::fs::read_to_string(dir.join("index.html")).expect("page");
    std::fs::write(
        dir.join("copy.html"),
        html.replace("</body>", &format!("{}</body>", copy_driver("e5", "f6"))),
    )
    .expect("driven page");
    let site = WebSite::serve(page.site.clone(), None);
    let dom = run_chromium_via(
        &program,
        site.port,
        &format!("http://yinsh.test/games/101/copy.html#play={}", page.token),
        &["--dump-dom".to_string()],
    );
    let subject = format!("yinsh move 101 alice {} e5#1", page.token);
    assert_eq!(driven(&dom, "data-secure"), "false", "plain http: {dom}");
    assert_eq!(driven(&dom, "data-before"), "Copy the Subject");
    assert_eq!(driven(&dom, "data-active"), "play-subject", "{dom}");
    assert_eq!(driven(&dom, "data-field"), subject);
    assert_eq!(
        driven(&dom, "data-selected"),
        subject,
        "the Subject selected"
    );
    assert_eq!(driven(&dom, "data-copied"), subject, "the Subject copied");
    assert_eq!(driven(&dom, "data-to"), "yinsh@localhost");
    let label = driven(&dom, "data-label");
    assert!(
        label == "Copied" || label == "Selected: copy it now",
        "{label}"
    );
    assert_eq!(driven(&dom, "data-undone"), "Copy the Subject|hidden");
    assert_eq!(
        driven(&dom, "data-again"),
        format!("Copy the Subject|yinsh move 101 alice {} f6#1", page.token)
    );
    let refused: Vec<Request> = site
        .requests()
        .into_iter()
        .filter(|r| r.status != 200 && !browser_own(&r.line))
        .collect();
    assert!(refused.is_empty(), "requests left the site: {refused:?}");
}
