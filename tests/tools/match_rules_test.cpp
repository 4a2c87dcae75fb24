// quince-match pieces that need no engine: rules of chess, adjudication, time controls, command line,
// openings and the statistics.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "board/epd.h"
#include "match/game.h"
#include "match/openings.h"
#include "match/options.h"
#include "match/pgn.h"
#include "game/pgn.h"
#include "match/rescore.h"
#include "match/stats.h"
#include "match/time_control.h"
#include "match/tournament.h"
#include "match/uci_engine.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::match;

namespace {

Outcome play_line(Referee& referee, const std::vector<std::string>& moves) {
    for (const std::string& m : moves) {
        EXPECT_TRUE(referee.play(m)) << m;
        Outcome o = referee.rules_outcome();
        if (o.result != GameResult::None) return o;
    }
    return referee.rules_outcome();
}

}  // namespace

TEST(MatchReferee, Checkmate) {
    Referee r;
    ASSERT_TRUE(r.reset("", false, nullptr));
    Outcome o = play_line(r, {"f2f3", "e7e5", "g2g4", "d8h4"});
    EXPECT_EQ(o.result, GameResult::BlackWins);
    EXPECT_EQ(o.reason, "Black mates");
    EXPECT_EQ(o.termination, "normal");
}

TEST(MatchReferee, Stalemate) {
    Referee r;
    ASSERT_TRUE(r.reset("7k/8/6K1/8/8/8/8/5Q2 w - - 0 1", false, nullptr));
    Outcome o = play_line(r, {"f1f7"});
    EXPECT_EQ(o.result, GameResult::Draw);
    EXPECT_EQ(o.reason, "Draw by stalemate");
}

TEST(MatchReferee, ThreefoldNeedsThreeOccurrences) {
    Referee r;
    ASSERT_TRUE(r.reset("", false, nullptr));
    // The start position occurs for the second time after 4 plies: not yet a draw.
    for (const char* m : {"g1f3", "g8f6", "f3g1", "f6g8"}) ASSERT_TRUE(r.play(m));
    EXPECT_EQ(r.repetitions_of_current(), 2);
    EXPECT_EQ(r.rules_outcome().result, GameResult::None);
    for (const char* m : {"g1f3", "g8f6", "f3g1"}) {
        ASSERT_TRUE(r.play(m));
        EXPECT_EQ(r.rules_outcome().result, GameResult::None);
    }
    ASSERT_TRUE(r.play("f6g8"));
    EXPECT_EQ(r.repetitions_of_current(), 3);
    EXPECT_EQ(r.rules_outcome().reason, "Draw by 3-fold repetition");
}

TEST(MatchReferee, ThreefoldByTransposition) {
    Referee r;
    ASSERT_TRUE(r.reset("", false, nullptr));
    // Position A (Nf3 Nc3 / Nf6 Nc6) is reached three times by different move orders.
    std::vector<std::string> line = {"g1f3", "g8f6", "b1c3", "b8c6",   // A (1)
                                     "c3b1", "c6b8", "b1c3", "b8c6",   // A (2)
                                     "f3g1", "f6g8", "g1f3"};
    for (const std::string& m : line) {
        ASSERT_TRUE(r.play(m));
        ASSERT_EQ(r.rules_outcome().result, GameResult::None) << m;
    }
    ASSERT_TRUE(r.play("g8f6"));  // A (3)
    EXPECT_EQ(r.rules_outcome().reason, "Draw by 3-fold repetition");
}

