// The search's numeric constants (margins, depth limits, divisors) in one table of named tunables.
//
// In the normal build each one is an `inline constexpr int`: the compiler sees the same literals as
// before, so the node counts (`bench`) and the speed are those of hand-written constants. A tuning build
// (CMake -DQUINCE_TUNING=ON, `make TUNING=1` in openbench/) makes them plain variables that the UCI
// layer exposes as `spin` options, and `quince spsa` prints them in OpenBench's SPSA input format
// (`name, int, value, min, max, c_end, r_end`). min/max bound what SPSA may try (and what setoption
// accepts); c_end is the final perturbation size and r_end the final learning rate, about a twentieth of
// the range and 0.002 as OpenBench's documentation suggests. Values in centipawns unless the name
// says otherwise (Depth = plies; Div = a divisor; LMR base and divisor are hundredths).
#pragma once

#include <string>
#include <vector>

// X(name, default, min, max, c_end, r_end)
#define QUINCE_SEARCH_PARAMS(X)                                                                                \
    X(AspDelta, 15, 5, 40, 2, 0.002)              /* aspiration half-window at |prev| = 0 */                  \
    X(AspScoreDiv, 64, 16, 256, 12, 0.002)        /* the window grows by |prev| / this */                     \
    X(RazorMaxDepth, 4, 1, 8, 0.5, 0.002)                                                                     \
    X(RazorBase, 350, 100, 700, 30, 0.002)        /* eval < alpha - base - depth_mul * d^2 */                 \
    X(RazorDepthMul, 250, 100, 500, 20, 0.002)                                                                \
    X(RfpMaxDepth, 9, 4, 14, 0.5, 0.002)          /* reverse futility below this depth */                     \
    X(RfpMargin, 80, 30, 160, 6, 0.002)           /* per ply of (depth - improving) */                        \
    X(NmpDepthMargin, 20, 0, 60, 3, 0.002)        /* static eval >= beta - margin * d + base */              \
    X(NmpBase, 160, 0, 400, 20, 0.002)                                                                        \
    X(NmpBaseReduction, 4, 2, 6, 0.5, 0.002)      /* R = base + d / depth_div + min((eval-beta)/div, max) */  \
    X(NmpDepthDiv, 3, 2, 6, 0.5, 0.002)                                                                       \
    X(NmpEvalDiv, 200, 80, 400, 15, 0.002)                                                                    \
    X(NmpEvalMaxReduction, 3, 1, 6, 0.5, 0.002)                                                               \
    X(NmpVerifyDepth, 14, 8, 20, 1, 0.002)        /* verification search from this depth */                   \
    X(ProbCutMinDepth, 5, 3, 9, 0.5, 0.002)                                                                   \
    X(ProbCutMargin, 200, 80, 400, 15, 0.002)     /* probcut beta = beta + margin - improving_cut */          \
    X(ProbCutImproving, 50, 0, 120, 6, 0.002)                                                                 \
    X(ProbCutReduction, 4, 2, 6, 0.5, 0.002)                                                                  \
    X(IirMinDepth, 4, 2, 8, 0.5, 0.002)                                                                       \
    X(LmpBase, 3, 1, 8, 0.5, 0.002)               /* (base + d^2) / (2 - improving) quiet moves */            \
    X(FutCaptureMaxDepth, 7, 3, 12, 0.5, 0.002)                                                               \
    X(FutCaptureBase, 200, 50, 400, 15, 0.002)    /* static eval + base + depth_mul * lmr_d + victim */      \
    X(FutCaptureDepthMul, 200, 50, 400, 15, 0.002)                                                            \
    X(FutQuietMaxDepth, 10, 4, 14, 0.5, 0.002)                                                                \
    X(FutQuietBase, 120, 30, 300, 12, 0.002)      /* static eval + base + depth_mul * lmr_d */               \
    X(FutQuietDepthMul, 170, 50, 300, 12, 0.002)                                                              \
    X(HistPruneMaxDepth, 4, 1, 8, 0.5, 0.002)                                                                 \
    X(HistPruneMargin, 3000, 1000, 6000, 250, 0.002) /* continuation history < -margin * d */                 \
    X(HistLmrDepthDiv, 7000, 3000, 14000, 500, 0.002) /* history / this adjusts the pruning depth */          \
    X(SeeCaptureMargin, 200, 50, 400, 15, 0.002)  /* captures and checks losing more than margin * d */       \
    X(SeeQuietMargin, 25, 5, 60, 3, 0.002)        /* quiets losing more than margin * lmr_d^2 */              \
    X(SingularMinDepth, 7, 4, 10, 0.5, 0.002)                                                                 \
    X(SingularTtDepthMargin, 3, 1, 6, 0.5, 0.002) /* TT entry at least depth - this */                        \
    X(SingularBetaMul, 2, 1, 5, 0.5, 0.002)       /* singular beta = tt value - mul * d */                    \
    X(DoubleExtMargin, 30, 0, 80, 5, 0.002)       /* +2 when this far below the singular beta */              \
    X(CheckExtMinDepth, 10, 3, 16, 1, 0.002)      /* safe checks extended from this depth */                  \
    X(LmrBase, 80, 0, 150, 8, 0.002)              /* table: base/100 + ln d * ln m / (div/100) */             \
    X(LmrDivisor, 230, 150, 350, 10, 0.002)                                                                   \
    X(LmrHistDiv, 12000, 4000, 24000, 1000, 0.002) /* reduction -= stat score / this */                       \
    X(LmrHistOffset, 4000, 0, 8000, 400, 0.002)                                                               \
    X(LmrOppMoveCount, 15, 6, 40, 2, 0.002)       /* one ply less when the parent's move came this late */     \
    X(LmrStatGood, -100, -3000, 3000, 150, 0.002) /* stat score against the previous ply's: */               \
    X(LmrStatBad, -150, -3000, 3000, 150, 0.002)  /* -1 when ours >= good > theirs, +1 when ours < bad <= theirs */ \
    X(QsFutilityMargin, 150, 50, 300, 12, 0.002)                                                              \
    X(StatBonusMul, 300, 100, 600, 25, 0.002)     /* history bonus min(mul * d - sub, max) */                 \
    X(StatBonusSub, 250, 0, 500, 25, 0.002)                                                                   \
    X(StatBonusMax, 2400, 1000, 4000, 150, 0.002)                                                             \
    X(TmIdealPct, 250, 100, 500, 20, 0.002)       /* ideal = pct/100 * (clock + 25 inc) / 50 */              \
    X(TmIdealMtgPct, 180, 80, 400, 15, 0.002)     /* movestogo: pct/100 * clock / (mtg + 5) + inc */            \
    X(TmStablePct, 4, 0, 8, 0.5, 0.002)           /* time x (1.2 - pct/100 * stable iterations) */            \
    X(TmNodeMulPct, 200, 100, 300, 15, 0.002)     /* time x max(0.5, mul/100 * other moves' share + 0.4) */

