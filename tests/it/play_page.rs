//! Issue 27: the game page that types the move. The legal turns the page is given
//! equal the engine's (positions of real games); headless Chromium plays a placement,
//! a ring move, a row on a longer line (the five chosen, then the ring) and a move
//! making two rows by clicking the board in play mode (`#play=<token>`), and each
//! composed Subject delivered through `deliver` plays exactly that turn. The token in
//! the page's address is the one the player's board mail links with: a play token
//! made with the server's reply key.
//!
//! Screenshots in `target/tmp/browser/`: `play-place.png`, `play-move.png`,
//! `play-long-row.png` (and `play-long-row-phone.png`, 390 px wide), `play-two-rows.png`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use yinsh_pbem::notation::play_turn;
use yinsh_pbem::rules::{Action, Color, Game, Row, Variant};
use yinsh_pbem::server::site::legal::{LegalTurn, legal_turns};
use yinsh_pbem::server::site::{self, Target};
use yinsh_pbem::server::store::Store;

use crate::browser::{Trap, artefacts, browser_own, chromium, run_chromium};
use crate::support::rng::XorShift;
use crate::support::server::TestServer;
use crate::support::turns::random_turns;

/// Every complete turn of the side to act, found by playing the engine's legal
/// actions one by one (apart from the site's own walk).
fn engine_turns(game: &Game) -> HashSet<Vec<Action>> {
    let mut out = HashSet::new();
    let Some(side) = game.to_act() else {
        return out;
    };
    let mut todo = vec![(*game, Vec::new())];
    while let Some((g, path)) = todo.pop() {
        if !path.is_empty() && g.to_act() != Some(side) {
            out.insert(path);
            continue;
        }
        for &a in g.legal_actions().iter() {
            let mut next = g;
            next.play(a).expect("a legal action plays");
            let mut longer = path.clone();
            longer.push(a);
            todo.push((next, longer));
        }
    }
    out
}

/// Checks the page's list of `game` against the engine: the same turns, and each
/// text plays through the notation as exactly its actions.
#[track_caller]
fn check_list(game: &Game) {
    let listed = legal_turns(game).expect("a list");
    let actions: HashSet<Vec<Action>> = listed
        .iter()
        .map(|t| {
            t.actions
                .iter()
                .map(|a| a.parse().expect("action"))
                .collect()
        })
        .collect();
    assert_eq!(actions.len(), listed.len(), "no turn twice");
    assert_eq!(actions, engine_turns(game));
    for t in &listed {
        let mut g = *game;
        let played = play_turn(&mut g, &t.text).unwrap_or_else(|e| panic!("{}: {e}", t.text));
        let parsed: Vec<Action> = t.actions.iter().map(|a| a.parse().expect("a")).collect();
        assert_eq!(played, parsed, "{}", t.text);
    }
}

/// issue 27: for positions of real games (every start of a turn of a seeded sample
/// of the Boardspace games), the page's list of legal turns equals the engine's.
#[test]
fn the_pages_legal_turns_equal_the_engines_on_real_games() {
    let Some(records) = crate::boardspace::records() else {
        return;
    };
    let mut rng = XorShift(27);
    let mut checked = 0;
    for record in &records {
        if !rng.next().is_multiple_of(8) {
            continue;
        }
        let mut game = Game::new(record.variant);
        let mut side = None;
        for (k, &(_, action)) in record.actions.iter().enumerate() {
            if game.to_act() != side && rng.next().is_multiple_of(6) {
                check_list(&game);
                checked += 1;
            }
            side = game.to_act();
            if game.play(action).is_err() || k > 400 {
                break;
            }
        }
    }
    assert!(checked > 100, "{checked} positions");
}

