// The engine's thread: Quince compiled to WebAssembly (quince.js, built by scripts/web.sh) runs here, so the
// page keeps painting while it searches. Messages in: {id, cmd: 'run' | 'analyse' | 'games' | 'position' |
// 'profiles', args: [...]} ('games' with pgn: the game's text). Out: {id, type: 'line', line} for every line a
// streaming search writes (one JSON object per completed iteration, then the result; for 'games' a progress
// object per position, then the game's), then {id, type: 'done', status, out, err}. A search is stopped by ending
// this worker (the page starts a new one): with one thread nothing else could interrupt it.
'use strict';
importScripts('quince.js');
let current = 0;
let api = null;
const queued = [];

function answer(e) {
  const { id, cmd, args } = e.data;
  current = id;
  try {
    if (cmd === 'profiles') postMessage({ id, type: 'done', status: 0, out: api.profiles(), err: '' });
    // A position's facts and legal moves (SAN and UCI) from the engine: the rules of Chess960 games.
    else if (cmd === 'position') postMessage({ id, type: 'done', status: 0, out: api.position(args.join('\n')), err: '' });
    // The whole game, by the command line's own analysis (`quince analyse - --json`, the PGN as its input).
    else if (cmd === 'games') {
      const status = api.games(args.join('\n'), e.data.pgn);
      postMessage({ id, type: 'done', status, out: '', err: api.err() });
    } else if (cmd === 'analyse') {
      const status = api.stream(args.join('\n'));
      postMessage({ id, type: 'done', status, out: '', err: api.err() });
    } else {
      const status = api.run(args.join('\n'));
      postMessage({ id, type: 'done', status, out: api.out(), err: api.err() });
    }
  } catch (err) {
    postMessage({ id, type: 'done', status: -1, out: '', err: String(err) });
  }
}

onmessage = (e) => (api ? answer(e) : queued.push(e));

function start(module) {
  api = {
    run: module.cwrap('quince_run', 'number', ['string']),
    stream: module.cwrap('quince_analyse_stream', 'number', ['string']),
    games: module.cwrap('quince_analyse_games', 'number', ['string', 'string']),
    out: module.cwrap('quince_out', 'string', []),
    err: module.cwrap('quince_err', 'string', []),
    profiles: module.cwrap('quince_profiles', 'string', []),
    position: module.cwrap('quince_position', 'string', ['string']),
  };
  postMessage({ id: 0, type: 'ready' });
  queued.splice(0).forEach(answer);
}

// Compiled synchronously (tools/web/CMakeLists.txt) the factory may hand back the module itself; a build
// with asynchronous compilation hands back a promise of it.
const made = createQuince({
  print: () => {}, printErr: () => {},
  onLine: (line) => postMessage({ id: current, type: 'line', line }),
});
if (made && typeof made.then === 'function') made.then(start);
else start(made);
