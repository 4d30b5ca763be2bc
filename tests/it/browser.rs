//! A real browser looks at what players see: headless Chromium (Debian's `chromium`)
//! opens the HTML part of a board mail (saved with its picture, the `cid:` resolved to
//! the file) and a game page of the web site, takes screenshots, and the test checks
//! that the picture loaded (its natural width, written into the page by a probe
//! script and read back with `--dump-dom`), that no external resource was requested
//! (every resource the page loaded is a file, and a proxy that every network request
//! would go through sees no connection), and that the text holds the status lines.
//!
//! The screenshots and pages are kept in `target/tmp/browser/` (`mail.png`,
//! `mail-dark.png`, `game.png`, `index.png`). Without Chromium the tests say so and
//! pass; under CI (`CI` set) its absence fails them.

use std::io::Read;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::support::server::TestServer;
use crate::support::turns::random_turns;

/// The Chromium program, if there is one; `None` (after saying so) outside CI.
pub(crate) fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"].iter().find_map(|name| {
        std::env::var_os("PATH")?
            .to_str()?
            .split(':')
            .map(|dir| Path::new(dir).join(name))
            .find(|p| p.is_file())
    });
    if found.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but chromium is missing: .ci/run installs it (apt-get install chromium)"
        );
        eprintln!(
            "SKIPPED browser tests: no chromium on PATH (apt-get install chromium to run them)"
        );
    }
    found
}

/// Where the screenshots and pages are kept.
pub(crate) fn artefacts() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser");
    std::fs::create_dir_all(&dir).expect("artefact folder");
    dir
}

/// A listener standing in as the browser's proxy: it counts the connections it gets
/// (any request for a resource not in a file would be one).
pub(crate) struct Trap {
    pub(crate) port: u16,
    /// The connections that sent a request (at least one byte).
    pub(crate) hits: Arc<AtomicUsize>,
    /// The first line of each request (`GET http://host/...`, `CONNECT host:443 ...`).
    pub(crate) lines: Arc<std::sync::Mutex<Vec<String>>>,
}

impl Trap {
    pub(crate) fn new() -> Trap {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("addr").port();
        let hits = Arc::new(AtomicUsize::new(0));
        let counted = Arc::clone(&hits);
        let lines = Arc::new(std::sync::Mutex::new(Vec::new()));
        let seen = Arc::clone(&lines);
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                let mut buf = [0u8; 512];
                let n = stream.read(&mut buf).unwrap_or(0);
                // A connection closed before any byte (Chromium opens spare sockets
                // to its proxy ahead of need and drops them when it quits, more often
                // on a busy machine) carried no request: nothing left the machine.
                if n == 0 {
                    continue;
                }
                counted.fetch_add(1, Ordering::SeqCst);
                let first = String::from_utf8_lossy(&buf[..n])
                    .lines()
                    .next()
                    .unwrap_or("")
                    .to_string();
                if let Ok(mut l) = seen.lock() {
                    l.push(first);
                }
            }
        });
        Trap { port, hits, lines }
    }
}

/// Whether a request is Chromium's own (its clock, updates, accounts: Google's
/// services, which even `--disable-background-networking` leaves), not the page's.
pub(crate) fn browser_own(request: &str) -> bool {
    let target = request.split_whitespace().nth(1).unwrap_or("");
    let host = target
        .trim_start_matches("http://")
        .trim_start_matches("https://")
        .split(['/', ':', '?'])
        .next()
        .unwrap_or("");
    ["google.com", "googleapis.com", "gvt1.com", "gstatic.com"]
        .iter()
        .any(|own| host == *own || host.ends_with(&format!(".{own}")))
}

/// Runs Chromium on `url` with `extra` arguments (a fresh profile, every request sent
/// to `trap`); returns its standard output.
pub(crate) fn run_chromium(program: &Path, trap: &Trap, url: &str, extra: &[String]) -> String {
    run_chromium_via(program, trap.port, url, extra)
}

