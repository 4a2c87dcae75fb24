// Search, transposition table and time manager unit tests (in-process, one thread unless stated).
#include <gtest/gtest.h>

#include <chrono>
#include <future>

#include "board/notation.h"
#include "search/search.h"
#include "search/timeman.h"
#include "search/tt.h"
#include "support/sanitized.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::search;

namespace {

Position from_fen(const std::string& fen) {
    Position p;
    std::string error;
    EXPECT_TRUE(p.set_fen(fen, false, &error)) << error;
    return p;
}

SearchResult run(const std::string& fen, Limits limits, int threads = 1) {
    static Engine engine;
    engine.set_threads(threads);
    engine.new_game();
    SearchOptions options;
    options.silent = true;
    return engine.search(from_fen(fen), limits, options);
}

Limits depth_limit(int d) {
    Limits l;
    l.depth = d;
    return l;
}

std::string uci(const std::string&, Move m) { return move_to_uci(m, false); }

}  // namespace

TEST(Search, MateInOne) {
    const std::string fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    SearchResult r = run(fen, depth_limit(6));
    EXPECT_EQ(uci(fen, r.best), "d1d8");
    EXPECT_EQ(r.score, mate_in(1));
}

TEST(Search, MateInTwoQueenSacrifice) {
    // WAC.001: 1.Qg6! (fxg6 Nxg6#, gxf6 Qh7#, Nxe5 Qh7#).
    const std::string fen = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
    // Depth 14: the sacrifice is found at depth 12 with the default net (the pruning of a queen en prise
    // depends on the evaluation), and a mate once found must stay.
    SearchResult r = run(fen, depth_limit(14));
    EXPECT_EQ(uci(fen, r.best), "g3g6");
    EXPECT_EQ(r.score, mate_in(3));
}

TEST(Search, MateInThree) {
    // 1...Bc5+ 2.Kxc5 Qb6+ 3.Kd5 Qd6#
    const std::string fen = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1";
    SearchResult r = run(fen, depth_limit(10));
    EXPECT_EQ(uci(fen, r.best), "f8c5");
    EXPECT_EQ(r.score, mate_in(5));
}

TEST(Search, GoMateStopsOnceFound) {
    const std::string fen = "r1b1kb1r/pppp1ppp/5q2/4n3/3KP3/2N3PN/PPP4P/R1BQ1B1R b kq - 0 1";
    Limits l;
    l.mate = 3;
    SearchResult r = run(fen, l);  // no other limit: must stop by itself
    EXPECT_EQ(uci(fen, r.best), "f8c5");
    EXPECT_EQ(r.score, mate_in(5));
    EXPECT_LT(r.depth, 20);
}

TEST(Search, MatedAndStalematedRootsReturnNoMove) {
    SearchResult mated = run("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", depth_limit(5));
    EXPECT_EQ(mated.best, Move::none());
    SearchResult stalemate = run("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", depth_limit(5));
    EXPECT_EQ(stalemate.best, Move::none());
}

TEST(Search, AvoidsStalemateWhenWinning) {
    // Qf7?? stalemates; Qf8# wins.
    const std::string fen = "7k/8/6K1/8/8/8/8/5Q2 w - - 0 1";
    SearchResult r = run(fen, depth_limit(8));
    EXPECT_EQ(uci(fen, r.best), "f1f8");
    EXPECT_EQ(r.score, mate_in(1));
}

TEST(Search, FiftyMoveRuleScoresDraw) {
    // Any move by White completes 100 half-moves without capture or pawn move, and none mates.
    SearchResult r = run("8/8/8/4k3/8/8/8/3QK3 w - - 99 80", depth_limit(10));
    EXPECT_EQ(r.score, VALUE_DRAW);
    // One half-move earlier the queen wins.
    SearchResult r2 = run("8/8/8/4k3/8/8/8/3QK3 w - - 0 80", depth_limit(10));
    EXPECT_GT(r2.score, 500);
}

TEST(Search, PerpetualCheckScoresDraw) {
    // Two rooks down, White holds with checks on e8/e4.
    const std::string fen = "7k/6p1/7p/8/8/6K1/8/rr2Q3 w - - 0 1";
    SearchResult r = run(fen, depth_limit(12));
    EXPECT_EQ(r.score, VALUE_DRAW);
    EXPECT_EQ(uci(fen, r.best), "e1e8");
}

TEST(Search, InsufficientMaterialIsDraw) {
    SearchResult r = run("8/8/4k3/8/8/3NK3/8/8 w - - 0 1", depth_limit(8));
    EXPECT_EQ(r.score, VALUE_DRAW);
}

