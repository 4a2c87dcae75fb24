#!/usr/bin/env python3
"""Independent reference of the fruit21 profile: Fruit 2.1's values (the † values of spec docs/eval-spec.md),
written in Fruit's centipawns and multiplied by 32 (Quince's 1/32-cp unit), applied with the rules
src/eval/profile.cpp documents for this profile (Quince's machinery where Fruit's rule cannot be
expressed: wing rectangles for the shelter, Rybka's backward/candidate and free-path definitions).
Plain square loops; only board helpers (FEN parsing, attack squares), Fruit's game phase (the same in
every profile) and the comparison driver come from reference_eval.py.

    python3 tests/eval/reference_fruit21.py build/eval_trace tests/eval/reference_positions.epd [more.epd ...]

Compares the profile's score (before the known-ending scale) and every term total (op, eg) with `eval_trace --json --profile fruit21`.
"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_eval import parse, mirror, attacks, pawn_att, counts, sq, on, dist  # board helpers
from reference_eval import all_attacks, side_difference, phase_of, check_against_trace  # and the driver

C = 32  # internal units per centipawn
VALUE = {'P': 80, 'N': 325, 'B': 325, 'R': 500, 'Q': 1000}  # opening; pawn 90 in the endgame
BONUS = [0, 0, 0, 26, 77, 154, 256, 0]  # Fruit: Rank4..Rank7


def quad(lo, hi, r): return lo + ((hi - lo) * BONUS[r] + 128) // 256  # Fruit's quad(), cp


# PST (Fruit's pst.cpp formula, cp)
PawnFile = [-3, -1, 0, 1, 1, 0, -1, -3]; KnightLine = [-4, -2, 0, 1, 1, 0, -2, -4]
KnightRank = [-2, -1, 0, 1, 2, 3, 2, 1]; Line = [-3, -1, 0, 1, 1, 0, -1, -3]
RookFile = [-2, -1, 0, 1, 1, 0, -1, -2]; KingFile = [3, 4, 2, 0, 0, 2, 4, 3]
KingRank = [1, 0, -2, -3, -4, -5, -6, -7]
CENTRE = {19: 10, 20: 10, 27: 20, 28: 20, 35: 10, 36: 10}  # d3 e3, d4 e4, d5 e5


def pst(p, s):
    f, r = s & 7, s >> 3
    if p == 'P': return PawnFile[f] * 5 + CENTRE.get(s, 0), 0
    if p == 'N': return ((KnightLine[f] + KnightLine[r]) * 5 + KnightRank[r] * 5 - (100 if s in (56, 63) else 0),
                         (KnightLine[f] + KnightLine[r]) * 5)
    if p == 'B': return ((Line[f] + Line[r]) * 2 - (10 if r == 0 else 0) + (4 if (f == r or f + r == 7) else 0),
                         (Line[f] + Line[r]) * 3)
    if p == 'R': return RookFile[f] * 3, 0
    if p == 'Q': return (Line[f] + Line[r]) * 0 - (5 if r == 0 else 0), (Line[f] + Line[r]) * 4
    if p == 'K': return KingFile[f] * 10 + KingRank[r] * 10, (Line[f] + Line[r]) * 12


UNIT = {'N': 1, 'B': 1, 'R': 2, 'Q': 4}
KAW = [0, 0, 128, 192, 224, 240, 248, 252, 254, 255, 256, 256, 256, 256, 256, 256]
MOB = {'N': (4, 4, 4), 'B': (5, 5, 6), 'R': (2, 4, 7), 'Q': (1, 2, 13)}  # op, eg, unit offset


def pawn_terms(board):
    own = {s for s, p in board.items() if p == 'P'}
    opp = {s for s, p in board.items() if p == 'p'}
    op = eg = files = 0
    for s in own:
        f, r = s & 7, s >> 3
        ahead = [sq(f, k) for k in range(r + 1, 8)]
        openf = not any(x in own or x in opp for x in ahead)
        if any(x in own for x in ahead): op -= 10; eg -= 20
        adj = [sq(g, k) for g in (f - 1, f + 1) if 0 <= g < 8 for k in range(8)]
        prot = [sq(g, k) for g in (f - 1, f + 1) if 0 <= g < 8 for k in range(0, r + 1)]
        passed = [sq(g, k) for g in (f - 1, f, f + 1) if 0 <= g < 8 for k in range(r + 1, 8)]
        a1 = [sq(g, r + 2) for g in (f - 1, f + 1) if on(g, r + 2)]
        a2 = [sq(g, r + 3) for g in (f - 1, f + 1) if on(g, r + 3)]
        pa = [sq(g, r + 1) for g in (f - 1, f + 1) if on(g, r + 1)]
        if not any(x in own for x in adj):
            op -= 20 if openf else 10; eg -= 20
        elif not any(x in own for x in prot) and (any(x in opp for x in a1) or (any(x in opp for x in a2) and not any(x in own for x in pa))):
            op -= 16 if openf else 8; eg -= 10
        if not any(x in opp for x in passed): files |= 1 << f
        elif openf and sum(x in own for x in prot) >= sum(x in opp for x in passed):
            op += quad(5, 55, r); eg += quad(10, 110, r)
    return op * C, eg * C, files


def wing_penalty(board, wing):
    """Fruit's shelter_file (36 - d^2) / storm_file (60/30/10) in Quince's wing rectangles, cp x 32."""
    first = [0, 3, 5][wing]
    sh = st = 0
    for j in range(3):
        f = first + j
        own = next((k + 2 for k in range(4) if board.get(sq(f, k + 1)) == 'P'), None)   # relative rank 2..5
        enemy = next((k + 2 for k in range(4) if board.get(sq(f, k + 1)) == 'p'), None)
        sh += (36 - (8 - own) ** 2 if own else 36) * (2 if j == 1 else 1)
        st += {3: 60, 4: 30, 5: 10}.get(enemy, 0)
    return ((11 if sh == 0 else sh) + st) * C


def side_terms(board, stm_white, attB):
    T = {}
    def add(name, o, e):
        T.setdefault(name, [0, 0]); T[name][0] += o; T[name][1] += e
    wc, bc = counts(board, True), counts(board, False)
    wk = next(s for s, p in board.items() if p == 'K'); bk = next(s for s, p in board.items() if p == 'k')
    flag_b = wc['Q'] >= 1 and wc['Q'] + wc['R'] + wc['B'] + wc['N'] >= 2
    flag_w = bc['Q'] >= 1 and bc['Q'] + bc['R'] + bc['B'] + bc['N'] >= 2
    D = {'P': 1, 'N': 3, 'B': 3, 'R': 5, 'Q': 10}
    base = 80 * C * sum(D[t] * n for t, n in wc.items())
    add('material', base, base + 10 * C * wc['P'])
    imb = C * sum((VALUE[t] - 80 * D[t]) * n for t, n in wc.items() if t != 'P') + (50 * C if wc['B'] >= 2 else 0)
    add('imbalance', imb, imb)
    names = {'P': 'pawn', 'N': 'knight', 'B': 'bishop', 'R': 'rook', 'Q': 'queen', 'K': 'king'}
    for s, p in board.items():
        if p.isupper():
            o, e = pst(p, s); add('pst_' + names[p], o * C, e * C)
    o, e, files = pawn_terms(board)
    add('pawn_structure', o, e)
    zone = attacks(board, bk, 'K')
    attW = set()
    for s, p in board.items():
        if p == 'P': attW |= pawn_att(s, True)
    n = wt = 0  # Fruit: pawns do not count
    bp_rank7 = any(board.get(sq(f, 6)) == 'p' for f in range(8))
    for s, p in board.items():
        if p not in 'NBRQ': continue
        a = attacks(board, s, p)
        attW |= a
        if a & zone: n += 1; wt += UNIT[p]
        mob = sum(1 for x in a if not (x in board and board[x].isupper())) - MOB[p][2]
        add('mobility', mob * MOB[p][0] * C, mob * MOB[p][1] * C)
        if p == 'R':
            f = s & 7
            F = [sq(f, k) for k in range(8)]  # Fruit: whole file
            add('rook_file', -10 * C, -10 * C)
            if not any(board.get(x) == 'P' for x in F):
                o, e = 10, 10
                if not any(board.get(x) == 'p' for x in F): o += 10; e += 10
                if flag_b and abs(f - (bk & 7)) <= 1:
                    o += 10 + (10 if f == (bk & 7) else 0)
                add('rook_file', o * C, e * C)
        if p in 'RQ' and (s >> 3) == 6 and (bp_rank7 or (bk >> 3) == 7):
            add('seventh_rank', *((20 * C, 40 * C) if p == 'R' else (10 * C, 20 * C)))
    attW |= attacks(board, wk, 'K')
    if flag_b: add('king_attack', (KAW[min(n, 15)] * wt * 20 * C) // 256, 0)  # exact: 2.5 per unit-weight
    if flag_w:
        w = [0, 0, 0, 1, 1, 2, 2, 2][wk & 7]
        p1 = wing_penalty(board, w); p2 = p1
        if 'K' in CASTLE[0]: p2 = min(p2, wing_penalty(board, 2))
        if 'Q' in CASTLE[0]: p2 = min(p2, wing_penalty(board, 0))
        add('king_shelter', -((p1 + p2) >> 1), 0)
    black_pieces = any(p in 'nbrq' for p in board.values())
    for f in range(8):
        if not files >> f & 1: continue
        s = max(x for x, p in board.items() if p == 'P' and (x & 7) == f)
        r = s >> 3
        path = [sq(f, k) for k in range(r + 1, 8)]
        o, e = quad(10, 70, r) * C, quad(20, 140, r) * C
        promo = sq(f, 7)
        if not black_pieces:
            R = 3 if r + 1 == 2 else r + 1
            moves = 8 - R + (0 if stm_white else 1)
            unst = not any(x in board and board[x].isupper() for x in path) and dist(bk, promo) > moves
            kp = dist(wk, promo) <= 1 and dist(wk, s) <= 1 and ((wk & 7) != f or f not in (0, 7))
            if unst or kp: e += quad(0, 800, r) * C
        elif not any(x in attB and x not in attW for x in path):
            e += quad(0, 60, r) * C
        e += dist(bk, s + 8) * ((20 * C * BONUS[r] + 128) // 256) - dist(wk, s + 8) * ((5 * C * BONUS[r] + 128) // 256)
        add('passed_pawns', o, e)
    o = e = 0
    def at(s, p): return board.get(s) == p
    for b, pw, v in [(40, 33, 50), (48, 41, 100), (57, 50, 100), (47, 38, 50), (55, 46, 100), (62, 53, 100)]:
        if at(b, 'B') and at(pw, 'p'): o -= v; e -= v
    if at(2, 'B') and at(11, 'P') and 19 in board: o -= 50
    if at(5, 'B') and at(12, 'P') and 20 in board: o -= 50
    if any(at(x, 'R') for x in (0, 1, 8)) and any(at(x, 'K') for x in (1, 2)): o -= 50
    if any(at(x, 'R') for x in (6, 7, 15)) and any(at(x, 'K') for x in (5, 6)): o -= 50
    add('patterns', o * C, e * C)
    return T


CASTLE = ['']


def evaluate(fen):
    board, stm, castle = parse(fen)
    mb, mstm, mcastle = mirror(board, stm, castle)
    CASTLE[0] = castle if castle != '-' else ''
    Tw = side_terms(board, stm == 'w', all_attacks(board, False))
    CASTLE[0] = mcastle if mcastle != '-' else ''
    Tb = side_terms(mb, mstm == 'w', all_attacks(mb, False))
    tot = side_difference(Tw, Tb)
    op = sum(v[0] for v in tot.values()); eg = sum(v[1] for v in tot.values())
    wc, bc = counts(board, True), counts(board, False)
    phase = phase_of(wc, bc)
    sign = 1 if stm == 'w' else -1
    s = (sign * op * (256 - 4 * phase) + sign * eg * 4 * phase) >> 13
    bishops = [x for x, y in board.items() if y in 'Bb']
    if (wc['Q'] + wc['R'] + wc['N'] == 0 and bc['Q'] + bc['R'] + bc['N'] == 0 and wc['B'] == 1 and bc['B'] == 1
            and abs(wc['P'] - bc['P']) <= 2 and len({((x & 7) + (x >> 3)) & 1 for x in bishops}) == 2):
        s = int(s / 2)  # Fruit's mul 8/16 after the mix
    return s, tot  # no tempo


if __name__ == '__main__':
    sys.exit(check_against_trace(evaluate, ('--profile', 'fruit21')))
