// The Evaluator: one dispatch per call to what it evaluates with, and the hand-crafted evaluation's
// assembly, in the seeds' order for Rybka 1.0 Beta (spec §14) with every profile's groups in it:
// material entry -> lazy test -> material + PST -> White pieces (attacks, mobility, rooks/queens,
// king attack) -> pawn entry -> Black pieces -> the term groups that run after the piece loops (the
// weight list's G lines with AFTER_PIECES, in list order) -> king shelter -> passers -> patterns -> endgame scaling or opposite-bishop halving -> phase
// interpolation -> side to move + tempo. (The additions commute; only the scaling, the halving and the
// final shift are order-sensitive.)
#include "eval/evaluate.h"

#include <cstdint>
#include <cstdlib>

#include "eval/endgame.h"
#include "eval/king.h"
#include "eval/material_table.h"
#include "eval/weights.h"
#include "eval/passers.h"
#include "eval/pawn_ending.h"
#include "eval/patterns.h"
#include "eval/pieces.h"
#include "eval/scaling.h"
#include "eval/score.h"
#include "eval/terms.h"
#include "eval/threats.h"

namespace quince::eval {

namespace {

int material_units(const Position& pos, Color c) {
    int u = 0;
    for (PieceType pt = PAWN; pt <= QUEEN; ++pt) u += pos.count(c, pt) * MATERIAL_UNITS[pt];
    return u;
}

}  // namespace

struct Evaluator::Impl {
    // What evaluate() runs, decided once per set_eval / set_cache: the profile's path with or without the
    // cache, the baseline, or a network.
    enum class Mode : std::uint8_t { Fast, General, FastUncached, GeneralUncached, Simple, Network };
    Mode mode = Mode::Fast;
    EvalPtr eval;
    const Profile* prof = nullptr;            // eval->profile, or null for a network
    std::unique_ptr<NetworkState> network;  // this thread's state of eval->network
    bool lazy_on = true;
    PawnHash pawns;
    EvalCache cache;
    bool cache_on = true;

    void set_mode() {
        if (eval->kind == EvalKind::Network) mode = Mode::Network;
        else if (eval->kind == EvalKind::Simple) mode = Mode::Simple;
        else if (prof->path == Path::General) mode = cache_on ? Mode::General : Mode::GeneralUncached;
        else mode = cache_on ? Mode::Fast : Mode::FastUncached;
    }
    // The baseline and a network have no terms to trace: their score is all there is.
    bool termless() const { return mode == Mode::Simple || mode == Mode::Network; }
    Value termless_score(const Position& pos) { return mode == Mode::Simple ? simple_evaluate(pos) : network->evaluate(pos); }

    // Lazy bounds in D units, cached for the last White-view window (it changes once per iteration).
    Value cached_lower = 0, cached_upper = 0;
    int cached_wsum = -1;
    int lazy_lo = 0, lazy_hi = 0;

    void update_lazy_bounds(Value white_lower, Value white_upper, int wsum) {
        if (white_lower == cached_lower && white_upper == cached_upper && wsum == cached_wsum) return;
        cached_lower = white_lower;
        cached_upper = white_upper;
        cached_wsum = wsum;
        const LazyBounds b = lazy_bounds(white_lower, white_upper, wsum, prof->w.pawn_unit, prof->w.lazy_margin);
        lazy_lo = b.lo;
        lazy_hi = b.hi;
    }

