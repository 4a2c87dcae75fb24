// The analysis board: chessground (the board), chess.js (rules, SAN, PGN) and Quince compiled to
// WebAssembly in two Web Workers (worker.js): one searches (lines per depth, MultiPV, stop, the whole-game
// analysis), one answers the workbench's questions about the current position (the term comparison and
// the picture). Files under vendor/ are copied from node_modules by scripts/web.sh.
import { Chessground } from './vendor/chessground.min.js';
import { Chess } from './vendor/chess.js';
import { annotatedPgn, evalText, numbered, winningChances } from './judge.js';

const $ = (id) => document.getElementById(id);
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// ---- the engine workers ----
class Engine {
  constructor(name) { this.name = name; this.nextId = 1; this.start(); }
  start() {
    // Each worker has its own handler and pending map, and ids never repeat: a message an ended worker
    // had already sent cannot be taken for an answer of its successor.
    const worker = new Worker('worker.js');
    const pending = new Map();
    this.worker = worker;
    this.pending = pending;
    this.ready = new Promise((resolve, reject) => {
      worker.onerror = (e) => reject(new Error(e.message || 'the engine did not load'));
      worker.onmessage = (e) => {
        if (this.worker !== worker) return;
        const m = e.data;
        if (m.type === 'ready') { resolve(); return; }
        const p = pending.get(m.id);
        if (!p) return;
        if (m.type === 'line') p.onLine && p.onLine(JSON.parse(m.line));
        else { pending.delete(m.id); p.resolve(m); }
      };
    });
  }
  request(cmd, args, onLine, extra = {}) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve, onLine });
      this.worker.postMessage({ id, cmd, args, ...extra });
    });
  }
  get busy() { return this.pending.size > 0; }
  // Ends whatever runs (a search cannot be interrupted inside the single-threaded module) and starts anew;
  // the pending requests resolve as stopped.
  stop() {
    if (!this.busy) return;
    this.worker.terminate();
    for (const p of this.pending.values()) p.resolve({ status: -1, stopped: true, out: '', err: '' });
    this.start();
  }
}

// ---- state ----
const state = {
  startFen: null,        // null: the standard start position
  chess960: false,       // a Chess960 game: the engine is the rules (Rules960)
  headers: {},           // PGN tags of the loaded game
  moves: [],             // [{san, uci, from, to, color, number, fenAfter}]
  ply: 0,                // the position shown: after `ply` moves
  orientation: 'white',
  profiles: [], allProfiles: [],
  evals: [],             // evals[ply]: score of the position after `ply` moves (White's view), from the game analysis
  notes: [],             // notes[i]: {nag, better} of move i, from the game analysis
  // Lines played instead of a main-line move: {ply, moves}, branching from the position after `ply` main-line
  // moves (the alternatives to moves[ply]); moves as in `moves`. One level: a move that differs from a
  // variation's next move replaces the rest of that variation.
  variations: [],
  // The game analysis's per-side figures: {plies, budget, w: {accuracy, acpl} | null, b: …} (null: none).
  summary: null,
  inVariation: null,     // null: the main line is shown; else {v, k}: variation v after its first k moves
  analysing: false,
};
let board = null;
let searchEngine = null;
let evalEngine = null;
let searchToken = 0;

function fenAt(ply) { return ply === 0 ? (state.startFen || START) : state.moves[ply - 1].fenAfter; }
// The position shown and the move that led to it, in the main line or a variation.
function currentFen() {
  const at = state.inVariation;
  if (!at) return fenAt(state.ply);
  const v = state.variations[at.v];
  return at.k === 0 ? fenAt(v.ply) : v.moves[at.k - 1].fenAfter;
}
function currentLastMove() {
  const at = state.inVariation;
  if (!at) return state.ply ? state.moves[state.ply - 1] : null;
  const v = state.variations[at.v];
  return at.k === 0 ? (v.ply ? state.moves[v.ply - 1] : null) : v.moves[at.k - 1];
}
function chessAt(ply) { return rules(fenAt(ply)); }

// ---- Chess960: chess.js knows only standard chess, so for a Chess960 game the engine is the rules ----
// (its `position` answer: FEN, side to move, check, the legal moves in SAN and UCI, castling as the king
// taking its own rook). Every position of such a game is asked for once, when it is reached, and kept.
const positions = new Map();  // FEN (the engine's) -> its answer

class Rules960 {
  constructor(info) { this.info = info; }
  fen() { return this.info.fen; }
  turn() { return this.info.side_to_move === 'white' ? 'w' : 'b'; }
  inCheck() { return this.info.in_check; }
  moves() {
    return this.info.legal.map((l) => ({ from: l.uci.slice(0, 2), to: l.uci.slice(2, 4), promotion: l.uci[4],
                                         san: l.san, uci: l.uci, color: this.turn() }));
  }
  get(sq) {
    const rows = this.info.fen.split(' ')[0].split('/');
    let file = 0;
    for (const ch of rows[8 - Number(sq[1])]) {
      if (/\d/.test(ch)) { file += Number(ch); continue; }
      if (file === sq.charCodeAt(0) - 97) return { type: ch.toLowerCase(), color: ch === ch.toUpperCase() ? 'w' : 'b' };
      file++;
    }
    return null;
  }
  isGameOver() { return this.info.legal.length === 0; }
  isCheckmate() { return this.info.legal.length === 0 && this.info.in_check; }
  isDraw() { return this.info.legal.length === 0 && !this.info.in_check; }
}

