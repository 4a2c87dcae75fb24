// The UCI_ShowWDL model (eval/wdl.h): a proper distribution, monotone in the score, symmetric.
#include <gtest/gtest.h>

#include "eval/wdl.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

TEST(Wdl, MaterialCountOfTheModel) {
    Position p;
    ASSERT_TRUE(p.set_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false));
    EXPECT_EQ(wdl_material(p), 78);
    ASSERT_TRUE(p.set_fen("4k3/8/8/8/8/8/4P3/4K2R w - - 0 1", false));
    EXPECT_EQ(wdl_material(p), 6);
}

TEST(Wdl, FittedModelIsValidOverTheMaterialRange) {
    for (const WdlModel* model : {&fitted_wdl_model(), &network_wdl_model()})
        for (int m = WDL_MATERIAL_MIN; m <= WDL_MATERIAL_MAX; ++m) {
            EXPECT_GT(wdl_a(*model, m), 0) << m;  // W + L < 1000: some draws at every score
            EXPECT_GT(wdl_b(*model, m), 0) << m;  // the win rate rises with the score
        }
}

TEST(Wdl, AddsUpTo1000MonotoneAndSymmetric) {
    for (const WdlModel* model : {&fitted_wdl_model(), &network_wdl_model()}) {
        for (int m = 0; m <= 90; m += 3) {
            Wdl prev{};
            for (int v = -2000; v <= 2000; v += 5) {
                const Wdl w = score_to_wdl(v, m, *model);
                ASSERT_EQ(w.win + w.draw + w.loss, 1000) << v << " " << m;
                ASSERT_GE(w.win, 0);
                ASSERT_GE(w.draw, 0);
                ASSERT_GE(w.loss, 0);
                if (v > -2000) {
                    ASSERT_GE(w.win, prev.win) << v << " " << m;
                    ASSERT_LE(w.loss, prev.loss) << v << " " << m;
                }
                const Wdl mirrored = score_to_wdl(-v, m, *model);
                ASSERT_EQ(mirrored.win, w.loss) << v << " " << m;
                ASSERT_EQ(mirrored.loss, w.win) << v << " " << m;
                prev = w;
            }
            // Even scores are mostly draws or balanced; a large advantage is mostly a win.
            const Wdl even = score_to_wdl(0, m, *model);
            EXPECT_EQ(even.win, even.loss);
            EXPECT_GT(score_to_wdl(1000, m, *model).win, 900) << m;
        }
    }
}

TEST(Wdl, MatesAndTablebaseResultsAreCertain) {
    const Wdl win = score_to_wdl(mate_in(5), 40), loss = score_to_wdl(mated_in(4), 40);
    EXPECT_EQ(win.win, 1000);
    EXPECT_EQ(loss.loss, 1000);
    const Wdl tb = score_to_wdl(VALUE_TB - 10, 10);
    EXPECT_EQ(tb.win, 1000);
}

TEST(Wdl, AModelWithAGivenCentreAndSpread) {
    // a = 100, b = 50 at every material: +100 cp is an even win chance, +200 cp 1 / (1 + e^-2).
    const WdlModel flat{{0, 0, 0, 100}, {0, 0, 0, 50}};
    EXPECT_EQ(score_to_wdl(100, 40, flat).win, 500);
    EXPECT_EQ(score_to_wdl(200, 40, flat).win, 881);
    EXPECT_EQ(score_to_wdl(-100, 40, flat).loss, 500);
    EXPECT_EQ(score_to_wdl(0, 40, flat).win, 119);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
