// What the page writes and draws of a game analysis: the [%eval] text, the annotated PGN, and White's
// winning chances for the eval bar and the graph. The verdicts, accuracy and average loss are not computed
// here: the engine's own game analysis (`quince analyse GAME.pgn --json`, run in the worker) gives them.

// Winning chances in [-1, 1] from White's view, for drawing only (the bar's and the graph's height):
// lichess's 2 / (1 + exp(-0.00368208 * cp)) - 1, the centipawns clamped to ±1000 as lichess does; a mate
// counts as ±1000.
export function winningChances(score) {
  // A position where the side to move is mated carries white_mate 0 and mated: 'w' | 'b'.
  const whiteMates = score.white_mate > 0 || (score.white_mate === 0 && score.mated === 'b');
  const cp = score.white_mate !== undefined ? (whiteMates ? 1000 : -1000)
    : Math.max(-1000, Math.min(1000, score.white_cp));
  return 2 / (1 + Math.exp(-0.00368208 * cp)) - 1;
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
