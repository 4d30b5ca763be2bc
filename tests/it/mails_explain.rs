//! Mails that explain themselves (issue 14), through the real binary: `help yinsh`.

use crate::support::server::{TestServer, assert_says};

const ALICE: &str = "Alice <alice@example.org>";
const BOB: &str = "Bob <bob@example.org>";

#[test]
fn help_yinsh_gives_the_yinsh_help() {
    let mut s = TestServer::new();
    let yinsh = s.send(ALICE, "yinsh help", "");
    let r = s.send(ALICE, "help yinsh", "");
    assert_eq!(r.len(), 1, "{r:?}");
    assert_eq!(r[0].subject, "Yinsh help");
    assert_eq!(r[0].body, yinsh[0].body);
    // Plain `help` is still the general help.
    let r = s.send(ALICE, "help", "");
    assert_eq!(r[0].subject, "Yinsh PBeM help");
}

#[test]
fn opponents_are_told_of_a_vacation_and_of_its_end() {
    let mut s = TestServer::new();
    s.send(ALICE, "signup alice apw", "");
    s.send(BOB, "signup bob bpw", "");
    s.send("Carol <carol@example.org>", "signup carol cpw", "");
    s.send(ALICE, "yinsh challenge alice bob", "");
    s.send(ALICE, "yinsh challenge bob alice", "");
    s.send(ALICE, "yinsh challenge alice carol", "");
    let r = s.send(ALICE, "vacation alice apw 10", "");
    assert_eq!(r.len(), 3, "alice, bob once for two boards, carol: {r:?}");
    let bob: Vec<_> = r.iter().filter(|m| m.to == ["bob@example.org"]).collect();
    assert_eq!(bob.len(), 1, "{r:?}");
    assert_eq!(bob[0].subject, "Vacation for alice");
    assert_says(bob[0], "alice is on vacation until ");
    assert_says(bob[0], "On boards 101, 102 the clocks are stopped");
    let carol = r
        .iter()
        .find(|m| m.to == ["carol@example.org"])
        .expect("carol told");
    assert_says(carol, "On board 103 the clocks are stopped");
    let r = s.send(ALICE, "vacation alice apw 0", "");
    let bob = r
        .iter()
        .find(|m| m.to == ["bob@example.org"])
        .expect("bob told");
    assert_says(
        bob,
        "alice is back from vacation: the clocks of boards 101, 102 run again.",
    );
}

/// The board mail's "Your move" template, filled with the turn each player of the
/// 408 Boardspace games really played there, is accepted as that turn: a removal that
/// wins asks for no ring move after it, and a lone row is named.
#[test]
fn the_move_template_filled_in_is_the_turn_played_in_every_real_game() {
    use yinsh_pbem::notation::{play_turn, write_turn};
    use yinsh_pbem::rules::{Action, Game};
    use yinsh_pbem::server::text::reply::move_template;

    use crate::boardspace::records;
    use crate::support::turns::group_turns;

    let Some(records) = records() else {
        return;
    };
    let (mut checked, mut winning_removals) = (0, 0);
    for record in &records {
        let actions: Vec<Action> = record.actions.iter().map(|(_, a)| *a).collect();
        for (before, turn) in group_turns(Game::new(record.variant), &actions) {
            let template = move_template(&before).to_string();
            let mut filled = template.clone();
            for a in &turn {
                let (hole, text) = match a {
                    Action::Place(p) => ("<point>", p.to_string()),
                    Action::RemoveRow(r) => ("<row>", r.to_string()),
                    Action::RemoveRing(p) => ("<ring>", p.to_string()),
                    Action::Move { from, to } => ("<from>-<to>", format!("{from}-{to}")),
                    Action::Pass => ("--", "--".to_string()),
                };
                if let Some(at) = filled.find(hole) {
                    filled.replace_range(at..at + hole.len(), &text);
                }
            }
            // The template is the turn's shape up to its last hole; a ring move may be
            // followed by the removals it makes, which no template can foresee.
            let canonical = write_turn(&turn);
            let mut after = before;
            let played = play_turn(&mut after, &canonical);
            if after.to_act() == before.to_act() && !after.is_over() {
                continue; // the record's last turn, cut short by a resignation
            }
            assert_eq!(played.as_deref(), Ok(&turn[..]), "{}", record.file);
            assert!(
                canonical.starts_with(&filled) && !filled.contains('<'),
                "{}: template {template:?} filled as {filled:?}, played {canonical:?}",
                record.file
            );
            let mut shape = before;
            if filled.len() < canonical.len() {
                assert!(canonical[filled.len()..].starts_with(';'), "{canonical}");
            } else {
                assert_eq!(play_turn(&mut shape, &filled).as_deref(), Ok(&turn[..]));
            }
            checked += 1;
            winning_removals += usize::from(after.is_over() && template.starts_with('x'));
        }
    }
    assert!(checked > 20_000, "{checked} turns checked");
    assert!(
        winning_removals > 0,
        "no game ended by a removal at the start of a turn"
    );
}
