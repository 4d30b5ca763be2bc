//! Transcripts: a whole game as text, one turn per white-space separated token
//! (`e5`, `xg5-g9xa5;d3-b3`, ...), White's first; lines whose first non-blank
//! character is `#` are comments. Forced passes, which the server plays by itself,
//! may be left out or written `--`. A token may end in `#N`, the number the turn gets
//! in the move list (forced passes count); a wrong number is refused like an illegal
//! turn. Turns are cut where [`turn_over`] says, as the server's move list cuts them
//! ([`split_turns`]). [`play_transcript`] reads one (for `replay`, `render`, `export`)
//! and [`read_transcript`] makes it a [`Record`]; [`write_transcript`] writes a
//! [`Record`] as one, its players and any resignation or agreed draw in comments that
//! [`transcript_header`] reads back.

use std::fmt;

use super::error::NotationError;
use super::sgf::{Record, RecordEnd};
use super::turn::{auto_pass_due, parse_turn, turn_over, write_turn};
use super::written::{Part, WrittenTurn};
use crate::rules::{Action, Color, Game, IllegalAction, Variant};

/// A transcript played from the empty board.
#[derive(Clone, Debug)]
pub struct Played {
    /// The final position.
    pub game: Game,
    /// The number of turns in its move list (forced passes included).
    pub turns: u32,
    /// Every atomic action played, forced passes included.
    pub actions: Vec<Action>,
    /// The position before the last written turn, and that turn's actions (the
    /// empty board and no actions for an empty transcript). A forced pass after it
    /// changes nothing on the board.
    pub last_turn: (Game, Vec<Action>),
}

/// The first turn of a transcript that cannot be read or played.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("turn {turn} `{token}` (line {line}): {kind}")]
pub struct TranscriptError {
    /// Its number in the move list.
    pub turn: u32,
    /// The token as written.
    pub token: String,
    /// The line it is on, the first being 1.
    pub line: usize,
    /// What is wrong with it.
    pub kind: TranscriptErrorKind,
}

/// What is wrong with a turn of a transcript.
#[derive(Clone, Debug, PartialEq)]
pub enum TranscriptErrorKind {
    /// It is not a turn, or does not fit the game.
    Notation(NotationError),
    /// It carries `#N`, and N is not its number.
    Numbered {
        /// The number written.
        written: u32,
        /// Its number.
        actual: u32,
    },
    /// The forced pass before it cannot be played.
    Pass(IllegalAction),
}

impl fmt::Display for TranscriptErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptErrorKind::Notation(e @ NotationError::Parse(p)) => {
                write!(f, "{e}\n{}", p.caret())
            }
            TranscriptErrorKind::Notation(e) => write!(f, "{e}"),
            TranscriptErrorKind::Numbered { written, actual } => {
                write!(
                    f,
                    "it is written as turn #{written} but it is turn #{actual}"
                )
            }
            TranscriptErrorKind::Pass(e) => write!(f, "{e}"),
        }
    }
}

/// What [`play_transcript`] does with a forced pass due after the last turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FinalPass {
    /// Play it, as the server would.
    Play,
    /// Leave it to play (for `think`, which answers the position as it is).
    Leave,
}

