// The `quince` command line: help, version, usage errors, argument forms, UCI lines as arguments,
// and `quince analyse` (run as a process, and its formatting pieces in-process).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "board/notation.h"
#include "cli/analyse.h"
#include "cli/cli.h"
#include "eval/evaluate.h"
#include "cli/program.h"
#include "search/params.h"
#include "core/text.h"
#include "quince_version.h"
#include "support/run_command.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using quince::test::run_command;

namespace {

const std::string ENGINE = QUINCE_ENGINE_PATH;
const std::string ITALIAN = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) lines.push_back(l);
    return lines;
}

std::vector<std::string> words_of(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream in(text);
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

}  // namespace

TEST(Cli, HelpGoesToStdoutWithExitZero) {
    for (const char* flag : {"--help", "-h"}) {
        auto r = run_command(ENGINE, {flag});
        EXPECT_EQ(r.status, 0);
        EXPECT_TRUE(r.err.empty());
        for (const char* sub : {"analyse", "eval", "compare", "perft", "bench", "--version"})
            EXPECT_NE(r.out.find(sub), std::string::npos) << sub;
    }
    auto r = run_command(ENGINE, {"perft", "--help"});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out.rfind("usage: quince perft DEPTH", 0), 0u) << r.out;
    r = run_command(ENGINE, {"analyse", "--help"});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("--json"), std::string::npos);    // The tools list their own options, not a pointer back to --help.
    for (const auto& [tool, options] : std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"tune", {"--data", "--out", "--profile", "--epochs", "--lambda", "--teacher", "--freeze"}},
             {"datagen", {"--out", "--games", "--positions", "--nodes", "--book", "--teacher-nodes", "--teacher-timeout", "--from-pgn"}}}) {
        r = run_command(ENGINE, {tool, "--help"});
        EXPECT_EQ(r.status, 0) << tool;
        EXPECT_EQ(r.out.rfind("usage: quince " + tool, 0), 0u) << r.out;
        for (const std::string& o : options) EXPECT_NE(r.out.find(o), std::string::npos) << tool << " " << o;
    }
}

TEST(Cli, VersionNamesTheVersionAndTheBenchSignatureOfThisBuild) {
    auto r = run_command(ENGINE, {"--version"});
    ASSERT_EQ(r.status, 0);
    auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 3u) << r.out;
    EXPECT_EQ(lines[0], std::string("Quince ") + QUINCE_VERSION);
    // The build line: CPU variant, compiler and standard library, tablebase support.
    EXPECT_EQ(lines[2].rfind(std::string("build: ") + QUINCE_VARIANT + ", ", 0), 0u) << lines[2];
#if defined(__clang__)
    EXPECT_NE(lines[2].find(", clang "), std::string::npos) << lines[2];
#else
    EXPECT_NE(lines[2].find(", GCC "), std::string::npos) << lines[2];
#endif
    EXPECT_EQ(lines[2].find(" ,"), std::string::npos) << lines[2];  // no stray space from a version macro
#if defined(QUINCE_NO_SYZYGY)
    EXPECT_NE(lines[2].find("without Syzygy tablebases"), std::string::npos) << lines[2];
#else
    EXPECT_NE(lines[2].find("Syzygy tablebases (Fathom)"), std::string::npos) << lines[2];
#endif
    ASSERT_EQ(lines[1].rfind("bench signature: ", 0), 0u);
    const std::string signature = words_of(lines[1])[2];
    if (signature == "not") {
        EXPECT_NE(lines[1].find("not computed ("), std::string::npos);
        return;
    }
    // The signature must be the one `quince bench` of this very binary prints.
    if (test::sanitized()) GTEST_SKIP() << "bench is too slow under the sanitizers";
    auto bench = run_command(ENGINE, {"bench"}, "", 600000);
    ASSERT_EQ(bench.status, 0);
    EXPECT_NE(bench.out.find("Nodes searched: " + signature + "\n"), std::string::npos) << bench.out;
}

