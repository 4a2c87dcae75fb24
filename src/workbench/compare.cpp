#include "workbench/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <istream>
#include <set>
#include <sstream>

#include "board/epd.h"
#include "core/text.h"
#include "workbench/json.h"

namespace quince::workbench {

using eval::TERM_NAMES;
using eval::TERM_NB;

std::vector<std::string> default_compare_profiles() { return {"rybka1", "rybka232", "fruit21"}; }

bool resolve_columns(const std::vector<std::string>& names, const std::vector<std::string>& weight_files,
                     std::vector<ProfileColumn>* out, std::string* error, bool* bad_file) {
    if (bad_file) *bad_file = false;
    std::vector<ProfileColumn> cols;
    std::set<std::string> taken;
    for (const std::string& n : names) {
        const eval::EvalPtr e = eval::builtin_evaluation(n, error);  // its error names the known profiles
        if (!e) return false;
        cols.push_back({n, e->profile, e->network});
        taken.insert(n);
    }
    for (const std::string& f : weight_files) {
        std::string why;
        const eval::EvalPtr e = eval::load_evaluation(f, &why);
        if (!e) {
            if (bad_file) *bad_file = true;
            *error = why;
            return false;
        }
        const std::string label = taken.count(e->name) ? f : e->name;
        cols.push_back({label, e->profile, e->network});
        taken.insert(label);
    }
    *out = std::move(cols);
    return true;
}

namespace {

// A network's column: its score, no terms (shown as the baseline profile's are).
eval::TraceReport network_report(const Position& pos, eval::NetworkState& state, const std::string& label) {
    eval::TraceReport r;
    r.profile = label;
    r.simple = true;
    r.stm = pos.side_to_move();
    r.t.final_cp = state.evaluate(pos);
    return r;
}

}  // namespace

double Column::mg(int term) const {
    return eval::internal_to_cp(report.t.v[term][WHITE][0] - report.t.v[term][BLACK][0]);
}
double Column::eg(int term) const {
    return eval::internal_to_cp(report.t.v[term][WHITE][1] - report.t.v[term][BLACK][1]);
}

double Comparison::diff_cp(std::size_t column, int term) const {
    const Column& a = columns[column];
    const Column& first = columns[0];
    return (a.has[term] ? a.cp(term) : 0.0) - (first.has[term] ? first.cp(term) : 0.0);
}

Comparison compare(const Position& pos, const std::vector<ProfileColumn>& profiles, bool with_squares) {
    Comparison c;
    c.pos = pos;
    for (const ProfileColumn& p : profiles) {
        Column col;
        col.label = p.label;
        if (p.network) {
            col.report = network_report(pos, *p.network->new_state(), p.label);
            c.columns.push_back(std::move(col));
            continue;
        }
        if (with_squares) col.squares = std::make_shared<eval::SquareTrace>();
        col.report = eval::trace_report(pos, p.profile, col.squares.get());
        for (int t = 0; t < TERM_NB; ++t) col.has[t] = eval::term_in_profile(*p.profile, eval::Term(t));
        c.columns.push_back(std::move(col));
    }
    return c;
}

namespace {

std::string f2(double v) {
    char b[32];
    std::snprintf(b, sizeof b, "%.2f", v);
    return b;
}

std::string cell(const std::string& s, int width) {
    return s.size() >= std::size_t(width) ? " " + s : std::string(std::size_t(width) - s.size(), ' ') + s;
}

std::string left(const std::string& s, int width) {
    return s.size() >= std::size_t(width) ? s : s + std::string(std::size_t(width) - s.size(), ' ');
}

std::string entry_hex(const eval::MatEntry& m) {
    char hex[40];
    std::snprintf(hex, sizeof hex, "0x%016llx",
                  (unsigned long long)(std::uint64_t(m.flags) | std::uint64_t(m.cflags) << 8 |
                                       std::uint64_t(m.phase) << 16 | std::uint64_t(m.lazy) << 24 |
                                       std::uint64_t(std::uint32_t(m.value)) << 32));
    return hex;
}

constexpr int NAME_W = 16, NUM_W = 9;

}  // namespace

std::string compare_text(const Comparison& c) {
    std::ostringstream os;
    const std::size_t n = c.columns.size();
    os << "Quince evaluation compare: " << c.pos.fen() << "\n";
    os << "centipawns, White's view: mg / eg = White - Black (opening, endgame), cp = the term mixed by phase and\n"
          "scale, d = cp minus " << c.columns[0].label << "'s; 'absent' = the profile has no such term\n";
    // Header: one block per profile, 3 columns (mg eg cp), plus d after the first.
    std::string h1 = left("", NAME_W) + " |", h2 = left("term", NAME_W) + " |";
    for (std::size_t i = 0; i < n; ++i) {
        const int w = NUM_W * (i ? 4 : 3);
        std::string name = c.columns[i].label;
        if (name.size() > std::size_t(w - 1)) name = name.substr(0, std::size_t(w - 1));
        h1 += cell(name, w) + " |";
        h2 += cell("mg", NUM_W) + cell("eg", NUM_W) + cell("cp", NUM_W) + (i ? cell("d", NUM_W) : "") + " |";
    }
    os << h1 << "\n" << h2 << "\n" << std::string(h2.size(), '-') << "\n";
    for (int t = 0; t < TERM_NB; ++t) {
        std::string line = left(TERM_NAMES[t], NAME_W) + " |";
        for (std::size_t i = 0; i < n; ++i) {
            const Column& col = c.columns[i];
            if (col.has[t]) line += cell(f2(col.mg(t)), NUM_W) + cell(f2(col.eg(t)), NUM_W) + cell(f2(col.cp(t)), NUM_W);
            else line += cell("absent", NUM_W * 3);
            if (i) line += (col.has[t] || c.columns[0].has[t]) ? cell(f2(c.diff_cp(i, t)), NUM_W) : cell("-", NUM_W);
            line += " |";
        }
        os << line << "\n";
    }
    os << std::string(h2.size(), '-') << "\n";
    // Per-profile facts, one row each.
    const auto row = [&](const std::string& name, auto value) {
        std::string line = left(name, NAME_W) + " |";
        for (std::size_t i = 0; i < n; ++i) line += cell(value(c.columns[i], i), NUM_W * (i ? 4 : 3)) + " |";
        os << line << "\n";
    };
    row("phase", [](const Column& col, std::size_t) {
        return col.report.simple ? std::string("-") : std::to_string(int(col.report.t.mat.phase));
    });
    row("W (w0, w1)", [](const Column& col, std::size_t) {
        if (col.report.simple) return std::string("-");
        char b[32];
        std::snprintf(b, sizeof b, "(%d, %d)", col.report.t.w0, col.report.t.w1);
        return std::string(b);
    });
    row("material index", [](const Column& col, std::size_t) {
        return col.report.simple ? std::string("-") : std::to_string(col.report.t.material_index);
    });
    row("material entry", [](const Column& col, std::size_t) {
        return col.report.simple ? std::string("-") : entry_hex(col.report.t.mat);
    });
    row("mat_value", [](const Column& col, std::size_t) {
        return col.report.simple ? std::string("-") : std::to_string(col.report.t.mat.value);
    });
    row("lazy", [](const Column& col, std::size_t) { return std::string(col.report.t.lazy ? "yes" : "no"); });
    row("scale", [](const Column& col, std::size_t) { return std::string(col.report.t.ocb ? "1/2" : "1"); });
    row("drawishness cp", [](const Column& col, std::size_t) { return std::to_string(col.report.t.drawish_cp); });
    row("rounding cp", [](const Column& col, std::size_t) {
        return col.report.simple ? std::string("-") : f2(col.report.rounding());
    });
    row("tempo cp", [](const Column& col, std::size_t) {
        return col.report.simple ? std::string("-") : std::to_string(col.report.tempo);
    });
    row("final (White)", [&](const Column& col, std::size_t i) {
        char b[48];
        if (i) std::snprintf(b, sizeof b, "%d (d %+d)", col.final_white(), col.final_white() - c.columns[0].final_white());
        else std::snprintf(b, sizeof b, "%d", col.final_white());
        return std::string(b);
    });
    row("final (to move)", [](const Column& col, std::size_t) { return std::to_string(col.report.t.final_cp); });
    os << (c.pos.side_to_move() == WHITE ? "White" : "Black")
       << " to move; final (to move) is the engine's score, side to move's view, tempo included. 'quince eval\n"
          "--profile P' explains each profile's numbers (legend).\n";
    return os.str();
}

std::string compare_json(const Comparison& c) {
    std::ostringstream os;
    os << "{\n  \"fen\": " << json_string(c.pos.fen()) << ",\n";
    os << "  \"side_to_move\": \"" << (c.pos.side_to_move() == WHITE ? "white" : "black") << "\",\n";
    os << "  \"units\": \"centipawns (internal units / 32); mg, eg = White - Black; cp = term mixed by phase and scale, "
          "White's view; diff_cp = cp minus the first profile's (absent = 0); final_cp = side to move's view\",\n";
    os << "  \"profiles\": [\n";
    for (std::size_t i = 0; i < c.columns.size(); ++i) {
        const Column& col = c.columns[i];
        const eval::Trace& t = col.report.t;
        os << "    {\"profile\": " << json_string(col.label) << ", \"simple\": " << (col.report.simple ? "true" : "false")
           << ",\n     \"phase\": " << int(t.mat.phase) << ", \"weights\": [" << t.w0 << ", " << t.w1 << "]"
           << ", \"material_index\": " << t.material_index << ", \"material_in_table\": " << (t.in_table ? "true" : "false")
           << ",\n     \"material_entry\": {\"flags\": " << int(t.mat.flags) << ", \"cflags\": " << int(t.mat.cflags)
           << ", \"phase\": " << int(t.mat.phase) << ", \"lazy\": " << int(t.mat.lazy) << ", \"value\": " << t.mat.value
           << "},\n     \"lazy\": " << (t.lazy ? "true" : "false") << ", \"scale\": " << (t.ocb ? "0.5" : "1")
           << ", \"white_cp\": " << t.white_cp << ", \"final_cp\": " << t.final_cp
           << ", \"final_cp_white_view\": " << col.final_white() << ",\n     \"terms\": [\n";
        for (int term = 0; term < TERM_NB; ++term) {
            os << "       {\"name\": \"" << TERM_NAMES[term] << "\", ";
            if (!col.has[term]) os << "\"absent\": true}";
            else {
                os << "\"mg\": " << json_number(col.mg(term)) << ", \"eg\": " << json_number(col.eg(term))
                   << ", \"cp\": " << json_number(col.cp(term));
                if (i) os << ", \"diff_cp\": " << json_number(c.diff_cp(i, term));
                os << "}";
            }
            os << (term + 1 < TERM_NB ? ",\n" : "\n");
        }
        os << "     ]}" << (i + 1 < c.columns.size() ? "," : "") << "\n";
    }
    os << "  ]\n}\n";
    return os.str();
}

bool compare_epd(std::istream& in, const std::string& source, const std::vector<ProfileColumn>& profiles, int top,
                 EpdSummary* out, std::string* error) {
    EpdSummary s;
    const std::size_t n = profiles.size();
    for (const ProfileColumn& p : profiles) {
        s.labels.push_back(p.label);
        std::vector<bool> has;
        for (int t = 0; t < TERM_NB; ++t) has.push_back(p.profile && eval::term_in_profile(*p.profile, eval::Term(t)));
        s.has.push_back(has);
    }
    std::vector<std::unique_ptr<eval::Evaluator>> evaluators;
    std::vector<std::unique_ptr<eval::NetworkState>> networks;
    for (const ProfileColumn& p : profiles) {
        evaluators.push_back(std::make_unique<eval::Evaluator>());
        if (p.profile) evaluators.back()->set_profile(p.profile);
        networks.push_back(p.network ? p.network->new_state() : nullptr);
    }
    std::vector<std::vector<double>> sums(TERM_NB + 1, std::vector<double>(n, 0.0));
    // For the correlations: per term and profile, the sums of cp and cp squared, and per pair of profiles
    // the sum of products.
    std::vector<std::vector<double>> sum_x(TERM_NB + 1, std::vector<double>(n, 0.0)), sum_xx = sum_x;
    std::vector<std::vector<std::vector<double>>> sum_xy(TERM_NB + 1, std::vector<std::vector<double>>(n, std::vector<double>(n, 0.0)));
    int term_index = 0;
    const auto note = [&](TermSummary& ts, std::vector<double>& sum, const std::vector<double>& cps, const std::string& fen) {
        for (std::size_t i = 0; i < n; ++i) {
            sum_x[std::size_t(term_index)][i] += cps[i];
            sum_xx[std::size_t(term_index)][i] += cps[i] * cps[i];
            for (std::size_t j = 0; j < n; ++j) sum_xy[std::size_t(term_index)][i][j] += cps[i] * cps[j];
        }
        Disagreement d;
        d.fen = fen;
        d.cp = cps;
        for (std::size_t i = 0; i < n; ++i) {
            const double diff = std::fabs(cps[i] - cps[0]);
            sum[i] += diff;
            d.spread = std::max(d.spread, diff);
        }
        // Keep the `top` largest spreads, largest first (stable: earlier positions win ties).
        auto at = std::upper_bound(ts.top.begin(), ts.top.end(), d.spread,
                                   [](double v, const Disagreement& x) { return v > x.spread; });
        if (std::size_t(at - ts.top.begin()) < std::size_t(top)) {
            ts.top.insert(at, d);
            if (ts.top.size() > std::size_t(top)) ts.top.pop_back();
        }
    };
    const auto visit = [&](const Position& pos, const std::string& fen, std::string*) {
        ++s.positions;
        std::vector<eval::TraceReport> reports;
        for (std::size_t i = 0; i < n; ++i)
            reports.push_back(networks[i] ? network_report(pos, *networks[i], profiles[i].label)
                                          : eval::trace_report(pos, *profiles[i].profile, *evaluators[i]));
        for (int t = 0; t < TERM_NB; ++t) {
            std::vector<double> cps;
            for (std::size_t i = 0; i < n; ++i) cps.push_back(s.has[i][std::size_t(t)] ? reports[i].term_cp(t) : 0.0);
            term_index = t;
            note(s.terms[t], sums[std::size_t(t)], cps, fen);
        }
        std::vector<double> finals;
        for (const auto& r : reports) finals.push_back(r.stm == WHITE ? r.t.final_cp : -r.t.final_cp);
        term_index = TERM_NB;
        note(s.final, sums[TERM_NB], finals, fen);
        return true;
    };
    if (!for_each_epd_position(in, source, visit, error)) return false;
    for (int t = 0; t <= TERM_NB; ++t) {
        TermSummary& ts = t < TERM_NB ? s.terms[t] : s.final;
        for (std::size_t i = 0; i < n; ++i) ts.mean_abs_diff.push_back(sums[std::size_t(t)][i] / s.positions);
        const std::size_t k = std::size_t(t);
        const double count = s.positions;
        ts.correlation.assign(n, std::vector<double>(n, std::nan("")));
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                const double vi = sum_xx[k][i] - sum_x[k][i] * sum_x[k][i] / count;
                const double vj = sum_xx[k][j] - sum_x[k][j] * sum_x[k][j] / count;
                const double cov = sum_xy[k][i][j] - sum_x[k][i] * sum_x[k][j] / count;
                // A variance below rounding noise is a constant term: no correlation to speak of.
                const double floor_i = 1e-9 * std::max(1.0, sum_xx[k][i]), floor_j = 1e-9 * std::max(1.0, sum_xx[k][j]);
                if (vi > floor_i && vj > floor_j) ts.correlation[i][j] = std::clamp(cov / std::sqrt(vi * vj), -1.0, 1.0);
            }
    }
    *out = std::move(s);
    return true;
}

