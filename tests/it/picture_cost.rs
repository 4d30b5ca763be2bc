//! Issue 29, "The picture": the PNG drawn at a fraction of its former cost looks the
//! same and is no larger. `tests/data/pictures/before-29/` holds positions as
//! transcripts (`NAME.txt`, the blitz variant when NAME starts with `blitz`) and their
//! pictures as the drawing made them before the change (`NAME.png`: commit 3026a28's
//! `yinsh-pbem render --png [--blitz] --out NAME.png NAME.txt`, the whole SVG parsed,
//! rasterised and encoded for every picture). Each position is drawn now and compared
//! with its reference pixel by pixel, and its bytes with the reference's.
//!
//! The positions: the empty board but one ring, rings being placed, the first moves,
//! the middle game, a row and a ring just removed and the turn after, a row waiting,
//! forced passes, a won game, a drawn one; blitz placing, middle and won.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use yinsh_pbem::notation::{FinalPass, play_transcript};
use yinsh_pbem::picture::{LastMove, Picture};
use yinsh_pbem::rules::Variant;

/// A PNG decoded to RGBA bytes, with its size.
fn decode(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let mut decoder = png::Decoder::new(Cursor::new(png));
    decoder.set_transformations(png::Transformations::ALPHA);
    let mut reader = decoder.read_info().expect("a PNG");
    let mut rgba = vec![0; reader.output_buffer_size().expect("a size")];
    let info = reader.next_frame(&mut rgba).expect("a frame");
    assert_eq!(info.color_type, png::ColorType::Rgba);
    (info.width, info.height, rgba)
}

fn references() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/pictures/before-29")
}

/// The final position of the transcript at `path`, its last turn marked.
fn transcript(path: &Path, variant: Variant) -> Picture {
    let text = std::fs::read_to_string(path).unwrap();
    let played = play_transcript(variant, &text, FinalPass::Play).unwrap();
    let (before, actions) = &played.last_turn;
    let last = LastMove::from_turn(before, actions).unwrap();
    Picture::new(&played.game).last_move(&last)
}

/// Each reference's name, its PNG drawn now and the reference's bytes.
fn drawn_and_references() -> Vec<(String, Vec<u8>, Vec<u8>)> {
    let mut names: Vec<String> = std::fs::read_dir(references())
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".txt").map(str::to_string)
        })
        .collect();
    names.sort();
    assert_eq!(names.len(), 13, "{names:?}");
    names
        .into_iter()
        .map(|name| {
            let variant = match name.starts_with("blitz") {
                true => Variant::Blitz,
                false => Variant::Normal,
            };
            let picture = transcript(&references().join(format!("{name}.txt")), variant);
            let png = picture.to_png().unwrap();
            let reference = std::fs::read(references().join(format!("{name}.png"))).unwrap();
            (name, png, reference)
        })
        .collect()
}

/// Issue 29 finding "the picture": drawn from a cached board, the picture is the old
/// one to the eye: no pixel's colour is off by more than a few steps of 255 in any
/// channel, and only anti-aliased edges differ at all.
#[test]
fn pictures_look_as_before_issue_29() {
    for (name, png, reference) in drawn_and_references() {
        let (w, h, now) = decode(&png);
        let (rw, rh, then) = decode(&reference);
        assert_eq!((w, h), (rw, rh), "{name}");
        let mut worst = 0u8;
        let mut differing = 0usize;
        for (a, b) in now.chunks(4).zip(then.chunks(4)) {
            let d = a
                .iter()
                .zip(b)
                .map(|(x, y)| x.abs_diff(*y))
                .max()
                .unwrap_or(0);
            worst = worst.max(d);
            differing += usize::from(d > 0);
        }
        let total = (w * h) as usize;
        eprintln!("{name}: {differing} of {total} pixels differ, by at most {worst}");
        assert!(
            worst <= 24,
            "{name}: a pixel is off by {worst} from tests/data/pictures/before-29"
        );
        assert!(
            differing * 50 <= total,
            "{name}: {differing} of {total} pixels differ from tests/data/pictures/before-29"
        );
    }
}

/// Issue 29 finding "the picture": the cheaper PNG is no larger in bytes than the old
/// one, position by position.
#[test]
fn pictures_are_no_larger_than_before_issue_29() {
    for (name, png, reference) in drawn_and_references() {
        eprintln!("{name}: {} bytes, {} before", png.len(), reference.len());
        assert!(
            png.len() <= reference.len(),
            "{name}: {} bytes, {} before",
            png.len(),
            reference.len()
        );
    }
}
