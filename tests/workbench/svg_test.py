#!/usr/bin/env python3
"""`quince eval --svg` and `quince compare --svg`: the evaluation workbench's picture (src/workbench/svg.cpp).

    python3 tests/workbench/svg_test.py build/quince OUTPUT_DIR

Each picture must parse as XML (xml.etree), draw the 64 squares, one piece drawing per piece of the FEN,
the king zones and the scored passed pawns, and carry per square the terms credited there; those shares,
summed over the board, must give each term's cp of `eval --json` (material and imbalance are on no
square). Then Debian's rsvg-convert (package librsvg2-bin, scripts/deps.sh) must render it to a PNG of
the declared size. Exit 1 on any failure.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET

ENGINE, OUT_DIR = sys.argv[1], sys.argv[2]
NS = {"svg": "http://www.w3.org/2000/svg"}
XLINK = "{http://www.w3.org/1999/xlink}href"
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def run(args):
    p = subprocess.run([ENGINE, *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def pieces_of(fen):
    return sum(ch.isalpha() for ch in fen.split()[0])


def king_zone_size(fen):
    board = fen.split()[0].split("/")
    total = 0
    for r, row in enumerate(board):
        f = 0
        for ch in row:
            if ch.isdigit():
                f += int(ch)
                continue
            if ch in "Kk":
                total += sum(1 for dr in (-1, 0, 1) for df in (-1, 0, 1)
                             if (dr or df) and 0 <= r + dr < 8 and 0 <= f + df < 8)
            f += 1
    return total


def render(svg_path, width, height):
    png = svg_path[:-4] + ".png"
    if shutil.which("rsvg-convert") is None:
        check(False, "rsvg-convert is missing: install librsvg2-bin (scripts/deps.sh)")
        return
    p = subprocess.run(["rsvg-convert", svg_path, "-o", png], capture_output=True, text=True, timeout=120)
    check(p.returncode == 0, f"rsvg-convert {svg_path}: {p.stderr}")
    with open(png, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{png} is a PNG")
    w, h = struct.unpack(">II", head[16:24])
    check((w, h) == (width, height), f"{png}: {w}x{h}, declared {width}x{height}")


def picture(args, name):
    status, out, err = run(args)
    check(status == 0 and err == "", f"{args}: exit {status} {err}")
    path = os.path.join(OUT_DIR, name + ".svg")
    with open(path, "w") as f:
        f.write(out)
    try:
        root = ET.fromstring(out)
    except ET.ParseError as e:
        check(False, f"{args}: not well-formed XML: {e}")
        return None, path
    check(root.tag == "{http://www.w3.org/2000/svg}svg", f"{args}: root element {root.tag}")
    return root, path


positions = [
    ("8/5pk1/6p1/3P4/1r6/5PP1/5K2/3R4 w - - 0 40", 1),  # a passed pawn
    ("r1bq1rk1/pp3ppp/2n1pn2/3p4/1bPP4/2NBPN2/PP3PPP/R2QK2R w KQ - 0 8", 0),
    ("r2q1rk1/ppp2ppp/2n5/3Np1B1/2B1P1b1/3P1Q2/PPP2PPP/R4RK1 b - - 0 10", 0),  # king attack
    ("6k1/1P6/8/8/8/5ppp/8/6K1 b - - 0 1", 4),  # passers on four files
]
os.makedirs(OUT_DIR, exist_ok=True)
for n, (fen, passers) in enumerate(positions):
    for profile in ("rybka1", "rybka232", "fruit21"):
        root, path = picture(["eval", "--svg", "--profile", profile, fen], f"eval_{n}_{profile}")
        if root is None:
            continue
        squares = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.find("svg:title", NS) is not None]
        check(len(squares) == 64, f"{fen}: 64 squares, got {len(squares)}")
        uses = root.findall(".//svg:use", NS)
        check(len(uses) == pieces_of(fen), f"{fen}: {pieces_of(fen)} pieces drawn, got {len(uses)}")
        defs = {g.get("id") for g in root.findall("svg:defs/svg:g", NS)}
        check(all(u.get(XLINK, "")[1:] in defs for u in uses), "every piece refers to a drawing in <defs>")
        check(not root.findall(".//svg:image", NS) and 'font-family="Chess' not in ET.tostring(root, encoding="unicode"),
              "pieces are drawn, not images or a chess font")
        zones = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("stroke-dasharray")]
        check(len(zones) == king_zone_size(fen), f"{fen}: king zones {len(zones)} != {king_zone_size(fen)}")
        rings = [c for c in root.iter("{http://www.w3.org/2000/svg}circle") if c.get("stroke") == "#ff8c00"]
        check(len(rings) == passers, f"{fen} {profile}: {passers} passed pawns marked, got {len(rings)}")
        text = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
        check("final score" in text and "cp" in text and "credit on a square" in text, f"legend and score: {text[:120]}")
        # The square shares add up to eval's terms (titles: "e4; pst_pawn +3.5; pawn_structure -1.2 = +2.3 cp").
        ev = json.loads(run(["eval", "--json", "--profile", profile, fen])[1])
        sums, count = {}, {}
        for g in squares:
            for part in g.find("svg:title", NS).text.split(" = ")[0].split("; ")[1:]:
                name, value = part.rsplit(" ", 1)
                sums[name] = sums.get(name, 0.0) + float(value)
                count[name] = count.get(name, 0) + 1
        for term in ev["terms"]:
            name = term["name"]
            want = 0.0 if name in ("material", "imbalance") else term["cp"]
            tolerance = 0.05 * count.get(name, 0) + 1e-6
            check(abs(sums.get(name, 0.0) - want) <= tolerance,
                  f"{fen} {profile}: squares of {name} sum to {sums.get(name, 0.0):.2f}, eval says {want:.2f}")
        check(f"final score {'+' if ev['final_cp'] > 0 else ''}{ev['final_cp']} cp" in text, f"final score shown: {ev['final_cp']}")
        render(path, int(root.get("width")), int(root.get("height")))

# compare --svg: the profiles side by side on one scale.
fen = positions[0][0]
root, path = picture(["compare", "--svg", fen], "compare")
if root is not None:
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("font-weight") == "bold"]
    check(titles == ["rybka1", "rybka232", "fruit21"], f"one board per profile, in order: {titles}")
    check(len(root.findall(".//svg:use", NS)) == 3 * pieces_of(fen), "pieces on every board")
    single = ET.fromstring(run(["eval", "--svg", fen])[1])
    check(int(root.get("width")) > 3 * int(single.get("width")), "three boards wide")
    render(path, int(root.get("width")), int(root.get("height")))

if failures:
    print(f"{len(failures)} failure(s)")
    sys.exit(1)
print("OK")
