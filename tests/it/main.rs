//! The one integration-test binary: each module tests one capability; the helpers they
//! share live in `support/`.

mod accounts_attacks; // issue 25: confirmations per account, one cap per mailbox, expiry, verify codes, role and look-alike userids, local addresses
mod accounts_by_mail; // signup, change password/address, signoff, list, help, multiple by mail
mod address; // mail addresses: what is accepted can be mailed; odd From/Reply-To
mod ai;
mod alerts; // issue 48: the shipped alerting rules, promtool test rules on files the binary wrote: flush stopped or failing, spool growing, a failing address // the computer opponent: self-play, think and match through the binary, Elo
mod auth_results; // [security] trusted_authserv_id: Authentication-Results of that id judge the From, others ignored
mod backup; // issue 48: backup and restore of a busy store that plays on; deliver --dry-run writes nothing
mod boardspace; // the 408 Boardspace games replayed through the engine and the notation
mod bounce_trust; // issue 45: a bounce counts against the exact address mailed (a stranger's +tag spellings silence nobody); no verify code in the log
mod bounces; // issue 30: DSNs to VERP bounce addresses: hard bounces counted, an address failing, restored; forged ones ignored
mod bounds; // bounded work per mail: multiple, show, message and challenge caps
mod browser; // headless Chromium opens a board mail's HTML part and a game page: screenshots, picture loaded, nothing fetched
mod browser_axe; // issue 47 item 12: axe-core in Chromium on every page of the site and on a board, error and review mail: nothing serious; the position in words
mod browser_keys; // issue 47 items 13-15: the keyboard along the board's lines, focus kept; a used play link; Copy on plain http
mod browser_mail; // issue 26: Chromium lays out a board mail's HTML part at 390 px and desktop width: paragraphs reflowed
mod browser_play_more; // issue 27: Chromium clicks removals owed at the start of a turn, then the move; a turn ending in the pass the page offers
mod browser_review; // issue 28: Chromium steps a reviewed game's board from its chart (click, Enter, between points, the list) at desktop width and 390 px
mod browser_review_mail; // issue 28: Chromium shows the review mail's HTML part (chart, turning points' boards, list) at 390 px and desktop width
mod browser_small; // issue 47 item 16: Undo one click, the opponent's move marked, placement dots, the phone layout, refused clicks told why, the icon, no hidden picture fetched, a strict CSP
mod browser_tournament; // issue 49: the tournament page in Chromium, phone and desktop, axe-core clean
mod by_reply; // playing by pressing Reply: mail clients' replies, a whole game, the attacks
mod concurrency; // 50 simultaneous deliver processes: the lock serialises them
mod config; // the configuration file, environment and command line; check-config
mod confirm; // address confirmation: verify mails, no foreign text or floods to unconfirmed addresses
mod corrupt_store; // a spoiled game file is a named error; a mail touching it exits 75
#[cfg(any(debug_assertions, feature = "fault-injection"))] // needs fault injection
mod crash; // crash safety of deliver: kills at every fault point, disk full, torn journals
mod decline; // a game someone else started: who, declined by command or reply, removed unrated
mod deliver_corpus; // the .eml corpus through deliver on a game in progress (snapshots)
mod dkim; // issue 30: replies DKIM-signed (Ed25519, RSA) by outbox and SMTP, checked by dkimpy; check-config's record
mod duplicates; // the duplicate-mail guard and storm counts: one key form, expiry
mod email_game; // a whole game by mail through the binary, removals and forced passes
mod eval_evidence; // issue 29: the robot's evaluation against 408 real games: its favourite wins, Brier score by phase
mod eval_terms; // issue 29: the terms of the real games' positions, for scripts/fit-eval (run by hand)
mod exec; // the command handlers in-process (no process), one file per command family
mod first_game; // issue 26: a first game without a stumble: phone input, old mails, offers in words, preview errors, unknown commands, error mails
mod forged_from; // [security] trusted_authserv_id: a From failing the trusted checks proves nothing
mod fuzz_seeds; // the deliver fuzz target's seeds each reach their command
mod gate; // every mail of every run passes the one outgoing gate: closed, nothing is sent
mod guessing; // password guessing paused per userid; admin names reserved; watcher cap
mod held_message; // issue 45: a password-less challenge's message held, passed on once by Reply or the password; a forger's never
mod hostile; // hostile input through the binary: odd userids, password leaks, broken mail
mod html_mail; // board mails with an HTML part: picture inline, escaping, size, settings
mod index; // the derived indexes: kept equal to a rebuild, rebuilt when damaged, pages; damaged game files skipped
mod kept_pictures; // issue 29: a position shown again is the picture its move kept, read not drawn; a broken one drawn again; the folder bounded
mod limits; // capped comments and offers, challenges for others, verify guessing, tick gate, reused userids
mod mail_hygiene; // huge References, hidden characters removed and log fields escaped, private files whatever the umask
mod mail_io; // mail in and out: parsing the corpus, building replies, flushing the spool
mod mail_look; // issue 26: what mails say and how they look: welcome, endings once, standings, player text, reflow, error mails pictured, tick --verbose
mod mail_words; // issue 47 items 8-10: text parts in 78 columns with the position in words, HTML paragraphs, the writer's own comment
mod mails_explain; // mails that explain themselves: help yinsh, yinsh games for the whole server
mod masked_at_source; // passwords masked where the command is parsed: every echo of a hidden word
mod naive; // a naive second YINSH generator that cross-checks the engine
mod nobody_asked; // games nobody asked for: declined before one's first move, capped, ended quietly; watchers confirmed; robot time per person
mod notation; // the move notation: parser, printer, shorthand, refusals, playouts
mod offer_words; // issue 45 attack 4: draw offers and comments count among the chats and messages one mailbox gets a day
mod opponent; // the robots by mail: a whole game, challenges, offers, reserved names, floods, kill -9
mod owed_budget; // issue 45: work owed answerable to its cause: strangers' reviews within the victim's budget; robot time per person
mod package; // the Debian package inputs: generated man pages, assets, the packaged config
mod passwords; // passwords never reach a reply or the log, through the real deliver
mod pbmserv_commands; // offers, queue, submit, watchers, standings, tick by mail
mod perft; // perft counts of the engine against the naive generator; the perft command
mod picture; // the board picture (SVG, PNG) against reference images; the render command
mod picture_cost; // issue 29: the cheaper picture looks as before (pixels) and is no larger (bytes)
mod play_page; // issue 27: the page types the move: legal turns equal the engine's; Chromium clicks placements, moves, rows; the composed mail plays
mod play_token; // issue 27: the play link's token: plays its one turn from the player's address; stale, replayed, other address, board or key refused; in no other mail, site file or log
mod players_day; // issue 45: a confirmed player's own day answered in full (replies of any first line, old mails, thanks after the game, trusted password-less listings); a forger held to the budget
mod playouts; // random legal playouts: engine and naive generator agree, counts add up
mod records; // issue 46: every record of a game (transcript, SGF, the site's, the move list) reads back to the same turns; old records read right
mod render; // the ASCII board and its status block, byte for byte (snapshots)
mod replay; // the replay command: transcripts, JSON summaries, board output, errors
mod reply_shapes; // issue 26: replies built as Outlook, Gmail, iPhone Mail, Yahoo and Thunderbird write them, in seven languages
mod returning; // a retired userid taken back: its former owner proved by inbound::identity
mod review; // issue 28: the robot's review: real games end at their result, the blunder named, deterministic, the review command
mod review_mail; // issue 28: a finished game reviewed and mailed to its players; yinsh review, by reply; a stranger's flood within the hourly share; a killed run's claim lapses
mod review_measure; // issue 46: the 408 Boardspace games reviewed, one JSON line a game, for scripts/measure-review (run by hand)
mod robot; // robot rules: loops, bounces, lists, duplicates and storms are not answered
mod rules; // the rules engine on hand-made positions, one test per rule
mod seeks; // issue 49: open seeks by mail: taken, paired, expired, withdrawn, a robot's after a day; the limits; a stranger's within the budget
mod sending; // sending replies: dead letters, retries, timeouts, the lock wait
mod settings_mail; // issue 26: the Subject explained, subject stable, own-turn skip
mod sgf; // Boardspace SGF records and transcripts read and written; import and export
mod site; // the static web site: refreshed after mails, the site command, nothing private on it
mod site_page; // issues 26/27: a finished game in a few files, mail links without the script, tables, addresses per move, clock, phones
mod site_review; // issue 28: a finished game's page with the robot's review: the chart under the board, its points and values, the turning points, escaped; none without a review; refresh and the site command
mod smtp_e2e; // delivery over real SMTP to a local sink, retries and flush
mod soak; // 300 (or 5,000) honest and hostile mails through deliver with kill -9; the end state checked
mod social; // issue 26: a challenge's message proven, vacations shown, chats confirmed and answered by Reply
mod status; // issue 30: yinsh-pbem status, its figures and its Prometheus textfile
mod store; // the store: accounts and game files round-trip, atomic writes, the lock
mod strangers; // issue 25: a stranger's reach per mailbox, proven answers, honest play
mod stumbles; // issue 47: a first game without a stumble, part 2: one mail per turn against a robot, old mails answered with the board, error mails quoting the player, boards with game errors
mod support; // helpers shared by the tests (binary, mails, test servers): no tests
mod tournament; // issue 49: tournaments by mail: a round robin of four to its end, the limits
mod tournament_swiss; // issue 49: a Swiss of seven with a bye, a withdrawal and a forfeit; a stranger's commands
mod typos; // common typos get the fix: en dash, spaces, to, pass, <password>, did you mean
mod unconfirmed; // no word of a stranger's mail reaches an unconfirmed address, whatever the refusal
