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

}  // namespace quince::search
