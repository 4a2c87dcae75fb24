// OpenBench's DATAGEN contract, checked the way its client (Client/genfens.py) uses the engine: it runs
//   ./engine "genfens N seed S book <None|Books/book.epd> <extra>" "quit"
// with stdout and stderr merged, takes every line that (after rstrip) starts with "info string genfens ",
// splits off the text after the first "genfens ", requires exactly N such lines and exit code 0, and turns
// each FEN into an EPD line from fen.split()[4:] (the half-move and full-move counters).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "board/position.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

namespace {

struct RunResult {
    int exit_code = -1;
    std::vector<std::string> lines;
};

// Runs the engine with these arguments, stdout and stderr into one pipe, no standard input.
RunResult run_engine(const std::vector<std::string>& args) {
    RunResult r;
    int out[2];
    if (pipe(out) != 0) return r;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(out[1], 1);
        dup2(out[1], 2);
        close(out[0]);
        int devnull = open("/dev/null", O_RDONLY);
        dup2(devnull, 0);
        std::vector<char*> argv{const_cast<char*>(QUINCE_ENGINE_PATH)};
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(QUINCE_ENGINE_PATH, argv.data());
        _exit(127);
    }
    close(out[1]);
    std::string text;
    char buf[4096];
    ssize_t n;
    while ((n = read(out[0], buf, sizeof buf)) > 0) text.append(buf, std::size_t(n));
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
        r.lines.push_back(line);
    }
    return r;
}

// What the client keeps: the FEN of every "info string genfens " line.
std::vector<std::string> genfens_fens(const RunResult& r) {
    std::vector<std::string> fens;
    const std::string prefix = "info string genfens ";
    for (const std::string& line : r.lines)
        if (line.rfind(prefix, 0) == 0) fens.push_back(line.substr(line.find("genfens ") + 8));
    return fens;
}

void expect_openbench_accepts(const RunResult& r, std::size_t n) {
    EXPECT_EQ(r.exit_code, 0);
    const std::vector<std::string> fens = genfens_fens(r);
    ASSERT_EQ(fens.size(), n);
    std::set<std::string> distinct;
    for (const std::string& fen : fens) {
        // convert_fen_to_epd: exactly six fields, the last two integers.
        std::istringstream in(fen);
        std::vector<std::string> fields;
        std::string f;
        while (in >> f) fields.push_back(f);
        ASSERT_EQ(fields.size(), 6u) << fen;
        EXPECT_EQ(fields[4].find_first_not_of("0123456789"), std::string::npos) << fen;
        EXPECT_EQ(fields[5].find_first_not_of("0123456789"), std::string::npos) << fen;
        Position pos;
        std::string error;
        ASSERT_TRUE(pos.set_fen(fen, false, &error)) << fen << ": " << error;
        EXPECT_EQ(pos.fen(), fen);
        EXPECT_TRUE(pos.has_legal_move()) << fen;
        distinct.insert(fen);
    }
    EXPECT_EQ(distinct.size(), n) << "openings should vary";
}

}  // namespace

TEST(Genfens, OpenBenchContractFromTheStartPosition) {
    // The client's format string leaves a blank at the end when there are no extra arguments.
    RunResult r = run_engine({"genfens 8 seed 5 book None ", "quit"});
    expect_openbench_accepts(r, 8);
    // Nothing else on the output: the client keeps the other lines only for its error report.
    EXPECT_EQ(r.lines.size(), 8u);
    // The same seed gives the same openings; another seed (64-bit) others.
    EXPECT_EQ(genfens_fens(run_engine({"genfens 8 seed 5 book None ", "quit"})), genfens_fens(r));
    RunResult other = run_engine({"genfens 8 seed 18446744073709551615 book None", "quit"});
    expect_openbench_accepts(other, 8);
    EXPECT_NE(genfens_fens(other), genfens_fens(r));
}

TEST(Genfens, OpenBenchContractFromABookWithExtraArguments) {
    const std::string book = std::string(QUINCE_MATCH_TEST_DATA_DIR) + "/8moves_v3_first200.epd";
    RunResult r = run_engine({"genfens 5 seed 123 book " + book + " plies 2", "quit"});
    expect_openbench_accepts(r, 5);
    for (const std::string& fen : genfens_fens(r)) {
        Position pos;
        ASSERT_TRUE(pos.set_fen(fen));
        EXPECT_GE(pos.game_ply(), 16) << "8 moves of book plus 2 random plies: " << fen;
    }
}

TEST(Genfens, MalformedCommandsGiveOneErrorLineAndNoOpenings) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::vector<std::string> bad = {
        "genfens", "genfens 8", "genfens -1 seed 5 book None", "genfens 8 seed x book None",
        "genfens 8 seed -5 book None", "genfens 8 sed 5 book None", "genfens 8 seed 5 book",
        "genfens 8 seed 5 book /nonexistent/book.epd", "genfens 8 seed 5 book None plies",
        "genfens 8 seed 5 book None plies 999", "genfens 8 seed 5 book None colour white",
    };
    for (const std::string& cmd : bad) {
        RunResult r = run_engine({cmd, "quit"});
        EXPECT_EQ(r.exit_code, 1) << cmd;  // a UCI line answered with an error: OpenBench sees a failure
        EXPECT_TRUE(genfens_fens(r).empty()) << cmd;
        ASSERT_EQ(r.lines.size(), 1u) << cmd;
        EXPECT_EQ(r.lines[0].rfind("info string error: genfens", 0), 0u) << cmd << " -> " << r.lines[0];
    }
}

TEST(Genfens, ArgumentsAreUciLinesThenStandardInput) {
    // Without "quit" the engine goes on reading standard input (here: end of file, which quits too).
    RunResult r = run_engine({"isready", "position startpos moves e2e4", "d"});
    EXPECT_EQ(r.exit_code, 0);
    ASSERT_FALSE(r.lines.empty());
    EXPECT_EQ(r.lines[0], "readyok");
    bool found = false;
    for (const std::string& l : r.lines) found = found || l.find("4P3") != std::string::npos;
    EXPECT_TRUE(found);
    // An option-like first argument is refused with the usage text.
    RunResult bad = run_engine({"--nonsense"});
    EXPECT_EQ(bad.exit_code, 2);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