TEST(MatchReferee, SamePlacementOtherSideToMoveIsNoRepetition) {
    Referee r;
    // Rooks shuffle so that the placement repeats with alternating sides to move; kings too.
    ASSERT_TRUE(r.reset("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false, nullptr));
    // a1-a2, e8-d8, a2-a1, d8-e8 : back to start (2nd). A triangle would change the side; here plain repetition.
    for (const char* m : {"a1a2", "e8d8", "a2a1", "d8e8"}) ASSERT_TRUE(r.play(m));
    EXPECT_EQ(r.repetitions_of_current(), 2);
    // White king triangle e1-d1-d2-e1 (3 moves) puts the same placement with Black to move.
    for (const char* m : {"e1d1", "e8d8", "d1d2", "d8e8", "d2e1"}) ASSERT_TRUE(r.play(m));
    EXPECT_EQ(r.repetitions_of_current(), 1);
    EXPECT_EQ(r.rules_outcome().result, GameResult::None);
}

TEST(MatchReferee, FiftyMoveRule) {
    Referee r;
    ASSERT_TRUE(r.reset("8/8/8/4k3/8/8/3K4/7R w - - 98 80", false, nullptr));
    ASSERT_TRUE(r.play("d2e2"));
    EXPECT_EQ(r.rules_outcome().result, GameResult::None);  // 99 half-moves
    ASSERT_TRUE(r.play("e5e6"));
    EXPECT_EQ(r.rules_outcome().reason, "Draw by fifty moves rule");
}

TEST(MatchReferee, MateOnHundredthHalfMoveWins) {
    Referee r;
    ASSERT_TRUE(r.reset("k7/8/1K6/8/8/8/8/7R w - - 99 80", false, nullptr));
    ASSERT_TRUE(r.play("h1h8"));
    Outcome o = r.rules_outcome();
    EXPECT_EQ(o.result, GameResult::WhiteWins);
    EXPECT_EQ(o.reason, "White mates");
}

TEST(MatchReferee, InsufficientMaterialKnight) {
    Referee r;
    ASSERT_TRUE(r.reset("8/8/8/3k4/8/8/3K4/3n4 w - - 0 1", false, nullptr));
    EXPECT_EQ(r.rules_outcome().reason, "Draw by insufficient mating material");  // K+N v K
}

TEST(MatchReferee, InsufficientMaterialCases) {
    Referee r;
    ASSERT_TRUE(r.reset("8/8/8/3k4/8/8/3K4/3q4 w - - 0 1", false, nullptr));
    EXPECT_EQ(r.rules_outcome().result, GameResult::None);
    ASSERT_TRUE(r.play("d2d1"));  // KxQ: bare kings
    EXPECT_EQ(r.rules_outcome().reason, "Draw by insufficient mating material");
    // Bishops on the same colour (c4 and f1 are both light squares).
    ASSERT_TRUE(r.reset("8/8/8/3k4/2b5/8/3K4/5B2 w - - 0 1", false, nullptr));
    EXPECT_EQ(r.rules_outcome().reason, "Draw by insufficient mating material");
    // Opposite-coloured bishops can still mate.
    ASSERT_TRUE(r.reset("8/8/8/3k4/1b6/8/3K4/5B2 w - - 0 1", false, nullptr));
    EXPECT_EQ(r.rules_outcome().result, GameResult::None);
}

TEST(MatchReferee, RejectsIllegalMoves) {
    Referee r;
    ASSERT_TRUE(r.reset("", false, nullptr));
    EXPECT_FALSE(r.play("e2e5"));
    EXPECT_FALSE(r.play("a1a1"));
    EXPECT_FALSE(r.play("0000"));
    EXPECT_TRUE(r.play("e2e4"));
}

TEST(MatchAdjudication, DrawAfterMoveNumberAndCount) {
    AdjudicationRules rules;
    rules.draw_enabled = true;
    rules.draw_move_number = 10;
    rules.draw_move_count = 2;
    rules.draw_score = 10;
    Adjudicator a(rules);
    EngineScore small{false, 5};
    // Four small scores in a row, but before move 10: no draw.
    EXPECT_EQ(a.after_move(WHITE, small, 5).result, GameResult::None);
    EXPECT_EQ(a.after_move(BLACK, small, 6).result, GameResult::None);
    EXPECT_EQ(a.after_move(WHITE, small, 6).result, GameResult::None);
    EXPECT_EQ(a.after_move(BLACK, small, 7).result, GameResult::None);
    // A big score resets the count.
    EXPECT_EQ(a.after_move(WHITE, EngineScore{false, 50}, 10).result, GameResult::None);
    EXPECT_EQ(a.after_move(BLACK, small, 11).result, GameResult::None);
    EXPECT_EQ(a.after_move(WHITE, small, 11).result, GameResult::None);
    EXPECT_EQ(a.after_move(BLACK, small, 12).result, GameResult::None);
    Outcome o = a.after_move(WHITE, small, 12);
    EXPECT_EQ(o.result, GameResult::Draw);
    EXPECT_EQ(o.termination, "adjudication");
}

TEST(MatchAdjudication, ResignOneSidedAndTwoSided) {
    AdjudicationRules rules;
    rules.resign_enabled = true;
    rules.resign_move_count = 3;
    rules.resign_score = 500;
    Adjudicator one(rules);
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(one.after_move(WHITE, EngineScore{false, 0}, 20 + i).result, GameResult::None);
        EXPECT_EQ(one.after_move(BLACK, EngineScore{false, -600}, 21 + i).result, GameResult::None);
    }
    EXPECT_EQ(one.after_move(WHITE, EngineScore{false, 0}, 23).result, GameResult::None);
    EXPECT_EQ(one.after_move(BLACK, EngineScore{true, -4}, 23).result, GameResult::WhiteWins);  // mated in 4

    rules.resign_two_sided = true;
    Adjudicator two(rules);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(two.after_move(WHITE, EngineScore{false, 100}, 20 + i).result, GameResult::None);
        EXPECT_EQ(two.after_move(BLACK, EngineScore{false, -600}, 21 + i).result, GameResult::None);
    }
    // White agrees from now on.
    for (int i = 0; i < 2; ++i) {
        EXPECT_EQ(two.after_move(WHITE, EngineScore{false, 700}, 24 + i).result, GameResult::None);
        EXPECT_EQ(two.after_move(BLACK, EngineScore{false, -600}, 25 + i).result, GameResult::None);
    }
    EXPECT_EQ(two.after_move(WHITE, EngineScore{false, 700}, 27).result, GameResult::None);
    EXPECT_EQ(two.after_move(BLACK, EngineScore{false, -600}, 27).result, GameResult::WhiteWins);
    // A move without a score breaks the streak.
    Adjudicator three(rules);
    EXPECT_EQ(three.after_move(BLACK, std::nullopt, 1).result, GameResult::None);
}

