//! Where things go in the picture: the pixel position of each grid position (points,
//! and the labels one step outside the board), the canvas size and the side panel.
//!
//! The layout is the ASCII board's (`notation::render`), drawn with equal sides: the
//! columns (`a`..`k`) are vertical, numbers rise upwards, and one step along a number
//! (`e5` -> `f5`) goes right and down by half a step, so the three line directions
//! (0,1), (1,0) and (1,1) meet at 60 degrees.

use crate::rules::Point;

/// Distance between neighbouring points, in pixels.
pub(crate) const STEP: f64 = 40.0;
/// Empty margin around the drawing, in pixels.
const PAD: f64 = 14.0;
/// sqrt(3) / 2: the horizontal part of a step between columns.
const COS30: f64 = 0.866_025_403_784_438_6;
/// Width of the board with its labels: from the number labels left of column `a`
/// (grid column -1) to those right of column `k` (grid column 11).
const BOARD_WIDTH: f64 = 12.0 * COS30 * STEP + 2.0 * PAD;
/// Width of the side panel right of the board.
pub(crate) const PANEL_WIDTH: f64 = 104.0;
/// Left edge of the side panel.
pub(crate) const PANEL_LEFT: f64 = BOARD_WIDTH;
/// Canvas width, in pixels.
pub(crate) const WIDTH: f64 = BOARD_WIDTH + PANEL_WIDTH;
/// Canvas height, in pixels: the labels below `f1` (height -2.5 steps) to those above
/// `f11` (9.5 steps).
pub(crate) const HEIGHT: f64 = 12.0 * STEP + 2.0 * PAD;

/// Pixel position of grid position (column index `i`, number `n`); they need not be
/// a point (labels sit just outside the board).
pub(crate) fn at(i: f64, n: f64) -> (f64, f64) {
    let x = PAD + (i + 1.0) * COS30 * STEP;
    let y = PAD + (9.5 - (n - i / 2.0)) * STEP;
    (x, y)
}

/// Pixel position of a point.
pub(crate) fn point(p: Point) -> (f64, f64) {
    at(f64::from(p.column()), f64::from(p.number()))
}

/// Is grid position (`i`, `n`) inside the full hexagon, its six missing corners
/// (a1, a6, f1, f11, k6, k11) included? (yinsh-rules.md §1)
fn in_hexagon(i: i32, n: i32) -> bool {
    let (dx, dy) = (i - 5, n - 6);
    dx.abs().max(dy.abs()).max((dx - dy).abs()) <= 5
}

/// The lowest and highest number of column `i` in the full hexagon.
fn column_span(i: i32) -> (i32, i32) {
    let ns: Vec<i32> = (0..=12).filter(|&n| in_hexagon(i, n)).collect();
    (ns[0], ns[ns.len() - 1])
}

/// The first and last column index of number `n` in the full hexagon.
fn number_span(n: i32) -> (i32, i32) {
    let is: Vec<i32> = (-1..=11).filter(|&i| in_hexagon(i, n)).collect();
    (is[0], is[is.len() - 1])
}

/// One coordinate label: its text and its pixel position.
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct Label {
    /// `A`..`K` or `1`..`11`.
    pub(crate) text: String,
    /// Pixel position of its centre.
    pub(crate) x: f64,
    /// Pixel position of its centre.
    pub(crate) y: f64,
}

/// The coordinate labels, one step outside the hexagon (corners counted, so each
/// edge's labels stand in a straight line), at least one on each of its six edges:
/// every letter below its column and `F`..`K` above theirs too; every number at the
/// start (left) of its line and `6`..`11` at its end (right) too. The bottom-right
/// and top-left edges, where a column's end and a line's end share one spot, carry
/// the letters and the numbers respectively.
pub(crate) fn labels() -> Vec<Label> {
    let mut out = Vec::new();
    let mut push = |text: String, i: i32, n: i32| {
        let (x, y) = at(f64::from(i), f64::from(n));
        out.push(Label { text, x, y });
    };
    for i in 0..11 {
        let letter = char::from(b'A' + i as u8).to_string();
        let (low, high) = column_span(i);
        push(letter.clone(), i, low - 1);
        if i >= 5 {
            push(letter, i, high + 1);
        }
    }
    for n in 1..=11 {
        let (first, last) = number_span(n);
        push(n.to_string(), first - 1, n);
        if n >= 6 {
            push(n.to_string(), last + 1, n);
        }
    }
    out
}