// The popcnt and BMI2 builds check the CPU before anything else runs; QUINCE_CPU_CHECK_FAIL makes the
// check fail on this CPU (which has both), as it would on one without them.
TEST(Cli, CpuVariantBuildRefusesACpuWithoutItsInstructions) {
    setenv("QUINCE_CPU_CHECK_FAIL", "1", 1);
    auto r = run_command(ENGINE, {}, "uci\nquit\n");
    unsetenv("QUINCE_CPU_CHECK_FAIL");
    const std::string variant = QUINCE_VARIANT;
    if (variant == "x86-64" || variant.rfind("x86-64", 0) != 0) {
        EXPECT_EQ(r.status, 0) << "the portable build runs on any CPU: " << r.err;
        EXPECT_NE(r.out.find("uciok"), std::string::npos);
        return;
    }
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "") << "nothing of the engine may run before the check";
    const std::string needs = variant == "x86-64-bmi2" ? "(BMI2, AVX2, SSE4.1 and popcnt)" : "(popcnt and SSE4.1)";
    EXPECT_NE(r.err.find("(" + variant + "): this CPU lacks the instructions this build needs " + needs +
                         ". Use the x86-64 build"),
              std::string::npos)
        << r.err;
    // Without the hook this CPU passes the check.
    auto ok = run_command(ENGINE, {}, "uci\nquit\n");
    EXPECT_EQ(ok.status, 0) << ok.err;
    EXPECT_NE(ok.out.find("uciok"), std::string::npos);
}

TEST(Cli, UciIdNameCarriesTheVersion) {
    auto r = run_command(ENGINE, {}, "uci\nquit\n");
    EXPECT_NE(r.out.find(std::string("id name Quince ") + QUINCE_VERSION + "\n"), std::string::npos) << r.out;
}

TEST(Cli, UsageErrorsAreOneLineOnStderrWithExitTwo) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::vector<std::vector<std::string>> cases = {
        {"perft", "x"},       {"perft", "-1"},          {"perft", "0"},          {"perft", "21"},
        {"perft"},            {"perft", "1", "nonsense fen"}, {"perft", "1", "startpos", "moves", "e2e5"},
        {"bench", "x"},       {"bench", "0"},           {"bench", "3", "4"},     {"--profile=fruit21"},
        {"-x"},               {"eval", "--profile=nope"}, {"eval", "--profile"}, {"eval", "--bogus"},
        {"eval", "--json=yes"}, {"analyse", "--depth"}, {"analyse", "--depth", "x"},
        {"analyse", "--depth", "3", "--nodes", "100"},  {"analyse", "--multipv", "0"},
        {"analyse", "--depth=3", "--depth=4"},          {"analyse", "--threads", "999"}};
    for (const auto& args : cases) {
        std::string shown;
        for (const auto& a : args) shown += a + " ";
        auto r = run_command(ENGINE, args);
        EXPECT_EQ(r.status, 2) << shown;
        EXPECT_TRUE(r.out.empty()) << shown << r.out;
        ASSERT_EQ(lines_of(r.err).size(), 1u) << shown << r.err;
        EXPECT_EQ(r.err.rfind("quince", 0), 0u) << r.err;
        EXPECT_NE(r.err.find("--help"), std::string::npos) << r.err;
        EXPECT_TRUE(is_valid_utf8(r.err));
    }
}

