//! A written turn (syntax: [`Part`], [`WrittenTurn`]) and its meaning against a
//! [`Game`] (the atomic [`Action`]s it stands for), kept apart as shakmaty keeps San
//! apart from Move; and the printer that writes a turn's actions back in the
//! canonical form (yinsh-rules.md §5).
//!
//! A turn of side P starts when P is to act. It is: the removals owed for rows the
//! opponent made for P, then a placement, a ring move or `--`, then P's own removals.
//! It is complete when the game is over or the side to act is no longer P.

use std::str::FromStr;

use super::error::{NotationError, ParseError, PartAt, TurnError};
use super::grammar;
use super::mend::mend;
use super::written::{Part, WrittenTurn};
use crate::rules::{Action, ActionKind, Color, Game, IllegalAction, Piece, Point, Row};

impl FromStr for WrittenTurn {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<WrittenTurn, ParseError> {
        parse_turn(s)
    }
}

/// Read one whole turn (yinsh-rules.md §5): any case, `;` or `:` between parts,
/// optional spaces and `#N`.
///
/// ```
/// use yinsh_pbem::notation::{Part, parse_turn};
/// let t = parse_turn("i8-f5;xa5").unwrap();
/// assert_eq!(t.parts[1], Part::Removal { row: None, ring: "a5".parse().unwrap() });
/// assert!(parse_turn("i8-f5;").is_err());
/// ```
pub fn parse_turn(input: &str) -> Result<WrittenTurn, ParseError> {
    grammar::parse(input).or_else(|error| {
        mend(input)
            .and_then(|mended| grammar::parse(&mended).ok())
            .ok_or(error)
    })
}

impl WrittenTurn {
    /// The atomic actions this turn stands for in `game`, or why it does not fit.
    /// `game` is not changed. A forced pass after the removals owed at the start of
    /// the turn is appended when not written.
    pub fn resolve(&self, game: &Game) -> Result<Vec<Action>, TurnError> {
        resolve(&self.parts, game).map(|(actions, _)| actions)
    }

    /// Resolve and play the turn on `game`; on error `game` is unchanged.
    pub fn play(&self, game: &mut Game) -> Result<Vec<Action>, TurnError> {
        let (actions, after) = resolve(&self.parts, game)?;
        *game = after;
        Ok(actions)
    }
}

/// Parse `text`, resolve it against `game` and play it. On error `game` is unchanged.
///
/// ```
/// use yinsh_pbem::notation::play_turn;
/// use yinsh_pbem::rules::{Game, Variant};
/// let mut game = Game::new(Variant::Normal);
/// play_turn(&mut game, "E5").unwrap();
/// let e = play_turn(&mut game, "e5").unwrap_err();
/// assert!(e.to_string().starts_with("e5 is not empty"));
/// ```
pub fn play_turn(game: &mut Game, text: &str) -> Result<Vec<Action>, NotationError> {
    Ok(parse_turn(text)?.play(game)?)
}

/// Whether the turn `side` began is over in `game`: the game is over, or the other
/// side is to act. This is where every reader and writer of a game (the server's
/// move list, [`split_turns`](super::split_turns), transcripts, records) cuts turns,
/// so removals owed at the start of a turn and the forced pass after them are one
/// turn (`xi4-i8xk7;--`).
///
/// ```
/// use yinsh_pbem::notation::turn_over;
/// use yinsh_pbem::rules::{Color, Game, Variant};
/// let mut game = Game::new(Variant::Normal);
/// assert!(!turn_over(Color::White, &game));
/// game.play("e5".parse().unwrap()).unwrap();
/// assert!(turn_over(Color::White, &game));
/// ```
pub fn turn_over(side: Color, game: &Game) -> bool {
    game.to_act() != Some(side)
}

/// Whether the side to act must pass and owes no removal: the server then plays the
/// pass itself, as that side's whole turn (shown `--` (Auto)).
pub fn auto_pass_due(game: &Game) -> bool {
    game.expects() == Some(ActionKind::Pass)
}

