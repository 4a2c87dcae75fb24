// Playing below full strength (UCI `Skill Level`, `UCI_LimitStrength` + `UCI_Elo`). A weakened level L
// (0..19) searches at most 1 + L plies with at least SKILL_LINES principal variations and plays the line
// whose score plus a seeded random bonus is highest: the bonus of each line is drawn from
// 0..(20 - L) * SKILL_SPREAD_PER_LEVEL centipawns, so a lower level gives up more. The seed is the root
// position's key: the same position at the same level is answered with the same move (reproducible tests
// and games), different positions draw differently. Level 20 is full strength (none of this happens).
#pragma once

#include <cstdint>
#include <iterator>
#include <vector>

#include "core/types.h"

namespace quince::search {

inline constexpr int SKILL_LEVEL_MAX = 20;
inline constexpr int SKILL_LINES = 4;
inline constexpr int SKILL_SPREAD_PER_LEVEL = 15;  // centipawns: level 0 may give up to 3 pawns
// Measured ratings of some levels on Stockfish 15.1's UCI_Elo scale (strength/calibrate_elo.sh at 10+0.1,
// 40 games a level, 20 for level 19, against Stockfish limited to a UCI_Elo near it; the table and its
// error bars are in docs/results.md). Levels between two rows are interpolated linearly; the rows
// never fall with the level (16 and 19 measured the same against the same opponent).
struct SkillRating {
    int level;
    int elo;
};
inline constexpr SkillRating SKILL_CALIBRATION[] = {{0, 1122}, {4, 1411}, {8, 1890}, {12, 1973}, {16, 2259}, {19, 2259}};
// UCI_Elo range: the ratings of level 0 and level 19.
inline constexpr int SKILL_ELO_MIN = SKILL_CALIBRATION[0].elo;
inline constexpr int SKILL_ELO_MAX = SKILL_CALIBRATION[std::size(SKILL_CALIBRATION) - 1].elo;

constexpr bool skill_enabled(int level) { return level < SKILL_LEVEL_MAX; }
constexpr int skill_depth(int level) { return 1 + level; }
// The rating of a weakened level 0..19 (interpolated between the calibrated levels).
int skill_level_elo(int level);
// UCI_Elo (clamped to the range) -> the level 0..19 whose rating is nearest; the highest of equal ones.
int elo_to_skill_level(int elo);
// Index of the line to play among `scores` (root move scores, best first; only the first SKILL_LINES
// count). Mate scores keep their order: the bonus never turns a mated line into a choice over a non-mated one.
std::size_t pick_weakened(const std::vector<Value>& scores, int level, std::uint64_t seed);

}  // namespace quince::search