// The tools' subcommands report a usage error as every other subcommand does: one line naming the
// subcommand and what was wrong, the pointer to its --help, exit status 2, nothing on stdout.
TEST(Cli, ToolUsageErrorsLookLikeEveryOtherSubcommands) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::vector<std::vector<std::string>> cases = {
        {"tune"},
        {"tune", "--bogus"},
        {"tune", "--data", "x", "--out", "y", "--epochs", "x"},
        {"tune", "--data", "x", "--out", "y", "--lambda", "2"},
        {"tune", "--data", "x", "--out", "y", "stray"},
        {"tune", "--data", "x", "--out", "y", "--profile", "nope"},
        {"tune", "--data"},
        {"datagen"},
        {"datagen", "--bogus"},
        {"datagen", "--out", "x", "--games", "1", "--nodes", "0"},
        {"datagen", "--out", "x", "--games", "1", "--seed", "-1"},
        {"datagen", "--out", "x", "--games", "1", "--random-plies", "9-3"},
        {"datagen", "--out", "x", "--games", "1", "--win-adjudication", "800"},
        {"datagen", "--out", "x", "--games", "1", "--compress", "gzip"},
        {"datagen", "--out", "x", "--games", "1", "--teacher", "sf"},
        {"datagen", "--out", "x", "--games", "1", "stray"},
        {"datagen", "--from-pgn", "--out", "x"},
        {"datagen", "--from-pgn", "a.pgn", "--relabel", "src", "--out", "x"},
        {"data"},
        {"data", "frobnicate"},
        {"data", "dump", "--limit", "x"},
        {"data", "info", "--limit", "3"},
        {"data", "info", "-x"},
        {"weights"},
        {"weights", "simple"},
        {"weights", "rybka1", "fruit21"},
        {"spsa", "x"},
        {"wdlfit"},
        {"similarity"}};
    for (const auto& args : cases) {
        std::string shown;
        for (const auto& a : args) shown += a + " ";
        auto r = run_command(ENGINE, args);
        EXPECT_EQ(r.status, 2) << shown << r.err;
        EXPECT_TRUE(r.out.empty()) << shown << r.out;
        ASSERT_EQ(lines_of(r.err).size(), 1u) << shown << r.err;
        EXPECT_EQ(r.err.rfind("quince " + args[0] + ": ", 0), 0u) << shown << r.err;
        const std::string hint = " (see 'quince " + args[0] + " --help')\n";
        EXPECT_EQ(r.err.substr(r.err.size() - std::min(r.err.size(), hint.size())), hint) << shown << r.err;
    }
}

TEST(Cli, PerftDepthAndFenForms) {
    auto r = run_command(ENGINE, {"perft", "3"});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("Nodes searched: 8902\n"), std::string::npos);
    const std::string kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    auto one = run_command(ENGINE, {"perft", "2", kiwipete});
    std::vector<std::string> split = {"perft", "2"};
    for (const auto& w : words_of(kiwipete)) split.push_back(w);
    auto several = run_command(ENGINE, split);
    EXPECT_EQ(one.status, 0);
    EXPECT_EQ(one.out, several.out);
    EXPECT_NE(one.out.find("Nodes searched: 2039\n"), std::string::npos);
    // Moves after the position, UCI or SAN.
    auto moved = run_command(ENGINE, {"perft", "1", "startpos", "moves", "e2e4", "e5"});
    EXPECT_NE(moved.out.find("Nodes searched: 29\n"), std::string::npos) << moved.out << moved.err;
    // Shredder-FEN castling letters: Chess960 notation (king takes rook).
    auto c960 = run_command(ENGINE, {"perft", "1", "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1"});
    EXPECT_NE(c960.out.find("e1h1: 1"), std::string::npos) << c960.out;
}

TEST(Cli, EvalOptionFormsAgree) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    auto eq = run_command(ENGINE, {"eval", "--profile=fruit21", ITALIAN});
    std::vector<std::string> spaced = {"eval", "--profile", "fruit21"};
    for (const auto& w : words_of(ITALIAN)) spaced.push_back(w);
    auto sp = run_command(ENGINE, spaced);
    EXPECT_EQ(eq.status, 0);
    EXPECT_EQ(eq.out, sp.out);
    EXPECT_NE(eq.out.find("profile fruit21"), std::string::npos);
    auto json = run_command(ENGINE, {"eval", "--json", ITALIAN, "--profile", "fruit21"});
    EXPECT_EQ(json.status, 0);
    EXPECT_NE(json.out.find("\"profile\": \"fruit21\""), std::string::npos);
    auto start = run_command(ENGINE, {"eval"});
    EXPECT_NE(start.out.find("White to move"), std::string::npos);
    // The table comes with a legend of its names.
    for (const char* name : {"legend:", "W = (w0, w1)", "cflags 0x08", "lazy evaluation:", "scale factor:",
                             "king_shelter (", "pawn_mobility ("})
        EXPECT_NE(start.out.find(name), std::string::npos) << name;
}

