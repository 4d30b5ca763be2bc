//! The soak test of issue 13: N mails of mixed honest and hostile traffic through the
//! real `deliver`, with address confirmation on (as by default) and `kill -9` at random
//! moments and inside the transaction's journal (the same mail then delivered again, as
//! the mail system does). Honest
//! players sign up, confirm their addresses, challenge each other and play seeded
//! random games; a model keeps each game's moves. Strangers flood, forge Reply-To,
//! guess passwords, send huge and odd mails, challenge others, sign victims up and
//! replay Message-IDs in another case. At the end the home must be consistent (no
//! journal, every account and game file loads, `tick` runs clean), every honest game
//! must hold exactly the model's moves, no unconfirmed address may have got text
//! another person chose or more than the daily quota, no password may be in a reply
//! or the log, and no run may have used 20 MB. Issue 25: the strangers also reply to
//! players' old board mails with a forged From, fire `multiple` cannons and every
//! spelling of a player's address, and make throwaway accounts on players' addresses;
//! no mailbox may get more than the daily budget of mails a stranger caused
//! ([`STRANGER_BUDGET`]) or any of a stranger's text, and no honest move may be
//! refused by a limit. Issue 45: a reply carrying a player's genuine token is the
//! player's whatever it says, so the forged replies to old board mails are answered
//! as the player's own: at most `OWN_MAILS_PER_DAY` a day to that mailbox (then the
//! stranger's budget), none with a word of the forger's.
//!
//! N is 300 (`cargo test`); `YINSH_PBEM_SOAK_MAILS` sets it (`.ci/run`: 5,000) and
//! `YINSH_PBEM_SOAK_BIN` the binary (`.ci/run`: the release build).

mod check;
mod hostile;
mod memory;
mod runner;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::time::Instant;

use yinsh_pbem::rules::Color;
use yinsh_pbem::server::inbound::identity::OWN_MAILS_PER_DAY;
use yinsh_pbem::server::store::Store;

use crate::support::mail;
use crate::support::server::Sent;
use crate::support::turns::random_turns;
use runner::Runner;

/// Text a person chose: it must never reach an unconfirmed address.
pub const FOREIGN: &str = "FOREIGNTEXT";
/// Text a stranger chose in issue 25's attacks: it must never reach anyone.
pub const STRANGER: &str = "STRANGERTEXT";
/// The beginnings of every password the soak writes (honest, guessed, attackers').
pub const SECRETS: [&str; 3] = ["pwSOAK", "gsSOAK", "atSOAK"];
/// The daily quota of mails to an unconfirmed address (the default).
pub const QUOTA: usize = 5;
/// The daily budget of mails that mail proving no sender may cause to one mailbox
/// (`[security] stranger_mails_per_day`, the default).
pub const STRANGER_BUDGET: usize = 10;
/// Replies one mail may cause (`replies_per_mail`, default 50), each possibly split
/// by the confirmation gate into a confirmed and an unconfirmed copy.
pub const MAX_FILES_PER_MAIL: usize = 2 * 50;
/// Peak resident size allowed to one run, KiB (20 MB).
pub const MAX_KIB: u64 = 20_000;
/// Chance (percent) that a mail's first run is killed.
const KILL_PERCENT: u64 = 12;
/// The longest delay before a kill, ms (a mail takes 5-60 ms).
const MAX_KILL_MS: u64 = 40;

/// An honest player.
#[derive(Debug, Clone)]
pub struct Player {
    pub userid: String,
    pub password: String,
    pub address: String,
    pub signed_up: bool,
}

/// An honest game and the model of its moves.
#[derive(Debug)]
pub struct Game {
    pub board: u32,
    pub white: usize,
    pub black: usize,
    pub script: Vec<(Color, String)>,
    /// Moves accepted so far.
    pub done: usize,
}

/// Why honest moves were refused (none must be the server's fault).
#[derive(Debug, Default)]
pub struct Refusals {
    pub paused: usize,
    pub storm: usize,
}

