#!/usr/bin/env python3
"""Re-derives the test vectors of eval-spec.md (Rybka 1.0 Beta evaluation spec) and checks them.

Checks: (1) the Rybka 1.0 PST generator of eval-spec.md §4.1 against the transcribed tables of §4.2,
(2) RybkaQuad arrays (§10.4/§17.2), (3) material index / phase / flags (§2, §3, §17.3),
(4) shelter/storm table entries (§7.2/§17.4), (5) pawn-structure examples (§5/§17.6),
(6) king-attack examples (§17.5).  Usage: python3 docs/eval_spec_check.py [path/to/eval-spec.md]
"""
import os, re, sys

SPEC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "eval-spec.md")
fails = 0


def check(name, got, want):
    global fails
    if got != want:
        fails += 1
        print("FAIL", name, "got", got, "want", want)


# ---------------------------------------------------------------- (1) PST
PawnFile = [-3, -1, 0, 1, 1, 0, -1, -3]; KnightLine = [-4, -2, 0, 1, 1, 0, -2, -4]
KnightRank = [-2, -1, 0, 1, 2, 3, 2, 1]; BishopLine = [-3, -1, 0, 1, 1, 0, -1, -3]
RookFile = [-2, -1, 0, 1, 1, 0, -1, -2]; QueenLine = [-3, -1, 0, 1, 1, 0, -1, -3]
KingLine = [-3, -1, 0, 1, 1, 0, -1, -3]; KingFile = [3, 4, 2, 0, 0, 2, 4, 3]; KingRank = [1, 0, -2, -3, -4, -5, -6, -7]
W = dict(PFO=181, PFE=-97, NCO=347, NCE=56, NRO=358, NBR=0, NT=3200, BCO=147, BCE=49, BBR=251, BDO=378,
         RFO=104, QCO=98, QCE=108, QBR=201, KCE=401, KFO=469, KRO=0)


def pst():
    P = {p: [[0, 0] for _ in range(64)] for p in "PNBRQK"}
    for sq in range(64):
        f, r = sq & 7, sq >> 3
        P["P"][sq] = [PawnFile[f] * W["PFO"], PawnFile[f] * W["PFE"]]
        P["N"][sq] = [(KnightLine[f] + KnightLine[r]) * W["NCO"] + KnightRank[r] * W["NRO"], (KnightLine[f] + KnightLine[r]) * W["NCE"]]
        P["B"][sq] = [(BishopLine[f] + BishopLine[r]) * W["BCO"], (BishopLine[f] + BishopLine[r]) * W["BCE"]]
        P["R"][sq] = [RookFile[f] * W["RFO"], 0]
        P["Q"][sq] = [(QueenLine[f] + QueenLine[r]) * W["QCO"], (QueenLine[f] + QueenLine[r]) * W["QCE"]]
        P["K"][sq] = [KingFile[f] * W["KFO"] + KingRank[r] * W["KRO"], (KingLine[f] + KingLine[r]) * W["KCE"]]
    P["P"][35][0] += 74; P["P"][36][0] += 74                      # d5, e5
    for sq in range(8):
        P["N"][sq][0] -= W["NBR"]; P["B"][sq][0] -= W["BBR"]; P["Q"][sq][0] -= W["QBR"]
    P["N"][56][0] -= W["NT"]; P["N"][63][0] -= W["NT"]             # a8, h8
    for i in range(8):
        P["B"][i * 9][0] += W["BDO"]; P["B"][(i * 9) ^ 56][0] += W["BDO"]
    return P


text = open(SPEC, encoding="utf-8").read()
blocks = re.findall(r"#### (\w+) — (opening|endgame) \(seed 003 Table \d+\)\n\n```\n(.*?)```", text, re.S)
P = pst()
names = {"Pawn": "P", "Knight": "N", "Bishop": "B", "Rook": "R", "Queen": "Q", "King": "K"}
n_checked = 0
for piece, stage, body in blocks:
    rows = [l for l in body.split("\n") if re.match(r"\s+[1-8]\s+\|", l)]
    for l in rows:
        rank = int(l.split("|")[0])
        left = [int(x) for x in l.split("||")[0].split("|")[1].split()]
        for f in range(8):
            check(f"PST {piece} {stage} {'abcdefgh'[f]}{rank}", left[f], P[names[piece]][(rank - 1) * 8 + f][0 if stage == "opening" else 1])
            n_checked += 1
