#!/usr/bin/env python3
"""README.md's examples are real: every fenced block that shows a command (`$ build/quince …`) or a UCI
session (`> uci` …) is run, and its output must be what the README shows; `…` stands for any number of
lines. A deterministic example (a fixed depth or node count, one thread: every example without
--movetime) must match word for word, times and speeds excepted (the word after `time` and `nps`, a
number of seconds like `0.07s`, and the nodes-per-second column after it): its scores, node counts and
moves change only with the search, and are regenerated with `bench`'s signature. Others need only the
same shape: numbers, moves (UCI or SAN, a line of them counting as one) and FENs free to differ. Exits
non-zero naming the first line that differs in each example.

    python3 tests/docs/readme_examples_test.py build/quince README.md
"""
import os
import re
import shlex
import subprocess
import sys

engine, readme_path = os.path.abspath(sys.argv[1]), sys.argv[2]
# Commands run from the repository root, where the README's relative paths point.
ROOT = os.path.dirname(os.path.abspath(readme_path))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "tools"))
from uci_engine import Engine, EngineError  # noqa: E402  (tools/uci_engine/)
text = open(readme_path, encoding="utf-8").read()
blocks = re.findall(r"^```[a-z]*\n(.*?)^```", text, re.M | re.S)
failures = []
SANITIZED = bool(os.environ.get("QUINCE_SANITIZED"))
SANITIZED_GAME_DEPTH = 10

NUMBER = re.compile(r"^[+-]?(\d+(\.\d+)?|\.\d+)[kMs%]?$")
UCI_MOVE = re.compile(r"^[a-h][1-8][a-h][1-8][qrbn]?$")
SAN_MOVE = re.compile(r"^([KQRBN][a-h]?[1-8]?x?[a-h][1-8]|[a-h](x[a-h])?[1-8](=[QRBN])?|O-O(-O)?)[+#]?([?!]{1,2})?$")
MOVE_NUMBER = re.compile(r"^\d+\.(\.\.)?$")


def shape(line):
    """The words of a line with the parts that change from run to run replaced by their kind."""
    out = []
    for word in line.split():
        lead = re.match(r"^[(\[\"]*", word).group(0)  # a PGN tag's value is a quoted word: [WhiteACPL "5"]
        trail = re.search(r"[\")\],:;]*$", word).group(0)
        core = word[len(lead):len(word) - len(trail)] if trail else word[len(lead):]
        if UCI_MOVE.match(core) or SAN_MOVE.match(core) or MOVE_NUMBER.match(core):
            kind = "<move>"
        elif NUMBER.match(core) or re.match(r"^[+-]M\d+$", core):
            kind = "<number>"
        else:
            kind = core
        token = lead + kind + trail
        # A line of moves is one token, however long.
        if kind == "<move>" and out and out[-1] == "<move>" and not lead and not trail:
            continue
        out.append(token)
    return out


SECONDS = re.compile(r"^\d+(\.\d+)?s[,:;)]*$")


def exact(line):
    """The words of a line with the timing ones (which change from run to run) blanked."""
    words = line.split()
    free = set()
    for i, w in enumerate(words):
        if i > 0 and words[i - 1] in ("nps", "time"):
            free.add(i)
        if SECONDS.match(w):
            free.add(i)
            # The analyse table: time, nodes, nodes per second.
            if i + 2 < len(words) and NUMBER.match(words[i + 1]) and NUMBER.match(words[i + 2]):
                free.add(i + 2)
    return [("<time>" if i in free else w) for i, w in enumerate(words)]


