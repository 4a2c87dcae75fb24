// The PGN reader (each construct of real-world files, each kind of error with its game, line and move) and
// the export-format writer (roster, wrapping, round trip).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <sstream>

#include "board/notation.h"
#include "game/pgn.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::game;

namespace {

std::string data_file(const std::string& name) {
    std::ifstream in(std::string(QUINCE_TEST_DATA_DIR) + "/pgn/" + name, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

std::vector<std::string> sans(const Line& line) {
    std::vector<std::string> r;
    for (const PgnMove& m : line) r.push_back(m.san);
    return r;
}

// The error of reading `text`, which must fail; *games gets what was read before it.
PgnError error_of(const std::string& text, std::vector<Game>* games = nullptr) {
    std::vector<Game> local;
    PgnError e;
    EXPECT_FALSE(read_pgn(text, games ? games : &local, &e)) << text;
    return e;
}

const std::string TAGS = "[Event \"e\"]\n[Result \"*\"]\n\n";

}  // namespace

TEST(PgnReader, TagsCommentsVariationsNagsAndNumbers) {
    std::vector<Game> games;
    PgnError e;
    ASSERT_TRUE(read_pgn(data_file("constructs.pgn"), &games, &e)) << e.text();
    ASSERT_EQ(games.size(), 4u);
    const Game& g = games[0];
    EXPECT_EQ(g.tag("White"), "Player, A");
    EXPECT_EQ(g.tag("Black"), "The \"Quoted\" Player");
    EXPECT_EQ(g.tag("ECO"), "C92");
    EXPECT_EQ(g.first_line, 2);
    EXPECT_EQ(g.result, "*");
    EXPECT_EQ(sans(g.moves), (std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7",
                                                        "Re1", "b5", "Bb3", "d6", "c3", "O-O", "h3"}));
    EXPECT_EQ(g.moves[0].comments_before, std::vector<std::string>{"Opening comment"});
    // 3. Bb5 $1 {The Ruy Lopez} (3. Bc4 Bc5 (3... Nf6 4. Ng5 {nested}) 4. c3)
    const PgnMove& bb5 = g.moves[4];
    EXPECT_EQ(bb5.nags, std::vector<int>{1});
    EXPECT_EQ(bb5.comments, std::vector<std::string>{"The Ruy Lopez"});
    ASSERT_EQ(bb5.variations.size(), 1u);
    EXPECT_EQ(sans(bb5.variations[0]), (std::vector<std::string>{"Bc4", "Bc5", "c3"}));
    ASSERT_EQ(bb5.variations[0][1].variations.size(), 1u);
    EXPECT_EQ(sans(bb5.variations[0][1].variations[0]), (std::vector<std::string>{"Nf6", "Ng5"}));
    EXPECT_EQ(bb5.variations[0][1].variations[0][1].comments, std::vector<std::string>{"nested"});
    // 3... a6!? ; a line comment
    EXPECT_EQ(g.moves[5].nags, std::vector<int>{5});
    EXPECT_EQ(g.moves[5].comments, std::vector<std::string>{"a line comment"});
    EXPECT_EQ(g.moves[8].move.type(), CASTLING) << "0-0 with zeros";
}

TEST(PgnReader, CheckMarksAddedNagsAndResults) {
    std::vector<Game> games;
    PgnError e;
    ASSERT_TRUE(read_pgn(data_file("constructs.pgn"), &games, &e)) << e.text();
    const Game& g = games[1];
    EXPECT_EQ(sans(g.moves), (std::vector<std::string>{"e4", "e5", "Qh5", "Nc6", "Bc4", "Nf6", "Qxf7#"}));
    EXPECT_EQ(g.moves[5].nags, std::vector<int>{4});
    EXPECT_EQ(g.result, "1-0");
}

TEST(PgnReader, SetUpFenAndChess960FromTheTags) {
    std::vector<Game> games;
    PgnError e;
    ASSERT_TRUE(read_pgn(data_file("constructs.pgn"), &games, &e)) << e.text();
    const Game& setup = games[2];
    EXPECT_EQ(setup.start().fen(), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40");
    EXPECT_EQ(sans(setup.moves), (std::vector<std::string>{"Kd7", "Kd2", "Kd6"}));
    EXPECT_EQ(setup.moves[2].comments, std::vector<std::string>{"drawn"}) << "a comment after the last move is the move's";
    const Game& c960 = games[3];
    EXPECT_TRUE(c960.chess960());
    ASSERT_EQ(c960.moves.size(), 4u);
    EXPECT_EQ(c960.moves[0].move.type(), CASTLING);
    EXPECT_EQ(c960.moves[1].move.type(), CASTLING);
    EXPECT_EQ(c960.moves[1].san, "O-O-O");
    EXPECT_EQ(move_to_uci(c960.moves[0].move, true), "d1g1") << "king takes its own rook, UCI 960 style";
}

TEST(PgnReader, ByteOrderMarkAndCrlf) {
    std::vector<Game> games;
    PgnError e;
    ASSERT_TRUE(read_pgn(data_file("bom_crlf.pgn"), &games, &e)) << e.text();
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].tag("Event"), "BOM and CRLF");
    EXPECT_EQ(games[0].moves.size(), 7u);
    EXPECT_EQ(games[0].moves[5].nags, std::vector<int>{4});
}