/// The corners of the board's hexagon outline, `margin` steps outside the corner
/// points a1, f1, k6, k11, f11, a6.
pub(crate) fn hexagon(margin: f64) -> [(f64, f64); 6] {
    let centre = at(5.0, 6.0);
    [(0, 1), (5, 1), (10, 6), (10, 11), (5, 11), (0, 6)].map(|(i, n)| {
        let (x, y) = at(f64::from(i), f64::from(n));
        let k = 1.0 + margin / 5.0;
        (centre.0 + (x - centre.0) * k, centre.1 + (y - centre.1) * k)
    })
}

/// The 33 straight lines of the grid (11 per axis), each from its first point to its
/// last.
pub(crate) fn lines() -> Vec<(Point, Point)> {
    let mut out = Vec::new();
    for (dl, dn) in [(0, 1), (1, 0), (1, 1)] {
        for p in Point::ALL {
            let (i, n) = (i32::from(p.column()), i32::from(p.number()));
            if Point::from_coords(i - dl, n - dn).is_some() {
                continue;
            }
            let mut end = p;
            while let Some(q) =
                Point::from_coords(i32::from(end.column()) + dl, i32::from(end.number()) + dn)
            {
                end = q;
            }
            if end != p {
                out.push((p, end));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
        ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
    }

    #[test]
    fn the_three_directions_are_one_step_long_and_meet_at_60_degrees() {
        let e5 = point("e5".parse().unwrap());
        for q in ["e6", "f5", "f6", "e4", "d5", "d4"] {
            let d = dist(e5, point(q.parse().unwrap()));
            assert!((d - STEP).abs() < 1e-9, "{q}: {d}");
        }
        // e6 straight above e5; f5 right and below; f6 right and above.
        assert!(point("e6".parse().unwrap()).1 < e5.1);
        assert!(point("f5".parse().unwrap()).1 > e5.1);
        assert!(point("f6".parse().unwrap()).1 < e5.1);
        // d6 is not a neighbour: (1,-1) is not a line.
        assert!(dist(e5, point("d6".parse().unwrap())) > 1.5 * STEP);
    }

    #[test]
    fn lines_and_labels_fit_the_board() {
        let lines = lines();
        assert_eq!(lines.len(), 33);
        let lengths: usize = lines
            .iter()
            .map(|&(a, b)| (dist(point(a), point(b)) / STEP).round() as usize + 1)
            .sum();
        // Each of the 85 points lies on three lines.
        assert_eq!(lengths, 3 * 85);
        let labels = labels();
        assert_eq!(labels.len(), 11 + 6 + 11 + 6);
        for (k, a) in labels.iter().enumerate() {
            assert!(
                a.x > 0.0 && a.x < PANEL_LEFT && a.y > 0.0 && a.y < HEIGHT,
                "{a:?}"
            );
            for p in Point::ALL {
                assert!(dist((a.x, a.y), point(p)) > 0.9 * STEP, "{a:?} near {p}");
            }
            for b in &labels[k + 1..] {
                assert!(
                    dist((a.x, a.y), (b.x, b.y)) > 0.9 * STEP,
                    "{a:?} near {b:?}"
                );
            }
        }
        // The letters sit below (and above) their columns, the numbers at the ends of theirs.
        let a = labels.iter().find(|l| l.text == "A").unwrap();
        assert_eq!((a.x, a.y), at(0.0, 0.0));
        let one = labels.iter().find(|l| l.text == "1").unwrap();
        assert_eq!((one.x, one.y), at(-1.0, 1.0));
    }
}