def compare(name, shown, got, strict=False):
    shape_of = exact if strict else shape
    """shown: README lines (with '…' gaps); got: output lines. The first differing line, or None."""
    parts, part = [], []
    for line in shown:
        if line.strip() == "…":
            parts.append(part)
            part = []
        else:
            part.append(line)
    parts.append(part)
    at = 0
    for i, part in enumerate(parts):
        if i == 0:
            window = got[:len(part)]
        else:  # after a gap: the lines that follow, found by their first line's shape
            starts = [j for j in range(at, len(got) - len(part) + 1) if part and shape_of(got[j]) == shape_of(part[0])]
            if part and not starts:
                return f"{name}: no output line after '…' has the shape of {part[0]!r}"
            window = got[starts[-1]:starts[-1] + len(part)] if part else []
            at = starts[-1] if part else at
        for want, have in zip(part, window):
            if shape_of(want) != shape_of(have):
                return f"{name}: README shows {want!r}\n    the program printed {have!r}"
        if len(window) < len(part):
            return f"{name}: the output ended before {part[len(window)]!r}"
        at += len(part)
    if at != len(got) and parts[-1]:
        return f"{name}: the output goes on after the last line shown: {got[at:at + 3]!r}"
    return None


checked = 0
for block in blocks:
    lines = block.rstrip("\n").split("\n")
    if lines[0].startswith("$ build/quince "):
        argv = shlex.split(lines[0][2:])
        argv[0] = engine
        strict = "--movetime" not in argv
        # A sanitizer build (QUINCE_SANITIZED) runs the engine 5-30x slower: a whole game's analysis searches
        # shallower there and is compared by its shape; the other builds check the README's numbers.
        if SANITIZED and argv[1] == "analyse" and argv[2].endswith(".pgn") and "--depth" in argv:
            at = argv.index("--depth") + 1
            argv[at] = str(min(int(argv[at]), SANITIZED_GAME_DEPTH))
            strict = False
        run = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=ROOT)
        if run.returncode != 0:
            failures.append(f"{lines[0]}: exit status {run.returncode}: {run.stderr.strip()}")
            continue
        failure = compare(lines[0], lines[1:], run.stdout.rstrip("\n").split("\n"), strict=strict)
    elif len(lines) == 1 and lines[0].startswith("build/quince ") and " > " in lines[0]:
        # A command whose output goes to a file (`… --svg … > board.svg`): it runs and writes that kind of file.
        command, _, target = lines[0].rpartition(" > ")
        argv = shlex.split(command)
        argv[0] = engine
        run = subprocess.run(argv, capture_output=True, text=True, timeout=600, cwd=ROOT)
        failure = None
        if run.returncode != 0:
            failure = f"{lines[0]}: exit status {run.returncode}: {run.stderr.strip()}"
        elif target.endswith(".svg") and not re.match(r"^(<\?xml[^>]*>\s*)?<svg", run.stdout):
            failure = f"{lines[0]}: the output is not an SVG picture: {run.stdout[:80]!r}"
    elif lines[0].startswith("> uci"):
        # A UCI session: '>' lines are typed, one at a time, each answered before the next is sent.
        e = Engine(engine, cwd=ROOT)
        got, shown = [], []
        answer_to = {"uci": "uciok", "isready": "readyok", "go": "bestmove"}
        for line in lines:
            if not line.startswith("> "):
                shown.append(line)
                continue
            command = line[2:]
            e.send(command)
            until = answer_to.get(command.split()[0])
            if until:
                try:
                    answer = e.wait_for(until, e.search_timeout if until == "bestmove" else e.timeout)
                except EngineError as err:  # the output ended: compare what came
                    answer = err.lines
                got += [l for l in answer if not l.startswith("option ")]  # the README leaves them out
        e.close_input()
        got += [l for l in e.rest() if not l.startswith("option ")]
        e.close()
        deterministic = not any(l.startswith("> go") and "movetime" in l for l in lines)
        failure = compare("the UCI session", shown, got, strict=deterministic)
    else:
        continue
    checked += 1
    if failure:
        failures.append(failure)

if checked < 2:
    failures.append(f"only {checked} examples found in {readme_path}")
for f in failures:
    print("FAIL:", f)
print(f"{checked} README examples run; {len(failures)} differ")
sys.exit(1 if failures else 0)
