// `quince analyse GAMES.pgn`: the annotated PGN (evals, the blunder's ?? and its better line, the tags),
// --json, --out, bad PGN, and the other argument forms (pasted moves, `analyze`, an empty argument).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include "board/notation.h"
#include "cli/analyse.h"
#include "cli/analyse_game.h"
#include "game/pgn.h"
#include "support/run_command.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using quince::test::run_command;

namespace {

const std::string ENGINE = QUINCE_ENGINE_PATH;
std::string data(const std::string& name) { return std::string(QUINCE_TEST_DATA_DIR) + "/pgn/" + name; }

int count_of(const std::string& text, const std::string& what) {
    int n = 0;
    for (std::size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
    return n;
}

// Small budgets keep the tests quick (also under the sanitizers); a hanging queen needs no depth.
const std::vector<std::string> BUDGET = {"--nodes", "20000", "--hash", "4"};

// Under ThreadSanitizer the tests of verdicts and formats skip themselves: their threads are the search's,
// which the tests of --out and of interrupts run there (the Release and ASan+UBSan builds run every test).
constexpr const char* SEARCH_THREADS = "the search's threads: OutFileAndEveryGameOfTheFile and the interrupt tests";

struct Analysed {
    int status;
    std::string out, err;
};
Analysed analyse(std::vector<std::string> args) {
    args.insert(args.end(), BUDGET.begin(), BUDGET.end());
    std::ostringstream out, err;
    const int status = cli::run_analyse(args, out, err);
    return {status, out.str(), err.str()};
}

}  // namespace

TEST(AnalyseGame, AHangingQueenGetsTwoQuestionMarksAndTheBetterLine) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    const Analysed r = analyse({data("queen_blunder.pgn")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("4... Qh4??"), std::string::npos) << r.out;
    std::vector<game::Game> games;
    game::PgnError e;
    ASSERT_TRUE(game::read_pgn(r.out, &games, &e)) << e.text() << "\n" << r.out;
    ASSERT_EQ(games.size(), 1u);
    const game::Game& g = games[0];
    ASSERT_EQ(g.moves.size(), 14u);
    const game::PgnMove& qh4 = g.moves[7];
    EXPECT_EQ(qh4.san, "Qh4");
    ASSERT_FALSE(qh4.nags.empty());
    EXPECT_EQ(qh4.nags[0], 4);
    ASSERT_EQ(qh4.variations.size(), 1u);
    EXPECT_NE(qh4.variations[0][0].san, "Qh4");
    ASSERT_GE(qh4.comments.size(), 2u);
    EXPECT_EQ(qh4.comments[0].rfind("[%eval ", 0), 0u);
    EXPECT_EQ(qh4.comments[1].rfind("Blunder. ", 0), 0u) << qh4.comments[1];
    // The eval is White's: after the queen hangs White is far ahead.
    EXPECT_GT(std::stod(qh4.comments[0].substr(7)), 3.0) << qh4.comments[0];
    // Every move has its eval; the move that takes the queen is no mistake.
    for (const game::PgnMove& m : g.moves) {
        ASSERT_FALSE(m.comments.empty()) << m.san;
        EXPECT_EQ(m.comments[0].rfind("[%eval ", 0), 0u) << m.san;
    }
    for (int nag : g.moves[8].nags) EXPECT_FALSE(nag == 2 || nag == 4) << "5. Nxh4";
    EXPECT_FALSE(g.tag("WhiteACPL").empty());
    EXPECT_GE(std::stoi(g.tag("BlackACPL")), 100) << "Black lost a queen (up to 1000 cp) in 7 moves";
    EXPECT_LT(std::stod(g.tag("BlackAccuracy")), std::stod(g.tag("WhiteAccuracy")));
    EXPECT_EQ(g.tag("Annotator").rfind("Quince ", 0), 0u);
    EXPECT_EQ(g.tag("Event"), "A queen left en prise");
    EXPECT_EQ(g.result, "1-0");
}

TEST(AnalyseGame, JsonIsOneObjectPerGame) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    const Analysed r = analyse({data("queen_blunder.pgn"), "--json", "--model", "lichess"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count_of(r.out, "\n"), 1) << r.out;
    EXPECT_EQ(r.out.rfind("{\"type\": \"game\", \"game\": 1, \"tags\": {\"Event\": \"A queen left en prise\"", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\"model\": \"lichess\""), std::string::npos);
    EXPECT_EQ(count_of(r.out, "\"ply\": "), 14);
    EXPECT_NE(r.out.find("\"san\": \"Qh4\", \"uci\": \"d8h4\", \"eval\": {\"white_cp\": "), std::string::npos) << r.out;
    // Each move ends with the position after it.
    EXPECT_NE(r.out.find("\"line\": [\"Nf6\"]}, \"fen\": \"r1b1k1nr/pppp1ppp/2n5/2b1p3/2B1P2q/2P2N2/PP1P1PPP/RNBQK2R w KQkq - 1 5\"}"),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"fen\": \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"}"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"judgement\": \"blunder\""), std::string::npos);
    // Strict parsing and the field names: tests/cli/cli_output_test.py.
}

TEST(AnalyseGame, OutFileAndEveryGameOfTheFile) {
    const std::string path = testing::TempDir() + "quince_analyse_out.pgn";
    const Analysed r = analyse({data("constructs.pgn"), "--out", path});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.out.empty());
    std::ifstream in(path, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::remove(path.c_str());
    std::vector<game::Game> games;
    game::PgnError e;
    ASSERT_TRUE(game::read_pgn(text, &games, &e)) << e.text();
    ASSERT_EQ(games.size(), 4u);
    // The file's own comments, NAGs and variations stay; the mate gets no eval (there is nothing to search).
    EXPECT_EQ(games[0].moves[4].comments.back(), "The Ruy Lopez");
    EXPECT_EQ(games[0].moves[4].variations.size() >= 1, true);
    EXPECT_EQ(games[1].moves.back().san, "Qxf7#");
    for (const std::string& c : games[1].moves.back().comments) EXPECT_EQ(c.find("[%eval"), std::string::npos) << c;
    EXPECT_TRUE(games[3].chess960());
    EXPECT_EQ(count_of(text, "[%eval"), 17 + 6 + 3 + 4);
}

