// Polyglot opening books: the format's published test keys, and a book that Debian's
// `polyglot make-book` builds from a PGN written here (also used by the UCI options' tests at the end).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "board/book.h"
#include "board/notation.h"
#include "uci/uci.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

namespace {

Position after_moves(const std::string& moves) {
    Position p;
    std::istringstream in(moves);
    std::string m;
    while (in >> m) {
        const Move move = uci_to_move(p, m);
        EXPECT_TRUE(move) << m;
        if (!move) break;
        p.do_move(move);
    }
    return p;
}

Position from_fen(const std::string& fen) {
    Position p;
    std::string error;
    EXPECT_TRUE(p.set_fen(fen, false, &error)) << error;
    return p;
}

std::string polyglot_command() {
    for (const char* path : {"/usr/games/polyglot", "/usr/bin/polyglot", "/usr/local/bin/polyglot"})
        if (std::filesystem::exists(path)) return path;
    return "";
}

// Three White wins with 1.e4 e5 2.Nf3 Nc6 3.Bc4 Nf6 4.O-O, two with 1.d4 d5 2.c4, and a draw with
// 1.e4 c5 2.Nf3. Polyglot weighs a move 2 per win and 1 per draw of its side: at the start e4 = 7,
// d4 = 4; after 1.e4 only c5 (1) is kept (e5 lost every game: weight 0, dropped).
const char* TEST_PGN_GAMES[][2] = {
    {"1-0", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Be7"}, {"1-0", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Be7"},
    {"1-0", "1. e4 e5 2. Nf3 Nc6 3. Bc4 Nf6 4. O-O Be7"}, {"1-0", "1. d4 d5 2. c4 e6"},
    {"1-0", "1. d4 d5 2. c4 e6"},                         {"1/2-1/2", "1. e4 c5 2. Nf3 d6"},
};

}  // namespace

// Built by `polyglot make-book` from TEST_PGN_GAMES (skips when Debian's polyglot is missing).
class PolyglotBook : public ::testing::Test {
protected:
    void SetUp() override {
        const std::string exe = polyglot_command();
        if (exe.empty()) GTEST_SKIP() << "Debian's polyglot is not installed (scripts/deps.sh installs it)";
        dir_ = std::filesystem::temp_directory_path() / ("quince_book_test_" + std::to_string(::getpid()));
        std::filesystem::create_directories(dir_);
        std::ofstream pgn(dir_ / "games.pgn");
        int n = 0;
        for (const auto& g : TEST_PGN_GAMES)
            pgn << "[Event \"test " << ++n << "\"]\n[White \"w\"]\n[Black \"b\"]\n[Result \"" << g[0] << "\"]\n\n"
                << g[1] << ' ' << g[0] << "\n\n";
        pgn.close();
        bin_ = (dir_ / "book.bin").string();
        const std::string cmd = exe + " make-book -pgn " + (dir_ / "games.pgn").string() + " -bin " + bin_ +
                                " -min-game 1 > /dev/null 2>&1";
        ASSERT_EQ(std::system(cmd.c_str()), 0);
        std::string error;
        ASSERT_TRUE(book_.open(bin_, &error)) << error;
    }
    void TearDown() override {
        if (!dir_.empty()) std::filesystem::remove_all(dir_);
    }
    std::filesystem::path dir_;
    std::string bin_;
    book::Book book_;
};

