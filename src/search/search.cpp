#include "search/search.h"

#include <array>
#include <map>

#include <algorithm>
#include <cmath>

#include "board/movegen.h"
#include "search/movepick.h"
#include "search/params.h"
#include "search/skill.h"
#include "search/syzygy.h"

namespace quince::search {

using namespace param;

namespace {

constexpr Value VALUE_KNOWN_WIN = 10000;

// Late-move reduction base table: grows with log(depth) * log(move number). The parameters are
// hundredths; divided as doubles they give exactly the literals 0.8 and 2.3 of the original table.
struct Reductions {
    int table[64][64];
    Reductions() { init(); }
    void init() {
        const double base = LmrBase / 100.0, divisor = LmrDivisor / 100.0;
        for (int d = 0; d < 64; ++d)
            for (int m = 0; m < 64; ++m)
                table[d][m] = d && m ? int(base + std::log(double(d)) * std::log(double(m)) / divisor) : 0;
    }
};
#ifdef QUINCE_TUNING
Reductions REDUCTIONS;  // rebuilt when LmrBase or LmrDivisor change
#else
const Reductions REDUCTIONS;
#endif

int reduction(bool improving, int depth, int move_count) {
    int r = REDUCTIONS.table[std::min(depth, 63)][std::min(move_count, 63)];
    return r + (!improving && r > 1);
}

int late_move_count(int depth, bool improving) { return (LmpBase + depth * depth) / (2 - improving); }

int stat_bonus(int depth) { return std::min(StatBonusMul * depth - StatBonusSub, StatBonusMax); }

std::int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A tablebase result (WDL, -2..2) as a score: `win` for a win, a draw's nuance within the draw score
// when cursed wins and blessed losses count as draws (draw_score 1, the fifty-move rule), else 0.
Value wdl_value(int wdl, int draw_score, Value win) {
    return wdl < -draw_score ? -win : wdl > draw_score ? win : VALUE_DRAW + 2 * wdl * draw_score;
}

// Sentinel entries before the root let the search look back (up to ss - 7) without checks.
constexpr int STACK_LOOKBACK = 7;

std::unique_ptr<Stack[]> make_stack(PieceToHistory* sentinel) {
    auto stack = std::make_unique<Stack[]>(MAX_PLY + STACK_LOOKBACK + 3);
    for (int i = 0; i < MAX_PLY + STACK_LOOKBACK + 3; ++i) {
        stack[i].cont_hist = sentinel;
        stack[i].ply = i - STACK_LOOKBACK;
    }
    return stack;
}

}  // namespace

void param::rebuild_reductions() {
#ifdef QUINCE_TUNING
    REDUCTIONS.init();
#endif
}

int mate_in_moves(Value v) {
    if (v >= VALUE_MATE_IN_MAX_PLY) return (VALUE_MATE - v + 1) / 2;
    if (v <= VALUE_MATED_IN_MAX_PLY) return -(VALUE_MATE + v) / 2;
    return 0;
}

Score reported_score(Value v) {
    if (v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY) return {true, mate_in_moves(v)};
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return {false, TB_WIN_CP - (VALUE_TB - v)};
    if (v <= VALUE_TB_LOSS_IN_MAX_PLY) return {false, -(TB_WIN_CP - (VALUE_TB + v))};
    return {false, v};
}

// ---------------------------------------------------------------------------------------------
// Worker

Worker::Worker(Engine& engine, int id)
    : engine_(engine),
      id_(id),
      main_history_(std::make_unique<ButterflyHistory>()),
      capture_history_(std::make_unique<CaptureHistory>()),
      cont_history_(std::make_unique<ContinuationHistory>()),
      counter_moves_(std::make_unique<CounterMoves>()),
      correction_history_(std::make_unique<CorrectionHistory>()) {
    clear();
}

void Worker::clear() {
    main_history_->clear();
    capture_history_->clear();
    cont_history_->clear();
    counter_moves_->clear();
    correction_history_->clear();
    evaluator_.clear();
}

Value Worker::evaluate() {
    // Lazy evaluation (spec §12.3): the window is the last completed iteration's root score, seen from
    // the side to move here; the evaluation converts it to its own units.
    const eval::LazyWindow window = lazy_window_active_
                                        ? eval::LazyWindow::from_root(lazy_root_score_, root_side_, pos.side_to_move())
                                        : eval::LazyWindow{};
    Value v = evaluator_.evaluate(pos, window);
    return std::clamp(v, VALUE_TB_LOSS_IN_MAX_PLY + 1, VALUE_TB_WIN_IN_MAX_PLY - 1);
}

Value Worker::corrected(Value raw) const {
    if (!features_.on(Feature::CorrectionHistory)) return raw;
    const int c = correction_history_->correction(pos.side_to_move(), pos.pawn_key(), pos.material_index());
    return std::clamp(raw + c, VALUE_TB_LOSS_IN_MAX_PLY + 1, VALUE_TB_WIN_IN_MAX_PLY - 1);
}

void Worker::count_node() {
    // Single writer: a relaxed load + store is enough and avoids a locked add.
    std::uint64_t n = nodes.load(std::memory_order_relaxed) + 1;
    nodes.store(n, std::memory_order_relaxed);
    if (id_ != 0) return;
    const bool check_now = --calls_until_check_ <= 0;
    if (check_now) calls_until_check_ = 1024;
    const Limits& lim = engine_.limits_;
    if (lim.nodes) {
        // With one thread the node limit is exact, which makes node-limited searches reproducible.
        std::uint64_t total = engine_.workers_.size() == 1 ? n : check_now ? engine_.nodes_searched() : 0;
        if (total >= lim.nodes && !engine_.stop_requested_.load(std::memory_order_relaxed)) engine_.stop();
    }
    if (!check_now) return;
    if (engine_.use_time_ && !engine_.pondering_.load(std::memory_order_relaxed) &&
        engine_.elapsed_ms() >= engine_.budget_.hard)
        engine_.stop();
}

void Worker::update_pv(int ply, Move m) {
    pv_table_[ply][ply] = m;
    for (int i = ply + 1; i < pv_len_[ply + 1]; ++i) pv_table_[ply][i] = pv_table_[ply + 1][i];
    pv_len_[ply] = std::max(pv_len_[ply + 1], ply + 1);
}

// One searched move's value against the best so far (main search and quiescence alike): raises
// best_value, best_move, alpha and the PV. True = cut-off (a fail high, or any move beating alpha
// outside PV nodes, whose window is null).
template <bool PvNode>
inline bool Worker::record_value(int ply, Move move, Value value, Value beta, Value& alpha, Value& best_value,
                                 Move& best_move) {
    if (value <= best_value) return false;
    best_value = value;
    if (value <= alpha) return false;
    best_move = move;
    if (PvNode) update_pv(ply, move);
    if (PvNode && value < beta) {
        alpha = value;
        return false;
    }
    return true;
}

void Worker::update_cont_histories(Stack* ss, Piece pc, Square to, int bonus) {
    for (int i : {1, 2, 4, 6})
        if ((ss - i)->current_move.is_ok()) apply_bonus<HISTORY_LIMIT>((ss - i)->cont_hist->at(pc, to), bonus);
}

void Worker::update_quiet_stats(Stack* ss, Move m, int bonus) {
    if (ss->killers[0] != m) {
        ss->killers[1] = ss->killers[0];
        ss->killers[0] = m;
    }
    Color us = pos.side_to_move();
    apply_bonus<HISTORY_LIMIT>(main_history_->at(us, m), bonus);
    update_cont_histories(ss, pos.moved_piece(m), m.to(), bonus);
    Move prev = (ss - 1)->current_move;
    if (prev.is_ok()) {
        counter_moves_->table[piece_slot((ss - 1)->moved_piece)][prev.to()] = m;
    }
}

void Worker::punish_refuted_prior(Stack* ss, int malus) {
    // The opponent's quiet move that led here came early (its TT move or a good history) and is refuted
    // at once: its continuation history pays, so that it is not tried first again in this context.
    if (!features_.on(Feature::PriorMalus)) return;
    const Move prev = (ss - 1)->current_move;
    if (prev.is_ok() && prev.type() != PROMOTION && !pos.captured_piece() &&
        ((ss - 1)->move_count == 1 || prev == (ss - 1)->killers[0]))
        update_cont_histories(ss - 1, (ss - 1)->moved_piece, prev.to(), -malus);
}

void Worker::update_all_stats(Stack* ss, Move best, Move* quiets, int quiet_count, Move* captures,
                              int capture_count, int depth) {
    int bonus = stat_bonus(depth + 1);
    Color us = pos.side_to_move();
    if (!pos.is_capture_or_promotion(best)) {
        update_quiet_stats(ss, best, bonus);
        for (int i = 0; i < quiet_count; ++i) {
            apply_bonus<HISTORY_LIMIT>(main_history_->at(us, quiets[i]), -bonus);
            update_cont_histories(ss, pos.moved_piece(quiets[i]), quiets[i].to(), -bonus);
        }
    } else {
        PieceType victim = captured_type(pos, best);
        apply_bonus<HISTORY_LIMIT>(capture_history_->table[piece_slot(pos.moved_piece(best))][best.to()][victim], bonus);
    }
    punish_refuted_prior(ss, bonus);
    for (int i = 0; i < capture_count; ++i) {
        Move m = captures[i];
        PieceType victim = captured_type(pos, m);
        apply_bonus<HISTORY_LIMIT>(capture_history_->table[piece_slot(pos.moved_piece(m))][m.to()][victim], -bonus);
    }
}

template <Worker::NodeType NT>
Value Worker::search(Stack* ss, Value alpha, Value beta, int depth, bool cut_node) {
    constexpr bool PvNode = NT != NON_PV;
    constexpr bool RootNode = NT == ROOT;

    if (depth <= 0) return qsearch<PvNode>(ss, alpha, beta, 0);

    const int ply = ss->ply;
    TranspositionTable& tt = engine_.tt_;
    if (PvNode) pv_len_[ply] = ply;
    count_node();
    if (PvNode && sel_depth_ < ply + 1) sel_depth_ = ply + 1;

    const bool in_check = pos.in_check();
    ss->in_check = in_check;
    const Color us = pos.side_to_move();

    if (!RootNode) {
        if (engine_.stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;
        if (pos.is_draw(ply) || pos.has_insufficient_material()) return VALUE_DRAW;
        if (ply >= MAX_PLY) return in_check ? VALUE_DRAW : evaluate();
        // Mate distance pruning: no line from here can beat a mate already found closer to the root.
        alpha = std::max(mated_in(ply), alpha);
        beta = std::min(mate_in(ply + 1), beta);
        if (alpha >= beta) return alpha;
    }

    (ss + 1)->excluded_move = Move::none();
    (ss + 2)->killers[0] = (ss + 2)->killers[1] = Move::none();
    ss->stat_score = 0;
    ss->move_count = 0;  // children read it (a null move's child sees 0, not a sibling's count)
    Move prev_move = (ss - 1)->current_move;
    Square prev_sq = prev_move.is_ok() ? prev_move.to() : SQ_NONE;

    // Transposition table lookup (skipped inside a singular-extension search of this node).
    const Move excluded = ss->excluded_move;
    const Key key = pos.key();
    TTData tte;
    bool tt_hit = !excluded && tt.probe(key, &tte);
    Value tt_value = tt_hit ? value_from_tt(tte.value, ply) : VALUE_NONE;
    Move tt_move = RootNode ? root_moves[pv_idx_].move : tt_hit ? tte.move : Move::none();
    if (tt_move && !RootNode && !(pos.pseudo_legal(tt_move) && pos.legal(tt_move))) tt_move = Move::none();
    if (!excluded) ss->tt_pv = PvNode || (tt_hit && tte.is_pv);
    const bool tt_capture = tt_move && pos.is_capture_or_promotion(tt_move);

    if (!PvNode && !excluded && tt_hit && tte.depth >= depth && tt_value != VALUE_NONE &&
        (tte.bound & (tt_value >= beta ? BOUND_LOWER : BOUND_UPPER))) {
        if (tt_move && tt_value >= beta && !tt_capture) {
            update_quiet_stats(ss, tt_move, stat_bonus(depth));
            punish_refuted_prior(ss, stat_bonus(depth + 1));
        }
        if (pos.rule50() < 90) return tt_value;
    }

    // Tablebase probe: the WDL value is exact right after a capture or pawn move (fifty-move counter 0).
    // A win or loss is a bound (the search may still find a mate); a draw is exact.
    Value tb_floor = -VALUE_INFINITE, tb_ceiling = VALUE_INFINITE;
    if (!RootNode && !excluded && tb_cardinality_) {
        const int piece_count = popcount(pos.pieces());
        syzygy::Wdl wdl;
        if (piece_count <= tb_cardinality_ && (piece_count < tb_cardinality_ || depth >= tb_probe_depth_) &&
            pos.rule50() == 0 && !pos.castling_rights() && syzygy::probe_wdl(pos, &wdl)) {
            tb_hits.store(tb_hits.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
            const int w = int(wdl);
            const int draw_score = tb_rule50_ ? 1 : 0;  // with the fifty-move rule, cursed wins are draws
            const Value v = wdl_value(w, draw_score, VALUE_TB - ply);
            const Bound b = w < -draw_score ? BOUND_UPPER : w > draw_score ? BOUND_LOWER : BOUND_EXACT;
            if (b == BOUND_EXACT || (b == BOUND_LOWER ? v >= beta : v <= alpha)) {
                tt.store(key, value_to_tt(v, ply), ss->tt_pv, b, std::min(MAX_PLY - 1, depth + 6), Move::none(),
                         VALUE_NONE);
                return v;
            }
            if (PvNode) {
                if (b == BOUND_LOWER) tb_floor = v, alpha = std::max(alpha, v);
                else tb_ceiling = v;
            }
        }
    }

    // Static evaluation.
    Value eval;
    bool improving = false;
    if (in_check) {
        ss->static_eval = ss->raw_eval = eval = VALUE_NONE;
    } else {
        // The TT keeps the raw evaluation; the correction is applied afresh (it keeps learning).
        if (excluded) eval = ss->static_eval;  // set by this node's own search before the exclusion
        else {
            if (tt_hit && tte.eval != VALUE_NONE) ss->raw_eval = tte.eval;
            else {
                ss->raw_eval = evaluate();
                if (!tt_hit) tt.store(key, VALUE_NONE, ss->tt_pv, BOUND_NONE, -7, Move::none(), ss->raw_eval);
            }
            ss->static_eval = eval = corrected(ss->raw_eval);
        }
        // A bounded TT score is a better estimate than the static evaluation when it points the right way.
        if (tt_value != VALUE_NONE && (tte.bound & (tt_value > eval ? BOUND_LOWER : BOUND_UPPER))) eval = tt_value;

        Value past = (ss - 2)->static_eval != VALUE_NONE ? (ss - 2)->static_eval : (ss - 4)->static_eval;
        improving = past == VALUE_NONE || ss->static_eval > past;

        // Razoring: hopeless positions at low depth go straight to quiescence; not when only a mate reaches
        // alpha (quiescence does not look for quiet mates).
        if (features_.on(Feature::Razoring) && !PvNode && depth <= RazorMaxDepth && alpha < VALUE_TB_WIN_IN_MAX_PLY &&
            eval < alpha - RazorBase - RazorDepthMul * depth * depth) {
            Value v = qsearch<false>(ss, alpha - 1, alpha, 0);
            if (v < alpha) return v;
        }

        // Reverse futility pruning; not against a beta that says we are mated (a static evaluation proves
        // no escape from a mate).
        if (features_.on(Feature::ReverseFutility) && !ss->tt_pv && depth < RfpMaxDepth &&
            eval - RfpMargin * (depth - improving) >= beta &&
            eval < VALUE_KNOWN_WIN && beta > VALUE_TB_LOSS_IN_MAX_PLY)
            return eval;

        // Null move pruning; never in pawn-only endings where zugzwang is common.
        if (features_.on(Feature::NullMove) && !PvNode && !excluded && prev_move != Move::null() && eval >= beta &&
            ss->static_eval >= beta - NmpDepthMargin * depth + NmpBase &&
            pos.non_pawn_units(us) > 0 && ply >= nmp_min_ply_ && beta > VALUE_TB_LOSS_IN_MAX_PLY) {
            int r = std::min((eval - beta) / NmpEvalDiv, NmpEvalMaxReduction) + depth / NmpDepthDiv + NmpBaseReduction;
            ss->current_move = Move::null();
            ss->moved_piece = NO_PIECE;
            ss->cont_hist = cont_history_->sentinel();
            pos.do_null_move();
            Value null_value = -search<NON_PV>(ss + 1, -beta, -beta + 1, depth - r, !cut_node);
            pos.undo_null_move();
            if (null_value >= beta) {
                if (null_value >= VALUE_TB_WIN_IN_MAX_PLY) null_value = beta;  // never an unproven win
                if (nmp_min_ply_ || depth < NmpVerifyDepth) return null_value;
                // Verification at high depth, with null moves disabled for the first plies.
                nmp_min_ply_ = ply + 3 * (depth - r) / 4;
                Value v = search<NON_PV>(ss, beta - 1, beta, depth - r, false);
                nmp_min_ply_ = 0;
                if (v >= beta) return null_value;
            }
        }
    }

    // ProbCut: a good capture that beats beta by a margin in a reduced search very likely beats it
    // in the full one.
    if (features_.on(Feature::ProbCut) && !PvNode && !in_check && !excluded && depth >= ProbCutMinDepth &&
        std::abs(beta) < VALUE_KNOWN_WIN) {
        const Value probcut_beta = beta + ProbCutMargin - ProbCutImproving * improving;
        if (!(tt_hit && tte.depth >= depth - (ProbCutReduction - 1) && tt_value != VALUE_NONE && tt_value < probcut_beta)) {
            const PieceToHistory* pc_cont[3] = {(ss - 1)->cont_hist, (ss - 2)->cont_hist, (ss - 4)->cont_hist};
            MovePicker pc(pos, tt_capture ? tt_move : Move::none(), main_history_.get(), capture_history_.get(),
                          pc_cont, false);
            while (Move move = pc.next()) {
                if (!pos.legal(move) || !pos.see_ge(move, probcut_beta - ss->static_eval)) continue;
                ss->current_move = move;
                ss->moved_piece = pos.moved_piece(move);
                ss->cont_hist = cont_history_->row(ss->moved_piece, move.to());
                pos.do_move(move);
                Value v = -qsearch<false>(ss + 1, -probcut_beta, -probcut_beta + 1, 0);
                if (v >= probcut_beta) v = -search<NON_PV>(ss + 1, -probcut_beta, -probcut_beta + 1, depth - ProbCutReduction, !cut_node);
                pos.undo_move(move);
                if (engine_.stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;
                if (v >= probcut_beta) {
                    tt.store(key, value_to_tt(v, ply), ss->tt_pv, BOUND_LOWER, depth - (ProbCutReduction - 1), move,
                             ss->raw_eval);
                    return v;
                }
            }
        }
    }

    // Internal iterative reduction: without a TT move this node is probably not well ordered.
    if (features_.on(Feature::IIR) && !RootNode && !tt_move && depth >= IirMinDepth && (PvNode || cut_node)) {
        depth -= 1 + PvNode;
        if (depth <= 0) return qsearch<PvNode>(ss, alpha, beta, 0);
    }

    const PieceToHistory* cont[3] = {(ss - 1)->cont_hist, (ss - 2)->cont_hist, (ss - 4)->cont_hist};
    Move counter = prev_sq != SQ_NONE ? counter_moves_->table[piece_slot((ss - 1)->moved_piece)][prev_sq] : Move::none();
    MovePicker mp(pos, tt_move, main_history_.get(), capture_history_.get(), cont, ss->killers, counter);

    Value best_value = tb_floor;
    Value value = -VALUE_INFINITE;
    Move best_move = Move::none();
    Move quiets_tried[64], captures_tried[32];
    int quiet_count = 0, capture_count = 0, move_count = 0;
    bool skip_quiets = false;
    bool singular_tt = false;  // the TT move proved singular: the alternatives are less likely to matter

    while (Move move = mp.next(skip_quiets)) {
        if (move == excluded) continue;
        if (RootNode && std::find_if(root_moves.begin() + pv_idx_, root_moves.end(),
                                     [move](const RootMove& rm) { return rm.move == move; }) == root_moves.end())
            continue;
        if (!pos.legal(move)) continue;

        ss->move_count = ++move_count;
        if (RootNode && id_ == 0 && engine_.elapsed_ms() > 3000)
            engine_.tell(engine_.listener_.currmove, CurrMove{depth, move, move_count + pv_idx_});

        const bool capture = pos.is_capture_or_promotion(move);
        const Piece moved = pos.moved_piece(move);
        const bool gives_check = pos.gives_check(move);
        int new_depth = depth - 1;
        int extension = 0;

        // Shallow-depth pruning, once a non-losing line is known. Futility leaves moves alone when alpha is a
        // mate: a margin on the static evaluation says nothing of reaching it.
        if (!RootNode && pos.non_pawn_units(us) > 0 && best_value > VALUE_TB_LOSS_IN_MAX_PLY) {
            int lmr_depth = std::max(new_depth - reduction(improving, depth, move_count), 0);
            if (features_.on(Feature::LateMovePruning) && move_count >= late_move_count(depth, improving))
                skip_quiets = true;
            if (capture || gives_check) {
                if (features_.on(Feature::Futility) && capture && !gives_check && !in_check &&
                    lmr_depth < FutCaptureMaxDepth && alpha < VALUE_TB_WIN_IN_MAX_PLY) {
                    PieceType victim = captured_type(pos, move);
                    if (ss->static_eval + FutCaptureBase + FutCaptureDepthMul * lmr_depth + SEE_VALUE[victim] <= alpha)
                        continue;
                }
                if (features_.on(Feature::SeePruning) && !pos.see_ge(move, -SeeCaptureMargin * depth)) continue;
            } else {
                int history = cont[0]->get(moved, move.to()) + cont[1]->get(moved, move.to()) +
                              cont[2]->get(moved, move.to());
                if (features_.on(Feature::HistoryPruning) && lmr_depth < HistPruneMaxDepth &&
                    history < -HistPruneMargin * depth)
                    continue;
                history += 2 * main_history_->at(us, move);
                lmr_depth = std::max(lmr_depth + history / HistLmrDepthDiv, 0);
                if (features_.on(Feature::Futility) && !in_check && lmr_depth < FutQuietMaxDepth &&
                    alpha < VALUE_TB_WIN_IN_MAX_PLY && ss->static_eval + FutQuietBase + FutQuietDepthMul * lmr_depth <= alpha)
                    continue;
                if (features_.on(Feature::SeePruning) && !pos.see_ge(move, -SeeQuietMargin * lmr_depth * lmr_depth))
                    continue;
            }
        }

        // Extensions, bounded so that the tree cannot explode.
        if (ply < 2 * root_depth_) {
            if (features_.on(Feature::Singular) && !RootNode && depth >= SingularMinDepth && move == tt_move && !excluded && std::abs(tt_value) < VALUE_KNOWN_WIN &&
                (tte.bound & BOUND_LOWER) && tte.depth >= depth - SingularTtDepthMargin) {
                // Singular extension: is the TT move much better than every alternative?
                Value singular_beta = tt_value - SingularBetaMul * depth;
                ss->excluded_move = move;
                Value v = search<NON_PV>(ss, singular_beta - 1, singular_beta, (depth - 1) / 2, cut_node);
                ss->excluded_move = Move::none();
                ss->move_count = move_count;  // the search above ran in this frame and counted its own moves
                if (v < singular_beta) {
                    extension = (!PvNode && v < singular_beta - DoubleExtMargin) ? 2 : 1;
                    singular_tt = true;
                }
                else if (singular_beta >= beta) return singular_beta;  // multi-cut: several moves beat beta
                else if (tt_value >= beta) extension = -1;
            } else if (features_.on(Feature::CheckExtension) && gives_check && depth >= CheckExtMinDepth &&
                       pos.see_ge(move, 0)) {
                extension = 1;
            }
        }
        new_depth += extension;

        if (PvNode) pv_len_[ply + 1] = ply + 1;  // a fail-high child searched without PV leaves no stale line
        ss->current_move = move;
        ss->moved_piece = moved;
        ss->cont_hist = cont_history_->row(moved, move.to());
        const std::uint64_t nodes_before = RootNode ? nodes.load(std::memory_order_relaxed) : 0;
        pos.do_move(move);
        tt.prefetch(pos.key());

        // Late move reductions, then PVS re-searches.
        if (features_.on(Feature::LMR) && depth >= 2 && move_count > 1 + RootNode && (!capture || !ss->tt_pv || cut_node)) {
            int r = reduction(improving, depth, move_count);
            if (ss->tt_pv) r -= 1;
            if (cut_node) r += 2;
            if (tt_capture) r += 1;
            if (move == ss->killers[0] || move == ss->killers[1] || move == counter) r -= 1;
            if (gives_check) r -= 1;
            if (!capture) {
                ss->stat_score = 2 * main_history_->at(us, move) + cont[0]->get(moved, move.to()) +
                                 cont[1]->get(moved, move.to()) + cont[2]->get(moved, move.to()) - LmrHistOffset;
                r -= ss->stat_score / LmrHistDiv;
            }
            if (features_.on(Feature::LmrAdjust)) {
                if (singular_tt) r -= 1;
                // The parent tried many moves before the one that led here: this node is more likely on a
                // line that matters than its move count says.
                if ((ss - 1)->move_count > LmrOppMoveCount) r -= 1;
                // Our quiet move's history against that of the opponent's move that led here.
                if (!capture) {
                    if (ss->stat_score >= LmrStatGood && (ss - 1)->stat_score < LmrStatGood) r -= 1;
                    else if (ss->stat_score < LmrStatBad && (ss - 1)->stat_score >= LmrStatBad) r += 1;
                }
            }
            int d = std::clamp(new_depth - r, 1, new_depth + 1);
            value = -search<NON_PV>(ss + 1, -(alpha + 1), -alpha, d, true);
            if (value > alpha && d < new_depth) {
                value = -search<NON_PV>(ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node);
                // The re-search says whether the reduction was wrong: teach the continuation histories.
                if (!capture && features_.on(Feature::PriorMalus)) {
                    const int bonus = value > alpha ? stat_bonus(new_depth) : -stat_bonus(new_depth);
                    update_cont_histories(ss, moved, move.to(), bonus);
                }
            }
        } else if (!PvNode || move_count > 1) {
            value = -search<NON_PV>(ss + 1, -(alpha + 1), -alpha, new_depth, !cut_node);
        }
        if (PvNode && (move_count == 1 || (value > alpha && (RootNode || value < beta))))
            value = -search<PV>(ss + 1, -beta, -alpha, new_depth, false);

        pos.undo_move(move);

        if (engine_.stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;

        if (RootNode) {
            RootMove& rm = *std::find_if(root_moves.begin(), root_moves.end(),
                                         [move](const RootMove& r) { return r.move == move; });
            rm.nodes += nodes.load(std::memory_order_relaxed) - nodes_before;
            if (move_count == 1 || value > alpha) {
                rm.score = value;
                rm.sel_depth = sel_depth_;
                rm.lower_bound = value >= beta;
                rm.upper_bound = value <= alpha;
                rm.pv.assign(1, move);
                for (int i = ply + 1; i < pv_len_[ply + 1]; ++i) rm.pv.push_back(pv_table_[ply + 1][i]);
            } else {
                rm.score = -VALUE_INFINITE;
            }
        }

        if (record_value<PvNode>(ply, move, value, beta, alpha, best_value, best_move)) break;
        if (move != best_move) {
            if (capture && capture_count < 32) captures_tried[capture_count++] = move;
            else if (!capture && quiet_count < 64) quiets_tried[quiet_count++] = move;
        }
    }

    if (move_count == 0) best_value = excluded ? alpha : in_check ? mated_in(ply) : VALUE_DRAW;
    else if (best_move)
        update_all_stats(ss, best_move, quiets_tried, quiet_count, captures_tried, capture_count, depth);
    else if (prev_sq != SQ_NONE && !pos.captured_piece() && prev_move.type() != PROMOTION)
        // Every reply fails low: the opponent's quiet move that led here was a good one.
        update_cont_histories(ss - 1, (ss - 1)->moved_piece, prev_sq, stat_bonus(depth));
    if (PvNode) best_value = std::min(best_value, tb_ceiling);  // a tablebase loss caps what the moves found

    if (!excluded && !(RootNode && pv_idx_ > 0)) {
        Bound bound = best_value >= beta ? BOUND_LOWER : (PvNode && best_move) ? BOUND_EXACT : BOUND_UPPER;
        tt.store(key, value_to_tt(best_value, ply), ss->tt_pv, bound, depth, best_move, ss->raw_eval);
        // Correction history learns from results that say more than a bound on the wrong side of the
        // static evaluation; a best capture is tactics, not an evaluation error.
        if (!in_check && (!best_move || !pos.is_capture_or_promotion(best_move)) &&
            std::abs(best_value) < VALUE_TB_WIN_IN_MAX_PLY &&
            !(bound == BOUND_LOWER && best_value <= ss->static_eval) &&
            !(bound == BOUND_UPPER && best_value >= ss->static_eval))
            correction_history_->update(us, pos.pawn_key(), pos.material_index(), best_value - ss->static_eval,
                                        depth);
    }
    return best_value;
}

template <bool PvNode>
Value Worker::qsearch(Stack* ss, Value alpha, Value beta, int depth) {
    const int ply = ss->ply;
    TranspositionTable& tt = engine_.tt_;
    if (PvNode) pv_len_[ply] = ply;
    count_node();
    if (PvNode && sel_depth_ < ply + 1) sel_depth_ = ply + 1;

    if (engine_.stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;
    if (pos.is_draw(ply) || pos.has_insufficient_material()) return VALUE_DRAW;
    const bool in_check = pos.in_check();
    if (ply >= MAX_PLY) return in_check ? VALUE_DRAW : evaluate();

    const Value old_alpha = alpha;
    const Key key = pos.key();
    TTData tte;
    bool tt_hit = tt.probe(key, &tte);
    Value tt_value = tt_hit ? value_from_tt(tte.value, ply) : VALUE_NONE;
    Move tt_move = tt_hit ? tte.move : Move::none();
    if (tt_move && !(pos.pseudo_legal(tt_move) && pos.legal(tt_move))) tt_move = Move::none();
    const int tt_depth = in_check || depth >= 0 ? 0 : -1;

    if (!PvNode && tt_hit && tte.depth >= tt_depth && tt_value != VALUE_NONE &&
        (tte.bound & (tt_value >= beta ? BOUND_LOWER : BOUND_UPPER)))
        return tt_value;

    Value best_value, futility_base;
    if (in_check) {
        ss->static_eval = ss->raw_eval = VALUE_NONE;
        best_value = futility_base = -VALUE_INFINITE;
    } else {
        ss->raw_eval = tt_hit && tte.eval != VALUE_NONE ? tte.eval : evaluate();
        ss->static_eval = best_value = corrected(ss->raw_eval);
        // A bounded TT score is a better stand pat, but on a PV not a mate score: the line behind it is not
        // in the table, and a mate the search reports is a line played out to the mate.
        if (tt_value != VALUE_NONE && (tte.bound & (tt_value > best_value ? BOUND_LOWER : BOUND_UPPER)) &&
            (!PvNode || std::abs(tt_value) < VALUE_MATE_IN_MAX_PLY))
            best_value = tt_value;
        // Stand pat.
        if (best_value >= beta) {
            if (!tt_hit) tt.store(key, value_to_tt(best_value, ply), false, BOUND_LOWER, -7, Move::none(), ss->raw_eval);
            return best_value;
        }
        if (PvNode && best_value > alpha) alpha = best_value;
        futility_base = ss->static_eval + QsFutilityMargin;
    }

    const PieceToHistory* cont[3] = {(ss - 1)->cont_hist, (ss - 2)->cont_hist, (ss - 4)->cont_hist};
    MovePicker mp(pos, tt_move, main_history_.get(), capture_history_.get(), cont, depth >= 0);
    Move best_move = Move::none();
    int move_count = 0;

    while (Move move = mp.next()) {
        if (!pos.legal(move)) continue;
        const bool gives_check = pos.gives_check(move);
        const bool capture = pos.is_capture(move);
        ++move_count;

        if (best_value > VALUE_TB_LOSS_IN_MAX_PLY) {
            if (!in_check) {
                if (move.type() == PROMOTION && move.promotion_type() != QUEEN) continue;
                // Futility: even winning the captured piece for free cannot reach alpha.
                if (features_.on(Feature::QsearchFutility) && !gives_check && futility_base > -VALUE_KNOWN_WIN &&
                    move.type() != PROMOTION) {
                    PieceType victim = captured_type(pos, move);
                    Value futility_value = futility_base + SEE_VALUE[victim];
                    if (futility_value <= alpha) {
                        best_value = std::max(best_value, futility_value);
                        continue;
                    }
                }
                if (features_.on(Feature::QsearchSee) && !pos.see_ge(move, 0)) continue;
            } else if (!capture && move_count > 2) {
                // Once an escape is found, late quiet evasions are not worth searching here.
                continue;
            }
        }

        ss->current_move = move;
        ss->moved_piece = pos.moved_piece(move);
        ss->cont_hist = cont_history_->row(ss->moved_piece, move.to());
        pos.do_move(move);
        tt.prefetch(pos.key());
        Value value = -qsearch<PvNode>(ss + 1, -beta, -alpha, depth - 1);
        pos.undo_move(move);
        if (engine_.stop_.load(std::memory_order_relaxed)) return VALUE_ZERO;

        if (record_value<PvNode>(ply, move, value, beta, alpha, best_value, best_move)) break;
    }

    if (in_check && best_value == -VALUE_INFINITE) return mated_in(ply);

    Bound bound = best_value >= beta ? BOUND_LOWER : (PvNode && best_value > old_alpha) ? BOUND_EXACT : BOUND_UPPER;
    tt.store(key, value_to_tt(best_value, ply), PvNode, bound, tt_depth, best_move, ss->raw_eval);
    return best_value;
}

Value Worker::quiescence(const Position& p) {
    auto stack = make_stack(cont_history_->sentinel());
    pos = p;
    nodes.store(0);
    lazy_window_active_ = false;
    features_ = engine_.options_.features;
    calls_until_check_ = 1024;
    sel_depth_ = 0;
    return qsearch<true>(stack.get() + STACK_LOOKBACK, -VALUE_INFINITE, VALUE_INFINITE, 0);
}

Value Worker::static_value(const Position& p) {
    pos = p;
    lazy_window_active_ = false;
    return evaluate();
}

void Worker::report(int depth) {
    // `time` and `nps` count from go, pondering included (as Stockfish): nodes do too.
    std::int64_t elapsed = engine_.thinking_ms();
    std::uint64_t nodes_total = engine_.nodes_searched();
    int hashfull = engine_.tt_.hashfull();
    for (int i = 0; i < multi_pv_; ++i) {
        const RootMove& rm = root_moves[i];
        bool updated = i <= pv_idx_ && rm.score != -VALUE_INFINITE;
        int d = updated ? depth : depth - 1;
        Value v = updated ? rm.score : rm.prev_score;
        if (d < 1 || v == -VALUE_INFINITE) continue;
        // A root in the tablebases: their result, unless the search has proven a mate.
        const bool tb_result = engine_.root_in_tb_ && std::abs(v) < VALUE_MATE_IN_MAX_PLY;
        if (tb_result) v = rm.tb_score;
        Info info;
        info.depth = d;
        info.seldepth = std::max(rm.sel_depth, d);
        info.multipv = i + 1;
        info.score = reported_score(v);
        if (engine_.options_.show_wdl) {
            // A tablebase draw is certain, not the model's guess for a level score.
            const bool tb_draw = tb_result && std::abs(v) < VALUE_TB_WIN_IN_MAX_PLY;
            info.wdl = tb_draw ? eval::Wdl{0, 1000, 0} : eval::score_to_wdl(v, eval::wdl_material(pos), engine_.eval_->wdl);
        }
        if (i == pv_idx_ && rm.lower_bound) info.bound = Info::Bound::LOWER;
        else if (i == pv_idx_ && rm.upper_bound) info.bound = Info::Bound::UPPER;
        info.nodes = nodes_total;
        info.nps = nodes_total * 1000 / std::uint64_t(std::max<std::int64_t>(1, elapsed));
        info.hashfull = hashfull;
        if (syzygy::max_pieces() > 0) info.tbhits = engine_.tb_hits();
        info.time_ms = elapsed;
        info.pv = rm.pv;
        engine_.tell(engine_.listener_.info, info);
    }
}

// The current PV line (pv_idx_) at root_depth_: a window around the previous iteration's score, widened
// after each fail until the score falls inside (a fail high also searches a ply shallower); from depth 4,
// with a full window before. Returns the line's score (any value once the search is stopped).
Value Worker::aspiration_search(Stack* ss) {
    sel_depth_ = 0;
    Value alpha = -VALUE_INFINITE, beta = VALUE_INFINITE, delta = 0;
    const Value prev = root_moves[pv_idx_].prev_score;
    if (features_.on(Feature::Aspiration) && root_depth_ >= 4 && prev != -VALUE_INFINITE) {
        delta = AspDelta + std::abs(prev) / AspScoreDiv;
        alpha = std::max(prev - delta, -VALUE_INFINITE);
        beta = std::min(prev + delta, VALUE_INFINITE);
    }
    int failed_high = 0;
    for (;;) {
        const int d = std::max(1, root_depth_ - failed_high);
        const Value value = search<ROOT>(ss, alpha, beta, d, false);
        std::stable_sort(root_moves.begin() + pv_idx_, root_moves.end());
        if (engine_.stop_.load()) return value;
        if (id_ == 0 && multi_pv_ == 1 && (value <= alpha || value >= beta) && engine_.elapsed_ms() > 3000)
            report(root_depth_);
        if (value <= alpha) {
            beta = (alpha + beta) / 2;
            alpha = std::max(value - delta, -VALUE_INFINITE);
            failed_high = 0;
        } else if (value >= beta) {
            beta = std::min(value + delta, VALUE_INFINITE);
            ++failed_high;
        } else {
            return value;
        }
        delta += delta / 2;
    }
}

void Worker::iterative_deepening() {
    auto stack = make_stack(cont_history_->sentinel());
    Stack* ss = stack.get() + STACK_LOOKBACK;

    const Limits& limits = engine_.limits_;
    multi_pv_ = std::min<int>(engine_.options_.multi_pv, int(root_moves.size()));
    completed_depth = 0;
    lazy_window_active_ = false;  // no root score yet: every new search starts with full evaluations
    root_side_ = pos.side_to_move();
    nmp_min_ply_ = 0;
    features_ = engine_.options_.features;
    calls_until_check_ = 1024;
    tb_cardinality_ = engine_.tb_cardinality_;
    tb_probe_depth_ = engine_.options_.syzygy_probe_depth;
    tb_rule50_ = engine_.options_.syzygy_50_move_rule;
    Move last_best = Move::none();
    int best_stable_for = 0;
    std::array<Value, MAX_PLY + 1> iteration_values{};  // the best score of each completed depth

    // Helper threads start at staggered depths so that they do not all search the same tree.
    int start_depth = id_ == 0 ? 1 : 1 + (id_ & 1);
    for (root_depth_ = start_depth; root_depth_ < MAX_PLY; ++root_depth_) {
        if (engine_.stop_.load()) break;
        if (limits.depth && root_depth_ > limits.depth) break;
        for (RootMove& rm : root_moves) rm.prev_score = rm.score;

        for (pv_idx_ = 0; pv_idx_ < multi_pv_ && !engine_.stop_.load(); ++pv_idx_) {
            aspiration_search(ss);
            std::stable_sort(root_moves.begin(), root_moves.begin() + pv_idx_ + 1);
            if (id_ == 0 && (engine_.stop_.load() || pv_idx_ + 1 == multi_pv_ || engine_.elapsed_ms() > 3000))
                report(root_depth_);
        }
        pv_idx_ = 0;
        if (engine_.stop_.load()) break;
        completed_depth = root_depth_;
        if (id_ == 0) engine_.root_searched();  // a stop held until now takes effect
        // Rybka feeds lazy evaluation with the root score of iterations of at least 6 plies; a mate
        // score says nothing about material, so it switches the window off.
        if (completed_depth >= LAZY_EVAL_MIN_DEPTH) {
            lazy_root_score_ = root_moves[0].score;
            lazy_window_active_ = std::abs(lazy_root_score_) < VALUE_TB_WIN_IN_MAX_PLY;
        }
        if (id_ != 0) continue;

        const Value best_value = root_moves[0].score;
        // go mate N: done once a mate in at most N moves is proven.
        if (limits.mate && best_value >= VALUE_MATE_IN_MAX_PLY && VALUE_MATE - best_value <= 2 * limits.mate - 1)
            engine_.stop();

        if (root_moves[0].move == last_best) ++best_stable_for;
        else best_stable_for = 0;
        last_best = root_moves[0].move;

        iteration_values[std::size_t(completed_depth)] = best_value;
        if (limits.soft_nodes && engine_.nodes_searched() >= limits.soft_nodes) engine_.stop_.store(true);

        // go movetime N searches N ms: no early stop on a stable best move or a single legal move
        // (Stockfish's reading too); only the last iteration (MAX_PLY) or a stop ends it sooner.
        if (engine_.use_time_ && !limits.movetime && !engine_.stop_.load()) {
            // With a single legal move there is nothing to think about.
            const bool forced = root_moves.size() == 1 && completed_depth >= 4;
            IterationInfo it;
            it.depth = completed_depth;
            it.stable_iterations = best_stable_for;
            if (completed_depth >= 4) it.score_fall = iteration_values[std::size_t(completed_depth - 3)] - best_value;
            it.best_move_share = double(root_moves[0].nodes) /
                                 double(std::max<std::uint64_t>(1, nodes.load(std::memory_order_relaxed)));
            const double limit = thinking_limit(engine_.budget_, it);
            // The thought a move deserves counts pondering (the opponent's time); the hard limit (in
            // count_node) counts our clock only. Otherwise a ponderhit would restart the budget in the
            // middle of a deep iteration, which then runs to the hard limit move after move.
            if (forced || double(engine_.thinking_ms()) >= limit) {
                if (!engine_.pondering_.load()) engine_.stop();
                else {
                    engine_.stop_on_ponderhit_.store(true);
                    if (!engine_.pondering_.load()) engine_.stop();  // ponderhit came meanwhile
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Engine

SearchThread::SearchThread() : thread_([this] { loop(); }) {}

SearchThread::~SearchThread() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        quit_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void SearchThread::start(std::function<void()> job) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        job_ = std::move(job);
    }
    cv_.notify_all();
}

void SearchThread::wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] { return !job_; });
}

void SearchThread::loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
        cv_.wait(lock, [this] { return quit_ || job_; });
        if (quit_) return;
        lock.unlock();
        job_();
        lock.lock();
        job_ = nullptr;
        cv_.notify_all();
    }
}

Engine::Engine() { set_threads(1); }

Engine::~Engine() {
    stop();
    wait();
}

void Engine::set_threads(int n) {
    n = std::clamp(n, 1, 256);
    while (int(workers_.size()) > n) workers_.pop_back();
    while (int(workers_.size()) < n) {
        workers_.push_back(std::make_unique<Worker>(*this, int(workers_.size())));
        workers_.back()->evaluator().set_eval(eval_);
        workers_.back()->evaluator().set_lazy(lazy_eval_);
    }
    helpers_.resize(workers_.size() - 1);  // the threads of workers 1..n-1, started at their first search
}

void Engine::set_eval(eval::EvalPtr evaluation) {
    if (!evaluation) return;
    eval_ = std::move(evaluation);
    for (auto& w : workers_) w->evaluator().set_eval(eval_);
}

void Engine::set_lazy_eval(bool on) {
    lazy_eval_ = on;
    for (auto& w : workers_) w->evaluator().set_lazy(on);
}

void Engine::new_game() {
    tt_.clear();
    for (auto& w : workers_) w->clear();
}

std::uint64_t Engine::nodes_searched() const {
    std::uint64_t n = 0;
    for (const auto& w : workers_) n += w->nodes.load(std::memory_order_relaxed);
    return n;
}

std::uint64_t Engine::tb_hits() const {
    std::uint64_t n = 0;
    for (const auto& w : workers_) n += w->tb_hits.load(std::memory_order_relaxed);
    return n;
}

std::int64_t Engine::elapsed_ms() const { return (now_ns() - start_ns_.load(std::memory_order_relaxed)) / 1000000; }
std::int64_t Engine::thinking_ms() const { return (now_ns() - go_ns_.load(std::memory_order_relaxed)) / 1000000; }

// Lazy SMP: each thread's best move gets votes weighted by its score (above the worst thread's) and by
// the depth it completed; a proven mate wins outright. With one thread, or MultiPV, or a depth limit
// (where the main thread's answer must be reproducible), the main thread answers.
Worker* Engine::select_best_worker() {
    Worker* main = workers_[0].get();
    if (workers_.size() == 1 || options_.multi_pv != 1 || limits_.depth || main->root_moves.empty()) return main;
    Value min_score = VALUE_INFINITE;
    for (auto& w : workers_)
        if (w->completed_depth > 0) min_score = std::min(min_score, w->root_moves[0].score);
    std::map<std::uint16_t, std::int64_t> votes;
    for (auto& w : workers_)
        if (w->completed_depth > 0)
            votes[w->root_moves[0].move.raw()] += std::int64_t(w->root_moves[0].score - min_score + 14) * w->completed_depth;
    Worker* best = main;
    for (auto& w : workers_) {
        if (w->completed_depth == 0 || w->root_moves[0].score == -VALUE_INFINITE) continue;
        const Value ws = w->root_moves[0].score, bs = best->root_moves[0].score;
        if (bs >= VALUE_MATE_IN_MAX_PLY || ws >= VALUE_MATE_IN_MAX_PLY) {
            if (ws > bs) best = w.get();  // the shortest proven mate
        } else if (votes[w->root_moves[0].move.raw()] > votes[best->root_moves[0].move.raw()]) {
            best = w.get();
        }
    }
    if (best != main && !options_.silent) best->report(best->completed_depth);  // the PV behind the answer
    return best;
}

void Engine::go(const Position& pos, const Limits& limits, const SearchOptions& options) {
    stop();
    wait();
    start_ns_.store(now_ns());
    go_ns_.store(start_ns_.load());
    stop_on_ponderhit_.store(false);
    root_pos_ = pos;
    limits_ = limits;
    options_ = options;
    if (skill_enabled(options.skill_level)) {
        // A weakened level looks only 1 + level plies deep and keeps several lines to choose from.
        const int depth = skill_depth(options.skill_level);
        limits_.depth = limits_.depth ? std::min(limits_.depth, depth) : depth;
        options_.multi_pv = std::max(options_.multi_pv, SKILL_LINES);
    }
    stop_.store(false);
    stop_requested_.store(false);
    root_searched_.store(false);
    pondering_.store(limits.ponder);
    Color us = pos.side_to_move();
    use_time_ = limits.uses_clock();
    if (use_time_) {
        TimeInput in;
        in.time_left = std::max<std::int64_t>(0, limits.time[us]);
        in.increment = limits.inc[us];
        in.moves_to_go = limits.movestogo;
        in.move_time = limits.movetime;
        in.overhead = options.move_overhead;
        budget_ = allocate_time(in);
        if (options.ponder_enabled && limits.movetime == 0) {
            budget_.ideal = std::min(budget_.hard, budget_.ideal * 5 / 4);
        }
    }
    searching_.store(true);
#ifdef QUINCE_SINGLE_THREADED
    // A build without threads (the WebAssembly page): the search runs to its limit before go returns, so
    // only searches with a depth, node or time limit may be started there.
    run_main();
#else
    if (!main_thread_) main_thread_ = std::make_unique<SearchThread>();
    main_thread_->start([this] { run_main(); });
#endif
}

void Engine::stop() {
    stop_requested_.store(true);
    if (root_searched_.load()) stop_.store(true);
}

void Engine::root_searched() {
    root_searched_.store(true);
    if (stop_requested_.load()) stop_.store(true);
}

void Engine::ponderhit() {
    if (!searching_.load()) return;
    // The opponent played the expected move: our clock starts now.
    start_ns_.store(now_ns());
    pondering_.store(false);
    if (stop_on_ponderhit_.load()) stop();
}

void Engine::wait() {
    if (main_thread_) main_thread_->wait();
}

SearchResult Engine::search(const Position& pos, const Limits& limits, const SearchOptions& options) {
    go(pos, limits, options);
    wait();
    return result_;
}

Value Engine::quiescence(const Position& pos) {
    stop();
    wait();
    // No limits: the probe must not stop early on a node or time limit left from the last search.
    limits_ = Limits{};
    use_time_ = false;
    stop_.store(false);
    stop_requested_.store(false);
    root_searched_.store(true);  // no root here: a stop (none is expected) would end the probe at once
    return workers_[0]->quiescence(pos);
}

Value Engine::static_eval(const Position& pos) {
    stop();
    wait();
    return workers_[0]->static_value(pos);
}

// Root in the tablebases: only the moves of the best rank are searched (with DTZ ranks, those that keep
// the result and, in a won position, reach the next conversion soonest, so that the win is played out
// rather than circled around; Ethereal plays the DTZ-best move outright), and the search needs no further probes
// unless only WDL ranks were available for a won position (then in-search probes steer it to a
// conversion). Main thread, before the helpers start: Fathom's root probes are not thread-safe.
void Engine::rank_root_moves_by_tablebase(std::vector<RootMove>& root_moves) {
    root_in_tb_ = false;
    tb_cardinality_ = std::min(syzygy::max_pieces(), options_.syzygy_probe_limit);
    if (!tb_cardinality_ || root_moves.empty() || popcount(root_pos_.pieces()) > tb_cardinality_ ||
        root_pos_.castling_rights())
        return;
    std::vector<syzygy::RankedMove> ranked;
    bool used_dtz = false;
    if (!syzygy::rank_root_moves(root_pos_, options_.syzygy_50_move_rule, &ranked, &used_dtz, true)) return;
    workers_[0]->tb_hits.store(ranked.size());
    // A win or loss is scored by its distance to the conversion (DTZ plies), as the in-search probes
    // score theirs by their ply: VALUE_TB - DTZ. Without DTZ tables the distance is unknown: the far end
    // of the band.
    syzygy::Wdl root_wdl;
    int root_dtz = 0;
    const int distance = used_dtz && syzygy::probe_dtz(root_pos_, &root_wdl, &root_dtz)
                             ? std::min(std::abs(root_dtz), MAX_PLY)
                             : MAX_PLY;
    const int draw_score = options_.syzygy_50_move_rule ? 1 : 0;
    int best_rank = -1000000;
    for (RootMove& rm : root_moves) {
        auto it = std::find_if(ranked.begin(), ranked.end(), [&](const auto& r) { return r.move == rm.move; });
        if (it == ranked.end()) return;  // cannot happen: both lists hold every legal move
        const int w = int(it->wdl);
        rm.tb_rank = it->rank;
        rm.tb_score = wdl_value(w, draw_score, VALUE_TB - distance);
        best_rank = std::max(best_rank, rm.tb_rank);
    }
    std::erase_if(root_moves, [&](const RootMove& rm) { return rm.tb_rank != best_rank; });
    root_in_tb_ = true;
    if (used_dtz || root_moves[0].tb_score <= VALUE_DRAW) tb_cardinality_ = 0;
}

void Engine::run_main() {
    tt_.new_search();
    result_ = SearchResult{};
    std::vector<RootMove> root_moves;
    for (const ScoredMove& sm : MoveList<LEGAL>(root_pos_))
        if (limits_.searchmoves.empty() ||
            std::find(limits_.searchmoves.begin(), limits_.searchmoves.end(), sm.move) != limits_.searchmoves.end())
            root_moves.emplace_back(sm.move);

    for (auto& w : workers_) w->tb_hits.store(0);
    rank_root_moves_by_tablebase(root_moves);

    for (auto& w : workers_) {
        w->nodes.store(0);
        w->pos = root_pos_;
        w->root_moves = root_moves;
    }

    if (root_moves.empty()) {
        tell(listener_.no_move, NoMove{Score{root_pos_.in_check(), 0}});
        root_searched();  // nothing to search: a stop ends the wait below at once
    } else {
        for (std::size_t i = 1; i < workers_.size(); ++i) {
            if (!helpers_[i - 1]) helpers_[i - 1] = std::make_unique<SearchThread>();
            helpers_[i - 1]->start([this, i] { workers_[i]->iterative_deepening(); });
        }
        workers_[0]->iterative_deepening();
        // After go infinite / go ponder the answer waits for stop or ponderhit.
        root_searched();  // it completed at least one iteration: a stop from now on is answered at once
        while (!stop_.load() && (limits_.infinite || pondering_.load()))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        stop();
        for (std::size_t i = 1; i < workers_.size(); ++i) helpers_[i - 1]->wait();
    }
    while (!stop_.load() && (limits_.infinite || pondering_.load()))
        std::this_thread::sleep_for(std::chrono::milliseconds(1));

    Worker& main = *select_best_worker();
    if (!main.root_moves.empty()) {
        std::size_t chosen = 0;
        if (skill_enabled(options_.skill_level)) {
            std::vector<Value> scores;
            for (int i = 0; i < std::min<int>(options_.multi_pv, int(main.root_moves.size())); ++i) {
                const RootMove& rm = main.root_moves[std::size_t(i)];
                scores.push_back(rm.score != -VALUE_INFINITE ? rm.score : rm.prev_score);
            }
            chosen = pick_weakened(scores, options_.skill_level, root_pos_.key());
        }
        const RootMove& best = main.root_moves[chosen];
        result_.best = best.move;
        result_.score = best.score != -VALUE_INFINITE ? best.score : best.prev_score;
        result_.depth = main.completed_depth;
        result_.pv = best.pv;
        if (root_in_tb_ && std::abs(result_.score) < VALUE_MATE_IN_MAX_PLY) result_.score = best.tb_score;
        if (best.pv.size() >= 2) {
            result_.ponder = best.pv[1];
        } else {
            // Fall back to the TT for a move to ponder on.
            Position p = root_pos_;
            p.do_move(best.move);
            TTData tte;
            if (tt_.probe(p.key(), &tte) && tte.move && p.pseudo_legal(tte.move) && p.legal(tte.move))
                result_.ponder = tte.move;
        }
    }
    result_.nodes = nodes_searched();
    result_.tb_hits = tb_hits();
    tell(listener_.bestmove, BestMove{result_.best, result_.ponder});
    searching_.store(false);
}

}  // namespace quince::search