TEST(MatchTimeControl, Parsing) {
    TimeControl tc;
    ASSERT_TRUE(parse_clock("10+0.1", &tc));
    EXPECT_EQ(tc.base_ms, 10000);
    EXPECT_EQ(tc.increment_ms, 100);
    EXPECT_EQ(tc.moves_per_period, 0);
    EXPECT_EQ(tc.pgn_tag(), "10+0.1");
    ASSERT_TRUE(parse_clock("40/60", &tc));
    EXPECT_EQ(tc.moves_per_period, 40);
    EXPECT_EQ(tc.base_ms, 60000);
    EXPECT_EQ(tc.increment_ms, 0);
    EXPECT_EQ(tc.pgn_tag(), "40/60");
    ASSERT_TRUE(parse_clock("40/60+0.5", &tc));
    EXPECT_EQ(tc.increment_ms, 500);
    EXPECT_EQ(tc.pgn_tag(), "40/60+0.5");
    ASSERT_TRUE(parse_clock("1:30+1", &tc));
    EXPECT_EQ(tc.base_ms, 90000);
    EXPECT_EQ(tc.increment_ms, 1000);
    for (const char* bad : {"", "abc", "40/", "/60", "+1", "10+x", "0+1", "-5+1", "0/60"}) {
        TimeControl t;
        EXPECT_FALSE(parse_clock(bad, &t)) << bad;
    }
}

TEST(MatchTimeControl, ClockWithMovesToGoAndMargin) {
    TimeControl tc;
    ASSERT_TRUE(parse_clock("2/1+0.1", &tc));
    GameClock clock(tc);
    EXPECT_EQ(clock.moves_to_go(), 2);
    EXPECT_TRUE(clock.charge(300, 0));
    EXPECT_EQ(clock.remaining_ms(), 800);
    EXPECT_EQ(clock.moves_to_go(), 1);
    EXPECT_TRUE(clock.charge(500, 0));
    EXPECT_EQ(clock.remaining_ms(), 400 + 1000);  // new period: base added again
    EXPECT_EQ(clock.moves_to_go(), 2);
    // Overstepping by less than the margin is tolerated, by more loses.
    EXPECT_TRUE(clock.charge(1450, 100));
    EXPECT_EQ(clock.remaining_ms(), 100);
    EXPECT_FALSE(clock.charge(201, 100));

    TimeControl st;
    st.movetime_ms = 100;
    GameClock fixed(st);
    EXPECT_TRUE(fixed.charge(100, 0));
    EXPECT_FALSE(fixed.charge(101, 0));
    EXPECT_TRUE(fixed.charge(140, 50));
}

TEST(MatchTimeControl, GoCommand) {
    TimeControl tc;
    ASSERT_TRUE(parse_clock("40/60+0.5", &tc));
    GameClock w(tc), b(tc);
    ASSERT_TRUE(w.charge(1000, 0));
    EXPECT_EQ(go_command(tc, w, tc, b, BLACK), "go wtime 59500 btime 60000 winc 500 binc 500 movestogo 40");
    EXPECT_EQ(go_command(tc, w, tc, b, WHITE), "go wtime 59500 btime 60000 winc 500 binc 500 movestogo 39");
    TimeControl nodes;
    nodes.nodes = 5000;
    nodes.depth = 7;
    GameClock n(nodes);
    EXPECT_EQ(go_command(nodes, n, nodes, n, WHITE), "go nodes 5000 depth 7");
    TimeControl st;
    st.movetime_ms = 250;
    GameClock s(st);
    EXPECT_EQ(go_command(st, s, st, s, WHITE), "go movetime 250");
}

TEST(MatchOptions, CommandLine) {
    TournamentConfig c;
    std::string error;
    std::vector<std::string> args = {
        "-engine", "cmd=/usr/games/toga2", "name=toga", "option.Hash=16", "option.OwnBook=false",
        "-engine", "cmd=/bin/x", "tc=40/60+0.5", "option.Hash=32", "args=-a -b", "timemargin=50",
        "-each", "tc=10+0.1", "option.Threads=1", "option.Hash=8",
        "-games", "10", "-rounds", "3", "-concurrency", "2", "-tournament", "gauntlet",
        "-openings", "file=x.epd", "format=epd", "order=random", "plies=8", "start=5", "seed=42",
        "-draw", "movenumber=40", "movecount=8", "score=10",
        "-resign", "movecount=3", "score=600", "twosided=true",
        "-sprt", "elo0=-1.5", "elo1=3", "alpha=0.05", "beta=0.1", "-pgnout", "out.pgn"};
    ASSERT_TRUE(parse_command_line(args, &c, &error)) << error;
    ASSERT_EQ(c.engines.size(), 2u);
    const EngineConfig& a = c.engines[0];
    EXPECT_EQ(a.name, "toga");
    EXPECT_EQ(a.tc.base_ms, 10000);
    // -each first, the engine's own settings override it.
    std::vector<std::pair<std::string, std::string>> expected_a = {{"Threads", "1"}, {"Hash", "16"}, {"OwnBook", "false"}};
    EXPECT_EQ(a.options, expected_a);
    const EngineConfig& b = c.engines[1];
    EXPECT_EQ(b.name, "x");
    EXPECT_EQ(b.tc.moves_per_period, 40);
    EXPECT_EQ(b.time_margin_ms, 50);
    EXPECT_EQ(b.args, (std::vector<std::string>{"-a", "-b"}));
    EXPECT_EQ(c.games, 10);
    EXPECT_EQ(c.rounds, 3);
    EXPECT_EQ(c.concurrency, 2);
    EXPECT_EQ(c.type, "gauntlet");
    EXPECT_EQ(c.openings.order, "random");
    EXPECT_EQ(c.openings.plies, 8);
    EXPECT_EQ(c.openings.start, 5);
    EXPECT_EQ(c.openings.seed, 42u);
    EXPECT_TRUE(c.adjudication.draw_enabled);
    EXPECT_EQ(c.adjudication.draw_move_number, 40);
    EXPECT_TRUE(c.adjudication.resign_two_sided);
    EXPECT_EQ(c.adjudication.resign_score, 600);
    EXPECT_TRUE(c.sprt.enabled);
    EXPECT_DOUBLE_EQ(c.sprt.elo0, -1.5);
    EXPECT_DOUBLE_EQ(c.sprt.beta, 0.1);
    EXPECT_EQ(c.pgn_out, "out.pgn");

    TournamentConfig bad;
    EXPECT_FALSE(parse_command_line({"-engine", "cmd=a", "-engine", "cmd=b"}, &bad, &error));  // no time control
    EXPECT_FALSE(parse_command_line({"-engine", "cmd=a", "tc=1"}, &bad, &error));            // one engine
    EXPECT_FALSE(parse_command_line({"-engine", "cmd=a", "tc=x", "-engine", "cmd=b", "tc=1"}, &bad, &error));
    EXPECT_FALSE(parse_command_line({"-engine", "cmd=a", "foo=1", "-engine", "cmd=b"}, &bad, &error));
    // A number past the 64-bit range is refused, not read as the largest one (strtoll saturates).
    const std::vector<std::string> two = {"-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=1"};
    auto with = [&](std::vector<std::string> extra) {
        extra.insert(extra.end(), two.begin(), two.end());
        return extra;
    };
    EXPECT_TRUE(parse_command_line(with({"-srand", "9223372036854775807"}), &bad, &error)) << error;
    EXPECT_FALSE(parse_command_line(with({"-srand", "9223372036854775808"}), &bad, &error));
    EXPECT_FALSE(parse_command_line(with({"-openings", "file=x.epd", "seed=99999999999999999999999"}), &bad, &error));
    TournamentConfig same;
    ASSERT_TRUE(parse_command_line({"-engine", "cmd=/a/e", "st=0.5", "-engine", "cmd=/b/e", "nodes=100"}, &same, &error));
    EXPECT_EQ(same.engines[0].name, "e");
    EXPECT_EQ(same.engines[1].name, "e (2)");
}

