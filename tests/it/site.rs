//! The static web site through the real binary: refreshed after every mail that
//! changes a game when `[site]` is configured (only the games that changed), written
//! whole by `yinsh-pbem site --out DIR`; its records download and read back; and
//! nothing private ever on it (passwords, addresses, comments, chat, messages).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use yinsh_pbem::notation::sgf;
use yinsh_pbem::notation::{FinalPass, play_transcript};
use yinsh_pbem::rules::Variant;

use crate::support::bin;
use crate::support::server::TestServer;
use crate::support::turns::random_turns;

const APW: &str = "Alice-Secret-77";
const BPW: &str = "Bob-Secret-88";

/// Words that must never reach the site: passwords, addresses, and the texts of
/// comments, chat and private messages.
const PRIVATE: &[&str] = &[
    APW,
    BPW,
    "example.org",
    "alice@",
    "bob@",
    // Mail links go to the server only (issue 27: the legal turns as mail links).
    "mailto:alice",
    "mailto:bob",
    "COMMENT-WORD",
    "CHAT-WORD",
    "MESSAGE-WORD",
    "script>alert",
];

/// A server with a site in `<dir>/site`, alice and bob signed up, board 101 started.
fn server() -> (TestServer, PathBuf) {
    let mut s = TestServer::new();
    let site = s.home().with_file_name("site");
    std::fs::create_dir_all(s.home()).expect("home");
    std::fs::write(
        s.home().join("config.toml"),
        format!(
            "[site]\nout = \"{}\"\nurl = \"https://example.net/yinsh\"\n",
            site.display()
        ),
    )
    .expect("config");
    s.send("alice@example.org", &format!("signup alice {APW}"), "");
    s.send("bob@example.org", &format!("signup bob {BPW}"), "");
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    (s, site)
}

/// Every file of `dir` with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).expect("read dir").flatten() {
            let p = e.path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.insert(p.clone(), std::fs::read(&p).expect("read"));
            }
        }
    }
    out
}

/// Asserts that no text file of the site holds a private word.
#[track_caller]
fn assert_nothing_private(site: &Path) {
    let all = files(site);
    assert!(all.len() > 8, "a site: {:?}", all.keys());
    for (path, bytes) in &all {
        if path.extension().is_some_and(|e| e == "png") {
            assert_eq!(&bytes[1..4], b"PNG", "{}", path.display());
            continue;
        }
        let text = String::from_utf8_lossy(bytes);
        for word in PRIVATE {
            assert!(!text.contains(word), "{word} in {}", path.display());
        }
    }
}

#[test]
fn the_site_follows_the_mails_and_holds_nothing_private() {
    let (mut s, site) = server();
    let turns = random_turns(11, 12);
    for (k, (_, text)) in turns.iter().enumerate() {
        let (who, pw) = if k % 2 == 0 {
            ("alice", APW)
        } else {
            ("bob", BPW)
        };
        let comment = if k == 3 {
            "COMMENT-WORD <script>alert(1)</script>"
        } else {
            ""
        };
        let r = s.send(
            &format!("{who}@example.org"),
            &format!("yinsh move 101 {who} {pw} {text}"),
            comment,
        );
        assert_eq!(r.len(), 2, "{r:?}");
    }
    s.send(
        "bob@example.org",
        &format!("yinsh chat 101 bob {BPW}"),
        "CHAT-WORD",
    );
    s.send(
        "alice@example.org",
        &format!("message alice {APW} bob"),
        "MESSAGE-WORD",
    );
    let page = std::fs::read_to_string(site.join("games/101/index.html")).expect("game page");
    assert!(page.contains("It is alice&#39;s turn."), "{page}");
    assert!(page.contains(&turns[11].1), "the last move: {page}");
    let pictures = files(&site.join("games/101"))
        .keys()
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .count();
    // Issue 27: one picture a game (the position now); the page's script draws the
    // others from the page's data.
    assert_eq!(pictures, 1, "the position now");
    let index = std::fs::read_to_string(site.join("index.html")).expect("index");
    assert!(index.contains("games/101/index.html"), "{index}");
    assert!(site.join("standings.html").is_file() && site.join("rules.html").is_file());
    assert_nothing_private(&site);
    // The records read back: the transcript plays, the SGF holds the same actions.
    let transcript = std::fs::read_to_string(site.join("games/101/board-101.txt")).expect("txt");
    let played =
        play_transcript(Variant::Normal, &transcript, FinalPass::Leave).expect("transcript plays");
    let record =
        sgf::read(&std::fs::read_to_string(site.join("games/101/board-101.sgf")).expect("sgf"))
            .expect("sgf reads");
    assert_eq!(record.actions, played.actions);
    assert_eq!(
        (record.white.as_str(), record.black.as_str()),
        ("alice", "bob")
    );
}

