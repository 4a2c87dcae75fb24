// The network's integer inference, for any architecture A of architecture.h: the hidden sums of both
// perspectives (Accumulator), their update and the output, over the SIMD layer (simd.h); and the
// evaluator-side state that keeps them up to date incrementally: NnueState keeps one accumulator per ply of
// the game (a ring of 128) with the pieces of the position it belongs to, and starts each evaluation from
// whichever of a few candidates (this ply's, its parent's, its grandparent's, the last evaluated) differs by
// the fewest pieces, adding and subtracting only those pieces' inputs (a perspective whose king changed
// bucket, with king-bucketed inputs, from a cache of accumulators per view). So the search needs no hook in
// make/unmake, accumulators are touched only when a position is actually evaluated (lazily), and a sibling
// starts from its parent, not from the last leaf of its brother's subtree.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "board/position.h"
#include "eval/nnue/network.h"
#include "eval/nnue/simd.h"

namespace quince::eval::nnue {

template <int H>
struct alignas(64) Accumulator {
    std::int16_t v[COLOR_NB][H];  // [perspective][hidden]
};
template <class A>
using AccumulatorOf = Accumulator<A::HIDDEN>;

// The SIMD code the build uses ("avx2", "sse2", "simd128" (WebAssembly), "neon" or "scalar"; SSE4.1
// builds use the SSE2 code, which needs nothing SSE4.1 adds).
inline const char* simd_name() { return simd::Native::NAME; }

// to[p] = from[p] + columns of `add` - columns of `sub`, for both perspectives' inputs given; `from` and
// `to` may be the same accumulator (an update in place). S: the SIMD backend (the build's, or the tests'
// simd::Scalar).
template <class A, class S = simd::Native>
void update(const Network& net, const AccumulatorOf<A>& from, AccumulatorOf<A>& to, const int* add_white,
            const int* add_black, int n_add, const int* sub_white, const int* sub_black, int n_sub) {
    simd::add_sub_rows<S, A::HIDDEN>(net.ft_weights.data(), from.v[WHITE], to.v[WHITE], add_white, n_add, sub_white, n_sub);
    simd::add_sub_rows<S, A::HIDDEN>(net.ft_weights.data(), from.v[BLACK], to.v[BLACK], add_black, n_add, sub_black, n_sub);
}

// The output from the 64-bit sum of activation x weight over both perspectives: / QA (back to QA * QB
// units), the bucket's bias, then centipawns, rounded to the nearest (truncation would cost half a
// centipawn on average).
template <class A>
Value finish_output(const Network& net, std::int64_t sum, int bucket) {
    const std::int64_t out = (sum / A::QA + net.out_bias[bucket]) * A::SCALE;
    constexpr std::int64_t D = std::int64_t(A::QA) * A::QB;
    return Value(out >= 0 ? (out + D / 2) / D : -((-out + D / 2) / D));
}

// The output in centipawns for the side whose perspective is `us`, with output bucket `bucket`.
template <class A, class S = simd::Native>
Value output(const Network& net, const AccumulatorOf<A>& acc, Color us, int bucket) {
    static_assert(A::ACTIVATION == Activation::SCReLU);
    const std::int16_t* w = net.out_weights.data() + std::size_t(bucket) * 2 * A::HIDDEN;
    return finish_output<A>(net, simd::screlu_dot<S, A::HIDDEN, A::QA>(acc.v[us], acc.v[~us], w), bucket);
}

// The bucket of a position (architecture.h: by its pieces, for architectures with several).
template <class A>
int output_bucket(const Position& pos) {
    if constexpr (A::BUCKETS == 1) return 0;
    else return A::bucket(popcount(pos.pieces()));
}

// Each perspective's view (architecture.h: the layout of its inputs that its king's square selects).
template <class A>
void views(const Position& pos, int* view) {
    for (Color p : {WHITE, BLACK}) view[p] = A::Inputs::view(p, pos.king_square(p));
}

// The inputs of every piece of pos, for both perspectives; their count.
template <class A>
int active_inputs(const Position& pos, int* white, int* black) {
    int view[COLOR_NB];
    views<A>(pos, view);
    int n = 0;
    for (Bitboard b = pos.pieces(); b && n < 64;) {
        const Square s = pop_lsb(b);
        const Piece pc = pos.piece_on(s);
        white[n] = A::Inputs::index(WHITE, view[WHITE], color_of(pc), type_of(pc), s);
        black[n] = A::Inputs::index(BLACK, view[BLACK], color_of(pc), type_of(pc), s);
        ++n;
    }
    return n;
}

// Accumulator from scratch (bias + every piece's inputs).
template <class A, class S = simd::Native>
void refresh(const Network& net, const Position& pos, AccumulatorOf<A>& acc) {
    int white[64], black[64];
    const int n = active_inputs<A>(pos, white, black);
    for (Color p : {WHITE, BLACK}) std::memcpy(acc.v[p], net.ft_bias.data(), sizeof acc.v[p]);
    update<A, S>(net, acc, acc, white, black, n, nullptr, nullptr, 0);
}

// The same arithmetic in plain loops, without the SIMD layer: the tests' reference.
namespace reference {

template <class A>
void update(const Network& net, const AccumulatorOf<A>& from, AccumulatorOf<A>& to, const int* add_white,
            const int* add_black, int n_add, const int* sub_white, const int* sub_black, int n_sub) {
    if (&from != &to) to = from;
    for (Color p : {WHITE, BLACK}) {
        const int* add = p == WHITE ? add_white : add_black;
        const int* sub = p == WHITE ? sub_white : sub_black;
        std::int16_t* a = to.v[p];
        for (int k = 0; k < n_sub; ++k) {
            const std::int16_t* w = net.ft_weights.data() + std::size_t(sub[k]) * A::HIDDEN;
            for (int i = 0; i < A::HIDDEN; ++i) a[i] = std::int16_t(a[i] - w[i]);
        }
        for (int k = 0; k < n_add; ++k) {
            const std::int16_t* w = net.ft_weights.data() + std::size_t(add[k]) * A::HIDDEN;
            for (int i = 0; i < A::HIDDEN; ++i) a[i] = std::int16_t(a[i] + w[i]);
        }
    }
}

template <class A>
Value output(const Network& net, const AccumulatorOf<A>& acc, Color us, int bucket) {
    std::int64_t sum = 0;
    for (int side = 0; side < 2; ++side) {
        const std::int16_t* a = acc.v[side == 0 ? us : ~us];
        const std::int16_t* w = net.out_weights.data() + (std::size_t(bucket) * 2 + std::size_t(side)) * A::HIDDEN;
        for (int i = 0; i < A::HIDDEN; ++i) {
            const std::int64_t x = std::clamp<int>(a[i], 0, A::QA);
            sum += x * x * w[i];
        }
    }
    return finish_output<A>(net, sum, bucket);
}

}  // namespace reference

// One per Evaluator (so per search thread) and net architecture: an accumulator per ply of the game
// (modulo 128), with the pieces of the position it belongs to and each perspective's view (architecture.h).
// For inputs of several views (king buckets), also a cache of one accumulator per (perspective, view) with
// the pieces it was last computed for: a perspective whose king changed bucket or side is refreshed from
// its view's cached accumulator, adding and subtracting only the pieces that differ from those.
template <class A>
class NnueState {
public:
    static constexpr int SLOTS = 128;
    // Beyond this many changed inputs a refresh (at most 32 columns) costs about the same.
    static constexpr int MAX_CHANGES = 24;
    static constexpr int VIEWS = A::Inputs::VIEWS;