TEST(MatchSchedule, GauntletAndRoundRobin) {
    TournamentConfig c;
    c.engines.resize(3);
    c.games = 3;
    c.rounds = 1;
    std::vector<PairingResult> pairings;
    auto tasks = schedule_games(c, &pairings);
    ASSERT_EQ(pairings.size(), 3u);  // round robin: 0-1, 0-2, 1-2
    ASSERT_EQ(tasks.size(), 9u);
    // The two games of a pair are adjacent, share the opening and swap colours.
    EXPECT_EQ(tasks[0].white, 0);
    EXPECT_EQ(tasks[1].white, 1);
    EXPECT_EQ(tasks[0].opening_pair, tasks[1].opening_pair);
    EXPECT_EQ(tasks[8].opening_pair, 1u);  // the third game of 1-2 starts the second pair
    c.type = "gauntlet";
    tasks = schedule_games(c, &pairings);
    ASSERT_EQ(pairings.size(), 2u);
    EXPECT_EQ(tasks.size(), 6u);
    for (const GameTask& t : tasks) EXPECT_TRUE(t.white == 0 || t.black == 0);
}

TEST(MatchOpenings, EpdLines) {  // the runner reads its EPD openings through epd_fen
    EXPECT_EQ(epd_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    EXPECT_EQ(epd_fen("r1bq1rk1/pp1nppbp/3p1np1/8/2PNP3/2N5/PP2BPPP/R1BQ1RK1 w - - bm Nf3; id \"x\";"),
              "r1bq1rk1/pp1nppbp/3p1np1/8/2PNP3/2N5/PP2BPPP/R1BQ1RK1 w - - 0 1");
    EXPECT_EQ(epd_fen(""), "");
    EXPECT_EQ(epd_fen("# comment line here"), "");
}

TEST(MatchOpenings, PgnOpeningsWithPlies) {
    OpeningConfig cfg;
    cfg.file = std::string(QUINCE_MATCH_TEST_DATA_DIR) + "/openings.pgn";
    cfg.format = "pgn";
    cfg.plies = 4;
    OpeningBook book;
    std::string error;
    ASSERT_TRUE(book.load(cfg, &error)) << error;
    ASSERT_EQ(book.size(), 2u);
    EXPECT_EQ(book.at(0).fen, "");
    EXPECT_EQ(book.at(0).moves, (std::vector<std::string>{"e2e4", "e7e5", "g1f3", "b8c6"}));
    EXPECT_EQ(book.at(1).fen, "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_EQ(book.at(1).moves, (std::vector<std::string>{"d7d5", "c2c4", "e7e6", "b1c3"}));
    EXPECT_EQ(&book.at(2), &book.at(0));  // wraps around
    cfg.start = 2;
    ASSERT_TRUE(book.load(cfg, &error));
    EXPECT_EQ(book.at(0).moves[0], "d7d5");
}

TEST(MatchOpenings, EpdFileRandomOrderIsSeeded) {
    OpeningConfig cfg;
    cfg.file = std::string(QUINCE_MATCH_TEST_DATA_DIR) + "/8moves_v3_first200.epd";
    OpeningBook a, b, c;
    std::string error;
    cfg.order = "random";
    cfg.seed = 7;
    ASSERT_TRUE(a.load(cfg, &error)) << error;
    ASSERT_TRUE(b.load(cfg, &error));
    cfg.seed = 8;
    ASSERT_TRUE(c.load(cfg, &error));
    EXPECT_EQ(a.size(), 200u);
    EXPECT_EQ(a.at(0).fen, b.at(0).fen);
    EXPECT_NE(a.index_of(0) * 1000 + a.index_of(1), c.index_of(0) * 1000 + c.index_of(1));
}

// Expected numbers computed independently in Python (statistics.pvariance over the expanded per-game /
// per-pair scores, NormalDist().inv_cdf(0.975), and the LLR as the sum over pairs of the log density ratio
// of N(s1, var) to N(s0, var)):
//   W/D/L 55/30/15: score 0.70, Elo 147.19071, 95% half-width 60.46498, LOS 0.99999913
//   pairs [3,12,30,18,7]: mean 0.55, Elo 34.86007, half-width 40.46321,
//   LLR(elo0=0, elo1=5) = 0.38951440, LLR(elo0=-5, elo1=0) = 0.44991180
//   bounds alpha=beta=0.05: ±2.94443898; alpha 0.1 beta 0.05: -2.89037176 / 2.25129180
TEST(MatchStats, KnownValues) {
    MatchStats s;
    s.wins = 55, s.draws = 30, s.losses = 15;
    EXPECT_NEAR(s.score(), 0.70, 1e-12);
    EloEstimate tri = s.elo_trinomial();
    EXPECT_NEAR(tri.elo, 147.19071, 1e-4);
    EXPECT_NEAR(tri.error, 60.46498, 1e-4);
    EXPECT_NEAR(s.los(), 0.99999913, 1e-7);

    MatchStats p;
    p.pairs = {3, 12, 30, 18, 7};
    EloEstimate penta = p.elo_pentanomial();
    EXPECT_NEAR(penta.elo, 34.86007, 1e-4);
    EXPECT_NEAR(penta.error, 40.46321, 1e-4);
    EXPECT_NEAR(sprt_llr(p.pairs, 0, 5), 0.38951440, 1e-6);
    EXPECT_NEAR(sprt_llr(p.pairs, -5, 0), 0.44991180, 1e-6);

    SprtConfig sprt;
    EXPECT_NEAR(sprt.lower_bound(), -2.94443898, 1e-7);
    EXPECT_NEAR(sprt.upper_bound(), 2.94443898, 1e-7);
    sprt.alpha = 0.1;
    EXPECT_NEAR(sprt.lower_bound(), -2.89037176, 1e-7);
    EXPECT_NEAR(sprt.upper_bound(), 2.25129180, 1e-7);
    EXPECT_EQ(sprt_decide(2.3, sprt), SprtDecision::AcceptH1);
    EXPECT_EQ(sprt_decide(-2.9, sprt), SprtDecision::AcceptH0);
    EXPECT_EQ(sprt_decide(0.0, sprt), SprtDecision::Continue);
}

TEST(MatchStats, EdgeCases) {
    MatchStats s;
    EXPECT_EQ(s.elo_trinomial().elo, 0);
    s.wins = 3;
    EXPECT_TRUE(std::isinf(s.elo_trinomial().elo));
    EXPECT_EQ(format_elo(s.elo_trinomial()), "+inf +/- inf");
    // Fewer than 10 pairs: no evidence either way (one won pair used to "prove" H1 through the tiny
    // regularised variance).
    std::array<int, 5> one_pair{0, 0, 0, 1, 0};
    EXPECT_EQ(sprt_llr(one_pair, 0, 10), 0);
    std::array<int, 5> nine{0, 0, 2, 4, 3};
    EXPECT_EQ(sprt_llr(nine, 0, 10), 0);
    // From 10 pairs on: ten won pairs are strong evidence, no collapse to 0 without variance.
    std::array<int, 5> all_won{0, 0, 0, 0, 10};
    EXPECT_GT(sprt_llr(all_won, 0, 5), 2.95);
    std::array<int, 5> none{};
    EXPECT_EQ(sprt_llr(none, 0, 5), 0);
}


TEST(MatchUciInfo, ScoreAndDepthParsing) {
    std::optional<EngineScore> score;
    int depth = 0;
    EXPECT_TRUE(UciEngine::parse_info("info depth 7 seldepth 9 score cp 34 nodes 100 pv e2e4 e7e5", &score, &depth));
    ASSERT_TRUE(score.has_value());
    EXPECT_EQ(score->value, 34);
    EXPECT_EQ(depth, 7);
    EXPECT_EQ(score->text(), "+0.34");
    // Bounds, secondary lines and free text do not replace the main score.
    UciEngine::parse_info("info depth 8 score cp 90 lowerbound nodes 200", &score, &depth);
    UciEngine::parse_info("info depth 8 multipv 2 score cp -50 pv d2d4", &score, &depth);
    UciEngine::parse_info("info string score cp 999 depth 99", &score, &depth);
    UciEngine::parse_info("info depth 9 currmove e2e4 currmovenumber 1", &score, &depth);  // bare depth after a score
    EXPECT_EQ(score->value, 34);
    EXPECT_EQ(depth, 7);
    EXPECT_TRUE(UciEngine::parse_info("info depth 12 multipv 1 score mate -3 pv e8e7", &score, &depth));
    EXPECT_TRUE(score->is_mate);
    EXPECT_EQ(score->text(), "-M3");
    EXPECT_EQ(depth, 12);
    EXPECT_LT(score->adjudication_cp(), -90000);
    EXPECT_EQ((EngineScore{false, -120}).text(), "-1.20");
}

TEST(MatchOpenings, CompressedEpd) {
    OpeningConfig cfg;
    cfg.file = std::string(QUINCE_MATCH_TEST_DATA_DIR) + "/UHO_4060_v4_first100.epd.xz";
    OpeningBook book;
    std::string error;
    ASSERT_TRUE(book.load(cfg, &error)) << error;
    EXPECT_EQ(book.size(), 100u);
    EXPECT_EQ(book.at(0).fen, "r1bq1rk1/ppp2ppp/5n2/2bp4/2NPP3/2P5/PP3PPP/RNBQK2R w KQ - 0 9");
    cfg.file = "/nonexistent.epd.xz";
    EXPECT_FALSE(book.load(cfg, &error));
    EXPECT_NE(error.find("/nonexistent.epd.xz"), std::string::npos) << error;
    // gzip is not among the codecs: refused by name, with what to do.
    cfg.file = std::string(QUINCE_MATCH_TEST_DATA_DIR) + "/openings.epd.gz";
    EXPECT_FALSE(book.load(cfg, &error));
    EXPECT_NE(error.find("gzip is not read"), std::string::npos) << error;
    // A corrupt .xz file is named, not read as text.
    const std::string bad = ::testing::TempDir() + "quince_bad_openings.epd.xz";
    std::ofstream(bad) << "not xz at all\n";
    cfg.file = bad;
    EXPECT_FALSE(book.load(cfg, &error));
    EXPECT_NE(error.find("cannot decompress"), std::string::npos) << error;
    std::remove(bad.c_str());
}

TEST(MatchReferee, CastlingAsKingTakesRookIsNormalized) {
    Referee r;
    ASSERT_TRUE(r.reset("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", false, nullptr));
    std::string san, uci;
    ASSERT_TRUE(r.play("e1h1", &san, &uci));
    EXPECT_EQ(san, "O-O");
    EXPECT_EQ(uci, "e1g1");  // the opponent is sent standard notation
}

TEST(MatchReferee, Chess960CastlingIsKingTakesRook) {
    Referee r;
    ASSERT_TRUE(r.reset("4k3/8/8/8/8/8/8/1RK3R1 w GB - 0 1", true, nullptr));
    std::string san, uci;
    ASSERT_TRUE(r.play("c1g1", &san, &uci));
    EXPECT_EQ(san, "O-O");
    EXPECT_EQ(uci, "c1g1");
    EXPECT_EQ(r.position().fen().substr(0, 22), "4k3/8/8/8/8/8/8/1R3RK1");
}

TEST(MatchOptions, Chess960AddsTheUciOption) {
    TournamentConfig c;
    std::string error;
    ASSERT_TRUE(parse_command_line({"-variant", "fischerandom", "-engine", "cmd=a", "tc=1", "-engine", "cmd=b", "tc=1"}, &c, &error)) << error;
    EXPECT_TRUE(c.chess960);
    EXPECT_TRUE(c.openings.chess960);
    EXPECT_EQ(c.engines[0].options, (std::vector<std::pair<std::string, std::string>>{{"UCI_Chess960", "true"}}));
}

TEST(MatchPgn, WriterNumbersMovesFromTheFenAndQuotesTags) {
    GameRecord game;
    game.white = "a \"quoted\" engine";
    game.black = "b";
    game.start_fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12";
    game.white_tc = game.black_tc = "40/60+0.5";
    game.date = "2026.01.01";
    MoveRecord e5{"e7e5", "e5", false, EngineScore{false, -15}, 9, 1234};
    MoveRecord nf3{"g1f3", "Nf3", false, EngineScore{true, 3}, 20, 5};
    game.moves = {e5, nf3};
    game.outcome = {GameResult::Draw, Incident::None, "adjudication", "Draw by adjudication"};
    std::string text = format_pgn(game, "ev", 3);
    EXPECT_NE(text.find("[White \"a \\\"quoted\\\" engine\"]"), std::string::npos) << text;
    EXPECT_NE(text.find("[TimeControl \"40/60+0.5\"]"), std::string::npos);
    std::string one_line = text;
    for (char& ch : one_line) ch = ch == '\n' ? ' ' : ch;  // the movetext is wrapped at 79 columns
    EXPECT_NE(one_line.find("12... e5 {-0.15/9 1.234s} 13. Nf3 {+M3/20 0.005s} {Draw by adjudication} 1/2-1/2"),
              std::string::npos) << text;
    std::vector<game::Game> games;
    game::PgnError e;
    ASSERT_TRUE(game::read_pgn(text, &games, &e)) << e.text();
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].tag("White"), "a \"quoted\" engine");
    ASSERT_EQ(games[0].moves.size(), 2u);
    EXPECT_EQ(games[0].moves[0].san, "e5");
    EXPECT_EQ(games[0].moves[1].san, "Nf3");
    EXPECT_EQ(games[0].result, "1/2-1/2");
}

