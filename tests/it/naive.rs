//! A second, deliberately naive YINSH generator, written straight from yinsh-rules.md
//! §1-§4 and §6 to cross-check the engine (perft.rs, playouts.rs). No bitboards and no
//! stored phase: the board is a map Point -> piece, rays are walked with
//! `Point::from_coords`, rows are found by testing every window, and what the side to
//! act must do is worked out afresh from the position each time it is asked.
//!
//! Also here: `Spec`, one written position (rings, markers, removed rings, side to
//! move, then actions) that builds the same position for both generators: for the
//! engine through `rules::Setup` and legal play, for the naive one directly.

use std::collections::HashMap;

use yinsh_pbem::rules::{
    Action, ActionKind, Color, EndReason, Ending, Game, Outcome, Piece, Point, Row, Setup, Variant,
};

/// The six directions, as (letter step, number step) (§1; (1,-1) is not a line).
const STEPS: [(i32, i32); 6] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, -1)];

/// Markers in the game (§2).
const MARKERS: u8 = 51;

/// What the side to act must do, or how the game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// The game is over.
    Over(Ending),
    /// `side` must do one of `actions`, all of kind `kind`.
    Act {
        side: Color,
        kind: ActionKind,
        actions: Vec<Action>,
    },
}

/// A naive YINSH position.
#[derive(Debug, Clone)]
pub struct Naive {
    variant: Variant,
    board: HashMap<Point, Piece>,
    removed: [u8; 2],
    pool: u8,
    /// Whose turn it is. Every action of a turn, including the removals owed at its
    /// start (§3.6), is made by this side.
    turn: Color,
    /// The turn's ring move (or pass) has been made.
    moved: bool,
    /// A row has been removed and one of the side's rings must follow (§3.4).
    ring_owed: bool,
}

