// The analysis board in a real browser: playwright-core (web/package.json) drives Debian's chromium over
// the page served from web/ on the loopback address.
//
//   node tests/web/web_test.mjs build/quince OUTPUT_DIR
//
// Plays a move by clicks and one by drag, checks the term comparison follows the position with the
// `quince` profile shown and every number of it equals the native build's `quince compare --json`, imports a PGN and steps through it with the arrow keys, counts the frames the
// page paints while a depth-20 search runs (a requestAnimationFrame counter: a frozen page paints none),
// stops the search, analyses the game (an eval per ply on the graph, the blunder marked), exports the
// annotated PGN, reloads it from its shareable address, analyses the Opera game on the page and with
// `quince analyse` at their common default budget (every mark, eval, better line and the accuracy tags
// equal; the slowest part, a few minutes on a busy machine) and again with profile nnue (the network's
// SIMD128 code against the native build's), and saves screenshots at 1280x800 and 390x844
// that it checks for size, non-blank content and the board above the fold. Needs web/quince.js and
// web/vendor/ (scripts/web.sh). Prints "N passed, N failed"; exit 1 on any failure.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const WEB = path.resolve(here, '../../web');
const require = createRequire(path.join(WEB, 'package.json'));
const { chromium } = require('playwright-core');
const ENGINE = path.resolve(process.argv[2] || 'build/quince');
const OUT = path.resolve(process.argv[3] || 'build-web-test');
fs.mkdirSync(OUT, { recursive: true });

let passed = 0, failed = 0;
function check(ok, what) {
  if (ok) passed++; else { failed++; console.log('FAIL:', what); }
}

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };
const server = http.createServer((req, res) => {
  const file = path.join(WEB, decodeURIComponent(new URL(req.url, 'http://x').pathname));
  if (!file.startsWith(WEB) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
    const index = path.join(WEB, 'index.html');
    if (new URL(req.url, 'http://x').pathname === '/') { res.writeHead(200, { 'content-type': 'text/html' }); res.end(fs.readFileSync(index)); return; }
    res.writeHead(404); res.end(); return;
  }
  res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
  res.end(fs.readFileSync(file));
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const BASE = `http://127.0.0.1:${server.address().port}/`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync'],
  // A fresh --user-data-dir: playwright makes one per launch (it refuses the flag here).
});
const measures = {};

// The native engine's output for ARGS with INPUT on its standard input, while the page works: the command
// line and the page's worker each keep a core busy, so the two analyses of one game take the time of one.
function engineOutput(args, input) {
  const output = new Promise((resolve, reject) => {
    const child = execFile(ENGINE, args, { encoding: 'utf8', maxBuffer: 64 << 20 },
      (err, stdout, stderr) => (err ? reject(new Error(`quince ${args.join(' ')}: ${err.message} ${stderr}`)) : resolve(stdout)));
    child.stdin.end(input);
  });
  output.catch(() => {});  // awaited later; a failure before that is the page's, reported as such
  return output;
}

// Decodes an 8-bit RGB(A) PNG's rows enough to count its distinct colours (a blank page has one or two).
function distinctColours(file) {
  const buf = fs.readFileSync(file);
  let off = 8, width = 0, height = 0, channels = 4;
  const idat = [];
  while (off < buf.length) {
    const len = buf.readUInt32BE(off), type = buf.toString('ascii', off + 4, off + 8);
    if (type === 'IHDR') { width = buf.readUInt32BE(off + 8); height = buf.readUInt32BE(off + 12); channels = buf[off + 17] === 6 ? 4 : 3; }
    if (type === 'IDAT') idat.push(buf.subarray(off + 8, off + 8 + len));
    off += 12 + len;
  }
  const raw = zlib.inflateSync(Buffer.concat(idat));
  const colours = new Set();
  const stride = width * channels + 1;
  for (let y = 0; y < height; y += 7) for (let x = 0; x < width; x += 7) {
    const i = y * stride + 1 + x * channels;  // filter bytes make these approximate, enough to tell blank from not
    colours.add(raw[i] << 16 | raw[i + 1] << 8 | raw[i + 2]);
  }
  return { width, height, colours: colours.size };
}

async function open(url, viewport) {
  const page = await browser.newPage({ viewport, acceptDownloads: true });
  page.on('pageerror', (e) => check(false, 'page error: ' + e.message));
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
  await page.waitForSelector('#compare[data-fen]', { timeout: 120000 });
  return { page, ms: Date.now() - t0 };
}

