//! A [`Reply`] that passed the gate made a mail (`mail::BuiltMail`): its threading
//! headers (`threading.rs`: the Message-ID with the reader's token), and its HTML
//! part: unless the server turns HTML off (`[mail] html = false`), the reply's
//! [`BoardHtml`] becomes the document with the
//! link to the game's page (when `[site] url` is set) and the picture rendered as an
//! inline PNG; a reply carrying its reader's play token (a board mail to the player
//! to move) gets the "Play your move on the board" link in both parts
//! ([`play_url`], when `[site] url` is set). A review mail's
//! [`ReviewHtml`] gets its chart and turning points' boards as inline PNGs (issue 28).
//! One picture is rendered once for all the replies that show it.

use std::path::Path;
use std::time::{Duration, UNIX_EPOCH};

use crate::mail::{
    self, BuiltMail, HtmlBody, InboundMail, InlineImage, MailSettings, OutgoingMail,
};
use crate::picture::{Chart, Picture, PictureError};
use crate::server::config::Settings;
use crate::server::game::extra::MAX_WATCHERS;
use crate::server::model::BoardId;
use crate::server::store::KeptPictures;
use crate::server::text::html::BoardHtml;
use crate::server::text::play_link;
use crate::server::text::review::{PICTURED_POINTS, ReviewHtml};
use crate::server::text::wrap;

use super::reply::{HtmlPart, Reply};
use super::threading::{self, Headers};

/// Replies of one mail that carry the HTML part with its picture: the two players
/// and every watcher of a game ([`MAX_WATCHERS`]) get their picture. Each such reply
/// costs the `deliver` that builds it its built mail (about 60 kB, the picture's
/// base64 most of it; the journal streams it to disk as hex without a copy), so a
/// `multiple` of many `show` lines stays far under its 20 MB (`docs/performance.md`).
/// The replies past it go as text only, with a log line.
pub const HTML_REPLIES_PER_MAIL: usize = 2 + MAX_WATCHERS;

/// Different pictures drawn for one mail's replies: a reply whose position is not
/// among them once this many are drawn goes as text only, with a log line. Drawing a
/// picture costs far more than sharing one (its canvas, and the heap the allocator
/// keeps after it): a `multiple` of `showas` and `show` lines naming 22 different
/// positions measured 19.8 MB, no margin left (`CHANGELOG.md`, "Performance
/// history"), while a move shown to its players and 20 watchers draws one (two when a
/// queued move answered it: the board before it too).
pub const PICTURES_PER_MAIL: usize = 6;

/// Different pictures drawn for the replies of one mail or run that carry a review
/// mail: its chart and two boards for each of its [`PICTURED_POINTS`], so one review
/// is drawn whole once for all its recipients, and a second review in the same run
/// (a `multiple` of `review` lines) goes as text only.
pub const REVIEW_PICTURES: usize = 1 + 2 * PICTURED_POINTS;

/// One picture a mail shows: a board, a review's board (drawn small), or a review's
/// chart.
#[derive(Debug, Clone, PartialEq)]
enum Drawing {
    /// A position.
    Board(Picture),
    /// A position around a review's turning point.
    Small(Picture),
    /// A review's chart.
    Chart(Chart),
}

impl Drawing {
    fn to_png(&self) -> Result<Vec<u8>, PictureError> {
        match self {
            Drawing::Board(p) => p.to_png(),
            Drawing::Small(p) => p.to_small_png(),
            Drawing::Chart(c) => c.to_png(),
        }
    }
}

/// The pictures rendered so far for one mail's replies.
pub struct Rendered {
    done: Vec<(Drawing, Vec<u8>)>,
    /// Replies given an HTML part so far.
    given: usize,
    /// The home's kept pictures (`store/kept_pictures.rs`).
    kept: KeptPictures,
}

/// Whether a picture drawn for a mail is kept for the next one that shows it: a
/// board mail's position is (the one shown next, most often), the board before a
/// queued move and a review's boards are not (they would take its place).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    Yes,
    No,
}

