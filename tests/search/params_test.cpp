// The search parameter table (search/params.h) and OpenBench's SPSA input lines (search::param::spsa_input).
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "eval/weights.h"
#include "eval/profile.h"
#include "search/params.h"
#include "uci/uci.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::search::param;

namespace {

std::vector<std::string> fields(const std::string& line) {
    std::vector<std::string> out;
    std::stringstream ss(line);
    for (std::string f; std::getline(ss, f, ',');) {
        while (!f.empty() && f.front() == ' ') f.erase(f.begin());
        out.push_back(f);
    }
    return out;
}

}  // namespace

TEST(SearchParams, TableIsConsistent) {
    std::set<std::string> names;
    ASSERT_GE(search_params().size(), 30u);
    for (const ParamInfo& p : search_params()) {
        EXPECT_TRUE(names.insert(p.name).second) << "duplicate " << p.name;
        EXPECT_LE(p.min, p.default_value) << p.name;
        EXPECT_LE(p.default_value, p.max) << p.name;
        EXPECT_LT(p.min, p.max) << p.name;
        EXPECT_GT(p.c_end, 0) << p.name;
        EXPECT_GT(p.r_end, 0) << p.name;
        EXPECT_EQ(search_param_value(p), p.default_value) << p.name;
        // A name without spaces or commas: one token in cutechess's option.NAME=VALUE and OpenBench's lists.
        EXPECT_EQ(std::string(p.name).find_first_of(" ,="), std::string::npos) << p.name;
    }
    // The constants the code sees are the table's defaults.
    EXPECT_EQ(RazorBase, 350);
    EXPECT_EQ(LmrBase, 80);
    EXPECT_EQ(LmrDivisor, 230);
}

TEST(SearchParams, SpsaLineFormat) {
    EXPECT_EQ(spsa_line("RfpMargin", 80, 30, 160, 6, 0.002), "RfpMargin, int, 80, 30, 160, 6, 0.002");
    EXPECT_EQ(spsa_line("x", -5, -10, 0, 0.5, 0.002), "x, int, -5, -10, 0, 0.5, 0.002");
}

TEST(SearchParams, ConstantsOnlyChangeInTheTuningBuild) {
    std::string error;
    if (TUNABLE) {
        EXPECT_FALSE(set_search_param("RfpMargin", 10000, &error));
        EXPECT_NE(error.find("between"), std::string::npos) << error;
        EXPECT_FALSE(set_search_param("NoSuchParam", 1, &error));
        ASSERT_TRUE(set_search_param("RfpMargin", 81, &error)) << error;
        ASSERT_TRUE(set_search_param("RfpMargin", 80, &error)) << error;
    } else {
        EXPECT_FALSE(set_search_param("RfpMargin", 81, &error));
        EXPECT_NE(error.find("QUINCE_TUNING"), std::string::npos) << error;
    }
}

// Every line is "name, int, value, min, max, c_end, r_end" with min <= value <= max, names unique; the
// search parameters come first, then the hand-crafted default profile's tunable weights.
TEST(SearchParams, SpsaInputLines) {
    const auto lines = search::param::spsa_input();
    eval::Weights w;
    ASSERT_TRUE(eval::builtin_weights(eval::default_handcrafted_profile(), w));
    const auto weights = eval::spsa_weights(w);
    ASSERT_EQ(lines.size(), search_params().size() + weights.size());
    ASSERT_GT(weights.size(), 50u);
    std::set<std::string> names;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto f = fields(lines[i]);
        ASSERT_EQ(f.size(), 7u) << lines[i];
        EXPECT_TRUE(names.insert(f[0]).second) << lines[i];
        EXPECT_EQ(f[1], "int") << lines[i];
        const long v = std::stol(f[2]), lo = std::stol(f[3]), hi = std::stol(f[4]);
        EXPECT_LE(lo, v) << lines[i];
        EXPECT_LE(v, hi) << lines[i];
        EXPECT_GT(std::stod(f[5]), 0) << lines[i];
        EXPECT_GT(std::stod(f[6]), 0) << lines[i];
        if (i < search_params().size()) EXPECT_EQ(f[0], search_params()[i].name);
        else EXPECT_EQ(std::stol(f[2]), eval::get_weight(w, weights[i - search_params().size()].index)) << lines[i];
    }
    EXPECT_TRUE(names.count("pawn_unit"));
    EXPECT_TRUE(names.count("passed_eg_6"));
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