check("PST values checked", n_checked, 768)

# ---------------------------------------------------------------- (2) quad
Bonus = [0, 0, 0, 26, 77, 154, 256, 256]
rq = lambda lo, hi: [lo + (hi - lo) * b // 256 for b in Bonus]
check("PassedOpening", rq(0, 4821), [0, 0, 0, 489, 1450, 2900, 4821, 4821])
check("PassedEndgame", rq(146, 2020), [146, 146, 146, 336, 709, 1273, 2020, 2020])
check("UnblockedOwn", rq(0, 262), [0, 0, 0, 26, 78, 157, 262, 262])
check("UnblockedOpp", rq(0, 1311), [0, 0, 0, 133, 394, 788, 1311, 1311])
check("PassedFree", rq(0, 1000), [0, 0, 0, 101, 300, 601, 1000, 1000])
check("AttDistance", rq(0, 650), [0, 0, 0, 66, 195, 391, 650, 650])
check("DefDistance", rq(0, 1295), [0, 0, 0, 131, 389, 779, 1295, 1295])
check("CandOp", rq(0, 3763), [0, 0, 0, 382, 1131, 2263, 3763, 3763])
check("CandEg", rq(18, 1626), [18, 18, 18, 181, 501, 985, 1626, 1626])
check("UnblockedOwn23", rq(0, 274), [0, 0, 0, 27, 82, 164, 274, 274])
check("UnblockedOpp23", rq(0, 1372), [0, 0, 0, 139, 412, 825, 1372, 1372])
check("PassedFree23", rq(0, 1046), [0, 0, 0, 106, 314, 629, 1046, 1046])
check("AttDistance23", rq(0, 680), [0, 0, 0, 69, 204, 409, 680, 680])
check("DefDistance23", rq(0, 1355), [0, 0, 0, 137, 407, 815, 1355, 1355])

# ---------------------------------------------------------------- (3) material
def mindex(wq, bq, wr, br, wb, bb, wn, bn, wp, bp):
    return wq + 2 * bq + 4 * wr + 12 * br + 36 * wb + 108 * bb + 324 * wn + 972 * bn + 2916 * wp + 26244 * bp

def mphase(wq, bq, wr, br, wb, bb, wn, bn, wp, bp):
    p = max(0, 24 - (wn + bn + wb + bb) - 2 * (wr + br) - 4 * (wq + bq))
    return ((p * 256 + 12) // 24) // 4

def mflags(wq, bq, wr, br, wb, bb, wn, bn, wp, bp):
    c = (0x08 if bq >= 1 and bq + br + bb + bn >= 2 else 0) | (0x80 if wq >= 1 and wq + wr + wb + wn >= 2 else 0)
    f = 0x80 if (wq + wr + wn == 0 and bq + br + bn == 0 and wb == 1 and bb == 1 and abs(wp - bp) <= 2) else 0
    return f, c

for counts, idx, ph, fl, cf in [((1, 1, 2, 2, 2, 2, 2, 2, 8, 8), 236195, 0, 0, 0x88), ((0,) * 10, 0, 64, 0, 0),
                                ((0, 1, 2, 0, 0, 0, 0, 1, 0, 0), 982, 40, 0, 0x08), ((0, 0, 0, 0, 1, 1, 0, 0, 4, 3), 90540, 58, 0x80, 0),
                                ((1, 1, 1, 1, 0, 0, 0, 0, 0, 0), 19, 32, 0, 0x88), ((2, 1, 0, 0, 0, 0, 0, 0, 0, 0), 4, 32, 0, 0x80)]:
    check(f"index {counts}", mindex(*counts), idx)
    check(f"phase {counts}", mphase(*counts), ph)
    check(f"flags {counts}", mflags(*counts), (fl, cf))
check("reachable phases", sorted({((p * 256 + 12) // 24) // 4 for p in range(25)}),
      [0, 2, 5, 8, 10, 13, 16, 18, 21, 24, 26, 29, 32, 34, 37, 40, 42, 45, 48, 50, 53, 56, 58, 61, 64])

# ---------------------------------------------------------------- (4) shelter / storm
SV, TV = [1121, 0, 214, 749, 915], [0, 0, 2334, 653, 310]
def dfile(m, j):
    return next((k + 1 for k in range(4) if m >> (3 * k + j) & 1), 0)
def shelter(m):
    t = 2 * SV[dfile(m, 1)] + SV[dfile(m, 0)] + SV[dfile(m, 2)]
    return 794 if t == 0 else t
def storm(m):
    return sum(TV[dfile(m, j)] for j in range(3))
for m, s, t in [(0x000, 4484, 0), (0x007, 794, 0), (0x002, 2242, 0), (0x005, 2242, 0), (0x010, 2670, 2334),
                (0x038, 856, 7002), (0x1C0, 2996, 1959), (0xE00, 3660, 930), (0x03A, 428, 4668), (0xFFF, 794, 0)]:
    check(f"shelter {m:#x}", (shelter(m), storm(m)), (s, t))

# ---------------------------------------------------------------- (5) pawn structure (White view)
def sqn(s): return (ord(s[0]) - 97) + 8 * (int(s[1]) - 1)
def bb(*s): return sum(1 << sqn(x) for x in s)
def onb(f, r): return 0 <= f < 8 and 0 <= r < 8
def sqmask(cells): return sum(1 << (r * 8 + f) for f, r in cells if onb(f, r))
def pawn_eval(WP, BP):
    op = eg = 0; files = [0, 0]
    for white in (True, False):
        own, opp, s, d = (WP, BP, 1, 1) if white else (BP, WP, -1, -1)
        x = own
        while x:
            sq = (x & -x).bit_length() - 1; x &= x - 1
            f, r = sq & 7, sq >> 3
            ahead = [k for k in range(8) if (k > r if white else k < r)]
            fwd = sqmask([(f, k) for k in ahead])
            iso = sqmask([(g, k) for g in (f - 1, f + 1) for k in range(8)])
            prot = sqmask([(g, k) for g in (f - 1, f + 1) for k in range(8) if (k <= r if white else k >= r)])
            pas = sqmask([(g, k) for g in (f - 1, f, f + 1) for k in ahead])
            a1 = sqmask([(f - 1, r + 2 * d), (f + 1, r + 2 * d)])
            a2 = sqmask([(f - 1, r + 3 * d), (f + 1, r + 3 * d)])
            pa = sqmask([(f - 1, r + d), (f + 1, r + d)])
            o = e = 0
            if fwd & own: e -= 158
            opn = (fwd & (WP | BP)) == 0
            if iso & own == 0:
                o -= 923 if opn else 79; e -= 324
            elif prot & own == 0 and ((a1 & opp) or ((a2 & opp) and (pa & own) == 0)):
                o -= 872 if opn else 406; e -= 297
            rr = r if white else 7 - r
            if pas & opp == 0: files[0 if white else 1] |= 1 << f
            elif opn and bin(prot & own).count("1") >= bin(pas & opp).count("1"):
                o += rq(0, 3763)[rr]; e += rq(18, 1626)[rr]
            op += s * o; eg += s * e
    return op, eg, files
check("pawns start", pawn_eval(bb(*[c + "2" for c in "abcdefgh"]), bb(*[c + "7" for c in "abcdefgh"])), (0, 0, [0, 0]))
check("pawns a2 c2", pawn_eval(bb("a2", "c2"), 0), (-1846, -648, [5, 0]))
check("pawns d3 e4 / e5", pawn_eval(bb("d3", "e4"), bb("e5")), (-793, 27, [0, 0]))
check("pawns d4 / d5", pawn_eval(bb("d4"), bb("d5")), (0, 0, [0, 0]))
check("pawns c2 c3 d2", pawn_eval(bb("c2", "c3", "d2"), 0), (0, -158, [12, 0]))
check("pawns b4 a3 / c6", pawn_eval(bb("b4", "a3"), bb("c6")), (1305, 505, [1, 0]))

# ---------------------------------------------------------------- (6) king attack
KAW = [0, -1, 37, 71, 100] + [100] * 11
for n, w, want in [(1, 941, -30), (2, 418 + 666, 1253), (3, 941 + 532, 3268), (8, 2 * 941 + 2 * 418 + 2 * 666 + 532, 14318)]:
    check(f"king attack n={n}", (KAW[n] * w) >> 5, want)

print("OK" if fails == 0 else f"{fails} failures")
sys.exit(1 if fails else 0)
