//! The picture (`yinsh_pbem::picture`), looked at as a person would: fixed positions
//! (a crowded mid-game, a row waiting to be removed, a won blitz game, a finished
//! game, all from the transcripts of tests/data/transcripts) are drawn and compared
//! pixel by pixel with the reference PNGs in tests/data/pictures/; every point of the
//! picture shows the piece the ASCII board (`notation::render`) shows on it; the PNG
//! stays small, also for every third turn of two seeded random games, whose moved
//! ring stands where its mark is. After a deliberate change of the drawing, look at the new pictures
//! and write them as the references with
//! `UPDATE_PICTURES=1 cargo test --test it picture::`.

use std::io::Cursor;
use std::path::PathBuf;

use yinsh_pbem::notation::render::render_board;
use yinsh_pbem::notation::{FinalPass, play_transcript};
use yinsh_pbem::picture::{LastMove, Picture};
use yinsh_pbem::rules::{Game, Point, Variant};

use crate::support::bin;

/// A PNG decoded to RGBA rows.
struct Image {
    width: u32,
    height: u32,
    rgba: Vec<u8>,
}

impl Image {
    fn decode(png: &[u8]) -> Image {
        let mut decoder = png::Decoder::new(Cursor::new(png));
        decoder.set_transformations(png::Transformations::ALPHA);
        let mut reader = decoder.read_info().expect("a PNG");
        let mut rgba = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut rgba).expect("a frame");
        assert_eq!(info.color_type, png::ColorType::Rgba);
        Image {
            width: info.width,
            height: info.height,
            rgba,
        }
    }

    /// The colour at pixel (x, y), rounded to the nearest pixel.
    fn at(&self, x: f64, y: f64) -> [u8; 3] {
        let (x, y) = (x.round() as usize, y.round() as usize);
        let k = (y * self.width as usize + x) * 4;
        [self.rgba[k], self.rgba[k + 1], self.rgba[k + 2]]
    }
}

/// Lightness of a colour, 0..255.
fn light(c: [u8; 3]) -> u32 {
    (u32::from(c[0]) + u32::from(c[1]) + u32::from(c[2])) / 3
}

fn pictures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pictures")
}

/// The final position of a transcript (without its last `drop` turns) and the
/// marks of its last turn.
fn position(file: &str, variant: Variant, drop: usize) -> (Game, LastMove) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/transcripts")
        .join(file);
    let text = std::fs::read_to_string(path).unwrap();
    let tokens: Vec<&str> = text
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect();
    let kept = tokens[..tokens.len() - drop].join(" ");
    let played = play_transcript(variant, &kept, FinalPass::Play).unwrap();
    let (before, actions) = &played.last_turn;
    (played.game, LastMove::from_turn(before, actions).unwrap())
}

/// The four positions of the reference pictures.
fn cases() -> Vec<(&'static str, Game, LastMove)> {
    let case = |name, file, variant, drop| {
        let (game, last) = position(file, variant, drop);
        (name, game, last)
    };
    vec![
        case("mid-game", "in-progress.txt", Variant::Normal, 0),
        // The turn before the winner's removals: Black's row waits on the board.
        case("pending-row", "start-of-turn-win.txt", Variant::Normal, 1),
        case("blitz", "blitz-win.txt", Variant::Blitz, 0),
        case("finished", "rings-win.txt", Variant::Normal, 0),
    ]
}

#[test]
fn pictures_match_their_references() {
    let update = std::env::var_os("UPDATE_PICTURES").is_some();
    for (name, game, last) in cases() {
        let png = Picture::new(&game).last_move(&last).to_png().unwrap();
        let path = pictures_dir().join(format!("{name}.png"));
        if update {
            std::fs::create_dir_all(pictures_dir()).unwrap();
            std::fs::write(&path, &png).unwrap();
            continue;
        }
        let reference = std::fs::read(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; write it with UPDATE_PICTURES=1 after looking at it",
                path.display()
            )
        });
        let (now, then) = (Image::decode(&png), Image::decode(&reference));
        assert_eq!((now.width, now.height), (then.width, then.height), "{name}");
        // Rasterisers may differ in the last bits of anti-aliasing; nothing more.
        let differing = now
            .rgba
            .chunks(4)
            .zip(then.rgba.chunks(4))
            .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 40))
            .count();
        let total = (now.width * now.height) as usize;
        assert!(
            differing * 1000 <= total,
            "{name}: {differing} of {total} pixels differ from {}; if the change is meant, \
             look at the new picture and run UPDATE_PICTURES=1 cargo test --test it picture::",
            path.display()
        );
    }
}

