#!/usr/bin/env python3
"""SPSA over quince-match: fits the tuning build's parameters with game pairs on this machine.

    strength/spsa.py --engine build-tuning/quince --state spsa.json --iterations 200 \
        --params 'Lmr|Nmp' --tc 10+0.1 --pairs 4

Each iteration perturbs every selected parameter by +-c_k (a random sign each), plays --pairs game pairs
(same opening, colours reversed) between the engine with theta + c_k*delta and with theta - c_k*delta,
and moves theta by r_k * c_k * (wins - losses of the plus side) * delta: the update rule and the gain
schedules of OpenBench's SPSA (alpha 0.602, gamma 0.101, A = a tenth of the iterations), with each
parameter's c_end and r_end taken from the engine's own list (`quince spsa`, OpenBench's input format).

The state file (JSON) holds theta, the iteration reached and the settings; a rerun with the same file
continues where the last stopped (the settings of the file win over the command line's). Every iteration's
sign draw is seeded by the iteration number, so a run split in parts follows the same path as one run.

Every --report iterations (and at the end) the run prints its whole state as text: a header line
("iteration K of N, G games, seed S, rate scale R") and one OpenBench line per parameter with the exact value
after '#'. Given to a new run as --start FILE (the log itself, or the block copied), its last block starts the
state file again at the same point, so a run survives the loss of its state file as long as its log or a
note kept that block. A file of parameter lines alone (no header) sets start values for a new schedule.
"""

import argparse
import json
import math
import os
import random
import re
import subprocess
import sys

ALPHA = 0.602
GAMMA = 0.101


def parse_spsa_lines(lines):
    """OpenBench's SPSA input lines ("name, int, value, min, max, c_end, r_end") as parameter dicts."""
    params = []
    for number, line in enumerate(lines, 1):
        line = line.strip()
        if not line:
            continue
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != 7 or fields[1] != "int":
            raise ValueError(f"SPSA input line {number}: expected 'name, int, value, min, max, c_end, r_end': {line!r}")
        name, _, value, lo, hi, c_end, r_end = fields
        params.append({"name": name, "value": float(value), "min": int(lo), "max": int(hi),
                       "c_end": float(c_end), "r_end": float(r_end)})
    return params


def engine_params(engine):
    """The tuning build's parameter list (`ENGINE spsa`)."""
    run = subprocess.run([engine, "spsa"], capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"spsa.py: '{engine} spsa' failed (a tuning build is needed: cmake -DQUINCE_TUNING=ON): "
                         + run.stderr.strip())
    return parse_spsa_lines(run.stdout.splitlines())


def gains(param, k, iterations):
    """(c_k, r_k) of one parameter at iteration k (0-based), OpenBench's schedules."""
    big_a = 0.1 * iterations
    c = param["c_end"] * iterations ** GAMMA
    a_end = param["r_end"] * param["c_end"] ** 2
    a = a_end * (big_a + iterations) ** ALPHA
    c_k = c / (k + 1) ** GAMMA
    a_k = a / (big_a + k + 1) ** ALPHA
    return c_k, a_k / c_k ** 2


def clamp(v, lo, hi):
    return max(lo, min(hi, v))


def iterate(state, match):
    """One SPSA iteration on `state` (changed in place); `match(plus, minus)` plays the game pairs between
    two {name: int} settings and returns (wins, losses, draws) of plus. Returns the match result."""
    k = state["iteration"]
    rng = random.Random(state["seed"] * 1000003 + k)
    plus, minus, steps = {}, {}, []
    for p in state["params"]:
        c_k, r_k = gains(p, k, state["iterations"])
        delta = rng.choice((-1, 1))
        plus[p["name"]] = int(round(clamp(p["value"] + c_k * delta, p["min"], p["max"])))
        minus[p["name"]] = int(round(clamp(p["value"] - c_k * delta, p["min"], p["max"])))
        steps.append((p, c_k, r_k, delta))
    wins, losses, draws = match(plus, minus)
    for p, c_k, r_k, delta in steps:
        step = r_k * state.get("rate_scale", 1.0) * c_k * (wins - losses) * delta
        p["value"] = clamp(p["value"] + step, p["min"], p["max"])
    state["iteration"] = k + 1
    state["games"] = state.get("games", 0) + wins + losses + draws
    return wins, losses, draws


SCORE_RE = re.compile(r"Score of plus vs minus: (\d+) - (\d+) - (\d+)")