function rules(fen) { return state.chess960 ? new Rules960(positions.get(fen)) : new Chess(fen); }

async function positionInfo(words) {
  await evalEngine.ready;
  const r = await evalEngine.request('position', words);
  const info = JSON.parse(r.out);
  if (info.error) throw new Error(info.error);
  positions.set(info.fen, info);
  return info;
}

// A FEN only Chess960 can have: castling letters other than KQkq (Shredder-FEN), or castling rights with
// the king off its e-file square (X-FEN).
function isChess960Fen(fen) {
  const f = fen.trim().split(/\s+/);
  const castling = f[2] || '-';
  if (castling === '-') return false;
  if (/[^KQkq]/.test(castling)) return true;
  const rows = f[0].split('/');
  const kingOnE = (row, king) => { let file = 0; for (const ch of row) { if (/\d/.test(ch)) file += Number(ch); else { if (ch === king) return file === 4; file++; } } return false; };
  return (/[KQ]/.test(castling) && !kingOnE(rows[7] || '', 'K')) || (/[kq]/.test(castling) && !kingOnE(rows[0] || '', 'k'));
}

// The SAN moves of PGN movetext: comments, variations, NAGs, move numbers and the result dropped.
function movetextSans(text) {
  let t = text.replace(/\{[^}]*\}/g, ' ').replace(/;[^\n]*/g, ' ');
  for (let prev = null; prev !== t;) { prev = t; t = t.replace(/\([^()]*\)/g, ' '); }
  return t.split(/\s+/).map((w) => w.replace(/^\d+\.+/, '')).filter((w) => w && !/^\$\d+$/.test(w) &&
    !['1-0', '0-1', '1/2-1/2', '*'].includes(w)).map((w) => w.replace(/[!?]+$/, '').replace(/0-0-0/, 'O-O-O').replace(/0-0/, 'O-O'));
}

