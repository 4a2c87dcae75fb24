// Evaluation trace output: text table, JSON and the `quince eval` command (declared in evaluate.h),
// and the structured report they are printed from (read by the workbench: compare, the picture).
#pragma once

#include <memory>
#include <string>

#include "eval/evaluate.h"
#include "eval/terms.h"

namespace quince::eval {

// One traced evaluation of a position under a profile, with what the printed forms derive from it.
// Values are internal units (1/32 cp) in the trace, centipawns from the helpers.
struct TraceReport {
    Trace t;
    std::string profile;
    bool simple = false;  // the baseline profile: final_cp only, no terms
    Color stm = WHITE;
    int tempo = 0;
    int rule50 = 0;  // the fifty-move counter, which damps the final score
    // Interpolation weights used for the per-term cp column (lazy: material only, no mix).
    double w0 = 0, w1 = 0, scale = 1;
    // A term's share of the score after interpolation and scaling, White's view, centipawns.
    double term_cp(int term) const;
    // The same mix for any (op, eg) pair in internal units (a square's share, the picture).
    double mix_cp(int op, int eg) const { return (op * w0 + eg * w1) * scale / 8192.0; }
    // white_cp minus the drawishness change minus the sum of term_cp: the integer steps' remainder.
    double rounding() const;
};

// Evaluates pos with the profile through Evaluator::evaluate_traced; with `squares`, also the
// per-square attribution (SquareTrace) of the same evaluation.
TraceReport trace_report(const Position& pos, const std::shared_ptr<const Profile>& profile,
                         SquareTrace* squares = nullptr);
// The same with an evaluator already set to `profile` (many positions: its pawn hash is reused).
TraceReport trace_report(const Position& pos, const Profile& profile, Evaluator& evaluator,
                         SquareTrace* squares = nullptr);

// Whether the profile has the term at all: false when every weight of it is zero or its switch is off
// (pawn_mobility outside rybka232, threats without the switch, every term of `simple`). A term the
// profile has may still be 0 in a position.
bool term_in_profile(const Profile& profile, Term term);

// Centipawns of an internal value.
constexpr double internal_to_cp(int internal) { return internal / 32.0; }

}  // namespace quince::eval
