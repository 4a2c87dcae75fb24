// quince-match against a fake UCI engine (tests/tools/fake_engine) that misbehaves on request:
// time losses, crashes with restart, illegal moves, missing bestmove, floods of info lines,
// PGN round trip and a small tournament with SPRT stop.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "board/notation.h"
#include "match/engine_process.h"
#include "match/game.h"
#include "match/pgn.h"
#include "game/pgn.h"
#include "match/tournament.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::match;

namespace {

EngineConfig fake(const std::string& name, std::vector<std::string> args, const std::string& tc = "5+0.05") {
    EngineConfig e;
    e.name = name;
    e.command = QUINCE_FAKE_ENGINE_PATH;
    e.args = std::move(args);
    e.protocol_timeout_ms = 2000;
    e.search_timeout_ms = 2000;
    if (!tc.empty()) {
        EXPECT_TRUE(parse_clock(tc, &e.tc));
    }
    return e;
}

std::string temp_path(const std::string& name) {
    auto p = std::filesystem::temp_directory_path() / ("quince_match_" + std::to_string(::getpid()) + "_" + name);
    std::filesystem::remove(p);
    return p.string();
}

// Reads PGN text with the project's reader (src/game/pgn.h); moves come back checked on the board.
std::vector<game::Game> read_games(const std::string& text) {
    std::vector<game::Game> games;
    game::PgnError e;
    EXPECT_TRUE(game::read_pgn(text, &games, &e)) << e.text();
    return games;
}

// Every comment of a game's main line, in order.
std::vector<std::string> all_comments(const game::Game& g) {
    std::vector<std::string> r;
    for (const game::PgnMove& m : g.moves) {
        r.insert(r.end(), m.comments_before.begin(), m.comments_before.end());
        r.insert(r.end(), m.comments.begin(), m.comments.end());
    }
    r.insert(r.end(), g.final_comments.begin(), g.final_comments.end());
    return r;
}

// Replays a PGN game from its FEN tag on the referee; returns the final referee outcome.
Outcome replay(const game::Game& g, int* plies) {
    Referee r;
    EXPECT_TRUE(r.reset(g.tag("FEN"), g.tag("Variant") == "fischerandom", nullptr));
    *plies = 0;
    for (const game::PgnMove& m : g.moves) {
        EXPECT_TRUE(r.play(move_to_uci(m.move, r.position().is_chess960()))) << m.san;
        ++*plies;
    }
    return r.rules_outcome();
}

}  // namespace

TEST(MatchGame, NormalGameAndPgnRoundTrip) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    UciEngine white(fake("alpha", {"--random", "11", "--score", "3"}));
    UciEngine black(fake("beta", {"--random", "29"}));
    Opening opening{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", {"e2e4", "c7c5"}};
    GameRecord game = play_game(white, black, opening, AdjudicationRules{});
    ASSERT_NE(game.outcome.result, GameResult::None) << game.outcome.reason;
    EXPECT_EQ(game.outcome.incident, Incident::None) << game.outcome.reason;
    EXPECT_EQ(game.outcome.termination, "normal");
    EXPECT_TRUE(game.moves[0].book);
    EXPECT_FALSE(game.moves[2].book);
    ASSERT_TRUE(game.moves[2].score.has_value());
    EXPECT_EQ(game.moves[2].score->value, 3);

    const std::vector<game::Game> games = read_games(format_pgn(game, "unit test", 7));
    ASSERT_EQ(games.size(), 1u);
    const game::Game& g = games[0];
    const std::vector<std::string> comments = all_comments(g);
    ASSERT_GE(comments.size(), 3u);
    EXPECT_EQ(g.tag("Result"), result_text(game.outcome.result));
    EXPECT_EQ(g.result, g.tag("Result"));
    EXPECT_EQ(g.tag("White"), "alpha");
    EXPECT_EQ(g.tag("Round"), "7");
    EXPECT_EQ(g.tag("SetUp"), "1");
    EXPECT_EQ(g.tag("TimeControl"), "5+0.05");
    EXPECT_EQ(g.tag("Termination"), "normal");
    EXPECT_EQ(g.tag("PlyCount"), std::to_string(game.moves.size()));
    EXPECT_EQ(comments.front(), "book");
    EXPECT_EQ(comments[2].rfind("+0.03/1 ", 0), 0u) << comments[2];
    EXPECT_EQ(comments.back(), game.outcome.reason);
    int plies = 0;
    Outcome replayed = replay(g, &plies);
    EXPECT_EQ(plies, int(game.moves.size()));
    EXPECT_EQ(replayed.result, game.outcome.result);  // the rules agree after replaying the SAN
    EXPECT_EQ(replayed.reason, game.outcome.reason);
}

