// quince train-nnue (tools/nnue/): the same data, options and seed give the same net whatever the thread
// count; a run resumed from a checkpoint ends where an uninterrupted one does; the loss falls; the quantised
// net agrees with the float one within 2 cp and evaluates in the engine as the trainer measured; the text
// reader tells games apart (the same ids wherever the file is) and names a bad line; the command line refuses
// each bad option and writes a net.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli/cli.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "eval/profile.h"
#include "nnue/trainer.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::nnue_train;

namespace {

const std::string SAMPLE = std::string(QUINCE_TEST_DATA_DIR) + "/nnue_sample.txt";

Dataset load_sample(std::vector<Position>* positions = nullptr) {
    Dataset d;
    std::string error;
    EXPECT_TRUE(read_text_positions(
        SAMPLE,
        [&](const Position& pos, int teacher, double result, std::uint64_t game, bool from_teacher) {
            d.add(pos, teacher, result, game, false, from_teacher);
            if (positions) positions->push_back(pos);
        },
        &error))
        << error;
    return d;
}

// Under ThreadSanitizer the tests below whose threads are only the trainer's skip themselves: the fixed-seed
// test runs those threads there (the Release and ASan+UBSan builds run every test).
constexpr const char* TRAINER_THREADS = "the trainer's threads: FixedSeedGivesTheSameNetWhateverTheThreads";

Options small_options() {
    Options o;
    o.epochs = 3;
    o.batch = 256;
    o.lr = 0.002;
    o.validation = 0.1;
    o.seed = 11;
    return o;
}

}  // namespace

TEST(NnueTrain, FixedSeedGivesTheSameNetWhateverTheThreads) {
    const Dataset d = load_sample();
    ASSERT_GT(d.samples().size(), 1000u);
    Options o = small_options();
    if (test::sanitized()) o.epochs = 1;  // many batches still; the sanitizer builds run this ten times slower
    Result one, two, again, three;
    std::string error;
    o.threads = 1;
    ASSERT_TRUE(train(d, o, one, nullptr, &error)) << error;
    o.threads = 3;  // threads that do not divide the work evenly
    ASSERT_TRUE(train(d, o, three, nullptr, &error)) << error;
    o.threads = 2;
    ASSERT_TRUE(train(d, o, two, nullptr, &error)) << error;
    ASSERT_TRUE(train(d, o, again, nullptr, &error)) << error;
    EXPECT_TRUE(one.net.p == two.net.p);
    EXPECT_TRUE(two.net.p == again.net.p);
    EXPECT_TRUE(one.net.p == three.net.p);
    // The losses too, which are sums over the threads' work.
    for (std::size_t e = 0; e < one.epochs.size(); ++e) {
        EXPECT_EQ(one.epochs[e].train_loss, three.epochs[e].train_loss);
        EXPECT_EQ(one.epochs[e].validation_loss, three.epochs[e].validation_loss);
    }
    o.seed = 12;  // and the seed matters
    Result other;
    ASSERT_TRUE(train(d, o, other, nullptr, &error)) << error;
    EXPECT_FALSE(other.net.p == two.net.p);

    // The quantiser is deterministic too. Not in the sanitizer builds, where its adaptive rounding took most of
    // this test's minutes: it runs one thread, and QuantisedNetMatchesTheFloatNetAndTheEngine runs it there.
    if (test::sanitized()) return;
    std::string a, b;
    QuantiseCheck qa, qb;
    const auto check = validation_indices(d, o);
    ASSERT_TRUE(quantise(one.net, d, calibration_indices(d, o), check, "x", a, qa, &error)) << error;
    ASSERT_TRUE(quantise(two.net, d, calibration_indices(d, o), check, "x", b, qb, &error)) << error;
    EXPECT_EQ(a, b);
}

// The analytic gradient is the loss's: a small step against it lowers the summed loss by |g|^2 times the step
// (to first order), on a young net and on a trained one, for lambda 0 and 0.5, for every architecture.
TEST(NnueTrain, GradientMatchesTheLoss) {
    if (test::thread_sanitizer) GTEST_SKIP() << TRAINER_THREADS;
    const Dataset d = load_sample();
    for (int arch = 0; arch < eval::nnue::ARCHITECTURE_COUNT; ++arch)
    for (int trained = 0; trained < 2; ++trained) {
        for (double lambda : {0.0, 0.5}) {
            Options o = small_options();
            o.arch = arch;
            o.lambda = lambda;
            o.epochs = trained ? (test::sanitized() ? 1 : 2) : 0;
            Result r;
            std::string error;
            if (trained) ASSERT_TRUE(train(d, o, r, nullptr, &error)) << error;
            else r.net.init(o.seed, arch);
            auto loss = [&](const FloatNet& net) {
                double sum = 0;
                for (std::size_t i = 0; i < 300; ++i) {
                    const Sample& s = d.samples()[i * 7];
                    const double pred = 1 / (1 + std::exp(-net.evaluate(s) / o.scale));
                    const double teacher = s.black_to_move ? -s.teacher : s.teacher;
                    const double result = s.black_to_move ? 1.0 - s.result : s.result;
                    const double target = (1 - lambda) / (1 + std::exp(-teacher / o.scale)) + lambda * result;
                    sum += (pred - target) * (pred - target);
                }
                return sum;
            };
            std::vector<float> g(r.net.at.size, 0.0f);
            double reported = 0;
            for (std::size_t i = 0; i < 300; ++i) reported += backprop(r.net, d.samples()[i * 7], o, g);
            const double before = loss(r.net);
            EXPECT_NEAR(reported, before, 1e-6 * before);
            // Block by block (input weights, the factoriser's shared ones where there are, input biases,
            // output layer), so that an error in one cannot hide behind another.
            const std::size_t blocks[5] = {r.net.at.ft_w, r.net.at.factor, r.net.at.ft_b, r.net.at.out_w, r.net.at.size};
            for (int b = 0; b < 4; ++b) {
                if (blocks[b] == blocks[b + 1]) continue;  // no factoriser
                double norm2 = 0;
                for (std::size_t i = blocks[b]; i < blocks[b + 1]; ++i) norm2 += double(g[i]) * g[i];
                ASSERT_GT(norm2, 0.0);
                const double step = 1e-3 * before / norm2;  // a predicted fall of 0.1 %
                FloatNet moved = r.net;
                for (std::size_t i = blocks[b]; i < blocks[b + 1]; ++i) moved.p[i] -= float(step * g[i]);
                const double ratio = (before - loss(moved)) / (step * norm2);
                EXPECT_GT(ratio, 0.9) << "block " << b << " trained " << trained << " lambda " << lambda << " arch " << arch;
                EXPECT_LT(ratio, 1.1) << "block " << b << " trained " << trained << " lambda " << lambda << " arch " << arch;
            }
        }
    }
}

