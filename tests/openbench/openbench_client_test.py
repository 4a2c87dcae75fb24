#!/usr/bin/env python3
"""OpenBench's client steps against Quince, as the client (Client/utils.py, Client/bench.py of
https://github.com/AndyGrant/OpenBench) performs them:

1. the sources are unpacked into a fresh folder, and `make -j EXE=<name> CXX=<compiler>` runs in the folder
   named by the engine's build.path (docs/Quince.json); the binary must appear there as ./<name>;
2. `./<binary> bench` runs in several copies at once; each one's output (stdout and stderr together) must
   decode as ASCII; its lines are read from the last, every character that is not a letter, digit or space
   becomes a space, and the first matches of the node-count and speed patterns below are taken; every copy
   must report the same node count (and it must be the CMake build's `bench`);
3. the tuning build (`make ... TUNING=1`): `quince spsa` prints OpenBench's SPSA input lines, one per UCI
   spin option with the same default, min and max, and setting them changes the search.

Both builds run at -O1 (OPTFLAGS=-O1 in make's environment, the client's command line unchanged): what is
checked here does not depend on the optimisation, -O1 compiles in two thirds of the time of the makefile's
default -O3, and the -O3 compilation of the same sources with the same compiler is the CMake Release build's
(scripts/test.sh fails on its warnings). Both compile through ccache (Debian's /usr/lib/ccache first in PATH)
with a cache of their own: the tuning build compiles only the unity batches (a source folder each) whose
preprocessed text QUINCE_TUNING changes and takes every other object from the first build, so the test
compiles the engine about once. Without ccache the tuning build compiles everything again.

usage: openbench_client_test.py SOURCE_DIR REFERENCE_QUINCE [--no-tuning]
"""
import json
import multiprocessing
import os
import re
import shutil
import subprocess
import sys
import tempfile

BENCH_PATTERN = r'(\d+\s+nodes)|(nodes\s+\d+)|(nodes searched\s+\d+)'
NPS_PATTERN = r'(\d+\s+nps)|(nps\s+\d+)|(nodes second\s+\d+)'
MAX_BENCH_TIME_SECONDS = 60  # the client's limit for a set of concurrent benches
COPIES = 2

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print('FAIL: ' + message)
    return condition


def parse_bench_output(raw):
    """(nodes, nps) the way the client reads them; raises UnicodeDecodeError on non-ASCII output."""
    nodes = nps = None
    for line in raw.decode('ascii').strip().split('\n')[::-1]:
        line = re.sub(r'[^a-zA-Z0-9 ]+', ' ', line)
        m_nps = re.search(NPS_PATTERN, line, re.IGNORECASE)
        m_nodes = re.search(BENCH_PATTERN, line, re.IGNORECASE)
        if m_nps and nps is None:
            nps = m_nps.group()
        if m_nodes and nodes is None:
            nodes = m_nodes.group()
    to_int = lambda s: int(re.search(r'\d+', s).group()) if s else None
    return to_int(nodes), to_int(nps)


def one_bench(args):
    cwd, binary = args
    out = subprocess.run(['./' + binary, 'bench'], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         timeout=MAX_BENCH_TIME_SECONDS).stdout
    try:
        return parse_bench_output(out)
    except UnicodeDecodeError as e:
        return ('not ASCII: %s' % e, None)


def compiler_from(engine_json):
    """The first compiler of build.compilers that runs and is new enough (`g++>=12`), as the client picks it."""
    for spec in engine_json['build']['compilers']:
        name, _, version = spec.partition('>=')
        need = tuple(int(x) for x in version.split('.')) if version else (0,)
        try:
            text = subprocess.run([name, '--version'], stdout=subprocess.PIPE, stderr=subprocess.PIPE).stdout.decode()
        except OSError:
            continue
        m = re.search(r'\d+\.\d+(\.\d+)?', text)
        if m and tuple(int(x) for x in m.group().split('.')) >= need:
            return name
    return None


