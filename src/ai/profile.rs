//! What one decision's search did, for `yinsh-pbem think --stats` (issue 29: where a
//! turn's time goes as the think time grows): iterations, the tree's size and depth,
//! the time in playouts and expansions, the evaluations. Measured only when asked
//! (`Robot::set_profiling`): the timing costs two clock reads an iteration.

use std::fmt;
use std::time::Duration;

/// What the search of one decision (a placement, a ring move or a removal) did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchProfile {
    /// Iterations (each one playout or one proven ending).
    pub iterations: u64,
    /// Nodes in the tree when the search began (kept from before) and ended.
    pub nodes: (usize, usize),
    /// Bytes reserved for the tree's arena.
    pub arena_bytes: usize,
    /// The deepest leaf an iteration reached, in actions below the root.
    pub max_depth: usize,
    /// The depths of all iterations' leaves, summed.
    pub depth_sum: u64,
    /// Wall time of the whole search.
    pub total: Duration,
    /// Of which in playouts (their policy's cheap scores included).
    pub playouts: Duration,
    /// Of which in expansions (the children's priors included).
    pub expansions: Duration,
    /// Evaluations of a position: the playouts' ends and the priors (the playouts'
    /// policy scores its choices by the cheap terms only, `Weights::PLAYOUT`).
    pub evaluations: u64,
}

impl SearchProfile {
    /// The mean depth of the iterations' leaves.
    pub fn mean_depth(&self) -> f64 {
        self.depth_sum as f64 / self.iterations.max(1) as f64
    }

    /// `part` as a share of the whole search's time, in percent.
    pub fn percent(&self, part: Duration) -> f64 {
        100.0 * part.as_secs_f64() / self.total.as_secs_f64().max(1e-9)
    }
}

/// One line: `12345 iterations in 1.00 s; tree 1 -> 250000 nodes (7.0 MB reserved);
/// depth max 14, mean 6.2; playouts 80%, expansions 9% of the time; 1234567
/// evaluations`.
impl fmt::Display for SearchProfile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} iterations in {:.2} s; tree {} -> {} nodes ({:.1} MB reserved); depth max {}, mean {:.1}; playouts {:.0}%, expansions {:.0}% of the time; {} evaluations",
            self.iterations,
            self.total.as_secs_f64(),
            self.nodes.0,
            self.nodes.1,
            self.arena_bytes as f64 / 1e6,
            self.max_depth,
            self.mean_depth(),
            self.percent(self.playouts),
            self.percent(self.expansions),
            self.evaluations
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_reads_as_one_line() {
        let p = SearchProfile {
            iterations: 4,
            nodes: (1, 90),
            arena_bytes: 7_000_000,
            max_depth: 5,
            depth_sum: 10,
            total: Duration::from_millis(200),
            playouts: Duration::from_millis(150),
            expansions: Duration::from_millis(20),
            evaluations: 300,
        };
        assert_eq!(
            p.to_string(),
            "4 iterations in 0.20 s; tree 1 -> 90 nodes (7.0 MB reserved); depth max 5, mean 2.5; playouts 75%, expansions 10% of the time; 300 evaluations"
        );
        assert_eq!(SearchProfile::default().mean_depth(), 0.0);
    }
}