TEST(PgnReader, OverSpecifiedAndGluedForms) {
    std::vector<Game> games;
    PgnError e;
    ASSERT_TRUE(read_pgn(TAGS + "1.e4 e5 2.Ng1f3 Nb8c6 3.Bf1b5 a6 4.Bxc6 dxc6 5.O-O f6 6.d4 exd4 7.Nxd4 ?? c5 "
                                "8.Nd4b3 Qxd1+ 9.Rxd1 *",  // Qxd1 gives no check: a wrong mark is ignored
                         &games, &e))
        << e.text();
    ASSERT_EQ(games[0].moves.size(), 17u);
    EXPECT_EQ(games[0].moves[2].san, "Nf3");
    EXPECT_EQ(games[0].moves[12].nags, std::vector<int>{4}) << "a suffix annotation written apart";
    EXPECT_EQ(games[0].moves[15].san, "Qxd1");
}

TEST(PgnReader, EmptyInputHasNoGame) {
    std::vector<Game> games;
    PgnError e;
    EXPECT_TRUE(read_pgn("", &games, &e));
    EXPECT_TRUE(read_pgn("\n\n; only a comment\n% and an escape\n", &games, &e));
    EXPECT_TRUE(games.empty());
}

TEST(PgnReaderErrors, IllegalMoveNamesGameLineAndMoveAndKeepsTheGamesBefore) {
    std::vector<Game> games;
    const PgnError e = error_of(data_file("second_game_illegal.pgn"), &games);
    EXPECT_EQ(e.game, 2);
    EXPECT_EQ(e.line, 12);
    EXPECT_EQ(e.move, "3... Nf5");
    EXPECT_EQ(e.text().rfind("game 2, line 12: illegal move '3... Nf5' in r1bqkbnr/", 0), 0u) << e.text();
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].tag("Event"), "Fine");
}

TEST(PgnReaderErrors, AmbiguousMove) {
    const PgnError e = error_of(TAGS + "1. Nf3 d5 2. d3 e5\n3. Nd2 *");
    EXPECT_EQ(e.line, 5);
    EXPECT_EQ(e.move, "3. Nd2");
    EXPECT_NE(e.text().find("ambiguous move '3. Nd2' (pieces on b1 and f3 can go to d2)"), std::string::npos) << e.text();
}

TEST(PgnReaderErrors, MalformedTags) {
    PgnError e = error_of("[Event \"x]\n\n1. e4 *");
    EXPECT_EQ(e.text(), "game 1, line 1: malformed tag [Event]: the value's closing quote is missing");
    e = error_of("[Event x]\n\n1. e4 *");
    EXPECT_EQ(e.text(), "game 1, line 1: malformed tag [Event]: expected a quoted value, found 'x'");
    e = error_of("[Event \"a\"]\n[ \"b\"]\n1. e4 *");
    EXPECT_EQ(e.text(), "game 1, line 2: malformed tag: expected a tag name after '[', found '\"'");
    e = error_of("[Event \"a\" x\n1. e4 *");
    EXPECT_EQ(e.text(), "game 1, line 1: malformed tag [Event]: expected ']', found 'x'");
}