/// issue 27: the list of a seeded sample of random positions (rows and owed removals
/// among them) equals the engine's too.
#[test]
fn the_pages_legal_turns_equal_the_engines_on_random_games() {
    for seed in 1..40 {
        let mut game = Game::new(Variant::Normal);
        for (_, text) in random_turns(seed, 90) {
            check_list(&game);
            play_turn(&mut game, &text).expect("plays");
        }
    }
}

/// The clicks that play `turn`: a point for a placement or a ring to remove, two for
/// a ring move, the two ends of a row (the first alone when it tells the row), the
/// pass button.
fn clicks(turn: &LegalTurn) -> Vec<String> {
    let mut out = Vec::new();
    for a in &turn.actions {
        match a.parse::<Action>().expect("action") {
            Action::Place(p) | Action::RemoveRing(p) => out.push(format!("pt:{p}")),
            Action::Move { from, to } => {
                out.push(format!("pt:{from}"));
                out.push(format!("pt:{to}"));
            }
            Action::RemoveRow(row) => {
                out.push(format!("pt:{}", row.start()));
                out.push(format!("pt:{}", row.end()));
            }
            Action::Pass => out.push("btn:Pass".to_string()),
        }
    }
    out
}

/// The script that clicks `clicks` once the page has loaded and writes what the play
/// mode composed into `#driven` (read back from the DOM dump).
fn driver(clicks: &[String]) -> String {
    let list = clicks
        .iter()
        .map(|c| format!("'{c}'"))
        .collect::<Vec<_>>()
        .join(",");
    format!(
        "<script>window.addEventListener('load', function () {{\
         [{list}].forEach(function (c) {{\
           if (c.indexOf('pt:') === 0) {{\
             document.querySelector('circle.pt[data-point=\"' + c.slice(3) + '\"]')\
               .dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));\
           }} else if (c.indexOf('key:') === 0) {{\
             var t = document.querySelector('circle.pt[data-point=\"' + c.slice(4) + '\"]');\
             if (t.getAttribute('tabindex') !== '0') throw new Error('not focusable: ' + c);\
             t.focus(); t.dispatchEvent(new KeyboardEvent('keydown', {{ key: 'Enter', bubbles: true }}));\
           }} else if (c === 'undo') {{\
             document.getElementById('play-undo').click();\
           }} else {{\
             Array.prototype.slice.call(document.querySelectorAll('#play-choices button'))\
               .filter(function (b) {{ return b.textContent === c.slice(4); }})[0].click();\
           }}\
         }});\
         var d = document.createElement('div'); d.id = 'driven';\
         d.setAttribute('data-subject', document.getElementById('play-send').getAttribute('data-subject'));\
         d.setAttribute('data-href', document.getElementById('play-send').getAttribute('href'));\
         d.setAttribute('data-turn', document.getElementById('play-turn').textContent);\
         document.body.appendChild(d); }});</script>"
    )
}

/// An attribute of `#driven` in the DOM dump, unescaped.
pub(crate) fn driven(dom: &str, name: &str) -> String {
    let at = dom
        .find("id=\"driven\"")
        .unwrap_or_else(|| panic!("no #driven in {dom}"));
    let tag = &dom[at..];
    let start = tag.find(&format!("{name}=\"")).expect(name) + name.len() + 2;
    tag[start..start + tag[start..].find('"').expect("end")]
        .replace("&quot;", "\"")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// A server with a site, alice (`apw`) and bob (`bpw`), board 101 started and
/// fast-forwarded by `turns`, the site rebuilt.
fn server_at(turns: &[(Color, String)]) -> (TestServer, PathBuf) {
    let mut s = TestServer::new();
    let site = s.home().with_file_name("site");
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        format!("[site]\nout = \"{}\"\n", site.display()),
    )
    .expect("config");
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    s.fast_forward(101, turns);
    let store = Store::open(&s.home()).expect("store");
    let target = Target {
        out: &site,
        address: "yinsh@localhost",
    };
    site::build(&store, target, s.now).expect("site");
    (s, site)
}

