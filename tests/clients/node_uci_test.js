#!/usr/bin/env node
// UCI compliance through a third-party client: npm's node-uci (its own parser of `id`, `option`, `info` and
// `bestmove` lines) drives Quince through the handshake, options, a MultiPV search, a timed game against
// itself, `go infinite` + `stop` with `isready` during the search, `searchmoves`, and `quit`. Every move the
// engine plays is checked by chess.js, an independent move generator.
//   node tests/clients/node_uci_test.js path/to/quince
// Needs `npm ci` in tests/clients (scripts/deps.sh clients). Exit code 0 = all checks passed.
'use strict'
const path = require('path')
const { Engine } = require('node-uci')
const { Chess } = require('chess.js')

const enginePath = path.resolve(process.argv[2] || 'build/quince')
let failures = 0
function check(cond, what) {
  if (cond) {
    console.log(`ok   ${what}`)
  } else {
    console.log(`FAIL ${what}`)
    failures++
  }
}
// A hang is a failure too: every engine answer is awaited with a deadline.
function within(ms, promise, what) {
  let timer
  return Promise.race([
    promise,
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: ${what}`)), ms)
    }),
  ]).finally(() => clearTimeout(timer))
}
// chess.js throws on an illegal move; a UCI move is from, to and an optional promotion letter.
function play(board, uci) {
  return board.move({ from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci.length > 4 ? uci[4] : undefined })
}
function isLegal(fen, uci) {
  try {
    play(new Chess(fen), uci)
    return true
  } catch (e) {
    return false
  }
}

async function main() {
  const engine = new Engine(enginePath)

  // Handshake: id and the options as node-uci parses them.
  await within(5000, engine.init(), 'uci')
  check(/^Quince/.test(engine.id.name || ''), `id name "${engine.id.name}"`)
  check(!!engine.id.author, `id author "${engine.id.author}"`)
  const hash = engine.options.get('Hash')
  check(hash && hash.type === 'spin' && hash.min >= 1 && hash.max >= hash.default, 'Hash is a spin option with a range')
  const threads = engine.options.get('Threads')
  check(threads && threads.type === 'spin' && threads.min === 1, 'Threads is a spin option from 1')
  const chess960 = engine.options.get('UCI_Chess960')
  check(chess960 && chess960.type === 'check' && chess960.default === false, 'UCI_Chess960 is a check option, off')
  const profile = engine.options.get('EvalProfile')
  check(profile && profile.type === 'combo' && ['quince', 'rybka1', 'rybka232', 'fruit21'].every(p => profile.options.includes(p)),
        `EvalProfile is a combo of the profiles (${profile && profile.options})`)
  check(engine.options.get('Clear Hash') && engine.options.get('Clear Hash').type === 'button', 'Clear Hash is a button')
  await within(5000, engine.isready(), 'isready')

  // Options, then a MultiPV search at fixed depth.
  await within(5000, engine.setoption('Hash', '32'), 'setoption Hash')
  await within(5000, engine.setoption('Threads', '1'), 'setoption Threads')
  await within(5000, engine.setoption('MultiPV', '3'), 'setoption MultiPV')
  await within(5000, engine.ucinewgame(), 'ucinewgame')
  const middlegame = 'r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4'
  await within(5000, engine.position(middlegame), 'position fen')
  const multi = await within(30000, engine.go({ depth: 8 }), 'go depth 8')
  check(isLegal(middlegame, multi.bestmove), `MultiPV search: bestmove ${multi.bestmove} is legal`)
  const deepest = multi.info.filter(i => i.depth === 8 && i.multipv && i.pv)
  const lines = new Set(deepest.map(i => i.multipv))
  check(lines.has(1) && lines.has(2) && lines.has(3), `depth 8 reports multipv 1, 2 and 3 (${[...lines]})`)
  check(deepest.every(i => i.score && (i.score.unit === 'cp' || i.score.unit === 'mate')), 'every line has a cp or mate score')
  check(deepest.every(i => isLegal(middlegame, i.pv.split(' ')[0])), 'every line starts with a legal move')
  await within(5000, engine.setoption('MultiPV', '1'), 'setoption MultiPV 1')

  // A timed game against itself: 3 s + 30 ms per move each, clocks kept here as a GUI keeps them.
  await within(5000, engine.ucinewgame(), 'ucinewgame')
  const board = new Chess()
  const moves = []
  const clock = { w: 3000, b: 3000 }
  const inc = 30
  let flagged = false
  let illegal = null
  while (!board.isGameOver() && moves.length < 160) {
    await within(5000, engine.position('startpos', moves), 'position startpos moves')
    const side = board.turn()
    const started = process.hrtime.bigint()
    const result = await within(clock[side] + 2000, engine.go({ wtime: clock.w, btime: clock.b, winc: inc, binc: inc }),
                                `go wtime ${clock.w} btime ${clock.b}`)
    const spent = Number((process.hrtime.bigint() - started) / 1000000n)
    clock[side] -= spent
    if (clock[side] <= 0) { flagged = true; break }
    clock[side] += inc
    try {
      play(board, result.bestmove)
    } catch (e) {
      illegal = `${result.bestmove} after ${moves.join(' ') || 'startpos'}`
      break
    }
    moves.push(result.bestmove)
  }
  check(illegal === null, `timed game: every move legal${illegal ? ' (illegal: ' + illegal + ')' : ''}`)
  check(!flagged, `timed game: no flag fall (${moves.length} plies, clocks left w ${clock.w} ms, b ${clock.b} ms)`)
  check(moves.length >= 40 || board.isGameOver(), `timed game: ${moves.length} plies, ${board.isGameOver() ? 'ended by the rules' : 'stopped at the ply limit'}`)

  // go infinite, isready during the search, stop.
  await within(5000, engine.position(middlegame), 'position fen')
  const infos = []
  const emitter = engine.goInfinite()
  emitter.on('data', d => { if (d && d.depth) infos.push(d) })
  await new Promise(r => setTimeout(r, 300))
  await within(2000, engine.isready(), 'isready during go infinite')
  check(true, 'isready answered during go infinite')
  await new Promise(r => setTimeout(r, 300))
  const stopped = await within(2000, engine.stop(), 'stop')
  check(isLegal(middlegame, stopped.bestmove), `go infinite + stop: bestmove ${stopped.bestmove} is legal`)
  check(infos.length > 0 && Math.max(...infos.map(i => i.depth)) >= 5, `go infinite reported its progress (deepest ${Math.max(0, ...infos.map(i => i.depth))})`)

  // searchmoves restricts the root.
  const only = ['a2a3', 'h2h3']
  await within(5000, engine.position('startpos'), 'position startpos')
  const restricted = await within(10000, engine.go({ depth: 6, searchmoves: only }), 'go searchmoves')
  check(only.includes(restricted.bestmove), `searchmoves a2a3 h2h3: bestmove ${restricted.bestmove}`)

  // quit ends the process.
  await within(5000, engine.quit(), 'quit')
  check(true, 'quit ended the process')
}

main().then(() => {
  console.log(failures === 0 ? 'node-uci compliance: all checks passed' : `node-uci compliance: ${failures} check(s) failed`)
  process.exit(failures === 0 ? 0 : 1)
}, err => {
  console.log(`FAIL ${err.message}`)
  process.exit(1)
})
