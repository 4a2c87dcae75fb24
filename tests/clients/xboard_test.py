#!/usr/bin/env python3
"""Quince in the xboard world: Debian's `polyglot` adapter and Debian's `xboard` GUI.

    tests/clients/xboard_test.py path/to/quince [OUT_DIR] [--xboard-games N] [--overhead MS]

1. Scripted xboard-protocol game: two `polyglot` processes, each running Quince through the project's ini
   (docs/polyglot.ini with EngineCommand pointed at the binary), play a game at 5 s + 0.05 s per move, the
   script relaying moves as an xboard GUI does (`time`/`otim` before each move, `usermove` when the adapter
   announces it). Each adapter checks the other's moves with its own move generator and would answer
   `Illegal move`; the game must end by the rules or a result claim, or reach 300 plies.
2. The same ini in the xboard GUI itself under Xvfb: a one-game match at 40 moves in 8 s (`-tc 0:08` with
   xboard's default 40 moves a period; both sides ponder, xboard's default; drawn by xboard after 60 moves
   when not decided before), the game saved by xboard as PGN
   (a result not on time, moves), and a screenshot of the screen during the game (OUT_DIR/xboard.png, with
   the PGN and the polyglot transcript). xboard charges each move with its own and polyglot's relay time,
   75-100 ms here whatever the engine took; the ini's `Move Overhead = 100` covers it (at 30, Quince lost on
   time in 10 of 16 such games; docs/results.md, "xboard's lag").

`--xboard-games N` plays N xboard games (checks for each; to count losses on time), `--overhead MS` replaces
the ini's Move Overhead (in both parts) as a user editing it would.

Needs polyglot, xboard, Xvfb and ImageMagick's `import` (scripts/deps.sh clients installs them).
Exit code 0 = all checks passed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "support"))
import checks  # noqa: E402  (tests/support/checks.py)
from checks import ROOT, Engine, EngineError, check  # noqa: E402  (Engine: tools/uci_engine/)


def find(tool):
    return checks.find_tool(tool, "scripts/deps.sh clients installs it")


def set_ini_line(text, key, value):
    """The ini's `key = ...` line set to value (the line must be there once)."""
    text, n = re.subn(rf"^{re.escape(key)} = .*$", f"{key} = {value}", text, flags=re.M)
    assert n == 1, f"docs/polyglot.ini has no {key} line"
    return text


def write_ini(engine, folder, name, overhead=None):
    """docs/polyglot.ini as a user would edit it: EngineCommand = the binary, Move Overhead = overhead if
    given; the rest unchanged."""
    text = open(os.path.join(ROOT, "docs", "polyglot.ini"), encoding="utf-8").read()
    text = set_ini_line(text, "EngineCommand", engine)
    if overhead is not None:
        text = set_ini_line(text, "Move Overhead", overhead)
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


