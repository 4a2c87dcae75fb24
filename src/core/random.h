// SplitMix64: the project's one small pseudo-random generator. Its sequence depends only on the seed — the
// same on every platform and standard library — so Zobrist keys, seeded openings (`genfens`, datagen) and
// the weakened play of Skill Level come out the same on every run.
#pragma once

#include <cstdint>

namespace quince {

class SplitMix64 {
public:
    explicit constexpr SplitMix64(std::uint64_t seed) : state_(seed) {}

    constexpr std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    // 0 … n-1 (the modulo bias is negligible for the small n used here); 0 when n is 0.
    constexpr std::uint64_t below(std::uint64_t n) { return n ? next() % n : 0; }

private:
    std::uint64_t state_;
};

}  // namespace quince
