// The network's description, read by the engine (inference and the net file), the trainer (its float
// forward and backward pass) and the quantiser: the input encoding, the layer sizes, the activation, the
// quantisation constants and the output buckets. Every architecture the build knows is a struct below and
// an entry of QUINCE_NNUE_ARCHITECTURES; a net file's header names its architecture, so a net of any of them loads,
// and `quince train-nnue --arch NAME` trains any of them. A new architecture is a struct and an entry here
// (and a test: tests/eval/nnue_test.cpp, tests/tools/nnue_train_test.cpp); src/eval/nnue/README.md says how.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "core/types.h"

namespace quince::eval::nnue {

// The inputs: one per (piece colour relative to the perspective, piece type, square seen from the
// perspective, Black's board flipped vertically), 2 x 6 x 64 = 768 per perspective, one per piece active.
// The trainer keeps a position as its White-perspective indices (tools/nnue/trainer.h, Sample) and derives
// the other perspective and the mirror image from them here.
struct PieceSquareInputs {
    static constexpr int SIZE = 768;
    static constexpr int MAX_ACTIVE = 32;  // pieces on the board, so inputs active per perspective

    // Own pieces first, squares from that side's view, so the network sees every position as the side
    // to move's and a position and its colour-flipped twin score the same.
    static constexpr int index(Color perspective, Color piece_color, PieceType pt, Square s) {
        const int relative = piece_color == perspective ? 0 : 6;
        const int sq = perspective == WHITE ? int(s) : int(s) ^ 56;
        return ((relative + int(pt) - 1) << 6) | sq;
    }
    // The Black-perspective index of a White-perspective input: colours swapped, board flipped.
    static constexpr int other_perspective(int white) {
        const int piece = white >> 6, sq = white & 63;
        return ((piece < 6 ? piece + 6 : piece - 6) << 6) | (sq ^ 56);
    }
    // The input of the same piece mirrored left to right (files a <-> h), from either perspective: the
    // inputs carry no castling rights, so a mirrored position is as true a sample (train-nnue --mirror).
    static constexpr int mirrored(int input) { return input ^ 7; }
};

// The activation of the hidden layer. SCReLU: clamp(x, 0, 1)^2 (integers: clamp(acc, 0, QA)^2).
enum class Activation : std::uint32_t { SCReLU = 1 };

// The integer bounds of a quantised net with these constants, which the loader enforces so that no int16
// overflows in inference and every SIMD code equals the scalar one: an accumulator is a bias plus at most
// MAX_ACTIVE input weights; the output multiplies a clipped activation (<= QA) by a weight in int16.
template <int QA>
inline constexpr int max_out_weight = 32767 / QA;

// (inputs -> L1) x 2 perspectives -> OUTPUT_BUCKETS outputs, one of which a position uses (bucket()).
// The hidden sums are int16 in units of 1/QA, the output weights in 1/QB, the output biases in 1/(QA*QB);
// the output times SCALE is centipawns, the side to move's view.
template <int L1, int OUTPUT_BUCKETS = 1>
struct PerspectiveNet {
    using Inputs = PieceSquareInputs;
    static constexpr int INPUTS = Inputs::SIZE;
    static constexpr int MAX_ACTIVE = Inputs::MAX_ACTIVE;
    static constexpr int HIDDEN = L1;
    static constexpr int BUCKETS = OUTPUT_BUCKETS;
    static constexpr Activation ACTIVATION = Activation::SCReLU;
    static constexpr int QA = 255;
    static constexpr int QB = 64;
    static constexpr int SCALE = 400;
    static constexpr int MAX_OUT_WEIGHT = max_out_weight<QA>;  // 128

    // Parameter counts: input weights [input][hidden], hidden biases, output weights [bucket][side][hidden]
    // (the side to move's hidden units first), output biases [bucket].
    static constexpr std::size_t FT_WEIGHTS = std::size_t(INPUTS) * HIDDEN;
    static constexpr std::size_t OUT_WEIGHTS = std::size_t(BUCKETS) * 2 * HIDDEN;

