//! The Monte Carlo search tree over atomic actions: one node per action, children of a
//! node stored side by side in one arena. One iteration selects down the tree by UCT,
//! expands a leaf (all its children at once, each with an evaluation prior counted as
//! a few virtual visits), runs a playout, and backs the result up.
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

use super::playout::{Policy, playout};
use super::rng::Rng;
use crate::ai::eval::win_chance;
use crate::rules::{Action, ActionList, Color, Game, MAX_ACTIONS, Outcome};

/// No child yet.
const NONE: u32 = u32::MAX;

/// How the tree searches: UCT's constants, the priors, the playout policy, the solver.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// UCT's exploration constant c in q + c * sqrt(ln N / n).
    pub exploration: f32,
    /// Virtual visits given to a new child at the evaluation's win chance (0: none).
    pub prior_visits: f32,
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
        exploration: 0.5,
        prior_visits: 5.0,
        policy: Policy::ROBOT,
        solver: true,
        max_nodes: MAX_NODES,
    };

    /// Plain UCT, the reference opponent: uniform random playouts to the end of the
    /// game, no priors, no evaluation, no solver.
    pub const PLAIN_UCT: SearchConfig = SearchConfig {
        exploration: 1.0,
        prior_visits: 0.0,
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
        }
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
                    break playout(g, &cfg.policy, rng, &mut self.list);
                }
                self.expand(n, &g, cfg);
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
        self.back_up(white_reward, cfg.solver);
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

    /// Give node `n` (position `g`, not over) all its children.
    fn expand(&mut self, n: usize, g: &Game, cfg: &SearchConfig) {
        let Some(mover) = g.to_act() else { return };
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
                if cfg.prior_visits > 0.0 {
                    child.visits = cfg.prior_visits;
                    child.wins = cfg.prior_visits * win_chance(&after, mover);
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
mod tests {
    use super::*;
    use crate::rules::Variant;

    #[test]
    fn a_node_is_small() {
        assert!(
            std::mem::size_of::<Node>() <= 28,
            "{}",
            std::mem::size_of::<Node>()
        );
    }

    #[test]
    fn the_solver_proves_a_win_in_one() {
        // White's ring move c3-e5 makes two rows; in blitz the first removal wins.
        let g = crate::rules::Setup::new(Variant::Blitz)
            .rings(
                Color::White,
                ["c3", "k7", "k8", "k9", "k10"].map(|p| p.parse().unwrap()),
            )
            .rings(
                Color::Black,
                ["a5", "g11", "h11", "i11", "j11"].map(|p| p.parse().unwrap()),
            )
            .markers(
                Color::White,
                ["c1", "c2", "c4", "c5"].map(|p| p.parse().unwrap()),
            )
            .build()
            .unwrap();
        let mut tree = Tree::new(g);
        let mut rng = Rng::new(1);
        for _ in 0..20_000 {
            if tree.root_proven() {
                break;
            }
            tree.iterate(&SearchConfig::ROBOT, &mut rng);
        }
        assert_eq!(tree.nodes[0].proven, Some(Outcome::Win(Color::White)));
        let (best, chance) = tree.best().unwrap();
        assert_eq!(chance, 1.0);
        let after = g.after(best).unwrap();
        assert_eq!(after.expects(), Some(crate::rules::ActionKind::RemoveRow));
    }

    /// The robot's search config with an arena of `max_nodes`, and a tree of the
    /// opening searched `iterations` times with generator seed `seed`.
    fn searched(max_nodes: usize, seed: u64, iterations: u32) -> (SearchConfig, Tree, Rng) {
        let cfg = SearchConfig {
            max_nodes,
            ..SearchConfig::ROBOT
        };
        let mut tree = Tree::new(Game::new(Variant::Normal));
        let mut rng = Rng::new(seed);
        for _ in 0..iterations {
            tree.iterate(&cfg, &mut rng);
        }
        (cfg, tree, rng)
    }

    #[test]
    fn a_filling_tree_keeps_growing() {
        // An arena of 20,000 nodes holds about 250 expansions of the opening: expanding
        // every leaf on its second visit filled it within about 500 iterations and
        // froze the tree there for the rest of the search; a leaf now needs more
        // visits as the arena fills, so the tree is still growing ten times later.
        let (cfg, mut tree, mut rng) = searched(20_000, 3, 0);
        let mut sizes = Vec::new();
        for _ in 0..10 {
            for _ in 0..1_000 {
                tree.iterate(&cfg, &mut rng);
            }
            sizes.push(tree.len());
        }
        assert!(sizes[0] < 20_000, "{sizes:?}");
        assert!(sizes[0] < sizes[4] && sizes[4] < sizes[9], "{sizes:?}");
        assert!(tree.len() <= 20_000 + MAX_ACTIONS, "{}", tree.len());
    }

    #[test]
    fn the_arena_stays_within_its_limit() {
        let (_, tree, _) = searched(2_000, 5, 50_000);
        assert!(tree.len() >= 2_000, "{}", tree.len());
        assert!(tree.len() <= 2_000 + MAX_ACTIONS, "{}", tree.len());
        assert!(tree.nodes.capacity() <= 2_000 + MAX_ACTIONS);
    }

    #[test]
    fn a_leaf_needs_more_visits_as_the_arena_fills() {
        let (cfg, mut tree, _) = searched(1_000, 1, 0);
        let at = |tree: &mut Tree, len: usize| {
            tree.nodes.resize(len, tree.nodes[0]);
            tree.visits_to_expand(&cfg)
        };
        assert_eq!(at(&mut tree, 1), 1);
        assert_eq!(at(&mut tree, 500), 1);
        assert_eq!(at(&mut tree, 750), 3);
        assert_eq!(at(&mut tree, 900), 9);
        assert_eq!(at(&mut tree, 990), 99);
        assert_eq!(at(&mut tree, 1_000), 1_000);
    }

    /// The subtree below `n` as (action, visits, real visits, proven, children),
    /// depth first, with every child's parent checked.
    fn shape(tree: &Tree, n: usize, out: &mut Vec<(Action, u32, u32, Option<Outcome>, u16)>) {
        let node = tree.nodes[n];
        out.push((
            node.action,
            node.visits.to_bits(),
            node.real,
            node.proven,
            node.n_children,
        ));
        for c in node.children() {
            assert_eq!(tree.nodes[c].parent as usize, n);
            shape(tree, c, out);
        }
    }

    #[test]
    fn a_kept_subtree_is_the_same_tree_and_the_arena_is_reserved_once() {
        let (cfg, mut tree, mut rng) = searched(50_000, 7, 30_000);
        assert!(tree.len() >= 40_000, "{}", tree.len());
        assert!(tree.len() <= 50_000 + MAX_ACTIONS, "{}", tree.len());
        assert!(
            tree.nodes.capacity() <= 50_000 + MAX_ACTIONS,
            "{}",
            tree.nodes.capacity()
        );
        // The most visited child's subtree, kept, is the tree it was.
        let child = tree.nodes[0]
            .children()
            .max_by_key(|&c| tree.nodes[c].real)
            .unwrap();
        let mut before = Vec::new();
        shape(&tree, child, &mut before);
        let mut game = tree.root_game;
        game.play(tree.nodes[child].action).unwrap();
        assert!(before.len() > 1_000, "{}", before.len());
        tree.reroot(&game, 1);
        let mut after = Vec::new();
        shape(&tree, 0, &mut after);
        assert_eq!(after, before);
        assert_eq!(tree.len(), before.len());
        assert_eq!(tree.nodes[0].parent, NONE);
        // It goes on searching from there.
        for _ in 0..100 {
            tree.iterate(&cfg, &mut rng);
        }
    }
}