/// The piece the ASCII board shows on `p`: `.`, `o`, `x`, `(o)` or `(x)`.
fn ascii_piece(board: &str, p: Point) -> String {
    // render.rs: point (i, n) is on text line 18 + i - 2n, centred on column 4 + 3i.
    let (i, n) = (i32::from(p.column()), i32::from(p.number()));
    let line: Vec<char> = board
        .lines()
        .nth((18 + i - 2 * n) as usize)
        .unwrap()
        .chars()
        .collect();
    let col = (4 + 3 * i) as usize;
    let c = line[col];
    if col > 0 && line[col - 1] == '(' {
        format!("({c})")
    } else {
        c.to_string()
    }
}

#[test]
fn every_point_shows_what_the_ascii_board_shows() {
    let mut seen = std::collections::BTreeSet::new();
    for (name, game, last) in cases() {
        let image = Image::decode(&Picture::new(&game).last_move(&last).to_png().unwrap());
        let board = render_board(&game);
        for p in Point::ALL {
            let (x, y) = Picture::pixel(p);
            let piece = ascii_piece(&board, p);
            // A marker fills its centre; a ring's band is 12 px right of its centre.
            let centre = light(image.at(x, y));
            let band = light(image.at(x + 12.0, y));
            let ok = match piece.as_str() {
                "o" => centre > 240,
                "x" => centre < 50,
                "(o)" => band > 240 && centre > 60,
                "(x)" => band < 50 && centre > 60,
                "." => (60..=235).contains(&centre),
                other => panic!("{name}: {p} shows {other:?}"),
            };
            assert!(
                ok,
                "{name}: {p} is {piece} but the picture has {centre} / {band}"
            );
            seen.insert(piece);
        }
    }
    assert_eq!(seen.len(), 5, "{seen:?}");
}

#[test]
fn the_png_is_small_and_the_svg_self_contained() {
    for (name, game, last) in cases() {
        let picture = Picture::new(&game).last_move(&last);
        let png = picture.to_png().unwrap();
        assert!(png.len() < 40_000, "{name}: {} bytes", png.len());
        let image = Image::decode(&png);
        assert_eq!((image.width, image.height), Picture::size());
        assert!((480..=560).contains(&image.width), "{}", image.width);
        let svg = picture.to_svg();
        assert!(!svg.contains("<text") && !svg.contains("<image"), "{name}");
        assert_eq!(svg.matches("http").count(), 2, "only the two namespaces");
    }
}

#[test]
fn render_writes_svg_and_png_of_a_transcript() {
    let file =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/transcripts/in-progress.txt");
    let out = bin::assert_command()
        .arg("render")
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let svg = String::from_utf8(out.stdout).unwrap();
    let (game, last) = position("in-progress.txt", Variant::Normal, 0);
    assert_eq!(svg, Picture::new(&game).last_move(&last).to_svg());
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("board.png");
    let out = bin::assert_command()
        .args(["render", "--png", "--out"])
        .arg(&png)
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(Image::decode(&bytes).width, Picture::size().0);
    let out = bin::assert_command()
        .args(["render", "--png"])
        .write_stdin("e5 e5")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "turn 2 `e5` (line 1): e5 is not empty: place your ring on an empty point, like f6\n"
    );
}

/// Every turn of seeded random games (normal and blitz) is drawn: the PNG stays small,
/// and the moved ring stands, in its colour, where the picture marks its end.
#[test]
fn every_turn_of_random_games_draws_with_its_ring_where_marked() {
    use crate::support::turns::{group_turns, random_playout};
    use yinsh_pbem::ai::Rng;
    use yinsh_pbem::rules::{Color, Piece};
    let mut drawn = 0;
    for (seed, variant) in [(7, Variant::Normal), (8, Variant::Blitz)] {
        let mut rng = Rng::new(seed);
        let actions = random_playout(variant, 400, |n| rng.below(n));
        let start = Game::new(variant);
        for (k, (before, turn)) in group_turns(start, &actions).iter().enumerate() {
            let last = LastMove::from_turn(before, turn).unwrap();
            let mut game = *before;
            for &a in turn {
                game.play(a).unwrap();
            }
            // Every third turn, and the last, to keep the test quick.
            if k % 3 != 0 && !game.is_over() {
                continue;
            }
            let png = Picture::new(&game).last_move(&last).to_png().unwrap();
            assert!(
                png.len() < 40_000,
                "seed {seed} turn {k}: {} bytes",
                png.len()
            );
            drawn += 1;
            let Some((_, to)) = last.moved else { continue };
            let Some(Piece::Ring(c)) = game.piece_at(to) else {
                continue; // the ring moved, then was removed
            };
            let image = Image::decode(&png);
            let (x, y) = Picture::pixel(to);
            let band = light(image.at(x + 12.0, y));
            match c {
                Color::White => assert!(band > 240, "seed {seed} turn {k}: {to} {band}"),
                Color::Black => assert!(band < 50, "seed {seed} turn {k}: {to} {band}"),
            }
        }
    }
    assert!(drawn > 30, "{drawn}");
}