// The games file keeps cutechess-cli's movetext byte for byte (the library's writer in that form): lines
// broken between words, a comment across two lines, Black's moves after comments without a number.
TEST(MatchPgn, WrittenAsCutechessWritesIt) {
    GameRecord game;
    game.white = "quince";
    game.black = "toga2";
    game.white_tc = "10+0.1";
    game.black_tc = "40/60";
    game.date = "2026.01.01";
    Referee referee;
    ASSERT_TRUE(referee.reset("", false, nullptr));
    int i = 0;
    for (const char* uci : {"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6", "c1e3", "e7e5",
                            "d4b3", "c8e6", "f2f3", "f8e7", "d1d2", "e8g8", "e1c1", "b8d7"}) {
        MoveRecord m;
        ASSERT_TRUE(referee.play(uci, &m.san, &m.uci)) << uci;
        m.book = i < 4;
        if (i >= 4 && i % 5 != 0) m.score = EngineScore{i == 17, i % 2 ? -(i * 7) : i * 9};
        m.depth = i;
        m.elapsed_ms = 1000 + 37 * i;
        game.moves.push_back(m);
        ++i;
    }
    game.outcome = {GameResult::Draw, Incident::None, "adjudication", "Draw by adjudication: both engines agree"};
    EXPECT_EQ(format_pgn(game, "ev", 3),
              "[Event \"ev\"]\n[Site \"quince-match\"]\n[Date \"2026.01.01\"]\n[Round \"3\"]\n[White \"quince\"]\n"
              "[Black \"toga2\"]\n[Result \"1/2-1/2\"]\n[WhiteTimeControl \"10+0.1\"]\n[BlackTimeControl \"40/60\"]\n"
              "[Termination \"adjudication\"]\n[PlyCount \"20\"]\n\n"
              "1. e4 {book} c5 {book} 2. Nf3 {book} d6 {book} 3. d4 {+0.36/4 1.148s} cxd4\n"
              "{1.185s} 4. Nxd4 {+0.54/6 1.222s} Nf6 {-0.49/7 1.259s} 5. Nc3 {+0.72/8 1.296s}\n"
              "a6 {-0.63/9 1.333s} 6. Be3 {1.370s} e5 {-0.77/11 1.407s} 7. Nb3 {+1.08/12\n"
              "1.444s} Be6 {-0.91/13 1.481s} 8. f3 {+1.26/14 1.518s} Be7 {1.555s} 9. Qd2\n"
              "{+1.44/16 1.592s} O-O {-M119/17 1.629s} 10. O-O-O {+1.62/18 1.666s} Nbd7\n"
              "{-1.33/19 1.703s} {Draw by adjudication: both engines agree} 1/2-1/2\n\n");
}