TEST(PgnReaderErrors, VariationsNestedTooDeeplyAreRefusedNotRecursedInto) {
    // 64 levels read; a crafted file of 100,000 '(' is an error, not a stack overflow.
    std::string ok = TAGS + "1. e4";
    for (int i = 0; i < 64; ++i) ok += " (1. d4";
    ok += std::string(64, ')') + " *";
    std::vector<Game> games;
    PgnError e;
    EXPECT_TRUE(read_pgn(ok, &games, &e)) << e.text();
    std::string deep = TAGS + "1. e4";
    for (int i = 0; i < 100000; ++i) deep += " (1. d4";
    EXPECT_NE(error_of(deep).text().find("variations nested deeper than 64 levels"), std::string::npos);
}

TEST(PgnReaderErrors, TruncatedFiles) {
    EXPECT_EQ(error_of(TAGS + "1. e4 {never closed\n e5 *").text(), "game 1, line 4: a comment '{' is never closed");
    EXPECT_EQ(error_of(TAGS + "1. e4 (1. d4 d5\n").text(),
              "game 1, line 5: the file ends inside a variation (a ')' is missing)");
}

TEST(PgnReader, MoveListsWithoutAResult) {
    // What people paste, and what a truncated file holds: the game ends at the file's end or the next tags.
    std::vector<Game> games;
    PgnError e;
    ASSERT_TRUE(read_pgn("1. e4 e5 2. Nf3", &games, &e)) << e.text();
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(sans(games[0].moves), (std::vector<std::string>{"e4", "e5", "Nf3"}));
    EXPECT_EQ(games[0].result, "*");
    games.clear();
    ASSERT_TRUE(read_pgn("[Result \"1-0\"]\n\n1. e4 e5 {the end}\n\n" + TAGS + "1. d4 d5\n", &games, &e)) << e.text();
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].result, "1-0") << "the Result tag when the movetext has none";
    EXPECT_EQ(games[0].moves.back().comments, std::vector<std::string>{"the end"});
    EXPECT_EQ(games[1].result, "*");
    EXPECT_EQ(games[1].first_line, 5);
    EXPECT_EQ(sans(games[1].moves), (std::vector<std::string>{"d4", "d5"}));
    games.clear();
    ASSERT_TRUE(read_pgn(TAGS, &games, &e)) << e.text();
    ASSERT_EQ(games.size(), 1u);
    EXPECT_TRUE(games[0].moves.empty());
    games.clear();
    ASSERT_TRUE(read_pgn("1. d4 d5 \xC2\xBD-\xC2\xBD", &games, &e)) << e.text();
    EXPECT_EQ(games[0].result, "1/2-1/2");
}

TEST(PgnReader, LongAlgebraic) {
    std::vector<Game> games;
    PgnError e;
    ASSERT_TRUE(read_pgn("1. e2-e4 d7-d5 2. e4xd5 Ng8-f6 3. Bf1-b5+ c7-c6 4. d5:c6 Qd8-b6 5. c6xb7+ Bc8-d7 "
                         "6. Ng1-f3 Qb6-c5 7. e1-g1 Nb8-a6 8. b7xa8=Q+ Na6-b8 9. d2d4 g7-g6 10. d4-d5 e7-e5 11. d5xe6 e.p. 1-0",
                         &games, &e))
        << e.text();
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(sans(games[0].moves),
              (std::vector<std::string>{"e4", "d5", "exd5", "Nf6", "Bb5+", "c6", "dxc6", "Qb6", "cxb7+", "Bd7", "Nf3",
                                        "Qc5", "O-O", "Na6", "bxa8=Q+", "Nb8", "d4", "g6", "d5", "e5", "dxe6"}));
    // A wrong piece letter or an illegal move in long form is an error as in SAN.
    EXPECT_EQ(error_of("1. Bg1-f3 *").text(), "game 1, line 1: illegal move '1. Bg1-f3' in " + Position().fen());
    EXPECT_EQ(error_of("1. e2-e5 *").text(), "game 1, line 1: illegal move '1. e2-e5' in " + Position().fen());
}