class Adapter:
    """One polyglot process spoken to in the xboard protocol (through the project's line driver,
    tools/uci_engine/), with a transcript of both directions."""

    def __init__(self, polyglot, ini, folder):
        self.process = Engine([polyglot, ini], name="polyglot", stderr="stdout", cwd=folder)
        self.transcript = []

    def send(self, text):
        self.transcript.append("> " + text)
        self.process.send(text)

    def wait_for(self, pattern, timeout):
        """The first line matching pattern (a regex), or None after timeout seconds (0: only the lines
        already read) or at the end of the output. Lines before it are consumed."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self.process.read_line(max(0.0, deadline - time.monotonic()))
            except EngineError:  # the output ended
                return None
            if line is None:
                return None
            self.transcript.append("< " + line)
            if re.search(pattern, line):
                return line

    def close(self):
        """quit; the exit status (the process is killed when it has not ended after 5 s)."""
        self.transcript.append("> quit")
        return self.process.close(timeout=5)


RESULT = r"^(1-0|0-1|1/2-1/2) \{"
MOVE_OR_END = r"^move |^resign|^Illegal move|^Error|" + RESULT[1:]


def scripted_game(polyglot, engine, folder, overhead=None):
    ini = write_ini(engine, folder, "quince.ini", overhead)
    white, black = Adapter(polyglot, ini, folder), Adapter(polyglot, ini, folder)
    usermove = {}
    for name, a in (("white", white), ("black", black)):
        a.send("xboard")
        a.send("protover 2")
        features, done = [], None
        deadline = time.monotonic() + 10
        while done is None and time.monotonic() < deadline:
            line = a.wait_for(r"^feature ", deadline - time.monotonic())
            if line is None:
                break
            features.append(line)
            if "done=1" in line:
                done = line
        text = " ".join(features)
        check(done is not None, f"{name} adapter: protover 2 features end with done=1")
        check('myname="Quince' in text, f"{name} adapter names the engine Quince")
        usermove[name] = "usermove=1" in text
        for cmd in ("accepted usermove", "new", "level 0 0:05 0.05", "post", "easy"):
            a.send(cmd)
    clocks = {"white": 500, "black": 500}  # centiseconds, as xboard sends them
    inc = 5
    moves, end, problem = [], None, None
    white.send("time 500")
    white.send("otim 500")
    white.send("go")
    mover, other = ("white", white), ("black", black)
    while len(moves) < 300:
        started = time.monotonic()
        line, who = None, mover[0]
        deadline = started + clocks[mover[0]] / 100 + 5
        # The mover answers with its move; a rule ending (mate, stalemate, repetition, fifty moves) may be
        # announced by either adapter, so the other one is listened to as well.
        while line is None and time.monotonic() < deadline:
            line = mover[1].wait_for(MOVE_OR_END, 0.05)
            if line is None:
                line = other[1].wait_for(RESULT, 0)
                who = other[0] if line else mover[0]
        if line is None:
            problem = f"{mover[0]} gave no move within its clock"
            break
        if not line.startswith("move "):
            end = line if re.match(RESULT, line) or line.startswith("resign") else None
            problem = None if end else f"{who}: {line}"
            break
        clocks[mover[0]] -= int((time.monotonic() - started) * 100) - inc
        if clocks[mover[0]] <= 0:
            problem = f"{mover[0]} lost on time after {len(moves)} plies"
            break
        move = line.split()[1]
        moves.append(move)
        # The other adapter hears the move as a GUI sends it, with both clocks first.
        other[1].send(f"time {clocks[other[0]]}")
        other[1].send(f"otim {clocks[mover[0]]}")
        other[1].send(("usermove " if usermove[other[0]] else "") + move)
        mover, other = other, mover
    codes = (white.close(), black.close())
    transcript = white.transcript + ["----- black -----"] + black.transcript
    with open(os.path.join(folder, "polyglot_transcript.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(transcript) + "\n")
    check(problem is None, f"polyglot game: {len(moves)} plies, no illegal move, no lost clock"
          + (f" (problem: {problem})" if problem else ""))
    check(not any("Illegal move" in t for t in transcript), "no adapter answered Illegal move")
    check(end is not None or len(moves) >= 300, f"polyglot game ended: {end or 'ply limit'}")
    check(codes == (0, 0), f"both adapters exit cleanly on quit (codes {codes})")
    return moves


# xboard declares the game drawn after this many moves: a game that would go on to the fifty-move rule (300
# plies, a minute) ends within about 25 s, well inside the 90 s the match is given.
DRAW_AFTER_MOVES = 60


def xboard_game(xboard, polyglot, engine, folder, out_dir, overhead=None):
    ini = write_ini(engine, folder, "quince.ini", overhead)
    xvfb = find("Xvfb")
    importer = find("import")
    # Xvfb picks a free display itself and writes its number to the pipe (-displayfd).
    read_end, write_end = os.pipe()
    server = subprocess.Popen([xvfb, "-displayfd", str(write_end), "-screen", "0", "1024x768x24", "-nolisten", "tcp"],
                              pass_fds=(write_end,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        display = ":" + pipe.readline().strip()
    env = dict(os.environ, DISPLAY=display, HOME=folder)  # xboard keeps its settings file in HOME
    pgn = os.path.join(folder, "xboard.pgn")
    shot = os.path.join(out_dir, "xboard.png")
    try:
        check(server.poll() is None and display != ":", f"Xvfb runs on display {display}")
        cmd = [xboard, "-fcp", f"{polyglot} {ini}", "-fd", folder, "-scp", f"{polyglot} {ini}", "-sd", folder,
               "-matchGames", "1", "-tc", "0:08", "-adjudicateDrawMoves", str(DRAW_AFTER_MOVES), "-saveGameFile", pgn,
               "-autoCallFlag", "true", "-popupExitMessage", "false", "-showThinking", "true",
               "-debugMode", "true", "-nameOfDebugFile", os.path.join(folder, "xboard.debug")]
        gui = subprocess.Popen(cmd, cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        time.sleep(6)  # a few moves into the game
        subprocess.run([importer, "-display", display, "-window", "root", shot], check=False,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            gui.wait(timeout=90)  # 40 moves in 8 s a side; then xboard ends the match and exits
        except subprocess.TimeoutExpired:
            gui.kill()
            gui.wait()
            check(False, "xboard ended the one-game match within 90 s")
    finally:
        server.terminate()
        server.wait()
    check(os.path.exists(shot) and os.path.getsize(shot) > 10000, f"screenshot of the game: {shot}")
    text = open(pgn, encoding="utf-8").read() if os.path.exists(pgn) else ""
    result = re.search(r'^\[Result "([^"]*)"\]', text, re.M)
    check(result is not None and result.group(1) in ("1-0", "0-1", "1/2-1/2"),
          f"xboard saved the game with a result ({result.group(1) if result else 'no PGN'})")
    check(re.search(r'\[White "Quince', text) is not None, "the PGN names Quince as White")
    movetext = text.split("\n\n", 1)[-1]
    ending = re.findall(r"\{([^}]*)\}\s*(?:1-0|0-1|1/2-1/2)\s*$", movetext)
    check(bool(ending) and "time" not in ending[-1].lower(), f"the game did not end on time ({ending[-1] if ending else '?'})")
    plies = len(re.findall(r"\b[NBRQK]?[a-h]?[1-8]?x?[a-h][1-8](?:=[NBRQ])?[+#]?|\bO-O(?:-O)?",
                           re.sub(r"\{[^}]*\}", " ", movetext)))
    check(plies >= 20, f"the game has moves ({plies} plies)")
    debug = os.path.join(folder, "xboard.debug")
    log = open(debug, encoding="utf-8", errors="replace").read() if os.path.exists(debug) else ""
    check("Illegal move" not in log, "xboard's debug log has no Illegal move")
    if os.path.exists(pgn):
        shutil.copy(pgn, os.path.join(out_dir, "xboard.pgn"))


def main():
    parser = argparse.ArgumentParser(description="Quince through polyglot and in xboard under Xvfb.")
    parser.add_argument("engine", nargs="?", default=os.path.join(ROOT, "build", "quince"))
    parser.add_argument("out_dir", nargs="?")
    parser.add_argument("--xboard-games", type=int, default=1, help="xboard games to play (default 1)")
    parser.add_argument("--overhead", type=int, help="Move Overhead in ms instead of the ini's")
    args = parser.parse_args()
    engine = os.path.abspath(args.engine)
    out_dir = os.path.abspath(args.out_dir or os.path.dirname(engine))
    os.makedirs(out_dir, exist_ok=True)
    polyglot, xboard = find("polyglot"), find("xboard")
    with tempfile.TemporaryDirectory() as folder:
        scripted_game(polyglot, engine, folder, args.overhead)
        shutil.copy(os.path.join(folder, "polyglot_transcript.txt"), out_dir)
    for _ in range(args.xboard_games):
        with tempfile.TemporaryDirectory() as folder:
            xboard_game(xboard, polyglot, engine, folder, out_dir, args.overhead)
    return checks.summary("xboard/polyglot")


if __name__ == "__main__":
    sys.exit(main())