// quince-match's command line: the usage on request, usage errors in one line as every Quince program gives them.
TEST(MatchCli, UsageAndUsageErrors) {
    std::ostringstream out, err;
    EXPECT_EQ(run_match_cli({"-engine", "cmd=a", "-help"}, out, err), 0);
    EXPECT_EQ(out.str(), usage_text());
    EXPECT_TRUE(err.str().empty());
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{}, {"-bogus"}, {"-engine", "cmd=a", "tc=1"}, {"-engine", "cmd=a", "-engine", "cmd=b"},
          {"-games", "x"}, {"-rescore"}, {"-rescore", "a.pgn", "-sprt", "elo0=5", "elo1=0"}}) {
        out.str("");
        err.str("");
        EXPECT_EQ(run_match_cli(bad, out, err), 2) << (bad.empty() ? "(nothing)" : bad[0]);
        EXPECT_TRUE(out.str().empty()) << out.str();
        const std::string said = err.str();
        EXPECT_EQ(said.rfind("quince-match: ", 0), 0u) << said;
        EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
        EXPECT_NE(said.find(" (see 'quince-match --help')\n"), std::string::npos) << said;
    }
}

namespace {

std::string pgn_game(const std::string& white, const std::string& black, const std::string& fen,
                     const std::string& result, const std::string& termination) {
    return "[White \"" + white + "\"]\n[Black \"" + black + "\"]\n[Result \"" + result + "\"]\n[FEN \"" + fen +
           "\"]\n[SetUp \"1\"]\n[Termination \"" + termination + "\"]\n\n" +
           (fen.find(" b ") != std::string::npos ? "1... Nf6 " : "1. Nf3 ") + result + "\n\n";  // legal in every FEN
}

std::vector<game::Game> read_games(const std::string& text) {
    std::vector<game::Game> games;
    game::PgnError e;
    EXPECT_TRUE(game::read_pgn(text, &games, &e)) << e.text();
    return games;
}

}  // namespace

