//! `Game`: the position and its phase machine (yinsh-rules.md §3-§4). It lists the
//! legal atomic actions, plays one at a time (refusing an illegal one with a closed
//! reason and changing nothing), and knows when and how the game ended.
//!
//! The board is four `u128` masks (rings and markers of each side); a `Game` is
//! `Copy`, and neither generating nor playing actions touches the heap.

use super::action::{Action, ActionKind, ActionList};
use super::board::{Color, Piece, count_rows, has_row, points_of, rows_in};
use super::direction::Axis;
use super::illegal::IllegalAction;
use super::outcome::{EndReason, Ending, Outcome, Variant};
use super::point::{Point, VALID, for_each_point};
use super::ray::{any_landing, between, count_landings, for_each_ring_landings, ring_path};
use super::row::Row;

/// Markers in the game (yinsh-rules.md §2).
pub const MARKERS: u8 = 51;
/// Rings per side (yinsh-rules.md §2).
pub const RINGS: u8 = 5;

/// Where the game stands: what the side to act must do next.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Stage {
    Place,
    Move,
    /// The side to act has no ring move (the other side has one).
    Pass,
    /// `own_move`: removals after the side's own ring move (true), or owed at the start
    /// of its turn for rows the opponent made (false).
    RemoveRow {
        own_move: bool,
    },
    RemoveRing {
        own_move: bool,
    },
    Over(Ending),
}

/// A YINSH game in progress or finished.
///
/// ```
/// use yinsh_pbem::rules::{Action, Game, Variant};
/// let mut game = Game::new(Variant::Normal);
/// assert_eq!(game.legal_actions().len(), 85);
/// game.play("e5".parse().unwrap()).unwrap();
/// assert!(game.play("e5".parse().unwrap()).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Game {
    variant: Variant,
    rings: [u128; 2],
    markers: [u128; 2],
    removed: [u8; 2],
    pool: u8,
    to_act: Color,
    stage: Stage,
}

impl Game {
    /// A new game: empty board, White to place the first ring.
    pub const fn new(variant: Variant) -> Game {
        Game {
            variant,
            rings: [0; 2],
            markers: [0; 2],
            removed: [0; 2],
            pool: MARKERS,
            to_act: Color::White,
            stage: Stage::Place,
        }
    }

    /// Build a game from parts already checked by `Setup`, at the start of `to_move`'s
    /// turn.
    pub(crate) fn from_parts(
        variant: Variant,
        rings: [u128; 2],
        markers: [u128; 2],
        removed: [u8; 2],
        to_move: Color,
    ) -> Game {
        let on_board = (markers[0] | markers[1]).count_ones() as u8;
        let mut g = Game {
            variant,
            rings,
            markers,
            removed,
            pool: MARKERS - on_board,
            to_act: to_move,
            stage: Stage::Place,
        };
        let placed = (rings[0] | rings[1]).count_ones() as u8 + removed[0] + removed[1];
        if placed < 2 * RINGS {
            g.stage = Stage::Place;
        } else if has_row(markers[to_move.index()]) {
            g.stage = Stage::RemoveRow { own_move: false };
        } else {
            g.start_ring_move(to_move);
        }
        g
    }

    /// The variant.
    pub const fn variant(&self) -> Variant {
        self.variant
    }

    /// The side whose action it is; `None` once the game is over.
    pub const fn to_act(&self) -> Option<Color> {
        match self.stage {
            Stage::Over(_) => None,
            _ => Some(self.to_act),
        }
    }

    /// The kind of action expected next; `None` once the game is over.
    pub const fn expects(&self) -> Option<ActionKind> {
        match self.stage {
            Stage::Place => Some(ActionKind::Place),
            Stage::Move => Some(ActionKind::Move),
            Stage::Pass => Some(ActionKind::Pass),
            Stage::RemoveRow { .. } => Some(ActionKind::RemoveRow),
            Stage::RemoveRing { .. } => Some(ActionKind::RemoveRing),
            Stage::Over(_) => None,
        }
    }

