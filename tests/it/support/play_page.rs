//! The game page's play mode (issue 27) driven in headless Chromium: a server with a
//! site at a position ([`PlayPage::at`]), the page opened with the player's play token
//! and clicked by a script added to a copy of it ([`PlayPage::open`]), what the page
//! showed read back from the DOM dump ([`Shown`]), and the composed Subject delivered
//! and checked against the stored game ([`PlayPage::deliver`]). The browser itself is
//! run by `crate::browser`.

use std::path::{Path, PathBuf};

use yinsh_pbem::notation::play_turn;
use yinsh_pbem::rules::{Action, Color, Game, Variant};
use yinsh_pbem::server::site::legal::{LegalTurn, legal_turns};
use yinsh_pbem::server::site::{self, Target};
use yinsh_pbem::server::store::Store;

use super::server::{Sent, TestServer};
use super::turns::random_turns;
use crate::browser::{DrivenPage, Scheme, driven, js_list};

/// The clicks that play `turn`: a point for a placement or a ring to remove, two for
/// a ring move, the two ends of a row (the first alone when it tells the row), the
/// pass button.
pub fn clicks(turn: &LegalTurn) -> Vec<String> {
    let mut out = Vec::new();
    for a in parsed(turn) {
        match a {
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

/// The atomic actions of a listed turn.
pub fn parsed(t: &LegalTurn) -> Vec<Action> {
    t.actions
        .iter()
        .map(|a| a.parse().expect("action"))
        .collect()
}

/// The keyboard's way to a point (`walk(name)`): Tab onto the board (its one point in
/// the Tab order, focused), then arrow keys along its lines, each chosen towards the
/// point (Up and Down the column; Left and Right the line rising to the right, with
/// Shift the one falling), until the point has the focus. Each key must move the
/// focus to a neighbouring point and leave the page's position as it was (an arrow key
/// on the board never steps the game); the keys pressed are kept in `keys`.
const WALK: &str = "var keys = [];\
 function walk(name) {\
   var stops = document.querySelectorAll('#svgboard .pt[tabindex=\\'0\\']');\
   if (stops.length !== 1) throw new Error(stops.length + ' points in the Tab order');\
   stops[0].focus();\
   var caption = document.getElementById('caption').textContent;\
   for (var n = 0; n < 40; n++) {\
     var at = document.activeElement.getAttribute('data-point');\
     if (at === name) return;\
     var di = name.charCodeAt(0) - at.charCodeAt(0), dn = +name.slice(1) - +at.slice(1);\
     var tries = di > 0 && dn > 0 ? [['ArrowRight', false], ['ArrowUp', false]]\
       : di > 0 ? [['ArrowRight', true], ['ArrowDown', false], ['ArrowRight', false]]\
       : di < 0 && dn < 0 ? [['ArrowLeft', false], ['ArrowDown', false]]\
       : di < 0 ? [['ArrowLeft', true], ['ArrowUp', false], ['ArrowLeft', false]]\
       : dn > 0 ? [['ArrowUp', false]] : [['ArrowDown', false]];\
     var moved = tries.some(function (t) {\
       document.activeElement.dispatchEvent(new KeyboardEvent('keydown', { key: t[0], shiftKey: t[1], bubbles: true, cancelable: true }));\
       var now = document.activeElement.getAttribute('data-point');\
       if (now && now !== at) { keys.push((t[1] ? 'Shift+' : '') + t[0]); return true; }\
       return false; });\
     if (!moved) throw new Error('no arrow key moves from ' + at + ' towards ' + name);\
     if (document.getElementById('caption').textContent !== caption) throw new Error('an arrow key stepped the game');\
   }\
   throw new Error('the arrow keys did not reach ' + name);\
 }";

/// The script that clicks `clicks` once the page has loaded (`pt:<point>` a click,
/// `key:<point>` reached by [`WALK`] and Enter, `press:<key>` a key pressed on the
/// focused element, `undo`, `btn:<label>`) and writes what
/// the play mode shows into `#driven` (read back from the DOM dump): the composed
/// Subject and link, the turn, the help line, why the click was not taken (after each
/// step), the choice buttons (`|` between them), the focus and the keys pressed, the
/// points picked, offered (their dots' size) and marked in orange.
fn driver(clicks: &[String]) -> String {
    let list = js_list(clicks);
    format!(
        "<script>{WALK}window.addEventListener('load', function () {{\
         var whys = [];\
         function ats(sel) {{ return Array.prototype.slice.call(document.querySelectorAll(sel))\
           .map(function (c) {{ return c.getAttribute('data-at'); }}).join(' '); }}\
         {list}.forEach(function (c) {{\
           if (c.indexOf('pt:') === 0) {{\
             document.querySelector('circle.pt[data-point=\"' + c.slice(3) + '\"]')\
               .dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));\
           }} else if (c.indexOf('key:') === 0) {{\
             walk(c.slice(4));\
             document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {{ key: 'Enter', bubbles: true }}));\
             if (!document.activeElement.matches('#svgboard .pt')) throw new Error('focus left the board after ' + c);\
           }} else if (c.indexOf('press:') === 0) {{\
             document.activeElement.dispatchEvent(new KeyboardEvent('keydown', {{ key: c.slice(6), bubbles: true, cancelable: true }}));\
           }} else if (c === 'undo') {{\
             document.getElementById('play-undo').click();\
           }} else {{\
             Array.prototype.slice.call(document.querySelectorAll('#play-choices button'))\
               .filter(function (b) {{ return b.textContent === c.slice(4); }})[0].click();\
           }}\
           whys.push(document.getElementById('play-why').textContent);\
         }});\
         var d = document.createElement('div'); d.id = 'driven';\
         d.setAttribute('data-subject', document.getElementById('play-send').getAttribute('data-subject'));\
         d.setAttribute('data-href', document.getElementById('play-send').getAttribute('href'));\
         d.setAttribute('data-turn', document.getElementById('play-turn').textContent);\
         d.setAttribute('data-help', document.getElementById('play-help').textContent);\
         d.setAttribute('data-focus', document.activeElement.getAttribute('data-point') || document.activeElement.id);\
         d.setAttribute('data-keys', keys.join(' '));\
         d.setAttribute('data-whys', whys.join('|'));\
         d.setAttribute('data-picked', ats('#svgboard circle.picked'));\
         d.setAttribute('data-open', ats('#svgboard circle.open'));\
         var dot = document.querySelector('#svgboard circle.open');\
         d.setAttribute('data-dot', dot ? dot.getAttribute('r') : '');\
         d.setAttribute('data-marks', ats('#svgboard circle[stroke=\"#d55e00\"]:not(.picked-in)'));\
         d.setAttribute('data-stroke', getComputedStyle(document.activeElement).stroke);\
         d.setAttribute('data-caption', document.getElementById('caption').textContent);\
         d.setAttribute('data-buttons', Array.prototype.slice.call(\
           document.querySelectorAll('#play-choices button'))\
           .map(function (b) {{ return b.textContent; }}).join('|'));\
         document.body.appendChild(d); }});</script>"
    )
}

/// What the play mode showed after the clicks.
#[derive(Debug)]
pub struct Shown {
    /// The composed Subject (empty until the turn is complete).
    pub subject: String,
    /// The send button's link.
    pub href: String,
    /// The turn as written so far.
    pub turn: String,
    /// The line that says what to click.
    pub help: String,
    /// The labels of the choice buttons (rows to remove, the pass).
    pub buttons: Vec<String>,
    /// Where the focus was at the end: a point's name, or an element's id.
    pub focus: String,
    /// The arrow keys pressed on the way to the points chosen by the keyboard.
    pub keys: Vec<String>,
    /// The focused element's stroke (its focus ring, on a point).
    pub stroke: String,
    /// The caption under the board.
    pub caption: String,
    /// Why the click was not taken, after each step (empty when it was).
    pub whys: Vec<String>,
    /// The points picked (a thick ring).
    pub picked: Vec<String>,
    /// The points offered (a dot each).
    pub open: Vec<String>,
    /// The points marked in orange (the last turn's marks, or the turn's own).
    pub marks: Vec<String>,
    /// The radius of the offered points' dots (empty without any).
    pub dot: String,
}

/// A screenshot to take: its file name among the artefacts, the window, the scheme.
pub struct Shot<'a> {
    pub name: &'a str,
    pub width: u32,
    pub height: u32,
    pub scheme: Scheme,
}

impl<'a> Shot<'a> {
    /// The screenshots `(name, width, height, scheme)`.
    pub fn all<const N: usize>(shots: [(&'a str, u32, u32, Scheme); N]) -> [Shot<'a>; N] {
        shots.map(|(name, width, height, scheme)| Shot {
            name,
            width,
            height,
            scheme,
        })
    }
}

/// The words of `text` (split at white space).
fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

/// Board 101 of alice (`apw`, White) and bob (`bpw`, Black) at a position, its site
/// built, and the play token of the player to move.
pub struct PlayPage {
    pub server: TestServer,
    pub site: PathBuf,
    pub player: &'static str,
    pub password: &'static str,
    /// The number of the turn to play.
    pub k: usize,
    pub token: String,
}

impl PlayPage {
    /// Board 101 started and fast-forwarded by `turns`, the site rebuilt, and the
    /// token the player's board mail links with (made with the server's own key).
    pub fn at(turns: &[(Color, String)]) -> PlayPage {
        let mut s = TestServer::new();
        let site = s.home().with_file_name("site");
        s.alice_bob_on_site(&site);
        s.fast_forward(101, turns);
        let store = Store::open(&s.home()).expect("store");
        let target = Target {
            out: &site,
            address: "yinsh@localhost",
        };
        site::build(&store, target, s.now).expect("site");
        let (player, password) = if turns.len().is_multiple_of(2) {
            ("alice", "apw")
        } else {
            ("bob", "bpw")
        };
        let k = turns.len() + 1;
        let key = store.reply_key().expect("reply key");
        let moveno = u32::try_from(k).expect("move number");
        let token = key
            .mint_play(101.into(), moveno, &player.parse().expect("userid"))
            .to_string();
        PlayPage {
            server: s,
            site,
            player,
            password,
            k,
            token,
        }
    }

    /// Opens board 101's page in play mode, clicks `clicks`, screenshots it as each
    /// of `shots` (name, width in px), and returns what the play mode showed. Checks
    /// that the token is in no file and that no request left the machine.
    pub fn open(&self, program: &Path, clicks: &[String], shots: &[(&str, u32)]) -> Shown {
        let shots: Vec<Shot<'_>> = shots
            .iter()
            .map(|&(name, width)| Shot {
                name,
                width,
                height: 1400,
                scheme: Scheme::Light,
            })
            .collect();
        self.open_with(program, clicks, &shots)
    }

    /// [`PlayPage::open`] with screenshots of any size, light or dark.
    pub fn open_with(&self, program: &Path, clicks: &[String], shots: &[Shot<'_>]) -> Shown {
        let page = self.site.join("games/101/index.html");
        let html = std::fs::read_to_string(&page).expect("page");
        assert!(!html.contains(&self.token), "the token is in no file");
        let driven_page = DrivenPage::new(
            &page,
            &html.replace("</body>", &format!("{}</body>", driver(clicks))),
            &format!("#play={}", self.token),
        );
        let dom = driven_page.dom(program, &[]);
        for shot in shots {
            driven_page.screenshot_in(program, shot.name, shot.width, shot.height, shot.scheme);
        }
        driven_page.close();
        let buttons = driven(&dom, "data-buttons");
        Shown {
            subject: driven(&dom, "data-subject"),
            href: driven(&dom, "data-href"),
            turn: driven(&dom, "data-turn"),
            help: driven(&dom, "data-help"),
            focus: driven(&dom, "data-focus"),
            stroke: driven(&dom, "data-stroke"),
            caption: driven(&dom, "data-caption"),
            whys: driven(&dom, "data-whys")
                .split('|')
                .map(str::to_string)
                .collect(),
            picked: words(&driven(&dom, "data-picked")),
            open: words(&driven(&dom, "data-open")),
            marks: words(&driven(&dom, "data-marks")),
            dot: driven(&dom, "data-dot"),
            keys: driven(&dom, "data-keys")
                .split_whitespace()
                .map(str::to_string)
                .collect(),
            buttons: buttons
                .split('|')
                .filter(|b| !b.is_empty())
                .map(str::to_string)
                .collect(),
        }
    }

    /// Checks that `shown` composed the mail that plays `turn`, delivers its Subject
    /// from the player's address, and checks that exactly that turn was played and
    /// that the page written after it holds no secret. Returns the replies.
    #[track_caller]
    pub fn deliver(&mut self, shown: &Shown, turn: &LegalTurn) -> Vec<Sent> {
        let (player, k) = (self.player, self.k);
        assert!(
            shown
                .href
                .starts_with("mailto:yinsh@localhost?subject=yinsh%20move%20101%20"),
            "{}",
            shown.href
        );
        assert_eq!(
            shown.subject,
            format!("yinsh move 101 {player} {} {}#{k}", self.token, turn.text)
        );
        assert_eq!(shown.turn, turn.text);
        let replies = self
            .server
            .send(&format!("{player}@example.org"), &shown.subject, "");
        assert!(!replies.is_empty());
        let file = self.server.game_file(101);
        let played = file["turns"].as_array().expect("turns");
        assert_eq!(played.len(), k, "the turn was played: {replies:?}");
        assert_eq!(played[k - 1]["text"], turn.text.as_str());
        // The page written after the move no longer offers it, and holds no secret.
        let page = std::fs::read_to_string(self.site.join("games/101/index.html")).expect("page");
        assert!(!page.contains(&self.token), "no token on the page");
        assert!(!page.contains(self.password), "no password on the page");
        replies
    }
}

/// Plays `turn` at the position `turns` lead to, by its clicks in the browser;
/// delivers the composed Subject from the player's address and checks that exactly
/// that turn was played.
pub fn play_and_deliver(
    program: &Path,
    turns: &[(Color, String)],
    turn: &LegalTurn,
    shots: &[(&str, u32)],
) {
    play_by_clicks(program, turns, turn, &clicks(turn), shots);
}

/// [`play_and_deliver`] by the clicks given (a key press, an undo among them).
pub fn play_by_clicks(
    program: &Path,
    turns: &[(Color, String)],
    turn: &LegalTurn,
    clicks: &[String],
    shots: &[(&str, u32)],
) {
    let mut page = PlayPage::at(turns);
    let shown = page.open(program, clicks, shots);
    page.deliver(&shown, turn);
}

/// The position of a seeded random game and a legal turn there that `wanted` picks.
pub fn find_turn(
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