TEST(MatchRescore, PoolsFilesPairsByOpeningAndTakesTheGauntletEnginesView) {
    const std::string x = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const std::string y = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    const std::string z = "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    // toga2 is seen first, but quince plays more games: every pairing is seen from quince.
    // File 1: opening x -> quince D + W (pair WD), opening y -> L + L (pair LL, finished out of order
    // with an x game between), a glaurung game without a partner, an unfinished game.
    const std::string file1 = pgn_game("toga2", "quince", x, "1/2-1/2", "adjudication") +
                              pgn_game("quince", "toga2", y, "0-1", "normal") +
                              pgn_game("quince", "toga2", x, "1-0", "normal") +
                              pgn_game("toga2", "quince", y, "1-0", "time forfeit") +
                              pgn_game("quince", "glaurung", z, "1-0", "normal") +
                              pgn_game("glaurung", "quince", z, "*", "unterminated");
    // File 2 (a continued run): opening x again -> D + D (pair DD), not paired with file 1's games.
    const std::string file2 = pgn_game("quince", "toga2", x, "1/2-1/2", "adjudication") +
                              pgn_game("toga2", "quince", x, "1/2-1/2", "normal");
    const std::string report = rescore_games({read_games(file1), read_games(file2)});
    EXPECT_NE(report.find("Score of quince vs toga2: 1 - 2 - 3  [0.417] 6 games"), std::string::npos) << report;
    EXPECT_NE(report.find("Pentanomial [LL, LD, DD/WL, WD, WW]: [1, 0, 1, 1, 0] over 3 pairs"), std::string::npos)
        << report;
    EXPECT_NE(report.find("Summary: quince vs toga2 games=6 W=1 D=3 L=2"), std::string::npos) << report;
    EXPECT_NE(report.find("Summary: quince vs glaurung games=1 W=1 D=0 L=0"), std::string::npos) << report;
    EXPECT_NE(report.find("over 0 pairs"), std::string::npos) << report;  // the glaurung game has no partner
    EXPECT_NE(report.find("Terminations quince vs toga2: adjudication 2, normal 3, time forfeit 1\n"),
              std::string::npos)
        << report;
    EXPECT_NE(report.find("Skipped 1 game(s) without a result"), std::string::npos) << report;
    EXPECT_EQ(report.find("toga2 vs quince"), std::string::npos) << report;

    std::string text, error;
    EXPECT_FALSE(rescore_pgn_files({"/nonexistent/games.pgn"}, &text, &error));
    EXPECT_NE(error.find("cannot open /nonexistent/games.pgn"), std::string::npos);
}

