// Playing below full strength (UCI `Skill Level`, `UCI_LimitStrength` + `UCI_Elo`). A weakened level L
// (0..19) searches at most 1 + L plies with at least SKILL_LINES principal variations and plays the line
// whose score plus a seeded random bonus is highest: the bonus of each line is drawn from
// 0..(20 - L) * SKILL_SPREAD_PER_LEVEL centipawns, so a lower level gives up more. The seed is the root
// position's key: the same position at the same level is answered with the same move (reproducible tests
// and games), different positions draw differently. Level 20 is full strength (none of this happens).
#pragma once

#include <cstdint>
#include <vector>

#include "core/types.h"

namespace quince::search {

inline constexpr int SKILL_LEVEL_MAX = 20;
inline constexpr int SKILL_LINES = 4;
inline constexpr int SKILL_SPREAD_PER_LEVEL = 15;  // centipawns: level 0 may give up to 3 pawns
// UCI_Elo range and its linear map onto levels 0..19. Provisional: the table measuring each level's
// rating against fixed opponents is pending (bench/calibrate_elo.sh).
inline constexpr int SKILL_ELO_MIN = 1000, SKILL_ELO_MAX = 2600;

constexpr bool skill_enabled(int level) { return level < SKILL_LEVEL_MAX; }
constexpr int skill_depth(int level) { return 1 + level; }
// UCI_Elo (clamped to the range) -> level 0..19.
int elo_to_skill_level(int elo);
// Index of the line to play among `scores` (root move scores, best first; only the first SKILL_LINES
// count). Mate scores keep their order: the bonus never turns a mated line into a choice over a non-mated one.
std::size_t pick_weakened(const std::vector<Value>& scores, int level, std::uint64_t seed);

}  // namespace quince::search
