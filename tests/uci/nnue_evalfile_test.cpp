// EvalFile with a net file, through the engine's UCI loop: the net is loaded (and `eval` names it), a truncated net answers one error and the net in force stays, the engine searches with it.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <vector>

#include "cli/cli.h"
#include "engine_process.h"
#include "eval/nnue/network.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval::nnue;
using quince::test::EngineProcess;

namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr int SLOW = 8;
#else
constexpr int SLOW = 1;
#endif
constexpr int WAIT_MS = 30000 * SLOW;

// A small deterministic net within the loader's bounds: material-like weights on own and opposing pieces.
std::string net_bytes() {
    using A = DefaultArchitecture;
    auto net = Network::blank(architecture_index<A>());
    for (int f = 0; f < A::INPUTS; ++f)
        for (int h = 0; h < A::HIDDEN; ++h)
            net->ft_weights[std::size_t(f) * A::HIDDEN + std::size_t(h)] = std::int16_t((f * 31 + h * 17) % 61 - 30);
    for (int h = 0; h < A::HIDDEN; ++h) net->ft_bias[std::size_t(h)] = 40;
    for (int i = 0; i < 2 * A::HIDDEN; ++i) net->out_weights[std::size_t(i)] = std::int16_t((i * 13) % 41 - 20);
    net->out_bias[0] = 1000;
    net->description = "uci test net";
    return serialise_network(*net);
}

}  // namespace

TEST(NnueUci, EvalFileLoadsANetAndABadNetChangesNothing) {
    const std::string good = testing::TempDir() + "quince_uci_good.nnue", bad = testing::TempDir() + "quince_uci_bad.nnue";
    const std::string bytes = net_bytes();
    std::ofstream(good, std::ios::binary) << bytes;
    std::ofstream(bad, std::ios::binary) << bytes.substr(0, bytes.size() - 100);
    EngineProcess e;
    e.send("uci");
    ASSERT_TRUE(e.read_until("uciok", WAIT_MS));
    e.send("setoption name EvalFile value " + good);
    auto loaded = e.read_line(WAIT_MS);
    ASSERT_TRUE(loaded);
    EXPECT_EQ(*loaded, "info string EvalFile: loaded network 'quince_uci_good.nnue' from " + good);
    auto eval_first_line = [&e] {
        e.send("eval");
        auto lines = e.read_until("final score:", WAIT_MS);
        e.send("isready");  // past the trace's legend
        EXPECT_TRUE(e.read_until("readyok", WAIT_MS));
        return lines ? (*lines)[0] : std::string();
    };
    EXPECT_EQ(eval_first_line().rfind("network quince_uci_good.nnue", 0), 0u);
    e.send("setoption name EvalFile value " + bad);
    auto err = e.read_line(WAIT_MS);
    ASSERT_TRUE(err);
    EXPECT_EQ(err->rfind("info string error: setoption: " + bad + ": truncated: ", 0), 0u) << *err;
    EXPECT_EQ(eval_first_line().rfind("network quince_uci_good.nnue", 0), 0u);
    e.send("position startpos moves e2e4");
    e.send("go depth 6");
    auto result = e.read_until("bestmove", WAIT_MS);
    ASSERT_TRUE(result);
    EXPECT_NE(result->back(), "bestmove 0000");
    std::remove(good.c_str());
    std::remove(bad.c_str());
}

// `quince eval --weights NET`: the network's score, then the term table of a hand-crafted profile for the same
// position (--profile, else quince); --json holds both; --svg is refused (a net has no terms to draw).
TEST(NnueUci, EvalCommandPrintsTheNetBesideAProfilesTerms) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::string net = testing::TempDir() + "quince_cli_eval.nnue";
    std::ofstream(net, std::ios::binary) << net_bytes();
    const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    auto run = [&](std::vector<std::string> args, std::string* text) {
        std::ostringstream out, err;
        const int status = cli::run_eval(args, out, err);
        *text = out.str() + err.str();
        return status;
    };
    std::string text;
    ASSERT_EQ(run({"--weights", net, fen}, &text), cli::EXIT_OK) << text;
    EXPECT_EQ(text.rfind("network quince_cli_eval.nnue", 0), 0u) << text;
    EXPECT_NE(text.find("\ntrained: uci test net\n"), std::string::npos) << text;  // the header's description
    EXPECT_NE(text.find("The hand-crafted terms of quince for the same position:"), std::string::npos) << text;
    EXPECT_NE(text.find("pst_knight"), std::string::npos) << text;
    ASSERT_EQ(run({"--weights", net, "--profile", "rybka1", fen}, &text), cli::EXIT_OK) << text;
    EXPECT_NE(text.find("The hand-crafted terms of rybka1 for the same position:"), std::string::npos) << text;
    ASSERT_EQ(run({"--json", "--weights", net, fen}, &text), cli::EXIT_OK) << text;
    EXPECT_EQ(text.rfind("{\"network\": {\"name\": \"quince_cli_eval.nnue\"", 0), 0u) << text;
    EXPECT_NE(text.find("\"profile\": {"), std::string::npos) << text;
    EXPECT_NE(text.find("\"terms\": ["), std::string::npos) << text;
    EXPECT_EQ(run({"--svg", "--weights", net, fen}, &text), cli::EXIT_FAILED);
    EXPECT_NE(text.find("is a network"), std::string::npos) << text;
    std::remove(net.c_str());
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
