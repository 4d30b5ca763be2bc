//! Issue 47 item 16, the click-your-move page's small stumbles, in headless Chromium
//! (the helpers of `browser.rs`, `support/play_page.rs` and `support/web.rs`): Undo
//! takes back the last click only; in play mode the opponent's last turn is marked as
//! the page without a token marks it; the placements offer small dots at the free
//! points; at 390x844 the instructions and the "Remove row" buttons are in view with
//! the board (it is not sticky in play mode); a click not taken is told why in the
//! play section's live region; every page links the site's icon and nothing it asks
//! for is missing; the script never fetches the picture kept for readers without it;
//! and every page loads under the strict Content-Security-Policy of
//! `docs/mail-formats.md` without a violation.
//!
//! Screenshots in `target/tmp/browser/`: `small-last-move.png` and
//! `small-last-move-phone-dark.png` (the opponent's turn marked), `small-placements.png`,
//! `small-placements-phone.png` and `small-placements-phone-dark.png` (the dots),
//! `small-rows-phone.png` and `small-rows-phone-dark.png` (an owed row at 390x844: the
//! page opens at the board), `small-refused.png` and `small-refused-phone-dark.png` (a
//! click not taken, told why), `small-noscript.png` (the page without scripts).

use std::path::Path;

use yinsh_pbem::notation::play_turn;
use yinsh_pbem::picture::LastMove;
use yinsh_pbem::rules::{Action, Color, Direction, Game, Piece, Point, Variant};
use yinsh_pbem::server::site::legal::{LegalTurn, legal_turns};

use crate::browser::{
    DrivenPage, Scheme, Trap, artefacts, browser_own, chromium, driven, run_chromium,
    run_chromium_via,
};
use crate::support::play_page::{PlayPage, Shot, clicks, find_turn, parsed};
use crate::support::turns::random_turns;
use crate::support::web::{Request, SITE, WebSite, path_of};

/// A click on point `p`, as the play page's driver takes it.
fn pt(p: impl std::fmt::Display) -> String {
    format!("pt:{p}")
}

/// The game the turns lead to, and the actions of the last of them.
fn game_of(turns: &[(Color, String)]) -> (Game, Vec<Action>, Game) {
    let mut game = Game::new(Variant::Normal);
    let mut before = game;
    let mut last = Vec::new();
    for (_, t) in turns {
        before = game;
        last = play_turn(&mut game, t).expect("plays").to_vec();
    }
    (game, last, before)
}

/// The single ring moves of a list of turns: (from, to, the turn).
fn single_moves(list: &[LegalTurn]) -> Vec<(Point, Point, &LegalTurn)> {
    list.iter()
        .filter_map(|t| match parsed(t)[..] {
            [Action::Move { from, to }] => Some((from, to, t)),
            _ => None,
        })
        .collect()
}

/// Issue 47 item 16: Undo takes back the last click only. A ring picked, then its
/// destination: Undo puts back the destination (the ring stays picked, its points
/// offered again); the next Undo the ring; one more says there is nothing to undo.
/// After an Undo another destination is clicked and that move is played.
#[test]
fn undo_takes_back_the_last_click_only() {
    let Some(program) = chromium() else { return };
    let (turns, turn) = find_turn(|list, t| match parsed(t)[..] {
        [Action::Move { from, .. }] => {
            single_moves(list)
                .iter()
                .filter(|(f, _, _)| *f == from)
                .count()
                >= 2
        }
        _ => false,
    });
    let [Action::Move { from, to }] = parsed(&turn)[..] else {
        unreachable!("the turn found")
    };
    let list = legal_turns(&game_of(&turns).0).expect("a list");
    let (_, other_to, other) = *single_moves(&list)
        .iter()
        .find(|(f, t, _)| *f == from && *t != to)
        .expect("another move of that ring");
    let mut page = PlayPage::at(&turns);

    let once = page.open(&program, &[pt(from), pt(to), "undo".into()], &[]);
    assert_eq!(once.help, "Click where the ring goes (the points marked).");
    assert_eq!(once.turn, "(nothing yet)", "{once:?}");
    assert_eq!(once.picked, [from.to_string()], "the ring is still picked");
    assert!(
        once.open.contains(&to.to_string()) && once.open.contains(&other_to.to_string()),
        "its destinations are offered again: {once:?}"
    );
    assert_eq!(once.dot, "7", "a ring's few destinations get larger dots");
    assert!(once.subject.is_empty());

    let steps = [
        pt(from),
        pt(to),
        "undo".into(),
        "undo".into(),
        "undo".into(),
    ];
    let all = page.open(&program, &steps, &[]);
    assert_eq!(all.help, "Click the ring to move.", "{all:?}");
    assert!(all.picked.is_empty(), "{all:?}");
    assert_eq!(all.whys[..4], ["", "", "", ""], "each click and undo taken");
    assert_eq!(all.whys[4], "Nothing to undo: no point is clicked yet.");

    // A click after the turn is complete is told so; the mail stays composed.
    let steps = [pt(from), pt(to), "undo".into(), pt(other_to), pt(from)];
    let again = page.open(&program, &steps, &[]);
    assert_eq!(
        again.whys[4],
        "Your turn is complete: send it, or undo a click to change it."
    );
    page.deliver(&again, other);
}

