// The UCI front end driven through a pipe against the built engine binary.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <set>
#include <thread>

#include "board/notation.h"
#include "eval/evaluate.h"
#include "engine_process.h"
#include "quince_version.h"
#include "search/skill.h"
#include "uci/uci.h"
#include "support/sanitized.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using quince::test::EngineProcess;

namespace {

using Clock = std::chrono::steady_clock;

// Sanitizer builds run several times slower: stretch the timing expectations, not the logic.
#ifdef QUINCE_TEST_SANITIZER_BUILD
constexpr int SLOW = 8;
#else
constexpr int SLOW = 1;
#endif

long ms_since(Clock::time_point t) {
    return long(std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - t).count());
}

std::vector<std::string> split(const std::string& s) {
    std::vector<std::string> out;
    std::string cur;
    for (char c : s) {
        if (c == ' ') {
            if (!cur.empty()) out.push_back(cur), cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) out.push_back(cur);
    return out;
}

// "bestmove X [ponder Y]" -> X
std::string best_of(const std::vector<std::string>& lines) {
    auto t = split(lines.back());
    return t.size() >= 2 ? t[1] : "";
}

std::string fen_of(EngineProcess& e) {
    e.send("d");
    auto lines = e.read_until("Checkers");
    if (!lines) return "<timeout>";
    for (const std::string& l : *lines)
        if (l.rfind("Fen: ", 0) == 0) return l.substr(5);
    return "<no fen>";
}

bool is_legal(const std::string& fen, const std::string& move, bool chess960 = false) {
    Position p;
    if (!p.set_fen(fen, chess960)) return false;
    p.set_chess960(chess960);
    return uci_to_move(p, move) != Move::none();
}

void handshake(EngineProcess& e) {
    e.send("uci");
    ASSERT_TRUE(e.read_until("uciok"));
}

// The whole answer to `uci`, one string ("" if uciok never came).
std::string uci_listing(EngineProcess& e) {
    e.send("uci");
    auto lines = e.read_until("uciok");
    EXPECT_TRUE(lines);
    std::string all;
    if (lines)
        for (auto& l : *lines) all += l + "\n";
    return all;
}

const char* START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

// A watchdog for answers that must come at once: it only catches a hang. How soon an answer comes is
// checked by counting (nodes, iterations), never by a clock a busy machine can miss.
constexpr int HANG_MS = 30000 * SLOW;

// The depth and node count of an iteration's report ("info depth D ... nodes N ... pv ..."), not of an
// aspiration fail report (lowerbound / upperbound) or a currmove line: depth -1 for other lines.
struct Iteration {
    int depth = -1;
    std::uint64_t nodes = 0;
};
Iteration iteration_of(const std::string& line) {
    Iteration it;
    if (line.rfind("info depth ", 0) != 0 || line.find(" pv ") == std::string::npos ||
        line.find("bound") != std::string::npos)
        return it;
    auto t = split(line);
    for (std::size_t i = 0; i + 1 < t.size(); ++i) {
        if (t[i] == "depth") it.depth = std::stoi(t[i + 1]);
        if (t[i] == "nodes") it.nodes = std::stoull(t[i + 1]);
    }
    return it;
}

// The deepest iteration reported in `lines` (depth -1 if none).
Iteration deepest(const std::vector<std::string>& lines) {
    Iteration best;
    for (const std::string& l : lines)
        if (Iteration it = iteration_of(l); it.depth >= best.depth) best = it;
    return best;
}

// Lets a search run until it reports an iteration of at least `min_depth`, then freezes the engine and
// reads all it wrote: the last iteration completed before the freeze. The next one was in progress.
Iteration freeze_after_depth(EngineProcess& e, int min_depth) {
    Iteration last;
    while (last.depth < min_depth) {
        auto line = e.read_line(HANG_MS);
        if (!line) return last;
        if (Iteration it = iteration_of(*line); it.depth >= last.depth) last = it;
    }
    EXPECT_TRUE(e.freeze());
    if (Iteration it = deepest(e.read_written()); it.depth >= last.depth) last = it;
    return last;
}

// The node count at which a search of `position` from a new game completes iteration `depth`: single
// threaded searches are deterministic, so this is also where the iteration in progress at a freeze
// would have ended. Checks that the reference agrees with the frozen search on the last completed one.
std::uint64_t nodes_completing(EngineProcess& e, const std::string& position, const Iteration& completed,
                               int depth) {
    e.send("ucinewgame");
    e.send(position);
    e.send("go depth " + std::to_string(depth));
    auto lines = e.read_until("bestmove", 10 * HANG_MS);
    EXPECT_TRUE(lines);
    if (!lines) return 0;
    std::uint64_t at_depth = 0;
    for (const std::string& l : *lines) {
        Iteration it = iteration_of(l);
        if (it.depth == completed.depth) {
            EXPECT_EQ(it.nodes, completed.nodes) << "reference search differs";
        }
        if (it.depth == depth) at_depth = it.nodes;
    }
    EXPECT_GT(at_depth, 0u);
    return at_depth;
}

// The node count of the last report before bestmove: where the search ended (0: no report).
std::uint64_t final_nodes(const std::vector<std::string>& lines) {
    std::uint64_t nodes = 0;
    for (const std::string& l : lines) {
        auto t = split(l);
        for (std::size_t i = 0; i + 1 < t.size(); ++i)
            if (t[0] == "info" && t[i] == "nodes") nodes = std::stoull(t[i + 1]);
    }
    return nodes;
}

// Searches `position` with `go`, freezes the engine after an iteration of at least min_depth, queues
// `command` (stop, ponderhit) and lets it go on: the search must end before the node count at which the
// iteration in progress would complete. A freeze that lands between an iteration's report and its
// end-of-iteration checks ends the search with no report (nothing to count): such tries are repeated,
// and at least one of them must catch the engine inside an iteration. Returns the bestmoves.
std::vector<std::string> answer_inside_iteration(EngineProcess& e, const std::string& position, const std::string& go,
                                                 const std::string& command, std::vector<int> min_depths) {
    std::vector<std::string> moves;
    int inside = 0;
    for (int min_depth : min_depths) {
        e.send("ucinewgame");
        e.send(position);
        e.send(go);
        const Iteration completed = freeze_after_depth(e, min_depth);
        EXPECT_GE(completed.depth, min_depth);
        if (completed.depth < min_depth) break;
        e.thaw();
        // Not a bound, only a likelihood: gives the engine time to leave the end of the iteration.
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        EXPECT_TRUE(e.freeze());
        Iteration later = deepest(e.read_written());
        const Iteration last = later.depth > completed.depth ? later : completed;
        e.send(command);
        e.thaw();
        auto lines = e.read_until("bestmove", HANG_MS);
        EXPECT_TRUE(lines);
        if (!lines) break;
        moves.push_back(best_of(*lines));
        const std::uint64_t stopped_at = final_nodes(*lines);
        if (stopped_at == 0) continue;
        ++inside;
        EXPECT_LT(stopped_at, nodes_completing(e, position, last, last.depth + 1)) << "after depth " << last.depth;
    }
    EXPECT_GE(inside, 1) << "no try caught the search inside an iteration";
    return moves;
}

}  // namespace

