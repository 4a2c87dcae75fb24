// What the page writes and draws of a game analysis (web/judge.js): the winning chances of its eval bar and
// graph, the [%eval] text and the annotated PGN it exports. (The verdicts and accuracy are the engine's own:
// tests/web/web_test.mjs checks the page's against `quince analyse`.)  node --test tests/web/judge_test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { annotatedPgn, evalText, winningChances } from '../../web/judge.js';

test('winning chances follow lichess formula, clamped at 1000 cp', () => {
  assert.equal(winningChances({ white_cp: 0 }), 0);
  assert.ok(Math.abs(winningChances({ white_cp: 100 }) - (2 / (1 + Math.exp(-0.368208)) - 1)) < 1e-12);
  assert.equal(winningChances({ white_cp: 5000 }), winningChances({ white_cp: 1000 }));
  assert.equal(winningChances({ white_mate: 3 }), winningChances({ white_cp: 1000 }));
  assert.equal(winningChances({ white_mate: -2 }), winningChances({ white_cp: -1000 }));
  assert.equal(winningChances({ white_mate: 0, mated: 'b' }), winningChances({ white_cp: 1000 }));
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

test('annotated PGN: the variations played instead of a move follow it', () => {
  const text = annotatedPgn({}, null, [
    { san: 'e4', color: 'w', number: 1, nag: '', eval: '', better: null, variations: [['d4', 'd5'], ['c4']] },
    { san: 'e5', color: 'b', number: 1, nag: '', eval: '', better: null, variations: [['c5', 'Nf3']] },
    { san: 'Nf3', color: 'w', number: 2, nag: '', eval: '', better: null },
  ], '*');
  assert.match(text, /\n1\. e4 \(1\. d4 d5\) \(1\. c4\) 1\.\.\. e5 \(1\.\.\. c5 2\. Nf3\) 2\. Nf3 \*\n$/);
});
