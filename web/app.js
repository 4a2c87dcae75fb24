// The workbench page: a position (start FEN + moves), the chosen profiles, and four views of it, all
// computed by the WebAssembly build of Quince (quince.js, made by scripts/web.sh): the compare table
// (`quince compare --json`), the picture (`quince compare --svg`), the legal moves and a depth-limited
// search (`quince analyse --json`). The address may carry ?fen=…&moves=…&profiles=…&depth=….
'use strict';

const state = { startFen: 'startpos', moves: [], profiles: [], allProfiles: [], selected: null, position: null };
let api = null;

const $ = (id) => document.getElementById(id);

function showError(text) { $('error').textContent = text || ''; }

// `quince ARGS…` in the module: {status, out, err}.
function run(args) {
  const status = api.run(args.join('\n'));
  return { status, out: api.out(), err: api.err() };
}

function positionWords() {
  return [state.startFen].concat(state.moves.length ? ['moves'].concat(state.moves) : []);
}

function readPosition(words) {
  return JSON.parse(api.position(words.join('\n')));
}

function fmt(v) { return (v > 0 ? '+' : '') + v.toFixed(2); }

function renderTable(cmp) {
  const table = $('compare');
  table.textContent = '';
  const head = table.createTHead();
  const r1 = head.insertRow();
  const th = document.createElement('th');
  th.className = 'term'; th.rowSpan = 2; th.textContent = 'term';
  r1.appendChild(th);
  const r2 = head.insertRow();
  cmp.profiles.forEach((p, i) => {
    const h = document.createElement('th');
    h.colSpan = i === 0 ? 3 : 4;
    h.textContent = p.profile;
    h.dataset.profile = p.profile;
    r1.appendChild(h);
    for (const part of i === 0 ? ['mg', 'eg', 'cp'] : ['mg', 'eg', 'cp', 'Δ cp']) {
      const s = document.createElement('th');
      s.textContent = part;
      r2.appendChild(s);
    }
  });
  // Rows: every term any profile has, in the order they first appear.
  const names = [];
  for (const p of cmp.profiles) for (const t of p.terms) if (!names.includes(t.name)) names.push(t.name);
  const body = table.createTBody();
  for (const name of names) {
    const row = body.insertRow();
    const label = row.insertCell();
    label.className = 'term'; label.textContent = name;
    cmp.profiles.forEach((p, i) => {
      const t = p.terms.find((x) => x.name === name);
      const parts = i === 0 ? ['mg', 'eg', 'cp'] : ['mg', 'eg', 'cp', 'diff_cp'];
      if (!t || t.absent) {
        const c = row.insertCell();
        c.colSpan = parts.length; c.className = 'absent'; c.textContent = 'absent';
        c.dataset.profile = p.profile; c.dataset.term = name; c.dataset.absent = 'true';
        return;
      }
      for (const part of parts) {
        const c = row.insertCell();
        c.dataset.profile = p.profile; c.dataset.term = name; c.dataset.cp = String(t.cp); c.dataset.part = part;
        c.textContent = fmt(t[part]);
        if (part === 'cp' || part === 'diff_cp') c.className = t[part] > 0 ? 'pos' : t[part] < 0 ? 'neg' : '';
      }
    });
  }
  const foot = table.createTFoot();
  const facts = [['phase', (p) => String(p.phase)], ['scale', (p) => String(p.scale)],
                 ['final (White\'s view, cp)', (p) => (p.final_cp_white_view > 0 ? '+' : '') + p.final_cp_white_view]];
  for (const [title, value] of facts) {
    const row = foot.insertRow();
    if (title.startsWith('final')) row.className = 'final';
    const label = row.insertCell();
    label.className = 'term'; label.textContent = title;
    cmp.profiles.forEach((p, i) => {
      const c = row.insertCell();
      c.colSpan = i === 0 ? 3 : 4;
      c.dataset.profile = p.profile;
      if (title.startsWith('final')) c.dataset.final = String(p.final_cp_white_view);
      c.textContent = value(p);
    });
  }
}

function renderPicture(svgText) {
  const boards = $('boards');
  boards.innerHTML = svgText;
  boards.querySelectorAll('g[data-square]').forEach((g) => g.addEventListener('click', () => clickSquare(g.dataset.square)));
}