TEST(AnalyseGame, ABadGameIsNamedAndPassedOnAndTheOthersAnalysed) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    // Game 2 of three is broken: games 1 and 3 are analysed and written, game 2 named with its line and
    // written between them as it was.
    const std::string folder = testing::TempDir();
    const std::string path = folder + "quince_three_games.pgn";
    std::ofstream(path, std::ios::binary) << std::ifstream(data("second_game_illegal.pgn"), std::ios::binary).rdbuf()
                                          << "\n[Event \"Third\"]\n\n1. c4 e5 2. Nc3 *\n";
    const Analysed r = analyse({path});
    EXPECT_EQ(r.status, 1);
    std::vector<game::Game> games;
    const std::vector<game::PgnError> errors = game::read_pgn_games(r.out, &games);
    ASSERT_EQ(games.size(), 2u) << r.out;
    EXPECT_EQ(games[0].tag("Event"), "Fine");
    EXPECT_EQ(games[1].tag("Event"), "Third");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].game, 2);
    EXPECT_NE(r.out.find("[Event \"Broken\"]\n[Site \"Quince tests\"]\n[Result \"*\"]\n\n"
                         "{ Not analysed: Quince could not read this game (game 2, line 12: illegal move '3... Nf5' in "),
              std::string::npos) << r.out;
    EXPECT_NE(r.out.find(") }\n1. e4 e5 2. Nf3 Nc6\n3. Bb5 Nf5 *\n\n[Event \"Third\"]"), std::string::npos) << r.out;
    EXPECT_EQ(count_of(r.out, "[%eval"), 3 + 3);
    EXPECT_NE(r.err.find("quince_three_games.pgn: game 2, line 12: illegal move '3... Nf5' in "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("; not analysed, copied to standard output as it is"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("1 of 3 games not analysed"), std::string::npos) << r.err;
    // --json: the error between the games, each game with its number in the file.
    const Analysed j = analyse({path, "--json"});
    EXPECT_EQ(j.status, 1);
    ASSERT_EQ(count_of(j.out, "\n"), 3) << j.out;
    EXPECT_EQ(j.out.find("{\"type\": \"game\", \"game\": 1,"), 0u) << j.out;
    EXPECT_NE(j.out.find("\n{\"type\": \"error\", \"game\": 2, \"line\": 12, \"move\": \"3... Nf5\""), std::string::npos) << j.out;
    EXPECT_NE(j.out.find("\n{\"type\": \"game\", \"game\": 3,"), std::string::npos) << j.out;
    std::remove(path.c_str());
    const Analysed garbage = analyse({data("../perft.epd.missing.pgn")});
    EXPECT_EQ(garbage.status, 1);
    EXPECT_NE(garbage.err.find("cannot read"), std::string::npos) << garbage.err;
}

TEST(AnalyseGame, GamesThatCannotBeReadAreCopiedToOutAsTheyWere) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    // Six games: 1 and 5 good, 2 garbage, 3 a broken tag, 4 an illegal move, 6 cut short in its tags. --out
    // gets all six in their order, the four bad ones as the file had them with a comment saying why.
    std::ifstream in(data("unreadable_games.pgn"), std::ios::binary);
    const std::string original((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string path = testing::TempDir() + "quince_unreadable_out.pgn";
    const Analysed r = analyse({data("unreadable_games.pgn"), "--out", path});
    EXPECT_EQ(r.status, 1);
    std::ifstream written_in(path, std::ios::binary);
    const std::string written((std::istreambuf_iterator<char>(written_in)), std::istreambuf_iterator<char>());
    std::vector<game::Game> games;
    const std::vector<game::PgnError> errors = game::read_pgn_games(written, &games);
    ASSERT_EQ(games.size(), 2u) << written;
    EXPECT_EQ(games[0].tag("Event"), "Good");
    EXPECT_EQ(games[0].number, 1);
    EXPECT_EQ(games[1].tag("Event"), "Also good");
    EXPECT_EQ(games[1].number, 5);
    EXPECT_FALSE(games[1].tag("Annotator").empty());
    ASSERT_EQ(errors.size(), 4u) << written;
    const std::string why = "{ Not analysed: Quince could not read this game (";
    EXPECT_NE(written.find(why + "game 2, line 7: illegal move '1. <html><body>Not' in " + Position().fen() +
                           ") }\n<html><body>Not a game</body></html>\n\n[Event \"A tag without"),
              std::string::npos) << written;
    EXPECT_NE(written.find("[Event \"A tag without its closing quote]\n[Site \"Quince tests\"]\n[Result \"*\"]\n\n" + why +
                           "game 3, line 9: malformed tag [Event]: the value's closing quote is missing) }\n1. d4 d5 *\n\n"),
              std::string::npos) << written;
    EXPECT_NE(written.find(why + "game 4, line 19: illegal move '2. Ke3' in "), std::string::npos) << written;
    EXPECT_NE(written.find(") }\n1. e4 e5 2. Ke3 Nc6 *\n\n[Event \"Also good\"]"), std::string::npos) << written;
    EXPECT_EQ(written.substr(written.rfind("\n\n[Event")), "\n\n[Event \"Cut short\"\n\n" + why +
              "game 6, line 27: malformed tag [Event]: expected ']', found '\\x0A') }\n\n");
    // Every line of the bad games 2 to 4 is in the output, in its order.
    std::size_t at = 0;
    const std::size_t from = original.find("<html>");
    std::istringstream lines(original.substr(from, original.find("[Event \"Also good\"]") - from));
    for (std::string line; std::getline(lines, line);) {
        const std::size_t found = written.find(line, at);
        ASSERT_NE(found, std::string::npos) << "missing: " << line << "\n" << written;
        at = found + line.size();
    }
    // stderr: the file, the game, why.
    for (const char* what : {"unreadable_games.pgn: game 2, line 7: illegal move '1. <html><body>Not'",
                             "unreadable_games.pgn: game 3, line 9: malformed tag [Event]",
                             "unreadable_games.pgn: game 4, line 19: illegal move '2. Ke3'",
                             "unreadable_games.pgn: game 6, line 27: malformed tag [Event]"})
        EXPECT_NE(r.err.find(std::string(what)), std::string::npos) << what << "\n" << r.err;
    EXPECT_EQ(count_of(r.err, "; not analysed, copied to '" + path + "' as it is, with a comment saying why\n"), 4) << r.err;
    EXPECT_NE(r.err.find("4 of 6 games not analysed"), std::string::npos) << r.err;
    // Analysed again, the output keeps one comment per bad game (the old one replaced).
    const std::string again_path = testing::TempDir() + "quince_unreadable_again.pgn";
    const Analysed again = analyse({path, "--out", again_path});
    std::ifstream again_in(again_path, std::ios::binary);
    const std::string again_text((std::istreambuf_iterator<char>(again_in)), std::istreambuf_iterator<char>());
    EXPECT_EQ(count_of(again_text, "Not analysed: Quince"), 4) << again_text;
    std::remove(path.c_str());
    std::remove(again_path.c_str());
}

TEST(AnalyseGame, PastedMoveListsAndLongAlgebraic) {
    auto r = run_command(ENGINE, {"analyse", "-", "--nodes", "5000", "--hash", "4"}, "1. e4 e5\n");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("1. e4 { [%eval "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("} *"), std::string::npos) << r.out;
    r = run_command(ENGINE, {"analyse", "-", "--nodes", "5000", "--hash", "4"}, "1. e2-e4 e7-e5 2. Ng1-f3\n");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("2. Nf3 { [%eval "), std::string::npos) << r.out;
}

TEST(AnalyseGame, TheFilesOwnNagsStayAndAReanalysisReplacesOurs) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    // The file calls the blunder 4... Qh4 "!" and 2. Nf3 "$1": both stay; Quince's verdict is in words.
    std::ifstream in(data("queen_blunder.pgn"), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("Qh4"), 3, "Qh4!");
    text.replace(text.find("2. Nf3"), 6, "2. Nf3 $1 $32");
    const std::string path = testing::TempDir() + "quince_own_nags.pgn";
    std::ofstream(path, std::ios::binary) << text;
    const Analysed r = analyse({path});
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<game::Game> games;
    game::PgnError e;
    ASSERT_TRUE(game::read_pgn(r.out, &games, &e)) << e.text() << "\n" << r.out;
    const game::PgnMove& qh4 = games[0].moves[7];
    EXPECT_EQ(qh4.nags, std::vector<int>{1}) << r.out;
    ASSERT_GE(qh4.comments.size(), 2u);
    EXPECT_EQ(qh4.comments[1].rfind("Blunder. ", 0), 0u) << r.out;
    EXPECT_EQ(games[0].moves[2].nags, (std::vector<int>{1, 32})) << r.out;
    // Quince's own annotation analysed again: one eval, one verdict, one better line, as the first time.
    std::ofstream(path, std::ios::binary) << analyse({data("queen_blunder.pgn")}).out;
    const Analysed again = analyse({path});
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(again.out, analyse({data("queen_blunder.pgn")}).out);
    EXPECT_EQ(count_of(again.out, "Blunder."), count_of(again.out, "??"));
    std::remove(path.c_str());
}

