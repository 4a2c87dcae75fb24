// The evaluation interface (eval/evaluation.h): one object for what the engine evaluates with, resolved from
// names, files and options in one place; a network plugs in beside the profiles without the search knowing.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "eval/evaluate.h"
#include "eval/evaluation.h"
#include "eval/nnue/network.h"
#include "eval/profile.h"
#include "eval/terms.h"
#include "eval/weights.h"
#include "search/search.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

// A network of one constant: the smallest evaluation that is not a profile. Its states count their
// calls, so a test can see which evaluation the engine really used.
struct ConstantNetwork : Network {
    explicit ConstantNetwork(Value v) : value(v) {}
    Value value;
    struct State : NetworkState {
        explicit State(Value v) : value(v) {}
        Value value;
        Value evaluate(const Position&) override { return value; }
    };
    std::unique_ptr<NetworkState> new_state() const override { return std::make_unique<State>(value); }
};

EvalPtr network_evaluation(Value v) { return net_evaluation(std::make_shared<ConstantNetwork>(v), "constant", "test"); }

std::string temp_file(const std::string& name, const std::string& content) {
    const std::string path = testing::TempDir() + name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
}

Position from_fen(const std::string& fen) {
    Position p;
    EXPECT_TRUE(p.set_fen(fen));
    return p;
}

}  // namespace

TEST(Evaluation, BuiltinByNameAndUnknownNames) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    std::string error;
    for (const std::string& name : profile_names()) {
        const EvalPtr e = builtin_evaluation(name, &error);
        ASSERT_TRUE(e) << name << ": " << error;
        EXPECT_EQ(e->name, name);
        EXPECT_TRUE(e->source.empty());
        EXPECT_EQ(e->profile, find_profile_shared(name));  // none for the network
        EXPECT_EQ(bool(e->network), name == "nnue");
    }
    EXPECT_FALSE(builtin_evaluation("nope", &error));
    EXPECT_EQ(error, std::string("unknown profile 'nope' (known: rybka1, rybka1-curve, rybka232, fruit21, quince, simple") +
                         (nnue::embedded_network() ? ", nnue)" : ")"));
    EXPECT_EQ(default_evaluation()->name, default_profile());
}

// The WDL model belongs to the evaluation: the search reports with the model of the one in force.
// A profile's is the one fitted on a profile's games, a network's the one fitted on the default net's.
TEST(Evaluation, CarriesItsWdlModel) {
    std::string error;
    const EvalPtr q = builtin_evaluation("quince", &error);
    ASSERT_TRUE(q) << error;
    EXPECT_EQ(q->wdl.a, fitted_wdl_model().a);
    EXPECT_EQ(q->wdl.b, fitted_wdl_model().b);
    if (!nnue::embedded_network()) GTEST_SKIP() << "this build embeds no net";
    const EvalPtr n = builtin_evaluation("nnue", &error);
    ASSERT_TRUE(n) << error;
    EXPECT_EQ(n->wdl.a, network_wdl_model().a);
    EXPECT_EQ(n->wdl.b, network_wdl_model().b);
    EXPECT_NE(n->wdl.a, q->wdl.a);
}

// EvalFile tells a network from a weights file by its first four bytes: a network is never read as a
// malformed weights file, and a weights file that happens to start with other text is one.
TEST(Evaluation, FileHeaderTellsANetworkFromWeights) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    std::string error;
    const std::string weights = temp_file("quince_eval_weights.txt", "profile tempo9\nbase rybka1\ntempo 9\n");
    const EvalPtr w = load_evaluation(weights, &error);
    ASSERT_TRUE(w) << error;
    EXPECT_TRUE(w->profile);
    EXPECT_FALSE(w->network);
    EXPECT_EQ(w->name, "tempo9");
    EXPECT_EQ(w->source, weights);

    const std::string net = temp_file("quince_eval_net.bin", std::string("QNN1") + std::string(64, '\0'));
    // A damaged network (version 0) goes to the network loader, whose message names the file.
    EXPECT_FALSE(load_evaluation(net, &error));
    EXPECT_NE(error.find("net format version 0"), std::string::npos) << error;
    EXPECT_NE(error.find(net), std::string::npos) << error;

    // Shorter than the header, or another header: a weights file, with the weights reader's message.
    const std::string shortfile = temp_file("quince_eval_short.txt", "QNN");
    EXPECT_FALSE(load_evaluation(shortfile, &error));
    EXPECT_EQ(error.find("is a network file"), std::string::npos) << error;
    EXPECT_NE(error.find(shortfile + ":1:"), std::string::npos) << error;
    EXPECT_FALSE(load_evaluation("/nonexistent/dir/w.txt", &error));
    EXPECT_EQ(error, "cannot open weights file '/nonexistent/dir/w.txt'");
    for (const std::string& p : {weights, net, shortfile}) std::remove(p.c_str());
}

