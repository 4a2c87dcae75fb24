#include "board/movegen.h"

namespace quince {

namespace {

template <Color Us, GenType Type>
ScoredMove* make_promotions(ScoredMove* list, Square from, Square to) {
    // Every promotion (also under-promotions) belongs to the CAPTURES stage: they change material.
    if constexpr (Type == CAPTURES || Type == EVASIONS || Type == NON_EVASIONS) {
        (list++)->move = Move::make<PROMOTION>(from, to, QUEEN);
        (list++)->move = Move::make<PROMOTION>(from, to, ROOK);
        (list++)->move = Move::make<PROMOTION>(from, to, BISHOP);
        (list++)->move = Move::make<PROMOTION>(from, to, KNIGHT);
    }
    return list;
}

template <Color Us, GenType Type>
ScoredMove* generate_pawn_moves(const Position& pos, ScoredMove* list, Bitboard target) {
    constexpr Color Them = ~Us;
    constexpr Bitboard Rank7 = Us == WHITE ? rank_bb(RANK_7) : rank_bb(RANK_2);
    constexpr Bitboard Rank3 = Us == WHITE ? rank_bb(RANK_3) : rank_bb(RANK_6);
    constexpr Direction Up = Us == WHITE ? NORTH : SOUTH;
    constexpr Direction UpRight = Us == WHITE ? NORTH_EAST : SOUTH_WEST;
    constexpr Direction UpLeft = Us == WHITE ? NORTH_WEST : SOUTH_EAST;

    const Bitboard empty_squares = ~pos.pieces();
    const Bitboard enemies = Type == EVASIONS ? pos.checkers() : pos.pieces(Them);
    const Bitboard pawns_on7 = pos.pieces(Us, PAWN) & Rank7;
    const Bitboard pawns_not_on7 = pos.pieces(Us, PAWN) & ~Rank7;

    if constexpr (Type != CAPTURES) {
        Bitboard b1 = shift<Up>(pawns_not_on7) & empty_squares;
        Bitboard b2 = shift<Up>(b1 & Rank3) & empty_squares;
        if constexpr (Type == EVASIONS) {  // only blocking squares
            b1 &= target;
            b2 &= target;
        }
        while (b1) {
            Square to = pop_lsb(b1);
            (list++)->move = Move(to - Up, to);
        }
        while (b2) {
            Square to = pop_lsb(b2);
            (list++)->move = Move(to - Up - Up, to);
        }
    }

    if constexpr (Type != QUIETS) {
        if (pawns_on7) {
            Bitboard b1 = shift<UpRight>(pawns_on7) & enemies;
            Bitboard b2 = shift<UpLeft>(pawns_on7) & enemies;
            Bitboard b3 = shift<Up>(pawns_on7) & empty_squares;
            if constexpr (Type == EVASIONS) b3 &= target;
            while (b1) {
                Square to = pop_lsb(b1);
                list = make_promotions<Us, Type>(list, to - UpRight, to);
            }
            while (b2) {
                Square to = pop_lsb(b2);
                list = make_promotions<Us, Type>(list, to - UpLeft, to);
            }
            while (b3) {
                Square to = pop_lsb(b3);
                list = make_promotions<Us, Type>(list, to - Up, to);
            }
        }

        Bitboard b1 = shift<UpRight>(pawns_not_on7) & enemies;
        Bitboard b2 = shift<UpLeft>(pawns_not_on7) & enemies;
        while (b1) {
            Square to = pop_lsb(b1);
            (list++)->move = Move(to - UpRight, to);
        }
        while (b2) {
            Square to = pop_lsb(b2);
            (list++)->move = Move(to - UpLeft, to);
        }

        if (pos.ep_square() != SQ_NONE) {
            // An evasion by en passant must capture the checking pawn (a discovered check cannot be
            // answered by it, and the e.p. square is never a blocking square of a slider check here).
            if (Type == EVASIONS && !(target & (pos.ep_square() - Up))) return list;
            Bitboard b = pawns_not_on7 & pawn_attacks(Them, pos.ep_square());
            while (b) (list++)->move = Move::make<EN_PASSANT>(pop_lsb(b), pos.ep_square());
        }
    }
    return list;
}

template <Color Us, PieceType Pt>
ScoredMove* generate_piece_moves(const Position& pos, ScoredMove* list, Bitboard target) {
    Bitboard pieces = pos.pieces(Us, Pt);
    while (pieces) {
        Square from = pop_lsb(pieces);
        Bitboard b = attacks_bb(Pt, from, pos.pieces()) & target;
        while (b) (list++)->move = Move(from, pop_lsb(b));
    }
    return list;
}

template <Color Us, GenType Type>
ScoredMove* generate_all(const Position& pos, ScoredMove* list) {
    const Square ksq = pos.king_square(Us);
    Bitboard target;

    // With a double check only the king can move.
    if (Type != EVASIONS || !more_than_one(pos.checkers())) {
        target = Type == EVASIONS     ? between_bb(ksq, lsb(pos.checkers()))
                 : Type == NON_EVASIONS ? ~pos.pieces(Us)
                 : Type == CAPTURES     ? pos.pieces(~Us)
                                        : ~pos.pieces();  // QUIETS
        list = generate_pawn_moves<Us, Type>(pos, list, target);
        list = generate_piece_moves<Us, KNIGHT>(pos, list, target);
        list = generate_piece_moves<Us, BISHOP>(pos, list, target);
        list = generate_piece_moves<Us, ROOK>(pos, list, target);
        list = generate_piece_moves<Us, QUEEN>(pos, list, target);
    }

    Bitboard b = king_attacks(ksq) & (Type == EVASIONS ? ~pos.pieces(Us) : target);
    while (b) (list++)->move = Move(ksq, pop_lsb(b));

    if ((Type == QUIETS || Type == NON_EVASIONS) && pos.can_castle(Us == WHITE ? WHITE_CASTLING : BLACK_CASTLING)) {
        for (int cr : {Us == WHITE ? WHITE_OO : BLACK_OO, Us == WHITE ? WHITE_OOO : BLACK_OOO})
            if (pos.can_castle(cr) && !pos.castling_impeded(cr))
                (list++)->move = Move::make<CASTLING>(ksq, pos.castling_rook_square(cr));
    }
    return list;
}

}  // namespace

template <GenType Type>
ScoredMove* generate(const Position& pos, ScoredMove* list) {
    if constexpr (Type == LEGAL) {
        Color us = pos.side_to_move();
        Bitboard pinned = pos.blockers_for_king(us) & pos.pieces(us);
        Square ksq = pos.king_square(us);
        ScoredMove* cur = list;
        list = pos.in_check() ? generate<EVASIONS>(pos, list) : generate<NON_EVASIONS>(pos, list);
        // Only king moves, pinned pieces and en passant can be illegal: skip the test for the rest.
        while (cur != list)
            if (((pinned & cur->move.from()) || cur->move.from() == ksq || cur->move.type() == EN_PASSANT) &&
                !pos.legal(cur->move))
                cur->move = (--list)->move;
            else
                ++cur;
        return list;
    } else {
        return pos.side_to_move() == WHITE ? generate_all<WHITE, Type>(pos, list) : generate_all<BLACK, Type>(pos, list);
    }
}

template ScoredMove* generate<CAPTURES>(const Position&, ScoredMove*);
template ScoredMove* generate<QUIETS>(const Position&, ScoredMove*);
template ScoredMove* generate<EVASIONS>(const Position&, ScoredMove*);
template ScoredMove* generate<NON_EVASIONS>(const Position&, ScoredMove*);
template ScoredMove* generate<LEGAL>(const Position&, ScoredMove*);

bool Position::has_legal_move() const { return MoveList<LEGAL>(*this).size() > 0; }

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    MoveList<LEGAL> moves(pos);
    if (depth == 1) return moves.size();  // bulk counting at the leaves
    std::uint64_t nodes = 0;
    for (const ScoredMove& sm : moves) {
        pos.do_move(sm.move);
        nodes += perft(pos, depth - 1);
        pos.undo_move(sm.move);
    }
    return nodes;
}

}  // namespace quince
