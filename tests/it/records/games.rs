//! Random legal games biased towards the rare situations a record must hold: one
//! side walled in by the other (forced passes, removals owed at the start of a turn
//! and then a pass), rows given to the opponent (owed removals, rows for both sides
//! at once), rows avoided (the last marker ends the game), and endings off the board
//! (a resignation, also in the middle of a turn, or an agreed draw).

use yinsh_pbem::notation::auto_pass_due;
use yinsh_pbem::notation::sgf::{Record, RecordEnd};
use yinsh_pbem::rules::{Action, ActionKind, Color, Direction, Game, Variant};

use crate::support::turns::{least_by, ring_moves};
use yinsh_pbem::ai::Rng;

/// How the players choose among the legal actions.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Style {
    /// Uniformly.
    Uniform,
    /// This side places its rings on the rim, moves to leave itself the fewest ring
    /// moves (best, a move after which the other side can make it a row whose removal
    /// leaves it none) and removes so as to keep the fewest. The other side places,
    /// moves and removes to leave it the fewest ring moves and avoids rows of its own;
    /// it makes it a row only when that row's removal leaves it no ring move (a pass),
    /// and prefers the moves that lead there within two turns.
    Walled(Color),
    /// Each mover prefers the moves that make rows for the opponent, both sides best.
    Generous,
    /// Each mover avoids making rows, so that the markers run out.
    Hoarding,
}

/// How the record ends beyond its actions.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stop {
    /// Played until the game ends (or the cap of actions).
    Played,
    /// This side resigns after this many actions (when the flag says so, at the
    /// first point after them in the middle of a turn).
    Resign(usize, Color, bool),
    /// The players agree a draw after this many actions (the flag as for `Resign`).
    Draw(usize, bool),
}

/// Most actions a generated game has.
const MAX_ACTIONS: usize = 700;

/// A game of `variant` played in `style` from `seed`, ended as `stop` says, between
/// alice (White) and bob (Black).
pub(crate) fn biased_game(variant: Variant, style: Style, stop: Stop, seed: u64) -> Record {
    let mut rng = Rng::new(seed);
    let mut game = Game::new(variant);
    let mut actions = Vec::new();
    let (stop_at, mid_turn) = match stop {
        Stop::Played => (MAX_ACTIONS, false),
        Stop::Resign(at, _, mid) | Stop::Draw(at, mid) => (at, mid),
    };
    let mut last_side = None;
    while actions.len() < MAX_ACTIONS && !game.is_over() {
        let in_turn = last_side.is_some() && game.to_act() == last_side && !auto_pass_due(&game);
        if actions.len() >= stop_at && (in_turn || !mid_turn) {
            break;
        }
        last_side = game.to_act();
        let a = choose(&game, style, &mut rng);
        game.play(a).expect("a legal action");
        actions.push(a);
    }
    let ending = match stop {
        _ if game.is_over() => None,
        Stop::Played => None,
        Stop::Resign(_, side, _) => Some(RecordEnd::Resigned(side)),
        Stop::Draw(..) => Some(RecordEnd::DrawAgreed),
    };
    Record {
        variant,
        white: "alice".to_string(),
        black: "bob".to_string(),
        date: Some(format!("seed {seed}")),
        actions,
        ending,
    }
}

/// One legal action of `game` in `style`: the lowest score, ties broken at random.
fn choose(game: &Game, style: Style, rng: &mut Rng) -> Action {
    let me = game.to_act().expect("the game goes on");
    least_by(&game.legal_actions(), rng, |a| score(game, me, style, a))
}

