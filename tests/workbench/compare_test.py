#!/usr/bin/env python3
"""`quince compare` checked against `quince eval --json`, column by column (the evaluation
workbench, src/workbench/).

    python3 tests/workbench/compare_test.py build/quince POSITIONS.epd

For every position of the file and every profile column of `compare --json` (the default three, then
all built-in profiles), the column must equal `eval --json --profile X`: each term's mg / eg (eval's
"total"), cp, phase, weights, material index and entry, scale and final score; absent terms must be
exactly those eval reports as 0 and term_in_profile rules out. The checker is also run on a broken
comparison (a column holding another profile's numbers, one term changed) and must object, so the test
can fail. Then `compare --epd` is recomputed from per-position `compare --json`, the text and UCI forms
are spot-checked, and bad input must give one clear error line with exit status 2. Exit 1 on failure.
"""
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

ENGINE, POSITIONS = sys.argv[1], sys.argv[2]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(args, stdin=None):
    p = subprocess.run([ENGINE, *args], input=stdin, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def fens():
    out = []
    with open(POSITIONS) as f:
        for line in f:
            line = line.split(";")[0].strip()
            if line and not line.startswith("#"):
                out.append(line)
    return out


def column_errors(column, ev):
    """Differences between one compare --json column and eval --json for the same profile."""
    errors = []
    name = column["profile"]
    if "network" in ev:  # a network (profile nnue): its score only, as compare shows the simple profile
        if column["final_cp"] != ev["network"]["final_cp"]:
            errors.append(f"{name}: final_cp {column['final_cp']} != the network's {ev['network']['final_cp']}")
        if any(not t.get("absent") for t in column["terms"]):
            errors.append(f"{name}: a network has no terms, compare shows some")
        return errors
    if column["final_cp"] != ev["final_cp"]:
        errors.append(f"{name}: final_cp {column['final_cp']} != eval's {ev['final_cp']}")
    if "terms" not in ev:  # the simple profile: a final score only
        if any(not t.get("absent") for t in column["terms"]):
            errors.append(f"{name}: simple has no terms, compare shows some")
        return errors
    for key in ("phase", "material_index", "material_entry", "scale", "final_cp_white_view", "white_cp", "lazy"):
        if column[key] != ev[key]:
            errors.append(f"{name}: {key} {column[key]} != eval's {ev[key]}")
    if column["weights"] != ev["weights"]:
        errors.append(f"{name}: weights {column['weights']} != eval's {ev['weights']}")
    if [t["name"] for t in column["terms"]] != [t["name"] for t in ev["terms"]]:
        errors.append(f"{name}: term names differ from eval's")
        return errors
    for ct, et in zip(column["terms"], ev["terms"]):
        if ct.get("absent"):
            # Absent is a property of the profile: eval must show nothing there.
            if et["cp"] != 0 or et["total"]["mg"] != 0 or et["total"]["eg"] != 0:
                errors.append(f"{name}: {ct['name']} shown absent but eval has {et['total']} / {et['cp']}")
            continue
        for key, value in (("mg", et["total"]["mg"]), ("eg", et["total"]["eg"]), ("cp", et["cp"])):
            if ct[key] != value:
                errors.append(f"{name}: {ct['name']}.{key} {ct[key]} != eval's {value}")
    return errors


def comparison_errors(comp, evals):
    errors = []
    first = comp["profiles"][0]
    for column in comp["profiles"]:
        errors += column_errors(column, evals[column["profile"]])
        # diff_cp: cp minus the first column's, absent counting 0.
        for i, t in enumerate(column["terms"]):
            if t.get("absent") or column is first:
                continue
            base = first["terms"][i]
            want = round(t["cp"] - (0 if base.get("absent") else base["cp"]), 5)
            if abs(t["diff_cp"] - want) > 1.5e-5:
                errors.append(f"{column['profile']}: {t['name']}.diff_cp {t['diff_cp']} != {want}")
    return errors


# The built-in profiles, from the usage error of `quince weights` (one source of names).
usage = run(["weights"])[2]
listed = re.search(r"\(profiles:([^)]*)\)", usage)
profiles = listed.group(1).split() if listed else []
check(set(["rybka1", "rybka232", "fruit21"]) <= set(profiles), f"built-in profiles listed: {profiles}")

positions = fens()
check(len(positions) >= 20, f"enough test positions: {len(positions)}")
eval_cache = {}


def eval_json(fen, profile):
    if (fen, profile) not in eval_cache:
        status, out, err = run(["eval", "--json", "--profile", profile, fen])
        check(status == 0, f"eval --json --profile {profile} {fen}: {err}")
        eval_cache[fen, profile] = json.loads(out)
    return eval_cache[fen, profile]


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    vx, vy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    if vx <= 1e-9 * max(1, sum(x * x for x in xs)) or vy <= 1e-9 * max(1, sum(y * y for y in ys)):
        return None
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / (vx * vy) ** 0.5


# Sanitizer builds (scripts/test.sh sets QUINCE_SANITIZED): every third position, each profile still
# compared on several; a process start there costs several times the CPU, and the other builds check all.
checked = positions[::3] if os.environ.get("QUINCE_SANITIZED") else positions
# The eval --json of each of them under every profile, one run a profile (--epd: a JSON array in file order).
with tempfile.NamedTemporaryFile("w", suffix=".epd") as f:
    f.write("".join(fen + "\n" for fen in checked))
    f.flush()
    for profile in profiles:
        status, out, err = run(["eval", "--json", "--profile", profile, "--epd", f.name])
        check(status == 0, f"eval --json --profile {profile} --epd: {err}")
        if status == 0:
            for fen, ev in zip(checked, json.loads(out)):
                eval_cache[fen, profile] = ev
tested_broken = False
for n, fen in enumerate(checked):
    for args in ([], profiles if n % 4 == 0 else []):
        status, out, err = run(["compare", "--json", fen, *args])
        if status != 0:
            check(False, f"compare --json {fen} {args}: exit {status} {err}")
            continue
        comp = json.loads(out)
        names = [c["profile"] for c in comp["profiles"]]
        check(names == (args or ["rybka1", "rybka232", "fruit21"]), f"columns in order: {names}")
        check(comp["fen"] == eval_json(fen, names[0])["fen"], "the same position")
        evals = {p: eval_json(fen, p) for p in names}
        for e in comparison_errors(comp, evals):
            check(False, f"{fen}: {e}")
        # The checker must catch a broken comparison: a column that read another profile, one changed term.
        if not tested_broken and len(names) >= 3:
            broken = copy.deepcopy(comp)
            label = broken["profiles"][1]["profile"]
            broken["profiles"][1] = copy.deepcopy(comp["profiles"][2])
            broken["profiles"][1]["profile"] = label
            check(comparison_errors(broken, evals), "a column holding another profile's numbers is caught")
            broken = copy.deepcopy(comp)
            term = next(t for t in broken["profiles"][0]["terms"] if not t.get("absent"))
            term["eg"] += 0.03125
            check(comparison_errors(broken, evals), "one changed term is caught")
            broken = copy.deepcopy(comp)
            broken["profiles"][0]["terms"][-1] = {"name": "threats", "mg": 0.0, "eg": 0.0, "cp": 0.0}
            check(broken["profiles"][0]["terms"] != comp["profiles"][0]["terms"], "absent is not written as zero")
            tested_broken = True
check(tested_broken, "the checker was tested on a broken comparison")

# Terms a profile does not have: pawn_mobility only in rybka232; threats in none of the three seed
# profiles.
comp = json.loads(run(["compare", "--json", positions[0]])[1])
absent = {c["profile"]: [t["name"] for t in c["terms"] if t.get("absent")] for c in comp["profiles"]}
check(absent == {"rybka1": ["pawn_mobility", "threats"], "rybka232": ["threats"],
                 "fruit21": ["pawn_mobility", "threats"]},
      f"absent terms per profile: {absent}")

# --epd: the means and the worst positions recomputed from per-position comparisons.
sample = positions[:8]
with tempfile.NamedTemporaryFile("w", suffix=".epd", delete=False) as f:
    f.write("# a comment line\n\n")
    for fen in sample:
        f.write(fen + " ; id \"x\";\n")
    epd = f.name
try:
    status, out, err = run(["compare", "--epd", epd, "--json", "--top", "3", "rybka1", "fruit21"])
    check(status == 0, f"compare --epd: exit {status} {err}")
    summary = json.loads(out)
    check(summary["positions"] == len(sample), f"positions counted: {summary['positions']}")
    per = [json.loads(run(["compare", "--json", fen, "rybka1", "fruit21"])[1]) for fen in sample]
    for i, term in enumerate(summary["terms"]):
        cps = [[0 if c["terms"][i].get("absent") else c["terms"][i]["cp"] for c in p["profiles"]] for p in per]
        mean = sum(abs(c[1] - c[0]) for c in cps) / len(cps)
        check(abs(term["mean_abs_diff"][1] - mean) < 1e-4, f"--epd mean of {term['name']}: {term['mean_abs_diff'][1]} != {mean}")
        # Pearson's r between the two profiles' cp of the term (None: constant under one of them).
        r = pearson([c[0] for c in cps], [c[1] for c in cps])
        got = term["correlation"][0][1]
        check(got == term["correlation"][1][0] and (got is None if r is None else got is not None and abs(got - r) < 1e-4),
              f"--epd correlation of {term['name']}: {got} != {r}")
        spreads = sorted((abs(c[1] - c[0]) for c in cps), reverse=True)[:3]
        got = [t["spread"] for t in term["top"]]
        check(all(abs(a - b) < 1e-4 for a, b in zip(got, spreads)) and len(got) == 3,
              f"--epd worst positions of {term['name']}: {got} != {spreads}")
    finals = [[c["final_cp_white_view"] for c in p["profiles"]] for p in per]
    check(abs(summary["final"]["mean_abs_diff"][1] - sum(abs(a[1] - a[0]) for a in finals) / len(finals)) < 1e-4,
          "--epd mean of the final score")
    status, text, err = run(["compare", "--epd", epd])
    check(status == 0 and "where they disagree most" in text and "mean |cp - rybka1's cp|" in text, f"--epd text: {text[:200]}")
    # A line cut short (two FEN fields of four) is named, not skipped: the summary would silently cover
    # fewer positions than the file holds.
    with open(epd) as f:
        whole = f.read()
    with open(epd, "a") as f:
        f.write("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w\n")
    status, out, err = run(["compare", "--epd", epd])
    check(status == 2 and out == "" and len(err.splitlines()) == 1 and f"{epd}:{len(sample) + 3}: expected a FEN" in err,
          f"--epd names the short line: {status} {err!r}")
    with open(epd, "w") as f:
        f.write(whole)
    with open(epd, "a") as f:
        f.write("not a position at all\n")
    status, out, err = run(["compare", "--epd", epd])
    check(status == 2 and out == "" and len(err.splitlines()) == 1 and f"{epd}:{len(sample) + 3}:" in err,
          f"--epd names the bad line: {status} {err!r}")
finally:
    os.unlink(epd)

# --weights FILE: one more column, equal to `eval --json --weights FILE`.
status, weights, err = run(["weights", "rybka1"])
weights = weights.replace("tempo 3", "tempo 7").replace("mob_knight_op ", "mob_knight_op 1", 1)
with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    f.write(weights)
    wfile = f.name
try:
    fen = positions[3]
    status, out, err = run(["compare", "--json", "--weights", wfile, fen, "rybka1"])
    check(status == 0, f"compare --weights: {status} {err}")
    comp = json.loads(out)
    check([c["profile"] for c in comp["profiles"]] == ["rybka1", wfile], "a file named like a built-in is labelled by its path")
    ev = json.loads(run(["eval", "--json", "--weights", wfile, fen])[1])
    ev_label = dict(ev, profile=wfile)
    for e in column_errors(comp["profiles"][1], ev_label):
        check(False, f"--weights column: {e}")
    check(comp["profiles"][1]["final_cp"] != comp["profiles"][0]["final_cp"], "the file's weights are used")
    status, out, err = run(["compare", "--weights", "/nonexistent/w.txt", fen])
    check(status == 1 and len(err.splitlines()) == 1 and "/nonexistent/w.txt" in err, f"bad weights file: {status} {err!r}")
finally:
    os.unlink(wfile)

# The text table and UCI `eval compare`: the same final scores as the JSON.
fen = positions[5]
comp = json.loads(run(["compare", "--json", fen])[1])
status, text, err = run(["compare", fen])
finals = [str(c["final_cp"]) for c in comp["profiles"]]
row = next((l for l in text.splitlines() if l.startswith("final (to move)")), "")
check(status == 0 and row.split("|")[1:4] and [c.strip() for c in row.split("|")[1:4]] == finals,
      f"text final row {row!r} vs {finals}")
status, uci, err = run([f"position fen {fen}", "eval compare"])
check(status == 0 and text.strip() in uci, "UCI 'eval compare' prints the same table")
status, uci, err = run([f"position fen {fen}", "eval compare rybka1 nope"])
check(status == 1 and uci.count("info string error: eval compare: unknown profile 'nope'") == 1, f"UCI unknown profile: {uci!r}")

# Bad input: one clear line on stderr, exit 2.
for args, needle in ((["compare", "8/8/8 w - - 0 1"], "invalid FEN"),
                     (["compare", "startpos", "rybka1", "nope"], "unknown profile 'nope'"),
                     (["compare", "--svg", "startpos", "nope"], "unknown profile 'nope'"),
                     (["compare"], "missing the position"),
                     (["compare", "8/8/8/4k3/8/8/8/4K3", "w", "-", "-", "0", "1"], "one quoted argument"),
                     (["compare", "--json", "--svg", "startpos"], "exclude each other"),
                     (["compare", "--epd", "/nonexistent/x.epd"], "cannot read"),
                     (["compare", "--top", "3", "startpos"], "--top"),
                     (["eval", "--svg", "--profile", "nope", "startpos"], "unknown profile 'nope'"),
                     (["eval", "--svg", "not a fen"], "invalid FEN")):
    status, out, err = run(args)
    check(status == 2 and out == "" and len(err.splitlines()) == 1 and needle in err, f"{args}: {status} {out!r} {err!r}")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("OK")