TEST(PgnReader, ABadGameIsSkippedAndTheOthersRead) {
    const std::string text = "[Event \"one\"]\n\n1. e4 e5 1-0\n\n"            // lines 1-3
                             "[Event \"two\"]\n\n1. e4 e5 2. Ke3 Nc6 0-1\n\n"   // 5-7: illegal move
                             "[Event \"three]\n[Site \"x\"]\n\n1. d4 *\n\n"       // 9-12: malformed tag
                             "[Event \"four\"]\n\n1. c4 (1. d4 \n\n"             // 14-16: variation not closed
                             "[Event \"five\"]\n\n1. Nf3 d5 *\n";                // 18-20
    std::vector<Game> games;
    const std::vector<PgnError> errors = read_pgn_games(text, &games);
    ASSERT_EQ(games.size(), 2u);
    EXPECT_EQ(games[0].tag("Event"), "one");
    EXPECT_EQ(games[0].number, 1);
    EXPECT_EQ(games[1].tag("Event"), "five");
    EXPECT_EQ(games[1].number, 5);
    EXPECT_EQ(games[1].first_line, 18);
    EXPECT_EQ(sans(games[1].moves), (std::vector<std::string>{"Nf3", "d5"}));
    ASSERT_EQ(errors.size(), 3u);
    EXPECT_EQ(errors[0].text().rfind("game 2, line 7: illegal move '2. Ke3' in ", 0), 0u) << errors[0].text();
    EXPECT_EQ(errors[1].text(), "game 3, line 9: malformed tag [Event]: the value's closing quote is missing");
    EXPECT_EQ(errors[2].text(), "game 4, line 18: the game's next tags come inside a variation (a ')' is missing)");
    // Each bad game's text, as the file has it, up to the next game.
    auto text_of = [&](const PgnError& e) { return text.substr(e.begin, e.end - e.begin); };
    EXPECT_EQ(text_of(errors[0]), "[Event \"two\"]\n\n1. e4 e5 2. Ke3 Nc6 0-1\n\n");
    EXPECT_EQ(text_of(errors[1]), "[Event \"three]\n[Site \"x\"]\n\n1. d4 *\n\n");
    EXPECT_EQ(text_of(errors[2]), "[Event \"four\"]\n\n1. c4 (1. d4 \n\n");
    // The strict reader stops at the first of them.
    games.clear();
    EXPECT_EQ(error_of(text, &games).game, 2);
    EXPECT_EQ(games.size(), 1u);
    // Binary garbage after a game: reported, the game before kept; errors on the tags name the tag's line.
    games.clear();
    const std::vector<PgnError> garbage = read_pgn_games(TAGS + "1. e4 *\n\n\x01\x02 garbage\n\n" + TAGS + "1. d4 *", &games);
    ASSERT_EQ(garbage.size(), 1u);
    EXPECT_EQ(garbage[0].line, 6);
    const std::string with_garbage = TAGS + "1. e4 *\n\n\x01\x02 garbage\n\n" + TAGS + "1. d4 *";
    EXPECT_EQ(with_garbage.substr(garbage[0].begin, garbage[0].end - garbage[0].begin), "\x01\x02 garbage\n\n");
    EXPECT_EQ(games.size(), 2u);
    games.clear();
    const std::vector<PgnError> fen = read_pgn_games("[Event \"a\"]\n[FEN \"8/8 w\"]\n\n1. e4 *\n\n" + TAGS + "1. d4 *", &games);
    ASSERT_EQ(fen.size(), 1u);
    EXPECT_EQ(fen[0].line, 2);
    ASSERT_EQ(games.size(), 1u);
    EXPECT_EQ(games[0].first_line, 6);
}

