#!/usr/bin/env python3
"""What the engine writes, read the way a strict client reads it: everything the engine
writes is valid UTF-8, and `--json` output is valid JSON.

    python3 tests/cli/cli_output_test.py build/quince

Decodes every byte the engine writes with Python's strict UTF-8 decoder, parses every `--json` line
with the json module, and checks SAN lines against the UCI ones. Exit status 1 on any failure.
"""
import json
import subprocess
import sys

ENGINE = sys.argv[1]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(args, stdin=b""):
    p = subprocess.run([ENGINE, *args], input=stdin, capture_output=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def strict(data, what):
    try:
        return data.decode("utf-8", errors="strict")
    except UnicodeDecodeError as e:
        check(False, f"{what}: not valid UTF-8 ({e})")
        return data.decode("utf-8", errors="replace")


KNIGHT = "\u265e".encode()  # a multi-byte character where a piece letter belongs
BAD_FEN = b"rnbqkbnr/pppppppp/8/8/4" + KNIGHT + b"3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

# 1. UCI on stdin: errors that quote multi-byte characters and invalid bytes.
uci_input = b"\n".join([
    b"position fen " + BAD_FEN,
    b"position fen rnbqkbnr/pppppppp/8/8/4\xef3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    b"position fen 4k3/8/8/8/8/8/8/4K2R w K\xc3\xa9 - 0 1",
    b"setoption name SearchDisable value " + KNIGHT * 30,
    b"setoption name " + KNIGHT * 50 + b" value 1",
    b"go depth 3 searchmoves " + KNIGHT,
    b"\xff\xfe unknown",
    b"x" * 39 + KNIGHT,
    b"eval " + KNIGHT,
    b"quit",
]) + b"\n"
status, out, err = run([], uci_input)
text = strict(out, "UCI output")
errors = [l for l in text.splitlines() if l.startswith("info string error:")]
check(len(errors) == 9, f"one error line per bad command, got {len(errors)}: {errors}")
check(any("'\u265e' (U+265E)" in l for l in errors[:1]), f"the FEN error names the character: {errors[:1]}")
check(any("\\xEF" in l for l in errors), "an invalid byte is shown as \\xEF")

# 2. The command line: the same FEN as an argument; the error goes to stderr.
status, out, err = run(["eval", BAD_FEN.decode()])
check(status == 2, f"eval with a bad FEN exits 2, got {status}")
message = strict(err, "eval stderr")
check("'\u265e' (U+265E)" in message, f"stderr names the character: {message!r}")

# 3. analyse --json: JSON Lines, SAN beside UCI.
status, out, err = run(["analyse", "--json", "--depth", "6", "--multipv", "3",
                        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"])
check(status == 0, f"analyse --json exits 0, got {status}: {err!r}")
objects = [json.loads(l) for l in strict(out, "analyse --json").splitlines()]
iterations = [o for o in objects if o["type"] == "iteration"]
check([o["depth"] for o in iterations] == [1, 2, 3, 4, 5, 6], f"one object per depth: {[o['depth'] for o in iterations]}")
for o in iterations:
    check(len(o["lines"]) == 3, f"three lines per iteration: {o}")
    for line in o["lines"]:
        check(len(line["pv"]) == len(line["san"]) >= 1, f"pv and san agree in length: {line}")
        check(("white_cp" in line["score"]) != ("white_mate" in line["score"]), f"one score kind: {line}")
result = objects[-1]
check(result["type"] == "result" and result["depth"] == 6, f"a final result object: {result}")
check(result["bestmove"] == result["pv"][0], "the best move heads the pv")

# 4. eval --json parses too.
status, out, err = run(["eval", "--json", "--profile=fruit21", "startpos", "moves", "e4"])
doc = json.loads(strict(out, "eval --json"))
check(doc["profile"] == "fruit21" and doc["side_to_move"] == "black", f"eval --json: {doc.get('profile')}")

# 5. analyse GAMES.pgn --json: one object per game, read from standard input ("-"); a bad second game
# is an error object after the first game's.
PGN = b"""[Event "One"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. c3 Qh4 5. Nxh4 1-0\n\n
[Event "Two"]\n[Result "*"]\n\n1. e4 e5 2. Ke3 *\n"""
status, out, err = run(["analyse", "-", "--json", "--nodes", "20000"], PGN)
check(status == 1, f"analyse - with a bad second game exits 1, got {status}: {err!r}")
objects = [json.loads(l) for l in strict(out, "analyse games --json").splitlines()]
check([o["type"] for o in objects] == ["game", "error"], f"a game then an error: {[o['type'] for o in objects]}")
game = objects[0]
check(game["tags"]["Event"] == "One" and game["result"] == "1-0" and game["model"] in ("human", "wdl", "lichess"), f"game: {game}")
check(set(game["sides"]) == {"white", "black"}, f"sides: {game['sides']}")
for side in game["sides"].values():
    check(set(side) == {"moves", "acpl", "accuracy", "inaccuracies", "mistakes", "blunders"}, f"side fields: {side}")
check([m["ply"] for m in game["moves"]] == list(range(1, 10)), "one entry per ply")
for m in game["moves"]:
    check(set(m) == {"ply", "color", "san", "uci", "fen", "eval", "cp_loss", "chances_lost", "accuracy", "judgement",
                     "mate", "best"},
          f"move fields: {m}")
    check(m["judgement"] in (None, "inaccuracy", "mistake", "blunder"), f"judgement: {m['judgement']}")
    check(m["mate"] in (None, "allowed", "lost") and (m["mate"] is None or m["judgement"]), f"mate: {m['mate']}")
qh4 = game["moves"][7]
check(qh4["san"] == "Qh4" and qh4["judgement"] == "blunder" and qh4["best"]["san"] != "Qh4", f"Qh4 is a blunder: {qh4}")
error = objects[1]
check(error["game"] == 2 and error["line"] == 10 and error["move"] == "2. Ke3", f"error object: {error}")
check("game 2, line 10: illegal move '2. Ke3'" in strict(err, "analyse games stderr"), f"stderr: {err!r}")

print("cli_output_test:", "FAILED" if failures else "ok")
sys.exit(1 if failures else 0)