/// The canonical text of one turn's actions: lower case, `;` between parts, every
/// removal written `x<row>x<ring>` with the row's canonical ends, a pass `--`.
///
/// ```
/// use yinsh_pbem::notation::write_turn;
/// use yinsh_pbem::rules::Action;
/// let actions: Vec<Action> = ["xg9-g5", "xa5", "d3-b3"].iter().map(|s| s.parse().unwrap()).collect();
/// assert_eq!(write_turn(&actions), "xg5-g9xa5;d3-b3");
/// ```
pub fn write_turn(actions: &[Action]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < actions.len() {
        match (actions[k], actions.get(k + 1)) {
            (Action::RemoveRow(row), Some(Action::RemoveRing(ring))) => {
                parts.push(format!("x{row}x{ring}"));
                k += 2;
            }
            (a, _) => {
                parts.push(a.to_string());
                k += 1;
            }
        }
    }
    parts.join(";")
}

/// The actions of `parts` and the game after them.
fn resolve(parts: &[Part], start: &Game) -> Result<(Vec<Action>, Game), TurnError> {
    let mut g = *start;
    let Some(me) = g.to_act() else {
        return Err(TurnError::GameOver {
            outcome: g.outcome(),
        });
    };
    if parts.is_empty() {
        return Err(TurnError::Empty);
    }
    let count = parts.len();
    let at = |k: usize| PartAt {
        index: k + 1,
        count,
        part: parts[k],
    };
    let mut actions = Vec::new();
    for (k, &part) in parts.iter().enumerate() {
        if turn_over(me, &g) {
            let extra: Vec<String> = parts[k..].iter().map(|p| p.to_string()).collect();
            return Err(TurnError::ExtraParts {
                after: parts[k.saturating_sub(1)].to_string(),
                extra: extra.join(";"),
                count: extra.len(),
                ended: g.outcome(),
            });
        }
        step(&mut g, me, part, at(k), &mut actions)?;
    }
    if !turn_over(me, &g) {
        let part = at(count - 1);
        match g.expects() {
            Some(ActionKind::Pass) => {
                g.play(Action::Pass)
                    .map_err(|reason| TurnError::Illegal { part, reason })?;
                actions.push(Action::Pass);
            }
            Some(ActionKind::RemoveRow | ActionKind::RemoveRing) => {
                return Err(TurnError::RemovalMissing {
                    part,
                    own_move: g.removing_after_own_move().unwrap_or(true),
                    rows: g.rows(me).collect(),
                    rings: g.rings(me).collect(),
                });
            }
            Some(ActionKind::Move) => {
                return Err(TurnError::MoveMissing {
                    part,
                    example: example_move(&g).unwrap_or(Action::Pass),
                });
            }
            // A placement always ends the turn; kept total for safety.
            Some(ActionKind::Place) | None => {
                return Err(TurnError::PlacementPhase {
                    part,
                    example: example_empty(&g),
                });
            }
        }
    }
    Ok((actions, g))
}

/// Resolve and play one part on `g` (whose side to act is `me`).
fn step(
    g: &mut Game,
    me: Color,
    part: Part,
    at: PartAt,
    actions: &mut Vec<Action>,
) -> Result<(), TurnError> {
    let expects = g.expects();
    match (expects, part) {
        (Some(ActionKind::Place), Part::Place(p)) => {
            play(g, Action::Place(p), actions).map_err(|reason| match reason {
                IllegalAction::Occupied(point) => TurnError::Occupied {
                    part: at,
                    point,
                    example: example_empty(g),
                },
                reason => TurnError::Illegal { part: at, reason },
            })
        }
        (Some(ActionKind::Place), Part::Pass) => Err(TurnError::PassWhilePlacing {
            part: at,
            example: example_empty(g),
        }),
        (Some(ActionKind::Place), _) => Err(TurnError::PlacementPhase {
            part: at,
            example: example_empty(g),
        }),
        (Some(ActionKind::RemoveRow), Part::Removal { row, ring }) => {
            removal(g, me, row, ring, at, actions)
        }
        (Some(ActionKind::RemoveRow | ActionKind::RemoveRing), _) => {
            let rows = g.rows(me).collect();
            let rings = g.rings(me).collect();
            if g.removing_after_own_move() == Some(false) {
                Err(TurnError::OwedRemovalFirst {
                    part: at,
                    rows,
                    rings,
                })
            } else {
                Err(TurnError::RemovalNotNext {
                    part: at,
                    rows,
                    rings,
                })
            }
        }
        (Some(ActionKind::Move), Part::Move { from, to }) => {
            let action = Action::Move { from, to };
            play(g, action, actions).map_err(|reason| move_error(g, me, from, reason, at))
        }
        (Some(ActionKind::Move), Part::Place(_)) => Err(TurnError::RingsAllPlaced {
            part: at,
            example: example_move(g).unwrap_or(Action::Pass),
        }),
        (Some(ActionKind::Move), Part::Pass) => Err(TurnError::CannotPass {
            part: at,
            example: example_move(g).unwrap_or(Action::Pass),
        }),
        (Some(ActionKind::Move), Part::Removal { .. }) => Err(TurnError::NoRowToRemove {
            part: at,
            example: example_move(g).unwrap_or(Action::Pass),
        }),
        (Some(ActionKind::Pass), Part::Pass) => {
            play(g, Action::Pass, actions).map_err(|reason| TurnError::Illegal { part: at, reason })
        }
        (Some(ActionKind::Pass), _) => Err(TurnError::MustPass { part: at }),
        (None, _) => Err(TurnError::GameOver {
            outcome: g.outcome(),
        }),
    }
}

