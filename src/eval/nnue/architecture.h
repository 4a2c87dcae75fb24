// The network's description, read by the engine (inference and the net file), the trainer (its float
// forward and backward pass) and the quantiser: the input encoding, the layer sizes, the activation, the
// quantisation constants and the output buckets. Every architecture the build knows is a struct below and
// an entry of QUINCE_NNUE_ARCHITECTURES; a net file's header names its architecture, so a net of any of them loads,
// and `quince train-nnue --arch NAME` trains any of them. A new architecture is a struct and an entry here
// (and a test: tests/eval/nnue_test.cpp, tests/tools/nnue_train_test.cpp); src/eval/nnue/README.md says how.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>

#include "core/types.h"

namespace quince::eval::nnue {

// ---- The inputs. ----
// An input encoding is a struct with
//   SIZE, MAX_ACTIVE          inputs per perspective, and how many are active at most (one per piece);
//   VIEWS, view(p, king)      a perspective's view of the board: which of the VIEWS layouts of its inputs
//                             the square of its own king selects (one for inputs that ignore the king); an
//                             accumulator holds the inputs of one view per perspective, and a perspective
//                             whose view changed is refreshed (eval/nnue/accumulator.h, NnueState);
//   index(p, view, colour, type, square)   the input of a piece from perspective p in that view;
//   from_white(p, view, white)            the same from the piece's White-perspective PieceSquareInputs
//                             index, which the trainer keeps of a position (tools/nnue/trainer.h, Sample,
//                             with the kings' squares: mirrored left to right, train-nnue --mirror, it is
//                             a true position whose inputs follow from it);
//   FACTORS, factor(input)    the trainer's factoriser: FACTORS shared inputs (0: none), input's weights
//                             trained as its own plus those of its shared input factor(input), which the
//                             quantiser adds into its own (the engine sees only the sum).

// One input per (piece colour relative to the perspective, piece type, square seen from the perspective,
// Black's board flipped vertically), 2 x 6 x 64 = 768 per perspective, one per piece active; the king's
// square only counts as a piece's. The trainer keeps a position as its White-perspective indices
// (tools/nnue/trainer.h, Sample) and every encoding derives its inputs from them.
struct PieceSquareInputs {
    static constexpr int SIZE = 768;
    static constexpr int MAX_ACTIVE = 32;  // pieces on the board, so inputs active per perspective
    static constexpr int VIEWS = 1;
    static constexpr int FACTORS = 0;

    static constexpr int view(Color /*perspective*/, Square /*king*/) { return 0; }
    // Own pieces first, squares from that side's view, so the network sees every position as the side
    // to move's and a position and its colour-flipped twin score the same.
    static constexpr int index(Color perspective, Color piece_color, PieceType pt, Square s) {
        const int relative = piece_color == perspective ? 0 : 6;
        const int sq = perspective == WHITE ? int(s) : int(s) ^ 56;
        return ((relative + int(pt) - 1) << 6) | sq;
    }
    static constexpr int index(Color perspective, int /*view*/, Color piece_color, PieceType pt, Square s) {
        return index(perspective, piece_color, pt, s);
    }
    // The Black-perspective index of a White-perspective input: colours swapped, board flipped.
    static constexpr int other_perspective(int white) {
        const int piece = white >> 6, sq = white & 63;
        return ((piece < 6 ? piece + 6 : piece - 6) << 6) | (sq ^ 56);
    }
    static constexpr int from_white(Color perspective, int /*view*/, int white) {
        return perspective == WHITE ? white : other_perspective(white);
    }
    // The input of the same piece mirrored left to right (files a <-> h), from either perspective: the
    // inputs carry no castling rights, so a mirrored position is as true a sample (train-nnue --mirror).
    static constexpr int mirrored(int input) { return input ^ 7; }
    static constexpr int factor(int /*input*/) { return 0; }
};

// King buckets, horizontally mirrored: a perspective's own king, seen from that perspective, picks one of
// the buckets of LAYOUT (over the 32 squares of files a-d, a1 b1 c1 d1 a2 ... d8), and when it stands on
// files e-h the perspective's whole board is mirrored left to right first, so that its king is always on
// files a-d (a position and its mirror image score the same). Each bucket has its own PieceSquareInputs:
// BUCKETS x 768 inputs, still one per piece active. View: bucket * 2 + mirrored. The factoriser shares
// each piece-square input (mirrored as its bucket's) over the buckets, so a bucket with few positions
// still learns what all have in common.
template <std::array<std::uint8_t, 32> LAYOUT>
struct KingBucketInputs {
    static constexpr int BUCKETS = [] {
        int most = 0;
        for (std::uint8_t b : LAYOUT) most = std::max(most, int(b));
        return most + 1;
    }();
    static constexpr int SIZE = BUCKETS * PieceSquareInputs::SIZE;
    static constexpr int MAX_ACTIVE = PieceSquareInputs::MAX_ACTIVE;
    static constexpr int VIEWS = 2 * BUCKETS;
    static constexpr int FACTORS = PieceSquareInputs::SIZE;

