//! Regression of the soak's first finding: a `multiple` mail of a stranger mixing
//! about ten password checks (wrong guesses and right ones) with shows, messages and
//! unknown commands peaked at 20-35 MB, because each argon2 check allocated and freed
//! its own 7 MiB and the allocator's heap stayed fragmented. Argon2's memory is now
//! allocated once per process (`store/password.rs`); the same mail stays under 20 MB.
//! And the later findings of bodies whose size is in many short lines or one word.

use super::runner::Runner;

/// A runner on a new, empty home (the folder lives as long as the first value).
fn fresh(seed: u64) -> (tempfile::TempDir, Runner) {
    let dir = crate::support::tmp::dir();
    let home = dir.path().join("games");
    std::fs::create_dir_all(&home).expect("home");
    let run = Runner::new(super::binary(), home, 1_795_384_020, seed);
    (dir, run)
}

#[test]
fn regression_a_multiple_of_password_checks_stays_under_20_mb() {
    let (_dir, mut run) = fresh(7);
    let mut setup = String::new();
    for k in 0..6 {
        setup.push_str(&format!("signup h{k} pw{k}x h{k}@honest.example\n"));
        setup.push_str(&format!("signup spam{k} sp{k}x s{k}@evil.example\n"));
    }
    run.deliver(
        super::mail::plain("op@honest.example", "multiple", "setup-1@x", &setup).as_bytes(),
        0,
        0,
    );
    let mut challenges = String::new();
    for k in 0..24 {
        challenges.push_str(&format!("yinsh challenge h{} h{}\n", k % 6, (k + 1) % 6));
    }
    for (n, chunk) in challenges.lines().collect::<Vec<_>>().chunks(3).enumerate() {
        run.now += 60;
        let body = chunk.join("\n") + "\n";
        let raw = super::mail::plain("op@honest.example", "multiple", &format!("c{n}@x"), &body);
        run.deliver(raw.as_bytes(), 0, 0);
    }
    let lines = [
        "yinsh frobnicate text 0",
        "yinsh show 102 102 101 102",
        "yinsh frobnicate text 2",
        "yinsh showas h1 guess3",
        "yinsh chat 110 spam5 sp5x",
        "yinsh showas h3 guess5",
        "yinsh frobnicate text 6",
        "help",
        "message spam3 sp3x h1 spam3",
        "yinsh mvoe 116 h3 guess9 e5",
        "yinsh mvoe 122 h1 guess10 e5",
        "yinsh showas spam3 guess11",
        "yinsh showas spam2 guess12",
        "yinsh show 109 109 101 102",
        "message spam4 sp4x h1 spam4",
        "yinsh frobnicate text 15",
        "yinsh mvoe 108 h2 guess16 e5",
        "yinsh showas spam0 guess17",
        "yinsh chat 124 spam1 sp1x",
        "yinsh showas spam2 guess19",
        "message spam0 sp0x h2 spam0",
        "yinsh showas spam2 guess21",
        "yinsh challenge h5 h4",
        "yinsh challenge h1 h0",
        "yinsh frobnicate text 24",
    ];
    let body = lines.join("\n") + "\n";
    run.now += 60;
    let raw = super::mail::plain("attacker@evil.example", "multiple", "m380@x", &body);
    run.deliver(raw.as_bytes(), 0, 0);
    // The lines were carried out: each guessed userid has its wrong passwords counted.
    for userid in ["h1", "h3", "spam0", "spam2", "spam3"] {
        let counted = run.home.join("logins").join(format!("{userid}.json"));
        assert!(counted.exists(), "no password was checked for {userid}");
    }
    // The measurement is the runner's (it fails over 20 MB); say what it was.
    eprintln!(
        "memory regression: peak {} KiB over {} runs",
        run.stats.peak_kib, run.stats.measured
    );
}

/// Found after the soak: bodies whose size is in many tiny lines or one huge word.
/// A `show` with 1 MiB of `x` lines peaked at 24.7 MB (the comment was worked out on a
/// list of all the body's lines, 16 bytes each, twice); a `multiple` of one 1 MiB
/// made-up command word at 155 MB and 6 s (the "did you mean" table compared it,
/// letter by letter, with every command word). Now the comment is one bounded pass
/// (`mail::comment_of`) and a word far longer than every command is not compared.
#[test]
fn regression_a_mail_of_a_million_short_lines_or_one_huge_word_stays_under_20_mb() {
    let (_dir, mut run) = fresh(11);
    let setup = "signup alice apw1 alice@honest.example\n\
                 signup bob bpw1 bob@honest.example\n\
                 yinsh challenge alice bob\n";
    run.deliver(
        super::mail::plain("op@honest.example", "multiple", "setup-1@x", setup).as_bytes(),
        0,
        0,
    );
    let mib = 1 << 20;
    let bodies = [
        ("yinsh show 101", "x\n".repeat(mib / 2 - 512)),
        (
            "yinsh show 101",
            format!("a\n{}b\n", "\n".repeat(mib - 512)),
        ),
        ("yinsh show 101", "> q\n".repeat(mib / 4 - 256)),
        ("multiple", "y".repeat(mib - 512)),
        ("multiple", format!("yinsh {}\n", "z".repeat(mib - 512))),
    ];
    for (n, (subject, body)) in bodies.iter().enumerate() {
        run.now += 60;
        let raw = super::mail::plain(
            &format!("stranger{n}@evil.example"),
            subject,
            &format!("huge-{n}@x"),
            body,
        );
        let sent = run.deliver(raw.as_bytes(), 0, 0);
        assert!(!sent.is_empty(), "mail {n} ({subject}) was not answered");
        // The answer does not repeat the megabyte (it quoted a huge word twice).
        for reply in &sent {
            assert!(
                reply.raw.len() < 128 * 1024,
                "mail {n}: a {} byte reply",
                reply.raw.len()
            );
        }
    }
    eprintln!(
        "memory regression (huge bodies): peak {} KiB over {} runs",
        run.stats.peak_kib, run.stats.measured
    );
}
