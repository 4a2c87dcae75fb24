#!/usr/bin/env python3
"""Independent reference of the rybka232 profile (Rybka 2.3.2a as documented in spec docs/eval-spec.md), written
from the spec's "2.3.2a" columns with plain square loops. Only board helpers (FEN parsing, attack
squares), Fruit's game phase (the same in every profile) and the comparison driver come from
reference_eval.py; every evaluation number and rule is restated here. The 2.3.2a
PSTs are parsed from the spec text itself (§4.2 right blocks, copied to tests/data/rybka_pst_tables.md),
not from the C++ data.

    python3 tests/eval/reference_rybka232.py build/eval_trace tests/eval/reference_positions.epd [more.epd ...]

Compares the profile's score (before the known-ending scale) and every term total (op, eg) with `eval_trace --json --profile rybka232`.
Chosen values for the seeds' unknowns are the profile's (see src/eval/profile.cpp): minors 3.5 pawns
in the Kaufman model, drawishness by occupied b..g files 240/160/80/0, no lazy evaluation, and
Quince's pawn-ending evaluator with no pieces on the board (the docs in src/eval/pawn_ending.h,
restated here: the unstoppable-passer race, key squares, protected and outside passers; the K+P v K
verdict from Debian's `fathom` command on the test tables, not from Quince's own table).
"""
import os, re, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from reference_eval import parse, mirror, attacks, pawn_att, counts, sq, on, dist  # board helpers
from reference_eval import all_attacks, side_difference, phase_of, check_against_trace  # and the driver

# Spec docs/eval-spec.md §4.2 (the seed 003 PST transcription), copied verbatim into tests/data.
SPEC = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'rybka_pst_tables.md')
U = 3399
TB_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'data', 'syzygy')
# Pawn-ending evaluator (src/eval/profiles/rybka232.txt, section pawn_ending)
KPK_WIN, KEY, PROT, OUTSIDE, UNSTOPPABLE = 25600, [0, 1600, 1600, 2400, 3200, 4800, 6400, 0], \
    [0, 320, 320, 640, 960, 1600, 2560, 0], 640, 25600


def fathom_wdl(fen):
    """The side to move's result from Debian's fathom: Win, Draw, Loss (or Cursed/Blessed forms)."""
    exe = next(p for p in ('/usr/games/fathom', '/usr/bin/fathom', '/usr/local/bin/fathom') if os.path.exists(p))
    fields = fen.split()[:4] + ['0', '1']  # EPD records have four fields; fathom wants six
    out = subprocess.run([exe, '--path=' + TB_DIR, ' '.join(fields)], capture_output=True, text=True).stdout
    return re.search(r'\[WDL "(\w+)"\]', out).group(1)


def key_squares(s):
    f, r = s & 7, s >> 3
    if f == 0: return {sq(1, 6), sq(1, 7)}
    if f == 7: return {sq(6, 6), sq(6, 7)}
    ranks = [r + 2] if r <= 3 else [r + 1, r + 2] if r <= 5 else [6, 7]
    return {sq(g, k) for g in (f - 1, f, f + 1) for k in ranks} - {s}


def fastest_unstoppable(board, files, white_to_move):
    """(plies to queen, rank) of White's fastest passer outside the black king's square, or None."""
    bk = next(s for s, p in board.items() if p == 'k')
    best = None
    for f in range(8):
        if not files >> f & 1: continue
        s = max(x for x, p in board.items() if p == 'P' and (x & 7) == f)
        r = s >> 3
        moves = 8 - (3 if r == 1 else r + 1)
        if any(sq(f, k) in board and board[sq(f, k)].isupper() for k in range(r + 1, 8)): continue
        if dist(bk, sq(f, 7)) > moves + (0 if white_to_move else 1):
            plies = 2 * moves - (1 if white_to_move else 0)
            if best is None or plies < best[0]: best = (plies, r)
    return best
PIECE_UNITS = {'P': 1, 'N': 3, 'B': 3, 'R': 5, 'Q': 10}


