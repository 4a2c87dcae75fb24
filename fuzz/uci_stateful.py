#!/usr/bin/env python3
"""Stateful UCI fuzzer: seeded random sequences of valid and mutated UCI commands against one engine
process (normally the binary of an AddressSanitizer build), checking the protocol's promises:

  * every `isready` is answered with `readyok` (the fuzzer sends one after every command);
  * every `go` that was accepted ends in exactly one `bestmove`, and `stop` ends any search at once;
  * every bestmove (and its ponder move) is legal in the position of its `go`, is one of the
    searchmoves when they were given, and `0000` only when there is no legal move; after a refused
    `position` there is no position (never the one before it) and every bestmove is `0000`;
  * the engine never dies, and exits with status 0 after `quit` (sanitizer reports abort it).

Legality is judged by the engine's own library through a second engine process (--checker, by default
the same binary): `position … moves BESTMOVE` must not be answered with an error, and `go perft 1`
lists the legal moves used to build random valid positions.

The command sequence depends only on --seed (the engine's answers to isready, perft 1 and errors are
deterministic), so a failure is replayed with the same seed; --log writes every line sent.

usage: uci_stateful.py ENGINE [--checker BIN] [--seed N] [--duration SECONDS] [--log FILE]
exit status: 0 all promises kept, 1 a promise broken (the reason on stderr), 2 usage error.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import uci_engine  # noqa: E402  (tools/uci_engine/)

# Positions the walks start from: the start position, tactical middlegames, promotions and en passant,
# few legal moves, mated and stalemated sides to move, Chess960 castling.
FENS = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",
    "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1",
    "8/P1k5/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1",
    "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",
    "8/8/8/4k3/8/8/8/4K2R w K - 99 80",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
]
CHESS960_FENS = [
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9",
    "qr3k1r/p1pbbppp/1pn1pn2/3p4/2PP4/1P3N2/P2NPPPP/QRB1KB1R w Hhb - 0 8",
]
OPTIONS = {  # name: generator of valid values (None: a button)
    "Hash": lambda r: str(r.choice([1, 2, 4, 16, 32])),
    "Threads": lambda r: str(r.choice([1, 1, 2, 3])),
    "MultiPV": lambda r: str(r.choice([1, 1, 2, 4])),
    "Ponder": lambda r: r.choice(["true", "false"]),
    "Move Overhead": lambda r: str(r.choice([0, 10, 30, 100])),
    "UCI_Chess960": lambda r: r.choice(["true", "false"]),
    "EvalProfile": lambda r: r.choice(["quince", "fruit21", "rybka232", "simple", "rybka1"]),
    "LazyEval": lambda r: r.choice(["true", "false"]),
    "SearchDisable": lambda r: r.choice(["<empty>", "nullmove", "lmr", "nonsense"]),
    "SyzygyProbeDepth": lambda r: str(r.randint(1, 10)),
    "OwnBook": lambda r: r.choice(["true", "false"]),
    "Clear Hash": None,
}
# Bounds kept on mutated commands: resources, not parsing (the libFuzzer target covers the parser).
MAX_HASH_MB, MAX_THREADS = 64, 4
SEARCH_WORDS = ["depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "mate",
                "infinite", "ponder", "searchmoves", "perft"]
NASTY_NUMBERS = ["0", "-1", "1", "+5", "2147483648", "-9223372036854775808", "99999999999999999999",
                 "1e3", "0x10", "", "07", "3.5"]


def searchmoves_of(words):
    """The root moves a `go` restricts the search to, as the engine reads them: every word after a
    `searchmoves` up to the next parameter name, and the lists of a repeated `searchmoves` add up
    (`go searchmoves a b searchmoves c` searches a, b and c, as Stockfish does)."""
    moves, collecting = [], False
    for w in words[1:]:
        if w == "searchmoves":
            collecting = True
        elif w in SEARCH_WORDS:
            collecting = False
        elif collecting:
            moves.append(w)
    return moves


class Broken(Exception):
    """A protocol promise was broken: the fuzzer's failure (as is a uci_engine.EngineError: an engine that
    died or cannot be written to)."""


class Checker:
    """Legality through the engine's own library (a second process, only ever given valid commands)."""

    def __init__(self, path, timeout):
        self.e = uci_engine.Engine(path, "checker", stderr="pipe")
        self.timeout = timeout
        self.chess960 = None

    def _sync(self):
        self.e.send("isready")
        out = []
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            line = self.e.read_line(0.5) or ""
            if line == "readyok":
                return out
            if line:
                out.append(line)
        raise Broken("checker: no readyok")

    def _setup(self, chess960):
        if chess960 != self.chess960:
            self.e.send(f"setoption name UCI_Chess960 value {'true' if chess960 else 'false'}")
            self.chess960 = chess960

    def accepts(self, position, moves, chess960):
        """True when `position` followed by `moves` is legal."""
        self._setup(chess960)
        cmd = position if not moves else position + (" " if "moves" in position.split() else " moves ") + " ".join(moves)
        self.e.send(cmd)
        return not any("info string error" in l for l in self._sync())

    def legal_moves(self, position, chess960):
        self._setup(chess960)
        self.e.send(position)
        self.e.send("go perft 1")  # "MOVE: 1" per legal move, then "Nodes searched: N"
        deadline = time.monotonic() + self.timeout
        moves = []
        while time.monotonic() < deadline:
            line = self.e.read_line(0.5) or ""
            if line.startswith("Nodes searched"):
                return moves
            if ": " in line and not line.startswith("info"):
                moves.append(line.split(":")[0])
        raise Broken("checker: no perft answer")

    def close(self):
        self.e.close(timeout=10)


