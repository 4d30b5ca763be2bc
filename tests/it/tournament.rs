//! Issue 49, tournaments by mail: a round robin of four played to its end, every
//! result and the final table checked against a table worked out by hand here; the
//! commands' limits (a confirmed account only, a creator's cap, the creator starts).

use crate::support::sent::{mails_to, one_to};
use crate::support::server::{Sent, TestServer, assert_says};

pub(crate) const PLAYERS: [(&str, &str, &str); 7] = [
    ("alice", "apw", "alice@example.org"),
    ("bob", "bpw", "bob@example.org"),
    ("carol", "cpw", "carol@example.org"),
    ("dave", "dpw", "dave@example.org"),
    ("erin", "epw", "erin@example.org"),
    ("frank", "fpw", "frank@example.org"),
    ("gina", "gpw", "gina@example.org"),
];

/// A confirming server with the first `n` players signed up and confirmed.
pub(crate) fn players(n: usize) -> TestServer {
    let mut s = TestServer::confirming();
    for (u, p, a) in &PLAYERS[..n] {
        s.confirmed(u, p, a);
    }
    s
}

pub(crate) fn pw(userid: &str) -> &'static str {
    PLAYERS.iter().find(|p| p.0 == userid).expect("a player").1
}

pub(crate) fn addr(userid: &str) -> &'static str {
    PLAYERS.iter().find(|p| p.0 == userid).expect("a player").2
}

/// `loser` resigns `board`.
pub(crate) fn resign(s: &mut TestServer, board: u32, loser: &str) -> Vec<Sent> {
    let r = s.send(
        addr(loser),
        &format!("yinsh resign {board} {loser} {}", pw(loser)),
        "",
    );
    assert!(
        r.iter().any(|m| m.subject.contains(&board.to_string())),
        "{r:?}"
    );
    r
}

/// `a` offers a draw on `board` and `b` accepts it.
pub(crate) fn draw(s: &mut TestServer, board: u32, a: &str, b: &str) -> Vec<Sent> {
    s.send(
        addr(a),
        &format!("yinsh move {board} {a} {} propose", pw(a)),
        "",
    );
    s.send(
        addr(b),
        &format!("yinsh move {board} {b} {} accept", pw(b)),
        "",
    )
}

/// The players of `board`, White first.
pub(crate) fn sides(s: &TestServer, board: u32) -> (String, String) {
    let f = s.game_file(board);
    (
        f["white"].as_str().expect("white").to_string(),
        f["black"].as_str().expect("black").to_string(),
    )
}