// Loads a Chess960 game: the start FEN and the moves (SAN or UCI), each checked by the engine.
async function loadChess960(startFen, sans, headers) {
  const start = await positionInfo([startFen]);
  if (!start.chess960 && !/chess\s*960|fischerandom/i.test(headers.Variant || '')) throw new Error('not a Chess960 position: ' + startFen);
  const clean = (s) => s.replace(/[+#]+$/, '');
  const moves = [];
  let info = start;
  for (const san of sans) {
    const l = info.legal.find((x) => clean(x.san) === clean(san) || x.uci === san);
    if (!l) {
      const number = parseInt(info.fen.split(' ')[5], 10) || 1;
      throw new Error(`illegal move '${number}${info.side_to_move === 'white' ? '. ' : '... '}${san}' in ${info.fen}`);
    }
    const after = await positionInfo([info.fen, 'moves', l.uci]);
    moves.push({ san: l.san, uci: l.uci, from: l.uci.slice(0, 2), to: l.uci.slice(2, 4), color: info.side_to_move === 'white' ? 'w' : 'b',
                 number: parseInt(info.fen.split(' ')[5], 10) || 1, fenAfter: after.fen });
    info = after;
  }
  state.chess960 = true;
  state.startFen = start.fen;
  state.headers = Object.assign({}, headers, { Variant: 'Chess960' });
  state.moves = moves;
  resetAnalysis();
}
function showError(text) { $('error').textContent = text || ''; }

// The value of a number box within lo..hi: a value outside (depth 999, lines -4) or not a number is put
// right in the box and said, not used silently.
function boxNumber(id, lo, hi, fallback, name) {
  const raw = $(id).value;
  const n = Number(raw);
  if (raw.trim() !== '' && Number.isInteger(n) && n >= lo && n <= hi) return n;
  const used = Number.isFinite(n) && raw.trim() !== '' ? Math.max(lo, Math.min(hi, Math.round(n))) : fallback;
  $(id).value = String(used);
  showError(`${name} must be a whole number from ${lo} to ${hi}: '${raw}' was set to ${used}.`);
  return used;
}

function dests(chess) {
  const map = new Map();
  for (const m of chess.moves({ verbose: true })) {
    if (!map.has(m.from)) map.set(m.from, []);
    if (!map.get(m.from).includes(m.to)) map.get(m.from).push(m.to);
  }
  return map;
}

// ---- the board ----
function updateBoard() {
  const chess = rules(currentFen());
  const last = currentLastMove();
  const turn = chess.turn() === 'w' ? 'white' : 'black';
  board.set({
    // chessground's own castling (king two squares, rook jumps) is standard chess's only.
    autoCastle: !state.chess960,
    fen: chess.fen(), orientation: state.orientation, turnColor: turn,
    lastMove: last ? [last.from, last.to] : undefined,
    check: chess.inCheck() ? turn : false,
    movable: { color: turn, dests: dests(chess) },
  });
  $('board').dataset.fen = chess.fen();
}

function askPromotion(color) {
  return new Promise((resolve) => {
    const box = $('promotion');
    box.textContent = '';
    for (const p of ['q', 'r', 'b', 'n']) {
      const b = document.createElement('button');
      b.type = 'button'; b.dataset.piece = p;
      b.className = 'promo-piece';
      b.textContent = (color === 'white' ? { q: '♕', r: '♖', b: '♗', n: '♘' } : { q: '♛', r: '♜', b: '♝', n: '♞' })[p];
      b.title = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' }[p];
      b.addEventListener('click', () => { box.hidden = true; resolve(p); });
      box.appendChild(b);
    }
    box.hidden = false;
  });
}

async function onBoardMove(from, to) {
  const chess = rules(currentFen());
  const piece = chess.get(from);
  let promotion;
  if (piece && piece.type === 'p' && (to[1] === '8' || to[1] === '1'))
    promotion = await askPromotion(piece.color === 'w' ? 'white' : 'black');
  if (state.chess960) {
    // Castling is the king onto its own rook (the engine's UCI form in Chess960).
    const m = chess.moves().find((x) => x.from === from && x.to === to && (x.promotion || undefined) === promotion);
    if (!m) { updateBoard(); return; }
    const after = await positionInfo([currentFen(), 'moves', m.uci]);
    playMove(m, { fen: () => after.fen });
    return;
  }
  let m = null;
  try { m = chess.move({ from, to, promotion }); } catch (e) { m = null; }
  if (!m) { updateBoard(); return; }
  playMove(m, chess);
}

// A move played on the board: the same as the next move of the line shown steps forward; at the end of the
// main line it extends the game; another move starts a variation (or enters the variation that begins with
// it), so the game is never cut. In a variation, a different move replaces the rest of that variation.
function playMove(m, chessAfter) {
  const uci = m.from + m.to + (m.promotion || '');
  const fen = currentFen();
  const fields = fen.split(' ');
  const entry = { san: m.san, uci, from: m.from, to: m.to, color: m.color,
                  number: parseInt(fields[5], 10) || 1, fenAfter: chessAfter.fen() };
  const at = state.inVariation;
  if (at) {
    const v = state.variations[at.v];
    if (!(v.moves[at.k] && v.moves[at.k].uci === uci)) { v.moves.length = at.k; v.moves.push(entry); }
    goToVariation(at.v, at.k + 1);
    return;
  }
  const next = state.moves[state.ply];
  if (!next) { state.moves.push(entry); goTo(state.ply + 1); return; }
  if (next.uci === uci) { goTo(state.ply + 1); return; }
  let v = state.variations.findIndex((x) => x.ply === state.ply && x.moves[0].uci === uci);
  if (v < 0) { state.variations.push({ ply: state.ply, moves: [entry] }); v = state.variations.length - 1; }
  goToVariation(v, 1);
}

function goToVariation(v, k) {
  const line = state.variations[v];
  if (k <= 0) { goTo(line.ply); return; }
  state.inVariation = { v, k: Math.min(k, line.moves.length) };
  state.ply = line.ply;
  showPosition();
}

// ---- the move list ----
function renderMoves() {
  const list = $('moves');
  list.textContent = '';
  state.moves.forEach((m, i) => {
    if (m.color === 'w' || i === 0) {
      const n = document.createElement('span');
      n.className = 'num'; n.textContent = m.number + (m.color === 'w' ? '.' : '...');
      list.appendChild(n);
    }
    const s = document.createElement('button');
    s.type = 'button'; s.className = 'move';
    s.dataset.ply = String(i + 1); s.dataset.san = m.san;
    const note = state.notes[i];
    s.textContent = m.san + (note && note.nag ? note.nag : '');
    if (note && note.nag) s.classList.add({ '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' }[note.nag]);
    if (state.evals[i + 1]) s.dataset.eval = evalText(state.evals[i + 1]);
    if (!state.inVariation && i + 1 === state.ply) s.classList.add('current');
    s.addEventListener('click', () => goTo(i + 1));
    list.appendChild(s);
    if (note && note.better) {
      const v = document.createElement('span');
      v.className = 'better'; v.textContent = '(' + numbered(m.number, m.color === 'w', note.better) + ')';
      list.appendChild(v);
    }
    state.variations.forEach((line, vi) => { if (line.ply === i) list.appendChild(renderVariation(line, vi)); });
  });
  const cur = list.querySelector('.current');
  if (cur) cur.scrollIntoView({ block: 'nearest' });
  list.dataset.ply = String(state.ply);
  list.dataset.variation = state.inVariation ? String(state.inVariation.v) : '';
}

// A variation in the move list: (3... Nf6 4. Nc3), each move clickable, `.var-move` with data-variation
// (its index), data-k (moves of it played) and data-san.
function renderVariation(line, vi) {
  const box = document.createElement('span');
  box.className = 'variation';
  box.dataset.variation = String(vi);
  box.dataset.ply = String(line.ply);
  box.append('(');
  line.moves.forEach((m, k) => {
    if (m.color === 'w' || k === 0) {
      const n = document.createElement('span');
      n.className = 'num'; n.textContent = m.number + (m.color === 'w' ? '.' : '...');
      box.appendChild(n);
    }
    const b = document.createElement('button');
    b.type = 'button'; b.className = 'var-move';
    b.dataset.variation = String(vi); b.dataset.k = String(k + 1); b.dataset.san = m.san;
    b.textContent = m.san;
    const at = state.inVariation;
    if (at && at.v === vi && at.k === k + 1) b.classList.add('current');
    b.addEventListener('click', () => goToVariation(vi, k + 1));
    box.appendChild(b);
  });
  box.append(')');
  return box;
}

function goTo(ply) {
  state.inVariation = null;
  state.ply = Math.max(0, Math.min(state.moves.length, ply));
  showPosition();
}

// Shows the current position (main line or variation) everywhere: board, list, graph, address, workbench,
// engine.
function showPosition() {
  showError('');
  updateBoard();
  renderMoves();
  renderSummary();  // gone once the game has moves the analysis did not see
  renderGraph();
  updateAddress();
  refreshWorkbench();
  // The lines of another position never stay on show; the bar shows the game analysis's eval meanwhile.
  const box = $('lines');
  if (box.dataset.fen !== currentFen()) {
    box.textContent = ''; box.dataset.depth = '0'; box.dataset.best = ''; box.dataset.score = 'null';
    $('search-info').textContent = '';
  }
  setBar(state.inVariation ? null : state.evals[state.ply] || null);
  if ($('live').checked) startSearch();
  else if (!state.analysing) { searchToken++; searchEngine.stop(); box.dataset.state = 'idle'; $('stop').disabled = true; }
}

// ---- eval bar and graph ----
function setBar(score) {
  const wc = score ? winningChances(score) : 0;
  $('evalbar-white').style.height = (50 + 50 * wc).toFixed(1) + '%';
  $('evalbar-text').textContent = score ? (score.white_mate !== undefined ? '#' + score.white_mate
    : ((score.white_cp > 0 ? '+' : '') + (score.white_cp / 100).toFixed(1))) : '';
}

function renderGraph() {
  const svg = $('graph');
  const n = state.moves.length;
  const W = 600, H = 100;
  const x = (ply) => (n ? ply / n : 0) * W;
  const y = (score) => H / 2 - (H / 2 - 4) * winningChances(score);
  let path = '', area = '';
  const points = [];
  for (let ply = 0; ply <= n; ply++) {
    const s = state.evals[ply];
    if (!s) continue;
    path += (path ? ' L' : 'M') + x(ply).toFixed(1) + ' ' + y(s).toFixed(1);
    points.push(ply);
  }
  if (points.length) area = path + ` L${x(points[points.length - 1]).toFixed(1)} ${H} L${x(points[0]).toFixed(1)} ${H} Z`;
  let html = `<rect x="0" y="0" width="${W}" height="${H}" class="bg"/>` +
    (area ? `<path d="${area}" class="area"/>` : '') +
    `<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" class="mid"/>` +
    (path ? `<path d="${path}" class="line"/>` : '') +
    `<line x1="${x(state.ply)}" y1="0" x2="${x(state.ply)}" y2="${H}" class="cursor"/>`;
  for (const ply of points) {
    const note = ply > 0 ? state.notes[ply - 1] : null;
    const cls = note && note.nag ? ' ' + { '?!': 'inaccuracy', '?': 'mistake', '??': 'blunder' }[note.nag] : '';
    html += `<circle cx="${x(ply).toFixed(1)}" cy="${y(state.evals[ply]).toFixed(1)}" r="${cls ? 4 : 2.5}" class="pt${cls}"` +
      ` data-ply="${ply}" data-eval="${evalText(state.evals[ply])}"><title>${ply ? state.moves[ply - 1].number + (state.moves[ply - 1].color === 'w' ? '. ' : '... ') + state.moves[ply - 1].san : 'start'}: ${evalText(state.evals[ply])}</title></circle>`;
  }
  svg.innerHTML = html;
  svg.dataset.points = String(points.length);
}

function graphClick(e) {
  const target = e.target.closest('[data-ply]');
  if (target) { goTo(parseInt(target.dataset.ply, 10)); return; }
  const r = $('graph').getBoundingClientRect();
  if (state.moves.length) goTo(Math.round((e.clientX - r.left) / r.width * state.moves.length));
}

// ---- search ----
function searchArgs(fen, depth, multipv) {
  return [fen, '--depth', String(depth), '--multipv', String(multipv), '--profile', $('search-profile').value,
          '--hash', '32', '--json'];
}

function renderLines(it, fen) {
  const chess = rules(fen);
  const fields = fen.split(' ');
  const box = $('lines');
  box.textContent = '';
  for (const l of it.lines) {
    const row = document.createElement('div');
    row.className = 'pvline';
    row.dataset.multipv = String(l.multipv);
    const sc = document.createElement('span');
    sc.className = 'score';
    sc.textContent = l.score.white_mate !== undefined ? '#' + l.score.white_mate
      : (l.score.white_cp > 0 ? '+' : '') + (l.score.white_cp / 100).toFixed(2);
    const mv = document.createElement('span');
    mv.className = 'san';
    mv.textContent = numbered(parseInt(fields[5], 10) || 1, chess.turn() === 'w', l.san);
    row.append(sc, mv);
    box.appendChild(row);
  }
  box.dataset.depth = String(it.depth);
  box.dataset.fen = fen;
  box.dataset.best = it.lines[0] && it.lines[0].pv[0] || '';
  box.dataset.score = JSON.stringify(it.lines[0] ? it.lines[0].score : null);
  $('search-info').textContent = `depth ${it.depth}/${it.seldepth} · ${(it.nodes / 1000).toFixed(0)} kN · ` +
    `${(it.nps / 1000).toFixed(0)} kN/s · ${(it.time_ms / 1000).toFixed(1)} s`;
  if (it.lines[0]) setBar(it.lines[0].score);
}

async function startSearch() {
  if (state.analysing) return;  // the game analysis has the search worker
  const token = ++searchToken;
  searchEngine.stop();
  await searchEngine.ready;
  if (token !== searchToken) return;
  const fen = currentFen();
  const chess = rules(fen);
  const box = $('lines');
  if (chess.isGameOver()) {
    box.textContent = chess.isCheckmate() ? 'Checkmate' : 'Draw';
    box.dataset.state = 'done';
    $('search-info').textContent = '';
    setBar(chess.isCheckmate() ? { white_mate: 0, mated: chess.turn() } : { white_cp: 0 });
    return;
  }
  box.dataset.state = 'running';
  box.dataset.depth = '0';  // the lines shown are the last search's until this one completes a depth
  $('stop').disabled = false;
  const depth = boxNumber('depth', 1, 60, 20, 'The depth');
  const multipv = boxNumber('multipv', 1, 5, 1, 'The number of lines');
  const r = await searchEngine.request('analyse', searchArgs(fen, depth, multipv), (msg) => {
    if (token === searchToken && msg.type === 'iteration') renderLines(msg, fen);
  });
  if (token !== searchToken) return;
  box.dataset.state = r.stopped ? 'stopped' : r.status === 0 ? 'done' : 'error';
  if (r.status > 0) showError(r.err.trim());
  $('stop').disabled = true;
}

function stopSearch() {
  searchToken++;
  const wasAnalysing = state.analysing;
  state.analysing = false;
  searchEngine.stop();
  $('lines').dataset.state = 'stopped';
  $('stop').disabled = true;
  if (wasAnalysing) $('analyse-status').textContent = 'Game analysis stopped.';
}

// The whole game, analysed by the command line's own code in the search worker: `quince analyse GAME.pgn
// --json` (src/cli/analyse_game.cpp) with the game as its input, so the page's evals, verdicts, better lines,
// accuracy and average loss are the command line's: the same default budget (nodes a position, one thread,
// the same hash), the evaluation's WDL model, lichess's thresholds and mate rules.
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// A game JSON eval ({white_cp} | {white_mate} | {checkmate: true}) as the page keeps scores; `toMove` is the
// side to move in that position ('w' | 'b'), the side mated on a checkmate.
function scoreOf(e, toMove) { return e.checkmate ? { white_mate: 0, mated: toMove } : e; }

// The main line as a PGN for the engine (no tags but those of the start position and the variant).
function gamePgn() {
  const tags = state.chess960 ? { Variant: 'Chess960' } : {};
  return annotatedPgn(tags, state.startFen, state.moves.map((m) => ({ san: m.san, color: m.color, number: m.number })), '*');
}

async function analyseGame() {
  if (!state.moves.length) { showError('No game to analyse: play or import some moves first.'); return; }
  showError('');  // an earlier action's error is not this one's
  stopSearch();
  await searchEngine.ready;
  const token = searchToken;
  const nodes = boxNumber('game-nodes', 1000, 100000000, Number($('game-nodes').defaultValue), 'The nodes per position');
  const profile = $('search-profile').value;
  state.analysing = true;
  $('stop').disabled = false;
  delete $('analyse-status').dataset.done;
  $('analyse-status').textContent = 'Analysing…';
  const plies = state.moves.length;
  const sent = state.moves.slice();
  let game = null;
  const t0 = performance.now();
  const r = await searchEngine.request('games', ['--nodes', String(nodes), '--profile', profile], (msg) => {
    if (token !== searchToken) return;
    if (msg.type === 'progress') $('analyse-status').textContent = `Analysing: position ${msg.position} of ${msg.positions}…`;
    else if (msg.type === 'game') game = msg;
  }, { pgn: gamePgn() });
  if (token !== searchToken || r.stopped) return;
  state.analysing = false;
  $('stop').disabled = true;
  if (sent.some((m, i) => state.moves[i] !== m)) {
    $('analyse-status').textContent = 'The game changed during the analysis: analyse it again.';
    return;
  }
  if (!game || game.moves.length !== plies) {
    $('analyse-status').textContent = '';
    showError('The game analysis failed: ' + (r.err.trim() || 'the engine gave no result'));
    return;
  }
  const other = (c) => (c === 'w' ? 'b' : 'w');
  const first = state.moves[0].color;
  state.evals = [scoreOf(game.start_eval, first)];
  state.notes = [];
  for (const m of game.moves) {
    const color = m.color === 'white' ? 'w' : 'b';
    state.evals[m.ply] = scoreOf(m.eval, other(color));
    // The better line goes with a mistake, a blunder and a mate allowed or lost, as in the annotated PGN.
    const better = m.judgement && (m.judgement !== 'inaccuracy' || m.mate) && m.best && m.best.line.length ? m.best.line : null;
    state.notes[m.ply - 1] = { nag: m.judgement ? MARKS[m.judgement] : '', better };
  }
  // The tags' figures, as `annotate` writes them: accuracy to one decimal, the average loss rounded.
  const side = (c) => {
    const s = game.sides[c === 'w' ? 'white' : 'black'];
    if (!s.moves) return null;
    const loss = game.moves.filter((m) => m.color === (c === 'w' ? 'white' : 'black')).reduce((a, m) => a + m.cp_loss, 0);
    return { accuracy: s.accuracy.toFixed(1), acpl: String(Math.round(loss / s.moves)), marks: [s.inaccuracies, s.mistakes, s.blunders] };
  };
  state.summary = { plies, budget: `${nodes} nodes a position, profile ${profile}`, w: side('w'), b: side('b') };
  renderGraph();
  renderMoves();
  const marks = (c) => { const s = state.summary[c]; return s ? `${s.marks[0]} ?!, ${s.marks[1]} ?, ${s.marks[2]} ??` : 'no move'; };
  $('analyse-status').textContent = `Done in ${((performance.now() - t0) / 1000).toFixed(1)} s (${state.summary.budget}). ` +
    `White: ${marks('w')}; Black: ${marks('b')}.`;
  $('analyse-status').dataset.done = 'true';
  renderSummary();
  if ($('live').checked) startSearch();
}

// Per side: accuracy and average centipawn loss of the analysed game (the command line's [WhiteAccuracy]
// [WhiteACPL] …), with data-white-accuracy, data-white-acpl, data-black-… for machines.
function renderSummary() {
  const box = $('summary');
  box.textContent = '';
  for (const k of ['whiteAccuracy', 'whiteAcpl', 'blackAccuracy', 'blackAcpl']) delete box.dataset[k];
  if (!state.summary || state.summary.plies !== state.moves.length) return;
  for (const [c, name] of [['w', 'White'], ['b', 'Black']]) {
    const s = state.summary[c];
    if (!s) continue;
    const side = name.toLowerCase();
    box.dataset[side + 'Accuracy'] = s.accuracy;
    box.dataset[side + 'Acpl'] = s.acpl;
    const row = document.createElement('span');
    row.className = 'side-summary';
    row.textContent = `${name}: accuracy ${s.accuracy} %, average loss ${s.acpl} cp`;
    box.appendChild(row);
  }
}

// ---- PGN ----
function resetAnalysis() {
  state.evals = []; state.notes = []; state.summary = null;
  state.variations = []; state.inVariation = null;
  $('analyse-status').textContent = ''; delete $('analyse-status').dataset.done;
  renderSummary();
}

// The tags chess.js read from a PGN, without SetUp and FEN (the start position is kept apart).
function headersOf(chess) {
  const h = chess.getHeaders ? chess.getHeaders() : chess.header();
  const headers = {};
  for (const [k, v] of Object.entries(h || {})) if (v !== null && v !== undefined && k !== 'SetUp' && k !== 'FEN') headers[k] = v;
  return headers;
}

// A PGN's tag pairs as {name: value}, and its movetext without them.
function tagsOf(text) {
  const tags = {};
  for (const m of text.matchAll(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]/gm))
    if (m[1] !== 'SetUp' && m[1] !== 'FEN') tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
  return tags;
}

function loadGame(chess, headers) {
  state.chess960 = false;
  const history = chess.history({ verbose: true });
  const startFen = history.length ? history[0].before : chess.fen();
  state.startFen = startFen === START ? null : startFen;
  state.headers = headers || {};
  state.moves = history.map((m) => ({ san: m.san, uci: m.from + m.to + (m.promotion || ''), from: m.from, to: m.to,
                                      color: m.color, number: parseInt(m.before.split(' ')[5], 10) || 1, fenAfter: m.after }));
  resetAnalysis();
}

// Why chess.js refused a PGN, in words a player reads: the first illegal move with its number, found by
// playing the movetext's moves one by one, else what the parser expected (without its grammar dump).
function pgnProblem(text, error) {
  const chess = new Chess();
  const fen = (text.match(/^\s*\[FEN\s+"([^"]*)"\]/m) || [])[1];
  try { if (fen) chess.load(fen); } catch (e) { return 'its FEN tag is not a position (' + e.message + ')'; }
  for (const san of movetextSans(text.replace(/^\s*\[[^\]]*\]\s*$/gm, ''))) {
    const [, , , , , number] = chess.fen().split(' ');
    const label = number + (chess.turn() === 'w' ? '. ' : '... ') + san;
    let played = null;
    try { played = chess.move(san); } catch (e) { played = null; }
    if (!played) return `illegal move '${label}' in ${chess.fen()}`;
  }
  const m = /Expected .* but (.*) found/.exec(error.message || '');
  return m ? 'it is not PGN: ' + m[1] + ' where a move, comment or result belongs' : 'it could not be read as a game';
}

async function importPgn(text) {
  if (!text.trim()) { showError('PGN not loaded: the text is empty; paste a game or its moves (1. e4 e5 2. Nf3).'); return false; }
  const tags = {};
  for (const m of text.matchAll(/^\s*\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]/gm)) tags[m[1]] = m[2].replace(/\\(.)/g, '$1');
  if (/chess\s*960|fischerandom/i.test(tags.Variant || '') || (tags.FEN && isChess960Fen(tags.FEN))) {
    const headers = {};
    for (const [k, v] of Object.entries(tags)) if (k !== 'SetUp' && k !== 'FEN') headers[k] = v;
    try {
      await loadChess960(tags.FEN || START, movetextSans(text.replace(/^\s*\[[^\]]*\]\s*$/gm, '')), headers);
    } catch (e) { showError('PGN not loaded: ' + e.message); return false; }
    goTo(state.moves.length);
    return true;
  }
  const chess = new Chess();
  try { chess.loadPgn(text); } catch (e) { showError('PGN not loaded: ' + pgnProblem(text, e)); return false; }
  loadGame(chess, headersOf(chess));
  goTo(state.moves.length);
  return true;
}