namespace quince::search::param {

#ifdef QUINCE_TUNING
#define QUINCE_SEARCH_PARAM_DECLARE(name, def, lo, hi, c_end, r_end) inline int name = def;
#else
#define QUINCE_SEARCH_PARAM_DECLARE(name, def, lo, hi, c_end, r_end) inline constexpr int name = def;
#endif
QUINCE_SEARCH_PARAMS(QUINCE_SEARCH_PARAM_DECLARE)
#undef QUINCE_SEARCH_PARAM_DECLARE

// True in the tuning build (the parameters can be changed at run time).
#ifdef QUINCE_TUNING
inline constexpr bool TUNABLE = true;
#else
inline constexpr bool TUNABLE = false;
#endif

struct ParamInfo {
    const char* name;
    int default_value, min, max;
    double c_end, r_end;
};

// Every search parameter, in table order.
const std::vector<ParamInfo>& search_params();
// The current value (the default in the normal build).
int search_param_value(const ParamInfo& p);
// Tuning build: sets a parameter (value within [min, max]) and rebuilds what depends on it (the LMR
// table). False with *error for an unknown name, a value out of range, or in the normal build.
bool set_search_param(const std::string& name, int value, std::string* error);

// Rebuilds the LMR table from LmrBase / LmrDivisor (search.cpp; called by set_search_param).
void rebuild_reductions();

// One line of OpenBench's SPSA input: "name, int, value, min, max, c_end, r_end".
std::string spsa_line(const std::string& name, int value, int min, int max, double c_end, double r_end);

// OpenBench's SPSA input, one parameter a line: the search parameters, then the default profile's
// tunable weights (eval::spsa_weights). These are the UCI options of the tuning build (QUINCE_TUNING);
// `quince spsa` prints them there, and strength/spsa.py reads them.
std::vector<std::string> spsa_input();

}  // namespace quince::search::param
