#!/usr/bin/env python3
"""strength/lineage.py (ratings of a round robin) on PGNs with known results.

    tests/tools/lineage_test.py path/to/quince-match

- One pairing: the rating is the pairing's logistic Elo, 400·log10(s / (1 − s)).
- Three engines: the fit is the maximum-likelihood one — each engine's expected score over its games at the
  fitted ratings equals its actual score — computed here independently of the script.
- Two files pool; a results table (`--table`, pairing rows as the script prints them, split across a table
  and a PGN, one pairing recorded in two rows with the engines in either order) gives the ratings of the
  PGNs; a malformed pairing row is named by file and line; a missing file, pairings not connected to the anchor and a perfect score (no finite
  rating) are errors that say so.
"""
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "strength", "lineage.py")
failures = 0


def check(cond, what):
    global failures
    print(("ok   " if cond else "FAIL ") + what)
    failures += not cond


def pgn(games):
    """games: (white, black, result); each game a minimal PGN record."""
    out = []
    for i, (w, b, r) in enumerate(games):
        out.append(f'[Event "t"]\n[Round "{i + 1}"]\n[White "{w}"]\n[Black "{b}"]\n[Result "{r}"]\n\n1. e4 e5 {r}\n')
    return "\n".join(out)


def pairing(a, b, wins, draws, losses):
    """Games of a against b with a's wins/draws/losses, colours alternating."""
    games = []
    for k, (n, res) in enumerate(((wins, "a"), (draws, "d"), (losses, "b"))):
        for j in range(n):
            white, black = (a, b) if (len(games) % 2 == 0) else (b, a)
            if res == "d":
                r = "1/2-1/2"
            else:
                winner = a if res == "a" else b
                r = "1-0" if white == winner else "0-1"
            games.append((white, black, r))
    return games


def run(match, files, anchor=None):
    cmd = [sys.executable, SCRIPT, "--match", match] + (["--anchor", anchor] if anchor else []) + files
    return subprocess.run(cmd, capture_output=True, text=True)


def ratings(output):
    out = {}
    for line in output.splitlines():
        m = re.match(r"^\| (\S+) \| (\d+) \| [\d.]+ \([\d.]+%\) \| ([+-]\d+) ", line)
        if m:
            out[m.group(1)] = int(m.group(3))
    return out


def main():
    match = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory() as d:
        one = os.path.join(d, "one.pgn")
        with open(one, "w") as f:
            f.write(pgn(pairing("A", "B", 60, 20, 20)))
        r = run(match, [one], "B")
        got = ratings(r.stdout)
        elo = 400 * math.log10(0.7 / 0.3)
        check(r.returncode == 0 and got.get("B") == 0 and abs(got.get("A", 1e9) - elo) <= 0.5,
              f"one pairing: A = {got.get('A')} (logistic Elo of 70%: {elo:.1f}), B anchored at 0")

        results = {("A", "B"): (30, 40, 30), ("B", "C"): (60, 20, 20), ("A", "C"): (70, 20, 10)}
        part1, part2 = os.path.join(d, "p1.pgn"), os.path.join(d, "p2.pgn")
        games = [g for (a, b), wdl in results.items() for g in pairing(a, b, *wdl)]
        with open(part1, "w") as f:
            f.write(pgn(games[: len(games) // 2]))
        with open(part2, "w") as f:
            f.write(pgn(games[len(games) // 2:]))
        r = run(match, [part1, part2], "A")
        got = ratings(r.stdout)
        check(r.returncode == 0 and set(got) == {"A", "B", "C"} and got["A"] == 0, f"three engines pooled from two files: {got}")
        if set(got) == {"A", "B", "C"}:
            expected = {x: 0.0 for x in got}
            actual = {x: 0.0 for x in got}
            for (a, b), (w, dr, l) in results.items():
                n = w + dr + l
                p = 1 / (1 + 10 ** ((got[b] - got[a]) / 400))
                expected[a] += n * p
                expected[b] += n * (1 - p)
                actual[a] += w + dr / 2
                actual[b] += l + dr / 2
            # Ratings are printed rounded to 1 Elo: about 0.1 point per engine here.
            worst = max(abs(expected[x] - actual[x]) for x in got)
            check(worst < 0.5, f"maximum likelihood: expected = actual score for every engine (worst {worst:.2f} points)")
            check(got["B"] < 0 < -got["C"], "order A > B > C")

            # The same results recorded as table rows: B-C in two rows (one reversed), A-C from a PGN.
            table = os.path.join(d, "results.md")
            with open(table, "w", encoding="utf-8") as f:
                f.write("# results\n\n| pairing | games | W-D-L (first engine) | Elo (95%) |\n|---|---|---|---|\n"
                        "| A – B | 100 | 30-40-30 | 0.0 ± 1 |\n| B – C | 50 | 30-10-10 | x |\n"
                        "| C – B | 50 | 10-10-30 | x |\n\n| engine | games |\n| A | 1 |\n")
            ac = os.path.join(d, "ac.pgn")
            with open(ac, "w") as f:
                f.write(pgn(pairing("A", "C", 70, 20, 10)))
            r = run(match, ["--table", table, ac], "A")
            from_table = ratings(r.stdout)
            check(r.returncode == 0 and from_table == got and "| B – C | 100 | 60-20-20 |" in r.stdout,
                  f"--table rows pooled with a PGN give the same ratings: {from_table} ({r.stderr.strip()})")
            bad = os.path.join(d, "bad.md")
            with open(bad, "w", encoding="utf-8") as f:
                f.write("| A – B | 100 | 30-40-20 | 0 |\n")
            r = run(match, ["--table", bad], "A")
            check(r.returncode != 0 and "bad.md:1" in r.stderr, f"a row whose W-D-L is not its games: {r.stderr.strip()}")
            with open(bad, "w", encoding="utf-8") as f:
                f.write("| A – B | many | 30-40-30 | 0 |\n")
            r = run(match, ["--table", bad], "A")
            check(r.returncode != 0 and "bad.md:1" in r.stderr, f"a malformed pairing row: {r.stderr.strip()}")

        r = run(match, [os.path.join(d, "missing.pgn")])
        check(r.returncode != 0 and "missing.pgn" in r.stderr, "a missing file is named in the error")
        apart = os.path.join(d, "apart.pgn")
        with open(apart, "w") as f:
            f.write(pgn(pairing("A", "B", 5, 5, 5) + pairing("C", "D", 5, 5, 5)))
        r = run(match, [apart], "A")
        check(r.returncode != 0 and "link C, D" in r.stderr, f"pairings not connected to the anchor: {r.stderr.strip()}")
        perfect = os.path.join(d, "perfect.pgn")
        with open(perfect, "w") as f:
            f.write(pgn(pairing("A", "B", 6, 0, 0)))
        r = run(match, [perfect], "B")
        check(r.returncode != 0 and "diverge" in r.stderr, f"a perfect score has no finite rating: {r.stderr.strip()}")
    print("lineage: all checks passed" if failures == 0 else f"lineage: {failures} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
