// Syzygy tablebases through Fathom: the Position adapter against Debian's `fathom` command as the
// oracle, root move ranking, in-search probes, and won/drawn endings played out by the engine.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <sstream>

#include "board/movegen.h"
#include "board/notation.h"
#include "search/search.h"
#include "search/syzygy.h"
#include "search/tt.h"
#include "uci/uci.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::search;

#if !defined(QUINCE_NO_SYZYGY)

namespace {

const std::string TB_DIR = std::string(QUINCE_TEST_DATA_DIR) + "/syzygy";

using test::sanitized;

// Loads the test tables for one test and unloads them afterwards (Fathom's tables are process-wide).
class Syzygy : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string message = syzygy::init(TB_DIR);
        ASSERT_EQ(syzygy::max_pieces(), 4) << message;
    }
    void TearDown() override { syzygy::init(""); }
};

Position from_fen(const std::string& fen) {
    Position p;
    std::string error;
    EXPECT_TRUE(p.set_fen(fen, false, &error)) << fen << ": " << error;
    return p;
}

std::string fathom_command() {
    for (const char* path : {"/usr/games/fathom", "/usr/bin/fathom", "/usr/local/bin/fathom"})
        if (std::FILE* f = std::fopen(path, "r")) {
            std::fclose(f);
            return path;
        }
    return "";
}

// Debian's `fathom --path=DIR FEN`: the PGN header's WDL ("Win", "CursedWin", "Draw", "BlessedLoss",
// "Loss") and DTZ (plies, unsigned).
bool run_fathom(const std::string& exe, const std::string& fen, std::string* wdl, int* dtz) {
    const std::string cmd = exe + " --path=" + TB_DIR + " '" + fen + "' 2>/dev/null";
    std::FILE* pipe = popen(cmd.c_str(), "r");
    if (!pipe) return false;
    std::string out;
    char buf[4096];
    while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
    pclose(pipe);
    // The tags' values: [WDL "Win"] and [DTZ "21"].
    auto tag = [&out](const std::string& name, std::string* value) {
        const std::string open = "[" + name + " \"";
        const std::size_t at = out.find(open);
        if (at == std::string::npos) return false;
        const std::size_t end = out.find('"', at + open.size());
        if (end == std::string::npos) return false;
        *value = out.substr(at + open.size(), end - at - open.size());
        return !value->empty();
    };
    std::string dtz_text;
    if (!tag("WDL", wdl) || !tag("DTZ", &dtz_text)) return false;
    if (dtz_text.find_first_not_of("0123456789") != std::string::npos) return false;
    *dtz = std::stoi(dtz_text);
    return true;
}

std::string wdl_name(syzygy::Wdl w) {
    switch (w) {
    case syzygy::Wdl::WIN: return "Win";
    case syzygy::Wdl::CURSED_WIN: return "CursedWin";
    case syzygy::Wdl::DRAW: return "Draw";
    case syzygy::Wdl::BLESSED_LOSS: return "BlessedLoss";
    case syzygy::Wdl::LOSS: return "Loss";
    }
    return "?";
}

// Random legal positions of the given material ("KQvKR": White's pieces, then Black's), either side to
// move, with a legal move (mates and stalemates are not probed by Fathom's root probe).
std::vector<std::string> random_positions(const std::string& material, int count, std::mt19937& rng) {
    std::vector<std::string> fens;
    const std::size_t v = material.find('v');
    while (int(fens.size()) < count) {
        char board[64];
        std::fill(board, board + 64, '.');
        bool ok = true;
        for (std::size_t i = 0; i < material.size() && ok; ++i) {
            if (i == v) continue;
            const bool white = i < v;
            const char c = white ? material[i] : char(std::tolower(material[i]));
            int tries = 0;
            int sq;
            do {
                sq = int(rng() % 64);
            } while ((board[sq] != '.' || ((c == 'P' || c == 'p') && (sq < 8 || sq >= 56))) && ++tries < 100);
            if (tries >= 100) ok = false;
            board[sq] = c;
        }
        if (!ok) continue;
        std::string fen;
        for (int r = 7; r >= 0; --r) {
            int empty = 0;
            for (int f = 0; f < 8; ++f) {
                const char c = board[r * 8 + f];
                if (c == '.') ++empty;
                else {
                    if (empty) fen += char('0' + empty), empty = 0;
                    fen += c;
                }
            }
            if (empty) fen += char('0' + empty);
            if (r) fen += '/';
        }
        fen += rng() % 2 ? " w - - 0 1" : " b - - 0 1";
        Position p;
        if (!p.set_fen(fen) || MoveList<LEGAL>(p).size() == 0) continue;
        fens.push_back(fen);
    }
    return fens;
}

