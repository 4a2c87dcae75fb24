#include "board/position.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cstring>
#include <sstream>

#include "core/text.h"
#include "core/zobrist.h"

namespace quince {

namespace {
constexpr const char* PIECE_CHARS = " PNBRQK  pnbrqk";

Piece piece_from_char(char c) {
    // strchr finds the terminating NUL too: a '\0' in the FEN is no piece (it was Piece 15, whose
    // type indexed past the bitboard arrays).
    const char* p = c == '\0' ? nullptr : std::strchr(PIECE_CHARS, c);
    return (c != ' ' && p) ? Piece(p - PIECE_CHARS) : NO_PIECE;
}

bool fail(std::string* error, const std::string& msg) {
    if (error) *error = msg;
    return false;
}
}  // namespace

Position::Position() {
    attacks::init();
    zobrist::init();
    history_.reserve(512);
    set_fen(START_FEN);
}

Position::Position(const Position& other) { *this = other; }

Position& Position::operator=(const Position& other) {
    if (this == &other) return *this;
    std::memcpy(by_type_, other.by_type_, sizeof by_type_);
    std::memcpy(by_color_, other.by_color_, sizeof by_color_);
    std::memcpy(board_, other.board_, sizeof board_);
    std::memcpy(piece_count_, other.piece_count_, sizeof piece_count_);
    std::memcpy(castling_rights_mask_, other.castling_rights_mask_, sizeof castling_rights_mask_);
    std::memcpy(castling_rook_square_, other.castling_rook_square_, sizeof castling_rook_square_);
    std::memcpy(castling_path_, other.castling_path_, sizeof castling_path_);
    material_index_ = other.material_index_;
    material_balance_ = other.material_balance_;
    side_ = other.side_;
    game_ply_ = other.game_ply_;
    chess960_ = other.chess960_;
    history_.reserve(std::max<std::size_t>(512, other.history_.size() + 256));
    history_ = other.history_;
    return *this;
}

void Position::clear() {
    std::memset(by_type_, 0, sizeof by_type_);
    std::memset(by_color_, 0, sizeof by_color_);
    std::fill(std::begin(board_), std::end(board_), NO_PIECE);
    std::memset(piece_count_, 0, sizeof piece_count_);
    std::memset(castling_rights_mask_, 0, sizeof castling_rights_mask_);
    std::fill(std::begin(castling_rook_square_), std::end(castling_rook_square_), SQ_NONE);
    std::memset(castling_path_, 0, sizeof castling_path_);
    material_index_ = 0;
    material_balance_ = 0;
    side_ = WHITE;
    game_ply_ = 0;
    history_.clear();
    history_.emplace_back();
}

void Position::put_piece(Piece p, Square s) {
    board_[s] = p;
    Bitboard b = square_bb(s);
    by_type_[0] |= b;
    by_type_[type_of(p)] |= b;
    by_color_[color_of(p)] |= b;
    ++piece_count_[p];
    material_index_ += MATERIAL_INDEX_WEIGHT[p];
    material_balance_ += color_of(p) == WHITE ? MATERIAL_UNITS[type_of(p)] : -MATERIAL_UNITS[type_of(p)];
}

void Position::remove_piece(Square s) {
    Piece p = board_[s];
    Bitboard b = square_bb(s);
    by_type_[0] ^= b;
    by_type_[type_of(p)] ^= b;
    by_color_[color_of(p)] ^= b;
    board_[s] = NO_PIECE;
    --piece_count_[p];
    material_index_ -= MATERIAL_INDEX_WEIGHT[p];
    material_balance_ -= color_of(p) == WHITE ? MATERIAL_UNITS[type_of(p)] : -MATERIAL_UNITS[type_of(p)];
}

void Position::move_piece(Square from, Square to) {
    Piece p = board_[from];
    Bitboard b = square_bb(from) | square_bb(to);
    by_type_[0] ^= b;
    by_type_[type_of(p)] ^= b;
    by_color_[color_of(p)] ^= b;
    board_[from] = NO_PIECE;
    board_[to] = p;
}

bool Position::material_in_table() const {
    for (Color c : {WHITE, BLACK})
        for (PieceType pt = PAWN; pt <= QUEEN; ++pt)
            if (count(c, pt) > MATERIAL_TABLE_MAX_COUNT[pt]) return false;
    return true;
}

int Position::non_pawn_units(Color c) const {
    return 3 * count(c, KNIGHT) + 3 * count(c, BISHOP) + 5 * count(c, ROOK) + 10 * count(c, QUEEN);
}

bool Position::castling_needs_chess960() const {
    for (int right : {WHITE_OO, WHITE_OOO, BLACK_OO, BLACK_OOO}) {
        if (!can_castle(right)) continue;
        const Color c = (right & WHITE_CASTLING) ? WHITE : BLACK;
        const File rook_file = (right & (WHITE_OO | BLACK_OO)) ? FILE_H : FILE_A;
        if (file_of(king_square(c)) != FILE_E || file_of(castling_rook_square(right)) != rook_file) return true;
    }
    return false;
}

void Position::set_castling_right(Color c, Square rook_from) {
    Square king_from = king_square(c);
    int cr = (c == WHITE ? WHITE_CASTLING : BLACK_CASTLING) & (king_from < rook_from ? (WHITE_OO | BLACK_OO)
                                                                                     : (WHITE_OOO | BLACK_OOO));
    StateInfo& si = st();
    si.castling_rights |= cr;
    castling_rights_mask_[king_from] |= cr;
    castling_rights_mask_[rook_from] |= cr;
    castling_rook_square_[cr_index(cr)] = rook_from;
    Square king_to = relative_square(c, cr & (WHITE_OO | BLACK_OO) ? SQ_G1 : SQ_C1);
    Square rook_to = relative_square(c, cr & (WHITE_OO | BLACK_OO) ? SQ_F1 : SQ_D1);
    castling_path_[cr_index(cr)] =
        (between_bb(rook_from, rook_to) | between_bb(king_from, king_to)) & ~(square_bb(king_from) | rook_from);
}

bool Position::set_fen(const std::string& fen, bool chess960, std::string* error, std::vector<std::string>* dropped) {
    attacks::init();
    zobrist::init();
    Position saved(*this);
    if (dropped) dropped->clear();
    std::istringstream in(fen);
    std::string board, side, castling, ep, half = "0", full = "1";
    if (!(in >> board >> side >> castling >> ep)) return fail(error, "FEN needs at least 4 fields");
    in >> half >> full;
    std::string extra;
    if (in >> extra) return fail(error, "FEN has more than 6 fields");

    clear();
    chess960_ = chess960;
    bool ok = [&]() -> bool {
        // 1. Piece placement
        int rank = 7, file = 0, ranks_seen = 1;
        for (std::size_t i = 0; i < board.size(); ++i) {
            const char c = board[i];
            if (c == '/') {
                if (file != 8) return fail(error, "FEN rank " + std::to_string(rank + 1) + " does not have 8 squares");
                if (--rank < 0) return fail(error, "FEN has more than 8 ranks");
                file = 0;
                ++ranks_seen;
            } else if (c >= '1' && c <= '8') {
                file += c - '0';
                if (file > 8) return fail(error, "FEN rank " + std::to_string(rank + 1) + " has more than 8 squares");
            } else {
                Piece p = piece_from_char(c);
                if (p == NO_PIECE) return fail(error, "FEN has an invalid piece character " + describe_character(board, i));
                if (file > 7) return fail(error, "FEN rank " + std::to_string(rank + 1) + " has more than 8 squares");
                put_piece(p, make_square(File(file), Rank(rank)));
                ++file;
            }
        }
        if (ranks_seen != 8 || file != 8) return fail(error, "FEN board must have 8 ranks of 8 squares");

        // 2. Side to move
        if (side == "w") side_ = WHITE;
        else if (side == "b") side_ = BLACK;
        else return fail(error, "FEN side to move must be 'w' or 'b'");

        // Kings before castling (castling rights need the king square)
        if (count(W_KING) != 1 || count(B_KING) != 1) return fail(error, "FEN must have exactly one king per side");

        // 3. Castling: KQkq (X-FEN: outermost rook), or file letters (Shredder-FEN)
        // A right (or en-passant square) that cannot be: refused (`strict`, the message of a strict read), or
        // left out and described (`lenient`).
        auto impossible = [&](const std::string& strict, const std::string& lenient) {
            if (!dropped) return fail(error, strict);
            dropped->push_back(lenient);
            return true;
        };
        if (castling != "-") {
            for (std::size_t i = 0; i < castling.size(); ++i) {
                const char c = castling[i];
                // Checked first: the messages below quote c, which must be a whole character.
                if (!std::strchr("KQABCDEFGHkqabcdefgh", c) || c == '\0')
                    return fail(error, "FEN has an invalid castling character " + describe_character(castling, i));
                Color col = std::isupper(static_cast<unsigned char>(c)) ? WHITE : BLACK;
                char u = char(std::toupper(static_cast<unsigned char>(c)));
                Piece rook = make_piece(col, ROOK);
                Square ksq = king_square(col);
                const std::string right = std::string("castling '") + c + "'";
                const std::string whose = col == WHITE ? "White" : "Black";
                if (relative_rank(col, ksq) != RANK_1) {
                    if (!impossible("FEN " + right + " but the king is not on its first rank",
                                    right + " (" + whose + "'s king is not on its first rank)"))
                        return false;
                    continue;
                }
                Square rsq = SQ_NONE;
                if (u == 'K') {
                    for (Square s = relative_square(col, SQ_H1); s > ksq; --s)
                        if (piece_on(s) == rook) { rsq = s; break; }
                } else if (u == 'Q') {
                    for (Square s = relative_square(col, SQ_A1); s < ksq; ++s)
                        if (piece_on(s) == rook) { rsq = s; break; }
                } else if (u >= 'A' && u <= 'H') {
                    Square s = relative_square(col, make_square(File(u - 'A'), RANK_1));
                    if (piece_on(s) == rook) rsq = s;
                } else
                    return fail(error, "FEN has an invalid castling character " + describe_character(castling, i));
                if (rsq == SQ_NONE) {
                    if (!impossible("FEN " + right + " has no rook to castle with",
                                    right + " (" + whose + " has no rook to castle with on that side)"))
                        return false;
                    continue;
                }
                if (!chess960_ && (file_of(ksq) != FILE_E || (file_of(rsq) != FILE_A && file_of(rsq) != FILE_H))) {
                    if (!impossible("FEN " + right + " needs king on e-file and rook in the corner (set UCI_Chess960 for Chess960)",
                                    right + " (in standard chess it needs " + whose +
                                        "'s king on the e-file and the rook in the corner: set UCI_Chess960 for Chess960)"))
                        return false;
                    continue;
                }
                int side_bit = (col == WHITE ? WHITE_CASTLING : BLACK_CASTLING) &
                               (ksq < rsq ? (WHITE_OO | BLACK_OO) : (WHITE_OOO | BLACK_OOO));
                if (st().castling_rights & side_bit) {
                    if (!impossible(std::string("FEN castling right '") + c + "' given twice", right + " (given twice)"))
                        return false;
                    continue;
                }
                set_castling_right(col, rsq);
            }
        }

        // 4. En passant: kept only if a pawn of the side to move could capture (the key then depends on it).
        if (ep != "-") {
            const bool square_name = ep.size() == 2 && ep[0] >= 'a' && ep[0] <= 'h' && ep[1] >= '1' && ep[1] <= '8';
            if (!square_name || (!dropped && ep[1] != '3' && ep[1] != '6'))
                return fail(error, "FEN en-passant square '" + printable(ep) + "' is invalid");
            Square s = make_square(File(ep[0] - 'a'), Rank(ep[1] - '1'));
            const std::string square = "en-passant square '" + ep + "'";
            if (relative_rank(side_, s) != RANK_6) {
                if (!impossible("FEN " + square + " is on the wrong rank for the side to move",
                                square + " (on the wrong rank for the side to move)"))
                    return false;
            } else {
                Square pushed = s - pawn_push(side_);
                Square origin = s + pawn_push(side_);
                if (piece_on(pushed) != make_piece(~side_, PAWN) || !empty(s) || !empty(origin)) {
                    if (!impossible("FEN " + square + " is impossible: no pawn just pushed there",
                                    square + " (no pawn has just made a double step there)"))
                        return false;
                } else if (pawn_attacks(~side_, s) & pieces(side_, PAWN)) {
                    st().ep_square = s;
                }
            }
        }

        // 5. Counters
        auto parse_int = [](const std::string& str, int& out) {  // digits only: no sign
            return !str.empty() && std::isdigit(static_cast<unsigned char>(str[0])) && parse_integer(str, &out);
        };
        int halfmove = 0, fullmove = 1;
        if (!parse_int(half, halfmove) || halfmove > 150)
            return fail(error, "FEN halfmove clock '" + printable(half) + "' is not a number in 0..150");
        if (!parse_int(full, fullmove) || fullmove > 100000)
            return fail(error, "FEN fullmove number '" + printable(full) + "' is not a number in 1..100000");
        st().rule50 = halfmove;
        game_ply_ = std::max(2 * (fullmove - 1), 0) + (side_ == BLACK);

        StateInfo& si = st();
        si.key = compute_key();
        si.pawn_key = compute_pawn_key();
        set_check_info(si);
        return validate(error);
    }();
    if (!ok) {
        *this = saved;
        return false;
    }
    return true;
}

bool Position::validate(std::string* error) const {
    for (Color c : {WHITE, BLACK}) {
        const char* name = c == WHITE ? "White" : "Black";
        if (popcount(pieces(c)) > 16) return fail(error, std::string("FEN: ") + name + " has more than 16 pieces");
        if (count(c, PAWN) > 8) return fail(error, std::string("FEN: ") + name + " has more than 8 pawns");
        int promoted = std::max(0, count(c, KNIGHT) - 2) + std::max(0, count(c, BISHOP) - 2) +
                       std::max(0, count(c, ROOK) - 2) + std::max(0, count(c, QUEEN) - 1);
        if (count(c, PAWN) + promoted > 8)
            return fail(error, std::string("FEN: ") + name + " has more promoted pieces than missing pawns");
    }
    if (pieces(PAWN) & (RANK_1_BB | RANK_8_BB)) return fail(error, "FEN has a pawn on the first or eighth rank");
    if (attackers_to(king_square(~side_)) & pieces(side_))
        return fail(error, "FEN: the side not to move is in check");
    if (popcount(checkers()) > 2) return fail(error, "FEN: the side to move is in check by more than two pieces");
    return true;
}

std::string Position::fen() const {
    std::string out;
    for (int r = RANK_8; r >= RANK_1; --r) {
        int empty_run = 0;
        for (int f = FILE_A; f <= FILE_H; ++f) {
            Piece p = piece_on(make_square(File(f), Rank(r)));
            if (p == NO_PIECE) {
                ++empty_run;
                continue;
            }
            if (empty_run) out += char('0' + empty_run), empty_run = 0;
            out += PIECE_CHARS[p];
        }
        if (empty_run) out += char('0' + empty_run);
        if (r > RANK_1) out += '/';
    }
    out += side_ == WHITE ? " w " : " b ";
    std::string cr;
    auto add_right = [&](int right, char standard) {
        if (!can_castle(right)) return;
        Square rsq = castling_rook_square(right);
        if (!chess960_) {
            cr += standard;
            return;
        }
        // Shredder-FEN letters in Chess960: unambiguous whatever the rook placement.
        char letter = char('A' + file_of(rsq));
        cr += standard == 'K' || standard == 'Q' ? letter : char(std::tolower(letter));
    };
    add_right(WHITE_OO, 'K');
    add_right(WHITE_OOO, 'Q');
    add_right(BLACK_OO, 'k');
    add_right(BLACK_OOO, 'q');
    out += cr.empty() ? "-" : cr;
    out += ' ' + square_to_string(ep_square());
    out += ' ' + std::to_string(rule50()) + ' ' + std::to_string(1 + (game_ply_ - (side_ == BLACK)) / 2);
    return out;
}

std::string Position::pretty() const {
    std::ostringstream os;
    os << "\n +---+---+---+---+---+---+---+---+\n";
    for (int r = RANK_8; r >= RANK_1; --r) {
        for (int f = FILE_A; f <= FILE_H; ++f) os << " | " << PIECE_CHARS[piece_on(make_square(File(f), Rank(r)))];
        os << " | " << (r + 1) << "\n +---+---+---+---+---+---+---+---+\n";
    }
    os << "   a   b   c   d   e   f   g   h\n\n";
    os << "Fen: " << fen() << "\n";
    char buf[64];
    std::snprintf(buf, sizeof buf, "%016llX", static_cast<unsigned long long>(key()));
    os << "Key: " << buf << "\n";
    std::snprintf(buf, sizeof buf, "%016llX", static_cast<unsigned long long>(pawn_key()));
    os << "Pawn key: " << buf << "\n";
    os << "Material index: " << material_index_ << (material_in_table() ? "" : " (outside the table)") << "\n";
    os << "Checkers:";
    for (Bitboard b = checkers(); b;) os << ' ' << square_to_string(pop_lsb(b));
    os << "\n";
    return os.str();
}

Key Position::compute_key() const {
    Key k = 0;
    for (Bitboard b = pieces(); b;) {
        Square s = pop_lsb(b);
        k ^= zobrist::psq[piece_on(s)][s];
    }
    if (ep_square() != SQ_NONE) k ^= zobrist::enpassant[file_of(ep_square())];
    k ^= zobrist::castling[castling_rights()];
    if (side_ == BLACK) k ^= zobrist::side;
    return k;
}

Key Position::compute_pawn_key() const {
    Key k = zobrist::no_pawns;
    for (Bitboard b = pieces(PAWN); b;) {
        Square s = pop_lsb(b);
        k ^= zobrist::psq[piece_on(s)][s];
    }
    return k;
}

int Position::compute_material_index() const {
    int idx = 0;
    for (Piece p : {W_PAWN, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, B_PAWN, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN})
        idx += popcount(pieces(color_of(p), type_of(p))) * MATERIAL_INDEX_WEIGHT[p];
    return idx;
}

bool Position::is_consistent(std::string* why) const {
    if (!board_is_consistent(why)) return false;
    StateInfo fresh = st();
    set_check_info(fresh);
    if (fresh.checkers != checkers() || fresh.blockers_for_king[WHITE] != blockers_for_king(WHITE) ||
        fresh.blockers_for_king[BLACK] != blockers_for_king(BLACK))
        return fail(why, "check information differs from recomputation");
    return true;
}

bool Position::board_is_consistent(std::string* why) const {
    if (key() != compute_key()) return fail(why, "Zobrist key differs from recomputation");
    if (pawn_key() != compute_pawn_key()) return fail(why, "pawn key differs from recomputation");
    if (material_index_ != compute_material_index()) return fail(why, "material index differs from recomputation");
    int balance = 0;
    for (PieceType pt = PAWN; pt <= QUEEN; ++pt)
        balance += MATERIAL_UNITS[pt] * (popcount(pieces(WHITE, pt)) - popcount(pieces(BLACK, pt)));
    if (balance != material_balance_) return fail(why, "material balance differs from recomputation");
    // Mailbox and bitboards agree when every square of a piece's bitboard holds that piece, those bitboards
    // cover the occupancy, and the mailbox has as many pieces as the occupancy has squares. (This runs after
    // every move in the debug and sanitizer builds, where a lookup per square took a third of the search.)
    Bitboard covered = 0;
    for (Color c : {WHITE, BLACK})
        for (PieceType pt = PAWN; pt <= KING; ++pt) {
            const Piece p = make_piece(c, pt);
            const Bitboard bb = pieces(c, pt);
            if (piece_count_[p] != popcount(bb)) return fail(why, "piece count differs from the bitboards");
            for (Bitboard b = bb; b;) {
                const Square s = pop_lsb(b);
                if (board_[s] != p) return fail(why, "mailbox and piece bitboards disagree on " + square_to_string(s));
            }
            covered |= bb;
        }
    if (covered != pieces()) return fail(why, "piece bitboards and occupancy disagree");
    int in_mailbox = 0;
    for (Piece p : board_) in_mailbox += p != NO_PIECE;
    if (in_mailbox != popcount(pieces()))
        for (Square s = SQ_A1; s <= SQ_H8; ++s)
            if (board_[s] != NO_PIECE && !(pieces() & s))
                return fail(why, "mailbox and occupancy disagree on " + square_to_string(s));
    if ((pieces(WHITE) & pieces(BLACK)) || ((pieces(WHITE) | pieces(BLACK)) != pieces()))
        return fail(why, "colour bitboards are inconsistent");
    return true;
}

Bitboard Position::attackers_to(Square s, Bitboard occupied) const {
    return (pawn_attacks(BLACK, s) & pieces(WHITE, PAWN)) | (pawn_attacks(WHITE, s) & pieces(BLACK, PAWN)) |
           (knight_attacks(s) & pieces(KNIGHT)) | (rook_attacks(s, occupied) & pieces(ROOK, QUEEN)) |
           (bishop_attacks(s, occupied) & pieces(BISHOP, QUEEN)) | (king_attacks(s) & pieces(KING));
}

void Position::update_blockers(Color c, StateInfo& si) const {
    Square ksq = king_square(c);
    si.blockers_for_king[c] = 0;
    si.pinners[~c] = 0;
    Bitboard snipers = ((attacks::pseudo_attacks[ROOK][ksq] & pieces(ROOK, QUEEN)) |
                        (attacks::pseudo_attacks[BISHOP][ksq] & pieces(BISHOP, QUEEN))) &
                       pieces(~c);
    Bitboard occupancy = pieces() ^ snipers;
    while (snipers) {
        Square sniper = pop_lsb(snipers);
        Bitboard b = between_bb(ksq, sniper) & ~square_bb(sniper) & occupancy;
        if (b && !more_than_one(b)) {
            si.blockers_for_king[c] |= b;
            if (b & pieces(c)) si.pinners[~c] |= sniper;
        }
    }
}

void Position::set_check_info(StateInfo& si) const {
    si.checkers = attackers_to(king_square(side_)) & pieces(~side_);
    update_blockers(WHITE, si);
    update_blockers(BLACK, si);
    Square ksq = king_square(~side_);
    si.check_squares[PAWN] = pawn_attacks(~side_, ksq);
    si.check_squares[KNIGHT] = knight_attacks(ksq);
    si.check_squares[BISHOP] = bishop_attacks(ksq, pieces());
    si.check_squares[ROOK] = rook_attacks(ksq, pieces());
    si.check_squares[QUEEN] = si.check_squares[BISHOP] | si.check_squares[ROOK];
    si.check_squares[KING] = 0;
}

bool Position::legal(Move m) const {
    Color us = side_;
    Square from = m.from(), to = m.to();
    Square ksq = king_square(us);

    if (m.type() == EN_PASSANT) {
        // Both pawns leave their squares: test the king's lines directly.
        Square capsq = to - pawn_push(us);
        Bitboard occupied = (pieces() ^ from ^ capsq) | to;
        return !(rook_attacks(ksq, occupied) & pieces(~us, ROOK, QUEEN)) &&
               !(bishop_attacks(ksq, occupied) & pieces(~us, BISHOP, QUEEN));
    }
    if (m.type() == CASTLING) {
        // The generator checked emptiness; here: no square the king crosses is attacked.
        Square king_to = relative_square(us, to > from ? SQ_G1 : SQ_C1);
        int step = king_to > from ? WEST : EAST;
        for (Square s = king_to; s != from; s = s + step)
            if (attackers_to(s) & pieces(~us)) return false;
        // Chess960: the castling rook may have shielded the king's destination along the rank.
        return !chess960_ || !(blockers_for_king(us) & to);
    }
    if (type_of(piece_on(from)) == KING) return !(attackers_to(to, pieces() ^ from) & pieces(~us));
    // A pinned piece may only move along the line of its pin.
    return !(blockers_for_king(us) & from) || aligned(from, to, ksq);
}

bool Position::pseudo_legal(Move m) const {
    if (!m.is_ok()) return false;
    Color us = side_;
    Square from = m.from(), to = m.to();
    Piece pc = piece_on(from);
    if (pc == NO_PIECE || color_of(pc) != us) return false;
    if (m.type() != PROMOTION && m.promotion_type() != KNIGHT) return false;  // stray bits

    if (m.type() == CASTLING) {
        if (type_of(pc) != KING || in_check()) return false;
        for (int cr : {us == WHITE ? WHITE_OO : BLACK_OO, us == WHITE ? WHITE_OOO : BLACK_OOO})
            if (can_castle(cr) && castling_rook_square(cr) == to && !castling_impeded(cr)) return true;
        return false;
    }
    if (m.type() == EN_PASSANT) {
        return type_of(pc) == PAWN && to == ep_square() && (pawn_attacks(us, from) & to) &&
               (!in_check() || legal_evasion_target(m));
    }
    if (pieces(us) & to) return false;

    if (type_of(pc) == PAWN) {
        bool last_rank = relative_rank(us, to) == RANK_8;
        if (last_rank != (m.type() == PROMOTION)) return false;
        bool capture = (pawn_attacks(us, from) & pieces(~us)) & to;
        bool single = from + pawn_push(us) == to && empty(to);
        bool dbl = from + 2 * pawn_push(us) == to && relative_rank(us, from) == RANK_2 && empty(to) &&
                   empty(from + pawn_push(us));
        if (!capture && !single && !dbl) return false;
    } else {
        if (m.type() == PROMOTION) return false;
        if (!(attacks_bb(type_of(pc), from, pieces()) & to)) return false;
    }

    if (in_check()) {
        if (type_of(pc) != KING) {
            if (more_than_one(checkers())) return false;
            // Must capture the checker or block the check.
            if (!(between_bb(king_square(us), lsb(checkers())) & to)) return false;
        } else if (attackers_to(to, pieces() ^ from) & pieces(~us))
            return false;
    }
    return true;
}

// En passant under check: legal only if it removes the checking pawn or blocks the check.
bool Position::legal_evasion_target(Move m) const {
    if (more_than_one(checkers())) return false;
    Square capsq = m.to() - pawn_push(side_);
    Square checker = lsb(checkers());
    return checker == capsq || (between_bb(king_square(side_), checker) & m.to());
}

bool Position::gives_check(Move m) const {
    Color us = side_;
    Square from = m.from(), to = m.to();
    Square ksq = king_square(~us);
    PieceType pt = type_of(piece_on(from));

    if (m.type() != CASTLING && (check_squares(pt) & to)) return true;
    // Discovered check
    if ((blockers_for_king(~us) & from) && !aligned(from, to, ksq) && m.type() != CASTLING) return true;

    switch (m.type()) {
    case NORMAL: return false;
    case PROMOTION: return attacks_bb(m.promotion_type(), to, pieces() ^ from) & ksq;
    case EN_PASSANT: {
        Square capsq = make_square(file_of(to), rank_of(from));
        Bitboard b = (pieces() ^ from ^ capsq) | to;
        return (rook_attacks(ksq, b) & pieces(us, ROOK, QUEEN)) | (bishop_attacks(ksq, b) & pieces(us, BISHOP, QUEEN));
    }
    case CASTLING: {
        Square king_to = relative_square(us, to > from ? SQ_G1 : SQ_C1);
        Square rook_to = relative_square(us, to > from ? SQ_F1 : SQ_D1);
        return (check_squares(ROOK) & rook_to) ||
               (rook_attacks(rook_to, (pieces() ^ from ^ to) | rook_to | king_to) & ksq);
    }
    }
    return false;
}

void Position::do_castling(Color us, Square from, Square& to, Square& rook_from, Square& rook_to, bool undo) {
    bool king_side = to > from;
    rook_from = to;
    rook_to = relative_square(us, king_side ? SQ_F1 : SQ_D1);
    to = relative_square(us, king_side ? SQ_G1 : SQ_C1);
    // Remove both first: in Chess960 the destinations may hold the other piece.
    Piece king = make_piece(us, KING), rook = make_piece(us, ROOK);
    remove_piece(undo ? to : from);
    remove_piece(undo ? rook_to : rook_from);
    put_piece(king, undo ? from : to);
    put_piece(rook, undo ? rook_from : rook_to);
}

void Position::do_move(Move m) {
    history_.push_back(history_.back());
    StateInfo& si = history_.back();
    si.move = m;
    ++game_ply_;
    ++si.rule50;
    ++si.plies_from_null;

    Color us = side_, them = ~us;
    Square from = m.from(), to = m.to();
    Piece pc = piece_on(from);
    Piece captured = m.type() == EN_PASSANT ? make_piece(them, PAWN) : piece_on(to);
    Key k = si.key ^ zobrist::side;

    if (si.ep_square != SQ_NONE) {
        k ^= zobrist::enpassant[file_of(si.ep_square)];
        si.ep_square = SQ_NONE;
    }

    if (m.type() == CASTLING) {
        Square rook_from, rook_to;
        do_castling(us, from, to, rook_from, rook_to, false);
        Piece rook = make_piece(us, ROOK);
        k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to] ^ zobrist::psq[rook][rook_from] ^ zobrist::psq[rook][rook_to];
        captured = NO_PIECE;
    } else {
        if (captured != NO_PIECE) {
            Square capsq = to;
            if (type_of(captured) == PAWN) {
                if (m.type() == EN_PASSANT) capsq = to - pawn_push(us);
                si.pawn_key ^= zobrist::psq[captured][capsq];
            }
            remove_piece(capsq);
            k ^= zobrist::psq[captured][capsq];
            si.rule50 = 0;
        }
        move_piece(from, to);
        k ^= zobrist::psq[pc][from] ^ zobrist::psq[pc][to];

        if (type_of(pc) == PAWN) {
            if ((int(to) ^ int(from)) == 16 && (pawn_attacks(us, to - pawn_push(us)) & pieces(them, PAWN))) {
                si.ep_square = to - pawn_push(us);
                k ^= zobrist::enpassant[file_of(si.ep_square)];
            } else if (m.type() == PROMOTION) {
                Piece promoted = make_piece(us, m.promotion_type());
                remove_piece(to);
                put_piece(promoted, to);
                k ^= zobrist::psq[pc][to] ^ zobrist::psq[promoted][to];
            }
            si.pawn_key ^= zobrist::psq[pc][from] ^ (m.type() == PROMOTION ? 0 : zobrist::psq[pc][to]);
            si.rule50 = 0;
        }
    }