TEST(Search, NodeLimitedSearchIsDeterministic) {
    const std::string fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    Limits l;
    l.nodes = 20000;
    SearchResult a = run(fen, l);
    SearchResult b = run(fen, l);
    EXPECT_EQ(a.best, b.best);
    EXPECT_EQ(a.nodes, b.nodes);
    EXPECT_EQ(a.pv, b.pv);
    EXPECT_GE(a.nodes, 20000u);
    EXPECT_LE(a.nodes, 20002u);
}

TEST(Search, NodeLimitOfOneStillGivesLegalMove) {
    Limits l;
    l.nodes = 1;
    Position p;
    SearchResult r = run(Position::START_FEN, l);
    ASSERT_TRUE(r.best);
    EXPECT_TRUE(p.pseudo_legal(r.best) && p.legal(r.best));
}

TEST(Search, SearchmovesRestrictsTheRoot) {
    const std::string fen = "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1";
    Position p = from_fen(fen);
    Limits l = depth_limit(5);
    l.searchmoves = {uci_to_move(p, "g1f1")};
    SearchResult r = run(fen, l);
    EXPECT_EQ(uci(fen, r.best), "g1f1");
}

// A stop, a node limit or a time limit that comes before the main thread has completed its first iteration
// waits for it: the answer is a searched move, here the mate in one of each position (an unsearched answer is
// the first move generated). Stopped right after go, the search has not even started.
TEST(Search, NothingStopsTheFirstIteration) {
    const std::size_t count = test::sanitized() ? 30 : 100;  // each limit on 5 positions still
    const std::vector<std::string> fens = test::mate_in_one_fens(61, count);
    ASSERT_EQ(fens.size(), count);
    Engine engine;
    SearchOptions options;
    options.silent = true;
    std::vector<Limits> limits(6);
    limits[0].infinite = true;  // ended by the stop
    limits[1].nodes = 1;
    limits[2].movetime = 1;
    limits[3].time[WHITE] = limits[3].time[BLACK] = 0;
    limits[4].depth = 1;
    limits[5].ponder = true;  // ended by the stop
    for (int threads : {1, 3}) {
        engine.set_threads(threads);
        for (std::size_t i = 0; i < fens.size(); ++i) {
            const Position pos = from_fen(fens[i]);
            const Limits& l = limits[i % limits.size()];
            engine.go(pos, l, options);
            engine.stop();
            engine.wait();
            const SearchResult& r = engine.last_result();
            EXPECT_GE(r.depth, 1) << fens[i] << " threads " << threads << " limits " << i % limits.size();
            EXPECT_TRUE(test::checkmates(pos, r.best)) << fens[i] << " threads " << threads << " limits "
                                                       << i % limits.size() << ": " << uci(fens[i], r.best);
            EXPECT_EQ(r.score, mate_in(1)) << fens[i];
        }
    }
}

// The mate in 3 (five plies, a quiet queen sacrifice first) takes depth 10 from one thread. With three threads
// sharing the table the main thread's tree differs from run to run; at depth 11 it missed the mate in about one
// run in eight (`go depth 11`, Threads 3, 40 runs), so the test leaves a margin: depth 13 found it in 60 of 60.
TEST(Search, MultipleThreadsFindTheMate) {
    const std::string fen = "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1";
    SearchResult r = run(fen, depth_limit(13), 3);
    EXPECT_EQ(uci(fen, r.best), "g3g6");
    EXPECT_EQ(r.score, mate_in(3));
}