fn idx(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Naive {
    /// The empty board, White to place.
    pub fn new(variant: Variant) -> Naive {
        Naive {
            variant,
            board: HashMap::new(),
            removed: [0, 0],
            pool: MARKERS,
            turn: Color::White,
            moved: false,
            ring_owed: false,
        }
    }

    /// A position at the start of `to_move`'s turn.
    pub fn from_pieces(
        variant: Variant,
        pieces: &[(Point, Piece)],
        removed: [u8; 2],
        to_move: Color,
    ) -> Naive {
        let mut n = Naive::new(variant);
        for &(p, piece) in pieces {
            assert!(n.board.insert(p, piece).is_none(), "{p} twice");
            if matches!(piece, Piece::Marker(_)) {
                n.pool -= 1;
            }
        }
        n.removed = removed;
        n.turn = to_move;
        n
    }

    /// What stands on `p`.
    pub fn piece_at(&self, p: Point) -> Option<Piece> {
        self.board.get(&p).copied()
    }

    /// Markers left in the pool.
    pub fn pool(&self) -> u8 {
        self.pool
    }

    /// Rings removed by `c`.
    pub fn removed(&self, c: Color) -> u8 {
        self.removed[idx(c)]
    }

    fn rings_placed(&self) -> usize {
        let on_board = self
            .board
            .values()
            .filter(|p| matches!(p, Piece::Ring(_)))
            .count();
        on_board + self.removed.iter().map(|&r| r as usize).sum::<usize>()
    }

    /// Every 5-window of markers of `c` (§3.3: rings never count).
    pub fn rows(&self, c: Color) -> Vec<Row> {
        Row::ALL
            .iter()
            .copied()
            .filter(|r| {
                r.points()
                    .iter()
                    .all(|p| self.piece_at(*p) == Some(Piece::Marker(c)))
            })
            .collect()
    }

    /// Every ring move of `c` (§3.2), walking each ray point by point.
    pub fn moves(&self, c: Color) -> Vec<Action> {
        let mut out = Vec::new();
        let mut rings: Vec<Point> = self
            .board
            .iter()
            .filter(|(_, piece)| **piece == Piece::Ring(c))
            .map(|(p, _)| *p)
            .collect();
        rings.sort();
        for from in rings {
            for (dl, dn) in STEPS {
                let mut jumped = false;
                for k in 1.. {
                    let Some(to) = Point::from_coords(
                        from.column() as i32 + k * dl,
                        from.number() as i32 + k * dn,
                    ) else {
                        break; // off the board: no landing point (§3.2)
                    };
                    match self.piece_at(to) {
                        Some(Piece::Ring(_)) => break, // never over or onto a ring
                        Some(Piece::Marker(_)) => jumped = true,
                        None => {
                            out.push(Action::Move { from, to });
                            if jumped {
                                break; // the first empty point after the group
                            }
                        }
                    }
                }
            }
        }
        out
    }

    fn count(&self, reason: EndReason) -> Ending {
        let (w, b) = (self.removed[0], self.removed[1]);
        let outcome = if w > b {
            Outcome::Win(Color::White)
        } else if b > w {
            Outcome::Win(Color::Black)
        } else {
            Outcome::Draw
        };
        Ending { outcome, reason }
    }

    /// What must happen now, worked out from the position (§3, §4).
    pub fn status(&self) -> Status {
        let act = |kind, actions| Status::Act {
            side: self.turn,
            kind,
            actions,
        };
        for c in [Color::White, Color::Black] {
            if self.removed[idx(c)] >= self.variant.rings_to_win() {
                return Status::Over(Ending {
                    outcome: Outcome::Win(c),
                    reason: EndReason::RingsRemoved,
                });
            }
        }
        if self.rings_placed() < 10 {
            let empty = Point::ALL
                .iter()
                .filter(|p| self.piece_at(**p).is_none())
                .map(|&p| Action::Place(p))
                .collect();
            return act(ActionKind::Place, empty);
        }
        if self.ring_owed {
            let mut own: Vec<Action> = self
                .board
                .iter()
                .filter(|(_, piece)| **piece == Piece::Ring(self.turn))
                .map(|(p, _)| Action::RemoveRing(*p))
                .collect();
            own.sort_by_key(|a| a.to_string());
            return act(ActionKind::RemoveRing, own);
        }
        let rows = self.rows(self.turn);
        if !rows.is_empty() {
            return act(
                ActionKind::RemoveRow,
                rows.into_iter().map(Action::RemoveRow).collect(),
            );
        }
        assert!(!self.moved, "normalise() ends a finished turn");
        if self.pool == 0 {
            return Status::Over(self.count(EndReason::MarkersExhausted));
        }
        let moves = self.moves(self.turn);
        if !moves.is_empty() {
            return act(ActionKind::Move, moves);
        }
        if !self.moves(self.turn.other()).is_empty() {
            return act(ActionKind::Pass, vec![Action::Pass]);
        }
        Status::Over(self.count(EndReason::BothBlocked))
    }

    /// The legal actions (empty when the game is over).
    pub fn legal(&self) -> Vec<Action> {
        match self.status() {
            Status::Over(_) => Vec::new(),
            Status::Act { actions, .. } => actions,
        }
    }

    /// Play `a`, which must be one of `legal()`.
    pub fn apply(&mut self, a: Action) {
        let me = self.turn;
        match a {
            Action::Place(p) => {
                self.board.insert(p, Piece::Ring(me));
                self.turn = me.other();
            }
            Action::Move { from, to } => {
                self.pool -= 1;
                self.board.insert(from, Piece::Marker(me));
                let dl = (to.column() as i32 - from.column() as i32).signum();
                let dn = (to.number() as i32 - from.number() as i32).signum();
                let mut k = 1;
                loop {
                    let p = Point::from_coords(
                        from.column() as i32 + k * dl,
                        from.number() as i32 + k * dn,
                    )
                    .expect("a legal move stays on the board");
                    if p == to {
                        break;
                    }
                    if let Some(Piece::Marker(c)) = self.piece_at(p) {
                        self.board.insert(p, Piece::Marker(c.other()));
                    }
                    k += 1;
                }
                self.board.insert(to, Piece::Ring(me));
                self.moved = true;
            }
            Action::Pass => self.moved = true,
            Action::RemoveRow(r) => {
                for p in r.points() {
                    self.board.remove(&p);
                }
                self.pool += 5;
                self.ring_owed = true;
            }
            Action::RemoveRing(p) => {
                self.board.remove(&p);
                self.removed[idx(me)] += 1;
                self.ring_owed = false;
            }
        }
        // A turn ends once its ring move (or pass) is made and the side's own rows are
        // all removed; the opponent's turn then starts with the rows made for it.
        if self.moved && !self.ring_owed && self.rows(me).is_empty() {
            self.turn = me.other();
            self.moved = false;
        }
    }

    /// Play `a` if it is listed, else panic naming it.
    pub fn play(&mut self, a: Action) {
        assert!(self.legal().contains(&a), "naive: {a} is not legal");
        self.apply(a);
    }
}

/// The naive perft (§6): action sequences of length `depth`; a finished game has no
/// children.
pub fn perft(n: &Naive, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let actions = n.legal();
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|&a| {
            let mut child = n.clone();
            child.apply(a);
            perft(&child, depth - 1)
        })
        .sum()
}

