// Accumulator updates and the output layer, with SIMD chosen at build time by the CPU variant's flags
// (bmi2 builds get -mavx2, popcnt builds -msse4.1, x86-64 has SSE2, WebAssembly builds -msimd128; see
// CMakeLists.txt) and a scalar path. All compute exactly the same integers: the loader's bounds
// (network.cpp) keep every int16 sum and every activation x weight product in range, the SIMD lanes' int32
// partial sums cannot overflow (the narrowest, SSE2's and SIMD128's four lanes, each add HIDDEN / 2
// products of at most QA * QA * MAX_OUT_WEIGHT: checked below), and the lanes are added in 64 bits, as the
// scalar path sums.
#include "eval/nnue/accumulator.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#if defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#endif

namespace quince::eval::nnue {

static_assert(std::int64_t(HIDDEN / 2) * QA * QA * MAX_OUT_WEIGHT <= INT32_MAX,
              "an int32 SIMD lane of the output layer could overflow");

namespace {

// The output from the 64-bit sum of clamp(a)^2 * w over both perspectives: / QA (back to QA * QB units),
// the bias, then centipawns, rounded to the nearest (truncation would cost half a centipawn on average).
Value finish(const Network& net, std::int64_t sum) {
    const std::int64_t out = (sum / QA + net.out_bias) * SCALE;
    constexpr std::int64_t D = std::int64_t(QA) * QB;
    return Value(out >= 0 ? (out + D / 2) / D : -((-out + D / 2) / D));
}

}  // namespace

namespace scalar {

void update(const Network& net, const Accumulator& from, Accumulator& to, const int* add_white,
            const int* add_black, int n_add, const int* sub_white, const int* sub_black, int n_sub) {
    if (&from != &to) to = from;
    for (Color p : {WHITE, BLACK}) {
        const int* add = p == WHITE ? add_white : add_black;
        const int* sub = p == WHITE ? sub_white : sub_black;
        std::int16_t* a = to.v[p];
        // Subtractions first: every intermediate sum is then a subset of the old or of the new pieces, which
        // the loader's bound covers.
        for (int k = 0; k < n_sub; ++k) {
            const std::int16_t* w = net.ft_weights + std::size_t(sub[k]) * HIDDEN;
            for (int i = 0; i < HIDDEN; ++i) a[i] = std::int16_t(a[i] - w[i]);
        }
        for (int k = 0; k < n_add; ++k) {
            const std::int16_t* w = net.ft_weights + std::size_t(add[k]) * HIDDEN;
            for (int i = 0; i < HIDDEN; ++i) a[i] = std::int16_t(a[i] + w[i]);
        }
    }
}

Value output(const Network& net, const Accumulator& acc, Color us) {
    std::int64_t sum = 0;
    for (int side = 0; side < 2; ++side) {
        const std::int16_t* a = acc.v[side == 0 ? us : ~us];
        const std::int16_t* w = net.out_weights + side * HIDDEN;
        for (int i = 0; i < HIDDEN; ++i) {
            const std::int64_t x = std::clamp<int>(a[i], 0, QA);
            sum += x * x * w[i];
        }
    }
    return finish(net, sum);
}

}  // namespace scalar

#if defined(__AVX2__)

const char* simd_name() { return "avx2"; }

void update(const Network& net, const Accumulator& from, Accumulator& to, const int* add_white,
            const int* add_black, int n_add, const int* sub_white, const int* sub_black, int n_sub) {
    // A tile of REGS registers stays in registers while every changed column is applied to it, so each
    // weight vector costs one load-and-add, and the accumulator is read and written once.
    constexpr int LANES = 16, REGS = 8, TILE = LANES * REGS;
    static_assert(HIDDEN % TILE == 0);
    for (Color p : {WHITE, BLACK}) {
        const int* add = p == WHITE ? add_white : add_black;
        const int* sub = p == WHITE ? sub_white : sub_black;
        for (int t = 0; t < HIDDEN; t += TILE) {
            __m256i x[REGS];
            for (int r = 0; r < REGS; ++r)
                x[r] = _mm256_load_si256(reinterpret_cast<const __m256i*>(from.v[p] + t) + r);
            for (int k = 0; k < n_sub; ++k) {
                const auto* w = reinterpret_cast<const __m256i*>(net.ft_weights + std::size_t(sub[k]) * HIDDEN + t);
                for (int r = 0; r < REGS; ++r) x[r] = _mm256_sub_epi16(x[r], _mm256_load_si256(w + r));
            }
            for (int k = 0; k < n_add; ++k) {
                const auto* w = reinterpret_cast<const __m256i*>(net.ft_weights + std::size_t(add[k]) * HIDDEN + t);
                for (int r = 0; r < REGS; ++r) x[r] = _mm256_add_epi16(x[r], _mm256_load_si256(w + r));
            }
            for (int r = 0; r < REGS; ++r) _mm256_store_si256(reinterpret_cast<__m256i*>(to.v[p] + t) + r, x[r]);
        }
    }
}

Value output(const Network& net, const Accumulator& acc, Color us) {
    const __m256i zero = _mm256_setzero_si256(), qa = _mm256_set1_epi16(QA);
    __m256i sum = _mm256_setzero_si256();
    for (int side = 0; side < 2; ++side) {
        const std::int16_t* a = acc.v[side == 0 ? us : ~us];
        const std::int16_t* w = net.out_weights + side * HIDDEN;
        for (int i = 0; i < HIDDEN; i += 16) {
            __m256i x = _mm256_load_si256(reinterpret_cast<const __m256i*>(a + i));
            x = _mm256_min_epi16(_mm256_max_epi16(x, zero), qa);
            const __m256i xw = _mm256_mullo_epi16(x, _mm256_load_si256(reinterpret_cast<const __m256i*>(w + i)));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(xw, x));
        }
    }
    std::int32_t lanes[8];  // unaligned store: no over-aligned stack object (MinGW does not align them)
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes), sum);
    std::int64_t total = 0;
    for (std::int32_t l : lanes) total += l;
    return finish(net, total);
}

