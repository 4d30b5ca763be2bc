//! A Swiss round's pairings. The players still in (not withdrawn) are ranked by
//! points, then by rating at the start, then by userid. With an odd number, the
//! lowest ranked player who has had no bye sits the round out (a bye, worth a win).
//! The rest are paired from the top: each player in turn meets, within their score
//! group, the player half a group below (the top half against the bottom half), or
//! the nearest player of a group below when their own has none left. No pair meets
//! twice, and no player gets a colour a third time in a row, when a search (a
//! backtracking over that order of preference, bounded) finds a way; else the
//! colour rule gives way first, then the rule of no pair twice. Colours: the player
//! who had White less gets it; at equal counts, each gets the colour they did not
//! have last; in the first round the higher ranked gets White on the odd boards.

use std::collections::BTreeMap;

use crate::server::model::UserId;

use super::{Bye, Entrant, Game, Half, History};

/// One round's games and its bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// The games, top board first.
    pub games: Vec<Game>,
    /// Who sits this round out, when the players are odd.
    pub bye: Option<Bye>,
}

/// The search's bound on pairings tried for one set of rules.
const BUDGET: u32 = 200_000;

/// What a player brings to the pairing.
struct Seat<'a> {
    entrant: &'a Entrant,
    points: Half,
    colours: Vec<bool>,
}

impl Seat<'_> {
    /// The colour they had the last two times, when it was the same both times.
    fn streak(&self) -> Option<bool> {
        match self.colours.as_slice() {
            [.., a, b] if a == b => Some(*a),
            _ => None,
        }
    }

    /// Whites minus blacks.
    fn balance(&self) -> i32 {
        self.colours.iter().map(|&w| if w { 1 } else { -1 }).sum()
    }
}

/// How strict a pass of the search is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Rules {
    /// No pair twice, and nobody a colour three times in a row.
    Strict,
    /// No pair twice.
    NoRepeat,
    /// Anything (a last resort: a tournament with more rounds than pairs).
    Any,
}

/// The pairings of round `round` of a Swiss with `history`.
///
/// ```
/// use yinsh_pbem::server::game::tournament::{swiss, Entrant, History};
/// let e: Vec<Entrant> = ["ann", "bob", "cy"].iter()
///     .map(|n| Entrant::new(n.parse().unwrap(), 1600)).collect();
/// let round = swiss::pair(&History { entrants: &e, games: &[], byes: &[] }, 1);
/// assert_eq!(round.games.len(), 1);
/// assert_eq!(round.bye.unwrap().player.to_string(), "cy");
/// ```
pub fn pair(history: &History, round: u32) -> Round {
    let mut seats: Vec<Seat> = history
        .entrants
        .iter()
        .filter(|e| !e.withdrawn)
        .map(|e| Seat {
            entrant: e,
            points: history.points(&e.id),
            colours: history.colours(&e.id),
        })
        .collect();
    seats.sort_by(|a, b| {
        b.points
            .cmp(&a.points)
            .then(b.entrant.rating.cmp(&a.entrant.rating))
            .then(a.entrant.id.cmp(&b.entrant.id))
    });
    let had_bye: Vec<bool> = seats
        .iter()
        .map(|s| history.byes.iter().any(|b| b.player == s.entrant.id))
        .collect();
    let everyone: Vec<usize> = (0..seats.len()).collect();
    if seats.len().is_multiple_of(2) {
        let pairs = pair_all(&seats, &everyone, history);
        return Round {
            games: games_of(&seats, &pairs, round),
            bye: None,
        };
    }
    // The bye: the lowest ranked without one whose absence leaves a strict pairing;
    // else the lowest ranked without one.
    let without: Vec<usize> = (0..seats.len()).rev().filter(|&i| !had_bye[i]).collect();
    let fallback = without.first().copied().unwrap_or(seats.len() - 1);
    let mut chosen = None;
    for &i in &without {
        let rest: Vec<usize> = everyone.iter().copied().filter(|&j| j != i).collect();
        let mut budget = BUDGET;
        if let Some(pairs) = search(&seats, &rest, history, Rules::Strict, &mut budget) {
            chosen = Some((i, pairs));
            break;
        }
    }
    let (sitter, pairs) = chosen.unwrap_or_else(|| {
        let rest: Vec<usize> = everyone
            .iter()
            .copied()
            .filter(|&j| j != fallback)
            .collect();
        (fallback, pair_all(&seats, &rest, history))
    });
    Round {
        games: games_of(&seats, &pairs, round),
        bye: Some(Bye {
            round,
            player: seats[sitter].entrant.id.clone(),
        }),
    }
}

