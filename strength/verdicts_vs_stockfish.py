#!/usr/bin/env python3
"""How good `quince analyse GAMES.pgn` verdicts are: the same games judged by Stockfish at a fixed depth.

Reads the JSON Lines of `quince analyse GAMES.pgn --json` (its games carry each move's UCI form and the start
FEN in the tags), searches every position of each game's main line with a reference engine (Stockfish 15.1 at
depth 14 by default) through UCI, and judges each move by the same rules `quince analyse` uses with
`--model lichess`: the mover's winning chances 2 / (1 + exp(-0.00368208 cp)) - 1 (scores clamped to
±1000 cp, a mate counts as chances ±1) before the move (the reference's score of the position) and after it
(the score of the next position, turned round); a drop of 0.1 / 0.2 / 0.3 is an inaccuracy, a mistake, a
blunder (lichess's thresholds); a move that allows a forced mate or gives one up is judged by lichess's
mate rules instead (by how the mover stood: ?? / ? beyond 7 pawns / ?! beyond 10); the move the reference
chose itself is never judged, nor is a drop its own next search disproves. Then it prints, with counts:

- recall: the share of the reference's blunders that Quince marks `?` or `??` (goal 80 %);
- precision: the share of Quince's `??` that the reference calls a mistake or a blunder (goal 70 %);
- with a second Quince JSON (`--twice FILE`, the same games at twice the budget): the share of verdicts
  (none / ?! / ? / ??) that change, and how many moves change between blunder and not.

The reference's scores are kept in a cache file (`--cache`, JSON keyed by position and the moves before it), so comparing
several Quince budgets or models costs the reference search once.

`--rejudge lichess` judges Quince's own scores from the JSON again with lichess's formula (no new search),
to compare the two winning-chance models on the same searches.

Usage: strength/verdicts_vs_stockfish.py QUINCE.jsonl [--twice QUINCE2.jsonl] [--engine /usr/games/stockfish]
                                         [--depth 14] [--cache FILE] [--rejudge lichess] [--list]
Example (one core each):
  build/quince-match ... -pgnout games.pgn        # weak players: see docs/results.md for the exact command
  taskset -c 1 build/quince analyse games.pgn --json --out q.jsonl
  taskset -c 1 strength/verdicts_vs_stockfish.py q.jsonl --cache sf14.json
"""
import argparse
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import uci_engine  # noqa: E402  (tools/uci_engine/)

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CP_CLAMP = 1000
LEVELS = [(0.3, "blunder"), (0.2, "mistake"), (0.1, "inaccuracy")]


def chances(score):
    """Winning chances (-1..1) of a score ("cp", n) or ("mate", n), side to move's view (lichess's formula)."""
    kind, value = score
    if kind == "mate":
        return 1.0 if value > 0 else -1.0
    cp = max(-CP_CLAMP, min(CP_CLAMP, value))
    return 2 / (1 + math.exp(-0.00368208 * cp)) - 1


def negate(score):
    kind, v = score
    if kind == "mate" and v == 0:
        return ("mate", 1)  # the side to move is mated ("mate 0"): the mover has mated
    return (kind, -v)


def judge(drop):
    for threshold, name in LEVELS:
        if drop >= threshold:
            return name
    return None


def judge_move(before, after, drop):
    """lichess's verdict from the mover's scores before and after a move: its mate rules, else the drop."""
    def cp(score):
        return max(-CP_CLAMP, min(CP_CLAMP, score[1]))
    mated_after = after[0] == "mate" and after[1] < 0
    mates_before, mates_after = before[0] == "mate" and before[1] > 0, after[0] == "mate" and after[1] > 0
    if before[0] != "mate" and mated_after:  # a forced mate allowed
        c = cp(before)
        return "inaccuracy" if c < -999 else "mistake" if c < -700 else "blunder"
    if mates_before and not mates_after:  # a forced mate given up
        c = 0 if after[0] == "mate" else cp(after)
        return "inaccuracy" if c > 999 else "mistake" if c > 700 else "blunder"
    if before[0] == "mate" or after[0] == "mate":
        return None
    return judge(drop)