/// The HTML alternative of `reply`, if it has one and the server sends them; a
/// picture that cannot be rendered is told to `note`, and the mail goes as text.
pub fn html_body(
    settings: &Settings,
    reply: &Reply,
    rendered: &mut Rendered,
    note: &mut dyn FnMut(String),
) -> Option<HtmlBody> {
    let html = reply.html.as_ref().filter(|_| settings.html_mail)?;
    let board = match html {
        HtmlPart::Board(b) => b.board,
        HtmlPart::Review(r) => r.board,
    };
    if rendered.given >= HTML_REPLIES_PER_MAIL {
        note(format!(
            "board {board}: {HTML_REPLIES_PER_MAIL} replies of this mail already carry a picture, this one goes as text only"
        ));
        return None;
    }
    let domain = settings.address();
    let domain = domain.rsplit('@').next().unwrap_or("localhost").to_string();
    let page = settings.site.as_ref().and_then(|s| s.game_url(board));
    let body = match html {
        HtmlPart::Board(html) => {
            let play = play_url(settings, reply);
            board_body(
                html,
                rendered,
                note,
                &domain,
                page.as_deref(),
                play.as_deref(),
            )?
        }
        HtmlPart::Review(html) => review_body(html, rendered, note, &domain, page.as_deref())?,
    };
    rendered.given += 1;
    Some(body)
}

/// A board mail's HTML part: its picture, and the board a queued move answered.
fn board_body(
    html: &BoardHtml,
    rendered: &mut Rendered,
    note: &mut dyn FnMut(String),
    domain: &str,
    page: Option<&str>,
    play: Option<&str>,
) -> Option<HtmlBody> {
    let board = html.board;
    let png = rendered.png(
        &Drawing::Board(html.picture.clone()),
        board,
        PICTURES_PER_MAIL,
        Keep::Yes,
        note,
    )?;
    // The board a queued move answered: its picture too when one can be drawn, else
    // its drawing as text.
    let earlier = html.earlier.as_ref().and_then(|e| {
        rendered.png(
            &Drawing::Board(e.picture.clone()),
            board,
            PICTURES_PER_MAIL,
            Keep::No,
            note,
        )
    });
    let mut images = vec![inline(&format!("board-{board}"), domain, png)];
    images.extend(earlier.map(|png| inline(&format!("board-{board}-earlier"), domain, png)));
    let cids: Vec<&str> = images.iter().map(|i| i.cid.as_str()).collect();
    Some(HtmlBody {
        html: html.document(cids[0], cids.get(1).copied(), page, play),
        images,
    })
}

/// The picture `png` carried as `<stem>.png`, its Content-ID `<stem>@<domain>`.
fn inline(stem: &str, domain: &str, png: Vec<u8>) -> InlineImage {
    InlineImage {
        cid: format!("{stem}@{domain}"),
        name: format!("{stem}.png"),
        png,
    }
}

/// A review mail's HTML part: the chart and the turning points' boards, every one of
/// them drawn (at most [`REVIEW_PICTURES`] different pictures for the mail's replies
/// together), else the mail goes as text only.
fn review_body(
    html: &ReviewHtml,
    rendered: &mut Rendered,
    note: &mut dyn FnMut(String),
    domain: &str,
    page: Option<&str>,
) -> Option<HtmlBody> {
    let board = html.board;
    let chart = rendered.png(
        &Drawing::Chart(html.chart.clone()),
        board,
        REVIEW_PICTURES,
        Keep::No,
        note,
    )?;
    let mut images = vec![inline(&format!("review-{board}"), domain, chart)];
    for (k, picture) in html.board_pictures().into_iter().enumerate() {
        let png = rendered.png(
            &Drawing::Small(picture.clone()),
            board,
            REVIEW_PICTURES,
            Keep::No,
            note,
        )?;
        images.push(inline(&format!("review-{board}-{k}"), domain, png));
    }
    let board_cids: Vec<String> = images[1..].iter().map(|i| i.cid.clone()).collect();
    Some(HtmlBody {
        html: html.document(&images[0].cid, &board_cids, page),
        images,
    })
}

/// The "Play your move on the board" link of `reply`: the game's page with the
/// reader's play token in its fragment (`<url>/games/<n>/#play=<token>`), when the
/// reply carries a play token (the gate left it: the reader is the player to move,
/// at an address they confirmed) and the site has a URL.
pub fn play_url(settings: &Settings, reply: &Reply) -> Option<String> {
    let token = reply.thread.play.as_ref()?;
    let board = reply.thread.game?.board;
    let page = settings.site.as_ref()?.game_url(board)?;
    Some(format!("{page}#play={token}"))
}

