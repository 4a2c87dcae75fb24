// Faults that must not cost a game: an impossible Hash size, no time at all, the GUI disappearing.
// (A corrupted transposition table is tested in-process: tests/search/search_test.cpp, Faults.*)
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

#include "board/notation.h"
#include "engine_process.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using quince::test::EngineProcess;

namespace {

#ifdef QUINCE_TEST_SANITIZER_BUILD
constexpr int SLOW = 8;
#else
constexpr int SLOW = 1;
#endif

// WAC.001: only a search that knows 1.Qg6 (mate in 2) from the hash table plays it at depth 2 (at depth 1
// the reply is reached only in quiescence, which on the PV takes no mate score from the table).
const char* WAC1 = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
constexpr int MAX_HASH_MB = 65536;  // the Hash option's maximum

std::string bestmove(EngineProcess& e, const std::string& go, int timeout_ms) {
    e.send(go);
    auto lines = e.read_until("bestmove", timeout_ms);
    if (!lines) return "<timeout>";
    std::istringstream words(lines->back());
    std::string w, move;
    words >> w >> move;
    return move;
}

bool legal(const std::string& fen, const std::string& move) {
    Position p;
    return p.set_fen(fen) && uci_to_move(p, move) != Move::none();
}

std::uint64_t physical_memory_mb() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    std::uint64_t kb = 0;
    while (in >> key >> kb)
        if (key == "MemTotal:") return kb / 1024;
    return 0;
}

}  // namespace

TEST(Faults, HashLargerThanMemoryIsAnErrorAndKeepsTheTable) {
    if (physical_memory_mb() == 0 || physical_memory_mb() >= std::uint64_t(MAX_HASH_MB))
        GTEST_SKIP() << "the largest Hash fits this machine's memory";
    EngineProcess e;
    e.send("uci");
    ASSERT_TRUE(e.read_until("uciok"));
    e.send(std::string("position fen ") + WAC1);
    ASSERT_NE(bestmove(e, "go depth 2", 30000 * SLOW), "g3g6");
    ASSERT_EQ(bestmove(e, "go depth 12", 30000 * SLOW), "g3g6");
    e.send("setoption name Hash value " + std::to_string(MAX_HASH_MB));
    e.send("isready");
    auto lines = e.read_until("readyok", 30000 * SLOW);
    ASSERT_TRUE(lines);
    ASSERT_EQ(lines->size(), 2u);
    EXPECT_EQ((*lines)[0], "info string error: setoption: cannot allocate 65536 MB for the hash table");
    // The table and what it knows are still there.
    EXPECT_EQ(bestmove(e, "go depth 2", 30000 * SLOW), "g3g6");
}

TEST(Faults, NoTimeStillGivesALegalMove) {
    EngineProcess e;
    e.send("uci");
    ASSERT_TRUE(e.read_until("uciok"));
    for (const char* fen : {WAC1, "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1"})
        for (const char* go : {"go movetime 0", "go wtime 1 btime 1", "go wtime 1 btime 1 winc 0 binc 0 movestogo 1",
                               "go btime 1 wtime 1 movetime 0"}) {
            e.send(std::string("position fen ") + fen);
            // The watchdog only catches a search that never ends; how little time such a clock allows is
            // the time manager's (TimeManager tests in tests/search).
            const std::string move = bestmove(e, go, 30000 * SLOW);
            EXPECT_TRUE(legal(fen, move)) << go << " -> " << move;
        }
}

// An engine in the middle of `go infinite` (past depth 3).
static void start_infinite_search(EngineProcess& e) {
    e.send("uci");
    ASSERT_TRUE(e.read_until("uciok"));
    e.send("go infinite");
    ASSERT_TRUE(e.read_until("info depth 3", 30000 * SLOW));
}

// The engine ends by itself, promptly, with status 0 (not killed by a signal).
static void expect_clean_exit(EngineProcess& e) {
    ASSERT_TRUE(e.wait_exit(30000 * SLOW));
    EXPECT_TRUE(WIFEXITED(e.exit_status())) << "killed by signal " << WTERMSIG(e.exit_status());
    EXPECT_EQ(WEXITSTATUS(e.exit_status()), 0);
}

// The GUI exits or crashes while the engine searches: both pipes close. The engine must end by itself,
// normally (no death by SIGPIPE while writing its bestmove), and promptly.
TEST(Faults, GuiGoneDuringSearchEndsTheEngineCleanly) {
    EngineProcess e;
    ASSERT_NO_FATAL_FAILURE(start_infinite_search(e));
    e.close_output();
    e.close_input();
    ASSERT_NO_FATAL_FAILURE(expect_clean_exit(e));
}

// Only the engine's output is gone (the GUI still holds its end of the input): the first failed write
// stops the search, and the engine quits at the next line instead of searching for nobody.
TEST(Faults, ClosedOutputStopsTheEngine) {
    EngineProcess e;
    ASSERT_NO_FATAL_FAILURE(start_infinite_search(e));
    e.close_output();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    e.send("isready");  // its readyok cannot be written
    ASSERT_NO_FATAL_FAILURE(expect_clean_exit(e));
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
