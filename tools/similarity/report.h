// The report of a similarity test: text for people, JSON (documented in tools/similarity/README.md) and an
// SVG heat map with the clustering tree beside it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engines.h"
#include "matrix.h"
#include "runner.h"
#include "workbench/compare.h"

namespace quince::similarity {

struct Report {
    std::vector<EngineSpec> engines;
    std::vector<std::string> id_names;  // `id name` of each engine ("" when every result came from the state)
    std::string positions_source;
    SearchLimit limit;
    Similarity similarity;
    std::vector<Merge> tree;            // average linkage on 1 − same_move
    std::vector<double> searches_per_second;  // per engine process, over the searches made now (0: none)
    std::int64_t searched = 0, reused = 0;
    std::optional<workbench::EpdSummary> terms;  // Quince's profiles: the evaluation terms over the positions
};

std::string report_text(const Report& r);
std::string report_json(const Report& r);
std::string report_svg(const Report& r);

}  // namespace quince::similarity
