//! The Monte Carlo search tree over atomic actions: one node per action, children of a
//! node stored side by side in one arena. One iteration selects down the tree by UCT,
//! expands a leaf (all its children at once, each with an evaluation prior counted as
//! a few virtual visits, ring placements excepted), runs a playout, and backs the
//! result up.
//!
//! The tree also solves endings (MCTS-solver): a node whose position is over is
//! proven; a node is proven a win for the side to act there as soon as one child is,
//! and proven otherwise once every child is. Proven losses are never selected again
//! and a proven win is always taken. Outcomes are kept as absolute colours, so the
//! side to act may act several times in a row (removals) without any sign flipping.
//!
//! Tree reuse: [`Tree::reroot`] keeps the subtree of a position found below the root
//! (after the robot's own action, or after the opponent's whole turn), copying it
//! into a fresh arena.

use std::time::Instant;

use super::playout::{Policy, playout};
use super::profile::SearchProfile;
use crate::ai::eval::win_chance;
use crate::rules::rng::Rng;
use crate::rules::{Action, ActionList, Color, Game, MAX_ACTIONS, Outcome};

/// No child yet.
const NONE: u32 = u32::MAX;

/// How the tree searches: UCT's constants, the priors, the playout policy, the solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// UCT's exploration constant c in q + c * sqrt(ln N / n). The robot's is 0.3:
    /// with the evaluation's priors and short playouts, 0.3 beat 0.5 64-36 at 50 ms a
    /// turn (docs/strength.md).
    pub exploration: f32,
    /// Virtual visits given to a new child at the evaluation's win chance (0: none).
    pub prior_visits: f32,
    /// Give those priors to ring placements too. The evaluation does not tell who wins
    /// while rings are placed (the favourite of the Boardspace games' placement
    /// positions won 43% of them), so its priors there steer the search wrongly; the
    /// robot leaves placements to their playouts (CHANGELOG.md, "Strength history":
    /// 38-2, 36-4 and 34-6 against yngine at 0.25, 1 and 2 s, from 36-4, 33-7 and
    /// 33-7, the gain as Black).
    pub placement_priors: bool,
    /// How playouts choose their actions and when they stop.
    pub policy: Policy,
    /// Prove won and lost positions (MCTS-solver).
    pub solver: bool,
    /// Stop growing the tree at this many nodes (playouts go on from its leaves). The
    /// arena is reserved once at this size (plus one expansion), never copied, so a
    /// search's memory is at most `max_nodes` x 28 bytes and 4 bytes a node while a
    /// subtree is kept.
    pub max_nodes: usize,
}

impl SearchConfig {
    /// The robot's search: priors, short playouts ended by the evaluation, the solver.
    pub const ROBOT: SearchConfig = SearchConfig {
        exploration: 0.3,
        prior_visits: 5.0,
        placement_priors: false,
        policy: Policy::ROBOT,
        solver: true,
        max_nodes: MAX_NODES,
    };

    /// Plain UCT, the reference opponent: uniform random playouts to the end of the
    /// game, no priors, no evaluation, no solver.
    pub const PLAIN_UCT: SearchConfig = SearchConfig {
        exploration: 1.0,
        prior_visits: 0.0,
        placement_priors: false,
        policy: Policy::RANDOM,
        solver: false,
        max_nodes: MAX_NODES,
    };
}

/// The robot's and plain UCT's tree limit: 250,000 nodes, 7 MB, so that a `deliver`
/// that plays a robot turn stays within the server's 20 MB (a 2 s search on an idle
/// core would create some two million nodes: every expansion creates all children).
pub const MAX_NODES: usize = 250_000;

/// One node: the action that led here and what the search learnt below it.
#[derive(Clone, Copy, Debug)]
struct Node {
    action: Action,
    /// The side that played `action`; `wins` count for it.
    mover: Color,
    /// The game's result from here with best play, once proven.
    proven: Option<Outcome>,
    n_children: u16,
    first_child: u32,
    parent: u32,
    /// Visits, virtual ones included.
    visits: f32,
    /// Sum of the mover's rewards (0 loss, 0.5 draw, 1 win), virtual ones included.
    wins: f32,
    /// Real visits only.
    real: u32,
}