TEST(TranspositionTable, StoreProbeRoundTrip) {
    TranspositionTable tt;
    tt.resize(1);
    Key key = 0x123456789ABCDEF0ULL;
    Move m = Move::make<NORMAL>(SQ_E2, SQ_E4);
    tt.store(key, -123, true, BOUND_LOWER, 9, m, 45);
    TTData d;
    ASSERT_TRUE(tt.probe(key, &d));
    EXPECT_EQ(d.move, m);
    EXPECT_EQ(d.value, -123);
    EXPECT_EQ(d.eval, 45);
    EXPECT_EQ(d.depth, 9);
    EXPECT_EQ(d.bound, BOUND_LOWER);
    EXPECT_TRUE(d.is_pv);
    EXPECT_FALSE(tt.probe(key ^ 1, &d));
    // A much shallower non-exact result does not evict the deeper one of the same search...
    tt.store(key, 7, false, BOUND_UPPER, 1, Move::none(), 45);
    ASSERT_TRUE(tt.probe(key, &d));
    EXPECT_EQ(d.depth, 9);
    EXPECT_EQ(d.value, -123);
    // ...but an exact one does, and a store without a move keeps the old move.
    tt.store(key, 7, false, BOUND_EXACT, 2, Move::none(), 45);
    ASSERT_TRUE(tt.probe(key, &d));
    EXPECT_EQ(d.depth, 2);
    EXPECT_EQ(d.value, 7);
    EXPECT_EQ(d.move, m);
    // Quiescence depths below zero fit.
    Key other = 0x0FEDCBA987654321ULL;
    tt.store(other, 5, false, BOUND_UPPER, -1, Move::none(), VALUE_NONE);
    ASSERT_TRUE(tt.probe(other, &d));
    EXPECT_EQ(d.depth, -1);
    EXPECT_EQ(d.eval, VALUE_NONE);
    tt.clear();
    EXPECT_FALSE(tt.probe(key, &d));
}

TEST(TranspositionTable, MateScoresAreStoredRelativeToTheNode) {
    // Mate in 5 plies from the root, found at ply 3: 2 plies from the node.
    Value root_relative = mate_in(5);
    Value stored = value_to_tt(root_relative, 3);
    EXPECT_EQ(stored, mate_in(2));
    EXPECT_EQ(value_from_tt(stored, 3), mate_in(5));
    // The same node reached at ply 7 is a mate in 9 plies from that root.
    EXPECT_EQ(value_from_tt(stored, 7), mate_in(9));
    EXPECT_EQ(value_from_tt(value_to_tt(mated_in(6), 4), 2), mated_in(4));
    EXPECT_EQ(value_to_tt(150, 10), 150);
    EXPECT_EQ(value_from_tt(VALUE_NONE, 10), VALUE_NONE);

    TranspositionTable tt;
    tt.resize(1);
    tt.store(42, value_to_tt(mate_in(5), 3), false, BOUND_EXACT, 4, Move::none(), 0);
    TTData d;
    ASSERT_TRUE(tt.probe(42, &d));
    EXPECT_EQ(value_from_tt(d.value, 3), mate_in(5));
}

TEST(TranspositionTable, HashfullCountsCurrentGeneration) {
    TranspositionTable tt;
    tt.resize(1);
    EXPECT_EQ(tt.hashfull(), 0);
    tt.new_search();
    for (Key k = 1; k < 200000; ++k) tt.store(k * 0x9E3779B97F4A7C15ULL, 0, false, BOUND_EXACT, 1, Move::none(), 0);
    EXPECT_GT(tt.hashfull(), 900);
    tt.new_search();
    EXPECT_EQ(tt.hashfull(), 0);
}

TEST(TimeManager, NeverExceedsClockMinusOverhead) {
    for (std::int64_t time : {0LL, 1LL, 10LL, 50LL, 100LL, 1000LL, 5000LL, 60000LL, 600000LL, 36000000LL})
        for (std::int64_t inc : {0LL, 10LL, 1000LL, 30000LL})
            for (int mtg : {0, 1, 2, 5, 40, 100})
                for (std::int64_t overhead : {0LL, 30LL, 100LL, 1000LL}) {
                    TimeInput in;
                    in.time_left = time;
                    in.increment = inc;
                    in.moves_to_go = mtg;
                    in.overhead = overhead;
                    TimeBudget b = allocate_time(in);
                    std::int64_t cap = std::max<std::int64_t>(1, time - overhead);
                    EXPECT_GE(b.ideal, 1);
                    EXPECT_LE(b.ideal, b.hard);
                    EXPECT_LE(b.hard, cap) << time << " " << inc << " " << mtg << " " << overhead;
                }
}

TEST(TimeManager, TypicalAllocations) {
    TimeInput in;
    in.time_left = 60000;
    in.overhead = 30;
    TimeBudget b = allocate_time(in);
    EXPECT_GT(b.ideal, 500);   // a fair share of a minute
    EXPECT_LE(b.ideal, 3000);
    EXPECT_LE(b.hard, 30000);  // never bet half the clock on one move

    in.moves_to_go = 1;
    b = allocate_time(in);
    EXPECT_GT(b.ideal, 15000);  // last move before the control: a large share, which the search may stretch
    EXPECT_GT(b.hard, 50000);   // up to most of the clock

    // Short periods keep the lag of every move still to come: 3 moves in 320 ms with 30 ms of lag
    // leave 200 ms to share, and the last move on 96 ms thinks at most 32 ms.
    in.time_left = 320;
    in.moves_to_go = 3;
    b = allocate_time(in);
    EXPECT_LE(b.hard, 150);
    in.time_left = 96;
    in.moves_to_go = 1;
    b = allocate_time(in);
    EXPECT_LE(b.hard, 33);
    EXPECT_GE(b.hard, 20);

    TimeInput fixed;
    fixed.move_time = 1000;
    fixed.overhead = 30;
    b = allocate_time(fixed);
    EXPECT_EQ(b.hard, 1000);  // a move time is spent in full, no overhead kept
    EXPECT_EQ(b.ideal, 1000);
}

