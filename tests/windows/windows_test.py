#!/usr/bin/env python3
"""The Windows build (scripts/build-windows.sh) under Debian's wine, against the Linux build.

    tests/windows/windows_test.py LINUX_QUINCE WINDOWS_QUINCE_EXE QUINCE_MATCH [OUT_DIR]

1. `--version` names a Windows build, the compiler and the CPU variant.
2. `bench` searches exactly as many nodes as the Linux build's `bench` (same search, same evaluation,
   whatever the compiler and operating system).
3. A UCI session as a GUI runs it: uci (id and options), isready, position with moves, go depth, quit:
   every answer arrives and the best move is one of the position's moves.
4. SyzygyPath with the test tables (a Windows path through wine's Z: drive): tables found when the build
   has Fathom, otherwise the one-line refusal.
5. A short game through quince-match, `wine quince.exe` against the Linux engine: finished with a result,
   no illegal move, crash or time forfeit.

Needs wine (scripts/deps.sh windows). Exit code 0 = all checks passed.
"""
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'support'))
import checks  # noqa: E402  (tests/support/checks.py)
from checks import ROOT, bench_nodes, check, run  # noqa: E402


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    linux, exe, match = (os.path.abspath(a) for a in sys.argv[1:4])
    out_dir = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else tempfile.mkdtemp(prefix='quince-windows-')
    os.makedirs(out_dir, exist_ok=True)
    os.environ.setdefault('WINEDEBUG', '-all')
    # The wine prefix scripts/build-windows.sh made for the build-time bench (one set up already); set
    # here too for quince-match's `cmd=wine`.
    os.environ.setdefault('WINEPREFIX', os.path.join(os.path.dirname(exe), 'wine'))
    wine = checks.engine_command(exe)

    rc, text, err = run(wine + ['--version'])
    lines = text.splitlines()
    check(rc == 0 and len(lines) == 3 and lines[0].startswith('Quince '), '--version runs: %r %s' % (text, err[-300:]))
    build = lines[2] if len(lines) == 3 else ''
    check(re.match(r'^build: x86-64(-popcnt|-bmi2)? windows, GCC ', build) is not None,
          '--version names a Windows build, its CPU variant and compiler: ' + build)
    with_tablebases = 'Syzygy tablebases (Fathom)' in build

    rc, text, _ = run([linux, 'bench'])
    linux_nodes = bench_nodes(text)
    rc_w, text_w, err_w = run(wine + ['bench'])
    windows_nodes = bench_nodes(text_w)
    print('bench: Linux %s nodes, Windows (wine) %s nodes' % (linux_nodes, windows_nodes))
    check(linux_nodes is not None and rc_w == 0 and windows_nodes == linux_nodes,
          'bench node count under wine equals the Linux build\'s (%s vs %s) %s' % (windows_nodes, linux_nodes, err_w[-300:]))

    session = 'uci\nisready\nposition startpos moves e2e4 e7e5 g1f3\ngo depth 6\nisready\nquit\n'
    rc, text, err = run(wine, session, timeout=300)
    check(rc == 0, 'UCI session exits with status 0 (%d) %s' % (rc, err[-300:]))
    check('id name Quince ' in text and 'uciok' in text, 'uci answers id name and uciok')
    check('option name SyzygyPath type string' in text, 'uci lists the options')
    check(text.count('readyok') == 2, 'both isready answered')
    best = re.search(r'^bestmove (\S+)', text, re.M)
    check(best is not None and best.group(1) in ('b8c6', 'g8f6', 'd7d6', 'f7f6', 'd8f6', 'd8e7', 'f8d6', 'b8a6',
                                                 'g8e7', 'g8h6', 'a7a6', 'a7a5', 'b7b6', 'b7b5', 'c7c6', 'c7c5',
                                                 'd7d5', 'f7f5', 'g7g6', 'g7g5', 'h7h6', 'h7h5', 'f8e7', 'f8c5',
                                                 'f8b4', 'f8a3', 'd8g5', 'd8h4', 'e8e7'),
          'bestmove is a legal reply in the position: %s' % (best.group(1) if best else text[-300:]))

    tables = 'Z:' + os.path.join(ROOT, 'tests', 'data', 'syzygy').replace('/', '\\')
    rc, text, err = run(wine, 'setoption name SyzygyPath value %s\nisready\nquit\n' % tables, timeout=120)
    if with_tablebases:
        check(re.search(r'info string Syzygy: found \d+ tables .* up to 4 pieces', text) is not None,
              'SyzygyPath loads the test tables through Fathom for Windows: ' + text.strip()[-300:])
    else:
        check('no tablebase support' in text, 'SyzygyPath says the build has no tablebases: ' + text.strip()[-300:])

    pgn = os.path.join(out_dir, 'windows_vs_linux.pgn')
    if os.path.exists(pgn):
        os.remove(pgn)
    rc, text, err = run([match, '-engine', 'cmd=wine', 'args=' + exe, 'name=quince-windows',
                         '-engine', 'cmd=' + linux, 'name=quince-linux',
                         '-each', 'nodes=20000', 'timeout=60000', '-games', '2', '-pgnout', pgn], timeout=900)
    print(text[-800:])
    check(rc == 0, 'quince-match runs wine quince.exe against the Linux build (status %d) %s' % (rc, err[-500:]))
    games = open(pgn).read() if os.path.exists(pgn) else ''
    results = re.findall(r'^\[Result "([^"]*)"\]', games, re.M)
    check(len(results) == 2 and all(r in ('1-0', '0-1', '1/2-1/2') for r in results),
          'two games finished with a result: %s' % results)
    terminations = re.findall(r'^\[Termination "([^"]*)"\]', games, re.M)
    check(not any(t in ('time forfeit', 'illegal move', 'abandoned', 'rules infraction') for t in terminations),
          'no forfeit, illegal move or crash: %s' % terminations)

    return checks.summary('windows')


if __name__ == '__main__':
    sys.exit(main())