TEST(NnueTrain, LossFallsAndValidationIsHeldOutByGame) {
    if (test::thread_sanitizer) GTEST_SKIP() << TRAINER_THREADS;
    const Dataset d = load_sample();
    Options o = small_options();
    o.epochs = test::sanitized() ? 3 : 4;
    Result r;
    std::string error;
    ASSERT_TRUE(train(d, o, r, nullptr, &error)) << error;
    ASSERT_EQ(r.epochs.size(), std::size_t(o.epochs));
    // The training loss falls epoch by epoch (the sample is far too small for the validation loss to
    // follow: it only has to be measured).
    for (std::size_t e = 1; e < r.epochs.size(); ++e) EXPECT_LT(r.epochs[e].train_loss, r.epochs[e - 1].train_loss);
    EXPECT_GT(r.epochs.back().validation_loss, 0.0);
    EXPECT_GT(r.validation_positions, 0u);
    EXPECT_EQ(r.train_positions + r.validation_positions, d.samples().size());
    // No game has positions on both sides of the split.
    std::set<std::uint64_t> held;
    for (std::size_t i : validation_indices(d, o)) held.insert(d.samples()[i].game);
    std::size_t in_validation = 0;
    for (const Sample& s : d.samples()) in_validation += held.count(s.game);
    EXPECT_EQ(in_validation, r.validation_positions);
}

TEST(NnueTrain, ResumedRunEndsWhereAnUninterruptedOneDoes) {
    if (test::thread_sanitizer) GTEST_SKIP() << TRAINER_THREADS;
    const Dataset d = load_sample();
    const std::string ckpt = ::testing::TempDir() + "/quince_nnue_test.ckpt";
    std::remove(ckpt.c_str());
    Options o = small_options();
    if (test::sanitized()) o.epochs = 2;  // the sanitizer builds run the trainer ten times slower
    const int epochs = o.epochs;
    Result straight, first, resumed;
    std::string error;
    ASSERT_TRUE(train(d, o, straight, nullptr, &error)) << error;
    o.epochs = 1;
    o.checkpoint = ckpt;
    ASSERT_TRUE(train(d, o, first, nullptr, &error)) << error;
    o.epochs = epochs;
    o.checkpoint.clear();
    o.resume = ckpt;
    ASSERT_TRUE(train(d, o, resumed, nullptr, &error)) << error;
    EXPECT_EQ(resumed.epochs.size(), std::size_t(epochs - 1));
    EXPECT_TRUE(resumed.net.p == straight.net.p);

    // A damaged checkpoint is refused by name.
    {
        std::ofstream f(ckpt, std::ios::binary | std::ios::app);
        f << "x";
    }
    Result bad;
    EXPECT_FALSE(train(d, o, bad, nullptr, &error));
    EXPECT_NE(error.find(ckpt), std::string::npos);
    std::remove(ckpt.c_str());
}