// The clocks the UCI tests give: 3 s of sudden death is a move of a fraction of a second, the last move
// before a time control on 1 s may spend most of it but keeps the lag; a clock of 1 ms still gets 1 ms.
TEST(TimeManager, ShortClocks) {
    TimeInput in;
    in.time_left = 3000;
    in.overhead = 30;
    TimeBudget b = allocate_time(in);
    EXPECT_LE(b.hard, 600);
    EXPECT_LE(b.ideal, 150);
    in.time_left = 1000;
    in.moves_to_go = 1;
    b = allocate_time(in);
    EXPECT_LE(b.hard, 1000 - 30);
    EXPECT_GE(b.hard, 500);
    EXPECT_GE(b.ideal, 250);
    in.time_left = 1;
    in.moves_to_go = 0;
    b = allocate_time(in);
    EXPECT_EQ(b.hard, 1);
    EXPECT_EQ(b.ideal, 1);
}

// The clock's use: the ideal time is Ethereal's share of the clock, (clock + 25 inc) / 50 times
// 2.5, or before a time control 1.8 x clock / (moves + 5) plus the increment; never beyond the hard limit.
TEST(TimeManager, IdealTime) {
    TimeInput in;
    in.time_left = 60030;
    in.overhead = 30;
    TimeBudget b = allocate_time(in);
    EXPECT_EQ(b.ideal, 3000);
    in.increment = 1000;
    b = allocate_time(in);
    EXPECT_EQ(b.ideal, 4250);
    in.increment = 0;
    in.moves_to_go = 35;
    b = allocate_time(in);
    EXPECT_EQ(b.ideal, (60030 - 6 * 30) * 18 / 400);  // the overhead kept for each of the last five moves
    in.moves_to_go = 1;  // the last move before the control: the share is capped by the hard limit
    b = allocate_time(in);
    EXPECT_LE(b.ideal, b.hard);
    TimeInput fixed;
    fixed.move_time = 700;
    EXPECT_EQ(allocate_time(fixed).ideal, 700);
}

// The stop rule after an iteration: the hard limit before depth 4, then the ideal time scaled by the best
// move's stability, the score's fall and the other moves' share of the nodes, never beyond the hard limit.
TEST(TimeManager, ThinkingLimit) {
    TimeBudget b;
    b.ideal = 1000;
    b.hard = 5000;
    IterationInfo it;
    it.depth = 3;
    EXPECT_EQ(thinking_limit(b, it), 5000.0);
    it.depth = 4;
    it.stable_iterations = 10;  // stable: 1.2 - 0.04 x 10 = 0.8
    it.score_fall = 0;          // not falling: 0.75
    it.best_move_share = 1.0;   // every node on the best move: 0.5
    EXPECT_NEAR(thinking_limit(b, it), 1000 * 0.8 * 0.75 * 0.5, 1e-9);
    it.stable_iterations = 0;   // 1.2
    it.score_fall = 40;         // falling: 0.05 x 40 = 2, at most 1.25
    it.best_move_share = 0.0;   // the others took every node: 2 x 1 + 0.4 = 2.4
    EXPECT_NEAR(thinking_limit(b, it), 1000 * 1.2 * 1.25 * 2.4, 1e-9);
    b.hard = 2000;
    EXPECT_EQ(thinking_limit(b, it), 2000.0);
}

// The clock's use: the search stops on its own, and never before the ideal time times the smallest of its
// factors (0.8 x 0.75 x 0.5 = 0.3) unless the move is forced: a minute's ideal of 3 s gives at least 900 ms
// for taking a hanging queen. A correct engine cannot miss the bound on a loaded one.
TEST(TimeManager, SpendsItsShare) {
    Engine engine;
    SearchOptions options;
    options.silent = true;
    options.move_overhead = 30;
    Limits l;
    l.time[WHITE] = l.time[BLACK] = 60030;
    auto start = std::chrono::steady_clock::now();
    SearchResult r = engine.search(from_fen("rnb1kbnr/pppp1ppp/8/4p3/4q3/3P4/PPP2PPP/RNBQKBNR w KQkq - 0 3"), l, options);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
    EXPECT_EQ(move_to_uci(r.best, false), "d3e4");
    EXPECT_GE(ms, 900) << ms;
    EXPECT_LT(ms, 60000);
}

