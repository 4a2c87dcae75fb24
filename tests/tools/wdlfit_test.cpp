// quince wdlfit: the maximum-likelihood fit recovers a known model from results drawn from it; the
// training-file reader and the command line.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "wdlfit/wdlfit.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::wdlfit;

namespace {

// Results drawn from `truth` at random material counts and scores (seeded: the same points every run).
std::vector<Point> draw_points(const eval::WdlModel& truth, int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto uniform = [&rng] { return double(rng() >> 11) / double(1ULL << 53); };
    std::vector<Point> points;
    for (int i = 0; i < n; ++i) {
        const int material = eval::WDL_MATERIAL_MIN + int(uniform() * (eval::WDL_MATERIAL_MAX - eval::WDL_MATERIAL_MIN + 1));
        const double v = -500 + 1000 * uniform();
        const double pw = eval::wdl_win_rate(truth, v, material), pl = eval::wdl_win_rate(truth, -v, material);
        const double r = uniform();
        points.push_back({v, material, r < pw ? 1.0 : r < pw + pl ? 0.0 : 0.5});
    }
    return points;
}

std::string temp_path(const std::string& name) {
    return ::testing::TempDir() + "wdlfit_" + std::to_string(::getpid()) + "_" + name;
}

}  // namespace

TEST(WdlFit, RecoversAKnownModel) {
    const eval::WdlModel truth{{0, 0, 120, 60}, {0, 0, 60, 40}};  // a = 120x + 60, b = 60x + 40
    const auto points = draw_points(truth, 60000, 7);
    const FitResult r = fit(points, 1);
    ASSERT_TRUE(r.converged);
    for (int m : {20, 40, 58, 78}) {
        EXPECT_NEAR(eval::wdl_a(r.model, m), eval::wdl_a(truth, m), 0.08 * eval::wdl_a(truth, m)) << m;
        EXPECT_NEAR(eval::wdl_b(r.model, m), eval::wdl_b(truth, m), 0.08 * eval::wdl_b(truth, m)) << m;
    }
    // The fitted model explains the draws at least as well as the one they were drawn from, and better
    // than a model blind to the material.
    EXPECT_LE(r.loss, mean_loss(truth, points) + 1e-9);
    EXPECT_LT(r.loss, r.constant_loss);
    // The cubic fit can only do as well or better on the same points.
    EXPECT_LE(fit(points, 3).loss, r.loss + 1e-9);
}

TEST(WdlFit, ReaderSkipsLargeScoresAndNamesTheBadLine) {
    const std::string path = temp_path("data.txt");
    {
        std::ofstream f(path);
        f << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 20 | 0.5\n"
          << "4k3/8/8/8/8/8/4P3/4K2R w - - 0 1 | 5000 | 1.0 | 4000\n"
          << "4k3/8/8/8/8/8/4P3/4K2R w - - 0 1 | 400 | 1.0\n";
    }
    std::vector<Point> points;
    ReadStats stats;
    std::string error;
    ASSERT_TRUE(read_points(path, 3000, points, stats, &error)) << error;
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(stats.beyond_max_score, 1u);
    EXPECT_EQ(points[0].material, 78);
    EXPECT_EQ(points[1].material, 6);
    EXPECT_EQ(points[1].score, 400);
    EXPECT_EQ(points[1].result, 1.0);
    {
        std::ofstream f(path, std::ios::app);
        f << "not a fen | 1 | 0.5\n";
    }
    points.clear();
    EXPECT_FALSE(read_points(path, 3000, points, stats, &error));
    EXPECT_NE(error.find(path + ":4:"), std::string::npos) << error;
    EXPECT_FALSE(read_points(path + ".missing", 3000, points, stats, &error));
    std::remove(path.c_str());
}