// The step size of each schedule, and a cosine run resumed from a checkpoint ends where an uninterrupted one
// does (its step size depends on the batch's place in the whole run).
TEST(NnueTrain, LearningRateSchedules) {
    Options o;
    o.lr = 0.01;
    o.lr_decay = 0.5;
    o.epochs = 4;
    EXPECT_DOUBLE_EQ(learning_rate(o, 0, 7, 10), 0.01);
    EXPECT_DOUBLE_EQ(learning_rate(o, 3, 0, 10), 0.01 * 0.125);  // exp: every epoch
    o.lr_schedule = LrSchedule::Step;
    o.lr_step = 2;
    const double step[4] = {0.01, 0.01, 0.005, 0.005};
    for (int e = 0; e < 4; ++e) EXPECT_DOUBLE_EQ(learning_rate(o, e, 5, 10), step[e]) << e;
    o.lr_schedule = LrSchedule::Cosine;
    o.lr_min = 0.001;
    EXPECT_DOUBLE_EQ(learning_rate(o, 0, 0, 10), 0.01);
    EXPECT_NEAR(learning_rate(o, 2, 0, 10), 0.0055, 1e-12);  // half way: the mean of lr and lr_min
    double last = 1;
    for (int e = 0; e < 4; ++e)
        for (std::size_t b = 0; b < 10; ++b) {
            const double lr = learning_rate(o, e, b, 10);
            EXPECT_LT(lr, last) << e << " " << b;  // falls batch by batch, not only epoch by epoch
            EXPECT_GT(lr, o.lr_min);
            last = lr;
        }
    EXPECT_NEAR(last, o.lr_min, 1e-2 * o.lr);  // after the last batch it would be lr_min itself

    if (test::thread_sanitizer) GTEST_SKIP() << TRAINER_THREADS;
    const Dataset d = load_sample();
    const std::string ckpt = ::testing::TempDir() + "/quince_nnue_cosine.ckpt";
    std::remove(ckpt.c_str());
    Options c = small_options();
    c.epochs = 2;
    Result exp_run, straight, first, resumed;
    std::string error;
    ASSERT_TRUE(train(d, c, exp_run, nullptr, &error)) << error;
    c.lr_schedule = LrSchedule::Cosine;
    ASSERT_TRUE(train(d, c, straight, nullptr, &error)) << error;
    EXPECT_FALSE(straight.net.p == exp_run.net.p);  // the schedule is used
    // A run of two epochs interrupted after its first: the checkpoint as it is when the second epoch's log
    // line comes (before that epoch's checkpoint replaces it). A run given one epoch would be another wave.
    struct CopyAtSecondEpoch : std::stringbuf {
        std::string from, to;
        int sync() override {
            if (to.size() && str().find("epoch 2/") != std::string::npos) {
                std::filesystem::copy_file(from, to, std::filesystem::copy_options::overwrite_existing);
                to.clear();
            }
            return 0;
        }
    } copier;
    copier.from = ckpt, copier.to = ckpt + ".1";
    std::ostream log(&copier);
    c.checkpoint = ckpt;
    ASSERT_TRUE(train(d, c, first, &log, &error)) << error;
    EXPECT_TRUE(first.net.p == straight.net.p);
    c.checkpoint.clear();
    c.resume = ckpt + ".1";
    ASSERT_TRUE(train(d, c, resumed, nullptr, &error)) << error;
    EXPECT_EQ(resumed.epochs.size(), 1u);
    EXPECT_TRUE(resumed.net.p == straight.net.p);
    std::remove((ckpt + ".1").c_str());
    std::remove(ckpt.c_str());
}

// The quantised net of every architecture: within 2 cp of the float net, and the engine's evaluation (the
// net file loaded as an evaluation) is what the quantiser measured.
TEST(NnueTrain, QuantisedNetMatchesTheFloatNetAndTheEngine) {
    if (test::thread_sanitizer) GTEST_SKIP() << TRAINER_THREADS;  // the quantiser runs one thread
    std::vector<Position> positions;
    const Dataset d = load_sample(&positions);
    for (int arch = 0; arch < eval::nnue::ARCHITECTURE_COUNT; ++arch) {
        const std::string name(eval::nnue::architecture_name(arch));
        Options o = small_options();
        o.arch = arch;
        Result r;
        std::string error, bytes;
        ASSERT_TRUE(train(d, o, r, nullptr, &error)) << error;
        EXPECT_EQ(r.net.arch, arch);
        const auto check = validation_indices(d, o);
        QuantiseCheck qc;
        ASSERT_TRUE(quantise(r.net, d, calibration_indices(d, o), check, "sample", bytes, qc, &error)) << name << ": " << error;
        EXPECT_EQ(qc.positions, check.size());
        EXPECT_LE(qc.mean_abs_diff_cp, 2.0) << name;
        // The net is not flat: the float outputs spread over tens of centipawns.
        double lo = 1e9, hi = -1e9;
        for (std::size_t i : check) lo = std::min(lo, r.net.evaluate(d.samples()[i])), hi = std::max(hi, r.net.evaluate(d.samples()[i]));
        EXPECT_GT(hi - lo, 20.0) << name;

        auto net = eval::nnue::parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &error);
        ASSERT_TRUE(net) << error;
        EXPECT_EQ(net->arch, arch);
        EXPECT_EQ(net->description, "sample");
        // The engine's network state: the net's output, before the known-ending scale the Evaluator applies.
        const auto state = eval::nnue::network_evaluation(net)->network->new_state();
        double diff = 0;
        for (std::size_t i : check) diff += std::abs(state->evaluate(positions[i]) - r.net.evaluate(d.samples()[i]));
        EXPECT_NEAR(diff / double(check.size()), qc.mean_abs_diff_cp, 1e-9) << name;
    }
}