TEST(MatchGame, Chess960Game) {
    EngineConfig a = fake("a", {"--random", "8"}), b = fake("b", {"--random", "9"});
    a.options.emplace_back("UCI_Chess960", "true");
    b.options.emplace_back("UCI_Chess960", "true");
    UciEngine white(a), black(b);
    AdjudicationRules rules;
    rules.max_moves = 30;
    Opening opening{"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", {}, true};
    GameRecord game = play_game(white, black, opening, rules);
    EXPECT_EQ(game.outcome.incident, Incident::None) << game.outcome.reason << " " << game.error;
    const std::vector<game::Game> games = read_games(format_pgn(game, "960", 1));
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].tag("Variant"), "fischerandom");
    EXPECT_TRUE(games[0].chess960());
    int plies = 0;
    replay(games[0], &plies);
    EXPECT_EQ(plies, int(game.moves.size()));
}

TEST(MatchGame, SlowEngineLosesOnTime) {
    UciEngine white(fake("slow", {"--mode", "slow", "--delay", "400", "--after", "2"}, "0.3+0"));
    UciEngine black(fake("fast", {}, "0.3+0"));
    GameRecord game = play_game(white, black, Opening{}, AdjudicationRules{});
    EXPECT_EQ(game.outcome.result, GameResult::BlackWins);
    EXPECT_EQ(game.outcome.incident, Incident::TimeForfeit);
    EXPECT_EQ(game.outcome.termination, "time forfeit");
    EXPECT_NE(game.outcome.reason.find("White loses on time"), std::string::npos) << game.outcome.reason;
    EXPECT_EQ(game.moves.size(), 2u);  // one good move each, then the slow one
}

