// Every input of the fuzzers' seed corpus (fuzz/corpus/<target>/) and every input a fuzzer once failed
// on (fuzz/regressions/<target>/) run through the same harness as under libFuzzer: the invariants hold,
// and in the sanitizer builds nothing is reported.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "harness.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using quince::fuzz::Target;

namespace {

// Runs every file of fuzz/<folder>/<target>/; returns how many.
int replay(const Target& target, const std::string& folder) {
    const fs::path dir = fs::path(QUINCE_FUZZ_DIR) / folder / target.name;
    if (!fs::is_directory(dir)) return 0;
    int count = 0;
    for (const fs::directory_entry& f : fs::directory_iterator(dir)) {
        if (!f.is_regular_file() || f.path().filename() == "README.md") continue;
        std::ifstream in(f.path(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        EXPECT_TRUE(target.run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()))
            << target.name << ": " << f.path().filename();
        ++count;
    }
    return count;
}

}  // namespace

TEST(Fuzz, SeedCorpusPassesEveryHarness) {
    for (const Target& t : quince::fuzz::targets()) EXPECT_GT(replay(t, "corpus"), 0) << "no seeds for " << t.name;
}

TEST(Fuzz, RegressionInputsPass) {
    int count = 0;
    for (const Target& t : quince::fuzz::targets()) count += replay(t, "regressions");
    EXPECT_GT(count, 0) << "fuzz/regressions/ not found under " << QUINCE_FUZZ_DIR;
}

TEST(Fuzz, EmptyAndBinaryInputs) {
    if (quince::test::thread_sanitizer) GTEST_SKIP() << quince::test::NO_THREAD;
    const std::string inputs[] = {"", std::string("\0\0\0", 3), "\xff\xfe\n\n\r\n", std::string(4096, 'x')};
    for (const Target& t : quince::fuzz::targets())
        for (const std::string& in : inputs)
            EXPECT_TRUE(t.run(reinterpret_cast<const std::uint8_t*>(in.data()), in.size())) << t.name;
}

TEST(Fuzz, UciHarnessSkipsFilesAndLargeResources) {
    using quince::fuzz::uci_line_allowed;
    EXPECT_TRUE(uci_line_allowed("setoption name Hash value 8"));
    EXPECT_FALSE(uci_line_allowed("setoption name Hash value 9"));
    EXPECT_FALSE(uci_line_allowed("setoption name hash value 99999999999999999999999"));
    EXPECT_FALSE(uci_line_allowed("setoption name Threads value 64"));
    EXPECT_FALSE(uci_line_allowed("setoption name EvalFile value /dev/zero"));
    EXPECT_FALSE(uci_line_allowed("setoption name BookFile value /dev/stdin"));
    EXPECT_FALSE(uci_line_allowed("setoption name SyzygyPath value /"));
    EXPECT_FALSE(uci_line_allowed("genfens 100 seed 1 book None"));
    EXPECT_FALSE(uci_line_allowed("genfens 1 seed 1 book /etc/passwd"));
    EXPECT_TRUE(uci_line_allowed("genfens 2 seed 1 book None plies 3"));
    EXPECT_TRUE(uci_line_allowed("go depth 99"));
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