    /// During removals: true when the side removes rows of its own ring move, false
    /// when it removes rows the opponent made for it, at the start of its turn.
    pub const fn removing_after_own_move(&self) -> Option<bool> {
        match self.stage {
            Stage::RemoveRow { own_move } | Stage::RemoveRing { own_move } => Some(own_move),
            _ => None,
        }
    }

    /// How the game ended, once it has.
    pub const fn ending(&self) -> Option<Ending> {
        match self.stage {
            Stage::Over(e) => Some(e),
            _ => None,
        }
    }

    /// The result, once the game is over.
    pub const fn outcome(&self) -> Option<Outcome> {
        match self.stage {
            Stage::Over(e) => Some(e.outcome),
            _ => None,
        }
    }

    /// Whether the game has ended.
    pub const fn is_over(&self) -> bool {
        matches!(self.stage, Stage::Over(_))
    }

    /// Rings `color` has removed (its score).
    pub const fn rings_removed(&self, color: Color) -> u8 {
        self.removed[color.index()]
    }

    /// Rings `color` has on the board.
    pub const fn rings_on_board(&self, color: Color) -> u8 {
        self.rings[color.index()].count_ones() as u8
    }

    /// Markers showing `color` on the board.
    pub const fn markers_of(&self, color: Color) -> u8 {
        self.markers[color.index()].count_ones() as u8
    }

    /// Markers on the board, both colours.
    pub const fn markers_on_board(&self) -> u8 {
        (self.markers[0] | self.markers[1]).count_ones() as u8
    }

    /// Markers left in the pool.
    pub const fn markers_in_pool(&self) -> u8 {
        self.pool
    }

    /// What stands on `p`.
    pub fn piece_at(&self, p: Point) -> Option<Piece> {
        let b = p.bit();
        for c in Color::BOTH {
            if self.rings[c.index()] & b != 0 {
                return Some(Piece::Ring(c));
            }
            if self.markers[c.index()] & b != 0 {
                return Some(Piece::Marker(c));
            }
        }
        None
    }

    /// The rings of `color` on the board, in `Point::ALL` order.
    pub fn rings(&self, color: Color) -> impl Iterator<Item = Point> + use<> {
        points_of(self.rings[color.index()])
    }

    /// The markers of `color` on the board, in `Point::ALL` order.
    pub fn markers(&self, color: Color) -> impl Iterator<Item = Point> + use<> {
        points_of(self.markers[color.index()])
    }

    /// Every row (5-window) of `color` on the board now, by axis and first point. Each
    /// window of a longer line is listed.
    pub fn rows(&self, color: Color) -> impl Iterator<Item = Row> + use<> {
        rows_in(self.markers[color.index()])
    }

    /// How many rows (5-windows) of `color` are on the board.
    pub const fn row_count(&self, color: Color) -> u32 {
        count_rows(self.markers[color.index()])
    }

    /// Does `color` have at least one row of markers on the board?
    pub const fn has_row(&self, color: Color) -> bool {
        has_row(self.markers[color.index()])
    }

    // ----- legality -----------------------------------------------------------------

    /// All legal actions.
    pub fn legal_actions(&self) -> ActionList {
        let mut list = ActionList::new();
        self.legal_actions_into(&mut list);
        list
    }

    /// Replace the contents of `list` with all legal actions: `legal_actions` without
    /// building a new list, for loops that generate at every step.
    ///
    /// ```
    /// use yinsh_pbem::rules::{ActionList, Game, Variant};
    /// let mut list = ActionList::new();
    /// Game::new(Variant::Normal).legal_actions_into(&mut list);
    /// assert_eq!(list.len(), 85);
    /// ```
    pub fn legal_actions_into(&self, list: &mut ActionList) {
        list.refill(|out| self.for_each_legal_action(|a| out.push(a)));
    }

