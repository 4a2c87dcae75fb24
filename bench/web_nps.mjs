// The page's search speed against the native build's: the same positions searched to the same depth by
// web/quince.js in Debian's chromium (playwright-core, as tests/web drives it) and by the native engine,
// one thread, 16 MB hash each. Prints per position the nodes of both (equal: the same search) and the
// totals, nodes per second of each and their ratio (the goal is at least 0.4). Needs a quiet machine.
//
//   node bench/web_nps.mjs build/quince [DEPTH] [POSITIONS]    (defaults: depth 12, the first 20 positions
//                                                                 of tests/data/perft.epd)
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
const fens = fs.readFileSync(path.resolve(here, '../tests/data/perft.epd'), 'utf8').split('\n').filter(Boolean)
  .slice(0, COUNT).map((l) => l.split(';')[0].trim());

const args = (fen) => ['analyse', fen, '--depth', String(DEPTH), '--json', '--hash', '16', '--threads', '1'];
const result = (text) => JSON.parse(text.trim().split('\n').filter((l) => l.includes('"type": "result"')).pop());

// Native, one position at a time.
const native = fens.map((fen) => result(execFileSync(ENGINE, args(fen), { encoding: 'utf8' })));

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
const web = await page.evaluate(async (all) => {
  const made = createQuince({ print: () => {}, printErr: () => {} });
  const m = made && typeof made.then === 'function' ? await made : made;
  const run = m.cwrap('quince_run', 'number', ['string']);
  const out = m.cwrap('quince_out', 'string', []);
  return all.map((a) => { run(a.join('\n')); return out(); });
}, fens.map((fen) => args(fen).slice(0)));
await browser.close();
server.close();

let nodesNative = 0, msNative = 0, nodesWeb = 0, msWeb = 0, differ = 0;
fens.forEach((fen, i) => {
  const w = result(web[i]), n = native[i];
  nodesNative += n.nodes; msNative += n.time_ms; nodesWeb += w.nodes; msWeb += w.time_ms;
  differ += w.nodes !== n.nodes;
  console.log(`${String(i + 1).padStart(2)} nodes ${n.nodes} native, ${w.nodes} web; ${n.time_ms} / ${w.time_ms} ms  ${fen}`);
});
const npsNative = nodesNative / Math.max(1, msNative) * 1000, npsWeb = nodesWeb / Math.max(1, msWeb) * 1000;
console.log(`chromium ${version}, depth ${DEPTH}, ${fens.length} positions; node counts differ in ${differ}`);
console.log(`native ${nodesNative} nodes in ${msNative} ms = ${Math.round(npsNative)} nps; ` +
            `web ${nodesWeb} nodes in ${msWeb} ms = ${Math.round(npsWeb)} nps; ratio ${(npsWeb / npsNative).toFixed(3)}`);
