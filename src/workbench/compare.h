// `quince compare`: one position under several evaluation profiles, term by term, and the same over
// the positions of an EPD file (where do the evaluations really differ?). Reads the evaluation's own
// trace (eval::trace_report); nothing here evaluates.
#pragma once

#include <iosfwd>
#include <memory>
#include <string>
#include <vector>

#include "board/position.h"
#include "eval/evaluation.h"
#include "eval/trace.h"

namespace quince::workbench {

// The profiles compared when none is named.
std::vector<std::string> default_compare_profiles();

// A profile to compare and the name its column carries.
struct ProfileColumn {
    std::string label;
    std::shared_ptr<const eval::Profile> profile;  // a hand-crafted profile, or
    std::shared_ptr<const eval::Network> network;  // a network: its score only, no terms (as `simple`)
};

// Built-in profiles by name (`nnue` included), then weight or network files (a file's column is labelled by the name inside it, or by
// the file when that name is taken). False and *error naming the culprit for an unknown profile or a
// file that does not load (*bad_file tells which kind).
bool resolve_columns(const std::vector<std::string>& names, const std::vector<std::string>& weight_files,
                     std::vector<ProfileColumn>* out, std::string* error, bool* bad_file = nullptr);

// One profile's evaluation of the position.
struct Column {
    std::string label;
    eval::TraceReport report;
    bool has[eval::TERM_NB] = {};  // eval::term_in_profile
    std::shared_ptr<eval::SquareTrace> squares;  // with_squares only
    // A term's (mg, eg) as eval's "total" (White - Black, cp) and its mixed share "cp".
    double mg(int term) const;
    double eg(int term) const;
    double cp(int term) const { return report.term_cp(term); }
    // The final score from White's view (eval's final_cp_white_view).
    int final_white() const { return report.stm == WHITE ? report.t.final_cp : -report.t.final_cp; }
};

struct Comparison {
    Position pos;
    std::vector<Column> columns;
    // Difference of a term's cp to the first column (an absent term contributes 0).
    double diff_cp(std::size_t column, int term) const;
};

Comparison compare(const Position& pos, const std::vector<ProfileColumn>& profiles, bool with_squares = false);

// Text table: the terms in rows, per profile mg / eg / cp and the difference to the first profile;
// then phase, weights, material index and entry, lazy, scale, interpolated and final score.
std::string compare_text(const Comparison& c);
// JSON (documented in src/workbench/README.md): {"fen", "side_to_move", "units", "profiles": [{"profile",
// "phase", "weights", "material_index", "material_entry", "lazy", "scale", "white_cp", "final_cp",
// "final_cp_white_view", "terms": [{"name", "mg", "eg", "cp", "diff_cp"} | {"name", "absent": true}]}]}.
std::string compare_json(const Comparison& c);

// Over the positions of an EPD file: per term, the mean absolute difference of each profile's cp to
// the first profile's, and the positions where the profiles disagree most on it.
struct Disagreement {
    double spread = 0;  // largest |cp - first profile's cp| over the profiles
    std::string fen;
    std::vector<double> cp;  // per profile (absent = 0)
};
struct TermSummary {
    std::vector<double> mean_abs_diff;  // per profile (the first: 0)
    std::vector<Disagreement> top;      // largest spread first
    // [i][j]: Pearson's r of the term's cp under profiles i and j over the positions; NaN when either is
    // constant there (an absent term, or one that never fires).
    std::vector<std::vector<double>> correlation;
};
struct EpdSummary {
    std::vector<std::string> labels;
    std::vector<std::vector<bool>> has;  // [profile][term]
    int positions = 0;
    TermSummary terms[eval::TERM_NB];
    TermSummary final;  // the final score, White's view
};
// Reads EPD lines (blank and # lines skipped); false and *error ("FILE:LINE: …") at the first bad one:
// an invalid FEN or a line with fewer than the four FEN fields.
bool compare_epd(std::istream& in, const std::string& source, const std::vector<ProfileColumn>& profiles, int top,
                 EpdSummary* out, std::string* error);
std::string epd_summary_text(const EpdSummary& s);
std::string epd_summary_json(const EpdSummary& s);

}  // namespace quince::workbench