/// [`run_chromium`] with every request sent to the proxy on `proxy` (a port of
/// 127.0.0.1).
pub(crate) fn run_chromium_via(program: &Path, proxy: u16, url: &str, extra: &[String]) -> String {
    let profile = tempfile::tempdir().expect("profile");
    let out = Command::new(program)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--proxy-server=http://127.0.0.1:{proxy}"))
        .arg("--proxy-bypass-list=<-loopback>")
        .args(extra)
        .arg(url)
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The colour scheme a page is shown in (`--force-dark-mode` for dark).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    Light,
    Dark,
}

/// A copy of a page with a driver script (`driven.html` beside it), opened in
/// Chromium as often as a test needs: the DOM dump after the script ran, screenshots.
/// [`DrivenPage::close`] removes the copy and checks that no request left the machine.
pub(crate) struct DrivenPage {
    path: PathBuf,
    url: String,
    trap: Trap,
}

impl DrivenPage {
    /// Writes `html` (the page with its driver) beside `page` as `driven.html`, to be
    /// opened with `fragment` (`""`, `#play=...`) in its address.
    pub(crate) fn new(page: &Path, html: &str, fragment: &str) -> DrivenPage {
        let path = page.with_file_name("driven.html");
        std::fs::write(&path, html).expect("driven page");
        let url = format!("file://{}{fragment}", path.display());
        DrivenPage {
            path,
            url,
            trap: Trap::new(),
        }
    }

    /// The DOM once the page has loaded, with `extra` arguments (a window size).
    pub(crate) fn dom(&self, program: &Path, extra: &[String]) -> String {
        let mut args = vec!["--dump-dom".to_string()];
        args.extend_from_slice(extra);
        run_chromium(program, &self.trap, &self.url, &args)
    }

    /// A screenshot of the page in a window of `width` x `height`, kept as `shot`
    /// among the artefacts.
    pub(crate) fn screenshot(&self, program: &Path, shot: &str, width: u32, height: u32) {
        self.screenshot_in(program, shot, width, height, Scheme::Light);
    }

    /// [`DrivenPage::screenshot`] in a colour `scheme`. The page is shown in a frame
    /// of the window's size: a headless screenshot of a window its page scrolled on
    /// load comes out blank at the top, a frame's does not (and a frame is as narrow
    /// as asked, a headless window 500 px at least).
    pub(crate) fn screenshot_in(
        &self,
        program: &Path,
        shot: &str,
        width: u32,
        height: u32,
        scheme: Scheme,
    ) {
        let path = artefacts().join(shot);
        let _ = std::fs::remove_file(&path);
        let framed = self.path.with_file_name("framed.html");
        std::fs::write(
            &framed,
            format!(
                "<!DOCTYPE html><html><head><meta name=\"color-scheme\" content=\"light dark\">\
                 </head><body style=\"margin:0\"><iframe src=\"{}\" width=\"{width}\" \
                 height=\"{height}\" style=\"border:0;display:block\"></iframe></body></html>",
                self.url
            ),
        )
        .expect("the frame");
        let mut args = vec![
            format!("--screenshot={}", path.display()),
            format!("--window-size={width},{height}"),
        ];
        if scheme == Scheme::Dark {
            args.push("--force-dark-mode".to_string());
        }
        run_chromium(
            program,
            &self.trap,
            &format!("file://{}", framed.display()),
            &args,
        );
        std::fs::remove_file(&framed).expect("remove the frame");
        let png = std::fs::read(&path).expect("screenshot");
        assert!(png.len() > 10_000 && &png[1..4] == b"PNG", "{shot}");
    }

    /// Removes the copy; checks that no request left the machine.
    pub(crate) fn close(self) {
        std::fs::remove_file(&self.path).expect("remove");
        let lines = self
            .trap
            .lines
            .lock()
            .map(|l| l.clone())
            .unwrap_or_default();
        let foreign: Vec<&String> = lines.iter().filter(|l| !browser_own(l)).collect();
        assert!(foreign.is_empty(), "requests left the machine: {foreign:?}");
    }
}