/// The pairs of `rest` (ranked indices into `seats`), the strictest rules first.
fn pair_all(seats: &[Seat], rest: &[usize], history: &History) -> Vec<(usize, usize)> {
    for rules in [Rules::Strict, Rules::NoRepeat, Rules::Any] {
        let mut budget = BUDGET;
        if let Some(pairs) = search(seats, rest, history, rules, &mut budget) {
            return pairs;
        }
    }
    // Rules::Any always pairs an even list; this is only reached by an odd one.
    rest.chunks_exact(2).map(|c| (c[0], c[1])).collect()
}

/// Whether `a` and `b` may meet under `rules`.
fn allowed(seats: &[Seat], a: usize, b: usize, history: &History, rules: Rules) -> bool {
    if rules == Rules::Any {
        return true;
    }
    if history.met(&seats[a].entrant.id, &seats[b].entrant.id) {
        return false;
    }
    rules == Rules::NoRepeat || {
        let (x, y) = (seats[a].streak(), seats[b].streak());
        x.is_none() || x != y
    }
}

/// A backtracking over the order of preference: the first pairing of all of `rest`
/// that `rules` allow, within `budget` steps.
fn search(
    seats: &[Seat],
    rest: &[usize],
    history: &History,
    rules: Rules,
    budget: &mut u32,
) -> Option<Vec<(usize, usize)>> {
    let Some((&top, others)) = rest.split_first() else {
        return Some(Vec::new());
    };
    if *budget == 0 || others.is_empty() {
        return None;
    }
    *budget -= 1;
    let group = others
        .iter()
        .take_while(|&&i| seats[i].points == seats[top].points)
        .count();
    // Positions in `others`: the player half the group below first (the group counts
    // `top`), then the rest of the bottom half, then the top half upwards, then the
    // groups below in rank order.
    let half = group.div_ceil(2);
    let mut order: Vec<usize> = Vec::with_capacity(others.len());
    order.extend(half.saturating_sub(1)..group);
    order.extend((0..half.saturating_sub(1)).rev());
    order.extend(group..others.len());
    for pos in order {
        let mate = others[pos];
        if !allowed(seats, top, mate, history, rules) {
            continue;
        }
        let left: Vec<usize> = others.iter().copied().filter(|&i| i != mate).collect();
        if let Some(mut pairs) = search(seats, &left, history, rules, budget) {
            pairs.insert(0, (top, mate));
            return Some(pairs);
        }
    }
    None
}

/// The games of `pairs` with their colours, in board order.
fn games_of(seats: &[Seat], pairs: &[(usize, usize)], round: u32) -> Vec<Game> {
    let mut pairs = pairs.to_vec();
    pairs.sort_by_key(|&(a, b)| a.min(b));
    pairs
        .iter()
        .enumerate()
        .map(|(board, &(a, b))| {
            let (high, low) = (&seats[a.min(b)], &seats[a.max(b)]);
            let high_white = high_gets_white(high, low, board);
            let (w, k) = if high_white { (high, low) } else { (low, high) };
            Game::new(round, w.entrant.id.clone(), k.entrant.id.clone())
        })
        .collect()
}

/// Whether the higher ranked of a pair gets White.
fn high_gets_white(high: &Seat, low: &Seat, board: usize) -> bool {
    match (high.streak(), low.streak()) {
        (Some(true), s) if s != Some(true) => return false,
        (Some(false), s) if s != Some(false) => return true,
        (s, Some(true)) if s != Some(true) => return true,
        (s, Some(false)) if s != Some(false) => return false,
        _ => {}
    }
    let (hb, lb) = (high.balance(), low.balance());
    if hb != lb {
        return hb < lb;
    }
    match (high.colours.last(), low.colours.last()) {
        (Some(&h), Some(&l)) if h != l => !h,
        (Some(&h), _) => !h,
        (None, Some(&l)) => l,
        (None, None) => board.is_multiple_of(2),
    }
}

/// How many times each pair has met, for tests and checks.
pub fn meetings(games: &[Game]) -> BTreeMap<(UserId, UserId), u32> {
    let mut met = BTreeMap::new();
    for g in games {
        let key = if g.white < g.black {
            (g.white.clone(), g.black.clone())
        } else {
            (g.black.clone(), g.white.clone())
        };
        *met.entry(key).or_insert(0) += 1;
    }
    met
}

#[cfg(test)]
mod tests {
    use super::super::{Verdict, ids};
    use super::*;

    fn entrants(names: &[&str]) -> Vec<Entrant> {
        // Ratings fall in the order given, so the seed order is the list's.
        ids(names)
            .into_iter()
            .enumerate()
            .map(|(i, id)| Entrant::new(id, 2000 - 10 * i as i32))
            .collect()
    }

    fn pairs(round: &Round) -> Vec<(String, String)> {
        round
            .games
            .iter()
            .map(|g| (g.white.to_string(), g.black.to_string()))
            .collect()
    }

