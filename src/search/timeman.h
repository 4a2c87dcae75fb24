// Time allocation for one move. All times in milliseconds.
#pragma once

#include <cstdint>

#include "core/types.h"

namespace quince::search {

struct TimeInput {
    std::int64_t time_left = -1;  // our clock; < 0 = not given
    std::int64_t increment = 0;
    int moves_to_go = 0;          // 0 = sudden death / increment
    std::int64_t move_time = 0;   // fixed time per move; 0 = not given
    std::int64_t overhead = 30;   // GUI / communication lag to keep in reserve
};

struct TimeBudget {
    std::int64_t hard = 0;  // abort the search at this point
    // The time a move deserves, which the search scales by the best move's stability, the score's fall
    // and the share of the root's nodes the other moves took (Ethereal's rule); at most `hard`.
    std::int64_t ideal = 0;
};

// Both limits are >= 1 and never exceed time_left - overhead, so a search that honours `hard` cannot
// lose on time while the overhead covers the lag. A move time is spent in full: ideal = hard = move_time.
TimeBudget allocate_time(const TimeInput& in);

// What the clock's rule reads after an iteration the main thread completed.
struct IterationInfo {
    int depth = 0;               // the completed depth
    int stable_iterations = 0;   // iterations the best move has stayed the same
    Value score_fall = 0;        // the best score three iterations ago minus now (> 0: falling)
    double best_move_share = 0;  // share of the root's nodes searched below the best move
};

// Ethereal's rule: how long the move may think (ms, pondering included) once that iteration is done: the
// ideal time, longer while the best move changes, the score falls or the other moves take many of the
// root's nodes (the best one is in doubt); the hard limit before depth 4. Never more than `hard`.
double thinking_limit(const TimeBudget& budget, const IterationInfo& iteration);

}  // namespace quince::search
