// Core value types shared by every layer: colours, pieces, squares, moves.
// Square layout follows the seeds: a1 = 0, b1 = 1, ..., h8 = 63.
#pragma once

#include <cstdint>
#include <string>

namespace quince {

using Bitboard = std::uint64_t;
using Key = std::uint64_t;

enum Color : int { WHITE, BLACK, COLOR_NB = 2 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }

enum PieceType : int { NO_PIECE_TYPE, PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING, PIECE_TYPE_NB = 7 };

// Piece = colour * 8 + type, so (piece >> 3) is the colour and (piece & 7) the type.
enum Piece : int {
    NO_PIECE,
    W_PAWN = 1, W_KNIGHT, W_BISHOP, W_ROOK, W_QUEEN, W_KING,
    B_PAWN = 9, B_KNIGHT, B_BISHOP, B_ROOK, B_QUEEN, B_KING,
    PIECE_NB = 16
};

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }

enum Square : int {
    SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
    SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
    SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
    SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
    SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
    SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
    SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
    SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
    SQ_NONE = 64, SQUARE_NB = 64
};

enum File : int { FILE_A, FILE_B, FILE_C, FILE_D, FILE_E, FILE_F, FILE_G, FILE_H, FILE_NB };
enum Rank : int { RANK_1, RANK_2, RANK_3, RANK_4, RANK_5, RANK_6, RANK_7, RANK_8, RANK_NB };

constexpr Square make_square(File f, Rank r) { return Square((r << 3) | f); }
constexpr File file_of(Square s) { return File(s & 7); }
constexpr Rank rank_of(Square s) { return Rank(s >> 3); }
constexpr bool is_ok(Square s) { return s >= SQ_A1 && s <= SQ_H8; }
// Vertical mirror (a1 <-> a8): the seeds' "Black = mirror of White".
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
// Square as seen by colour c (White: unchanged, Black: mirrored).
constexpr Square relative_square(Color c, Square s) { return Square(s ^ (c * 56)); }
constexpr Rank relative_rank(Color c, Rank r) { return Rank(r ^ (c * 7)); }
constexpr Rank relative_rank(Color c, Square s) { return relative_rank(c, rank_of(s)); }

enum Direction : int {
    NORTH = 8, EAST = 1, SOUTH = -8, WEST = -1,
    NORTH_EAST = 9, NORTH_WEST = 7, SOUTH_EAST = -7, SOUTH_WEST = -9
};
constexpr Direction pawn_push(Color c) { return c == WHITE ? NORTH : SOUTH; }

constexpr Square operator+(Square s, int d) { return Square(int(s) + d); }
constexpr Square operator-(Square s, int d) { return Square(int(s) - d); }
inline Square& operator++(Square& s) { return s = Square(int(s) + 1); }
inline Square& operator--(Square& s) { return s = Square(int(s) - 1); }
inline File& operator++(File& f) { return f = File(int(f) + 1); }
inline Rank& operator++(Rank& r) { return r = Rank(int(r) + 1); }
inline Rank& operator--(Rank& r) { return r = Rank(int(r) - 1); }
inline PieceType& operator++(PieceType& p) { return p = PieceType(int(p) + 1); }

// Castling rights as a 4-bit set.
enum CastlingRights : int {
    NO_CASTLING = 0,
    WHITE_OO = 1, WHITE_OOO = 2, BLACK_OO = 4, BLACK_OOO = 8,
    WHITE_CASTLING = WHITE_OO | WHITE_OOO,
    BLACK_CASTLING = BLACK_OO | BLACK_OOO,
    ANY_CASTLING = 15,
    CASTLING_RIGHT_NB = 16
};

// A move in 16 bits: from (0-5), to (6-11), promotion piece - KNIGHT (12-13), type (14-15).
// Castling is encoded "king takes own rook" so that standard chess and Chess960 share one path;
// the UCI layer prints it as e1g1 unless UCI_Chess960 is on.
enum MoveType : int { NORMAL = 0, PROMOTION = 1 << 14, EN_PASSANT = 2 << 14, CASTLING = 3 << 14 };

class Move {
public:
    constexpr Move() = default;
    constexpr explicit Move(std::uint16_t raw) : data_(raw) {}
    constexpr Move(Square from, Square to) : data_(std::uint16_t(int(from) | (int(to) << 6))) {}

    template <MoveType T>
    static constexpr Move make(Square from, Square to, PieceType promo = KNIGHT) {
        return Move(std::uint16_t(int(T) | ((int(promo) - KNIGHT) << 12) | (int(to) << 6) | int(from)));
    }
    static constexpr Move none() { return Move(); }
    static constexpr Move null() { return Move(std::uint16_t(65)); }  // from = b1, to = b1: never a real move

    constexpr Square from() const { return Square(data_ & 0x3F); }
    constexpr Square to() const { return Square((data_ >> 6) & 0x3F); }
    constexpr MoveType type() const { return MoveType(data_ & (3 << 14)); }
    constexpr PieceType promotion_type() const { return PieceType(((data_ >> 12) & 3) + KNIGHT); }
    constexpr bool is_ok() const { return data_ != 0 && from() != to(); }
    constexpr std::uint16_t raw() const { return data_; }
    constexpr explicit operator bool() const { return data_ != 0; }
    constexpr bool operator==(const Move&) const = default;

private:
    std::uint16_t data_ = 0;
};

// Scores. Search scores are centipawns relative to the side to move.
using Value = int;
constexpr Value VALUE_ZERO = 0;
constexpr Value VALUE_DRAW = 0;
constexpr Value VALUE_MATE = 32000;
constexpr Value VALUE_INFINITE = 32001;
constexpr Value VALUE_NONE = 32002;
constexpr int MAX_PLY = 246;
constexpr Value VALUE_MATE_IN_MAX_PLY = VALUE_MATE - MAX_PLY;
constexpr Value VALUE_MATED_IN_MAX_PLY = -VALUE_MATE_IN_MAX_PLY;
// Tablebase wins and losses: just below the mate range, ply-adjusted like mates (VALUE_TB - ply is a
// win reached by a conversion ply plies from the root), so that a proven mate still beats them.
constexpr Value VALUE_TB = VALUE_MATE_IN_MAX_PLY - 1;
constexpr Value VALUE_TB_WIN_IN_MAX_PLY = VALUE_TB - MAX_PLY;
constexpr Value VALUE_TB_LOSS_IN_MAX_PLY = -VALUE_TB_WIN_IN_MAX_PLY;
constexpr Value mate_in(int ply) { return VALUE_MATE - ply; }
constexpr Value mated_in(int ply) { return -VALUE_MATE + ply; }

constexpr int MAX_MOVES = 256;

std::string square_to_string(Square s);

}  // namespace quince
