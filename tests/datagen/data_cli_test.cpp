// `quince data info|dump` through the executable: counts, the JSON keys, the dump's lines, and a damaged
// shard named in the error.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "datagen/datagen.h"
#include "support/run_command.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using namespace quince;

namespace {

std::string make_set(const std::string& name) {
    const fs::path root = fs::temp_directory_path() / ("quince_data_cli_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(root);
    datagen::SelfPlayConfig c;
    c.out_dir = (root / "run").string();
    c.seed = 11;
    c.nodes = 300;
    c.games = 3;
    c.games_per_shard = 1;
    c.sample = 5;
    c.opening.verify_nodes = 200;
    c.hash_mb = 1;
    c.progress = false;
    datagen::RunSummary s;
    std::string error;
    EXPECT_TRUE(datagen::run_selfplay(c, &s, &error)) << error;
    EXPECT_GT(s.positions, 0);
    return root.string();
}

}  // namespace

TEST(DataCli, InfoCountsAndDumpPrintsEveryLabelledPosition) {
    const std::string set = make_set("info");
    test::CommandResult r = test::run_command(QUINCE_ENGINE_PATH, {"data", "info", "--json", set});
    ASSERT_EQ(r.status, 0) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\"games\": (\\d+), \"positions\": (\\d+)"))) << r.out;
    EXPECT_EQ(m[1].str(), "3");
    const int positions = std::stoi(m[2].str());
    EXPECT_GT(positions, 0);
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\"bytes\": (\\d+)"))) << r.out;
    std::int64_t bytes = 0;
    for (const auto& e : fs::recursive_directory_iterator(set))
        if (e.is_regular_file()) bytes += std::int64_t(e.file_size());
    EXPECT_EQ(std::stoll(m[1].str()), bytes);
    EXPECT_NE(r.out.find("\"problems\": []"), std::string::npos) << r.out;
    // Plies and quiet plies: the bytes per stored ply and per position a trainer reading quiet plies takes
    // (as many as `dump --quiet-plies` prints), for the set and for each folder.
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\"plies\": (\\d+), \"quiet_plies\": (\\d+)"))) << r.out;
    const std::int64_t plies = std::stoll(m[1].str()), quiet = std::stoll(m[2].str());
    EXPECT_GT(plies, quiet);
    test::CommandResult q = test::run_command(QUINCE_ENGINE_PATH, {"data", "dump", "--quiet-plies", set});
    ASSERT_EQ(q.status, 0) << q.err;
    EXPECT_EQ(std::count(q.out.begin(), q.out.end(), '\n'), quiet);
    ASSERT_TRUE(std::regex_search(r.out, m, std::regex("\"bytes_per_ply\": ([0-9.]+), \"bytes_per_quiet_ply\": ([0-9.]+)")))
        << r.out;
    EXPECT_NEAR(std::stod(m[1].str()), double(bytes) / double(plies), 0.001);
    EXPECT_NEAR(std::stod(m[2].str()), double(bytes) / double(quiet), 0.001);
    EXPECT_NE(r.out.find("\"quiet_plies\": " + std::to_string(quiet) + ", \"shard_bytes\""), std::string::npos) << r.out;

    r = test::run_command(QUINCE_ENGINE_PATH, {"data", "dump", set});
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(r.out);
    int n = 0;
    for (std::string line; std::getline(lines, line); ++n)
        EXPECT_TRUE(std::regex_match(line, std::regex(".+ [wb] .+ \\| -?\\d+ \\| (1-0|0-1|1/2-1/2)"))) << line;
    EXPECT_EQ(n, positions);
    r = test::run_command(QUINCE_ENGINE_PATH, {"data", "dump", "--limit", "2", "--json", set});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 2);
    EXPECT_NE(r.out.find("\"move\": \""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"score\": "), std::string::npos) << r.out;
    fs::remove_all(set);
}

TEST(DataCli, DamagedShardsAndBadArgumentsAreNamed) {
    const std::string set = make_set("bad");
    const std::string shard = set + "/run/shard-00001.qtd.xz";
    ASSERT_TRUE(fs::exists(shard));
    // One byte changed: the manifest's SHA-256 and xz's check both fail; the other shards still count.
    std::string bytes;
    {
        std::ifstream in(shard, std::ios::binary);
        bytes.assign(std::istreambuf_iterator<char>(in), {});
    }
    bytes[bytes.size() / 2] ^= 0x55;
    std::ofstream(shard, std::ios::binary | std::ios::trunc) << bytes;
    test::CommandResult r = test::run_command(QUINCE_ENGINE_PATH, {"data", "info", set});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("shard-00001.qtd.xz"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find("games      2"), std::string::npos) << r.out;
    r = test::run_command(QUINCE_ENGINE_PATH, {"data", "dump", set});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("shard-00001.qtd.xz"), std::string::npos) << r.err;
    r = test::run_command(QUINCE_ENGINE_PATH, {"data", "dump", "--limit", "x", set});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--limit"), std::string::npos) << r.err;
    r = test::run_command(QUINCE_ENGINE_PATH, {"data", "info", set + "/nothing"});
    EXPECT_EQ(r.status, 1);
    EXPECT_NE(r.err.find("nothing"), std::string::npos) << r.err;
    r = test::run_command(QUINCE_ENGINE_PATH, {"data", "frobnicate"});
    EXPECT_EQ(r.status, 2);
    fs::remove_all(set);
}

// The default set, data/training, is named relative to the current folder: run elsewhere, the error says
// there is none here and how to name one.
TEST(DataCli, NoDefaultSetHereSaysHowToNameOne) {
    const fs::path empty = fs::temp_directory_path() / ("quince_data_cli_" + std::to_string(::getpid()) + "_empty");
    fs::create_directories(empty);
    for (const char* what : {"info", "dump"}) {
        test::CommandResult r = test::run_command(
            "/bin/sh", {"-c", "cd \"$1\" && exec \"$0\" data " + std::string(what), QUINCE_ENGINE_PATH, empty.string()});
        EXPECT_EQ(r.status, 1) << what;
        EXPECT_TRUE(r.out.empty()) << r.out;
        EXPECT_NE(r.err.find("error: no data/training folder here"), std::string::npos) << r.err;
        EXPECT_NE(r.err.find("quince data " + std::string(what) + " DIR|FILE..."), std::string::npos) << r.err;
    }
    fs::remove_all(empty);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