/// The points of a space-separated list; `c3..c7` stands for the points from c3 to c7
/// on their line.
pub fn pts(text: &str) -> Vec<Point> {
    let mut out = Vec::new();
    for tok in text.split_whitespace() {
        match tok.split_once("..") {
            Some((a, b)) => {
                let (a, b): (Point, Point) = (a.parse().unwrap(), b.parse().unwrap());
                let dl = b.column() as i32 - a.column() as i32;
                let dn = b.number() as i32 - a.number() as i32;
                assert!(dl == 0 || dn == 0 || dl == dn, "{tok} is not along a line");
                let steps = dl.abs().max(dn.abs());
                for k in 0..=steps {
                    out.push(
                        Point::from_coords(
                            a.column() as i32 + k * dl.signum(),
                            a.number() as i32 + k * dn.signum(),
                        )
                        .unwrap(),
                    );
                }
            }
            None => out.push(tok.parse().unwrap()),
        }
    }
    out
}

/// The points of `text` (see `pts`) split into White's and Black's markers by the
/// pattern of `Spec::filled`: Black where letter + number is 1 modulo 3. Along every
/// line the pattern runs W B W W B W W ..., so no subset of it holds a row.
pub fn patterned(text: &str) -> [&'static str; 2] {
    let mut out = [String::new(), String::new()];
    for p in pts(text) {
        let c = if (p.column() + p.number()) % 3 == 1 {
            Color::Black
        } else {
            Color::White
        };
        out[idx(c)].push_str(&format!(" {p}"));
    }
    let [w, b] = out;
    [w.leak(), b.leak()]
}