// --arch 768x512-b8 (eight output buckets by the number of pieces) through the command line: the net's header
// names the architecture, each bucket's output was trained on its own positions (their biases differ), it
// loads as an evaluation; its checkpoint does not resume as another architecture.
TEST(NnueTrain, CommandLineTrainsTheBucketedArchitecture) {
    if (test::thread_sanitizer) GTEST_SKIP() << TRAINER_THREADS;
    const std::string net = testing::TempDir() + "nnue_cli_b8.nnue", checkpoint = testing::TempDir() + "nnue_cli_b8.ckpt";
    std::ostringstream out, err;
    ASSERT_EQ(run_train_nnue_cli({"--out", net, "--arch", "768x512-b8", "--epochs", "2", "--batch", "256", "--lr", "0.002",
                                  "--threads", "2", "--checkpoint", checkpoint, "--lr-schedule", "step", "--lr-step", "2", SAMPLE},
                                 out, err),
              0)
        << err.str();
    EXPECT_NE(out.str().find("(768x512-b8, "), std::string::npos) << out.str();
    std::string error;
    auto loaded = eval::nnue::load_network_file(net, &error);
    ASSERT_NE(loaded, nullptr) << error;
    EXPECT_EQ(loaded->arch, eval::nnue::find_architecture("768x512-b8"));
    EXPECT_NE(loaded->description.find(", arch 768x512-b8"), std::string::npos) << loaded->description;
    EXPECT_NE(loaded->description.find(", lr-decay 0.75 every 2 epochs,"), std::string::npos) << loaded->description;
    std::set<std::int32_t> biases(loaded->out_bias, loaded->out_bias + eval::nnue::Net768x512Buckets8::BUCKETS);
    EXPECT_GT(biases.size(), 4u);
    eval::Evaluator ev;
    ev.set_eval(eval::nnue::network_evaluation(loaded));
    Position pos;
    ASSERT_TRUE(pos.set_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
    EXPECT_EQ(ev.evaluate(pos), ev.evaluate(pos.flipped()));
    std::ostringstream again, again_err;
    EXPECT_EQ(run_train_nnue_cli({"--out", net + ".2", "--epochs", "3", "--resume", checkpoint, SAMPLE}, again, again_err), 1);
    EXPECT_NE(again_err.str().find("a checkpoint of architecture 768x512 has"), std::string::npos) << again_err.str();
    std::remove(net.c_str());
    std::remove(checkpoint.c_str());
}

// --arch 768x512-k4 (king buckets, mirrored, with the factoriser) through the command line, positions mirrored
// too: the net names its architecture and loads as an evaluation that scores a position as its mirror image
// and its colour-flipped twin.
TEST(NnueTrain, CommandLineTrainsTheKingBucketedArchitecture) {
    if (test::thread_sanitizer) GTEST_SKIP() << TRAINER_THREADS;
    const std::string net = testing::TempDir() + "nnue_cli_k4.nnue";
    std::ostringstream out, err;
    // A lower step size than the other tests': the factorised input weights (own and shared) move twice as
    // fast, and a tiny net overfitted to the sample quantises less closely on its validation positions.
    ASSERT_EQ(run_train_nnue_cli({"--out", net, "--arch", "768x512-k4", "--epochs", "2", "--batch", "256", "--lr", "0.001",
                                  "--threads", "2", "--mirror", SAMPLE},
                                 out, err),
              0)
        << err.str();
    EXPECT_NE(out.str().find("(768x512-k4, "), std::string::npos) << out.str();
    std::string error;
    auto loaded = eval::nnue::load_network_file(net, &error);
    ASSERT_NE(loaded, nullptr) << error;
    EXPECT_EQ(loaded->arch, eval::nnue::find_architecture("768x512-k4"));
    EXPECT_NE(loaded->description.find(", arch 768x512-k4"), std::string::npos) << loaded->description;
    eval::Evaluator ev;
    ev.set_eval(eval::nnue::network_evaluation(loaded));
    Position pos, mirrored;
    ASSERT_TRUE(pos.set_fen("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w - - 0 5"));
    ASSERT_TRUE(mirrored.set_fen("r2kqb1r/ppp1pppp/2n2n2/3p1b2/3P1B2/2N1P3/PPP2PPP/R2KQBNR w - - 0 5"));
    EXPECT_EQ(ev.evaluate(pos), ev.evaluate(pos.flipped()));
    EXPECT_EQ(ev.evaluate(pos), ev.evaluate(mirrored));
    std::remove(net.c_str());
}

// The factoriser: each input's weights in the net file are its own plus those of the input it shares with
// the other buckets (the same piece on the same square, mirrored as its bucket), which the float net adds
// up as it evaluates.
TEST(NnueTrain, FactoriserIsAddedIntoEveryBucketsWeights) {
    using A = eval::nnue::Net768x512Kings4;
    const int arch = eval::nnue::architecture_index<A>();
    FloatNet net;
    net.init(5, arch);
    ASSERT_EQ(net.at.ft_b - net.at.factor, std::size_t(768) * A::HIDDEN);
    for (std::size_t i = net.at.factor; i < net.at.ft_b; ++i) EXPECT_EQ(net.p[i], 0.0f);  // it starts at 0
    const Dataset d = load_sample();
    const double before = net.evaluate(d.samples()[0]);
    for (std::size_t i = net.at.factor; i < net.at.ft_b; ++i) net.p[i] = float(int(i % 7) - 3) * 0.01f;
    EXPECT_NE(net.evaluate(d.samples()[0]), before);  // the float net uses the shared weights
    std::vector<std::size_t> check;
    for (std::size_t i = 0; i < 200; ++i) check.push_back(i);
    std::string bytes, error;
    QuantiseCheck qc;
    ASSERT_TRUE(quantise(net, d, {}, check, "factorised", bytes, qc, &error, 50.0)) << error;
    EXPECT_LE(qc.mean_abs_diff_cp, 2.0);
    auto q = eval::nnue::parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &error);
    ASSERT_TRUE(q) << error;
    for (int input = 0; input < A::INPUTS; input += 37)
        for (int h = 0; h < A::HIDDEN; h += 5) {
            const std::size_t own = std::size_t(input) * A::HIDDEN + std::size_t(h);
            const std::size_t shared = net.at.factor + std::size_t(A::Inputs::factor(input)) * A::HIDDEN + std::size_t(h);
            const float sum = net.p[own] + net.p[shared];  // as the quantiser adds them
            ASSERT_EQ(q->ft_weights[own], std::lround(double(sum) * A::QA)) << input << " " << h;
        }
}

