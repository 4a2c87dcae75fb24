#include "search/skill.h"

#include <algorithm>

#include "search/random_opening.h"

namespace quince::search {

int elo_to_skill_level(int elo) {
    elo = std::clamp(elo, SKILL_ELO_MIN, SKILL_ELO_MAX);
    return std::min(SKILL_LEVEL_MAX - 1, (elo - SKILL_ELO_MIN) * SKILL_LEVEL_MAX / (SKILL_ELO_MAX - SKILL_ELO_MIN));
}

std::size_t pick_weakened(const std::vector<Value>& scores, int level, std::uint64_t seed) {
    if (scores.empty() || !skill_enabled(level)) return 0;
    const std::uint64_t spread = std::uint64_t(SKILL_LEVEL_MAX - std::clamp(level, 0, SKILL_LEVEL_MAX)) * SKILL_SPREAD_PER_LEVEL;
    SplitMix64 rng(seed);
    const std::size_t lines = std::min<std::size_t>(scores.size(), SKILL_LINES);
    std::size_t best = 0;
    std::int64_t best_total = 0;
    for (std::size_t i = 0; i < lines; ++i) {
        const std::int64_t bonus = std::int64_t(rng.below(spread + 1));
        // A lost line (mated, tablebase loss) gets no bonus: no level throws away a game it is not losing.
        const bool lost = scores[i] <= VALUE_TB_LOSS_IN_MAX_PLY;
        const std::int64_t total = std::int64_t(scores[i]) + (lost ? 0 : bonus);
        if (i == 0 || total > best_total) best = i, best_total = total;
    }
    return best;
}

}  // namespace quince::search