function exportPgn() {
  const moves = state.moves.map((m, i) => ({
    san: m.san, color: m.color, number: m.number,
    nag: state.notes[i] ? state.notes[i].nag : '',
    // No [%eval] after a move that ends the game (mate, stalemate), as the command line and lichess write it.
    eval: state.evals[i + 1] && rules(fenAt(i + 1)).moves().length ? evalText(state.evals[i + 1]) : '',
    better: state.notes[i] ? state.notes[i].better : null,
    variations: state.variations.filter((v) => v.ply === i).map((v) => v.moves.map((x) => x.san)),
  }));
  const chess = chessAt(state.moves.length);
  const result = chess.isCheckmate() ? (chess.turn() === 'w' ? '0-1' : '1-0') : chess.isDraw() ? '1/2-1/2'
    : (state.headers.Result || '*');
  const headers = Object.assign({ Event: '?', Site: '?', Date: '????.??.??', Round: '?', White: '?', Black: '?' }, state.headers);
  if (state.summary) headers.Annotator = 'Quince (' + state.summary.budget + ')';
  const box = $('summary');
  if (box.dataset.whiteAccuracy) { headers.WhiteACPL = box.dataset.whiteAcpl; headers.WhiteAccuracy = box.dataset.whiteAccuracy; }
  if (box.dataset.blackAccuracy) { headers.BlackACPL = box.dataset.blackAcpl; headers.BlackAccuracy = box.dataset.blackAccuracy; }
  return annotatedPgn(headers, state.startFen, moves, result);
}

