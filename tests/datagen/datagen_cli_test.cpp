// `quince datagen` in-process: the command line of the PGN import (what it prints, what the manifest records),
// and the import reading its files with the library's PGN reader (src/game/pgn.h).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "datagen/datagen.h"
#include "datagen/datagen_cli.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using namespace quince;
using namespace quince::datagen;

namespace {

std::string temp_dir(const std::string& name) {
    fs::path p = fs::temp_directory_path() / ("quince_datagen_cli_test_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(p);
    return p.string();
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

TEST(DatagenCli, FromPgnPrintsTheCountsAndRecordsTheCommand) {
    const std::string dir = temp_dir("from-pgn");
    const std::string pgn = std::string(QUINCE_DATAGEN_TEST_DATA_DIR) + "/scores.pgn";
    std::ostringstream out, err;
    ASSERT_EQ(run_datagen_cli({"--from-pgn", pgn, "--out", dir, "--games-per-shard", "1", "--hash", "1"}, out, err), 0)
        << err.str();
    EXPECT_EQ(out.str().rfind("games 4: used 2, unfinished (*) 1, malformed 1; positions written 6, duplicates 0, "
                              "teacher mates 0\nsha256 ",
                              0),
              0u)
        << out.str();
    const std::string said = err.str();
    EXPECT_EQ(said.rfind("skipped: " + pgn + ": game 3: illegal move '1... Ke7' in ", 0), 0u) << said;
    EXPECT_EQ(std::count(said.begin(), said.end(), '\n'), 1) << said;
    // One game a shard: the two games used.
    EXPECT_TRUE(fs::exists(shard_path(dir, 1)));
    EXPECT_FALSE(fs::exists(shard_path(dir, 2)));
    EXPECT_NE(read_all(dir + "/manifest.txt").find("command: quince datagen --from-pgn " + pgn + " --out " + dir +
                                                   " --games-per-shard 1 --hash 1\n"),
              std::string::npos)
        << read_all(dir + "/manifest.txt");
    fs::remove_all(dir);
}

// The games of a file as the PGN reader finds them: one after another without tags between them (as pasted
// movetext comes) is two games, each used; a malformed game is named by its number in the file, in file order
// with the other skipped games.
TEST(DatagenPgn, GamesAreTheReadersAndErrorsComeInFileOrder) {
    const std::string dir = temp_dir("reader");
    fs::create_directories(dir);
    const std::string pgn = dir + "/games.pgn";
    std::ofstream(pgn) << "1. e4 {+0.30/9 0.01s} e5 {-0.10/9 0.01s} 1-0\n"
                          "1. d4 {+0.20/9 0.01s} d5 {-0.05/9 0.01s} 0-1\n\n"
                          "[Result \"1-0\"]\n\n1. e4 Ke7 1-0\n\n"
                          "[Result \"1-1\"]\n\n1. c4 {+0.10/9 0.01s} *\n\n"
                          "[Result \"1/2-1/2\"]\n\n1. Nf3 {+0.15/9 0.01s} Nf6 {-0.15/9 0.01s} 1/2-1/2\n";
    PgnImportConfig c;
    c.files = {pgn};
    c.out_dir = dir + "/out";
    c.hash_mb = 1;
    PgnImportSummary s;
    std::string error;
    ASSERT_TRUE(import_pgn(c, &s, &error)) << error;
    EXPECT_EQ(s.games, 5);
    EXPECT_EQ(s.games_used, 3);
    EXPECT_EQ(s.games_malformed, 2);
    ASSERT_EQ(s.errors.size(), 2u);
    EXPECT_EQ(s.errors[0].rfind(pgn + ": game 3: illegal move '1... Ke7' in ", 0), 0u) << s.errors[0];
    EXPECT_EQ(s.errors[1], pgn + ": game 4: unknown result '1-1'");
    EXPECT_GT(s.positions, 0);
    fs::remove_all(dir);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
