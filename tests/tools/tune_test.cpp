// The tuner: its coefficient trace rebuilds evaluate() for every profile, its gradient matches finite
// differences, and a tune on data labelled by known weights recovers them.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "eval/evaluate.h"
#include "support/test_positions.h"
#include "support/test_profiles.h"
#include "board/notation.h"
#include "training/game_format.h"
#include "training/inputs.h"
#include "tune/tuner.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::tune;
using quince::training::expand_data_args;

namespace {

// The perft suite (every suite_stride-th position) and random_count positions of seeded random games.
std::vector<Position> positions(std::size_t random_count = 1500, std::size_t suite_stride = 1) {
    std::vector<Position> v;
    const std::vector<Position> suite = test::suite_positions("perft.epd");
    for (std::size_t i = 0; i < suite.size(); i += suite_stride) v.push_back(suite[i]);
    for (const Position& p : test::random_game_positions(2024, 60, random_count, 200)) v.push_back(p);
    return v;
}

}  // namespace

TEST(Tuner, CoefficientTraceRebuildsTheEvaluationOfEveryProfile) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const auto pos = positions();
    std::vector<std::string> names = eval::handcrafted_profile_names();
    for (const std::string& name : test::test_profile_names()) names.push_back(name);
    for (const std::string& name : names) {
        const auto prof = test::test_profile(name);
        if (prof->simple) continue;
        Model model(prof->w);
        const std::vector<double> x = weights_vector(prof->w);
        double worst = 0;
        std::string worst_fen;
        for (const Position& p : pos) {
            TunePosition tp;
            int cp = 0;
            ASSERT_TRUE(trace_position(*prof, p, tp, &cp));
            const double diff = std::abs(model.evaluate(tp, x) - cp);
            if (diff > worst) worst = diff, worst_fen = p.fen();
        }
        // Integer floors of the evaluation (king attack >> 5, shelter halving, >> 13, opposite-bishop
        // halving) against real arithmetic: within 2 cp.
        EXPECT_LE(worst, 2.0) << name << " worst at " << worst_fen;
    }
}

TEST(Tuner, GradientMatchesFiniteDifferences) {
    if (test::thread_sanitizer) GTEST_SKIP() << "one thread: nothing for ThreadSanitizer to see";
    // rybka232 exercises the drawishness and after-interpolation halving; a phase table is tuned too. The
    // test profiles include one per term group (tests/support/test_profiles.h).
    std::vector<std::string> names = {"rybka1", "rybka232", "fruit21"};
    for (const std::string& name : test::test_profile_names()) names.push_back(name);
    for (const std::string& name : names) {
        eval::Weights w = test::test_weights(name);
        auto base = eval::build_profile(w);
        w.phase_curve = eval::PhaseCurve::Table;
        for (int p = 0; p <= 64; ++p) w.phase_table_eg[std::size_t(p)] = base->interp[p][1];
        auto prof = eval::build_profile(w);
        Model model(w);
        std::vector<double> x = weights_vector(w);
        // Sanitizer builds: every tenth perft suite position and 20 random ones, 37 in all (23 s under
        // ThreadSanitizer); the Release build checks the whole suite and 300.
        const bool few = test::sanitized();
        for (const Position& p : positions(few ? 20 : 300, few ? 10 : 1)) {
            TunePosition tp;
            ASSERT_TRUE(trace_position(*prof, p, tp));
            std::vector<double> g(x.size(), 0.0);
            model.add_gradient(tp, x, 1.0, g);
            for (std::size_t j = 0; j < x.size(); ++j) {
                const eval::WeightDesc& d = eval::weight_of_index(int(j));
                if (d.role == eval::Role::Fixed) continue;
                const double h = 0.5, keep = x[j];
                x[j] = keep + h;
                const double up = model.evaluate(tp, x);
                x[j] = keep - h;
                const double down = model.evaluate(tp, x);
                x[j] = keep;
                const double fd = (up - down) / (2 * h);
                // The scaling's kinks (the complexity's clamp at -|eg|, the factor changing with eg's sign):
                // where the one-sided differences disagree, central differences do not see the gradient. The
                // complexity's jump at eg = 0 (sign(eg) x c) looks linear to these three points when eg is 0
                // at the middle one: the half step up must then show half the difference.
                if (w.complexity || w.scale_factors) {
                    const double mid = model.evaluate(tp, x);
                    x[j] = keep + h / 2;
                    const double half_up = model.evaluate(tp, x);
                    x[j] = keep;
                    const double tol = 1e-9 * (1 + std::abs(mid));
                    if (std::abs((up - mid) - (mid - down)) > tol || std::abs((up - mid) - 2 * (half_up - mid)) > tol) continue;
                }
                // Piecewise linear (drawishness cap): central differences agree away from the kinks.
                ASSERT_NEAR(g[j], fd, 1e-6 + 1e-6 * std::abs(fd)) << name << " " << eval::weight_label(int(j)) << " " << p.fen();
            }
        }
    }
}

