//! Elo ratings (pbmserv-reference.md §5), from which the standings and the history
//! list are written (`exec::listing`).
//!
//! Ratings are kept in the ratings index (`game::index`), which applies the finished
//! games in the order they ended (then by board), and rebuilds it from the game files
//! when asked (`yinsh-pbem reindex`), so it never drifts from the games. Normal
//! and blitz games are rated separately. Everyone starts at 1600 and is provisional
//! for their first 20 rated games. The expected score of a player rated `R` against
//! `Ropp` is `1 / (1 + 10^((Ropp - R) / 400))`; after a game the rating changes by
//! `K * (score - expected)`, rounded to the nearest whole point, with K = 32 for
//! established players and K = 64 while provisional (so a new player's rating moves
//! quickly towards their level). Each player's K depends on their own status.
//! A game is rated when it ended after the ring placement (10 turns or more):
//! a game resigned, forfeited or agreed drawn before that is not rated, nor is a
//! game its open seek made unrated (`extra.unrated`; older games are rated).

use std::collections::BTreeMap;

use crate::rules::{Color, Outcome};

use crate::server::model::{EndReason, UserId};
use crate::server::store::Store;
pub use crate::server::store::{Finished, Record};
use crate::server::store::{Standing, Standings};

use super::record::{LiveGame, LoadError};

/// Every new player's rating.
pub const START: i32 = 1600;
/// Rated games before a player is established.
pub const PROVISIONAL_GAMES: u32 = 20;
/// K for established players.
pub const K_ESTABLISHED: f64 = 32.0;
/// K while provisional.
pub const K_PROVISIONAL: f64 = 64.0;
/// Turns a game needs to be rated (the ten ring placements).
pub const MIN_TURNS_RATED: usize = 10;
/// A player with no active game and no game ended in this many days is inactive.
pub const INACTIVE_DAYS: u64 = 180;

/// The expected score of a player rated `r` against one rated `opp`.
///
/// ```
/// use yinsh_pbem::server::game::ratings::expected;
/// assert!((expected(1600, 1600) - 0.5).abs() < 1e-12);
/// assert!((expected(1800, 1400) - 10.0 / 11.0).abs() < 1e-12);
/// ```
pub fn expected(r: i32, opp: i32) -> f64 {
    1.0 / (1.0 + 10f64.powf(f64::from(opp - r) / 400.0))
}

/// The new rating after scoring `score` (1, 0.5 or 0) against `opp`, with `games`
/// rated games played before this one.
pub fn updated(r: i32, opp: i32, score: f64, games: u32) -> i32 {
    let k = if games < PROVISIONAL_GAMES {
        K_PROVISIONAL
    } else {
        K_ESTABLISHED
    };
    r + (k * (score - expected(r, opp))).round() as i32
}

impl Default for Record {
    fn default() -> Record {
        Record {
            rating: START,
            won: 0,
            lost: 0,
            ties: 0,
            last: 0,
        }
    }
}

impl Record {
    /// Rated games played.
    pub fn games(&self) -> u32 {
        self.won + self.lost + self.ties
    }

    /// Still provisional.
    pub fn provisional(&self) -> bool {
        self.games() < PROVISIONAL_GAMES
    }
}

/// The ratings change one game made: per side, before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// White's and Black's records before the game.
    pub before: [Record; 2],
    /// ... and after.
    pub after: [Record; 2],
}

/// Apply one game to a pool of records.
pub fn apply(pool: &mut BTreeMap<String, Record>, g: &Finished) -> Change {
    let keys = g.players.clone().map(|p| p.key());
    let before = [
        pool.get(&keys[0]).copied().unwrap_or_default(),
        pool.get(&keys[1]).copied().unwrap_or_default(),
    ];
    let after = play(before, g);
    for s in 0..2 {
        pool.insert(keys[s].clone(), after[s]);
    }
    Change { before, after }
}