// --epd FILE: every position of the file in one run, each as `eval FEN` gives it (JSON: one array); a bad
// line, a missing file, a FEN beside it or --svg are refused with nothing on standard output.
TEST(Cli, EvalEpdGivesEveryPositionAsEvalOfItsFenDoes) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::string path = ::testing::TempDir() + "/quince_cli_eval.epd";
    const std::string second = "8/8/4k3/8/3PK3/8/8/8 b - -";
    {
        std::ofstream f(path);
        f << "# two positions\n" << ITALIAN << " ;id \"italian\"\n\n" << second << "\n";
    }
    for (const char* profile : {"fruit21", "nnue"}) {
        auto all = run_command(ENGINE, {"eval", "--json", "--profile", profile, "--epd", path});
        ASSERT_EQ(all.status, 0) << all.err;
        auto one = run_command(ENGINE, {"eval", "--json", "--profile", profile, ITALIAN});
        auto two = run_command(ENGINE, {"eval", "--json", "--profile", profile, second});
        auto strip = [](std::string s) { return s.substr(0, s.find_last_not_of('\n') + 1); };
        EXPECT_EQ(all.out, "[\n" + strip(one.out) + ",\n" + strip(two.out) + "\n]\n") << profile;
        auto text = run_command(ENGINE, {"eval", "--profile", profile, "--epd", path});
        auto text_one = run_command(ENGINE, {"eval", "--profile", profile, ITALIAN});
        EXPECT_EQ(text.status, 0);
        EXPECT_EQ(text.out.rfind("FEN: " + std::string(ITALIAN) + "\n" + text_one.out, 0), 0u) << profile;
        EXPECT_NE(text.out.find("\nFEN: 8/8/4k3/8/3PK3/8/8/8 b - - 0 1\n"), std::string::npos) << text.out;
    }
    {
        std::ofstream f(path, std::ios::app);
        f << "8/8/8/8/8/8/8/8 w - -\n";  // no kings
    }
    const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
        {{"eval", "--epd", path}, path + ":5:"},
        {{"eval", "--epd", path + ".missing"}, "cannot read " + path + ".missing"},
        {{"eval", "--epd", path, "startpos"}, "not both"},
        {{"eval", "--svg", "--epd", path}, "--svg draws one position"}};
    for (const auto& [args, what] : refused) {
        auto r = run_command(ENGINE, args);
        EXPECT_NE(r.status, 0) << what;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    }
    std::remove(path.c_str());
}

// A network has no terms to draw: --svg of one says so, naming it (the built-in net by its profile) and a
// profile that can be drawn.
TEST(Cli, EvalSvgOfANetworkNamesIt) {
    auto r = run_command(ENGINE, {"eval", "--svg", "--profile", "nnue"});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_EQ(r.err, "quince eval: profile nnue is a network: it has no terms to draw for --svg (a hand-crafted "
                     "profile has, e.g. --profile " +
                         eval::default_handcrafted_profile() + ")\n");
}

// analyse --help names the profile analyse uses when none is given: the default one, EvalProfile's.
TEST(Cli, AnalyseHelpNamesTheDefaultProfile) {
    auto r = run_command(ENGINE, {"analyse", "--help"});
    EXPECT_EQ(r.status, 0);
    const std::string named = eval::default_profile() == "nnue" ? "--profile nnue\n(the default profile;"
                                                                : "quince in a build without a network";
    EXPECT_NE(r.out.find(named), std::string::npos) << r.out;
}