/// Opens board 101's page in play mode with `token`, clicks `clicks`, screenshots
/// it as `shot` (`width` px wide), and returns the composed Subject and turn.
fn play_in_browser(
    program: &Path,
    site: &Path,
    token: &str,
    clicks: &[String],
    shots: &[(&str, u32)],
) -> (String, String) {
    let page = site.join("games/101/index.html");
    let html = std::fs::read_to_string(&page).expect("page");
    assert!(!html.contains(token), "the token is in no file");
    let driven_page = page.with_file_name("driven.html");
    std::fs::write(
        &driven_page,
        html.replace("</body>", &format!("{}</body>", driver(clicks))),
    )
    .expect("driven page");
    let url = format!("file://{}#play={token}", driven_page.display());
    let trap = Trap::new();
    let dom = run_chromium(program, &trap, &url, &["--dump-dom".to_string()]);
    for (shot, width) in shots {
        let path = artefacts().join(shot);
        let _ = std::fs::remove_file(&path);
        run_chromium(
            program,
            &trap,
            &url,
            &[
                format!("--screenshot={}", path.display()),
                format!("--window-size={width},1400"),
            ],
        );
        let png = std::fs::read(&path).expect("screenshot");
        assert!(png.len() > 10_000 && &png[1..4] == b"PNG", "{shot}");
    }
    std::fs::remove_file(&driven_page).expect("remove");
    let lines = trap.lines.lock().map(|l| l.clone()).unwrap_or_default();
    let foreign: Vec<&String> = lines.iter().filter(|l| !browser_own(l)).collect();
    assert!(foreign.is_empty(), "requests left the machine: {foreign:?}");
    let href = driven(&dom, "data-href");
    let subject = driven(&dom, "data-subject");
    assert!(
        href.starts_with("mailto:yinsh@localhost?subject=yinsh%20move%20101%20"),
        "{href}"
    );
    (subject, driven(&dom, "data-turn"))
}

/// Plays `turn` at the position `turns` lead to, by clicks in the browser; delivers
/// the composed Subject from the player's address and checks that exactly that turn
/// was played.
fn play_and_deliver(
    program: &Path,
    turns: &[(Color, String)],
    turn: &LegalTurn,
    shots: &[(&str, u32)],
) {
    play_by_clicks(program, turns, turn, &clicks(turn), shots);
}

/// [`play_and_deliver`] by the clicks given (a key press, an undo among them).
fn play_by_clicks(
    program: &Path,
    turns: &[(Color, String)],
    turn: &LegalTurn,
    clicks: &[String],
    shots: &[(&str, u32)],
) {
    let (mut s, site) = server_at(turns);
    let (player, password) = if turns.len().is_multiple_of(2) {
        ("alice", "apw")
    } else {
        ("bob", "bpw")
    };
    let k = turns.len() + 1;
    // The token the player's board mail links with: made with the server's own key.
    let key = Store::open(&s.home())
        .and_then(|store| store.reply_key())
        .expect("reply key");
    let moveno = u32::try_from(k).expect("move number");
    let token = key
        .mint_play(101.into(), moveno, &player.parse().expect("userid"))
        .to_string();
    let (subject, shown) = play_in_browser(program, &site, &token, clicks, shots);
    assert_eq!(
        subject,
        format!("yinsh move 101 {player} {token} {}#{k}", turn.text)
    );
    assert_eq!(shown, turn.text);
    let replies = s.send(&format!("{player}@example.org"), &subject, "");
    assert!(!replies.is_empty());
    let file = s.game_file(101);
    let played = file["turns"].as_array().expect("turns");
    assert_eq!(played.len(), k, "the turn was played: {replies:?}");
    assert_eq!(played[k - 1]["text"], turn.text.as_str());
    // The page written after the move no longer offers it, and holds no secret.
    let page = std::fs::read_to_string(site.join("games/101/index.html")).expect("page");
    assert!(!page.contains(&token), "no token on the page");
    assert!(!page.contains(password), "no password on the page");
}