def match_command(args, plus, minus):
    """The quince-match command of one iteration: the two settings, then what both sides share (the time
    control, Hash 16, one thread and the fixed --option settings, e.g. SearchEnable=NAME to tune the
    constant of a candidate that is off by default). With --nodes, every move gets that many nodes instead of
    a clock: the games do not depend on the machine's load, so they can share the cores with other work."""
    cmd = [args.match]
    for name, setting in (("plus", plus), ("minus", minus)):
        cmd += ["-engine", f"cmd={args.engine}", f"name={name}"] + [f"option.{n}={v}" for n, v in setting.items()]
    limit = f"nodes={args.nodes}" if getattr(args, "nodes", 0) else f"tc={args.tc}"
    cmd += ["-each", limit, "option.Hash=16", "option.Threads=1"] + [f"option.{o}" for o in args.option]
    cmd += ["-games", str(2 * args.pairs), "-concurrency", str(args.concurrency)]
    return cmd


def quince_match(args):
    """The match function over quince-match: args.pairs game pairs, engine options set per side."""
    def match(plus, minus):
        cmd = match_command(args, plus, minus)
        if args.openings:
            cmd += ["-openings", f"file={args.openings}", "format=epd", "order=random",
                    f"seed={random.randrange(1 << 30)}"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        found = SCORE_RE.findall(run.stdout)
        if run.returncode != 0 or not found:
            raise SystemExit(f"spsa.py: quince-match failed ({run.returncode}):\n{run.stdout[-2000:]}{run.stderr[-2000:]}")
        return tuple(int(x) for x in found[-1])
    return match


def load_or_start(path, params, args):
    if path and os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {"iteration": 0, "iterations": args.iterations, "seed": args.seed, "games": 0,
            "rate_scale": args.rate_scale, "params": params}


def save(path, state):
    if not path:
        return
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, path)  # a run killed mid-write keeps the last complete state


def print_values(state, out=sys.stdout):
    out.write(f"iteration {state['iteration']} of {state['iterations']}, {state.get('games', 0)} games, "
              f"seed {state['seed']}, rate scale {state.get('rate_scale', 1.0):g}\n")
    for p in state["params"]:
        out.write(f"{p['name']}, int, {round(p['value'])}, {p['min']}, {p['max']}, {p['c_end']}, {p['r_end']}"
                  f"  # {p['value']:.4f}\n")
    out.flush()


HEADER_RE = re.compile(r"iteration (\d+) of (\d+), (\d+) games(?:, seed (-?\d+), rate scale ([0-9.eE+-]+))?$")


def parse_start(lines):
    """The text print_values writes (its header optional) as (header or None, {name: value}): the exact
    value after '#' where there is one, else the line's integer. Raises ValueError naming the bad line."""
    header, values = None, {}
    for number, line in enumerate(lines, 1):
        text, _, comment = line.partition("#")
        text = text.strip()
        if not text:
            continue
        if text.startswith("iteration"):
            m = HEADER_RE.match(text)
            if not m or header is not None or values:
                raise ValueError(f"start line {number}: expected one first line 'iteration K of N, G games"
                                 f"[, seed S, rate scale R]': {line.strip()!r}")
            k, n, games, seed, rate = m.groups()
            header = {"iteration": int(k), "iterations": int(n), "games": int(games)}
            if seed is not None:
                header.update(seed=int(seed), rate_scale=float(rate))
            if not 0 <= header["iteration"] <= header["iterations"] or header["iterations"] == 0:
                raise ValueError(f"start line {number}: iteration {k} of {n} is not a point of a schedule")
            continue
        try:
            (param,) = parse_spsa_lines([text])
        except ValueError:
            raise ValueError(f"start line {number}: expected 'name, int, value, min, max, c_end, r_end': "
                             f"{line.strip()!r}") from None
        value = param["value"]
        if comment.strip():
            try:
                value = float(comment.strip())
            except ValueError:
                raise ValueError(f"start line {number}: the exact value after '#' is not a number: "
                                 f"{comment.strip()!r}") from None
        if param["name"] in values:
            raise ValueError(f"start line {number}: {param['name']} a second time")
        values[param["name"]] = value
    if not values:
        raise ValueError("start: no parameter line")
    return header, values


def last_block(lines):
    """From a run's log, the last printed state: its header line and the parameter lines right after it.
    Text without a header line (values written by hand) is returned whole."""
    heads = [i for i, line in enumerate(lines) if HEADER_RE.match(line.strip())]
    if not heads:
        return lines
    block = [lines[heads[-1]]]
    for line in lines[heads[-1] + 1:]:
        if line.partition("#")[0].count(",") != 6:
            break
        block.append(line)
    return block