    // Cached: consult and fill the evaluation cache (the search's calls; never traced ones, nor the
    // general path's cross-check, which must really evaluate).
    template <Tracing T, Path Route, bool Cached = false>
    Value run(const Position& pos, const LazyWindow& win, Trace* tr);
};

template <Tracing T, Path Route, bool Cached>
Value Evaluator::Impl::run(const Position& pos, const LazyWindow& win, Trace* tr) {
    static_assert(!Cached || T == Tracing::Off);
    constexpr bool traced = T == Tracing::On, general = Route == Path::General;
    const Profile& P = *prof;
    const Weights& w = P.w;
    const Color stm = pos.side_to_move();
    const int sign = stm == WHITE ? 1 : -1;

    EvalState st;
    st.prof = &P;
    st.pos = &pos;
    st.mat = material_entry(P, pos);
    const int D = pos.material_balance();
    const int mat = w.pawn_unit * D + st.mat.value;
    const int* W = P.interp[st.mat.phase];
    if constexpr (traced) {
        for (Color c : {WHITE, BLACK}) {
            const int m = w.pawn_unit * material_units(pos, c);
            const int i = imbalance_side(w, pos.count(c, QUEEN), pos.count(c, ROOK), pos.count(c, BISHOP),
                                         pos.count(c, KNIGHT), pos.count(c, PAWN));
            tr->v[T_MATERIAL][c][0] = m;
            tr->v[T_MATERIAL][c][1] = m + w.pawn_endgame_extra * pos.count(c, PAWN);
            tr->v[T_IMBALANCE][c][0] = tr->v[T_IMBALANCE][c][1] = i;
            if (CoefTrace* ct = tr->coef) {
                ct->add(c, WI::pawn_unit.index, material_units(pos, c));
                ct->add(c, WI::pawn_endgame_extra.index, pos.count(c, PAWN));
                imbalance_side_terms(w, pos.count(c, QUEEN), pos.count(c, ROOK), pos.count(c, BISHOP),
                                     pos.count(c, KNIGHT), pos.count(c, PAWN),
                                     [ct, c](int index, int k) { ct->add(c, index, k); });
            }
        }
        if (tr->coef) tr->coef->add(stm, WI::tempo.index, 1);
        tr->mat = st.mat;
        tr->material_index = pos.material_index();
        tr->in_table = pos.material_in_table();
        tr->w0 = W[0];
        tr->w1 = W[1];
    }

    // 2.3.2a: kings and pawns only go to the pawn-ending evaluator, before the lazy test (§13.3).
    const bool pawn_ending = general && w.pawn_ending_evaluator && pos.pieces() == pos.pieces(PAWN, KING);

    // Lazy evaluation (§12.3): material only. Floor applied in the side to move's view (§1 symmetry).
    if (lazy_on && !pawn_ending) {
        bool lazy = st.mat.lazy;
        if (!lazy && (!general || w.lazy_window) && win.active()) {
            // Window to White's view: negate and swap when Black is to move.
            if (stm == WHITE) update_lazy_bounds(win.lower, win.upper, W[0] + W[1]);
            else update_lazy_bounds(win.upper >= VALUE_INFINITE ? -VALUE_INFINITE : -win.upper,
                                    win.lower <= -VALUE_INFINITE ? VALUE_INFINITE : -win.lower, W[0] + W[1]);
            lazy = D <= lazy_lo || D >= lazy_hi;
        }
        if (lazy) {
            const Value v = ((sign * mat) >> 5) + w.tempo;
            if constexpr (traced) {
                tr->lazy = true;
                tr->op = tr->eg = tr->op_before_scale = tr->eg_before_scale = mat;
                tr->white_cp = sign * (v - w.tempo);
                tr->final_cp = v;
            }
            return v;
        }
    }

    // Past the lazy test the result no longer depends on the window: the full evaluation of the
    // position, which is what the cache holds (a lazy result is never stored).
    if constexpr (Cached) {
        Value cached;
        if (cache.probe(pos.key(), cached)) return cached;
    }

    Acc<T> acc;
    acc.tr = tr;
    acc.w = &w;
    acc.op = acc.eg = mat;
    if constexpr (general) acc.eg += w.pawn_endgame_extra * (pos.count(WHITE, PAWN) - pos.count(BLACK, PAWN));  // Fruit: P 80 / 90

    eval_pieces<WHITE, T, Route>(st, acc);
    PawnEntry traced_entry;
    const PawnEntry& pe = traced && (tr->coef || tr->squares)
                              ? (compute_pawn_entry(P, pos, traced_entry, tr->coef, tr->squares), traced_entry)
                              : pawns.probe(P, pos);
    st.pawn = &pe;
    acc.template add<WHITE>(T_PST_PAWN, pe.pst_op[WHITE], pe.pst_eg[WHITE]);
    acc.template add<BLACK>(T_PST_PAWN, pe.pst_op[BLACK], pe.pst_eg[BLACK]);
    acc.template add<WHITE>(T_PAWNS, pe.op[WHITE], pe.eg[WHITE]);
    acc.template add<BLACK>(T_PAWNS, pe.op[BLACK], pe.eg[BLACK]);
    eval_pieces<BLACK, T, Route>(st, acc);
    if constexpr (general) {
        // The term groups that run after both piece loops (the list's G lines with AFTER_PIECES), in list order.
#define QUINCE_RUN_AFTER_PIECES(name) \
    if (w.name) eval_##name<WHITE, T>(st, acc), eval_##name<BLACK, T>(st, acc);
#define QUINCE_RUN_IN_TERMS(name)
#define QUINCE_RUN_NONE(...)
#define QUINCE_RUN_GROUP(name, group, run, maps, doc) QUINCE_RUN_##run(name)
        QUINCE_WEIGHTS(QUINCE_RUN_NONE, QUINCE_RUN_NONE, QUINCE_RUN_NONE, QUINCE_RUN_NONE, QUINCE_RUN_NONE,
                       QUINCE_RUN_NONE, QUINCE_RUN_NONE, QUINCE_RUN_GROUP)
#undef QUINCE_RUN_AFTER_PIECES
#undef QUINCE_RUN_IN_TERMS
#undef QUINCE_RUN_NONE
#undef QUINCE_RUN_GROUP
    }
    eval_king_shelter<BLACK, T, Route>(st, acc);
    eval_king_shelter<WHITE, T, Route>(st, acc);
    eval_passers<WHITE, T, Route>(st, acc);
    eval_passers<BLACK, T, Route>(st, acc);
    eval_patterns<WHITE, T, Route>(st, acc);
    eval_patterns<BLACK, T, Route>(st, acc);
    bool known_draw = false;
    if constexpr (general)
        if (pawn_ending) known_draw = eval_pawn_ending<T>(st, acc);

    int op = acc.op, eg = acc.eg;
    if constexpr (traced) tr->op_before_scale = op, tr->eg_before_scale = eg;
    // Quince's endgame scaling (eval/scaling.h): the complexity, then the scale factor of the side the
    // endgame part favours, which replaces the opposite-bishop halving.
    bool scaled = false;
    if constexpr (general) {
        if (w.complexity) {
            const ComplexityInputs in = complexity_inputs(pos);
            const int adj = complexity_adjustment(eg, complexity_value(w, in));
            eg += adj;
            if constexpr (traced) {
                tr->complexity_eg = adj;
                if (CoefTrace* ct = tr->coef) {
                    ct->scaling.complexity = true;
                    for (int i = 0; i < COMPLEXITY_WEIGHTS; ++i) ct->scaling.n[i] = in.n[i];
                }
            }
        }
        if (w.scale_factors) {
            scaled = true;
            const int factor = scale_factor(w, pos, eg >= 0 ? WHITE : BLACK);
            eg = scale_eg(eg, factor);
            if constexpr (traced) {
                tr->scale = factor;
                if (CoefTrace* ct = tr->coef) {
                    ct->scaling.scaled = true;
                    for (Color c : {WHITE, BLACK}) ct->scaling.factor[c] = scale_factor(w, pos, c);
                }
            }
        }
    }
    // §12.1 opposite-coloured bishops: halve before interpolation, C division (symmetric).
    // 2.3.2a and Fruit halve the interpolated score instead.
    bool halve_after = false;
    if (!scaled && w.ocb_halving && (st.mat.flags & DRAW_BISHOP_FLAG)) {
        const Bitboard b = pos.pieces(BISHOP);
        if ((b & LIGHT_SQUARES) && (b & DARK_SQUARES)) {
            if (general && w.ocb_after_interpolation) halve_after = true;
            else op = ocb_halve(op), eg = ocb_halve(eg);
            if constexpr (traced) tr->ocb = true, tr->ocb_after = halve_after;
        }
    }
    // §1: (op*W0 + eg*W1) >> 13, floor taken in the side to move's view (Quince's symmetry decision).
    Value s = interpolate_stm(op, eg, W[0], W[1], stm);
    if (halve_after) s = ocb_halve(s);
    // §13.2 (2.3.2a): drawishness of the leading side's pawn files, after the halving.
    if (general && P.drawish_on) {
        const Value before = s;
        s = drawish_adjust(s, pe.drawish[stm], pe.drawish[~stm], w.drawish_mul, w.drawish_div, w.drawish_cap);
        if constexpr (traced) tr->drawish_cp = sign * (s - before);
    }
    if (known_draw) s = 0;
    const Value v = known_draw ? 0 : s + w.tempo;
    if constexpr (traced) {
        tr->known_draw = known_draw;
        tr->op = op;
        tr->eg = eg;
        tr->white_cp = sign * s;
        tr->final_cp = v;
    }
    if constexpr (Cached) cache.store(pos.key(), v);
    return v;
}

Evaluator::Evaluator() : impl_(std::make_unique<Impl>()) { set_profile(default_profile()); }
Evaluator::Evaluator(const std::string& profile) : Evaluator() { set_profile(profile); }
Evaluator::~Evaluator() = default;

// Every evaluation ends with the known-ending scale (eval/endgame.h), whatever evaluated: a profile's
// cached value and a network's output are the scores before it.
Value Evaluator::evaluate(const Position& pos, const LazyWindow& window) {
    using Mode = Impl::Mode;
    Value v = VALUE_ZERO;
    switch (impl_->mode) {
    case Mode::Fast: v = impl_->run<Tracing::Off, Path::Fast, true>(pos, window, nullptr); break;
    case Mode::General: v = impl_->run<Tracing::Off, Path::General, true>(pos, window, nullptr); break;
    case Mode::FastUncached: v = impl_->run<Tracing::Off, Path::Fast>(pos, window, nullptr); break;
    case Mode::GeneralUncached: v = impl_->run<Tracing::Off, Path::General>(pos, window, nullptr); break;
    case Mode::Simple: v = simple_evaluate(pos); break;
    case Mode::Network: v = impl_->network->evaluate(pos); break;
    }
    return finish_score(pos, v);
}

namespace {

// An empty trace for a new evaluation; the caller's coefficient and square recorders stay attached, emptied.
void reset_trace(Trace& trace) {
    CoefTrace* coef = trace.coef;
    SquareTrace* squares = trace.squares;
    trace = Trace{};
    trace.coef = coef;
    trace.squares = squares;
    if (coef) coef->reset();
    if (squares) *squares = SquareTrace{};
}

// The last step on a traced evaluation. With the tuner's coefficients it is left out: the tuner rebuilds
// and fits the profile's own score from them, and the step is no weight of it.
Value finish_traced(const Position& pos, Trace& trace) {
    trace.profile_cp = trace.scaled_cp = trace.final_cp;
    if (trace.coef) return trace.final_cp;
    EndingScale s;
    trace.final_cp = finish_score(pos, trace.final_cp, &s);
    trace.scaled_cp = ending_scaled(trace.profile_cp, s.factor);
    trace.ending_factor = s.factor;
    trace.ending = s.rule;
    return trace.final_cp;
}

}  // namespace

Value Evaluator::evaluate_traced(const Position& pos, Trace& trace, const LazyWindow& window) {
    reset_trace(trace);
    if (impl_->termless()) trace.final_cp = impl_->termless_score(pos);
    // Coefficients: always the general path, so that weights the Rybka 1.0 path fixes at 0 are seen too.
    else if (impl_->prof->path == Path::General || trace.coef) impl_->run<Tracing::On, Path::General>(pos, window, &trace);
    else impl_->run<Tracing::On, Path::Fast>(pos, window, &trace);
    return finish_traced(pos, trace);
}

Value Evaluator::evaluate_general(const Position& pos, Trace* trace, const LazyWindow& window) {
    if (!trace)
        return finish_score(pos, impl_->termless() ? impl_->termless_score(pos)
                                                   : impl_->run<Tracing::Off, Path::General>(pos, window, nullptr));
    reset_trace(*trace);
    if (impl_->termless()) trace->final_cp = impl_->termless_score(pos);
    else impl_->run<Tracing::On, Path::General>(pos, window, trace);
    return finish_traced(pos, *trace);
}

void Evaluator::clear() {
    impl_->pawns.clear();
    impl_->cache.clear();
    if (impl_->network) impl_->network->clear();
}

void Evaluator::set_eval(EvalPtr evaluation) {
    if (!evaluation) return;
    Impl& i = *impl_;
    i.eval = std::move(evaluation);
    i.prof = i.eval->profile.get();
    i.network = i.eval->network ? i.eval->network->new_state() : nullptr;
    i.set_mode();
    i.cached_wsum = -1;
    i.pawns.clear();
    i.cache.clear();  // its values are the old evaluation's
}

const EvalPtr& Evaluator::eval() const { return impl_->eval; }

bool Evaluator::set_profile(const std::string& name) {
    EvalPtr e = builtin_evaluation(name, nullptr);
    if (!e) return false;
    set_eval(std::move(e));
    return true;
}

void Evaluator::set_profile(std::shared_ptr<const Profile> profile) {
    if (profile) set_eval(profile_evaluation(std::move(profile)));
}

const std::string& Evaluator::profile() const { return impl_->eval->name; }
const EvalCache& Evaluator::cache() const { return impl_->cache; }
void Evaluator::set_cache(bool on) {
    impl_->cache_on = on;
    impl_->set_mode();
}
void Evaluator::set_lazy(bool on) { impl_->lazy_on = on; }
bool Evaluator::lazy() const { return impl_->lazy_on; }

void CoefTrace::reset() {
    for (auto& v : c) v.assign(std::size_t(weight_count()), 0.0);
    for (auto& k : king_attack) k = KingAttack{};
    drawish[WHITE] = drawish[BLACK] = 0;
    scaling = Scaling{};
}

}  // namespace quince::eval
