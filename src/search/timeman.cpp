#include "search/timeman.h"

#include <algorithm>

#include "search/params.h"

namespace quince::search {

TimeBudget allocate_time(const TimeInput& in) {
    TimeBudget b;
    if (in.move_time > 0) {
        // Exactly the time asked for, from go: the GUI that sets a move time expects it spent, and
        // Stockfish keeps no overhead here either.
        b.hard = b.ideal = in.move_time;
        return b;
    }
    int mtg = in.moves_to_go > 0 ? std::min(in.moves_to_go, 50) : 40;
    // Usable time: what is on the clock minus the safety overhead. Before a time control (movestogo)
    // every move left in the period pays the GUI's lag on this clock, with no increment to repay it, so
    // the overhead is kept once more for each of the last moves to come; otherwise a short period
    // (xboard's 40 moves in 8 s) ends with a clock the lag alone exceeds. Only the last few: a reserve
    // for all 40 cost 35 +/- 36 Elo at 40 moves in 8 s (the early moves thought 15 % less).
    std::int64_t reserve = in.moves_to_go > 0 ? in.overhead * (std::min(mtg, 5) + 1) : in.overhead;
    std::int64_t usable = std::max<std::int64_t>(1, in.time_left - reserve);
    std::int64_t inc = in.increment > 0 && in.time_left > in.increment ? in.increment : 0;

    // Every remaining move of the period gets an equal share, plus most of the increment.
    std::int64_t share = usable / mtg + inc * 3 / 4;
    // The hard limit leaves enough for the moves still to come: at most a fraction of the clock
    // that shrinks when many moves remain before the next time control.
    std::int64_t hard_cap = mtg == 1 ? usable * 9 / 10 : std::min(usable * 3 / 4, usable * 4 / std::min(mtg, 8));
    b.hard = std::clamp<std::int64_t>(share * 4, 1, std::max<std::int64_t>(1, hard_cap));
    // Ethereal's even share: the clock plus 25 increments over 50 moves (before a time control, the clock
    // over the moves left plus five), times a factor, plus the increment. The search's factors for a
    // stable move bring it down to about half.
    const std::int64_t ideal = in.moves_to_go > 0
                                   ? usable * param::TmIdealMtgPct / (100 * (mtg + 5)) + inc
                                   : (usable + 25 * inc) * param::TmIdealPct / (100 * 50);
    b.ideal = std::clamp<std::int64_t>(ideal, 1, b.hard);
    return b;
}

double thinking_limit(const TimeBudget& budget, const IterationInfo& it) {
    double limit = double(budget.hard);
    if (it.depth >= 4) {
        const double stable = 1.2 - param::TmStablePct / 100.0 * std::min(it.stable_iterations, 10);
        const double falling = std::clamp(0.05 * double(it.score_fall), 0.75, 1.25);
        const double node_factor = std::max(0.5, param::TmNodeMulPct / 100.0 * (1.0 - it.best_move_share) + 0.4);
        limit = double(budget.ideal) * stable * falling * node_factor;
    }
    return std::min(limit, double(budget.hard));
}

}  // namespace quince::search