def start_from(path, params, args):
    """A new state from a --start file (a run's log or its last block): its values (each a selected parameter
    within its bounds) and, with a header, its iteration, schedule and games (then it must name every selected
    parameter: a run continued mid-schedule tunes the same set); seed and rate scale from the header when it
    has them."""
    try:
        with open(path) as f:
            header, values = parse_start(last_block(f.read().splitlines()))
    except OSError as e:
        raise SystemExit(f"spsa.py: --start {path}: {e.strerror}")
    except ValueError as e:
        raise SystemExit(f"spsa.py: --start {path}: {e}")
    by_name = {p["name"]: p for p in params}
    for name, value in values.items():
        p = by_name.get(name)
        if p is None:
            raise SystemExit(f"spsa.py: --start {path}: {name} is not among the tuned parameters "
                             "(the engine's list, filtered by --params)")
        if not p["min"] <= value <= p["max"]:
            raise SystemExit(f"spsa.py: --start {path}: {name} {value:g} is outside {p['min']}..{p['max']}")
        p["value"] = value
    missing = [p["name"] for p in params if p["name"] not in values]
    if header and missing:
        raise SystemExit(f"spsa.py: --start {path}: the block continues a run at iteration {header['iteration']} "
                         f"but does not name {', '.join(missing)}, which --params selects")
    state = load_or_start(None, params, args)
    if header:
        state.update(header)
    return state


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--engine", required=True, help="the tuning build of quince (QUINCE_TUNING=ON)")
    ap.add_argument("--match", default=os.path.join("build", "quince-match"), help="quince-match (build/quince-match)")
    ap.add_argument("--state", required=True, help="state file: created, updated after every iteration, resumed")
    ap.add_argument("--iterations", type=int, default=200, help="length of the gain schedule (total)")
    ap.add_argument("--run", type=int, default=0, help="iterations to play in this run (0: to the end)")
    ap.add_argument("--params", default="", help="regular expression: tune only the matching names")
    ap.add_argument("--tc", default="10+0.1", help="quince-match time control (tc=)")
    ap.add_argument("--nodes", type=int, default=0,
                    help="nodes per move instead of --tc (games independent of the machine's load)")
    ap.add_argument("--pairs", type=int, default=2, help="game pairs per iteration")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--openings", default="", help="EPD openings (e.g. 8moves_v3.epd of the data folder)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate-scale", type=float, default=1.0,
                    help="multiplies every parameter's r_end: OpenBench's rates suit tens of thousands of "
                         "iterations; a run of a few hundred moves nothing at 1 (try 10)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                    help="a UCI option set for both sides (repeatable), e.g. SearchEnable=NAME")
    ap.add_argument("--start", default="", metavar="FILE",
                    help="start a new state file from the text a run prints (values, and with its header the "
                         "iteration, schedule, seed and rate scale); refused when the state file exists")
    ap.add_argument("--report", type=int, default=20, metavar="N",
                    help="print the whole state every N iterations (0: only at the end)")
    args = ap.parse_args(argv)
    if not args.rate_scale > 0:
        ap.error(f"--rate-scale {args.rate_scale}: expected a positive factor")
    if args.nodes < 0:
        ap.error(f"--nodes {args.nodes}: expected a positive count")
    if args.report < 0:
        ap.error(f"--report {args.report}: expected a count of iterations (0: only at the end)")
    if args.start and os.path.exists(args.state):
        ap.error(f"--start {args.start}: the state file {args.state} exists and would be resumed; "
                 "start values are for a new state file")
    for o in args.option:
        if "=" not in o or o.startswith("="):
            ap.error(f"--option {o!r}: expected NAME=VALUE")

    params = engine_params(args.engine)
    if args.params:
        params = [p for p in params if re.search(args.params, p["name"])]
    if not params:
        raise SystemExit("spsa.py: no parameter matches --params")
    if args.start:
        state = start_from(args.start, params, args)
        save(args.state, state)  # from now on the run resumes from its state file
    else:
        state = load_or_start(args.state, params, args)
    todo = state["iterations"] - state["iteration"]
    if args.run > 0:
        todo = min(todo, args.run)
    match = quince_match(args)
    for i in range(todo):
        w, l, d = iterate(state, match)
        save(args.state, state)
        print(f"iteration {state['iteration']}: plus {w} - {l} - {d}", flush=True)
        if args.report and state["iteration"] % args.report == 0 and i < todo - 1:
            print_values(state)  # the last block comes below
    print_values(state)
    return 0


if __name__ == "__main__":
    sys.exit(main())