/// Moves the records of `g`'s players in a ratings table by the game (their entries
/// made when missing, their names as the game writes them).
pub fn rate_table(table: &mut Standings, g: &Finished) {
    let before = g
        .players
        .clone()
        .map(|p| table.get(&p.key()).map(|s| s.record).unwrap_or_default());
    for (p, r) in g.players.iter().zip(play(before, g)) {
        let entry = table.entry(p.key()).or_insert_with(|| Standing {
            name: p.clone(),
            record: r,
            active: 0,
        });
        entry.record = r;
        entry.name = p.clone();
    }
}

/// White's and Black's records after the game `g`, from theirs before it.
pub fn play(before: [Record; 2], g: &Finished) -> [Record; 2] {
    let mut after = before;
    let scores = [g.white_score, 1.0 - g.white_score];
    for s in 0..2 {
        let (me, opp) = (before[s], before[1 - s]);
        after[s].rating = updated(me.rating, opp.rating, scores[s], me.games());
        match scores[s] {
            x if x > 0.75 => after[s].won += 1,
            x if x < 0.25 => after[s].lost += 1,
            _ => after[s].ties += 1,
        }
        after[s].last = g.ended;
    }
    after
}

/// What a finished game counts as, or `None` while it goes on.
pub fn finished(live: &LiveGame) -> Option<Finished> {
    let outcome = live.game().outcome()?;
    let f = live.file();
    let ended = f
        .ended
        .as_ref()
        .map(|e| e.at)
        .or_else(|| f.turns.last().map(|t| t.at))
        .unwrap_or(f.updated);
    let white_score = match outcome {
        Outcome::Win(Color::White) => 1.0,
        Outcome::Win(Color::Black) => 0.0,
        Outcome::Draw => 0.5,
    };
    let how = match (&f.ended, outcome) {
        (Some(e), _) if e.reason == EndReason::Forfeit => format!("{} forfeited", e.by),
        (Some(e), _) if e.reason == EndReason::Resigned => format!("{} resigned", e.by),
        (Some(_), Outcome::Draw) => EndReason::DrawAgreed.to_string(),
        (_, Outcome::Win(c)) => format!("won by {}", live.player(c)),
        (_, Outcome::Draw) => "tie".to_string(),
    };
    Some(Finished {
        board: f.board,
        variant: live.game().variant(),
        players: [f.white.clone(), f.black.clone()],
        white_score,
        ended,
        rated: f.turns.len() >= MIN_TURNS_RATED && !f.extra.unrated,
        how,
    })
}

/// One player's rating moved by a rated game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatingMove {
    /// The player.
    pub player: UserId,
    /// The rating before the game.
    pub before: i32,
    /// The rating after it.
    pub after: i32,
    /// Whether the rating after it is still provisional.
    pub provisional: bool,
}

/// What a finished game did to its players' ratings (`text::ending::rating_lines`
/// writes it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Rating {
    /// The game was not rated.
    Unrated,
    /// The ratings of `variant` (each variant is rated apart), White's then Black's.
    Rated {
        variant: crate::rules::Variant,
        moves: [RatingMove; 2],
    },
}