/// `items` as a JavaScript array of strings (a driver script's steps; no quotes in
/// them).
pub(crate) fn js_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|c| format!("'{c}'")).collect();
    format!("[{}]", quoted.join(","))
}

/// An attribute of `#driven` (where a driver script writes what it saw) in the DOM
/// dump, unescaped.
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

/// The probe: once the page has loaded, it writes the first image's natural size and
/// every resource the page loaded into an element the DOM dump shows.
const PROBE: &str = "<script>window.addEventListener('load', function () {\
 var img = document.getElementById('board') || document.images[0];\
 var p = document.createElement('div'); p.id = 'probe';\
 p.setAttribute('data-width', img ? img.naturalWidth : -1);\
 p.setAttribute('data-height', img ? img.naturalHeight : -1);\
 p.setAttribute('data-resources', performance.getEntriesByType('resource')\
 .map(function (e) { return e.name; }).join(' '));\
 document.body.appendChild(p); });</script>";

/// What the probe wrote: natural width and height, and the resources loaded.
fn probe(dom: &str) -> (i64, i64, Vec<String>) {
    let at = dom
        .find("id=\"probe\"")
        .unwrap_or_else(|| panic!("no probe in {dom}"));
    let attr = |name: &str| {
        let tag = &dom[at..];
        let start = tag.find(&format!("{name}=\"")).expect("attribute") + name.len() + 2;
        tag[start..start + tag[start..].find('"').expect("end")].to_string()
    };
    (
        attr("data-width").parse().expect("width"),
        attr("data-height").parse().expect("height"),
        attr("data-resources")
            .split_whitespace()
            .map(str::to_string)
            .collect(),
    )
}

/// Opens `page` (with the probe added as `probe.html` beside it), checks the picture
/// and the resources, screenshots the page itself as `shot` and returns the DOM.
fn look_at(program: &Path, page: &Path, shot: &str, dark: Option<&str>, picture: bool) -> String {
    let html = std::fs::read_to_string(page).expect("page");
    let probed = page.with_file_name("probe.html");
    std::fs::write(&probed, html.replace("</body>", &format!("{PROBE}</body>"))).expect("probe");
    let trap = Trap::new();
    let dom = run_chromium(
        program,
        &trap,
        &format!("file://{}", probed.display()),
        &["--dump-dom".to_string()],
    );
    let (width, height, resources) = probe(&dom);
    assert!(
        !picture || (width > 0 && height > 0),
        "the picture did not load: {width}x{height}"
    );
    assert!(
        resources.iter().all(|r| r.starts_with("file://")),
        "a resource not from a file: {resources:?}"
    );
    for (name, args) in std::iter::once((shot, vec![]))
        .chain(dark.map(|d| (d, vec!["--force-dark-mode".to_string()])))
    {
        let path = artefacts().join(name);
        let _ = std::fs::remove_file(&path);
        let mut extra = vec![
            format!("--screenshot={}", path.display()),
            "--window-size=900,1500".to_string(),
        ];
        extra.extend(args);
        run_chromium(
            program,
            &trap,
            &format!("file://{}", page.display()),
            &extra,
        );
        let png = std::fs::read(&path).expect("screenshot");
        assert!(
            png.len() > 10_000 && &png[1..4] == b"PNG",
            "{name}: {} bytes",
            png.len()
        );
    }
    std::fs::remove_file(&probed).expect("remove probe");
    let lines = trap.lines.lock().map(|l| l.clone()).unwrap_or_default();
    assert_eq!(lines.len(), trap.hits.load(Ordering::SeqCst));
    let foreign: Vec<&String> = lines.iter().filter(|l| !browser_own(l)).collect();
    assert!(foreign.is_empty(), "requests left the machine: {foreign:?}");
    dom
}