TEST(NnueTrain, TextReaderSplitsGamesAndNamesABadLine) {
    const std::string path = ::testing::TempDir() + "/quince_nnue_reader.txt";
    {
        std::ofstream f(path);
        f << "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 1.0 | 45\n"
             "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | 20 | 1.0\n"
             "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 | 10 | 0.5 | -5\n";
    }
    std::vector<std::uint64_t> games;
    std::vector<int> teachers;
    std::string error;
    ASSERT_TRUE(read_text_positions(
        path, [&](const Position&, int t, double, std::uint64_t g, bool) { games.push_back(g), teachers.push_back(t); },
        &error))
        << error;
    ASSERT_EQ(games.size(), 3u);
    EXPECT_EQ(games[0], games[1]);
    EXPECT_NE(games[1], games[2]);
    EXPECT_EQ(teachers, (std::vector<int>{45, 20, -5}));  // the teacher, else the search score
    // The same content under another name gives the same game ids (the validation split does not depend on
    // where the file is); a file that starts otherwise gives others.
    auto ids_of = [](const std::string& file) {
        std::vector<std::uint64_t> ids;
        std::string why;
        EXPECT_TRUE(read_text_positions(file, [&](const Position&, int, double, std::uint64_t g, bool) { ids.push_back(g); }, &why))
            << why;
        return ids;
    };
    const std::string moved = ::testing::TempDir() + "/quince_nnue_reader_elsewhere.txt";
    std::filesystem::copy_file(path, moved, std::filesystem::copy_options::overwrite_existing);
    EXPECT_EQ(ids_of(moved), games);
    {
        std::ofstream f(moved);
        f << "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 | 10 | 0.5 | -5\n";
    }
    const auto other = ids_of(moved);
    ASSERT_EQ(other.size(), 1u);
    EXPECT_NE(other[0], games[0]);
    std::remove(moved.c_str());
    {
        std::ofstream f(path, std::ios::app);
        f << "not a fen | 1 | 0.5\n";
    }
    EXPECT_FALSE(read_text_positions(path, [](const Position&, int, double, std::uint64_t, bool) {}, &error));
    EXPECT_NE(error.find(path + ":4:"), std::string::npos) << error;
    std::remove(path.c_str());
}

// A QTD set read as labelled positions (the teacher's scores) or as every quiet scored ply (Quince's own
// scores where no teacher scored it): the second holds the first and many more; a validation shard's
// positions are held out either way.
TEST(NnueTrain, QtdReaderTakesLabelledOrQuietPlies) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::string run = std::string(QUINCE_TEST_DATA_DIR) + "/training/sf3000-n1000-s1/";
    const std::vector<std::string> shards = {run + "shard-00000.qtd.xz", run + "shard-00019.qtd.xz"};
    Dataset labelled, quiet;
    std::string error;
    ASSERT_TRUE(read_qtd_positions(shards, labelled, &error)) << error;
    ASSERT_TRUE(read_qtd_positions(shards, quiet, &error, {training::Plies::Quiet})) << error;
    ASSERT_GT(labelled.samples().size(), 1000u);
    EXPECT_GT(quiet.samples().size(), 2 * labelled.samples().size());
    for (const Dataset* d : {&labelled, &quiet}) {
        std::size_t held = 0;
        for (const Sample& s : d->samples()) held += s.held_out;
        EXPECT_GT(held, 0u);                       // shard 19 is a validation shard
        EXPECT_LT(held, d->samples().size());      // shard 0 is not
    }
    // Every teacher score of the labelled set appears among the quiet plies' targets.
    std::multiset<float> targets;
    for (const Sample& s : quiet.samples()) targets.insert(s.teacher);
    for (const Sample& s : labelled.samples()) EXPECT_TRUE(targets.count(s.teacher)) << s.teacher;
}

// --teacher-scale: the labelled positions' targets are the teacher's scores times the scale; the quiet plies
// no teacher scored keep Quince's own score.
TEST(NnueTrain, TeacherScaleScalesOnlyTheTeachersScores) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::string run = std::string(QUINCE_TEST_DATA_DIR) + "/training/sf3000-n1000-s1/";
    const std::vector<std::string> shards = {run + "shard-00000.qtd.xz"};
    Dataset plain, scaled, plain_quiet, scaled_quiet;
    std::string error;
    ASSERT_TRUE(read_qtd_positions(shards, plain, &error)) << error;
    ASSERT_TRUE(read_qtd_positions(shards, scaled, &error, {training::Plies::Labelled, 0.5})) << error;
    ASSERT_EQ(plain.samples().size(), scaled.samples().size());
    int changed = 0;
    for (std::size_t i = 0; i < plain.samples().size(); ++i) {
        EXPECT_EQ(scaled.samples()[i].teacher, std::lround(plain.samples()[i].teacher * 0.5));
        changed += scaled.samples()[i].teacher != plain.samples()[i].teacher;
    }
    EXPECT_GT(changed, 100);
    ASSERT_TRUE(read_qtd_positions(shards, plain_quiet, &error, {training::Plies::Quiet})) << error;
    ASSERT_TRUE(read_qtd_positions(shards, scaled_quiet, &error, {training::Plies::Quiet, 0.5})) << error;
    ASSERT_EQ(plain_quiet.samples().size(), scaled_quiet.samples().size());
    int same = 0;
    for (std::size_t i = 0; i < plain_quiet.samples().size(); ++i)
        same += plain_quiet.samples()[i].teacher == scaled_quiet.samples()[i].teacher;
    // The plies without a teacher (about three in four) keep their targets; zero scores stay zero too.
    EXPECT_GT(same, int(plain_quiet.samples().size() - plain.samples().size()));
    EXPECT_LT(same, int(plain_quiet.samples().size()));
}