std::string epd_summary_text(const EpdSummary& s) {
    std::ostringstream os;
    const std::size_t n = s.labels.size();
    os << "Quince evaluation compare over " << s.positions << " positions: mean |cp - " << s.labels[0]
       << "'s cp| per term (centipawns, White's view; an absent term counts 0)\n";
    std::string head = left("term", NAME_W) + " |";
    for (std::size_t i = 1; i < n; ++i) head += cell(s.labels[i].substr(0, NUM_W + 2), NUM_W + 3);
    os << head << "\n" << std::string(head.size(), '-') << "\n";
    const auto row = [&](const std::string& name, const TermSummary& ts, int term) {
        std::string line = left(name, NAME_W) + " |";
        for (std::size_t i = 1; i < n; ++i) {
            std::string v = f2(ts.mean_abs_diff[i]);
            if (term >= 0 && !s.has[i][std::size_t(term)]) v += "*";
            line += cell(v, NUM_W + 3);
        }
        os << line << "\n";
    };
    for (int t = 0; t < TERM_NB; ++t) row(TERM_NAMES[t], s.terms[t], t);
    row("final score", s.final, -1);
    os << "(* absent in that profile)\n\nwhere they disagree most (largest |cp - " << s.labels[0] << "'s|; cp per profile:";
    for (const auto& l : s.labels) os << " " << l;
    os << "):\n";
    const auto worst = [&](const std::string& name, const TermSummary& ts) {
        if (ts.top.empty() || ts.top[0].spread == 0) return;
        os << name << ":\n";
        for (const Disagreement& d : ts.top) {
            if (d.spread == 0) break;
            os << "  " << f2(d.spread) << "  [";
            for (std::size_t i = 0; i < n; ++i) os << (i ? " " : "") << f2(d.cp[i]);
            os << "]  " << d.fen << "\n";
        }
    };
    for (int t = 0; t < TERM_NB; ++t) worst(TERM_NAMES[t], s.terms[t]);
    worst("final score", s.final);
    return os.str();
}