#[test]
fn a_mail_refreshes_only_the_game_it_changed() {
    let (mut s, site) = server();
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    s.send(
        "alice@example.org",
        &format!("yinsh move 102 alice {APW} e5"),
        "",
    );
    let before = files(&site);
    assert!(before.keys().any(|p| p.ends_with("games/102/index.html")));
    s.send(
        "alice@example.org",
        &format!("yinsh move 101 alice {APW} f6"),
        "",
    );
    let after = files(&site);
    let changed: Vec<&PathBuf> = after
        .iter()
        .filter(|(p, b)| before.get(*p) != Some(*b))
        .map(|(p, _)| p)
        .collect();
    assert!(
        changed
            .iter()
            .all(|p| !p.starts_with(site.join("games/102"))),
        "{changed:?}"
    );
    assert!(
        changed.iter().any(|p| p.ends_with("games/101/index.html")),
        "{changed:?}"
    );
    assert!(
        changed
            .iter()
            .any(|p| p.ends_with("index.html") && p.parent() == Some(&site))
    );
    // The pictures already drawn are kept: one new position, one new file.
    let new_pictures = after
        .keys()
        .filter(|p| !before.contains_key(*p) && p.extension().is_some_and(|e| e == "png"))
        .count();
    assert_eq!(new_pictures, 1);
    // A game ended by resignation: its page says so, and the standings follow.
    s.send(
        "bob@example.org",
        &format!("yinsh resign 101 bob {BPW}"),
        "",
    );
    let page = std::fs::read_to_string(site.join("games/101/index.html")).expect("page");
    assert!(page.contains("Game won by alice."), "{page}");
    let history = std::fs::read_to_string(site.join("history.html")).expect("history");
    assert!(history.contains("101"), "{history}");
    assert_nothing_private(&site);
}

#[test]
fn the_site_command_writes_the_whole_site_from_the_store() {
    let (mut s, _) = server();
    s.send(
        "alice@example.org",
        &format!("yinsh move 101 alice {APW} e5"),
        "",
    );
    let out = s.home().with_file_name("elsewhere");
    let done = bin::command()
        .arg("site")
        .arg("--home")
        .arg(s.home())
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run site");
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    assert!(String::from_utf8_lossy(&done.stdout).contains("1 games"));
    for f in [
        "index.html",
        "standings.html",
        "history.html",
        "rules.html",
        "style.css",
    ] {
        assert!(out.join(f).is_file(), "{f}");
    }
    assert!(out.join("games/101/board-101.sgf").is_file());
    assert_nothing_private(&out);
    // Nothing to do the second time.
    let again = bin::command()
        .args(["site", "--home"])
        .arg(s.home())
        .arg("--out")
        .arg(&out)
        .output()
        .expect("run site");
    assert!(String::from_utf8_lossy(&again.stdout).contains("0 files changed"));
    // Without a folder to write to, it says so and exits 75.
    let none = bin::command()
        .args(["site", "--config", "/dev/null", "--home"])
        .arg(s.home().with_file_name("nothing"))
        .output()
        .expect("run site");
    assert_eq!(none.status.code(), Some(75));
    assert!(String::from_utf8_lossy(&none.stderr).contains("--out DIR"));
}