def make_environment(tmp):
    """(make's environment, whether it has a compiler cache): OPTFLAGS=-O1, and ccache in front of the
    compiler (Debian's /usr/lib/ccache holds a g++ that is ccache) with its cache in tmp when ccache is
    installed (scripts/deps.sh test installs it)."""
    env = dict(os.environ)
    env['OPTFLAGS'] = '-O1'
    if not (shutil.which('ccache') and os.path.isdir('/usr/lib/ccache')):
        print('note: no ccache: the tuning build compiles everything again')
        return env, False
    env['PATH'] = '/usr/lib/ccache' + os.pathsep + env.get('PATH', '')
    env['CCACHE_DIR'] = os.path.join(tmp, 'ccache')
    return env, True


def cache_stats(env):
    out = subprocess.run(['ccache', '--print-stats'], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT).stdout.decode()
    wanted = ('direct_cache_hit', 'preprocessed_cache_hit', 'cache_miss')
    return ' '.join(l.replace('\t', '=') for l in out.splitlines() if l.split('\t')[0] in wanted)


def make(src_root, make_path, exe, compiler, extra=(), env=None):
    # The client's command: make -j EXE=<name>, CXX= for a compiler whose name has '++' (CC= otherwise).
    command = ['make', '-j', 'EXE=%s' % exe, '%s=%s' % (['CC', 'CXX']['++' in compiler], compiler)] + list(extra)
    cwd = os.path.join(src_root, make_path)
    proc = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    log = proc.stdout.decode('utf-8', 'replace')
    check(proc.returncode == 0, '%s failed:\n%s' % (' '.join(command), log[-3000:]))
    check('warning' not in log, 'compiler warnings:\n' + '\n'.join(l for l in log.splitlines() if 'warning' in l)[:3000])
    binary = os.path.join(cwd, exe)
    check(os.path.isfile(binary), 'no ./%s in %s after make' % (exe, make_path))
    return binary


