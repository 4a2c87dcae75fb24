// quince similarity: the numbers on fixed inputs (Wilson intervals, the matrix and its controls, average
// linkage), engine words, EPD errors, and real runs through UCI processes: two Quince profiles and the fake
// engine, resumption from the state file, and engines that fail.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "eval/nnue/network.h"
#include "similarity/engines.h"
#include "similarity/matrix.h"
#include "similarity/positions.h"
#include "similarity/report.h"
#include "similarity/runner.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::similarity;

namespace {

std::string temp_path(const std::string& name) {
    auto p = std::filesystem::temp_directory_path() / ("quince_similarity_" + std::to_string(::getpid()) + "_" + name);
    std::filesystem::remove(p);
    return p.string();
}

const std::vector<std::string> FENS = {
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "rnbqkb1r/pp2pppp/3p1n2/8/3NP3/8/PPP2PPP/RNBQKB1R w KQkq - 1 5",
    "r2q1rk1/pp2bppp/2n1pn2/3p4/3P4/2NBPN2/PP3PPP/R2Q1RK1 w - - 0 10",
    "8/5pk1/6p1/8/3R4/6P1/5PK1/3r4 w - - 0 40",
    "r3k2r/ppq2ppp/2n1pn2/3p4/3P4/2PBPN2/P1Q2PPP/R3K2R b KQkq - 3 11",
};

EngineSpec engine(const std::string& word) {
    EngineSpec e;
    std::string error;
    EXPECT_TRUE(parse_engine(word, QUINCE_ENGINE_PATH, &e, &error)) << error;
    return e;
}

std::string fake_word(const std::string& args = "") { return std::string(QUINCE_FAKE_ENGINE_PATH) + args; }

}  // namespace

TEST(Similarity, WilsonIntervalOnFixedCounts) {
    // Reference values of the Wilson score interval at z = 1.96.
    Share half = wilson(5, 10);
    EXPECT_NEAR(half.low, 0.2366, 1e-4);
    EXPECT_NEAR(half.high, 0.7634, 1e-4);
    Share none = wilson(0, 10);
    EXPECT_EQ(none.low, 0.0);
    EXPECT_NEAR(none.high, 0.2775, 1e-4);
    Share all = wilson(10, 10);
    EXPECT_NEAR(all.low, 0.7225, 1e-4);
    EXPECT_EQ(all.high, 1.0);
    Share big = wilson(600, 1000);
    EXPECT_NEAR(big.low, 0.5693, 1e-4);
    EXPECT_NEAR(big.high, 0.6299, 1e-4);
    EXPECT_EQ(wilson(0, 0).n, 0);
}

TEST(Similarity, MatrixControlsAndNearestOnFixedMoves) {
    // Engine a and b agree on 3 of 4 positions, a and c on 1; b's move of position 4 is missing.
    std::vector<EngineMoves> moves = {
        {std::vector<std::string>{"e2e4", "d2d4", "g1f3", "c2c4"}, {"e2e4", "d2d4", "g1f3", "b1c3"},
         {"e2e4", "d2d4", "b1c3", "b1c3"}},
        {std::vector<std::string>{"e2e4", "d2d4", "g1f3", ""}, {"e2e4", "d2d4", "g1f3", "c2c4"}, {"e2e4", "a2a3", "g1f3", "c2c4"}},
        {std::vector<std::string>{"e2e4", "a2a3", "b1c3", "d2d3"}, {"e2e4", "a2a3", "b1c3", "d2d3"}, {"e2e4", "a2a3", "b1c3", "d2d3"}},
    };
    const Similarity s = compute_similarity(moves);
    EXPECT_EQ(s.positions, 4);
    EXPECT_EQ(s.same_move[0][1].same, 3);
    EXPECT_EQ(s.same_move[0][1].n, 3);  // the missing move does not count
    EXPECT_EQ(s.same_move[1][0].same, 3);
    EXPECT_EQ(s.same_move[0][2].same, 1);
    EXPECT_EQ(s.same_move[0][2].n, 4);
    EXPECT_DOUBLE_EQ(s.same_move[0][0].value(), 1.0);
    EXPECT_DOUBLE_EQ(s.same_move[2][2].value(), 1.0);
    EXPECT_DOUBLE_EQ(s.self_same[0].value(), 0.75);
    EXPECT_DOUBLE_EQ(s.self_double[0].value(), 0.5);
    EXPECT_DOUBLE_EQ(s.self_same[2].value(), 1.0);
    EXPECT_DOUBLE_EQ(s.self_double[1].value(), 2.0 / 3);
    EXPECT_EQ(s.nearest, (std::vector<int>{1, 0, 1}));  // c: b 1/3 beats a 1/4
}