/// The points a view of board 101 (no token) marks in orange, by a small driver.
fn marks_without_token(page: &PlayPage, program: &Path) -> Vec<String> {
    let path = page.site.join("games/101/index.html");
    let html = std::fs::read_to_string(&path).expect("page");
    let look = "<script>window.addEventListener('load', function () {\
        var d = document.createElement('div'); d.id = 'driven';\
        d.setAttribute('data-marks', Array.prototype.slice.call(\
          document.querySelectorAll('#svgboard circle[stroke=\"#d55e00\"]'))\
          .map(function (c) { return c.getAttribute('data-at'); }).join(' '));\
        document.body.appendChild(d); });</script>";
    let viewed = DrivenPage::new(
        &path,
        &html.replace("</body>", &format!("{look}</body>")),
        "",
    );
    let dom = viewed.dom(program, &[]);
    viewed.close();
    driven(&dom, "data-marks")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// A position of a seeded random game whose last turn was a ring move alone, and a
/// ring move alone of the player to move there.
fn after_a_ring_move() -> (Vec<(Color, String)>, LegalTurn) {
    for seed in 1..400 {
        let turns = random_turns(seed, 60);
        for k in 12..turns.len() {
            let last = &turns[k - 1].1;
            if !last.contains('-') || last.contains('x') || last.contains(';') {
                continue;
            }
            let list = legal_turns(&game_of(&turns[..k]).0).expect("a list");
            if let Some((_, _, t)) = single_moves(&list).first() {
                return (turns[..k].to_vec(), (*t).clone());
            }
        }
    }
    panic!("no random game has a ring move after a ring move");
}

/// Issue 47 item 16: in play mode the opponent's last turn is marked as the page
/// without a token marks it (the ring's start and end, the markers it flipped: the
/// marks of `picture::LastMove`), until the player's own turn is clicked: then the
/// marks are the player's.
#[test]
fn the_opponents_last_move_is_marked_in_play_mode() {
    let Some(program) = chromium() else { return };
    let (turns, turn) = after_a_ring_move();
    let (_, last, before) = game_of(&turns);
    let marked = LastMove::from_turn(&before, &last).expect("the last turn");
    let Some((opp_from, opp_to)) = marked.moved else {
        panic!("the opponent's last turn moved a ring: {last:?}")
    };
    let mut want: Vec<String> = [opp_from, opp_to]
        .iter()
        .chain(&marked.flipped)
        .map(Point::to_string)
        .collect();
    want.sort();
    let page = PlayPage::at(&turns);
    let shots = Shot::all([
        ("small-last-move.png", 1024, 1400, Scheme::Light),
        ("small-last-move-phone-dark.png", 390, 844, Scheme::Dark),
    ]);
    let shown = page.open_with(&program, &[], &shots);
    let mut marks = shown.marks.clone();
    marks.sort();
    assert_eq!(marks, want, "the opponent's turn is marked: {shown:?}");
    let mut viewed = marks_without_token(&page, &program);
    viewed.sort();
    assert_eq!(viewed, want, "as the page without a token marks it");

    let [Action::Move { from, to }] = parsed(&turn)[..] else {
        unreachable!("the turn found")
    };
    let own = page.open(&program, &clicks(&turn), &[]);
    assert!(
        own.marks.contains(&from.to_string()) && own.marks.contains(&to.to_string()),
        "the player's own move is marked: {own:?}"
    );
    assert!(
        !own.marks.contains(&opp_to.to_string()),
        "the opponent's marks are gone: {own:?}"
    );
}

/// Issue 47 item 16: in the placements the free points are offered as small dots (not
/// 85 overlapping dashed circles), the points with a ring get none, and the last
/// placement is marked; a click on a ring is told why it is not taken.
#[test]
fn the_placements_offer_small_dots_at_the_free_points() {
    let Some(program) = chromium() else { return };
    let turns = random_turns(4, 3);
    let page = PlayPage::at(&turns);
    let shots = Shot::all([
        ("small-placements.png", 1024, 1400, Scheme::Light),
        ("small-placements-phone.png", 390, 844, Scheme::Light),
        ("small-placements-phone-dark.png", 390, 844, Scheme::Dark),
    ]);
    // A click on a ring is told why it is not taken, and changes nothing.
    let taken = &turns[0].1;
    let shown = page.open_with(&program, &[pt(taken)], &shots);
    assert_eq!(
        shown.whys,
        [format!(
            "{taken} has a ring already: place yours on a free point (a dot)."
        )]
    );
    assert_eq!(shown.open.len(), 85 - 3, "{shown:?}");
    assert_eq!(shown.dot, "4.5", "small dots");
    for (_, placed) in &turns {
        assert!(!shown.open.contains(placed), "{placed} has a ring: no dot");
    }
    assert_eq!(
        shown.marks,
        [turns[2].1.clone()],
        "the last placement marked"
    );
    assert_eq!(shown.help, "Click the point to place a ring on.");
}

/// What [`MEASURE`] saw.
fn measured(dom: &str, name: &str) -> i64 {
    driven(dom, name)
        .parse()
        .unwrap_or_else(|_| panic!("{name}: {dom}"))
}

/// The driver of the phone layout, run in a frame of 390x844 (a headless window of
/// Chromium is 500 px wide at least): once the page has loaded (and brought what it
/// shows first into view), where the board, the help line, the first "Remove row"
/// button and Undo are, and whether each is the element shown at its centre (not
/// covered); sent to the page around the frame.
const MEASURE: &str = "<script>window.addEventListener('load', function () { setTimeout(function () {\
  var out = { inner: window.innerHeight, width: window.innerWidth,\
    sticky: getComputedStyle(document.getElementById('board-box')).position };\
  function put(name, e) { var r = e.getBoundingClientRect();\
    out[name + '-top'] = Math.round(r.top); out[name + '-bottom'] = Math.round(r.bottom);\
    var x = r.left + Math.min(r.width / 2, 20), y = r.top + r.height / 2, at = document.elementFromPoint(x, y);\
    out[name + '-shown'] = at && (at === e || e.contains(at)) ? 'yes' : 'no'; }\
  put('board', document.getElementById('svgboard'));\
  put('help', document.getElementById('play-help'));\
  put('row', document.querySelector('#play-choices button'));\
  put('undo', document.getElementById('play-undo'));\
  parent.postMessage(out, '*'); }, 50); });</script>";

/// The page around the frame: what the frame sends, written into `#driven`.
const FRAME: &str = "<!DOCTYPE html><html><head><meta name=\"color-scheme\" content=\"light dark\"></head><body style=\"margin:0\">\
  <iframe src=\"SRC\" width=\"390\" height=\"844\" style=\"border:0\"></iframe>\
  <script>window.addEventListener('message', function (e) {\
    var d = document.createElement('div'); d.id = 'driven';\
    Object.keys(e.data).forEach(function (k) { d.setAttribute('data-' + k, e.data[k]); });\
    document.body.appendChild(d); });</script></body></html>";

/// Issue 47 item 16: at 390x844 the instructions and the "Remove row" buttons are in
/// view with the board: in play mode the board is not sticky, and the page opens with
/// the board at the top and below it, in the window and not covered, the help line,
/// the row's button and Undo.
#[test]
fn at_390_px_the_instructions_and_row_buttons_are_in_view_with_the_board() {
    let Some(program) = chromium() else { return };
    let (turns, _) = find_turn(|_, t| {
        matches!(
            parsed(t)[..],
            [Action::RemoveRow(_), Action::RemoveRing(_), ..]
        )
    });
    let page = PlayPage::at(&turns);
    let path = page.site.join("games/101/index.html");
    let html = std::fs::read_to_string(&path).expect("page");
    let fragment = format!("#play={}", page.token);
    let phone = DrivenPage::new(
        &path,
        &html.replace("</body>", &format!("{MEASURE}</body>")),
        &fragment,
    );
    let frame = path.with_file_name("frame.html");
    std::fs::write(
        &frame,
        FRAME.replace("SRC", &format!("driven.html{fragment}")),
    )
    .expect("frame");
    let trap = Trap::new();
    let dom = run_chromium(
        &program,
        &trap,
        &format!("file://{}", frame.display()),
        &["--dump-dom".to_string()],
    );
    for (shot, scheme) in [
        ("small-rows-phone.png", Scheme::Light),
        ("small-rows-phone-dark.png", Scheme::Dark),
    ] {
        phone.screenshot_in(&program, shot, 390, 844, scheme);
    }
    std::fs::remove_file(&frame).expect("remove the frame");
    phone.close();
    assert_eq!(
        (measured(&dom, "data-width"), measured(&dom, "data-inner")),
        (390, 844),
        "{dom}"
    );
    assert_eq!(driven(&dom, "data-sticky"), "static", "{dom}");
    assert!(measured(&dom, "data-board-top") >= 0, "{dom}");
    let board_bottom = measured(&dom, "data-board-bottom");
    for part in ["help", "row", "undo"] {
        let (top, bottom) = (
            measured(&dom, &format!("data-{part}-top")),
            measured(&dom, &format!("data-{part}-bottom")),
        );
        assert!(
            top >= board_bottom && bottom <= 844,
            "{part} ({top}..{bottom}) is below the board (..{board_bottom}) in the window: {dom}"
        );
        assert_eq!(
            driven(&dom, &format!("data-{part}-shown")),
            "yes",
            "{part} is not covered: {dom}"
        );
    }
}

/// A position to click wrong in: the player to move owes nothing and moves a ring;
/// `ring_a` can move and has a ring next to it on a line, with `beyond_a` past that
/// ring; `ring_b` can move and has markers next to it on a line, then the free point
/// `free_b`, then `past_b`; `empty` is a free point on no line with `ring_a`;
/// `theirs` a ring of the opponent's.
struct Wrong {
    turns: Vec<(Color, String)>,
    side: Color,
    ring_a: Point,
    jumped_a: Point,
    beyond_a: Point,
    ring_b: Point,
    free_b: Point,
    past_b: Point,
    empty: Point,
    theirs: Point,
}

/// The first [`Wrong`] position of the seeded random games.
fn wrong_position() -> Wrong {
    for seed in 1..400 {
        let turns = random_turns(seed, 120);
        let mut game = Game::new(Variant::Normal);
        for k in 0..turns.len() {
            if k >= 10
                && let Some(found) = wrong_at(&turns[..k], &game)
            {
                return found;
            }
            play_turn(&mut game, &turns[k].1).expect("plays");
        }
    }
    panic!("no random game has such a position");
}

/// The [`Wrong`] position at `game` (after `turns`), if it is one.
fn wrong_at(turns: &[(Color, String)], game: &Game) -> Option<Wrong> {
    let side = game.to_act()?;
    let list = legal_turns(game)?;
    if list
        .iter()
        .any(|t| !matches!(parsed(t).first(), Some(Action::Move { .. })))
    {
        return None;
    }
    let mut movable: Vec<Point> = list
        .iter()
        .filter_map(|t| match parsed(t).first() {
            Some(&Action::Move { from, .. }) => Some(from),
            _ => None,
        })
        .collect();
    movable.dedup();
    let ring = |p: Point| matches!(game.piece_at(p), Some(Piece::Ring(_)));
    let marker = |p: Point| matches!(game.piece_at(p), Some(Piece::Marker(_)));
    let clickable = |p: Point| movable.contains(&p);
    let (ring_a, jumped_a, beyond_a) = movable.iter().find_map(|&r| {
        Direction::ALL.iter().find_map(|d| {
            let next = d.step(r).filter(|&q| ring(q))?;
            let beyond = d.step(next).filter(|&q| !clickable(q))?;
            Some((r, next, beyond))
        })
    })?;
    let (ring_b, free_b, past_b) = movable.iter().find_map(|&r| {
        Direction::ALL.iter().find_map(|d| {
            let mut at = d.step(r).filter(|&q| marker(q))?;
            while marker(at) {
                at = d.step(at)?;
            }
            let past = d.step(at).filter(|&q| !clickable(q))?;
            (game.piece_at(at).is_none()).then_some((r, at, past))
        })
    })?;
    let empty = Point::ALL.into_iter().find(|&p| {
        game.piece_at(p).is_none() && yinsh_pbem::rules::Axis::between(ring_a, p).is_none()
    })?;
    let theirs = game.rings(side.other()).next()?;
    Some(Wrong {
        turns: turns.to_vec(),
        side,
        ring_a,
        jumped_a,
        beyond_a,
        ring_b,
        free_b,
        past_b,
        empty,
        theirs,
    })
}

/// Issue 47 item 16: a click not taken is told why in the play section's live region,
/// never ignored: a point with no ring of the player's (empty, the opponent's ring),
/// past a ring, the ring picked clicked again, off the ring's lines, past the first
/// free point after markers; the ring stays picked. With a row owed, a point without
/// the player's marker. Each click taken clears the words.
#[test]
fn a_click_not_taken_is_told_why() {
    let Some(program) = chromium() else { return };
    let w = wrong_position();
    let theirs = match w.side {
        Color::White => "Black's",
        Color::Black => "White's",
    };
    let page = PlayPage::at(&w.turns);
    let mut steps = vec![
        pt(w.empty),
        pt(w.theirs),
        pt(w.ring_a),
        pt(w.beyond_a),
        pt(w.ring_a),
        pt(w.empty),
    ];
    let mut want = vec![
        format!(
            "{} has no ring of yours (it holds nothing): click one of your rings.",
            w.empty
        ),
        format!(
            "{} has no ring of yours (it holds {theirs} ring): click one of your rings.",
            w.theirs
        ),
        String::new(),
        format!(
            "A ring cannot jump over a ring (the one on {}).",
            w.jumped_a
        ),
        format!(
            "{} is picked already. Click where the ring goes (the points marked).",
            w.ring_a
        ),
        format!(
            "{} is not on a line with {}: a ring moves along one of its lines.",
            w.empty, w.ring_a
        ),
    ];
    if w.ring_b != w.ring_a {
        steps.push(pt(w.ring_b));
        want.push(String::new());
    }
    steps.push(pt(w.past_b));
    want.push(format!(
        "A ring that jumps over markers stops on the first free point after them: {}, not {}.",
        w.free_b, w.past_b
    ));
    let shots = Shot::all([
        ("small-refused.png", 1024, 1400, Scheme::Light),
        ("small-refused-phone-dark.png", 390, 844, Scheme::Dark),
    ]);
    let shown = page.open_with(&program, &steps, &shots);
    assert_eq!(shown.whys, want, "{shown:?}");
    assert_eq!(
        shown.picked,
        [w.ring_b.to_string()],
        "the ring stays picked"
    );
    assert_eq!(shown.help, "Click where the ring goes (the points marked).");

    // A row owed: a point without the player's marker.
    let (turns, turn) = find_turn(|_, t| matches!(parsed(t)[..], [Action::RemoveRow(_), ..]));
    let (game, _, _) = game_of(&turns);
    let side = game.to_act().expect("to act");
    let not_mine = Point::ALL
        .into_iter()
        .find(|&p| game.piece_at(p) != Some(Piece::Marker(side)))
        .expect("a point");
    let rows = PlayPage::at(&turns).open(&program, &[pt(not_mine)], &[]);
    assert_eq!(
        rows.whys,
        [format!(
            "{not_mine} has no marker of yours: a row of five of your markers is removed."
        )],
        "{turn:?}"
    );
}

/// The pages of the site at `page`, each with the way up to the site's top folder.
const PAGES: [(&str, &str); 5] = [
    ("index.html", ""),
    ("standings.html", ""),
    ("history.html", ""),
    ("rules.html", ""),
    ("games/101/index.html", "../../"),
];

/// The requests of `site` that were not found, Chromium's own left out.
fn not_found(site: &WebSite) -> Vec<Request> {
    site.requests()
        .into_iter()
        .filter(|r| r.status != 200 && !browser_own(&r.line))
        .collect()
}

/// Issue 47 item 16: every page links the site's icon (`favicon.svg`; `favicon.ico`
/// beside it), and a browser finds everything it asks for; the game page's script
/// never fetches the picture kept for readers without it (in a `<noscript>`), in view
/// and in play mode, while a browser without scripts fetches and shows it.
#[test]
fn every_page_has_an_icon_and_the_script_never_fetches_the_hidden_picture() {
    let Some(program) = chromium() else { return };
    let turns = random_turns(9, 24);
    let page = PlayPage::at(&turns[..23]);
    for (name, root) in PAGES {
        let html = std::fs::read_to_string(page.site.join(name)).expect("page");
        assert!(
            html.contains(&format!(
                "<link rel=\"icon\" href=\"{root}favicon.svg\" type=\"image/svg+xml\">"
            )),
            "{name} links the icon"
        );
    }
    let svg = std::fs::read_to_string(page.site.join("favicon.svg")).expect("favicon.svg");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    let ico = std::fs::read(page.site.join("favicon.ico")).expect("favicon.ico");
    assert_eq!(&ico[..4], &[0, 0, 1, 0], "an ICO file");

    let site = WebSite::serve(page.site.clone(), None);
    let game = format!("{SITE}games/101/index.html");
    let picture = |p: &str| p.starts_with("games/101/p") && p.ends_with(".png");
    for fragment in [String::new(), format!("#play={}", page.token)] {
        let scripts = site.asked(|p| p.ends_with("board.js")).len();
        let dom = run_chromium_via(
            &program,
            site.port,
            &format!("{game}{fragment}"),
            &["--dump-dom".to_string()],
        );
        assert!(dom.contains("id=\"svgboard\""), "the script drew the board");
        assert_eq!(
            site.asked(|p| p.ends_with("board.js")).len(),
            scripts + 1,
            "the script was fetched: {:?}",
            site.requests()
        );
        assert_eq!(
            site.asked(picture),
            [],
            "{fragment}: the hidden picture is not fetched"
        );
    }
    // Without scripts (a sandboxed frame: no script runs, a <noscript> is read) the
    // picture is shown, and fetched (the count sees it).
    std::fs::write(
        page.site.join("games/101/sandboxed.html"),
        "<!DOCTYPE html><html><body><iframe sandbox src=\"index.html\" width=\"1000\" \
         height=\"1380\"></iframe></body></html>",
    )
    .expect("the frame");
    let shot = artefacts().join("small-noscript.png");
    run_chromium_via(
        &program,
        site.port,
        &format!("{SITE}games/101/sandboxed.html"),
        &[
            format!("--screenshot={}", shot.display()),
            "--window-size=1024,1400".to_string(),
        ],
    );
    assert_eq!(
        site.asked(picture)
            .iter()
            .map(|r| r.status)
            .collect::<Vec<_>>(),
        [200],
        "{:?}",
        site.requests()
    );
    // The icon at the site's top, as a browser asks for it without a link.
    run_chromium_via(
        &program,
        site.port,
        &format!("{SITE}favicon.ico"),
        &["--dump-dom".to_string()],
    );
    assert_eq!(
        site.asked(|p| p == "favicon.ico")
            .iter()
            .map(|r| r.status)
            .collect::<Vec<_>>()
            .first(),
        Some(&200)
    );
    assert_eq!(not_found(&site), [], "everything asked for is there");
}

/// The Content-Security-Policy the docs give for the site (its nginx example).
fn documented_csp() -> String {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/mail-formats.md"))
            .expect("docs/mail-formats.md");
    let line = doc
        .lines()
        .find(|l| l.contains("add_header Content-Security-Policy"))
        .expect("the example's header");
    line.split('"').nth(1).expect("the policy").to_string()
}

/// The probe of the CSP test, a file of the site (so the policy lets it run), loaded
/// first in the head: it keeps every `securitypolicyviolation` and, after the page
/// loaded, writes them into `#driven` with whether the board was drawn and the play
/// section shown.
const CSP_PROBE: &str = "var seen = [];\
 document.addEventListener('securitypolicyviolation', function (e) {\
   seen.push(e.violatedDirective + ' ' + (e.blockedURI || '') + ' ' + (e.sample || '')); });\
 window.addEventListener('load', function () { setTimeout(function () {\
   var d = document.createElement('div'); d.id = 'driven';\
   d.setAttribute('data-violations', seen.join(' | '));\
   d.setAttribute('data-board', document.getElementById('svgboard') ? 'drawn' : 'none');\
   var play = document.getElementById('play');\
   d.setAttribute('data-play', play && !play.hidden ? 'shown' : 'hidden');\
   document.body.appendChild(d); }, 100); });\n";

/// Issue 47 item 16: the docs' Content-Security-Policy is strict (`default-src
/// 'self'`, no `'unsafe-inline'`), and every page of the site, served with it, loads
/// without a violation: the index, standings, history, rules, and a game page without
/// and with a play token (its board drawn, its play mode on). A page with an inline
/// script, style element, style attribute and handler shows that a violation is seen.
#[test]
fn every_page_loads_under_a_strict_csp_without_a_violation() {
    let Some(program) = chromium() else { return };
    let csp = documented_csp();
    assert_eq!(csp, "default-src 'self'", "the docs' policy is strict");
    let turns = random_turns(9, 24);
    let page = PlayPage::at(&turns[..23]);
    std::fs::write(page.site.join("csp-probe.js"), CSP_PROBE).expect("probe");
    std::fs::write(
        page.site.join("csp-inline.html"),
        "<!DOCTYPE html><html><head></head><body><style>p { color: red; }</style>\
         <p style=\"color: blue\" onclick=\"return 1\">inline</p><script>var x = 1;</script>\
         </body></html>",
    )
    .expect("the inline page");
    let site = WebSite::serve(page.site.clone(), Some(csp));
    let mut pages: Vec<(String, &str, String)> = PAGES
        .iter()
        .map(|&(name, root)| (name.to_string(), root, String::new()))
        .collect();
    pages.push((
        "games/101/index.html".to_string(),
        "../../",
        format!("#play={}", page.token),
    ));
    pages.push(("csp-inline.html".to_string(), "", String::new()));
    for (name, root, fragment) in &pages {
        let path = page.site.join(name);
        let html = std::fs::read_to_string(&path).expect("page");
        let probed = html.replacen(
            "<head>",
            &format!("<head><script src=\"{root}csp-probe.js\"></script>"),
            1,
        );
        let copy = path.with_file_name("csp-copy.html");
        std::fs::write(&copy, probed).expect("copy");
        let url = format!(
            "{SITE}{}{fragment}",
            name.replace(
                path.file_name().and_then(|f| f.to_str()).expect("a name"),
                "csp-copy.html"
            )
        );
        let dom = run_chromium_via(&program, site.port, &url, &["--dump-dom".to_string()]);
        std::fs::remove_file(&copy).expect("remove the copy");
        let violations = driven(&dom, "data-violations");
        if name == "csp-inline.html" {
            for directive in ["script-src-elem", "style-src-elem", "style-src-attr"] {
                assert!(
                    violations.contains(directive),
                    "the probe sees a {directive} violation: {violations}"
                );
            }
            continue;
        }
        assert_eq!(violations, "", "{name}{fragment}: no violation");
        if name.starts_with("games/") {
            assert_eq!(driven(&dom, "data-board"), "drawn", "{name}{fragment}");
            let play = if fragment.is_empty() {
                "hidden"
            } else {
                "shown"
            };
            assert_eq!(driven(&dom, "data-play"), play, "{name}{fragment}");
        }
    }
    assert_eq!(not_found(&site), [], "everything asked for is there");
    assert!(
        site.requests()
            .iter()
            .all(|r| path_of(&r.line).is_some() || browser_own(&r.line)),
        "nothing asked outside the site: {:?}",
        site.requests()
    );
}