    static constexpr int view(Color perspective, Square king) {
        const int sq = perspective == WHITE ? int(king) : int(king) ^ 56;
        const bool mirror = (sq & 7) >= 4;
        const int half = (sq >> 3) * 4 + (mirror ? 7 - (sq & 7) : (sq & 7));
        return LAYOUT[std::size_t(half)] * 2 + int(mirror);
    }
    // Mirroring flips the file, the low three bits of a piece-square index.
    static constexpr int from_white(Color perspective, int view, int white) {
        const int ps = PieceSquareInputs::from_white(perspective, 0, white) ^ (view & 1 ? 7 : 0);
        return (view >> 1) * PieceSquareInputs::SIZE + ps;
    }
    static constexpr int index(Color perspective, int view, Color piece_color, PieceType pt, Square s) {
        const int ps = PieceSquareInputs::index(perspective, piece_color, pt, s) ^ (view & 1 ? 7 : 0);
        return (view >> 1) * PieceSquareInputs::SIZE + ps;
    }
    static constexpr int factor(int input) { return input % PieceSquareInputs::SIZE; }
    static_assert(LAYOUT.size() == 32 && BUCKETS >= 1 && BUCKETS <= 32);
};

// The activation of the hidden layer. SCReLU: clamp(x, 0, 1)^2 (integers: clamp(acc, 0, QA)^2).
enum class Activation : std::uint32_t { SCReLU = 1 };

// The integer bounds of a quantised net with these constants, which the loader enforces so that no int16
// overflows in inference and every SIMD code equals the scalar one: an accumulator is a bias plus at most
// MAX_ACTIVE input weights; the output multiplies a clipped activation (<= QA) by a weight in int16.
template <int QA>
inline constexpr int max_out_weight = 32767 / QA;

// (inputs -> L1) x 2 perspectives -> OUTPUT_BUCKETS outputs, one of which a position uses (bucket()); the
// inputs one of the encodings above.
// The hidden sums are int16 in units of 1/QA, the output weights in 1/QB, the output biases in 1/(QA*QB);
// the output times SCALE is centipawns, the side to move's view.
template <int L1, int OUTPUT_BUCKETS = 1, class InputEncoding = PieceSquareInputs>
struct PerspectiveNet {
    using Inputs = InputEncoding;
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

// Four king buckets by the rank of the king, seen from its side: rank 1, rank 2, ranks 3-4, ranks 5-8 (files
// a-d; e-h mirrored). Most positions have the king at home, castled or not, and its rank is what changes
// the position's character most (shelter, then an active king as pieces come off); a rank's files are
// one bucket because mirroring already folds the castled king onto the b/c-files and the uncastled one
// onto d1, and four buckets keep every one populated (the last, rarest, is endgames').
inline constexpr std::array<std::uint8_t, 32> KING_RANKS_4 = {
    0, 0, 0, 0,  // rank 1: a1 b1 c1 d1
    1, 1, 1, 1,  // rank 2
    2, 2, 2, 2,  2, 2, 2, 2,  // ranks 3 and 4
    3, 3, 3, 3,  3, 3, 3, 3,  3, 3, 3, 3,  3, 3, 3, 3};  // ranks 5 to 8

// (4 x 768 -> 512) x 2 -> 1: the default net's layers with the inputs of KING_RANKS_4's king buckets,
// mirrored. Not the default: a net of it must first win its match.
struct Net768x512Kings4 : PerspectiveNet<512, 1, KingBucketInputs<KING_RANKS_4>> {
    static constexpr std::string_view NAME = "768x512-k4";
};

// Every architecture, as X(name): the list Architectures below and the integer code compiled for each
// (eval/nnue/accumulator.cpp) come from it.
#define QUINCE_NNUE_ARCHITECTURES(X) X(Net768x512) X(Net768x512Buckets8) X(Net768x512Kings4)

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
