//! Our deflate (`deflate.rs`) against the crates' on the pictures the mails carry:
//! bytes and time per picture, printed as a table (`docs/performance.md`, "The
//! deflate encoder"). Run with
//! `cargo test --lib picture::deflate_measure -- --ignored --nocapture`.

use std::time::Instant;

use super::geometry::STEP;
use super::{Picture, compose, deflate, png};
use crate::rules::{Game, Variant};

/// Times each encoder is run on each picture; the table shows the mean.
const ROUNDS: u32 = 20;

/// Positions of a game played by a fixed choice of actions (no randomness): its
/// opening, its crowded middle and its end, as `to_png` paints them.
fn positions() -> Vec<Game> {
    let mut game = Game::new(Variant::Normal);
    let mut out = Vec::new();
    let mut step = 0usize;
    while game.to_act().is_some() {
        let legal = game.legal_actions();
        let action = legal.as_slice()[(step * 7 + step / 3) % legal.len()];
        game.play(action).expect("a legal action plays");
        step += 1;
        if [10, 40, 60, 80].contains(&step) {
            out.push(game);
        }
    }
    out.push(game);
    out
}

/// A picture's rows of palette indices (each with its filter byte 0) and its palette.
fn rows(game: &Game) -> (Vec<u8>, Vec<[u8; 3]>) {
    let picture = Picture::new(game);
    let (width, _) = Picture::size();
    let (runs, mut spent) = compose::compose(&picture.game, &picture.last).expect("composed");
    let rows = spent.rows().to_vec();
    let mut rows = rows;
    let palette = png::quantise(runs, width as usize, &mut rows);
    (rows, palette)
}

/// The PNG the png crate makes of `rows` at `level`, with its own filter choice or
/// none (`unfiltered`, as ours).
fn png_crate(
    rows: &[u8],
    palette: &[[u8; 3]],
    level: ::png::DeflateCompression,
    unfiltered: bool,
) -> Vec<u8> {
    let (width, height) = Picture::size();
    let stride = width as usize + 1;
    let pixels: Vec<u8> = rows.chunks(stride).flat_map(|r| &r[1..]).copied().collect();
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, width, height);
    encoder.set_color(::png::ColorType::Indexed);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_palette(palette.concat());
    encoder.set_deflate_compression(level);
    if unfiltered {
        encoder.set_filter(::png::Filter::NoFilter);
    }
    let mut writer = encoder.write_header().expect("header");
    writer.write_image_data(&pixels).expect("data");
    writer.finish().expect("finished");
    out
}

/// The bytes around a PNG's IDAT chunk (the same for every encoder here).
fn overhead(z: &[u8], palette: &[[u8; 3]]) -> usize {
    let (width, height) = Picture::size();
    let mut out = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut out, width, height);
    encoder.set_color(::png::ColorType::Indexed);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_palette(palette.concat());
    let mut writer = encoder.write_header().expect("header");
    writer.write_chunk(::png::chunk::IDAT, z).expect("chunk");
    writer.finish().expect("finished");
    out.len() - z.len()
}

/// One encoder: the PNG file's bytes or the zlib stream of a picture's rows.
type Encode = Box<dyn Fn(&[u8], &[[u8; 3]]) -> Vec<u8>>;

/// Prints the zlib bytes and milliseconds per picture of each encoder (the png
/// crate's file less the bytes around its IDAT); checks that each zlib stream
/// inflates to the rows.
#[test]
#[ignore = "a measurement: prints a table"]
fn deflate_table() {
    let (width, _) = Picture::size();
    let stride = width as usize + 1;
    let periods = [1, stride, STEP as usize * stride];
    let pictures: Vec<_> = positions().iter().map(rows).collect();
    let mut cases: Vec<(String, bool, Encode)> = vec![(
        "ours (deflate.rs)".into(),
        false,
        Box::new(move |rows, _| deflate::zlib(rows, &periods)),
    )];
    for level in [1u8, 2, 3, 6, 9, 10] {
        cases.push((
            format!("miniz_oxide level {level}"),
            false,
            Box::new(move |rows, _| miniz_oxide::deflate::compress_to_vec_zlib(rows, level)),
        ));
    }
    for (name, level) in [
        (
            "png Compression::Fast (fdeflate)",
            ::png::DeflateCompression::FdeflateUltraFast,
        ),
        ("png level 1", ::png::DeflateCompression::Level(1)),
        ("png level 2", ::png::DeflateCompression::Level(2)),
        ("png level 3", ::png::DeflateCompression::Level(3)),
        (
            "png level 6 (Balanced)",
            ::png::DeflateCompression::Level(6),
        ),
        ("png level 9 (High)", ::png::DeflateCompression::Level(9)),
    ] {
        for unfiltered in [false, true] {
            let filter = if unfiltered { ", unfiltered" } else { "" };
            cases.push((
                format!("{name}{filter}"),
                true,
                Box::new(move |rows, palette| png_crate(rows, palette, level, unfiltered)),
            ));
        }
    }
    let overheads: Vec<usize> = pictures
        .iter()
        .map(|(r, p)| overhead(&deflate::zlib(r, &periods), p))
        .collect();
    println!("| encoder | zlib bytes per picture | ms per picture |");
    println!("| --- | --- | --- |");
    for (name, whole_file, encode) in &cases {
        let mut bytes = 0;
        for ((r, p), overhead) in pictures.iter().zip(&overheads) {
            let out = encode(r, p);
            if *whole_file {
                let decoded = ::png::Decoder::new(std::io::Cursor::new(&out[..]));
                let mut reader = decoded.read_info().expect("a PNG");
                let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
                reader.next_frame(&mut buf).expect("decodes");
                let pixels: Vec<u8> = r.chunks(stride).flat_map(|r| &r[1..]).copied().collect();
                assert_eq!(buf, pixels, "{name}");
                bytes += out.len() - overhead;
            } else {
                let back = miniz_oxide::inflate::decompress_to_vec_zlib(&out).expect("inflates");
                assert_eq!(&back, r, "{name}");
                bytes += out.len();
            }
        }
        let start = Instant::now();
        for _ in 0..ROUNDS {
            for (r, p) in &pictures {
                std::hint::black_box(encode(std::hint::black_box(r), p));
            }
        }
        let ms = start.elapsed().as_secs_f64() * 1000.0 / f64::from(ROUNDS) / pictures.len() as f64;
        println!("| {name} | {} | {ms:.2} |", bytes / pictures.len());
    }
    println!("({} positions, {ROUNDS} rounds)", pictures.len());
}
