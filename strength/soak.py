#!/usr/bin/env python3
"""Soak test: one engine process driven for a long time the way GUIs drive it, its memory watched.

The driver plays games against itself: `position startpos moves …`, then a search of a random kind
(`go infinite` stopped after a random delay, `go movetime`, a clock, `go depth`), the bestmove appended
to the game; a finished or long game starts a new one with `ucinewgame`. Now and then an option changes
(Hash, Threads, MultiPV, EvalProfile, Clear Hash). Every --sample seconds the engine's resident set
(VmRSS in /proc/PID/status) is recorded.

Output: a CSV (seconds, rss_kb, hash_mb, threads) and an SVG plot of RSS over time with the Hash setting
drawn beside it, and a summary line: RSS first/min/max/last and its slope over the second half of the
run, from the samples at the default settings (16 MB, 1 thread): a leak shows as a slope well above 0.

usage: strength/soak.py ENGINE [--duration SECONDS] [--sample SECONDS] [--seed N] [--out PREFIX]
exit status: 0 ran to the end, 1 the engine died, hung or answered wrongly, 2 usage error.
A real soak is an hour or more (timing-free: it may share the cores with other work); a minute checks
the driver itself. The hour recorded in docs/results.md is plotted in docs/soak-rss.svg.
"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import uci_engine  # noqa: E402  (tools/uci_engine/)

HASH_CHOICES = [16, 16, 32, 64]   # MB; 16 is the default and comes back often
THREAD_CHOICES = [1, 1, 2]
PROFILES = ["quince", "fruit21", "rybka232"]
MAX_GAME_PLIES = 160
ANSWER_TIMEOUT = 30.0             # seconds for any answer (readyok, bestmove after stop)


def rss_kb(pid):
    """The resident set of a process, KB (VmRSS in /proc/PID/status); 0 when it is not there."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def svg_plot(samples, path, title):
    """RSS (MB) over time (minutes) as a polyline, the Hash setting as a step line; plain SVG."""
    width, height, left, right, top, bottom = 900, 420, 70, 70, 40, 50
    xs = [s[0] / 60 for s in samples]
    rss = [s[1] / 1024 for s in samples]
    hashes = [s[2] for s in samples]
    x_max = max(xs[-1], 1e-9)
    y_max = max(max(rss), max(hashes)) * 1.1 or 1
    px = lambda x: left + (width - left - right) * x / x_max
    py = lambda y: height - bottom - (height - top - bottom) * y / y_max
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>',
           f'<line x1="{left}" y1="{py(0)}" x2="{width - right}" y2="{py(0)}" stroke="black"/>',
           f'<line x1="{left}" y1="{py(0)}" x2="{left}" y2="{top}" stroke="black"/>']
    for i in range(6):  # axis ticks
        y = y_max * i / 5
        out.append(f'<text x="{left - 6}" y="{py(y) + 4}" text-anchor="end">{y:.0f}</text>')
        out.append(f'<line x1="{left}" y1="{py(y)}" x2="{width - right}" y2="{py(y)}" stroke="#ddd"/>')
        x = x_max * i / 5
        out.append(f'<text x="{px(x)}" y="{height - bottom + 18}" text-anchor="middle">{x:.1f}</text>')
    out.append(f'<text x="{width / 2}" y="{height - 10}" text-anchor="middle">minutes</text>')
    out.append(f'<text x="16" y="{height / 2}" transform="rotate(-90 16 {height / 2})" text-anchor="middle">MB</text>')
    steps = []
    for i, (x, h) in enumerate(zip(xs, hashes)):
        if i:
            steps.append(f"{px(x):.1f},{py(hashes[i - 1]):.1f}")
        steps.append(f"{px(x):.1f},{py(h):.1f}")
    out.append(f'<polyline fill="none" stroke="#999" stroke-dasharray="4 3" points="{" ".join(steps)}"/>')
    points = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, rss))
    out.append(f'<polyline fill="none" stroke="#c00" stroke-width="1.5" points="{points}"/>')
    out.append(f'<text x="{width - right + 4}" y="{py(rss[-1]) + 4}" fill="#c00">RSS</text>')
    out.append(f'<text x="{width - right + 4}" y="{py(hashes[-1]) + 4}" fill="#999">Hash</text>')
    out.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(out) + "\n")