TEST(Tuner, RecoversKnownWeightsFromSyntheticLabels) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    // Labels from a known weight set (rybka1 with some weights moved): result = sigmoid of that
    // evaluation. A tune of those weights from rybka1 must move them back to the known values.
    const eval::Weights start = eval::find_profile("rybka1")->w;
    eval::Weights truth = start;
    truth.rook_open_op += 900;
    truth.isolated_eg += 400;
    truth.mob_bishop_eg -= 60;
    truth.bishop_pair += 1200;
    truth.king_attack_unit_queen += 300;
    auto truth_prof = eval::build_profile(truth);
    auto start_prof = eval::build_profile(start);
    Model truth_model(truth);
    const std::vector<double> xt = weights_vector(truth);
    const double K = 1.0;
    std::vector<TunePosition> data;
    // Sanitizer builds: a third of the positions (the labels are exact, so they still pin the weights).
    for (const Position& p : test::random_game_positions(99, 400, test::sanitized() ? 4000 : 12000, 120)) {
        TunePosition tp;
        ASSERT_TRUE(trace_position(*start_prof, p, tp));
        tp.result = float(1.0 / (1.0 + std::exp(-K * truth_model.evaluate(tp, xt) / 400.0)));
        data.push_back(tp);
    }
    Options o;
    o.tune_groups = {"rook_open_op", "isolated_eg", "mob_bishop_eg", "bishop_pair", "king_attack_unit_queen"};
    o.K = K;
    o.epochs = 300;
    o.batch = 1024;
    o.lr = 40;
    o.patience = 300;
    o.validation = 0;
    o.quiet = true;
    Report rep;
    std::string err;
    ASSERT_TRUE(run_tune(o, start, data, rep, &err, nullptr)) << err;
    EXPECT_LT(rep.train_error_end, rep.train_error_start / 20);
    EXPECT_NEAR(rep.weights.rook_open_op, truth.rook_open_op, 60);
    EXPECT_NEAR(rep.weights.isolated_eg, truth.isolated_eg, 60);
    EXPECT_NEAR(rep.weights.mob_bishop_eg, truth.mob_bishop_eg, 10);
    EXPECT_NEAR(rep.weights.bishop_pair, truth.bishop_pair, 120);
    EXPECT_NEAR(rep.weights.king_attack_unit_queen, truth.king_attack_unit_queen, 60);
    // Frozen weights stay where they were.
    EXPECT_EQ(rep.weights.rook_open_eg, start.rook_open_eg);
    EXPECT_EQ(rep.weights.passed_op, start.passed_op);
}

TEST(Tuner, BadTrainingFilesAndGroupsAreNamed) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    std::string err;
    // A file with a bad line names file and line.
    const std::string path = testing::TempDir() + "quince_tune_bad.txt";
    std::ofstream(path) << "8/8/8/8/8/8/4P3/k3K3 w - - 0 1 | 1 | 1.0\n8/8/8/8/8/8/4P3/k3K3 w - - 0 1 | 1 | 1.0 | x\n";
    TuneSet ps;
    EXPECT_EQ(load_training_file(path, *eval::find_profile("rybka1"), ps, 0, &err), -1);
    EXPECT_EQ(err.rfind(path + ":2: ", 0), 0u) << err;
    EXPECT_NE(err.find("teacher"), std::string::npos) << err;
    std::remove(path.c_str());
    // Unknown groups are named.
    Options o;
    o.tune_groups = {"pawnz"};
    EXPECT_TRUE(tunable_mask(eval::find_profile("rybka1")->w, o, &err).empty());
    EXPECT_EQ(err.rfind("unknown group or weight 'pawnz'", 0), 0u) << err;
}

