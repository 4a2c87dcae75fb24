// The SIMD layer under the network's integer code: the few operations the accumulator update and the
// output need, for each instruction set the build may target, and the two kernels written once over them.
// The instruction set is chosen at build time from the target's flags (CMakeLists.txt's CPU variants):
// AVX2 (`bmi2` builds, -mavx2), SSE2 (x86-64 and `popcnt` builds: SSE4.1 adds nothing the code needs),
// WebAssembly SIMD128 (emscripten, -msimd128), ARM NEON (every AArch64 CPU) and, without any of these,
// `Scalar`, which computes lane by lane what the others compute in one instruction. Every backend computes
// exactly the same integers: int16 sums wrap alike (the loader's bounds keep them in range anyway), the
// output's products fit int16 and int32 as the static_asserts below check, and the int32 lanes are added
// in 64 bits. The tests compare the build's backend with Scalar and with plain loops (accumulator.h,
// reference::).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "eval/nnue/architecture.h"

#if defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#elif defined(__wasm_simd128__)
#include <wasm_simd128.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace quince::eval::nnue::simd {

// A backend: LANES int16 lanes per vector (I16), LANES / 2 int32 lanes (I32), REGS vectors an update tile
// keeps in registers. Loads and stores are of aligned memory (the net's rows and the accumulators are).
struct Scalar {
    static constexpr const char* NAME = "scalar";
    static constexpr int LANES = 8, REGS = 8;
    struct I16 { std::int16_t x[LANES]; };
    struct I32 { std::int32_t x[LANES / 2]; };
    static I16 load(const std::int16_t* p) {
        I16 v;
        std::memcpy(v.x, p, sizeof v.x);
        return v;
    }
    static void store(std::int16_t* p, const I16& v) { std::memcpy(p, v.x, sizeof v.x); }
    static I16 splat(int a) {
        I16 v;
        for (auto& x : v.x) x = std::int16_t(a);
        return v;
    }
    static I16 add(I16 a, const I16& b) {
        for (int i = 0; i < LANES; ++i) a.x[i] = std::int16_t(a.x[i] + b.x[i]);
        return a;
    }
    static I16 sub(I16 a, const I16& b) {
        for (int i = 0; i < LANES; ++i) a.x[i] = std::int16_t(a.x[i] - b.x[i]);
        return a;
    }
    static I16 max(I16 a, const I16& b) {
        for (int i = 0; i < LANES; ++i) a.x[i] = a.x[i] > b.x[i] ? a.x[i] : b.x[i];
        return a;
    }
    static I16 min(I16 a, const I16& b) {
        for (int i = 0; i < LANES; ++i) a.x[i] = a.x[i] < b.x[i] ? a.x[i] : b.x[i];
        return a;
    }
    static I16 mul_lo(I16 a, const I16& b) {  // the low 16 bits of each product
        for (int i = 0; i < LANES; ++i) a.x[i] = std::int16_t(a.x[i] * b.x[i]);
        return a;
    }
    // Products of adjacent lanes, summed in pairs into int32 lanes (pmaddwd).
    static I32 madd(const I16& a, const I16& b) {
        I32 r;
        for (int i = 0; i < LANES / 2; ++i)
            r.x[i] = std::int32_t(a.x[2 * i]) * b.x[2 * i] + std::int32_t(a.x[2 * i + 1]) * b.x[2 * i + 1];
        return r;
    }
    static I32 zero32() { return I32{}; }
    static I32 add32(I32 a, const I32& b) {
        for (int i = 0; i < LANES / 2; ++i) a.x[i] += b.x[i];
        return a;
    }
    static std::int64_t sum64(const I32& v) {
        std::int64_t s = 0;
        for (std::int32_t x : v.x) s += x;
        return s;
    }
};

// x86: SSE2 in every x86-64 build, AVX2 in the bmi2 variant's. An AVX2 build compiles both (the tests
// compare each with the scalar code); the widest is the build's.
#if defined(__SSE2__)

struct Sse2 {
    static constexpr const char* NAME = "sse2";
    static constexpr int LANES = 8, REGS = 8;
    using I16 = __m128i;
    using I32 = __m128i;
    static I16 load(const std::int16_t* p) { return _mm_load_si128(reinterpret_cast<const __m128i*>(p)); }
    static void store(std::int16_t* p, I16 v) { _mm_store_si128(reinterpret_cast<__m128i*>(p), v); }
    static I16 splat(int a) { return _mm_set1_epi16(short(a)); }
    static I16 add(I16 a, I16 b) { return _mm_add_epi16(a, b); }
    static I16 sub(I16 a, I16 b) { return _mm_sub_epi16(a, b); }
    static I16 max(I16 a, I16 b) { return _mm_max_epi16(a, b); }
    static I16 min(I16 a, I16 b) { return _mm_min_epi16(a, b); }
    static I16 mul_lo(I16 a, I16 b) { return _mm_mullo_epi16(a, b); }
    static I32 madd(I16 a, I16 b) { return _mm_madd_epi16(a, b); }
    static I32 zero32() { return _mm_setzero_si128(); }
    static I32 add32(I32 a, I32 b) { return _mm_add_epi32(a, b); }
    static std::int64_t sum64(I32 v) {
        std::int32_t lanes[4];
        _mm_storeu_si128(reinterpret_cast<__m128i*>(lanes), v);
        return std::int64_t(lanes[0]) + lanes[1] + lanes[2] + lanes[3];
    }
};

