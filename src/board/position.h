// The board: bitboards per piece type and colour plus a mailbox, incremental Zobrist keys,
// pawn key and the material-table index (docs/eval-spec.md §2.1), make/unmake, FEN, check info.
#pragma once

#include <string>
#include <vector>

#include "core/bitboard.h"
#include "core/types.h"

namespace quince {

// Everything that make/unmake cannot recompute cheaply, one entry per ply of the game.
struct StateInfo {
    Key key = 0;
    Key pawn_key = 0;
    int castling_rights = NO_CASTLING;
    int rule50 = 0;
    int plies_from_null = 0;
    Square ep_square = SQ_NONE;
    Piece captured = NO_PIECE;
    Move move;  // the move that led to this state
    Bitboard checkers = 0;
    Bitboard blockers_for_king[COLOR_NB] = {0, 0};
    Bitboard pinners[COLOR_NB] = {0, 0};
    Bitboard check_squares[PIECE_TYPE_NB] = {};
};

// Material-table index weights (spec 2.1): Q 1/2, R 4/12, B 36/108, N 324/972, P 2916/26244 (White/Black).
// Kings weigh 0. Counts above the table's radix (a third knight, a second queen) make the index meaningless;
// Position::material_in_table() says when that happens.
constexpr int MATERIAL_INDEX_WEIGHT[PIECE_NB] = {
    0, 2916, 324, 36, 4, 1, 0, 0,
    0, 26244, 972, 108, 12, 2, 0, 0};
constexpr int MATERIAL_TABLE_SIZE = 9 * 9 * 3 * 3 * 3 * 3 * 3 * 3 * 2 * 2;  // 236196
// Largest count each piece type can have inside the table.
constexpr int MATERIAL_TABLE_MAX_COUNT[PIECE_TYPE_NB] = {0, 8, 2, 2, 2, 1, 1};
// The seeds' material units 1-3-3-5-10, for the material difference D (spec section 1).
constexpr int MATERIAL_UNITS[PIECE_TYPE_NB] = {0, 1, 3, 3, 5, 10, 0};

class Position {
public:
    static constexpr const char* START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    Position();  // the start position
    Position(const Position&);
    Position& operator=(const Position&);

    // Parses FEN (also X-FEN and Shredder-FEN castling letters). Counters may be omitted (EPD).
    // On failure returns false, fills *error, and leaves the position unchanged.
    // Strict without `dropped`: a castling right or an en-passant square that cannot be (no king or rook
    // in place for it, a right given twice, no pawn that has just made a double step) refuses the FEN.
    // With `dropped` (what a GUI's `position` needs, as Toga II and Glaurung read it) each is left out
    // instead and described by one entry of *dropped; what is malformed is still refused.
    bool set_fen(const std::string& fen, bool chess960 = false, std::string* error = nullptr,
                 std::vector<std::string>* dropped = nullptr);
    std::string fen() const;
    std::string pretty() const;  // ASCII board, FEN and keys (the UCI `d` command)

    // Board access
    Bitboard pieces() const { return by_type_[0]; }
    Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
    Bitboard pieces(PieceType a, PieceType b) const { return by_type_[a] | by_type_[b]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
    Bitboard pieces(Color c, PieceType a, PieceType b) const { return by_color_[c] & (by_type_[a] | by_type_[b]); }
    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s] == NO_PIECE; }
    Square king_square(Color c) const { return lsb(pieces(c, KING)); }
    int count(Piece p) const { return piece_count_[p]; }
    int count(Color c, PieceType pt) const { return piece_count_[make_piece(c, pt)]; }
    Piece moved_piece(Move m) const { return board_[m.from()]; }

    Color side_to_move() const { return side_; }
    Square ep_square() const { return st().ep_square; }
    int castling_rights() const { return st().castling_rights; }
    bool can_castle(int cr) const { return st().castling_rights & cr; }
    bool castling_impeded(int cr) const { return pieces() & castling_path_[cr_index(cr)]; }
    Square castling_rook_square(int cr) const { return castling_rook_square_[cr_index(cr)]; }
    bool is_chess960() const { return chess960_; }
    // Standard rules cannot be switched on for a position whose castling rights only Chess960 allows
    // (king off the e-file or rook off the corner): its castling legality and notation need them.
    void set_chess960(bool on) { chess960_ = on || castling_needs_chess960(); }
    bool castling_needs_chess960() const;

    // Check information of the current position
    Bitboard checkers() const { return st().checkers; }
    bool in_check() const { return st().checkers != 0; }
    Bitboard blockers_for_king(Color c) const { return st().blockers_for_king[c]; }
    Bitboard pinners(Color c) const { return st().pinners[c]; }
    Bitboard check_squares(PieceType pt) const { return st().check_squares[pt]; }

