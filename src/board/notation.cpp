#include "board/notation.h"

#include <cctype>
#include <cstring>

#include "board/movegen.h"

namespace quince {

namespace {
constexpr const char* PROMO_CHARS = "  nbrq";
constexpr const char* SAN_PIECE = "  NBRQK";
}  // namespace

std::string move_to_uci(Move m, bool chess960) {
    if (m == Move::none()) return "0000";
    if (m == Move::null()) return "0000";
    Square from = m.from(), to = m.to();
    if (m.type() == CASTLING && !chess960) to = make_square(to > from ? FILE_G : FILE_C, rank_of(from));
    std::string s = square_to_string(from) + square_to_string(to);
    if (m.type() == PROMOTION) s += PROMO_CHARS[m.promotion_type()];
    return s;
}

Move uci_to_move(const Position& pos, const std::string& text) {
    if (text.size() < 4 || text.size() > 5) return Move::none();
    for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
        Move m = sm.move;
        if (move_to_uci(m, pos.is_chess960()) == text) return m;
        // Castling written king-takes-rook in standard chess, or e1g1 in Chess960 when unambiguous.
        if (m.type() == CASTLING && move_to_uci(m, !pos.is_chess960()) == text) return m;
    }
    return Move::none();
}

std::string move_to_san(const Position& pos, Move m) {
    std::string san;
    Square from = m.from(), to = m.to();
    PieceType pt = type_of(pos.piece_on(from));
    if (m.type() == CASTLING) {
        san = to > from ? "O-O" : "O-O-O";
    } else {
        if (pt != PAWN) {
            san += SAN_PIECE[pt];
            // Disambiguation by file, then rank, then both.
            bool need = false, same_file = false, same_rank = false;
            for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
                Move o = sm.move;
                if (o == m || o.to() != to || type_of(pos.piece_on(o.from())) != pt) continue;
                need = true;
                same_file |= file_of(o.from()) == file_of(from);
                same_rank |= rank_of(o.from()) == rank_of(from);
            }
            if (need) {
                if (!same_file) san += char('a' + file_of(from));
                else if (!same_rank) san += char('1' + rank_of(from));
                else san += square_to_string(from);
            }
        } else if (pos.is_capture(m))
            san += char('a' + file_of(from));
        if (pos.is_capture(m)) san += 'x';
        san += square_to_string(to);
        if (m.type() == PROMOTION) san += std::string("=") + SAN_PIECE[m.promotion_type()];
    }
    if (pos.gives_check(m)) {
        Position next(pos);
        next.do_move(m);
        san += next.has_legal_move() ? "+" : "#";
    }
    return san;
}

Move san_to_move(const Position& pos, const std::string& text) {
    std::string s = text;
    while (!s.empty() && std::strchr("+#!?", s.back())) s.pop_back();
    if (s == "0-0") s = "O-O";
    if (s == "0-0-0") s = "O-O-O";
    if (s.empty()) return Move::none();
    Move found = Move::none();
    for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
        std::string cand = move_to_san(pos, sm.move);
        while (!cand.empty() && (cand.back() == '+' || cand.back() == '#')) cand.pop_back();
        if (cand == s) return sm.move;
        // Tolerate over-disambiguation and missing '=' / 'x' as written by some tools.
        std::string loose = s;
        std::erase(loose, 'x');
        std::erase(loose, '=');
        std::string lc = cand;
        std::erase(lc, 'x');
        std::erase(lc, '=');
        if (lc == loose) found = sm.move;
        else if (loose.size() == lc.size() + 1 || loose.size() == lc.size() + 2) {
            // e.g. "Nbd2" vs "Nd2", "Ng1f3" vs "Nf3": same piece, same destination, source consistent.
            if (lc.substr(lc.size() - 2) == loose.substr(loose.size() - 2) && !lc.empty() && !loose.empty() &&
                std::isupper(static_cast<unsigned char>(loose[0])) && lc[0] == loose[0]) {
                std::string hint = loose.substr(1, loose.size() - 3);
                std::string from = square_to_string(sm.move.from());
                bool ok = true;
                for (char c : hint)
                    if (c != from[0] && c != from[1]) ok = false;
                if (ok) found = sm.move;
            }
        }
    }
    return found;
}

}  // namespace quince