/// How much `me` wants `a` in `game` (less is better).
fn score(game: &Game, me: Color, style: Style, a: Action) -> i64 {
    let after = game.after(a).expect("a legal action");
    let rows = |c: Color| after.row_count(c) as i64;
    match (style, a) {
        (Style::Uniform, _) => 0,
        (Style::Walled(victim), Action::Place(p)) if me == victim => Direction::ALL
            .iter()
            .filter(|d| d.step(p).is_some())
            .count() as i64,
        (Style::Walled(victim), Action::Place(_)) => mobility(&after, victim),
        (Style::Walled(victim), Action::Move { .. }) if me == victim => {
            if can_give_pass_after_removals(&after, victim) {
                -1
            } else {
                after_removals(&after, me)
            }
        }
        (Style::Walled(victim), Action::RemoveRow(_) | Action::RemoveRing(_)) if me == victim => {
            after_removals(&after, me)
        }
        (Style::Walled(victim), Action::RemoveRow(_) | Action::RemoveRing(_)) => {
            mobility(&after, victim)
        }
        (Style::Walled(victim), Action::Move { .. }) => {
            if owes(&after, victim) {
                // A row whose removal leaves it moves only frees the board.
                if after_removals(&after, victim) == 0 {
                    0
                } else {
                    100
                }
            } else if sets_up_pass_after_removals(&after, victim) {
                1
            } else if invites_pass_after_removals(&after, victim) {
                2
            } else {
                3 + 2 * mobility(&after, victim) + 4 * rows(me)
            }
        }
        (Style::Generous, Action::Move { .. }) => {
            let other = rows(me.other());
            -(other + if other > 0 && rows(me) > 0 { 2 } else { 0 })
        }
        (Style::Hoarding, Action::Move { .. }) => rows(me) + rows(me.other()),
        _ => 0,
    }
}

/// The ring moves `color` has on the board of `game`, whoever is to act.
fn mobility(game: &Game, color: Color) -> i64 {
    game.rings(color).map(|p| ring_moves(game, p) as i64).sum()
}

/// The fewest ring moves `victim` can have in `game` once the removals it is making
/// are done (0: its turn ends in a forced pass); a removal that ends the game counts
/// as many moves.
fn after_removals(game: &Game, victim: Color) -> i64 {
    match game.expects() {
        None => 50,
        Some(ActionKind::RemoveRow | ActionKind::RemoveRing) if game.to_act() == Some(victim) => {
            game.legal_actions()
                .iter()
                .map(|&a| after_removals(&game.after(a).expect("legal"), victim))
                .min()
                .unwrap_or(50)
        }
        _ => mobility(game, victim),
    }
}

/// Whether `victim` is to act in `game` and owes a row.
fn owes(game: &Game, victim: Color) -> bool {
    game.to_act() == Some(victim) && game.expects() == Some(ActionKind::RemoveRow)
}

/// Whether `victim` must pass in `game` and, after that pass, the other side has a
/// ring move that makes it a row after whose removal it must pass again.
fn sets_up_pass_after_removals(game: &Game, victim: Color) -> bool {
    if game.to_act() != Some(victim) || !auto_pass_due(game) {
        return false;
    }
    can_give_pass_after_removals(&game.after(Action::Pass).expect("a forced pass"), victim)
}

/// Whether the other side of `victim` is to move a ring in `game` and has a move that
/// makes `victim` a row after whose removal it must pass.
fn can_give_pass_after_removals(game: &Game, victim: Color) -> bool {
    game.to_act() == Some(victim.other())
        && game.expects() == Some(ActionKind::Move)
        && game.legal_actions().iter().any(|&a| {
            let after = game.after(a).expect("legal");
            owes(&after, victim) && after_removals(&after, victim) == 0
        })
}

/// Whether `victim` is to move a ring in `game`, has few ring moves, and has one after
/// which the other side can make it a row after whose removal it must pass.
fn invites_pass_after_removals(game: &Game, victim: Color) -> bool {
    game.to_act() == Some(victim)
        && game.expects() == Some(ActionKind::Move)
        && mobility(game, victim) <= FEW_MOVES
        && game
            .legal_actions()
            .iter()
            .any(|&a| can_give_pass_after_removals(&game.after(a).expect("legal"), victim))
}

/// The ring moves below which a walled side is worth searching for a way to a pass
/// after removals.
const FEW_MOVES: i64 = 8;