    int mask = castling_rights_mask_[from] | castling_rights_mask_[m.type() == CASTLING ? m.to() : to];
    if (si.castling_rights && mask) {
        k ^= zobrist::castling[si.castling_rights];
        si.castling_rights &= ~mask;
        k ^= zobrist::castling[si.castling_rights];
    }

    si.captured = captured;
    si.key = k;
    side_ = them;
    set_check_info(si);
    assert(board_is_consistent());  // debug and sanitizer builds: incremental state == recomputation
}

void Position::undo_move(Move m) {
    side_ = ~side_;
    Color us = side_;
    Square from = m.from(), to = m.to();
    const StateInfo& si = history_.back();

    if (m.type() == CASTLING) {
        Square rook_from, rook_to;
        do_castling(us, from, to, rook_from, rook_to, true);
    } else {
        if (m.type() == PROMOTION) {
            remove_piece(to);
            put_piece(make_piece(us, PAWN), to);
        }
        move_piece(to, from);
        if (si.captured != NO_PIECE) {
            Square capsq = m.type() == EN_PASSANT ? to - pawn_push(us) : to;
            put_piece(si.captured, capsq);
        }
    }
    history_.pop_back();
    --game_ply_;
}

void Position::do_null_move() {
    history_.push_back(history_.back());
    StateInfo& si = history_.back();
    si.move = Move::null();
    si.captured = NO_PIECE;
    if (si.ep_square != SQ_NONE) {
        si.key ^= zobrist::enpassant[file_of(si.ep_square)];
        si.ep_square = SQ_NONE;
    }
    si.key ^= zobrist::side;
    ++si.rule50;
    si.plies_from_null = 0;
    ++game_ply_;
    side_ = ~side_;
    set_check_info(si);
}