TEST(PolyglotKey, PublishedTestKeys) {
    // The test positions of the format's description: after these moves from the start, these keys.
    const std::pair<const char*, Key> cases[] = {
        {"", 0x463b96181691fc9cULL},
        {"e2e4", 0x823c9b50fd114196ULL},
        {"e2e4 d7d5", 0x0756b94461c50fb0ULL},
        {"e2e4 d7d5 e4e5", 0x662fafb965db29d4ULL},
        {"e2e4 d7d5 e4e5 f7f5", 0x22a48b5a8e47ff78ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2", 0x652a607ca3f242c1ULL},
        {"e2e4 d7d5 e4e5 f7f5 e1e2 e8f7", 0x00fdd303c946bdd9ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4", 0x3c8123ea7b067637ULL},
        {"a2a4 b7b5 h2h4 b5b4 c2c4 b4c3 a1a3", 0x5c3f9b829b279560ULL},
    };
    for (const auto& [moves, key] : cases) EXPECT_EQ(book::polyglot_key(after_moves(moves)), key) << moves;
    // The same positions from their FENs (en-passant squares written even when no capture is possible).
    EXPECT_EQ(book::polyglot_key(from_fen("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3")),
              0x22a48b5a8e47ff78ULL);
    EXPECT_EQ(book::polyglot_key(from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")),
              0x823c9b50fd114196ULL);
    EXPECT_EQ(book::polyglot_key(from_fen("rnbqkbnr/p1pppppp/8/8/PpP4P/8/1P1PPPP1/RNBQKBNR b KQkq c3 0 3")),
              0x3c8123ea7b067637ULL);
}

TEST(PolyglotKey, MoveCodesDecodeToLegalMoves) {
    const Position start;
    EXPECT_EQ(move_to_uci(book::decode_move(start, 0x031c), false), "e2e4");
    EXPECT_EQ(move_to_uci(book::decode_move(start, 0x0195), false), "g1f3");
    EXPECT_FALSE(book::decode_move(start, 0x0324));  // e2e5: not legal
    // Castling is king-takes-rook in the book (e1h1, e1a1): Quince's own castling moves.
    const Position castle = from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    const Move oo = book::decode_move(castle, std::uint16_t((4 << 6) | 7));  // e1h1
    ASSERT_TRUE(oo);
    EXPECT_EQ(oo.type(), CASTLING);
    EXPECT_EQ(move_to_uci(oo, false), "e1g1");
    const Move ooo = book::decode_move(castle, std::uint16_t(4 << 6));  // e1a1
    ASSERT_TRUE(ooo);
    EXPECT_EQ(move_to_uci(ooo, false), "e1c1");
    // Promotion: 4 = queen, 1 = knight.
    const Position promo = from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1");
    const std::uint16_t a7a8 = std::uint16_t(((6 * 8) << 6) | (7 * 8));
    EXPECT_EQ(move_to_uci(book::decode_move(promo, std::uint16_t(a7a8 | (4 << 12))), false), "a7a8q");
    EXPECT_EQ(move_to_uci(book::decode_move(promo, std::uint16_t(a7a8 | (1 << 12))), false), "a7a8n");
    EXPECT_FALSE(book::decode_move(promo, a7a8));  // a pawn reaching the last rank must promote
}

TEST_F(PolyglotBook, MovesAndWeightsOfTheBuiltBook) {
    auto moves = book_.moves(Position());
    ASSERT_EQ(moves.size(), 2u);
    EXPECT_EQ(move_to_uci(moves[0].move, false), "e2e4");
    EXPECT_EQ(moves[0].weight, 7);
    EXPECT_EQ(move_to_uci(moves[1].move, false), "d2d4");
    EXPECT_EQ(moves[1].weight, 4);
    moves = book_.moves(after_moves("e2e4"));
    ASSERT_EQ(moves.size(), 1u);
    EXPECT_EQ(move_to_uci(moves[0].move, false), "c7c5");
    // Castling out of the book.
    moves = book_.moves(after_moves("e2e4 e7e5 g1f3 b8c6 f1c4 g8f6"));
    ASSERT_EQ(moves.size(), 1u);
    EXPECT_EQ(moves[0].move.type(), CASTLING);
    EXPECT_EQ(move_to_uci(moves[0].move, false), "e1g1");
    EXPECT_TRUE(book_.moves(after_moves("g1f3")).empty());
}

TEST_F(PolyglotBook, BestAndWeightedRandomChoice) {
    std::mt19937_64 rng(2026);
    const Position start;
    for (int i = 0; i < 20; ++i) EXPECT_EQ(move_to_uci(book_.pick(start, true, rng), false), "e2e4");
    int e4 = 0;
    const int draws = 4000;
    for (int i = 0; i < draws; ++i) {
        const std::string m = move_to_uci(book_.pick(start, false, rng), false);
        ASSERT_TRUE(m == "e2e4" || m == "d2d4") << m;
        e4 += m == "e2e4";
    }
    // 7 / 11 = 0.636; four thousand draws land within 0.03 (about four standard deviations).
    EXPECT_NEAR(double(e4) / draws, 7.0 / 11.0, 0.03);
    EXPECT_FALSE(book_.pick(after_moves("g1f3"), false, rng));
}

TEST_F(PolyglotBook, BadFilesAreRejectedAndTheBookKept) {
    std::string error;
    EXPECT_FALSE(book_.open((dir_ / "missing.bin").string(), &error));
    EXPECT_NE(error.find("cannot open"), std::string::npos) << error;
    // Truncated: the first 20 bytes of the book.
    {
        std::ifstream in(bin_, std::ios::binary);
        std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::ofstream((dir_ / "truncated.bin").string(), std::ios::binary) << bytes.substr(0, 20);
        // Entries out of order: the last entry first.
        std::ofstream((dir_ / "unsorted.bin").string(), std::ios::binary)
            << bytes.substr(bytes.size() - 16) + bytes.substr(0, bytes.size() - 16);
        std::ofstream((dir_ / "empty.bin").string(), std::ios::binary);
    }
    EXPECT_FALSE(book_.open((dir_ / "truncated.bin").string(), &error));
    EXPECT_NE(error.find("not a multiple of 16"), std::string::npos) << error;
    EXPECT_FALSE(book_.open((dir_ / "unsorted.bin").string(), &error));
    EXPECT_NE(error.find("not sorted"), std::string::npos) << error;
    EXPECT_FALSE(book_.open((dir_ / "empty.bin").string(), &error));
    EXPECT_NE(error.find("empty"), std::string::npos) << error;
    EXPECT_FALSE(book_.open(dir_.string(), &error));  // a directory
    // The book read in SetUp is still there.
    EXPECT_EQ(book_.path(), bin_);
    EXPECT_EQ(book_.moves(Position()).size(), 2u);
}

namespace {

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) out.push_back(line);
    return out;
}

}  // namespace

TEST_F(PolyglotBook, UciPlaysBookMovesInGamesOnly) {
    std::ostringstream out;
    uci::Uci u(out);
    u.execute("setoption name BookFile value " + bin_);
    u.execute("setoption name BookBestMove value true");
    u.execute("position startpos");
    u.execute("go depth 3");  // OwnBook is off by default: a search
    u.engine().wait();
    u.execute("setoption name OwnBook value true");
    const std::size_t before = out.str().size();
    u.execute("go wtime 10000 btime 10000");
    // Answered at once, without a search.
    EXPECT_EQ(out.str().substr(before), "info string book move e2e4\nbestmove e2e4\n");
    // Castling from the book, in UCI notation.
    u.execute("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6");
    std::size_t mark = out.str().size();
    u.execute("go depth 3");
    EXPECT_EQ(out.str().substr(mark), "info string book move e1g1\nbestmove e1g1\n");
    // Analysis is not answered from the book.
    u.execute("position startpos");
    mark = out.str().size();
    u.execute("go infinite");
    u.execute("stop");
    u.engine().wait();
    EXPECT_EQ(out.str().find("book move", mark), std::string::npos);
    // BookDepth 1: the book is used for each side's first move only.
    u.execute("setoption name BookDepth value 1");
    u.execute("position startpos moves e2e4 c7c5");
    mark = out.str().size();
    u.execute("go depth 2");
    u.engine().wait();
    EXPECT_EQ(out.str().find("book move", mark), std::string::npos);
    u.execute("setoption name BookDepth value 255");
    mark = out.str().size();
    u.execute("go depth 2");
    EXPECT_EQ(out.str().substr(mark), "info string book move g1f3\nbestmove g1f3\n");
    // Out of book: an ordinary search.
    u.execute("position startpos moves g1f3");
    mark = out.str().size();
    u.execute("go depth 2");
    u.engine().wait();
    EXPECT_EQ(out.str().find("book move", mark), std::string::npos);
    EXPECT_NE(out.str().find("bestmove", mark), std::string::npos);
}

TEST_F(PolyglotBook, UciBadBookFileGivesOneLineAndKeepsTheBook) {
    std::ostringstream out;
    uci::Uci u(out);
    u.execute("setoption name BookFile value " + (dir_ / "missing.bin").string());
    u.execute("setoption name BookFile value " + bin_);
    {
        std::ofstream((dir_ / "truncated.bin").string(), std::ios::binary) << std::string(20, 'x');
    }
    u.execute("setoption name BookFile value " + (dir_ / "truncated.bin").string());
    u.execute("setoption name OwnBook value true");
    u.execute("setoption name BookBestMove value true");
    u.execute("position startpos");
    u.execute("go movetime 1000");
    const auto lines = lines_of(out.str());
    ASSERT_EQ(lines.size(), 5u) << out.str();
    EXPECT_EQ(lines[0], "info string error: setoption: BookFile: cannot open '" + (dir_ / "missing.bin").string() +
                            "'; no book loaded");
    EXPECT_EQ(lines[1], "info string Book: 9 entries in " + bin_);
    EXPECT_EQ(lines[2], "info string error: setoption: BookFile: '" + (dir_ / "truncated.bin").string() +
                            "' is not a Polyglot book (20 bytes, not a multiple of 16: truncated?); still using '" +
                            bin_ + "'");
    EXPECT_EQ(lines[4], "bestmove e2e4");
}

// Book::load reads the same format from memory (the fuzz target's entry point): the book file's bytes
// give the same book as opening the file.
TEST_F(PolyglotBook, LoadFromBytesMatchesOpen) {
    std::ifstream in(bin_, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    book::Book from_bytes;
    std::string error;
    ASSERT_TRUE(from_bytes.load(bytes, "memory", &error)) << error;
    EXPECT_EQ(from_bytes.size(), book_.size());
    EXPECT_EQ(from_bytes.path(), "memory");
    EXPECT_EQ(from_bytes.moves(Position()).size(), book_.moves(Position()).size());
    EXPECT_FALSE(from_bytes.load(bytes.substr(0, 17), "memory", &error));
    EXPECT_EQ(error, "'memory' is not a Polyglot book (17 bytes, not a multiple of 16: truncated?)");
    EXPECT_EQ(from_bytes.size(), book_.size());  // the failed load kept the book
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
