// The page's game-analysis verdicts (web/judge.js): lichess's winning-chances formula and thresholds, and
// the annotated PGN it exports.  node --test tests/web/judge_test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { annotatedPgn, evalText, THRESHOLDS, verdict, winningChances } from '../../web/judge.js';

test('winning chances follow lichess formula, clamped at 1000 cp', () => {
  assert.equal(winningChances({ white_cp: 0 }), 0);
  assert.ok(Math.abs(winningChances({ white_cp: 100 }) - (2 / (1 + Math.exp(-0.368208)) - 1)) < 1e-12);
  assert.equal(winningChances({ white_cp: 5000 }), winningChances({ white_cp: 1000 }));
  assert.equal(winningChances({ white_mate: 3 }), winningChances({ white_cp: 1000 }));
  assert.equal(winningChances({ white_mate: -2 }), winningChances({ white_cp: -1000 }));
  assert.equal(winningChances({ white_mate: 0, mated: 'b' }), winningChances({ white_cp: 1000 }));
});

test('thresholds are lichess ones', () => {
  assert.deepEqual(THRESHOLDS, { inaccuracy: 0.1, mistake: 0.2, blunder: 0.3 });
});

test('verdicts judge the mover by the drop of their winning chances', () => {
  const cpFor = (wc) => -Math.log(2 / (wc + 1) - 1) / 0.00368208;  // inverse of the formula
  const at = (drop) => verdict({ white_cp: 0 }, { white_cp: cpFor(-drop) }, 'w');
  assert.equal(at(0.05), '');
  assert.equal(at(0.1001), '?!');
  assert.equal(at(0.2001), '?');
  assert.equal(at(0.3001), '??');
  // The same drop for Black is a gain for White.
  assert.equal(verdict({ white_cp: 0 }, { white_cp: cpFor(-0.35) }, 'b'), '');
  assert.equal(verdict({ white_cp: 0 }, { white_cp: cpFor(0.35) }, 'b'), '??');
  assert.equal(verdict({ white_cp: 300 }, { white_mate: 1 }, 'b'), '??');
});

test('annotated PGN: evals, NAGs, better line, move numbers after comments', () => {
  const text = annotatedPgn({ White: 'A', Black: 'B' }, null, [
    { san: 'e4', color: 'w', number: 1, nag: '', eval: '0.20', better: null },
    { san: 'f6', color: 'b', number: 1, nag: '?', eval: '1.10', better: ['e5', 'Nf3'] },
    { san: 'd4', color: 'w', number: 2, nag: '', eval: '', better: null },
  ], '*');
  assert.match(text, /^\[White "A"\]\n\[Black "B"\]\n\[Result "\*"\]\n\n/);
  assert.match(text, /1\. e4 \{ \[%eval 0\.20\] \} 1\.\.\. f6\? \{ \[%eval 1\.10\] \} \(1\.\.\. e5 2\. Nf3\) 2\. d4 \*\n$/);
  assert.equal(evalText({ white_mate: -3 }), '#-3');
  assert.equal(evalText({ white_cp: -120 }), '-1.20');
});