/// Play every turn of `text` from the empty board; a forced pass due at the end is
/// played or left as `final_pass` says.
///
/// ```
/// use yinsh_pbem::notation::{FinalPass, play_transcript};
/// use yinsh_pbem::rules::Variant;
/// let played = play_transcript(Variant::Normal, "# two rings\ne5 f6\n", FinalPass::Play).unwrap();
/// assert_eq!(played.turns, 2);
/// let e = play_transcript(Variant::Normal, "e5 e5", FinalPass::Play).unwrap_err();
/// assert!(e.to_string().starts_with("turn 2 `e5` (line 1): e5 is not empty"));
/// ```
pub fn play_transcript(
    variant: Variant,
    text: &str,
    final_pass: FinalPass,
) -> Result<Played, TranscriptError> {
    let mut game = Game::new(variant);
    let mut turns: u32 = 0;
    let mut actions = Vec::new();
    let mut last_turn = (game, Vec::new());
    // Whether the last turn was removals owed at its start with the forced pass after
    // them left out (and played).
    let mut pass_implied = false;
    for (line_no, line) in text.lines().enumerate() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        for token in line.split_whitespace() {
            let fail = |turn: u32, kind: TranscriptErrorKind| TranscriptError {
                turn,
                token: token.to_string(),
                line: line_no + 1,
                kind,
            };
            let written = parse_turn(token).map_err(|e| {
                let number = turns + 1 + u32::from(auto_pass_due(&game));
                fail(number, TranscriptErrorKind::Notation(e.into()))
            })?;
            if std::mem::take(&mut pass_implied) && is_lone_pass(&written) && !auto_pass_due(&game)
            {
                // Records written before the pass was kept in its turn wrote
                // `xi4-i8xk7 --`: that `--` is the pass already played, of turn `turns`.
                match written.moveno {
                    Some(n) if n != turns => {
                        return Err(fail(
                            turns,
                            TranscriptErrorKind::Numbered {
                                written: n,
                                actual: turns,
                            },
                        ));
                    }
                    _ => continue,
                }
            }
            if auto_pass_due(&game) && !is_lone_pass(&written) {
                game.play(Action::Pass)
                    .map_err(|e| fail(turns + 1, TranscriptErrorKind::Pass(e)))?;
                actions.push(Action::Pass);
                turns += 1;
            }
            turns += 1;
            if let Some(n) = written.moveno
                && n != turns
            {
                return Err(fail(
                    turns,
                    TranscriptErrorKind::Numbered {
                        written: n,
                        actual: turns,
                    },
                ));
            }
            let before = game;
            let played = written
                .play(&mut game)
                .map_err(|e| fail(turns, TranscriptErrorKind::Notation(e.into())))?;
            pass_implied =
                played.last() == Some(&Action::Pass) && !written.parts.contains(&Part::Pass);
            actions.extend_from_slice(&played);
            last_turn = (before, played);
        }
    }
    // The server plays a forced pass at once: so does the end of a transcript.
    if final_pass == FinalPass::Play && auto_pass_due(&game) && game.play(Action::Pass).is_ok() {
        actions.push(Action::Pass);
        turns += 1;
    }
    Ok(Played {
        game,
        turns,
        actions,
        last_turn,
    })
}

fn is_lone_pass(t: &WrittenTurn) -> bool {
    t.parts == [Part::Pass]
}

/// `actions` played from `start` cut into turns where [`turn_over`] says: a turn runs
/// while the same side acts (its owed removals, its placement, ring move or pass, its
/// own removals). The last turn may be unfinished (a resignation in the middle of
/// it). Stops at the first illegal action, returning its error.
///
/// ```
/// use yinsh_pbem::notation::split_turns;
/// use yinsh_pbem::rules::{Action, Game, Variant};
/// let actions: Vec<Action> = ["e5", "f6"].iter().map(|s| s.parse().unwrap()).collect();
/// let turns = split_turns(&Game::new(Variant::Normal), &actions).unwrap();
/// assert_eq!(turns, [[actions[0]], [actions[1]]]);
/// ```
pub fn split_turns(start: &Game, actions: &[Action]) -> Result<Vec<Vec<Action>>, IllegalAction> {
    let mut game = *start;
    let mut turns: Vec<Vec<Action>> = Vec::new();
    let mut side = None;
    for &action in actions {
        let me = game.to_act();
        game.play(action)?;
        match (turns.last_mut(), side) {
            (Some(turn), Some(side)) if me == Some(side) => turn.push(action),
            _ => turns.push(vec![action]),
        }
        side = match me {
            Some(me) if !turn_over(me, &game) => Some(me),
            _ => None,
        };
    }
    Ok(turns)
}

/// Turns written on one line of a transcript.
const TURNS_PER_LINE: usize = 8;

