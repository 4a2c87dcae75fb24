// Game analysis verdicts, as the command line's `quince analyse GAMES.pgn` gives them: the drop in the
// mover's winning chances decides ?! / ? / ?? with lichess's thresholds and formula (keep them identical
// to the command line's).
export const THRESHOLDS = { inaccuracy: 0.1, mistake: 0.2, blunder: 0.3 };

// Winning chances in [-1, 1] from White's view: lichess's 2 / (1 + exp(-0.00368208 * cp)) - 1, the
// centipawns clamped to ±1000 as lichess does; a mate counts as ±1000.
export function winningChances(score) {
  // A position where the side to move is mated carries white_mate 0 and mated: 'w' | 'b'.
  const whiteMates = score.white_mate > 0 || (score.white_mate === 0 && score.mated === 'b');
  const cp = score.white_mate !== undefined ? (whiteMates ? 1000 : -1000)
    : Math.max(-1000, Math.min(1000, score.white_cp));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
}

// A score from the mover's view: {mate: moves (> 0: the mover mates, < 0: is mated) | undefined, cp}.
function moverView(score, mover) {
  const sign = mover === 'w' ? 1 : -1;
  if (score.white_mate !== undefined) {
    // white_mate 0 is a checkmate on the board: `mated` names the side mated.
    const whiteMates = score.white_mate > 0 || (score.white_mate === 0 && score.mated === 'b');
    return { mate: (whiteMates ? 1 : -1) * sign * Math.max(1, Math.abs(score.white_mate)), cp: 0 };
  }
  return { mate: undefined, cp: sign * Math.max(-1000, Math.min(1000, score.white_cp)) };
}

// lichess's mate rules, as the command line's (`mate_sequence`, `judge_move`): 'allowed' when the move lets
// the opponent force mate and the mover had no mate before, 'lost' when it gives up the mover's forced mate,
// '' otherwise.
export function mateSequence(before, after, mover) {
  const b = moverView(before, mover), a = moverView(after, mover);
  if (b.mate === undefined && a.mate !== undefined && a.mate < 0) return 'allowed';
  if (b.mate !== undefined && b.mate > 0 && !(a.mate !== undefined && a.mate > 0)) return 'lost';
  return '';
}

// The NAG of a move by `mover` ('w' | 'b') from the scores before and after it (White's view), or ''. The
// search's own move (`best`) is never judged. A mate allowed is judged by how the mover stood before it
// (?? / ? below -7 pawns / ?! below -10), a mate lost by where the move leaves the mover (?? / ? above +7 /
// ?! above +10); a slower mate is no verdict; otherwise the drop in winning chances decides.
export function verdict(before, after, mover, best = false) {
  if (best) return '';
  const mate = mateSequence(before, after, mover);
  const b = moverView(before, mover), a = moverView(after, mover);
  if (mate === 'allowed') return b.cp < -999 ? '?!' : b.cp < -700 ? '?' : '??';
  if (mate === 'lost') {
    const cp = a.mate !== undefined ? 0 : a.cp;
    return cp > 999 ? '?!' : cp > 700 ? '?' : '??';
  }
  if (b.mate !== undefined || a.mate !== undefined) return '';
  const sign = mover === 'w' ? 1 : -1;
  const drop = sign * (winningChances(before) - winningChances(after));
  if (drop >= THRESHOLDS.blunder) return '??';
  if (drop >= THRESHOLDS.mistake) return '?';
  if (drop >= THRESHOLDS.inaccuracy) return '?!';
  return '';
}

// The centipawns of a score from White's view, clamped to ±1000 (a mate counts as ±1000), as the command
// line's average loss counts them.
export function clampedCp(score) {
  if (score.white_mate !== undefined) return winningChances(score) > 0 ? 1000 : -1000;
  return Math.max(-1000, Math.min(1000, score.white_cp));
}

// The command line's per-move accuracy (lichess's): 103.1668100711649 * exp(-0.04354415386753951 * (before -
// after)) - 3.166924740191411 + 1, clamped to 0..100, of the mover's winning percentages (50 + 50 * chances)
// before and after the move; 100 when the move loses nothing.
export function moveAccuracy(before, after) {
  if (after >= before) return 100;
  const raw = 103.1668100711649 * Math.exp(-0.04354415386753951 * (before - after)) - 3.166924740191411 + 1;
  return Math.max(0, Math.min(100, raw));
}

