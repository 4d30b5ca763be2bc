// The game page's script (yinsh-pbem, written as the site's board.js, after
// points.js: the points, actions and why a click is not taken; one file for every
// game). It draws the board as SVG from the page's data (#game-data: every
// position as 85 characters and the rings removed, each turn's atomic actions), steps
// through the positions (buttons, arrow keys, the move links, #m<k> in the address,
// the points of a review's chart),
// and with #play=<token> in the address lets the player to move click their turn:
// the clicks are matched against the legal turns the server listed (no rules here
// beyond putting pieces down and turning markers over), the turn is shown as it grows,
// a click not taken is told why, Undo takes back one click, the opponent's last turn
// is marked until the first choice, and the mail is composed (mailto: and a Subject
// to copy). The token is read from the
// address only; it is never sent anywhere but into the composed mail. A token for a
// move already played (`play-<move>-...`) is used up: the page says so and shows the
// game. The position is also written in words (#position-list, the same lines as
// src/server/text/position.rs). In play mode the board is a group of 85 point buttons
// with one Tab stop; the arrow keys move along the board's lines (Up and Down: the
// column; Left and Right: the line rising to the right, with Shift the one falling).
(function () {
  'use strict';
  var dataNode = document.getElementById('game-data');
  if (!dataNode) return;
  var data = JSON.parse(dataNode.textContent);
  var Y = window.YinshPoints;
  var NS = 'http://www.w3.org/2000/svg';
  var STEP = Y.STEP, PAD = Y.PAD, COS30 = Y.COS30;
  var WIDTH = 12 * COS30 * STEP + 2 * PAD, HEIGHT = 12 * STEP + 2 * PAD;
  var RING = 0.44 * STEP, MARKER = 0.27 * STEP;
  // The picture's palette (src/picture/svg.rs): colour-blind safe Okabe-Ito marks, each
  // with a shape of its own and at least 3:1 against what it lies on (issue 47 item 16).
  var C = { board: '#ece6da', grid: '#8d8578', ink: '#2b2723', outline: '#111111',
    white: '#ffffff', black: '#1e1e1e', grey: '#9a9a9a', move: '#d55e00', row: '#0072b2' };
  var NAMES = { W: 'white ring', B: 'black ring', w: 'white marker', b: 'black marker' };
  var POINTS = Y.POINTS, INDEX = Y.INDEX, at = Y.at, inHexagon = Y.inHexagon, onBoard = Y.onBoard;
  var index = Y.index, between = Y.between, parse = Y.parse, apply = Y.apply, rows = Y.rows;
  function state(k) { return Y.state(data.states[k]); }

  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function xy(k) { var p = POINTS[k]; return at(p.i, p.n); }
  function line(parent, a, b, color, width, opacity) {
    var p = xy(a), q = xy(b);
    el('path', { d: 'M' + p[0].toFixed(1) + ' ' + p[1].toFixed(1) + 'L' + q[0].toFixed(1) + ' ' +
      q[1].toFixed(1), stroke: color, 'stroke-width': width, 'stroke-linecap': 'round',
      'stroke-opacity': opacity || 1, fill: 'none' }, parent);
  }
  function circle(parent, k, r, color, width, dash) {
    var p = xy(k), c = el('circle', { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: r,
      fill: 'none', stroke: color, 'stroke-width': width, 'data-at': POINTS[k].name }, parent);
    if (dash) c.setAttribute('stroke-dasharray', '5 3.4');
    return c;
  }

  // The board: drawn once; the pieces and marks are redrawn for each position.
  var svg = el('svg', { viewBox: '0 0 ' + WIDTH.toFixed(1) + ' ' + HEIGHT.toFixed(1),
    id: 'svgboard', role: 'img', 'aria-label': 'The board', 'aria-describedby': 'position-list' });
  (function drawBoard() {
    var centre = at(5, 6), k = 1 + 0.62 / 5;
    var hex = [[0, 1], [5, 1], [10, 6], [10, 11], [5, 11], [0, 6]].map(function (c) {
      var p = at(c[0], c[1]);
      return (centre[0] + (p[0] - centre[0]) * k).toFixed(1) + ',' +
        (centre[1] + (p[1] - centre[1]) * k).toFixed(1);
    }).join(' ');
    el('polygon', { points: hex, fill: C.board, stroke: C.grid, 'stroke-width': 2,
      'stroke-linejoin': 'round', 'aria-hidden': 'true' }, svg);
    var grid = el('g', { 'aria-hidden': 'true' }, svg);
    [[0, 1], [1, 0], [1, 1]].forEach(function (d) {
      POINTS.forEach(function (p) {
        if (onBoard(p.i - d[0], p.n - d[1])) return;
        var j = 0;
        while (onBoard(p.i + (j + 1) * d[0], p.n + (j + 1) * d[1])) j++;
        if (j > 0) line(grid, INDEX[p.name], index(p.i + j * d[0], p.n + j * d[1]), C.grid, 1.4);
      });
    });
    function label(text, i, n) {
      var p = at(i, n), t = el('text', { x: p[0].toFixed(1), y: (p[1] + 4.5).toFixed(1),
        'text-anchor': 'middle', 'font-size': 13, fill: C.ink, 'aria-hidden': 'true',
        'font-family': 'Helvetica, Arial, sans-serif' }, svg);
      t.textContent = text;
    }
    for (var i = 0; i < 11; i++) {
      var ns = [];
      for (var n = 0; n <= 12; n++) if (inHexagon(i, n)) ns.push(n);
      label(String.fromCharCode(65 + i), i, ns[0] - 1);
      if (i >= 5) label(String.fromCharCode(65 + i), i, ns[ns.length - 1] + 1);
    }
    for (var m = 1; m <= 11; m++) {
      var is = [];
      for (var c = -1; c <= 11; c++) if (inHexagon(c, m)) is.push(c);
      label(String(m), is[0] - 1, m);
      if (m >= 6) label(String(m), is[is.length - 1] + 1, m);
    }
  })();
  var hidden = { 'aria-hidden': 'true' };
  var under = el('g', hidden, svg), pieces = el('g', hidden, svg), over = el('g', hidden, svg);
  var hits = el('g', {}, svg);
  // One target a point, STEP wide: at 390 px the board is some 33 px a step.
  var targets = POINTS.map(function (p, k) {
    var c = xy(k), t = el('circle', { cx: c[0].toFixed(1), cy: c[1].toFixed(1), r: STEP / 2,
      fill: 'transparent', 'class': 'pt', 'data-point': p.name }, hits);
    return t;
  });

  function ring(parent, k, color) {
    var p = xy(k), width = RING * 0.38, mid = RING - width / 2;
    var a = { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: mid.toFixed(1), fill: 'none' };
    el('circle', Object.assign({ stroke: C.outline, 'stroke-width': (width + 3).toFixed(1) }, a), parent);
    el('circle', Object.assign({ stroke: color === 'W' ? C.white : C.black,
      'stroke-width': width.toFixed(1) }, a), parent);
    if (color === 'B') el('circle', Object.assign({ stroke: C.grey, 'stroke-width': 1 }, a), parent);
  }
  function marker(parent, k, color) {
    var p = xy(k), a = { cx: p[0].toFixed(1), cy: p[1].toFixed(1) };
    el('circle', Object.assign({ r: MARKER.toFixed(1), fill: color === 'w' ? C.white : C.black,
      stroke: C.outline, 'stroke-width': 1.8 }, a), parent);
    if (color === 'b') {
      el('circle', Object.assign({ r: (MARKER * 0.6).toFixed(1), fill: 'none', stroke: C.grey,
        'stroke-width': 1 }, a), parent);
    }
  }
  function clear(g) { while (g.firstChild) g.removeChild(g.firstChild); }
  // A band around the points a..b, dashed and lightly filled: blue round a row of five
  // waiting to be removed (its line 4:1 against the board), orange round one removed.
  function band(parent, a, b, color) {
    var p = xy(a), q = xy(b), h = 0.42 * STEP, dx = q[0] - p[0], dy = q[1] - p[1];
    var len = Math.sqrt(dx * dx + dy * dy), turn = Math.atan2(dy, dx) * 180 / Math.PI;
    el('rect', { x: (-h).toFixed(1), y: (-h).toFixed(1), width: (len + 2 * h).toFixed(1),
      height: (2 * h).toFixed(1), rx: h.toFixed(1), fill: color, 'fill-opacity': 0.14,
      stroke: color, 'stroke-width': 3, 'stroke-dasharray': '7 4', 'class': 'row-band',
      transform: 'translate(' + p[0].toFixed(1) + ' ' + p[1].toFixed(1) + ') rotate(' +
        turn.toFixed(1) + ')' }, parent);
  }
  // Draws `pos`, the `marks` of a turn (its actions and side), and in play mode the
  // points to click (`open`: dots, small ones for the many points of a placement) and
  // those clicked (`picked`: a thick ring, orange between black lines).
  function draw(pos, marks, open, picked, showRows) {
    [under, pieces, over].forEach(clear);
    if (showRows) rows(pos.cells).forEach(function (r) { band(under, r[0], r[r.length - 1], C.row); });
    (marks || []).forEach(function (act) {
      if (act.kind === 'move') {
        line(under, act.path[0], act.path[1], C.move, 5);
        circle(over, act.path[0], MARKER + 5, C.move, 3, true);
        circle(over, act.path[1], RING + 4, C.move, 3.5);
        between(POINTS[act.path[0]].name, POINTS[act.path[1]].name).forEach(function (p) {
          if (pos.cells[p] !== '.') circle(over, p, MARKER + 4, C.move, 3);
        });
      }
      if (act.kind === 'place') circle(over, act.path[0], RING + 4, C.move, 3.5);
      if (act.kind === 'row') band(under, act.points[0], act.points[act.points.length - 1], C.move);
      if (act.kind === 'ring') {
        var p = xy(act.path[0]), r = 0.25 * STEP;
        el('path', { d: 'M' + (p[0] - r) + ' ' + (p[1] - r) + 'L' + (p[0] + r) + ' ' + (p[1] + r) +
          'M' + (p[0] - r) + ' ' + (p[1] + r) + 'L' + (p[0] + r) + ' ' + (p[1] - r),
          stroke: C.move, 'stroke-width': 4, 'stroke-linecap': 'round' }, over);
      }
    });
    pos.cells.forEach(function (c, k) {
      if (c === 'W' || c === 'B') ring(pieces, k, c);
      if (c === 'w' || c === 'b') marker(pieces, k, c);
    });
    var dot = open && open.length > 20 ? 4.5 : 7;
    (open || []).forEach(function (k) {
      var p = xy(k);
      el('circle', { cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: dot, fill: C.row,
        stroke: C.white, 'stroke-width': 2, 'class': 'open', 'data-at': POINTS[k].name }, over);
    });
    (picked || []).forEach(function (k) {
      circle(over, k, RING + 5, C.outline, 9).setAttribute('class', 'picked');
      circle(over, k, RING + 5, C.move, 5).setAttribute('class', 'picked-in');
    });
    // In play mode every point is a button (those that cannot be chosen now
    // aria-disabled), one of them in the Tab order; else the picture has no parts.
    if (open && (rove < 0 || open.length && open.indexOf(rove) < 0 && !isPoint(document.activeElement))) {
      rove = open.length ? open[0] : rove < 0 ? INDEX.e5 : rove;
    }
    targets.forEach(function (t, k) {
      if (!open) {
        ['aria-label', 'tabindex', 'role', 'aria-disabled'].forEach(function (a) { t.removeAttribute(a); });
        return;
      }
      var c = pos.cells[k], can = open.indexOf(k) >= 0;
      t.setAttribute('role', 'button');
      t.setAttribute('aria-label', POINTS[k].name + ', ' + (NAMES[c] || 'empty') + (can ? ', can be chosen' : ''));
      t.setAttribute('tabindex', k === rove ? '0' : '-1');
      if (can) t.removeAttribute('aria-disabled'); else t.setAttribute('aria-disabled', 'true');
    });
    describe(pos);
  }
  // The point that is the board's Tab stop in play mode (-1 before the first draw).
  var rove = -1;
  function isPoint(node) { return !!(node && node.classList && node.classList.contains('pt')); }
  // The position in words, the lines of src/server/text/position.rs.
  var listNode = document.getElementById('position-list');
  function words(pos) {
    var out = [];
    [['White', 'W', 'w'], ['Black', 'B', 'b']].forEach(function (s) {
      [['rings', s[1]], ['markers', s[2]]].forEach(function (w) {
        var pts = [];
        pos.cells.forEach(function (c, k) { if (c === w[1]) pts.push(POINTS[k].name); });
        out.push(s[0] + '\'s ' + w[0] + (pts.length ? ' (' + pts.length + '): ' + pts.join(', ') : ': none') + '.');
      });
    });
    out.push('Rings removed: White ' + pos.removed[0] + ', Black ' + pos.removed[1] + '.');
    return out;
  }
  function describe(pos) {
    if (!listNode) return;
    clear(listNode);
    words(pos).forEach(function (line) {
      var li = document.createElement('li');
      li.textContent = line;
      listNode.appendChild(li);
    });
  }
  // The point one step from k along a line for an arrow key (-1: none): Up and Down
  // the column; Left and Right the line rising to the right, with Shift the one
  // falling (and the falling one where the rising one leaves the board).
  var RISING = { ArrowUp: [0, 1], ArrowDown: [0, -1], ArrowRight: [1, 1], ArrowLeft: [-1, -1] };
  var FALLING = { ArrowRight: [1, 0], ArrowLeft: [-1, 0] };
  function stepFrom(k, key, shift) {
    var p = POINTS[k], d = (shift && FALLING[key]) || RISING[key];
    var j = d ? index(p.i + d[0], p.n + d[1]) : -1;
    if (j < 0 && !shift && FALLING[key]) j = index(p.i + FALLING[key][0], p.n + FALLING[key][1]);
    return j;
  }

  // Stepping through the game.
  // The board goes first in its box; the picture of the position now is only for
  // readers without the script (a <noscript>, so it is never fetched here).
  var boardBox = document.getElementById('board-box'), cap = document.getElementById('caption');
  var score = document.getElementById('score'), lastNode = document.getElementById('position-last');
  boardBox.insertBefore(svg, boardBox.firstChild);
  var ready = false;
  var links = document.querySelectorAll('a[data-k]'), last = data.states.length - 1, at_ = last;
  function scoreText(pos) {
    return 'Rings removed: White ' + pos.removed[0] + ', Black ' + pos.removed[1] + '.';
  }
  function show(k) {
    at_ = Math.max(0, Math.min(last, k));
    if (ready && at_ === last) return render();
    var pos = state(at_), marks = at_ > 0 ? data.moves[at_ - 1].map(parse) : [];
    draw(pos, marks, null, null, at_ < last || !data.over);
    svg.setAttribute('role', 'img');
    svg.setAttribute('aria-label', data.captions[at_]);
    cap.textContent = data.captions[at_];
    if (lastNode) lastNode.textContent = data.captions[at_];
    score.textContent = scoreText(pos);
    links.forEach(function (a) { a.className = (+a.dataset.k === at_) ? 'here' : ''; });
    chartPoints.forEach(function (c) { c.classList.toggle('at', +c.dataset.position === at_); });
  }
  var go = { first: function () { show(0); }, prev: function () { show(at_ - 1); },
    next: function () { show(at_ + 1); }, last: function () { show(last); } };
  document.querySelectorAll('#step button').forEach(function (b) {
    b.addEventListener('click', go[b.dataset.go]);
  });
  // Steps to position k from a link or the chart: on a phone the board stays in view
  // (sticky); where the page ends below the move list, it is scrolled back into view.
  function goTo(k) {
    show(k);
    var r = svg.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) svg.scrollIntoView({ block: 'nearest' });
    if (!token && history.replaceState) history.replaceState(null, '', '#m' + at_);
  }
  links.forEach(function (a) {
    a.addEventListener('click', function (e) {
      e.preventDefault();
      goTo(+a.dataset.k);
    });
  });
  // The review's chart (a finished game's, when reviewed): each point a button that
  // steps to its position (the result of a game ended off the board: the last); a
  // click elsewhere on the chart steps to the nearest point.
  var chart = document.querySelector('#review-chart svg');
  var chartPoints = chart ? chart.querySelectorAll('circle.pt[data-position]') : [];
  chartPoints.forEach(function (c) {
    var k = +c.dataset.position, pct = (data.chances || [])[k];
    var what = k > last ? 'The result' : data.captions[k].replace(/\.$/, '');
    c.setAttribute('tabindex', '0');
    c.setAttribute('role', 'button');
    c.setAttribute('aria-label', what + (pct === undefined ? '' : ': White\'s chance ' + pct + '%'));
    c.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); goTo(k); }
    });
  });
  if (chart && chartPoints.length) {
    chart.setAttribute('data-live', '');
    chart.addEventListener('click', function (e) {
      var hit = e.target.closest && e.target.closest('circle.pt[data-position]');
      if (hit) return goTo(+hit.dataset.position);
      var best = null, gap = Infinity;
      chartPoints.forEach(function (c) {
        var r = c.getBoundingClientRect(), d = Math.abs(r.left + r.width / 2 - e.clientX);
        if (d < gap) { gap = d; best = c; }
      });
      if (best) goTo(+best.dataset.position);
    });
    document.getElementById('review-how').hidden = false;
  }
  document.addEventListener('keydown', function (e) {
    if (e.target.closest && (e.target.closest('#play') || e.target.closest('#svgboard'))) return;
    if (e.key === 'ArrowLeft') go.prev();
    if (e.key === 'ArrowRight') go.next();
  });
  document.getElementById('step').hidden = false;

  // Play mode.
  // A token names its move (play-<move>-...): one for a move already played is used
  // up, and never plays the move of the player now to move.
  var found = /^#play=([A-Za-z0-9_-]{1,64})$/.exec(location.hash);
  var forMove = found ? +((/^play-(\d+)-/.exec(found[1]) || [])[1] || 0) : 0;
  var token = found && data.play && forMove === data.play.k ? found[1] : null;
  var fromHash = /^#m(\d+)$/.exec(location.hash);
  show(fromHash ? +fromHash[1] : last);
  if (found && !token) {
    var used = forMove > 0 && forMove <= last, note = document.getElementById(used ? 'play-used' : 'play-none');
    if (used) document.getElementById('play-used-k').textContent = forMove;
    if (note) note.hidden = false;
  }
  if (!token) return;
  // `chosen`: the actions of the turn so far; `made`: the clicks that chose each (an
  // undo takes back one click, not a whole action); `clicks`: those towards the next.
  var play = data.play, chosen = [], made = [], clicks = [];
  var box = document.getElementById('play'), turnOut = document.getElementById('play-turn');
  var help = document.getElementById('play-help'), choices = document.getElementById('play-choices');
  var send = document.getElementById('play-send'), copy = document.getElementById('play-copy');
  var mail = document.getElementById('play-mail'), toField = document.getElementById('play-to');
  var subjectField = document.getElementById('play-subject'), whyNode = document.getElementById('play-why');
  box.hidden = false;
  boardBox.parentNode.classList.add('playing');
  function same(a, b) { return a.length <= b.length && a.every(function (x, j) { return x === b[j]; }); }
  function candidates() { return play.turns.filter(function (t) { return same(chosen, t.a); }); }
  function nexts() {
    var seen = {}, out = [];
    candidates().forEach(function (t) {
      var a = t.a[chosen.length];
      if (a !== undefined && !seen[a]) { seen[a] = true; out.push({ text: a, act: parse(a) }); }
    });
    return out;
  }
  // The next actions the clicks so far fit: a path begun by them, a row holding them.
  function fitting(list, cs) {
    return list.filter(function (n) {
      if (n.act.kind === 'row') return cs.every(function (k) { return n.act.points.indexOf(k) >= 0; });
      if (n.act.kind === 'pass') return cs.length === 0;
      return cs.length <= n.act.path.length && same(cs, n.act.path);
    });
  }
  function written(actions) {
    var parts = [];
    actions.forEach(function (a, j) {
      if (a.charAt(0) === 'x' && a.indexOf('-') < 0 && j > 0 && actions[j - 1].indexOf('-') > 0 &&
          actions[j - 1].charAt(0) === 'x') parts[parts.length - 1] += a;
      else parts.push(a);
    });
    return parts.join(';');
  }
  // After a choice the focus is on the board (a row or pass button chosen is gone).
  function choose(n) {
    chosen.push(n.text); made.push(clicks); clicks = []; render();
    if (!isPoint(document.activeElement)) targets[rove].focus();
  }
  function click(k) {
    rove = k;
    if (at_ !== last) { show(last); render(); return; }
    var list = nexts(), fit = clicks.indexOf(k) >= 0 ? [] : fitting(list, clicks.concat([k]));
    // A click that starts another action (another ring to move) starts it afresh.
    if (fit.length === 0 && clicks.length > 0 && clicks.indexOf(k) < 0 && fitting(list, [k]).length) {
      clicks = []; fit = fitting(list, [k]);
    }
    // A click not taken is told why, in the play section's live region.
    if (fit.length === 0) { whyNode.textContent = Y.whyNot(now().cells, play.side, list, clicks, k, help.textContent); return; }
    clicks.push(k);
    var done = fit.filter(function (n) { return n.act.kind !== 'row' && n.act.path.length === clicks.length; });
    if (done.length === 1) return choose(done[0]);
    if (fit.length === 1 && fit[0].act.kind === 'row') return choose(fit[0]);
    render();
  }
  // The position with the actions chosen so far put down.
  function now() {
    var pos = state(last);
    chosen.forEach(function (a) { apply(pos, a, play.side); });
    return pos;
  }
  function render() {
    links.forEach(function (a) { a.className = (+a.dataset.k === last) ? 'here' : ''; });
    svg.setAttribute('role', 'group');
    svg.setAttribute('aria-label', 'Your turn on the board: ' + data.captions[last]);
    cap.textContent = data.captions[last].replace(/\.?$/, '.') + ' Then your turn ' + play.k + ', as clicked so far.';
    if (lastNode) lastNode.textContent = cap.textContent;
    whyNode.textContent = '';
    // Until the player's first choice, the opponent's last turn is marked.
    var pos = now(), marks = chosen.length || last === 0 ? [] : data.moves[last - 1].map(parse);
    chosen.forEach(function (a) { marks.push(parse(a)); });
    var list = nexts(), fit = fitting(list, clicks), open = [], complete = null;
    fit.forEach(function (n) {
      var pts = n.act.kind === 'row' ? n.act.points : n.act.kind === 'pass' ? [] : [n.act.path[clicks.length]];
      pts.forEach(function (p) { if (open.indexOf(p) < 0 && clicks.indexOf(p) < 0) open.push(p); });
    });
    candidates().forEach(function (t) { if (t.a.length === chosen.length) complete = t; });
    draw(pos, marks, complete ? [] : open, clicks, true);
    score.textContent = scoreText(pos);
    turnOut.textContent = complete ? complete.t : (written(chosen) || '(nothing yet)');
    var kinds = {};
    fit.forEach(function (n) { kinds[n.act.kind] = true; });
    help.textContent = complete ? 'Your turn is complete: send it, or undo.'
      : kinds.place ? 'Click the point to place a ring on.'
      : kinds.move && clicks.length ? 'Click where the ring goes (the points marked).'
      : kinds.move ? 'Click the ring to move.'
      : kinds.row ? 'Choose the row to remove: click its markers (on a longer line, the ends of the five), or a button.'
      : kinds.ring ? 'Click the ring to remove.'
      : kinds.pass ? 'No ring of yours can move: pass.' : '';
    clear(choices);
    fit.forEach(function (n) {
      if (n.act.kind !== 'row' && n.act.kind !== 'pass') return;
      var b = document.createElement('button');
      b.type = 'button';
      b.textContent = n.act.kind === 'pass' ? 'Pass' : 'Remove row ' + n.text.slice(1);
      b.addEventListener('click', function () { choose(n); });
      choices.appendChild(b);
    });
    var subject = complete ? 'yinsh move ' + data.board + ' ' + play.player + ' ' + token + ' ' +
      complete.t + '#' + play.k : '';
    toField.value = complete ? play.to : '';
    subjectField.value = subject;
    send.hidden = copy.hidden = mail.hidden = !complete;
    copy.textContent = 'Copy the Subject';
    send.href = complete ? 'mailto:' + play.to + '?subject=' + encodeURIComponent(subject) : '#';
    send.setAttribute('data-subject', subject);
  }
  targets.forEach(function (t, k) {
    t.addEventListener('click', function () { click(k); });
    t.addEventListener('keydown', function (e) {
      if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); click(k); return; }
      if (!RISING[e.key]) return;
      e.preventDefault();
      e.stopPropagation();
      var j = stepFrom(k, e.key, e.shiftKey);
      if (j < 0) return;
      targets[k].setAttribute('tabindex', '-1');
      targets[j].setAttribute('tabindex', '0');
      rove = j;
      targets[j].focus();
    });
  });
  // Undo takes back the last click: a ring move's destination, then its ring.
  document.getElementById('play-undo').addEventListener('click', function () {
    if (clicks.length) clicks.pop();
    else if (chosen.length) { chosen.pop(); clicks = made.pop(); clicks.pop(); }
    else { whyNode.textContent = 'Nothing to undo: no point is clicked yet.'; return; }
    render();
  });
  // Copy puts the Subject alone on the clipboard: by the Clipboard API on a secure
  // site; on a plain-http one the Subject field is selected and copied, and a copy
  // from that field holds the Subject only.
  subjectField.addEventListener('copy', function (e) {
    if (!e.clipboardData) return;
    e.clipboardData.setData('text/plain', send.getAttribute('data-subject'));
    e.preventDefault();
  });
  copy.addEventListener('click', function () {
    var subject = send.getAttribute('data-subject');
    function copied() { copy.textContent = 'Copied'; }
    function selected() {
      subjectField.focus();
      subjectField.select();
      var ok = false;
      try { ok = document.execCommand('copy'); } catch (err) { ok = false; }
      copy.textContent = ok ? 'Copied' : 'Selected: copy it now';
    }
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(subject).then(copied, selected);
    else selected();
  });
  ready = true;
  render();
  // On a phone the board and the play section below it are brought into view
  // together (the page's head is above them, a scroll away).
  var undoRect = document.getElementById('play-undo').getBoundingClientRect();
  if (window.matchMedia('(max-width: 700px)').matches && undoRect.bottom > window.innerHeight) {
    boardBox.scrollIntoView({ block: 'start' });
  }
})();
