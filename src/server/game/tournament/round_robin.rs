//! A round robin's schedule: every pair of players plays twice, once with each colour,
//! and all the games start together (as Little Golem's tournaments do), so every game
//! is in round 1. The games are listed pair by pair, in the order the players were
//! given, the first of a pair with White in the first game.

use crate::server::model::UserId;

use super::Game;

/// Every game of a round robin of `players`: n * (n - 1) games.
///
/// ```
/// use yinsh_pbem::server::game::tournament::round_robin::schedule;
/// use yinsh_pbem::server::model::UserId;
/// let p: Vec<UserId> = ["ann", "bob", "cy"].iter().map(|n| n.parse().unwrap()).collect();
/// assert_eq!(schedule(&p).len(), 6);
/// ```
pub fn schedule(players: &[UserId]) -> Vec<Game> {
    let mut games = Vec::with_capacity(players.len() * players.len().saturating_sub(1));
    for (i, a) in players.iter().enumerate() {
        for b in &players[i + 1..] {
            games.push(Game::new(1, a.clone(), b.clone()));
            games.push(Game::new(1, b.clone(), a.clone()));
        }
    }
    games
}

#[cfg(test)]
mod tests {
    use super::super::ids;
    use super::*;

    #[test]
    fn every_ordered_pair_once_and_no_one_plays_themself() {
        let p = ids(&["ann", "bob", "cy", "dee"]);
        let games = schedule(&p);
        assert_eq!(games.len(), 12);
        for a in &p {
            for b in &p {
                let n = games
                    .iter()
                    .filter(|g| g.white == *a && g.black == *b)
                    .count();
                assert_eq!(n, usize::from(a != b), "{a} as White against {b}");
            }
            let white = games.iter().filter(|g| g.white == *a).count();
            let black = games.iter().filter(|g| g.black == *a).count();
            assert_eq!((white, black), (3, 3), "{a}'s colours");
        }
        assert!(games.iter().all(|g| g.round == 1 && g.result.is_none()));
    }

    #[test]
    fn fewer_than_two_players_play_nothing() {
        assert!(schedule(&ids(&["ann"])).is_empty());
        assert!(schedule(&[]).is_empty());
    }
}