TEST(Similarity, AverageLinkageOnFixedDistances) {
    // Two tight pairs {0, 1} and {2, 3}; UPGMA joins them, then the pairs at the mean of the four
    // cross distances (0.5 + 0.7 + 0.6 + 0.8) / 4 = 0.65.
    const std::vector<std::vector<double>> d = {
        {0, 0.1, 0.5, 0.7}, {0.1, 0, 0.6, 0.8}, {0.5, 0.6, 0, 0.2}, {0.7, 0.8, 0.2, 0}};
    const std::vector<Merge> m = average_linkage(d);
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m[0].a, 0);
    EXPECT_EQ(m[0].b, 1);
    EXPECT_DOUBLE_EQ(m[0].height, 0.1);
    EXPECT_EQ(m[1].a, 2);
    EXPECT_EQ(m[1].b, 3);
    EXPECT_DOUBLE_EQ(m[1].height, 0.2);
    EXPECT_EQ(m[2].a, 4);
    EXPECT_EQ(m[2].b, 5);
    EXPECT_NEAR(m[2].height, 0.65, 1e-12);
    EXPECT_EQ(m[2].size, 4);
    // A third point joins a pair at its mean distance to the pair's members (average, not single linkage).
    const std::vector<Merge> t = average_linkage({{0, 0.1, 0.3}, {0.1, 0, 0.5}, {0.3, 0.5, 0}});
    ASSERT_EQ(t.size(), 2u);
    EXPECT_NEAR(t[1].height, 0.4, 1e-12);
    EXPECT_EQ(leaf_order(m, 4), (std::vector<int>{0, 1, 2, 3}));
    EXPECT_EQ(leaf_order({}, 1), (std::vector<int>{0}));
}

TEST(Similarity, EngineWords) {
    EngineSpec p = engine("profile:rybka1");
    EXPECT_TRUE(p.is_profile);
    EXPECT_EQ(p.label, "rybka1");
    EXPECT_EQ(p.command, QUINCE_ENGINE_PATH);
    EXPECT_EQ(p.options, (std::vector<std::pair<std::string, std::string>>{{"Threads", "1"}, {"Hash", "16"}, {"Move Overhead", "0"}, {"EvalProfile", "rybka1"}}));
    EXPECT_EQ(p.key(), "profile:rybka1 {Threads=1, Hash=16, Move Overhead=0, EvalProfile=rybka1}");
    EngineSpec h = engine("profile:fruit21:Hash=32");
    EXPECT_EQ(h.options[1], (std::pair<std::string, std::string>{"Hash", "32"}));
    EngineSpec u = engine("/usr/games/toga2 -x 1:Number of Threads=1:OwnBook=false");
    EXPECT_FALSE(u.is_profile);
    EXPECT_EQ(u.command, "/usr/games/toga2");
    EXPECT_EQ(u.args, (std::vector<std::string>{"-x", "1"}));
    EXPECT_EQ(u.label, "toga2");
    EXPECT_EQ(u.options, (std::vector<std::pair<std::string, std::string>>{{"Number of Threads", "1"}, {"OwnBook", "false"}}));
    std::vector<EngineSpec> two = {u, u};
    label_engines(two);
    EXPECT_EQ(two[1].label, "toga2 (2)");

    // The built-in network is a profile too (the registry's name): the child engine is told EvalProfile.
    if (quince::eval::nnue::embedded_network()) {
        EngineSpec n = engine("profile:nnue");
        EXPECT_EQ(n.label, "nnue");
        EXPECT_EQ(n.options.back(), (std::pair<std::string, std::string>{"EvalProfile", "nnue"}));
    }

    std::string error;
    EngineSpec bad;
    EXPECT_FALSE(parse_engine("profile:nope", QUINCE_ENGINE_PATH, &bad, &error));
    EXPECT_NE(error.find("'nope' is no built-in profile"), std::string::npos) << error;
    EXPECT_FALSE(parse_engine("profile:", QUINCE_ENGINE_PATH, &bad, &error));
    EXPECT_FALSE(parse_engine("stockfish:Threads", QUINCE_ENGINE_PATH, &bad, &error));
    EXPECT_NE(error.find("'Threads' is not Name=Value"), std::string::npos) << error;
    EXPECT_FALSE(parse_engine(":Hash=1", QUINCE_ENGINE_PATH, &bad, &error));
    EXPECT_FALSE(parse_engine("a\tb", QUINCE_ENGINE_PATH, &bad, &error));
}

