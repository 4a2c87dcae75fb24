#!/usr/bin/env python3
"""scripts/package.sh on builds made already: the archives' names and contents.

    tests/package/package_test.py OUT_DIR BINARY [BINARY ...]

For each binary (a Linux `quince`, or a Windows `quince.exe`, run through wine), package.sh --binary
writes one archive into OUT_DIR; this checks:
- the name: quince-VERSION-PLATFORM-VARIANT-benchN.tar.xz (Linux) or .zip (Windows), with the version, CPU
  variant and bench signature that the binary's `--version` prints;
- the contents: one folder of the archive's name holding the engine, README.md, LICENSE, quince.6 and
  polyglot.ini, each byte-identical to the repository's file (and the engine to the binary given);
- the Linux engine unpacked from its archive runs (`--version`) and keeps its executable bit.
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

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = 0


def check(ok, what):
    global failures
    print(('ok   ' if ok else 'FAIL ') + what, flush=True)
    if not ok:
        failures += 1


def version_of(binary):
    cmd = ['wine', binary] if binary.endswith('.exe') else [binary]
    env = dict(os.environ, WINEDEBUG='-all')
    env.setdefault('WINEPREFIX', os.path.join(os.path.dirname(binary), 'wine'))  # scripts/build-windows.sh's
    text = subprocess.run(cmd + ['--version'], stdout=subprocess.PIPE, env=env, check=True).stdout.decode()
    text = text.replace('\r\n', '\n')
    version = re.search(r'^Quince (\S+)$', text, re.M).group(1)
    bench = re.search(r'^bench signature: (\d+) ', text, re.M).group(1)
    variant = re.search(r'^build: (x86-64[a-z0-9-]*)[ ,]', text, re.M).group(1)
    return version, variant, bench


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    out = os.path.abspath(sys.argv[1])
    binaries = [os.path.abspath(b) for b in sys.argv[2:]]
    shutil.rmtree(out, ignore_errors=True)
    args = [os.path.join(ROOT, 'scripts', 'package.sh'), '--out', out]
    for b in binaries:
        args += ['--binary', b]
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(p.returncode == 0, 'package.sh exits 0: ' + p.stderr.decode()[-500:])
    listed = p.stdout.decode().split()
    check(sorted(os.listdir(out)) == sorted(os.path.basename(f) for f in listed) and len(listed) == len(binaries),
          'one archive per binary, each named on the output: %s' % listed)
    docs = {'README.md': 'README.md', 'LICENSE': 'LICENSE', 'quince.6': 'docs/quince.6',
            'polyglot.ini': 'docs/polyglot.ini'}
    for binary in binaries:
        version, variant, bench = version_of(binary)
        windows = binary.endswith('.exe')
        platform, ext, exe = ('windows', '.zip', 'quince.exe') if windows else ('linux', '.tar.xz', 'quince')
        base = 'quince-%s-%s-%s-bench%s' % (version, platform, variant, bench)
        path = os.path.join(out, base + ext)
        check(re.fullmatch(r'quince-\d+(\.\d+)+-(linux|windows)-x86-64(-popcnt|-bmi2)?-bench\d+', base) is not None
              and os.path.exists(path), 'archive %s exists' % (base + ext))
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
            r = subprocess.run([engine, '--version'], stdout=subprocess.PIPE)
            check(r.returncode == 0 and r.stdout.decode().startswith('Quince ' + version),
                  'the unpacked engine runs and keeps its executable bit')
        shutil.rmtree(unpack)
    print('%d checks failed' % failures if failures else 'package: all checks passed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