#endif

#if defined(__AVX2__)

struct Avx2 {
    static constexpr const char* NAME = "avx2";
    static constexpr int LANES = 16, REGS = 8;
    using I16 = __m256i;
    using I32 = __m256i;
    static I16 load(const std::int16_t* p) { return _mm256_load_si256(reinterpret_cast<const __m256i*>(p)); }
    static void store(std::int16_t* p, I16 v) { _mm256_store_si256(reinterpret_cast<__m256i*>(p), v); }
    static I16 splat(int a) { return _mm256_set1_epi16(short(a)); }
    static I16 add(I16 a, I16 b) { return _mm256_add_epi16(a, b); }
    static I16 sub(I16 a, I16 b) { return _mm256_sub_epi16(a, b); }
    static I16 max(I16 a, I16 b) { return _mm256_max_epi16(a, b); }
    static I16 min(I16 a, I16 b) { return _mm256_min_epi16(a, b); }
    static I16 mul_lo(I16 a, I16 b) { return _mm256_mullo_epi16(a, b); }
    static I32 madd(I16 a, I16 b) { return _mm256_madd_epi16(a, b); }
    static I32 zero32() { return _mm256_setzero_si256(); }
    static I32 add32(I32 a, I32 b) { return _mm256_add_epi32(a, b); }
    static std::int64_t sum64(I32 v) {
        std::int32_t lanes[8];  // unaligned store: no over-aligned stack object (MinGW does not align them)
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(lanes), v);
        std::int64_t s = 0;
        for (std::int32_t l : lanes) s += l;
        return s;
    }
};
using Native = Avx2;

#elif defined(__SSE2__)

using Native = Sse2;

#elif defined(__wasm_simd128__)

// SSE2's operations lane for lane: i16x8 add/sub/mul wrap as _mm_add/sub/mullo_epi16 do, and
// i32x4.dot_i16x8_s is _mm_madd_epi16.
struct Simd128 {
    static constexpr const char* NAME = "simd128";
    static constexpr int LANES = 8, REGS = 8;
    using I16 = v128_t;
    using I32 = v128_t;
    static I16 load(const std::int16_t* p) { return wasm_v128_load(p); }
    static void store(std::int16_t* p, I16 v) { wasm_v128_store(p, v); }
    static I16 splat(int a) { return wasm_i16x8_splat(std::int16_t(a)); }
    static I16 add(I16 a, I16 b) { return wasm_i16x8_add(a, b); }
    static I16 sub(I16 a, I16 b) { return wasm_i16x8_sub(a, b); }
    static I16 max(I16 a, I16 b) { return wasm_i16x8_max(a, b); }
    static I16 min(I16 a, I16 b) { return wasm_i16x8_min(a, b); }
    static I16 mul_lo(I16 a, I16 b) { return wasm_i16x8_mul(a, b); }
    static I32 madd(I16 a, I16 b) { return wasm_i32x4_dot_i16x8(a, b); }
    static I32 zero32() { return wasm_i32x4_splat(0); }
    static I32 add32(I32 a, I32 b) { return wasm_i32x4_add(a, b); }
    static std::int64_t sum64(I32 v) {
        return std::int64_t(wasm_i32x4_extract_lane(v, 0)) + wasm_i32x4_extract_lane(v, 1) +
               wasm_i32x4_extract_lane(v, 2) + wasm_i32x4_extract_lane(v, 3);
    }
};
using Native = Simd128;

#elif defined(__ARM_NEON) && defined(__aarch64__)