TEST(PgnReader, NullMovesInVariations) {
    // "--", "Z0" and "0000": the side to move passes, the variation goes on from there.
    std::vector<Game> games;
    PgnError e;
    EXPECT_FALSE(read_pgn(data_file("null_moves.pgn"), &games, &e));  // at game 2's main line: the next test
    EXPECT_EQ(e.game, 2);
    ASSERT_EQ(games.size(), 1u);
    const Game& g = games[0];
    EXPECT_EQ(sans(g.moves), (std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O"}));
    EXPECT_EQ(g.moves_before_null(), g.moves.size());
    ASSERT_EQ(g.moves[5].variations.size(), 1u);
    const Line& threat = g.moves[5].variations[0];
    EXPECT_EQ(sans(threat), (std::vector<std::string>{"--", "Bxc6", "dxc6", "Nxe5"}));
    EXPECT_TRUE(threat[0].is_null());
    EXPECT_EQ(threat[0].move, Move::null());
    EXPECT_FALSE(threat[1].is_null());
    const Line& again = g.moves[7].variations[0];
    EXPECT_EQ(sans(again), (std::vector<std::string>{"--", "Bxc6", "dxc6"}));
    EXPECT_EQ(again[0].comments, std::vector<std::string>{"again"});
    EXPECT_EQ(sans(again[1].variations[0]), (std::vector<std::string>{"--", "d6"}));
    // Written as "--", numbered on, and read back the same.
    const std::string written = write_pgn(g);
    std::string one_line = written;
    std::replace(one_line.begin(), one_line.end(), '\n', ' ');
    EXPECT_NE(one_line.find("(3... -- 4. Bxc6 dxc6 5. Nxe5)"), std::string::npos) << written;
    EXPECT_NE(one_line.find("(4... -- { again } 5. Bxc6 (5. -- d6) 5... dxc6)"), std::string::npos) << written;
    std::vector<Game> again_read;
    ASSERT_TRUE(read_pgn(written, &again_read, &e)) << e.text();
    EXPECT_EQ(write_pgn(again_read[0]), written);
    EXPECT_EQ(sans(again_read[0].moves[5].variations[0]), sans(threat));
    // "0000" too; a null move in check is no move at all.
    ASSERT_TRUE(read_pgn(TAGS + "1. e4 (1. 0000 e5) e5 *", &again_read, &e)) << e.text();
    EXPECT_EQ(error_of(TAGS + "1. e4 f6 2. Qh5+ g6 (2... -- 3. Qxe8) *").text(),
              "game 1, line 4: null move '2... --' while in check");
}

TEST(PgnReader, NullMovesInTheMainLineWhenAsked) {
    // The main line's null move: an error for a reader of games (a game is made of moves), read when the
    // caller asks, the moves before it then the game.
    const std::string text = data_file("null_moves.pgn");
    std::vector<Game> games;
    const std::vector<PgnError> errors = read_pgn_games(text, &games);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].text(), "game 2, line 12: null move '3... --' in the main line (only a variation may hold one)");
    games.clear();
    ReadOptions options;
    options.null_moves_in_main_line = true;
    EXPECT_TRUE(read_pgn_games(text, &games, options).empty());
    ASSERT_EQ(games.size(), 2u);
    const Game& g = games[1];
    EXPECT_EQ(sans(g.moves), (std::vector<std::string>{"d4", "d5", "c4", "e6", "Nc3", "--", "e4", "dxe4"}));
    EXPECT_EQ(g.moves_before_null(), 5u);
    EXPECT_NE(write_pgn(g).find("3. Nc3 -- 4. e4 dxe4 *"), std::string::npos) << write_pgn(g);
    std::vector<Game> z0;
    PgnError e;
    EXPECT_TRUE(read_pgn(TAGS + "1. e4 Z0 2. d4 *", &z0, &e, options)) << e.text();
    EXPECT_EQ(z0[0].moves_before_null(), 1u);
    EXPECT_EQ(z0[0].moves.size(), 3u);
}

TEST(PgnReaderErrors, BinaryGarbage) {
    std::vector<Game> games;
    PgnError e = error_of(TAGS + "1. e4 *\n\n\x01\x02\xff\xfe garbage", &games);
    EXPECT_EQ(e.game, 2);
    EXPECT_EQ(e.line, 6);
    EXPECT_NE(e.text().find("unexpected character '\\x01' (binary data?)"), std::string::npos) << e.text();
    EXPECT_EQ(games.size(), 1u);
    e = error_of(std::string("\x89PNG\r\n\x1a\n", 8));
    EXPECT_EQ(e.game, 1);
    EXPECT_NE(e.text().find("unexpected character"), std::string::npos) << e.text();
}