/// The soak's whole state: the runner, the players, the games, and what was sent.
pub struct Soak {
    pub run: Runner,
    pub players: Vec<Player>,
    pub games: Vec<Game>,
    /// Addresses confirmed so far (lower case).
    pub confirmed: HashSet<String>,
    /// Mails to each unconfirmed address, by (address, day).
    pub unconfirmed_mails: HashMap<(String, u64), usize>,
    /// Mails the strangers' mail caused to each mailbox, by (mailbox, day).
    pub stranger_mails: HashMap<(String, u64), usize>,
    /// Whether the mail being delivered is a stranger's ([`hostile::step`]).
    pub hostile: bool,
    /// Whether the stranger's mail carries a player's genuine reply token: answered
    /// as the player's own mail, counted in [`Soak::own_mails`].
    pub with_token: bool,
    /// Mails to each mailbox answering a stranger's mail that carried the player's
    /// genuine token, by (mailbox, day).
    pub own_mails: HashMap<(String, u64), usize>,
    /// Honest board mails to players: (board, moves done when sent, the mail), the
    /// last 30, for the strangers' replies to old ones.
    pub board_mails: Vec<(u32, usize, Sent)>,
    /// Verify codes seen (they must not reach the log).
    pub codes: Vec<String>,
    /// Honest mails kept for replaying their Message-ID: (id, raw).
    pub honest_mails: Vec<(String, String)>,
    pub refusals: Refusals,
    /// The most reply files one mail caused.
    pub most_files: usize,
    /// Guessing bursts sent so far ([`hostile::step`]).
    pub bursts: usize,
    seq: u64,
}

impl Soak {
    /// A fresh Message-ID (without brackets).
    pub fn mid(&mut self, tag: &str) -> String {
        self.seq += 1;
        format!("{tag}{}.{}@soak.example", self.seq, self.run.now)
    }

    /// Advances the clock by 1..=`max` seconds.
    pub fn tick_clock(&mut self, max: u64) {
        self.run.now += 1 + self.run.below(max);
    }

    /// Delivers one mail and checks its replies against the gate's promises.
    pub fn deliver(&mut self, raw: &[u8]) -> Vec<Sent> {
        let sent = self.run.deliver(raw, KILL_PERCENT, MAX_KILL_MS);
        self.most_files = self.most_files.max(sent.len());
        assert!(
            sent.len() <= MAX_FILES_PER_MAIL,
            "{} replies to one mail: {}",
            sent.len(),
            String::from_utf8_lossy(&raw[..raw.len().min(300)])
        );
        let day = self.run.now / 86_400;
        if self.hostile && self.with_token {
            self.count_own(&sent, day);
        } else if self.hostile {
            self.count_strangers(&sent, day);
        }
        for m in &sent {
            for to in &m.to {
                let to = to.to_ascii_lowercase();
                if self.confirmed.contains(&to) {
                    continue;
                }
                assert!(
                    !m.raw.contains(FOREIGN) && !m.body.contains(FOREIGN),
                    "text of another person to the unconfirmed {to}:\n{}",
                    m.raw
                );
                let n = self.unconfirmed_mails.entry((to.clone(), day)).or_default();
                *n += 1;
                assert!(
                    *n <= QUOTA,
                    "mail {} of day {day} to the unconfirmed {to}: {}",
                    *n,
                    m.subject
                );
            }
        }
        sent
    }

    /// Checks the mails a forged reply with a player's genuine token caused: none
    /// carries the forger's text, and no mailbox gets more than `OWN_MAILS_PER_DAY` a
    /// day of them (the player's own mails that only the mail proves), and past those
    /// at most the stranger's budget ([`STRANGER_BUDGET`]).
    fn count_own(&mut self, sent: &[Sent], day: u64) {
        for m in sent {
            assert!(
                !m.raw.contains(STRANGER),
                "a forger's text went out to {:?}:\n{}",
                m.to,
                m.raw
            );
            for to in &m.to {
                let n = self
                    .own_mails
                    .entry((to.to_ascii_lowercase(), day))
                    .or_default();
                *n += 1;
                assert!(
                    *n <= OWN_MAILS_PER_DAY as usize + STRANGER_BUDGET,
                    "mail {} of day {day} a forged token reply caused to {to}: {}",
                    *n,
                    m.subject
                );
            }
        }
    }

    /// Checks the mails a stranger's mail caused: none carries its text, and no
    /// mailbox (lower case, without `+tag`) gets more than [`STRANGER_BUDGET`] a day.
    fn count_strangers(&mut self, sent: &[Sent], day: u64) {
        for m in sent {
            assert!(
                !m.raw.contains(STRANGER),
                "a stranger's text went out to {:?}:\n{}",
                m.to,
                m.raw
            );
            for to in &m.to {
                let lower = to.to_ascii_lowercase();
                let (user, domain) = lower.rsplit_once('@').unwrap_or((&lower, ""));
                let user = user.split('+').next().unwrap_or(user);
                let n = self
                    .stranger_mails
                    .entry((format!("{user}@{domain}"), day))
                    .or_default();
                *n += 1;
                assert!(
                    *n <= STRANGER_BUDGET,
                    "mail {} of day {day} a stranger caused to {to}: {}",
                    *n,
                    m.subject
                );
            }
        }
    }

