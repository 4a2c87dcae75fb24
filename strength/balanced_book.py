#!/usr/bin/env python3
"""A balanced opening book of Quince's own: seeded random openings, kept when an independent engine finds them level.

Quince's `genfens` plays PLIES random legal plies from the start position and keeps the openings its own short
search scores within ±200 cp; a judge engine (Stockfish by default) then searches each one to DEPTH and only
those it scores within ±MAX_CP for the side to move are written, one FEN per line (EPD for `quince-match
-openings format=epd`). The same arguments give the same book. Use it beside 8moves_v3 and UHO, since one
opening set can flatter.

Usage: [QUINCE_BIN=path] strength/balanced_book.py COUNT OUT.epd [--seed S] [--plies K] [--depth D] [--max-cp C]
                                               [--judge ENGINE]
Example: strength/balanced_book.py 200 build/balanced.epd --seed 1 --plies 8 --depth 14 --max-cp 30
"""
import argparse
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import uci_engine  # noqa: E402  (tools/uci_engine/)

ENGINE = uci_engine.quince_binary()

MAX_ROUNDS = 20  # batches of 2 x COUNT candidates before giving up (a too narrow --max-cp)


def candidates(count, seed, plies):
    try:
        out = subprocess.run([ENGINE, f"genfens {count} seed {seed} book None plies {plies}", "quit"],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"{ENGINE} genfens failed: {e} (set QUINCE_BIN or build build/quince)")
    prefix = "info string genfens "
    fens = [l[len(prefix):].strip() for l in out.splitlines() if l.startswith(prefix)]
    errors = [l for l in out.splitlines() if l.startswith("info string error")]
    if errors or len(fens) != count:
        sys.exit(f"{ENGINE} genfens gave {len(fens)} of {count} openings: {' '.join(errors)}")
    return fens


def judge_score(engine, fen, depth):
    """The judge's score in centipawns for the side to move, from a fresh game (None for a mate score)."""
    engine.new_game()
    engine.position(fen)
    engine.isready()
    score = engine.go(depth=depth).score
    return score[1] if score and score[0] == "cp" else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("count", type=int, help="openings to write")
    ap.add_argument("out", help="output EPD file")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--plies", type=int, default=8)
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--max-cp", type=int, default=30)
    ap.add_argument("--judge", default="/usr/games/stockfish")
    a = ap.parse_args()
    if a.count < 1 or a.plies < 1 or a.depth < 1 or a.max_cp < 0:
        ap.error("count, plies and depth must be positive, max-cp not negative")
    if not os.access(a.judge, os.X_OK):
        ap.error(f"judge engine '{a.judge}' is not an executable (Debian: apt install stockfish)")

    judge = uci_engine.Engine(a.judge).setup([("Threads", "1"), ("Hash", "16")])
    kept, seen, batch, round_ = [], set(), max(2 * a.count, 50), 0
    while len(kept) < a.count:
        if round_ == MAX_ROUNDS:
            sys.exit(f"only {len(kept)} of {a.count} openings within ±{a.max_cp} cp after {round_} rounds")
        # Each round asks genfens for a new batch under a derived seed, so the book grows deterministically.
        for fen in candidates(batch, a.seed * 1000 + round_, a.plies):
            key = " ".join(fen.split()[:4])
            if key in seen:
                continue
            seen.add(key)
            score = judge_score(judge, fen, a.depth)
            if score is not None and abs(score) <= a.max_cp:
                kept.append(fen)
                if len(kept) == a.count:
                    break
        round_ += 1
    judge.close()
    with open(a.out, "w") as f:
        f.writelines(fen + "\n" for fen in kept)
    print(f"{a.out}: {len(kept)} openings ({len(seen)} judged, depth {a.depth}, within ±{a.max_cp} cp)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