function plainMovetext() { return numbered(state.moves.length ? state.moves[0].number : 1, !state.moves.length || state.moves[0].color === 'w', state.moves.map((m) => m.san)); }

function updateAddress() {
  const params = new URLSearchParams();
  if (state.startFen) params.set('fen', state.startFen);
  // The game's tags go along, so that a shared address exports the same game.
  const tags = Object.entries(state.headers || {}).map(([k, v]) => `[${k} "${String(v).replace(/["\\]/g, '\\$&')}"]`).join('\n');
  if (state.moves.length) params.set('pgn', (tags ? tags + '\n\n' : '') + plainMovetext());
  if (state.ply !== state.moves.length) params.set('ply', String(state.ply));
  params.set('profiles', state.profiles.join(','));
  try { history.replaceState(null, '', '?' + params.toString()); } catch (e) { /* file:// pages may refuse */ }
  $('share').dataset.url = location.href;
}

// ---- the workbench: term comparison and the picture of the current position ----
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
    h.colSpan = i === 0 ? 3 : 4; h.textContent = p.profile; h.dataset.profile = p.profile;
    r1.appendChild(h);
    for (const part of i === 0 ? ['mg', 'eg', 'cp'] : ['mg', 'eg', 'cp', 'Δ cp']) {
      const s = document.createElement('th'); s.textContent = part; r2.appendChild(s);
    }
  });
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
  const row = foot.insertRow();
  row.className = 'final';
  const label = row.insertCell();
  label.className = 'term'; label.textContent = 'final (White, cp)';
  cmp.profiles.forEach((p, i) => {
    const c = row.insertCell();
    c.colSpan = i === 0 ? 3 : 4; c.dataset.profile = p.profile; c.dataset.final = String(p.final_cp_white_view);
    c.textContent = (p.final_cp_white_view > 0 ? '+' : '') + p.final_cp_white_view;
  });
}