function clickSquare(square) {
  const pos = state.position;
  if (!pos || pos.error) return;
  if (state.selected) {
    const from = state.selected;
    state.selected = null;
    // A click on the destination: the legal move from..to (a promotion to a queen unless typed).
    const m = pos.legal.find((x) => x.uci.slice(0, 4) === from + square && (x.uci.length === 4 || x.uci[4] === 'q'));
    if (m) { play(m.uci); return; }
    if (from === square) { refresh(); return; }
  }
  if (pos.legal.some((x) => x.uci.slice(0, 2) === square)) {
    state.selected = square;
    document.querySelectorAll('#boards g[data-square="' + square + '"]').forEach((g) => g.classList.add('selected'));
  }
}

// The UCI form of a move typed in SAN or UCI in position `pos`, or null when it is not legal there.
function toUci(pos, text) {
  const clean = (s) => s.replace(/[+#!?]+$/, '');
  const direct = pos.legal.find((x) => x.uci === text || clean(x.san) === clean(text));
  if (direct) return direct.uci;
  // Other spellings the engine accepts (castling as king-takes-rook): compare the positions reached.
  const trial = readPosition([pos.fen, 'moves', text]);
  if (trial.error) return null;
  const m = pos.legal.find((x) => readPosition([pos.fen, 'moves', x.uci]).fen === trial.fen);
  return m ? m.uci : null;
}

function play(text) {
  const uci = toUci(state.position, text);
  if (!uci) { showError('Move ' + text + ' is not legal in ' + state.position.fen); return; }
  state.moves.push(uci);
  refresh();
}

function search() {
  const depth = String(Math.max(1, Math.min(30, parseInt($('depth').value, 10) || 8)));
  const profile = $('search-profile').value || state.profiles[0];
  const pv = $('pv');
  const r = run(['analyse', state.position.fen, '--depth', depth, '--profile', profile, '--hash', '16', '--json']);
  if (r.status !== 0) { pv.textContent = r.err.trim(); return; }
  const lines = r.out.trim().split('\n').map((l) => JSON.parse(l));
  const result = lines.find((l) => l.type === 'result');
  if (!result) { pv.textContent = r.out.trim(); return; }
  if (!result.bestmove) { pv.textContent = 'no legal move'; return; }
  const score = result.score.white_mate !== undefined ? 'mate ' + result.score.white_mate
    : fmt(result.score.white_cp / 100);
  pv.dataset.best = result.bestmove;
  pv.dataset.depth = String(result.depth);
  pv.dataset.score = JSON.stringify(result.score);
  pv.textContent = 'depth ' + result.depth + ' (' + profile + '), ' + score + ' for White: ' + sanLine(result) +
    '  [' + result.nodes + ' nodes, ' + result.time_ms + ' ms]';
}

// "12. Nf3 Nc6 13. O-O" from the result's SAN moves and the position's move number.
function sanLine(result) {
  const fields = result.fen.split(' ');
  let number = parseInt(fields[5], 10) || 1;
  let white = fields[1] === 'w';
  const out = [];
  result.san_pv.forEach((m, i) => {
    if (white) out.push(number + '. ' + m);
    else out.push((i === 0 ? number + '... ' : '') + m);
    if (!white) number += 1;
    white = !white;
  });
  return out.join(' ');
}

function refresh() {
  showError('');
  state.selected = null;
  const pos = readPosition(positionWords());
  if (pos.error) { showError(pos.error); return; }
  state.position = pos;
  $('fen').value = pos.fen;
  $('moves').textContent = state.moves.join(' ');
  $('moves').dataset.moves = state.moves.join(' ');
  $('fen').dataset.fen = pos.fen;
  const names = state.profiles.length ? state.profiles : [state.allProfiles[0]];
  const cmp = run(['compare', '--json', pos.fen].concat(names));
  if (cmp.status !== 0) { showError(cmp.err.trim()); return; }
  renderTable(JSON.parse(cmp.out));
  const svg = run(['compare', '--svg', pos.fen].concat(names));
  if (svg.status === 0) renderPicture(svg.out);
  const status = pos.legal.length === 0 ? (pos.in_check ? 'checkmate' : 'stalemate')
    : (pos.side_to_move === 'white' ? 'White' : 'Black') + ' to move, ' + pos.legal.length + ' legal moves';
  $('status').textContent = status;
  $('status').dataset.ready = 'true';
  if (pos.legal.length) search();
  else { $('pv').textContent = ''; $('pv').dataset.best = ''; }
  try {  // keep the address shareable; some browsers refuse this for file:// pages
    history.replaceState(null, '', '?' + new URLSearchParams({
      fen: state.startFen, moves: state.moves.join(' '), profiles: state.profiles.join(','), depth: $('depth').value,
    }).toString());
  } catch (e) { /* the page works without it */ }
}

function setupProfiles(chosen) {
  const box = $('profiles');
  const select = $('search-profile');
  for (const p of state.allProfiles) {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox'; input.value = p; input.checked = chosen.includes(p);
    input.addEventListener('change', () => {
      state.profiles = state.profiles.filter((x) => x !== p);
      if (input.checked) state.profiles.push(p);
      refresh();
    });
    label.appendChild(input);
    label.appendChild(document.createTextNode(' ' + p + ' '));
    box.appendChild(label);
    const option = document.createElement('option');
    option.value = p; option.textContent = p;
    select.appendChild(option);
  }
  select.value = chosen[0];
}

function start(module) {
  api = {
    run: module.cwrap('quince_run', 'number', ['string']),
    out: module.cwrap('quince_out', 'string', []),
    err: module.cwrap('quince_err', 'string', []),
    position: module.cwrap('quince_position', 'string', ['string']),
    profiles: module.cwrap('quince_profiles', 'string', []),
  };
  state.allProfiles = api.profiles().split(' ');
  const params = new URLSearchParams(location.search);
  const asked = (params.get('profiles') || '').split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = asked.filter((p) => !state.allProfiles.includes(p));
  const defaults = ['rybka1', 'rybka232', 'fruit21'].filter((p) => state.allProfiles.includes(p));
  state.profiles = asked.filter((p) => state.allProfiles.includes(p));
  if (!state.profiles.length) state.profiles = defaults;
  setupProfiles(state.profiles);
  if (params.get('depth')) $('depth').value = params.get('depth');
  state.startFen = params.get('fen') || 'startpos';
  // The address's moves, kept in UCI form; a bad FEN or move there is reported and the start position shown.
  let problem = null;
  let pos = readPosition([state.startFen]);
  state.moves = [];
  if (pos.error) problem = pos.error;
  else {
    for (const text of (params.get('moves') || '').split(/[\s,]+/).filter(Boolean)) {
      const uci = toUci(pos, text);
      if (!uci) { problem = 'illegal move \'' + text + '\' in ' + pos.fen; break; }
      state.moves.push(uci);
      pos = readPosition([pos.fen, 'moves', uci]);
    }
  }
  if (problem) { state.startFen = 'startpos'; state.moves = []; }
  refresh();
  if (problem) showError('The address\'s position was not used: ' + problem);
  if (unknown.length) showError((($('error').textContent || '') + ' Unknown profiles: ' + unknown.join(', ')).trim());

  $('fen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const fen = $('fen').value.trim() || 'startpos';
    const trial = readPosition([fen]);
    if (trial.error) { showError(trial.error); return; }
    state.startFen = fen; state.moves = [];
    refresh();
  });
  $('startpos').addEventListener('click', () => { state.startFen = 'startpos'; state.moves = []; refresh(); });
  $('move-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const text = $('move').value.trim();
    if (text) play(text);
    $('move').value = '';
  });
  $('undo').addEventListener('click', () => { if (state.moves.length) { state.moves.pop(); refresh(); } });
  $('search-form').addEventListener('submit', (e) => { e.preventDefault(); search(); });
}

if (typeof createQuince !== 'function') {
  document.getElementById('status').textContent =
    'quince.js is missing: build it with scripts/web.sh (emscripten), then open this page again.';
} else {
  const failed = (e) => { document.getElementById('status').textContent = 'The engine did not load: ' + e; };
  try {
    // Compiled synchronously (tools/web/CMakeLists.txt) the factory returns the module itself; a build
    // with asynchronous compilation returns a promise of it.
    const made = createQuince({ print: () => {}, printErr: () => {} });
    if (made && typeof made.then === 'function') made.then(start).catch(failed);
    else start(made);
  } catch (e) { failed(e); }
}