TEST(MatchGame, TimeForfeitAgainstBareKingIsADraw) {
    UciEngine white(fake("slow", {"--mode", "slow", "--delay", "400", "--after", "2"}, "0.3+0"));
    UciEngine black(fake("fast", {}, "0.3+0"));
    GameRecord game = play_game(white, black, Opening{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", {}}, AdjudicationRules{});
    EXPECT_EQ(game.outcome.result, GameResult::Draw);
    EXPECT_EQ(game.outcome.incident, Incident::TimeForfeit);
    EXPECT_NE(game.outcome.reason.find("White loses on time"), std::string::npos) << game.outcome.reason;
    EXPECT_NE(game.outcome.reason.find("Black has no mating material"), std::string::npos) << game.outcome.reason;
}

TEST(MatchGame, MovetimeOverrunWithinMarginIsTolerated) {
    std::string once = temp_path("slow_once");
    // Black answers one move ~30 ms late; with a generous margin that is fine, without it the game is lost.
    // (Margins are large so that a loaded CI machine cannot make the healthy moves late.)
    EngineConfig slow = fake("slow", {"--mode", "slow", "--delay", "130", "--once", once}, "");
    slow.tc.movetime_ms = 100;
    slow.time_margin_ms = 1000;
    EngineConfig quick = fake("quick", {"--random", "5"}, "");
    quick.tc.movetime_ms = 100;
    quick.time_margin_ms = 1000;
    AdjudicationRules rules;
    rules.max_moves = 15;
    {
        UciEngine white(quick), black(slow);
        GameRecord game = play_game(white, black, Opening{}, rules);
        EXPECT_EQ(game.outcome.incident, Incident::None) << game.outcome.reason;
        EXPECT_GE(game.moves[1].elapsed_ms, 125);
        EXPECT_GE(game.late_moves[BLACK], 1);
    }
    std::filesystem::remove(once);
    slow.time_margin_ms = 0;
    UciEngine white(quick), black(slow);
    GameRecord game = play_game(white, black, Opening{}, rules);
    EXPECT_EQ(game.outcome.result, GameResult::WhiteWins);
    EXPECT_EQ(game.outcome.incident, Incident::TimeForfeit);
    EXPECT_NE(game.outcome.reason.find("Black loses on time"), std::string::npos) << game.outcome.reason;
    std::filesystem::remove(once);
}

TEST(MatchGame, CrashIsALossAndTheEngineIsRestarted) {
    std::string once = temp_path("crash_once");
    UciEngine crashing(fake("crashy", {"--mode", "crash", "--after", "3", "--once", once}));
    UciEngine other(fake("steady", {"--random", "3"}));
    AdjudicationRules rules;
    rules.max_moves = 20;
    GameRecord first = play_game(crashing, other, Opening{}, rules);
    EXPECT_EQ(first.outcome.result, GameResult::BlackWins);
    EXPECT_EQ(first.outcome.incident, Incident::Crash);
    EXPECT_EQ(first.outcome.termination, "abandoned");
    EXPECT_EQ(first.moves.size(), 4u);
    EXPECT_NE(first.error.find("exit code 3"), std::string::npos) << first.error;
    GameRecord second = play_game(other, crashing, Opening{}, rules);
    EXPECT_EQ(second.outcome.incident, Incident::None) << second.outcome.reason;
    EXPECT_NE(second.outcome.result, GameResult::None);
    EXPECT_EQ(crashing.restarts(), 1);
    std::filesystem::remove(once);
}

TEST(MatchGame, IllegalMoveLoses) {
    UciEngine white(fake("good", {}));
    UciEngine black(fake("bad", {"--mode", "illegal", "--after", "2"}));
    GameRecord game = play_game(white, black, Opening{}, AdjudicationRules{});
    EXPECT_EQ(game.outcome.result, GameResult::WhiteWins);
    EXPECT_EQ(game.outcome.incident, Incident::IllegalMove);
    EXPECT_EQ(game.outcome.termination, "rules infraction");
    EXPECT_NE(game.outcome.reason.find("a1a1"), std::string::npos);
}

TEST(MatchGame, MissingBestmoveTimesOutAndTheNextGameWorks) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    std::string once = temp_path("silent_once");
    EngineConfig mute = fake("mute", {"--mode", "nobestmove", "--once", once}, "");
    mute.tc.depth = 3;
    mute.search_timeout_ms = 300;
    EngineConfig fine = fake("fine", {}, "");
    fine.tc.depth = 3;
    AdjudicationRules rules;
    rules.max_moves = 10;
    UciEngine a(mute), b(fine);
    GameRecord game = play_game(a, b, Opening{}, rules);
    EXPECT_EQ(game.outcome.result, GameResult::BlackWins);
    EXPECT_EQ(game.outcome.incident, Incident::NoBestmove);
    EXPECT_NE(game.outcome.reason.find("no bestmove within 300 ms"), std::string::npos) << game.outcome.reason;
    GameRecord next = play_game(a, b, Opening{}, rules);
    EXPECT_EQ(next.outcome.incident, Incident::None) << next.outcome.reason;
    EXPECT_EQ(next.outcome.reason, "Draw by adjudication: maximum number of moves");
    std::filesystem::remove(once);

    // With a clock the same silence is a loss on time.
    UciEngine c(fake("mute2", {"--mode", "nobestmove"}, "0.2+0")), d(fake("fine2", {}, "0.2+0"));
    GameRecord timed = play_game(d, c, Opening{}, rules);
    EXPECT_EQ(timed.outcome.result, GameResult::WhiteWins);
    EXPECT_EQ(timed.outcome.incident, Incident::TimeForfeit);
}

TEST(MatchGame, EngineThatNeverSaysUciokLoses) {
    EngineConfig silent = fake("silent", {"--mode", "silent-start"});
    silent.protocol_timeout_ms = 200;
    UciEngine a(fake("ok", {})), b(silent);
    GameRecord game = play_game(a, b, Opening{}, AdjudicationRules{});
    EXPECT_EQ(game.outcome.result, GameResult::WhiteWins);
    EXPECT_EQ(game.outcome.incident, Incident::Crash);
    EXPECT_NE(game.outcome.reason.find("failed to start"), std::string::npos);
}

TEST(MatchGame, FloodOfInfoLinesIsHandled) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    std::string once = temp_path("spam_once");
    // A clock a loaded sanitizer build cannot miss (20,000 lines took 2.5 s there): the flood must be read
    // through, not raced.
    UciEngine white(fake("chatty", {"--mode", "spam", "--once", once}, "60+0"));
    UciEngine black(fake("quiet", {}, "60+0"));
    AdjudicationRules rules;
    rules.max_moves = 5;
    GameRecord game = play_game(white, black, Opening{}, rules);
    EXPECT_EQ(game.outcome.incident, Incident::None) << game.outcome.reason;
    ASSERT_FALSE(game.moves.empty()) << game.outcome.reason;
    EXPECT_EQ(game.moves[0].depth, 1);  // the last info line before bestmove wins
    std::filesystem::remove(once);
}