def slope_kb_per_min(samples):
    """Least-squares slope of RSS over the second half of the run, KB per minute, from the samples taken
    with the default settings (16 MB, 1 thread) only: a Hash or Threads change moves RSS by design."""
    half = [s for s in samples[len(samples) // 2:] if s[2] == 16 and s[3] == 1]
    if len(half) < 2:
        return 0.0
    xs = [s[0] / 60 for s in half]
    ys = [s[1] for s in half]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    den = sum((x - mx) ** 2 for x in xs)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / den if den else 0.0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("engine")
    p.add_argument("--duration", type=float, default=3600, help="seconds (default 3600)")
    p.add_argument("--sample", type=float, default=5, help="seconds between RSS samples (default 5)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", default="soak", help="output prefix: PREFIX.csv, PREFIX.svg (default soak)")
    args = p.parse_args()
    if not os.access(args.engine, os.X_OK):
        print(f"soak: '{args.engine}' is not an executable", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    try:
        e = uci_engine.Engine(args.engine, timeout=ANSWER_TIMEOUT, search_timeout=ANSWER_TIMEOUT)
    except uci_engine.EngineError as err:
        print(f"soak: {err}", file=sys.stderr)
        return 1
    hash_mb, threads = 16, 1
    samples, counts = [], {"searches": 0, "games": 0, "options": 0}
    start = time.monotonic()
    next_sample = start

    def sample():
        nonlocal next_sample
        now = time.monotonic()
        if now >= next_sample:
            samples.append((now - start, rss_kb(e.pid), hash_mb, threads))
            next_sample = now + args.sample

    try:
        e.handshake()
        moves = []
        while time.monotonic() - start < args.duration:
            sample()
            r = rng.random()
            if r < 0.08:  # an option change, as between games of a tournament
                kind = rng.choice(["Hash", "Threads", "MultiPV", "EvalProfile", "Clear Hash"])
                if kind == "Hash":
                    hash_mb = rng.choice(HASH_CHOICES)
                    e.set_option("Hash", hash_mb)
                elif kind == "Threads":
                    threads = rng.choice(THREAD_CHOICES)
                    e.set_option("Threads", threads)
                elif kind == "MultiPV":
                    e.set_option("MultiPV", rng.choice([1, 1, 3]))
                elif kind == "EvalProfile":
                    e.set_option("EvalProfile", rng.choice(PROFILES))
                else:
                    e.set_option("Clear Hash")
                e.isready()
                counts["options"] += 1
                continue
            e.position("startpos", moves)
            kind = rng.choice(["infinite", "infinite", "movetime", "clock", "depth"])
            if kind == "infinite":
                e.go(infinite=True, wait=False)
                time.sleep(rng.uniform(0.05, 0.5))
                e.isready()  # answered during the search
                best = e.stop().bestmove
            elif kind == "movetime":
                best = e.go(movetime=rng.choice([10, 50, 200])).bestmove
            elif kind == "clock":
                t = rng.choice([1000, 10000, 60000])
                best = e.go(wtime=t, btime=t, winc=t // 100, binc=t // 100).bestmove
            else:
                best = e.go(depth=rng.randint(4, 10)).bestmove
            counts["searches"] += 1
            if best is None:
                raise RuntimeError("a bestmove line without a move")
            if best == "0000" or len(moves) >= MAX_GAME_PLIES:
                e.new_game()
                moves = []
                counts["games"] += 1
            else:
                moves.append(best)
        samples.append((time.monotonic() - start, rss_kb(e.pid), hash_mb, threads))
        code = e.quit()
        if code != 0:
            raise RuntimeError(f"exit status {code} after quit")
    except (RuntimeError, OSError) as err:  # uci_engine.EngineError is a RuntimeError
        print(f"soak: FAILED after {time.monotonic() - start:.0f} s: {err}", file=sys.stderr)
        e.kill()
        return 1
    finally:
        if samples:
            with open(args.out + ".csv", "w") as f:
                f.write("seconds,rss_kb,hash_mb,threads\n")
                for s in samples:
                    f.write(f"{s[0]:.1f},{s[1]},{s[2]},{s[3]}\n")
            if len(samples) > 1:
                svg_plot(samples, args.out + ".svg",
                         f"quince soak: RSS over {samples[-1][0] / 60:.1f} min, {counts['searches']} searches")
    rss = [s[1] for s in samples]
    print(f"soak: {samples[-1][0]:.0f} s, {counts['searches']} searches, {counts['games']} games, "
          f"{counts['options']} option changes; RSS KB first {rss[0]} min {min(rss)} max {max(rss)} last {rss[-1]}; "
          f"second-half slope at 16 MB / 1 thread {slope_kb_per_min(samples):+.0f} KB/min; wrote {args.out}.csv, {args.out}.svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
