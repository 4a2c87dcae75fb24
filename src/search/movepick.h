// Staged move picker: generates and scores moves lazily so that a cutoff by the TT move or a
// good capture never pays for generating and sorting the quiet moves.
//
// Main search: TT move, good captures (SEE >= 0, MVV + capture history), killer 1, killer 2,
// countermove, quiets (butterfly + continuation history), bad captures.
// In check: TT move, then all evasions (captures by MVV/LVA first, then quiets by history).
// Quiescence: TT move (if a capture), then captures by MVV + capture history, then (first
// quiescence ply only) quiet checks.
// Returned moves are pseudo-legal; the caller checks legal().
#pragma once

#include "board/movegen.h"
#include "search/history.h"

namespace quince::search {

// The type of piece a capture takes (a pawn for en passant, whose target square is empty).
inline PieceType captured_type(const Position& pos, Move m) {
    return m.type() == EN_PASSANT ? PAWN : type_of(pos.piece_on(m.to()));
}

class MovePicker {
public:
    // Main search.
    MovePicker(const Position& pos, Move tt_move, const ButterflyHistory* main,
               const CaptureHistory* capture, const PieceToHistory** cont, const Move killers[2], Move counter);
    // Quiescence search: captures (all evasions in check), plus quiet checks when with_checks.
    MovePicker(const Position& pos, Move tt_move, const ButterflyHistory* main, const CaptureHistory* capture,
               const PieceToHistory** cont, bool with_checks);

    // Move::none() when exhausted. With skip_quiets, quiet moves not yet returned are dropped
    // (late-move pruning) except those that give check; the killer/counter stages are skipped.
    Move next(bool skip_quiets = false);

    enum Stage {
        MAIN_TT, CAPTURE_INIT, GOOD_CAPTURE, KILLER1, KILLER2, COUNTER, QUIET_INIT, QUIET, BAD_CAPTURE,
        EVASION_TT, EVASION_INIT, EVASION,
        QS_TT, QS_CAPTURE_INIT, QS_CAPTURE, QS_CHECK_INIT, QS_CHECK,
        DONE
    };

private:
    void score_captures();
    void score_quiets();
    void score_evasions();
    Move pick_best(ScoredMove* begin, ScoredMove* end);
    bool is_special(Move m) const { return m == tt_move_ || m == killers_[0] || m == killers_[1] || m == counter_; }

    const Position& pos_;
    const ButterflyHistory* main_;
    const CaptureHistory* capture_;
    const PieceToHistory** cont_;
    Move tt_move_;
    Move killers_[2];
    Move counter_;
    bool with_checks_ = false;
    int stage_;
    ScoredMove* cur_;
    ScoredMove* end_;
    ScoredMove* bad_end_;  // bad captures are kept at the front of the buffer
    ScoredMove moves_[MAX_MOVES];
};

}  // namespace quince::search