#elif defined(__SSE2__)

const char* simd_name() { return "sse2"; }

void update(const Network& net, const Accumulator& from, Accumulator& to, const int* add_white,
            const int* add_black, int n_add, const int* sub_white, const int* sub_black, int n_sub) {
    constexpr int LANES = 8, REGS = 8, TILE = LANES * REGS;  // tiled as the AVX2 code is
    static_assert(HIDDEN % TILE == 0);
    for (Color p : {WHITE, BLACK}) {
        const int* add = p == WHITE ? add_white : add_black;
        const int* sub = p == WHITE ? sub_white : sub_black;
        for (int t = 0; t < HIDDEN; t += TILE) {
            __m128i x[REGS];
            for (int r = 0; r < REGS; ++r) x[r] = _mm_load_si128(reinterpret_cast<const __m128i*>(from.v[p] + t) + r);
            for (int k = 0; k < n_sub; ++k) {
                const auto* w = reinterpret_cast<const __m128i*>(net.ft_weights + std::size_t(sub[k]) * HIDDEN + t);
                for (int r = 0; r < REGS; ++r) x[r] = _mm_sub_epi16(x[r], _mm_load_si128(w + r));
            }
            for (int k = 0; k < n_add; ++k) {
                const auto* w = reinterpret_cast<const __m128i*>(net.ft_weights + std::size_t(add[k]) * HIDDEN + t);
                for (int r = 0; r < REGS; ++r) x[r] = _mm_add_epi16(x[r], _mm_load_si128(w + r));
            }
            for (int r = 0; r < REGS; ++r) _mm_store_si128(reinterpret_cast<__m128i*>(to.v[p] + t) + r, x[r]);
        }
    }
}

Value output(const Network& net, const Accumulator& acc, Color us) {
    const __m128i zero = _mm_setzero_si128(), qa = _mm_set1_epi16(QA);
    __m128i sum = _mm_setzero_si128();
    for (int side = 0; side < 2; ++side) {
        const std::int16_t* a = acc.v[side == 0 ? us : ~us];
        const std::int16_t* w = net.out_weights + side * HIDDEN;
        for (int i = 0; i < HIDDEN; i += 8) {
            __m128i x = _mm_load_si128(reinterpret_cast<const __m128i*>(a + i));
            x = _mm_min_epi16(_mm_max_epi16(x, zero), qa);
            const __m128i xw = _mm_mullo_epi16(x, _mm_load_si128(reinterpret_cast<const __m128i*>(w + i)));
            sum = _mm_add_epi32(sum, _mm_madd_epi16(xw, x));
        }
    }
    std::int32_t lanes[4];
    _mm_storeu_si128(reinterpret_cast<__m128i*>(lanes), sum);
    std::int64_t total = 0;
    for (std::int32_t l : lanes) total += l;
    return finish(net, total);
}

#elif defined(__wasm_simd128__)

// WebAssembly's 128-bit SIMD: the SSE2 code's arithmetic, lane for lane (i16x8 add/sub/mul wrap as
// _mm_add/sub/mullo_epi16 do; i32x4.dot_i16x8_s is _mm_madd_epi16).
const char* simd_name() { return "simd128"; }

void update(const Network& net, const Accumulator& from, Accumulator& to, const int* add_white,
            const int* add_black, int n_add, const int* sub_white, const int* sub_black, int n_sub) {
    constexpr int LANES = 8, REGS = 8, TILE = LANES * REGS;  // tiled as the AVX2 code is
    static_assert(HIDDEN % TILE == 0);
    for (Color p : {WHITE, BLACK}) {
        const int* add = p == WHITE ? add_white : add_black;
        const int* sub = p == WHITE ? sub_white : sub_black;
        for (int t = 0; t < HIDDEN; t += TILE) {
            v128_t x[REGS];
            for (int r = 0; r < REGS; ++r) x[r] = wasm_v128_load(from.v[p] + t + r * LANES);
            for (int k = 0; k < n_sub; ++k) {
                const std::int16_t* w = net.ft_weights + std::size_t(sub[k]) * HIDDEN + t;
                for (int r = 0; r < REGS; ++r) x[r] = wasm_i16x8_sub(x[r], wasm_v128_load(w + r * LANES));
            }
            for (int k = 0; k < n_add; ++k) {
                const std::int16_t* w = net.ft_weights + std::size_t(add[k]) * HIDDEN + t;
                for (int r = 0; r < REGS; ++r) x[r] = wasm_i16x8_add(x[r], wasm_v128_load(w + r * LANES));
            }
            for (int r = 0; r < REGS; ++r) wasm_v128_store(to.v[p] + t + r * LANES, x[r]);
        }
    }
}