/// `record` as a transcript: header comments (players, date, variant), the turns
/// eight to a line (cut where [`split_turns`] cuts them), forced passes written `--`,
/// then the actions of a last turn left unfinished (by a resignation, say), which a
/// transcript cannot hold, as a comment, and how it ended when a player resigned or
/// the players agreed a draw.
///
/// ```
/// use yinsh_pbem::notation::sgf::{Record, RecordEnd};
/// use yinsh_pbem::notation::write_transcript;
/// use yinsh_pbem::rules::{Color, Variant};
/// let record = Record { variant: Variant::Normal, white: "ann".into(), black: "bob".into(),
///     date: None, actions: vec!["e5".parse().unwrap()], ending: Some(RecordEnd::Resigned(Color::Black)) };
/// let text = write_transcript(&record);
/// assert!(text.contains("# White: ann\n# Black: bob\ne5\n# Black resigned.\n"), "{text}");
/// ```
pub fn write_transcript(record: &Record) -> String {
    let start = Game::new(record.variant);
    let mut out = String::from("# A YINSH game record.\n");
    out.push_str(&format!(
        "# White: {}\n# Black: {}\n",
        record.white, record.black
    ));
    if let Some(date) = &record.date {
        out.push_str(&format!("# Played: {date}\n"));
    }
    if record.variant == Variant::Blitz {
        out.push_str("# Blitz: replay it with --blitz.\n");
    }
    let mut game = start;
    let turns = split_turns(&start, &record.actions).unwrap_or_default();
    let mut written: Vec<String> = Vec::new();
    let mut unfinished = None;
    for (k, turn) in turns.iter().enumerate() {
        let side = game.to_act();
        for &a in turn {
            // split_turns played them all already.
            let _ = game.play(a);
        }
        // A turn is finished when it is over, or when its side must pass (removals
        // owed, then a forced pass the reader plays).
        let finished = side.is_none_or(|side| turn_over(side, &game)) || auto_pass_due(&game);
        if k + 1 == turns.len() && !finished {
            unfinished = Some(write_turn(turn));
            break;
        }
        written.push(write_turn(turn));
    }
    for line in written.chunks(TURNS_PER_LINE) {
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    if let Some(turn) = unfinished {
        // Its side is still to act: the one that played it.
        let side = game.to_act().map_or("A side".into(), |s| s.to_string());
        out.push_str(&format!(
            "# {side} had played {turn} of an unfinished turn.\n"
        ));
    }
    match record.ending {
        Some(RecordEnd::Resigned(side)) => out.push_str(&format!("# {side} resigned.\n")),
        Some(RecordEnd::DrawAgreed) => out.push_str(DRAW_AGREED_LINE),
        None => {}
    }
    out
}

/// The comment line of a transcript whose game ended in a draw agreed by the players.
const DRAW_AGREED_LINE: &str = "# Draw agreed.\n";

/// The players and the ending named in a transcript's header comments
/// (`# White: ann`, `# Black: bob`, `# Black resigned.` or `# Draw agreed.`), as
/// [`write_transcript`] writes them: (White's name, Black's name, the ending).
///
/// ```
/// use yinsh_pbem::notation::sgf::RecordEnd;
/// use yinsh_pbem::notation::transcript_header;
/// use yinsh_pbem::rules::Color;
/// let (white, black, ending) = transcript_header("# White: ann\n# Black resigned.\ne5\n");
/// assert_eq!((white.as_deref(), black), (Some("ann"), None));
/// assert_eq!(ending, Some(RecordEnd::Resigned(Color::Black)));
/// assert_eq!(transcript_header("e5\n# Draw agreed.\n").2, Some(RecordEnd::DrawAgreed));
/// ```
pub fn transcript_header(text: &str) -> (Option<String>, Option<String>, Option<RecordEnd>) {
    let (mut white, mut black, mut ending) = (None, None, None);
    for line in text.lines() {
        let Some(comment) = line.trim().strip_prefix('#') else {
            continue;
        };
        let comment = comment.trim();
        if let Some(name) = comment.strip_prefix("White:") {
            white = Some(name.trim().to_string());
        } else if let Some(name) = comment.strip_prefix("Black:") {
            black = Some(name.trim().to_string());
        } else if comment == "White resigned." {
            ending = Some(RecordEnd::Resigned(Color::White));
        } else if comment == "Black resigned." {
            ending = Some(RecordEnd::Resigned(Color::Black));
        } else if comment == DRAW_AGREED_LINE[1..].trim() {
            ending = Some(RecordEnd::DrawAgreed);
        }
    }
    (white, black, ending)
}

/// A transcript read back as the [`Record`] [`write_transcript`] wrote: its turns
/// played from the empty board (a forced pass due at the end too), its players, date
/// and ending from its comments (an ending its moves made already is theirs). A turn
/// left unfinished by a resignation, kept as a comment, is not read. `export` writes
/// this record as SGF.
///
/// ```
/// use yinsh_pbem::notation::sgf::RecordEnd;
/// use yinsh_pbem::notation::{read_transcript, write_transcript};
/// use yinsh_pbem::rules::{Color, Variant};
/// let record = read_transcript(Variant::Normal, "# White: ann\ne5 f6\n# Black resigned.\n").unwrap();
/// assert_eq!((record.white.as_str(), record.black.as_str()), ("ann", "Black"));
/// assert_eq!(record.ending, Some(RecordEnd::Resigned(Color::Black)));
/// assert_eq!(read_transcript(Variant::Normal, &write_transcript(&record)).unwrap(), record);
/// ```
pub fn read_transcript(variant: Variant, text: &str) -> Result<Record, TranscriptError> {
    let played = play_transcript(variant, text, FinalPass::Play)?;
    let (white, black, ending) = transcript_header(text);
    let date = text.lines().find_map(|line| {
        let comment = line.trim().strip_prefix('#')?.trim();
        Some(comment.strip_prefix("Played:")?.trim().to_string())
    });
    Ok(Record {
        variant,
        white: white.unwrap_or_else(|| "White".to_string()),
        black: black.unwrap_or_else(|| "Black".to_string()),
        date,
        actions: played.actions,
        ending: ending.filter(|_| !played.game.is_over()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_turn_numbers_and_refusals() {
        let played =
            play_transcript(Variant::Normal, "# a comment\n e5 f6\n", FinalPass::Play).unwrap();
        assert_eq!(played.turns, 2);
        assert_eq!(played.game.rings_on_board(Color::White), 1);
        assert_eq!(
            played.last_turn.1,
            vec![Action::Place("f6".parse().unwrap())]
        );
        assert_eq!(played.last_turn.0.rings_on_board(Color::Black), 0);
        let e = play_transcript(Variant::Normal, "e5 e5", FinalPass::Play)
            .unwrap_err()
            .to_string();
        assert!(
            e.starts_with("turn 2 `e5` (line 1): e5 is not empty"),
            "{e}"
        );
        let e = play_transcript(Variant::Normal, "e5\nf6#3", FinalPass::Play)
            .unwrap_err()
            .to_string();
        assert!(e.contains("turn #3 but it is turn #2"), "{e}");
        let e = play_transcript(Variant::Normal, "e5 f6;", FinalPass::Play)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("turn 2 `f6;` (line 1)") && e.ends_with("  ^"),
            "{e}"
        );
    }

    #[test]
    fn turns_are_cut_where_the_side_changes_and_at_each_pass() {
        let mut game = Game::new(Variant::Normal);
        let actions: Vec<Action> = ["e5", "f6"].iter().map(|s| s.parse().unwrap()).collect();
        let turns = split_turns(&game, &actions).unwrap();
        assert_eq!(turns, vec![vec![actions[0]], vec![actions[1]]]);
        game.play(actions[0]).unwrap();
        assert!(split_turns(&game, &actions).is_err());
    }
}