    /// A plain mail from `from` (and a Reply-To, if given).
    pub fn mail(
        &mut self,
        from: &str,
        reply_to: Option<&str>,
        subject: &str,
        body: &str,
    ) -> String {
        let mid = self.mid("m");
        let raw = mail::plain(from, subject, &mid, body);
        match reply_to {
            Some(r) => raw.replacen("\nTo: ", &format!("\nReply-To: {r}\nTo: "), 1),
            None => raw,
        }
    }

    fn store(&self) -> Store {
        Store::open(&self.run.home).expect("open the store")
    }

    /// The turns stored on `board`.
    pub fn stored_turns(&self, board: u32) -> Vec<String> {
        self.store()
            .game(board)
            .expect("the game file loads")
            .map(|g| g.turns.iter().map(|t| t.text.clone()).collect())
            .unwrap_or_default()
    }

    /// The highest board allocated so far (0 when none).
    pub fn last_board(&self) -> u32 {
        std::fs::read_to_string(self.store().counter_path())
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok())
            .map_or(0, |next| next.saturating_sub(1))
    }

    /// Signs player `k` up from its address and confirms it by replying to the verify
    /// mail; with `quick_start`, players `k` and `k + 1` are signed up in one
    /// `multiple` mail that also challenges (the README's quick start).
    fn sign_up(&mut self, k: usize, quick_start: bool) {
        let p = self.players[k].clone();
        let sent = if quick_start {
            let q = self.players[k + 1].clone();
            let body = format!(
                "signup {} {} {}\nsignup {} {} {}\nyinsh challenge {} {}\n",
                p.userid,
                p.password,
                p.address,
                q.userid,
                q.password,
                q.address,
                p.userid,
                q.userid
            );
            let raw = self.mail(&p.address, None, "multiple", &body);
            let sent = self.deliver(raw.as_bytes());
            self.players[k + 1].signed_up = true;
            self.new_game(k, k + 1);
            sent
        } else {
            let raw = self.mail(
                &p.address,
                None,
                &format!("signup {} {}", p.userid, p.password),
                "",
            );
            self.deliver(raw.as_bytes())
        };
        self.players[k].signed_up = true;
        let who = if quick_start { vec![k, k + 1] } else { vec![k] };
        for j in who {
            let q = self.players[j].clone();
            let verify = sent
                .iter()
                .find(|m| {
                    m.subject.starts_with(&format!("verify {} ", q.userid))
                        && m.to.iter().any(|t| t.eq_ignore_ascii_case(&q.address))
                })
                .unwrap_or_else(|| panic!("no verify mail for {}: {sent:?}", q.userid));
            let code = verify.subject.rsplit(' ').next().unwrap_or("").to_string();
            self.codes.push(code);
            self.tick_clock(600);
            let raw = self.mail(
                &q.address,
                None,
                &format!("Re: {}", verify.subject),
                "> quoted\n",
            );
            let sent = self.deliver(raw.as_bytes());
            assert!(
                sent.iter()
                    .any(|m| m.subject == format!("Address confirmed for {}", q.userid)),
                "{sent:?}"
            );
            self.confirmed.insert(q.address.to_ascii_lowercase());
        }
    }

    /// Records the game just created between players `a` (white) and `b`.
    fn new_game(&mut self, a: usize, b: usize) {
        let board = self.last_board();
        let file = self
            .store()
            .game(board)
            .expect("loads")
            .expect("the new board");
        assert!(
            file.white.as_str() == self.players[a].userid
                && file.black.as_str() == self.players[b].userid
                && file.turns.is_empty(),
            "board {board} is not the new game of {} and {}",
            self.players[a].userid,
            self.players[b].userid
        );
        assert!(
            self.games.iter().all(|g| g.board != board),
            "board {board} twice"
        );
        let script = random_turns(u64::from(board) * 7919 + 13, 60);
        self.games.push(Game {
            board,
            white: a,
            black: b,
            script,
            done: 0,
        });
    }

    /// An honest challenge between two signed-up players, `a` < `b` (strangers'
    /// challenges name them the other way round, so the two never mix).
    fn challenge(&mut self) {
        let ready: Vec<usize> = (0..self.players.len())
            .filter(|&k| self.players[k].signed_up)
            .collect();
        let a = ready[self.run.below(ready.len() as u64) as usize];
        let b = ready[self.run.below(ready.len() as u64) as usize];
        let (a, b) = (a.min(b), a.max(b));
        if a == b {
            return;
        }
        let p = self.players[a].clone();
        let subject = format!("yinsh challenge {} {}", p.userid, self.players[b].userid);
        let raw = self.mail(&p.address, None, &subject, "");
        let before = self.last_board();
        let sent = self.deliver(raw.as_bytes());
        self.keep_honest(&raw);
        if self.last_board() == before {
            // Refused (the sender's or the players' limits): fine, tried again later.
            // A challenge carries no password and proves no sender, so the limits
            // that strangers forging the sender's address ran up hold its answer
            // back: past the storm limit it is dropped (one notice a period), past
            // the day's mails caused by unproven mail its answer is not sent. Then
            // the log must say so.
            let log = self.log_of(&raw);
            let withheld = log
                .contains(&format!("dropped {}: over the limit of", message_id(&raw)))
                || log.contains(&format!(
                    "not sent to {}: over",
                    p.address.to_ascii_lowercase()
                )) && log.contains("caused by mail that proved no sender");
            assert!(
                !sent.is_empty() || withheld,
                "a challenge without any answer: {subject}; the log of it:\n{log}"
            );
            return;
        }
        self.new_game(a, b);
    }

    /// The next move of a random unfinished honest game, by the player to move; the
    /// model counts it when the store has it, and the store must have exactly it.
    fn play(&mut self) {
        let open: Vec<usize> = (0..self.games.len())
            .filter(|&g| self.games[g].done < self.games[g].script.len())
            .collect();
        if open.is_empty() {
            return self.challenge();
        }
        let g = open[self.run.below(open.len() as u64) as usize];
        let (board, k) = (self.games[g].board, self.games[g].done);
        let (side, text) = self.games[g].script[k].clone();
        let who = match side {
            Color::White => self.games[g].white,
            Color::Black => self.games[g].black,
        };
        let p = self.players[who].clone();
        let line = format!(
            "yinsh move {board} {} {} {text}#{}",
            p.userid,
            p.password,
            k + 1
        );
        let raw = if self.run.below(6) == 0 {
            let body = format!("{line}\nyinsh show {board}\n");
            self.mail(&p.address, None, "multiple", &body)
        } else {
            let body = format!("{FOREIGN} from {} on move {}\n", p.userid, k + 1);
            self.mail(&p.address, None, &line, &body)
        };
        let sent = self.deliver(raw.as_bytes());
        self.keep_honest(&raw);
        for m in sent.iter().filter(|m| m.subject.starts_with("Yinsh Board")) {
            if self.board_mails.len() == 30 {
                self.board_mails.remove(0);
            }
            self.board_mails.push((board, k + 1, m.clone()));
        }
        let stored = self.stored_turns(board);
        let accepted = sent.iter().any(|m| {
            m.subject.starts_with(&format!("Yinsh Board {board}"))
                && !m.subject.contains("Error")
                && m.to.iter().any(|t| t.eq_ignore_ascii_case(&p.address))
        });
        if stored.len() == k + 1 {
            assert!(
                accepted,
                "move {} of board {board} stored, not answered: {sent:?}",
                k + 1
            );
            assert_eq!(stored[k], text, "board {board} move {}", k + 1);
            self.games[g].done += 1;
        } else {
            assert_eq!(
                stored.len(),
                k,
                "board {board}: {stored:?} after move {}",
                k + 1
            );
            let says = |t: &str| sent.iter().any(|m| m.body.contains(t));
            if says("paused") {
                self.refusals.paused += 1;
            } else if sent.is_empty() || says("more than") {
                self.refusals.storm += 1;
            } else {
                panic!("honest move {line:?} refused: {sent:?}");
            }
        }
    }

    /// The log's lines of the last run that handled the mail `raw`: from its line
    /// `mail <Message-ID> from ...`, the lines of the same process (`[pid]`).
    fn log_of(&self, raw: &str) -> String {
        let log =
            std::fs::read_to_string(self.run.home.join("log/yinsh-pbem.log")).expect("the log");
        let opening = format!("mail {} from ", message_id(raw));
        let lines: Vec<&str> = log.lines().collect();
        let Some(first) = lines.iter().rposition(|l| l.contains(&opening)) else {
            return String::new();
        };
        let pid = lines[first]
            .split_whitespace()
            .find(|w| w.starts_with('[') && w.ends_with(']'))
            .unwrap_or("[?]");
        lines[first..]
            .iter()
            .filter(|l| l.contains(pid))
            .copied()
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// Keeps an honest mail for a later replay of its Message-ID in another case.
    fn keep_honest(&mut self, raw: &str) {
        let id = message_id(raw).to_string();
        if self.honest_mails.len() == 20 {
            self.honest_mails.remove(0);
        }
        self.honest_mails.push((id, raw.to_string()));
    }

    /// One honest step: sign the next player up, challenge, play, or chat.
    fn honest(&mut self) {
        self.tick_clock(240);
        if let Some(k) = self.players.iter().position(|p| !p.signed_up) {
            let quick = k + 1 < self.players.len() && k % 3 == 0;
            return self.sign_up(k, quick);
        }
        let open = self
            .games
            .iter()
            .filter(|g| g.done < g.script.len())
            .count();
        match self.run.below(20) {
            _ if open < 2 => self.challenge(),
            0 => self.challenge(),
            1 => {
                let g = &self.games[self.run.below(self.games.len() as u64) as usize];
                let p = self.players[g.white].clone();
                let subject = format!("yinsh chat {} {} {}", g.board, p.userid, p.password);
                let raw = self.mail(&p.address, None, &subject, &format!("{FOREIGN} chat\n"));
                self.deliver(raw.as_bytes());
            }
            _ => self.play(),
        }
    }
}

