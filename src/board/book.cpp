#include "board/book.h"

#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>

#include "board/movegen.h"

namespace quince::book {

namespace {

constexpr int CASTLING_OFFSET = 768;
constexpr int EN_PASSANT_OFFSET = 772;
constexpr int TURN_OFFSET = 780;
constexpr std::size_t ENTRY_BYTES = 16;

std::uint64_t read_be(const unsigned char* p, int bytes) {
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i) v = (v << 8) | p[i];
    return v;
}

}  // namespace

Key polyglot_key(const Position& pos) {
    Key key = 0;
    for (Bitboard b = pos.pieces(); b;) {
        const Square s = lsb(b);
        b &= b - 1;
        const Piece p = pos.piece_on(s);
        const int kind = 2 * (type_of(p) - 1) + (color_of(p) == WHITE ? 1 : 0);
        key ^= POLYGLOT_RANDOM[64 * kind + int(s)];
    }
    // Quince's castling bits are in the format's order: White O-O, White O-O-O, Black O-O, Black O-O-O.
    for (int i = 0; i < 4; ++i)
        if (pos.castling_rights() & (1 << i)) key ^= POLYGLOT_RANDOM[CASTLING_OFFSET + i];
    const Color us = pos.side_to_move();
    const Square ep = pos.ep_square();
    if (ep != SQ_NONE && (pawn_attacks(~us, ep) & pos.pieces(us, PAWN)))
        key ^= POLYGLOT_RANDOM[EN_PASSANT_OFFSET + file_of(ep)];
    if (us == WHITE) key ^= POLYGLOT_RANDOM[TURN_OFFSET];
    return key;
}

std::uint16_t encode_move(Move m) {
    const int promotion = m.type() == PROMOTION ? int(m.promotion_type()) - KNIGHT + 1 : 0;
    return std::uint16_t((promotion << 12) | (int(m.from()) << 6) | int(m.to()));
}

Move decode_move(const Position& pos, std::uint16_t code) {
    static constexpr PieceType PROMOTION_PIECE[8] = {NO_PIECE_TYPE, KNIGHT, BISHOP, ROOK, QUEEN,
                                                     NO_PIECE_TYPE, NO_PIECE_TYPE, NO_PIECE_TYPE};
    const Square to = make_square(File(code & 7), Rank((code >> 3) & 7));
    const Square from = make_square(File((code >> 6) & 7), Rank((code >> 9) & 7));
    const PieceType promotion = PROMOTION_PIECE[(code >> 12) & 7];
    for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
        const Move m = sm.move;
        if (m.from() != from || m.to() != to) continue;
        if (m.type() == PROMOTION ? m.promotion_type() == promotion : promotion == NO_PIECE_TYPE) return m;
    }
    return Move::none();
}

bool Book::open(const std::string& path, std::string* error) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
        *error = "'" + path + "' is not a file";
        return false;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        *error = "cannot open '" + path + "'";
        return false;
    }
    std::string bytes;
    try {
        bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    } catch (const std::exception&) {
        in.setstate(std::ios::badbit);
    }
    if (in.bad()) {
        *error = "cannot read '" + path + "'";
        return false;
    }
    return load(bytes, path, error);
}

bool Book::load(const std::string& bytes, const std::string& path, std::string* error) {
    if (bytes.empty()) {
        *error = "'" + path + "' is empty";
        return false;
    }
    if (bytes.size() % ENTRY_BYTES != 0) {
        *error = "'" + path + "' is not a Polyglot book (" + std::to_string(bytes.size()) +
                 " bytes, not a multiple of 16: truncated?)";
        return false;
    }
    std::vector<Entry> entries(bytes.size() / ENTRY_BYTES);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        const auto* p = reinterpret_cast<const unsigned char*>(bytes.data()) + i * ENTRY_BYTES;
        entries[i] = {read_be(p, 8), std::uint16_t(read_be(p + 8, 2)), std::uint16_t(read_be(p + 10, 2))};
        if (i > 0 && entries[i].key < entries[i - 1].key) {
            *error = "'" + path + "' is not a Polyglot book (keys not sorted at entry " + std::to_string(i) + ")";
            return false;
        }
    }
    entries_ = std::move(entries);
    path_ = path;
    return true;
}

void Book::close() {
    entries_.clear();
    path_.clear();
}

std::vector<BookMove> Book::moves(const Position& pos) const {
    std::vector<BookMove> out;
    const Key key = polyglot_key(pos);
    auto it = std::lower_bound(entries_.begin(), entries_.end(), key,
                               [](const Entry& e, Key k) { return e.key < k; });
    for (; it != entries_.end() && it->key == key; ++it) {
        const Move m = decode_move(pos, it->move);
        if (m && std::none_of(out.begin(), out.end(), [m](const BookMove& b) { return b.move == m; }))
            out.push_back({m, it->weight});
    }
    return out;
}

Move Book::pick(const Position& pos, bool best, std::mt19937_64& rng) const {
    const std::vector<BookMove> candidates = moves(pos);
    std::uint64_t total = 0;
    const BookMove* top = nullptr;
    for (const BookMove& b : candidates) {
        total += std::uint64_t(b.weight);
        if (b.weight > 0 && (!top || b.weight > top->weight)) top = &b;
    }
    if (!top) return Move::none();
    if (best) return top->move;
    std::uint64_t r = std::uniform_int_distribution<std::uint64_t>(0, total - 1)(rng);
    for (const BookMove& b : candidates) {
        if (r < std::uint64_t(b.weight)) return b.move;
        r -= std::uint64_t(b.weight);
    }
    return top->move;  // not reached: the draw is below the total
}

}  // namespace quince::book