TEST(Similarity, PositionFilesAndTheShippedSet) {
    std::vector<std::string> fens;
    std::string error;
    std::istringstream good("# comment\n\n" + FENS[0] + " ; id \"x\";\n" + FENS[3] + "\n");
    ASSERT_TRUE(read_positions(good, "good.epd", &fens, &error)) << error;
    EXPECT_EQ(fens, (std::vector<std::string>{FENS[0], FENS[3]}));
    std::istringstream bad(FENS[0] + "\nnot a position\n");
    EXPECT_FALSE(read_positions(bad, "bad.epd", &fens, &error));
    EXPECT_NE(error.find("bad.epd:2:"), std::string::npos) << error;
    std::istringstream illegal("8/8/8/8/8/8/8/8 w - - 0 1\n");
    EXPECT_FALSE(read_positions(illegal, "k.epd", &fens, &error));
    EXPECT_NE(error.find("k.epd:1: invalid FEN"), std::string::npos) << error;
    std::istringstream mated("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1\n");
    EXPECT_FALSE(read_positions(mated, "m.epd", &fens, &error));
    EXPECT_NE(error.find("no legal move"), std::string::npos) << error;
    std::istringstream empty("# nothing\n");
    EXPECT_FALSE(read_positions(empty, "e.epd", &fens, &error));
    EXPECT_NE(error.find("no positions"), std::string::npos);
    // The shipped set reads, and is the size its README states.
    std::istringstream shipped(default_positions_text());
    ASSERT_TRUE(read_positions(shipped, DEFAULT_POSITIONS_NAME, &fens, &error)) << error;
    EXPECT_EQ(fens.size(), 3000u);
}

TEST(Similarity, MakePositionsKeepsPositionsWithTwoCloseMoves) {
    PositionSetConfig config;
    config.count = 3;
    config.check_nodes = 3000;
    config.play_nodes = 500;
    std::vector<std::string> fens, again;
    std::string error;
    ASSERT_TRUE(make_position_set(config, &fens, &error)) << error;
    ASSERT_EQ(fens.size(), 3u);
    config.threads = 2;  // the same set whatever the thread count
    ASSERT_TRUE(make_position_set(config, &again, &error)) << error;
    EXPECT_EQ(fens, again);
    for (const std::string& f : fens) {
        Position pos;
        ASSERT_TRUE(pos.set_fen(f)) << f;
        EXPECT_FALSE(pos.in_check()) << f;
    }
}

TEST(Similarity, RealRunWithTwoProfilesAndAFakeEngine) {
    RunnerSettings s;
    s.engines = {engine("profile:rybka1"), engine("profile:fruit21"), engine(fake_word())};
    s.fens = FENS;
    s.limit.nodes = 3000;
    s.threads = 2;
    RunOutcome out;
    std::string error;
    ASSERT_TRUE(run_searches(s, &out, &error)) << error;
    EXPECT_FALSE(out.interrupted);
    EXPECT_EQ(out.searched, 3 * 3 * 5);
    EXPECT_EQ(out.engines[2].id_name, "FakeEngine normal");
    std::vector<EngineMoves> moves;
    for (const EngineResults& e : out.engines) {
        for (const auto& run : e.moves)
            for (std::size_t p = 0; p < FENS.size(); ++p) {
                Position pos;
                pos.set_fen(FENS[p]);
                EXPECT_FALSE(run[p].empty());
            }
        moves.push_back({e.moves[0], e.moves[1], e.moves[2]});
    }
    const Similarity sim = compute_similarity(moves);
    // A node-limited search on one thread after ucinewgame is repeatable; the fake engine plays the first move.
    for (int e = 0; e < 3; ++e) EXPECT_EQ(sim.self_same[std::size_t(e)].same, 5) << e;
    EXPECT_EQ(sim.self_double[2].same, 5);
    Report r;
    r.engines = s.engines;
    r.id_names = {out.engines[0].id_name, out.engines[1].id_name, out.engines[2].id_name};
    r.positions_source = "test";
    r.limit = s.limit;
    r.similarity = sim;
    r.searches_per_second = {0, 0, 0};
    const std::string json = report_json(r);
    EXPECT_EQ(json.rfind("{\n  \"engines\": [\"rybka1\", \"fruit21\", ", 0), 0u) << json;
    EXPECT_NE(json.find("\"positions\": 5,"), std::string::npos);
    EXPECT_NE(json.find("\"same_move\": [\n    [1.00000, "), std::string::npos) << json;
    // The text names every engine and the controls; the picture has a cell per pair and the tree.
    std::vector<std::vector<double>> distance(3, std::vector<double>(3));
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) distance[i][j] = 1 - sim.same_move[i][j].value();
    r.tree = average_linkage(distance);
    const std::string text = report_text(r);
    EXPECT_NE(text.find("same move, % of positions"), std::string::npos) << text;
    EXPECT_NE(text.find("quince_fake_engine"), std::string::npos) << text;
    EXPECT_NE(text.find("controls, the engine against itself"), std::string::npos) << text;
    const std::string svg = report_svg(r);
    EXPECT_EQ(svg.rfind("<?xml", 0), 0u);
    std::size_t cells = 0;
    for (std::size_t at = svg.find("<rect x="); at != std::string::npos; at = svg.find("<rect x=", at + 1)) ++cells;
    EXPECT_GE(cells, 9u);
    EXPECT_NE(svg.find("<path d='M"), std::string::npos);
}