/// The lines of the table in a tournament mail, squeezed: "1 alice 3.5 10 3 1.5".
pub(crate) fn table_lines(m: &Sent) -> Vec<String> {
    m.body
        .lines()
        .skip_while(|l| !l.starts_with("Place"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn a_round_robin_of_four_is_played_to_its_end() {
    let mut s = players(4);
    let r = s.send(
        addr("alice"),
        "yinsh tournament create RR4 alice apw roundrobin",
        "",
    );
    assert_says(&one_to(&r, addr("alice")), "Tournament RR4 is created");
    for u in ["bob", "carol", "dave"] {
        let r = s.send(
            addr(u),
            &format!("yinsh tournament join rr4 {u} {}", pw(u)),
            "",
        );
        assert_says(&one_to(&r, addr(u)), &format!("{u} joined tournament RR4"));
    }
    // Only the creator starts it.
    let r = s.send(addr("bob"), "yinsh tournament start RR4 bob bpw", "");
    assert_says(
        &one_to(&r, addr("bob")),
        "Only alice, who created tournament RR4",
    );
    let r = s.send(addr("alice"), "yinsh tournament start RR4 alice apw", "");
    // Twelve games at once (every pair twice), each player told their six.
    for u in ["alice", "bob", "carol", "dave"] {
        let theirs = mails_to(&r, addr(u));
        let told = theirs
            .iter()
            .find(|m| m.subject == "Yinsh tournament RR4")
            .unwrap_or_else(|| panic!("{u}: {theirs:?}"));
        assert_says(told, "Tournament RR4 has started");
        assert_eq!(
            told.body.matches("round 1, board").count(),
            6,
            "{}",
            told.body
        );
    }
    // The schedule, pair by pair in the order they joined, the first with White first.
    let order = [
        ("alice", "bob"),
        ("bob", "alice"),
        ("alice", "carol"),
        ("carol", "alice"),
        ("alice", "dave"),
        ("dave", "alice"),
        ("bob", "carol"),
        ("carol", "bob"),
        ("bob", "dave"),
        ("dave", "bob"),
        ("carol", "dave"),
        ("dave", "carol"),
    ];
    for (k, (w, b)) in order.iter().enumerate() {
        let board = 101 + k as u32;
        assert_eq!(
            sides(&s, board),
            (w.to_string(), b.to_string()),
            "board {board}"
        );
        let f = s.game_file(board);
        assert_eq!(f["extra"]["tournament"]["name"], "RR4");
        assert_eq!(f["extra"]["tournament"]["round"], 1);
    }
    // The results (W: White won, B: Black won, D: a draw):
    //   101 alice-bob W, 102 bob-alice W, 103 alice-carol W, 104 carol-alice D,
    //   105 alice-dave B, 106 dave-alice B, 107 bob-carol W, 108 carol-bob W,
    //   109 bob-dave D, 110 dave-bob B, 111 carol-dave W, 112 dave-carol D.
    resign(&mut s, 101, "bob");
    resign(&mut s, 102, "alice");
    resign(&mut s, 103, "carol");
    draw(&mut s, 104, "carol", "alice");
    resign(&mut s, 105, "alice");
    resign(&mut s, 106, "dave");
    resign(&mut s, 107, "carol");
    resign(&mut s, 108, "bob");
    draw(&mut s, 109, "bob", "dave");
    resign(&mut s, 110, "dave");
    resign(&mut s, 111, "dave");
    // Before the last game ends: the table so far, and the game still going.
    let r = s.send("zoe@example.org", "yinsh tournament show RR4", "");
    let shown = one_to(&r, "zoe@example.org");
    assert_says(
        &shown,
        "round 1, board 112: dave (White) - carol (Black), going on",
    );
    let r = draw(&mut s, 112, "dave", "carol");
    // Worked by hand (a win 1, a draw 1/2):
    //   alice: 101 1 + 102 0 + 103 1 + 104 .5 + 105 0 + 106 1 = 3.5
    //   bob:   101 0 + 102 1 + 107 1 + 108 0 + 109 .5 + 110 1 = 3.5
    //   carol: 103 0 + 104 .5 + 107 0 + 108 1 + 111 1 + 112 .5 = 3
    //   dave:  105 1 + 106 0 + 109 .5 + 110 0 + 111 0 + 112 .5 = 2
    // Sonneborn-Berger (each opponent's points times the score against them):
    //   alice: bob 3.5*1 + carol 3*1.5 + dave 2*1 = 3.5 + 4.5 + 2 = 10
    //   bob:   alice 3.5*1 + carol 3*1 + dave 2*1.5 = 3.5 + 3 + 3 = 9.5
    //   carol: alice 3.5*.5 + bob 3.5*1 + dave 2*1.5 = 1.75 + 3.5 + 3 = 8.25
    //   dave:  alice 3.5*1 + bob 3.5*.5 + carol 3*.5 = 3.5 + 1.75 + 1.5 = 6.75
    // Games won: alice 3 (101, 103, 106), bob 3 (102, 107, 110), carol 2 (108, 111),
    //   dave 1 (105). alice and bob are level on points; SB puts alice first, so
    //   head-to-head is not needed (0 in the table: counted only among players
    //   level on everything before it).
    let want = [
        "1 alice 3.5 10 3 0",
        "2 bob 3.5 9.5 3 0",
        "3 carol 3 8.25 2 0",
        "4 dave 2 6.75 1 0",
    ];
    for u in ["alice", "bob", "carol", "dave"] {
        let theirs = mails_to(&r, addr(u));
        let last = theirs
            .iter()
            .find(|m| m.subject == "Yinsh tournament RR4")
            .unwrap_or_else(|| panic!("{u} got no final table: {theirs:?}"));
        assert_says(last, "Tournament RR4 is over. The winner: alice.");
        assert_eq!(table_lines(last), want, "{}", last.body);
    }
    let r = s.send("zoe@example.org", "yinsh tournament show RR4", "");
    let shown = one_to(&r, "zoe@example.org");
    assert_says(&shown, "Finished");
    assert_eq!(table_lines(&shown), want, "{}", shown.body);
    let r = s.send("zoe@example.org", "yinsh tournaments", "");
    assert_says(
        &one_to(&r, "zoe@example.org"),
        "RR4: round robin, normal games, 3 to 16 players, 4 players, finished",
    );
}

#[test]
fn only_confirmed_accounts_create_and_join_and_a_creator_runs_two_at_most() {
    let mut s = players(2);
    // An account whose address was never confirmed.
    s.send("mallory@example.org", "signup mallory mpw", "");
    let r = s.send(
        "mallory@example.org",
        "yinsh tournament create Evil mallory mpw",
        "",
    );
    let m = one_to(&r, "mallory@example.org");
    assert_says(
        &m,
        "Only accounts with a confirmed address may create or join tournaments",
    );
    s.send(addr("alice"), "yinsh tournament create One alice apw", "");
    let r = s.send(
        "mallory@example.org",
        "yinsh tournament join One mallory mpw",
        "",
    );
    assert_says(
        &one_to(&r, "mallory@example.org"),
        "Only accounts with a confirmed address",
    );
    s.send(
        addr("alice"),
        "yinsh tournament create Two alice apw swiss",
        "",
    );
    let r = s.send(addr("alice"), "yinsh tournament create Three alice apw", "");
    assert_says(
        &one_to(&r, addr("alice")),
        "You run 2 tournaments that have not finished",
    );
    let r = s.send(addr("bob"), "yinsh tournament create one bob bpw", "");
    assert_says(
        &one_to(&r, addr("bob")),
        "There is a tournament called one already",
    );
    // Too few to start: alice alone in One (the fewest is 3).
    let r = s.send(addr("alice"), "yinsh tournament start One alice apw", "");
    assert_says(
        &one_to(&r, addr("alice")),
        "Tournament One has 1 players and needs 3 to start",
    );
    let r = s.send("zoe@example.org", "yinsh tournaments", "");
    let list = one_to(&r, "zoe@example.org");
    assert_says(&list, "One: round robin");
    assert_says(&list, "Two: Swiss of 3 rounds");
    assert!(
        !list.body.contains("Evil") && !list.body.contains("Three"),
        "{}",
        list.body
    );
}

/// The site's tournament pages: the list, and a page with the crosstable (a table
/// with a caption and header cells with their scope) and a link to every game,
/// rewritten as the games end.
#[test]
fn the_site_lists_the_tournaments_and_shows_each_crosstable() {
    let mut s = players(3);
    let site = s.dir.path().join("site");
    std::fs::write(
        s.home().join("config.toml"),
        format!("[site]\nout = \"{}\"\n", site.display()),
    )
    .expect("config");
    s.send(
        addr("alice"),
        "yinsh tournament create Club-3 alice apw",
        "",
    );
    s.send(addr("bob"), "yinsh tournament join Club-3 bob bpw", "");
    s.send(addr("carol"), "yinsh tournament join Club-3 carol cpw", "");
    s.send(addr("alice"), "yinsh tournament start Club-3 alice apw", "");
    resign(&mut s, 101, "bob");
    let list = std::fs::read_to_string(site.join("tournaments.html")).expect("the list");
    assert!(
        list.contains("<a href=\"tournaments/club-3.html\">Club-3</a>"),
        "{list}"
    );
    let page = std::fs::read_to_string(site.join("tournaments/club-3.html")).expect("the page");
    assert!(page.contains("<caption>Places by points"), "{page}");
    assert!(page.contains("<th scope=\"row\">alice</th>"), "{page}");
    // Six games (three pairs, both colours), each linked.
    for b in 101..=106 {
        assert!(
            page.contains(&format!(
                "<a href=\"../games/{b}/index.html\">Board {b}</a>"
            )),
            "board {b}: {page}"
        );
    }
    // alice beat bob on 101 (the game against bob still going on 102): "1 *".
    assert!(page.contains("<td>1 *</td>"), "{page}");
    assert!(
        page.contains("Board 101</a>: alice (White) – bob (Black), 1-0"),
        "{page}"
    );
    // The game's records name the tournament and its round, and still replay.
    let sgf = std::fs::read_to_string(site.join("games/101/board-101.sgf")).expect("the SGF");
    assert!(sgf.contains("EV[Club-3]\nRO[1]\n"), "{sgf}");
    let txt = std::fs::read_to_string(site.join("games/101/board-101.txt")).expect("the record");
    assert!(txt.contains("\n# Tournament: Club-3, round 1\n"), "{txt}");
    let replayed = yinsh_pbem::notation::read_transcript(yinsh_pbem::rules::Variant::Normal, &txt);
    assert!(replayed.is_ok(), "{replayed:?}: {txt}");
}