    /// Call `f` on every legal action, in `legal_actions` order, without listing them.
    #[inline(always)]
    pub(crate) fn for_each_legal_action(&self, mut f: impl FnMut(Action)) {
        let me = self.to_act.index();
        match self.stage {
            Stage::Over(_) => {}
            Stage::Place => {
                for_each_point(VALID & !(self.rings[0] | self.rings[1]), |p| {
                    f(Action::Place(p));
                });
            }
            Stage::Move => {
                let (occupied, markers) = self.occupancy();
                for_each_ring_landings(self.rings[me], occupied, markers, |from, to| {
                    for_each_point(to, |to| f(Action::Move { from, to }));
                });
            }
            Stage::Pass => f(Action::Pass),
            Stage::RemoveRow { .. } => {
                for r in rows_in(self.markers[me]) {
                    f(Action::RemoveRow(r));
                }
            }
            Stage::RemoveRing { .. } => {
                for p in points_of(self.rings[me]) {
                    f(Action::RemoveRing(p));
                }
            }
        }
    }

    /// The number of legal actions, without listing them.
    pub fn count_legal_actions(&self) -> u64 {
        let me = self.to_act.index();
        match self.stage {
            Stage::Over(_) => 0,
            Stage::Place => (VALID & !(self.rings[0] | self.rings[1])).count_ones() as u64,
            Stage::Move => {
                let (occupied, markers) = self.occupancy();
                count_landings(self.rings[me], occupied, markers) as u64
            }
            Stage::Pass => 1,
            Stage::RemoveRow { .. } => count_rows(self.markers[me]) as u64,
            Stage::RemoveRing { .. } => self.rings[me].count_ones() as u64,
        }
    }

    /// Rings and markers of both sides, and the markers of both sides.
    #[inline(always)]
    fn occupancy(&self) -> (u128, u128) {
        let markers = self.markers[0] | self.markers[1];
        (self.rings[0] | self.rings[1] | markers, markers)
    }

    /// Whether `color` has at least one ring move on this board.
    pub fn has_ring_move(&self, color: Color) -> bool {
        let (occupied, markers) = self.occupancy();
        any_landing(self.rings[color.index()], occupied, markers)
    }

    /// The rings of `color` as bits (`Point::bit`'s), for the board's questions
    /// (questions.rs).
    #[inline(always)]
    pub(super) const fn ring_bits(&self, color: Color) -> u128 {
        self.rings[color.index()]
    }

    /// The markers of `color` as bits, for the board's questions (questions.rs).
    #[inline(always)]
    pub(super) const fn marker_bits(&self, color: Color) -> u128 {
        self.markers[color.index()]
    }

    /// Is `action` legal now? `Ok` if so, else the reason.
    pub fn check(&self, action: Action) -> Result<(), IllegalAction> {
        let me = self.to_act.index();
        let found = action.kind();
        match (self.stage, action) {
            (Stage::Over(_), _) => Err(IllegalAction::GameOver),
            (Stage::Place, Action::Place(p)) => {
                if (self.rings[0] | self.rings[1]) & p.bit() != 0 {
                    Err(IllegalAction::Occupied(p))
                } else {
                    Ok(())
                }
            }
            (Stage::Move, Action::Move { from, to }) => self.check_move(from, to),
            (Stage::Move, Action::Pass) => Err(IllegalAction::CannotPass),
            (Stage::Pass, Action::Pass) => Ok(()),
            (Stage::Pass, Action::Move { from, to }) => {
                self.check_move(from, to).and(Err(IllegalAction::MustPass))
            }
            (Stage::Pass, _) => Err(IllegalAction::MustPass),
            (Stage::RemoveRow { .. }, Action::RemoveRow(r)) => {
                if self.markers[me] & r.mask() == r.mask() {
                    Ok(())
                } else {
                    Err(IllegalAction::NotYourRow(r))
                }
            }
            (Stage::RemoveRing { .. }, Action::RemoveRing(p)) => {
                if self.rings[me] & p.bit() != 0 {
                    Ok(())
                } else {
                    Err(IllegalAction::NotYourRing(p))
                }
            }
            (Stage::RemoveRow { .. }, _) => Err(IllegalAction::RemovalOwed {
                expected: ActionKind::RemoveRow,
            }),
            (Stage::RemoveRing { .. }, _) => Err(IllegalAction::RemovalOwed {
                expected: ActionKind::RemoveRing,
            }),
            (Stage::Place, _) => Err(IllegalAction::WrongPhase {
                expected: ActionKind::Place,
                found,
            }),
            (Stage::Move, _) => Err(IllegalAction::WrongPhase {
                expected: ActionKind::Move,
                found,
            }),
        }
    }