/// The position of a seeded random game and a legal turn there that `wanted` picks.
fn find_turn(
    wanted: impl Fn(&[LegalTurn], &LegalTurn) -> bool,
) -> (Vec<(Color, String)>, LegalTurn) {
    for seed in 1..4000 {
        let turns = random_turns(seed, 120);
        let mut game = Game::new(Variant::Normal);
        for k in 0..turns.len() {
            if k >= 10 {
                let list = legal_turns(&game).expect("a list");
                if let Some(t) = list.iter().find(|t| wanted(&list, t)) {
                    return (turns[..k].to_vec(), t.clone());
                }
            }
            play_turn(&mut game, &turns[k].1).expect("plays");
        }
    }
    panic!("no random game has such a turn");
}

fn parsed(t: &LegalTurn) -> Vec<Action> {
    t.actions
        .iter()
        .map(|a| a.parse().expect("action"))
        .collect()
}

/// Whether two rows lie on one line (they share four points).
fn same_line(a: Row, b: Row) -> bool {
    a != b && a.points().iter().filter(|p| b.contains(**p)).count() == 4
}

/// issue 27: a placement (chosen by the keyboard) and a ring move (a ring picked, undone,
/// picked again, then its target) clicked on the board compose the mail that plays
/// them.
#[test]
fn a_browser_plays_a_placement_and_a_ring_move() {
    let Some(program) = chromium() else { return };
    let place = LegalTurn {
        text: "e5".to_string(),
        actions: vec!["e5".to_string()],
    };
    // By the keyboard: the point is focusable and Enter chooses it.
    play_by_clicks(
        &program,
        &[],
        &place,
        &["key:e5".to_string()],
        &[("play-place.png", 900)],
    );
    let turns = random_turns(5, 10);
    let mut game = Game::new(Variant::Normal);
    for (_, t) in &turns {
        play_turn(&mut game, t).expect("plays");
    }
    let list = legal_turns(&game).expect("a list");
    let ring_move = list
        .iter()
        .rev()
        .find(|t| t.actions.len() == 1 && t.text.contains('-'))
        .expect("a ring move");
    // A ring picked, then taken back by Undo, then the move clicked.
    let mut by = clicks(ring_move);
    by.splice(0..0, [by[0].clone(), "undo".to_string()]);
    play_by_clicks(&program, &turns, ring_move, &by, &[("play-move.png", 900)]);
}

/// issue 27: a move that makes a row on a longer line: the five are chosen on the
/// board (an end that only they hold), then the ring; the mail plays it.
#[test]
fn a_browser_plays_a_row_on_a_longer_line() {
    let Some(program) = chromium() else { return };
    let (turns, turn) = find_turn(|list, t| {
        let a = parsed(t);
        let (Some(Action::Move { .. }), Some(&Action::RemoveRow(row))) = (a.first(), a.get(1))
        else {
            return false;
        };
        list.iter().any(|other| {
            let b = parsed(other);
            b[0] == a[0] && matches!(b.get(1), Some(&Action::RemoveRow(r)) if same_line(r, row))
        })
    });
    play_and_deliver(
        &program,
        &turns,
        &turn,
        &[("play-long-row.png", 900), ("play-long-row-phone.png", 390)],
    );
}

/// issue 27: a move that makes two rows: both removed with their rings by clicks.
#[test]
fn a_browser_plays_a_move_making_two_rows() {
    let Some(program) = chromium() else { return };
    let (turns, turn) = find_turn(|_, t| {
        let a = parsed(t);
        matches!(a.first(), Some(Action::Move { .. }))
            && a.iter()
                .filter(|x| matches!(x, Action::RemoveRow(_)))
                .count()
                == 2
    });
    play_and_deliver(&program, &turns, &turn, &[("play-two-rows.png", 900)]);
}