impl Node {
    fn new(action: Action, mover: Color, parent: u32) -> Node {
        Node {
            action,
            mover,
            proven: None,
            n_children: 0,
            first_child: NONE,
            parent,
            visits: 0.0,
            wins: 0.0,
            real: 0,
        }
    }

    fn children(&self) -> std::ops::Range<usize> {
        if self.first_child == NONE {
            0..0
        } else {
            let f = self.first_child as usize;
            f..f + self.n_children as usize
        }
    }
}

/// `1` when `outcome` is a win for `side`, `0` for a loss, `0.5` for a draw.
fn reward(outcome: Outcome, side: Color) -> f32 {
    match outcome {
        Outcome::Win(c) if c == side => 1.0,
        Outcome::Win(_) => 0.0,
        Outcome::Draw => 0.5,
    }
}

/// The search tree, rooted at a position.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    nodes: Vec<Node>,
    root_game: Game,
    path: Vec<u32>,
    list: ActionList,
    /// What the search does, measured while `Some` (`start_profile`).
    profile: Option<SearchProfile>,
}

impl Tree {
    /// A tree holding only `game`.
    pub(crate) fn new(game: Game) -> Tree {
        let mover = game.to_act().map_or(Color::White, Color::other);
        Tree {
            nodes: vec![Node::new(Action::Pass, mover, NONE)],
            root_game: game,
            path: Vec::new(),
            list: ActionList::new(),
            profile: None,
        }
    }

    /// Measure the iterations from now on (a fresh profile).
    pub(crate) fn start_profile(&mut self) {
        self.profile = Some(SearchProfile {
            nodes: (self.nodes.len(), self.nodes.len()),
            ..SearchProfile::default()
        });
    }

    /// What the iterations since `start_profile` did (the tree's size and arena now);
    /// measuring stops.
    pub(crate) fn take_profile(&mut self) -> Option<SearchProfile> {
        let mut profile = self.profile.take()?;
        profile.nodes.1 = self.nodes.len();
        profile.arena_bytes = self.nodes.capacity() * std::mem::size_of::<Node>();
        Some(profile)
    }

    /// Nodes in the tree.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the root's result is proven.
    pub(crate) fn root_proven(&self) -> bool {
        self.nodes[0].proven.is_some()
    }

    /// One iteration: select, expand, play out, back up.
    pub(crate) fn iterate(&mut self, cfg: &SearchConfig, rng: &mut Rng) {
        let mut g = self.root_game;
        let mut n = 0usize;
        self.path.clear();
        self.path.push(0);
        let white_reward = loop {
            let node = self.nodes[n];
            if let Some(o) = node.proven {
                break reward(o, Color::White);
            }
            if node.first_child == NONE {
                if let Some(o) = g.outcome() {
                    if cfg.solver {
                        self.nodes[n].proven = Some(o);
                    }
                    break reward(o, Color::White);
                }
                if (n != 0 && node.real < self.visits_to_expand(cfg))
                    || self.nodes.len() >= cfg.max_nodes
                {
                    break self.play_out(g, cfg, rng);
                }
                let start = self.profile.is_some().then(Instant::now);
                let evaluations = self.expand(n, &g, cfg);
                if let (Some(p), Some(start)) = (&mut self.profile, start) {
                    p.expansions += start.elapsed();
                    p.evaluations += evaluations;
                }
                if let Some(o) = self.nodes[n].proven {
                    break reward(o, Color::White);
                }
            }
            let c = self.select(n, cfg, rng);
            let action = self.nodes[c].action;
            if g.play(action).is_err() {
                debug_assert!(false, "the tree holds an illegal action {action}");
                break 0.5;
            }
            n = c;
            self.path.push(c as u32);
        };
        if let Some(p) = &mut self.profile {
            let depth = self.path.len() - 1;
            p.iterations += 1;
            p.max_depth = p.max_depth.max(depth);
            p.depth_sum += depth as u64;
        }
        self.back_up(white_reward, cfg.solver);
    }