TEST(Cli, OtherFirstWordsAreUciCommandLinesRunInOrder) {
    auto r = run_command(ENGINE, {"position startpos moves e2e4", "go depth 4", "d"});
    EXPECT_EQ(r.status, 0) << r.out;
    const auto best = r.out.find("bestmove ");
    const auto board = r.out.find("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    ASSERT_NE(best, std::string::npos) << r.out;
    ASSERT_NE(board, std::string::npos) << r.out;
    EXPECT_LT(best, board) << "the search finishes before the next line runs";
    // quit ends the list; an unknown command after the first is answered in UCI fashion and fails the run.
    auto q = run_command(ENGINE, {"isready", "quit", "d"});
    EXPECT_EQ(q.out, "readyok\n");
    auto bad = run_command(ENGINE, {"isready", "frobnicate"});
    EXPECT_EQ(bad.status, 1);
    EXPECT_EQ(bad.out, "readyok\ninfo string error: unknown command 'frobnicate'\n");
}

TEST(Cli, AFirstWordThatIsNoCommandPointsToHelp) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    // A mistyped subcommand is a usage error naming the nearest one; nothing runs.
    auto typo = run_command(ENGINE, {"anlyse", "startpos"});
    EXPECT_EQ(typo.status, cli::EXIT_USAGE);
    EXPECT_TRUE(typo.out.empty()) << typo.out;
    EXPECT_EQ(typo.err, "quince: unknown subcommand 'anlyse'; did you mean 'analyse'? (see 'quince --help')\n");
    auto far = run_command(ENGINE, {"frobnicate"});
    EXPECT_EQ(far.status, cli::EXIT_USAGE);
    EXPECT_EQ(far.err, "quince: unknown subcommand 'frobnicate' (see 'quince --help')\n");
    // `quince help` is --help; --help lists spsa only in the tuning build, which has it.
    auto help = run_command(ENGINE, {"help"});
    EXPECT_EQ(help.status, 0);
    EXPECT_EQ(help.out, run_command(ENGINE, {"--help"}).out);
    EXPECT_NE(help.out.find("subcommands:"), std::string::npos);
    EXPECT_EQ(help.out.find("  spsa") != std::string::npos, search::param::TUNABLE) << "a normal build refuses spsa";
}

TEST(Cli, UciLinesStopAtTheFirstError) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    // e2e5 is illegal: the search that follows would be of the start position, not the one asked for.
    auto r = run_command(ENGINE, {"position startpos moves e2e5", "go depth 3", "isready"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out, "info string error: position: illegal move 'e2e5'\n");
    // The same in-process, after lines that worked.
    std::ostringstream out;
    EXPECT_EQ(cli::run_uci_lines({"isready", "setoption name Hash value 0", "isready"}, out), cli::EXIT_FAILED);
    EXPECT_EQ(out.str(), "readyok\ninfo string error: setoption: Hash must be between 1 and 65536\n");
}

TEST(Cli, UciEvalRejectsArgumentsAndStillWorksWithout) {
    auto r = run_command(ENGINE, {}, "eval bogus\neval\nquit\n");
    auto lines = lines_of(r.out);
    ASSERT_FALSE(lines.empty());
    EXPECT_EQ(lines[0].rfind("info string error: eval", 0), 0u) << lines[0];
    EXPECT_NE(lines[0].find("'bogus'"), std::string::npos);
    EXPECT_NE(r.out.find("final score"), std::string::npos) << r.out;
}

// analyse --movetime N thinks N ms, like go movetime, even with a single legal move (2...g6 against
// 3.Qh5+): it never answers sooner (the process start comes on top); the upper bound only says that it
// ends by itself.
TEST(Cli, AnalyseMovetimeIsSpentInFull) {
    const auto start = std::chrono::steady_clock::now();
    auto r = run_command(ENGINE, {"analyse", "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2",
                                  "--movetime", "400"});
    const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GE(ms, 400);
    EXPECT_LT(ms, 400 + 30000);
    EXPECT_EQ(lines_of(r.out).back().rfind("best move ", 0), 0u) << r.out;
}