#[test]
fn a_browser_shows_the_html_part_of_a_board_mail() {
    let Some(program) = chromium() else { return };
    let mut s = TestServer::new();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let turns = random_turns(5, 31);
    s.fast_forward(101, &turns[..30]);
    let r = s.send(
        "alice@example.org",
        &format!("yinsh move 101 alice apw {}#31", turns[30].1),
        "Your move! <script>document.title='owned'</script> <img src=\"https://evil.example/x.png\">",
    );
    let to_bob = r
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .expect("bob's mail");
    let html = to_bob.html.as_deref().expect("an HTML part");
    let (cid, png) = &to_bob.images[0];
    let cid = cid.trim_matches(['<', '>']);
    let dir = artefacts().join("mail");
    std::fs::create_dir_all(&dir).expect("mail folder");
    std::fs::write(dir.join("board-101.png"), png).expect("picture");
    let page = dir.join("mail.html");
    let resolved = html.replace(&format!("src=\"cid:{cid}\""), "src=\"board-101.png\"");
    assert_ne!(resolved, html, "the picture is shown by its cid");
    std::fs::write(&page, resolved).expect("page");
    let dom = look_at(&program, &page, "mail.png", Some("mail-dark.png"), true);
    assert!(dom.contains("It is bob's turn."), "{dom}");
    assert!(dom.contains("yinsh move 101 bob &lt;password&gt;"), "{dom}");
    assert!(
        dom.contains("&lt;script&gt;document.title"),
        "the comment as text: {dom}"
    );
    assert!(!dom.contains("<title>owned"), "{dom}");
}

#[test]
fn a_browser_steps_through_a_game_page_of_the_site() {
    let Some(program) = chromium() else { return };
    let mut s = TestServer::new();
    let site = artefacts().join("site");
    let _ = std::fs::remove_dir_all(&site);
    s.alice_bob_on_site(&site);
    let turns = random_turns(9, 24);
    s.fast_forward(101, &turns[..23]);
    s.send(
        "bob@example.org",
        &format!("yinsh move 101 bob bpw {}#24", turns[23].1),
        "",
    );
    // The board is the script's (the picture is for readers without it: issue 47
    // item 16, `browser_small.rs`).
    let dom = look_at(
        &program,
        &site.join("games/101/index.html"),
        "game.png",
        None,
        false,
    );
    assert!(
        dom.contains("id=\"svgboard\""),
        "the script drew the board: {dom}"
    );
    assert!(dom.contains("It is alice's turn."), "{dom}");
    assert!(
        dom.contains("<div id=\"step\">"),
        "the step script ran: {dom}"
    );
    assert!(
        dom.contains("class=\"here\""),
        "the last move is marked: {dom}"
    );
    let index = look_at(&program, &site.join("index.html"), "index.png", None, false);
    assert!(index.contains("games/101/index.html"), "{index}");
}

#[test]
fn the_checks_see_a_page_that_fetches_from_outside() {
    let Some(program) = chromium() else { return };
    let dir = tempfile::tempdir().expect("dir");
    let page = dir.path().join("page.html");
    std::fs::write(
        &page,
        format!("<html><body><img src=\"http://evil.example/x.png\">{PROBE}</body></html>"),
    )
    .expect("page");
    let trap = Trap::new();
    let dom = run_chromium(
        &program,
        &trap,
        &format!("file://{}", page.display()),
        &["--dump-dom".to_string()],
    );
    let (width, _, resources) = probe(&dom);
    assert_eq!(width, 0, "the outside picture cannot load");
    assert!(
        resources
            .iter()
            .any(|r| r.starts_with("http://evil.example/")),
        "{resources:?}"
    );
    let lines = trap.lines.lock().map(|l| l.clone()).unwrap_or_default();
    assert!(
        lines
            .iter()
            .any(|l| l.contains("evil.example") && !browser_own(l)),
        "{lines:?}"
    );
}