// The centre of a square on the board, in page coordinates (White at the bottom).
async function square(page, sq) {
  const box = await page.locator('#board').boundingBox();
  const flipped = (await page.locator('#board').getAttribute('data-orientation')) === 'black';
  let file = sq.charCodeAt(0) - 97, rank = Number(sq[1]) - 1;
  if (flipped) { file = 7 - file; rank = 7 - rank; }
  return { x: box.x + (file + 0.5) * box.width / 8, y: box.y + (7 - rank + 0.5) * box.height / 8 };
}
// The command line's default game budget, as `quince analyse --help` states it.
const CLI_GAME_NODES = Number(/Default budget: --nodes (\d+)/.exec(execFileSync(ENGINE, ['analyse', '--help'], { encoding: 'utf8' }))[1]);

// An annotated PGN's main line as written by `quince analyse GAME.pgn` or the page's export: per move its SAN,
// NAG, [%eval] and first variation (the better line) as text, and the tags. Only what both write is read.
function annotatedMoves(pgn) {
  const tags = Object.fromEntries([...pgn.matchAll(/^\[(\w+) "([^"]*)"\]$/gm)].map((m) => [m[1], m[2]]));
  const text = pgn.replace(/^\[.*\]$/gm, '');
  const moves = [];
  let depth = 0, variation = '';
  for (let i = 0; i < text.length;) {
    const ch = text[i];
    if (ch === '{') {
      const end = text.indexOf('}', i);
      const ev = /\[%eval ([^\]]+)\]/.exec(text.slice(i, end));
      if (depth === 0 && ev && moves.length) moves[moves.length - 1].eval = ev[1];
      i = end + 1;
    } else if (ch === '(') {
      if (depth++ > 0) variation += ch;
      i++;
    } else if (ch === ')') {
      if (--depth > 0) variation += ch;
      else { const last = moves[moves.length - 1]; if (!('better' in last)) last.better = variation.trim().replace(/\s+/g, ' '); variation = ''; }
      i++;
    } else if (depth > 0) { variation += ch; i++; }
    else if (/\s/.test(ch)) i++;
    else {
      const word = /^\S+/.exec(text.slice(i))[0].replace(/[{()].*$/, '');
      i += word.length;
      if (/^\d+\.+$/.test(word) || ['1-0', '0-1', '1/2-1/2', '*'].includes(word)) continue;
      const m = /^(.*?)([?!]*)$/.exec(word);
      moves.push({ san: m[1], nag: m[2] });
    }
  }
  return { tags, moves: moves.map((m) => ({ san: m.san, nag: m.nag, eval: m.eval || '', better: m.better || '' })) };
}

const sans = (page) => page.$$eval('#moves .move', (els) => els.map((e) => e.dataset.san));
const currentPly = (page) => page.$eval('#moves', (e) => Number(e.dataset.ply));

try {
  // 1. Load, click e2 then e4, drag g8 to f6.
  const { page, ms } = await open(BASE + 'index.html', { width: 1280, height: 800 });
  measures.time_to_interactive_ms = ms;
  let p = await square(page, 'e2'); await page.mouse.click(p.x, p.y);
  p = await square(page, 'e4'); await page.mouse.click(p.x, p.y);
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  const a = await square(page, 'g8'), b = await square(page, 'f6');
  await page.mouse.move(a.x, a.y); await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 }); await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 2, null, { timeout: 10000 }).catch(() => {});
  check(JSON.stringify(await sans(page)) === '["e4","Nf6"]', 'click e2-e4 and drag g8-f6 give e4 Nf6: ' + JSON.stringify(await sans(page)));
  // The workbench follows the position, with the quince profile shown.
  const fenAfter = 'rnbqkb1r/pppppppp/5n2/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 1 2';
  await page.waitForSelector(`#compare[data-fen="${fenAfter}"]`, { timeout: 60000 }).catch(() => {});
  check(await page.$eval('#compare', (e) => e.dataset.fen) === fenAfter, 'the term comparison follows the position');
  check(await page.$$eval('#compare th[data-profile="quince"]', (e) => e.length) === 1, 'the quince profile is shown');
  check(await page.$$eval('#boards svg', (e) => e.length) > 0, 'the picture is shown');
  // Every cell equals the native build's numbers for the same position and profiles.
  const shown = await page.$$eval('#compare th[data-profile]', (e) => e.map((x) => x.dataset.profile));
  const want = JSON.parse(execFileSync(ENGINE, ['compare', '--json', fenAfter, ...shown], { encoding: 'utf8' }));
  const cells = await page.$$eval('#compare [data-term]', (e) => e.map((x) => ({ ...x.dataset })));
  const finals = await page.$$eval('#compare [data-final]', (e) => Object.fromEntries(e.map((x) => [x.dataset.profile, x.dataset.final])));
  let mismatches = 0, compared = 0;
  for (const prof of want.profiles) {
    if (finals[prof.profile] !== String(prof.final_cp_white_view)) mismatches++;
    for (const t of prof.terms) {
      const mine = cells.filter((c) => c.profile === prof.profile && c.term === t.name);
      if (!mine.length) mismatches++;
      for (const c of mine) {
        compared++;
        if (t.absent ? c.absent !== 'true' || c.cp !== undefined : Math.abs(Number(c.cp) - t.cp) > 1e-9) mismatches++;
      }
    }
  }
  check(compared > 50 && mismatches === 0, `the table equals quince compare --json: ${compared} cells, ${mismatches} differ`);
  // An illegal drag (e4 to e6) is refused: still two moves.
  const c = await square(page, 'e4'), d = await square(page, 'e6');
  await page.mouse.move(c.x, c.y); await page.mouse.down(); await page.mouse.move(d.x, d.y, { steps: 5 }); await page.mouse.up();
  check((await sans(page)).length === 2, 'an illegal drag plays nothing');
  // The engine's lines are those of the position shown (White's 2nd move), never a previous search's.
  await page.waitForSelector('#lines .pvline .san', { timeout: 60000 });
  await page.waitForTimeout(1500);
  const lineStarts = await page.$$eval('#lines .pvline .san', (e) => e.map((x) => x.textContent.slice(0, 3)));
  check(lineStarts.length === 2 && lineStarts.every((t) => t === '2. '), 'the lines shown are the current position\'s: ' + lineStarts);
  await page.screenshot({ path: path.join(OUT, 'web_board_1280x800.png') });

  // 2. Import a PGN with a blunder: 3...Nf6?? allows 4.Qxf7#.
  const pgn = '[Event "Test"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7# 1-0\n';
  await page.fill('#pgn-text', pgn);
  await page.click('#pgn-load');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 7);
  check(JSON.stringify(await sans(page)) === '["e4","e5","Bc4","Nc6","Qh5","Nf6","Qxf7#"]', 'the PGN is imported');
  check(await currentPly(page) === 7, 'the imported game is shown at its end');
  // A bad PGN is reported and leaves the game loaded.
  await page.fill('#pgn-text', '1. e4 e5 2. Ke3 Nc6 3. Kxe8');
  await page.click('#pgn-load');
  const illegal = await page.$eval('#error', (e) => e.textContent);
  check(illegal.startsWith("PGN not loaded: illegal move '2. Ke3' in "), 'a bad PGN is reported with the move numbered: ' + illegal);
  check((await sans(page)).length === 7, 'a bad PGN leaves the game as it was');
  await page.fill('#pgn-text', '   ');
  await page.click('#pgn-load');
  check((await page.$eval('#error', (e) => e.textContent)).includes('the text is empty'), 'an empty PGN is reported');
  await page.fill('#pgn-text', '}}} {{{ %%% ###');
  await page.click('#pgn-load');
  const garbage = await page.$eval('#error', (e) => e.textContent);
  check(garbage.startsWith('PGN not loaded: ') && !/Expected/.test(garbage) && garbage.length < 200,
    'a garbage PGN gets a short message, not the parser\'s grammar: ' + garbage);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  // The error of an earlier action goes with the next one.
  await page.keyboard.press('ArrowLeft'); await page.keyboard.press('ArrowRight');
  check(!(await page.$eval('#error', (e) => e.textContent)), 'an old error goes with the next action');
  await page.keyboard.press('ArrowLeft'); await page.keyboard.press('ArrowLeft');
  check(await currentPly(page) === 5, 'ArrowLeft steps back');
  check(await page.$eval('#moves .move.current', (e) => e.dataset.san) === 'Qh5', 'the current move is highlighted');
  await page.keyboard.press('Home');
  check(await currentPly(page) === 0, 'Home goes to the start');
  await page.keyboard.press('ArrowRight');
  check(await currentPly(page) === 1, 'ArrowRight steps forward');
  await page.keyboard.press('End');
  check(await currentPly(page) === 7, 'End goes to the end');
  await page.click('#flip');
  check(await page.$eval('#board', (e) => e.dataset.orientation) === 'black', 'flip turns the board');
  await page.click('#flip');
  // A move other than the game's next one starts a variation: after 3. Qh5, 3... g6 4. Qf3 by clicks.
  await page.click('#moves .move[data-ply="5"]');
  for (const [from, to] of [['g7', 'g6'], ['h5', 'f3']]) {
    let sq = await square(page, from); await page.mouse.click(sq.x, sq.y);
    sq = await square(page, to); await page.mouse.click(sq.x, sq.y);
  }
  await page.waitForFunction(() => document.querySelectorAll('#moves .var-move').length === 2, null, { timeout: 10000 }).catch(() => {});
  const varSans = await page.$$eval('#moves .variation .var-move', (e) => e.map((x) => x.dataset.san));
  check(JSON.stringify(varSans) === '["g6","Qf3"]', 'a different move makes a variation: ' + JSON.stringify(varSans));
  check((await sans(page)).length === 7, 'the game is kept whole beside the variation');
  check(await page.$eval('#moves .variation', (e) => e.previousElementSibling.dataset.san === 'Nf6'),
    'the variation follows the move before it');
  const fenG6 = 'r1bqkbnr/pppp1p1p/2n3p1/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 0 4';
  await page.keyboard.press('ArrowLeft');
  check(await page.$eval('#board', (e) => e.dataset.fen) === fenG6, 'ArrowLeft steps back in the variation');
  await page.keyboard.press('ArrowLeft'); await page.keyboard.press('ArrowRight');
  check(await currentPly(page) === 6 && await page.$eval('#moves', (e) => e.dataset.variation) === '',
    'back at the branch, ArrowRight steps on in the main line');
  await page.click('#moves .var-move[data-k="1"]');
  check(await page.$eval('#board', (e) => e.dataset.fen) === fenG6 && await page.$eval('#moves .var-move.current', (e) => e.dataset.san) === 'g6',
    'a click on a variation move shows it');
  await page.keyboard.press('End');
  check(await currentPly(page) === 7, 'End goes to the end of the main line');

  // 3. Frames while a depth-20 search runs (and, for comparison, with no search), then stop it.
  const countFrames = () => page.evaluate(() => new Promise((resolve) => {
    let n = 0; const t0 = performance.now();
    const tick = () => { n++; if (performance.now() - t0 < 3000) requestAnimationFrame(tick); else resolve({ n, ms: performance.now() - t0 }); };
    requestAnimationFrame(tick);
  }));
  await page.keyboard.press('Home');
  await page.uncheck('#live');
  const idle = await countFrames();
  measures.fps_idle = Math.round(idle.n / idle.ms * 1000 * 10) / 10;
  await page.fill('#depth', '20'); await page.fill('#multipv', '1');
  await page.click('#go');
  await page.waitForSelector('#lines[data-state="running"]');
  const frames = await countFrames();
  const state = await page.$eval('#lines', (e) => e.dataset.state);
  const depth = Number(await page.$eval('#lines', (e) => e.dataset.depth || '0'));
  measures.fps_during_depth20_search = Math.round(frames.n / frames.ms * 1000 * 10) / 10;
  measures.depth_reached_in_3s = depth;
  // A page whose main thread ran the search would paint one frame at most in these 3 s; a loaded machine may
  // slow painting, so the check asks for a few frames, and the rate is reported as a measure.
  check(frames.n >= 4, `the page kept painting during the search: ${frames.n} frames in ${Math.round(frames.ms)} ms`);
  check(depth >= 1, 'the search streamed its lines per depth (depth ' + depth + ')');
  check(state === 'running' || state === 'done', 'the depth-20 search ran: ' + state);
  // Stop: a search too deep to end by itself, stopped once it has shown a line; no line comes after.
  await page.fill('#depth', '60');
  await page.click('#go');
  await page.waitForFunction(() => document.querySelector('#lines').dataset.state === 'running' &&
                             Number(document.querySelector('#lines').dataset.depth || 0) >= 8, null, { timeout: 60000 });
  await page.click('#stop');
  const afterStop = await page.$eval('#lines', (e) => e.dataset.state);
  check(afterStop === 'stopped', 'stop stops the search: ' + afterStop);
  check(await page.$eval('#stop', (e) => e.disabled), 'the stop button is disabled after stopping');
  const stoppedAt = await page.$eval('#lines', (e) => e.dataset.depth);
  await page.waitForTimeout(2000);
  check(await page.$eval('#lines', (e) => e.dataset.depth) === stoppedAt, 'no line arrives after the stop');
  // A new search runs after a stop (the worker was replaced), MultiPV 2 gives two lines.
  await page.fill('#depth', '6'); await page.fill('#multipv', '2');
  await page.click('#go');
  await page.waitForSelector('#lines[data-state="done"]', { timeout: 60000 });
  check(await page.$$eval('#lines .pvline', (e) => e.length) === 2, 'MultiPV 2 shows two lines');

  // 4. Analyse the game: an eval per position on the graph, Black's 3...Nf6?? marked.
  check(await page.$eval('#game-nodes', (e) => e.value) === String(CLI_GAME_NODES),
    `the page's budget is the command line's default (${CLI_GAME_NODES} nodes a position)`);
  await page.fill('#game-nodes', '20000');
  await page.click('#analyse');
  await page.waitForSelector('#analyse-status[data-done="true"]', { timeout: 180000 });
  const points = await page.$$eval('#graph [data-ply]', (e) => e.map((x) => [x.dataset.ply, x.dataset.eval]));
  check(points.length === 8 && points.every(([, e]) => e && e.length), 'the graph has an eval for every ply: ' + JSON.stringify(points));
  const nf6 = await page.$eval('#moves .move[data-ply="6"]', (e) => e.textContent);
  check(nf6 === 'Nf6??', 'the blunder 3...Nf6 is marked ??: ' + nf6);
  // Per-side accuracy and average loss: Black, who blundered into mate, did worse.
  const summary = await page.$eval('#summary', (e) => ({ ...e.dataset, text: e.textContent }));
  const num = (x) => (x === undefined ? NaN : Number(x));
  check([summary.whiteAccuracy, summary.blackAccuracy].every((x) => num(x) >= 0 && num(x) <= 100) &&
        num(summary.blackAccuracy) < num(summary.whiteAccuracy) && num(summary.blackAcpl) > num(summary.whiteAcpl) &&
        /accuracy/.test(summary.text),
    'accuracy and average loss per side are shown: ' + JSON.stringify(summary));
  await page.click('#graph [data-ply="3"]');
  check(await currentPly(page) === 3, 'a click on the graph jumps to its ply');
  check(await page.$$eval('#lines .pvline', (e) => e.length) === 0, 'no line of another position stays shown');
  await page.screenshot({ path: path.join(OUT, 'web_board_analysed_1280x800.png') });
  await page.screenshot({ path: path.join(OUT, 'web_board_full_page.png'), fullPage: true });

  // 5. Export the annotated PGN.
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#pgn-export')]);
  const exported = fs.readFileSync(await download.path(), 'utf8');
  fs.writeFileSync(path.join(OUT, 'web_board_export.pgn'), exported);
  check(/\[White "A"\]/.test(exported) && /\[%eval [-0-9.#]+\]/.test(exported) && /Nf6\?\?/.test(exported) && /1-0\s*$/.test(exported),
    'the exported PGN carries the tags, evals and NAGs: ' + exported);
  check(/\(3\.\.\. g6 4\. Qf3\)/.test(exported), 'the exported PGN carries the variation');
  check(exported.includes(`[WhiteAccuracy "${summary.whiteAccuracy}"]`) && exported.includes(`[BlackACPL "${summary.blackAcpl}"]`),
    'the exported PGN carries the accuracy tags');

  // 6. The shareable address carries the game.
  const url = page.url();
  check(url.includes('pgn='), 'the address carries the game: ' + url);
  const second = await open(url, { width: 390, height: 844 });
  check(JSON.stringify(await sans(second.page)) === '["e4","e5","Bc4","Nc6","Qh5","Nf6","Qxf7#"]', 'the address restores the game');
  check(await currentPly(second.page) === 3, 'the address restores the ply');
  await second.page.screenshot({ path: path.join(OUT, 'web_board_390x844.png') });
  const boardBox = await second.page.locator('#board').boundingBox();
  check(boardBox.x >= 0 && boardBox.x + boardBox.width <= 390, 'the board fits a phone width');
  // The board above the fold at 1280x800.
  const box = await page.locator('#board').boundingBox();
  check(box.y + box.height <= 800 && box.width >= 400, `the board is above the fold at 1280x800: ${JSON.stringify(box)}`);
  // Tags given in the address's pgn= stay for the export.
  const tagged = await open(BASE + 'index.html?pgn=' + encodeURIComponent('[White "Morphy"]\n[Black "Duke"]\n\n1. e4 e5 *'), { width: 1280, height: 800 });
  const [tagDownload] = await Promise.all([tagged.page.waitForEvent('download'), tagged.page.click('#pgn-export')]);
  const taggedPgn = fs.readFileSync(await tagDownload.path(), 'utf8');
  check(taggedPgn.includes('[White "Morphy"]') && taggedPgn.includes('[Black "Duke"]'), 'the address\'s tags are exported: ' + taggedPgn);
  // A depth, a number of lines or a game budget out of range is put right and said as soon as it is typed;
  // the next action takes the message away.
  for (const [id, typed, right, said] of [['#depth', '999', '60', 'from 1 to 60'], ['#multipv', '-4', '1', 'from 1 to 5'],
                                           ['#game-nodes', '500', '1000', 'from 1000 to 100000000']]) {
    await tagged.page.fill(id, typed);
    await tagged.page.dispatchEvent(id, 'change');
    const error = await tagged.page.$eval('#error', (e) => e.textContent);
    check(await tagged.page.$eval(id, (e) => e.value) === right && error.includes(said) && error.includes(`'${typed}'`),
      `${id} ${typed} is put right (${right}) and said: ${error}`);
  }
  await tagged.page.click('#flip');
  check(!(await tagged.page.$eval('#error', (e) => e.textContent)), 'the message goes with the next action (flip)');
  // The old ?fen=&moves= address still works; a bad one is reported.
  const third = await open(BASE + 'index.html?fen=startpos&moves=e2e4%20e7e5%20Nf3', { width: 1280, height: 800 });
  check(JSON.stringify(await sans(third.page)) === '["e4","e5","Nf3"]', '?fen=&moves= is read');
  // Promotion: the chooser appears, the piece chosen is the one played.
  const fifth = await open(BASE + 'index.html?fen=' + encodeURIComponent('8/4P3/8/8/8/8/k7/4K3 w - - 0 1'), { width: 1280, height: 800 });
  let q = await square(fifth.page, 'e7'); await fifth.page.mouse.click(q.x, q.y);
  q = await square(fifth.page, 'e8'); await fifth.page.mouse.click(q.x, q.y);
  await fifth.page.waitForSelector('#promotion:not([hidden]) button[data-piece="n"]', { timeout: 10000 });
  await fifth.page.click('#promotion button[data-piece="n"]');
  await fifth.page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1);
  check(JSON.stringify(await sans(fifth.page)) === '["e8=N"]', 'the promotion chooser plays the piece chosen: ' + JSON.stringify(await sans(fifth.page)));
  // Chess960: a Shredder-FEN in the address, castling by the king onto its rook (f1 to g1), the engine's
  // search of the position, a PGN with [Variant "Chess960"] and its export.
  const fen960 = 'qnrbbkrn/pppppppp/8/8/8/8/PPPPPPPP/QNRBBKRN w GCgc - 0 1';
  const c960 = await open(BASE + 'index.html?fen=' + encodeURIComponent(fen960), { width: 1280, height: 800 });
  let k = await square(c960.page, 'f1'); await c960.page.mouse.click(k.x, k.y);
  k = await square(c960.page, 'g1'); await c960.page.mouse.click(k.x, k.y);
  await c960.page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 1, null, { timeout: 20000 }).catch(() => {});
  check(JSON.stringify(await sans(c960.page)) === '["O-O"]', 'Chess960: the king onto its rook castles: ' + JSON.stringify(await sans(c960.page)));
  check((await c960.page.$eval('#board', (e) => e.dataset.fen)).startsWith('qnrbbkrn/pppppppp/8/8/8/8/PPPPPPPP/QNRBBRKN b'),
    'Chess960: king on g1 and rook on f1 after O-O: ' + await c960.page.$eval('#board', (e) => e.dataset.fen));
  await c960.page.waitForSelector('#lines .pvline', { timeout: 60000 }).catch(() => {});
  check(await c960.page.$$eval('#lines .pvline', (e) => e.length) > 0 && !(await c960.page.$eval('#error', (e) => e.textContent)),
    'Chess960: the engine searches the position');
  await c960.page.fill('#pgn-text', `[Event "960"]\n[Variant "Chess960"]\n[SetUp "1"]\n[FEN "${fen960}"]\n\n1. O-O {castles} O-O 2. e4 (2. d4) e5 *\n`);
  await c960.page.click('#pgn-load');
  await c960.page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 4, null, { timeout: 30000 }).catch(() => {});
  check(JSON.stringify(await sans(c960.page)) === '["O-O","O-O","e4","e5"]', 'Chess960: the PGN is imported: ' + JSON.stringify(await sans(c960.page)));
  await c960.page.fill('#pgn-text', `[Variant "Chess960"]\n[FEN "${fen960}"]\n\n1. O-O O-O 2. Kh1 *\n`);
  await c960.page.click('#pgn-load');
  await c960.page.waitForFunction(() => document.getElementById('error').textContent, null, { timeout: 30000 }).catch(() => {});
  const illegal960 = await c960.page.$eval('#error', (e) => e.textContent);
  check(illegal960.startsWith("PGN not loaded: illegal move '2. Kh1' in ") && (await sans(c960.page)).length === 4,
    'Chess960: an illegal move is named with its number, the game stays: ' + illegal960);
  const [dl960] = await Promise.all([c960.page.waitForEvent('download'), c960.page.click('#pgn-export')]);
  const exported960 = fs.readFileSync(await dl960.path(), 'utf8');
  check(exported960.includes('[Variant "Chess960"]') && exported960.includes(`[FEN "${fen960}"]`) && /1\. O-O O-O 2\. e4 e5/.test(exported960),
    'Chess960: the export carries the variant, the FEN and the moves: ' + exported960);
  const fourth = await open(BASE + 'index.html?fen=8/8/8/8%20w%20-%20-%200%201', { width: 1280, height: 800 });
  check((await fourth.page.$eval('#error', (e) => e.textContent)).includes('not used'), 'a bad FEN in the address is reported');
  // Opened from disk the page cannot run (module and workers refused): it says how to serve it.
  const disk = await browser.newPage();
  await disk.goto('file://' + path.join(WEB, 'index.html'));
  const diskStatus = await disk.$eval('#status', (e) => e.textContent);
  check(diskStatus.includes('must be served over http') && diskStatus.includes('python3 -m http.server'),
    'opened as file:// the page says it must be served: ' + diskStatus);

  // The page's "Analyse the game" and `quince analyse GAME.pgn` agree at their default budget on a famous game
  // (the Opera game): the same marks, evals and better lines, and the same accuracy and average loss.
  const opera = fs.readFileSync(path.resolve(here, '../data/pgn/famous.pgn'), 'utf8').split(/\n(?=\[Event )/)[0].trim() + '\n';
  const tCli = Date.now();
  const cliOutput = engineOutput(['analyse', '-'], opera).then((out) => { measures.opera_cli_ms = Date.now() - tCli; return out; });
  const agree = await open(BASE + 'index.html', { width: 1280, height: 800 });
  await agree.page.uncheck('#live');
  await agree.page.fill('#pgn-text', opera);
  await agree.page.click('#pgn-load');
  await agree.page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 33);
  const tPage = Date.now();
  await agree.page.click('#analyse');
  await agree.page.waitForSelector('#analyse-status[data-done="true"]', { timeout: 1800000 });
  measures.opera_page_ms = Date.now() - tPage;
  const cli = annotatedMoves(await cliOutput);
  const [operaDownload] = await Promise.all([agree.page.waitForEvent('download'), agree.page.click('#pgn-export')]);
  const web = annotatedMoves(fs.readFileSync(await operaDownload.path(), 'utf8'));
  const differ = cli.moves.map((m, i) => [m, web.moves[i]]).filter(([a, b]) => JSON.stringify(a) !== JSON.stringify(b));
  const marks = cli.moves.filter((m) => m.nag).map((m) => m.san + m.nag);
  measures.opera_marks = marks.join(' ');
  check(cli.moves.length === 33 && web.moves.length === 33 && differ.length === 0,
    `the Opera game: the page's marks, evals and better lines equal quince analyse's (${marks.length} marks: ${marks.join(' ')}); ` +
    `differing: ${JSON.stringify(differ)}`);
  check(cli.moves.filter((m) => m.eval).length === 32, 'the Opera game: an eval after every move but the mate');
  const figures = (t) => ['WhiteAccuracy', 'WhiteACPL', 'BlackAccuracy', 'BlackACPL'].map((k) => t[k]).join(' ');
  check(figures(cli.tags) === figures(web.tags) && !figures(cli.tags).includes('undefined'),
    `the Opera game: accuracy and average loss equal quince analyse's: ${figures(cli.tags)} / ${figures(web.tags)}`);

  // The network (profile nnue, the net both builds embed) through the module's SIMD128 code equals the native
  // build's: its column of the term comparison in a middlegame, and the Opera game analysed with it at 20,000
  // nodes a position (tens of thousands of incrementally updated evaluations: one wrong bit and the searches part).
  const fenNnue = 'r1bq1rk1/pp2ppbp/2np1np1/8/3NP3/2N1BP2/PPPQ2PP/R3KB1R w KQ - 3 9';
  const nn = await open(BASE + 'index.html?profiles=quince,nnue&fen=' + encodeURIComponent(fenNnue), { width: 1280, height: 800 });
  const nnueListed = await nn.page.$$eval('#search-profile option', (e) => e.map((x) => x.value));
  check(nnueListed.includes('nnue'), 'the page offers profile nnue (the embedded net): ' + nnueListed);
  await nn.page.waitForSelector(`#compare[data-fen="${fenNnue}"] [data-final][data-profile="nnue"]`, { timeout: 60000 }).catch(() => {});
  const nnueShown = await nn.page.$eval('#compare [data-final][data-profile="nnue"]', (e) => e.dataset.final).catch(() => 'none');
  const nnueWant = JSON.parse(execFileSync(ENGINE, ['compare', '--json', fenNnue, 'nnue'], { encoding: 'utf8' })).profiles[0];
  check(nnueShown === String(nnueWant.final_cp_white_view),
    `the network's score on the page equals quince compare's: ${nnueShown} / ${nnueWant.final_cp_white_view}`);
  const cliNnueOutput = engineOutput(['analyse', '-', '--nodes', '20000', '--profile', 'nnue'], opera);
  await nn.page.uncheck('#live');
  await nn.page.selectOption('#search-profile', 'nnue');
  await nn.page.fill('#game-nodes', '20000');
  await nn.page.fill('#pgn-text', opera);
  await nn.page.click('#pgn-load');
  await nn.page.waitForFunction(() => document.querySelectorAll('#moves .move').length === 33);
  await nn.page.click('#analyse');
  await nn.page.waitForSelector('#analyse-status[data-done="true"]', { timeout: 600000 });
  const [nnueDownload] = await Promise.all([nn.page.waitForEvent('download'), nn.page.click('#pgn-export')]);
  const cliNnue = annotatedMoves(await cliNnueOutput);
  const webNnue = annotatedMoves(fs.readFileSync(await nnueDownload.path(), 'utf8'));
  const nnueDiffer = cliNnue.moves.map((m, i) => [m, webNnue.moves[i]]).filter(([a, b]) => JSON.stringify(a) !== JSON.stringify(b));
  check(cliNnue.moves.length === 33 && webNnue.moves.length === 33 && nnueDiffer.length === 0 &&
        figures(cliNnue.tags) === figures(webNnue.tags),
    `the Opera game with profile nnue: the page's marks, evals, better lines and accuracy equal quince analyse's; ` +
    `differing: ${JSON.stringify(nnueDiffer)}, ${figures(cliNnue.tags)} / ${figures(webNnue.tags)}`);

  for (const name of ['web_board_1280x800.png', 'web_board_analysed_1280x800.png', 'web_board_390x844.png']) {
    const file = path.join(OUT, name);
    const info = distinctColours(file);
    check(fs.statSync(file).size > 20000 && info.colours > 20, `${name}: ${fs.statSync(file).size} bytes, ${info.colours} colours`);
  }
  const wasm = fs.statSync(path.join(WEB, 'quince.js')).size;
  measures.quince_js_bytes = wasm;
  measures.quince_js_gzip_bytes = zlib.gzipSync(fs.readFileSync(path.join(WEB, 'quince.js')), { level: 9 }).length;
} catch (e) {
  check(false, 'exception: ' + (e.stack || e));
} finally {
  await browser.close();
  server.close();
}
console.log('measures:', JSON.stringify(measures));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
