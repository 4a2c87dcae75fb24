// The evaluation entry point the search calls. One Evaluator per search thread: it owns the
// thread's caches (pawn hash), so threads never share mutable evaluation state.
//
// Profiles: "rybka1" (default; Rybka 1.0 Beta evaluation, spec /work/shared/spec/eval.md),
// "rybka1-curve" (same with the experimental three-section phase curve), "simple" (the baseline
// material + PST evaluation). See profile_names().
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "board/position.h"

namespace quince::eval {

// Lazy-evaluation window, in centipawns from WHITE's point of view (not the side to move: the window
// is derived once per root iteration and is the same at every node). Rybka 1.0 (spec §12.3): at the
// end of each root iteration of depth >= 6 the search sets both bounds to the root score converted to
// White's view (`LazyWindow::around(score_white)`); before that, and at every new search, the default
// (disabled) window is used. The evaluation converts the bounds into its own units (pawn units of the
// material difference D, via 1/32 cp and the phase weights) and returns the material-only value when
// D <= floor(q(lower)) - margin or D >= ceil(q(upper)) + margin, margin = 3 pawns in rybka1.
struct LazyWindow {
    Value white_lower = -VALUE_INFINITE;
    Value white_upper = VALUE_INFINITE;

    static LazyWindow around(Value white_score) { return {white_score, white_score}; }
    bool active() const { return white_lower > -VALUE_INFINITE || white_upper < VALUE_INFINITE; }
};

struct Trace;

class Evaluator {
public:
    Evaluator();
    explicit Evaluator(const std::string& profile);  // falls back to the default for unknown names
    ~Evaluator();
    Evaluator(const Evaluator&) = delete;
    Evaluator& operator=(const Evaluator&) = delete;

    // Score in centipawns relative to the side to move (tempo included).
    Value evaluate(const Position& pos, const LazyWindow& window = {});
    // Same evaluation with every term recorded (same code path, template switch).
    Value evaluate_traced(const Position& pos, Trace& trace, const LazyWindow& window = {});
    void clear();  // empty the caches (ucinewgame)

    // Select the weight profile; false (and no change) for an unknown name. Clears the pawn hash.
    bool set_profile(const std::string& name);
    const std::string& profile() const;
    // Global switch for lazy evaluation (window and material-table lazy flag). Default on.
    void set_lazy(bool on);
    bool lazy() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// Names for the UCI combo option EvalProfile; the first one is the default.
std::vector<std::string> profile_names();
std::string default_profile();

// Human-readable table of every term (white, black, total; opening and endgame; centipawns), then
// phase, material index and entry, lazy flag, scale factor and final score.
std::string trace_text(const Position& pos, const std::string& profile);
// JSON: one object per term with mg/eg per colour, phase, material_index, final_cp; the interpolated
// "cp" contributions of the terms plus the listed adjustments sum to final_cp exactly.
std::string trace_json(const Position& pos, const std::string& profile);
// `quince eval [--json] [--profile NAME] "<FEN>"` (argv[0] = "eval" or the program name, see .cpp).
int run_eval_cli(int argc, char** argv);

// The simple material + piece-square evaluation (the core issue's baseline), kept for comparison.
Value simple_evaluate(const Position& pos);

}  // namespace quince::eval
