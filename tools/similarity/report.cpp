#include "report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "eval/trace.h"
#include "workbench/json.h"

namespace quince::similarity {

using workbench::json_number;
using workbench::json_string;

namespace {

std::string fmt(const char* f, double v) {
    char b[48];
    std::snprintf(b, sizeof b, f, v);
    return b;
}
std::string percent(double v) { return fmt("%.1f", 100 * v); }
std::string share_text(const Share& s) {
    return percent(s.value()) + " (" + fmt("%.0f", 100 * s.low) + "-" + fmt("%.0f", 100 * s.high) + ")";
}
std::string pad(const std::string& s, std::size_t w, bool right = true) {
    if (s.size() >= w) return s;
    return right ? std::string(w - s.size(), ' ') + s : s + std::string(w - s.size(), ' ');
}
std::string xml(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '&') o += "&amp;";
        else if (c == '<') o += "&lt;";
        else if (c == '>') o += "&gt;";
        else if (c == '\'') o += "&apos;";
        else if (c == '"') o += "&quot;";
        else if (static_cast<unsigned char>(c) >= 0x20) o += c;
    }
    return o;
}

// "{a, b}" of a cluster id of the tree.
std::string members(const Report& r, int id) {
    const int n = int(r.engines.size());
    if (id < n) return r.engines[std::size_t(id)].label;
    const Merge& m = r.tree[std::size_t(id - n)];
    return members(r, m.a) + ", " + members(r, m.b);
}

}  // namespace

std::string report_text(const Report& r) {
    std::ostringstream os;
    const Similarity& s = r.similarity;
    const std::size_t n = r.engines.size();
    os << "Quince similarity: " << s.positions << " positions (" << r.positions_source << "), " << r.limit.text()
       << " a search, each after ucinewgame\n";
    if (r.reused > 0) os << "(" << r.searched << " searches made now, " << r.reused << " results from the state file)\n";
    os << "\nsame move, % of positions (95% Wilson interval):\n";
    std::size_t w = 8;
    for (const EngineSpec& e : r.engines) w = std::max(w, e.label.size());
    const std::size_t cw = std::max<std::size_t>(16, w + 2);
    os << pad("", w, false);
    for (const EngineSpec& e : r.engines) os << pad(e.label, cw);
    os << "\n";
    for (std::size_t i = 0; i < n; ++i) {
        os << pad(r.engines[i].label, w, false);
        for (std::size_t j = 0; j < n; ++j) os << pad(i == j ? "-" : share_text(s.same_move[i][j]), cw);
        os << "\n";
    }
    os << "\ncontrols, the engine against itself (same limit again; twice the limit), and the nearest other engine:\n"
       << pad("engine", w, false) << pad("same limit", cw) << pad("twice the limit", cw) << "  nearest\n";
    for (std::size_t i = 0; i < n; ++i) {
        os << pad(r.engines[i].label, w, false) << pad(share_text(s.self_same[i]), cw) << pad(share_text(s.self_double[i]), cw);
        if (s.nearest[i] >= 0) {
            const Share& near = s.same_move[i][std::size_t(s.nearest[i])];
            os << "  " << r.engines[std::size_t(s.nearest[i])].label << " " << percent(near.value());
            if (near.value() >= s.self_double[i].value()) os << " (as close as the engine to itself at twice the limit)";
        }
        os << "\n";
    }
    os << "\nengines:\n";
    for (std::size_t i = 0; i < n; ++i) {
        os << "  " << pad(r.engines[i].label, w, false) << "  " << r.engines[i].text;
        if (!r.id_names[i].empty()) os << "  (id name " << r.id_names[i] << ")";
        if (r.searches_per_second[i] > 0) os << "  " << fmt("%.1f", r.searches_per_second[i]) << " searches/s";
        os << "\n";
    }
    if (!r.tree.empty()) {
        os << "\ntree (average linkage on 1 - share), joins from the closest:\n";
        for (const Merge& m : r.tree)
            os << "  " << fmt("%.3f", m.height) << "  {" << members(r, m.a) << "} + {" << members(r, m.b) << "}\n";
    }
    if (r.terms) {
        const workbench::EpdSummary& t = *r.terms;
        os << "\nevaluation terms over the positions: Pearson's r of each term's cp between the profiles\n"
              "('-': constant in one of them, e.g. absent)\n";
        std::vector<std::pair<std::size_t, std::size_t>> pairs;
        for (std::size_t i = 0; i < t.labels.size(); ++i)
            for (std::size_t j = i + 1; j < t.labels.size(); ++j) pairs.push_back({i, j});
        os << pad("term", 16, false);
        std::vector<std::size_t> widths;
        for (const auto& [i, j] : pairs) {
            const std::string head = t.labels[i] + "~" + t.labels[j];
            widths.push_back(std::max<std::size_t>(8, head.size() + 2));
            os << pad(head, widths.back());
        }
        os << "\n";
        const auto row = [&](const std::string& name, const workbench::TermSummary& ts) {
            os << pad(name, 16, false);
            for (std::size_t k = 0; k < pairs.size(); ++k) {
                const double v = ts.correlation[pairs[k].first][pairs[k].second];
                os << pad(std::isnan(v) ? "-" : fmt("%.3f", v), widths[k]);
            }
            os << "\n";
        };
        for (int term = 0; term < eval::TERM_NB; ++term) row(eval::TERM_NAMES[term], t.terms[term]);
        row("final score", t.final);
    }
    return os.str();
}