class Fuzzer:
    def __init__(self, args):
        self.rng = random.Random(args.seed)
        self.args = args
        self.timeout = args.timeout
        self.engine = uci_engine.Engine(args.engine, "engine", stderr="pipe")
        self.checker = Checker(args.checker or args.engine, self.timeout)
        self.log = open(args.log, "w") if args.log else None
        # What the engine holds: the last accepted position (None after a refused one), UCI_Chess960.
        self.position = "position startpos"
        self.chess960 = False
        # UCI_Chess960 when that position was set: its FEN is read in that mode. (Switching the option
        # later keeps the position; the checker reads it the way the engine did.)
        self.position_chess960 = False
        self.searches = []  # accepted searches still owing a bestmove, oldest first
        self.stats = {"commands": 0, "mutated": 0, "rejected": 0, "searches": 0, "bestmoves": 0}

    # --- talking to the engine ---------------------------------------------------------------------------
    def send(self, line):
        if self.log:
            self.log.write(line + "\n")
            self.log.flush()
        self.engine.send(line)

    def on_line(self, line, window):
        if line.startswith("bestmove"):
            self.on_bestmove(line)
        window.append(line)

    def sync(self, after):
        """isready: readyok must come; returns the lines before it."""
        self.send("isready")
        # A command that was itself `isready` (whatever follows the word) is answered first.
        owed = 2 if after.split()[:1] == ["isready"] else 1
        window = []
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            line = self.engine.read_line(0.2) or ""
            if line == "readyok":
                owed -= 1
                if owed == 0:
                    return window
                continue
            if line:
                self.on_line(line, window)
        raise Broken(f"no readyok within {self.timeout} s after '{after[:80]}'{self.engine.report()}")

    def drain(self, why):
        """Every search must end at once (after stop): wait for the bestmoves still owed."""
        deadline = time.monotonic() + self.timeout
        window = []
        while self.searches and time.monotonic() < deadline:
            line = self.engine.read_line(0.2) or ""
            if line:
                self.on_line(line, window)
        if self.searches:
            raise Broken(f"no bestmove within {self.timeout} s after {why} (go was '{self.searches[0]['go'][:80]}')")

    def on_bestmove(self, line):
        if not self.searches:
            raise Broken(f"a bestmove no accepted go asked for: '{line}'")
        s = self.searches.pop(0)
        s["done"] = True
        self.stats["bestmoves"] += 1
        words = line.split()
        if len(words) not in (2, 4) or (len(words) == 4 and words[2] != "ponder"):
            raise Broken(f"malformed bestmove line '{line}'")
        move = words[1]
        if s["position"] is None:
            if move != "0000":
                raise Broken(f"bestmove {move} after a refused position (there is none) / {s['go']}")
            return
        if move == "0000":
            if self.checker.legal_moves(s["position"], s["chess960"]):
                raise Broken(f"bestmove 0000 with legal moves: {s['position']} / {s['go']}")
            return
        if not self.checker.accepts(s["position"], [move], s["chess960"]):
            raise Broken(f"illegal bestmove {move} in '{s['position']}' after '{s['go']}'")
        if s["searchmoves"] and move not in s["searchmoves"]:
            raise Broken(f"bestmove {move} is not among searchmoves {s['searchmoves']} ('{s['go']}')")
        if len(words) == 4 and not self.checker.accepts(s["position"], [move, words[3]], s["chess960"]):
            raise Broken(f"illegal ponder move {words[3]} after {move} in '{s['position']}'")

    # --- commands ----------------------------------------------------------------------------------------
    def random_position(self):
        r = self.rng
        chess960 = self.chess960
        if r.random() < 0.3:
            base = "position startpos"
        else:
            fen = r.choice(CHESS960_FENS if chess960 and r.random() < 0.6 else FENS)
            base = f"position fen {fen}"
        moves = []
        for _ in range(r.choice([0, 0, 1, 3, 8, 20])):
            legal = self.checker.legal_moves(base + (" moves " + " ".join(moves) if moves else ""), chess960)
            if not legal:
                break
            moves.append(r.choice(legal))
        return base + (" moves " + " ".join(moves) if moves else "")

    def random_go(self):
        r = self.rng
        kind = r.choice(["depth", "nodes", "movetime", "clock", "clock", "infinite", "ponder", "mate", "bare",
                         "searchmoves", "perft"])
        if kind == "depth":
            return f"go depth {r.randint(1, 9)}"
        if kind == "nodes":
            return f"go nodes {r.choice([1, 10, 500, 5000, 50000])}"
        if kind == "movetime":
            return f"go movetime {r.choice([0, 1, 5, 50, 200])}"
        if kind == "clock":
            wt, bt = r.choice([0, 1, 20, 500, 3000]), r.choice([0, 1, 20, 500, 3000])
            extra = r.choice(["", f" winc {r.choice([0, 10, 100])} binc {r.choice([0, 10, 100])}",
                              f" movestogo {r.randint(1, 40)}"])
            return f"go wtime {wt} btime {bt}{extra}"
        if kind == "infinite":
            return "go infinite"
        if kind == "ponder":
            return r.choice(["go ponder", f"go ponder wtime {r.choice([100, 2000])} btime {r.choice([100, 2000])}"])
        if kind == "mate":
            return f"go mate {r.randint(1, 4)}"
        if kind == "bare":
            return "go"
        if kind == "perft":
            return f"go perft {r.randint(1, 4)}"
        legal = self.checker.legal_moves(self.position, self.position_chess960) if self.position else []
        chosen = r.sample(legal, min(len(legal), r.randint(1, 3))) if legal else ["e2e4"]
        return f"go depth {r.randint(1, 6)} searchmoves " + " ".join(chosen)

    def random_setoption(self):
        r = self.rng
        name = r.choice(list(OPTIONS))
        gen = OPTIONS[name]
        return f"setoption name {name}" + ("" if gen is None else f" value {gen(r)}")

    def valid_command(self):
        r = self.rng
        kind = r.choices(["position", "go", "stop", "isready", "ponderhit", "ucinewgame", "setoption", "d",
                          "eval", "uci", "bench"], weights=[14, 18, 8, 4, 4, 3, 8, 1, 1, 1, 1])[0]
        if kind == "position":
            return self.random_position()
        if kind == "go":
            return self.random_go()
        if kind == "setoption":
            return self.random_setoption()
        if kind == "bench":
            return f"bench {r.randint(1, 3)}"
        return kind

    def mutate(self, line):
        r = self.rng
        words = line.split(" ")
        for _ in range(r.randint(1, 3)):
            op = r.randrange(9)
            i = r.randrange(len(words))
            if op == 0 and len(words) > 1:
                del words[i]
            elif op == 1:
                words.insert(i, words[i])
            elif op == 2:
                words[i] = r.choice(NASTY_NUMBERS)
            elif op == 3:
                words.insert(i, r.choice(SEARCH_WORDS + ["moves", "fen", "startpos", "name", "value"]))
            elif op == 4 and words[i]:
                j = r.randrange(len(words[i]))
                words[i] = words[i][:j] + chr(r.choice([0x01, 0x7f, ord("?"), ord("-"), 0xe9, ord("9")])) + words[i][j + 1:]
            elif op == 5:
                words = words[: r.randint(1, len(words))]
            elif op == 6:
                words[i] = words[i].upper()
            elif op == 7 and len(words) > 1:
                j = r.randrange(len(words))
                words[i], words[j] = words[j], words[i]
            else:
                words.append(r.choice(SEARCH_WORDS + NASTY_NUMBERS))
        return self.bounded(" ".join(words))

    @staticmethod
    def bounded(line):
        """Mutations stay within memory and thread bounds (a 20 GB hash is a resource test, not a parse)."""
        words = line.split()
        low = [w.lower() for w in words]
        if low[:1] == ["setoption"] and "value" in low:
            v = low.index("value")
            value = words[v + 1] if v + 1 < len(words) else ""
            digits = value.lstrip("+").isdigit()
            if digits and ("hash" in low and int(value.lstrip("+")) > MAX_HASH_MB
                           or "threads" in low and int(value.lstrip("+")) > MAX_THREADS):
                return "setoption name Hash value 1"
            if any(o in low for o in ("evalfile", "bookfile", "syzygypath")):
                return "isready"
        if low[:1] == ["genfens"] or low[:1] == ["quit"]:
            return "isready"
        return line

    def run_one(self):
        r = self.rng
        line = self.valid_command()
        mutated = r.random() < 0.3
        if mutated:
            line = self.mutate(line)
            self.stats["mutated"] += 1
        self.stats["commands"] += 1
        words = line.split()
        cmd = words[0] if words else ""
        is_go = cmd == "go"
        older = list(self.searches)
        is_perft = is_go and "perft" in words
        if is_go and not is_perft:  # owed a bestmove, tentatively: withdrawn below if the engine rejects the go
            s = {"go": line, "position": self.position, "chess960": self.position_chess960,
                 "searchmoves": searchmoves_of(words)}
            self.searches.append(s)
        self.send(line)
        window = self.sync(line)
        rejected = any(l.startswith("info string error") for l in window)
        self.stats["rejected"] += rejected
        if rejected and cmd == "position":
            self.position = None
        if is_go and not is_perft:
            if rejected:
                if s in self.searches:
                    self.searches.remove(s)
                elif s.get("done"):
                    raise Broken(f"a bestmove for the rejected '{line}'")
            else:
                self.stats["searches"] += 1
                # A new search stops the running one first: its bestmove came before this readyok.
                if any(o in self.searches for o in older):
                    raise Broken(f"'{line}' started while an earlier search still owed its bestmove")
        if not rejected:
            if cmd == "position":
                self.position = line
                self.position_chess960 = self.chess960
                if any(o in self.searches for o in older):
                    raise Broken(f"'{line}' did not stop the running search first ('{self.searches[0]['go']}' still owes its bestmove)")
            elif cmd == "ucinewgame":
                if self.searches:
                    raise Broken("ucinewgame did not stop the running search first")
            elif cmd == "setoption" and len(words) >= 4 and words[1].lower() == "name":
                if " ".join(words[2:-2]).lower() == "uci_chess960" and words[-2].lower() == "value":
                    self.chess960 = words[-1].lower() == "true"
        if cmd == "stop":
            self.drain("stop")

    def run(self):
        self.send("uci")
        deadline = time.monotonic() + self.timeout
        while (self.engine.read_line(0.5) or "") != "uciok":
            if time.monotonic() > deadline:
                raise Broken("no uciok")
        end = time.monotonic() + self.args.duration
        while time.monotonic() < end:
            self.run_one()
        self.send("stop")
        self.drain("the final stop")
        if self.log:
            self.log.write("quit\n")
        try:
            code = self.engine.quit(timeout=self.timeout)
        except uci_engine.EngineError:
            raise Broken("the engine did not exit after quit")
        if code != 0:
            raise Broken(f"exit status {code} after quit{self.engine.report()}")
        if any("Sanitizer" in l or "runtime error" in l for l in self.engine.stderr):
            raise Broken(f"sanitizer report{self.engine.report()}")

    def close(self):
        self.engine.kill()
        self.checker.close()
        if self.log:
            self.log.close()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("engine", help="the engine binary (an ASan build's quince)")
    p.add_argument("--checker", help="binary judging legality (default: the engine binary)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--duration", type=float, default=30.0, help="seconds of commands (default 30)")
    p.add_argument("--timeout", type=float, default=30.0, help="seconds any single answer may take (default 30)")
    p.add_argument("--log", help="write every line sent to the engine here")
    args = p.parse_args()
    if not os.access(args.engine, os.X_OK):
        print(f"uci_stateful: '{args.engine}' is not an executable", file=sys.stderr)
        return 2
    try:
        f = Fuzzer(args)
    except uci_engine.EngineError as e:
        print(f"uci_stateful: {e}", file=sys.stderr)
        return 2
    try:
        f.run()
    except (Broken, uci_engine.EngineError) as e:
        print(f"uci_stateful: FAILED (seed {args.seed}, command {f.stats['commands']}): {e}", file=sys.stderr)
        return 1
    finally:
        f.close()
    s = f.stats
    print(f"uci_stateful: OK seed {args.seed}: {s['commands']} commands ({s['mutated']} mutated, "
          f"{s['rejected']} rejected), {s['searches']} searches, {s['bestmoves']} bestmoves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
