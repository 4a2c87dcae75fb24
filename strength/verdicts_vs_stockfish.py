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

- recall: the share of the reference's blunders that Quince marks `?` or `??` (goal 95 %);
- precision: the share of Quince's `??` that the reference calls a mistake or a blunder (goal 85 %);
- with a second Quince JSON (`--twice FILE`, the same games at twice the budget): the share of verdicts
  (none / ?! / ? / ??) that change, and how many moves change between blunder and not.

The reference's scores are kept in a cache file (`--cache`, JSON keyed by position and the moves before it), so comparing
several Quince budgets or models costs the reference search once.

`--rejudge lichess` judges Quince's own scores from the JSON again with lichess's formula (no new search),
`--rejudge wdl:A,B` with a WDL model of constant a and b, `--rejudge wdl:A3,A2,A1,A0,B3,B2,B1,B0` with one of
eval/wdl.cpp's material-dependent models, to compare winning-chance models on the same searches; `--games N`
takes the first N games only.

Usage: strength/verdicts_vs_stockfish.py QUINCE.jsonl [--twice QUINCE2.jsonl] [--engine /usr/games/stockfish]
                                         [--depth 14] [--cache FILE] [--rejudge lichess|wdl:COEFFICIENTS] [--games N] [--list]
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


def material(fen):
    """The WDL model's material count of a FEN (eval/wdl.h): pawn 1, minor 3, rook 5, queen 9, both sides."""
    worth = {"p": 1, "n": 3, "b": 3, "r": 5, "q": 9}
    return sum(worth.get(c.lower(), 0) for c in fen.split()[0])


def chances(score, model=None, fen=None):
    """Winning chances (-1..1) of a score ("cp", n) or ("mate", n), side to move's view: lichess's formula,
    or with a model's coefficients (eval/wdl.h) the win minus the loss rate 1 / (1 + exp((a - v) / b)) -
    1 / (1 + exp((a + v) / b)): a and b constants (two numbers) or cubics in the material of `fen` (eight)."""
    kind, value = score
    if kind == "mate":
        return 1.0 if value > 0 else -1.0
    cp = max(-CP_CLAMP, min(CP_CLAMP, value))
    if model:
        if len(model) == 2:
            a, b = model
        else:
            x = min(max(material(fen), 17), 78) / 58

            def cubic(c):
                return ((c[0] * x + c[1]) * x + c[2]) * x + c[3]
            a, b = cubic(model[:4]), cubic(model[4:])
        return 1 / (1 + math.exp((a - cp) / b)) - 1 / (1 + math.exp((a + cp) / b))
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


def rejudged(game, model=None):
    """Quince's own scores judged with lichess's formula (or the WDL model (a, b)) instead of the model the JSON
    was made with.

    The JSON holds the score after every move, so the score before move k is the one after move k - 1; the
    first move keeps Quince's verdict (the start position's score is not in the JSON)."""
    verdicts = []
    for k, move in enumerate(game["moves"]):
        if k == 0:
            verdicts.append(move["judgement"])
            continue
        own = move["best"] is None or move["best"]["uci"] == move["uci"]
        before, after = quince_score(game["moves"][k - 1]), negate(quince_score(move))
        fen_before, fen_after = game["moves"][k - 1].get("fen"), move.get("fen")
        if model and len(model) == 8 and not fen_after:
            sys.exit("--rejudge with eight coefficients needs the positions' FENs: the JSON of today's quince analyse")
        drop = max(0.0, chances(before, model, fen_before) - chances(after, model, fen_after))
        verdicts.append(None if own else judge_move(before, after, drop))
    return verdicts


def rejudge_model(text):
    """None for lichess's formula, the coefficients for "wdl:A,B" or "wdl:A3,A2,A1,A0,B3,B2,B1,B0"."""
    if text == "lichess":
        return None
    try:
        kind, values = text.split(":")
        model = tuple(float(x) for x in values.split(","))
        if kind == "wdl" and len(model) in (2, 8):
            return model
    except ValueError:
        pass
    raise argparse.ArgumentTypeError(f"--rejudge takes lichess, wdl:A,B or wdl: and eight coefficients "
                                     f"(eval/wdl.cpp's a then b), not '{text}'")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("quince", help="JSON Lines of quince analyse GAMES.pgn --json")
    ap.add_argument("--twice", help="the same games analysed at twice the budget (verdict stability)")
    ap.add_argument("--engine", default="/usr/games/stockfish")
    ap.add_argument("--depth", type=int, default=14)
    ap.add_argument("--cache", help="JSON file keeping the reference's scores between runs")
    ap.add_argument("--rejudge", type=rejudge_model, nargs="?", const=None, default=False, metavar="lichess|wdl:COEFFICIENTS",
                    help="judge Quince's scores in the JSON again (no new search) with lichess's formula or a WDL "
                    "model of constant a and b, instead of the JSON's own verdicts")
    ap.add_argument("--games", type=int, help="only the first N games of the JSON")
    ap.add_argument("--list", action="store_true", help="print every move on which the two disagree about a blunder")
    a = ap.parse_args()
    if a.depth < 1:
        ap.error("--depth must be positive")
    if not os.access(a.engine, os.X_OK):
        ap.error(f"reference engine '{a.engine}' is not an executable (Debian: apt install stockfish)")
    games = read_games(a.quince)[:a.games] if a.games else read_games(a.quince)
    if not games:
        sys.exit(f"{a.quince}: no game records (is it the output of quince analyse --json?)")
    cache = reference_scores(games, a.engine, a.depth, a.cache)

    ref_blunders = ref_blunders_marked = quince_blunders = quince_blunders_confirmed = moves = 0
    marks = {"quince": 0, "reference": 0, "both": 0, "same": 0}  # moves marked ?! ? or ??
    counts = {"quince": {}, "reference": {}}
    for g in games:
        ref = reference_verdicts(g, cache)
        ours = rejudged(g, a.rejudge) if a.rejudge is not False else [m["judgement"] for m in g["moves"]]
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
    model = games[0].get("model") if a.rejudge is False else \
        f"{'lichess' if a.rejudge is None else 'wdl ' + ','.join('%g' % c for c in a.rejudge)} (rejudged from the JSON's scores)"
    print(f"quince verdicts (model {model}): {tally(counts['quince'])}")
    print(f"marks (?! ? ??): quince {marks['quince']}, reference {marks['reference']}; on the same move "
          f"{marks['both']}, of which the same mark {marks['same']}")
    print(f"reference blunders that quince marks ? or ??: {share(ref_blunders_marked, ref_blunders)} (goal 95 %)")
    print(f"quince ?? that the reference calls a mistake or blunder: "
          f"{share(quince_blunders_confirmed, quince_blunders)} (goal 85 %)")

    if a.twice:
        other = {g["game"]: g for g in read_games(a.twice)}
        changed = blunder_changed = compared = 0
        for g in games:
            h = other.get(g["game"])
            if not h:
                continue
            ours = rejudged(g, a.rejudge) if a.rejudge is not False else [m["judgement"] for m in g["moves"]]
            theirs = rejudged(h, a.rejudge) if a.rejudge is not False else [m["judgement"] for m in h["moves"]]
            for m, n in zip(ours, theirs):
                compared += 1
                changed += m != n
                blunder_changed += (m == "blunder") != (n == "blunder")
        print(f"twice the budget: verdicts changed {share(changed, compared)}, "
              f"between blunder and not {share(blunder_changed, compared)}")


if __name__ == "__main__":
    main()