def load_pst():
    text = open(SPEC).read()
    sec = text[text.index('### 4.2'):]  # the file holds §4.2 only
    pst = {}
    for m in re.finditer(r'#### (\w+) — (opening|endgame) \(seed 003 Table \d+\)\n\n```\n(.*?)```', sec, re.S):
        piece, phase, body = m.groups()
        rows = {}
        for line in body.splitlines():
            mm = re.match(r'\s*(\d)\s*\|.*\|\|(.*)$', line)
            if mm and int(mm.group(1)) not in rows:
                rows[int(mm.group(1))] = [int(x) for x in mm.group(2).split()]
        letter = {'Pawn': 'P', 'Knight': 'N', 'Bishop': 'B', 'Rook': 'R', 'Queen': 'Q', 'King': 'K'}[piece]
        pst[(letter, phase)] = [rows[s // 8 + 1][s % 8] for s in range(64)]
    return pst


PST = load_pst()


def quad(lo, hi): return [lo + (hi - lo) * b // 256 for b in [0, 0, 0, 26, 77, 154, 256, 256]]


# §5.3, §10.3, §7, §8, §9, §11 (2.3.2a columns)
CandOp = CandEg = [0, 8, 8, 224, 653, 1306, 0, 0]
PassOp = [0, 60, 60, 318, 822, 1593, 2613, 0]
PassEg = [0, 60, 60, 318, 822, 1592, 2612, 0]
UnOwn, UnOpp, Free = quad(0, 274), quad(0, 1372), quad(0, 1046)
AttD, DefD = quad(0, 680), quad(0, 1355)
SV, TV = [1121, 0, 214, 749, 915], [0, 0, 2334, 653, 310]
KAW = [0, 0, 30, 57] + [81] * 12
UNIT = {'N': 941, 'B': 418, 'R': 666, 'Q': 532}
MOB = {'N': (0, 0), 'B': (121, 121), 'R': (68, 82), 'Q': (44, 38)}
DRAWISH = [240, 160, 80, 0, 0, 0, 0]


def imbalance(c):  # Kaufman model, minors 3.5 pawns (1700 over D's 3)
    v = c['N'] * (1700 + 212 * (c['P'] - 5)) + c['B'] * 1700 + c['R'] * (0 - 425 * (c['P'] - 5)) + c['Q'] * -850
    if c['B'] >= 2: v += 1700
    if c['R'] >= 2: v += -850 * (c['R'] - 1)
    if c['Q'] >= 1 and c['R'] >= 1: v += -425
    return v


def pawn_terms(board):
    own = {s for s, p in board.items() if p == 'P'}
    opp = {s for s, p in board.items() if p == 'p'}
    op = eg = files = 0
    for s in own:
        f, r = s & 7, s >> 3
        ahead = [sq(f, k) for k in range(r + 1, 8)]
        openf = not any(x in own or x in opp for x in ahead)
        if any(x in own for x in ahead): op -= 78; eg -= 165
        adj = [sq(g, k) for g in (f - 1, f + 1) if 0 <= g < 8 for k in range(8)]
        prot = [sq(g, k) for g in (f - 1, f + 1) if 0 <= g < 8 for k in range(0, r + 1)]
        passed = [sq(g, k) for g in (f - 1, f, f + 1) if 0 <= g < 8 for k in range(r + 1, 8)]
        a1 = [sq(g, r + 2) for g in (f - 1, f + 1) if on(g, r + 2)]
        a2 = [sq(g, r + 3) for g in (f - 1, f + 1) if on(g, r + 3)]
        pa = [sq(g, r + 1) for g in (f - 1, f + 1) if on(g, r + 1)]
        if not any(x in own for x in adj):
            op -= 522 if openf else 156; eg -= 670 if openf else 201
        elif not any(x in own for x in prot) and (any(x in opp for x in a1) or (any(x in opp for x in a2) and not any(x in own for x in pa))):
            op -= 418 if openf else 130; eg -= 536 if openf else 167
        if not any(x in opp for x in passed):
            files |= 1 << f
            if not any(x in own for x in ahead): op += PassOp[r]; eg += PassEg[r]  # frontmost only
        elif openf and sum(x in own for x in prot) >= sum(x in opp for x in passed):
            op += CandOp[r]; eg += CandEg[r]
    return op, eg, files


def wing_penalty(board, wing):
    first = [0, 3, 5][wing]
    sh = st = 0
    for j in range(3):
        f = first + j
        d_own = next((k + 1 for k in range(4) if board.get(sq(f, k + 1)) == 'P'), 0)
        d_opp = next((k + 1 for k in range(4) if board.get(sq(f, k + 1)) == 'p'), 0)
        sh += SV[d_own] * (2 if j == 1 else 1)
        st += TV[d_opp]
    return (794 if sh == 0 else sh) + st


def side_terms(board, stm_white, attB):
    T = {}
    def add(name, o, e):
        T.setdefault(name, [0, 0]); T[name][0] += o; T[name][1] += e
    wc, bc = counts(board, True), counts(board, False)
    wk = next(s for s, p in board.items() if p == 'K'); bk = next(s for s, p in board.items() if p == 'k')
    flag_b = wc['Q'] >= 1 and wc['Q'] + wc['R'] + wc['B'] + wc['N'] >= 2
    flag_w = bc['Q'] >= 1 and bc['Q'] + bc['R'] + bc['B'] + bc['N'] >= 2
    m = U * sum(PIECE_UNITS[t] * n for t, n in wc.items())
    add('material', m, m)
    add('imbalance', imbalance(wc), imbalance(wc))
    names = {'P': 'pawn', 'N': 'knight', 'B': 'bishop', 'R': 'rook', 'Q': 'queen', 'K': 'king'}
    for s, p in board.items():
        if p.isupper(): add('pst_' + names[p], PST[(p, 'opening')][s], PST[(p, 'endgame')][s])
    o, e, files = pawn_terms(board)
    add('pawn_structure', o, e)
    # §13.1: pawns whose square in front is occupied
    n_blocked = sum(1 for s, p in board.items() if p == 'P' and s + 8 in board)
    add('pawn_mobility', -42 * n_blocked, -339 * n_blocked)
    zone = attacks(board, bk, 'K')
    attW = set()
    for s, p in board.items():
        if p == 'P': attW |= pawn_att(s, True)
    n = 1 if attW & zone else 0
    wt = 0
    target7 = any(board.get(sq(f, 6)) == 'p' for f in range(8)) or (bk >> 3) >= 6  # pawn on 7th, king on 7th/8th
    for s, p in board.items():
        if p not in 'NBRQ': continue
        a = attacks(board, s, p)
        attW |= a
        if a & zone: n += 1; wt += UNIT[p]
        mob = sum(1 for x in a if not (x in board and board[x].isupper()))
        add('mobility', mob * MOB[p][0], mob * MOB[p][1])
        if p == 'R':
            f, r = s & 7, s >> 3
            F = [sq(f, k) for k in range(r + 1, 8)]
            if not any(board.get(x) == 'P' for x in F):
                o, e = 104, 268
                if not any(board.get(x) == 'p' for x in F): o += 627; e += 180
                add('rook_file', o, e)
                if bk in F: add('rook_file', 795, 0)  # no material condition, no adjacent-file bonus
        if p in 'RQ' and (s >> 3) == 6 and target7:
            add('seventh_rank', *((200, 1072) if p == 'R' else (0, 1486)))
    attW |= attacks(board, wk, 'K')
    if flag_b: add('king_attack', (KAW[min(n, 15)] * wt) >> 5, 0)
    if flag_w: add('king_shelter', -wing_penalty(board, [0, 0, 0, 1, 1, 2, 2, 2][wk & 7]), 0)  # own wing only
    # passers: base already in the pawn structure
    no_pieces = not any(p in 'nbrqNBRQ' for p in board.values())
    outside = 0
    for f in range(8):
        if not files >> f & 1: continue
        s = max(x for x, p in board.items() if p == 'P' and (x & 7) == f)
        r = s >> 3
        path = [sq(f, k) for k in range(r + 1, 8)]
        e = 0
        promo = sq(f, 7)
        if no_pieces:  # the pawn-ending evaluator
            defended = (f > 0 and board.get(s - 9) == 'P') or (f < 7 and board.get(s - 7) == 'P')
            if wk in key_squares(s) and (dist(bk, s) > 1 or dist(wk, s) == 1 or defended): e += KEY[r]
            if defended: e += PROT[r]
            black_pawns = [x for x, p in board.items() if p == 'p']
            if black_pawns: outside = max(outside, min(min(abs((x & 7) - f) for x in black_pawns) - 1, 3))
        else:
            if not any(x in board and board[x].isupper() for x in path): e += UnOwn[r]
            if not any(x in board and board[x].islower() for x in path): e += UnOpp[r]
            if not any(x in attB and x not in attW for x in path): e += Free[r]
        e += dist(bk, s + 8) * DefD[r] - dist(wk, s + 8) * AttD[r]
        add('passed_pawns', 0, e)
    if no_pieces:
        if outside > 0: add('passed_pawns', 0, outside * OUTSIDE)
        mb, mstm, _ = mirror(board, 'w' if stm_white else 'b', '-')
        mine = fastest_unstoppable(board, files, stm_white)
        theirs = fastest_unstoppable(mb, pawn_terms(mb)[2], not stm_white)
        if mine and (theirs is None or mine[0] + 2 <= theirs[0]): add('passed_pawns', 0, UNSTOPPABLE)
        pawns = [p for p in board.values() if p in 'Pp']
        if pawns == ['P']:  # K+P v K: the table's verdict (a draw is handled in evaluate)
            fen = FEN_OF[0]
            wdl = fathom_wdl(fen)
            white_wins = (wdl == 'Win') == stm_white if wdl in ('Win', 'Loss') else False
            if white_wins: add('passed_pawns', 0, KPK_WIN)
    # patterns: each trapped bishop 1471; no blocked bishop; blocked rook 1561
    o = e = 0
    def at(s, p): return board.get(s) == p
    for b, pw in [(40, 33), (48, 41), (57, 50), (47, 38), (55, 46), (62, 53)]:
        if at(b, 'B') and at(pw, 'p'): o -= 1471; e -= 1471
    if any(at(x, 'R') for x in (0, 1, 8)) and any(at(x, 'K') for x in (1, 2)): o -= 1561
    if any(at(x, 'R') for x in (6, 7, 15)) and any(at(x, 'K') for x in (5, 6)): o -= 1561
    add('patterns', o, e)
    return T


def drawish(board, white):
    files = {s & 7 for s, p in board.items() if p == ('P' if white else 'p')}
    return DRAWISH[len(files & {1, 2, 3, 4, 5, 6})]


FEN_OF = [None]  # the position being evaluated (side_terms needs it for the K+P v K probe)


def evaluate(fen):
    FEN_OF[0] = fen
    board, stm, castle = parse(fen)
    mb, mstm, _ = mirror(board, stm, castle)
    Tw = side_terms(board, stm == 'w', all_attacks(board, False))
    Tb = side_terms(mb, mstm == 'w', all_attacks(mb, False))
    tot = side_difference(Tw, Tb)
    op = sum(v[0] for v in tot.values()); eg = sum(v[1] for v in tot.values())
    wc, bc = counts(board, True), counts(board, False)
    phase = phase_of(wc, bc)
    sign = 1 if stm == 'w' else -1
    s = (sign * op * (256 - 4 * phase) + sign * eg * 4 * phase) >> 13  # linear W, floor in stm view
    bishops = [x for x, y in board.items() if y in 'Bb']
    dp = wc['P'] - bc['P']
    if (wc['Q'] + wc['R'] + wc['N'] == 0 and bc['Q'] + bc['R'] + bc['N'] == 0 and wc['B'] == 1 and bc['B'] == 1
            and (abs(dp) <= 2 or abs(dp) >= 6) and len({((x & 7) + (x >> 3)) & 1 for x in bishops}) == 2):
        s = int(s / 2)  # after interpolation, truncation
    d_stm, d_opp = drawish(board, stm == 'w'), drawish(board, stm != 'w')
    if s > 0: s -= (min(s, 100) * (d_stm * 156 // 240)) >> 8
    elif s < 0: s += (min(-s, 100) * (d_opp * 156 // 240)) >> 8
    if not any(p in 'nbrqNBRQ' for p in board.values()) and sorted(p for p in board.values() if p in 'Pp') in (['P'], ['p']):
        if fathom_wdl(fen) == 'Draw': s = 0  # a drawn K+P v K scores 0
    return s, tot  # no tempo


if __name__ == '__main__':
    sys.exit(check_against_trace(evaluate, ('--profile', 'rybka232')))