TEST(MatchTournament, PgnOpeningsConcurrencyAndPgnOut) {
    TournamentConfig config;
    config.engines = {fake("one", {"--random", "1"}), fake("two", {"--random", "2"})};
    config.games = 4;
    config.concurrency = 2;
    config.openings.file = std::string(QUINCE_MATCH_TEST_DATA_DIR) + "/openings.pgn";
    config.openings.format = "pgn";
    config.openings.plies = 6;
    config.adjudication.max_moves = 40;
    config.pgn_out = temp_path("t.pgn");
    std::ostringstream log;
    TournamentSummary s = run_tournament(config, log);
    ASSERT_TRUE(s.error.empty()) << s.error;
    EXPECT_EQ(s.games_played, 4);
    ASSERT_EQ(s.pairings.size(), 1u);
    EXPECT_EQ(s.pairings[0].stats.games(), 4);
    EXPECT_EQ(s.pairings[0].stats.pair_count(), 2);
    EXPECT_NE(log.str().find("Pentanomial [LL, LD, DD/WL, WD, WW]"), std::string::npos);

    std::ifstream in(config.pgn_out, std::ios::binary);
    const std::vector<game::Game> games =
        read_games(std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>()));
    ASSERT_EQ(games.size(), 4u);
    for (const game::Game& g : games) {
        int plies = 0;
        replay(g, &plies);
        EXPECT_EQ(plies, int(g.moves.size()));
        EXPECT_NE(g.result, "*");
    }
    std::filesystem::remove(config.pgn_out);
}

TEST(MatchTournament, SprtStopsEarly) {
    // "winner" always claims +10, "loser" -10: with resign adjudication the loser resigns every game,
    // the pairs are all WW and the SPRT accepts H1 as soon as it may decide, after 10 pairs (upper bound
    // 2.94; empty pentanomial categories carry a weight of 1e-3).
    TournamentConfig config;
    config.engines = {fake("winner", {"--score", "1000"}), fake("loser", {"--score", "-1000"})};
    config.games = 40;
    config.adjudication.resign_enabled = true;
    config.adjudication.resign_move_count = 1;
    config.adjudication.resign_score = 500;
    config.sprt.enabled = true;
    std::ostringstream log;
    TournamentSummary s = run_tournament(config, log);
    ASSERT_TRUE(s.error.empty()) << s.error;
    EXPECT_EQ(s.sprt_decision, SprtDecision::AcceptH1);
    EXPECT_EQ(s.games_played, 20);
    EXPECT_EQ(s.pairings[0].stats.wins, 20);
    EXPECT_NE(log.str().find("H1 accepted"), std::string::npos);
}

TEST(MatchTournament, IncidentsAreChargedToTheOffender) {
    TournamentConfig config;
    config.engines = {fake("good", {}), fake("bad", {"--mode", "illegal", "--after", "2"})};
    config.games = 2;
    std::ostringstream log;
    TournamentSummary s = run_tournament(config, log);
    ASSERT_TRUE(s.error.empty()) << s.error;
    EXPECT_EQ(s.pairings[0].stats.wins, 2);
    EXPECT_EQ(s.incidents[0].illegal_moves, 0);
    EXPECT_EQ(s.incidents[1].illegal_moves, 2);
    EXPECT_NE(log.str().find("Incidents bad: time forfeits 0, crashes 0, illegal moves 2"), std::string::npos);
}