/// A position written as text: at the start of `to_move`'s turn, then `then` (atomic
/// actions, space separated) played from there.
#[derive(Debug, Clone, Copy)]
pub struct Spec {
    pub variant: Variant,
    /// Rings of White, Black (see `pts`).
    pub rings: [&'static str; 2],
    /// Markers of White, Black (see `pts`).
    pub markers: [&'static str; 2],
    /// Rings already removed by White, Black.
    pub removed: [u8; 2],
    pub to_move: Color,
    /// Actions played after the set-up, in the engine's text form.
    pub then: &'static str,
}

impl Default for Spec {
    fn default() -> Spec {
        Spec {
            variant: Variant::Normal,
            rings: ["", ""],
            markers: ["", ""],
            removed: [0, 0],
            to_move: Color::White,
            then: "",
        }
    }
}

impl Spec {
    fn pieces(&self) -> Vec<(Point, Piece)> {
        let mut out = Vec::new();
        for c in [Color::White, Color::Black] {
            out.extend(
                pts(self.rings[idx(c)])
                    .into_iter()
                    .map(|p| (p, Piece::Ring(c))),
            );
            out.extend(
                pts(self.markers[idx(c)])
                    .into_iter()
                    .map(|p| (p, Piece::Marker(c))),
            );
        }
        out
    }

    /// This position with `n` more markers on empty points, taken in `Point::ALL` order
    /// and skipping `keep_empty`. Each shows White, or Black where letter + number is 1
    /// modulo 3 (a pattern with no five alike on any line), switched to the other colour
    /// where the pattern colour would complete a row with the markers already there.
    pub fn filled(self, n: usize, keep_empty: &str) -> Spec {
        let keep = pts(keep_empty);
        let mut board: HashMap<Point, Piece> = self.pieces().into_iter().collect();
        let mut added = [String::new(), String::new()];
        let makes_row = |board: &HashMap<Point, Piece>, p: Point, c: Color| {
            Row::ALL.iter().any(|r| {
                r.contains(p)
                    && r.points()
                        .iter()
                        .all(|&q| q == p || board.get(&q) == Some(&Piece::Marker(c)))
            })
        };
        let mut left = n;
        for &p in &Point::ALL {
            if left == 0 {
                break;
            }
            if board.contains_key(&p) || keep.contains(&p) {
                continue;
            }
            let pattern = if (p.column() + p.number()) % 3 == 1 {
                Color::Black
            } else {
                Color::White
            };
            let c = if makes_row(&board, p, pattern) {
                pattern.other()
            } else {
                pattern
            };
            assert!(!makes_row(&board, p, c), "no colour fits {p}");
            board.insert(p, Piece::Marker(c));
            added[idx(c)].push_str(&format!(" {p}"));
            left -= 1;
        }
        assert_eq!(left, 0, "not enough empty points for {n} markers");
        let join = |old: &str, new: &str| -> &'static str { format!("{old}{new}").leak() };
        Spec {
            markers: [
                join(self.markers[0], &added[0]),
                join(self.markers[1], &added[1]),
            ],
            ..self
        }
    }

    /// The `Setup` of the position before `then`.
    pub fn setup(&self) -> Setup {
        let mut s = Setup::new(self.variant).to_move(self.to_move);
        for c in [Color::White, Color::Black] {
            s = s
                .rings(c, pts(self.rings[idx(c)]))
                .markers(c, pts(self.markers[idx(c)]))
                .removed(c, self.removed[idx(c)]);
        }
        s
    }

    /// The actions of `then`.
    pub fn actions(&self) -> Vec<Action> {
        self.then
            .split_whitespace()
            .map(|t| t.parse().unwrap_or_else(|e| panic!("{t}: {e}")))
            .collect()
    }

    /// The engine's game: built by `Setup`, then `then` played.
    pub fn game(&self) -> Game {
        let mut g = self
            .setup()
            .build()
            .unwrap_or_else(|e| panic!("setup refused: {e}"));
        for a in self.actions() {
            g.play(a).unwrap_or_else(|e| panic!("{a}: {e}"));
        }
        g
    }

    /// The naive position: the same pieces, then `then` played.
    pub fn naive(&self) -> Naive {
        let mut n = Naive::from_pieces(self.variant, &self.pieces(), self.removed, self.to_move);
        for a in self.actions() {
            n.play(a);
        }
        n
    }
}

/// Sort actions by their text, to compare lists as sets.
pub fn sorted(actions: impl IntoIterator<Item = Action>) -> Vec<String> {
    let mut v: Vec<String> = actions.into_iter().map(|a| a.to_string()).collect();
    v.sort();
    v
}

/// Assert that the engine and the naive generator agree on this position: pieces,
/// pool, scores, who acts, what kind of action, the set of legal actions, the ending.
pub fn assert_agree(game: &Game, naive: &Naive, context: &str) {
    for &p in &Point::ALL {
        assert_eq!(
            game.piece_at(p),
            naive.piece_at(p),
            "{context}: piece at {p}"
        );
    }
    assert_eq!(game.markers_in_pool(), naive.pool(), "{context}: pool");
    for c in [Color::White, Color::Black] {
        assert_eq!(
            game.rings_removed(c),
            naive.removed(c),
            "{context}: removed"
        );
    }
    match naive.status() {
        Status::Over(ending) => {
            assert_eq!(game.ending(), Some(ending), "{context}: ending");
            assert!(game.legal_actions().is_empty(), "{context}");
        }
        Status::Act {
            side,
            kind,
            actions,
        } => {
            assert_eq!(game.to_act(), Some(side), "{context}: side to act");
            assert_eq!(game.expects(), Some(kind), "{context}: expected kind");
            assert_eq!(
                sorted(game.legal_actions().iter().copied()),
                sorted(actions),
                "{context}: legal actions"
            );
        }
    }
}

#[test]
fn naive_windows_are_the_123_rows_section_1() {
    // The naive scan trusts Row::ALL; check it against windows built from coordinates.
    let mut built = Vec::new();
    for &p in &Point::ALL {
        for (dl, dn) in [(0, 1), (1, 0), (1, 1)] {
            let five: Option<Vec<Point>> = (0..5)
                .map(|k| Point::from_coords(p.column() as i32 + k * dl, p.number() as i32 + k * dn))
                .collect();
            if let Some(five) = five {
                built.push(five);
            }
        }
    }
    let mut engine: Vec<Vec<Point>> = Row::ALL.iter().map(|r| r.points().to_vec()).collect();
    built.sort();
    engine.sort();
    assert_eq!(built.len(), 123);
    assert_eq!(built, engine);
}

#[test]
fn naive_agrees_with_the_engine_on_the_empty_board_section_6() {
    let game = Game::new(Variant::Normal);
    let naive = Naive::new(Variant::Normal);
    assert_agree(&game, &naive, "empty board");
    assert_eq!(perft(&naive, 2), 7140);
}
