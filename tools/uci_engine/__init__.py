"""One UCI engine process driven from Python: the driver every Python tool and test of the project uses
(tools/uci_engine/README.md). Starting an engine, reading its lines with a deadline, noticing that it
died, parsing its search output and ending it are written here once.

    sys.path.insert(0, os.path.join(ROOT, 'tools'))
    import uci_engine
    with uci_engine.Engine('build/quince') as e:
        e.handshake()                          # uci ... uciok
        e.set_option('Hash', 16)
        e.isready()
        e.position('startpos', ['e2e4'])
        r = e.go(depth=8)                      # r.bestmove, r.score, r.depth, r.nodes, r.pv, r.lines
"""
import os
import queue
import subprocess
import threading
import time

ANSWER_TIMEOUT = 60.0    # seconds for an answer owed at once (uciok, readyok, the exit after quit)
SEARCH_TIMEOUT = 600.0   # seconds for a search's bestmove

# `info` fields holding one integer; `pv`, `refutation` and `currline` hold moves up to the next field name.
_INT_FIELDS = {'depth', 'seldepth', 'multipv', 'nodes', 'nps', 'time', 'hashfull', 'tbhits', 'sbhits',
               'cpuload', 'currmovenumber'}
_FIELDS = _INT_FIELDS | {'score', 'wdl', 'pv', 'currmove', 'string', 'refutation', 'currline',
                         'lowerbound', 'upperbound'}


def quince_binary():
    """The Quince the scripts drive unless told otherwise: $QUINCE_BIN, else build/quince."""
    return os.environ.get('QUINCE_BIN', 'build/quince')


class EngineError(RuntimeError):
    """The engine could not be started, died, closed its output, or did not answer within the time
    allowed. `lines`: what a wait had read before it failed."""

    def __init__(self, message, lines=()):
        super().__init__(message)
        self.lines = list(lines)


def _int(word):
    try:
        return int(word)
    except ValueError:
        return None


def parse_info(line):
    """The fields of one `info ...` line as a dict: integers for depth, seldepth, multipv, nodes, nps,
    time, hashfull, tbhits...; 'score' as ('cp' | 'mate', N); 'bound' 'lowerbound' or 'upperbound' when
    the score is one; 'wdl' (W, D, L); 'pv' a list of moves; 'currmove'; 'string' the rest of the line.
    A field whose value does not parse is left out (an engine's typo is not the caller's crash)."""
    words = line.split()
    info = {}
    i = 1 if words[:1] == ['info'] else 0
    while i < len(words):
        key = words[i]
        i += 1
        if key in _INT_FIELDS:
            value = _int(words[i]) if i < len(words) else None
            if value is not None:
                info[key] = value
                i += 1
        elif key == 'score':
            if i + 1 < len(words) and words[i] in ('cp', 'mate') and _int(words[i + 1]) is not None:
                info['score'] = (words[i], int(words[i + 1]))
                i += 2
        elif key in ('lowerbound', 'upperbound'):
            info['bound'] = key
        elif key == 'wdl':
            values = [_int(w) for w in words[i:i + 3]]
            if len(values) == 3 and None not in values:
                info['wdl'] = tuple(values)
                i += 3
        elif key == 'currmove':
            if i < len(words):
                info['currmove'] = words[i]
                i += 1
        elif key == 'string':
            info['string'] = line.split('string', 1)[1].strip()
            break
        elif key in ('pv', 'refutation', 'currline'):
            moves = []
            while i < len(words) and words[i] not in _FIELDS:
                moves.append(words[i])
                i += 1
            info[key] = moves
    return info


