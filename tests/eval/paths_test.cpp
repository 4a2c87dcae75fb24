// The evaluation's two code paths (eval/profile.h Path): the fast path fixes the switches beyond the
// Rybka 1.0 set at compile time, the general path reads them. On every profile and every test position
// they must give the same score and the same term table.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>

#include "eval/evaluate.h"
#include "eval/profile.h"
#include "eval/terms.h"
#include "eval/weights.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

// w with every weight that only the general path reads set to the value the fast path assumes.
Weights fast_path_weights(Weights w) {
    for (const WeightDesc& d : weight_descs()) {
        if (!d.fast) continue;
        if (d.kind == Kind::Bool) *d.flag(w) = *d.fast != 0;
        else
            for (int i = 0; i < d.count; ++i) d.ints(w)[i] = *d.fast;
    }
    return w;
}

void expect_paths_agree(const std::shared_ptr<const Profile>& prof, const std::vector<Position>& positions) {
    ASSERT_EQ(prof->path, Path::Fast) << prof->w.name;
    Evaluator ev;
    ev.set_profile(prof);
    for (const Position& pos : positions) {
        ASSERT_EQ(ev.evaluate(pos), ev.evaluate_general(pos)) << prof->w.name << " " << pos.fen();
        Trace fast, general;
        ev.evaluate_traced(pos, fast);
        ev.evaluate_general(pos, &general);
        ASSERT_EQ(fast.final_cp, general.final_cp) << prof->w.name << " " << pos.fen();
        ASSERT_EQ(std::memcmp(fast.v, general.v, sizeof fast.v), 0) << prof->w.name << " " << pos.fen();
        ASSERT_EQ(fast.op, general.op) << prof->w.name << " " << pos.fen();
        ASSERT_EQ(fast.eg, general.eg) << prof->w.name << " " << pos.fen();
    }
}

}  // namespace

TEST(EvalPaths, FastAndGeneralAgreeOnEveryProfile) {
    const std::vector<Position> positions = test::eval_test_positions();
    ASSERT_GT(positions.size(), 3000u);
    int fast_as_shipped = 0;
    for (const std::string& name : handcrafted_profile_names()) {
        const auto shipped = find_profile_shared(name);
        if (shipped->simple) continue;
        // The profile as shipped, where it runs the fast path (rybka1, rybka1-curve) ...
        if (shipped->path == Path::Fast) expect_paths_agree(shipped, positions), ++fast_as_shipped;
        // ... and every profile's weights with the general-only switches at their fast-path values, so
        // that the fast path is checked with quince's tables, rybka232's PSTs and fruit21's values too.
        Weights w = fast_path_weights(shipped->w);
        w.name = name + "-fast";
        expect_paths_agree(build_profile(w), positions);
    }
    EXPECT_EQ(fast_as_shipped, 2);
}

TEST(EvalPaths, EveryGeneralOnlyWeightTakesTheGeneralPath) {
    // The path follows from the values: a profile leaves the fast path as soon as one weight the fast
    // path fixes differs from that value.
    const Weights base = fast_path_weights(find_profile("rybka1")->w);
    EXPECT_TRUE(fast_path_holds(base));
    int checked = 0;
    for (const WeightDesc& d : weight_descs()) {
        if (!d.fast) continue;
        Weights w = base;
        if (d.kind == Kind::Bool) *d.flag(w) = *d.fast == 0;
        else d.ints(w)[d.count - 1] = *d.fast + 1;
        EXPECT_FALSE(fast_path_holds(w)) << d.name;
        EXPECT_EQ(build_profile(w)->path, Path::General) << d.name;
        ++checked;
    }
    EXPECT_GE(checked, 20);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