    /// Why the ring move `from`-`to` is illegal for the side to act, if it is
    /// (yinsh-rules.md §3, rule 2).
    #[inline]
    fn check_move(&self, from: Point, to: Point) -> Result<(), IllegalAction> {
        if self.rings[self.to_act.index()] & from.bit() == 0 {
            return Err(IllegalAction::NotYourRing(from));
        }
        if self.ring_path(from, to).is_some() {
            return Ok(());
        }
        self.why_illegal_move(from, to)
    }

    /// The points a ring on `from` passes over moving to `to`, if that is a legal
    /// ring move on this board (whoever owns the ring).
    #[inline(always)]
    fn ring_path(&self, from: Point, to: Point) -> Option<u128> {
        let markers = self.markers[0] | self.markers[1];
        let rings = self.rings[0] | self.rings[1];
        ring_path(from.bit_index(), to.bit_index(), rings, markers)
    }

    /// The reason the ring move `from`-`to` of a ring of the side to act is illegal,
    /// found by stepping along the line; `Ok` if it is legal after all.
    #[cold]
    fn why_illegal_move(&self, from: Point, to: Point) -> Result<(), IllegalAction> {
        let (dir, len) = Axis::between(from, to).ok_or(IllegalAction::NotInLine { from, to })?;
        let rings = self.rings[0] | self.rings[1];
        let markers = self.markers[0] | self.markers[1];
        let mut first_marker: Option<Point> = None;
        let mut last_marker = from;
        let mut p = from;
        for _ in 1..len {
            p = dir.step(p).ok_or(IllegalAction::NotInLine { from, to })?;
            if rings & p.bit() != 0 {
                return Err(IllegalAction::JumpsRing { from, to, at: p });
            }
            if markers & p.bit() != 0 {
                first_marker.get_or_insert(p);
                last_marker = p;
            } else if let Some(first) = first_marker {
                return Err(IllegalAction::PastMarkers {
                    first,
                    last: last_marker,
                    stop: p,
                });
            }
        }
        if rings & to.bit() != 0 {
            return Err(IllegalAction::OntoRing(to));
        }
        if markers & to.bit() != 0 {
            return Err(IllegalAction::OntoMarker(to));
        }
        Ok(())
    }

    // ----- playing ------------------------------------------------------------------

    /// Play one atomic action, or refuse it with the reason and change nothing.
    pub fn play(&mut self, action: Action) -> Result<(), IllegalAction> {
        // The common case in one pass: the legality test yields the points jumped.
        if let (Stage::Move, Action::Move { from, to }) = (self.stage, action)
            && self.rings[self.to_act.index()] & from.bit() != 0
            && let Some(path) = self.ring_path(from, to)
        {
            self.apply_move(from, to, path);
            return Ok(());
        }
        self.check(action)?;
        self.apply(action);
        Ok(())
    }

    /// The game after `action`, if it is legal.
    pub fn after(&self, action: Action) -> Result<Game, IllegalAction> {
        let mut g = *self;
        g.play(action)?;
        Ok(g)
    }

    /// `side` resigns (yinsh-rules.md §4): the other side wins at once.
    pub fn resign(&mut self, side: Color) -> Result<(), IllegalAction> {
        if self.is_over() {
            return Err(IllegalAction::GameOver);
        }
        self.stage = Stage::Over(Ending {
            outcome: Outcome::Win(side.other()),
            reason: EndReason::Resignation,
        });
        Ok(())
    }

