#!/usr/bin/env python3
"""Ratings of a round robin from its PGNs: the seeds' lineage (fruit21 → rybka1 → rybka232, and quince)
told in Elo.

    strength/lineage.py [--anchor NAME] [--match build/quince-match] [--table RESULTS.md ...] [GAMES.pgn ...]

The PGNs are pooled by `quince-match -rescore` (its "Summary:" line per pairing: W, D, L from the first
engine's side). A --table file holds pairing rows as this script prints them (`| A – B | games | W-D-L |
…`), so a round robin played one pairing at a time, over several sessions or machines, is pooled from its
recorded results when the PGNs are gone; rows of the same pairing (from tables and PGNs) are added up. Ratings are the maximum-likelihood fit of the logistic (Elo) model to every pairing's score
— draws count half, as in Bradley-Terry with ties split — with the anchor at 0 (default: the first engine
of the first pairing), and a 95% interval from the fit's sandwich covariance (observed score variance, so
draws narrow it as they do for one pairing). Prints the
pairings and the ratings as Markdown tables. Needs at least a connected set of pairings.
"""
import argparse
import math
import os
import re
import subprocess
import sys

TABLE_ROW = re.compile(r"^\|\s*(\S+)\s+[–-]\s+(\S+)\s*\|\s*(\d+)\s*\|\s*(\d+)-(\d+)-(\d+)\s*\|")
PAIRING_CELL = re.compile(r"^\|\s*\S+\s+–\s+\S+\s*\|")
SUMMARY = re.compile(r"^Summary: (\S+) vs (\S+) games=(\d+) W=(\d+) D=(\d+) L=(\d+) elo=(\S+) error=(\S+)")
LN10_400 = math.log(10) / 400


def pairings(match, pgns):
    out = subprocess.run([match, "-rescore", *pgns], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"lineage.py: quince-match -rescore failed: {out.stderr.strip() or out.stdout.strip()}")
    rows = []
    for line in out.stdout.splitlines():
        m = SUMMARY.match(line)
        if m:
            a, b, n, w, d, l, elo, err = m.groups()
            rows.append((a, b, int(n), int(w), int(d), int(l), elo, err))
    if not rows:
        sys.exit("lineage.py: no finished games in " + " ".join(pgns))
    return rows


def table_rows(path):
    """Pairing rows of a Markdown results file; a row naming a pairing with wrong numbers is an error."""
    rows = []
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"lineage.py: {path}: {e}")
    for number, line in enumerate(lines, 1):
        m = TABLE_ROW.match(line)
        if not m:
            if PAIRING_CELL.match(line):
                sys.exit(f"lineage.py: {path}:{number}: a pairing row needs '| A – B | games | W-D-L |': {line}")
            continue
        a, b, n, w, d, l = m.groups()
        n, w, d, l = int(n), int(w), int(d), int(l)
        if a == b or n == 0 or n != w + d + l:
            sys.exit(f"lineage.py: {path}:{number}: games must be W + D + L > 0 between two engines: {line}")
        rows.append((a, b, n, w, d, l))
    if not rows:
        sys.exit(f"lineage.py: {path}: no pairing rows ('| A – B | games | W-D-L |')")
    return rows


def logistic_elo(n, w, d, l):
    """A pairing's Elo and 95% error (trinomial), as strings like quince-match prints them."""
    mean = (w + d / 2) / n
    if mean <= 0 or mean >= 1:
        return ("-inf" if mean <= 0 else "inf"), "inf"
    var = (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + l * mean ** 2) / n
    se = math.sqrt(var / n)
    elo = lambda x: -400 * math.log10(1 / x - 1)  # noqa: E731
    lo, hi = max(mean - 1.96 * se, 1e-9), min(mean + 1.96 * se, 1 - 1e-9)
    return f"{elo(mean):.1f}", f"{(elo(hi) - elo(lo)) / 2:.1f}"


def pool(rows):
    """Adds up the rows of each pairing (either order), keeping the first-seen order and orientation."""
    merged = {}
    for a, b, n, w, d, l, *_ in rows:
        if (b, a) in merged:
            a, b, w, l = b, a, l, w
        t = merged.setdefault((a, b), [0, 0, 0, 0])
        for i, v in enumerate((n, w, d, l)):
            t[i] += v
    return [(a, b, n, w, d, l, *logistic_elo(n, w, d, l)) for (a, b), (n, w, d, l) in merged.items()]


def expected(ra, rb):
    return 1.0 / (1.0 + 10 ** ((rb - ra) / 400))


def solve(matrix, vector):
    """Gauss-Jordan with partial pivoting; matrix is small (one row per free rating)."""
    n = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ValueError("singular")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                a[r] = [x - f * y for x, y in zip(a[r], a[col])]
    return [a[i][n] / a[i][i] for i in range(n)]


def add_pair(matrix, idx, a, b, h):
    """A pairing's term of the information matrix: h on both free diagonals, -h between them."""
    for x in (a, b):
        for y in (a, b):
            if x in idx and y in idx:
                matrix[idx[x]][idx[y]] += h if x == y else -h


