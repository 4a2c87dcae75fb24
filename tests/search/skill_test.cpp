// Weakened play (search/skill.h): the level map, the seeded choice among the lines, the engine's limits.
#include <gtest/gtest.h>

#include <set>

#include "search/search.h"
#include "search/skill.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::search;

TEST(Skill, EloMapsOntoTheWeakenedLevels) {
    EXPECT_EQ(elo_to_skill_level(SKILL_ELO_MIN), 0);
    EXPECT_EQ(elo_to_skill_level(SKILL_ELO_MIN - 500), 0);
    EXPECT_EQ(elo_to_skill_level(SKILL_ELO_MAX), SKILL_LEVEL_MAX - 1);
    int prev = 0;
    for (int elo = SKILL_ELO_MIN; elo <= SKILL_ELO_MAX; elo += 10) {
        const int level = elo_to_skill_level(elo);
        EXPECT_GE(level, prev);
        EXPECT_TRUE(skill_enabled(level));
        prev = level;
    }
    EXPECT_FALSE(skill_enabled(SKILL_LEVEL_MAX));
}

TEST(Skill, CalibratedLevelsKeepTheirMeasuredRating) {
    int prev = 0;
    for (const SkillRating& r : SKILL_CALIBRATION) {
        EXPECT_EQ(skill_level_elo(r.level), r.elo);
        // A measured rating asked for gets a level of that rating (the highest of equal ones).
        EXPECT_EQ(skill_level_elo(elo_to_skill_level(r.elo)), r.elo);
        EXPECT_GE(r.elo, prev);  // the rows never fall with the level
        prev = r.elo;
    }
    for (int level = 1; level < SKILL_LEVEL_MAX; ++level) EXPECT_GE(skill_level_elo(level), skill_level_elo(level - 1));
    EXPECT_EQ(elo_to_skill_level(SKILL_ELO_MAX), SKILL_LEVEL_MAX - 1);
    // Between two calibrated levels: the interpolated rating, and the nearest level for a rating asked for.
    EXPECT_EQ(skill_level_elo(2), (SKILL_CALIBRATION[0].elo + SKILL_CALIBRATION[1].elo) / 2);
    EXPECT_EQ(elo_to_skill_level(skill_level_elo(2) + 5), 2);
    EXPECT_EQ(elo_to_skill_level(SKILL_ELO_MAX + 1000), SKILL_LEVEL_MAX - 1);
}

TEST(Skill, FullStrengthPlaysTheBestLine) {
    for (std::uint64_t seed = 0; seed < 100; ++seed) EXPECT_EQ(pick_weakened({10, 9, 8, 7}, SKILL_LEVEL_MAX, seed), 0u);
}

TEST(Skill, LowLevelsChooseAmongCloseLinesReproducibly) {
    const std::vector<Value> scores = {100, 90, -400, 80, 95};  // the fifth is beyond SKILL_LINES
    std::set<std::size_t> chosen;
    for (std::uint64_t seed = 0; seed < 1000; ++seed) {
        const std::size_t i = pick_weakened(scores, 0, seed);
        EXPECT_EQ(i, pick_weakened(scores, 0, seed));  // the same seed, the same choice
        chosen.insert(i);
    }
    // Level 0 gives up to 300 cp: the three close lines are all played sometimes, never the one 500 cp
    // worse, never a line after the first SKILL_LINES.
    EXPECT_EQ(chosen, (std::set<std::size_t>{0, 1, 3}));
    // Level 19 gives up at most 15 cp: only the top two (10 cp apart) are ever chosen.
    chosen.clear();
    for (std::uint64_t seed = 0; seed < 1000; ++seed) chosen.insert(pick_weakened(scores, SKILL_LEVEL_MAX - 1, seed));
    EXPECT_EQ(chosen, (std::set<std::size_t>{0, 1}));
}

TEST(Skill, LostLinesGetNoBonus) {
    // Both lines are mated: the longer resistance (first) is always kept.
    for (std::uint64_t seed = 0; seed < 200; ++seed) EXPECT_EQ(pick_weakened({mated_in(9), mated_in(7)}, 0, seed), 0u);
}

TEST(Skill, WeakenedSearchIsDepthLimitedWithSeveralLines) {
    Engine engine;
    Position pos;
    ASSERT_TRUE(pos.set_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", false));
    Limits limits;
    limits.depth = 12;
    SearchOptions options;
    options.silent = true;
    options.skill_level = 3;
    const SearchResult weak = engine.search(pos, limits, options);
    EXPECT_EQ(weak.depth, skill_depth(3));
    EXPECT_TRUE(weak.best);
    options.skill_level = SKILL_LEVEL_MAX;
    limits.depth = 6;
    EXPECT_EQ(engine.search(pos, limits, options).depth, 6);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