// The options: a file outranks the profile, a failed setting changes nothing, an empty file returns
// to the profile.
TEST(Evaluation, SettingsResolveProfileAndFile) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    EvalSettings s;
    std::string error;
    EXPECT_EQ(s.evaluation()->name, default_profile());
    ASSERT_TRUE(s.set_profile("fruit21", &error)) << error;
    EXPECT_EQ(s.evaluation()->profile, find_profile_shared("fruit21"));
    EXPECT_FALSE(s.set_profile("nope", &error));
    EXPECT_EQ(s.profile(), "fruit21");
    EXPECT_EQ(s.evaluation()->name, "fruit21");

    const std::string weights = temp_file("quince_eval_settings.txt", "profile tempo9\nbase rybka1\ntempo 9\n");
    ASSERT_TRUE(s.set_file(weights, &error)) << error;
    EXPECT_EQ(s.evaluation()->name, "tempo9");
    ASSERT_TRUE(s.set_profile("rybka1", &error));  // kept for later: the file stays in force
    EXPECT_EQ(s.evaluation()->name, "tempo9");
    EXPECT_FALSE(s.set_file("/nonexistent/w.txt", &error));
    EXPECT_EQ(s.evaluation()->name, "tempo9");
    ASSERT_TRUE(s.set_file("<empty>", &error));
    EXPECT_FALSE(s.file());
    EXPECT_EQ(s.evaluation()->name, "rybka1");

    // A tuned weight applies on top of the profile in force (the tuning build's options).
    const int tempo = weight_index(*find_weight("tempo"));
    s.set_weight(tempo, 40);
    EXPECT_EQ(s.evaluation()->profile->w.tempo, 40);
    EXPECT_EQ(s.evaluation()->profile->w.rook_open_op, find_profile("rybka1")->w.rook_open_op);
    ASSERT_TRUE(s.set_profile("simple", &error));  // the baseline has no weights to tune
    EXPECT_EQ(s.evaluation()->profile, find_profile_shared("simple"));
    std::remove(weights.c_str());
}

// A network plugs in through the same call as a profile: the Evaluator dispatches to it, and the engine
// searches with it, without the search knowing which kind it has. (The fifty-move counter at 0: it would
// damp the score, eval/endgame.h.)
TEST(Evaluation, ANetworkPlugsIntoEvaluatorAndEngine) {
    const Position pos = from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 3");
    Evaluator ev;
    ev.set_eval(network_evaluation(37));
    EXPECT_EQ(ev.evaluate(pos), 37);
    EXPECT_EQ(ev.profile(), "constant");
    Trace t;
    EXPECT_EQ(ev.evaluate_traced(pos, t), 37);
    EXPECT_EQ(t.final_cp, 37);
    EXPECT_EQ(ev.evaluate_general(pos), 37);
    ev.set_profile("rybka1");
    EXPECT_EQ(ev.evaluate(pos), Evaluator("rybka1").evaluate(pos));

    search::Engine engine;
    engine.set_eval(network_evaluation(-55));
    EXPECT_EQ(engine.static_eval(pos), -55);
    search::Limits limits;
    limits.depth = 4;
    search::SearchOptions options;
    options.silent = true;
    const search::SearchResult r = engine.search(pos, limits, options);
    EXPECT_TRUE(r.best);
    EXPECT_NE(trace_text(pos, *engine.evaluation()).find("final score: -55 cp"), std::string::npos);
}

// One call reaches every thread, now and after the thread count changes; so does the lazy switch.
TEST(Evaluation, EngineGivesEveryThreadTheEvaluation) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    search::Engine engine;
    engine.set_threads(3);
    engine.set_eval(builtin_evaluation("fruit21", nullptr));
    engine.set_lazy_eval(false);
    engine.set_threads(4);
    for (int i = 0; i < engine.threads(); ++i) {
        EXPECT_EQ(engine.evaluator(i).profile(), "fruit21") << i;
        EXPECT_FALSE(engine.evaluator(i).lazy()) << i;
    }
    engine.set_eval(nullptr);  // ignored
    EXPECT_EQ(engine.evaluation()->name, "fruit21");
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