    // The output bucket of a position with this many pieces (kings included).
    static constexpr int bucket(int /*pieces*/) { return 0; }

    // The SIMD code works on whole vectors of 16 int16 lanes (AVX2's), and a net's rows are aligned to them.
    static_assert(HIDDEN % 16 == 0, "the hidden layer's width must be a multiple of 16");
    static_assert(BUCKETS >= 1 && BUCKETS <= 32);
};

// ---- The architectures this build knows (names: net file headers, `train-nnue --arch`). ----

// 768 -> 512 x 2 -> 1: the default net's. Net files of format version 1 (whose header has no name) are this.
struct Net768x512 : PerspectiveNet<512> {
    static constexpr std::string_view NAME = "768x512";
};

// 768 -> 512 x 2 -> 8 output buckets by the number of pieces (kings included): (pieces - 2) / 4, so bucket 0
// holds 2 to 5 pieces and bucket 7 30 to 32. Not the default: a net of it must first win its match.
struct Net768x512Buckets8 : PerspectiveNet<512, 8> {
    static constexpr std::string_view NAME = "768x512-b8";
    static constexpr int bucket(int pieces) { return std::clamp((pieces - 2) / 4, 0, BUCKETS - 1); }
};

// Every architecture, as X(name): the list Architectures below and the integer code compiled for each
// (eval/nnue/accumulator.cpp) come from it.
#define QUINCE_NNUE_ARCHITECTURES(X) X(Net768x512) X(Net768x512Buckets8)

#define QUINCE_NNUE_TUPLE_ELEMENT(A) std::tuple<A>{},
using Architectures = decltype(std::tuple_cat(QUINCE_NNUE_ARCHITECTURES(QUINCE_NNUE_TUPLE_ELEMENT) std::tuple<>{}));
#undef QUINCE_NNUE_TUPLE_ELEMENT
using DefaultArchitecture = Net768x512;
using FormatVersion1Architecture = Net768x512;  // what a version-1 file holds

// ---- Looking an architecture up, and running code templated on it. ----

inline constexpr int ARCHITECTURE_COUNT = int(std::tuple_size_v<Architectures>);

template <class A>
constexpr int architecture_index() {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        int found = -1;
        ((found = std::is_same_v<A, std::tuple_element_t<I, Architectures>> ? int(I) : found), ...);
        return found;
    }(std::make_index_sequence<ARCHITECTURE_COUNT>{});
}

// f(A{}) for the architecture of index `arch` (0 <= arch < ARCHITECTURE_COUNT): the one run-time choice
// between the code compiled for each architecture.
template <class F>
decltype(auto) with_architecture(int arch, F&& f) {
    return [&]<std::size_t... I>(std::index_sequence<I...>) -> decltype(auto) {
        using R = decltype(f(std::tuple_element_t<0, Architectures>{}));
        if constexpr (std::is_void_v<R>) {
            (void)((arch == int(I) ? (f(std::tuple_element_t<I, Architectures>{}), true) : false) || ...);
        } else {
            R r{};
            (void)((arch == int(I) ? (r = f(std::tuple_element_t<I, Architectures>{}), true) : false) || ...);
            return r;
        }
    }(std::make_index_sequence<ARCHITECTURE_COUNT>{});
}

// The index of the architecture named `name`, -1 for none.
inline int find_architecture(std::string_view name) {
    for (int i = 0; i < ARCHITECTURE_COUNT; ++i)
        if (with_architecture(i, [](auto a) { return decltype(a)::NAME; }) == name) return i;
    return -1;
}

inline std::string_view architecture_name(int arch) {
    return with_architecture(arch, [](auto a) { return decltype(a)::NAME; });
}

// "768x512, ..." (what `--arch` and the loader's messages list).
inline std::string architecture_names() {
    std::string s;
    for (int i = 0; i < ARCHITECTURE_COUNT; ++i) s += (i ? ", " : "") + std::string(architecture_name(i));
    return s;
}

}  // namespace quince::eval::nnue
