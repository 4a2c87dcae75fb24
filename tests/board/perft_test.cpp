// Perft over the CI perft suites: every position, every depth whose count fits the node budget.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "board/movegen.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;

namespace {

struct PerftCase {
    std::string fen;
    std::vector<std::pair<int, std::uint64_t>> depths;
};

std::vector<PerftCase> load(const std::string& file) {
    std::ifstream in(std::string(QUINCE_TEST_DATA_DIR) + "/" + file);
    std::vector<PerftCase> cases;
    std::string line;
    while (std::getline(in, line)) {
        std::size_t semi = line.find(';');
        if (semi == std::string::npos) continue;
        PerftCase c;
        c.fen = line.substr(0, semi);
        std::istringstream rest(line.substr(semi));
        std::string tok;
        while (rest >> tok) {
            if (tok[0] == ';') tok = tok.substr(1);
            if (tok.size() >= 2 && tok[0] == 'D') {
                int d = std::stoi(tok.substr(1));
                std::uint64_t n;
                rest >> n;
                c.depths.emplace_back(d, n);
            }
        }
        cases.push_back(c);
    }
    return cases;
}

// Sanitizer builds run ~20x slower: QUINCE_PERFT_BUDGET lowers the per-entry node limit.
std::uint64_t node_budget(std::uint64_t normal) {
    const char* env = std::getenv("QUINCE_PERFT_BUDGET");
    return env ? std::strtoull(env, nullptr, 10) : normal;
}

void run_suite(const std::string& file, bool chess960, std::uint64_t budget, std::size_t min_positions) {
    auto cases = load(file);
    ASSERT_GE(cases.size(), min_positions) << file << " not found or truncated";
    std::size_t checked = 0;
    for (const auto& c : cases) {
        Position pos;
        std::string error;
        ASSERT_TRUE(pos.set_fen(c.fen, chess960, &error)) << c.fen << ": " << error;
        for (auto [depth, expected] : c.depths) {
            if (expected > budget && depth > 1) continue;
            EXPECT_EQ(perft(pos, depth), expected) << c.fen << " depth " << depth;
            ++checked;
        }
        std::string why;
        EXPECT_TRUE(pos.is_consistent(&why)) << why;
    }
    EXPECT_GT(checked, cases.size());
}

}  // namespace

TEST(Perft, StandardSuite) { run_suite("perft.epd", false, node_budget(20'000'000), 171); }

TEST(Perft, Chess960Suite) { run_suite("perft-chess960.epd", true, node_budget(2'000'000), 960); }

}  // namespace QUINCE_TEST_FILE
}  // namespace
