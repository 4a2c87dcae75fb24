#include "search/movepick.h"

#include <utility>

namespace quince::search {

MovePicker::MovePicker(const Position& pos, Move tt_move, const ButterflyHistory* main,
                       const CaptureHistory* capture, const PieceToHistory** cont, const Move killers[2], Move counter)
    : pos_(pos), main_(main), capture_(capture), cont_(cont), tt_move_(tt_move), counter_(counter) {
    killers_[0] = killers[0];
    killers_[1] = killers[1];
    cur_ = end_ = bad_end_ = moves_;
    if (pos.in_check()) stage_ = EVASION_TT;
    else stage_ = MAIN_TT;
    if (!(tt_move_ && pos.pseudo_legal(tt_move_))) {
        tt_move_ = Move::none();
        ++stage_;
    }
}

MovePicker::MovePicker(const Position& pos, Move tt_move, const ButterflyHistory* main, const CaptureHistory* capture,
                       const PieceToHistory** cont, bool with_checks)
    : pos_(pos), main_(main), capture_(capture), cont_(cont), tt_move_(tt_move), counter_(Move::none()),
      with_checks_(with_checks) {
    killers_[0] = killers_[1] = Move::none();
    cur_ = end_ = bad_end_ = moves_;
    if (pos.in_check()) stage_ = EVASION_TT;
    else stage_ = QS_TT;
    // Out of check, quiescence only plays the TT move when it is a capture or promotion.
    bool usable = tt_move_ && pos.pseudo_legal(tt_move_) && (pos.in_check() || pos.is_capture_or_promotion(tt_move_));
    if (!usable) {
        tt_move_ = Move::none();
        ++stage_;
    }
}

void MovePicker::score_captures() {
    for (ScoredMove* sm = cur_; sm < end_; ++sm) {
        Move m = sm->move;
        PieceType victim = captured_type(pos_, m);
        int s = 16 * SEE_VALUE[victim];
        if (m.type() == PROMOTION) s += 16 * (SEE_VALUE[m.promotion_type()] - SEE_VALUE[PAWN]);
        s += capture_->table[piece_slot(pos_.moved_piece(m))][m.to()][victim];
        sm->score = s;
    }
}

void MovePicker::score_quiets() {
    Color us = pos_.side_to_move();
    for (ScoredMove* sm = cur_; sm < end_; ++sm) {
        Move m = sm->move;
        Piece pc = pos_.moved_piece(m);
        sm->score = main_->table[us][m.from()][m.to()] + 2 * cont_[0]->get(pc, m.to()) + cont_[1]->get(pc, m.to()) +
                    cont_[2]->get(pc, m.to());
    }
}

void MovePicker::score_evasions() {
    Color us = pos_.side_to_move();
    for (ScoredMove* sm = cur_; sm < end_; ++sm) {
        Move m = sm->move;
        if (pos_.is_capture(m))
            sm->score = (1 << 28) + 16 * SEE_VALUE[captured_type(pos_, m)] - SEE_VALUE[type_of(pos_.moved_piece(m))];
        else
            sm->score = main_->table[us][m.from()][m.to()] + cont_[0]->get(pos_.moved_piece(m), m.to());
    }
}

// Selection of the best remaining move: cheaper than a full sort because most nodes cut early.
Move MovePicker::pick_best(ScoredMove* begin, ScoredMove* end) {
    ScoredMove* best = begin;
    for (ScoredMove* p = begin + 1; p < end; ++p)
        if (p->score > best->score) best = p;
    std::swap(*begin, *best);
    return begin->move;
}

Move MovePicker::next(bool skip_quiets) {
    for (;;) {
        switch (stage_) {
        case MAIN_TT:
        case EVASION_TT:
        case QS_TT:
            ++stage_;
            return tt_move_;

        case CAPTURE_INIT:
        case QS_CAPTURE_INIT:
            cur_ = bad_end_ = moves_;
            end_ = generate<CAPTURES>(pos_, moves_);
            score_captures();
            ++stage_;
            break;

        case GOOD_CAPTURE:
            while (cur_ < end_) {
                Move m = pick_best(cur_, end_);
                ++cur_;
                if (m == tt_move_) continue;
                if (pos_.see_ge(m, 0)) return m;
                *bad_end_++ = cur_[-1];
            }
            ++stage_;
            break;

        case KILLER1:
        case KILLER2:
        case COUNTER: {
            Move& slot = stage_ == KILLER1 ? killers_[0] : stage_ == KILLER2 ? killers_[1] : counter_;
            Move m = slot;
            int stage = stage_++;
            if (stage == KILLER2 && m == killers_[0]) break;
            if (stage == COUNTER && (m == killers_[0] || m == killers_[1])) break;
            if (skip_quiets || !m || m == tt_move_ || pos_.is_capture_or_promotion(m) || !pos_.pseudo_legal(m)) {
                // Not returned here: the quiet stage must not skip it as already searched.
                slot = Move::none();
                break;
            }
            return m;
        }

        case QUIET_INIT:
            // Quiets go after the captures so that the bad captures at the front survive.
            cur_ = end_;
            end_ = generate<QUIETS>(pos_, cur_);
            score_quiets();
            ++stage_;
            break;

        case QUIET:
            while (cur_ < end_) {
                Move m = pick_best(cur_, end_);
                ++cur_;
                if (is_special(m)) continue;
                // Late-move pruning keeps quiet checks: they carry most of the tactics it would miss.
                if (skip_quiets && !pos_.gives_check(m)) continue;
                return m;
            }
            cur_ = moves_;
            ++stage_;
            break;

        case BAD_CAPTURE:
            while (cur_ < bad_end_) {
                Move m = (cur_++)->move;
                if (m != tt_move_) return m;
            }
            stage_ = DONE;
            break;

        case EVASION_INIT:
            cur_ = moves_;
            end_ = generate<EVASIONS>(pos_, moves_);
            score_evasions();
            ++stage_;
            break;

        case EVASION:
            while (cur_ < end_) {
                Move m = pick_best(cur_, end_);
                ++cur_;
                if (m != tt_move_) return m;
            }
            stage_ = DONE;
            break;

        case QS_CAPTURE:
            while (cur_ < end_) {
                Move m = pick_best(cur_, end_);
                ++cur_;
                if (m != tt_move_) return m;
            }
            stage_ = with_checks_ ? QS_CHECK_INIT : DONE;
            break;

        case QS_CHECK_INIT:
            cur_ = moves_;
            end_ = generate<QUIETS>(pos_, moves_);
            ++stage_;
            break;

        case QS_CHECK:
            while (cur_ < end_) {
                Move m = (cur_++)->move;
                if (m != tt_move_ && m.type() != PROMOTION && pos_.gives_check(m)) return m;
            }
            stage_ = DONE;
            break;

        default:
            return Move::none();
        }
    }
}

}  // namespace quince::search
