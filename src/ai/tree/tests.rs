//! The search tree's tests (`tree/mod.rs`).

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

/// Both sides' five rings placed, White to move (c3 free to move along column c).
fn five_rings_each(variant: Variant) -> crate::rules::Setup {
    crate::rules::Setup::new(variant)
        .rings(
            Color::White,
            ["c3", "k7", "k8", "k9", "k10"].map(|p| p.parse().unwrap()),
        )
        .rings(
            Color::Black,
            ["a5", "g11", "h11", "i11", "j11"].map(|p| p.parse().unwrap()),
        )
}

#[test]
fn the_solver_proves_a_win_in_one() {
    // White's ring move c3-e5 makes two rows; in blitz the first removal wins.
    let g = five_rings_each(Variant::Blitz)
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
    // visits as the arena fills, so the tree is still growing ten times later. (It
    // grows in steps: a new node's 84 placements are each tried once, without a prior,
    // before any of them is expanded, so a thousand iterations may add nothing.)
    let (cfg, mut tree, mut rng) = searched(20_000, 3, 0);
    let mut sizes = Vec::new();
    for _ in 0..10 {
        for _ in 0..1_000 {
            tree.iterate(&cfg, &mut rng);
        }
        sizes.push(tree.len());
    }
    assert!(sizes[0] < 20_000, "{sizes:?}");
    assert!(sizes[0] < sizes[9] && sizes[4] < sizes[9], "{sizes:?}");
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
    // The largest child's subtree, kept, is the tree it was.
    let (child, before) = tree.nodes[0]
        .children()
        .map(|c| {
            let mut shape_of = Vec::new();
            shape(&tree, c, &mut shape_of);
            (c, shape_of)
        })
        .max_by_key(|(_, shape_of)| shape_of.len())
        .unwrap();
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

#[test]
fn the_robot_gives_priors_to_ring_moves_but_not_to_placements() {
    let opening = Game::new(Variant::Normal);
    let mut tree = Tree::new(opening);
    assert_eq!(tree.expand(0, &opening, &SearchConfig::ROBOT), 0);
    let children = tree.nodes[0].children();
    assert_eq!(children.len(), 85);
    assert!(children.clone().all(|c| tree.nodes[c].visits == 0.0));

    let with_priors = SearchConfig {
        placement_priors: true,
        ..SearchConfig::ROBOT
    };
    let mut tree = Tree::new(opening);
    assert_eq!(tree.expand(0, &opening, &with_priors), 85);
    let children = tree.nodes[0].children();
    assert!(children.clone().all(|c| tree.nodes[c].visits == 5.0));

    let moving = five_rings_each(Variant::Normal).build().unwrap();
    let mut tree = Tree::new(moving);
    let evaluations = tree.expand(0, &moving, &SearchConfig::ROBOT);
    let children = tree.nodes[0].children();
    assert!(evaluations > 0);
    assert_eq!(evaluations as usize, children.len());
    assert!(children.clone().all(|c| tree.nodes[c].visits == 5.0));
}