// --mirror: the copy of a position holds exactly the inputs of the position mirrored left to right.
TEST(NnueTrain, MirroredCopyIsTheMirroredPosition) {
    const std::string fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    std::string board = fen.substr(0, fen.find(' ')), mirrored;
    std::stringstream ranks(board);
    for (std::string rank; std::getline(ranks, rank, '/');)
        mirrored += (mirrored.empty() ? "" : "/") + std::string(rank.rbegin(), rank.rend());
    Position a, b;
    ASSERT_TRUE(a.set_fen(fen));
    ASSERT_TRUE(b.set_fen(mirrored + " w - - 4 4"));
    Dataset d, e;
    d.add(a, 35, 1.0, 7);
    d.add_mirrored();
    e.add(b, 35, 1.0, 7);
    ASSERT_EQ(d.samples().size(), 2u);
    const Sample &copy = d.samples()[1], &direct = e.samples()[0];
    EXPECT_EQ(std::multiset<int>(copy.features, copy.features + copy.count),
              std::multiset<int>(direct.features, direct.features + direct.count));
    // The kings mirrored too (SQ_E1 -> SQ_D1): king-bucketed inputs follow from them, and the copy evaluates
    // as the mirrored position in every architecture (in another order of its pieces' sums).
    EXPECT_EQ(copy.king[WHITE], direct.king[WHITE]);
    EXPECT_EQ(copy.king[BLACK], direct.king[BLACK]);
    EXPECT_EQ(direct.king[WHITE], SQ_D1);
    for (int arch = 0; arch < eval::nnue::ARCHITECTURE_COUNT; ++arch) {
        FloatNet net;
        net.init(3, arch);
        EXPECT_NEAR(net.evaluate(copy), net.evaluate(direct), 1e-3) << arch;
    }
    EXPECT_NE(std::multiset<int>(copy.features, copy.features + copy.count),
              std::multiset<int>(d.samples()[0].features, d.samples()[0].features + d.samples()[0].count));
    EXPECT_EQ(copy.teacher, 35);
    EXPECT_EQ(copy.game, 7u);
    EXPECT_EQ(copy.black_to_move, 0);
}

// The default description names runs of consecutive shards as ranges (a thousand shard names would not fit
// the header's 4,096 bytes), and every other file as given.
TEST(NnueTrain, DescriptionNamesShardRuns) {
    std::vector<std::string> files;
    for (int i = 0; i <= 393; ++i) {
        char name[64];
        std::snprintf(name, sizeof name, "data/training/s1/shard-%05d.qtd.xz", i);
        files.push_back(name);
    }
    files.push_back("data/training/s2/shard-00000.qtd.xz");
    files.push_back("data/training/s2/shard-00001.qtd.xz");
    files.push_back("data/training/s2/shard-00003.qtd.xz");
    files.push_back("data/training/s2/shard-00004.qtd.xz");
    files.push_back("data/training/s2/shard-00005.qtd.xz");
    files.push_back("positions.txt");
    files.push_back("shard-00007.qtd.zst");
    EXPECT_EQ(describe_files(files),
              "data/training/s1/shard-00000 .. shard-00393.qtd.xz data/training/s2/shard-00000.qtd.xz "
              "data/training/s2/shard-00001.qtd.xz data/training/s2/shard-00003 .. shard-00005.qtd.xz positions.txt "
              "shard-00007.qtd.zst");
    EXPECT_EQ(describe_files({}), "");
    EXPECT_EQ(describe_files({"a/shard-1.qtd.xz", "b/shard-2.qtd.xz", "b/shard-3.qtd.xz"}),
              "a/shard-1.qtd.xz b/shard-2.qtd.xz b/shard-3.qtd.xz");
}