def fit(rows, anchor):
    names = []
    for a, b, *_ in rows:
        for x in (a, b):
            if x not in names:
                names.append(x)
    if anchor not in names:
        sys.exit(f"lineage.py: anchor {anchor} played no game (engines: {', '.join(names)})")
    # Every engine must be linked to the anchor through pairings, or its rating is not defined.
    linked, frontier = {anchor}, [anchor]
    while frontier:
        x = frontier.pop()
        for a, b, *_ in rows:
            for y, z in ((a, b), (b, a)):
                if y == x and z not in linked:
                    linked.add(z)
                    frontier.append(z)
    if len(linked) < len(names):
        sys.exit(f"lineage.py: no pairings link {', '.join(x for x in names if x not in linked)} to the anchor {anchor}")
    free = [x for x in names if x != anchor]
    idx = {x: i for i, x in enumerate(free)}
    rating = {x: 0.0 for x in names}
    games = [(a, b, n, w + d / 2) for a, b, n, w, d, l, *_ in rows]
    # Newton's method on the log-likelihood sum(score·ln p + (n - score)·ln(1 - p)).
    for _ in range(100):
        grad = [0.0] * len(free)
        info = [[0.0] * len(free) for _ in free]
        for a, b, n, s in games:
            p = expected(rating[a], rating[b])
            g = LN10_400 * (s - n * p)  # d logL / d r_a
            h = LN10_400 ** 2 * n * p * (1 - p)
            for x, sign in ((a, 1), (b, -1)):
                if x in idx:
                    grad[idx[x]] += sign * g
            add_pair(info, idx, a, b, h)
        try:
            step = solve(info, grad)
        except ValueError:  # the information vanishes as ratings run off to infinity
            sys.exit("lineage.py: the ratings diverge: an engine (or group) won or lost every game against the "
                     "rest, which has no finite rating; play more games")
        for x in free:
            # A perfect or zero score has no finite maximum: bound each step.
            rating[x] += max(-400.0, min(400.0, step[idx[x]]))
        if max(abs(v) for v in step) < 1e-6:
            break
    else:
        sys.exit("lineage.py: the ratings did not converge in 100 Newton steps")
    # Covariance: the sandwich H⁻¹ J H⁻¹, H the model's information and J the same with each pairing's
    # observed per-game score variance (draws make it smaller than the binomial p(1 - p)); for a single
    # pairing this is the usual trinomial interval of its Elo.
    k = len(free)
    observed = [[0.0] * k for _ in free]
    for a, b, n, w, d, l, *_ in rows:
        mean = (w + d / 2) / n
        var = (w * (1 - mean) ** 2 + d * (0.5 - mean) ** 2 + l * mean ** 2) / n
        h = LN10_400 ** 2 * n * var
        add_pair(observed, idx, a, b, h)
    inverse = [solve(info, [1.0 if i == j else 0.0 for i in range(k)]) for j in range(k)]  # symmetric
    error = {anchor: 0.0}
    for x in free:
        c = inverse[idx[x]]
        variance = sum(c[i] * observed[i][j] * c[j] for i in range(k) for j in range(k))
        error[x] = 1.96 * math.sqrt(max(variance, 0.0))
    totals = {x: [0, 0.0] for x in names}
    for a, b, n, s in games:
        totals[a][0] += n
        totals[a][1] += s
        totals[b][0] += n
        totals[b][1] += n - s
    return names, rating, error, totals


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--anchor", help="engine rated 0 (default: the first engine of the first pairing)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--match", default=os.path.join(root, "build", "quince-match"))
    parser.add_argument("--table", action="append", default=[], metavar="RESULTS.md",
                        help="pairing rows recorded earlier (this script's pairing table)")
    parser.add_argument("pgn", nargs="*")
    args = parser.parse_args()
    if not args.pgn and not args.table:
        parser.error("give PGN files or --table files")
    for p in args.pgn + args.table:
        if not os.path.isfile(p):
            sys.exit(f"lineage.py: {p}: no such file")
    rows = []
    for t in args.table:
        rows += table_rows(t)
    if args.pgn:
        rows += pairings(args.match, args.pgn)
    if args.table:
        rows = pool(rows)
    anchor = args.anchor or rows[0][0]
    names, rating, error, totals = fit(rows, anchor)
    print("| pairing | games | W-D-L (first engine) | Elo (95%) |")
    print("|---|---|---|---|")
    for a, b, n, w, d, l, elo, err in rows:
        print(f"| {a} – {b} | {n} | {w}-{d}-{l} | {elo} ± {err} |")
    print()
    print(f"| engine | games | score | rating (95%, {anchor} = 0) |")
    print("|---|---|---|---|")
    for x in sorted(names, key=lambda x: -rating[x]):
        n, s = totals[x]
        interval = "anchor" if x == anchor else f"± {error[x]:.0f}"
        print(f"| {x} | {n} | {s:g} ({100 * s / n:.1f}%) | {rating[x]:+.0f} {interval} |")


if __name__ == "__main__":
    main()