/// What `live`, finished, did to its players' ratings, counting the games that
/// ended before it in this same transaction; `None` while it goes on.
pub fn rating_of(store: &Store, live: &LiveGame) -> Result<Option<Rating>, LoadError> {
    let Some(this) = finished(live) else {
        return Ok(None);
    };
    if !this.rated {
        return Ok(Some(Rating::Unrated));
    }
    // The ratings index holds every game ended before this transaction; games that
    // ended earlier in this same transaction (a tick forfeiting several) count too.
    let mut earlier = Vec::new();
    for b in store.changed_games() {
        let Some(file) = store.game(b)?.filter(|_| b != this.board) else {
            continue;
        };
        let Some(g) = finished(&LiveGame::load(file)?) else {
            continue;
        };
        let indexed = match store.game_on_disk(b)? {
            Some(old) => finished(&LiveGame::load(old)?).is_some(),
            None => false,
        };
        if !indexed && g.variant == this.variant && g.rated && g.order() < this.order() {
            earlier.push(g);
        }
    }
    earlier.sort_by_key(Finished::order);
    let keys: Vec<String> = earlier
        .iter()
        .chain([&this])
        .flat_map(|g| g.players.iter().map(UserId::key))
        .collect();
    let mut table = store.standings_of(this.variant, &keys)?;
    for g in &earlier {
        rate_table(&mut table, g);
    }
    let before = this
        .players
        .clone()
        .map(|p| table.get(&p.key()).map(|s| s.record).unwrap_or_default());
    let c = Change {
        before,
        after: play(before, &this),
    };
    let moves = [0, 1].map(|s| RatingMove {
        player: this.players[s].clone(),
        before: c.before[s].rating,
        after: c.after[s].rating,
        provisional: c.after[s].provisional(),
    });
    Ok(Some(Rating::Rated {
        variant: this.variant,
        moves,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    fn game(board: u32, w: &str, b: &str, white_score: f64) -> Finished {
        let id = |s: &str| s.parse::<UserId>().expect("valid userid");
        Finished {
            board: board.into(),
            variant: Variant::Normal,
            players: [id(w), id(b)],
            white_score,
            ended: u64::from(board),
            rated: true,
            how: String::new(),
        }
    }

    #[test]
    fn expectation_matches_hand_computed_values() {
        // 1 / (1 + 10^(200/400)) = 1 / (1 + 3.16228) = 0.240253
        assert!((expected(1500, 1700) - 0.240_253).abs() < 1e-6);
        assert!((expected(1700, 1500) - 0.759_747).abs() < 1e-6);
        assert!((expected(2000, 1600) - 0.909_091).abs() < 1e-6);
    }

    #[test]
    fn established_players_use_k_32() {
        // 1700 beats 1500: 32 * (1 - 0.759747) = 7.69 -> +8; 1500: 32 * -0.240253 = -7.69 -> -8.
        assert_eq!(updated(1700, 1500, 1.0, 20), 1708);
        assert_eq!(updated(1500, 1700, 0.0, 20), 1492);
        // The underdog wins: 32 * 0.759747 = 24.31 -> +24.
        assert_eq!(updated(1500, 1700, 1.0, 25), 1524);
        assert_eq!(updated(1700, 1500, 0.0, 25), 1676);
        // A tie between equals changes nothing; 1700 ties 1500: 32 * -0.259747 = -8.31 -> -8.
        assert_eq!(updated(1600, 1600, 0.5, 30), 1600);
        assert_eq!(updated(1700, 1500, 0.5, 30), 1692);
    }

    #[test]
    fn provisional_players_use_k_64() {
        // Two new players: 64 * 0.5 = 32.
        assert_eq!(updated(1600, 1600, 1.0, 0), 1632);
        assert_eq!(updated(1600, 1600, 0.0, 0), 1568);
        // The 20th rated game (19 before it) is still provisional; the 21st is not.
        assert_eq!(updated(1600, 1600, 1.0, 19), 1632);
        assert_eq!(updated(1600, 1600, 1.0, 20), 1616);
    }

    #[test]
    fn a_pool_applies_games_in_order_and_counts_results() {
        let mut pool = BTreeMap::new();
        let c = apply(&mut pool, &game(101, "Alice", "bob", 1.0));
        assert_eq!((c.before[0].rating, c.after[0].rating), (1600, 1632));
        assert_eq!((c.before[1].rating, c.after[1].rating), (1600, 1568));
        // alice 1632 vs bob 1568 again, bob wins: E(bob) = 1/(1+10^(64/400)) = 0.408924;
        // 64 * 0.591076 = 37.83 -> +38; alice: 64 * -0.591076 -> -38.
        let c = apply(&mut pool, &game(102, "bob", "alice", 1.0));
        assert_eq!((c.after[0].rating, c.after[1].rating), (1606, 1594));
        let alice = pool["alice"];
        assert_eq!(
            (alice.won, alice.lost, alice.ties, alice.games()),
            (1, 1, 0, 2)
        );
        apply(&mut pool, &game(103, "alice", "bob", 0.5));
        assert_eq!(pool["bob"].ties, 1);
        assert!(pool["bob"].provisional());
    }
}