    #[test]
    fn the_first_round_pairs_top_half_against_bottom_half_colours_alternating() {
        let e = entrants(&["a", "b", "c", "d", "e", "f"]);
        let round = pair(
            &History {
                entrants: &e,
                games: &[],
                byes: &[],
            },
            1,
        );
        let want = [("a", "d"), ("e", "b"), ("c", "f")];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(w, b)| (w.to_string(), b.to_string()))
            .collect();
        assert_eq!(pairs(&round), want);
        assert_eq!(round.bye, None);
    }

    #[test]
    fn an_odd_field_gives_the_lowest_ranked_without_a_bye_the_bye() {
        let e = entrants(&["a", "b", "c", "d", "e"]);
        let byes = [Bye {
            round: 1,
            player: "e".parse().unwrap(),
        }];
        let games = [
            Game {
                result: Some(Verdict::White),
                ..Game::new(1, "a".parse().unwrap(), "c".parse().unwrap())
            },
            Game {
                result: Some(Verdict::White),
                ..Game::new(1, "d".parse().unwrap(), "b".parse().unwrap())
            },
        ];
        let h = History {
            entrants: &e,
            games: &games,
            byes: &byes,
        };
        // Points: a 1, d 1, e 1 (the bye), b 0, c 0. Ranked: a, d, e, b, c.
        // c is last and has had no bye: c sits out.
        let round = pair(&h, 2);
        assert_eq!(
            round.bye.as_ref().map(|b| b.player.to_string()).as_deref(),
            Some("c")
        );
        // The group of 1 point is a, d, e: a meets d? No: they have not met, a is top,
        // half the group below a is d. e floats down to b.
        let met = meetings(&round.games);
        assert!(met.contains_key(&("a".parse().unwrap(), "d".parse().unwrap())));
        assert!(met.contains_key(&("b".parse().unwrap(), "e".parse().unwrap())));
        // a had White, d had White: equal balance, the higher ranked (a) gets the
        // colour it did not have last: Black.
        let ad = round
            .games
            .iter()
            .find(|g| g.has(&"a".parse().unwrap()))
            .unwrap();
        assert_eq!(ad.white.to_string(), "d");
    }

    #[test]
    fn no_pair_meets_twice_and_nobody_gets_a_colour_three_times_running() {
        // Seven players, three rounds, every game won by White (a worst case for
        // colours), a withdrawal after round 1.
        let mut e = entrants(&["a", "b", "c", "d", "e", "f", "g"]);
        let mut games: Vec<Game> = Vec::new();
        let mut byes: Vec<Bye> = Vec::new();
        for round in 1..=5 {
            if round == 2 {
                e[3].withdrawn = true;
            }
            let r = pair(
                &History {
                    entrants: &e,
                    games: &games,
                    byes: &byes,
                },
                round,
            );
            let active = e.iter().filter(|x| !x.withdrawn).count();
            assert_eq!(r.games.len(), active / 2, "round {round}");
            assert_eq!(r.bye.is_some(), active % 2 == 1, "round {round}");
            for g in &r.games {
                assert!(!g.has(&e[3].id) || round == 1, "a withdrawn player paired");
            }
            if let Some(b) = &r.bye {
                assert!(!byes.iter().any(|x| x.player == b.player), "a second bye");
                assert!(!r.games.iter().any(|g| g.has(&b.player)));
            }
            games.extend(r.games.into_iter().map(|g| Game {
                result: Some(Verdict::White),
                ..g
            }));
            byes.extend(r.bye);
        }
        assert!(meetings(&games).values().all(|&n| n == 1), "{games:?}");
        let h = History {
            entrants: &e,
            games: &games,
            byes: &byes,
        };
        for x in &e {
            let c = h.colours(&x.id);
            assert!(
                !c.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                "{}: {c:?}",
                x.id
            );
        }
    }

    #[test]
    fn winners_meet_winners() {
        let e = entrants(&["a", "b", "c", "d"]);
        let games = [
            Game {
                result: Some(Verdict::White),
                ..Game::new(1, "a".parse().unwrap(), "c".parse().unwrap())
            },
            Game {
                result: Some(Verdict::Black),
                ..Game::new(1, "d".parse().unwrap(), "b".parse().unwrap())
            },
        ];
        let round = pair(
            &History {
                entrants: &e,
                games: &games,
                byes: &[],
            },
            2,
        );
        // a and b have 1 point, c and d none.
        let met = meetings(&round.games);
        assert!(met.contains_key(&("a".parse().unwrap(), "b".parse().unwrap())));
        assert!(met.contains_key(&("c".parse().unwrap(), "d".parse().unwrap())));
        // a had White, b Black: b gets White now; c had Black, d White: c gets White.
        assert_eq!(
            pairs(&round),
            vec![("b".into(), "a".into()), ("c".into(), "d".into())]
        );
    }
}
