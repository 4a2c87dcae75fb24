#!/usr/bin/env python3
"""scripts/package.sh on builds made already: the archives' names and contents, and the engines in them.

    tests/package/package_test.py OUT_DIR BINARY [BINARY ...]
    tests/package/package_test.py --refused OUT_DIR BINARY

For each binary (a Linux `quince` from scripts/build-linux.sh, or a Windows `quince.exe`, run through
wine), package.sh --binary writes one archive into OUT_DIR; this checks:
- the name: quince-VERSION-PLATFORM-VARIANT-benchN.tar.xz (Linux) or .zip (Windows), with the version, CPU
  variant and bench signature that the binary's `--version` prints;
- the contents: one folder of the archive's name holding the engine, README.md, LICENSE, quince.6 and
  polyglot.ini, each byte-identical to the repository's file (and the engine to the binary given);
- the Linux engine unpacked from its archive: keeps its executable bit; `ldd` finds only the C library's
  shared libraries (no libfathom, libstdc++ or libgcc_s); its `bench` searches as many nodes as the bench
  signature in its name; a UCI session with SyzygyPath at the test tables (tests/data/syzygy, 3 and 4
  pieces) loads them and reports tablebase hits (`tbhits` > 0) searching a position that reaches them.
With --refused: package.sh must refuse the binary (a Linux build linking a shared library other than the C
library's, e.g. Debian's libfathom, or one without tablebases), naming why, and write no archive.
Exit code 0 = all checks passed.
"""
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'support'))
import checks  # noqa: E402  (tests/support/checks.py)
from checks import ROOT, check  # noqa: E402

TABLES = os.path.join(ROOT, 'tests', 'data', 'syzygy')
# King, queen and knight against king and rook (5 pieces, outside the 4-piece tables), the rook attacking
# the knight: after Rxa1 the search is in KQvKR, one of the test tables, and probes it.
TB_POSITION = '4k3/8/8/8/8/8/r7/N2QK3 w - - 0 1'


def package(out, binaries):
    shutil.rmtree(out, ignore_errors=True)
    args = [os.path.join(ROOT, 'scripts', 'package.sh'), '--out', out]
    for b in binaries:
        args += ['--binary', b]
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def check_linux_engine(engine, bench):
    """The unpacked Linux engine: self-contained, searching as the build did, probing tablebases."""
    names, text = checks.shared_libraries(engine)
    print(text.rstrip())
    check(names is not None and not any('fathom' in n for n in names),
          'ldd: the engine does not need libfathom (Fathom linked in)')
    foreign = [n for n in names or [] if n not in checks.GLIBC_LIBRARIES]
    check(names is not None and not foreign,
          'ldd: the engine needs only the C library (glibc), nothing else: %s' % (foreign or names))
    rc, text, err = checks.run([engine, 'bench'], timeout=900)
    nodes = checks.bench_nodes(text)
    check(rc == 0 and nodes is not None and str(nodes) == bench,
          'the unpacked engine\'s bench searches %s nodes, the signature in its name (%s) %s'
          % (nodes, bench, err[-300:]))
    if not os.path.exists(os.path.join(TABLES, 'KQvKR.rtbw')):
        check(False, 'test tables at %s' % TABLES)
        return
    rc, text = checks.uci_session([engine], ['uci', 'setoption name SyzygyPath value ' + TABLES, 'isready',
                                             'position fen ' + TB_POSITION, 'go depth 8'])
    check(rc == 0 and text.count('readyok') == 1, 'UCI session with SyzygyPath exits 0, isready answered')
    found = re.search(r'^info string Syzygy: found (\d+) tables .* up to (\d) pieces', text, re.M)
    check(found is not None and int(found.group(1)) > 0 and found.group(2) == '4',
          'SyzygyPath loads the 3- and 4-piece test tables: %s' % (found.group(0) if found else text[-300:]))
    hits = [int(h) for h in re.findall(r'^info .*\btbhits (\d+)', text, re.M)]
    check(bool(hits) and max(hits) > 0, 'the search reports tablebase hits (tbhits up to %s)'
          % (max(hits) if hits else 'none'))
    check(re.search(r'^bestmove \S+', text, re.M) is not None, 'the search ends with a bestmove')


def refused(out, binary):
    p = package(out, [binary])
    err = p.stderr.decode()
    check(p.returncode != 0, 'package.sh refuses %s (status %d)' % (binary, p.returncode))
    check('not self-contained' in err or 'without Syzygy tablebases' in err,
          'the refusal says why: ' + err.strip()[-400:])
    check(not os.listdir(out) if os.path.isdir(out) else True, 'no archive written')
    return checks.summary('package (refusal)')


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == '--refused':
        return refused(os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3]))
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = os.path.abspath(sys.argv[1])
    binaries = [os.path.abspath(b) for b in sys.argv[2:]]
    p = package(out, binaries)
    check(p.returncode == 0, 'package.sh exits 0: ' + p.stderr.decode()[-500:])
    listed = p.stdout.decode().split()
    check(sorted(os.listdir(out)) == sorted(os.path.basename(f) for f in listed) and len(listed) == len(binaries),
          'one archive per binary, each named on the output: %s' % listed)
    docs = {'README.md': 'README.md', 'LICENSE': 'LICENSE', 'quince.6': 'docs/quince.6',
            'polyglot.ini': 'docs/polyglot.ini'}
    for binary in binaries:
        version, variant, bench, _ = checks.version_of(binary)
        windows = binary.endswith('.exe')
        platform, ext, exe = ('windows', '.zip', 'quince.exe') if windows else ('linux', '.tar.xz', 'quince')
        base = 'quince-%s-%s-%s-bench%s' % (version, platform, variant, bench)
        path = os.path.join(out, base + ext)
        check(re.fullmatch(r'quince-\d+(\.\d+)+-(linux|windows)-x86-64(-popcnt|-bmi2)?-bench\d+', base) is not None
              and os.path.exists(path), 'archive %s exists (%s bytes)'
              % (base + ext, os.path.getsize(path) if os.path.exists(path) else '-'))
        if not os.path.exists(path):
            continue
        unpack = tempfile.mkdtemp(prefix='quince-package-')
        if windows:
            with zipfile.ZipFile(path) as z:
                names = sorted(n.rstrip('/') for n in z.namelist())
                z.extractall(unpack)
        else:
            with tarfile.open(path) as t:
                names = sorted(t.getnames())
                t.extractall(unpack)
        want = sorted([base] + ['%s/%s' % (base, f) for f in list(docs) + [exe]])
        check(names == want, '%s holds exactly %s: %s' % (base, want, names))
        for inside, source in list(docs.items()) + [(exe, binary)]:
            got = os.path.join(unpack, base, inside)
            same = os.path.exists(got) and open(got, 'rb').read() == open(os.path.join(ROOT, source), 'rb').read()
            check(same, '%s/%s is the file %s' % (base, inside, source if inside != exe else 'of the binary'))
        if not windows:
            engine = os.path.join(unpack, base, exe)
            rc, text, _ = checks.run([engine, '--version'])
            check(rc == 0 and text.startswith('Quince ' + version),
                  'the unpacked engine runs and keeps its executable bit')
            check_linux_engine(engine, bench)
        shutil.rmtree(unpack)
    return checks.summary('package')


if __name__ == '__main__':
    sys.exit(main())