TEST(Uci, Handshake) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    EngineProcess e;
    e.send("uci");
    auto lines = e.read_until("uciok");
    ASSERT_TRUE(lines);
    EXPECT_EQ((*lines)[0], std::string("id name Quince ") + QUINCE_VERSION);
    EXPECT_EQ((*lines)[1].rfind("id author ", 0), 0u);
    std::string all;
    for (auto& l : *lines) all += l + "\n";
    for (const char* opt : {"option name Hash type spin default 16 min 1 max 65536",
                            "option name Threads type spin default 1 min 1 max 256",
                            "option name MultiPV type spin default 1 min 1 max 256",
                            "option name Ponder type check default false", "option name Move Overhead type spin",
                            "option name UCI_Chess960 type check default false", "option name Clear Hash type button"})
        EXPECT_NE(all.find(opt), std::string::npos) << opt;
    e.send("isready");
    auto ready = e.read_line();
    ASSERT_TRUE(ready);
    EXPECT_EQ(*ready, "readyok");
    e.send("eval");
    auto ev = e.read_until("final score:");
    ASSERT_TRUE(ev);
    // The default profile: the net when the build embeds one.
    EXPECT_NE((*ev)[0].find(eval::default_profile() == "nnue" ? "network nnue" : "profile quince"), std::string::npos)
        << (*ev)[0];
}

