#!/usr/bin/env python3
"""Labels endings with the Syzygy tables through Debian's command-line prober `fathom` (package fathom).

usage: label_endings.py POSITIONS SYZYGY_DIR > endings.epd

POSITIONS has one `FEN ; material ; children C|C|...` a line (tests/eval/endings_test.cpp writes it; C is
the FEN after each legal move, `#` a checkmate, `=` a stalemate). Each output line is `FEN ; material ;
wdl W`, W the tables' verdict for the side to move: win, draw or loss; a win or loss that the fifty-move
rule turns into a draw (fathom's CursedWin / BlessedLoss) is a draw. fathom answers only when the side to
move is the one the table's distance file holds; otherwise the verdict is the best over the children's
(each probed by fathom; bare kings are a draw). A position nothing answers for is an error.
"""
import shutil
import subprocess
import sys

VERDICT = {'Win': 'win', 'Loss': 'loss', 'Draw': 'draw', 'CursedWin': 'draw', 'BlessedLoss': 'draw'}
FLIP = {'win': 'loss', 'loss': 'win', 'draw': 'draw'}


def probe(fathom, path, fen):
    """The verdict for the side to move, or None when fathom gives none."""
    out = subprocess.run([fathom, '--path=' + path, fen], capture_output=True, text=True).stdout
    wdl = [l[len('[WDL "'):-2] for l in out.splitlines() if l.startswith('[WDL "')]
    return VERDICT.get(wdl[0]) if wdl else None


def child_verdict(fathom, path, child):
    """The verdict for the side to move in a child position."""
    if child == '#':
        return 'loss'
    if child == '=':
        return 'draw'
    board = child.split()[0]
    if sum(c.isalpha() for c in board) == 2:
        return 'draw'  # bare kings
    return probe(fathom, path, child)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    fathom = shutil.which('fathom') or shutil.which('/usr/games/fathom')
    if not fathom:
        sys.exit('label_endings.py: fathom not found (Debian package fathom)')
    with open(sys.argv[1], encoding='ascii') as f:
        for number, line in enumerate(f, 1):
            fields = [x.strip() for x in line.split(';')]
            if len(fields) != 3 or not fields[2].startswith('children '):
                sys.exit(f'{sys.argv[1]}:{number}: expected `FEN ; material ; children ...`')
            fen, material = fields[0], fields[1]
            verdict = probe(fathom, sys.argv[2], fen)
            if verdict is None:
                children = [child_verdict(fathom, sys.argv[2], c) for c in fields[2][len('children '):].split('|')]
                if None in children:
                    sys.exit(f'{sys.argv[1]}:{number}: the tables give no verdict for {fen} nor all its children')
                mine = [FLIP[c] for c in children]
                verdict = 'win' if 'win' in mine else 'draw' if 'draw' in mine else 'loss'
            print(f'{fen} ; {material} ; wdl {verdict}')


if __name__ == '__main__':
    main()
