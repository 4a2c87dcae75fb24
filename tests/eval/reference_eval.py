#!/usr/bin/env python3
"""Independent reference of the rybka1 evaluation, written straight from spec docs/eval-spec.md with plain
square loops (no bitboards, no shared code with src/eval), used to cross-check the C++ evaluation:

    python3 tests/eval/reference_eval.py build/eval_trace $QUINCE_DATA_DIR/wac.epd [more.epd ...]   (docs/data.md)
    python3 tests/eval/reference_eval.py build/eval_trace tests/eval/reference_positions.epd

For every position it compares the profile's score (before the known-ending scale, which is no part of the
spec) and each term total (op, eg) with `eval_trace --json`.
"""
import json, os, subprocess, sys, tempfile

U = 3399
PIECE_UNITS = {'P': 1, 'N': 3, 'B': 3, 'R': 5, 'Q': 10, 'K': 0}


def sq(f, r): return r * 8 + f
def on(f, r): return 0 <= f < 8 and 0 <= r < 8
def dist(a, b): return max(abs((a & 7) - (b & 7)), abs((a >> 3) - (b >> 3)))


def parse(fen):
    parts = fen.split()
    board = {}
    r = 7
    for row in parts[0].split('/'):
        f = 0
        for ch in row:
            if ch.isdigit(): f += int(ch)
            else: board[sq(f, r)] = ch; f += 1
        r -= 1
    stm = parts[1]
    castle = parts[2] if len(parts) > 2 else '-'
    return board, stm, castle


def mirror(board, stm, castle):
    """Colour-flipped twin: ranks mirrored, colours swapped."""
    nb = {s ^ 56: (p.lower() if p.isupper() else p.upper()) for s, p in board.items()}
    nc = ''.join(c.lower() if c.isupper() else c.upper() for c in castle) if castle != '-' else '-'
    return nb, ('b' if stm == 'w' else 'w'), nc


# ---------------------------------------------------------------- PST (§4.1)
PawnFile = [-3, -1, 0, 1, 1, 0, -1, -3]; KnightLine = [-4, -2, 0, 1, 1, 0, -2, -4]
KnightRank = [-2, -1, 0, 1, 2, 3, 2, 1]; Line = [-3, -1, 0, 1, 1, 0, -1, -3]
RookFile = [-2, -1, 0, 1, 1, 0, -1, -2]; KingFile = [3, 4, 2, 0, 0, 2, 4, 3]


def pst(p, s):
    f, r = s & 7, s >> 3
    if p == 'P': return PawnFile[f] * 181 + (74 if s in (35, 36) else 0), PawnFile[f] * -97
    if p == 'N': return ((KnightLine[f] + KnightLine[r]) * 347 + KnightRank[r] * 358 - (3200 if s in (56, 63) else 0),
                         (KnightLine[f] + KnightLine[r]) * 56)
    if p == 'B': return ((Line[f] + Line[r]) * 147 - (251 if r == 0 else 0) + (378 if (f == r or f + r == 7) else 0),
                         (Line[f] + Line[r]) * 49)
    if p == 'R': return RookFile[f] * 104, 0
    if p == 'Q': return (Line[f] + Line[r]) * 98 - (201 if r == 0 else 0), (Line[f] + Line[r]) * 108
    if p == 'K': return KingFile[f] * 469, (Line[f] + Line[r]) * 401


# ---------------------------------------------------------------- attacks
KN = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
KG = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]; ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]


def attacks(board, s, p):
    f, r = s & 7, s >> 3
    out = set()
    t = p.upper()
    if t in 'NK':
        for df, dr in (KN if t == 'N' else KG):
            if on(f + df, r + dr): out.add(sq(f + df, r + dr))
        return out
    dirs = DIAG if t == 'B' else ORTH if t == 'R' else DIAG + ORTH
    for df, dr in dirs:
        x, y = f + df, r + dr
        while on(x, y):
            out.add(sq(x, y))
            if sq(x, y) in board: break
            x, y = x + df, y + dr
    return out


def pawn_att(s, white):
    f, r = s & 7, s >> 3
    d = 1 if white else -1
    return {sq(f + df, r + d) for df in (-1, 1) if on(f + df, r + d)}


# ---------------------------------------------------------------- material (§2, Kaufman model)
def counts(board, white):
    c = {t: 0 for t in 'PNBRQ'}
    for p in board.values():
        if p.isupper() == white and p.upper() in c: c[p.upper()] += 1
    return c