TEST(Similarity, InterruptedRunContinuesFromTheStateFile) {
    const std::string state = temp_path("state.txt");
    RunnerSettings s;
    s.engines = {engine("profile:rybka1"), engine(fake_word(" --random 7"))};
    s.fens = FENS;
    s.limit.nodes = 2000;
    s.state_path = state;
    std::atomic<bool> stop{false};
    s.interrupt = &stop;
    s.progress = [&](std::int64_t done, std::int64_t) {
        if (done == 7) stop = true;
    };
    RunOutcome first;
    std::string error;
    ASSERT_TRUE(run_searches(s, &first, &error)) << error;
    EXPECT_TRUE(first.interrupted);
    EXPECT_EQ(first.searched, 7);
    // A last line cut short by the interruption is skipped.
    std::ofstream(state, std::ios::app) << s.engines[0].key() << "\ttest\tgo nodes 2000\t" << FENS[4];

    stop = false;
    s.progress = nullptr;
    RunOutcome second;
    ASSERT_TRUE(run_searches(s, &second, &error)) << error;
    EXPECT_FALSE(second.interrupted);
    EXPECT_EQ(second.reused, 7);
    EXPECT_EQ(second.searched, 2 * 3 * 5 - 7);
    // Once more with a third engine: only that one searches.
    s.engines.push_back(engine("profile:fruit21"));
    RunOutcome third;
    ASSERT_TRUE(run_searches(s, &third, &error)) << error;
    EXPECT_EQ(third.reused, 2 * 3 * 5);
    EXPECT_EQ(third.searched, 3 * 5);
    EXPECT_EQ(third.engines[0].moves, second.engines[0].moves);
    EXPECT_EQ(third.engines[1].moves, second.engines[1].moves);
    // Without the state file nothing is reused, and the moves are the same (repeatable searches).
    s.state_path.clear();
    s.engines.pop_back();
    RunOutcome fresh;
    ASSERT_TRUE(run_searches(s, &fresh, &error)) << error;
    EXPECT_EQ(fresh.reused, 0);
    EXPECT_EQ(fresh.engines[0].moves, second.engines[0].moves);
    std::filesystem::remove(state);
}

TEST(Similarity, BadEnginesAndStateFilesAreErrors) {
    RunnerSettings s;
    s.fens = {FENS[0], FENS[1]};
    s.limit.nodes = 1000;
    RunOutcome out;
    std::string error;
    s.engines = {engine("/nonexistent/engine")};
    EXPECT_FALSE(run_searches(s, &out, &error));
    EXPECT_NE(error.find("cannot start '/nonexistent/engine'"), std::string::npos) << error;
    s.engines = {engine(fake_word(":NoSuchOption=1"))};
    EXPECT_FALSE(run_searches(s, &out, &error));
    EXPECT_NE(error.find("has no option 'NoSuchOption'"), std::string::npos) << error;
    s.engines = {engine(fake_word(" --mode illegal"))};
    EXPECT_FALSE(run_searches(s, &out, &error));
    EXPECT_NE(error.find("position 1"), std::string::npos) << error;
    EXPECT_NE(error.find("illegal move 'a1a1'"), std::string::npos) << error;
    s.engines = {engine(fake_word(" --mode crash"))};
    EXPECT_FALSE(run_searches(s, &out, &error));
    EXPECT_NE(error.find("crashed"), std::string::npos) << error;

    // A file that is not a state file is refused and left alone.
    const std::string other = temp_path("other.txt");
    std::ofstream(other) << "precious\n";
    s.engines = {engine(fake_word())};
    s.state_path = other;
    EXPECT_FALSE(run_searches(s, &out, &error));
    EXPECT_NE(error.find("is not a similarity state file"), std::string::npos) << error;
    std::ifstream in(other);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(text, "precious\n");
    std::filesystem::remove(other);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
