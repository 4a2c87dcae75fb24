#!/usr/bin/env python3
"""`quince similarity` from the command line: the JSON's shape, the SVG (parsed as XML), the terms of the
profiles, resumption through --state, and bad input (one line on stderr, exit 2; an engine that fails,
exit 1).

    python3 tests/tools/similarity_cli_test.py build/quince build/tests/quince_fake_engine
"""
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

QUINCE, FAKE = sys.argv[1], sys.argv[2]
failures = []

FENS = [
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40",
]


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(args):
    p = subprocess.run([QUINCE, "similarity", *args], capture_output=True, text=True, timeout=600)
    return p.returncode, p.stdout, p.stderr


with tempfile.TemporaryDirectory() as tmp:
    epd = os.path.join(tmp, "positions.epd")
    with open(epd, "w") as f:
        f.write("# test positions\n" + "".join(fen + ' ; id "p";\n' for fen in FENS))
    svg = os.path.join(tmp, "sim.svg")
    state = os.path.join(tmp, "state.txt")

    # Two profiles and the fake engine, three positions, then all four from the same state file.
    base = ["--positions", epd, "--nodes", "2000", "--threads", "2", "--state", state]
    engines = ["profile:rybka1", "profile:fruit21", FAKE]
    status, out, err = run([*base, "--limit", "3", "--json", "--svg", svg, *engines])
    check(status == 0, f"first run: exit {status} {err}")
    doc = json.loads(out)
    n = len(engines)
    check(doc["engines"] == ["rybka1", "fruit21", "quince_fake_engine"], f"engines: {doc['engines']}")
    check(doc["positions"] == 3, f"positions: {doc['positions']}")
    check(doc["limit"] == {"nodes": 2000}, f"limit: {doc['limit']}")
    m = doc["same_move"]
    check(len(m) == n and all(len(row) == n for row in m), "same_move is n x n")
    check(all(m[i][i] == 1 for i in range(n)), "1 on the diagonal")
    check(all(m[i][j] == m[j][i] and 0 <= m[i][j] <= 1 for i in range(n) for j in range(n)), "symmetric fractions")
    check(all(abs(m[i][j] - doc["same_move_count"][i][j] / 3) < 1e-5 for i in range(n) for j in range(n)),
          "fractions are counts over the positions")
    check(all(lo <= m[i][j] + 1e-9 and m[i][j] <= hi + 1e-9 for i in range(n) for j in range(n)
              for lo, hi in [doc["interval95"][i][j]]), "each interval holds its share")
    check(len(doc["controls"]) == n and all(set(c) >= {"engine", "same_limit", "double_limit"} for c in doc["controls"]),
          f"controls: {doc['controls']}")
    check(all(c["same_limit"] == 1 for c in doc["controls"]), "node-limited searches repeat exactly")
    check(len(doc["nearest"]) == n and all(x in doc["engines"] for x in doc["nearest"]), f"nearest: {doc['nearest']}")
    check(len(doc["tree"]) == n - 1 and sorted(doc["leaf_order"]) == list(range(n)), f"tree: {doc['tree']}")
    check(doc["searched"] == 3 * 3 * n and doc["reused"] == 0, f"searches: {doc['searched']} {doc['reused']}")
    check("terms" not in doc, "no terms when a UCI engine is among the engines")
    root = ET.parse(svg).getroot()
    texts = "".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    check(root.tag.endswith("svg") and "rybka1" in texts and "quince_fake_engine" in texts, "the SVG names the engines")
    check(len(list(root.iter("{http://www.w3.org/2000/svg}rect"))) >= n * n, "one cell per pair")
    check(len(list(root.iter("{http://www.w3.org/2000/svg}path"))) >= n - 1, "the tree is drawn")

    status, out, err = run([*base, "--json", *engines])
    doc = json.loads(out) if status == 0 else {}
    check(status == 0 and doc["positions"] == 4 and doc["reused"] == 3 * 3 * n and doc["searched"] == 3 * n,
          f"the second run searches only the new position: {status} {err} {doc.get('searched')} {doc.get('reused')}")

    # Profiles only: the evaluation terms' correlations come along; the text report has the matrix.
    status, out, err = run([*base, "--json", "profile:rybka1", "profile:fruit21"])
    doc = json.loads(out) if status == 0 else {}
    check(status == 0 and doc.get("searched") == 0, f"profiles from the state: {status} {err}")
    terms = doc.get("terms", {})
    check(terms.get("profiles") == ["rybka1", "fruit21"], f"terms profiles: {terms.get('profiles')}")
    names = [t["name"] for t in terms.get("correlation", [])]
    check("mobility" in names and names[-1] == "final", f"term names: {names}")
    for t in terms.get("correlation", []):
        r = t["r"]
        check(len(r) == 2 and all(v is None or -1 <= v <= 1 for row in r for v in row), f"{t['name']}: r {r}")
        if r[0][0] is not None:
            check(abs(r[0][0] - 1) < 1e-5, f"{t['name']}: r with itself {r[0][0]}")
    status, text, err = run([*base, "profile:rybka1", "profile:fruit21"])
    check(status == 0 and "same move, % of positions" in text and "Pearson's r" in text and "nearest" in text,
          f"text report: {status} {text[:300]} {err}")
    status, text, err = run([*base, "--terms", "profile:rybka1", "profile:fruit21", FAKE])
    check(status == 0 and "Pearson's r" in text, f"--terms with a UCI engine: {status} {err}")

    # Bad input: one clear line, exit 2; nothing searched.
    bad_epd = os.path.join(tmp, "bad.epd")
    with open(bad_epd, "w") as f:
        f.write(FENS[0] + "\nrnbqkbnr/pppppppp/8/8 w KQkq\n")
    for args, needle in (([], "no ENGINE given"),
                         (["--positions", bad_epd, "profile:rybka1"], "bad.epd:2:"),
                         (["--positions", os.path.join(tmp, "missing.epd"), "profile:rybka1"], "cannot read"),
                         (["profile:nope"], "'nope' is no built-in profile"),
                         ([FAKE + ":Hash"], "is not Name=Value"),
                         (["--movetime", "10", "--nodes", "10", "profile:rybka1"], "exclude each other"),
                         (["--movetime", "0", "profile:rybka1"], "--movetime must be a whole number"),
                         (["--limit", "x", "profile:rybka1"], "--limit must be"),
                         (["--terms", "profile:rybka1", FAKE], "--terms needs"),
                         (["--make-positions", "5"], "needs --out"),
                         (["--seed", "3", "profile:rybka1"], "belongs to --make-positions"),
                         (["--bogus", "profile:rybka1"], "unknown option")):
        status, out, err = run(args)
        check(status == 2 and out == "" and len(err.splitlines()) == 1 and needle in err, f"{args}: {status} {out!r} {err!r}")
    # Engines that fail: exit 1, one line naming the engine.
    for engine, needle in (("/nonexistent/engine", "cannot start"), (FAKE + ":NoSuchOption=1", "no option 'NoSuchOption'"),
                           (FAKE + " --mode illegal", "illegal move")):
        status, out, err = run(["--positions", epd, "--nodes", "100", engine])
        check(status == 1 and out == "" and len(err.splitlines()) == 1 and needle in err, f"{engine}: {status} {err!r}")
    # A file that is not a state file is not touched.
    other = os.path.join(tmp, "notes.txt")
    with open(other, "w") as f:
        f.write("precious\n")
    status, out, err = run(["--positions", epd, "--nodes", "100", "--state", other, FAKE])
    check(status == 1 and "not a similarity state file" in err and open(other).read() == "precious\n", f"state: {err!r}")

# The help names the subcommand.
p = subprocess.run([QUINCE, "--help"], capture_output=True, text=True)
check("similarity" in p.stdout, "quince --help lists similarity")

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("OK")