/// Runs `yinsh-pbem site` on the home of `s` into `out`.
pub(crate) fn build_site(s: &TestServer, out: &Path) {
    let done = bin::command()
        .args(["site", "--home"])
        .arg(s.home())
        .arg("--out")
        .arg(out)
        .output()
        .expect("run site");
    assert_eq!(
        done.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
}

#[test]
fn the_history_pages_link_each_other_and_give_no_mail_instructions() {
    let (mut s, _) = server();
    s.send(
        "bob@example.org",
        &format!("yinsh resign 101 bob {BPW}"),
        "",
    );
    // 250 finished games in the store's history index (three files of 100), made from
    // the real one: the pages of the mail (50 each) would say "send ... page 2".
    let index = s.home().join("index");
    let real: Vec<serde_json::Value> = serde_json::from_slice(
        &std::fs::read(index.join("history/0.json")).expect("history index"),
    )
    .expect("json");
    for file in 0..3u32 {
        let games: Vec<serde_json::Value> = (file * 100 + 1..=(file * 100 + 100).min(250))
            .map(|board| {
                let mut g = real[0].clone();
                g["board"] = board.into();
                g
            })
            .collect();
        std::fs::write(
            index.join(format!("history/{file}.json")),
            serde_json::to_vec(&games).expect("json"),
        )
        .expect("write");
    }
    let mut state: serde_json::Value =
        serde_json::from_slice(&std::fs::read(index.join("state.json")).expect("state"))
            .expect("json");
    state["finished"] = 250.into();
    std::fs::write(index.join("state.json"), state.to_string()).expect("write");

    let out = s.home().with_file_name("history-site");
    build_site(&s, &out);
    let history = std::fs::read_to_string(out.join("history.html")).expect("history");
    assert!(!history.contains("yinsh history"), "{history}");
    assert!(!history.contains("send"), "{history}");
    assert!(history.contains("250 finished games"), "{history}");
    // The newest two index files (games 101-250) here, most recent first; the
    // oldest hundred on a page of their own, linked.
    // Issue 26 item 21: a table, a line a game, the board a link to its page.
    let at = |text: &str, board: &str| {
        text.lines()
            .position(|l| l.contains(&format!("<a href=\"games/{board}/index.html\">{board}</a>")))
    };
    let (newest, oldest_here) = (at(&history, "250"), at(&history, "101"));
    assert!(newest.is_some() && oldest_here.is_some() && newest < oldest_here);
    assert_eq!(at(&history, "100"), None);
    assert!(
        history.contains("<a href=\"history-1.html\">1-100</a>"),
        "{history}"
    );
    let older = std::fs::read_to_string(out.join("history-1.html")).expect("older page");
    assert!(
        at(&older, "1").is_some() && at(&older, "100").is_some(),
        "{older}"
    );
    assert!(older.contains("<a href=\"history.html\">"), "{older}");
    assert!(!older.contains("yinsh history"), "{older}");
    assert!(!out.join("history-2.html").exists());
    // The index shows the hundred that ended last and sends to the history for more.
    let index = std::fs::read_to_string(out.join("index.html")).expect("index");
    assert!(index.contains("The 100 that ended last of 250"), "{index}");
    assert!(index.contains("games/250/index.html") && !index.contains("games/150/"));
}

#[test]
fn the_page_of_a_game_that_is_gone_is_removed() {
    let (mut s, _) = server();
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let out = s.home().with_file_name("gone-site");
    build_site(&s, &out);
    assert!(out.join("games/101/index.html").is_file());
    assert!(out.join("games/102/index.html").is_file());
    // The operator deletes board 101 (as `decline` will): the whole site follows.
    std::fs::remove_file(s.home().join("boards/101.json")).expect("remove");
    build_site(&s, &out);
    assert!(!out.join("games/101").exists());
    assert!(out.join("games/102/index.html").is_file());
    let index = std::fs::read_to_string(out.join("index.html")).expect("index");
    assert!(!index.contains("games/101/"), "{index}");
    assert!(index.contains("games/102/"), "{index}");
}

#[test]
fn a_refresh_reads_the_sites_list_of_active_games_not_every_games_summary() {
    let (mut s, site) = server();
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    assert!(site.join("active.json").is_file());
    // Board 102's own summary is gone: a refresh that read every game's summary
    // would drop it from the index; the list of active games keeps it.
    std::fs::remove_file(site.join("games/102/summary.json")).expect("remove");
    s.send(
        "alice@example.org",
        &format!("yinsh move 101 alice {APW} e5"),
        "",
    );
    let index = std::fs::read_to_string(site.join("index.html")).expect("index");
    assert!(index.contains("games/101/index.html"), "{index}");
    assert!(index.contains("games/102/index.html"), "{index}");
    // A game that ends leaves the active list for the finished one (from the store's
    // history index).
    s.send(
        "bob@example.org",
        &format!("yinsh resign 101 bob {BPW}"),
        "",
    );
    let active = std::fs::read_to_string(site.join("active.json")).expect("active");
    assert!(!active.contains("\"board\": 101"), "{active}");
    let index = std::fs::read_to_string(site.join("index.html")).expect("index");
    let finished = index.find("Finished games").expect("finished section");
    let at = index.find("games/101/index.html").expect("101 listed");
    assert!(at > finished, "{index}");
    assert!(index[finished..].contains("bob resigned"), "{index}");
}

/// The files of the site in `dir`, by their path inside it (the lock left out).
fn site_files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    files(dir)
        .into_iter()
        .filter(|(p, _)| p.file_name().is_some_and(|n| n != ".lock"))
        .map(|(p, b)| (p.strip_prefix(dir).expect("inside").to_path_buf(), b))
        .collect()
}

