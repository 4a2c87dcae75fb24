// The network's hidden sums for both perspectives, and the evaluator-side state that keeps them up to date
// incrementally: NnueState keeps one accumulator per ply of the game (a ring of 128) with the pieces of the
// position it belongs to, and starts each evaluation from whichever of a few candidates (this ply's, its
// parent's, its grandparent's, the last evaluated) differs by the fewest pieces, adding and subtracting only
// those pieces' inputs. So the search needs no hook in make/unmake, accumulators are touched only when a
// position is actually evaluated (lazily), and a sibling starts from its parent, not from the last leaf of
// its brother's subtree.
#pragma once

#include <cstdint>
#include <memory>

#include "board/position.h"
#include "eval/nnue/network.h"

namespace quince::eval::nnue {

struct alignas(64) Accumulator {
    std::int16_t v[COLOR_NB][HIDDEN];  // [perspective][hidden]
};

// The SIMD code the build uses ("avx2", "sse2", "simd128" (WebAssembly) or "scalar"; SSE4.1 builds use
// the SSE2 code, which needs nothing SSE4.1 adds).
const char* simd_name();

// Accumulator from scratch (bias + every piece's inputs).
void refresh(const Network& net, const Position& pos, Accumulator& acc);
// to[p] = from[p] + columns of `add` - columns of `sub`, for both perspectives' inputs given; `from` and
// `to` may be the same accumulator (an update in place).
void update(const Network& net, const Accumulator& from, Accumulator& to, const int* add_white,
            const int* add_black, int n_add, const int* sub_white, const int* sub_black, int n_sub);
// The output in centipawns for the side whose perspective is `us`.
Value output(const Network& net, const Accumulator& acc, Color us);

// The same arithmetic without SIMD: equal to the functions above bit for bit (tested).
namespace scalar {
void update(const Network& net, const Accumulator& from, Accumulator& to, const int* add_white,
            const int* add_black, int n_add, const int* sub_white, const int* sub_black, int n_sub);
Value output(const Network& net, const Accumulator& acc, Color us);
}  // namespace scalar

// One per Evaluator (so per search thread): an accumulator per ply of the game (modulo 128) and the pieces
// of the position each belongs to.
class NnueState {
public:
    static constexpr int SLOTS = 128;
    // Beyond this many changed inputs a refresh (at most 32 columns) costs about the same.
    static constexpr int MAX_CHANGES = 24;

    // The network's score of pos, centipawns from the side to move's view.
    Value evaluate(const Network& net, const Position& pos);
    // The accumulator of the last evaluate() (the tests compare it with a refresh).
    const Accumulator& accumulator() const { return slots_[last_].acc; }
    void reset();
    // Counters: evaluations that updated incrementally / refreshed from scratch, and the inputs the
    // updates added or subtracted (per perspective).
    std::uint64_t updates() const { return updates_; }
    std::uint64_t refreshes() const { return refreshes_; }
    std::uint64_t changed_inputs() const { return changed_inputs_; }

private:
    struct Slot {
        Accumulator acc;
        const Network* net = nullptr;  // the net acc belongs to (none yet, or another net: not a candidate)
        Bitboard pieces[COLOR_NB][PIECE_TYPE_NB] = {};
    };
    std::unique_ptr<Slot[]> slots_ = std::make_unique<Slot[]>(SLOTS);
    int last_ = 0;
    std::uint64_t updates_ = 0, refreshes_ = 0, changed_inputs_ = 0;
};

}  // namespace quince::eval::nnue
