//! Issue 26 finding 10, in a real browser: headless Chromium (the helpers of
//! `browser.rs`) lays out the HTML part of a board mail at a phone's width (390 px)
//! and a desktop's, and a probe script measures the lines of the "Your move, bob.
//! Press Reply ..." paragraph: each line but the last is filled to the width (the
//! text part's hard line breaks are gone), and the paragraph has more lines on the
//! phone (it wraps to the width). Chromium's window is at least 500 px wide, so the
//! page is held to 390 px by a style the test adds. Screenshots:
//! `target/tmp/browser/mail-390.png` and `mail-1024.png`.

use crate::browser::{Trap, artefacts, chromium, run_chromium};
use crate::support::server::TestServer;

/// The probe: once the page has loaded, it measures the line boxes of the paragraph
/// that starts "Your move," and writes their count, how many lines before the last
/// end short of the width by more than 90 px, the width, and whether the paragraph
/// holds a `<br>`, into an element the DOM dump shows.
const PROBE: &str = "<script>window.addEventListener('load', function () {\
 var para = null; var all = document.querySelectorAll('p, div');\
 for (var i = 0; i < all.length; i++) {\
   if (all[i].textContent.indexOf('Your move,') === 0) { para = all[i]; break; } }\
 var out = document.createElement('div'); out.id = 'probe';\
 if (para) {\
   var range = document.createRange(); range.selectNodeContents(para);\
   var rects = range.getClientRects(); var lines = {};\
   for (var k = 0; k < rects.length; k++) {\
     if (rects[k].width === 0) { continue; }\
     var top = Math.round(rects[k].top);\
     lines[top] = Math.max(lines[top] || 0, rects[k].right); }\
   var tops = Object.keys(lines).map(Number).sort(function (a, b) { return a - b; });\
   var box = para.getBoundingClientRect(); var short = 0;\
   for (var t = 0; t + 1 < tops.length; t++) {\
     if (lines[tops[t]] < box.right - 90) { short++; } }\
   out.setAttribute('data-lines', tops.length);\
   out.setAttribute('data-short', short);\
   out.setAttribute('data-width', Math.round(box.width));\
   out.setAttribute('data-br', para.getElementsByTagName('br').length); }\
 document.body.appendChild(out); });</script>";

/// What the probe wrote: lines, short lines, width, `<br>`s.
fn measured(dom: &str) -> [i64; 4] {
    let at = dom
        .find("id=\"probe\"")
        .unwrap_or_else(|| panic!("no probe in {dom}"));
    let tag = &dom[at..dom[at..].find('>').map_or(dom.len(), |e| at + e)];
    ["data-lines", "data-short", "data-width", "data-br"].map(|name| {
        let start = tag
            .find(&format!("{name}=\""))
            .unwrap_or_else(|| panic!("no paragraph \"Your move,\" found: {tag}"))
            + name.len()
            + 2;
        tag[start..start + tag[start..].find('"').expect("end")]
            .parse()
            .expect("number")
    })
}

/// Issue 26 finding 10: at 390 px and at a desktop's width, the "Your move" paragraph
/// of a board mail's HTML part fills each of its lines (no line broken where the
/// text part breaks), and wraps to the width.
#[test]
fn a_browser_reflows_the_your_move_paragraph_at_phone_and_desktop_widths() {
    let Some(program) = chromium() else { return };
    let mut s = TestServer::new();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let r = s.send("alice@example.org", "yinsh move 101 alice apw e5", "");
    let to_bob = r
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .expect("bob's mail");
    let html = to_bob.html.as_deref().expect("an HTML part");
    let (cid, png) = &to_bob.images[0];
    let cid = cid.trim_matches(['<', '>']);
    let dir = artefacts().join("mail-reflow");
    std::fs::create_dir_all(&dir).expect("folder");
    std::fs::write(dir.join("board-101.png"), png).expect("picture");
    let page = html.replace(&format!("src=\"cid:{cid}\""), "src=\"board-101.png\"");
    let trap = Trap::new();
    let mut lines = Vec::new();
    for width in [390, 1024] {
        // Chromium's window is at least 500 px wide: the page itself is held to the
        // phone's width, as a phone's viewport holds it.
        let page = page.replace(
            "</head>",
            &format!("<style>html{{width:{width}px}}</style></head>"),
        );
        let plain = dir.join(format!("mail-{width}.html"));
        std::fs::write(&plain, &page).expect("page");
        let probed = dir.join("probe.html");
        std::fs::write(&probed, page.replace("</body>", &format!("{PROBE}</body>")))
            .expect("probe");
        let size = format!("--window-size={},1400", width.max(500));
        let dom = run_chromium(
            &program,
            &trap,
            &format!("file://{}", probed.display()),
            &["--dump-dom".to_string(), size.clone()],
        );
        let [count, short, shown, br] = measured(&dom);
        assert_eq!(br, 0, "{width} px: a <br> in the paragraph");
        assert_eq!(
            short, 0,
            "{width} px: {short} of the paragraph's {count} lines end short of its width ({shown} px)"
        );
        assert!(
            shown <= width,
            "{width} px: the paragraph is {shown} px wide"
        );
        lines.push(count);
        let shot = artefacts().join(format!("mail-{width}.png"));
        let _ = std::fs::remove_file(&shot);
        run_chromium(
            &program,
            &trap,
            &format!("file://{}", plain.display()),
            &[format!("--screenshot={}", shot.display()), size],
        );
        let taken = std::fs::read(&shot).expect("screenshot");
        assert!(taken.len() > 10_000 && &taken[1..4] == b"PNG", "{width} px");
    }
    assert!(
        lines[0] > lines[1],
        "the paragraph wraps to the width: {lines:?} lines at 390 and 1024 px"
    );
}

