#include "search/skill.h"

#include <algorithm>
#include <cstdlib>

#include "core/random.h"

namespace quince::search {

static_assert(SKILL_CALIBRATION[0].level == 0 && SKILL_CALIBRATION[std::size(SKILL_CALIBRATION) - 1].level == SKILL_LEVEL_MAX - 1,
              "the calibration spans the weakened levels");

int skill_level_elo(int level) {
    level = std::clamp(level, 0, SKILL_LEVEL_MAX - 1);
    for (std::size_t i = 1; i < std::size(SKILL_CALIBRATION); ++i) {
        const SkillRating lo = SKILL_CALIBRATION[i - 1], hi = SKILL_CALIBRATION[i];
        if (level <= hi.level) return lo.elo + (hi.elo - lo.elo) * (level - lo.level) / (hi.level - lo.level);
    }
    return SKILL_ELO_MAX;
}

int elo_to_skill_level(int elo) {
    elo = std::clamp(elo, SKILL_ELO_MIN, SKILL_ELO_MAX);
    int best = 0;
    for (int level = 1; level < SKILL_LEVEL_MAX; ++level)
        if (std::abs(skill_level_elo(level) - elo) <= std::abs(skill_level_elo(best) - elo)) best = level;
    return best;
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
