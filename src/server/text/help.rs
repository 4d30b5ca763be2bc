//! The help texts: `help` (the server's commands) and `yinsh help` (the game, its
//! notation and its commands), written for a newcomer who reads only the mail.

use crate::notation::render::render_board;
use crate::rules::{Game, Variant};

use crate::server::game::extra::{FORFEIT_DAYS, NAG_DAYS};
use crate::server::game::robots::{DRAW_BELOW, MAX_ROBOT_GAMES};
use crate::server::game::vacation::MAX_DAYS;
use crate::server::store::{MAX_PER_PLAYER, SEEK_SECONDS};

/// `help`: the server-wide commands.
pub fn general_help(server_address: &str) -> String {
    let draw = DRAW_BELOW * 100.0;
    let max = MAX_ROBOT_GAMES;
    format!(
        "\
yinsh-pbem: YINSH by e-mail
===========================

Send every command to {server_address} in the Subject line of a mail.
Command words are not case sensitive. The body of a mail is a comment that the
other player sees (a signature, \"Sent from my iPhone\" and the like, and the
quoted mail with its header are left out).
To play, press Reply on your board mail and write your move as the first line.

Accounts
  signup <userid> <password> [<e-mail address> ...]
      Register. Without addresses, mail goes to the address you write from.
      A userid is 1-32 letters, digits, '_', '.' or '-' (no dot before a
      letter). A password has no spaces, quotes or colons. (\"add\" is the
      same command.)
  change password <userid> <current-password> <new-password>
  change address <userid> <password> [<e-mail address> ...]
  signoff <userid> <password>      (or: delete <userid> <password>)
  verify <userid> <token>
      Confirms an address: reply to the mail whose Subject is this command.

Players
  message <userid> <password> <to-userid> ...
      The body of the mail goes to those players; Reply to a message to answer.
  broadcast <userid> <password>
      The body goes to every player (server admins only).
  vacation <userid> <password> <days>
      Stop your clocks for up to {MAX_DAYS} days: no reminders, no forfeits.
      vacation <userid> <password> 0 ends it.
  all show <userid> [next | active]
      A board mail for each of that player's games.

Robots: opponents at any hour
  robot1 .. robot5 are the server's computer players, from level 1 (weakest)
  to level 5 (strongest). Challenge one as you would a person; it answers each
  of your moves within seconds, one mail telling both:
      yinsh challenge alice robot3        (you play White and move first)
      yinsh challenge -blitz robot5 alice (robot5 plays White)
  A robot accepts a draw offer only when it thinks it is losing (below {draw}%),
  and allows no take-backs: its games are rated like any other. You may have
  {max} unfinished games against the robots at a time.

Finding an opponent
  yinsh seeks          the open seeks: games offered to anyone
  yinsh seek <userid> <password> [-blitz] [-unrated] [-robot=<n>] ...
      Offer a game to anyone (a confirmed address only); yinsh take <seekno>
      <userid> <password> takes one.
  yinsh tournaments    the tournaments; yinsh tournament join <name> <userid>
      <password> enters one before it starts.
  \"yinsh help\" has every option of both.

Other
  help                 this text
  list                 the games this server runs
  multiple             the body holds one command per line; each is answered
  yinsh help           how to play YINSH here, with every yinsh command

Your password is never mailed back to you and is stored only as a hash.
The From address alone never lets anyone act for you: every command that changes
something needs your userid and password, or is a reply from your own address to
a mail the server sent you (which says who you are, for that mail only).
"
    )
}

/// `list`: the games this server runs.
pub fn list_text() -> String {
    "\
Games on this server:
  yinsh     YINSH by Kris Burm (GIPF project): normal, and blitz with -blitz
Players always ready: robot1 .. robot5, the computer opponent from level 1
(weakest) to 5 (strongest): send \"yinsh challenge <your userid> robot3\".
Send \"yinsh help\" for how to play.
"
    .to_string()
}

