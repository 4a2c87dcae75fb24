#!/usr/bin/env python3
"""`quince analyse GAMES.pgn --out FILE` interrupted by Ctrl-C (SIGINT) and fed bad input: the user's work
survives.

    python3 tests/cli/analyse_interrupt_test.py build/quince tests/data/pgn

1. SIGINT inside the second game (its progress line, on a pseudo-terminal, says where): exit status 1,
   --out holds game 1 fully analysed and game 2 with all its moves, marked partial (the Analysis tag, a
   comment where the analysis stops, evals up to there only), no temporary file is left, stderr says so.
2. SIGINT at once: --out, which held other text, holds it still (nothing was analysed).
3. A file whose only game is broken: --out unchanged, the error named, exit status 1.
Exit status 1 on any failure.
"""
import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import time

ENGINE, DATA = sys.argv[1], sys.argv[2]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def games_of(text):
    """The games of a PGN text as (tags, movetext) pairs."""
    games = []
    for block in re.split(r"\n\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        movetext = block.split("\n\n", 1)[1] if "\n\n" in block else ""
        games.append((tags, movetext))
    return games


def leftovers(folder, keep):
    return [f for f in os.listdir(folder) if f != keep and f != "input.pgn"]


with tempfile.TemporaryDirectory() as folder:
    # Game 1: a short game; game 2: the Opera game (33 plies).
    with open(os.path.join(DATA, "famous.pgn"), encoding="utf-8") as f:
        famous = f.read()
    opera = famous.split("\n\n[Event")[0].strip() + "\n"
    short = '[Event "Short"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n'
    source = os.path.join(folder, "input.pgn")
    with open(source, "w", encoding="utf-8") as f:
        f.write(short + "\n" + opera)
    out = os.path.join(folder, "keep.pgn")
    with open(out, "w", encoding="utf-8") as f:
        f.write("precious\n")

    # 1. SIGINT inside game 2. Its stderr is a terminal (a pseudo-terminal here), so it shows which
    # position it searches: the signal comes once game 2's sixth position is begun.
    master, slave = pty.openpty()
    # The budget keeps game 2 running well past its sixth position; the sanitizer builds (QUINCE_SANITIZED,
    # scripts/test.sh) search 5-30x slower, so a fifth of it does there.
    nodes = "60000" if os.environ.get("QUINCE_SANITIZED") else "300000"
    p = subprocess.Popen([ENGINE, "analyse", source, "--out", out, "--nodes", nodes, "--hash", "8"],
                         stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = ""
    deadline = time.monotonic() + 600  # a hang watchdog, not a speed bound
    while time.monotonic() < deadline and p.poll() is None:
        if select.select([master], [], [], 0.05)[0]:
            try:
                seen += os.read(master, 4096).decode(errors="replace")
            except OSError:
                break
        at = re.findall(r"game 2/2, position (\d+)/34", seen)
        if at and int(at[-1]) >= 6:
            break
    check(p.poll() is None, f"the analysis was still running inside game 2: {seen!r}")
    p.send_signal(signal.SIGINT)
    stdout = p.communicate(timeout=120)[0]
    stderr = ""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        stderr += chunk.decode(errors="replace")
    os.close(master)
    stderr = stderr.replace("\r", "")
    check(p.returncode == 1, f"exit status 1 after SIGINT, got {p.returncode}: {stderr}")
    check(stdout == b"", "nothing on stdout with --out")
    check(leftovers(folder, "keep.pgn") == [], f"no temporary file left: {leftovers(folder, 'keep.pgn')}")
    with open(out, encoding="utf-8") as f:
        text = f.read()
    games = games_of(text)
    check("precious" not in text, "the analysis replaced the file's old content")
    check(len(games) == 2, f"two games written, got {len(games)}:\n{text}")
    check("interrupted in game 2 after" in stderr, f"stderr names the interrupted game: {stderr}")
    if len(games) == 2:
        (tags1, moves1), (tags2, moves2) = games
        check(tags1.get("Event") == "Short" and "Analysis" not in tags1, "game 1 complete, not marked partial")
        check(moves1.count("[%eval") == 4, f"game 1 has an eval after each of its 4 moves:\n{moves1}")
        partial = re.fullmatch(r"partial: (\d+) of 33 moves", tags2.get("Analysis", ""))
        check(partial is not None, f"game 2 is marked partial: {tags2}")
        analysed = int(partial.group(1)) if partial else -1
        check(analysed >= 4, "game 2 has its moves before the sixth position analysed")
        check(moves2.count("[%eval") == analysed, f"game 2 has {analysed} evals:\n{moves2}")
        check("The analysis was interrupted here" in moves2, "a comment marks where the analysis stops")
        check("17. Rd8# 1-0" in moves2.replace("\n", " "), "game 2 keeps all its moves, to the mate")
        check(f"after {analysed} of 33 moves" in stderr, f"stderr counts the analysed moves: {stderr}")
        check(f"2 games written to '{out}'" in stderr, f"stderr names the file: {stderr}")

    # 2. SIGINT at once: nothing analysed, the old file stays.
    with open(out, "w", encoding="utf-8") as f:
        f.write("precious\n")
    p = subprocess.Popen([ENGINE, "analyse", source, "--out", out, "--nodes", "300000", "--hash", "8"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.send_signal(signal.SIGINT)
    _, stderr = p.communicate(timeout=120)
    with open(out, encoding="utf-8") as f:
        check(f.read() == "precious\n", f"an interrupt before any move is judged leaves --out as it was: {stderr}")
    check(p.returncode != 0, "exit status after an immediate SIGINT")
    check(leftovers(folder, "keep.pgn") == [], f"no temporary file left: {leftovers(folder, 'keep.pgn')}")

    # 3. The only game is broken: --out unchanged.
    with open(source, "w", encoding="utf-8") as f:
        f.write('[Event "Broken"]\n\n1. e4 e5 2. Ke3 1-0\n')
    p = subprocess.run([ENGINE, "analyse", source, "--out", out, "--nodes", "1000"], capture_output=True, timeout=120)
    stderr = p.stderr.decode()
    with open(out, encoding="utf-8") as f:
        check(f.read() == "precious\n", "a file without a readable game leaves --out as it was")
    check(p.returncode == 1, f"exit status 1 for a broken game, got {p.returncode}")
    check("game 1, line 3: illegal move '2. Ke3'" in stderr, f"the error names game, line and move: {stderr}")
    check(leftovers(folder, "keep.pgn") == [], "no temporary file left")

print("FAILED" if failures else "OK", f"({len(failures)} failures)")
sys.exit(1 if failures else 0)