std::string report_json(const Report& r) {
    std::ostringstream os;
    const Similarity& s = r.similarity;
    const std::size_t n = r.engines.size();
    const auto list = [&](auto item) {
        std::string out = "[";
        for (std::size_t i = 0; i < n; ++i) out += (i ? ", " : "") + item(i);
        return out + "]";
    };
    const auto interval = [](const Share& x) {
        std::string out = "[";
        out += json_number(x.low);
        out += ", ";
        out += json_number(x.high);
        return out + "]";
    };
    os << "{\n  \"engines\": " << list([&](std::size_t i) { return json_string(r.engines[i].label); }) << ",\n";
    os << "  \"commands\": " << list([&](std::size_t i) { return json_string(r.engines[i].text); }) << ",\n";
    os << "  \"id_names\": " << list([&](std::size_t i) { return json_string(r.id_names[i]); }) << ",\n";
    os << "  \"positions\": " << s.positions << ",\n  \"positions_source\": " << json_string(r.positions_source) << ",\n";
    os << "  \"limit\": {" << (r.limit.movetime > 0 ? "\"movetime\": " + std::to_string(r.limit.movetime)
                                                    : "\"nodes\": " + std::to_string(r.limit.nodes)) << "},\n";
    const auto matrix = [&](auto cell) {
        std::string out = "[";
        for (std::size_t i = 0; i < n; ++i) {
            out += std::string(i ? ",\n    " : "\n    ") + "[";
            for (std::size_t j = 0; j < n; ++j) out += (j ? ", " : "") + cell(s.same_move[i][j]);
            out += "]";
        }
        return out + "]";
    };
    os << "  \"same_move\": " << matrix([](const Share& x) { return json_number(x.value()); }) << ",\n";
    os << "  \"same_move_count\": " << matrix([](const Share& x) { return std::to_string(x.same); }) << ",\n";
    os << "  \"interval95\": " << matrix(interval) << ",\n";
    os << "  \"controls\": [";
    for (std::size_t i = 0; i < n; ++i)
        os << (i ? ",\n    " : "\n    ") << "{\"engine\": " << json_string(r.engines[i].label)
           << ", \"same_limit\": " << json_number(s.self_same[i].value()) << ", \"same_limit_interval95\": " << interval(s.self_same[i])
           << ", \"double_limit\": " << json_number(s.self_double[i].value())
           << ", \"double_limit_interval95\": " << interval(s.self_double[i]) << "}";
    os << "],\n  \"nearest\": " << list([&](std::size_t i) {
        return s.nearest[i] < 0 ? std::string("null") : json_string(r.engines[std::size_t(s.nearest[i])].label);
    }) << ",\n";
    os << "  \"tree\": [";
    for (std::size_t k = 0; k < r.tree.size(); ++k)
        os << (k ? ", " : "") << "{\"a\": " << r.tree[k].a << ", \"b\": " << r.tree[k].b << ", \"height\": "
           << json_number(r.tree[k].height) << ", \"size\": " << r.tree[k].size << "}";
    os << "],\n  \"leaf_order\": [";
    const std::vector<int> order = leaf_order(r.tree, int(n));
    for (std::size_t k = 0; k < order.size(); ++k) os << (k ? ", " : "") << order[k];
    os << "],\n  \"searches_per_second\": " << list([&](std::size_t i) { return json_number(r.searches_per_second[i]); })
       << ",\n  \"searched\": " << r.searched << ", \"reused\": " << r.reused;
    if (r.terms) {
        const workbench::EpdSummary& t = *r.terms;
        os << ",\n  \"terms\": {\"profiles\": [";
        for (std::size_t i = 0; i < t.labels.size(); ++i) os << (i ? ", " : "") << json_string(t.labels[i]);
        os << "], \"correlation\": [";
        const auto term = [&](const std::string& name, const workbench::TermSummary& ts, bool last) {
            os << "\n    {\"name\": " << json_string(name) << ", \"r\": [";
            for (std::size_t i = 0; i < ts.correlation.size(); ++i) {
                os << (i ? ", " : "") << "[";
                for (std::size_t j = 0; j < ts.correlation[i].size(); ++j)
                    os << (j ? ", " : "")
                       << (std::isnan(ts.correlation[i][j]) ? std::string("null") : json_number(ts.correlation[i][j]));
                os << "]";
            }
            os << "], \"mean_abs_diff\": [";
            for (std::size_t i = 0; i < ts.mean_abs_diff.size(); ++i) os << (i ? ", " : "") << json_number(ts.mean_abs_diff[i]);
            os << "]}" << (last ? "" : ",");
        };
        for (int k = 0; k < eval::TERM_NB; ++k) term(eval::TERM_NAMES[k], t.terms[k], false);
        term("final", t.final, true);
        os << "]}";
    }
    os << "\n}\n";
    return os.str();
}