std::string epd_summary_json(const EpdSummary& s) {
    std::ostringstream os;
    os << "{\n  \"positions\": " << s.positions << ",\n  \"profiles\": [";
    for (std::size_t i = 0; i < s.labels.size(); ++i) os << (i ? ", " : "") << json_string(s.labels[i]);
    os << "],\n  \"units\": \"centipawns, White's view; mean_abs_diff[i] = mean over the positions of |cp of profile i - "
          "cp of the first profile| (absent terms count 0); top = positions of largest spread (max over i)\",\n";
    const auto summary = [&](const std::string& name, const TermSummary& ts, int term) {
        os << "    {\"name\": " << json_string(name);
        if (term >= 0) {
            os << ", \"present\": [";
            for (std::size_t i = 0; i < s.labels.size(); ++i) os << (i ? ", " : "") << (s.has[i][std::size_t(term)] ? "true" : "false");
            os << "]";
        }
        os << ", \"mean_abs_diff\": [";
        for (std::size_t i = 0; i < ts.mean_abs_diff.size(); ++i) os << (i ? ", " : "") << json_number(ts.mean_abs_diff[i]);
        os << "], \"correlation\": [";
        for (std::size_t i = 0; i < ts.correlation.size(); ++i) {
            os << (i ? ", " : "") << "[";
            for (std::size_t j = 0; j < ts.correlation[i].size(); ++j)
                os << (j ? ", " : "") << (std::isnan(ts.correlation[i][j]) ? std::string("null") : json_number(ts.correlation[i][j]));
            os << "]";
        }
        os << "], \"top\": [";
        for (std::size_t k = 0; k < ts.top.size(); ++k) {
            const Disagreement& d = ts.top[k];
            os << (k ? ", " : "") << "{\"fen\": " << json_string(d.fen) << ", \"spread\": " << json_number(d.spread) << ", \"cp\": [";
            for (std::size_t i = 0; i < d.cp.size(); ++i) os << (i ? ", " : "") << json_number(d.cp[i]);
            os << "]}";
        }
        os << "]}";
    };
    os << "  \"terms\": [\n";
    for (int t = 0; t < TERM_NB; ++t) {
        summary(TERM_NAMES[t], s.terms[t], t);
        os << (t + 1 < TERM_NB ? ",\n" : "\n");
    }
    os << "  ],\n  \"final\": ";
    summary("final", s.final, -1);
    os << "\n}\n";
    return os.str();
}

}  // namespace quince::workbench
