#include "search/timeman.h"

#include <algorithm>

namespace quince::search {

TimeBudget allocate_time(const TimeInput& in) {
    TimeBudget b;
    if (in.move_time > 0) {
        b.soft = b.hard = std::max<std::int64_t>(1, in.move_time - in.overhead);
        return b;
    }
    // Usable time: what is on the clock minus the safety overhead.
    std::int64_t usable = std::max<std::int64_t>(1, in.time_left - in.overhead);
    int mtg = in.moves_to_go > 0 ? std::min(in.moves_to_go, 50) : 40;
    std::int64_t inc = in.increment > 0 && in.time_left > in.increment ? in.increment : 0;

    // Every remaining move of the period gets an equal share, plus most of the increment.
    std::int64_t share = usable / mtg + inc * 3 / 4;
    // The hard limit leaves enough for the moves still to come: at most a fraction of the clock
    // that shrinks when many moves remain before the next time control.
    std::int64_t hard_cap = mtg == 1 ? usable * 9 / 10 : std::min(usable * 3 / 4, usable * 4 / std::min(mtg, 8));
    b.hard = std::clamp<std::int64_t>(share * 4, 1, std::max<std::int64_t>(1, hard_cap));
    b.soft = std::clamp<std::int64_t>(share * 7 / 10, 1, b.hard);
    return b;
}

}  // namespace quince::search