/// The number of mails: `YINSH_PBEM_SOAK_MAILS`, else 300.
fn mails() -> usize {
    std::env::var("YINSH_PBEM_SOAK_MAILS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

/// The Message-ID of a mail the soak wrote, without its brackets.
fn message_id(raw: &str) -> &str {
    raw.lines()
        .find_map(|l| l.strip_prefix("Message-ID: <"))
        .and_then(|l| l.strip_suffix('>'))
        .expect("Message-ID")
}

/// The binary: `YINSH_PBEM_SOAK_BIN`, else the one cargo built for the tests.
fn binary() -> PathBuf {
    std::env::var_os("YINSH_PBEM_SOAK_BIN")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_yinsh-pbem")))
}

#[test]
fn soak_mixed_honest_and_hostile_mail_with_kills() {
    let n = mails();
    let dir = crate::support::tmp::dir();
    // YINSH_PBEM_SOAK_KEEP=1 keeps the home to look at after the run.
    let dir = if std::env::var_os("YINSH_PBEM_SOAK_KEEP").is_some() {
        let kept = dir.keep();
        eprintln!("soak: the home is kept in {}", kept.display());
        kept
    } else {
        dir.path().to_path_buf()
    };
    let home = dir.join("games");
    std::fs::create_dir_all(&home).expect("home");
    // The operator names an admin who has no account: nobody may take the name.
    std::fs::write(home.join("admins"), "admin\n").expect("admins");
    let started = Instant::now();
    let mut soak = Soak {
        run: Runner::new(binary(), home, 1_795_384_020, 0x5eed_50a4),
        players: (0..6)
            .map(|k| Player {
                userid: format!("h{k}"),
                password: format!("pwSOAK{k}x"),
                address: format!("h{k}@honest.example"),
                signed_up: false,
            })
            .collect(),
        games: Vec::new(),
        confirmed: HashSet::new(),
        unconfirmed_mails: HashMap::new(),
        stranger_mails: HashMap::new(),
        hostile: false,
        with_token: false,
        own_mails: HashMap::new(),
        board_mails: Vec::new(),
        codes: Vec::new(),
        honest_mails: Vec::new(),
        refusals: Refusals::default(),
        most_files: 0,
        bursts: 0,
        seq: 0,
    };
    while soak.run.stats.mails < n {
        if soak.run.below(2) == 0 {
            soak.honest();
        } else {
            hostile::step(&mut soak, n);
        }
    }
    check::at_the_end(&mut soak);
    // Honest play is never throttled (issue 25 finding 15): proven moves pass every
    // limit, however the strangers flood the players' addresses.
    assert_eq!(soak.refusals.storm, 0, "honest moves dropped by a limit");
    let s = &soak.run.stats;
    let moves: usize = soak.games.iter().map(|g| g.done).sum();
    eprintln!(
        "soak: {} mails, {} runs, {} killed, {} honest games, {moves} honest moves, \
         honest moves refused: {} (logins paused) + {} (storm limit), peak {} KiB ({}), \
         at most {} replies to one mail, at most {} mails a day a stranger caused to one \
         mailbox, {:.1} s",
        s.mails,
        s.runs,
        s.killed,
        soak.games.len(),
        soak.refusals.paused,
        soak.refusals.storm,
        s.peak_kib,
        s.peak_subject,
        soak.most_files,
        soak.stranger_mails.values().max().unwrap_or(&0),
        started.elapsed().as_secs_f64()
    );
}