struct GameOutcome {
    std::string result;  // "1-0", "0-1", "1/2-1/2"
    std::string reason;  // "mate", "stalemate", "fifty", "repetition", "material", "length"
    int plies = 0;
    std::string moves;
};

// The engine against itself at a fixed node count per move, from fen, until the game ends.
GameOutcome self_play(const std::string& fen, std::uint64_t nodes, int max_plies,
                      const std::function<void(const Position&)>& each_position = nullptr) {
    Engine engine;
    engine.new_game();
    SearchOptions options;
    options.silent = true;
    Limits limits;
    limits.nodes = nodes;
    Position pos = from_fen(fen);
    GameOutcome g;
    for (;; ++g.plies) {
        if (each_position) each_position(pos);
        if (MoveList<LEGAL>(pos).size() == 0) {
            g.reason = pos.in_check() ? "mate" : "stalemate";
            g.result = !pos.in_check() ? "1/2-1/2" : pos.side_to_move() == WHITE ? "0-1" : "1-0";
            return g;
        }
        if (pos.rule50() >= 100) return g.result = "1/2-1/2", g.reason = "fifty", g;
        if (pos.is_repetition(0)) return g.result = "1/2-1/2", g.reason = "repetition", g;
        if (pos.has_insufficient_material()) return g.result = "1/2-1/2", g.reason = "material", g;
        if (g.plies >= max_plies) return g.result = "*", g.reason = "length", g;
        const SearchResult r = engine.search(pos, limits, options);
        if (!r.best) return g.result = "*", g.reason = "no move", g;
        g.moves += move_to_uci(r.best, false) + " ";
        pos.do_move(r.best);
    }
}

}  // namespace

TEST(SyzygyInit, MissingOrEmptyPathsLeaveTablebasesOff) {
    EXPECT_EQ(syzygy::init("/no/such/directory"), "error: SyzygyPath: '/no/such/directory' is not a directory");
    EXPECT_EQ(syzygy::max_pieces(), 0);
    // A directory without any table (the test data directory itself holds none).
    EXPECT_NE(syzygy::init(QUINCE_TEST_DATA_DIR).find("no Syzygy table"), std::string::npos);
    EXPECT_EQ(syzygy::max_pieces(), 0);
    EXPECT_EQ(syzygy::init(":"), "error: SyzygyPath: no directory in ':'");
    Position p = from_fen("8/8/8/8/8/3k4/8/R3K3 w - - 0 1");
    syzygy::Wdl wdl;
    EXPECT_FALSE(syzygy::probe_wdl(p, &wdl));
}

TEST(SyzygyInit, ReportsTablesAndKeepsThemOnABadPath) {
    const std::string line = syzygy::init(TB_DIR);
    EXPECT_EQ(line, "Syzygy: found 6 tables (6 with DTZ) up to 4 pieces in " + TB_DIR);
    // A bad path later: reported, the loaded tables stay.
    EXPECT_EQ(syzygy::init("/no/such/directory").rfind("error:", 0), 0u);
    EXPECT_EQ(syzygy::max_pieces(), 4);
    // Several directories, ':'-separated (empty components ignored).
    EXPECT_EQ(syzygy::init(std::string(QUINCE_TEST_DATA_DIR) + "::" + TB_DIR).rfind("Syzygy: found 6 tables", 0), 0u);
    EXPECT_EQ(syzygy::init(""), "Syzygy: tablebases off");
    EXPECT_EQ(syzygy::max_pieces(), 0);
}