TEST(Tuner, ArenaKeepsEveryPositionExactly) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    // Every position pushed into the arena reads back with the same head and coefficients and scores
    // bit for bit as its own list; the coefficients are the trace's, exactly (halves in 16 bits).
    static_assert(sizeof(PositionHead) <= 40);
    const auto prof = eval::find_profile_shared("quince");
    Model model(prof->w);
    const std::vector<double> x = weights_vector(prof->w);
    std::vector<TunePosition> list;
    TuneSet set;
    for (const Position& p : positions(600)) {
        TunePosition tp;
        ASSERT_TRUE(trace_position(*prof, p, tp));
        tp.result = 0.25f * float(list.size() % 5);
        tp.score = std::int16_t(int(list.size()) - 300);
        list.push_back(tp);
        set.push(tp);
    }
    ASSERT_EQ(set.size(), list.size());
    std::size_t halves = 0;
    for (std::size_t i = 0; i < list.size(); ++i) {
        ASSERT_EQ(set.coefs_end(i) - set.coefs_begin(i), std::ptrdiff_t(list[i].coefs.size()));
        for (std::size_t k = 0; k < list[i].coefs.size(); ++k) {
            EXPECT_EQ(set.coefs_begin(i)[k].index, list[i].coefs[k].index);
            EXPECT_EQ(set.coefs_begin(i)[k].halves, list[i].coefs[k].halves);
            halves += list[i].coefs[k].halves % 2 != 0;
        }
        EXPECT_EQ(set.head(i).result, list[i].result);
        EXPECT_EQ(set.head(i).score, list[i].score);
        EXPECT_EQ(model.evaluate(set, i, x), model.evaluate(list[i], x));
    }
    EXPECT_GT(halves, 0u);  // the shelter's half coefficients are among them, kept exactly
    // The trace's own doubles against the kept coefficients, on one position with many terms.
    eval::Evaluator ev;
    ev.set_profile(prof);
    ev.set_lazy(false);
    eval::CoefTrace coef;
    eval::Trace trace;
    trace.coef = &coef;
    Position pos;
    ASSERT_TRUE(pos.set_fen("r1bq1rk1/pp3ppp/2n1pn2/2bp4/2P5/2N1PN2/PP1BBPPP/R2QK2R w KQ - 0 8", false, nullptr));
    ev.evaluate_traced(pos, trace);
    TunePosition tp;
    ASSERT_TRUE(trace_position(*prof, pos, tp));
    std::size_t k = 0;
    for (int i = 0; i < eval::weight_count(); ++i) {
        const double c = coef.c[WHITE][std::size_t(i)] - coef.c[BLACK][std::size_t(i)];
        if (c == 0) continue;
        ASSERT_LT(k, tp.coefs.size());
        EXPECT_EQ(tp.coefs[k].index, i);
        EXPECT_EQ(tp.coefs[k].value(), c) << eval::weight_label(i);
        ++k;
    }
    EXPECT_EQ(k, tp.coefs.size());
}

TEST(Tuner, ArenaPositionsNeverSpanTwoBlocks) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    // Positions with many coefficients fill more than one 4 M-coefficient block; each reads back whole.
    TuneSet set;
    std::vector<Coef> coefs(1000);
    for (std::size_t n = 0; n < 9000; ++n) {
        for (std::size_t k = 0; k < coefs.size(); ++k) coefs[k] = Coef{std::uint16_t(k), std::int16_t(int(n % 30000))};
        PositionHead h;
        h.score = std::int16_t(n);
        set.push(h, coefs.data(), coefs.data() + 1 + n % 1000);
    }
    for (std::size_t n = 0; n < set.size(); ++n) {
        ASSERT_EQ(set.coefs_end(n) - set.coefs_begin(n), std::ptrdiff_t(1 + n % 1000));
        ASSERT_EQ(set.head(n).score, std::int16_t(n));
        ASSERT_EQ(set.coefs_begin(n)->halves, std::int16_t(int(n % 30000)));
        ASSERT_EQ((set.coefs_end(n) - 1)->index, std::uint16_t(n % 1000));
    }
    EXPECT_GT(set.coef_count(), std::size_t(1) << 22);
}

