"""Helpers shared by the Python tests that drive built programs (tests/package, tests/windows,
tests/clients): named checks counted into an exit status, running a command, and speaking to a Linux
engine or a Windows one through wine.

    sys.path.insert(0, os.path.join(ROOT, 'tests', 'support'))
    import checks
    checks.check(rc == 0, 'bench exits 0')
    ...
    return checks.summary('package')     # prints the tally, returns the exit status
"""
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, 'tools'))
from uci_engine import Engine, EngineError  # noqa: E402  (tools/uci_engine/, the UCI driver)
failures = 0

# The shared libraries of the C library itself (glibc): the only ones a self-contained Linux engine needs.
GLIBC_LIBRARIES = ('linux-vdso.so.1', 'libc.so.6', 'libm.so.6', 'libpthread.so.0', 'libdl.so.2', 'librt.so.1',
                   'ld-linux-x86-64.so.2')


def check(ok, what):
    """Prints `ok   what` or `FAIL what`; a failure is counted for summary()."""
    global failures
    print(('ok   ' if ok else 'FAIL ') + what, flush=True)
    if not ok:
        failures += 1
    return ok


def summary(name):
    """Prints the tally under the test's name; returns the exit status (0 = every check passed)."""
    print('%s: %d check(s) failed' % (name, failures) if failures else '%s: all checks passed' % name)
    return 1 if failures else 0


def engine_command(binary):
    """The command that starts a build: the binary itself, or `wine quince.exe` for a Windows build (in the
    wine prefix scripts/build-windows.sh set up beside it, unless WINEPREFIX names another)."""
    if binary.endswith('.exe'):
        prefix = os.environ.get('WINEPREFIX') or os.path.join(os.path.dirname(os.path.abspath(binary)), 'wine')
        return ['env', 'WINEDEBUG=' + os.environ.get('WINEDEBUG', '-all'), 'WINEPREFIX=' + prefix, 'wine', binary]
    return [binary]


def run(cmd, stdin='', timeout=600, cwd=None):
    """Runs cmd with stdin; returns (exit status, stdout with Windows line ends made '\\n', stderr)."""
    p = subprocess.run(cmd, input=stdin.encode(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout.decode('utf-8', 'replace').replace('\r\n', '\n'), \
        p.stderr.decode('utf-8', 'replace')


def uci_session(cmd, commands, timeout=300):
    """Sends the UCI commands, waits for the `bestmove` of the last `go` (a `quit` sent at once would stop
    the search before it reports anything), then quits. Returns (exit status, the engine's output); a
    session still running after timeout seconds is killed (a deadline against a hang, not a time limit a
    search must meet)."""
    deadline = time.monotonic() + timeout
    left = lambda: max(0.0, deadline - time.monotonic())  # noqa: E731
    out = []
    with Engine(cmd, stderr='stdout') as engine:
        try:
            for c in commands:
                engine.send(c)
            out += engine.wait_for('bestmove', left())
            engine.send('quit')
            out += engine.rest(left())
        except EngineError as e:
            out += e.lines + engine.rest(left())
        code = engine.close(left())
    return code, ''.join(line + '\n' for line in out)


def bench_nodes(text):
    """The node count of `quince bench`'s output (its bench signature), or None."""
    m = re.search(r'^Nodes searched: (\d+)$', text, re.M)
    return int(m.group(1)) if m else None


def version_of(binary):
    """(version, CPU variant, bench signature, build line) from the build's `--version`."""
    rc, text, err = run(engine_command(binary) + ['--version'], timeout=120)
    if rc != 0:
        raise RuntimeError('%s --version failed (%d): %s' % (binary, rc, err[-300:]))
    version = re.search(r'^Quince (\S+)$', text, re.M).group(1)
    bench = re.search(r'^bench signature: (\d+) ', text, re.M).group(1)
    variant = re.search(r'^build: (x86-64[a-z0-9-]*)[ ,]', text, re.M).group(1)
    build = re.search(r'^build: .*$', text, re.M).group(0)
    return version, variant, bench, build


def shared_libraries(binary):
    """The shared libraries `ldd` resolves for a Linux binary, by name (None when ldd fails), and its output."""
    rc, text, err = run(['ldd', binary], timeout=60)
    if rc != 0:
        return None, text + err
    names = []
    for line in text.splitlines():
        first = line.split()[0] if line.split() else ''
        names.append(os.path.basename(first))
    return names, text


def find_tool(tool, hint):
    """The path of a program (on PATH or in /usr/games, where Debian puts the chess programs); exits with
    `hint` (what installs it) when it is missing."""
    path = shutil.which(tool) or ('/usr/games/' + tool if os.path.exists('/usr/games/' + tool) else None)
    if not path:
        sys.exit('%s not found (%s)' % (tool, hint))
    return path