    // The network's score of pos, centipawns from the side to move's view.
    Value evaluate(const Network& net, const Position& pos);
    // The accumulator of the last evaluate() (the tests compare it with a refresh).
    const AccumulatorOf<A>& accumulator() const { return slots_[last_].acc; }
    void reset() {
        for (int i = 0; i < SLOTS; ++i) slots_[i].net = nullptr;
        for (int i = 0; i < (VIEWS > 1 ? 2 * VIEWS : 0); ++i) cache_[i].net = nullptr;
    }
    // Counters: evaluations that updated incrementally / refreshed from scratch, and the inputs the
    // updates added or subtracted (per perspective); perspectives refreshed from the cache of views (after
    // their king changed view), and the inputs those refreshes added or subtracted.
    std::uint64_t updates() const { return updates_; }
    std::uint64_t refreshes() const { return refreshes_; }
    std::uint64_t changed_inputs() const { return changed_inputs_; }
    std::uint64_t view_refreshes() const { return view_refreshes_; }
    std::uint64_t view_changed_inputs() const { return view_changed_inputs_; }

private:
    using Pieces = Bitboard[COLOR_NB][PIECE_TYPE_NB];
    struct Slot {
        AccumulatorOf<A> acc;
        const Network* net = nullptr;  // the net acc belongs to (none yet, or another net: not a candidate)
        Pieces pieces = {};
        std::uint8_t view[COLOR_NB] = {};
    };
    struct alignas(64) Cached {
        std::int16_t acc[A::HIDDEN];
        const Network* net = nullptr;  // as Slot's
        Pieces pieces = {};
    };
    // Perspective p's hidden sums of the pieces `now` in view `view`, into `to`, from the cache.
    void refresh_view(const Network& net, const Pieces& now, Color p, int view, std::int16_t* to);