namespace {

// Training files of random games: each game's positions consecutive, as datagen writes them; every
// third game has the result of the game before it (the ply must find that boundary). Returns for each
// line its game number (counting on across files).
struct GameFiles {
    std::vector<int> line_game;  // over every file written, in order
    int games = 0;
};

void write_games(const std::string& path, int games, std::uint64_t seed, GameFiles& g) {
    std::ofstream out(path);
    static const char* results[] = {"1.0", "0.5", "0.0"};
    for (int k = 0; k < games; ++k, ++g.games) {
        const char* result = results[(g.games - g.games / 3) % 3];
        const auto game = test::random_game_positions(seed + std::uint64_t(k), 1, 12 + std::size_t(k % 7), 40);
        for (const Position& p : game) {
            out << p.fen() << " | " << (k % 50) << " | " << result << " | " << -(k % 40) << "\n";
            g.line_game.push_back(g.games);
        }
    }
}

std::string temp_folder(const std::string& name) {
    const std::string dir = testing::TempDir() + name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

}  // namespace

TEST(Tuner, RelabelledFolderNamesBothCommands) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    // datagen --relabel writes its own command and the source folder's, prefixed "source ".
    const std::string dir = temp_folder("quince_tune_relabel");
    GameFiles g;
    std::filesystem::create_directories(dir + "/sf");
    std::ofstream(dir + "/sf/manifest.txt")
        << "# quince datagen: a relabelled copy\ncommand: quince datagen --relabel /a/gen --out /a/sf --teacher "
           "\"/usr/games/stockfish\" --teacher-nodes 3000\nsettings: relabel teacher='/usr/games/stockfish' "
           "teacher-nodes=3000\nsource command: quince datagen --seed 7 --out /x/gen\nsource settings: selfplay seed=7\n";
    write_games(dir + "/sf/shard-00000.txt", 4, 200, g);
    std::vector<std::string> files;
    std::string err;
    ASSERT_TRUE(expand_data_args({dir + "/sf"}, files, &err)) << err;
    TrainingData data;
    ASSERT_TRUE(load_training_data(files, *eval::find_profile("quince"), 4, 0, 1, data, &err)) << err;
    ASSERT_EQ(data.folders.size(), 1u);
    EXPECT_EQ(data.folders[0].command, "quince datagen --relabel gen --out sf --teacher \"stockfish\" --teacher-nodes 3000");
    EXPECT_EQ(data.folders[0].settings, "relabel teacher='stockfish' teacher-nodes=3000");
    EXPECT_EQ(data.folders[0].source_command, "quince datagen --seed 7 --out gen");
    EXPECT_EQ(data.folders[0].source_settings, "selfplay seed=7");
    std::filesystem::remove_all(dir);
}