void Position::undo_null_move() {
    history_.pop_back();
    --game_ply_;
    side_ = ~side_;
}

bool Position::is_repetition(int ply) const {
    const StateInfo& cur = st();
    int end = std::min(cur.rule50, cur.plies_from_null);
    int n = int(history_.size()) - 1;
    int occurrences = 0;
    for (int i = 4; i <= end && n - i >= 0; i += 2) {
        if (history_[n - i].key == cur.key) {
            // Inside the search tree one repetition is enough; before the root it takes a threefold.
            if (i < ply) return true;
            if (++occurrences >= 2) return true;
        }
    }
    return false;
}

bool Position::has_repeated() const {
    const int n = int(history_.size()) - 1;
    const int end = std::min(st().rule50, st().plies_from_null);
    for (int back = 0; back <= end && n - back >= 0; ++back) {
        const StateInfo& s = history_[n - back];
        const int window = std::min(s.rule50, s.plies_from_null);
        for (int i = 4; i <= window && n - back - i >= 0; i += 2)
            if (history_[n - back - i].key == s.key) return true;
    }
    return false;
}

bool Position::is_draw(int ply) const {
    if (rule50() >= 100) {
        if (!in_check()) return true;
        // Checkmate on the 100th half-move wins: need a legal move to call it a draw.
        return has_legal_move();
    }
    return is_repetition(ply);
}

