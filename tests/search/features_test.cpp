// Switchable search features (UCI SearchDisable): parsing, and that every switch really reaches the search.
#include <gtest/gtest.h>

#include "board/notation.h"
#include "search/params.h"
#include "search/search.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::search;

namespace {

// Under ThreadSanitizer the node-count tests skip themselves: each runs one-thread searches, and
// Search.MultipleThreadsFindTheMate and the Uci tests run the search's threads there.
constexpr const char* ONE_THREAD = "one-thread searches: the search's threads are Search.MultipleThreadsFindTheMate's";

// Middlegame and endgame positions where every feature has work to do at depth 9.
const char* const POSITIONS[] = {
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R w KQ - 0 8",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "2r2rk1/1bqnbppp/p2ppn2/1p6/3NPP2/P1N1B3/1PPQB1PP/2KR3R w - - 0 14",
    "8/5pk1/6p1/3R4/5PK1/r5P1/8/8 b - - 4 45",
};

std::uint64_t total_nodes(const SearchFeatures& features, int depth) {
    Engine engine;
    SearchOptions options;
    options.silent = true;
    options.features = features;
    Limits limits;
    limits.depth = depth;
    std::uint64_t total = 0;
    for (const char* fen : POSITIONS) {
        engine.new_game();
        Position pos;
        EXPECT_TRUE(pos.set_fen(fen, false, nullptr)) << fen;
        total += engine.search(pos, limits, options).nodes;
    }
    return total;
}

}  // namespace

TEST(SearchFeatures, ParseDisabledList) {
    SearchFeatures f;
    std::string error;
    ASSERT_TRUE(f.parse_disabled("nmp, LMR probcut", &error)) << error;
    EXPECT_FALSE(f.on(Feature::NullMove));
    EXPECT_FALSE(f.on(Feature::LMR));
    EXPECT_FALSE(f.on(Feature::ProbCut));
    EXPECT_TRUE(f.on(Feature::Singular));
    EXPECT_EQ(f.disabled_list(), "nmp,probcut,lmr");

    // An unknown name is an error that names it and leaves the switches as they were.
    EXPECT_FALSE(f.parse_disabled("rfp,warp-drive", &error));
    EXPECT_NE(error.find("warp-drive"), std::string::npos);
    EXPECT_EQ(f.disabled_list(), "nmp,probcut,lmr");

    ASSERT_TRUE(f.parse_disabled("none", &error));
    EXPECT_EQ(f.disabled_list(), "none");
    ASSERT_TRUE(f.parse_disabled("<empty>", &error));
    EXPECT_EQ(f.disabled_list(), "none");
}

TEST(SearchFeatures, EveryNameRoundTrips) {
    for (const FeatureInfo& info : FEATURES) {
        SearchFeatures f;
        std::string error;
        ASSERT_TRUE(f.parse_disabled(info.name, &error)) << error;
        EXPECT_EQ(f.disabled_list(), info.name);
        for (const FeatureInfo& other : FEATURES) EXPECT_EQ(f.on(other.feature), other.feature != info.feature);
    }
}

// A switch that did not reach the search would leave the tree unchanged: each one must change the node
// count of a fixed-depth search on these positions. The check extension acts only deep in the tree, so
// its search goes two plies past the depth where it starts.
TEST(SearchFeatures, EverySwitchChangesTheTree) {
    if (test::thread_sanitizer) GTEST_SKIP() << ONE_THREAD;
    constexpr int DEPTH = 9;
    const int DEEP = param::CheckExtMinDepth + 2;
    const std::uint64_t all_on = total_nodes(SearchFeatures(), DEPTH);
    EXPECT_EQ(all_on, total_nodes(SearchFeatures(), DEPTH)) << "fixed-depth searches must be reproducible";
    const std::uint64_t all_on_deep = total_nodes(SearchFeatures(), DEEP);
    for (const FeatureInfo& info : FEATURES) {
        SearchFeatures f;
        f.set(info.feature, false);
        const bool deep = info.feature == Feature::CheckExtension;
        EXPECT_NE(total_nodes(f, deep ? DEEP : DEPTH), deep ? all_on_deep : all_on)
            << "switching off " << info.name << " changed nothing";
    }
}

TEST(SearchFeatures, TrialRulesAreOffUntilEnabled) {
    SearchFeatures f;
    for (const TrialInfo& c : TRIALS) EXPECT_FALSE(f.on(c.trial)) << c.name;
    EXPECT_EQ(f.enabled_list(), "none");
    std::string error;
    ASSERT_TRUE(f.parse_enabled("none", &error)) << error;
    ASSERT_TRUE(f.parse_enabled("", &error)) << error;
    EXPECT_EQ(f.enabled_list(), "none");

    // An unknown trial rule (a feature's name is one, and so is a deleted trial's) is an error naming
    // it; nothing changes.
    ASSERT_TRUE(f.parse_disabled("lmr", &error)) << error;
    EXPECT_FALSE(f.parse_enabled("cycle,nmp", &error));
    EXPECT_NE(error.find("'cycle'"), std::string::npos) << error;
    EXPECT_NE(error.find("known: " + SearchFeatures::trial_names()), std::string::npos) << error;
    EXPECT_EQ(f.enabled_list(), "none");
    EXPECT_EQ(f.disabled_list(), "lmr");

    for (const TrialInfo& c : TRIALS) {
        SearchFeatures one;
        ASSERT_TRUE(one.parse_enabled(c.name, &error)) << error;
        EXPECT_EQ(one.enabled_list(), c.name);
        for (const TrialInfo& other : TRIALS) EXPECT_EQ(one.on(other.trial), other.trial == c.trial);
    }
}

// Each trial rule, switched on alone, must change the tree of the same fixed-depth searches (a trial rule
// that never reached the search would not).
TEST(SearchFeatures, EveryTrialRuleChangesTheTree) {
    if (test::thread_sanitizer) GTEST_SKIP() << ONE_THREAD;
    constexpr int DEPTH = 9;
    const std::uint64_t base = total_nodes(SearchFeatures(), DEPTH);
    for (const TrialInfo& c : TRIALS) {
        SearchFeatures f;
        f.set(c.trial, true);
        EXPECT_NE(total_nodes(f, DEPTH), base) << "switching on " << c.name << " changed nothing";
    }
}

// Without any pruning, reduction or extension the search is plain alpha-beta and still correct.
TEST(SearchFeatures, EverythingOffStillFindsTheMate) {
    SearchFeatures f;
    std::string error;
    ASSERT_TRUE(f.parse_disabled(SearchFeatures::all_names(), &error)) << error;
    Engine engine;
    SearchOptions options;
    options.silent = true;
    options.features = f;
    Limits limits;
    limits.depth = 6;
    Position pos;
    // 1...Bc5+ 2.Kxc5 Qb6+ 3.Kd5 Qd6#
    ASSERT_TRUE(pos.set_fen("r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1", false, nullptr));
    SearchResult r = engine.search(pos, limits, options);
    EXPECT_EQ(move_to_uci(r.best, false), "f8c5");
    EXPECT_EQ(r.score, mate_in(5));
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
