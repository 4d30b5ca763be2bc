//! Match statistics: a player's wins, losses and draws and the Elo difference they
//! imply, with its 95% margin of error (normal approximation of the mean score, the
//! per-game variance measured with draws counted as half a point).
//!
//! Expected score E = 1 / (1 + 10^(-d/400)) for an Elo difference d, so
//! d = -400 log10(1/s - 1) for a score s; the margin is half the width of the Elo
//! interval of s +/- 1.96 standard errors. A perfect score has no finite Elo: the
//! bound then given is the rule of three (at 95%, the true score is at least
//! 1 - 3/n).

/// z for a two-sided 95% interval.
const Z95: f64 = 1.96;

/// One player's results in a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games lost.
    pub losses: u32,
    /// Games drawn.
    pub draws: u32,
}

/// An Elo difference and its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The difference (infinite for a perfect or a zero score).
    pub diff: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

impl EloEstimate {
    /// Half the width of the interval (infinite when an end is).
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

/// The Elo difference that gives the expected score `s` (0 < s < 1).
///
/// ```
/// use yinsh_pbem::ai::elo_of_score;
/// assert!((elo_of_score(0.75) - 190.85).abs() < 0.01);
/// assert_eq!(elo_of_score(0.5), 0.0);
/// ```
pub fn elo_of_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Tally {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The score: (wins + draws / 2) / games; 0.5 with no games.
    pub fn score(&self) -> f64 {
        match self.games() {
            0 => 0.5,
            n => (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n),
        }
    }

    /// The Elo difference and its 95% interval.
    ///
    /// ```
    /// use yinsh_pbem::ai::Tally;
    /// let e = Tally { wins: 150, losses: 50, draws: 0 }.elo();
    /// assert!((e.diff - 190.85).abs() < 0.01);
    /// assert!((e.margin() - 56.46).abs() < 0.01);
    /// ```
    pub fn elo(&self) -> EloEstimate {
        let n = f64::from(self.games());
        let s = self.score();
        if self.games() == 0 {
            return EloEstimate {
                diff: 0.0,
                low: f64::NEG_INFINITY,
                high: f64::INFINITY,
            };
        }
        if self.losses == 0 && self.draws == 0 {
            return EloEstimate {
                diff: f64::INFINITY,
                low: elo_of_score((1.0 - 3.0 / n).max(0.5)),
                high: f64::INFINITY,
            };
        }
        if self.wins == 0 && self.draws == 0 {
            return EloEstimate {
                diff: f64::NEG_INFINITY,
                low: f64::NEG_INFINITY,
                high: elo_of_score((3.0 / n).min(0.5)),
            };
        }
        let (w, d, l) = (
            f64::from(self.wins) / n,
            f64::from(self.draws) / n,
            f64::from(self.losses) / n,
        );
        let variance = w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2);
        let error = (variance / n).sqrt() * Z95;
        let at = |x: f64| {
            if x <= 0.0 {
                f64::NEG_INFINITY
            } else if x >= 1.0 {
                f64::INFINITY
            } else {
                elo_of_score(x)
            }
        };
        EloEstimate {
            diff: elo_of_score(s),
            low: at(s - error),
            high: at(s + error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_and_mirrored_matches() {
        let even = Tally {
            wins: 40,
            losses: 40,
            draws: 20,
        };
        assert_eq!(even.score(), 0.5);
        let e = even.elo();
        assert_eq!(e.diff, 0.0);
        assert!(
            (e.low + e.high).abs() < 1e-9 && e.high > 50.0 && e.high < 80.0,
            "{e:?}"
        );
        let a = Tally {
            wins: 120,
            losses: 60,
            draws: 20,
        }
        .elo();
        let b = Tally {
            wins: 60,
            losses: 120,
            draws: 20,
        }
        .elo();
        assert!((a.diff + b.diff).abs() < 1e-9 && (a.margin() - b.margin()).abs() < 1e-9);
    }

    #[test]
    fn perfect_scores_give_rule_of_three_bounds() {
        let e = Tally {
            wins: 300,
            losses: 0,
            draws: 0,
        }
        .elo();
        assert!(e.diff.is_infinite() && e.diff > 0.0);
        // 1 - 3/300 = 0.99: 798 Elo.
        assert!((e.low - 798.3).abs() < 0.5, "{e:?}");
    }
}
