// The page's game-analysis verdicts (web/judge.js): lichess's winning-chances formula and thresholds, and
// the annotated PGN it exports.  node --test tests/web/judge_test.mjs
import test from 'node:test';
import assert from 'node:assert/strict';
import { annotatedPgn, clampedCp, evalText, gameAccuracy, mateSequence, moveAccuracy, moveLoss, sideSummary, THRESHOLDS, verdict,
  winningChances } from '../../web/judge.js';

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
  // The command line's accuracy of a move (src/cli/analyse_game.cpp move_accuracy): lichess's, with its +1.
  assert.equal(moveAccuracy(60, 60), 100);
  assert.ok(Math.abs(moveAccuracy(60, 50) - 64.57982845372067) < 1e-9);  // the command line's test's value
  assert.ok(Math.abs(moveAccuracy(80, 40) - (103.1668100711649 * Math.exp(-0.04354415386753951 * 40) - 3.166924740191411 + 1)) < 1e-12);
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
  const losses = [{ color: 'w', cpLoss: 10, accuracy: 90 }, { color: 'b', cpLoss: 30, accuracy: 60 },
                  { color: 'w', cpLoss: 30, accuracy: 80 }];
  const whiteWin = [50, 55, 40, 45];
  const sum = sideSummary(losses, whiteWin);
  const game = gameAccuracy(whiteWin, [90, 60, 80], 'w');
  assert.deepEqual(sum, { w: { moves: 2, acpl: 20, accuracy: game.w }, b: { moves: 1, acpl: 30, accuracy: game.b } });
  assert.equal(sideSummary([{ color: 'w', cpLoss: 0, accuracy: 99 }], [50, 50]).b, null);
});

test('game accuracy is lichess formula, as the command line computes it', () => {
  // The reference values of the command line's test (tests/cli/analyse_game_test.cpp), from an independent
  // implementation of lichess's formulas: 35 moves (windows of 3 positions), and 4 with Black first.
  const ws = [];
  for (let k = 0; k < 36; k++) ws.push(50 + 45 * Math.sin(0.37 * k) * Math.cos(0.11 * k));
  const accuracies = ws.slice(0, -1).map((w, i) => (i % 2 === 0 ? moveAccuracy(w, ws[i + 1]) : moveAccuracy(100 - w, 100 - ws[i + 1])));
  const a = gameAccuracy(ws, accuracies, 'w');
  assert.ok(Math.abs(a.w - 82.02603757304092) < 1e-9, String(a.w));
  assert.ok(Math.abs(a.b - 82.853588857132) < 1e-9, String(a.b));
  const short = [50, 55, 20, 80, 5];
  const acc = short.slice(0, -1).map((w, i) => (i % 2 === 1 ? moveAccuracy(w, short[i + 1]) : moveAccuracy(100 - w, 100 - short[i + 1])));
  const b = gameAccuracy(short, acc, 'b');
  assert.ok(Math.abs(b.w - 7.147617196527337) < 1e-9, String(b.w));
  assert.ok(Math.abs(b.b - 14.262227702065665) < 1e-9, String(b.b));
});

test('a forced mate allowed or thrown away is judged by lichess mate rules', () => {
  // Allowed: ?? unless the mover stood below -7 pawns (?) or -10 (?!) before it.
  assert.equal(mateSequence({ white_cp: -200 }, { white_mate: -4 }, 'w'), 'allowed');
  assert.equal(verdict({ white_cp: -200 }, { white_mate: -4 }, 'w'), '??');
  assert.equal(verdict({ white_cp: -701 }, { white_mate: -4 }, 'w'), '?');
  assert.equal(verdict({ white_cp: -1000 }, { white_mate: -4 }, 'w'), '?!');
  assert.equal(verdict({ white_cp: 667 }, { white_mate: 1 }, 'b'), '??');  // 7. Be2 Nf3#, from Black's side
  // Lost: ?? unless the mover still stands above +7 (?) or +10 (?!).
  assert.equal(mateSequence({ white_mate: 3 }, { white_cp: 300 }, 'w'), 'lost');
  assert.equal(verdict({ white_mate: 3 }, { white_cp: 300 }, 'w'), '??');
  assert.equal(verdict({ white_mate: 3 }, { white_cp: 701 }, 'w'), '?');
  assert.equal(verdict({ white_mate: -3 }, { white_cp: -1200 }, 'b'), '?!');
  assert.equal(verdict({ white_mate: 3 }, { white_mate: -2 }, 'w'), '??');
  // A slower mate, or being mated either way: no verdict; the search's own move: none.
  assert.equal(verdict({ white_mate: 2 }, { white_mate: 5 }, 'w'), '');
  assert.equal(verdict({ white_mate: -2 }, { white_mate: -1 }, 'w'), '');
  assert.equal(verdict({ white_cp: 0 }, { white_cp: -500 }, 'w', true), '');
  // The mating move itself: the position after it is mate on the board (white_mate 0).
  assert.equal(verdict({ white_mate: 1 }, { white_mate: 0, mated: 'b' }, 'w'), '');
});

test('annotated PGN: the variations played instead of a move follow it', () => {
  const text = annotatedPgn({}, null, [
    { san: 'e4', color: 'w', number: 1, nag: '', eval: '', better: null, variations: [['d4', 'd5'], ['c4']] },
    { san: 'e5', color: 'b', number: 1, nag: '', eval: '', better: null, variations: [['c5', 'Nf3']] },
    { san: 'Nf3', color: 'w', number: 2, nag: '', eval: '', better: null },
  ], '*');
  assert.match(text, /\n1\. e4 \(1\. d4 d5\) \(1\. c4\) 1\.\.\. e5 \(1\.\.\. c5 2\. Nf3\) 2\. Nf3 \*\n$/);
});
