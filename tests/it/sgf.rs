//! Boardspace SGF records (`notation::sgf`) and transcripts: every one of the 408
//! real games of ../shared/data/boardspace-yinsh is read from its `.sgf` to the
//! actions of `atomic-moves.tsv`, written as a transcript that replays (as `replay`
//! plays it) to the recorded result, and written back as SGF that reads to the same
//! moves. Also `yinsh-pbem import` and `export` end to end.

use yinsh_pbem::notation::sgf::{self, Record, RecordEnd, SgfError};
use yinsh_pbem::notation::{FinalPass, play_transcript, transcript_header, write_transcript};
use yinsh_pbem::rules::{Action, Color, EndReason, Outcome};

use crate::boardspace::records;
use crate::support::bin;
use crate::support::data::boardspace_dir;

/// The recorded result `W+rings` / `B+resign` as (winner, by resignation).
fn result(text: &str) -> (Color, bool) {
    let (winner, how) = text.split_once('+').expect("a result");
    let winner = if winner == "W" {
        Color::White
    } else {
        Color::Black
    };
    (winner, how == "resign")
}

#[test]
fn every_boardspace_game_round_trips_sgf_transcript_sgf() {
    let Some(recs) = records() else { return };
    let dir = boardspace_dir().expect("records() found it");
    let mut unfinished = 0;
    for rec in &recs {
        let bytes = std::fs::read(dir.join(&rec.file)).expect("an .sgf file");
        let text = String::from_utf8_lossy(&bytes);
        let record = sgf::read(&text).unwrap_or_else(|e| panic!("{}: {e}", rec.file));
        let want: Vec<Action> = rec.actions.iter().map(|&(_, a)| a).collect();
        assert_eq!(record.actions, want, "{}", rec.file);
        assert_eq!(record.variant, rec.variant, "{}", rec.file);
        let (winner, resigned) = result(&rec.result);
        assert_eq!(
            record.ending,
            resigned.then_some(RecordEnd::Resigned(winner.other())),
            "{}",
            rec.file
        );
        let game = record.game().unwrap();
        assert_eq!(game.outcome(), Some(Outcome::Win(winner)), "{}", rec.file);

        // SGF -> transcript: it replays to the same moves and the recorded result.
        let transcript = write_transcript(&record);
        let played = play_transcript(record.variant, &transcript, FinalPass::Play)
            .unwrap_or_else(|e| panic!("{}: {e}\n{transcript}", rec.file));
        let (white, black, resigned_side) = transcript_header(&transcript);
        assert_eq!(white.as_deref(), Some(record.white.as_str()));
        assert_eq!(black.as_deref(), Some(record.black.as_str()));
        assert_eq!(resigned_side, record.ending, "{}", rec.file);
        let mut after = played.game;
        if let Some(end) = resigned_side {
            end.apply(&mut after).unwrap();
        } else {
            let end = after.ending().expect("a game won on rings is over");
            assert_eq!(end.reason, EndReason::RingsRemoved, "{}", rec.file);
        }
        assert_eq!(after.outcome(), Some(Outcome::Win(winner)), "{}", rec.file);
        // Only a turn left unfinished by a resignation is missing from the transcript.
        let kept = played.actions.len();
        assert_eq!(played.actions[..], record.actions[..kept], "{}", rec.file);
        if kept < record.actions.len() {
            assert!(resigned, "{} lost actions without resigning", rec.file);
            assert!(transcript.contains("of an unfinished turn"), "{transcript}");
            unfinished += 1;
        }

        // transcript -> SGF: the same moves again, and the same players.
        let back = Record {
            variant: record.variant,
            white: white.unwrap_or_default(),
            black: black.unwrap_or_default(),
            date: record.date.clone(),
            actions: played.actions.clone(),
            ending: resigned_side,
        };
        let written = sgf::write(&back);
        let reread = sgf::read(&written).unwrap_or_else(|e| panic!("{}: {e}\n{written}", rec.file));
        assert_eq!(reread, back, "{}", rec.file);
    }
    // Two resignations in this set come in the middle of a removal.
    assert!(unfinished <= 15, "{unfinished}");
}