// An SPRT continued in parts (other opening seeds, other PGN files) is decided on the pooled games: -rescore
// -sprt prints the runner's SPRT line for them, from the pooled pentanomial.
TEST(MatchRescore, SprtOfPooledRunsIsTheRunnersOwnOnThePooledPairs) {
    const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    auto fen = [&](int i) {  // one opening per pair: the start position with full-move number i + 1
        return start.substr(0, start.size() - 1) + std::to_string(i + 1);
    };
    // Part 1: 30 pairs won twice (WW) and 10 drawn pairs; part 2: 20 more WW pairs and 10 LD.
    std::string part1, part2;
    for (int i = 0; i < 40; ++i) {
        const bool ww = i < 30;
        part1 += pgn_game("new", "base", fen(i), ww ? "1-0" : "1/2-1/2", "normal") +
                 pgn_game("base", "new", fen(i), ww ? "0-1" : "1/2-1/2", "normal");
    }
    for (int i = 0; i < 30; ++i) {
        const bool ww = i < 20;
        part2 += pgn_game("new", "base", fen(i), ww ? "1-0" : "0-1", "normal") +
                 pgn_game("base", "new", fen(i), ww ? "0-1" : "1/2-1/2", "normal");
    }
    SprtConfig sprt;
    sprt.enabled = true;
    sprt.elo0 = 0;
    sprt.elo1 = 10;
    const std::string pooled = rescore_games({read_games(part1), read_games(part2)}, sprt);
    EXPECT_NE(pooled.find("[0, 10, 10, 0, 50] over 70 pairs"), std::string::npos) << pooled;
    char llr[32];
    std::snprintf(llr, sizeof llr, "LLR %.2f [", sprt_llr({0, 10, 10, 0, 50}, 0, 10));
    EXPECT_NE(pooled.find(std::string("SPRT (logistic Elo, pentanomial GSPRT, alpha 0.050 beta 0.050): ") + llr),
              std::string::npos)
        << pooled;
    EXPECT_NE(pooled.find("H1 accepted"), std::string::npos) << pooled;
    // One part alone: its own pairs only.
    std::snprintf(llr, sizeof llr, "LLR %.2f [", sprt_llr({0, 0, 10, 0, 30}, 0, 10));
    EXPECT_NE(rescore_games({read_games(part1)}, sprt).find(llr), std::string::npos);
    // Without -sprt no SPRT line; with two pairings none either (rescore_pgn_files refuses that).
    EXPECT_EQ(rescore_games({read_games(part1)}).find("SPRT"), std::string::npos);
    const std::string other = pgn_game("new", "third", start, "1-0", "normal");
    EXPECT_EQ(rescore_games({read_games(part1 + other)}, sprt).find("SPRT"), std::string::npos);

    // The command line: files, then -sprt and its settings.
    std::vector<std::string> files;
    SprtConfig parsed;
    std::string error;
    ASSERT_TRUE(parse_rescore_arguments({"a.pgn", "b.pgn", "-sprt", "elo0=0", "elo1=5", "alpha=0.1", "beta=0.1"}, &files,
                                        &parsed, &error))
        << error;
    EXPECT_EQ(files, (std::vector<std::string>{"a.pgn", "b.pgn"}));
    EXPECT_TRUE(parsed.enabled);
    EXPECT_EQ(parsed.elo1, 5);
    EXPECT_EQ(parsed.alpha, 0.1);
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"-sprt", "elo0=0", "elo1=5"}, {"a.pgn", "-sprt", "elo1=abc"}, {"a.pgn", "-sprt", "x=1"},
          {"a.pgn", "-sprt", "elo0=5", "elo1=0"}, {"a.pgn", "-sprt", "elo1=5", "b.pgn"}, {"a.pgn", "-bogus"}}) {
        files.clear();
        parsed = SprtConfig{};
        error.clear();
        EXPECT_FALSE(parse_rescore_arguments(bad, &files, &parsed, &error)) << bad.back();
        EXPECT_FALSE(error.empty());
    }
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