def uci_lines(binary, *lines):
    out = subprocess.run([binary] + list(lines) + ['quit'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         timeout=300).stdout.decode()
    return out.splitlines()


def last_nodes(lines):
    for line in reversed(lines):
        m = re.search(r' nodes (\d+)', line)
        if line.startswith('info') and m:
            return int(m.group(1))
    return None


def tracked_files(source):
    """The files git tracks in source (as they are in the work tree); without git, every file outside
    build folders."""
    listed = subprocess.run(['git', '-C', source, 'ls-files', '-z'], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    if listed.returncode == 0 and listed.stdout:
        names = [n for n in listed.stdout.decode().split('\0') if n]
        return [n for n in names if os.path.isfile(os.path.join(source, n))]
    found = []
    for folder, dirs, files in os.walk(source):
        dirs[:] = [d for d in dirs if not d.startswith(('build', 'obj', '.git'))]
        found += [os.path.relpath(os.path.join(folder, f), source) for f in files]
    return found


def main():
    args = [a for a in sys.argv[1:] if not a.startswith('--')]
    tuning = '--no-tuning' not in sys.argv
    source, reference = args
    engine_json = json.load(open(os.path.join(source, 'docs', 'Quince.json')))
    check(engine_json['private'] is False, 'Quince.json: a public engine is built from source')
    make_path = engine_json['build']['path']
    compiler = compiler_from(engine_json)
    if not check(compiler, 'no compiler of %s found' % engine_json['build']['compilers']):
        return 1
    expected = parse_bench_output(subprocess.run([reference, 'bench'], stdout=subprocess.PIPE).stdout)[0]
    check(expected, 'the reference build prints no bench node count')

    with tempfile.TemporaryDirectory(prefix='quince-openbench-') as tmp:
        # The client unpacks the repository's archive: only what git tracks, no build folders.
        root = os.path.join(tmp, 'Quince-tmp')
        os.makedirs(root)
        for relative in tracked_files(source):
            target = os.path.join(root, relative)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            shutil.copy(os.path.join(source, relative), target)

        make_env, cached = make_environment(tmp)
        binary = make(root, make_path, 'Quince-0B0B0B0B', compiler, env=make_env)
        if failures:
            print('FAILED: the build')
            return 1
        # The client moves the binary to its Engines folder and runs ./Engines/<name> bench.
        engines = os.path.join(tmp, 'Engines')
        os.mkdir(engines)
        shutil.move(binary, engines)
        with multiprocessing.Pool(COPIES) as pool:
            results = pool.map(one_bench, [(tmp, 'Engines/Quince-0B0B0B0B')] * COPIES)
        print('benches:', results)
        nodes = [n for n, _ in results]
        check(all(isinstance(n, int) for n in nodes), 'a bench copy gave no node count: %s' % results)
        check(all(isinstance(s, int) and s > 0 for _, s in results), 'a bench copy gave no speed: %s' % results)
        check(len(set(nodes)) == 1, 'non-deterministic benches: %s' % nodes)
        check(nodes[0] == expected, 'bench %s differs from the CMake build\'s %s' % (nodes[0], expected))

        if tuning:
            # With the first build's flags, so that the cache serves every object QUINCE_TUNING leaves alone.
            tuned = make(root, make_path, 'Quince-TUNING01', compiler, ['TUNING=1'], env=make_env)
            if cached:
                print('ccache after the tuning build:', cache_stats(make_env))
            if failures:
                print('FAILED: the tuning build')
                return 1
            spsa = subprocess.run([tuned, 'spsa'], stdout=subprocess.PIPE).stdout.decode().splitlines()
            check(len(spsa) > 40, 'quince spsa printed %d lines' % len(spsa))
            listing = '\n'.join(uci_lines(tuned, 'uci'))
            for line in spsa:
                f = [x.strip() for x in line.split(',')]
                if not check(len(f) == 7 and f[1] == 'int', 'SPSA line %r' % line):
                    continue
                name, value, lo, hi = f[0], int(f[2]), int(f[3]), int(f[4])
                check(lo <= value <= hi and float(f[5]) > 0 and float(f[6]) > 0, 'SPSA line %r' % line)
                option = 'option name %s type spin default %d min %d max %d' % (name, value, lo, hi)
                check(option in listing, 'no UCI option for SPSA line %r' % line)
            check(parse_bench_output(subprocess.run([tuned, 'bench'], stdout=subprocess.PIPE).stdout)[0] == expected,
                  'the tuning build\'s bench at the defaults differs from %s' % expected)
            # A search parameter and an evaluation weight set through their options change the search (the
            # weights are the hand-crafted profile's: they play with EvalProfile quince).
            base = last_nodes(uci_lines(tuned, 'position startpos', 'go depth 9'))
            lmr = last_nodes(uci_lines(tuned, 'setoption name LmrBase value 130', 'position startpos', 'go depth 9'))
            quince = 'setoption name EvalProfile value quince'
            base_q = last_nodes(uci_lines(tuned, quince, 'position startpos', 'go depth 9'))
            pawn = last_nodes(uci_lines(tuned, quince, 'setoption name pawn_unit value 2800', 'position startpos',
                                        'go depth 9'))
            check(base and lmr and base_q and pawn and base != lmr and base_q != pawn,
                  'options do not change the search: nodes %s, LmrBase=130 %s; quince %s, pawn_unit=2800 %s'
                  % (base, lmr, base_q, pawn))
            bad = uci_lines(tuned, 'setoption name LmrBase value 100000')
            check(any('error' in l and 'LmrBase' in l for l in bad), 'out-of-range LmrBase accepted: %s' % bad)
        # The normal build has no tuning options.
        status = subprocess.run([reference, 'spsa'], stdout=subprocess.PIPE, stderr=subprocess.PIPE).returncode
        check(status == 2, 'quince spsa in a normal build exits %d (expected 2)' % status)

    print('FAILED: %d check(s)' % len(failures) if failures else 'OK')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
