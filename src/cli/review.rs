//! `yinsh-pbem review`: read a transcript (as `replay` does, ended as its comments
//! say) and print the robot's review of the game (`ai::review`): every turn with
//! White's win chance before and after it, then each side's turning points with the
//! robot's preferred turn; or all of it as one JSON object.

use std::path::Path;
use std::process::ExitCode;

use serde_json::json;

use super::transcript::{read, variant};
use crate::ai::{Review, TurnReview, review};
use crate::notation::{FinalPass, play_transcript, split_turns, transcript_header, write_turn};
use crate::picture::Chart;
use crate::rules::{Color, Game};

/// What `review` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewFormat {
    /// A table of the turns and the turning points.
    Text,
    /// One JSON object.
    Json,
}

/// `yinsh-pbem review [--blitz] [--playouts N] [--json] [--chart OUT] [FILE]` (stdin
/// when `file` is `None`); `--chart` writes the chart too (PNG for `*.png`, else SVG).
///
/// Exit 0 with the review on stdout; exit 1 when the transcript cannot be read or
/// played, naming the turn on stderr.
pub fn review_game(
    blitz: bool,
    playouts: u64,
    format: ReviewFormat,
    chart: Option<&Path>,
    file: Option<&Path>,
) -> ExitCode {
    match run(blitz, playouts, file).and_then(|r| {
        chart.map_or(Ok(()), |path| write_chart(&r, path))?;
        Ok(r)
    }) {
        Ok(r) => {
            match format {
                ReviewFormat::Text => out!("{}", text(&r)),
                ReviewFormat::Json => outln!("{}", to_json(&r)),
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
    }
}

/// The review of the transcript in `file`, or the message for the user.
fn run(blitz: bool, playouts: u64, file: Option<&Path>) -> Result<Review, String> {
    let text = read(file)?;
    let played =
        play_transcript(variant(blitz), &text, FinalPass::Play).map_err(|e| e.to_string())?;
    let start = Game::new(variant(blitz));
    let turns = split_turns(&start, &played.actions).map_err(|e| e.to_string())?;
    let mut end = played.game;
    let ending = transcript_header(&text)
        .2
        .and_then(|e| e.apply(&mut end).ok())
        .and_then(|()| end.outcome());
    review(variant(blitz), &turns, ending, playouts.max(1)).map_err(|e| e.to_string())
}

/// The review's chart (`picture::Chart`, its turning points ringed) written to
/// `path`: a PNG when the name ends in `.png`, else SVG.
fn write_chart(r: &Review, path: &Path) -> Result<(), String> {
    let chart = chart_of(r);
    let bytes = if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("png"))
    {
        chart.to_png().map_err(|e| e.to_string())?
    } else {
        chart.to_svg().into_bytes()
    };
    std::fs::write(path, bytes)
        .map_err(|e| format!("cannot write the chart {}: {e}", path.display()))
}

/// The chart of a review: White's chance at each position, each side's turning points
/// ringed at the position after them.
pub(crate) fn chart_of(r: &Review) -> Chart {
    let mut chart = Chart::new(&r.chart());
    for side in Color::BOTH {
        for t in r.turning_points(side) {
            chart = chart.mark(t.number as usize, side);
        }
    }
    chart
}

/// A chance as a whole percentage.
fn pct(c: f32) -> String {
    format!("{:.0}%", c * 100.0)
}

/// The review as a table (White's chances), then the turning points.
fn text(r: &Review) -> String {
    let mut out = format!(
        "The robot's review: {} turns, {} playouts a position; White's win chance before and after each turn.\n",
        r.turns.len(),
        r.playouts
    );
    for t in &r.turns {
        out.push_str(&format!(
            "{:>4} {:<5} {:<24} {:>4} -> {:>4}\n",
            format!("#{}", t.number),
            t.side.name(),
            write_turn(&t.played),
            pct(t.chance_before),
            pct(t.chance_after)
        ));
    }
    if let Some(result) = r.result {
        out.push_str(&format!("The game ended off the board: {}\n", pct(result)));
    }
    for side in Color::BOTH {
        out.push_str(&format!("{}'s turning points:\n", side.name()));
        let points = r.turning_points(side);
        if points.is_empty() {
            out.push_str("  none\n");
        }
        for t in points {
            out.push_str(&format!("  {}\n", turning_point(t)));
        }
    }
    out
}

/// One turning point in a line: the turn, the player's chance before and after, the
/// robot's preferred turn and the player's chance after it.
fn turning_point(t: &TurnReview) -> String {
    let (before, after) = t.player_chances();
    format!(
        "#{} {}: {} -> {}; the robot preferred {} ({})",
        t.number,
        write_turn(&t.played),
        pct(before),
        pct(after),
        write_turn(&t.preferred),
        pct(crate::ai::for_side(t.preferred_after, t.side))
    )
}

/// The review as one JSON object.
fn to_json(r: &Review) -> serde_json::Value {
    let turns: Vec<serde_json::Value> = r
        .turns
        .iter()
        .map(|t| {
            json!({
                "number": t.number,
                "side": t.side.name(),
                "played": write_turn(&t.played),
                "preferred": write_turn(&t.preferred),
                "before": t.chance_before,
                "after": t.chance_after,
                "preferred_after": t.preferred_after,
                "value": t.value,
                "cost": t.cost,
                "confirmed": t.confirmed,
            })
        })
        .collect();
    let points = |side| -> Vec<u32> { r.turning_points(side).iter().map(|t| t.number).collect() };
    json!({
        "variant": if r.variant == crate::rules::Variant::Blitz { "blitz" } else { "normal" },
        "playouts": r.playouts,
        "spent": r.spent,
        "turns": turns,
        "result": r.result,
        "chart": r.chart(),
        "turning_points": { "white": points(Color::White), "black": points(Color::Black) },
    })
}