TEST(Tuner, ValidationHoldsOutWholeGames) {
    // One big file, a shard folder (with a manifest) and a .list: the games are found, cut into shards of
    // at most 4 games, and the held-out shards never share a game with the training shards.
    const std::string dir = temp_folder("quince_tune_split");
    GameFiles g;
    write_games(dir + "/big.txt", 37, 100, g);
    std::filesystem::create_directories(dir + "/gen");
    std::ofstream(dir + "/gen/manifest.txt") << "# quince datagen\ncommand: quince datagen --book /some/where/book.epd --seed 7 --out /x/y/gen\n"
                                                "settings: selfplay seed=7 book=/some/where/book.epd\n";
    write_games(dir + "/gen/shard-00000.txt", 4, 200, g);
    write_games(dir + "/gen/shard-00001.txt", 4, 300, g);
    std::ofstream(dir + "/more.list") << "# a list\n\nbig.txt\n";
    std::vector<std::string> files;
    std::string err;
    ASSERT_TRUE(expand_data_args({dir + "/more.list", dir + "/gen"}, files, &err)) << err;
    ASSERT_EQ(files.size(), 3u);
    TrainingData data;
    ASSERT_TRUE(load_training_data(files, *eval::find_profile("quince"), 4, 0, 2, data, &err)) << err;
    ASSERT_EQ(data.set.size(), g.line_game.size());
    EXPECT_EQ(data.games, 45);
    EXPECT_EQ(data.shards.size(), 10u + 2u);  // 37 games in shards of 4 (9 + 1), one per shard file
    ASSERT_EQ(data.folders.size(), 2u);
    EXPECT_EQ(data.folders[1].name, "gen");
    EXPECT_EQ(data.folders[1].games, 8);
    EXPECT_EQ(data.folders[1].command, "quince datagen --book book.epd --seed 7 --out gen");
    EXPECT_EQ(data.folders[1].settings, "selfplay seed=7 book=book.epd");
    EXPECT_EQ(data.folders[1].source_command, "");
    for (const std::uint64_t seed : {1, 2, 3}) {
        Options o;
        o.seed = seed;
        o.validation = 0.25;
        const std::vector<bool> held = validation_shards(data.shards.size(), o);
        EXPECT_EQ(std::count(held.begin(), held.end(), true), 3);
        EXPECT_EQ(held, validation_shards(data.shards.size(), o));  // deterministic
        std::vector<int> side(std::size_t(g.games), -1);
        for (std::size_t k = 0; k < data.shards.size(); ++k)
            for (std::size_t i = data.shards[k].begin; i < data.shards[k].end; ++i) {
                int& s = side[std::size_t(g.line_game[i])];
                if (s == -1) s = held[k];
                EXPECT_EQ(s, int(held[k])) << "game " << g.line_game[i] << " on both sides";
            }
        o.validation_shards = 5;
        const std::vector<bool> five = validation_shards(data.shards.size(), o);
        EXPECT_EQ(std::count(five.begin(), five.end(), true), 5);
    }
    // A whole tune from those inputs holds out whole shards.
    Options o;
    o.data = {dir + "/more.list", dir + "/gen"};
    o.shard_games = 4;
    o.validation_shards = 3;
    o.epochs = 1;
    o.quiet = true;
    o.tune_groups = {"imbalance"};
    Report rep;
    ASSERT_TRUE(run_tune(o, eval::find_profile("quince")->w, {}, rep, &err, nullptr)) << err;
    EXPECT_EQ(rep.valid_shards, 3u);
    EXPECT_EQ(rep.train_shards, 9u);
    EXPECT_EQ(rep.train_positions + rep.valid_positions, g.line_game.size());
    EXPECT_GT(rep.valid_result_error_start, 0);
    std::filesystem::remove_all(dir);
}

TEST(Tuner, BadDataInputsFitNothing) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::string dir = temp_folder("quince_tune_bad_inputs");
    GameFiles g;
    write_games(dir + "/shard-00000.txt", 3, 1, g);
    std::ofstream(dir + "/shard-00001.txt") << "8/8/8/8/8/8/4P3/k3K3 w - - 0 1 | 1 | 1.0\n8/8/8/8/8/8/4P3/k3K3 w - - 0 1 | 1 | 2.0\n";
    std::ofstream(dir + "/missing.list") << "shard-00000.txt\nnot-there.txt\n";
    std::filesystem::create_directories(dir + "/empty");
    std::vector<std::string> files;
    std::string err;
    EXPECT_FALSE(expand_data_args({dir + "/nowhere.txt"}, files, &err));
    EXPECT_NE(err.find("nowhere.txt"), std::string::npos) << err;
    EXPECT_FALSE(expand_data_args({dir + "/missing.list"}, files, &err));
    EXPECT_NE(err.find("missing.list:2: no such training file"), std::string::npos) << err;
    EXPECT_FALSE(expand_data_args({dir + "/empty"}, files, &err));
    EXPECT_NE(err.find("no shard-*.txt"), std::string::npos) << err;
    // A malformed line in the second shard of a folder: named by file and line, and `quince tune` writes nothing.
    const std::string out = dir + "/out.txt";
    std::ostringstream printed, errors;
    EXPECT_EQ(run_tune_cli({"--data", dir, "--profile", "quince", "--epochs", "1", "--quiet", "--out", out}, printed, errors),
              2);
    const std::string said = errors.str();
    EXPECT_NE(said.find(dir + "/shard-00001.txt:2: "), std::string::npos) << said;
    EXPECT_NE(said.find("result"), std::string::npos) << said;
    EXPECT_FALSE(std::filesystem::exists(out));
    std::filesystem::remove_all(dir);
}