TEST(AnalyseGame, NullMovesInVariationsAndTheMainLine) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    // Game 1 has null moves in its variations: analysed whole, its variations kept. Game 2 has one in its
    // main line: analysed up to it, the note before it, the moves after it written as they were.
    const Analysed r = analyse({data("null_moves.pgn")});
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<game::Game> games;
    game::ReadOptions options;
    options.null_moves_in_main_line = true;
    ASSERT_TRUE(game::read_pgn_games(r.out, &games, options).empty()) << r.out;
    ASSERT_EQ(games.size(), 2u);
    for (const game::PgnMove& m : games[0].moves) EXPECT_EQ(m.comments[0].rfind("[%eval ", 0), 0u) << m.san;
    ASSERT_FALSE(games[0].moves[5].variations.empty());
    EXPECT_EQ(games[0].moves[5].variations.back()[0].san, "--");
    const game::Game& g = games[1];
    ASSERT_EQ(g.moves.size(), 8u);
    EXPECT_EQ(g.moves_before_null(), 5u);
    for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(g.moves[i].comments[0].rfind("[%eval ", 0), 0u) << g.moves[i].san;
    EXPECT_EQ(g.moves[4].comments.back(), "The analysis stops at this null move; the moves after it are not analysed.");
    for (std::size_t i = 5; i < 8; ++i) EXPECT_TRUE(g.moves[i].comments.empty()) << g.moves[i].san;
    // Analysed again (Quince's annotation): the same, with one note.
    const std::string path = testing::TempDir() + "quince_null_moves_again.pgn";
    std::ofstream(path, std::ios::binary) << r.out;
    const Analysed again = analyse({path});
    std::remove(path.c_str());
    EXPECT_EQ(again.out, r.out);
    EXPECT_EQ(count_of(r.out, "[%eval"), 9 + 5);
    EXPECT_NE(r.out.find("3... -- 4. e4 dxe4 *"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("null_moves.pgn: game 2 has a null move at 3... --; the 5 moves before it are analysed, not the 2 after it"),
              std::string::npos) << r.err;
    const Analysed j = analyse({data("null_moves.pgn"), "--json"});
    ASSERT_EQ(j.status, 0) << j.err;
    const std::string second = j.out.substr(j.out.find('\n') + 1);
    EXPECT_NE(second.find("\"null_move\": {\"ply\": 6, \"move\": \"3... --\"}"), std::string::npos) << second;
    EXPECT_EQ(count_of(second, "\"ply\": "), 1 + 5) << second;
}

// The plies of a game's --json line, in order.
std::vector<int> plies_of(const std::string& json_line) {
    std::vector<int> plies;
    for (std::size_t at = 0; (at = json_line.find("{\"ply\": ", at)) != std::string::npos; at += 8)
        plies.push_back(std::stoi(json_line.substr(at + 8)));
    return plies;
}