/// Issue 27, the whole build shared among threads: games finished and going on,
/// written by three threads, make exactly the site one thread makes (every file's
/// bytes, the index's lists in order, the counts of what was written).
#[test]
fn a_whole_build_in_threads_writes_the_same_site_as_one_thread() {
    use yinsh_pbem::server::site::{Target, build_in_threads};
    use yinsh_pbem::server::store::Store;
    let (mut s, _) = server();
    for _ in 0..4 {
        s.send("bob@example.org", "yinsh challenge bob alice", "");
    }
    s.send(
        "alice@example.org",
        &format!("yinsh move 101 alice {APW} e5"),
        "",
    );
    s.send(
        "bob@example.org",
        &format!("yinsh resign 101 bob {BPW}"),
        "",
    );
    s.send(
        "bob@example.org",
        &format!("yinsh move 103 bob {BPW} f6"),
        "",
    );
    s.send(
        "alice@example.org",
        &format!("yinsh resign 103 alice {APW}"),
        "",
    );
    let store = Store::open(&s.home()).expect("store");
    let mut built = Vec::new();
    for threads in [1, 3] {
        let out = s.home().with_file_name(format!("site-{threads}"));
        let target = Target {
            out: &out,
            address: "yinsh@example.net",
        };
        let written = build_in_threads(&store, target, s.now, threads).expect("build");
        assert_eq!(written.games, 5, "{threads} threads: {written:?}");
        built.push((written, site_files(&out)));
    }
    let (one, three) = (&built[0], &built[1]);
    assert_eq!(one.0, three.0, "the same files written");
    assert_eq!(
        one.1.keys().collect::<Vec<_>>(),
        three.1.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &one.1 {
        assert!(three.1[path] == *bytes, "{} differs", path.display());
    }
    let index = String::from_utf8_lossy(&one.1[Path::new("index.html")]).into_owned();
    let at = |b: &str| index.find(&format!("games/{b}/index.html")).expect(b);
    // The games going on, newest first, then the finished ones.
    assert!(
        at("105") < at("104") && at("104") < at("102") && at("102") < at("103"),
        "{index}"
    );
}