    /// White's reward of a playout from `g` (timed when profiling).
    fn play_out(&mut self, g: Game, cfg: &SearchConfig, rng: &mut Rng) -> f32 {
        let mut evaluations = 0;
        let Some(p) = &mut self.profile else {
            return playout(g, &cfg.policy, rng, &mut self.list, &mut evaluations);
        };
        let start = Instant::now();
        let reward = playout(g, &cfg.policy, rng, &mut self.list, &mut evaluations);
        p.playouts += start.elapsed();
        p.evaluations += evaluations;
        reward
    }

    /// The real visits a leaf needs before it is expanded: one while the tree is at
    /// most half full, then more as it fills (the nodes in the tree over the room left:
    /// 3 at three quarters, 9 at nine tenths), so that a long search keeps deepening
    /// its most visited lines instead of spending the arena on the first leaves it
    /// meets and then playing out from a frozen tree.
    fn visits_to_expand(&self, cfg: &SearchConfig) -> u32 {
        let len = self.nodes.len();
        let room = cfg.max_nodes.saturating_sub(len).max(1);
        u32::try_from(len / room).unwrap_or(u32::MAX).max(1)
    }

    /// Give node `n` (position `g`, not over) all its children; the positions
    /// evaluated for their priors.
    fn expand(&mut self, n: usize, g: &Game, cfg: &SearchConfig) -> u64 {
        let Some(mover) = g.to_act() else { return 0 };
        let mut evaluations = 0;
        g.legal_actions_into(&mut self.list);
        let first = self.nodes.len();
        let need = first + self.list.len();
        if need > self.nodes.capacity() {
            // Once, the whole arena the search may fill: growing it by doubling would
            // hold the old and the new arena at once, and up to twice the limit.
            let whole = cfg.max_nodes.saturating_add(MAX_ACTIONS).max(need);
            self.nodes.reserve_exact(whole - first);
        }
        for &a in self.list.iter() {
            let mut child = Node::new(a, mover, n as u32);
            if let Ok(after) = g.after(a) {
                if cfg.solver {
                    child.proven = after.outcome();
                }
                if cfg.prior_visits > 0.0
                    && (cfg.placement_priors || !matches!(a, Action::Place(_)))
                {
                    child.visits = cfg.prior_visits;
                    child.wins = cfg.prior_visits * win_chance(&after, mover);
                    evaluations += 1;
                }
            }
            self.nodes.push(child);
        }
        let count = (self.nodes.len() - first) as u16;
        let node = &mut self.nodes[n];
        node.first_child = first as u32;
        node.n_children = count;
        if cfg.solver {
            self.prove(n);
        }
        evaluations
    }

    /// Prove node `n` from its children, if they allow it; true if it is now proven.
    fn prove(&mut self, n: usize) -> bool {
        let node = self.nodes[n];
        if node.proven.is_some() {
            return true;
        }
        let range = node.children();
        let Some(side) = range.clone().next().map(|c| self.nodes[c].mover) else {
            return false;
        };
        let mut all = true;
        let mut draw = false;
        for c in range {
            match self.nodes[c].proven {
                Some(Outcome::Win(w)) if w == side => {
                    self.nodes[n].proven = Some(Outcome::Win(side));
                    return true;
                }
                Some(Outcome::Draw) => draw = true,
                Some(Outcome::Win(_)) => {}
                None => all = false,
            }
        }
        if all {
            self.nodes[n].proven = Some(if draw {
                Outcome::Draw
            } else {
                Outcome::Win(side.other())
            });
        }
        all
    }

    /// The child of `n` to descend into (UCT; proven children by their result).
    fn select(&self, n: usize, cfg: &SearchConfig, rng: &mut Rng) -> usize {
        let node = &self.nodes[n];
        let range = node.children();
        let k = range.len();
        let log_n = node.visits.max(1.0).ln();
        let offset = rng.below(k);
        let mut best = range.start;
        let mut best_score = f32::NEG_INFINITY;
        for i in 0..k {
            let c = range.start + (offset + i) % k;
            let child = &self.nodes[c];
            let q = match child.proven {
                Some(Outcome::Win(w)) if w == child.mover => return c,
                Some(Outcome::Win(_)) => continue,
                Some(Outcome::Draw) => 0.5,
                None if child.visits == 0.0 => return c,
                None => child.wins / child.visits,
            };
            let s = q + cfg.exploration * (log_n / child.visits.max(1.0)).sqrt();
            if s > best_score {
                best_score = s;
                best = c;
            }
        }
        best
    }

