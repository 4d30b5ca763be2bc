//! A [`Reply`] that passed the gate made a mail (`mail::BuiltMail`): its threading
//! headers (`threading.rs`: the Message-ID with the reader's token), and its HTML
//! part: unless the server turns HTML off (`[mail] html = false`), the reply's
//! [`BoardHtml`](crate::server::text::html::BoardHtml) becomes the document with the
//! link to the game's page (when `[site] url` is set) and the picture rendered as an
//! inline PNG; a reply carrying its reader's play token (a board mail to the player
//! to move) gets the "Play your move on the board" link in both parts
//! ([`play_url`], when `[site] url` is set). One picture is rendered once for all the
//! replies that show it.

use std::time::{Duration, UNIX_EPOCH};

use crate::mail::{
    self, BuiltMail, HtmlBody, InboundMail, InlineImage, MailSettings, OutgoingMail,
};
use crate::picture::Picture;
use crate::server::config::Settings;
use crate::server::game::extra::MAX_WATCHERS;
use crate::server::model::BoardId;
use crate::server::text::play_link;

use super::reply::Reply;
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
/// positions measured 19.8 MB, no margin left (`docs/performance.md`, "Pictured
/// replies"), while a move shown to its players and 20 watchers draws one (two when a
/// queued move answered it: the board before it too).
pub const PICTURES_PER_MAIL: usize = 6;

/// The pictures rendered so far for one mail's replies.
#[derive(Default)]
pub struct Rendered {
    done: Vec<(Picture, Vec<u8>)>,
    /// Replies given an HTML part so far.
    given: usize,
}

/// The HTML alternative of `reply`, if it has one and the server sends them; a
/// picture that cannot be rendered is told to `note`, and the mail goes as text.
pub fn html_body(
    settings: &Settings,
    reply: &Reply,
    rendered: &mut Rendered,
    note: &mut dyn FnMut(String),
) -> Option<HtmlBody> {
    let play = play_url(settings, reply);
    let html = reply.html.as_ref().filter(|_| settings.html_mail)?;
    if rendered.given >= HTML_REPLIES_PER_MAIL {
        note(format!(
            "board {}: {HTML_REPLIES_PER_MAIL} replies of this mail already carry a picture, this one goes as text only",
            html.board
        ));
        return None;
    }
    let board = html.board;
    let png = rendered.png(&html.picture, board, note)?;
    // The board a queued move answered: its picture too when one can be drawn, else
    // its drawing as text.
    let earlier = html
        .earlier
        .as_ref()
        .and_then(|e| rendered.png(&e.picture, board, note));
    rendered.given += 1;
    let domain = settings.address();
    let domain = domain.rsplit('@').next().unwrap_or("localhost");
    let cid = format!("board-{}@{domain}", html.board);
    let page = settings.site.as_ref().and_then(|s| s.game_url(html.board));
    let earlier_cid = format!("board-{}-earlier@{domain}", html.board);
    let mut images = vec![InlineImage {
        cid: cid.clone(),
        name: format!("board-{}.png", html.board),
        png,
    }];
    if let Some(png) = earlier {
        images.push(InlineImage {
            cid: earlier_cid.clone(),
            name: format!("board-{}-earlier.png", html.board),
            png,
        });
    }
    Some(HtmlBody {
        html: html.document(
            &cid,
            (images.len() > 1).then_some(earlier_cid.as_str()),
            page.as_deref(),
            play.as_deref(),
        ),
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
    /// The PNG of `picture` for a reply about `board`: drawn once per mail, at most
    /// [`PICTURES_PER_MAIL`] different ones; `None` past that or when it cannot be
    /// drawn (told to `note`).
    fn png(
        &mut self,
        picture: &Picture,
        board: BoardId,
        note: &mut dyn FnMut(String),
    ) -> Option<Vec<u8>> {
        if let Some((_, png)) = self.done.iter().find(|(p, _)| p == picture) {
            return Some(png.clone());
        }
        if self.done.len() >= PICTURES_PER_MAIL {
            note(format!(
                "board {board}: {PICTURES_PER_MAIL} different pictures already drawn for this mail, this one goes as text only"
            ));
            return None;
        }
        match picture.to_png() {
            Ok(png) => {
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
    let mut rendered = Rendered::default();
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
        let body = match play_url(settings, r) {
            Some(url) => format!("{}{}", r.body, play_link::text(&url)),
            None => r.body.clone(),
        };
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