TEST(WdlFit, CommandLinePrintsTheCoefficients) {
    // Positions of two material counts whose results follow the score.
    const eval::WdlModel truth{{0, 0, 0, 80}, {0, 0, 0, 60}};
    const auto points = draw_points(truth, 3000, 11);
    const std::string path = temp_path("cli.txt");
    {
        std::ofstream f(path);
        for (const Point& p : points)
            f << (p.material < 48 ? "4k3/8/8/8/8/8/4P3/4K2R w - - 0 1" : "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
              << " | " << std::lround(p.score) << " | " << (p.result == 1.0 ? "1.0" : p.result == 0.0 ? "0.0" : "0.5") << "\n";
    }
    std::ostringstream out, err;
    EXPECT_EQ(run_wdlfit_cli({"--degree", "0", path}, out, err), 0) << err.str();
    EXPECT_NE(out.str().find("positions: 3000 of 3000 lines"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("coefficients (eval/wdl.cpp):"), std::string::npos) << out.str();
    std::ostringstream out2, err2;
    EXPECT_EQ(run_wdlfit_cli({"--degree", "4", path}, out2, err2), 2);
    EXPECT_NE(err2.str().find("--degree"), std::string::npos) << err2.str();
    EXPECT_EQ(run_wdlfit_cli({}, out2, err2), 2);
    std::remove(path.c_str());
}

TEST(WdlFit, CommandLineReadsFoldersAndScoresHeldOutGames) {
    // Fit data in a datagen-style folder; held-out games from a very different model in a .list file.
    const std::string dir = temp_path("folder");
    std::filesystem::create_directories(dir + "/fit");
    auto write = [](const std::string& path, const std::vector<Point>& points) {
        std::ofstream f(path);
        for (const Point& p : points)
            f << "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | " << std::lround(p.score) << " | "
              << (p.result == 1.0 ? "1.0" : p.result == 0.0 ? "0.0" : "0.5") << "\n";
    };
    const eval::WdlModel truth{{0, 0, 0, 80}, {0, 0, 0, 60}}, other{{0, 0, 0, 400}, {0, 0, 0, 300}};
    write(dir + "/fit/shard-00000.txt", draw_points(truth, 2000, 21));
    write(dir + "/fit/shard-00001.txt", draw_points(truth, 2000, 22));
    write(dir + "/fit/notes.txt", {});  // not a shard: ignored
    write(dir + "/held.txt", draw_points(other, 2000, 23));
    { std::ofstream(dir + "/held.list") << "# held-out games\nheld.txt\n"; }

    std::ostringstream out, err;
    ASSERT_EQ(run_wdlfit_cli({"--degree", "0", "--test", dir + "/held.list", dir + "/fit"}, out, err), 0) << err.str();
    const std::string o = out.str();
    EXPECT_NE(o.find("positions: 4000 of 4000 lines in 2 file(s)"), std::string::npos) << o;
    EXPECT_NE(o.find("; the model in use: "), std::string::npos) << o;
    // The held-out line: the fit's loss and the model in use's, both finite numbers.
    const auto at = o.find("test: 2000 positions in 1 file(s); mean log-loss of the fit ");
    ASSERT_NE(at, std::string::npos) << o;
    const std::string fit_text = "mean log-loss of the fit ", in_use_text = "of the model in use ";
    const double fit_loss = std::stod(o.substr(o.find(fit_text, at) + fit_text.size()));
    const double in_use_loss = std::stod(o.substr(o.find(in_use_text, at) + in_use_text.size()));
    EXPECT_GT(fit_loss, 0.3);
    EXPECT_GT(in_use_loss, 0.3);
    // The held-out games follow another model than the fit's, so the fit explains them worse than its own.
    const FitResult own = fit(draw_points(truth, 4000, 24), 0);
    EXPECT_GT(fit_loss, own.loss);

    std::ostringstream out2, err2;
    EXPECT_EQ(run_wdlfit_cli({"--test", dir + "/missing.list", dir + "/fit"}, out2, err2), 1);
    EXPECT_NE(err2.str().find("missing.list"), std::string::npos) << err2.str();
    std::ostringstream out3, err3;
    EXPECT_EQ(run_wdlfit_cli({dir + "/nowhere"}, out3, err3), 1);
    EXPECT_NE(err3.str().find("nowhere"), std::string::npos) << err3.str();
    std::filesystem::remove_all(dir);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