    /// Add the result of one iteration along `path`, and prove what it allows.
    fn back_up(&mut self, white_reward: f32, solver: bool) {
        let leaf = self.path[self.path.len() - 1] as usize;
        let mut proving = solver && self.nodes[leaf].proven.is_some();
        for k in (0..self.path.len()).rev() {
            let n = self.path[k] as usize;
            if proving && k + 1 < self.path.len() {
                proving = self.prove(n);
            }
            let node = &mut self.nodes[n];
            node.visits += 1.0;
            node.real += 1;
            node.wins += match node.mover {
                Color::White => white_reward,
                Color::Black => 1.0 - white_reward,
            };
        }
    }

    /// The root's child to play: a proven win, else the most visited child not proven
    /// lost (ties: the better mean), with its win chance for the side to act.
    pub(crate) fn best(&self) -> Option<(Action, f32)> {
        let range = self.nodes[0].children();
        // (rank, real visits, mean): a proven win ranks 2, a proven loss 0, the rest 1.
        let mut best: Option<(usize, (u8, u32, f32))> = None;
        for c in range {
            let child = &self.nodes[c];
            let (rank, q) = match child.proven {
                Some(Outcome::Win(w)) if w == child.mover => (2, 1.0),
                Some(Outcome::Win(_)) => (0, 0.0),
                Some(Outcome::Draw) => (1, 0.5),
                None if child.visits > 0.0 => (1, child.wins / child.visits),
                None => (1, 0.5),
            };
            let key = (rank, child.real, q);
            if best.is_none_or(|(_, b)| key > b) {
                best = Some((c, key));
            }
        }
        best.map(|(c, (_, _, q))| (self.nodes[c].action, q))
    }

    /// Make the position `target` the root, keeping its subtree if it lies within
    /// `depth` actions below the current root along visited nodes; else start afresh.
    pub(crate) fn reroot(&mut self, target: &Game, depth: usize) {
        if let Some(n) = self.find(target, depth) {
            self.keep_subtree(n);
            self.root_game = *target;
        } else {
            *self = Tree::new(*target);
        }
    }

    /// The visited node whose position is `target`, breadth first.
    fn find(&self, target: &Game, depth: usize) -> Option<usize> {
        let mut level = vec![(0usize, self.root_game)];
        for _ in 0..=depth {
            let mut next = Vec::new();
            for (n, g) in level {
                if g == *target {
                    return Some(n);
                }
                for c in self.nodes[n].children() {
                    if self.nodes[c].real > 0
                        && let Ok(after) = g.after(self.nodes[c].action)
                    {
                        next.push((c, after));
                    }
                }
            }
            level = next;
        }
        None
    }

    /// Keep only the subtree of `n`, moved to the front of the same arena in the
    /// order it had (a node always comes after its parent, so a node of the subtree is
    /// one whose parent is, and moving down never overwrites a node not yet moved).
    fn keep_subtree(&mut self, n: usize) {
        if n == 0 {
            return;
        }
        let len = self.nodes.len();
        let mut new_index = vec![NONE; len];
        new_index[n] = 0;
        let mut kept = 1u32;
        for i in n + 1..len {
            let p = self.nodes[i].parent;
            if p != NONE && new_index[p as usize] != NONE {
                new_index[i] = kept;
                kept += 1;
            }
        }
        for i in n..len {
            let to = new_index[i];
            if to == NONE {
                continue;
            }
            let mut node = self.nodes[i];
            node.parent = if i == n {
                NONE
            } else {
                new_index[node.parent as usize]
            };
            if node.first_child != NONE {
                node.first_child = new_index[node.first_child as usize];
            }
            self.nodes[to as usize] = node;
        }
        self.nodes.truncate(kept as usize);
    }
}

#[cfg(test)]
mod tests;