    Bitboard attackers_to(Square s, Bitboard occupied) const;
    Bitboard attackers_to(Square s) const { return attackers_to(s, pieces()); }
    bool attacked_by(Color c, Square s) const { return attackers_to(s) & pieces(c); }

    // Move properties
    bool legal(Move m) const;         // m must be pseudo-legal
    bool pseudo_legal(Move m) const;  // any 16-bit value (hash move, killer) is safe to test
    bool gives_check(Move m) const;
    bool is_capture(Move m) const {
        return (!empty(m.to()) && m.type() != CASTLING) || m.type() == EN_PASSANT;
    }
    bool is_capture_or_promotion(Move m) const { return is_capture(m) || m.type() == PROMOTION; }
    Piece captured_piece() const { return st().captured; }
    Move last_move() const { return st().move; }

    // Static exchange evaluation: is the exchange on m.to() worth at least threshold (centipawns)?
    // The side of the piece on m.from() moves first (the side to move for any legal move; a piece's move
    // back to the square it came from, asked after do_move, says whether it would have been lost there).
    bool see_ge(Move m, int threshold = 0) const;

    // Make / unmake
    void do_move(Move m);  // m must be legal
    void undo_move(Move m);
    void do_null_move();
    void undo_null_move();

    // Keys and material
    Key key() const { return st().key; }
    Key pawn_key() const { return st().pawn_key; }
    int material_index() const { return material_index_; }
    // True when every piece count fits the material table (no third knight, second queen, ...).
    bool material_in_table() const;
    // D = 10*dQ + 5*dR + 3*dB + 3*dN + dP, White minus Black (spec section 1); exact with promotions.
    int material_balance() const { return material_balance_; }
    // Sum of non-pawn material units of colour c (for null-move conditions and the like).
    int non_pawn_units(Color c) const;

    // Game state
    int rule50() const { return st().rule50; }
    int game_ply() const { return game_ply_; }
    int plies_from_null() const { return st().plies_from_null; }
    // Draw by fifty-move rule or repetition; ply is the distance from the search root
    // (a repetition inside the tree counts once, one before the root needs a third occurrence).
    bool is_draw(int ply) const;
    bool is_repetition(int ply) const;
    // Some position since the last capture, pawn move or null move has occurred before (a repetition
    // already happened in the game: one more would draw).
    bool has_repeated() const;
    // No mating material for either side (KvK, KNvK, KBvK, KB..vKB same colour).
    bool has_insufficient_material() const;
    bool has_legal_move() const;  // defined in movegen.cpp

    // Debug: recompute keys, counts and material from scratch and compare. Returns false with a reason.
    bool is_consistent(std::string* why = nullptr) const;
    // The same but for the check information (checkers, blockers): what do_move updates incrementally, checked
    // after every move in the debug and sanitizer builds (do_move computes the check information afresh).
    bool board_is_consistent(std::string* why = nullptr) const;
    Key compute_key() const;
    Key compute_pawn_key() const;
    int compute_material_index() const;

    // The colour-flipped twin (ranks mirrored, colours swapped, side to move swapped).
    Position flipped() const;

private:
    const StateInfo& st() const { return history_.back(); }
    StateInfo& st() { return history_.back(); }
    static int cr_index(int cr) { return std::countr_zero(unsigned(cr)); }

    void clear();
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void set_castling_right(Color c, Square rook_from);
    void set_check_info(StateInfo& si) const;
    void update_blockers(Color c, StateInfo& si) const;
    void do_castling(Color us, Square from, Square& to, Square& rook_from, Square& rook_to, bool undo);
    bool validate(std::string* error) const;
    bool legal_evasion_target(Move m) const;

    Bitboard by_type_[PIECE_TYPE_NB] = {};  // [0] = all pieces
    Bitboard by_color_[COLOR_NB] = {};
    Piece board_[SQUARE_NB] = {};
    int piece_count_[PIECE_NB] = {};
    int material_index_ = 0;
    int material_balance_ = 0;
    int castling_rights_mask_[SQUARE_NB] = {};
    Square castling_rook_square_[4] = {SQ_NONE, SQ_NONE, SQ_NONE, SQ_NONE};
    Bitboard castling_path_[4] = {};
    Color side_ = WHITE;
    int game_ply_ = 0;
    bool chess960_ = false;
    std::vector<StateInfo> history_;
};

// Simple piece values for SEE and move ordering (centipawns).
constexpr int SEE_VALUE[PIECE_TYPE_NB] = {0, 100, 325, 325, 500, 1000, 0};

}  // namespace quince
