// The page's search speed against the native build's: the same positions searched to the same depth by
// web/quince.js in Debian's chromium (playwright-core, as tests/web drives it) and by the native engine,
// one thread, 16 MB hash each. The two are interleaved position by position (which goes first alternates),
// so that a machine whose load changes slows both alike; ROUNDS repeats the whole set. Prints per position
// the nodes of both (equal: the same search) and their times, then per round and over all rounds the nodes
// per second of each and their ratio (the goal is at least 0.4). The times are the engines' own (`time_ms`
// of `analyse --json`): starting a process or a page is not counted.
//
//   node bench/web_nps.mjs build/quince [DEPTH] [POSITIONS] [ROUNDS]
//   (defaults: depth 12, the first 20 positions of tests/data/perft.epd, 1 round)
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(here, '../web');
const require = createRequire(path.join(WEB, 'package.json'));
const { chromium } = require('playwright-core');
const ENGINE = path.resolve(process.argv[2] || 'build/quince');
const DEPTH = Number(process.argv[3] || 12);
const COUNT = Number(process.argv[4] || 20);
const ROUNDS = Number(process.argv[5] || 1);
const fens = fs.readFileSync(path.resolve(here, '../tests/data/perft.epd'), 'utf8').split('\n').filter(Boolean)
  .slice(0, COUNT).map((l) => l.split(';')[0].trim());

const args = (fen) => ['analyse', fen, '--depth', String(DEPTH), '--json', '--hash', '16', '--threads', '1'];
const result = (text) => JSON.parse(text.trim().split('\n').filter((l) => l.includes('"type": "result"')).pop());

// The page's module in chromium: a bare page that loads web/quince.js (no board, no other worker).
const server = http.createServer((req, res) => {
  if (req.url === '/quince.js') { res.writeHead(200, { 'content-type': 'text/javascript' }); res.end(fs.readFileSync(path.join(WEB, 'quince.js'))); return; }
  res.writeHead(200, { 'content-type': 'text/html' });
  res.end('<!doctype html><script src="quince.js"></script>');
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${server.address().port}/`);
const version = browser.version();
await page.evaluate(async () => {
  const made = createQuince({ print: () => {}, printErr: () => {} });
  const m = made && typeof made.then === 'function' ? await made : made;
  const run = m.cwrap('quince_run', 'number', ['string']);
  const out = m.cwrap('quince_out', 'string', []);
  window.search = (words) => { run(words.join('\n')); return out(); };
});
const native = (fen) => result(execFileSync(ENGINE, args(fen), { encoding: 'utf8' }));
const web = async (fen) => result(await page.evaluate((words) => window.search(words), args(fen)));

const totals = { nodesNative: 0, msNative: 0, nodesWeb: 0, msWeb: 0, differ: 0 };
const ratios = [];
for (let round = 1; round <= ROUNDS; round++) {
  const t = { nodesNative: 0, msNative: 0, nodesWeb: 0, msWeb: 0, differ: 0 };
  for (let i = 0; i < fens.length; i++) {
    let n, w;
    if ((i + round) % 2) { n = native(fens[i]); w = await web(fens[i]); } else { w = await web(fens[i]); n = native(fens[i]); }
    t.nodesNative += n.nodes; t.msNative += n.time_ms; t.nodesWeb += w.nodes; t.msWeb += w.time_ms;
    t.differ += w.nodes !== n.nodes;
    if (round === 1) console.log(`${String(i + 1).padStart(2)} nodes ${n.nodes} native, ${w.nodes} web; ${n.time_ms} / ${w.time_ms} ms  ${fens[i]}`);
  }
  const ratio = (t.nodesWeb / Math.max(1, t.msWeb)) / (t.nodesNative / Math.max(1, t.msNative));
  ratios.push(ratio);
  console.log(`round ${round}: native ${t.nodesNative} nodes in ${t.msNative} ms, web ${t.nodesWeb} nodes in ${t.msWeb} ms; ratio ${ratio.toFixed(3)}`);
  for (const k of Object.keys(t)) totals[k] += t[k];
}
await browser.close();
server.close();

const npsNative = totals.nodesNative / Math.max(1, totals.msNative) * 1000, npsWeb = totals.nodesWeb / Math.max(1, totals.msWeb) * 1000;
const sorted = ratios.slice().sort((a, b) => a - b);
console.log(`chromium ${version}, depth ${DEPTH}, ${fens.length} positions, ${ROUNDS} round(s), interleaved; ` +
            `node counts differ in ${totals.differ} of ${fens.length * ROUNDS} searches`);
console.log(`native ${Math.round(npsNative)} nps, web ${Math.round(npsWeb)} nps: ratio ${(npsWeb / npsNative).toFixed(3)} ` +
            `(per round: min ${sorted[0].toFixed(3)}, median ${sorted[Math.floor(sorted.length / 2)].toFixed(3)}, ` +
            `max ${sorted[sorted.length - 1].toFixed(3)})`);