TEST(PgnReaderErrors, StructureAndAnnotations) {
    EXPECT_EQ(error_of(TAGS + "1. e4 e5 )").text(), "game 1, line 4: ')' without a variation to close");
    EXPECT_EQ(error_of(TAGS + "(1. d4) 1. e4 *").text(), "game 1, line 4: a variation '(' before any move");
    EXPECT_EQ(error_of(TAGS + "1. e4 () *").text(), "game 1, line 4: an empty variation '()'");
    EXPECT_EQ(error_of(TAGS + "1. e4 $300 *").text(), "game 1, line 4: a NAG must be $0..$255, found '$300'");
    EXPECT_EQ(error_of(TAGS + "1. e4 e5 2. Nf3!!? *").text(), "game 1, line 4: move '2. Nf3!!?': unknown annotation '!!?'");
    EXPECT_EQ(error_of(TAGS + "1. e4 -- *").text(), "game 1, line 4: null move '1... --' in the main line (only a variation may hold one)");
    EXPECT_EQ(error_of(TAGS + "1 e4 *").text(), "game 1, line 4: unexpected number '1' (a move number needs a '.')");
    EXPECT_EQ(error_of(TAGS + "1. e4 (1. d4 1-0) *").text(),
              "game 1, line 4: a result '1-0' inside a variation (a ')' is missing)");
}

TEST(PgnReaderErrors, UnsupportedVariantAndBadFen) {
    EXPECT_EQ(error_of("[Variant \"Crazyhouse\"]\n\n1. e4 *").text(),
              "game 1, line 1: variant 'Crazyhouse' is not supported (standard chess and Chess960 are)");
    EXPECT_EQ(error_of("[FEN \"8/8/8 w - - 0 1\"]\n\n1. e4 *").text().rfind("game 1, line 1: bad FEN tag: ", 0), 0u);
    EXPECT_EQ(error_of("[Variant \"Chess960\"]\n\n1. e4 *").text(),
              "game 1, line 1: a Chess960 game needs a FEN tag (its start position)");
}

TEST(PgnWriter, SevenTagRosterFirstThenTheOthers) {
    Game g;
    g.tags = {{"ECO", "C20"}, {"White", "Me"}, {"Event", "Club"}};
    g.result = "1-0";
    const std::string text = write_pgn(g);
    EXPECT_EQ(text,
              "[Event \"Club\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n[White \"Me\"]\n[Black \"?\"]\n"
              "[Result \"1-0\"]\n[ECO \"C20\"]\n\n1-0\n\n");
}

TEST(PgnWriter, NumbersAfterCommentsAndVariationsAndLinesWithin80Columns) {
    std::vector<Game> games;
    PgnError e;
    ASSERT_TRUE(read_pgn(data_file("constructs.pgn"), &games, &e)) << e.text();
    const std::string text = write_pgn(games[0]);
    std::string flat = text;  // the line breaks as blanks
    std::replace(flat.begin(), flat.end(), '\n', ' ');
    EXPECT_NE(text.find("\n5. O-O Be7"), std::string::npos) << "a number stays with its move\n" << text;
    EXPECT_NE(flat.find("{ Opening comment } 1. e4 e5 2. Nf3 Nc6 3. Bb5 $1 { The Ruy Lopez } (3. Bc4 Bc5 (3... Nf6"),
              std::string::npos)
        << text;
    EXPECT_NE(flat.find("4. Ng5 { nested }) 4. c3) 3... a6 $5 { a line comment } 4. Ba4"), std::string::npos) << text;
    std::istringstream lines(text);
    for (std::string l; std::getline(lines, l);) EXPECT_LE(l.size(), 79u) << l;
    EXPECT_NE(write_pgn(games[2]).find("\n40... Kd7 41. Kd2 Kd6 { drawn } 1/2-1/2\n"), std::string::npos);
    WriteOptions symbolic;
    symbolic.symbolic_nags = true;
    EXPECT_NE(write_pgn(games[1], symbolic).find("3. Bc4 Nf6?? 4. Qxf7# 1-0"), std::string::npos);
}

