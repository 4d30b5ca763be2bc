// The board's points for the game page (yinsh-pbem, written as the site's points.js
// and loaded before board.js): the 85 points and their lines, an atomic action's text
// read, a position of the page's data and an action put down on it, the rows of five,
// and why a click of the play mode cannot be taken, in words (issue 47 item 16: "c5
// has no ring of yours", "a ring cannot jump over a ring"). No drawing, no page: it
// gives window.YinshPoints to board.js.
(function () {
  'use strict';
  var STEP = 40, PAD = 14, COS30 = 0.8660254037844386;

  function at(i, n) { return [PAD + (i + 1) * COS30 * STEP, PAD + (9.5 - (n - i / 2)) * STEP]; }
  function inHexagon(i, n) {
    var dx = i - 5, dy = n - 6;
    return Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dx - dy)) <= 5;
  }
  function onBoard(i, n) {
    if (i < 0 || i > 10 || n < 1 || n > 11 || !inHexagon(i, n)) return false;
    return !((i === 0 && (n === 1 || n === 6)) || (i === 5 && (n === 1 || n === 11)) ||
      (i === 10 && (n === 6 || n === 11)));
  }
  // The 85 points in the engine's order (by letter, then number).
  var POINTS = [], INDEX = {};
  for (var i = 0; i < 11; i++) {
    for (var n = 1; n <= 11; n++) {
      if (onBoard(i, n)) {
        INDEX[String.fromCharCode(97 + i) + n] = POINTS.length;
        POINTS.push({ name: String.fromCharCode(97 + i) + n, i: i, n: n });
      }
    }
  }
  function index(i, n) { return onBoard(i, n) ? INDEX[String.fromCharCode(97 + i) + n] : -1; }
  // The points from a to b on one line, both ends left out (null when not on a line).
  function line(a, b) {
    var p = POINTS[a], q = POINTS[b], di = q.i - p.i, dn = q.n - p.n, out = [];
    if (!(di === 0 || dn === 0 || di === dn)) return null;
    var len = Math.max(Math.abs(di), Math.abs(dn)), si = Math.sign(di), sn = Math.sign(dn);
    for (var s = 1; s < len; s++) out.push(index(p.i + s * si, p.n + s * sn));
    return out;
  }
  // The points strictly between the points named a and b (none when not on a line).
  function between(a, b) { return line(INDEX[a], INDEX[b]) || []; }
  // An atomic action's text (e5, g8-i8, xd5-h9, xc6, --) read.
  function parse(a) {
    if (a === '--') return { kind: 'pass' };
    if (a.charAt(0) === 'x') {
      var ends = a.slice(1).split('-');
      if (ends.length === 2) {
        var pts = [INDEX[ends[0]]].concat(between(ends[0], ends[1]), [INDEX[ends[1]]]);
        return { kind: 'row', points: pts };
      }
      return { kind: 'ring', path: [INDEX[ends[0]]] };
    }
    var two = a.split('-');
    if (two.length === 2) return { kind: 'move', path: [INDEX[two[0]], INDEX[two[1]]] };
    return { kind: 'place', path: [INDEX[a]] };
  }
  // A position of the page's data (85 characters, then the rings removed, a digit a
  // side) as {cells, removed: [white, black]}.
  function state(s) {
    return { cells: s.slice(0, 85).split(''), removed: [+s.charAt(85), +s.charAt(86)] };
  }
  // Puts the action `a` of `side` ('W' or 'B') down on `pos`; returns it read.
  function apply(pos, a, side) {
    var act = parse(a), c = pos.cells, ring = side === 'W' ? 'W' : 'B';
    var marker = ring.toLowerCase();
    if (act.kind === 'place') c[act.path[0]] = ring;
    if (act.kind === 'move') {
      var from = act.path[0], to = act.path[1];
      line(from, to).forEach(function (p) {
        if (c[p] === 'w') c[p] = 'b'; else if (c[p] === 'b') c[p] = 'w';
      });
      c[from] = marker; c[to] = ring;
    }
    if (act.kind === 'row') act.points.forEach(function (p) { c[p] = '.'; });
    if (act.kind === 'ring') { c[act.path[0]] = '.'; pos.removed[side === 'W' ? 0 : 1] += 1; }
    return act;
  }
  // The rows of five markers of one colour on the board (each run of five or more).
  function rows(cells) {
    var out = [];
    [[0, 1], [1, 0], [1, 1]].forEach(function (d) {
      POINTS.forEach(function (p, k) {
        var c = cells[k];
        if ((c !== 'w' && c !== 'b') || cells[index(p.i - d[0], p.n - d[1])] === c) return;
        var run = [k], j = 1, q;
        while ((q = index(p.i + j * d[0], p.n + j * d[1])) >= 0 && cells[q] === c) { run.push(q); j++; }
        if (run.length >= 5) out.push(run);
      });
    });
    return out;
  }

  // Why the ring on `from` cannot go to `to` in `cells`: off its lines, over a ring,
  // past the first free point after markers, onto a piece.
  function whyNotTo(cells, from, to) {
    var f = POINTS[from].name, t = POINTS[to].name, path = line(from, to), jumped = false;
    if (!path) return t + ' is not on a line with ' + f + ': a ring moves along one of its lines.';
    for (var s = 0; s < path.length; s++) {
      var c = cells[path[s]], here = POINTS[path[s]].name;
      if (c === 'W' || c === 'B') return 'A ring cannot jump over a ring (the one on ' + here + ').';
      if (c === 'w' || c === 'b') jumped = true;
      else if (jumped) {
        return 'A ring that jumps over markers stops on the first free point after them: ' +
          here + ', not ' + t + '.';
      }
    }
    var end = cells[to];
    if (end === 'W' || end === 'B') return t + ' has a ring: a ring moves to a free point.';
    if (end === 'w' || end === 'b') return t + ' has a marker: a ring moves to a free point.';
    return 'The ring on ' + f + ' cannot go to ' + t + '.';
  }
  // Why a click on point `k` is not taken: `cells` the position as clicked so far,
  // `side` the player's ('W' or 'B'), `nexts` the actions that may come next (read),
  // `clicks` the points clicked towards the next one, `help` what to do now.
  function whyNot(cells, side, nexts, clicks, k, help) {
    var name = POINTS[k].name, c = cells[k], ring = side, marker = side.toLowerCase();
    var kinds = {};
    nexts.forEach(function (n) { kinds[n.act.kind] = true; });
    var theirs = side === 'W' ? 'Black\'s' : 'White\'s';
    var what = c === ring ? 'a ring of yours' : c === marker ? 'a marker of yours'
      : c === '.' ? 'nothing' : (c === 'W' || c === 'B' ? theirs + ' ring' : theirs + ' marker');
    if (!nexts.length) return 'Your turn is complete: send it, or undo a click to change it.';
    if (clicks.indexOf(k) >= 0) return name + ' is picked already. ' + help;
    if (kinds.place) return name + ' has a ring already: place yours on a free point (a dot).';
    if (kinds.row) {
      if (c !== marker) return name + ' has no marker of yours: a row of five of your markers is removed.';
      return name + ' is not in a row of five of your markers' +
        (clicks.length ? ' with ' + POINTS[clicks[0]].name : '') + '. ' + help;
    }
    if (kinds.ring) return name + ' has no ring of yours (it holds ' + what + '): remove one of your rings.';
    if (kinds.move && clicks.length) return whyNotTo(cells, clicks[0], k);
    if (kinds.move) {
      if (c === ring) return 'The ring on ' + name + ' cannot move: each of its lines is blocked.';
      return name + ' has no ring of yours (it holds ' + what + '): click one of your rings.';
    }
    if (kinds.pass) return 'No ring of yours can move: press Pass.';
    return name + ' cannot be chosen now. ' + help;
  }

  window.YinshPoints = { STEP: STEP, PAD: PAD, COS30: COS30, POINTS: POINTS, INDEX: INDEX,
    at: at, inHexagon: inHexagon, onBoard: onBoard, index: index, between: between,
    parse: parse, state: state, apply: apply, rows: rows, whyNot: whyNot };
})();
