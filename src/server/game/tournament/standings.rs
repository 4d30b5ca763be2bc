//! A tournament's standings and their tie-breaks, in this order:
//!
//! - round robin: points, then Sonneborn-Berger (the points of each opponent
//!   beaten, plus half the points of each drawn with), then games won, then the
//!   points scored in the games among the players still tied (head-to-head);
//! - Swiss: points, then Buchholz (the sum of the opponents' points; a bye counts
//!   as an opponent with none), then Sonneborn-Berger, then the rating at the start.
//!
//! Players equal on every tie-break share a place; they are listed by userid.
//! Games still going count for nothing; a bye is worth a win (`super::BYE`).

use std::cmp::Ordering;

use crate::server::model::UserId;

use super::{Format, Half, History, Quarter};

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The place (1 for the first; shared places repeat).
    pub place: usize,
    /// The player.
    pub id: UserId,
    /// Their points.
    pub points: Half,
    /// Buchholz (a Swiss only: zero in a round robin).
    pub buchholz: Half,
    /// Sonneborn-Berger.
    pub sonneborn_berger: Quarter,
    /// Games won (byes not counted).
    pub won: u32,
    /// Head-to-head points among the players tied with them before it (a round
    /// robin only).
    pub head_to_head: Half,
    /// The rating at the start.
    pub rating: i32,
    /// Withdrawn.
    pub withdrawn: bool,
}

