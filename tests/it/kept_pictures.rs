//! Issue 29: a board picture drawn for a mail is kept (`<home>/pictures/<slot>.png`),
//! and a later mail showing the same position reads it instead of drawing it; a
//! broken kept file is logged and the picture drawn again; through the real binary.

use std::path::PathBuf;

use crate::support::server::{Sent, TestServer};

/// A server (the real binary) with alice and bob signed up, board 101 started and
/// alice's first ring placed: the mails of that placement.
fn placed() -> (TestServer, Vec<Sent>) {
    let mut s = TestServer::with_binary();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let r = s.send("alice@example.org", "yinsh move 101 alice apw e5", "");
    assert_eq!(r.len(), 2, "{r:?}");
    (s, r)
}

/// The file board 101's picture is kept in.
fn kept_file(s: &TestServer) -> PathBuf {
    s.home().join("pictures").join("101.png")
}

/// The kept file `kept`, whose PNG is `old`, holding `png` instead under the same
/// name (the PNG's length and checksum written for it: the file's layout is
/// `store/kept_pictures.rs`'s).
fn with_png(kept: &[u8], old: &[u8], png: &[u8]) -> Vec<u8> {
    assert!(
        kept.ends_with(old),
        "a kept file written afresh ends with its PNG"
    );
    let head = &kept[..kept.len() - old.len() - 8];
    let len = u32::try_from(png.len()).expect("a PNG's length");
    [
        head,
        &len.to_le_bytes(),
        &simd_adler32::adler32(&png).to_le_bytes(),
        png,
    ]
    .concat()
}

/// Whether the kept file holds `png` (written over the file in place, it may be
/// followed by the end of a longer picture kept before it).
fn holds(s: &TestServer, png: &[u8]) -> bool {
    let kept = std::fs::read(kept_file(s)).expect("kept");
    let Some(at) = kept.windows(png.len()).position(|w| w == png) else {
        return false;
    };
    let len = u32::try_from(png.len())
        .expect("a PNG's length")
        .to_le_bytes();
    at >= 8 && kept[at - 8..at - 4] == len
}

/// The PNG of a mail's one picture.
fn picture(m: &Sent) -> Vec<u8> {
    assert_eq!(m.images.len(), 1, "{:?}", m.subject);
    m.images[0].1.clone()
}

#[test]
fn a_position_shown_again_is_the_picture_its_move_kept() {
    let (mut s, moved) = placed();
    let drawn = picture(&moved[0]);
    assert_eq!(picture(&moved[1]), drawn, "one picture for both players");
    let kept = std::fs::read(kept_file(&s)).expect("the move's picture is kept");
    assert!(
        kept.ends_with(&drawn),
        "the kept file ends with the PNG sent"
    );

    // Proof that a show reads it: the kept PNG changed under its name (to the empty
    // board's picture, from a new game) is what the show of 101 carries.
    let other = s.send("bob@example.org", "yinsh challenge bob alice", "");
    let empty_board = picture(&other[0]);
    assert_ne!(empty_board, drawn);
    std::fs::write(kept_file(&s), with_png(&kept, &drawn, &empty_board)).expect("write");
    let shown = s.send("eve@example.org", "yinsh show 101", "");
    assert_eq!(picture(&shown[0]), empty_board, "the kept picture was read");

    // Without the file, the position is drawn again, the same, and kept again.
    std::fs::remove_file(kept_file(&s)).expect("remove");
    let shown = s.send("eve@example.org", "yinsh show 101", "");
    assert_eq!(picture(&shown[0]), drawn);
    assert!(holds(&s, &drawn));

    // Another position of the game (before the placement) is not the kept one: it
    // is drawn, and then kept in its place.
    let earlier = s.send("eve@example.org", "yinsh show 101#0", "");
    assert_ne!(picture(&earlier[0]), drawn);
    assert!(holds(&s, &picture(&earlier[0])));
    assert!(!holds(&s, &drawn));
    let shown = s.send("eve@example.org", "yinsh show 101", "");
    assert_eq!(picture(&shown[0]), drawn);
}

#[test]
fn a_broken_kept_picture_is_logged_and_drawn_again() {
    let (mut s, moved) = placed();
    let drawn = picture(&moved[0]);
    let kept = std::fs::read(kept_file(&s)).expect("kept");
    let mut torn = kept.clone();
    let middle = kept.len() - drawn.len() / 2;
    torn[middle] ^= 1;
    for broken in [
        kept[..kept.len() - drawn.len() + 3].to_vec(),
        torn,
        b"not a picture".to_vec(),
        Vec::new(),
    ] {
        std::fs::write(kept_file(&s), &broken).expect("write");
        let shown = s.send("eve@example.org", "yinsh show 101", "");
        assert_eq!(picture(&shown[0]), drawn, "drawn again");
        assert!(
            s.log().contains("101.png is broken") && s.log().contains("drawn again"),
            "{}",
            s.log()
        );
        assert_eq!(
            std::fs::read(kept_file(&s)).expect("kept"),
            kept,
            "kept anew"
        );
    }
}

#[test]
fn a_picture_that_cannot_be_kept_is_still_sent() {
    let mut s = TestServer::with_binary();
    s.send("alice@example.org", "signup alice apw", "");
    s.send("bob@example.org", "signup bob bpw", "");
    // A file where the folder should be: nothing can be kept.
    std::fs::write(s.home().join("pictures"), b"in the way").expect("write");
    s.send("alice@example.org", "yinsh challenge alice bob", "");
    let r = s.send("alice@example.org", "yinsh move 101 alice apw e5", "");
    assert_eq!(r.len(), 2, "{r:?}");
    assert!(picture(&r[0]).starts_with(b"\x89PNG"));
    assert!(s.log().contains("cannot keep the picture"), "{}", s.log());
}

/// The `.png` files of a site's page of board 101, with their bytes.
fn site_pictures(site: &std::path::Path) -> Vec<Vec<u8>> {
    let dir = site.join("games").join("101");
    let mut pngs: Vec<Vec<u8>> = std::fs::read_dir(&dir)
        .expect("the game's folder")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .map(|p| std::fs::read(p).expect("read"))
        .collect();
    pngs.sort();
    pngs
}

#[test]
fn the_site_takes_the_picture_the_mails_kept() {
    let (mut s, moved) = placed();
    let drawn = picture(&moved[0]);
    let other = s.send("bob@example.org", "yinsh challenge bob alice", "");
    let empty_board = picture(&other[0]);
    let kept = std::fs::read(kept_file(&s)).expect("kept");
    std::fs::write(kept_file(&s), with_png(&kept, &drawn, &empty_board)).expect("write");
    // The whole site written from the store: the page of 101 shows the kept picture.
    let site = s.home().with_file_name("site");
    let run = |site: &std::path::Path| {
        let done = crate::support::bin::command()
            .arg("site")
            .arg("--home")
            .arg(s.home())
            .arg("--out")
            .arg(site)
            .output()
            .expect("run site");
        assert_eq!(done.status.code(), Some(0), "{done:?}");
    };
    run(&site);
    assert_eq!(site_pictures(&site), vec![empty_board], "read, not drawn");
    // A broken kept file: the site draws the picture itself.
    std::fs::write(kept_file(&s), b"broken").expect("write");
    let other_site = s.home().with_file_name("site-2");
    run(&other_site);
    assert_eq!(site_pictures(&other_site), vec![drawn]);
}