#[test]
fn import_and_export_end_to_end() {
    let Some(dir) = boardspace_dir() else { return };
    let file = dir.join("boardspace-2026/Y-BestBot-BOkpc-2026-03-13-1856.sgf");
    let out = bin::assert_command()
        .arg("import")
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let transcript = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        transcript,
        "# A YINSH game record.\n# White: BestBot\n# Black: BOkpc\n\
         # Played: Fri Mar 13 19:56:26 GMT+01:00 2026\n\
         g2 c6 f2 d4 e1 e4 h3 a4\nd1 f6 e1-e2\n# Black resigned.\n"
    );
    let out = bin::assert_command()
        .arg("export")
        .write_stdin(transcript)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let sgf_text = String::from_utf8(out.stdout).unwrap();
    assert!(sgf_text.contains("P0[id \"BestBot\"]"), "{sgf_text}");
    assert!(
        sgf_text.contains("; P0[11 move E 1 E 2]\n; P1[12 resign]\n)"),
        "{sgf_text}"
    );
    let record = sgf::read(&sgf_text).unwrap();
    assert_eq!(record.actions.len(), 11);
    assert_eq!(record.ending, Some(RecordEnd::Resigned(Color::Black)));
}

#[test]
fn a_broken_record_is_refused_naming_the_node() {
    let out = bin::assert_command()
        .arg("import")
        .write_stdin("(;SU[Yinsh]\n; P0[1 place wr  F 6]\n; P1[3 place br  F 6]\n)")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "node 3: `3 place br  F 6` is not legal here: f6 is occupied\n"
    );
    assert!(matches!(
        sgf::read("not sgf"),
        Err(SgfError::Syntax { offset: 0, .. })
    ));
}

#[test]
fn an_agreed_draw_round_trips_through_sgf_and_transcript_and_replay_prints_it() {
    let actions: Vec<Action> = ["e5", "f6", "d4", "g7"]
        .iter()
        .map(|a| a.parse().unwrap())
        .collect();
    let record = Record {
        variant: yinsh_pbem::rules::Variant::Normal,
        white: "ann".into(),
        black: "bob".into(),
        date: None,
        actions,
        ending: Some(RecordEnd::DrawAgreed),
    };
    let game = record.game().unwrap();
    assert_eq!(game.outcome(), Some(Outcome::Draw));
    assert_eq!(game.ending().unwrap().reason, EndReason::Agreement);

    // SGF: written as Boardspace's offer and acceptance, read back the same.
    let written = sgf::write(&record);
    assert!(
        written.contains("; P0[5 offerdraw]\n; P1[6 acceptdraw]\n)"),
        "{written}"
    );
    assert_eq!(sgf::read(&written).unwrap(), record);
    // An offer declined is no draw.
    let declined = written.replace("acceptdraw", "declinedraw");
    assert_eq!(sgf::read(&declined).unwrap().ending, None);

    // Transcript: a comment line, read back by transcript_header.
    let transcript = write_transcript(&record);
    assert!(
        transcript.ends_with("e5 f6 d4 g7\n# Draw agreed.\n"),
        "{transcript}"
    );
    let (white, black, ending) = transcript_header(&transcript);
    assert_eq!(
        (white.as_deref(), black.as_deref()),
        (Some("ann"), Some("bob"))
    );
    assert_eq!(ending, Some(RecordEnd::DrawAgreed));

    // export and import end to end keep it.
    let out = bin::assert_command()
        .arg("export")
        .write_stdin(transcript.clone())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let sgf_text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        sgf::read(&sgf_text).unwrap().ending,
        Some(RecordEnd::DrawAgreed)
    );
    let out = bin::assert_command()
        .arg("import")
        .write_stdin(sgf_text)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .ends_with("# Draw agreed.\n")
    );

    // replay prints the game as drawn, on the board and in JSON.
    let out = bin::assert_command()
        .arg("replay")
        .write_stdin(transcript.clone())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let board = String::from_utf8(out.stdout).unwrap();
    assert!(
        board.contains("Game over: a draw agreed by the players"),
        "{board}"
    );
    let out = bin::assert_command()
        .args(["replay", "--json"])
        .write_stdin(transcript)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["status"], "draw");
    assert_eq!(json["end_reason"], "agreement");
}

#[test]
fn replay_ends_the_game_a_transcript_says_was_resigned() {
    let out = bin::assert_command()
        .args(["replay", "--json"])
        .write_stdin("e5 f6\n# White resigned.\n")
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["winner"], "black");
    assert_eq!(json["end_reason"], "resignation");
}