TEST(SyzygyInit, AMissingDirectoryAmongSeveralIsLeftOutAndNamed) {
    // As Fathom and Stockfish: the tables of the folders that exist are loaded, the missing one is named.
    const std::string line = syzygy::init("/no/such/directory:" + TB_DIR + ":/no/other");
    EXPECT_EQ(line, "Syzygy: found 6 tables (6 with DTZ) up to 4 pieces in " + TB_DIR +
                        "; skipped '/no/such/directory': not a directory; skipped '/no/other': not a directory");
    EXPECT_EQ(syzygy::max_pieces(), 4);
    syzygy::Wdl wdl;
    EXPECT_TRUE(syzygy::probe_wdl(from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &wdl));
    // Only missing folders: refused, the tables loaded stay.
    EXPECT_EQ(syzygy::init("/no/such/directory:/no/other"), 
              "error: SyzygyPath: none of the directories in '/no/such/directory:/no/other' exists");
    EXPECT_EQ(syzygy::max_pieces(), 4);
    syzygy::init("");
}

TEST_F(Syzygy, WdlAndDtzMatchTheFathomCommand) {
    const std::string exe = fathom_command();
    if (exe.empty()) GTEST_SKIP() << "Debian's fathom command is not installed (scripts/deps.sh installs it)";
    std::mt19937 rng(20261123);
    const int per_material = sanitized() ? 5 : 10;
    int compared = 0, decisive = 0;
    for (const char* material : {"KRvK", "KQvK", "KPvK", "KQvKR"}) {
        for (const std::string& fen : random_positions(material, per_material, rng)) {
            std::string want_wdl;
            int want_dtz = 0;
            ASSERT_TRUE(run_fathom(exe, fen, &want_wdl, &want_dtz)) << fen;
            const Position p = from_fen(fen);
            syzygy::Wdl wdl, wdl_root;
            int dtz = 0;
            ASSERT_TRUE(syzygy::probe_wdl(p, &wdl)) << fen;
            ASSERT_TRUE(syzygy::probe_dtz(p, &wdl_root, &dtz)) << fen;
            EXPECT_EQ(wdl_name(wdl_root), want_wdl) << fen;
            EXPECT_EQ(std::abs(dtz), want_dtz) << fen;
            // The search's WDL probe agrees with the DTZ-based result (the counter is 0 here).
            EXPECT_EQ(wdl, wdl_root) << fen;
            EXPECT_EQ(int(wdl) > 0, dtz > 0) << fen;
            ++compared;
            decisive += wdl != syzygy::Wdl::DRAW;
        }
    }
    EXPECT_EQ(compared, 4 * per_material);
    EXPECT_GT(decisive, compared / 4);  // the sample is not all draws
}

TEST_F(Syzygy, FiftyMoveCounterReachesFathom) {
    const std::string exe = fathom_command();
    if (exe.empty()) GTEST_SKIP() << "Debian's fathom command is not installed";
    // KRvK lost in 28 plies for Black: a counter of 30 still loses, 80 turns it into a blessed loss.
    for (const char* fen : {"8/8/8/8/8/3k4/8/R3K3 b - - 30 1", "8/8/8/8/8/3k4/8/R3K3 b - - 80 1",
                            "8/8/8/8/8/3k4/8/R3K3 w - - 95 1"}) {
        std::string want_wdl;
        int want_dtz = 0;
        ASSERT_TRUE(run_fathom(exe, fen, &want_wdl, &want_dtz)) << fen;
        syzygy::Wdl wdl;
        int dtz = 0;
        ASSERT_TRUE(syzygy::probe_dtz(from_fen(fen), &wdl, &dtz)) << fen;
        EXPECT_EQ(wdl_name(wdl), want_wdl) << fen;
        EXPECT_EQ(std::abs(dtz), want_dtz) << fen;
    }
    // The search never uses a WDL probe when the counter is not 0.
    syzygy::Wdl wdl;
    EXPECT_FALSE(syzygy::probe_wdl(from_fen("8/8/8/8/8/3k4/8/R3K3 b - - 30 1"), &wdl));
}