impl Rendered {
    /// None rendered yet, for a mail of the home `home`.
    pub fn new(home: &Path) -> Rendered {
        Rendered {
            done: Vec::new(),
            given: 0,
            kept: KeptPictures::new(home),
        }
    }

    /// The PNG of `picture` for a reply about `board`: drawn once per mail, at most
    /// `cap` different ones ([`PICTURES_PER_MAIL`], [`REVIEW_PICTURES`]); `None` past
    /// that or when it cannot be drawn (told to `note`). With [`Keep::Yes`] the
    /// picture kept for the board is taken when it is this one, and one drawn is kept.
    fn png(
        &mut self,
        picture: &Drawing,
        board: BoardId,
        cap: usize,
        keep: Keep,
        note: &mut dyn FnMut(String),
    ) -> Option<Vec<u8>> {
        if let Some((_, png)) = self.done.iter().find(|(p, _)| p == picture) {
            return Some(png.clone());
        }
        let key = match (keep, picture) {
            (Keep::Yes, Drawing::Board(p)) => Some(p.key()),
            _ => None,
        };
        if let Some(key) = &key {
            match self.kept.get(board, key) {
                Ok(Some(png)) => {
                    self.done.push((picture.clone(), png.clone()));
                    return Some(png);
                }
                Ok(None) => {}
                Err(e) => note(format!("board {board}: {e}; the picture is drawn again")),
            }
        }
        if self.done.len() >= cap {
            note(format!(
                "board {board}: {cap} different pictures already drawn for this mail, this one goes as text only"
            ));
            return None;
        }
        match picture.to_png() {
            Ok(png) => {
                if let Some(key) = &key
                    && let Err(e) = self.kept.put(board, key, &png)
                {
                    note(format!("board {board}: {e}"));
                }
                self.done.push((picture.clone(), png.clone()));
                Some(png)
            }
            Err(e) => {
                note(format!(
                    "board {board}: picture not drawn, the mail goes as text only: {e}"
                ));
                None
            }
        }
    }
}

pub fn mail_settings(settings: &Settings) -> MailSettings {
    MailSettings {
        from: settings.from.clone(),
        loop_id: settings.address(),
    }
}

/// Build the reply mails; their Message-IDs are fixed from here on (the journal keeps
/// them), so a reply spooled twice is one mail. `answering` is the mail they answer
/// (In-Reply-To, References), `seed` names each reply's Message-ID; its thread and
/// token are [`threading::headers`]'s. A reply that
/// cannot be built (a bad registered address) is skipped and told to `note`.
pub fn replies(
    settings: &Settings,
    answering: Option<&InboundMail>,
    seed: &dyn Fn(usize, &Reply) -> String,
    replies: &[Reply],
    now: u64,
    note: &mut dyn FnMut(String),
) -> Vec<BuiltMail> {
    let ms = mail_settings(settings);
    let when = UNIX_EPOCH + Duration::from_secs(now);
    let mut rendered = Rendered::new(&settings.home);
    let mut built = Vec::new();
    for (k, r) in replies.iter().enumerate() {
        if r.to.is_empty() {
            continue;
        }
        let Headers {
            id,
            in_reply_to,
            references,
        } = threading::headers(&settings.address(), answering, r, &seed(k, r));
        // The text body is finished here: its lines broken at 78 columns (issue 47
        // item 8), whoever wrote them.
        let body = wrap::wrap(&match play_url(settings, r) {
            Some(url) => format!("{}{}", r.body, play_link::text(&url)),
            None => r.body.clone(),
        });
        let out = OutgoingMail {
            to: r.to.iter().map(|a| a.to_string()).collect(),
            subject: r.subject.clone(),
            body,
            in_reply_to,
            references,
            html: html_body(settings, r, &mut rendered, note),
        };
        match mail::build(&out, &ms, when, &id) {
            Ok(mail) => built.push(mail),
            Err(e) => note(format!("reply not built: {e}")),
        }
    }
    built
}