TEST(Uci, EvalProfileAndLazyEvalOptions) {
    EngineProcess e;
    const std::string all = uci_listing(e);
    EXPECT_NE(all.find("option name EvalProfile type combo default " + eval::default_profile() + " var rybka1"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find(" var simple"), std::string::npos);
    EXPECT_NE(all.find("option name LazyEval type check default true"), std::string::npos);

    e.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    e.send("setoption name EvalProfile value rybka1");
    e.send("setoption name EvalProfile value bogus");
    auto err = e.read_line();
    ASSERT_TRUE(err);
    EXPECT_EQ(err->rfind("info string error: setoption: EvalProfile has no value 'bogus'; valid: ", 0), 0u) << *err;
    for (const std::string& name : eval::profile_names())  // the line names every value there is
        EXPECT_NE(err->find(" " + name + (name == eval::profile_names().back() ? "" : ",")), std::string::npos)
            << name << ": " << *err;
    e.send("eval");
    auto rybka = e.read_until("final score:");
    ASSERT_TRUE(rybka);
    EXPECT_NE((*rybka)[0].find("profile rybka1"), std::string::npos);  // unchanged by the bad value
    // K+P v K, White to move: the spec's hand-worked whole evaluation gives 100 cp.
    EXPECT_EQ(rybka->back(), "final score: 100 cp (White to move, side to move's view)");
    e.send("isready");  // past the legend under the table
    ASSERT_TRUE(e.read_until("readyok"));

    e.send("setoption name evalprofile value simple");
    e.send("eval");
    auto simple = e.read_line();
    ASSERT_TRUE(simple);
    EXPECT_EQ(simple->rfind("profile simple", 0), 0u) << *simple;

    e.send("setoption name EvalProfile value rybka1");
    e.send("setoption name LazyEval value false");
    e.send("position startpos");
    e.send("go depth 7");
    auto result = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(result);
    EXPECT_TRUE(is_legal(START, best_of(*result)));
}

TEST(Uci, EvalFileLoadsWeightsAndABadFileChangesNothing) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::string good = testing::TempDir() + "quince_uci_good.txt", bad = testing::TempDir() + "quince_uci_bad.txt";
    std::ofstream(good) << "profile tempo9\nbase rybka1\ntempo 9\n";
    std::ofstream(bad) << "profile broken\nbase rybka1\ntempo 9\nrook_open_op many\n";
    EngineProcess e;
    const std::string all = uci_listing(e);
    EXPECT_NE(all.find("option name EvalFile type string default <empty>"), std::string::npos) << all;
    e.send("setoption name EvalProfile value rybka1");  // the spec's hand-worked values below are rybka1's
    e.send("position fen 4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    e.send("setoption name EvalFile value " + good);
    auto loaded = e.read_line();
    ASSERT_TRUE(loaded);
    EXPECT_EQ(*loaded, "info string EvalFile: loaded profile 'tempo9' from " + good);
    e.send("eval");
    // The trace's legend follows its final line: `isready` reads past it.
    auto skip_legend = [&e] {
        e.send("isready");
        ASSERT_TRUE(e.read_until("readyok"));
    };
    auto ev = e.read_until("final score:");
    ASSERT_TRUE(ev);
    EXPECT_NE((*ev)[0].find("profile tempo9"), std::string::npos) << (*ev)[0];
    EXPECT_EQ(ev->back(), "final score: 106 cp (White to move, side to move's view)");  // rybka1's 100 - 3 + 9
    skip_legend();
    // A file that does not load: one error naming file, line and weight; the weights in force stay.
    e.send("setoption name EvalFile value " + bad);
    auto err = e.read_line();
    ASSERT_TRUE(err);
    EXPECT_EQ(*err, "info string error: setoption: " + bad + ":4: weight 'rook_open_op': 'many' is not an integer");
    e.send("eval");
    ev = e.read_until("final score:");
    ASSERT_TRUE(ev);
    EXPECT_NE((*ev)[0].find("profile tempo9"), std::string::npos) << (*ev)[0];
    skip_legend();
    // EvalProfile changed while a file is in force: the file stays, and the engine says so.
    e.send("setoption name EvalProfile value fruit21");
    auto kept = e.read_line();
    ASSERT_TRUE(kept);
    EXPECT_EQ(*kept, "info string EvalProfile: fruit21 is kept for later; EvalFile " + good +
                         " (profile 'tempo9') stays in force until EvalFile is set to <empty>");
    e.send("eval");
    ev = e.read_until("final score:");
    ASSERT_TRUE(ev);
    EXPECT_NE((*ev)[0].find("profile tempo9"), std::string::npos) << (*ev)[0];
    skip_legend();
    e.send("setoption name EvalProfile value rybka1");
    ASSERT_TRUE(e.read_until("info string EvalProfile: rybka1 is kept for later"));
    // Empty: back to EvalProfile's built-in weights, which the engine names.
    e.send("setoption name EvalFile value <empty>");
    auto back = e.read_line();
    ASSERT_TRUE(back);
    EXPECT_EQ(*back, "info string EvalFile: none; EvalProfile rybka1 in force");
    e.send("eval");
    ev = e.read_until("final score:");
    ASSERT_TRUE(ev);
    EXPECT_NE((*ev)[0].find("profile rybka1"), std::string::npos) << (*ev)[0];
    EXPECT_EQ(ev->back(), "final score: 100 cp (White to move, side to move's view)");
    skip_legend();
    e.send("setoption name EvalFile value /nonexistent/w.txt");
    err = e.read_line();
    ASSERT_TRUE(err);
    EXPECT_EQ(*err, "info string error: setoption: cannot open weights file '/nonexistent/w.txt'");
    // A file with the network header goes to the network loader, not the weights reader: this one is no
    // valid net, the loader says why, and the evaluation in force stays.
    const std::string net = testing::TempDir() + "quince_uci_net.bin";
    std::ofstream(net, std::ios::binary) << "QNN1" << std::string(32, '\0');
    e.send("setoption name EvalFile value " + net);
    err = e.read_line();
    ASSERT_TRUE(err);
    EXPECT_EQ(*err, "info string error: setoption: " + net + ": net format version 0, this build reads versions 1 and 2");
    e.send("eval");
    ev = e.read_until("final score:");
    ASSERT_TRUE(ev);
    EXPECT_NE((*ev)[0].find("profile rybka1"), std::string::npos) << (*ev)[0];
    skip_legend();
    std::remove(net.c_str());
    std::remove(good.c_str());
    std::remove(bad.c_str());
}

TEST(Uci, EvalCommandLineJson) {
    std::string cmd = std::string(QUINCE_ENGINE_PATH) + " eval --json --profile rybka1 \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"";
    FILE* p = popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    while (std::size_t n = fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    EXPECT_EQ(pclose(p), 0);
    // The spec's hand check (Black to move): the profile's score; the position is a drawn K+P v K, which
    // the known-ending scale makes 0.
    EXPECT_NE(out.find("\"profile_cp\": -95"), std::string::npos) << out;
    EXPECT_NE(out.find("\"final_cp\": 0"), std::string::npos) << out;
    EXPECT_NE(out.find("\"material_index\""), std::string::npos);
    EXPECT_NE(out.find("\"phase\""), std::string::npos);
}

TEST(Uci, BadInputGivesOneErrorLineAndKeepsState) {
    EngineProcess e;
    handshake(e);
    e.send("position startpos moves d2d4 g8f6");
    const std::string before = fen_of(e);
    ASSERT_EQ(before, "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 2");

    const std::vector<std::string> bad = {
        "foo",
        "Position startpos",
        "position",
        "position xyz",
        "position fen",
        "position fen 8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 moves e2e4 e7e5 e1e3",
        "position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5 a7a6 b5c6 d7c6 e1g1 c8g4 h2h3 zzzz",
        "position startpos moves e2e5",
        "position startpos garbage",
        "position startpos moves e2e4 e2e4",
        "setoption name Foo value 1",
        "setoption name Hash value abc",
        "setoption name Hash value 0",
        "setoption name Hash value 65537",
        "setoption name Hash value 99999999999999999999999",
        "setoption name Threads value 257",
        "setoption name Threads value -1",
        "setoption name MultiPV value 1.5",
        "setoption name Ponder value maybe",
        "setoption name Ponder",
        "setoption name Clear Hash value 3",
        "setoption value 3",
        "setoption name",
        "setoption",
        "go depth",
        "go depth x",
        "go depth -1",
        "go nodes 0",
        "go movetime 12abc",
        "go wtime abc",
        "go foo",
        "go depth 3 bar",
        "go searchmoves e2e5",
        "go searchmoves",
        "go movestogo 0",
        "go mate 0",
        "go perft 0",
        "go perft",
        "bench x",
        "bench 1 2",
        std::string("\x01\x02\xff\xfe garbage \x7f"),
        std::string("position fen rnbqkbnr/pppppppp/8/8/4") + '\0' + "3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  // fuzz_fen
        std::string(2 << 20, 'x'),
    };
    for (const std::string& cmd : bad) {
        e.send(cmd);
        e.send("isready");
        auto lines = e.read_until("readyok", HANG_MS);
        ASSERT_TRUE(lines) << "no readyok after: " << cmd.substr(0, 60);
        ASSERT_EQ(lines->size(), 2u) << "after: " << cmd.substr(0, 60) << " got: " << (*lines)[0];
        EXPECT_EQ((*lines)[0].rfind("info string error: ", 0), 0u) << cmd.substr(0, 60) << " -> " << (*lines)[0];
        // A refused position is the one exception: it leaves none (Uci.RefusedPositionLeavesNoPosition).
        if (cmd.rfind("position ", 0) == 0 || cmd == "position") {
            e.send("d");
            auto d = e.read_line(HANG_MS);
            ASSERT_TRUE(d);
            EXPECT_EQ(d->rfind("info string no position for 'd': the last 'position' was refused (", 0), 0u)
                << cmd.substr(0, 60) << " -> " << *d;
            e.send("position startpos moves d2d4 g8f6");
        }
        EXPECT_EQ(fen_of(e), before) << "state changed by: " << cmd.substr(0, 60);
    }
    // Options are unchanged too: MultiPV still 1 (a single PV line at depth 3).
    e.send("go depth 3");
    auto lines = e.read_until("bestmove");
    ASSERT_TRUE(lines);
    for (auto& l : *lines) EXPECT_EQ(l.find("multipv 2"), std::string::npos);
    EXPECT_TRUE(is_legal(before, best_of(*lines)));
}

// A refused position (an illegal FEN, an illegal move of the list, a malformed command) leaves no position:
// go answers why and bestmove 0000, never a move of the position set before it; d, eval and go perft say
// why. go infinite and go ponder still wait for stop (or ponderhit) like any search. A position accepted
// later is searched as usual.
TEST(Uci, RefusedPositionLeavesNoPosition) {
    EngineProcess e;
    handshake(e);
    const std::vector<std::string> refused = {"position fen 8/8/8/8/8/8/8/8 w - - 0 1",
                                              "position startpos moves e2e4 e7e5 e1e3", "position fen",
                                              "position xyz"};
    for (const std::string& cmd : refused) {
        e.send("position startpos moves e2e4");
        e.send(cmd);
        e.send("go depth 5");
        auto lines = e.read_until("bestmove", HANG_MS);
        ASSERT_TRUE(lines) << cmd;
        ASSERT_EQ(lines->size(), 3u) << cmd << ": " << lines->back();
        EXPECT_EQ((*lines)[0].rfind("info string error: position: ", 0), 0u) << (*lines)[0];
        EXPECT_EQ((*lines)[1].rfind("info string no position: the last 'position' was refused (", 0), 0u) << (*lines)[1];
        EXPECT_EQ((*lines)[2], "bestmove 0000") << cmd;
    }
    for (const char* cmd : {"d", "eval", "go perft 3"}) {
        e.send(cmd);
        e.send("isready");
        auto lines = e.read_until("readyok", HANG_MS);
        ASSERT_TRUE(lines);
        ASSERT_EQ(lines->size(), 2u) << cmd << ": " << (*lines)[0];
        EXPECT_EQ((*lines)[0].rfind(std::string("info string no position for '") + (cmd[0] == 'g' ? "go perft" : cmd) + "'", 0), 0u)
            << (*lines)[0];
    }
    // go searchmoves: no position to check the moves against, only their shape; the answer is the same.
    e.send("go depth 3 searchmoves e2e4");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove 0000");
    e.send("go depth 3 searchmoves e2e4 e9e4");
    e.send("isready");
    lines = e.read_until("readyok", HANG_MS);
    ASSERT_TRUE(lines);
    ASSERT_EQ(lines->size(), 2u) << (*lines)[0];
    EXPECT_EQ((*lines)[0], "info string error: go: searchmoves: 'e9e4' is not a move");
    // go infinite waits for stop; go ponder for ponderhit (or stop); a command that stops searches answers too.
    e.send("go infinite");
    EXPECT_FALSE(e.read_until("bestmove", 300));
    e.send("ponderhit");
    EXPECT_FALSE(e.read_until("bestmove", 300));
    e.send("stop");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove 0000");
    e.send("go ponder wtime 1000 btime 1000");
    EXPECT_FALSE(e.read_until("bestmove", 300));
    e.send("ponderhit");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove 0000");
    e.send("go infinite");
    e.send("position startpos moves g1f3");  // accepted: the owed answer comes first
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove 0000");
    e.send("go depth 3");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_TRUE(is_legal("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1", best_of(*lines)));
    // A search running when a position is refused goes on (a search of the position of its go) and
    // answers for it; the next go has no position.
    e.send("go infinite");
    e.send("position startpos moves e2e5");
    ASSERT_TRUE(e.read_until("info string error: position: illegal move 'e2e5'", HANG_MS));
    EXPECT_FALSE(e.read_until("bestmove", 300));
    e.send("go depth 2");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_TRUE(is_legal("rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1", best_of(*lines)));
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove 0000");
    // quit answers what is owed, then exits.
    e.send("go infinite");
    e.send("quit");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove 0000");
    EXPECT_TRUE(e.wait_exit(HANG_MS));
}

TEST(Uci, EmptyLinesAreIgnored) {
    EngineProcess e;
    e.send("");
    e.send("   ");
    e.send("\t");
    e.send("\r");
    e.send("isready");
    auto line = e.read_line();
    ASSERT_TRUE(line);
    EXPECT_EQ(*line, "readyok");
}

// stop ends the iteration in progress, not after it: the engine is frozen just after reporting an
// iteration, stop is queued, and the search must end before the node count at which that next
// iteration completes (known from a deterministic reference search).
TEST(Uci, StopDuringInfiniteReturnsQuickly) {
    EngineProcess e;
    handshake(e);
    const std::string position = "position startpos moves e2e4";
    e.send(position);
    e.send("go infinite");
    // No bestmove on its own.
    auto early = e.read_until("bestmove", 300);
    EXPECT_FALSE(early);
    e.send("stop");
    ASSERT_TRUE(e.read_until("bestmove", HANG_MS));
    // Later iterations cost 10,000s to 100,000s of nodes (seconds each in the sanitizer builds).
    const std::vector<int> depths = test::sanitized() ? std::vector<int>{12, 12, 13, 13} : std::vector<int>{15, 15, 16, 16};
    for (const std::string& move : answer_inside_iteration(e, position, "go infinite", "stop", depths))
        EXPECT_TRUE(is_legal("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", move));
}

TEST(Uci, IsreadyAnswersDuringSearch) {
    EngineProcess e;
    handshake(e);
    e.send("go infinite");
    ASSERT_TRUE(e.read_until("info depth 3 ", HANG_MS));  // the search is running
    // A go infinite has no bestmove before stop: readyok must come while it still runs.
    e.send("isready");
    auto lines = e.read_until("readyok", HANG_MS);
    ASSERT_TRUE(lines);
    for (auto& l : *lines) EXPECT_EQ(l.rfind("bestmove", 0), std::string::npos);
    e.send("stop");
    ASSERT_TRUE(e.read_until("bestmove", HANG_MS));
}

TEST(Uci, BestmoveLegalWithTinyLimits) {
    EngineProcess e;
    handshake(e);
    const std::vector<std::string> fens = {
        START,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1",  // king beside an enemy pawn: few legal moves
    };
    for (const std::string& fen : fens)
        for (const char* go : {"go depth 1", "go nodes 1", "go movetime 1", "go wtime 1 btime 1", "go wtime 0 btime 0"}) {
            e.send("position fen " + fen);
            e.send(go);
            auto lines = e.read_until("bestmove", HANG_MS);
            ASSERT_TRUE(lines) << fen << " " << go;
            EXPECT_TRUE(is_legal(fen, best_of(*lines))) << fen << " " << go << " -> " << lines->back();
        }
}

// Whether `move` (UCI notation) mates in the position of `fen`.
bool mates(const std::string& fen, const std::string& move) {
    Position p;
    return p.set_fen(fen) && test::checkmates(p, uci_to_move(p, move));
}

// The search's answer ends with the info line of a completed iteration: the one before bestmove scores the mate.
void expect_mate_reported(const std::vector<std::string>& lines, const std::string& fen, const std::string& what) {
    ASSERT_GE(lines.size(), 2u) << fen << " / " << what << ": no info line before " << lines.back();
    const std::string& info = lines[lines.size() - 2];
    EXPECT_EQ(info.rfind("info depth ", 0), 0u) << fen << " / " << what << ": " << info;
    EXPECT_NE(info.find(" score mate 1 "), std::string::npos) << fen << " / " << what << ": " << info;
    EXPECT_NE(info.find(" pv " + best_of(lines)), std::string::npos) << fen << " / " << what << ": " << info;
}

// A stop right after go (read by the engine before its search has even started) waits for the first
// iteration: on 300 positions with a mate in one (60 in the sanitizer builds), the answer is a mating move, after its info line. An
// unsearched answer (the first move generated) is almost never the mate.
TEST(Uci, StopRightAfterGoAnswersTheMateInOne) {
    EngineProcess e;
    handshake(e);
    const std::size_t count = test::sanitized() ? 60 : 300;
    const std::vector<std::string> fens = test::mate_in_one_fens(7, count);
    ASSERT_EQ(fens.size(), count);
    for (const std::string& fen : fens) {
        e.write_all("position fen " + fen + "\ngo infinite\nstop\n");  // one write: read together
        auto lines = e.read_until("bestmove", HANG_MS);
        ASSERT_TRUE(lines) << fen;
        EXPECT_TRUE(mates(fen, best_of(*lines))) << fen << " -> " << lines->back();
        expect_mate_reported(*lines, fen, "go infinite, stop");
    }
}

// The same for every way a search can be ended before its first iteration is complete, with one and two
// threads: its own limits (nodes, movetime, clocks, depth), stop, ponder and stop, and the commands that
// stop a running search first (a second go, setoption, position, ucinewgame). Each answers the mate in
// one; a second go then searches too.
TEST(Uci, NothingEndsASearchBeforeItsFirstIteration) {
    EngineProcess e;
    handshake(e);
    const std::vector<std::string> fens = test::mate_in_one_fens(8, 200);
    ASSERT_EQ(fens.size(), 200u);
    const std::vector<std::string> gos = {"go infinite", "go", "go ponder", "go nodes 1", "go movetime 1",
                                          "go movetime 0", "go wtime 1 btime 1", "go wtime 0 btime 0",
                                          "go depth 1", "go mate 1"};
    const std::vector<std::string> interrupts = {"stop", "go depth 1", "go nodes 1", "setoption name Clear Hash",
                                                 "setoption name Hash value 2", "position startpos", "ucinewgame",
                                                 "isready"};
    std::size_t next = 0;
    // The sanitizer builds (several times slower) take the two-thread half: what ThreadSanitizer looks at.
    for (const char* threads : {"1", "2"}) {
        if (test::sanitized() && std::string(threads) == "1") continue;
        e.send(std::string("setoption name Threads value ") + threads);
        for (const std::string& go : gos)
            for (const std::string& interrupt : interrupts) {
                const std::string& fen = fens[next++ % fens.size()];
                const std::string what = go + ", " + interrupt + ", Threads " + threads;
                e.write_all("position fen " + fen + "\n" + go + "\n" + interrupt + "\n");
                // isready does not end a search: go infinite, a bare go and go ponder go on until a stop.
                std::vector<std::string> lines;
                if (interrupt == "isready") {
                    auto until_ready = e.read_until("readyok", HANG_MS);
                    ASSERT_TRUE(until_ready) << what;
                    until_ready->pop_back();
                    lines = *until_ready;
                }
                if (lines.empty() || lines.back().rfind("bestmove", 0) != 0) {
                    if (interrupt == "isready") e.send("stop");
                    auto until_best = e.read_until("bestmove", HANG_MS);
                    ASSERT_TRUE(until_best) << what;
                    lines.insert(lines.end(), until_best->begin(), until_best->end());
                }
                ASSERT_EQ(std::count_if(lines.begin(), lines.end(),
                                        [](const std::string& l) { return l.rfind("bestmove", 0) == 0; }),
                          1)
                    << what;
                EXPECT_TRUE(mates(fen, best_of(lines))) << fen << " / " << what << " -> " << lines.back();
                expect_mate_reported(lines, fen, what);
                if (interrupt.rfind("go ", 0) == 0) {
                    ASSERT_TRUE(e.read_until("bestmove", HANG_MS)) << what;
                }
                e.send("isready");
                auto rest = e.read_until("readyok", HANG_MS);
                ASSERT_TRUE(rest) << what;
                for (const std::string& l : *rest) EXPECT_EQ(l.rfind("bestmove", 0), std::string::npos) << what << ": " << l;
            }
    }
}

// quit right after go: the search still completes its first iteration, prints its bestmove (the mate),
// and the engine exits with status 0.
TEST(Uci, QuitRightAfterGoAnswersAndExits) {
    const std::vector<std::string> fens = test::mate_in_one_fens(9, 6);
    ASSERT_EQ(fens.size(), 6u);
    for (std::size_t i = 0; i < fens.size(); ++i) {
        EngineProcess e;
        const std::string threads = i % 2 ? "2" : "1";
        e.send("setoption name Threads value " + threads);
        e.write_all("position fen " + fens[i] + "\n" + (i < 3 ? "go infinite" : "go nodes 1") + "\nquit\n");
        auto lines = e.read_until("bestmove", HANG_MS);
        ASSERT_TRUE(lines) << fens[i];
        EXPECT_TRUE(mates(fens[i], best_of(*lines))) << fens[i] << " -> " << lines->back();
        expect_mate_reported(*lines, fens[i], "quit, Threads " + threads);
        EXPECT_TRUE(e.wait_exit(HANG_MS)) << fens[i];
        EXPECT_TRUE(WIFEXITED(e.exit_status()) && WEXITSTATUS(e.exit_status()) == 0) << fens[i];
        EXPECT_TRUE(e.drain(100).empty());
    }
}

// A FEN with castling rights or an en-passant square that cannot be is accepted without them, and one
// info string line names what was left out; the position is the one without them.
TEST(Uci, PositionLeavesOutCastlingAndEnPassantThatCannotBe) {
    EngineProcess e;
    handshake(e);
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1");
    e.send("isready");
    auto lines = e.read_until("readyok", HANG_MS);
    ASSERT_TRUE(lines);
    ASSERT_EQ(lines->size(), 2u);
    const std::string& info = (*lines)[0];
    EXPECT_EQ(info.rfind("info string position: FEN accepted without castling 'Q' (", 0), 0u) << info;
    EXPECT_NE(info.find(", castling 'k' ("), std::string::npos) << info;
    EXPECT_NE(info.find(", castling 'q' ("), std::string::npos) << info;
    EXPECT_EQ(info.find("'K'"), std::string::npos) << info;
    EXPECT_EQ(fen_of(e), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w KQkq - 0 1 moves e1g1");  // the right that can be is kept
    EXPECT_EQ(fen_of(e), "4k3/8/8/8/8/8/8/5RK1 b - - 1 1");

    e.send("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1 moves e2e4");
    e.send("isready");
    lines = e.read_until("readyok", HANG_MS);
    ASSERT_TRUE(lines);
    ASSERT_EQ(lines->size(), 2u);
    EXPECT_EQ((*lines)[0].rfind("info string position: FEN accepted without en-passant square 'e6' (", 0), 0u)
        << (*lines)[0];
    EXPECT_EQ(fen_of(e), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    e.send("go depth 2");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_TRUE(is_legal("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", best_of(*lines)));

    // Nothing to leave out: no line.
    e.send("position fen " + std::string(START));
    e.send("isready");
    lines = e.read_until("readyok", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->size(), 1u) << (*lines)[0];
}

TEST(Uci, MatedAndStalematedRoots) {
    EngineProcess e;
    handshake(e);
    e.send("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go depth 5");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove 0000");
    EXPECT_NE((*lines)[0].find("score mate 0"), std::string::npos);

    e.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    e.send("go movetime 100");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove 0000");
    EXPECT_NE((*lines)[0].find("score cp 0"), std::string::npos);

    // Even go infinite on a finished game waits for stop.
    e.send("go infinite");
    EXPECT_FALSE(e.read_until("bestmove", 200));
    e.send("stop");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "bestmove 0000");
}

TEST(Uci, PonderAndPonderhit) {
    EngineProcess e;
    handshake(e);
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder wtime 2000 btime 2000 winc 0 binc 0");
    // While pondering there is no bestmove, however long it takes.
    EXPECT_FALSE(e.read_until("bestmove", 600));
    e.send("ponderhit");
    // After ponderhit the normal allocation of a 2 s clock applies: the search ends by itself (how much
    // of the clock it may use: TimeManager tests in tests/search).
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_TRUE(is_legal("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", best_of(*lines)));

    // Ponder miss: the GUI sends stop, then a new position and go.
    e.send("go ponder wtime 2000 btime 2000");
    EXPECT_FALSE(e.read_until("bestmove", 200));
    e.send("stop");
    ASSERT_TRUE(e.read_until("bestmove", HANG_MS));
}

// Pondering counts as thought: when the ponder search has already thought as long as the move deserves
// (here a single legal move, 1...g6 against 2.Qh5+, found at depth 4), ponderhit is answered at once,
// not after the iteration in progress; a new budget at ponderhit made ponder games at 40 moves in 8 s
// in xboard spend the hard limit move after move and lose on time. Counted, not timed: the engine is
// frozen just after reporting an iteration, ponderhit is queued, and the search must end before the node
// count at which the iteration then in progress completes (known from a deterministic reference search).
TEST(Uci, PonderhitAnswersAtOnceWhenPonderingSufficed) {
    EngineProcess e;
    handshake(e);
    const std::string position = "position startpos moves e2e4 f7f5 d1h5";
    // Later iterations cost 100,000s of nodes (seconds each in the sanitizer builds, from depth 16, where
    // two tries suffice to catch the search inside one).
    const std::vector<int> depths = test::sanitized() ? std::vector<int>{16, 17} : std::vector<int>{20, 20, 21, 22};
    for (const std::string& move : answer_inside_iteration(e, position, "go ponder wtime 600000 btime 600000",
                                                           "ponderhit", depths))
        EXPECT_EQ(move, "g7g6");
}

// The numbers of an info line's `time` field over one search: -1 where a line has none.
std::vector<long> info_times(const std::vector<std::string>& lines) {
    std::vector<long> times;
    for (const std::string& l : lines) {
        if (l.rfind("info", 0) != 0) continue;
        auto t = split(l);
        for (std::size_t i = 0; i + 1 < t.size(); ++i)
            if (t[i] == "time") times.push_back(std::stol(t[i + 1]));
    }
    return times;
}

// go movetime N searches N ms: bestmove never comes sooner (the test's clock starts before the engine
// reads go); the upper bound only says that the search ends by itself.
TEST(Uci, MovetimeIsSpentInFull) {
    EngineProcess e;
    handshake(e);
    for (const char* moves : {"", " moves e2e4 f7f5 d1h5"}) {  // the second: a single legal move
        e.send(std::string("position startpos") + moves);
        auto t = Clock::now();
        e.send("go movetime 400");
        auto lines = e.read_until("bestmove", HANG_MS);
        ASSERT_TRUE(lines);
        EXPECT_GE(ms_since(t), 400) << moves;
        auto times = info_times(*lines);
        ASSERT_FALSE(times.empty());
        EXPECT_GE(times.back(), 400 - 1) << moves;  // the last info line: the aborted iteration at the limit
    }
}

// After go ponder and ponderhit, `time` (and nps) count from go, as in Stockfish: the field never goes
// back over one search. It went back to 0 at ponderhit while nodes kept counting.
TEST(Uci, PonderTimeCountsFromGo) {
    EngineProcess e;
    handshake(e);
    e.send("setoption name Ponder value true");
    e.send("position startpos moves e2e4 e7e5");
    e.send("go ponder movetime 700");
    // Every line of pondering up to depth 4 (no bestmove among them), then ponderhit.
    auto until = e.read_until("info depth 4 ", HANG_MS);
    ASSERT_TRUE(until);
    std::vector<std::string> lines = *until;
    for (auto& l : lines) EXPECT_EQ(l.rfind("bestmove", 0), std::string::npos);
    const std::size_t pondered = info_times(lines).size();
    e.send("ponderhit");
    auto after = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(after);
    lines.insert(lines.end(), after->begin(), after->end());
    auto times = info_times(lines);
    ASSERT_GT(pondered, 0u);
    ASSERT_GT(times.size(), pondered);
    for (std::size_t i = 1; i < times.size(); ++i) EXPECT_GE(times[i], times[i - 1]) << "info line " << i;
}

// Only the opponent's clock given: our clock is 0, and the engine moves at once instead of never.
TEST(Uci, MissingOwnClockMovesAtOnce) {
    EngineProcess e;
    handshake(e);
    e.send("position startpos");
    e.send("go btime 1000");
    auto lines = e.read_until("bestmove", HANG_MS);
    if (!lines) e.send("stop");
    ASSERT_TRUE(lines);
    EXPECT_TRUE(is_legal(std::string(Position::START_FEN), best_of(*lines)));
}

// `go perft 1` in the current position: its divide lines as one text ("e1g1: 1\n…"), empty on a timeout.
std::string perft_divide_text(EngineProcess& e) {
    e.send("go perft 1");
    auto lines = e.read_until("Nodes searched");
    std::string all;
    if (lines)
        for (auto& l : *lines) all += l + "\n";
    return all;
}

TEST(Uci, Chess960CastlingNotation) {
    EngineProcess e;
    handshake(e);
    const std::string fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    e.send("position fen " + fen);
    std::string all = perft_divide_text(e);
    ASSERT_FALSE(all.empty());
    EXPECT_NE(all.find("e1g1: 1"), std::string::npos);
    EXPECT_NE(all.find("e1c1: 1"), std::string::npos);
    EXPECT_EQ(all.find("e1h1"), std::string::npos);

    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen " + fen);
    all = perft_divide_text(e);
    ASSERT_FALSE(all.empty());
    EXPECT_NE(all.find("e1h1: 1"), std::string::npos);
    EXPECT_NE(all.find("e1a1: 1"), std::string::npos);
    EXPECT_EQ(all.find("e1g1"), std::string::npos);

    // A Chess960 start (king b1, rooks a1 and h1) and castling given king-takes-rook.
    e.send("position fen rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1 moves b1a1");
    EXPECT_EQ(fen_of(e), "rk5r/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b ha - 1 1");
    // Search output uses the same notation.
    e.send("position fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    e.send("go depth 3 searchmoves e1h1");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back().substr(0, 13), "bestmove e1h1");
}

// Regression (stateful fuzzer, seed 19465): UCI_Chess960 switched off while a Chess960 position is set
// printed its castling f8h8 as f8g8, the same text as the king's step to g8, and dropped the rule that the
// castling rook may shield the king. The position keeps Chess960 rules and notation until the next `position`.
TEST(Uci, Chess960OffKeepsTheSetPositionsCastling) {
    EngineProcess e;
    handshake(e);
    e.send("setoption name UCI_Chess960 value true");
    e.send("position fen qr3k1r/p1pbbppp/1pn1pn2/3p4/2PP4/1P3N2/P2NPPPP/QRB1KB1R w Hhb - 0 8 moves b1b2");
    e.send("setoption name UCI_Chess960 value false");
    std::string all = perft_divide_text(e);
    ASSERT_FALSE(all.empty());
    EXPECT_NE(all.find("f8h8: 1"), std::string::npos) << all;  // castling, king takes rook
    EXPECT_NE(all.find("f8g8: 1"), std::string::npos) << all;  // the king's step
    e.send("go depth 2 searchmoves b8d8 f8e8 f8h8");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    const std::string best = lines->back().substr(9, 4);
    EXPECT_TRUE(best == "b8d8" || best == "f8e8" || best == "f8h8") << lines->back();
    // The next standard position is standard again: e1g1, not e1h1.
    e.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    all = perft_divide_text(e);
    ASSERT_FALSE(all.empty());
    EXPECT_NE(all.find("e1g1: 1"), std::string::npos);
    EXPECT_EQ(all.find("e1h1"), std::string::npos);
}

TEST(Uci, GoPerftDivide) {
    EngineProcess e;
    handshake(e);
    e.send("position startpos");
    e.send("go perft 3");
    auto lines = e.read_until("Nodes searched", HANG_MS);
    ASSERT_TRUE(lines);
    ASSERT_EQ(lines->size(), 22u);
    EXPECT_EQ((*lines)[20], "");
    EXPECT_EQ((*lines)[21], "Nodes searched: 8902");
    std::uint64_t sum = 0;
    for (int i = 0; i < 20; ++i) {
        auto colon = (*lines)[i].find(": ");
        ASSERT_NE(colon, std::string::npos);
        EXPECT_TRUE(is_legal(START, (*lines)[i].substr(0, colon)));
        sum += std::stoull((*lines)[i].substr(colon + 2));
    }
    EXPECT_EQ(sum, 8902u);
    EXPECT_NE(std::find(lines->begin(), lines->end(), "e2e4: 600"), lines->end());
}

TEST(Uci, GoPerftAnswersIsreadyAndStops) {
    EngineProcess e;
    handshake(e);
    e.send("position startpos");
    // 2,439,530,234,167 leaves: hours of work, and minutes for the subtree of one root move, so an engine
    // that looks at stop only between root moves misses the watchdog too.
    e.send("go perft 9");
    e.send("isready");
    auto ready = e.read_until("readyok", HANG_MS);
    ASSERT_TRUE(ready);
    for (const std::string& l : *ready) EXPECT_EQ(l.find("Nodes searched"), std::string::npos) << l;
    e.send("stop");
    auto stopped = e.read_until("info string perft stopped", HANG_MS);
    ASSERT_TRUE(stopped);
    // Stopped, not finished: the count says how far it got, short of the whole perft.
    for (const std::string& l : *stopped) EXPECT_EQ(l.find("Nodes searched"), std::string::npos) << l;
    const std::string& report = stopped->back();  // "info string perft stopped: N nodes counted"
    const auto colon = report.find(": ");
    ASSERT_NE(colon, std::string::npos) << report;
    EXPECT_LT(std::stoull(report.substr(colon + 2)), 2439530234167ull) << report;
    // The engine is usable at once, and a new perft is complete and exact.
    e.send("go perft 2");
    auto lines = e.read_until("Nodes searched", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(lines->back(), "Nodes searched: 400");
    // quit ends a running perft too.
    e.send("go perft 9");
    e.send("quit");
    EXPECT_TRUE(e.wait_exit(HANG_MS));  // perft 9 alone would take hours
}

// `bench` runs beside the UCI loop like `go perft`: its totals match the in-process bench, isready is
// answered during it, and stop, go or quit end it at once.
TEST(Uci, BenchRunsBesideTheLoopAndStops) {
    EngineProcess e;
    handshake(e);
    const std::uint64_t expected = uci::run_bench(3, [](const std::string&) {});
    e.send("bench 3");
    auto done = e.read_until("Nodes searched", HANG_MS);
    ASSERT_TRUE(done);
    EXPECT_EQ(done->back(), "Nodes searched: " + std::to_string(expected));

    e.send("bench 40");  // minutes of work
    e.send("isready");
    auto ready = e.read_until("readyok", HANG_MS);
    ASSERT_TRUE(ready);
    for (const std::string& l : *ready) EXPECT_EQ(l.find("Nodes searched"), std::string::npos) << l;
    e.send("stop");
    auto stopped = e.read_until("info string bench stopped", HANG_MS);
    ASSERT_TRUE(stopped);
    // Stopped, not finished: "bench stopped: N of M positions ..." with N < M.
    {
        auto t = split(stopped->back());
        ASSERT_GE(t.size(), 7u) << stopped->back();
        EXPECT_EQ(t[5], "of") << stopped->back();
        EXPECT_LT(std::stoul(t[4]), std::stoul(t[6])) << stopped->back();
    }

    // A search request ends a running bench first, then searches.
    e.send("bench 40");
    e.send("position startpos");
    e.send("go depth 3");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    bool bench_stopped = false;
    for (const std::string& l : *lines) bench_stopped |= l.rfind("info string bench stopped", 0) == 0;
    EXPECT_TRUE(bench_stopped);
    EXPECT_TRUE(is_legal(START, best_of(*lines)));

    e.send("bench 40");
    e.send("quit");
    EXPECT_TRUE(e.wait_exit(HANG_MS));  // bench 40 alone would take hours
}

TEST(Uci, MultiPV) {
    EngineProcess e;
    handshake(e);
    e.send("setoption name multipv value 3");  // names are case-insensitive
    e.send("position startpos");
    e.send("go depth 6");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    std::vector<std::string> pv_moves(4);
    for (auto& l : *lines)
        for (int k = 1; k <= 3; ++k)
            if (l.find("info depth 6 ") == 0 && l.find(" multipv " + std::to_string(k) + " ") != std::string::npos)
                pv_moves[k] = split(l.substr(l.find(" pv ") + 4))[0];
    EXPECT_FALSE(pv_moves[1].empty());
    EXPECT_FALSE(pv_moves[2].empty());
    EXPECT_FALSE(pv_moves[3].empty());
    EXPECT_NE(pv_moves[1], pv_moves[2]);
    EXPECT_NE(pv_moves[2], pv_moves[3]);
    EXPECT_NE(pv_moves[1], pv_moves[3]);
    EXPECT_EQ(best_of(*lines), pv_moves[1]);
}

TEST(Uci, ThreadsAndHashOptions) {
    EngineProcess e;
    handshake(e);
    e.send("setoption name Threads value 4");
    e.send("setoption name Hash value 2");
    e.send("isready");
    auto ready = e.read_until("readyok");
    ASSERT_TRUE(ready);
    ASSERT_EQ(ready->size(), 1u) << (*ready)[0];
    e.send("position startpos moves e2e4 c7c5");
    e.send("go depth 12");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_TRUE(is_legal("rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", best_of(*lines)));
    // A 2 MB table fills up quickly with four threads at depth 12.
    int hashfull = 0;
    for (auto& l : *lines)
        if (auto p = l.find(" hashfull "); p != std::string::npos) hashfull = std::stoi(l.substr(p + 10));
    EXPECT_GT(hashfull, 100);
}

TEST(Uci, ClearHashForgetsPreviousSearch) {
    // WAC.001: a depth-2 search does not see 1.Qg6 (mate in 2); after a deep search the TT makes
    // even a depth-2 search play it; after Clear Hash that knowledge is gone. (Depth 2, not 1: a depth-1
    // search reaches the reply only in quiescence, which on the PV takes no mate score from the table.)
    EngineProcess e;
    handshake(e);
    e.send("position fen 2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    e.send("go depth 2");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_NE(best_of(*lines), "g3g6");
    e.send("go depth 12");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(best_of(*lines), "g3g6");
    e.send("go depth 2");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(best_of(*lines), "g3g6");
    e.send("setoption name Clear Hash");
    e.send("go depth 2");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_NE(best_of(*lines), "g3g6");
}

TEST(Uci, NodeLimitIsReproducible) {
    EngineProcess e;
    handshake(e);
    auto run = [&] {
        e.send("ucinewgame");
        e.send("position startpos moves e2e4 e7e5 g1f3");
        e.send("go nodes 30000");
        auto lines = e.read_until("bestmove", HANG_MS);
        EXPECT_TRUE(lines);
        return lines ? *lines : std::vector<std::string>{};
    };
    auto a = run(), b = run();
    ASSERT_FALSE(a.empty());
    ASSERT_FALSE(b.empty());
    EXPECT_EQ(a.back(), b.back());
    auto strip_time = [](std::string l) {
        for (const char* key : {" nps ", " time "}) {
            auto p = l.find(key);
            if (p == std::string::npos) continue;
            auto end = l.find(' ', p + std::string(key).size());
            l.erase(p, end - p);
        }
        return l;
    };
    EXPECT_EQ(strip_time(a[a.size() - 2]), strip_time(b[b.size() - 2]));
}

TEST(Uci, GoMateFindsAndStops) {
    EngineProcess e;
    handshake(e);
    e.send("position fen r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1");
    e.send("go mate 3");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(best_of(*lines), "f8c5");
    EXPECT_NE((*lines)[lines->size() - 2].find("score mate 3"), std::string::npos);
}

TEST(Uci, PositionDuringSearchStopsItFirst) {
    EngineProcess e;
    handshake(e);
    e.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    e.send("position startpos moves g1f3");
    auto lines = e.read_until("bestmove", HANG_MS);  // the old search answers
    ASSERT_TRUE(lines);
    EXPECT_TRUE(is_legal(START, best_of(*lines)));
    EXPECT_EQ(fen_of(e), "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1");
    // A second go while searching: the first search ends with its bestmove, then the new one runs.
    e.send("go infinite");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    e.send("go depth 2");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    // An invalid position during a search does not disturb it.
    e.send("go infinite");
    e.send("position startpos moves e2e5");
    auto until_error = e.read_until("info string error:", HANG_MS);  // info lines may come first
    ASSERT_TRUE(until_error);
    for (auto& l : *until_error) EXPECT_EQ(l.rfind("bestmove", 0), std::string::npos);
    EXPECT_FALSE(e.read_until("bestmove", 200));
    e.send("stop");
    ASSERT_TRUE(e.read_until("bestmove", HANG_MS));
}

TEST(Uci, QuitDuringSearchExitsPromptly) {
    EngineProcess e;
    handshake(e);
    e.send("setoption name Threads value 2");
    e.send("go infinite");
    ASSERT_TRUE(e.read_until("info depth 3 ", HANG_MS));  // the search is running
    e.send("quit");
    // go infinite never ends by itself: an engine that does not end it on quit never exits.
    EXPECT_TRUE(e.wait_exit(HANG_MS));
}

TEST(Uci, TimeControlUsesLittleOfTheClock) {
    EngineProcess e;
    handshake(e);
    // The searches end by themselves (a clock is a limit, not go infinite); how much of the clock they
    // may use is the time manager's, tested on its computed limits (TimeManager.ShortClocks in
    // tests/search), not by timing a search on a machine that may be busy.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6");
    e.send("go wtime 3000 btime 3000 winc 0 binc 0");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_TRUE(is_legal("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", best_of(*lines)));
    e.send("go wtime 1000 btime 1000 movestogo 1");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
}

TEST(Uci, MultiPVBeyondLegalMovesAndSearchmoves) {
    EngineProcess e;
    handshake(e);
    e.send("setoption name MultiPV value 5");
    e.send("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1");  // three legal moves
    e.send("go depth 4");
    auto lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    int at_depth4 = 0;
    for (auto& l : *lines)
        if (l.rfind("info depth 4 ", 0) == 0) ++at_depth4;
    EXPECT_EQ(at_depth4, 3);
    e.send("setoption name MultiPV value 1");
    e.send("go depth 4 searchmoves a1b1");
    lines = e.read_until("bestmove", HANG_MS);
    ASSERT_TRUE(lines);
    EXPECT_EQ(best_of(*lines), "a1b1");
}

// The move lists of a repeated `searchmoves` add up (Stockfish's reading; the stateful fuzzer's model once
// kept only the first list and took the engine's answer for a broken promise). Rxd5 wins the queen, so it
// is the answer whenever it is among the moves searched, whichever list names it.
TEST(Uci, RepeatedSearchmovesListsAddUp) {
    EngineProcess e;
    handshake(e);
    e.send("position fen 4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
    for (const char* go : {"go depth 4 searchmoves e1e2 searchmoves d1d5",   // not only the first list
                           "go depth 4 searchmoves d1d5 searchmoves e1e2",   // not only the last list
                           "go depth 4 searchmoves e1e2 depth 4 searchmoves e1f1 d1d5"}) {
        e.send(go);
        auto lines = e.read_until("bestmove", HANG_MS);
        ASSERT_TRUE(lines) << go;
        EXPECT_EQ(best_of(*lines), "d1d5") << go;
    }
    e.send("go depth 2 searchmoves e1e2 searchmoves e1e8");  // an illegal move in a later list: refused
    auto error = e.read_until("info string error", HANG_MS);
    ASSERT_TRUE(error);
    EXPECT_NE(error->back().find("'e1e8'"), std::string::npos) << error->back();
}

namespace {

// Nodes of the last `info ... nodes N` line of a finished `go`.
std::uint64_t searched_nodes(const std::vector<std::string>& lines) {
    std::uint64_t nodes = 0;
    for (const std::string& line : lines) {
        auto t = split(line);
        for (std::size_t i = 0; i + 1 < t.size(); ++i)
            if (t[i] == "nodes") nodes = std::stoull(t[i + 1]);
    }
    return nodes;
}

std::uint64_t nodes_at_depth_8(EngineProcess& e) {
    e.send("ucinewgame");
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1b5");
    e.send("go depth 8");
    auto lines = e.read_until("bestmove", HANG_MS);
    EXPECT_TRUE(lines);
    return lines ? searched_nodes(*lines) : 0;
}

}  // namespace

TEST(Uci, SearchDisableOption) {
    EngineProcess e;
    const std::string all = uci_listing(e);
    EXPECT_NE(all.find("option name SearchDisable type string default <empty>"), std::string::npos) << all;

    const std::uint64_t all_on = nodes_at_depth_8(e);
    e.send("setoption name SearchDisable value nmp,lmr");
    const std::uint64_t without = nodes_at_depth_8(e);
    EXPECT_GT(without, all_on);  // no null move, no reductions: a bigger tree

    e.send("setoption name SearchDisable value nmp,warp-drive");
    auto err = e.read_line();
    ASSERT_TRUE(err);
    EXPECT_EQ(err->rfind("info string error: ", 0), 0u) << *err;
    EXPECT_NE(err->find("warp-drive"), std::string::npos) << *err;
    EXPECT_EQ(nodes_at_depth_8(e), without);  // the bad value left the switches as they were

    e.send("setoption name SearchDisable value none");
    EXPECT_EQ(nodes_at_depth_8(e), all_on);
}

// SearchEnable is where a future trial rule is switched on; there is none now, so every name (a
// deleted trial's too) is refused with an error naming it, and the search stays as it is. It is left
// out of the `uci` answer (a GUI has nothing to offer there) but the match scripts still set it.
TEST(Uci, SearchEnableOption) {
    EngineProcess e;
    const std::string all = uci_listing(e);
    EXPECT_EQ(all.find("SearchEnable"), std::string::npos) << all;
    EXPECT_NE(all.find("option name SearchDisable type string default <empty>"), std::string::npos) << all;

    const std::uint64_t base = nodes_at_depth_8(e);
    e.send("setoption name SearchEnable value checkextlow");
    auto err = e.read_line();
    ASSERT_TRUE(err);
    EXPECT_EQ(err->rfind("info string error: ", 0), 0u) << *err;
    EXPECT_NE(err->find("checkextlow"), std::string::npos) << *err;
    EXPECT_EQ(nodes_at_depth_8(e), base);

    e.send("setoption name SearchEnable value none");
    EXPECT_EQ(nodes_at_depth_8(e), base);
}

// UCI_ShowWDL: off by default; on, every info line with a score carries `wdl W D L` (adding up to 1000)
// right after the score; a mate is 1000 0 0.
TEST(Uci, ShowWdl) {
    EngineProcess e;
    EXPECT_NE(uci_listing(e).find("option name UCI_ShowWDL type check default false"), std::string::npos);
    e.send("position startpos moves e2e4");
    e.send("go depth 4");
    auto off = e.read_until("bestmove");
    ASSERT_TRUE(off);
    for (const std::string& l : *off) EXPECT_EQ(l.find(" wdl "), std::string::npos) << l;
    e.send("setoption name UCI_ShowWDL value true");
    e.send("go depth 4");
    auto on = e.read_until("bestmove");
    ASSERT_TRUE(on);
    int with_wdl = 0;
    for (const std::string& l : *on) {
        if (l.find(" score ") == std::string::npos) continue;
        const auto t = split(l);
        auto it = std::find(t.begin(), t.end(), "wdl");
        ASSERT_NE(it, t.end()) << l;
        ASSERT_GE(t.end() - it, 4) << l;
        ASSERT_EQ(it - std::find(t.begin(), t.end(), "score"), 3) << l;  // score cp N wdl W D L
        EXPECT_EQ(std::stoi(*(it + 1)) + std::stoi(*(it + 2)) + std::stoi(*(it + 3)), 1000) << l;
        ++with_wdl;
    }
    EXPECT_GE(with_wdl, 4);
    e.send("position fen 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");  // Ra8 mates
    e.send("go depth 3");
    auto mate = e.read_until("bestmove");
    ASSERT_TRUE(mate);
    EXPECT_NE((*mate)[mate->size() - 2].find("score mate 1 wdl 1000 0 0"), std::string::npos) << (*mate)[mate->size() - 2];
    e.send("setoption name UCI_ShowWDL value false");
    e.send("go depth 3");
    auto again = e.read_until("bestmove");
    ASSERT_TRUE(again);
    for (const std::string& l : *again) EXPECT_EQ(l.find(" wdl "), std::string::npos) << l;
}

// Skill Level / UCI_LimitStrength + UCI_Elo: a weakened level searches 1 + level plies with four lines and
// plays one of them; UCI_Elo is validated; full strength is the default.
TEST(Uci, SkillLevelAndLimitStrength) {
    EngineProcess e;
    const std::string listing = uci_listing(e);
    EXPECT_NE(listing.find("option name Skill Level type spin default 20 min 0 max 20"), std::string::npos);
    EXPECT_NE(listing.find("option name UCI_LimitStrength type check default false"), std::string::npos);
    EXPECT_NE(listing.find("option name UCI_Elo type spin default"), std::string::npos);
    auto run = [&e](int depth) {
        e.send("position startpos moves e2e4 e7e5");
        e.send("go depth " + std::to_string(depth));
        auto lines = e.read_until("bestmove");
        EXPECT_TRUE(lines);
        return lines ? *lines : std::vector<std::string>{};
    };
    auto max_depth = [](const std::vector<std::string>& lines) {
        int d = 0;
        for (const std::string& l : lines) {
            const auto t = split(l);
            if (t.size() > 2 && t[0] == "info" && t[1] == "depth") d = std::max(d, std::stoi(t[2]));
        }
        return d;
    };
    EXPECT_EQ(max_depth(run(6)), 6);
    e.send("setoption name Skill Level value 2");
    auto weak = run(10);
    EXPECT_EQ(max_depth(weak), 3);
    std::set<std::string> first_moves;
    for (const std::string& l : weak)
        if (l.find(" multipv ") != std::string::npos && l.find("info depth 3 ") == 0)
            first_moves.insert(split(l.substr(l.find(" pv ") + 4))[0]);
    EXPECT_EQ(first_moves.size(), 4u);
    EXPECT_TRUE(first_moves.count(best_of(weak))) << best_of(weak);
    e.send("setoption name UCI_Elo value " + std::to_string(search::SKILL_ELO_MIN - 1));
    auto err = e.read_line();
    ASSERT_TRUE(err);
    EXPECT_NE(err->find("info string error: setoption: UCI_Elo must be between"), std::string::npos) << *err;
    e.send("setoption name Skill Level value 20");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value " + std::to_string(search::SKILL_ELO_MIN));
    EXPECT_EQ(max_depth(run(10)), 1);  // the lowest rating: level 0
    e.send("setoption name UCI_LimitStrength value false");
    EXPECT_EQ(max_depth(run(5)), 5);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