TEST_F(Syzygy, NoProbeWithCastlingRightsOrTooManyPieces) {
    syzygy::Wdl wdl;
    EXPECT_FALSE(syzygy::probe_wdl(from_fen("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), &wdl));
    EXPECT_TRUE(syzygy::probe_wdl(from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1"), &wdl));
    EXPECT_EQ(wdl, syzygy::Wdl::WIN);
    EXPECT_FALSE(syzygy::probe_wdl(from_fen("4k3/8/8/8/8/8/8/RNB1K3 w - - 0 1"), &wdl));  // 5 pieces
    EXPECT_FALSE(syzygy::probe_wdl(from_fen("4k3/8/8/8/8/8/8/RN2K3 w - - 0 1"), &wdl));   // KRNvK: no such file here
}

TEST_F(Syzygy, RootRanksKeepTheResult) {
    // KQvKR with the rook hanging: Qa2 draws (stalemate trap) and Qc2 loses, every other move wins.
    const Position p = from_fen("8/8/2k5/8/8/8/1r6/KQ6 w - - 0 1");
    std::vector<syzygy::RankedMove> ranked;
    bool used_dtz = false;
    ASSERT_TRUE(syzygy::rank_root_moves(p, true, &ranked, &used_dtz));
    EXPECT_TRUE(used_dtz);
    EXPECT_EQ(ranked.size(), MoveList<LEGAL>(p).size());
    int wins = 0;
    for (const auto& r : ranked) {
        const std::string m = move_to_uci(r.move, false);
        if (m == "b1a2") EXPECT_EQ(r.wdl, syzygy::Wdl::DRAW);
        else if (m == "b1c2") EXPECT_EQ(r.wdl, syzygy::Wdl::LOSS);
        else {
            EXPECT_EQ(r.wdl, syzygy::Wdl::WIN) << m;
            ++wins;
        }
    }
    EXPECT_EQ(wins, 13);
}

TEST_F(Syzygy, SearchReportsTablebaseScoresAndHits) {
    Engine engine;
    SearchOptions options;
    options.silent = true;
    Limits limits;
    limits.depth = 6;
    // KRvKN is not in the test set: Rxg1 wins the knight into a won KRvK, found by in-search probes.
    const Position five = from_fen("8/8/8/8/8/2k5/8/K2R2n1 w - - 0 1");
    SearchResult r = engine.search(five, limits, options);
    EXPECT_GT(r.tb_hits, 0u);
    EXPECT_GE(r.score, VALUE_TB_WIN_IN_MAX_PLY);
    EXPECT_LT(r.score, VALUE_MATE_IN_MAX_PLY);
    // SyzygyProbeLimit 0: no probes, an ordinary score.
    options.syzygy_probe_limit = 0;
    engine.new_game();
    r = engine.search(five, limits, options);
    EXPECT_EQ(r.tb_hits, 0u);
    EXPECT_LT(r.score, VALUE_TB_WIN_IN_MAX_PLY);
    // Two threads probe at once (Fathom's probes are serialised by the wrapper; TSan checks it in CI).
    options.syzygy_probe_limit = 7;
    engine.set_threads(2);
    engine.new_game();
    limits.depth = 8;
    r = engine.search(five, limits, options);
    EXPECT_GT(r.tb_hits, 0u);
    EXPECT_GE(r.score, VALUE_TB_WIN_IN_MAX_PLY);
    engine.set_threads(1);
    limits.depth = 6;
    // A root in the tables: every root move is ranked; a lost root reports the loss.
    r = engine.search(from_fen("8/8/8/8/8/3k4/8/R3K3 b - - 0 1"), limits, options);
    EXPECT_GT(r.tb_hits, 0u);
    EXPECT_LE(r.score, VALUE_TB_LOSS_IN_MAX_PLY);
}

TEST(SyzygyValues, TablebaseScoresAreStoredRelativeToTheNode) {
    const Value win_at_ply_7 = VALUE_TB - 7;
    EXPECT_EQ(value_to_tt(win_at_ply_7, 7), VALUE_TB);
    EXPECT_EQ(value_from_tt(VALUE_TB, 3), VALUE_TB - 3);
    EXPECT_EQ(value_from_tt(value_to_tt(-VALUE_TB + 9, 9), 2), -VALUE_TB + 2);
    EXPECT_LT(VALUE_TB, VALUE_MATE_IN_MAX_PLY);
    EXPECT_GT(VALUE_TB_WIN_IN_MAX_PLY, 20000);  // far above any evaluation
}

TEST_F(Syzygy, WonEndingsAreMatedWithinFiftyMoves) {
    const std::uint64_t nodes = sanitized() ? 1000 : 4000;
    struct Case {
        const char* fen;
        const char* result;
    };
    // KRvK (DTZ 21 and 28 plies) and KQvKR (DTZ 55 and 47 plies: the rook must be won first, then
    // KQvK mated), White and Black winning.
    for (const Case& c : {Case{"8/8/8/8/8/3k4/8/R3K3 w - - 0 1", "1-0"},
                          Case{"8/8/8/8/8/3k4/8/R3K3 b - - 0 1", "1-0"},
                          Case{"8/8/4k3/8/2r5/8/8/K2Q4 w - - 0 1", "1-0"},
                          Case{"7q/1k6/8/8/5R2/3K4/8/8 b - - 0 1", "0-1"}}) {
        syzygy::Wdl wdl;
        int dtz = 0;
        ASSERT_TRUE(syzygy::probe_dtz(from_fen(c.fen), &wdl, &dtz));
        ASSERT_NE(wdl, syzygy::Wdl::DRAW) << c.fen;
        const GameOutcome g = self_play(c.fen, nodes, 200);
        EXPECT_EQ(g.result, c.result) << c.fen << " (" << g.reason << ", " << g.plies << " plies): " << g.moves;
        EXPECT_EQ(g.reason, "mate") << c.fen;
    }
}

TEST_F(Syzygy, DrawnPawnEndingIsNotLost) {
    // KPvK with the defending king in front of the pawn: a draw. Self-play must never hand the
    // defender a lost position (checked with the tables after every move) and must not lose.
    const std::string fen = "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1";
    syzygy::Wdl start;
    int dtz;
    ASSERT_TRUE(syzygy::probe_dtz(from_fen(fen), &start, &dtz));
    ASSERT_EQ(start, syzygy::Wdl::DRAW);
    int checked = 0;
    const GameOutcome g = self_play(fen, sanitized() ? 1000 : 4000, sanitized() ? 40 : 120, [&](const Position& p) {
        syzygy::Wdl wdl;
        int d;
        if (MoveList<LEGAL>(p).size() == 0 || !syzygy::probe_dtz(p, &wdl, &d)) return;
        EXPECT_EQ(wdl, syzygy::Wdl::DRAW) << p.fen();
        ++checked;
    });
    EXPECT_NE(g.result, "1-0") << g.moves;
    EXPECT_NE(g.result, "0-1") << g.moves;
    // The drawn K+P v K scores 0 (the known-ending scale of eval/endgame.h), so the sides may repeat the
    // position within a few moves.
    EXPECT_GT(checked, 5) << g.reason << ": " << g.moves;
}

TEST(SyzygyUci, BadPathGivesOneLineAndPlayGoesOn) {
    std::ostringstream out;
    {
        uci::Uci u(out);
        u.execute("setoption name SyzygyPath value /no/such/directory");
        u.execute("position fen 8/8/8/8/8/3k4/8/R3K3 w - - 0 1");
        u.execute("go depth 4");
        u.engine().wait();
    }
    std::istringstream lines(out.str());
    std::string line;
    int errors = 0;
    bool bestmove = false, tbhits = false;
    while (std::getline(lines, line)) {
        if (line.rfind("info string", 0) == 0) {
            ++errors;
            EXPECT_EQ(line, "info string error: setoption: SyzygyPath: '/no/such/directory' is not a directory; "
                            "playing without tablebases");
        }
        bestmove |= line.rfind("bestmove ", 0) == 0;
        tbhits |= line.find(" tbhits ") != std::string::npos;
    }
    EXPECT_EQ(errors, 1);
    EXPECT_TRUE(bestmove);
    EXPECT_FALSE(tbhits);
}

TEST(SyzygyUci, AMissingDirectoryIsNamedAndTheOthersAreUsed) {
    std::ostringstream out;
    {
        uci::Uci u(out);
        u.execute("setoption name SyzygyPath value " + TB_DIR + ":/no/such/directory");
        EXPECT_EQ(u.errors(), 0);
        EXPECT_EQ(syzygy::max_pieces(), 4);
        u.execute("setoption name SyzygyPath value <empty>");
    }
    EXPECT_NE(out.str().find("info string Syzygy: found 6 tables (6 with DTZ) up to 4 pieces in " + TB_DIR +
                             "; skipped '/no/such/directory': not a directory\n"),
              std::string::npos)
        << out.str();
}

TEST(SyzygyUci, GoodPathIsReportedAndInfoHasTbhits) {
    std::ostringstream out;
    {
        uci::Uci u(out);
        u.execute("setoption name SyzygyPath value " + TB_DIR);
        u.execute("position fen 8/8/8/8/8/3k4/8/R3K3 w - - 0 1");
        u.execute("go depth 6");
        u.engine().wait();
        u.execute("setoption name SyzygyPath value <empty>");
    }
    const std::string text = out.str();
    EXPECT_NE(text.find("info string Syzygy: found 6 tables (6 with DTZ) up to 4 pieces in " + TB_DIR + "\n"),
              std::string::npos)
        << text;
    EXPECT_NE(text.find(" tbhits "), std::string::npos) << text;
    EXPECT_NE(text.find("bestmove "), std::string::npos) << text;
    EXPECT_NE(text.find("info string Syzygy: tablebases off"), std::string::npos) << text;
    EXPECT_EQ(syzygy::max_pieces(), 0);
}

TEST(SyzygyValues, TablebaseScoresShowInABandBelowMate) {
    // As Stockfish shows them: cp 20000 minus the ply of the conversion, below every mate score.
    EXPECT_EQ(uci::score_text(reported_score(VALUE_TB - 7)), "cp 19993");
    EXPECT_EQ(uci::score_text(reported_score(-VALUE_TB + 7)), "cp -19993");
    EXPECT_EQ(uci::score_text(reported_score(VALUE_TB_WIN_IN_MAX_PLY)), "cp " + std::to_string(TB_WIN_CP - MAX_PLY));
    EXPECT_EQ(uci::score_text(reported_score(VALUE_TB_WIN_IN_MAX_PLY - 1)), "cp " + std::to_string(VALUE_TB_WIN_IN_MAX_PLY - 1));
    EXPECT_EQ(uci::score_text(reported_score(mate_in(5))), "mate 3");
    EXPECT_EQ(uci::score_text(reported_score(-123)), "cp -123");
}

namespace {

// The last `info depth` line and the bestmove of one `go` through the UCI front end.
struct UciAnswer {
    std::string info, bestmove;
};
UciAnswer go(uci::Uci& u, std::ostringstream& out, const std::string& position, const std::string& limit) {
    out.str("");
    u.execute(position);
    u.execute("go " + limit);
    u.wait_idle();
    UciAnswer a;
    std::istringstream lines(out.str());
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("info depth", 0) == 0) a.info = line;
        if (line.rfind("bestmove ", 0) == 0) a.bestmove = line.substr(9, line.find(' ', 9) - 9);
    }
    return a;
}

// "cp 19979" or "mate 3" out of an info line.
std::string score_of(const std::string& info) {
    const std::size_t at = info.find(" score ");
    if (at == std::string::npos) return "";
    const std::size_t end = info.find(' ', info.find(' ', at + 7) + 1);
    return info.substr(at + 7, end - at - 7);
}

}  // namespace

TEST(SyzygyUci, TablebaseRootsReportTheirResult) {
    std::ostringstream out;
    uci::Uci u(out);
    u.execute("setoption name SyzygyPath value " + TB_DIR);
    u.execute("setoption name UCI_ShowWDL value true");
    // A tablebase draw is certain: 0 1000 0, not the model's guess for a level score.
    UciAnswer a = go(u, out, "position fen 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", "depth 6");
    EXPECT_NE(a.info.find(" score cp 0 wdl 0 1000 0 "), std::string::npos) << a.info;
    // A tablebase win: cp 20000 minus its distance to the conversion (DTZ plies), for the winner and the loser.
    for (const char* fen : {"8/8/8/8/8/3k4/8/R3K3 w - - 0 1", "8/8/8/8/8/3k4/8/R3K3 b - - 0 1"}) {
        syzygy::Wdl wdl;
        int dtz = 0;
        ASSERT_TRUE(syzygy::probe_dtz(from_fen(fen), &wdl, &dtz));
        a = go(u, out, std::string("position fen ") + fen, "depth 3");
        const std::string want = dtz > 0 ? "cp " + std::to_string(TB_WIN_CP - dtz) : "cp -" + std::to_string(TB_WIN_CP + dtz);
        EXPECT_EQ(score_of(a.info), want) << fen << ": " << a.info;
        EXPECT_NE(a.info.find(dtz > 0 ? " wdl 1000 0 0 " : " wdl 0 0 1000 "), std::string::npos) << a.info;
    }
    u.execute("setoption name SyzygyPath value <empty>");
}

TEST(SyzygyUci, KqvkAndKrvkAreConvertedAndTheMateIsReported) {
    // The engine plays both sides at a fixed node count. The winner makes progress every move (the game
    // ends in mate within the root's DTZ, the longest the loser can resist), its scores stay in the
    // tablebase band until its search proves the mate, and it reports that mate before playing it.
    const int nodes = sanitized() ? 500 : 2000;
    for (const char* fen : {"8/8/8/8/8/3k4/8/Q3K3 w - - 0 1", "8/8/8/3k4/8/8/8/R6K w - - 0 1",
                            "K7/8/8/8/4k3/8/8/7q w - - 0 1"}) {
        std::ostringstream out;
        uci::Uci u(out);
        u.execute("setoption name SyzygyPath value " + TB_DIR);
        syzygy::Wdl wdl;
        int dtz = 0;
        ASSERT_TRUE(syzygy::probe_dtz(from_fen(fen), &wdl, &dtz));
        const Color winner = (dtz > 0) == (from_fen(fen).side_to_move() == WHITE) ? WHITE : BLACK;
        std::string moves;
        Position pos = from_fen(fen);
        bool mate_reported = false;
        int plies = 0;
        for (; MoveList<LEGAL>(pos).size() > 0 && plies < 120; ++plies) {
            const UciAnswer a = go(u, out, std::string("position fen ") + fen + (moves.empty() ? "" : " moves" + moves),
                                   "nodes " + std::to_string(nodes));
            const std::string score = score_of(a.info);
            if (pos.side_to_move() == winner) {
                if (score.rfind("mate ", 0) == 0) {
                    EXPECT_GT(std::stoi(score.substr(5)), 0) << a.info;
                    mate_reported = true;
                } else {
                    ASSERT_EQ(score.rfind("cp ", 0), 0u) << a.info;
                    const int cp = std::stoi(score.substr(3));
                    EXPECT_GT(cp, TB_WIN_CP - MAX_PLY) << a.info;
                    EXPECT_LT(cp, TB_WIN_CP) << a.info;
                }
            }
            const Move m = uci_to_move(pos, a.bestmove);
            ASSERT_TRUE(m) << fen << " moves" << moves << ": " << a.bestmove;
            moves += " " + a.bestmove;
            pos.do_move(m);
        }
        EXPECT_TRUE(pos.in_check() && MoveList<LEGAL>(pos).size() == 0) << fen << " moves" << moves;
        EXPECT_EQ(pos.side_to_move(), ~winner) << fen << " moves" << moves;
        EXPECT_LE(plies, std::abs(dtz) + 1) << fen << " moves" << moves;
        EXPECT_TRUE(mate_reported) << fen << " moves" << moves;
        u.execute("setoption name SyzygyPath value <empty>");
    }
}
#else  // QUINCE_NO_SYZYGY

// A build without Fathom: SyzygyPath is still an option (GUIs set it blindly), and setting it says the
// build has no tablebases instead of failing silently or pretending to load them.
TEST(SyzygyAbsent, SettingAPathSaysTheBuildHasNoTablebases) {
    EXPECT_EQ(syzygy::init(std::string(QUINCE_TEST_DATA_DIR) + "/syzygy"),
              "error: SyzygyPath: this build of Quince has no tablebase support");
    EXPECT_EQ(syzygy::max_pieces(), 0);
    EXPECT_EQ(syzygy::init(""), "Syzygy: tablebases off");
    std::ostringstream out;
    {
        uci::Uci u(out);
        u.execute("setoption name SyzygyPath value " + std::string(QUINCE_TEST_DATA_DIR) + "/syzygy");
        u.execute("position fen 8/8/8/8/8/2k5/8/K1Q5 w - - 0 1");
        u.execute("go depth 4");
        u.engine().wait();
    }
    const std::string text = out.str();
    EXPECT_NE(text.find("info string error: setoption: SyzygyPath: this build of Quince has no tablebase support"),
              std::string::npos) << text;
    EXPECT_NE(text.find("bestmove "), std::string::npos) << text;  // and it plays on without them
}

#endif  // QUINCE_NO_SYZYGY

}  // namespace QUINCE_TEST_FILE
}  // namespace