    /// End the game as a draw agreed by both players (recorded as
    /// `EndReason::Agreement` with `Outcome::Draw`).
    pub fn agree_draw(&mut self) -> Result<(), IllegalAction> {
        if self.is_over() {
            return Err(IllegalAction::GameOver);
        }
        self.stage = Stage::Over(Ending {
            outcome: Outcome::Draw,
            reason: EndReason::Agreement,
        });
        Ok(())
    }

    /// Play an action already known to be legal.
    #[inline]
    pub(crate) fn apply(&mut self, action: Action) {
        let me = self.to_act;
        let mi = me.index();
        match action {
            Action::Place(p) => {
                self.rings[mi] |= p.bit();
                self.to_act = me.other();
                if (self.rings[0] | self.rings[1]).count_ones() as u8 == 2 * RINGS {
                    self.start_ring_move(self.to_act);
                }
            }
            Action::Move { from, to } => {
                self.apply_move(from, to, between(from.bit_index(), to.bit_index()));
            }
            Action::Pass => self.start_ring_move(me.other()),
            Action::RemoveRow(r) => {
                self.markers[mi] &= !r.mask();
                self.pool += 5;
                if let Stage::RemoveRow { own_move } = self.stage {
                    self.stage = Stage::RemoveRing { own_move };
                }
            }
            Action::RemoveRing(p) => {
                self.rings[mi] &= !p.bit();
                self.removed[mi] += 1;
                let own_move = matches!(self.stage, Stage::RemoveRing { own_move: true });
                if self.removed[mi] >= self.variant.rings_to_win() {
                    self.stage = Stage::Over(Ending {
                        outcome: Outcome::Win(me),
                        reason: EndReason::RingsRemoved,
                    });
                } else if has_row(self.markers[mi]) {
                    self.stage = Stage::RemoveRow { own_move };
                } else if own_move {
                    self.hand_over(me);
                } else {
                    self.start_ring_move(me);
                }
            }
        }
    }

    /// Play the ring move `from`-`to` of the side to act, known to be legal; `path`
    /// holds the points strictly between.
    #[inline]
    fn apply_move(&mut self, from: Point, to: Point, path: u128) {
        let me = self.to_act;
        let mi = me.index();
        self.pool -= 1;
        self.markers[mi] |= from.bit();
        self.rings[mi] ^= from.bit() | to.bit();
        let flipped = path & (self.markers[0] | self.markers[1]);
        let turned_to_opponent = flipped & self.markers[mi];
        self.markers[0] ^= flipped;
        self.markers[1] ^= flipped;
        if has_row(self.markers[mi]) {
            self.stage = Stage::RemoveRow { own_move: true };
        } else if turned_to_opponent == 0 {
            // No side has a row when a ring move starts (every row is removed before
            // it), so the opponent can only have one now through a marker this move
            // turned to its colour.
            self.start_ring_move(me.other());
        } else {
            self.hand_over(me);
        }
    }

    /// `me` has finished its turn: the opponent removes the rows made for it, then moves.
    fn hand_over(&mut self, me: Color) {
        let opp = me.other();
        self.to_act = opp;
        if has_row(self.markers[opp.index()]) {
            self.stage = Stage::RemoveRow { own_move: false };
        } else {
            self.start_ring_move(opp);
        }
    }

    /// `side` must now move a ring (yinsh-rules.md §4): the game may end instead for
    /// an empty pool or when neither side can move, or `side` must pass.
    fn start_ring_move(&mut self, side: Color) {
        self.to_act = side;
        self.stage = if self.pool == 0 {
            Stage::Over(self.end_by_count(EndReason::MarkersExhausted))
        } else if self.has_ring_move(side) {
            Stage::Move
        } else if self.has_ring_move(side.other()) {
            Stage::Pass
        } else {
            Stage::Over(self.end_by_count(EndReason::BothBlocked))
        };
    }

    fn end_by_count(&self, reason: EndReason) -> Ending {
        let (w, b) = (self.removed[0], self.removed[1]);
        let outcome = match w.cmp(&b) {
            std::cmp::Ordering::Greater => Outcome::Win(Color::White),
            std::cmp::Ordering::Less => Outcome::Win(Color::Black),
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        Ending { outcome, reason }
    }
}