class SearchResult:
    """What one search said: `lines` (every line read, up to and including `bestmove`), `bestmove` (the
    word as sent: a move, '0000', or '(none)' from some engines; None when the line has no move), `ponder`,
    `info` (the fields of the last principal-line info with an exact score: multipv 1 or none, not a
    bound; {} when there was none) and `nodes` (of the last info line that counts them: the search's
    total). `score`, `depth`, `seldepth` and `pv` read `info`."""

    def __init__(self, lines):
        self.lines = list(lines)
        words = self.lines[-1].split() if self.lines else []
        self.bestmove = words[1] if len(words) > 1 else None
        self.ponder = words[3] if len(words) > 3 and words[2] == 'ponder' else None
        self.info = {}
        self.nodes = None
        for line in self.lines:
            if not line.startswith('info '):
                continue
            fields = parse_info(line)
            if 'nodes' in fields:
                self.nodes = fields['nodes']
            if 'score' in fields and 'bound' not in fields and fields.get('multipv', 1) == 1:
                self.info = fields

    score = property(lambda self: self.info.get('score'))
    depth = property(lambda self: self.info.get('depth'))
    seldepth = property(lambda self: self.info.get('seldepth'))
    pv = property(lambda self: self.info.get('pv', []))

    def __repr__(self):
        return f'SearchResult(bestmove={self.bestmove!r}, score={self.score}, depth={self.depth}, nodes={self.nodes})'


def go_limits(limits='', **kw):
    """The words after `go`: limits as written ('depth 8'), then keyword limits: depth=8 -> 'depth 8',
    infinite=True -> 'infinite', searchmoves=['e2e4', 'd2d4'] -> 'searchmoves e2e4 d2d4'."""
    words = [limits] if limits else []
    for key, value in kw.items():
        if value is True:
            words.append(key)
        elif isinstance(value, (list, tuple)):
            words.append(key + ' ' + ' '.join(value))
        elif value is not None and value is not False:
            words.append(f'{key} {value}')
    return ' '.join(words)


