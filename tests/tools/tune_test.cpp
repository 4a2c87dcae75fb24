// The tuner: its coefficient trace rebuilds evaluate() for every profile, its gradient matches finite
// differences, and a tune on data labelled by known weights recovers them.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "eval/evaluate.h"
#include "support/test_positions.h"
#include "tune/tuner.h"

using namespace quince;
using namespace quince::tune;

namespace {

std::vector<Position> positions(std::size_t random_count = 1500) {
    std::vector<Position> v = test::suite_positions("perft.epd");
    for (const Position& p : test::random_game_positions(2024, 60, random_count, 200)) v.push_back(p);
    return v;
}

// The quince profile with its safe-check, weak-square and threat weights set to other values (quince has the
// switches on; these values differ from its fitted ones, so the rebuild is checked at a second point).
eval::Weights with_safe_checks() {
    eval::Weights w = eval::find_profile("quince")->w;
    w.king_safe_checks = true;
    w.king_check_unit_knight = 310, w.king_check_unit_bishop = 170, w.king_check_unit_rook = 420;
    w.king_check_unit_queen = 260;
    w.king_weak_unit = 90;
    w.threats = true;  // and the threat terms
    w.threat_pawn_op = 1500, w.threat_pawn_eg = 900, w.threat_minor_op = 1100, w.threat_minor_eg = 700;
    w.threat_rook_op = 900, w.threat_rook_eg = 500, w.threat_hanging_op = 600, w.threat_hanging_eg = 400;
    return w;
}

// The quince profile with the king danger count (eval/king_danger.h) in place of the king attack.
eval::Weights with_king_danger() {
    eval::Weights w = eval::find_profile("quince")->w;
    w.king_danger = true;
    w.king_danger_attacker_knight = 154, w.king_danger_attacker_bishop = 58, w.king_danger_attacker_rook = 96;
    w.king_danger_attacker_queen = 77, w.king_danger_zone_attack = 317, w.king_danger_weak = 365;
    w.king_danger_pawn = -211, w.king_danger_shelter = 3, w.king_danger_no_queen = -2650;
    w.king_danger_check_knight = 1181, w.king_danger_check_bishop = 490, w.king_danger_check_rook = 902;
    w.king_danger_check_queen = 912, w.king_danger_adjust = -173, w.king_danger_eg = 85;
    return w;
}

// Whether a step of ±h in weight j moves a king danger count across 0, the kink of max(count, 0):
// central differences do not see the gradient there.
bool king_danger_step_crosses_zero(const TunePosition& tp, const std::vector<double>& x, int j, double h) {
    const int base = eval::weight_index(*eval::find_weight("king_danger_attacker_knight"));
    const int t = j - base;
    if (t < 0 || t >= eval::KING_DANGER_WEIGHTS) return false;
    for (const auto& kd : tp.king_danger) {
        if (!kd.on) continue;
        double count = 0;
        for (int i = 0; i < eval::KING_DANGER_WEIGHTS; ++i) count += kd.n[i] * x[std::size_t(base + i)];
        if (std::abs(count) <= h * std::abs(kd.n[t])) return true;
    }
    return false;
}

}  // namespace

TEST(Tuner, CoefficientTraceRebuildsTheEvaluationOfEveryProfile) {
    const auto pos = positions();
    std::vector<std::string> names = eval::profile_names();
    names.push_back("quince+safe-checks");
    names.push_back("quince+king-danger");
    for (const std::string& name : names) {
        const auto prof = name == "quince+safe-checks"    ? eval::build_profile(with_safe_checks())
                          : name == "quince+king-danger" ? eval::build_profile(with_king_danger())
                                                         : eval::find_profile_shared(name);
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
    // rybka232 exercises the drawishness and after-interpolation halving; a phase table is tuned too.
    for (const std::string& name : {std::string("rybka1"), std::string("rybka232"), std::string("fruit21"),
                                    std::string("quince+safe-checks"), std::string("quince+king-danger")}) {
        eval::Weights w = name == "quince+safe-checks"    ? with_safe_checks()
                          : name == "quince+king-danger" ? with_king_danger()
                                                         : eval::find_profile(name)->w;
        auto base = eval::build_profile(w);
        w.phase_curve = eval::PhaseCurve::Table;
        for (int p = 0; p <= 64; ++p) w.phase_table_eg[std::size_t(p)] = base->interp[p][1];
        auto prof = eval::build_profile(w);
        Model model(w);
        std::vector<double> x = weights_vector(w);
        for (const Position& p : positions(300)) {
            TunePosition tp;
            ASSERT_TRUE(trace_position(*prof, p, tp));
            std::vector<double> g(x.size(), 0.0);
            model.add_gradient(tp, x, 1.0, g);
            for (std::size_t j = 0; j < x.size(); ++j) {
                const eval::WeightDesc& d = eval::weight_of_index(int(j));
                if (d.role == eval::Role::Fixed) continue;
                const double h = 0.5, keep = x[j];
                if (king_danger_step_crosses_zero(tp, x, int(j), h)) continue;
                x[j] = keep + h;
                const double up = model.evaluate(tp, x);
                x[j] = keep - h;
                const double down = model.evaluate(tp, x);
                x[j] = keep;
                const double fd = (up - down) / (2 * h);
                // Piecewise linear (drawishness cap): central differences agree away from the kinks.
                ASSERT_NEAR(g[j], fd, 1e-6 + 1e-6 * std::abs(fd)) << name << " " << eval::weight_label(int(j)) << " " << p.fen();
            }
        }
    }
}

TEST(Tuner, RecoversKnownWeightsFromSyntheticLabels) {
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
    for (const Position& p : test::random_game_positions(99, 400, 12000, 120)) {
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
    std::string err;
    // A file with a bad line names file and line.
    const std::string path = testing::TempDir() + "quince_tune_bad.txt";
    std::ofstream(path) << "8/8/8/8/8/8/4P3/k3K3 w - - 0 1 | 1 | 1.0\n8/8/8/8/8/8/4P3/k3K3 w - - 0 1 | 1 | 1.0 | x\n";
    std::vector<TunePosition> ps;
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
