//! Picture benchmarks (divan; figures in docs/performance.md): the SVG and the PNG of
//! a crowded mid-game position (tests/data/transcripts/in-progress.txt, its last turn
//! marked). Each asserts its result: the SVG's glyphs, the PNG's signature and size.
//!
//! Run with `cargo bench --bench picture`; `cargo test --benches` runs each once.

use divan::black_box;
use yinsh_pbem::notation::{FinalPass, play_transcript};
use yinsh_pbem::picture::{LastMove, Picture};
use yinsh_pbem::rules::Variant;

fn main() {
    divan::main();
}

/// The crowded mid-game position with its last turn marked.
fn picture() -> Picture {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/transcripts/in-progress.txt"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let played =
        play_transcript(Variant::Normal, &text, FinalPass::Play).unwrap_or_else(|e| panic!("{e}"));
    assert!(played.game.markers_on_board() >= 30);
    let (before, actions) = &played.last_turn;
    let last = LastMove::from_turn(before, actions).unwrap_or_else(|e| panic!("{e}"));
    Picture::new(&played.game).last_move(&last)
}

#[divan::bench]
fn svg_crowded_board(bencher: divan::Bencher) {
    let picture = picture();
    bencher.bench_local(|| {
        let svg = black_box(&picture).to_svg();
        assert!(svg.contains("<use") && svg.ends_with("</svg>\n"));
        svg
    });
}

#[divan::bench]
fn png_crowded_board(bencher: divan::Bencher) {
    let picture = picture();
    bencher.bench_local(|| {
        let png = black_box(&picture)
            .to_png()
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            png.starts_with(b"\x89PNG") && png.len() < 40_000,
            "{}",
            png.len()
        );
        png
    });
}