def read_games(path):
    games = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            record = json.loads(line)
            if record.get("type") == "game":
                games.append(record)
    return games


def reference_search(engine, fen, moves, depth):
    """(score, bestmove) of the position after `moves`, side to move's view; score None when there is no move."""
    engine.position(fen, moves)
    result = engine.go(depth=depth)  # its score: the last exact one of the principal line
    best = None if result.bestmove in (None, "(none)") else result.bestmove
    return result.score, best


def position_key(game, ply):
    fen = game["tags"].get("FEN", START)
    return fen + "".join(" " + m["uci"] for m in game["moves"][:ply])


def reference_scores(games, engine_path, depth, cache_path):
    """{position key: {"score": [kind, value], "best": uci or None}} for every position of every game."""
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = json.load(f)
    engine = None
    for g in games:
        keys = [position_key(g, i) for i in range(len(g["moves"]) + 1)]
        if all(k in cache for k in keys):
            continue
        if engine is None:
            engine = uci_engine.Engine(engine_path).setup([("Threads", "1"), ("Hash", "16")])
        engine.new_game()
        engine.isready()
        fen = g["tags"].get("FEN", START)
        moves = [m["uci"] for m in g["moves"]]
        for i, key in enumerate(keys):
            if key in cache:
                continue
            score, best = reference_search(engine, fen, moves[:i], depth)
            if score is None:  # no info line: count it a draw (an engine that says nothing on stalemate)
                score = ("cp", 0)
            cache[key] = {"score": list(score), "best": best}
        if cache_path:
            with open(cache_path + ".tmp", "w") as f:
                json.dump(cache, f)
            os.replace(cache_path + ".tmp", cache_path)
        print(f"reference: game {g['game']} ({len(moves)} plies) done", file=sys.stderr, flush=True)
    if engine:
        engine.close()
    return cache


def reference_verdicts(game, cache):
    rows = [cache[position_key(game, i)] for i in range(len(game["moves"]) + 1)]
    verdicts = []
    for i, move in enumerate(game["moves"]):
        before, after = tuple(rows[i]["score"]), negate(tuple(rows[i + 1]["score"]))
        own = rows[i]["best"] == move["uci"] or rows[i]["best"] is None
        drop = max(0.0, chances(before) - chances(after))  # a better score afterwards loses nothing
        verdicts.append(None if own else judge_move(before, after, drop))
    return verdicts


def quince_score(move):
    """The score of the position after `move` from the JSON, side to move's view there, as ("cp"|"mate", n)."""
    e = move["eval"]
    sign = 1 if move["color"] == "black" else -1  # white's view -> the next mover's view
    if e.get("checkmate"):
        return ("mate", -1)  # the side to move is mated: lost
    if "white_mate" in e:
        return ("mate", sign * e["white_mate"])
    return ("cp", sign * e["white_cp"])