    std::unique_ptr<Slot[]> slots_ = std::make_unique<Slot[]>(SLOTS);
    std::unique_ptr<Cached[]> cache_ = VIEWS > 1 ? std::make_unique<Cached[]>(2 * VIEWS) : nullptr;  // [p][view]
    int last_ = 0;
    std::uint64_t updates_ = 0, refreshes_ = 0, changed_inputs_ = 0, view_refreshes_ = 0, view_changed_inputs_ = 0;
};

template <class A>
void NnueState<A>::refresh_view(const Network& net, const Pieces& now, Color p, int view, std::int16_t* to) {
    Cached& e = cache_[std::size_t(p) * VIEWS + std::size_t(view)];
    // From the bias when that adds fewer inputs than the cached pieces differ by (another net's entry, or
    // one whose pieces all moved since).
    int differ = 0, pieces = 0;
    for (Color c : {WHITE, BLACK})
        for (PieceType pt = PAWN; pt <= KING; pt = PieceType(pt + 1))
            differ += popcount(e.pieces[c][pt] ^ now[c][pt]), pieces += popcount(now[c][pt]);
    if (e.net != &net || differ > pieces) {
        std::memcpy(e.acc, net.ft_bias.data(), sizeof e.acc);
        std::memset(e.pieces, 0, sizeof e.pieces);
        e.net = &net;
    }
    int add[64], sub[64], n_add = 0, n_sub = 0;  // a board holds at most 64 pieces
    for (Color c : {WHITE, BLACK}) {
        for (PieceType pt = PAWN; pt <= KING; pt = PieceType(pt + 1)) {
            for (Bitboard b = e.pieces[c][pt] & ~now[c][pt]; b;) sub[n_sub++] = A::Inputs::index(p, view, c, pt, pop_lsb(b));
            for (Bitboard b = now[c][pt] & ~e.pieces[c][pt]; b;) add[n_add++] = A::Inputs::index(p, view, c, pt, pop_lsb(b));
        }
    }
    simd::add_sub_rows<simd::Native, A::HIDDEN>(net.ft_weights.data(), e.acc, e.acc, add, n_add, sub, n_sub);
    std::memcpy(e.pieces, now, sizeof e.pieces);
    std::memcpy(to, e.acc, sizeof e.acc);
    ++view_refreshes_;
    view_changed_inputs_ += std::uint64_t(n_add + n_sub);
}

template <class A>
Value NnueState<A>::evaluate(const Network& net, const Position& pos) {
    Bitboard now[COLOR_NB][PIECE_TYPE_NB] = {};
    for (Color c : {WHITE, BLACK})
        for (PieceType pt = PAWN; pt <= KING; pt = PieceType(pt + 1)) now[c][pt] = pos.pieces(c, pt);
    int view[COLOR_NB] = {};
    if constexpr (VIEWS > 1) views<A>(pos, view);
    const int ply = pos.game_ply() & (SLOTS - 1);
    Slot& dst = slots_[ply];

    // The candidate that differs from pos by the fewest pieces: after a move it is usually the parent's
    // (two or three pieces), after a subtree has been searched the sibling's or the parent's, not the
    // subtree's last leaf.
    const int candidates[4] = {ply, (ply + SLOTS - 1) & (SLOTS - 1), (ply + SLOTS - 2) & (SLOTS - 1), last_};
    int best = -1, best_changes = MAX_CHANGES + 1;
    for (int i = 0; i < 4; ++i) {
        const int k = candidates[i];
        const Slot& s = slots_[k];
        if (s.net != &net || (i == 3 && (k == candidates[0] || k == candidates[1] || k == candidates[2]))) continue;
        int changes = 0;
        for (Color c : {WHITE, BLACK})
            for (PieceType pt = PAWN; pt <= KING; pt = PieceType(pt + 1))
                changes += popcount(now[c][pt] ^ s.pieces[c][pt]);
        if (changes < best_changes) best = k, best_changes = changes;
    }

    if (best < 0) {
        if constexpr (VIEWS > 1) {
            for (Color p : {WHITE, BLACK}) refresh_view(net, now, p, view[p], dst.acc.v[p]);
        } else {
            refresh<A>(net, pos, dst.acc);
        }
        ++refreshes_;
    } else {
        const Slot& src = slots_[best];
        // A perspective whose view changed since src (its king changed bucket or side) has other inputs
        // for every piece: refreshed from the cache instead.
        const bool stale[COLOR_NB] = {src.view[WHITE] != view[WHITE], src.view[BLACK] != view[BLACK]};
        int add_w[MAX_CHANGES], add_b[MAX_CHANGES], sub_w[MAX_CHANGES], sub_b[MAX_CHANGES];
        int n_add = 0, n_sub = 0;
        for (Color c : {WHITE, BLACK}) {
            for (PieceType pt = PAWN; pt <= KING; pt = PieceType(pt + 1)) {
                const Bitboard before = src.pieces[c][pt];
                for (Bitboard b = before & ~now[c][pt]; b;) {
                    const Square s = pop_lsb(b);
                    sub_w[n_sub] = A::Inputs::index(WHITE, view[WHITE], c, pt, s);
                    sub_b[n_sub++] = A::Inputs::index(BLACK, view[BLACK], c, pt, s);
                }
                for (Bitboard b = now[c][pt] & ~before; b;) {
                    const Square s = pop_lsb(b);
                    add_w[n_add] = A::Inputs::index(WHITE, view[WHITE], c, pt, s);
                    add_b[n_add++] = A::Inputs::index(BLACK, view[BLACK], c, pt, s);
                }
            }
        }
        if (!stale[WHITE] && !stale[BLACK]) {
            if (n_add + n_sub || &src != &dst)
                update<A>(net, src.acc, dst.acc, add_w, add_b, n_add, sub_w, sub_b, n_sub);
            changed_inputs_ += std::uint64_t(n_add + n_sub);
        } else {
            for (Color p : {WHITE, BLACK}) {
                if (stale[p]) {
                    refresh_view(net, now, p, view[p], dst.acc.v[p]);
                } else {
                    simd::add_sub_rows<simd::Native, A::HIDDEN>(net.ft_weights.data(), src.acc.v[p], dst.acc.v[p],
                                                                p == WHITE ? add_w : add_b, n_add,
                                                                p == WHITE ? sub_w : sub_b, n_sub);
                    changed_inputs_ += std::uint64_t(n_add + n_sub);
                }
            }
        }
        ++updates_;
    }
    dst.net = &net;
    std::memcpy(dst.pieces, now, sizeof now);
    dst.view[WHITE] = std::uint8_t(view[WHITE]), dst.view[BLACK] = std::uint8_t(view[BLACK]);
    last_ = ply;
    return output<A>(net, dst.acc, pos.side_to_move(), output_bucket<A>(pos));
}

// The integer code of every architecture is compiled once, in accumulator.cpp with the library's flags
// (both SIMD backends, the reference, NnueState): a file that includes this header calls those copies
// rather than compiling its own (the tests are compiled without optimisation, and the linker would keep
// whichever copy it met first).
#define QUINCE_NNUE_BACKEND_INSTANCES(PREFIX, A, S)                                                                \
    PREFIX template void update<A, S>(const Network&, const AccumulatorOf<A>&, AccumulatorOf<A>&, const int*,   \
                                      const int*, int, const int*, const int*, int);                           \
    PREFIX template Value output<A, S>(const Network&, const AccumulatorOf<A>&, Color, int);                   \
    PREFIX template void refresh<A, S>(const Network&, const Position&, AccumulatorOf<A>&);
#if defined(QUINCE_NNUE_NATIVE_IS_SCALAR)
#define QUINCE_NNUE_SCALAR_INSTANCES(PREFIX, A)
#else
#define QUINCE_NNUE_SCALAR_INSTANCES(PREFIX, A) QUINCE_NNUE_BACKEND_INSTANCES(PREFIX, A, simd::Scalar)
#endif
#define QUINCE_NNUE_INSTANCES(PREFIX, A)                                                                          \
    QUINCE_NNUE_BACKEND_INSTANCES(PREFIX, A, simd::Native)                                                       \
    QUINCE_NNUE_SCALAR_INSTANCES(PREFIX, A)                                                                      \
    PREFIX template void reference::update<A>(const Network&, const AccumulatorOf<A>&, AccumulatorOf<A>&,        \
                                              const int*, const int*, int, const int*, const int*, int);        \
    PREFIX template Value reference::output<A>(const Network&, const AccumulatorOf<A>&, Color, int);           \
    PREFIX template Value finish_output<A>(const Network&, std::int64_t, int);                                 \
    PREFIX template int output_bucket<A>(const Position&);                                                     \
    PREFIX template int active_inputs<A>(const Position&, int*, int*);                                         \
    PREFIX template void views<A>(const Position&, int*);                                                     \
    PREFIX template class NnueState<A>;
#define QUINCE_NNUE_EXTERN_INSTANCES(A) QUINCE_NNUE_INSTANCES(extern, A)
QUINCE_NNUE_ARCHITECTURES(QUINCE_NNUE_EXTERN_INSTANCES)
#undef QUINCE_NNUE_EXTERN_INSTANCES

}  // namespace quince::eval::nnue