// quince-match's games: comments as {text}, no number repeated after a comment, lines broken anywhere
// between words (cutechess-cli's movetext, which the scripts that read match games expect).
TEST(PgnWriter, CutechessMovetext) {
    Game g;
    g.result = "1-0";
    Position pos;
    for (const char* san : {"e4", "e5", "Nf3", "Nc6", "Bb5"}) {
        PgnMove m;
        m.move = san_to_move(pos, san);
        m.san = san;
        m.comments.push_back(std::string(san) == "Nc6" ? "book" : "+0.35/9 0.004s");
        pos.do_move(m.move);
        g.moves.push_back(m);
    }
    g.final_comments.push_back("White wins by adjudication");
    WriteOptions cutechess;
    cutechess.cutechess = true;
    const std::string text = write_pgn(g, cutechess);
    EXPECT_NE(text.find("\n\n1. e4 {+0.35/9 0.004s} e5 {+0.35/9 0.004s} 2. Nf3 {+0.35/9 0.004s} Nc6 {book}\n"
                        "3. Bb5 {+0.35/9 0.004s} {White wins by adjudication} 1-0\n\n"),
              std::string::npos)
        << text;
    EXPECT_NE(write_pgn(g).find("1. e4 { +0.35/9 0.004s } 1... e5"), std::string::npos);  // the export format's
    std::vector<Game> again;
    PgnError e;
    ASSERT_TRUE(read_pgn(text, &again, &e)) << e.text();
    ASSERT_EQ(again.size(), 1u);
    EXPECT_EQ(sans(again[0].moves), sans(g.moves));
    EXPECT_EQ(again[0].moves[3].comments, (std::vector<std::string>{"book"}));
    // The reader gives a comment after the last move to that move.
    EXPECT_EQ(again[0].moves.back().comments, (std::vector<std::string>{"+0.35/9 0.004s", "White wins by adjudication"}));
    // A line may end between a number and its move, or inside a comment.
    cutechess.max_line = 12;
    std::istringstream lines(write_pgn(g, cutechess));
    std::vector<std::string> movetext;
    for (std::string l; std::getline(lines, l);)
        if (!l.empty() && l[0] != '[') movetext.push_back(l);
    EXPECT_EQ(movetext[0], "1. e4");
    EXPECT_EQ(movetext[1], "{+0.35/9");
    EXPECT_EQ(movetext[2], "0.004s} e5");
}

TEST(PgnWriter, LongCommentsAreWrappedAtBlanks) {
    Game g;
    PgnMove m;
    m.move = san_to_move(Position(), "e4");
    m.san = "e4";
    for (int i = 0; i < 60; ++i) m.comments.push_back(i % 2 ? "a fairly long comment about this move" : "x");
    g.moves.push_back(m);
    std::istringstream lines(write_pgn(g));
    int n = 0;
    for (std::string l; std::getline(lines, l); ++n) EXPECT_LE(l.size(), 79u) << l;
    EXPECT_GT(n, 20);
}

TEST(PgnWriter, RoundTripKeepsEverything) {
    for (const char* file : {"constructs.pgn", "bom_crlf.pgn", "queen_blunder.pgn"}) {
        std::vector<Game> games, again;
        PgnError e;
        ASSERT_TRUE(read_pgn(data_file(file), &games, &e)) << e.text();
        std::string written;
        for (const Game& g : games) written += write_pgn(g);
        ASSERT_TRUE(read_pgn(written, &again, &e)) << file << ": " << e.text() << "\n" << written;
        ASSERT_EQ(again.size(), games.size());
        std::string rewritten;
        for (const Game& g : again) rewritten += write_pgn(g);
        EXPECT_EQ(rewritten, written) << file;
        for (std::size_t i = 0; i < games.size(); ++i) {
            EXPECT_EQ(sans(again[i].moves), sans(games[i].moves));
            EXPECT_EQ(again[i].result, games[i].result);
            EXPECT_EQ(again[i].start().fen(), games[i].start().fen());
            for (const auto& [name, value] : games[i].tags) EXPECT_EQ(again[i].tag(name), value) << name;
        }
    }
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