def rejudged_lichess(game):
    """Quince's own scores judged with lichess's formula instead of the model the JSON was made with.

    The JSON holds the score after every move, so the score before move k is the one after move k - 1; the
    first move keeps Quince's verdict (the start position's score is not in the JSON)."""
    verdicts = []
    for k, move in enumerate(game["moves"]):
        if k == 0:
            verdicts.append(move["judgement"])
            continue
        own = move["best"] is None or move["best"]["uci"] == move["uci"]
        before, after = quince_score(game["moves"][k - 1]), negate(quince_score(move))
        drop = max(0.0, chances(before) - chances(after))
        verdicts.append(None if own else judge_move(before, after, drop))
    return verdicts


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("quince", help="JSON Lines of quince analyse GAMES.pgn --json")
    ap.add_argument("--twice", help="the same games analysed at twice the budget (verdict stability)")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--cache", help="JSON file keeping the reference's scores between runs")
    ap.add_argument("--rejudge", choices=["lichess"], help="judge Quince's scores in the JSON again with "
                    "lichess's formula (no new search) instead of the JSON's own verdicts")
    ap.add_argument("--list", action="store_true", help="print every move on which the two disagree about a blunder")
    a = ap.parse_args()
    if a.depth < 1:
        ap.error("--depth must be positive")
    if not os.access(a.engine, os.X_OK):
        ap.error(f"reference engine '{a.engine}' is not an executable (Debian: apt install stockfish)")
    games = read_games(a.quince)
    if not games:
        sys.exit(f"{a.quince}: no game records (is it the output of quince analyse --json?)")
    cache = reference_scores(games, a.engine, a.depth, a.cache)

    ref_blunders = ref_blunders_marked = quince_blunders = quince_blunders_confirmed = moves = 0
    marks = {"quince": 0, "reference": 0, "both": 0, "same": 0}  # moves marked ?! ? or ??
    counts = {"quince": {}, "reference": {}}
    for g in games:
        ref = reference_verdicts(g, cache)
        ours = rejudged_lichess(g) if a.rejudge else [m["judgement"] for m in g["moves"]]
        for move, r, q in zip(g["moves"], ref, ours):
            moves += 1
            counts["quince"][q] = counts["quince"].get(q, 0) + 1
            counts["reference"][r] = counts["reference"].get(r, 0) + 1
            marks["quince"] += q is not None
            marks["reference"] += r is not None
            marks["both"] += q is not None and r is not None
            marks["same"] += q is not None and q == r
            if r == "blunder":
                ref_blunders += 1
                ref_blunders_marked += q in ("mistake", "blunder")
            if q == "blunder":
                quince_blunders += 1
                quince_blunders_confirmed += r in ("mistake", "blunder")
            if a.list and (r == "blunder") != (q == "blunder"):
                print(f"game {g['game']} ply {move['ply']} {move['san']}: quince {q or '-'} "
                      f"(lost {move['chances_lost']}), reference {r or '-'}")

    def share(k, n):
        return f"{k}/{n} = {100.0 * k / n:.1f} %" if n else f"{k}/0"

    def tally(c):
        return ", ".join(f"{name or 'none'} {c.get(name, 0)}" for name in ("inaccuracy", "mistake", "blunder", None))

    print(f"games {len(games)}, judged moves {moves}")
    print(f"reference verdicts ({os.path.basename(a.engine)} depth {a.depth}): {tally(counts['reference'])}")
    model = "lichess (rejudged from the JSON's scores)" if a.rejudge else games[0].get("model")
    print(f"quince verdicts (model {model}): {tally(counts['quince'])}")
    print(f"marks (?! ? ??): quince {marks['quince']}, reference {marks['reference']}; on the same move "
          f"{marks['both']}, of which the same mark {marks['same']}")
    print(f"reference blunders that quince marks ? or ??: {share(ref_blunders_marked, ref_blunders)} (goal 80 %)")
    print(f"quince ?? that the reference calls a mistake or blunder: "
          f"{share(quince_blunders_confirmed, quince_blunders)} (goal 70 %)")

    if a.twice:
        other = {g["game"]: g for g in read_games(a.twice)}
        changed = blunder_changed = compared = 0
        for g in games:
            h = other.get(g["game"])
            if not h:
                continue
            ours = rejudged_lichess(g) if a.rejudge else [m["judgement"] for m in g["moves"]]
            theirs = rejudged_lichess(h) if a.rejudge else [m["judgement"] for m in h["moves"]]
            for m, n in zip(ours, theirs):
                compared += 1
                changed += m != n
                blunder_changed += (m == "blunder") != (n == "blunder")
        print(f"twice the budget: verdicts changed {share(changed, compared)}, "
              f"between blunder and not {share(blunder_changed, compared)}")


if __name__ == "__main__":
    main()