// The command line: every option's bad value is refused with an error naming the option, before any data is
// read, and the net file named by --out is left as it was.
TEST(NnueTrain, CommandLineRefusesEachBadOptionAndKeepsTheOldNet) {
    const std::string net = testing::TempDir() + "nnue_cli_old.nnue";
    {
        std::ofstream f(net, std::ios::binary | std::ios::trunc);
        f << "the previous net";
    }
    struct Case {
        std::vector<std::string> args;
        std::string message;
    };
    const std::vector<Case> cases = {
        {{SAMPLE}, "--out NET.nnue is required"},
        {{"--out", net}, "expected at least one DATA file"},
        {{"--out", net, "--epochs", "0", SAMPLE}, "--epochs"},
        {{"--out", net, "--batch", "many", SAMPLE}, "--batch"},
        {{"--out", net, "--threads", "257", SAMPLE}, "--threads"},
        {{"--out", net, "--seed", "-1", SAMPLE}, "--seed"},
        {{"--out", net, "--limit", "0", SAMPLE}, "--limit"},
        {{"--out", net, "--calibration", "-5", SAMPLE}, "--calibration"},
        {{"--out", net, "--lr", "0", SAMPLE}, "--lr: '0' is not a number in"},
        {{"--out", net, "--lr-decay", "1.5", SAMPLE}, "--lr-decay: '1.5'"},
        {{"--out", net, "--lr-schedule", "linear", SAMPLE}, "--lr-schedule: 'linear' is not exp, step or cosine"},
        {{"--out", net, "--lr-schedule", "step", "--lr-step", "0", SAMPLE}, "--lr-step"},
        {{"--out", net, "--lr-step", "2", SAMPLE}, "--lr-step belongs to --lr-schedule step"},
        {{"--out", net, "--lr-schedule", "step", "--lr-min", "0", SAMPLE}, "--lr-min belongs to --lr-schedule cosine"},
        {{"--out", net, "--lr-schedule", "cosine", "--lr-decay", "0.5", SAMPLE}, "--lr-decay does not apply"},
        {{"--out", net, "--lr-schedule", "cosine", "--lr-min", "0.1", "--lr", "0.01", SAMPLE}, "--lr-min is above --lr"},
        {{"--out", net, "--lambda", "nan", SAMPLE}, "--lambda: 'nan'"},
        {{"--out", net, "--max-quantisation-error", "-1", SAMPLE}, "--max-quantisation-error: '-1'"},
        {{"--out", net, "--scale", "400cp", SAMPLE}, "--scale: '400cp'"},
        {{"--out", net, "--teacher-scale", "0", SAMPLE}, "--teacher-scale: '0'"},
        {{"--out", net, "--validation", "0.95", SAMPLE}, "--validation: '0.95'"},
        {{"--out", net, "--plies", "all", SAMPLE}, "--plies: 'all' is not labelled or quiet"},
        {{"--out", net, "--arch", "768x1024", SAMPLE}, "--arch: '768x1024' is not an architecture (768x512"},
        {{"--out", net, "--mirror=yes", SAMPLE}, "--mirror"},
        {{"--out", net, "--epoch", "2", SAMPLE}, "unknown option '--epoch'"},
        {{"--out", net, "--out", net, SAMPLE}, "--out given twice"},
    };
    for (const Case& c : cases) {
        std::ostringstream out, err;
        EXPECT_EQ(run_train_nnue_cli(c.args, out, err), 2) << c.message;
        EXPECT_NE(err.str().find("quince train-nnue: " + c.message), std::string::npos) << err.str();
        EXPECT_EQ(out.str(), "") << c.message;
    }
    // A data file that cannot be read: a failure naming it, not a usage error.
    {
        std::ostringstream out, err;
        EXPECT_EQ(run_train_nnue_cli({"--out", net, SAMPLE + ".missing"}, out, err), 1);
        EXPECT_NE(err.str().find("nnue_sample.txt.missing"), std::string::npos) << err.str();
    }
    std::ifstream f(net, std::ios::binary);
    std::stringstream kept;
    kept << f.rdbuf();
    EXPECT_EQ(kept.str(), "the previous net");
    std::remove(net.c_str());

    std::ostringstream out, err;
    EXPECT_EQ(run_train_nnue_cli({"--help"}, out, err), 0);
    EXPECT_NE(out.str().find("usage: quince train-nnue --out NET.nnue"), std::string::npos);
    EXPECT_NE(out.str().find("--arch NAME"), std::string::npos);
    EXPECT_NE(out.str().find("this build knows " + eval::nnue::architecture_names()), std::string::npos);
}

