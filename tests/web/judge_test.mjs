// The page's game-analysis verdicts (web/judge.js): lichess's winning-chances formula and thresholds, and
// the annotated PGN it exports.  node --test tests/web/judge_test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { annotatedPgn, clampedCp, evalText, moveAccuracy, moveLoss, sideSummary, THRESHOLDS, verdict, winningChances } from '../../web/judge.js';

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

test('average loss and accuracy as the command line counts them', () => {
  // The command line's accuracy of a move (src/cli/analyse_game.cpp move_accuracy), winning percentages.
  assert.ok(Math.abs(moveAccuracy(60, 60) - 99.9999) < 1e-9);  // 103.1668 - 3.1669, as the command line gives
  assert.ok(Math.abs(moveAccuracy(80, 40) - (103.1668 * Math.exp(-0.04354 * 40) - 3.1669)) < 1e-12);
  assert.equal(moveAccuracy(100, 0), 0);
  assert.equal(clampedCp({ white_cp: 2500 }), 1000);
  assert.equal(clampedCp({ white_mate: -2 }), -1000);
  // White drops from +0.50 to -3.00: 350 cp lost; Black's view is the mirror.
  const w = moveLoss({ white_cp: 50 }, { white_cp: -300 }, 'w', false);
  assert.equal(w.cpLoss, 350);
  const pct = (cp) => 50 + 50 * winningChances({ white_cp: cp });
  assert.ok(Math.abs(w.accuracy - moveAccuracy(pct(50), pct(-300))) < 1e-12);
  const b = moveLoss({ white_cp: -50 }, { white_cp: 300 }, 'b', false);
  assert.equal(b.cpLoss, 350);
  assert.ok(Math.abs(b.accuracy - w.accuracy) < 1e-12);
  // A gain loses nothing; the engine's own choice loses nothing even when the score after it is lower.
  assert.deepEqual(moveLoss({ white_cp: 0 }, { white_cp: 100 }, 'w', false), { cpLoss: 0, accuracy: moveAccuracy(0, 0) });
  assert.deepEqual(moveLoss({ white_cp: 100 }, { white_cp: 20 }, 'w', true), { cpLoss: 0, accuracy: moveAccuracy(0, 0) });
  assert.equal(moveLoss({ white_cp: 100 }, { white_cp: 20 }, 'w', false).cpLoss, 80);
  // Mates count as 1000 cp.
  assert.equal(moveLoss({ white_cp: 200 }, { white_mate: -1 }, 'w', false).cpLoss, 1200);
  const sum = sideSummary([{ color: 'w', cpLoss: 10, accuracy: 90 }, { color: 'b', cpLoss: 30, accuracy: 60 },
                           { color: 'w', cpLoss: 30, accuracy: 80 }]);
  assert.deepEqual(sum, { w: { moves: 2, acpl: 20, accuracy: 85 }, b: { moves: 1, acpl: 30, accuracy: 60 } });
  assert.equal(sideSummary([{ color: 'w', cpLoss: 0, accuracy: 99 }]).b, null);
});

test('annotated PGN: the variations played instead of a move follow it', () => {
  const text = annotatedPgn({}, null, [
    { san: 'e4', color: 'w', number: 1, nag: '', eval: '', better: null, variations: [['d4', 'd5'], ['c4']] },
    { san: 'e5', color: 'b', number: 1, nag: '', eval: '', better: null, variations: [['c5', 'Nf3']] },
    { san: 'Nf3', color: 'w', number: 2, nag: '', eval: '', better: null },
  ], '*');
  assert.match(text, /\n1\. e4 \(1\. d4 d5\) \(1\. c4\) 1\.\.\. e5 \(1\.\.\. c5 2\. Nf3\) 2\. Nf3 \*\n$/);
});