def imbalance(c):
    v = c['N'] * (850 + 212 * (c['P'] - 5)) + c['B'] * 850 + c['R'] * (0 - 425 * (c['P'] - 5)) + c['Q'] * -850
    if c['B'] >= 2: v += 1700
    if c['R'] >= 2: v += -850 * (c['R'] - 1)
    if c['Q'] >= 1 and c['R'] >= 1: v += -425
    return v


def quad(lo, hi): return [lo + (hi - lo) * b // 256 for b in [0, 0, 0, 26, 77, 154, 256, 256]]


PassOp, PassEg = quad(0, 4821), quad(146, 2020)
UnOwn, UnOpp, Free = quad(0, 262), quad(0, 1311), quad(0, 1000)
AttD, DefD = quad(0, 650), quad(0, 1295)
CandOp, CandEg = quad(0, 3763), quad(18, 1626)
SV, TV = [1121, 0, 214, 749, 915], [0, 0, 2334, 653, 310]
KAW = [0, -1, 37, 71] + [100] * 12


def pawn_terms(board):
    """White's pawn structure (op, eg) and passed files, White's view (own = 'P', enemy = 'p')."""
    own = {s for s, p in board.items() if p == 'P'}
    opp = {s for s, p in board.items() if p == 'p'}
    op = eg = 0
    files = 0
    for s in own:
        f, r = s & 7, s >> 3
        ahead = [sq(f, k) for k in range(r + 1, 8)]
        openf = not any(x in own or x in opp for x in ahead)
        if any(x in own for x in ahead): eg -= 158
        adj = [sq(g, k) for g in (f - 1, f + 1) if 0 <= g < 8 for k in range(8)]
        prot = [sq(g, k) for g in (f - 1, f + 1) if 0 <= g < 8 for k in range(0, r + 1)]
        passed = [sq(g, k) for g in (f - 1, f, f + 1) if 0 <= g < 8 for k in range(r + 1, 8)]
        a1 = [sq(g, r + 2) for g in (f - 1, f + 1) if on(g, r + 2)]
        a2 = [sq(g, r + 3) for g in (f - 1, f + 1) if on(g, r + 3)]
        pa = [sq(g, r + 1) for g in (f - 1, f + 1) if on(g, r + 1)]
        if not any(x in own for x in adj):
            op -= 923 if openf else 79; eg -= 324
        elif not any(x in own for x in prot) and (any(x in opp for x in a1) or (any(x in opp for x in a2) and not any(x in own for x in pa))):
            op -= 872 if openf else 406; eg -= 297
        if not any(x in opp for x in passed): files |= 1 << f
        elif openf and sum(x in own for x in prot) >= sum(x in opp for x in passed):
            op += CandOp[r]; eg += CandEg[r]
    return op, eg, files


def wing_penalty(board, wing):
    """Penalty of White's king for a wing (§7.2), from White's pawns (shelter) and Black's (storm)."""
    first = [0, 3, 5][wing]
    sh = st = 0
    for j in range(3):
        f = first + j
        d_own = next((k + 1 for k in range(4) if board.get(sq(f, k + 1)) == 'P'), 0)
        d_opp = next((k + 1 for k in range(4) if board.get(sq(f, k + 1)) == 'p'), 0)
        sh += SV[d_own] * (2 if j == 1 else 1)
        st += TV[d_opp]
    return (794 if sh == 0 else sh) + st


def side_terms(board, stm_white, castle, attB):
    """All of White's terms (dict term -> [op, eg]) on a board seen from White; attB = Black's attack set."""
    T = {}
    def add(name, o, e):
        T.setdefault(name, [0, 0]); T[name][0] += o; T[name][1] += e
    wc, bc = counts(board, True), counts(board, False)
    wk = next(s for s, p in board.items() if p == 'K'); bk = next(s for s, p in board.items() if p == 'k')
    flag_b = wc['Q'] >= 1 and wc['Q'] + wc['R'] + wc['B'] + wc['N'] >= 2  # Black king safety evaluated
    flag_w = bc['Q'] >= 1 and bc['Q'] + bc['R'] + bc['B'] + bc['N'] >= 2
    add('material', U * sum(PIECE_UNITS[t] * n for t, n in wc.items()), U * sum(PIECE_UNITS[t] * n for t, n in wc.items()))
    add('imbalance', imbalance(wc), imbalance(wc))
    for s, p in board.items():
        if p.isupper():
            o, e = pst(p, s); add('pst_' + {'P': 'pawn', 'N': 'knight', 'B': 'bishop', 'R': 'rook', 'Q': 'queen', 'K': 'king'}[p], o, e)
    o, e, files = pawn_terms(board)
    add('pawn_structure', o, e)
    zone = attacks(board, bk, 'K')
    attW = set()
    for s, p in board.items():
        if p == 'P': attW |= pawn_att(s, True)
    n = 1 if attW & zone else 0
    wt = 0
    unit = {'N': 941, 'B': 418, 'R': 666, 'Q': 532}
    mob = {'N': (14, 121), 'B': (149, 116), 'R': (84, 79), 'Q': (54, 37)}
    bp_rank7 = any(board.get(sq(f, 6)) == 'p' for f in range(8))
    bk_rank8 = (bk >> 3) == 7
    for s, p in board.items():
        if p not in 'NBRQ': continue
        a = attacks(board, s, p)
        attW |= a
        if a & zone: n += 1; wt += unit[p]
        m = sum(1 for x in a if not (x in board and board[x].isupper()))
        add('mobility', m * mob[p][0], m * mob[p][1])
        if p == 'R':
            f, r = s & 7, s >> 3
            F = [sq(f, k) for k in range(r + 1, 8)]
            if not any(board.get(x) == 'P' for x in F):
                o, e = 64, 256
                if not any(board.get(x) == 'p' for x in F): o += 971; e += 172
                add('rook_file', o, e)
                if flag_b and any(x in zone for x in F):
                    add('rook_file', 121 + (853 if bk in F else 0), 0)
        if p in 'RQ' and (s >> 3) == 6 and (bp_rank7 or bk_rank8):
            add('seventh_rank', *((246, 1026) if p == 'R' else (0, 1420)))
    attW |= attacks(board, wk, 'K')
    if flag_b:
        add('king_attack', (KAW[min(n, 15)] * wt) >> 5, 0)
    if flag_w:  # White's own king shelter (penalty)
        w = [0, 0, 0, 1, 1, 2, 2, 2][wk & 7]
        p1 = wing_penalty(board, w); p2 = p1
        if 'K' in castle: p2 = min(p2, wing_penalty(board, 2))
        if 'Q' in castle: p2 = min(p2, wing_penalty(board, 0))
        add('king_shelter', -((p1 + p2) >> 1), 0)
    # passers
    black_pieces = any(p in 'nbrq' for p in board.values())
    for f in range(8):
        if not files >> f & 1: continue
        s = max(x for x, p in board.items() if p == 'P' and (x & 7) == f)
        r = s >> 3
        path = [sq(f, k) for k in range(r + 1, 8)]
        o, e = PassOp[r], PassEg[r]
        promo = sq(f, 7)
        if not black_pieces:
            R = r + 1
            if R == 2: R = 3
            moves = 8 - R + (0 if stm_white else 1)
            if not any(x in board and board[x].isupper() for x in path) and dist(bk, promo) > moves: e += 25600
            elif dist(wk, promo) <= 1 and dist(wk, s) <= 1 and ((wk & 7) != f or f not in (0, 7)): e += 25600
        else:
            if not any(x in board and board[x].isupper() for x in path): e += UnOwn[r]
            if not any(x in board and board[x].islower() for x in path): e += UnOpp[r]
            if not any(x in attB and x not in attW for x in path): e += Free[r]
        e += dist(bk, s + 8) * DefD[r] - dist(wk, s + 8) * AttD[r]
        add('passed_pawns', o, e)
    # patterns
    o = e = 0
    def at(s, p): return board.get(s) == p
    if any(at(b, 'B') and at(pw, 'p') for b, pw in [(40, 33), (48, 41), (57, 50), (47, 38), (55, 46), (62, 53)]):
        o -= 1802; e -= 1802
    if at(2, 'B') and at(11, 'P') and 19 in board: o -= 1920
    if at(5, 'B') and at(12, 'P') and 20 in board: o -= 1920
    if any(at(x, 'R') for x in (0, 1, 8)) and any(at(x, 'K') for x in (1, 2)): o -= 1920
    if any(at(x, 'R') for x in (6, 7, 15)) and any(at(x, 'K') for x in (5, 6)): o -= 1920
    add('patterns', o, e)
    return T, attW


def all_attacks(board, white):
    a = set()
    for s, p in board.items():
        if p.isupper() != white: continue
        if p.upper() == 'P': a |= pawn_att(s, white)
        else: a |= attacks(board, s, p)
    return a


def evaluate(fen):
    board, stm, castle = parse(fen)
    mb, mstm, mcastle = mirror(board, stm, castle)
    attB = all_attacks(board, False)
    attW_m = all_attacks(mb, False)  # White's attacks seen from Black (mirrored board)
    Tw, _ = side_terms(board, stm == 'w', castle if castle != '-' else '', attB)
    Tb, _ = side_terms(mb, mstm == 'w', mcastle if mcastle != '-' else '', attW_m)
    tot = side_difference(Tw, Tb)
    op = sum(v[0] for v in tot.values()); eg = sum(v[1] for v in tot.values())
    wc, bc = counts(board, True), counts(board, False)
    phase = phase_of(wc, bc)
    bishops = [s for s, x in board.items() if x in 'Bb']
    if (wc['Q'] + wc['R'] + wc['N'] == 0 and bc['Q'] + bc['R'] + bc['N'] == 0 and wc['B'] == 1 and bc['B'] == 1
            and abs(wc['P'] - bc['P']) <= 2 and len({((s & 7) + (s >> 3)) & 1 for s in bishops}) == 2):
        op = int(op / 2); eg = int(eg / 2)
    sign = 1 if stm == 'w' else -1
    return ((sign * op * (256 - 4 * phase) + sign * eg * 4 * phase) >> 13) + 3, tot


def check_against_trace(evaluate, profile_args=()):
    """Runs `evaluate(fen) -> (final cp, {term: [op, eg]})` on every position of the EPD files named on
    the command line (argv[2:]) and compares it with `eval_trace --json` (argv[1]); exit code 1 on any
    mismatch. Shared by the references of every profile."""
    exe = sys.argv[1]
    fens = []
    for path in sys.argv[2:]:
        for line in open(path):
            line = line.strip()
            if not line: continue
            f = line.split(';')[0].split()
            fens.append(' '.join(f[:4]) if len(f) >= 4 else ' '.join(f))
    # One eval_trace run for all of them (`--epd`: a JSON array in file order), the positions as given here.
    with tempfile.NamedTemporaryFile('w', suffix='.epd') as epd:
        epd.write(''.join(fen + '\n' for fen in fens))
        epd.flush()
        run = subprocess.run([exe, '--json', *profile_args, '--epd', epd.name], capture_output=True, text=True)
    if run.returncode != 0:
        print('eval_trace failed:', run.stderr)
        return 1
    traces = json.loads(run.stdout)
    if len(traces) != len(fens):
        print(f'eval_trace gave {len(traces)} positions for {len(fens)}')
        return 1
    bad = 0
    for fen, js in zip(fens, traces):
        ref, tot = evaluate(fen)
        # The profile's own score: the known-ending scale applied after it (src/eval/endgame.h) is
        # Quince's, not the spec's.
        diff = [] if ref == js['profile_cp'] else [('final', ref, js['profile_cp'])]
        for t in js['terms']:
            want = tot.get(t['name'], [0, 0])
            got = [round(t['total']['mg'] * 32), round(t['total']['eg'] * 32)]
            if want != got: diff.append((t['name'], want, got))
        if diff:
            bad += 1
            print('MISMATCH', fen, diff)
    print(f'{len(fens)} positions, {bad} mismatches')
    return 1 if bad else 0


def side_difference(Tw, Tb):
    """White's term totals minus Black's (Black's computed on the mirrored board)."""
    names = set(Tw) | set(Tb)
    return {k: [Tw.get(k, [0, 0])[0] - Tb.get(k, [0, 0])[0], Tw.get(k, [0, 0])[1] - Tb.get(k, [0, 0])[1]] for k in names}


def phase_of(wc, bc):
    """Fruit's game phase on Quince's 0..64 scale (0 = opening) from the two sides' piece counts."""
    p = max(0, 24 - (wc['N'] + bc['N'] + wc['B'] + bc['B']) - 2 * (wc['R'] + bc['R']) - 4 * (wc['Q'] + bc['Q']))
    return ((p * 256 + 12) // 24) // 4


if __name__ == '__main__':
    sys.exit(check_against_trace(evaluate, ('--profile', 'rybka1')))