// --own-scores and the load filters: which targets a net learns from, and the lineage its header keeps.
TEST(NnueTrain, OwnScoresAndFiltersDecideTheTargetsAndTheLineage) {
    if (test::thread_sanitizer) GTEST_SKIP() << TRAINER_THREADS;
    const std::string run = std::string(QUINCE_TEST_DATA_DIR) + "/training/sf3000-n1000-s1/";
    const std::vector<std::string> shards = {run + "shard-00000.qtd.xz"};
    std::string error;
    Dataset labelled, quiet, own;
    ASSERT_TRUE(read_qtd_positions(shards, labelled, &error)) << error;
    ASSERT_TRUE(read_qtd_positions(shards, quiet, &error, {training::Plies::Quiet})) << error;
    QtdRead how{training::Plies::Quiet};
    how.own_scores = true;
    ASSERT_TRUE(read_qtd_positions(shards, own, &error, how)) << error;
    EXPECT_EQ(labelled.teacher_targets(), labelled.samples().size());
    EXPECT_EQ(quiet.teacher_targets(), labelled.samples().size());
    EXPECT_EQ(own.teacher_targets(), 0u);
    ASSERT_EQ(own.samples().size(), quiet.samples().size());
    std::size_t differ = 0;
    for (std::size_t i = 0; i < own.samples().size(); ++i) differ += own.samples()[i].teacher != quiet.samples()[i].teacher;
    EXPECT_GT(differ, labelled.samples().size() / 2);  // the teacher's labels replaced by Quince's scores
    EXPECT_LE(differ, labelled.samples().size());       // and nothing else

    Dataset skipped, few_pieces, none;
    how.skip_plies = 10;
    ASSERT_TRUE(read_qtd_positions(shards, skipped, &error, how)) << error;
    EXPECT_LT(skipped.samples().size(), own.samples().size());
    EXPECT_GT(skipped.samples().size(), own.samples().size() / 2);
    how.skip_plies = 0;
    how.min_pieces = 20;
    ASSERT_TRUE(read_qtd_positions(shards, few_pieces, &error, how)) << error;
    EXPECT_LT(few_pieces.samples().size(), own.samples().size());
    for (const Sample& s : few_pieces.samples()) EXPECT_GE(int(s.count), 20);
    how.min_pieces = 0;
    how.skip_plies = 1000;
    ASSERT_TRUE(read_qtd_positions(shards, none, &error, how)) << error;
    EXPECT_EQ(none.samples().size(), 0u);

    // The header says how many targets came from another engine: 0 with --own-scores, every labelled
    // position without it; `quince eval --json` reads it back.
    for (const bool own_scores : {true, false}) {
        const std::string net = testing::TempDir() + "nnue_lineage.nnue";
        std::vector<std::string> args = {"--out", net, "--epochs", "1", "--batch", "2048", "--threads", "1",
                                         "--calibration", "2000", "--plies", "quiet", shards[0]};
        if (own_scores) args.push_back("--own-scores");
        std::ostringstream out, err;
        ASSERT_EQ(run_train_nnue_cli(args, out, err), 0) << err.str();
        auto loaded = eval::nnue::load_network_file(net, &error);
        ASSERT_NE(loaded, nullptr) << error;
        const std::string expected = "teacher labels: " + std::to_string(own_scores ? 0 : labelled.samples().size()) +
                                     " of " + std::to_string(own.samples().size()) + " positions";
        EXPECT_NE(loaded->description.find(expected), std::string::npos) << loaded->description;
        EXPECT_EQ(eval::nnue::teacher_labels(loaded->description),
                  own_scores ? 0 : std::int64_t(labelled.samples().size()));
        std::ostringstream json, json_err;
        ASSERT_EQ(cli::run_eval({"--weights", net, "--json", "startpos"}, json, json_err), 0) << json_err.str();
        EXPECT_NE(json.str().find("\"teacher_labels\": " + std::string(own_scores ? "0" : std::to_string(labelled.samples().size()))),
                  std::string::npos) << json.str();
        std::remove(net.c_str());
    }
    EXPECT_EQ(eval::nnue::teacher_labels("trained on something"), -1);  // a net made before the lineage
    std::ostringstream out, err;
    EXPECT_EQ(run_train_nnue_cli({"--out", "x.nnue", "--own-scores", "--teacher-scale", "0.8", shards[0]}, out, err), 2);
    EXPECT_NE(err.str().find("--own-scores"), std::string::npos) << err.str();
}

// A whole run through the command line: every option set, the net written under --out with the description
// in its header, and it loads as an evaluation.
TEST(NnueTrain, CommandLineWritesANetThatLoads) {
    if (test::thread_sanitizer) GTEST_SKIP() << TRAINER_THREADS;
    const std::string net = testing::TempDir() + "nnue_cli_new.nnue";
    const std::string checkpoint = testing::TempDir() + "nnue_cli_new.ckpt";
    std::remove(net.c_str());
    std::ostringstream out, err;
    ASSERT_EQ(run_train_nnue_cli({"--out", net, "--epochs", "1", "--batch", "512", "--lr", "0.002", "--lr-decay",
                                  "0.5", "--lambda", "0", "--scale", "400", "--validation", "0.1", "--threads",
                                  "1", "--seed", "3", "--limit", "200", "--mirror", "--calibration", "100000",
                                  "--checkpoint", checkpoint, "--description", "a net of the command-line test",
                                  SAMPLE},
                                 out, err),
              0)
        << err.str();
    EXPECT_NE(err.str().find("read 200 positions from 1 file(s)"), std::string::npos) << err.str();
    EXPECT_NE(out.str().find("wrote " + net), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("quantised vs float over"), std::string::npos) << out.str();
    std::ifstream f(net, std::ios::binary);
    std::stringstream bytes;
    bytes << f.rdbuf();
    EXPECT_NE(bytes.str().find("a net of the command-line test"), std::string::npos);
    std::ifstream tmp(net + ".tmp");
    EXPECT_FALSE(tmp.good()) << "the temporary file is renamed";
    std::string error;
    EXPECT_NE(eval::nnue::load_network_file(net, &error), nullptr) << error;
    // The same float net (the checkpoint, no epoch left) with no quantisation error allowed: refused, named,
    // and the net already there is kept.
    std::ostringstream out0, err0;
    EXPECT_EQ(run_train_nnue_cli({"--out", net, "--epochs", "1", "--validation", "0.1", "--limit", "200", "--mirror",
                                  "--resume", checkpoint, "--max-quantisation-error", "0", SAMPLE},
                                 out0, err0),
              1);
    EXPECT_NE(err0.str().find("cp on average over"), std::string::npos) << err0.str();
    EXPECT_NE(err0.str().find("(at most 0 allowed, --max-quantisation-error;"), std::string::npos) << err0.str();
    std::ifstream kept(net, std::ios::binary);
    std::stringstream kept_bytes;
    kept_bytes << kept.rdbuf();
    EXPECT_EQ(kept_bytes.str(), bytes.str());
    std::remove(net.c_str());
    std::remove(checkpoint.c_str());
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