// lichess's game accuracy per side, as the command line's (`game_accuracy`): from White's win % of every
// position (n + 1) and the n moves' accuracies, the mean of a volatility-weighted mean (each move weighted
// by the population standard deviation of the win % over a window of clamp(n / 10, 2, 8) positions,
// clamped to 0.5..12; the first windows repeat the opening one) and the harmonic mean (accuracies of at
// least 1) of the side's moves. {w, b}: null for a side without a move.
export function gameAccuracy(whiteWin, accuracies, firstMover = 'w') {
  const n = accuracies.length;
  const out = { w: null, b: null };
  if (!n || whiteWin.length !== n + 1) return out;
  const size = Math.max(2, Math.min(8, Math.floor(n / 10)));
  const deviation = (xs) => {
    const mean = xs.reduce((a, x) => a + x, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - mean) * (x - mean), 0) / xs.length);
    return Math.max(0.5, Math.min(12, sd));
  };
  const first = Math.min(size, whiteWin.length);
  const weights = Array(first - 2).fill(deviation(whiteWin.slice(0, first)));
  if (whiteWin.length < size) weights.push(deviation(whiteWin));
  else for (let k = 0; k + size <= whiteWin.length; k++) weights.push(deviation(whiteWin.slice(k, k + size)));
  for (const c of ['w', 'b']) {
    let weighted = 0, weightSum = 0, inverse = 0, moves = 0;
    for (let i = 0; i < n; i++) {
      const color = i % 2 === 0 ? firstMover : (firstMover === 'w' ? 'b' : 'w');
      if (color !== c) continue;
      weighted += accuracies[i] * weights[i];
      weightSum += weights[i];
      inverse += 1 / Math.max(1, accuracies[i]);
      moves++;
    }
    if (moves) out[c] = (weighted / weightSum + moves / inverse) / 2;
  }
  return out;
}

// What a move by `mover` cost, as `quince analyse GAMES.pgn` counts it: {cpLoss, accuracy}. `before` is the
// score of the position before it, `after` after it (White's view); when the move is the one the search chose
// (`best`), it loses nothing by definition, and a move that turns out better than expected loses nothing.
export function moveLoss(before, after, mover, best) {
  const sign = mover === 'w' ? 1 : -1;
  let cpBefore = sign * clampedCp(before), wcBefore = sign * winningChances(before);
  const cpAfter = sign * clampedCp(after), wcAfter = sign * winningChances(after);
  if (best) { cpBefore = Math.min(cpBefore, cpAfter); wcBefore = Math.min(wcBefore, wcAfter); }
  return {
    cpLoss: Math.max(0, cpBefore - cpAfter),
    accuracy: moveAccuracy(50 + 50 * wcBefore, 50 + 50 * Math.min(wcAfter, wcBefore)),
  };
}

// Per side ('w', 'b'): the average centipawn loss over its judged moves [{color, cpLoss, accuracy}] and the
// game accuracy (gameAccuracy) from `whiteWin`, White's win % of every position; null for a side with no move.
export function sideSummary(losses, whiteWin) {
  const out = {};
  const accuracy = gameAccuracy(whiteWin || [], losses.map((l) => l.accuracy), losses.length ? losses[0].color : 'w');
  for (const c of ['w', 'b']) {
    const mine = losses.filter((l) => l && l.color === c);
    out[c] = mine.length ? {
      moves: mine.length,
      acpl: mine.reduce((a, l) => a + l.cpLoss, 0) / mine.length,
      accuracy: accuracy[c] ?? 0,
    } : null;
  }
  return out;
}

// "0.17", "-1.20", "#3", "#-2": the PGN [%eval] form, pawns from White's view.
export function evalText(score) {
  if (score.white_mate !== undefined) return '#' + score.white_mate;
  return (score.white_cp / 100).toFixed(2);
}

// Movetext numbering: "12. Nf3", "12... Nf6".
export function numbered(moveNumber, white, sans) {
  const out = [];
  let n = moveNumber;
  let w = white;
  sans.forEach((m, i) => {
    if (w) out.push(n + '. ' + m);
    else out.push((i === 0 ? n + '... ' : '') + m);
    if (!w) n += 1;
    w = !w;
  });
  return out.join(' ');
}

// The annotated PGN of a game: headers {name: value}, start FEN (null for the standard start), moves
// [{san, color, number, nag, eval, better: [san…] | null, variations: [[san…], …] | undefined}]; the
// variations of a move are the lines played instead of it (from the same position), written after it.
export function annotatedPgn(headers, startFen, moves, result) {
  const tags = Object.assign({}, headers);
  if (startFen) { tags.SetUp = '1'; tags.FEN = startFen; }
  tags.Result = result || tags.Result || '*';
  const head = Object.entries(tags).map(([k, v]) => '[' + k + ' "' + String(v).replace(/["\\]/g, '\\$&') + '"]').join('\n');
  const parts = [];
  moves.forEach((m, i) => {
    if (m.color === 'w') parts.push(m.number + '.');
    else if (i === 0 || parts.length && parts[parts.length - 1].endsWith('}') || parts[parts.length - 1].endsWith(')'))
      parts.push(m.number + '...');
    parts.push(m.san + (m.nag || ''));
    if (m.eval) parts.push('{ [%eval ' + m.eval + '] }');
    if (m.better && m.better.length) parts.push('(' + numbered(m.number, m.color === 'w', m.better) + ')');
    for (const v of m.variations || []) if (v.length) parts.push('(' + numbered(m.number, m.color === 'w', v) + ')');
  });
  parts.push(tags.Result);
  // Lines of at most 80 characters, as PGN export format asks.
  const lines = [];
  let line = '';
  for (const p of parts) {
    if (line && line.length + 1 + p.length > 80) { lines.push(line); line = p; } else line = line ? line + ' ' + p : p;
  }
  if (line) lines.push(line);
  return head + '\n\n' + lines.join('\n') + '\n';
}