// The starting weights come from a hand-crafted profile: the baseline and the network have none, and a name
// that is no profile is refused; each error lists the hand-crafted profiles (the registry's).
TEST(Tuner, StartingProfileIsAHandCraftedOne) {
    const std::string hand = "(the hand-crafted ones: rybka1, rybka1-curve, rybka232, fruit21, quince)";
    for (const auto& [profile, said_first] :
         std::vector<std::pair<std::string, std::string>>{{"simple", "quince tune: profile 'simple' has no weights to tune "},
                                                          {"nope", "quince tune: unknown profile 'nope' "}}) {
        std::ostringstream printed, errors;
        EXPECT_EQ(run_tune_cli({"--data", "unused.txt", "--profile", profile, "--out", "unused-out.txt"}, printed, errors), 2);
        EXPECT_EQ(errors.str(), said_first + hand + " (see 'quince tune --help')\n");
    }
}

TEST(Tuner, NonDecreasingProjection) {
    // Pool adjacent violators: 3 1 2 -> the block (3, 1, 2) pools to 2 2 2; an ordered run is kept.
    std::vector<double> v = {0, 3, 1, 2, 5, 4, 6};
    make_non_decreasing(v.data(), int(v.size()));
    EXPECT_EQ(v, (std::vector<double>{0, 2, 2, 2, 4.5, 4.5, 6}));
    std::vector<double> w = {1, 2, 3};
    make_non_decreasing(w.data(), 3);
    EXPECT_EQ(w, (std::vector<double>{1, 2, 3}));
}

TEST(Tuner, MonotonePhaseTableStaysNonDecreasing) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    // The quince profile's fitted phase table is not monotone; tuned with --phase-monotone it comes out
    // non-decreasing in the phase (and without the option it keeps a decrease somewhere).
    const eval::Weights start = eval::find_profile("quince")->w;
    ASSERT_EQ(start.phase_curve, eval::PhaseCurve::Table);
    const auto decreases = [](const std::array<int, 65>& t) {
        for (int p = 1; p <= 64; ++p)
            if (t[std::size_t(p)] < t[std::size_t(p - 1)]) return true;
        return false;
    };
    ASSERT_TRUE(decreases(start.phase_table_eg));
    auto prof = eval::build_profile(start);
    std::vector<TunePosition> data;
    for (const Position& p : test::random_game_positions(5, 100, 2000, 120)) {
        TunePosition tp;
        ASSERT_TRUE(trace_position(*prof, p, tp));
        tp.result = 0.5f;
        data.push_back(tp);
    }
    Options o;
    o.tune_groups = {"phase_table_eg"};
    o.K = 1.0;
    o.epochs = 2;
    o.validation = 0;
    o.quiet = true;
    o.phase_monotone = true;
    Report rep;
    std::string err;
    ASSERT_TRUE(run_tune(o, start, data, rep, &err, nullptr)) << err;
    EXPECT_FALSE(decreases(rep.weights.phase_table_eg));
    o.phase_monotone = false;
    ASSERT_TRUE(run_tune(o, start, data, rep, &err, nullptr)) << err;
    EXPECT_TRUE(decreases(rep.weights.phase_table_eg));
}

// The shipped starting weights of the quince profile's fit (tools/tune/quince-start.txt) load, and switch on
// exactly what the profile switches on, so the fit its header describes can be run again.
TEST(TuneStart, ShippedStartHasTheProfilesSwitches) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::string path = std::string(QUINCE_TEST_DATA_DIR) + "/../../tools/tune/quince-start.txt";
    std::string err;
    const auto start = eval::load_profile_file(path, &err);
    ASSERT_TRUE(start) << err;
    eval::Weights s = start->w, q = eval::find_profile("quince")->w;
    for (const eval::WeightDesc& d : eval::weight_descs()) {
        if (d.kind == eval::Kind::Bool) {
            EXPECT_EQ(*d.flag(s), *d.flag(q)) << d.name;
        } else if (d.kind == eval::Kind::Enum) {
            EXPECT_EQ(d.get_enum(s), d.get_enum(q)) << d.name;
        }
    }
    EXPECT_TRUE(q.threats2 && q.pawns2 && q.pieces2 && q.complexity && q.scale_factors && q.mob_tables);
}

