// Two builds of the page's WebAssembly module (web/quince.js from scripts/web.sh, e.g. before and after a
// change to the code it compiles) against each other under Node.js: the same searches (`analyse FEN --nodes N
// --json`, one thread, 16 MB hash, --profile P) on the first POSITIONS positions of tests/data/perft.epd,
// position by position, which module goes first alternating, so that a machine whose load changes slows both
// alike (a search each beforehand is not counted: warm-up). Prints per position the nodes of both and their
// times (the modules' own `time_ms`: loading is not counted), then the nodes per second of each, their
// ratio B / A, and in how many searches the two differ (the best move, score, line or node count: a change
// that keeps the arithmetic differs in none).
//
//   node bench/web_module_vs.mjs A.js B.js [PROFILE] [NODES] [POSITIONS]
//   (defaults: profile nnue, 200000 nodes a position, 20 positions)
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
if (process.argv.length < 4) {
  console.error('usage: node bench/web_module_vs.mjs A.js B.js [PROFILE] [NODES] [POSITIONS]');
  process.exit(2);
}
const files = [process.argv[2], process.argv[3]].map((f) => path.resolve(f));
const PROFILE = process.argv[4] || 'nnue';
const NODES = Number(process.argv[5] || 200000);
const COUNT = Number(process.argv[6] || 20);
const fens = fs.readFileSync(path.resolve(here, '../tests/data/perft.epd'), 'utf8').split('\n').filter(Boolean)
  .slice(0, COUNT).map((l) => l.split(';')[0].trim());

async function load(file) {
  const m = await require(file)({ print: () => {}, printErr: () => {} });
  const run = m.cwrap('quince_run', 'number', ['string']);
  const out = m.cwrap('quince_out', 'string', []), err = m.cwrap('quince_err', 'string', []);
  return (fen) => {
    const status = run(['analyse', fen, '--nodes', String(NODES), '--json', '--hash', '16', '--threads', '1', '--profile', PROFILE].join('\n'));
    if (status !== 0) throw new Error(`${file}: ${err().trim()}`);
    return JSON.parse(out().trim().split('\n').filter((l) => l.includes('"type": "result"')).pop());
  };
}
const modules = [await load(files[0]), await load(files[1])];
// Not counted: a search each beforehand, while the JavaScript engine's first code tiers warm up.
for (const m of modules) m('r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9');
const same = (r) => JSON.stringify({ ...r, time_ms: 0 });

const nodes = [0, 0], ms = [0, 0];
let differ = 0;
for (let i = 0; i < fens.length; i++) {
  const r = [];
  for (const k of i % 2 ? [1, 0] : [0, 1]) r[k] = modules[k](fens[i]);
  for (const k of [0, 1]) { nodes[k] += r[k].nodes; ms[k] += r[k].time_ms; }
  differ += same(r[0]) !== same(r[1]);
  console.log(`${String(i + 1).padStart(2)} nodes ${r[0].nodes} / ${r[1].nodes}; ${r[0].time_ms} / ${r[1].time_ms} ms  ${fens[i]}`);
}
const nps = [0, 1].map((k) => nodes[k] / Math.max(1, ms[k]) * 1000);
console.log(`profile ${PROFILE}, ${NODES} nodes a position, ${fens.length} positions, Node.js ${process.version}`);
console.log(`A ${path.basename(files[0])}: ${Math.round(nps[0])} nps; B ${path.basename(files[1])}: ${Math.round(nps[1])} nps; ` +
            `ratio B / A ${(nps[1] / nps[0]).toFixed(3)}; results differ in ${differ} of ${fens.length} searches`);