TEST(MatchTournament, UnstartableEngineIsAFatalError) {
    TournamentConfig config;
    config.engines = {fake("one", {}), fake("ghost", {})};
    config.engines[1].command = "/nonexistent/engine";
    std::ostringstream log;
    TournamentSummary s = run_tournament(config, log);
    EXPECT_NE(s.error.find("ghost"), std::string::npos);
    EXPECT_EQ(s.games_played, 0);
}

// An engine that refuses one of its options would play the match with another net or hash than asked:
// the match stops before its first game, naming the engine and its answer. Other info strings are fine.
TEST(MatchTournament, RefusedOptionIsAFatalError) {
    for (const auto& [option, answer] : {std::pair<std::string, std::string>{"Refused", "info string error: setoption: bad value"},
                                         {"Unknown", "No such option: Unknown"}}) {
        TournamentConfig config;
        config.engines = {fake("one", {}), fake("picky", {})};
        config.engines[1].options.push_back({option, "1"});
        config.games = 2;
        std::ostringstream log;
        TournamentSummary s = run_tournament(config, log);
        EXPECT_NE(s.error.find("picky refused an option: " + answer), std::string::npos) << s.error;
        EXPECT_EQ(s.games_played, 0);
    }
    TournamentConfig config;
    config.engines = {fake("one", {}), fake("chatty", {})};
    config.engines[1].options.push_back({"Chatty", "1"});
    config.games = 2;
    std::ostringstream log;
    TournamentSummary s = run_tournament(config, log);
    EXPECT_TRUE(s.error.empty()) << s.error;
    EXPECT_EQ(s.games_played, 2);
    EXPECT_TRUE(UciEngine::refuses_option("info string ERROR: cannot open weights file 'x.nnue'"));
    EXPECT_FALSE(UciEngine::refuses_option("info string errors are counted"));
    EXPECT_FALSE(UciEngine::refuses_option("info depth 1 score cp 0 pv e2e4"));
}

TEST(MatchProcess, LinesTimeoutsEofAndAStuckReader) {
    EngineProcess echo;
    std::string error, line;
    ASSERT_TRUE(echo.start("cat", {}, "", &error)) << error;
    ASSERT_TRUE(echo.write_line("hello"));
    ASSERT_EQ(echo.read_line(line, std::chrono::milliseconds(2000)), EngineProcess::ReadStatus::Line);
    EXPECT_EQ(line, "hello");
    EXPECT_EQ(echo.read_line(line, std::chrono::milliseconds(50)), EngineProcess::ReadStatus::Timeout);
    echo.stop(std::chrono::milliseconds(500));  // closing stdin ends cat
    EXPECT_FALSE(echo.running());

    EngineProcess quitter;
    ASSERT_TRUE(quitter.start("sh", {"-c", "echo last; exit 4"}, "", &error));
    ASSERT_EQ(quitter.read_line(line, std::chrono::milliseconds(2000)), EngineProcess::ReadStatus::Line);
    EXPECT_EQ(quitter.read_line(line, std::chrono::milliseconds(2000)), EngineProcess::ReadStatus::Eof);
    quitter.stop(std::chrono::milliseconds(500));
    EXPECT_EQ(quitter.exit_description(), "exit code 4");

    // A process that never reads: writes give up after the write timeout instead of blocking forever.
    EngineProcess deaf;
    ASSERT_TRUE(deaf.start("sleep", {"30"}, "", &error));
    deaf.set_write_timeout(std::chrono::milliseconds(200));
    std::string big(1 << 20, 'x');
    auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(deaf.write_line(big));
    // Blocking until the sleeper exits would take 30 s; giving up after the 200 ms timeout is far below 20 s
    // on any machine.
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
    deaf.stop(std::chrono::milliseconds(0));
    EXPECT_FALSE(deaf.running());

    EngineProcess missing;
    EXPECT_FALSE(missing.start("/nonexistent/binary", {}, "", &error));
    EXPECT_NE(error.find("cannot start"), std::string::npos);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