TEST(AnalyseGame, GameChoosesTheGamesOfTheFile) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    // constructs.pgn holds four games.
    Analysed r = analyse({data("constructs.pgn"), "--game", "3", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count_of(r.out, "\n"), 1) << r.out;
    EXPECT_EQ(r.out.rfind("{\"type\": \"game\", \"game\": 3,", 0), 0u) << r.out;
    r = analyse({data("constructs.pgn"), "--game=2-3", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_EQ(count_of(r.out, "\n"), 2) << r.out;
    EXPECT_EQ(r.out.rfind("{\"type\": \"game\", \"game\": 2,", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("\n{\"type\": \"game\", \"game\": 3,"), std::string::npos) << r.out;
    r = analyse({data("constructs.pgn"), "--game", "3-9"});  // as far as the file goes
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count_of(r.out, "[Event "), 2) << r.out;
    r = analyse({data("constructs.pgn"), "--game", "5"});
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("constructs.pgn holds 4 games; --game 5 names none of them"), std::string::npos) << r.err;
    // A game that cannot be read counts in the numbering; left out, it is not named.
    r = analyse({data("second_game_illegal.pgn"), "--game", "1"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err.find("game 2"), std::string::npos) << r.err;
    EXPECT_EQ(count_of(r.out, "[Event "), 1) << r.out;
    r = analyse({data("second_game_illegal.pgn"), "--game", "2"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("game 2, line 12: illegal move"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("second_game_illegal.pgn: --game 2 names no game without errors"), std::string::npos) << r.err;
}

TEST(AnalyseGame, SideAnnotatesOneSidesMoves) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    for (const Color side : {WHITE, BLACK}) {
        const Analysed r = analyse({data("queen_blunder.pgn"), "--side", side == WHITE ? "white" : "Black"});
        ASSERT_EQ(r.status, 0) << r.err;
        std::vector<game::Game> games;
        game::PgnError e;
        ASSERT_TRUE(game::read_pgn(r.out, &games, &e)) << e.text() << "\n" << r.out;
        const game::Game& g = games[0];
        ASSERT_EQ(g.moves.size(), 14u);
        for (std::size_t i = 0; i < g.moves.size(); ++i) {
            const bool ours = Color(i % 2) == side;
            EXPECT_EQ(!g.moves[i].comments.empty(), ours) << g.moves[i].san;
            if (ours) {
                EXPECT_EQ(g.moves[i].comments[0].rfind("[%eval ", 0), 0u) << g.moves[i].san;
            }
        }
        // The blunder is Black's: judged only when Black's moves are.
        EXPECT_EQ(r.out.find("Qh4??") != std::string::npos, side == BLACK) << r.out;
        EXPECT_EQ(g.tag("WhiteACPL").empty(), side == BLACK);
        EXPECT_EQ(g.tag("WhiteAccuracy").empty(), side == BLACK);
        EXPECT_EQ(g.tag("BlackACPL").empty(), side == WHITE);
        EXPECT_EQ(g.tag("BlackAccuracy").empty(), side == WHITE);
        const Analysed j = analyse({data("queen_blunder.pgn"), "--side", side == WHITE ? "white" : "black", "--json"});
        ASSERT_EQ(j.status, 0) << j.err;
        EXPECT_EQ(plies_of(j.out), side == WHITE ? (std::vector<int>{1, 3, 5, 7, 9, 11, 13})
                                                 : (std::vector<int>{2, 4, 6, 8, 10, 12, 14})) << j.out;
        EXPECT_NE(j.out.find(side == WHITE ? "\"black\": {\"moves\": 0," : "\"white\": {\"moves\": 0,"), std::string::npos) << j.out;
    }
}

TEST(AnalyseGame, FromMoveStartsTheAnnotation) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    Analysed r = analyse({data("queen_blunder.pgn"), "--from-move", "4"});
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<game::Game> games;
    game::PgnError e;
    ASSERT_TRUE(game::read_pgn(r.out, &games, &e)) << e.text() << "\n" << r.out;
    for (std::size_t i = 0; i < 14; ++i) EXPECT_EQ(games[0].moves[i].comments.empty(), i < 6) << games[0].moves[i].san;
    EXPECT_NE(r.out.find("4... Qh4??"), std::string::npos) << r.out;
    r = analyse({data("queen_blunder.pgn"), "--from-move", "4", "--side", "black", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(plies_of(r.out), (std::vector<int>{8, 10, 12, 14})) << r.out;
    // A game that starts later (40... Kd7 41. Kd2 Kd6): move numbers as the game has them.
    r = analyse({data("constructs.pgn"), "--game", "3", "--from-move", "41", "--json"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(plies_of(r.out), (std::vector<int>{2, 3})) << r.out;
    r = analyse({data("constructs.pgn"), "--game", "3", "--from-move", "12", "--json"});
    EXPECT_EQ(plies_of(r.out), (std::vector<int>{1, 2, 3})) << r.out;
    // Past the game's end: written as it is, and said so.
    r = analyse({data("queen_blunder.pgn"), "--from-move", "8"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count_of(r.out, "{"), 0) << r.out;
    EXPECT_EQ(r.out.find("Annotator"), std::string::npos) << r.out;
    EXPECT_NE(r.err.find("queen_blunder.pgn: game 1 has no move to analyse from move 8; it is written without analysis"),
              std::string::npos) << r.err;
}

TEST(AnalyseGame, BadValuesOfGameSideAndFromMoveAreUsageErrors) {
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--game", "0"}, "--game must be a game's number N or a range A-B of them (from 1, A at most B), got '0'"},
        {{"--game", "3-1"}, "got '3-1'"},
        {{"--game", "two"}, "got 'two'"},
        {{"--game", "1-"}, "got '1-'"},
        {{"--game", "-2"}, "got '-2'"},
        {{"--game", "1-2-3"}, "got '1-2-3'"},
        {{"--side", "red"}, "--side must be white or black, got 'red'"},
        {{"--from-move", "0"}, "--from-move must be a whole number from 1 to 10000, got '0'"},
        {{"--from-move", "ten"}, "--from-move must be a whole number from 1 to 10000, got 'ten'"},
    };
    for (const auto& [options, message] : cases) {
        std::vector<std::string> args = {data("queen_blunder.pgn")};
        args.insert(args.end(), options.begin(), options.end());
        const Analysed r = analyse(args);
        EXPECT_EQ(r.status, cli::EXIT_USAGE) << options[1] << ": " << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    // For one position they mean nothing.
    for (const char* option : {"--game", "--side", "--from-move"}) {
        const Analysed r = analyse({"startpos", option, "1"});
        EXPECT_EQ(r.status, cli::EXIT_USAGE) << option;
        EXPECT_NE(r.err.find(std::string(option) + " is for games (a PGN file)"), std::string::npos) << r.err;
    }
}

TEST(AnalyseGame, OptionsThatDoNotFitGames) {
    EXPECT_EQ(analyse({data("queen_blunder.pgn"), "--multipv", "2"}).status, cli::EXIT_USAGE);
    // One limit per position, as for one position (a usage error before anything is read or searched).
    for (const std::vector<std::string>& limits : {std::vector<std::string>{"--movetime", "100", "--depth", "3"},
                                                   std::vector<std::string>{"--depth", "3"}}) {
        std::vector<std::string> args = {data("queen_blunder.pgn")};
        args.insert(args.end(), limits.begin(), limits.end());
        const Analysed r = analyse(args);  // with BUDGET's --nodes: two or three limits
        EXPECT_EQ(r.status, cli::EXIT_USAGE) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_NE(r.err.find("give at most one of --depth, --movetime, --nodes"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("(see 'quince analyse --help')"), std::string::npos) << r.err;
    }
    const auto both = run_command(ENGINE, {"analyse", data("queen_blunder.pgn"), "--nodes", "5000", "--movetime", "100", "--depth", "3"});
    EXPECT_EQ(both.status, cli::EXIT_USAGE) << both.err;
    EXPECT_NE(both.err.find("give at most one of --depth, --movetime, --nodes"), std::string::npos) << both.err;
    EXPECT_EQ(analyse({data("queen_blunder.pgn"), "--model", "stockfish"}).status, cli::EXIT_USAGE);
    EXPECT_EQ(analyse({"startpos", "--out", "x.pgn"}).status, cli::EXIT_USAGE);
}

TEST(AnalyseGame, VerdictsFollowLichessThresholds) {
    EXPECT_EQ(cli::judge(0.099), cli::Judgement::NONE);
    EXPECT_EQ(cli::judge(0.1), cli::Judgement::INACCURACY);
    EXPECT_EQ(cli::judge(0.2), cli::Judgement::MISTAKE);
    EXPECT_EQ(cli::judge(0.3), cli::Judgement::BLUNDER);
    // lichess's formula at +100 cp: 2 / (1 + e^-0.368) - 1 = 0.182
    EXPECT_NEAR(cli::winning_chances(cli::ChancesModel::LICHESS, Value(100), 40), 0.182, 0.001);
    EXPECT_NEAR(cli::winning_chances(cli::ChancesModel::WDL, Value(0), 40), 0.0, 1e-9);
    EXPECT_GT(cli::winning_chances(cli::ChancesModel::WDL, Value(200), 40), 0.3);
    EXPECT_EQ(cli::winning_chances(cli::ChancesModel::WDL, mate_in(5), 40), 1.0);
    // The model of games people played: +100 cp is worth about what lichess's formula gives (below a full
    // board), far less than in the engine's own games (the network's model).
    for (int material : {20, 40, 58, 70}) {
        EXPECT_NEAR(cli::winning_chances(cli::ChancesModel::HUMAN, Value(0), material), 0.0, 1e-9);
        EXPECT_NEAR(cli::winning_chances(cli::ChancesModel::HUMAN, Value(100), material), 0.18, 0.02) << material;
        EXPECT_NEAR(cli::winning_chances(cli::ChancesModel::HUMAN, Value(-300), material), -0.49, 0.05) << material;
    }
    EXPECT_GT(cli::winning_chances(cli::ChancesModel::WDL, Value(100), 58, eval::network_wdl_model()), 0.3);
    EXPECT_EQ(cli::winning_chances(cli::ChancesModel::HUMAN, mated_in(4), 40), -1.0);
    EXPECT_STREQ(cli::chances_model_name(cli::ChancesModel::HUMAN), "human");
    EXPECT_EQ(cli::move_accuracy(60, 60), 100.0);
    EXPECT_EQ(cli::eval_command(Value(-17), BLACK), "[%eval 0.17]");
    EXPECT_EQ(cli::eval_command(mated_in(6), WHITE), "[%eval #-3]");
}

TEST(AnalyseGame, AccuracyIsLichesssFormulaExactly) {
    // Reference values from an independent implementation of lichess's published formulas.
    EXPECT_NEAR(cli::move_accuracy(60, 50), 64.57982845372067, 1e-9);
    EXPECT_NEAR(cli::move_accuracy(90, 10), 1.000170640274321, 1e-9);
    EXPECT_EQ(cli::move_accuracy(50, 49.99), 100.0) << "clamped: the +1 lifts a tiny loss above 100";
    EXPECT_EQ(cli::move_accuracy(50, 80), 100.0);
    EXPECT_EQ(cli::move_accuracy(100, 0), 0.0);
    // The game's figure: volatility-weighted mean and harmonic mean, windows of clamp(n / 10, 2, 8).
    auto lichess_game = [](const std::vector<double>& white_win, Color first, double out[COLOR_NB]) {
        std::vector<double> accuracies;
        for (std::size_t i = 0; i + 1 < white_win.size(); ++i) {
            const bool white = (i % 2 == 0) == (first == WHITE);
            accuracies.push_back(white ? cli::move_accuracy(white_win[i], white_win[i + 1])
                                       : cli::move_accuracy(100 - white_win[i], 100 - white_win[i + 1]));
        }
        cli::game_accuracy(white_win, accuracies, first, out);
    };
    std::vector<double> long_game;  // 35 moves: windows of 3 positions
    for (int k = 0; k < 36; ++k) long_game.push_back(50 + 45 * std::sin(0.37 * k) * std::cos(0.11 * k));
    double a[COLOR_NB];
    lichess_game(long_game, WHITE, a);
    EXPECT_NEAR(a[WHITE], 82.02603757304092, 1e-9);
    EXPECT_NEAR(a[BLACK], 82.853588857132, 1e-9);
    lichess_game({50, 55, 20, 80, 5}, BLACK, a);  // Black moves first, windows of 2
    EXPECT_NEAR(a[WHITE], 7.147617196527337, 1e-9);
    EXPECT_NEAR(a[BLACK], 14.262227702065665, 1e-9);
}

TEST(AnalyseGame, MovesThatAllowOrThrowAwayAForcedMate) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    using cli::Judgement;
    using cli::MateSequence;
    // Allowing a mate: ?? unless the mover already stood below -7 (?) or -10 (?!) pawns.
    EXPECT_EQ(cli::mate_sequence(Value(-200), mated_in(4)), MateSequence::ALLOWED);
    EXPECT_EQ(cli::judge_move(MateSequence::ALLOWED, Value(-200), mated_in(4), 0.05), Judgement::BLUNDER);
    EXPECT_EQ(cli::judge_move(MateSequence::ALLOWED, Value(-700), mated_in(4), 0), Judgement::BLUNDER);
    EXPECT_EQ(cli::judge_move(MateSequence::ALLOWED, Value(-701), mated_in(4), 0), Judgement::MISTAKE);
    EXPECT_EQ(cli::judge_move(MateSequence::ALLOWED, Value(-999), mated_in(4), 0), Judgement::MISTAKE);
    EXPECT_EQ(cli::judge_move(MateSequence::ALLOWED, Value(-1000), mated_in(4), 0), Judgement::INACCURACY);
    // Throwing a mate away: ?? unless the mover still stands above +7 (?) or +10 (?!) pawns.
    EXPECT_EQ(cli::mate_sequence(mate_in(5), Value(300)), MateSequence::LOST);
    EXPECT_EQ(cli::mate_sequence(mate_in(5), mated_in(2)), MateSequence::LOST);
    EXPECT_EQ(cli::judge_move(MateSequence::LOST, mate_in(5), Value(300), 0.1), Judgement::BLUNDER);
    EXPECT_EQ(cli::judge_move(MateSequence::LOST, mate_in(5), Value(701), 0), Judgement::MISTAKE);
    EXPECT_EQ(cli::judge_move(MateSequence::LOST, mate_in(5), Value(1000), 0), Judgement::INACCURACY);
    EXPECT_EQ(cli::judge_move(MateSequence::LOST, mate_in(5), mated_in(2), 2), Judgement::BLUNDER);
    // A slower mate, or a mate against the mover either way, is no verdict; scores alone use the drop.
    EXPECT_EQ(cli::mate_sequence(mate_in(3), mate_in(9)), MateSequence::NONE);
    EXPECT_EQ(cli::judge_move(MateSequence::NONE, mate_in(3), mate_in(9), 0), Judgement::NONE);
    EXPECT_EQ(cli::judge_move(MateSequence::NONE, mated_in(2), mated_in(2), 0), Judgement::NONE);
    EXPECT_EQ(cli::judge_move(MateSequence::NONE, Value(100), Value(-200), 0.35), Judgement::BLUNDER);

    // The Blackburne Shilling trap: 7. Be2 allows Nf3#, judged by how White stood before it.
    std::ifstream in(data("famous.pgn"), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<game::Game> games;
    game::PgnError e;
    ASSERT_TRUE(game::read_pgn(text, &games, &e)) << e.text();
    ASSERT_EQ(games.size(), 5u);
    search::Engine engine;
    ASSERT_TRUE(engine.set_hash(4));
    cli::GameBudget budget;
    budget.limits.nodes = 20000;
    cli::GameAnalysis analysis;
    ASSERT_TRUE(cli::analyse_game(games[3], engine, budget, &analysis));
    const cli::MoveVerdict& be2 = analysis.moves.at(12);
    ASSERT_EQ(be2.san, "Be2");
    EXPECT_EQ(be2.mate, MateSequence::ALLOWED);
    const int before = be2.best_score;
    const Judgement expected = before < -999 ? Judgement::INACCURACY : before < -700 ? Judgement::MISTAKE : Judgement::BLUNDER;
    EXPECT_EQ(be2.judgement, expected) << "White stood at " << before << " cp";
    game::Game annotated = games[3];
    cli::annotate(&annotated, analysis, "Quince");
    ASSERT_GE(annotated.moves[12].comments.size(), 2u);
    EXPECT_EQ(annotated.moves[12].comments[0], "[%eval #-1]");
    EXPECT_EQ(annotated.moves[12].comments[1].rfind("Checkmate is now unavoidable. ", 0), 0u) << annotated.moves[12].comments[1];
    EXPECT_EQ(annotated.moves[12].nags, std::vector<int>{cli::judgement_nag(expected)});
    ASSERT_EQ(annotated.moves[12].variations.size(), 1u);

    // The game's accuracy is lichess's figure over the moves' win percentages (the Opera game).
    ASSERT_TRUE(cli::analyse_game(games[0], engine, budget, &analysis));
    const std::size_t n = analysis.moves.size();
    ASSERT_EQ(n, 33u);
    ASSERT_EQ(analysis.white_win.size(), n + 1);
    for (std::size_t i = 0; i < n; ++i) {
        const cli::MoveVerdict& v = analysis.moves[i];
        const double loss = v.win_before - v.win_after;
        EXPECT_NEAR(v.accuracy, loss <= 0 ? 100.0 : std::clamp(103.1668100711649 * std::exp(-0.04354415386753951 * loss) - 3.166924740191411 + 1, 0.0, 100.0), 1e-9);
    }
    // Windows of 3 positions (33 moves), the first one counted twice, the population deviation within 0.5..12.
    double weighted[2] = {0, 0}, weights[2] = {0, 0}, inverse[2] = {0, 0}, moves[2] = {0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t from = i == 0 ? 0 : i - 1;
        double mean = 0, var = 0;
        for (std::size_t k = from; k < from + 3; ++k) mean += analysis.white_win[k] / 3;
        for (std::size_t k = from; k < from + 3; ++k) var += (analysis.white_win[k] - mean) * (analysis.white_win[k] - mean) / 3;
        const double w = std::clamp(std::sqrt(var), 0.5, 12.0), acc = analysis.moves[i].accuracy;
        weighted[i % 2] += acc * w, weights[i % 2] += w, inverse[i % 2] += 1 / std::max(1.0, acc), moves[i % 2] += 1;
    }
    for (int c = 0; c < 2; ++c)
        EXPECT_NEAR(analysis.side[c].accuracy, (weighted[c] / weights[c] + moves[c] / inverse[c]) / 2, 1e-9) << c;
    EXPECT_GT(analysis.side[WHITE].accuracy, analysis.side[BLACK].accuracy) << "Morphy played the better game";
    EXPECT_LE(analysis.side[WHITE].accuracy, 100.0);
}

TEST(AnalyseGame, MateCountsAreWhitesViewForBothColours) {
    // The side to move mates (odd plies) or is mated (even plies); the count is the mating side's moves.
    EXPECT_EQ(cli::eval_command(mate_in(1), WHITE), "[%eval #1]");
    EXPECT_EQ(cli::eval_command(mate_in(1), BLACK), "[%eval #-1]");
    EXPECT_EQ(cli::eval_command(mate_in(3), WHITE), "[%eval #2]");
    EXPECT_EQ(cli::eval_command(mate_in(3), BLACK), "[%eval #-2]");
    EXPECT_EQ(cli::eval_command(mate_in(9), BLACK), "[%eval #-5]");
    EXPECT_EQ(cli::eval_command(mated_in(2), WHITE), "[%eval #-1]");
    EXPECT_EQ(cli::eval_command(mated_in(2), BLACK), "[%eval #1]");
    EXPECT_EQ(cli::eval_command(mated_in(8), BLACK), "[%eval #4]");
    for (int ply = 1; ply < 40; ++ply)
        for (Color stm : {WHITE, BLACK}) {
            const Value v = ply % 2 ? mate_in(ply) : mated_in(ply);
            const int n = cli::white_mate_in_moves(v, stm);
            EXPECT_EQ(std::abs(n), (ply + 1) / 2) << ply;
            EXPECT_EQ(n > 0, (ply % 2 == 1) == (stm == WHITE)) << ply << " plies, " << (stm == WHITE ? "White" : "Black") << " to move";
        }
}

TEST(AnalyseGame, MatingGamesOfBothColoursCountTheMatingMoves) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    // Short forced mates, each side mating: the eval after each move and its --json twin.
    const Analysed r = analyse({data("mates.pgn")});
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<game::Game> games;
    game::PgnError e;
    ASSERT_TRUE(game::read_pgn(r.out, &games, &e)) << e.text() << "\n" << r.out;
    ASSERT_EQ(games.size(), 4u);
    auto eval_after = [&](int game, std::size_t ply) {
        const game::PgnMove& m = games[std::size_t(game)].moves.at(ply);
        return m.comments.empty() ? std::string() : m.comments[0];
    };
    EXPECT_EQ(eval_after(0, 0), "[%eval #-1]") << r.out;  // 1. Kg1, Rd1# follows
    EXPECT_EQ(eval_after(1, 0), "[%eval #1]") << r.out;   // 1... Kg8, Rd8# follows
    EXPECT_EQ(eval_after(2, 9), "[%eval #2]") << r.out;   // 5... Bxd1, Bxf7+ Ke7 Nd5#
    EXPECT_EQ(eval_after(2, 10), "[%eval #1]") << r.out;  // 6. Bxf7+
    EXPECT_EQ(eval_after(2, 11), "[%eval #1]") << r.out;  // 6... Ke7
    EXPECT_EQ(eval_after(3, 10), "[%eval #-2]") << r.out;  // 6. Bxd8, Bxf2+ Ke2 Nd4#
    EXPECT_EQ(eval_after(3, 11), "[%eval #-1]") << r.out;  // 6... Bxf2+
    EXPECT_EQ(eval_after(3, 12), "[%eval #-1]") << r.out;  // 7. Ke2
    const Analysed j = analyse({data("mates.pgn"), "--json"});
    ASSERT_EQ(j.status, 0) << j.err;
    EXPECT_NE(j.out.find("\"san\": \"Kg1\", \"uci\": \"f1g1\", \"eval\": {\"white_mate\": -1}"), std::string::npos) << j.out;
    EXPECT_NE(j.out.find("\"san\": \"Kg8\", \"uci\": \"f8g8\", \"eval\": {\"white_mate\": 1}"), std::string::npos) << j.out;
    EXPECT_NE(j.out.find("\"san\": \"Bxd8\", \"uci\": \"g5d8\", \"eval\": {\"white_mate\": -2}"), std::string::npos) << j.out;
    EXPECT_EQ(count_of(j.out, "{\"checkmate\": true}"), 4);
}

TEST(AnalyseGame, AnInterruptStopsTheRunningSearch) {
    std::vector<game::Game> games;
    game::PgnError e;
    std::ifstream in(data("queen_blunder.pgn"), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_TRUE(game::read_pgn(text, &games, &e)) << e.text();
    search::Engine engine;
    ASSERT_TRUE(engine.set_hash(4));
    cli::GameBudget budget;
    constexpr std::uint64_t BUDGET_NODES = 50'000'000, STOP_AFTER = 100'000;
    budget.limits.nodes = BUDGET_NODES;  // far more than the interrupt lets it search
    std::atomic<bool> interrupt{false}, searching{false};
    std::thread stopper([&] {
        // Hang watchdog only: the interrupt comes once the first position's search is under way.
        for (int i = 0; i < 30000 && !(searching.load() && engine.nodes_searched() >= STOP_AFTER); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        interrupt.store(true);
    });
    cli::GameAnalysis analysis;
    int positions_begun = 0;
    const bool complete = cli::analyse_game(games[0], engine, budget, &analysis,
                                            [&](int, int) { ++positions_begun, searching.store(true); }, &interrupt);
    stopper.join();
    EXPECT_FALSE(complete);
    EXPECT_EQ(positions_begun, 1) << "stopped inside the first position's search";
    EXPECT_LT(engine.nodes_searched(), BUDGET_NODES) << "the search was stopped, not run to its budget";
}

TEST(AnalyseGame, AnInterruptWritesTheGamesFinishedBeforeIt) {
    // The interrupt comes as soon as the first game's line is flushed: exactly one game is written.
    struct InterruptOnFlush : std::stringbuf {
        std::atomic<bool>* flag = nullptr;
        int sync() override {
            if (str().find('\n') != std::string::npos) flag->store(true);
            return std::stringbuf::sync();
        }
    };
    std::atomic<bool> interrupt{false};
    InterruptOnFlush buffer;
    buffer.flag = &interrupt;
    std::ostream out(&buffer);
    std::ostringstream err;
    cli::AnalyseSettings settings;
    settings.interrupt = &interrupt;
    std::vector<std::string> args = {data("constructs.pgn"), "--json"};
    args.insert(args.end(), BUDGET.begin(), BUDGET.end());
    const int status = cli::run_analyse(args, out, err, settings);
    EXPECT_EQ(status, cli::EXIT_FAILED);
    EXPECT_EQ(count_of(buffer.str(), "\n"), 1) << buffer.str();
    EXPECT_EQ(buffer.str().rfind("{\"type\": \"game\", \"game\": 1,", 0), 0u);
    EXPECT_NE(err.str().find("interrupted in game 2"), std::string::npos) << err.str();
}

TEST(AnalyseGame, AnInterruptKeepsTheMovesJudgedSoFar) {
    std::vector<game::Game> games;
    game::PgnError e;
    std::ifstream in(data("queen_blunder.pgn"), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_TRUE(game::read_pgn(text, &games, &e)) << e.text();
    search::Engine engine;
    ASSERT_TRUE(engine.set_hash(4));
    cli::GameBudget budget;
    budget.limits.nodes = 20000;
    std::atomic<bool> interrupt{false};
    cli::GameAnalysis analysis;
    // Interrupted as the sixth position begins: positions 1-5 have their scores, moves 1-4 their verdicts.
    const bool complete = cli::analyse_game(games[0], engine, budget, &analysis,
                                            [&](int i, int) { if (i == 5) interrupt.store(true); }, &interrupt);
    EXPECT_FALSE(complete);
    EXPECT_FALSE(analysis.complete);
    ASSERT_EQ(analysis.moves.size(), 4u);
    EXPECT_EQ(analysis.side[WHITE].moves + analysis.side[BLACK].moves, 4);
    game::Game annotated = games[0];
    cli::annotate(&annotated, analysis, "Quince");
    EXPECT_EQ(annotated.tag("Analysis"), "partial: 4 of 14 moves");
    ASSERT_EQ(annotated.moves.size(), 14u) << "every move of the game stays";
    for (std::size_t i = 0; i < 14; ++i) {
        const bool has_eval = !annotated.moves[i].comments.empty() && annotated.moves[i].comments[0].rfind("[%eval ", 0) == 0;
        EXPECT_EQ(has_eval, i < 4) << "move " << i + 1;
    }
    EXPECT_NE(annotated.moves[3].comments.back().find("interrupted here"), std::string::npos);
    const std::string json = cli::game_json(games[0], analysis, 1, budget.model);
    EXPECT_NE(json.find("\"partial\": true"), std::string::npos) << json;
    EXPECT_EQ(count_of(json, "\"ply\": "), 4);
}

namespace {

// A stream buffer that sets `flag` once what was written contains `trigger` (a progress line).
struct InterruptOnText : std::stringbuf {
    std::atomic<bool>* flag = nullptr;
    std::string trigger;
    int sync() override {
        if (str().find(trigger) != std::string::npos) flag->store(true);
        return std::stringbuf::sync();
    }
};

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> files_in(const std::string& folder) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) names.push_back(entry.path().filename().string());
    return names;
}

}  // namespace

TEST(AnalyseGame, OutIsReplacedOnlyByWhatWasAnalysed) {
    const std::string folder = testing::TempDir() + "quince_analyse_out_dir";
    std::filesystem::remove_all(folder);
    std::filesystem::create_directories(folder);
    const std::string path = folder + "/keep.pgn";
    std::ofstream(path, std::ios::binary) << "precious\n";
    std::vector<std::string> args = {data("constructs.pgn"), "--out", path};
    args.insert(args.end(), BUDGET.begin(), BUDGET.end());

    // Interrupted before anything is judged: the file is as it was, no temporary file is left.
    std::atomic<bool> interrupt{true};
    cli::AnalyseSettings settings;
    settings.interrupt = &interrupt;
    std::ostringstream out, err;
    EXPECT_EQ(cli::run_analyse(args, out, err, settings), cli::EXIT_FAILED);
    EXPECT_EQ(file_text(path), "precious\n");
    EXPECT_EQ(files_in(folder), std::vector<std::string>{"keep.pgn"});
    EXPECT_NE(err.str().find("nothing was analysed, '" + path + "' is unchanged"), std::string::npos) << err.str();

    // --out naming the file read is refused before anything is written.
    std::ofstream(folder + "/same.pgn", std::ios::binary) << file_text(data("queen_blunder.pgn"));
    EXPECT_EQ(analyse({folder + "/same.pgn", "--out", folder + "/same.pgn"}).status, cli::EXIT_USAGE);
    EXPECT_EQ(file_text(folder + "/same.pgn"), file_text(data("queen_blunder.pgn")));

    // Interrupted inside game 2: game 1 whole, game 2 up to the last move judged, marked partial.
    interrupt.store(false);
    settings.progress = true;
    InterruptOnText progress;
    progress.flag = &interrupt;
    progress.trigger = "game 2/4, position 4/";
    std::ostream progress_stream(&progress);
    EXPECT_EQ(cli::run_analyse(args, out, progress_stream, settings), cli::EXIT_FAILED);
    std::vector<game::Game> games;
    game::PgnError e;
    ASSERT_TRUE(game::read_pgn(file_text(path), &games, &e)) << e.text() << file_text(path);
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].tag("Analysis"), "");
    EXPECT_EQ(games[1].tag("Analysis"), "partial: 2 of 7 moves");
    EXPECT_EQ(games[1].moves.size(), 7u);
    EXPECT_NE(progress.str().find("interrupted in game 2 after 2 of 7 moves; it is written up to 1... e5, marked partial; "
                                  "2 games written to '" + path + "'"),
              std::string::npos)
        << progress.str();
    EXPECT_EQ(files_in(folder).size(), 2u) << "keep.pgn and same.pgn, no temporary file";
    std::filesystem::remove_all(folder);
}

TEST(AnalyseArguments, PastedMovesWithNumbersAndTheAnalyzeAlias) {
    Position p;
    std::string error;
    ASSERT_TRUE(cli::read_position({"startpos", "moves", "1.e4", "e5", "2.Nf3"}, &p, &error)) << error;
    EXPECT_EQ(p.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2");
    ASSERT_TRUE(cli::read_position({"startpos", "moves", "1.", "e4", "e5", "2.", "Nf3", "2...", "Nc6"}, &p, &error)) << error;
    ASSERT_TRUE(cli::read_position({"startpos", "moves", "1.e2e4", "1...e7e5"}, &p, &error)) << error;
    EXPECT_EQ(p.fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    EXPECT_FALSE(cli::read_position({"startpos", "moves", "1."}, &p, &error));
    auto r = run_command(ENGINE, {"analyze", "startpos", "moves", "1.e4", "e5", "2.Nf3", "--depth", "3"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"), std::string::npos) << r.out;
}

// "[%eval 8.29] [%wdl 999,1,0]" -> {999, 1, 0}; false when the comment has no [%wdl].
bool wdl_of(const std::string& comment, std::array<int, 3>* wdl) {
    const std::size_t at = comment.find("[%wdl ");
    return at != std::string::npos &&
           std::sscanf(comment.c_str() + at, "[%%wdl %d,%d,%d]", &(*wdl)[0], &(*wdl)[1], &(*wdl)[2]) == 3;
}

TEST(AnalyseGame, WdlBesideTheEvalInPgnAndJson) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    const Analysed r = analyse({data("queen_blunder.pgn"), "--wdl"});
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<game::Game> games;
    game::PgnError e;
    ASSERT_TRUE(game::read_pgn(r.out, &games, &e)) << e.text() << "\n" << r.out;
    for (const game::PgnMove& m : games[0].moves) {
        // In the eval's comment, as ChessBase writes it: White's win, draw and loss per mille.
        ASSERT_FALSE(m.comments.empty()) << m.san;
        EXPECT_EQ(m.comments[0].rfind("[%eval ", 0), 0u) << m.comments[0];
        std::array<int, 3> wdl{};
        ASSERT_TRUE(wdl_of(m.comments[0], &wdl)) << m.comments[0];
        EXPECT_EQ(m.comments[0].find("] [%wdl "), m.comments[0].find(']')) << m.comments[0];
        EXPECT_EQ(wdl[0] + wdl[1] + wdl[2], 1000) << m.comments[0];
        for (int x : wdl) EXPECT_GE(x, 0) << m.comments[0];
    }
    std::array<int, 3> after_blunder{};
    ASSERT_TRUE(wdl_of(games[0].moves[7].comments[0], &after_blunder));
    EXPECT_GT(after_blunder[0], 900) << "White, a queen up, wins: " << games[0].moves[7].comments[0];
    // Without --wdl none; analysed again without it, the old ones go with the old evals.
    EXPECT_EQ(analyse({data("queen_blunder.pgn")}).out.find("[%wdl"), std::string::npos);
    const std::string path = testing::TempDir() + "quince_wdl_again.pgn";
    std::ofstream(path, std::ios::binary) << r.out;
    const Analysed again = analyse({path});
    std::remove(path.c_str());
    EXPECT_EQ(again.out.find("[%wdl"), std::string::npos) << again.out;
    EXPECT_EQ(count_of(again.out, "[%eval"), 14) << again.out;
    // Another program's eval and WDL on a move Quince annotates are replaced by Quince's.
    std::ifstream in(data("queen_blunder.pgn"), std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    text.replace(text.find("1. e4"), 5, "1. e4 { [%eval -1.06,29] [%wdl 1,444,555] Sharp }");
    std::ofstream(path, std::ios::binary) << text;
    const Analysed other = analyse({path, "--wdl"});
    std::remove(path.c_str());
    EXPECT_EQ(other.out.find("1,444,555"), std::string::npos) << other.out;
    EXPECT_EQ(count_of(other.out, "[%wdl"), 14) << other.out;
    EXPECT_NE(other.out.find("{ Sharp }"), std::string::npos) << other.out;
    // --json: "wdl" beside every move's eval, "start_wdl" beside the start's.
    const Analysed j = analyse({data("queen_blunder.pgn"), "--wdl", "--json"});
    ASSERT_EQ(j.status, 0) << j.err;
    EXPECT_EQ(count_of(j.out, "\"wdl\": ["), 14) << j.out;
    EXPECT_NE(j.out.find("}, \"start_wdl\": ["), std::string::npos) << j.out;
    EXPECT_NE(j.out.find("\"san\": \"Qh4\", \"uci\": \"d8h4\", \"eval\": {\"white_cp\": "), std::string::npos) << j.out;
    const std::size_t qh4 = j.out.find("\"san\": \"Qh4\"");
    std::array<int, 3> json_wdl{};
    ASSERT_EQ(std::sscanf(j.out.c_str() + j.out.find("\"wdl\": [", qh4), "\"wdl\": [%d, %d, %d]", &json_wdl[0],
                          &json_wdl[1], &json_wdl[2]), 3);
    EXPECT_EQ(json_wdl, after_blunder);
    EXPECT_EQ(analyse({data("queen_blunder.pgn"), "--json"}).out.find("wdl\": ["), std::string::npos);
}

TEST(AnalyseArguments, WdlBesideEveryScoreOfAPosition) {
    // Black, a queen up, to move: White's view is a loss, whichever side moves.
    const std::string fen = "4k3/8/8/8/3q4/8/8/4K3 b - - 0 1";
    auto r = run_command(ENGINE, {"analyse", fen, "--depth", "4", "--wdl"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("; win/draw/loss per mille, White's\ndepth   score win/draw/loss     time"), std::string::npos) << r.out;
    std::istringstream lines(r.out);
    int rows = 0;
    for (std::string line; std::getline(lines, line);) {
        int depth = 0, win = -1, draw = -1, loss = -1;
        char score[16];
        if (std::sscanf(line.c_str(), "%d %15s %d/%d/%d", &depth, score, &win, &draw, &loss) != 5) continue;
        ++rows;
        EXPECT_EQ(win + draw + loss, 1000) << line;
        EXPECT_GT(loss, 800) << line;
        EXPECT_LT(win, 50) << line;
    }
    EXPECT_EQ(rows, 4) << r.out;
    EXPECT_NE(r.out.find(" (win/draw/loss "), std::string::npos) << r.out;
    r = run_command(ENGINE, {"analyse", fen, "--depth", "3", "--wdl", "--json", "--multipv", "2"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count_of(r.out, "\"wdl\": ["), 3 * 2 + 1) << r.out;
    const std::size_t result = r.out.find("{\"type\": \"result\"");
    ASSERT_NE(result, std::string::npos) << r.out;
    std::array<int, 3> wdl{};
    ASSERT_EQ(std::sscanf(r.out.c_str() + r.out.find("\"wdl\": [", result), "\"wdl\": [%d, %d, %d]", &wdl[0], &wdl[1], &wdl[2]), 3);
    EXPECT_GT(wdl[2], 800) << r.out;
    // Without --wdl: as before.
    r = run_command(ENGINE, {"analyse", fen, "--depth", "3"});
    EXPECT_EQ(r.out.find("win/draw/loss"), std::string::npos) << r.out;
}

TEST(AnalyseArguments, AnEmptyArgumentIsAnError) {
    auto r = run_command(ENGINE, {"analyse", ""});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("empty argument"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(AnalyseGame, APgnTextGivenByTheCallerIsAnalysedAsTheFileIs) {
    if (test::thread_sanitizer) GTEST_SKIP() << SEARCH_THREADS;
    // The page's path (tools/web): "-" with the PGN handed over instead of standard input, a call before
    // every position. The same JSON as for the file, the start position's eval in it.
    std::ifstream in(data("queen_blunder.pgn"), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const Analysed file = analyse({data("queen_blunder.pgn"), "--json"});
    ASSERT_EQ(file.status, 0) << file.err;
    std::vector<std::string> args = {"-", "--json"};
    args.insert(args.end(), BUDGET.begin(), BUDGET.end());
    std::ostringstream out, err;
    cli::AnalyseSettings settings;
    settings.games_text = &text;
    std::vector<std::array<int, 3>> calls;
    settings.on_position = [&](int game, int position, int positions) { calls.push_back({game, position, positions}); };
    ASSERT_EQ(cli::run_analyse(args, out, err, settings), 0) << err.str();
    EXPECT_EQ(out.str(), file.out);
    ASSERT_EQ(calls.size(), 15u) << "14 moves: 15 positions";
    for (int i = 0; i < 15; ++i) EXPECT_EQ(calls[std::size_t(i)], (std::array<int, 3>{1, i, 15}));
    EXPECT_NE(out.str().find("\"start_eval\": {\"white_cp\": "), std::string::npos) << out.str();
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
