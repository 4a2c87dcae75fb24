"""One UCI engine process driven from Python: the driver every Python tool and test of the project uses
(bench/, strength/, fuzz/uci_stateful.py, tests/support/checks.py), so that starting an engine, reading
its lines with a time limit, noticing that it died and ending it are written once.

    sys.path.insert(0, os.path.join(ROOT, 'tools'))
    from uci_engine import Engine, EngineError
    with Engine('build/quince') as e:
        e.handshake()                      # uci ... uciok
        e.set_option('Hash', 16)
        e.isready()
        e.position('startpos', ['e2e4'])
        lines = e.go('depth 8')            # every line up to and including `bestmove ...`

A reader thread queues the engine's output, so any wait can have a timeout; the lines come without their
line end ('\\r\\n' from a Windows build under wine too). An engine that ends its output or cannot be
written to raises EngineError, whose message carries the exit status and the end of the engine's stderr
(when stderr='pipe'). A wait that times out raises EngineError too, except read_line(), which returns None.
"""
import queue
import subprocess
import threading
import time


class EngineError(RuntimeError):
    """The engine died, closed its output, or did not answer within the time allowed. `lines`: what a
    wait_for() had read before it failed."""

    def __init__(self, message, lines=()):
        super().__init__(message)
        self.lines = list(lines)


class Engine:
    def __init__(self, command, name='engine', stderr='inherit', cwd=None, env=None):
        """command: the binary's path or a list (e.g. ['wine', 'quince.exe']). stderr: 'inherit' (the
        caller's), 'pipe' (kept in self.stderr, its end quoted in errors) or 'stdout' (read as output lines)."""
        self.name = name
        self.command = [command] if isinstance(command, str) else list(command)
        err = {'inherit': None, 'pipe': subprocess.PIPE, 'stdout': subprocess.STDOUT}[stderr]
        self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                     text=True, errors='replace', bufsize=1, cwd=cwd, env=env)
        self.stderr = []  # stderr lines, with stderr='pipe'
        self._lines = queue.Queue()
        self._ended = False
        threading.Thread(target=self._read, daemon=True).start()
        if stderr == 'pipe':
            threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self._lines.put(line.rstrip('\r\n'))
        self._lines.put(None)

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr.append(line)

    @property
    def pid(self):
        return self.proc.pid

    def report(self):
        """' exit status N' when the process ended, and the last stderr lines kept: for error messages."""
        code = self.proc.poll()
        tail = ''.join(self.stderr[-30:])
        return (f' exit status {code}' if code is not None else '') + (f'\n--- stderr ---\n{tail}' if tail else '')

    def send(self, line):
        try:
            self.proc.stdin.write(line + '\n')
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(f'{self.name}: cannot write (the engine died?){self.report()}')

    def read_line(self, timeout=None):
        """The next output line; None when timeout seconds pass first (None: wait as long as it takes)."""
        if self._ended:
            raise EngineError(f'{self.name}: output ended (the engine died?){self.report()}')
        try:
            line = self._lines.get(timeout=timeout)
        except queue.Empty:
            return None
        if line is None:
            self._ended = True
            try:
                self.proc.wait(timeout=5)  # the exit status, for report()
            except subprocess.TimeoutExpired:
                pass
            raise EngineError(f'{self.name}: output ended (the engine died?){self.report()}')
        return line

    def wait_for(self, prefix, timeout=None):
        """The lines read up to and including the first one starting with prefix."""
        deadline = None if timeout is None else time.monotonic() + timeout
        lines = []
        while True:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise EngineError(f"{self.name}: no '{prefix}' within {timeout} s", lines)
            try:
                line = self.read_line(left)
            except EngineError as e:
                raise EngineError(str(e), lines) from None
            if line is None:
                continue
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close_input(self):
        """Ends the engine's input (end of file: what a GUI that went away leaves)."""
        try:
            self.proc.stdin.close()
        except OSError:
            pass

    def rest(self):
        """Every line until the output ends (after quit): the engine's last words."""
        lines = []
        while not self._ended:
            try:
                lines.append(self.read_line())
            except EngineError:
                break
        return lines

    # The protocol's steps.
    def handshake(self, timeout=None):
        self.send('uci')
        return self.wait_for('uciok', timeout)

    def isready(self, timeout=None):
        self.send('isready')
        return self.wait_for('readyok', timeout)

    def set_option(self, name, value=None):
        self.send(f'setoption name {name}' + ('' if value is None else f' value {value}'))

    def new_game(self):
        self.send('ucinewgame')

    def position(self, spec, moves=()):
        """spec: 'startpos' or 'fen FEN' (a bare FEN gets the word)."""
        if spec != 'startpos' and not spec.startswith('fen '):
            spec = 'fen ' + spec
        self.send(f'position {spec}' + (' moves ' + ' '.join(moves) if moves else ''))

    def go(self, limits, timeout=None):
        """`go LIMITS`; the lines up to and including bestmove."""
        self.send(f'go {limits}')
        return self.wait_for('bestmove', timeout)

    def quit(self, timeout=30):
        """`quit`; the exit status (the process is killed when it has not ended after timeout seconds)."""
        if self.proc.poll() is None:
            try:
                self.send('quit')
            except EngineError:
                pass
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise EngineError(f'{self.name}: did not exit within {timeout} s of quit (killed)')

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        if self.proc.poll() is None:
            try:
                self.quit(timeout=10)
            except EngineError:
                pass
        return False


def last_info_nodes(lines):
    """The node count of the last `info ... nodes N` line, or None."""
    for line in reversed(lines):
        words = line.split()
        if words[:1] == ['info'] and 'nodes' in words[:-1]:
            return int(words[words.index('nodes') + 1])
    return None
