// What `quince eval` (text and --json), the UCI `eval` command and a bad profile name print, byte for byte,
// against files recorded from earlier code (tests/data/eval_output/): a change of how evaluations are found
// and dispatched must not change a byte of what they show. QUINCE_RECORD_EVAL_OUTPUT=1 records them anew
// (only after a change meant to alter the output).
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "support/run_command.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

const std::string ENGINE = QUINCE_ENGINE_PATH;
const std::string DIR = std::string(QUINCE_TEST_DATA_DIR) + "/eval_output/";
const std::string EPD = DIR + "positions.epd";

std::string read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The run as one text: its exit status, then stdout and stderr.
std::string run(const std::vector<std::string>& args) {
    const test::CommandResult r = test::run_command(ENGINE, args);
    return "status " + std::to_string(r.status) + "\n--- stdout\n" + r.out + "--- stderr\n" + r.err;
}

void check(const std::string& name, const std::vector<std::string>& args) {
    const std::string got = run(args), path = DIR + name + ".txt";
    if (std::getenv("QUINCE_RECORD_EVAL_OUTPUT")) {
        std::ofstream(path, std::ios::binary) << got;
        return;
    }
    EXPECT_EQ(got, read_file(path)) << name << ": quince eval's output changed (" << path << ")";
}

// The recorded output of profile nnue is that of the net the build embedded then: another net scores
// otherwise, which is no change of the code.
bool recorded_net_embedded() {
    const auto net = eval::nnue::embedded_network();
    const std::string identity = net ? eval::nnue::checksum_hex(*net) : "none";
    if (std::getenv("QUINCE_RECORD_EVAL_OUTPUT")) std::ofstream(DIR + "net.txt") << identity << "\n";
    return read_file(DIR + "net.txt") == identity + "\n";
}

std::vector<std::string> handcrafted() { return {"rybka1", "rybka1-curve", "rybka232", "fruit21", "quince", "simple"}; }

TEST(EvalOutput, HandcraftedProfilesPrintWhatTheyPrinted) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    for (const std::string& p : handcrafted()) {
        check("eval-" + p, {"eval", "--profile", p, "--epd", EPD});
        check("eval-json-" + p, {"eval", "--json", "--profile", p, "--epd", EPD});
        check("uci-eval-" + p, {"setoption name EvalProfile value " + p,
                                "position fen 6k1/5pp1/4b2p/8/8/2B2P2/5KPP/8 w - - 0 40", "eval"});
    }
}

TEST(EvalOutput, TheNetworkPrintsWhatItPrinted) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    if (!recorded_net_embedded()) GTEST_SKIP() << "this build embeds another net than the recorded output's";
    check("eval-nnue", {"eval", "--profile", "nnue", "--epd", EPD});
    check("eval-json-nnue", {"eval", "--json", "--profile", "nnue", "--epd", EPD});
    check("uci-eval-nnue", {"setoption name EvalProfile value nnue", "position startpos moves e2e4", "eval"});
    check("eval-default", {"eval", "r2q1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R b KQ - 3 9"});
    check("weights-nnue", {"weights", "nnue"});  // a network has no weights to print: said so
}

// A name that is no evaluation: every user lists the ones there are, as it did.
TEST(EvalOutput, BadProfileNamesListTheKnownOnes) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    check("bad-eval", {"eval", "--profile", "nnuee", "startpos"});
    check("bad-uci", {"setoption name EvalProfile value nnuee"});
    check("bad-analyse", {"analyse", "--profile", "nnuee", "--depth", "1", "startpos"});
    check("bad-similarity", {"similarity", "profile:nnuee", "profile:quince"});
    check("bad-weights", {"weights"});
    check("weights-simple", {"weights", "simple"});
    check("weights-nosuch", {"weights", "nnuee"});
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