TEST(Cli, AnalyseShowsLegalSanLinesPerIteration) {
    auto r = run_command(ENGINE, {"analyse", ITALIAN, "--depth", "7", "--multipv=2"});
    ASSERT_EQ(r.status, 0) << r.err;
    auto lines = lines_of(r.out);
    ASSERT_GE(lines.size(), 4u + 14u) << r.out;
    EXPECT_NE(lines[1].find("White's point of view"), std::string::npos);
    int rows = 0, last_depth = 0;
    for (std::size_t i = 3; i + 1 < lines.size(); ++i) {
        // depth, pv number, score, time, nodes, nps, then the line
        auto w = words_of(lines[i]);
        ASSERT_GE(w.size(), 8u) << lines[i];
        const int depth = std::stoi(w[0]);
        EXPECT_GE(depth, last_depth);
        last_depth = depth;
        EXPECT_TRUE(w[2][0] == '+' || w[2][0] == '-') << w[2];
        Position p;
        ASSERT_TRUE(p.set_fen(ITALIAN));
        int moves = 0;
        for (std::size_t k = 6; k < w.size(); ++k) {
            if (w[k].back() == '.') continue;  // move number
            Move m = san_to_move(p, w[k]);
            ASSERT_TRUE(m) << w[k] << " in " << lines[i];
            EXPECT_EQ(move_to_san(p, m), w[k]);
            p.do_move(m);
            ++moves;
        }
        EXPECT_GE(moves, 1);
        ++rows;
    }
    EXPECT_EQ(rows, 14);  // depths 1..7, two lines each
    EXPECT_EQ(last_depth, 7);
    EXPECT_EQ(lines.back().rfind("best move ", 0), 0u) << lines.back();
}

TEST(Cli, AnalyseJsonIsOneObjectPerIterationThenTheResult) {
    auto r = run_command(ENGINE, {"analyse", "--json", "--depth=5", "startpos", "moves", "e4"});
    ASSERT_EQ(r.status, 0) << r.err;
    auto lines = lines_of(r.out);
    ASSERT_EQ(lines.size(), 6u) << r.out;
    for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(lines[i].rfind("{\"type\": \"iteration\", \"depth\": " + std::to_string(i + 1) + ",", 0), 0u) << lines[i];
        EXPECT_EQ(lines[i].back(), '}');
    }
    EXPECT_EQ(lines[5].rfind("{\"type\": \"result\"", 0), 0u);
    EXPECT_NE(lines[5].find("\"depth\": 5"), std::string::npos);
    // Strict JSON parsing is in tests/cli/cli_output_test.py.
}