/// Play `action` and record it.
fn play(g: &mut Game, action: Action, actions: &mut Vec<Action>) -> Result<(), IllegalAction> {
    g.play(action)?;
    actions.push(action);
    Ok(())
}

/// One removal: the row (named, or the only one there is), then the ring. The mover's
/// rows and rings are collected only to explain a refusal.
fn removal(
    g: &mut Game,
    me: Color,
    row: Option<(Point, Point)>,
    ring: Point,
    at: PartAt,
    actions: &mut Vec<Action>,
) -> Result<(), TurnError> {
    let row = match row {
        Some((from, to)) => {
            let Some(row) = Row::from_ends(from, to) else {
                return Err(TurnError::NotARow {
                    part: at,
                    from,
                    to,
                    yours: g.rows(me).collect(),
                });
            };
            if !g.rows(me).any(|r| r == row) {
                return Err(TurnError::NotYourRow {
                    part: at,
                    row,
                    yours: g.rows(me).collect(),
                });
            }
            row
        }
        None => {
            let mut yours = g.rows(me);
            match (yours.next(), yours.next()) {
                (Some(only), None) => only,
                _ => {
                    return Err(TurnError::AmbiguousRemoval {
                        part: at,
                        ring,
                        rows: g.rows(me).collect(),
                    });
                }
            }
        }
    };
    if g.piece_at(ring) != Some(Piece::Ring(me)) {
        return Err(TurnError::NotYourRing {
            part: at,
            point: ring,
            yours: g.rings(me).collect(),
        });
    }
    play(g, Action::RemoveRow(row), actions)
        .and_then(|()| play(g, Action::RemoveRing(ring), actions))
        .map_err(|reason| TurnError::Illegal { part: at, reason })
}

/// Explain a refused ring move from `from`.
fn move_error(g: &Game, me: Color, from: Point, reason: IllegalAction, at: PartAt) -> TurnError {
    match reason {
        IllegalAction::NotYourRing(point) => TurnError::NotYourRing {
            part: at,
            point,
            yours: g.rings(me).collect(),
        },
        IllegalAction::NotInLine { .. }
        | IllegalAction::JumpsRing { .. }
        | IllegalAction::OntoRing(_)
        | IllegalAction::OntoMarker(_)
        | IllegalAction::PastMarkers { .. } => TurnError::BadMove {
            part: at,
            reason,
            from,
            reachable: g
                .legal_actions()
                .iter()
                .filter_map(|a| match *a {
                    Action::Move { from: f, to } if f == from => Some(to),
                    _ => None,
                })
                .collect(),
        },
        reason => TurnError::Illegal { part: at, reason },
    }
}

/// An empty point to suggest for a placement: e5 when free.
fn example_empty(g: &Game) -> Point {
    let free = |p: &Point| g.piece_at(*p).is_none();
    ["e5", "f6"]
        .iter()
        .filter_map(|s| s.parse::<Point>().ok())
        .chain(Point::ALL)
        .find(free)
        .unwrap_or(Point::ALL[0])
}

/// A legal ring move to suggest.
fn example_move(g: &Game) -> Option<Action> {
    g.legal_actions()
        .iter()
        .copied()
        .find(|a| matches!(a, Action::Move { .. }))
}