/// The standings of a tournament of `format` with `history`, first place first.
///
/// ```
/// use yinsh_pbem::server::game::tournament::{standings, Entrant, Format, Game, History, Verdict};
/// let e: Vec<Entrant> = ["ann", "bob"].iter()
///     .map(|n| Entrant::new(n.parse().unwrap(), 1600)).collect();
/// let g = [Game { result: Some(Verdict::Black), ..Game::new(1, e[0].id.clone(), e[1].id.clone()) }];
/// let table = standings::of(Format::RoundRobin, &History { entrants: &e, games: &g, byes: &[] });
/// assert_eq!(table[0].id.to_string(), "bob");
/// ```
pub fn of(format: Format, history: &History) -> Vec<Line> {
    let mut lines: Vec<Line> = history
        .entrants
        .iter()
        .map(|e| {
            let points = history.points(&e.id);
            let mut buchholz = Half(0);
            let mut sb = 0u32;
            let mut won = 0u32;
            for g in history.games {
                let (Some(score), Some(opp)) = (g.score_of(&e.id), g.opponent(&e.id)) else {
                    continue;
                };
                let theirs = history.points(opp);
                buchholz += theirs;
                sb += score.0 * theirs.0;
                won += u32::from(score == Half::WIN);
            }
            Line {
                place: 0,
                id: e.id.clone(),
                points,
                buchholz: if matches!(format, Format::Swiss { .. }) {
                    buchholz
                } else {
                    Half(0)
                },
                sonneborn_berger: Quarter(sb),
                won,
                head_to_head: Half(0),
                rating: e.rating,
                withdrawn: e.withdrawn,
            }
        })
        .collect();
    let before_h2h = |a: &Line, b: &Line| -> Ordering {
        match format {
            Format::RoundRobin => b
                .points
                .cmp(&a.points)
                .then(b.sonneborn_berger.cmp(&a.sonneborn_berger))
                .then(b.won.cmp(&a.won)),
            Format::Swiss { .. } => b
                .points
                .cmp(&a.points)
                .then(b.buchholz.cmp(&a.buchholz))
                .then(b.sonneborn_berger.cmp(&a.sonneborn_berger))
                .then(b.rating.cmp(&a.rating)),
        }
    };
    lines.sort_by(|a, b| before_h2h(a, b).then(a.id.cmp(&b.id)));
    if format == Format::RoundRobin {
        // Head-to-head within each run of players tied so far.
        let mut start = 0;
        while start < lines.len() {
            let mut end = start + 1;
            while end < lines.len() && before_h2h(&lines[start], &lines[end]).is_eq() {
                end += 1;
            }
            if end - start > 1 {
                let tied: Vec<UserId> = lines[start..end].iter().map(|l| l.id.clone()).collect();
                for line in &mut lines[start..end] {
                    line.head_to_head = history
                        .games
                        .iter()
                        .filter(|g| g.opponent(&line.id).is_some_and(|o| tied.contains(o)))
                        .filter_map(|g| g.score_of(&line.id))
                        .fold(Half(0), |a, b| a + b);
                }
                lines[start..end]
                    .sort_by(|a, b| b.head_to_head.cmp(&a.head_to_head).then(a.id.cmp(&b.id)));
            }
            start = end;
        }
    }
    let same = |a: &Line, b: &Line| before_h2h(a, b).is_eq() && a.head_to_head == b.head_to_head;
    for i in 0..lines.len() {
        lines[i].place = if i > 0 && same(&lines[i - 1], &lines[i]) {
            lines[i - 1].place
        } else {
            i + 1
        };
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::super::{Bye, Entrant, Game, Verdict, ids};
    use super::*;

    fn game(round: u32, white: &str, black: &str, result: Verdict) -> Game {
        Game {
            result: Some(result),
            ..Game::new(round, white.parse().unwrap(), black.parse().unwrap())
        }
    }

    fn entrants(names: &[&str]) -> Vec<Entrant> {
        ids(names)
            .into_iter()
            .map(|id| Entrant::new(id, 1600))
            .collect()
    }

    fn table(t: &[Line]) -> Vec<(usize, String, String, String)> {
        t.iter()
            .map(|l| {
                (
                    l.place,
                    l.id.to_string(),
                    l.points.to_string(),
                    l.sonneborn_berger.to_string(),
                )
            })
            .collect()
    }

    fn want(rows: &[(usize, &str, &str, &str)]) -> Vec<(usize, String, String, String)> {
        rows.iter()
            .map(|(p, i, s, b)| (*p, i.to_string(), s.to_string(), b.to_string()))
            .collect()
    }

    #[test]
    fn round_robin_points_then_sonneborn_berger() {
        use Verdict::{Black as B, Draw as D, White as W};
        let e = entrants(&["a", "b", "c", "d"]);
        let games = [
            game(1, "a", "b", W), // a 1
            game(1, "b", "a", W), // b 1
            game(1, "a", "c", W), // a 1
            game(1, "c", "a", D), // a .5, c .5
            game(1, "a", "d", B), // d 1
            game(1, "d", "a", B), // a 1
            game(1, "b", "c", W), // b 1
            game(1, "c", "b", W), // c 1
            game(1, "b", "d", D), // b .5, d .5
            game(1, "d", "b", B), // b 1
            game(1, "c", "d", W), // c 1
            game(1, "d", "c", D), // c .5, d .5
        ];
        // Points: a 1+1+.5+1 = 3.5; b 1+1+.5+1 = 3.5; c .5+1+1+.5 = 3;
        // d 1+.5+.5 = 2 (12 in all).
        // SB (each opponent's points times the score against them):
        //   a: b 3.5*1 + c 3*1.5 + d 2*1   = 3.5+4.5+2  = 10
        //   b: a 3.5*1 + c 3*1   + d 2*1.5 = 3.5+3+3    = 9.5
        //   c: a 3.5*.5 + b 3.5*1 + d 2*1.5 = 1.75+3.5+3 = 8.25
        //   d: a 3.5*1 + b 3.5*.5 + c 3*.5  = 3.5+1.75+1.5 = 6.75
        let t = of(
            Format::RoundRobin,
            &History {
                entrants: &e,
                games: &games,
                byes: &[],
            },
        );
        assert_eq!(
            table(&t),
            want(&[
                (1, "a", "3.5", "10"),
                (2, "b", "3.5", "9.5"),
                (3, "c", "3", "8.25"),
                (4, "d", "2", "6.75"),
            ])
        );
    }

    #[test]
    fn head_to_head_decides_what_sonneborn_berger_and_wins_leave_level() {
        use Verdict::{Black as B, Draw as D, White as W};
        let e = entrants(&["b", "a", "c", "d"]);
        let games = [
            game(1, "a", "b", W), // a 1
            game(1, "b", "a", D), // a .5, b .5
            game(1, "a", "c", D), // a .5, c .5
            game(1, "c", "a", W), // c 1
            game(1, "a", "d", W), // a 1
            game(1, "d", "a", D), // a .5, d .5
            game(1, "b", "c", W), // b 1
            game(1, "c", "b", B), // b 1
            game(1, "b", "d", D), // b .5, d .5
            game(1, "d", "b", D), // b .5, d .5
            game(1, "c", "d", W), // c 1
            game(1, "d", "c", D), // c .5, d .5
        ];
        // Points: a 1+.5+.5+1+.5 = 3.5; b .5+1+1+.5+.5 = 3.5; c .5+1+1+.5 = 3;
        // d .5+.5+.5+.5 = 2.
        // SB: a: b 3.5*1.5 + c 3*.5 + d 2*1.5 = 5.25+1.5+3 = 9.75
        //     b: a 3.5*.5  + c 3*2  + d 2*1   = 1.75+6+2   = 9.75
        //     c: a 3.5*1.5 + b 0 + d 2*1.5 = 5.25+3 = 8.25
        //     d: a 3.5*.5 + b 3.5*1 + c 3*.5 = 1.75+3.5+1.5 = 6.75
        // Games won: a 2 (b, d as White), b 2 (c twice): level.
        // Head-to-head: a 1.5 against b, b .5 against a: a first.
        let t = of(
            Format::RoundRobin,
            &History {
                entrants: &e,
                games: &games,
                byes: &[],
            },
        );
        assert_eq!(
            table(&t),
            want(&[
                (1, "a", "3.5", "9.75"),
                (2, "b", "3.5", "9.75"),
                (3, "c", "3", "8.25"),
                (4, "d", "2", "6.75"),
            ])
        );
        assert_eq!((t[0].won, t[1].won), (2, 2));
        assert_eq!((t[0].head_to_head, t[1].head_to_head), (Half(3), Half(1)));
    }

    #[test]
    fn players_level_on_everything_share_a_place() {
        use Verdict::{Black as B, White as W};
        // a beats b twice, b beats c twice, c beats a twice: 2 points each, SB 2*2 = 4
        // each, 2 wins each, head-to-head 2 each: all first.
        let e = entrants(&["a", "b", "c"]);
        let games = [
            game(1, "a", "b", W),
            game(1, "b", "a", B),
            game(1, "b", "c", W),
            game(1, "c", "b", B),
            game(1, "c", "a", W),
            game(1, "a", "c", B),
        ];
        let t = of(
            Format::RoundRobin,
            &History {
                entrants: &e,
                games: &games,
                byes: &[],
            },
        );
        assert_eq!(
            table(&t),
            want(&[(1, "a", "2", "4"), (1, "b", "2", "4"), (1, "c", "2", "4")])
        );
    }

    #[test]
    fn swiss_buchholz_counts_a_bye_as_nothing_then_sb_then_rating() {
        use Verdict::{Black as B, Draw as D, White as W};
        let mut e = entrants(&["a", "b", "c", "d", "e"]);
        e[0].rating = 1700;
        e[4].rating = 1500;
        let games = [
            game(1, "a", "c", W),
            game(1, "d", "b", D),
            game(2, "e", "a", B),
            game(2, "b", "c", W),
        ];
        let byes = [
            Bye {
                round: 1,
                player: "e".parse().unwrap(),
            },
            Bye {
                round: 2,
                player: "d".parse().unwrap(),
            },
        ];
        // Points: a 1+1 = 2; b .5+1 = 1.5; c 0; d .5+1 (bye) = 1.5; e 1 (bye) + 0 = 1.
        // Buchholz: a: c 0 + e 1 = 1; b: d 1.5 + c 0 = 1.5; d: b 1.5 (bye 0) = 1.5;
        //   e: a 2 (bye 0) = 2; c: a 2 + b 1.5 = 3.5.
        // b and d tie on points and Buchholz; SB: b: d 1.5*.5 + c 0*1 = .75;
        //   d: b 1.5*.5 = .75. Then rating: both 1600: a shared place, by userid.
        let t = of(
            Format::Swiss { rounds: 2 },
            &History {
                entrants: &e,
                games: &games,
                byes: &byes,
            },
        );
        let got: Vec<(usize, String, String, String, String)> = t
            .iter()
            .map(|l| {
                (
                    l.place,
                    l.id.to_string(),
                    l.points.to_string(),
                    l.buchholz.to_string(),
                    l.sonneborn_berger.to_string(),
                )
            })
            .collect();
        let want = [
            (1, "a", "2", "1", "1"),
            (2, "b", "1.5", "1.5", "0.75"),
            (2, "d", "1.5", "1.5", "0.75"),
            (4, "e", "1", "2", "0"),
            (5, "c", "0", "3.5", "0"),
        ];
        let want: Vec<(usize, String, String, String, String)> = want
            .iter()
            .map(|(p, i, s, b, sb)| {
                (
                    *p,
                    i.to_string(),
                    s.to_string(),
                    b.to_string(),
                    sb.to_string(),
                )
            })
            .collect();
        assert_eq!(got, want);
    }
}