class Engine:
    """One engine process. Every wait has a deadline: `timeout` (seconds) for the answers owed at once,
    `search_timeout` for a bestmove; a call's own timeout replaces them. The process is ended by close()
    (quit, then killed when it does not exit), also on leaving a `with` block."""

    def __init__(self, command, name='engine', stderr='inherit', cwd=None, env=None,
                 timeout=ANSWER_TIMEOUT, search_timeout=SEARCH_TIMEOUT):
        """command: the binary's path or a list (e.g. ['wine', 'quince.exe']). stderr: 'inherit' (the
        caller's), 'pipe' (kept in self.stderr, its end quoted in errors), 'stdout' (read as output lines)
        or 'null' (dropped)."""
        self.name = name
        self.command = [command] if isinstance(command, str) else list(command)
        self.timeout = timeout
        self.search_timeout = search_timeout
        err = {'inherit': None, 'pipe': subprocess.PIPE, 'stdout': subprocess.STDOUT,
               'null': subprocess.DEVNULL}[stderr]
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err,
                                         text=True, errors='replace', bufsize=1, cwd=cwd, env=env)
        except OSError as e:
            raise EngineError(f'{name}: cannot start {" ".join(self.command)}: {e.strerror or e}') from None
        self.stderr = []  # stderr lines, with stderr='pipe'
        self._lines = queue.Queue()
        self._ended = False
        threading.Thread(target=self._read, daemon=True).start()
        if stderr == 'pipe':
            threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read(self):  # the only reader of stdout: it closes the pipe at its end
        with self.proc.stdout:
            for line in self.proc.stdout:
                self._lines.put(line.rstrip('\r\n'))
        self._lines.put(None)

    def _read_stderr(self):
        with self.proc.stderr:
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

    # Raw lines: what a fuzzer or a protocol test sends and reads itself.
    def send(self, line):
        """Writes one line (the line end is added). EngineError when the engine cannot be written to."""
        try:
            self.proc.stdin.write(line + '\n')
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(f'{self.name}: cannot write (the engine died?){self.report()}') from None

    def _ended_error(self, lines=()):
        try:
            self.proc.wait(timeout=5)  # the exit status, for report()
        except subprocess.TimeoutExpired:
            pass
        return EngineError(f'{self.name}: output ended (the engine died?){self.report()}', lines)

    def read_line(self, timeout=None):
        """The next output line without its line end ('\\r\\n' from a Windows build too); None when
        timeout seconds (default self.timeout) pass first; EngineError when the output has ended."""
        if self._ended:
            raise self._ended_error()
        try:
            line = self._lines.get(timeout=self.timeout if timeout is None else max(0.0, timeout))
        except queue.Empty:
            return None
        if line is None:
            self._ended = True
            raise self._ended_error()
        return line

    def wait_for(self, prefix, timeout=None):
        """The lines read up to and including the first one starting with prefix (a string or a tuple of
        them); EngineError (with .lines) when timeout seconds (default self.timeout) pass first or the
        output ends."""
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            try:
                line = self.read_line(max(0.0, deadline - time.monotonic()))  # (the lines already read, at 0)
            except EngineError as e:
                raise EngineError(str(e), lines) from None
            if line is None:
                shown = prefix if isinstance(prefix, str) else "' or '".join(prefix)
                raise EngineError(f"{self.name}: no '{shown}' within {timeout:g} s", lines)
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def close_input(self):
        """Ends the engine's input (end of file: what a GUI that went away leaves)."""
        try:
            self.proc.stdin.close()
        except (OSError, ValueError):
            pass

    def rest(self, timeout=None):
        """Every line until the output ends (after quit: the engine's last words), or until timeout
        seconds (default self.timeout) have passed."""
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        lines = []
        while not self._ended and time.monotonic() < deadline:
            try:
                line = self.read_line(deadline - time.monotonic())
            except EngineError:
                break
            if line is not None:
                lines.append(line)
        return lines

    # The protocol's steps.
    def setup(self, options=()):
        """handshake(), each (name, value) of options set, isready(): ready for a first position. Returns
        self, for `e = Engine(path).setup([('Hash', 16)])`."""
        self.handshake()
        for name, value in options:
            self.set_option(name, value)
        self.isready()
        return self

    def handshake(self, timeout=None):
        """`uci`; the lines up to and including uciok (id, option)."""
        self.send('uci')
        return self.wait_for('uciok', timeout)

    def isready(self, timeout=None):
        """`isready`; the lines up to and including readyok."""
        self.send('isready')
        return self.wait_for('readyok', timeout)

    def set_option(self, name, value=None):
        """`setoption name NAME [value VALUE]` (no value: a button). Follow with isready() to learn of errors."""
        self.send(f'setoption name {name}' + ('' if value is None else f' value {value}'))

    def new_game(self):
        self.send('ucinewgame')

    def position(self, spec='startpos', moves=()):
        """spec: 'startpos', 'fen FEN' or a bare FEN (it gets the word); moves: UCI moves played from it."""
        if not (spec.startswith('startpos') or spec.startswith('fen ')):
            spec = 'fen ' + spec
        self.send(f'position {spec}' + (' moves ' + ' '.join(moves) if moves else ''))

    def go(self, limits='', timeout=None, wait=True, **kw):
        """`go LIMITS` (see go_limits: go('depth 8') or go(depth=8)); the SearchResult, read within timeout
        seconds (default self.search_timeout). wait=False only sends it: end the search with stop() (or
        wait_bestmove() for one that ends itself)."""
        self.send(('go ' + go_limits(limits, **kw)).rstrip())
        return self.wait_bestmove(timeout) if wait else None

    def wait_bestmove(self, timeout=None):
        """The SearchResult of the running search (timeout default self.search_timeout)."""
        return SearchResult(self.wait_for('bestmove', self.search_timeout if timeout is None else timeout))

    def stop(self, timeout=None):
        """`stop`; the SearchResult of the search it ends (timeout default self.timeout: it is owed at once)."""
        self.send('stop')
        return SearchResult(self.wait_for('bestmove', timeout))

    def quit(self, timeout=None):
        """`quit`; the exit status. A process not ended after timeout seconds (default self.timeout) is
        killed and EngineError raised."""
        timeout = self.timeout if timeout is None else timeout
        if self.proc.poll() is None:
            try:
                self.send('quit')
            except EngineError:
                pass
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise EngineError(f'{self.name}: did not exit within {timeout:g} s of quit (killed)') from None

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def close(self, timeout=None):
        """Ends the process whatever its state: quit, killed after timeout seconds (default self.timeout).
        Returns the exit status (negative: killed by that signal); never raises."""
        try:
            code = self.quit(timeout)
        except EngineError:
            code = self.proc.returncode
        self.close_input()  # (the output pipes are left to the reader threads, which end at their end)
        return code

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