std::string report_svg(const Report& r) {
    const Similarity& s = r.similarity;
    const int n = int(r.engines.size());
    const std::vector<int> order = leaf_order(r.tree, n);
    // Layout: the tree on the left, row labels, the matrix; column labels above it, legend below.
    std::size_t longest = 4;
    for (const EngineSpec& e : r.engines) longest = std::max(longest, e.label.size());
    const int TREE_W = 160, LABEL_W = 8 * int(longest) + 20, CELL_W = 78, CELL_H = 40, TOP = 170, LEFT = 20, BOTTOM = 110;
    const int grid_x = LEFT + TREE_W + LABEL_W, width = std::max(grid_x + n * CELL_W + 6 * int(longest) + 20, 640);
    const int height = TOP + n * CELL_H + BOTTOM;
    std::ostringstream os;
    os << "<?xml version='1.0' encoding='UTF-8'?>\n<svg xmlns='http://www.w3.org/2000/svg' width='" << width
       << "' height='" << height << "' viewBox='0 0 " << width << " " << height
       << "' font-family='sans-serif' font-size='13'>\n<rect width='100%' height='100%' fill='#ffffff'/>\n";
    os << "<text x='" << LEFT << "' y='24' font-size='16' font-weight='bold'>Same move, % of " << s.positions
       << " positions (" << xml(r.limit.text()) << ")</text>\n";
    os << "<text x='" << LEFT << "' y='44' fill='#555555'>diagonal: the engine against itself, same limit (=) and twice "
          "the limit (2x)</text>\n<text x='" << LEFT << "' y='62' fill='#555555'>tree: average linkage on 1 - share</text>\n";
    // Colour: white at the lowest share of the matrix, dark blue at 100 %.
    double low = 1;
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            if (i != j) low = std::min(low, s.same_move[std::size_t(i)][std::size_t(j)].value());
    for (int i = 0; i < n; ++i) low = std::min({low, s.self_same[std::size_t(i)].value(), s.self_double[std::size_t(i)].value()});
    low = std::floor(low * 10) / 10;
    if (low >= 1) low = 0.9;
    const auto colour = [&](double v, bool* dark) {
        const double t = std::clamp((v - low) / (1 - low), 0.0, 1.0);
        const int rr = int(std::lround(247 + (8 - 247) * t)), gg = int(std::lround(251 + (48 - 251) * t)),
                  bb = int(std::lround(255 + (107 - 255) * t));
        *dark = t > 0.55;
        char b[16];
        std::snprintf(b, sizeof b, "#%02x%02x%02x", rr, gg, bb);
        return std::string(b);
    };
    for (int c = 0; c < n; ++c) {
        const int x = grid_x + c * CELL_W + CELL_W / 2, y = TOP - 8;
        os << "<text x='" << x << "' y='" << y << "' transform='rotate(-40 " << x << " " << y << ")'>"
           << xml(r.engines[std::size_t(order[std::size_t(c)])].label) << "</text>\n";
    }
    for (int row = 0; row < n; ++row) {
        const std::size_t i = std::size_t(order[std::size_t(row)]);
        const int y = TOP + row * CELL_H;
        os << "<text x='" << grid_x - 8 << "' y='" << y + CELL_H / 2 + 5 << "' text-anchor='end'>" << xml(r.engines[i].label)
           << "</text>\n";
        for (int col = 0; col < n; ++col) {
            const std::size_t j = std::size_t(order[std::size_t(col)]);
            const int x = grid_x + col * CELL_W;
            bool dark = false;
            const double v = i == j ? s.self_same[i].value() : s.same_move[i][j].value();
            const std::string fill = colour(v, &dark);
            const std::string ink = dark ? "#ffffff" : "#000000";
            os << "<g><title>" << xml(r.engines[i].label) << " / " << xml(r.engines[j].label) << ": "
               << (i == j ? "same limit " + share_text(s.self_same[i]) + ", twice the limit " + share_text(s.self_double[i])
                          : share_text(s.same_move[i][j]))
               << "</title><rect x='" << x << "' y='" << y << "' width='" << CELL_W << "' height='" << CELL_H << "' fill='"
               << fill << "' stroke='#ffffff'/>";
            if (i == j)
                os << "<text x='" << x + CELL_W / 2 << "' y='" << y + 17 << "' text-anchor='middle' font-size='11' fill='"
                   << ink << "'>= " << percent(s.self_same[i].value()) << "</text><text x='" << x + CELL_W / 2 << "' y='"
                   << y + 32 << "' text-anchor='middle' font-size='11' fill='" << ink << "'>2x " << percent(s.self_double[i].value())
                   << "</text>";
            else
                os << "<text x='" << x + CELL_W / 2 << "' y='" << y + CELL_H / 2 + 5 << "' text-anchor='middle' fill='" << ink
                   << "'>" << percent(v) << "</text>";
            os << "</g>\n";
        }
    }
    // The tree: leaves at the rows' centres on the right, the root on the left; x by merge height.
    if (!r.tree.empty()) {
        double top_height = 0;
        for (const Merge& m : r.tree) top_height = std::max(top_height, m.height);
        if (top_height <= 0) top_height = 1;
        const int right = LEFT + TREE_W;
        std::vector<double> node_x(std::size_t(n) + r.tree.size()), node_y(node_x.size());
        for (int row = 0; row < n; ++row) {
            node_x[std::size_t(order[std::size_t(row)])] = right;
            node_y[std::size_t(order[std::size_t(row)])] = TOP + row * CELL_H + CELL_H / 2.0;
        }
        os << "<g stroke='#333333' stroke-width='1.5' fill='none'>\n";
        for (std::size_t k = 0; k < r.tree.size(); ++k) {
            const Merge& m = r.tree[k];
            const double x = right - (TREE_W - 10) * m.height / top_height;
            const double ya = node_y[std::size_t(m.a)], yb = node_y[std::size_t(m.b)];
            os << "<path d='M" << fmt("%.1f", node_x[std::size_t(m.a)]) << "," << fmt("%.1f", ya) << " H" << fmt("%.1f", x)
               << " V" << fmt("%.1f", yb) << " H" << fmt("%.1f", node_x[std::size_t(m.b)]) << "'><title>"
               << fmt("%.3f", m.height) << "</title></path>\n";
            node_x[std::size_t(n) + k] = x;
            node_y[std::size_t(n) + k] = (ya + yb) / 2;
        }
        os << "</g>\n";
        const int axis_y = TOP + n * CELL_H + 18;
        os << "<g font-size='11' fill='#555555'><path d='M" << right - (TREE_W - 10) << "," << axis_y << " H" << right
           << "' stroke='#555555'/><text x='" << right << "' y='" << axis_y + 14 << "' text-anchor='middle'>0</text><text x='"
           << right - (TREE_W - 10) << "' y='" << axis_y + 14 << "' text-anchor='middle'>" << fmt("%.2f", top_height)
           << "</text><text x='" << right - (TREE_W - 10) / 2 << "' y='" << axis_y + 28
           << "' text-anchor='middle'>1 - share</text></g>\n";
    }
    // Colour legend.
    const int ly = TOP + n * CELL_H + 60;
    for (int k = 0; k <= 10; ++k) {
        bool dark = false;
        os << "<rect x='" << grid_x + k * 18 << "' y='" << ly << "' width='18' height='12' fill='"
           << colour(low + (1 - low) * k / 10.0, &dark) << "'/>";
    }
    os << "\n<text x='" << grid_x << "' y='" << ly + 28 << "' font-size='11'>" << percent(low) << "%</text><text x='"
       << grid_x + 11 * 18 << "' y='" << ly + 28 << "' font-size='11' text-anchor='end'>100%</text>\n</svg>\n";
    return os.str();
}

}  // namespace quince::similarity