bool Position::has_insufficient_material() const {
    if (pieces(PAWN) || pieces(ROOK) || pieces(QUEEN)) return false;
    Bitboard minors = pieces(KNIGHT, BISHOP);
    if (popcount(minors) <= 1) return true;
    // Only bishops, all on one colour: no mate possible.
    if (!pieces(KNIGHT) && (!(pieces(BISHOP) & LIGHT_SQUARES) || !(pieces(BISHOP) & DARK_SQUARES))) return true;
    return false;
}

Position Position::flipped() const {
    std::string f = fen();
    std::istringstream in(f);
    std::string board, side, castling, ep, half, full;
    in >> board >> side >> castling >> ep >> half >> full;
    std::vector<std::string> ranks;
    std::string cur;
    for (char c : board) {
        if (c == '/') ranks.push_back(cur), cur.clear();
        else cur += std::isalpha(static_cast<unsigned char>(c)) ? char(std::isupper(static_cast<unsigned char>(c)) ? std::tolower(c) : std::toupper(c)) : c;
    }
    ranks.push_back(cur);
    std::string nb;
    for (int i = 7; i >= 0; --i) nb += ranks[i] + (i ? "/" : "");
    for (char& c : castling)
        if (c != '-') c = std::isupper(static_cast<unsigned char>(c)) ? char(std::tolower(c)) : char(std::toupper(c));
    if (ep != "-") ep[1] = ep[1] == '3' ? '6' : '3';
    Position p;
    p.set_fen(nb + (side == "w" ? " b " : " w ") + castling + " " + ep + " " + half + " " + full, chess960_);
    return p;
}

}  // namespace quince

