#!/usr/bin/env python3
"""The workbench page (web/) in a real browser.

    python3 tests/web/web_test.py build/quince web OUTPUT_DIR

Opens web/index.html from disk (file://) in Debian's headless chromium for a few addresses and reads the
page after its scripts ran (--dump-dom): every number of the compare table (data-profile, data-term,
data-cp) and every final score (data-final) must equal `quince compare --json` of the native build for the
same position and profiles; absent terms must be absent there too; the position after the address's
moves must be the one the native build reaches; the search line's best move must be legal there; a bad
address must be reported on the page and leave the start position. Saves a screenshot
(OUTPUT_DIR/web_workbench.png). Needs web/quince.js (scripts/web.sh). Exit 1 on any failure.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
from html.parser import HTMLParser

ENGINE, WEB_DIR, OUT_DIR = sys.argv[1], os.path.abspath(sys.argv[2]), sys.argv[3]
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print("FAIL:", what)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("web_test: no chromium found (scripts/deps.sh installs Debian's chromium)")


BROWSER = chromium()
# A throwaway profile per run; --no-sandbox because CI runs as root.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--allow-file-access-from-files",
         "--virtual-time-budget=60000", "--run-all-compositor-stages-before-draw"]


def page_url(**params):
    return "file://" + os.path.join(WEB_DIR, "index.html") + "?" + urllib.parse.urlencode(params)


def dump_dom(url):
    """The page after its scripts ran: the status line carries data-ready once the engine answered.
    A page dumped before that (a slow start of the browser) is read again, at most three times."""
    for attempt in range(3):
        with tempfile.TemporaryDirectory() as profile:
            p = subprocess.run([BROWSER, *FLAGS, "--user-data-dir=" + profile, "--dump-dom", url],
                               capture_output=True, text=True, timeout=300)
        if p.returncode == 0 and 'data-ready="true"' in p.stdout:
            return p.stdout
    check(False, f"the page never became ready (chromium exit {p.returncode}) for {url}: {p.stderr[-500:]}")
    return p.stdout


class Cells(HTMLParser):
    """Elements with data-* attributes and the text of a few elements by id."""

    def __init__(self):
        super().__init__()
        self.cells = []  # attribute dicts of elements carrying data-profile
        self.by_id = {}
        self.text = {}
        self._open = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "data-profile" in a:
            self.cells.append(a)
        if "id" in a:
            self.by_id[a["id"]] = a
        self._open.append(a.get("id"))

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        for i in self._open:
            if i:
                self.text[i] = self.text.get(i, "") + data


def parse(html):
    p = Cells()
    p.feed(html)
    return p


def native_compare(fen, profiles):
    p = subprocess.run([ENGINE, "compare", "--json", fen, *profiles], capture_output=True, text=True, timeout=60)
    check(p.returncode == 0, f"quince compare --json {fen}: {p.stderr}")
    return json.loads(p.stdout)


def native_after_moves(start, moves):
    words = ([start] if start != "startpos" else ["startpos"]) + (["moves", *moves] if moves else [])
    p = subprocess.run([ENGINE, "analyse", *words, "--depth", "1", "--json"], capture_output=True, text=True,
                       timeout=60)
    result = [json.loads(l) for l in p.stdout.splitlines() if '"result"' in l][0]
    return result["fen"]


def legal_moves(fen):
    p = subprocess.run([ENGINE, f"position fen {fen}", "go perft 1"], capture_output=True, text=True, timeout=60)
    return {l.split(":")[0] for l in p.stdout.splitlines() if ":" in l and not l.startswith("Nodes")}


def check_page(page, fen, profiles):
    want = native_compare(fen, profiles)
    cells = [c for c in page.cells if "data-term" in c]
    finals = {c["data-profile"]: c["data-final"] for c in page.cells if "data-final" in c}
    check(fen == page.by_id.get("fen", {}).get("data-fen"), f"page position {page.by_id.get('fen')} != {fen}")
    check(len(cells) > 0, f"no compare cells on the page for {fen}")
    for prof in want["profiles"]:
        name = prof["profile"]
        check(finals.get(name) == str(prof["final_cp_white_view"]),
              f"{fen} {name}: data-final {finals.get(name)} != {prof['final_cp_white_view']}")
        for term in prof["terms"]:
            mine = [c for c in cells if c["data-profile"] == name and c["data-term"] == term["name"]]
            check(len(mine) > 0, f"{fen} {name} {term['name']}: no cell")
            if term.get("absent"):
                check(all(c.get("data-absent") == "true" and "data-cp" not in c for c in mine),
                      f"{fen} {name} {term['name']}: absent in compare, not on the page")
            else:
                for c in mine:
                    check("data-cp" in c and abs(float(c["data-cp"]) - term["cp"]) < 1e-9,
                          f"{fen} {name} {term['name']}: data-cp {c.get('data-cp')} != {term['cp']}")
    best = page.by_id.get("pv", {}).get("data-best", "")
    check(best in legal_moves(fen), f"{fen}: search line's best move '{best}' is not legal")


os.makedirs(OUT_DIR, exist_ok=True)
check(os.path.isfile(os.path.join(WEB_DIR, "quince.js")), "web/quince.js is missing (scripts/web.sh builds it)")
if failures:
    sys.exit(1)

# 1. A middlegame, the three seeds' profiles.
fen = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 1 8"
profiles = ["rybka1", "rybka232", "fruit21"]
page = parse(dump_dom(page_url(fen=fen, profiles=",".join(profiles), depth=5)))
check_page(page, fen, profiles)

# 2. The start position and moves (UCI and SAN) with the fitted profile first.
moves = ["e2e4", "e7e5", "Nf3", "Nc6"]
page = parse(dump_dom(page_url(fen="startpos", moves=" ".join(moves), profiles="quince,rybka1", depth=4)))
after = native_after_moves("startpos", moves)
check_page(page, after, ["quince", "rybka1"])
check(page.by_id.get("moves", {}).get("data-moves") == "e2e4 e7e5 g1f3 b8c6",
      f"moves kept as {page.by_id.get('moves', {}).get('data-moves')}")

# 3. A bad address: reported, and the start position instead.
page = parse(dump_dom(page_url(fen="8/8/8/8 w - - 0 1", profiles="rybka1")))
start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
check(page.by_id.get("fen", {}).get("data-fen") == start, "bad FEN in the address: start position not kept")
check("invalid FEN" in page.text.get("error", ""), f"bad FEN not reported: {page.text.get('error')!r}")

# 4. A screenshot of the first page.
shot = os.path.join(OUT_DIR, "web_workbench.png")
if os.path.exists(shot):
    os.remove(shot)
with tempfile.TemporaryDirectory() as profile_dir:
    subprocess.run([BROWSER, *FLAGS, "--user-data-dir=" + profile_dir, "--window-size=1400,1600",
                    "--screenshot=" + shot, page_url(fen=fen, profiles=",".join(profiles), depth=5)],
                   capture_output=True, timeout=300)
check(os.path.isfile(shot) and os.path.getsize(shot) > 20000, f"screenshot {shot} missing or empty")

print("web_test:", "FAILED" if failures else "OK", f"({len(failures)} failures)")
sys.exit(1 if failures else 0)