Value output(const Network& net, const Accumulator& acc, Color us) {
    const v128_t zero = wasm_i16x8_splat(0), qa = wasm_i16x8_splat(QA);
    v128_t sum = wasm_i32x4_splat(0);
    for (int side = 0; side < 2; ++side) {
        const std::int16_t* a = acc.v[side == 0 ? us : ~us];
        const std::int16_t* w = net.out_weights + side * HIDDEN;
        for (int i = 0; i < HIDDEN; i += 8) {
            const v128_t x = wasm_i16x8_min(wasm_i16x8_max(wasm_v128_load(a + i), zero), qa);
            const v128_t xw = wasm_i16x8_mul(x, wasm_v128_load(w + i));
            sum = wasm_i32x4_add(sum, wasm_i32x4_dot_i16x8(xw, x));
        }
    }
    const std::int64_t total = std::int64_t(wasm_i32x4_extract_lane(sum, 0)) + wasm_i32x4_extract_lane(sum, 1) +
                               wasm_i32x4_extract_lane(sum, 2) + wasm_i32x4_extract_lane(sum, 3);
    return finish(net, total);
}

#else

const char* simd_name() { return "scalar"; }

void update(const Network& net, const Accumulator& from, Accumulator& to, const int* add_white,
            const int* add_black, int n_add, const int* sub_white, const int* sub_black, int n_sub) {
    scalar::update(net, from, to, add_white, add_black, n_add, sub_white, sub_black, n_sub);
}

Value output(const Network& net, const Accumulator& acc, Color us) { return scalar::output(net, acc, us); }

#endif

void refresh(const Network& net, const Position& pos, Accumulator& acc) {
    int white[64], black[64], n = 0;
    for (Bitboard b = pos.pieces(); b && n < 64;) {
        const Square s = pop_lsb(b);
        const Piece pc = pos.piece_on(s);
        white[n] = feature_index(WHITE, color_of(pc), type_of(pc), s);
        black[n] = feature_index(BLACK, color_of(pc), type_of(pc), s);
        ++n;
    }
    for (Color p : {WHITE, BLACK}) std::memcpy(acc.v[p], net.ft_bias, sizeof net.ft_bias);
    update(net, acc, acc, white, black, n, nullptr, nullptr, 0);
}

void NnueState::reset() {
    for (int i = 0; i < SLOTS; ++i) slots_[i].net = nullptr;
}

Value NnueState::evaluate(const Network& net, const Position& pos) {
    Bitboard now[COLOR_NB][PIECE_TYPE_NB] = {};
    for (Color c : {WHITE, BLACK})
        for (PieceType pt = PAWN; pt <= KING; pt = PieceType(pt + 1)) now[c][pt] = pos.pieces(c, pt);
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
        refresh(net, pos, dst.acc);
        ++refreshes_;
    } else {
        const Slot& src = slots_[best];
        int add_w[MAX_CHANGES], add_b[MAX_CHANGES], sub_w[MAX_CHANGES], sub_b[MAX_CHANGES];
        int n_add = 0, n_sub = 0;
        for (Color c : {WHITE, BLACK}) {
            for (PieceType pt = PAWN; pt <= KING; pt = PieceType(pt + 1)) {
                const Bitboard before = src.pieces[c][pt];
                for (Bitboard b = before & ~now[c][pt]; b;) {
                    const Square s = pop_lsb(b);
                    sub_w[n_sub] = feature_index(WHITE, c, pt, s);
                    sub_b[n_sub++] = feature_index(BLACK, c, pt, s);
                }
                for (Bitboard b = now[c][pt] & ~before; b;) {
                    const Square s = pop_lsb(b);
                    add_w[n_add] = feature_index(WHITE, c, pt, s);
                    add_b[n_add++] = feature_index(BLACK, c, pt, s);
                }
            }
        }
        if (n_add + n_sub || &src != &dst) update(net, src.acc, dst.acc, add_w, add_b, n_add, sub_w, sub_b, n_sub);
        ++updates_;
        changed_inputs_ += std::uint64_t(n_add + n_sub);
    }
    dst.net = &net;
    std::memcpy(dst.pieces, now, sizeof now);
    last_ = ply;
    return output(net, dst.acc, pos.side_to_move());
}

}  // namespace quince::eval::nnue