TEST(Tuner, ReadsQtdTrainingSetsAndKeepsTheirValidationShards) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    // Two QTD shards, the second numbered 19 (a validation shard of the set): the tuner streams their labelled
    // positions (the teacher's score as the teacher column), one tuner shard per file, with the set's split.
    const std::string dir = temp_folder("quince_tune_qtd");
    std::filesystem::create_directories(dir + "/run");
    std::ofstream(dir + "/run/manifest.txt") << "command: quince datagen --out data/training/run --seed 5\n"
                                                "settings: selfplay seed=5\n";
    training::TrainingGame game;
    Position pos;
    for (const char* m : {"e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"}) {
        game.moves.push_back(uci_to_move(pos, m));
        pos.do_move(game.moves.back());
    }
    game.opening_plies = 1;
    game.scores = {10, 20, 30, 40, 50};
    game.result = training::GameResult::WhiteWins;
    game.labels = {{1, 15}, {3, -40}, {5, 60}};
    training::ShardHeader h;
    h.has_teacher = true;
    std::string bytes, err;
    ASSERT_TRUE(training::encode_shard(h, {game, game}, &bytes, &err)) << err;
    ASSERT_TRUE(training::write_shard_file(dir + "/run/shard-00000.qtd.xz", bytes, training::Codec::Xz, &err)) << err;
    ASSERT_TRUE(training::write_shard_file(dir + "/run/shard-00019.qtd.xz", bytes, training::Codec::Xz, &err)) << err;
    std::vector<std::string> files;
    ASSERT_TRUE(expand_data_args({dir}, files, &err)) << err;
    ASSERT_EQ(files.size(), 2u);
    TrainingData data;
    ASSERT_TRUE(load_training_data(files, *eval::find_profile("quince"), 200, 0, 2, data, &err)) << err;
    EXPECT_EQ(data.set.size(), 12u);
    EXPECT_EQ(data.games, 4);
    ASSERT_EQ(data.shards.size(), 2u);
    EXPECT_EQ(data.shards[0].fixed, 0);
    EXPECT_EQ(data.shards[1].fixed, 1);
    EXPECT_EQ(data.folders[0].command, "quince datagen --out run --seed 5");
    // The labels as the tuner sees them: Quince's score, the teacher's, the result, White's view.
    EXPECT_EQ(data.set.head(0).score, 10);
    EXPECT_EQ(data.set.head(0).teacher, 15);
    EXPECT_TRUE(data.set.head(0).has_teacher);
    EXPECT_EQ(data.set.head(1).teacher, -40);
    EXPECT_EQ(data.set.head(2).score, 50);
    EXPECT_FLOAT_EQ(data.set.head(2).result, 1.0f);
    std::filesystem::remove_all(dir);
}

TEST(Tuner, TheSameQtdDataSeedAndThreadsGiveTheSameWeights) {
    // The refit's promise on a committed sample: the first two shards of the training set (one held out),
    // two threads, twice.
    const std::string run = std::string(QUINCE_TEST_DATA_DIR) + "/training/sf3000-n1000-s1/";
    Options o;
    o.data = {run + "shard-00000.qtd.xz", run + "shard-00001.qtd.xz"};
    o.validation_shards = 1;
    o.teacher = true;
    o.lambda = 0;
    o.K = 2.8494;
    o.reg = 0.0001;
    o.epochs = 2;
    o.threads = 2;
    o.seed = 1;
    const eval::Weights start = eval::find_profile("quince")->w;
    Report a, b;
    std::string err;
    ASSERT_TRUE(run_tune(o, start, {}, a, &err, nullptr)) << err;
    ASSERT_TRUE(run_tune(o, start, {}, b, &err, nullptr)) << err;
    EXPECT_GT(a.train_positions, 5000u);
    EXPECT_GT(a.valid_positions, 5000u);
    EXPECT_EQ(eval::format_weights(a.weights), eval::format_weights(b.weights));
    EXPECT_NE(eval::format_weights(a.weights), eval::format_weights(start));  // it did fit
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