TEST(Cli, AnalyseWithoutLegalMovesSaysWhy) {
    auto mate = run_command(ENGINE, {"analyse", "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"});
    EXPECT_EQ(mate.status, 0);
    EXPECT_EQ(mate.out, "No legal move: White has mated.\n");
    auto stalemate = run_command(ENGINE, {"analyse", "--json", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"});
    EXPECT_NE(stalemate.out.find("\"outcome\": \"stalemate\""), std::string::npos);
}

TEST(Cli, AnalyseStopsOnInterruptAndReportsWhatItHas) {
    std::atomic<bool> interrupt{false};
    cli::AnalyseSettings settings;
    settings.interrupt = &interrupt;
    std::ostringstream out, err;
    std::thread stopper([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        interrupt.store(true);
    });
    const int status = cli::run_analyse({"--infinite", "--hash", "4", ITALIAN}, out, err, settings);
    stopper.join();
    EXPECT_EQ(status, 0);
    const auto lines = lines_of(out.str());
    ASSERT_FALSE(lines.empty());
    // "stopped. best move …", or on a slow (sanitizer) build possibly "stopped before the first iteration …"
    EXPECT_TRUE(lines.back().rfind("stopped", 0) == 0) << out.str();
}

TEST(CliFormat, SanLineNumbersMovesFromTheRoot) {
    Position p;
    ASSERT_TRUE(p.set_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
    std::vector<Move> pv;
    Position q = p;
    for (const char* m : {"e7e5", "g1f3", "b8c6"}) {
        pv.push_back(uci_to_move(q, m));
        q.do_move(pv.back());
    }
    EXPECT_EQ(cli::san_line(p, pv), "1... e5 2. Nf3 Nc6");
    Position w;
    ASSERT_TRUE(w.set_fen(ITALIAN));
    EXPECT_EQ(cli::san_line(w, {uci_to_move(w, "f1b5")}), "3. Bb5");
}

TEST(CliFormat, ScoresInPawnsFromWhitesView) {
    EXPECT_EQ(cli::white_score_text({false, 31}, WHITE), "+0.31");
    EXPECT_EQ(cli::white_score_text({false, 31}, BLACK), "-0.31");
    EXPECT_EQ(cli::white_score_text({true, 3}, WHITE), "+M3");
    EXPECT_EQ(cli::white_score_text({true, 3}, BLACK), "-M3");
    EXPECT_EQ(cli::white_score_text({true, -2}, BLACK), "+M2");
}

TEST(CliArgs, OptionsInBothFormsAndPositionalWords) {
    cli::ParsedArgs a;
    std::string error;
    ASSERT_TRUE(cli::parse_args({"--profile=fruit21", "8/8/8", "--json", "w", "-", "--depth", "5"},
                                {{"profile", true}, {"json", false}, {"depth", true}}, &a, &error))
        << error;
    EXPECT_EQ(a.options["profile"], "fruit21");
    EXPECT_EQ(a.options["depth"], "5");
    EXPECT_TRUE(a.has("json"));
    EXPECT_EQ(a.positional, (std::vector<std::string>{"8/8/8", "w", "-"}));
    cli::ParsedArgs b;
    EXPECT_FALSE(cli::parse_args({"--json=1"}, {{"json", false}}, &b, &error));
    EXPECT_FALSE(cli::parse_args({"--depth"}, {{"depth", true}}, &b, &error));
    EXPECT_FALSE(cli::parse_args({"--nope"}, {{"depth", true}}, &b, &error));
    long long v = 0;
    EXPECT_TRUE(cli::parse_number("20", 1, 20, "DEPTH", &v, &error));
    EXPECT_EQ(v, 20);
    EXPECT_TRUE(cli::parse_number("+3", 1, 20, "DEPTH", &v, &error));  // core's parse_integer: a sign is allowed
    EXPECT_EQ(v, 3);
    for (const char* bad : {"", "x", "-1", "0", "21", "3x", " 3", "+-3", "99999999999999999999"}) EXPECT_FALSE(cli::parse_number(bad, 1, 20, "DEPTH", &v, &error)) << bad;
}

TEST(CliArgs, RepeatedAndListOptions) {
    const std::vector<cli::OptionSpec> specs = {{"data", true, true}, {"from-pgn", false, true, true}, {"out", true}};
    cli::ParsedArgs a;
    std::string error;
    ASSERT_TRUE(cli::parse_args({"--data", "a", "--from-pgn", "x.pgn", "y.pgn", "--out", "d", "--data=b", "--from-pgn=z.pgn",
                                 "w.pgn", "-", "rest"},
                                specs, &a, &error))
        << error;
    EXPECT_EQ(a.values["data"], (std::vector<std::string>{"a", "b"}));
    EXPECT_EQ(a.options["data"], "a");  // the first value
    // A list ends at the next word starting with '-'.
    EXPECT_EQ(a.values["from-pgn"], (std::vector<std::string>{"x.pgn", "y.pgn", "z.pgn", "w.pgn"}));
    EXPECT_EQ(a.values["out"], (std::vector<std::string>{"d"}));
    EXPECT_EQ(a.positional, (std::vector<std::string>{"-", "rest"}));
    for (const cli::Args& bad : std::vector<cli::Args>{{"--out", "a", "--out", "b"}, {"--from-pgn"}, {"--from-pgn", "--out", "d"},
                                                       {"--data="}, {"--data", "a", "--data"}}) {
        cli::ParsedArgs b;
        EXPECT_FALSE(cli::parse_args(bad, specs, &b, &error)) << bad[0];
    }
    EXPECT_TRUE(cli::asks_for_help({"--out", "x", "-h"}));
    EXPECT_TRUE(cli::asks_for_help({"--help"}));
    EXPECT_FALSE(cli::asks_for_help({"--helpful", "help"}));
    double x = 0;
    EXPECT_TRUE(cli::parse_real("1e3", 1, 1e6, "--epochs", &x, &error));
    EXPECT_EQ(x, 1000);
    for (const char* bad : {"", "x", "2.5x", "0.5", "1e7", "nan"}) EXPECT_FALSE(cli::parse_real(bad, 1, 1e6, "--epochs", &x, &error)) << bad;
    EXPECT_EQ(error, "--epochs must be a number from 1 to 1e+06, got 'nan'");
    EXPECT_EQ(cli::formatted("%lld positions, %.1f s%s", 12LL, 2.5, "!"), "12 positions, 2.5 s!");
    EXPECT_EQ(cli::formatted("%s", std::string(5000, 'x').c_str()).size(), 5000u);
}

// The frame of app/main.cpp: `NAME --help` from the table's row unless the tool answers it, else the runner.
TEST(CliProgram, SubcommandHelpAndDispatch) {
    static const char* const details = "more\n";
    const auto echo = [](const cli::Args& args, std::ostream& out, std::ostream&) {
        for (const std::string& a : args) out << a << ";";
        return 7;
    };
    const cli::Subcommand plain{"plain", "X [--y]", "does things", echo, &details};
    const cli::Subcommand own{"own", "", "", echo, nullptr, true};
    std::ostringstream out, err;
    EXPECT_EQ(cli::run_subcommand(plain, {"--help"}, out, err), cli::EXIT_OK);
    EXPECT_EQ(out.str(), "usage: quince plain X [--y]\ndoes things\nmore\n");
    out.str("");
    EXPECT_EQ(cli::run_subcommand(own, {"--help"}, out, err), 7);
    EXPECT_EQ(out.str(), "--help;");
    out.str("");
    EXPECT_EQ(cli::run_subcommand(plain, {"a", "--help"}, out, err), 7);  // --help among other words is the tool's
    EXPECT_EQ(out.str(), "a;--help;");
    EXPECT_EQ(cli::edit_distance("anlyse", "analyse"), 1u);
    EXPECT_EQ(cli::edit_distance("perfit", "perft"), 1u);
    EXPECT_EQ(cli::edit_distance("tnue", "tune"), 1u);  // a swap of neighbours is one edit
    EXPECT_EQ(cli::edit_distance("", "bench"), 5u);
    const cli::Subcommand table[] = {plain, own};
    EXPECT_EQ(cli::unknown_subcommand("plian", table, err), cli::EXIT_USAGE);
    EXPECT_EQ(err.str(), "quince: unknown subcommand 'plian'; did you mean 'plain'? (see 'quince --help')\n");
    EXPECT_FALSE(cli::is_terminal(out));  // a string stream never is
}

TEST(CliArgs, ReadPositionFromWords) {
    Position p;
    std::string error;
    ASSERT_TRUE(cli::read_position({}, &p, &error));
    EXPECT_EQ(p.fen(), Position::START_FEN);
    ASSERT_TRUE(cli::read_position({"startpos", "moves", "e2e4", "c5", "Nf3"}, &p, &error)) << error;
    EXPECT_EQ(p.fen(), "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    ASSERT_TRUE(cli::read_position(words_of(ITALIAN), &p, &error));
    EXPECT_EQ(p.fen(), ITALIAN);
    EXPECT_FALSE(cli::read_position({"startpos", "moves"}, &p, &error));
    EXPECT_FALSE(cli::read_position({"startpos", "moves", "e2e5"}, &p, &error));
    EXPECT_NE(error.find("'e2e5'"), std::string::npos);
    EXPECT_EQ(p.fen(), ITALIAN) << "a failed read leaves the position alone";
    // Chess960: Shredder-FEN letters, or X-FEN that only makes sense as Chess960.
    ASSERT_TRUE(cli::read_position({"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"}, &p, &error)) << error;
    EXPECT_TRUE(p.is_chess960());
    ASSERT_TRUE(cli::read_position({"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9"}, &p, &error)) << error;
    EXPECT_TRUE(p.is_chess960());
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