// AArch64's Advanced SIMD: 32 vector registers, so an update tile holds 16 of them. madd is two widening
// multiplies and a pairwise add (the same pairs as pmaddwd); sum64 adds the int32 lanes widened.
struct Neon {
    static constexpr const char* NAME = "neon";
    static constexpr int LANES = 8, REGS = 16;
    using I16 = int16x8_t;
    using I32 = int32x4_t;
    static I16 load(const std::int16_t* p) { return vld1q_s16(p); }
    static void store(std::int16_t* p, I16 v) { vst1q_s16(p, v); }
    static I16 splat(int a) { return vdupq_n_s16(std::int16_t(a)); }
    static I16 add(I16 a, I16 b) { return vaddq_s16(a, b); }
    static I16 sub(I16 a, I16 b) { return vsubq_s16(a, b); }
    static I16 max(I16 a, I16 b) { return vmaxq_s16(a, b); }
    static I16 min(I16 a, I16 b) { return vminq_s16(a, b); }
    static I16 mul_lo(I16 a, I16 b) { return vmulq_s16(a, b); }
    static I32 madd(I16 a, I16 b) {
        return vpaddq_s32(vmull_s16(vget_low_s16(a), vget_low_s16(b)), vmull_high_s16(a, b));
    }
    static I32 zero32() { return vdupq_n_s32(0); }
    static I32 add32(I32 a, I32 b) { return vaddq_s32(a, b); }
    static std::int64_t sum64(I32 v) { return vaddlvq_s32(v); }
};
using Native = Neon;

#else

using Native = Scalar;
#define QUINCE_NNUE_NATIVE_IS_SCALAR 1

#endif

// to = from + the weight rows `add` - the rows `sub` (H int16 each, rows of `weights`), subtractions first
// (every intermediate sum is then a subset of the old or of the new pieces, which the loader's bound
// covers). A tile of REGS vectors stays in registers while every row is applied to it, so each weight
// vector costs one load and one add, and the accumulator is read and written once; `from` may be `to`.
template <class S, int H>
inline void add_sub_rows(const std::int16_t* weights, const std::int16_t* from, std::int16_t* to, const int* add,
                         int n_add, const int* sub, int n_sub) {
    static_assert(H % S::LANES == 0);
    constexpr int TILE = S::LANES * S::REGS;
    auto tile = [&]<int N>(int t, std::integral_constant<int, N>) {
        typename S::I16 x[N];
        for (int r = 0; r < N; ++r) x[r] = S::load(from + t + r * S::LANES);
        for (int k = 0; k < n_sub; ++k) {
            const std::int16_t* w = weights + std::size_t(sub[k]) * H + t;
            for (int r = 0; r < N; ++r) x[r] = S::sub(x[r], S::load(w + r * S::LANES));
        }
        for (int k = 0; k < n_add; ++k) {
            const std::int16_t* w = weights + std::size_t(add[k]) * H + t;
            for (int r = 0; r < N; ++r) x[r] = S::add(x[r], S::load(w + r * S::LANES));
        }
        for (int r = 0; r < N; ++r) S::store(to + t + r * S::LANES, x[r]);
    };
    int t = 0;
    for (; t + TILE <= H; t += TILE) tile(t, std::integral_constant<int, S::REGS>{});
    if constexpr (H % TILE != 0) tile(t, std::integral_constant<int, (H % TILE) / S::LANES>{});
}

// Sum over both perspectives of clamp(acc, 0, QA)^2 * w (the side to move's accumulator `us` with the
// first H weights, the other's `them` with the next H), in 64 bits. clamp(a)^2 * w is computed as
// (clamp(a) * w) * clamp(a): the first product fits int16 (|w| <= 32767 / QA, the loader's bound), the
// second is pmaddwd's. An int32 lane adds 2 products per vector of LANES; it is added into the 64-bit sum
// after both perspectives when that cannot overflow, else after each.
template <class S, int H, int QA>
inline std::int64_t screlu_dot(const std::int16_t* us, const std::int16_t* them, const std::int16_t* w) {
    constexpr std::int64_t LARGEST = std::int64_t(QA) * QA * max_out_weight<QA>;
    constexpr std::int64_t PER_LANE = 2 * H / S::LANES;  // products a lane adds over one perspective
    static_assert(PER_LANE * LARGEST <= INT32_MAX, "an int32 lane of the output could overflow");
    constexpr bool ONE_SUM = 2 * PER_LANE * LARGEST <= INT32_MAX;
    const auto zero = S::splat(0), qa = S::splat(QA);
    auto side = [&](const std::int16_t* a, const std::int16_t* ws, typename S::I32 sum) {
        for (int i = 0; i < H; i += S::LANES) {
            const auto x = S::min(S::max(S::load(a + i), zero), qa);
            sum = S::add32(sum, S::madd(S::mul_lo(x, S::load(ws + i)), x));
        }
        return sum;
    };
    if constexpr (ONE_SUM) {
        return S::sum64(side(them, w + H, side(us, w, S::zero32())));
    } else {
        return S::sum64(side(us, w, S::zero32())) + S::sum64(side(them, w + H, S::zero32()));
    }
}

}  // namespace quince::eval::nnue::simd