/// `yinsh help`: the game, the notation, and the commands.
pub fn yinsh_help() -> String {
    let board = render_board(&Game::new(Variant::Normal));
    let seek_days = SEEK_SECONDS / 86_400;
    let max_seeks = MAX_PER_PLAYER;
    format!(
        "\
YINSH by e-mail
===============

Playing by Reply: press Reply on your board mail and write your move as the
first line (or resign, propose, accept, reject, undo, pass, chat, decline,
review); anything below it goes to the other player as your comment. No
password is needed: the mail you answer says who you are, as long as you reply
from your own address and it is still that move. A reply to a chat mail chats back; to a
message, writes back.

Commands (in the Subject line):
  yinsh challenge [-blitz] [--nagtime=<days>] [--forfeittime=<days>] <userid1> <userid2>
      Start a game at once. userid1 plays White (o) and moves first; both must
      have signed up. -blitz: the first ring removed wins. The player to move is
      reminded after {NAG_DAYS} days without a move and forfeits after {FORFEIT_DAYS} (or the
      numbers of days given). The player challenged is told who challenged.
  yinsh challenge -password <password> <userid1> <userid2>
      The same, proven by the password of the player who challenges (one of
      the two): the mail's body then goes to both players as a message.
  yinsh seek <userid> <password> [-blitz] [-unrated] [-rating=<min>-<max>] [-robot=<n>] [-white|-black]
      A game with anyone (from an account with a confirmed address): an open
      seek that fits yours (the same kind, both rated or both not, each player
      inside the other's range) starts the game at once; else yours is listed
      for {seek_days} days. -unrated: the game changes no rating. -rating=1400-1800:
      only players so rated may take it. -robot=3: robot3 plays you if nobody
      took it within a day. -white, -black: your colour (else the one who takes
      it plays White). --nagtime and --forfeittime as for a challenge. At most
      {max_seeks} open seeks a player.
  yinsh seeks
      The open seeks, also listed on the server's web site if it has one.
  yinsh take <seekno> <userid> <password>
      Take one: the game starts at once; both players get its board mail.
  yinsh withdraw <seekno> <userid> <password>
  yinsh unseek <seekno> <userid> <password>
      Withdraw your own seek.
  yinsh move <board> <userid> <password> <move>[#<moveno>]
      Play your turn. #<moveno> is optional: the number your turn will get (the
      board mail tells you). A move with a wrong number is refused, so a mail
      sent twice or too late changes nothing.
  yinsh move <board> <userid> <password> resign
  yinsh resign <board> <userid> <password>
  yinsh move <board> <userid> <password> propose | undo | accept | reject
      propose offers a draw; undo asks to take back your last move (and what
      was played after it); the other player answers accept or reject.
  yinsh queue <board> <userid> <password> <move>[#<moveno>]
      A move played as soon as it is your turn (dropped, with a mail, if it
      is not legal then).
  yinsh submit <board> <userid> <password> <move>[#<moveno>]
      Shows the board after your move without playing it;
  yinsh confirm <board> <userid> <password>
      then plays it.
  yinsh decline <board> <userid> <password>
      Any game, whoever started it, is removed, unrated, if you decline it
      before your first move in it; both players, the watchers and whoever
      started it are told.
  yinsh preview <board>[#<moveno>] <move> ...
      The board after the moves given (from move <moveno>); nothing stored.
  yinsh chat <board> <userid> <password>
      The body goes to the other player and the watchers; you are told who got
      it. Reply to a chat to answer it.
  yinsh subscribe <board> <userid> <password>
  yinsh unsubscribe <board> <userid> <password>
      Watch a game: you get its board mails.
  yinsh show <board>[#<moveno>] ...
      The board now, or as it was after move <moveno>.
  yinsh show <userid> ... [all | active | inactive | next]
      The boards of those players' games.
  yinsh review <board> [<userid> <password>]
      The robot's review of a finished game: the turns that lost their player
      the most, the robot's choice there, White's chance after every turn. It
      comes by mail to both players when a game ends; ask again here (or reply
      review to a board mail). With your userid and password it comes to you.
  yinsh showas <userid> <password> [<board> ... | all | active | inactive | next]
      Boards as you see them, with your next command and your queued move.
  yinsh standings [page <n>]
      The rating list (or yinsh ratings), 100 ranks of each list a page.
  yinsh history [<userid>] [page <n>]
      The finished games, the 50 most recent a page: of everyone or of one player.
  yinsh games [<userid> ...] [all | active | inactive | next] [page <n>]
      A list of games (default: active; next: those waiting for that player),
      the 30 most recent a page. Without a userid: the server's games going on.
  yinsh settings <userid> <password> [text-only | html | subject stable|moving | own-turn skip|send]
      How your board mails come: html (the default) adds a picture of the
      board for mail programs that show HTML; text-only leaves it out.
      A board mail's Subject names the player to move (\" **\" at its end: the
      mail carries a comment). subject stable: one Subject per game, \"Yinsh
      Board 101: alice - bob\", kept in one conversation by Gmail; subject
      moving goes back. own-turn skip: no board mail for a turn you played
      (your opponent's answer, or a robot's, shows it); errors, offers and the
      game's end still come; own-turn send goes back.
      Without a choice: how they come now.
  yinsh tournament create <name> <userid> <password> [roundrobin | swiss] [<option> ...]
      A tournament (3-30 letters, digits or -); you are its first player.
      roundrobin (the default): every pair plays twice, once with each colour,
      all games at once. swiss: -rounds=N (3), each paired when the last
      ended. Options: -blitz, --nagtime=N, --forfeittime=N (days), -min=N (3),
      -max=N (16), -start=YYYY-MM-DD (tick starts it then). Only accounts
      with a confirmed address; at most 2 of yours not finished.
  yinsh tournament join <name> <userid> <password>
  yinsh tournament leave <name> <userid> <password>
      Join or leave before the start; leaving after it is a withdrawal: your
      games not finished are resigned.
  yinsh tournament start <name> <userid> <password>
      Its creator starts it (with at least its -min players).
  yinsh tournament show <name>
      The table, the round, the games. A win is 1, a draw 1/2, a bye 1.
      Ties: round robin by Sonneborn-Berger, games won, then head-to-head;
      Swiss by Buchholz, Sonneborn-Berger, then the rating at the start.
  yinsh tournaments
      The list of tournaments.
  yinsh help       this text

The game
  Each side has 5 rings; 51 markers are shared. First the players place their
  rings, one at a time. Then, on your turn, put a marker of your colour in one of
  your rings and move that ring in a straight line: over empty points, and then
  over at most one group of markers, stopping on the first empty point after it.
  A ring never passes over or onto a ring. Every marker jumped is turned over.
  Five markers of your colour in a line make a row: remove it and one of your
  rings. Remove 3 rings and you win (1 in blitz). If your move makes a row for
  your opponent, they remove it at the start of their turn. A player who cannot
  move a ring passes (the server does that for you). When the markers run out,
  or neither side can move, the one who removed more rings wins.

Writing a move
  Points are a letter and a number: e5. Lines run along a column (e2-e7),
  along a number (b4-g4), or with letter and number rising together (c3-f6).
    e5                   place a ring (at the start of the game)
    i8-f5                move the ring on i8 to f5
    i8-f5;xg5-g9xa5      ...then remove your row g5-g9 and your ring a5
    xg5-g9xa5;d3-b3      remove the row your opponent made for you, then move
    i8-f5;xa5            the row may be left out when you have just one
    --                   pass (only when you cannot move; the server does it)
  Parts are separated by ; (a : works too). Case does not matter.

The board (White rings (o), markers o; Black rings (x), markers x):
{board}
How to read the drawing: a point is named by its column letter and its number.
  Columns: the letters A to K stand below the foot of their columns; a column
    runs straight up the page from its letter (e1 at the bottom, e10 at the top).
  Numbers: each of 1 to 11 stands at the upper left end of its line, which runs
    down to the right, one text line lower at each point: the 5 on the left
    names a5, b5, c5 ... j5. The dots level with a number belong to other lines.
  The third direction runs up to the right, letter and number rising together:
    c3, d4, e5, f6.
  So e5 is the fifth point up column E, and c3-f6 is a move up to the right.
"
    )
}
