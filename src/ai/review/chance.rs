//! The review's win chance of a position from its search's value: the search sees the
//! side to act's chance too high (the move is worth much in YINSH, and the value of
//! the most visited turn is an optimistic estimate), so its value `v` for the side to
//! act becomes a chance through a logistic curve fitted on positions whose outcome is
//! known (Boardspace games): `sigmoid(slope * logit(v) + intercept + white)`, `white`
//! added when White acts (Black won 57% of those games), one curve while the rings
//! are placed and one after. `scripts/measure-review` makes the fit
//! (cross-validated over whole games) and prints these coefficients; docs/strength.md,
//! "The robot's review", gives the method and the figures.
//!
//! ```
//! use yinsh_pbem::ai::chance_to_act;
//! use yinsh_pbem::rules::{Game, Variant};
//! let placed = yinsh_pbem::notation::play_transcript(
//!     Variant::Normal, "e5 f6 e4 f5 e3 f4 e2 f3 e6 f7", yinsh_pbem::notation::FinalPass::Leave,
//! ).unwrap().game;
//! let c = chance_to_act(&placed, 0.6);
//! assert!(c > 0.0 && c < 0.6, "the side to act's value is taken down");
//! assert!(chance_to_act(&placed, 0.9) > c, "the curve rises with the search's value");
//! assert!(chance_to_act(&Game::new(Variant::Normal), 0.6) < 0.6);
//! ```

use crate::rules::{ActionKind, Game};

/// (slope, intercept, white) while the rings are placed: fitted by
/// `scripts/measure-review` on 138 of the 408 Boardspace games at 600 playouts a
/// position. The search's value says little then, and the wrong way (the slope is
/// negative: the search's favourite placements are not the ones that win).
const PLACING: (f32, f32, f32) = (-1.201, 0.324, -0.368);

/// (slope, intercept, white) once the rings move, fitted as [`PLACING`].
const MOVING: (f32, f32, f32) = (1.097, -0.099, -0.521);

/// The side to act's win chance in `game` from its search's value `value` for that
/// side (clamped to 1%-99% before the curve, so a proven result stays a number).
pub fn chance_to_act(game: &Game, value: f32) -> f32 {
    let v = value.clamp(0.01, 0.99);
    let (slope, intercept, white) = if placing(game) { PLACING } else { MOVING };
    let white = if game.to_act() == Some(crate::rules::Color::White) {
        white
    } else {
        0.0
    };
    let x = slope * (v / (1.0 - v)).ln() + intercept + white;
    1.0 / (1.0 + (-x).exp())
}

/// Whether the rings are still being placed in `game` (it has a curve of its own).
pub fn placing(game: &Game) -> bool {
    game.expects() == Some(ActionKind::Place)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn the_curve_stays_inside_0_1_and_rises_once_the_rings_move() {
        let g = Game::new(Variant::Normal);
        assert!(placing(&g));
        let mut moving = g;
        for p in ["e5", "f6", "e4", "f5", "e3", "f4", "e2", "f3", "e6", "f7"] {
            moving.play(p.parse().expect("action")).expect("placement");
        }
        assert!(!placing(&moving));
        let mut last = 0.0;
        for k in 0..=100 {
            let v = k as f32 / 100.0;
            let c = chance_to_act(&moving, v);
            assert!(c > 0.0 && c < 1.0 && c >= last, "{k}: {c}");
            assert!((0.0..1.0).contains(&chance_to_act(&g, v)));
            last = c;
        }
    }
}