// go movetime N searches N ms: it never answers sooner, not on a stable best move nor on a single legal
// move (2...g6 forced against 3.Qh5+). The upper bound only says that it stops on its own: it is far
// beyond any scheduling delay, so a loaded or sanitized build cannot miss it.
TEST(TimeManager, SearchRespectsMovetime) {
    for (const char* fen : {Position::START_FEN, "rnbqkbnr/ppppp1pp/8/5p1Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2"}) {
        Limits l;
        l.movetime = 300;
        auto start = std::chrono::steady_clock::now();
        SearchResult r = run(fen, l);
        auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
        EXPECT_TRUE(r.best) << fen;
        EXPECT_GE(ms, 300) << fen;
        EXPECT_LT(ms, 300 + 30000) << fen;
    }
}

// Only the opponent's clock given (go btime 1000, White to move): our clock is 0 and the engine moves at
// once instead of searching without end. A watchdog stops a search that would not end by itself.
TEST(TimeManager, MissingOwnClockIsZero) {
    Engine engine;
    SearchOptions options;
    options.silent = true;
    Limits l;
    l.time[BLACK] = 1000;
    auto answer = std::async(std::launch::async, [&] { return engine.search(from_fen(Position::START_FEN), l, options); });
    const bool ended = answer.wait_for(std::chrono::seconds(60)) == std::future_status::ready;
    if (!ended) engine.stop();
    SearchResult r = answer.get();
    EXPECT_TRUE(ended);
    EXPECT_TRUE(r.best);
}

// A transposition table full of garbage that passes the key check (any move, score, depth and bound
// for positions of the tree) must never make the search play an illegal move, crash or hang.
TEST(Faults, CorruptedTTEntriesNeverGiveAnIllegalMove) {
    const std::vector<std::string> fens = {
        Position::START_FEN,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1",  // mate in 2
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/8/8/8/8/8/4p3/4K3 w - - 0 1",  // three legal moves
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",   // stalemate: no move at all
    };
    Engine engine;
    engine.set_hash(1);  // small: the same clusters are hit again and again
    SearchOptions options;
    options.silent = true;
    std::uint64_t seed = 1;
    for (const std::string& fen : fens) {
        const Position pos = from_fen(fen);
        engine.new_game();
        engine.search(pos, depth_limit(8), options);  // fill the table with this tree
        for (int round = 0; round < 4; ++round) {
            const std::size_t corrupted = engine.tt().corrupt_for_test(seed++);
            if (pos.has_legal_move()) {  // a finished game stores nothing
                ASSERT_GT(corrupted, 0u) << fen;
            }
            // The node limit turns a trapped search (scores outside the window used to make the
            // aspiration loop re-search forever) into a failure below instead of a hang.
            Limits limits = depth_limit(6 + round);
            limits.nodes = 20'000'000;
            const SearchResult r = engine.search(pos, limits, options);
            Position p = pos;
            if (!p.has_legal_move()) {
                EXPECT_FALSE(r.best) << fen;
                continue;
            }
            ASSERT_TRUE(r.best) << fen << " round " << round;
            EXPECT_EQ(r.depth, 6 + round) << fen << " round " << round << ": the search did not complete";
            EXPECT_TRUE(p.pseudo_legal(r.best) && p.legal(r.best)) << fen << " round " << round << ": " << uci(fen, r.best);
        }
    }
}

// The hook really changes what the search reads: the corrupted table answers probes with other data.
TEST(Faults, CorruptForTestRewritesEveryOccupiedEntry) {
    TranspositionTable tt;
    tt.resize(1);
    const Key key = 0x123456789ABCDEFull;
    tt.store(key, 42, false, BOUND_EXACT, 10, Move(SQ_E2, SQ_E4), 7);
    TTData before, after;
    ASSERT_TRUE(tt.probe(key, &before));
    EXPECT_EQ(tt.corrupt_for_test(99), 1u);
    ASSERT_TRUE(tt.probe(key, &after));  // still found: the key check passes
    EXPECT_FALSE(after.value == before.value && after.move == before.move && after.depth == before.depth);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
