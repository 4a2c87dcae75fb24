// The network's hidden sums for both perspectives, and the evaluator-side state that keeps them up to date
// incrementally: NnueState remembers the pieces of the position it last evaluated and, at the next call,
// adds and subtracts only the inputs of the pieces that moved since (a make, an unmake, a null move or a
// jump to a sibling node are all "some pieces changed"), so the search needs no hook in make/unmake and
// the accumulator is touched only when a position is actually evaluated (lazily).
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
// acc[p] += column of `add`, -= column of `sub` (-1: none), for both perspectives' inputs given.
void update(const Network& net, Accumulator& acc, const int* add_white, const int* add_black, int n_add,
            const int* sub_white, const int* sub_black, int n_sub);
// The output in centipawns for the side whose perspective is `us`.
Value output(const Network& net, const Accumulator& acc, Color us);

// The same arithmetic without SIMD: equal to the functions above bit for bit (tested).
namespace scalar {
void update(const Network& net, Accumulator& acc, const int* add_white, const int* add_black, int n_add,
            const int* sub_white, const int* sub_black, int n_sub);
Value output(const Network& net, const Accumulator& acc, Color us);
}  // namespace scalar

// One per Evaluator (so per search thread): the accumulator of the last evaluated position and its pieces.
class NnueState {
public:
    // The network's score of pos, centipawns from the side to move's view.
    Value evaluate(const Network& net, const Position& pos);
    // The accumulator as it stands after the last evaluate() (the tests compare it with a refresh).
    const Accumulator& accumulator() const { return acc_; }
    void reset() { net_ = nullptr; }
    // Counters: evaluations that updated incrementally / refreshed from scratch.
    std::uint64_t updates() const { return updates_; }
    std::uint64_t refreshes() const { return refreshes_; }

private:
    const Network* net_ = nullptr;  // the net acc_ belongs to (another net: refresh)
    Bitboard pieces_[COLOR_NB][PIECE_TYPE_NB] = {};
    Accumulator acc_;
    std::uint64_t updates_ = 0, refreshes_ = 0;
};

}  // namespace quince::eval::nnue