let workbenchToken = 0;
async function refreshWorkbench() {
  const token = ++workbenchToken;
  await evalEngine.ready;
  const fen = currentFen();
  const names = state.profiles.length ? state.profiles : [state.allProfiles[0]];
  const cmp = await evalEngine.request('run', ['compare', '--json', fen].concat(names));
  if (token !== workbenchToken) return;
  if (cmp.status !== 0) { showError(cmp.err.trim()); return; }
  renderTable(JSON.parse(cmp.out));
  $('compare').dataset.fen = fen;
  const svg = await evalEngine.request('run', ['compare', '--svg', fen].concat(names));
  if (token !== workbenchToken) return;
  if (svg.status === 0) $('boards').innerHTML = svg.out;
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
      updateAddress();
      refreshWorkbench();
    });
    label.append(input, ' ' + p);
    box.appendChild(label);
    const option = document.createElement('option');
    option.value = p; option.textContent = p;
    select.appendChild(option);
  }
  select.value = state.allProfiles[0];
}

// ---- start ----
async function readAddress() {
  const params = new URLSearchParams(location.search);
  const fen = params.get('fen');
  if (fen && isChess960Fen(fen)) {
    const pgn = params.get('pgn') || '';
    const sans = pgn ? movetextSans(pgn.replace(/^\s*\[[^\]]*\]\s*$/gm, '')) : (params.get('moves') || '').split(/[\s,]+/).filter(Boolean);
    try { await loadChess960(fen, sans, tagsOf(pgn)); } catch (e) {
      state.addressProblem = 'The address\'s game was not used: ' + e.message;
      loadGame(new Chess(), {});
      return 0;
    }
    const ply = params.get('ply');
    return ply === null ? state.moves.length : parseInt(ply, 10) || 0;
  }
  const chess = new Chess();
  try {
    if (fen && fen !== 'startpos') chess.load(fen);
    const startFen = chess.fen();
    if (params.get('pgn')) {
      const pgn = params.get('pgn');
      const setUp = `[SetUp "1"]\n[FEN "${startFen}"]\n` + (/^\s*\[/.test(pgn) ? '' : '\n');  // one tag section
      const text = (startFen !== START ? setUp : '') + pgn;
      chess.loadPgn(text);
    } else {
      for (const mv of (params.get('moves') || '').split(/[\s,]+/).filter(Boolean)) {
        const uci = /^[a-h][1-8][a-h][1-8][qrbn]?$/.test(mv);
        const m = uci ? chess.move({ from: mv.slice(0, 2), to: mv.slice(2, 4), promotion: mv[4] }) : chess.move(mv);
        if (!m) throw new Error('illegal move ' + mv);
      }
    }
  } catch (e) {
    state.addressProblem = 'The address\'s game was not used: ' + e.message;
    loadGame(new Chess(), {});
    return 0;
  }
  loadGame(chess, headersOf(chess));  // the tags the address gave are kept for the export
  const ply = params.get('ply');
  return ply === null ? state.moves.length : parseInt(ply, 10) || 0;
}