namespace quince {

// Swap-list SEE on the destination square, with x-ray attackers revealed as pieces leave.
bool Position::see_ge(Move m, int threshold) const {
    if (m.type() != NORMAL) return 0 >= threshold;  // promotions, e.p., castling: treated as neutral

    Square from = m.from(), to = m.to();
    int swap = SEE_VALUE[type_of(piece_on(to))] - threshold;
    if (swap < 0) return false;
    swap = SEE_VALUE[type_of(piece_on(from))] - swap;
    if (swap <= 0) return true;

    Bitboard occupied = pieces() ^ from ^ to;
    Color stm = empty(from) ? side_ : color_of(piece_on(from));
    Bitboard attackers = attackers_to(to, occupied);
    int result = 1;

    while (true) {
        stm = ~stm;
        attackers &= occupied;
        Bitboard stm_attackers = attackers & pieces(stm);
        if (!stm_attackers) break;
        // Pinned pieces may not take part while their pinner is still on the board.
        if (pinners(~stm) & occupied) {
            stm_attackers &= ~blockers_for_king(stm);
            if (!stm_attackers) break;
        }
        result ^= 1;
        Bitboard bb;
        if ((bb = stm_attackers & pieces(PAWN))) {
            if ((swap = SEE_VALUE[PAWN] - swap) < result) break;
            occupied ^= lsb(bb);
            attackers |= bishop_attacks(to, occupied) & pieces(BISHOP, QUEEN);
        } else if ((bb = stm_attackers & pieces(KNIGHT))) {
            if ((swap = SEE_VALUE[KNIGHT] - swap) < result) break;
            occupied ^= lsb(bb);
        } else if ((bb = stm_attackers & pieces(BISHOP))) {
            if ((swap = SEE_VALUE[BISHOP] - swap) < result) break;
            occupied ^= lsb(bb);
            attackers |= bishop_attacks(to, occupied) & pieces(BISHOP, QUEEN);
        } else if ((bb = stm_attackers & pieces(ROOK))) {
            if ((swap = SEE_VALUE[ROOK] - swap) < result) break;
            occupied ^= lsb(bb);
            attackers |= rook_attacks(to, occupied) & pieces(ROOK, QUEEN);
        } else if ((bb = stm_attackers & pieces(QUEEN))) {
            if ((swap = SEE_VALUE[QUEEN] - swap) < result) break;
            occupied ^= lsb(bb);
            attackers |= (bishop_attacks(to, occupied) & pieces(BISHOP, QUEEN)) |
                         (rook_attacks(to, occupied) & pieces(ROOK, QUEEN));
        } else  // king: wins only if the other side has no attacker left
            return (attackers & ~pieces(stm)) ? result ^ 1 : result;
    }
    return bool(result);
}

}  // namespace quince