/// `mail`'s HTML part as a page at `width` px in `dir` (its picture beside it), and
/// what the probe measured of the paragraph that starts with `prefix`: lines, short
/// lines, width, `<br>`s. A screenshot of the page is `target/tmp/browser/<shot>`.
fn probed_at(
    program: &std::path::Path,
    trap: &Trap,
    mail: &crate::support::server::Sent,
    prefix: &str,
    width: u32,
    shot: &str,
) -> [i64; 4] {
    let html = mail.html.as_deref().expect("an HTML part");
    let (cid, png) = &mail.images[0];
    let cid = cid.trim_matches(['<', '>']);
    let dir = artefacts().join(shot.trim_end_matches(".png"));
    std::fs::create_dir_all(&dir).expect("folder");
    std::fs::write(dir.join("board.png"), png).expect("picture");
    let page = html
        .replace(&format!("src=\"cid:{cid}\""), "src=\"board.png\"")
        .replace(
            "</head>",
            &format!("<style>html{{width:{width}px}}</style></head>"),
        );
    let plain = dir.join("mail.html");
    std::fs::write(&plain, &page).expect("page");
    let probed = dir.join("probe.html");
    let probe = PROBE.replace("'Your move,'", &format!("'{prefix}'"));
    std::fs::write(&probed, page.replace("</body>", &format!("{probe}</body>"))).expect("probe");
    let size = format!("--window-size={},1400", width.max(500));
    let dom = run_chromium(
        program,
        trap,
        &format!("file://{}", probed.display()),
        &["--dump-dom".to_string(), size.clone()],
    );
    let shot = artefacts().join(shot);
    let _ = std::fs::remove_file(&shot);
    run_chromium(
        program,
        trap,
        &format!("file://{}", plain.display()),
        &[format!("--screenshot={}", shot.display()), size],
    );
    let taken = std::fs::read(&shot).expect("screenshot");
    assert!(taken.len() > 10_000 && &taken[1..4] == b"PNG", "{shot:?}");
    measured(&dom)
}

/// Issue 47 item 9: at a phone's width (390 px) the foot of a new game's mail (what
/// its Subject says) and the "Press Reply" paragraph of an error mail fill each of
/// their lines: the text part's hard line breaks are gone, no line of prose is held
/// in a preformatted block. Screenshots: `target/tmp/browser/mail-new-game-390.png`
/// and `mail-error-390.png`.
#[test]
fn a_new_game_and_an_error_mail_read_as_paragraphs_at_a_phones_width() {
    let Some(program) = chromium() else { return };
    let mut s = TestServer::new();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    let started = s.send("alice@example.org", "yinsh challenge alice bob", "");
    let new_game = crate::support::sent::only_to(&started, "bob@example.org");
    let r = s.press_reply(
        crate::support::mail::Client::Thunderbird,
        "bob@example.org",
        &new_game,
        "zz99",
    );
    let error = crate::support::sent::only_to(&r, "bob@example.org");
    let trap = Trap::new();
    for (mail, prefix, shot) in [
        (
            &new_game,
            "The Subject of this game",
            "mail-new-game-390.png",
        ),
        (&error, "Press Reply and send", "mail-error-390.png"),
    ] {
        let [count, short, shown, br] = probed_at(&program, &trap, mail, prefix, 390, shot);
        assert_eq!(br, 0, "{shot}: a <br> in the paragraph");
        assert!(
            count >= 2,
            "{shot}: the paragraph wraps at 390 px ({count} lines)"
        );
        assert_eq!(
            short, 0,
            "{shot}: {short} of the paragraph's {count} lines end short of its width ({shown} px)"
        );
        assert!(shown <= 390, "{shot}: the paragraph is {shown} px wide");
    }
}