// One move forward or back in the line shown: the main line, or in a variation through it (back from its
// first move is its branch point in the main line).
function step(delta) {
  const at = state.inVariation;
  if (at) goToVariation(at.v, at.k + delta);
  else goTo(state.ply + delta);
}

function onKey(e) {
  if (e.target.closest('input, textarea, select')) return;
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') { e.preventDefault(); step(e.key === 'ArrowRight' ? 1 : -1); return; }
  const moves = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.moves.length,
                  ArrowUp: 0, ArrowDown: state.moves.length };
  if (e.key in moves) { e.preventDefault(); goTo(moves[e.key]); }
  else if (e.key === 'f') flip();
}

function flip() {
  state.orientation = state.orientation === 'white' ? 'black' : 'white';
  board.set({ orientation: state.orientation });
  $('board').dataset.orientation = state.orientation;
}

async function main() {
  board = Chessground($('board'), {
    movable: { free: false, showDests: true, events: { after: (orig, dest) => onBoardMove(orig, dest) } },
    highlight: { lastMove: true, check: true },
    animation: { enabled: true, duration: 150 },
    draggable: { enabled: true, showGhost: true },
    premovable: { enabled: false },
  });
  searchEngine = new Engine('search');
  evalEngine = new Engine('eval');
  try { await evalEngine.ready; } catch (e) {
    $('status').textContent = 'The engine did not load (' + e.message + '): build web/quince.js with scripts/web.sh and serve this folder over http.';
    return;
  }
  const p = await evalEngine.request('profiles', []);
  state.allProfiles = p.out.split(' ');
  const params = new URLSearchParams(location.search);
  const asked = (params.get('profiles') || '').split(',').map((s) => s.trim()).filter((s) => state.allProfiles.includes(s));
  state.profiles = asked.length ? asked : ['quince', 'rybka1', 'rybka232', 'fruit21'].filter((x) => state.allProfiles.includes(x));
  setupProfiles(state.profiles);
  const ply = await readAddress();

  document.addEventListener('keydown', onKey);
  $('flip').addEventListener('click', flip);
  $('first').addEventListener('click', () => goTo(0));
  $('prev').addEventListener('click', () => step(-1));
  $('next').addEventListener('click', () => step(1));
  $('last').addEventListener('click', () => goTo(state.moves.length));
  $('stop').addEventListener('click', stopSearch);
  $('go').addEventListener('click', () => { state.analysing = false; startSearch(); });
  $('live').addEventListener('change', () => ($('live').checked ? startSearch() : stopSearch()));
  // Every action starts without the previous action's error; its own may then set one.
  // (Capture phase: before the action's own handlers.)
  const actions = { click: 'button, #board, #graph', change: 'select, input', submit: 'form' };
  for (const [type, where] of Object.entries(actions))
    document.addEventListener(type, (e) => { if (e.target.closest && e.target.closest(where)) showError(''); }, true);
  // A number out of range is put right and said as soon as it is typed, not only when it is used.
  for (const [id, lo, hi, name] of [['depth', 1, 60, 'The depth'], ['multipv', 1, 5, 'The number of lines'],
                                     ['game-nodes', 1000, 100000000, 'The nodes per position']])
    $(id).addEventListener('change', () => boxNumber(id, lo, hi, Number($(id).defaultValue), name));
  for (const id of ['depth', 'multipv', 'search-profile']) $(id).addEventListener('change', () => $('live').checked && startSearch());
  $('analyse').addEventListener('click', analyseGame);
  $('pgn-load').addEventListener('click', () => importPgn($('pgn-text').value));
  $('pgn-file').addEventListener('change', async (e) => {
    const f = e.target.files[0];
    if (f && await importPgn(await f.text())) $('pgn-text').value = '';
  });
  $('pgn-export').addEventListener('click', () => {
    const text = exportPgn();
    $('pgn-text').value = text;
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([text], { type: 'application/x-chess-pgn' }));
    a.download = 'quince-analysis.pgn';
    a.click();
  });
  $('fen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const fen = $('fen-input').value.trim() || START;
    if (isChess960Fen(fen)) {
      loadChess960(fen, [], {}).then(() => goTo(0), (err) => showError('FEN not loaded: ' + err.message));
      return;
    }
    const chess = new Chess();
    try { chess.load(fen); } catch (err) { showError('FEN not loaded: ' + err.message); return; }
    loadGame(chess, {});
    goTo(0);
  });
  $('new').addEventListener('click', () => { loadGame(new Chess(), {}); goTo(0); });
  $('share').addEventListener('click', async () => {
    updateAddress();
    try { await navigator.clipboard.writeText(location.href); $('share').textContent = 'Link copied'; } catch (e) { $('share').textContent = 'Link in the address bar'; }
  });
  $('graph').addEventListener('click', graphClick);
  goTo(ply);
  if (state.addressProblem) showError(state.addressProblem);
  $('status').textContent = '';
  document.body.dataset.ready = 'true';
}

main().catch((e) => { $('status').textContent = 'The page failed to start: ' + e.message; });
