//! Issue 28 in a real browser: headless Chromium (the helpers of `browser.rs`; without
//! Chromium the test says so and passes, under CI it fails) opens a reviewed game's
//! page at a desktop's width and at 390 px, and a driver script steps the board from
//! the review: a click on a chart point, Enter on a focused point, a click on the
//! chart between points (the nearest one), a turning point of the list, and the
//! result's point of a resigned game (the final position). After each, the caption
//! under the board, the move marked in the list and the chart's marked point are read
//! back from the DOM dump, and the chart's and the board's widths (within the page's).
//! Chromium's window is at least 500 px wide: the page is held to 390 px by a style
//! the test adds, as `browser_mail.rs` does. Nothing is fetched from outside. Screenshots:
//! `target/tmp/browser/review-desktop.png` and `review-phone.png` (the board stepped
//! to a turning point, the chart's point marked).

use std::path::Path;

use yinsh_pbem::server::store::GameReview;

use crate::browser::{DrivenPage, chromium, driven, js_list};
use crate::site_review::{finished_game, put_and_refresh, review_of};

/// The driver: once the page has loaded, it steps the board from the review as the
/// steps say (`click:<k>` on the chart's point k, at its centre; `key:<k>` focus and
/// Enter; `near:<k>` a click on the chart's background above point k; `list:<i>` the
/// i-th turning point's link), and writes after each step the caption, the move
/// marked in the list and the chart's marked point into `#driven`
/// (`data-step<i>`), with the window's width and the first point's name and role.
fn driver(steps: &[String]) -> String {
    let list = js_list(steps);
    format!(
        "<script>window.addEventListener('load', function () {{\
         var out = document.createElement('div'); out.id = 'driven';\
         function pt(k) {{ return document.querySelector('#review-chart circle.pt[data-position=\"' + k + '\"]'); }}\
         function centre(e) {{ var r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; }}\
         {list}.forEach(function (step, i) {{\
           var kind = step.split(':')[0], k = step.split(':')[1];\
           if (kind === 'click') {{\
             var c = centre(pt(k));\
             pt(k).dispatchEvent(new MouseEvent('click', {{ bubbles: true, clientX: c[0], clientY: c[1] }}));\
           }} else if (kind === 'key') {{\
             if (pt(k).getAttribute('tabindex') !== '0') throw new Error('not focusable: ' + k);\
             pt(k).focus();\
             pt(k).dispatchEvent(new KeyboardEvent('keydown', {{ key: 'Enter', bubbles: true }}));\
           }} else if (kind === 'near') {{\
             var bg = document.querySelector('#review-chart svg rect');\
             var top = bg.getBoundingClientRect().top + 2;\
             bg.dispatchEvent(new MouseEvent('click', {{ bubbles: true, clientX: centre(pt(k))[0] + 1, clientY: top }}));\
           }} else {{\
             document.querySelectorAll('ol.turning a')[+k].dispatchEvent(new MouseEvent('click', {{ bubbles: true, cancelable: true }}));\
           }}\
           var here = document.querySelector('table.moves a.here');\
           var at = document.querySelector('#review-chart circle.pt.at');\
           out.setAttribute('data-step' + i, document.getElementById('caption').textContent + '|' +\
             (here ? here.dataset.k : '-') + '|' + (at ? at.dataset.position : '-'));\
         }});\
         var first = pt(0);\
         out.setAttribute('data-chart', Math.round(document.querySelector('#review-chart svg').getBoundingClientRect().width));\
         out.setAttribute('data-board', Math.round(document.getElementById('svgboard').getBoundingClientRect().width));\
         out.setAttribute('data-name', first.getAttribute('aria-label'));\
         out.setAttribute('data-role', first.getAttribute('role'));\
         out.setAttribute('data-how', document.getElementById('review-how').hidden ? 'hidden' : 'shown');\
         document.body.appendChild(out); }});</script>"
    )
}

/// What a step should leave: the caption of position `k`, move `k` marked in the list
/// (`start` for 0), and the chart's point `point` marked.
fn expected(captions: &[String], k: usize, point: usize) -> String {
    format!("{}|{k}|{point}", captions[k])
}

/// Opens the page with the driver at `width` px, returns the DOM dump, and keeps a
/// screenshot as `shot`. Chromium's window is at least 500 px wide (the page's phone
/// layout is for widths under 700 px): below that the page itself is held to the
/// width, as a phone's viewport holds it.
fn drive(program: &Path, page: &Path, steps: &[String], width: u32, shot: &str) -> String {
    let html = std::fs::read_to_string(page).expect("page");
    let held = if width < 500 {
        html.replace(
            "</head>",
            &format!("<style>html{{width:{width}px}}</style></head>"),
        )
    } else {
        html
    };
    let driven_page = DrivenPage::new(
        page,
        &held.replace("</body>", &format!("{}</body>", driver(steps))),
        "",
    );
    let window = width.max(500);
    let dom = driven_page.dom(program, &[format!("--window-size={window},1500")]);
    driven_page.screenshot(program, shot, window, 1500);
    driven_page.close();
    dom
}

/// The captions of the page's positions (as its data holds them).
fn captions(page: &str) -> Vec<String> {
    crate::site_page::game_data(page)["captions"]
        .as_array()
        .expect("captions")
        .iter()
        .map(|c| c.as_str().expect("text").to_string())
        .collect()
}

/// Issue 28: at a desktop's width and at 390 px, clicking a chart point, Enter on a
/// focused one, a click between points, a turning point of the list and the result's
/// point each step the board to that position; the points are named buttons.
#[test]
fn a_browser_steps_the_board_from_the_reviews_chart() {
    let Some(program) = chromium() else { return };
    let (s, site) = finished_game(3, 64);
    let review: GameReview = review_of(&s, 16);
    put_and_refresh(&s, &site, &review);
    let page = site.join("games/101/index.html");
    let captions = captions(&std::fs::read_to_string(&page).expect("page"));
    let turning = review.points[0].number as usize;
    let result = review.chart.len() - 1;
    assert_eq!(result, 65, "the resignation's point");
    let steps: Vec<String> = vec![
        "key:20".to_string(),
        "near:37".to_string(),
        "list:0".to_string(),
        format!("click:{result}"),
        "click:0".to_string(),
        format!("click:{turning}"),
    ];
    let wanted = [
        expected(&captions, 20, 20),
        expected(&captions, 37, 37),
        expected(&captions, turning, turning),
        // The result's point shows the final position, whose point is marked.
        format!("{}|64|64", captions[64]),
        expected(&captions, 0, 0),
        expected(&captions, turning, turning),
    ];
    for (width, shot) in [(1000, "review-desktop.png"), (390, "review-phone.png")] {
        let dom = drive(&program, &page, &steps, width, shot);
        // The chart and the board fit the width (less the page's margins).
        for what in ["data-chart", "data-board"] {
            let w: u32 = driven(&dom, what).parse().expect("a width");
            assert!(w > width / 2 && w <= width, "{shot}: {what} {w} px");
        }
        for (i, want) in wanted.iter().enumerate() {
            assert_eq!(
                &driven(&dom, &format!("data-step{i}")),
                want,
                "{shot}: {}",
                steps[i]
            );
        }
        assert_eq!(driven(&dom, "data-role"), "button");
        assert!(
            driven(&dom, "data-name").starts_with("The start: White's chance "),
            "{}",
            driven(&dom, "data-name")
        );
        assert_eq!(driven(&dom, "data-how"), "shown");
    }
}
