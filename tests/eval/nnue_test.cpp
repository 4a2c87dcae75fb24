// Profile nnue's network (src/eval/nnue/): the net file is refused when wrong, truncated or damaged, and
// nothing else; the incrementally updated accumulators equal a refresh over a million random moves, unmoves
// and null moves (a tenth of them in the sanitizer builds); the SIMD code equals the scalar code; the
// evaluation is colour-symmetric; EvalFile-style loading gives a network evaluation. The WebAssembly build
// runs this file too, under Node.js (tests/web/CMakeLists.txt).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <vector>

#include "board/movegen.h"
#include "board/notation.h"
#include "core/random.h"
#include "eval/evaluate.h"
#include "eval/evaluation.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/network.h"
#include "eval/profile.h"
#include "support/sanitized.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;
using namespace quince::eval::nnue;

namespace {

// A random net within the loader's bounds (|bias| + 32 * |weight| <= 32767, |output weight| <= 128), with
// large enough weights that the activations are often clipped at both ends.
std::string random_net_bytes(std::uint64_t seed, const std::string& description = "test net") {
    SplitMix64 rng(seed);
    auto r = [&rng](int lo, int hi) { return int(rng.below(std::uint64_t(hi - lo + 1))) + lo; };
    std::vector<std::int16_t> ft_w(std::size_t(INPUTS) * HIDDEN), ft_b(HIDDEN), out_w(2 * HIDDEN);
    for (auto& w : ft_w) w = std::int16_t(r(-500, 500));
    for (auto& b : ft_b) b = std::int16_t(r(-300, 600));
    for (auto& w : out_w) w = std::int16_t(r(-MAX_OUT_WEIGHT, MAX_OUT_WEIGHT));
    return serialise_network(ft_w.data(), ft_b.data(), out_w.data(), r(-200000, 200000), description);
}

std::shared_ptr<const nnue::Network> random_net(std::uint64_t seed) {
    const std::string bytes = random_net_bytes(seed);
    std::string error;
    auto net = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &error);
    EXPECT_TRUE(net) << error;
    return net;
}

std::string parse_error(const std::string& bytes) {
    std::string error;
    auto net = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &error);
    return net ? std::string() : error;
}

void put_u32(std::string& s, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) s[at + std::size_t(i)] = char((v >> (8 * i)) & 0xff);
}
// After editing a field: a fresh checksum, so that the loader gets past its integrity check.
void reseal(std::string& s) {
    const std::uint64_t h = fnv1a64(reinterpret_cast<const std::uint8_t*>(s.data()), s.size() - 8);
    put_u32(s, s.size() - 8, std::uint32_t(h));
    put_u32(s, s.size() - 4, std::uint32_t(h >> 32));
}
constexpr std::size_t DESCRIPTION_AT = 36;

bool same(const Accumulator& a, const Accumulator& b) { return std::memcmp(a.v, b.v, sizeof a.v) == 0; }

}  // namespace

TEST(NnueNet, RoundTripKeepsEveryParameter) {
    const std::string bytes = random_net_bytes(1, "trained on nothing");
    std::string error;
    auto net = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &error);
    ASSERT_TRUE(net) << error;
    EXPECT_EQ(net->description, "trained on nothing");
    EXPECT_EQ(serialise_network(net->ft_weights, net->ft_bias, net->out_weights, net->out_bias, net->description), bytes);
    // Header (magic and eight 32-bit fields), the int16 parameters, the int32 output bias, the checksum.
    const std::size_t params = 2 * (std::size_t(INPUTS) * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;
    EXPECT_EQ(bytes.size(), 36 + params + 8 + net->description.size());
}

TEST(NnueNet, RefusesWrongFilesNamingWhatIsWrong) {
    const std::string good = random_net_bytes(2, "d");
    ASSERT_EQ(parse_error(good), "");
    EXPECT_NE(parse_error("").find("not a Quince net file"), std::string::npos);
    EXPECT_NE(parse_error("#weights\nfoo 1\n").find("not a Quince net file"), std::string::npos);
    // Every truncation is refused (the header, the description, the parameters, the checksum).
    for (std::size_t n : {std::size_t(4), std::size_t(20), std::size_t(36), std::size_t(37), std::size_t(1000),
                          good.size() / 2, good.size() - 9, good.size() - 1})
        EXPECT_NE(parse_error(good.substr(0, n)), "") << n;
    EXPECT_NE(parse_error(good.substr(0, good.size() - 1)).find("truncated"), std::string::npos);
    EXPECT_NE(parse_error(good + "x").find("after the end"), std::string::npos);
    // A flipped bit anywhere: the checksum.
    for (std::size_t at : {std::size_t(40), std::size_t(5000), good.size() - 20, good.size() - 3}) {
        std::string bad = good;
        bad[at] = char(bad[at] ^ 0x10);
        EXPECT_NE(parse_error(bad), "") << at;
    }
    std::string bad = good;
    bad[1000] ^= 1;
    EXPECT_NE(parse_error(bad).find("checksum"), std::string::npos);
    // Version and architecture fields (checksum made valid: the field itself is refused).
    bad = good;
    put_u32(bad, 4, 2);
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("format version 2"), std::string::npos);
    bad = good;
    put_u32(bad, 12, 2 * HIDDEN);
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("hidden " + std::to_string(2 * HIDDEN)), std::string::npos);
    bad = good;
    put_u32(bad, 20, 127);
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("QA 127"), std::string::npos);
    bad = good;
    put_u32(bad, 32, 100000);
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("description"), std::string::npos);
    bad = good;
    bad[DESCRIPTION_AT] = '\x01';
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("control character"), std::string::npos);
}

TEST(NnueNet, RefusesWeightsThatWouldOverflowInt16) {
    std::vector<std::int16_t> ft_w(std::size_t(INPUTS) * HIDDEN, 0), ft_b(HIDDEN, 0), out_w(2 * HIDDEN, 0);
    auto bytes = [&] { return serialise_network(ft_w.data(), ft_b.data(), out_w.data(), 0, ""); };
    EXPECT_EQ(parse_error(bytes()), "");
    ft_w[5 * HIDDEN + 7] = 1024;  // 32 * 1024 > 32767
    EXPECT_NE(parse_error(bytes()).find("hidden unit 7"), std::string::npos);
    ft_w[5 * HIDDEN + 7] = 1023;
    EXPECT_EQ(parse_error(bytes()), "");
    ft_b[7] = 100;  // 100 + 32 * 1023 > 32767
    EXPECT_NE(parse_error(bytes()).find("hidden unit 7"), std::string::npos);
    ft_b[7] = 0;
    out_w[300] = MAX_OUT_WEIGHT + 1;
    EXPECT_NE(parse_error(bytes()).find("output weight 300"), std::string::npos);
    out_w[300] = -MAX_OUT_WEIGHT;
    EXPECT_EQ(parse_error(bytes()), "");
}

TEST(NnueNet, EvalFileLoadsANetAndRefusesABadOne) {
    const std::string dir = ::testing::TempDir();
    const std::string good_path = dir + "/quince_good.nnue", bad_path = dir + "/quince_bad.nnue";
    const std::string good = random_net_bytes(3);
    std::ofstream(good_path, std::ios::binary) << good;
    std::ofstream(bad_path, std::ios::binary) << good.substr(0, 5000);
    std::string error;
    auto e = load_evaluation(good_path, &error);
    ASSERT_TRUE(e) << error;
    ASSERT_TRUE(e->network);
    EXPECT_EQ(e->wdl.a, network_wdl_model().a);  // a net reports with the model of a net's games
    EXPECT_EQ(e->wdl.b, network_wdl_model().b);
    EXPECT_FALSE(load_evaluation(bad_path, &error));
    EXPECT_NE(error.find(bad_path), std::string::npos);
    EXPECT_NE(error.find("truncated"), std::string::npos);
    // The settings keep the net in force when a load fails.
    EvalSettings settings;
    ASSERT_TRUE(settings.set_file(good_path, &error)) << error;
    const EvalPtr before = settings.evaluation();
    EXPECT_FALSE(settings.set_file(bad_path, &error));
    EXPECT_EQ(settings.evaluation(), before);
    // And it evaluates as the net read directly.
    Evaluator ev;
    ev.set_eval(before);
    auto net = load_network_file(good_path, &error);
    ASSERT_TRUE(net);
    Accumulator acc;
    const Position start;
    refresh(*net, start, acc);
    EXPECT_EQ(ev.evaluate(start), output(*net, acc, WHITE));
}

// The accumulators kept by NnueState (pieces moved since the last evaluation) equal a refresh after every
// step of a random walk of a million moves, unmoves and null moves, evaluated at most steps (so that an
// update often spans several moves), with jumps to unrelated positions.
TEST(NnueAccumulator, IncrementalEqualsRefreshOverAMillionRandomMoves) {
    auto net = random_net(4);
    ASSERT_TRUE(net);
    const std::vector<Position> starts = test::random_game_positions(58, 8, 200, 40);
    ASSERT_FALSE(starts.empty());
    SplitMix64 rng(2026);
    NnueState state;
    Position pos = starts[0];
    std::vector<Move> line;  // Move::null() for a null move
    Accumulator fresh;
    long evaluated = 0, moves = 0, nulls = 0, unmoves = 0;
    // Sanitizer builds: a tenth of the steps (they run it ten to thirty times slower), the same proportions.
    const int steps = test::sanitized() ? 100000 : 1000000;
    for (int step = 0; step < steps; ++step) {
        const int r = int(rng.below(100));
        MoveList<LEGAL> legal(pos);
        if (r < 55 && legal.size() && line.size() < 300) {
            const Move m = legal.begin()[rng.below(legal.size())].move;
            pos.do_move(m);
            line.push_back(m);
            ++moves;
        } else if (r < 63 && !pos.in_check() && line.size() < 300) {
            pos.do_null_move();
            line.push_back(Move::null());
            ++nulls;
        } else if (r < 99 && !line.empty()) {
            const Move m = line.back();
            line.pop_back();
            if (m == Move::null()) pos.undo_null_move();
            else pos.undo_move(m);
            ++unmoves;
        } else {
            pos = starts[rng.below(starts.size())];
            line.clear();
        }
        if (rng.below(4) == 0) continue;  // not evaluated: the next update spans more than one step
        const Value v = state.evaluate(*net, pos);
        refresh(*net, pos, fresh);
        ASSERT_TRUE(same(state.accumulator(), fresh)) << "step " << step << " " << pos.fen();
        ASSERT_EQ(v, output(*net, fresh, pos.side_to_move())) << "step " << step;
        ++evaluated;
    }
    EXPECT_GT(moves, steps / 10 * 4);
    EXPECT_GT(nulls, steps / 20);
    EXPECT_GT(unmoves, steps / 10 * 3);
    EXPECT_GT(evaluated, steps / 10 * 7);
    // Incremental, not refreshing every time: refreshes come from the jumps (1 % of steps) and long unwinds.
    EXPECT_GT(state.updates(), 20 * state.refreshes()) << evaluated << " evaluated";
}

// Each child of a node starts from its parent's accumulator, whatever was evaluated between: after a whole
// subtree under the first child, the second child still changes only the inputs its own move changes
// (one per square a piece left or reached: 2 for a quiet move or a promotion, 3 for a capture or en
// passant, 4 for castling), and a null move none.
TEST(NnueAccumulator, ChildrenStartFromTheirParent) {
    auto net = random_net(8);
    ASSERT_TRUE(net);
    for (const char* fen : {"r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1",
                            "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3"}) {
        Position root;
        ASSERT_TRUE(root.set_fen(fen));
        NnueState state;
        state.evaluate(*net, root);
        const MoveList<LEGAL> moves(root);
        ASSERT_GT(moves.size(), 3u);
        for (const auto& entry : moves) {
            const Move m = entry.move;
            Position child = root;
            const bool capture = root.is_capture(m), castling = m.type() == CASTLING;
            child.do_move(m);
            const auto before = state.changed_inputs();
            state.evaluate(*net, child);
            const auto changed = state.changed_inputs() - before;
            // At most what its own move changes (a promotion's sibling with another piece may be closer).
            const unsigned own = castling ? 4u : capture ? 3u : 2u;
            if (m.type() == PROMOTION) EXPECT_LE(changed, own) << fen << " " << move_to_uci(m, false);
            else EXPECT_EQ(changed, own) << fen << " " << move_to_uci(m, false);
            // A subtree under the child: two more plies, each evaluated, so the last evaluated position is
            // far from the next child.
            const MoveList<LEGAL> replies(child);
            for (const auto& r : replies) {
                Position grandchild = child;
                grandchild.do_move(r.move);
                state.evaluate(*net, grandchild);
                const MoveList<LEGAL> third(grandchild);
                if (third.size()) {
                    grandchild.do_move(third.begin()->move);
                    state.evaluate(*net, grandchild);
                }
            }
            // Back at the root, evaluated again: nothing changed since its own slot was written.
            const auto at_root = state.changed_inputs();
            state.evaluate(*net, root);
            EXPECT_EQ(state.changed_inputs(), at_root) << fen;
        }
        if (!root.in_check()) {
            Position null_child = root;
            null_child.do_null_move();
            const auto before = state.changed_inputs();
            const Value v = state.evaluate(*net, null_child);
            EXPECT_EQ(state.changed_inputs(), before);
            Accumulator fresh;
            refresh(*net, null_child, fresh);
            EXPECT_EQ(v, output(*net, fresh, null_child.side_to_move()));
        }
    }
}

// The build runs the widest SIMD code its target has: a WebAssembly build (emscripten, -msimd128) the SIMD128
// code, an x86-64 build the AVX2 code when it compiles with AVX2 (bmi2 variant), else the SSE2 code.
TEST(NnueAccumulator, SimdCodeIsTheTargetsWidest) {
#if defined(__EMSCRIPTEN__)
    EXPECT_STREQ(simd_name(), "simd128");
#elif defined(__x86_64__) && defined(__AVX2__)
    EXPECT_STREQ(simd_name(), "avx2");
#elif defined(__x86_64__)
    EXPECT_STREQ(simd_name(), "sse2");
#else
    EXPECT_STREQ(simd_name(), "scalar");
#endif
}

// The build's SIMD code (AVX2, SSE2 or WebAssembly's SIMD128, whichever the target compiles) equals the
// scalar code bit for bit, for updates and for the output, on real positions and on accumulators at their
// bounds.
TEST(NnueAccumulator, SimdEqualsScalar) {
    auto net = random_net(5);
    ASSERT_TRUE(net);
    SplitMix64 rng(6);
    for (const Position& pos : test::random_game_positions(59, 20, 3000, 160)) {
        Accumulator a;
        refresh(*net, pos, a);
        Accumulator b = a;
        int add_w[4], add_b[4], sub_w[4], sub_b[4];
        for (int k = 0; k < 4; ++k) {
            add_w[k] = int(rng.below(INPUTS)), add_b[k] = int(rng.below(INPUTS));
            sub_w[k] = int(rng.below(INPUTS)), sub_b[k] = int(rng.below(INPUTS));
        }
        // From one accumulator into another, and in place.
        Accumulator c, d;
        update(*net, a, c, add_w, add_b, 4, sub_w, sub_b, 4);
        scalar::update(*net, b, d, add_w, add_b, 4, sub_w, sub_b, 4);
        ASSERT_TRUE(same(c, d)) << simd_name();
        update(*net, a, a, add_w, add_b, 4, sub_w, sub_b, 4);
        scalar::update(*net, b, b, add_w, add_b, 4, sub_w, sub_b, 4);
        ASSERT_TRUE(same(a, b)) << simd_name();
        ASSERT_TRUE(same(a, c)) << simd_name();
        for (Color us : {WHITE, BLACK}) ASSERT_EQ(output(*net, a, us), scalar::output(*net, a, us)) << simd_name();
    }
    // Extremes: every activation clipped at QA with the largest output weights, or below zero.
    for (int fill : {-32768, -1, 0, 1, QA - 1, QA, QA + 1, 32767}) {
        Accumulator a;
        for (auto& side : a.v)
            for (auto& x : side) x = std::int16_t(fill);
        for (Color us : {WHITE, BLACK}) EXPECT_EQ(output(*net, a, us), scalar::output(*net, a, us)) << fill;
    }
}

// The inputs are the side to move's view, so a position and its colour-flipped twin score the same.
TEST(NnueEvaluator, ProfileNnueIsColourSymmetricAndEqualsARefresh) {
    auto net = random_net(7);
    ASSERT_TRUE(net);
    auto evaluation = network_evaluation(net);
    ASSERT_TRUE(evaluation);
    Evaluator ev, twin;
    ev.set_eval(evaluation);
    twin.set_eval(evaluation);
    for (const Position& pos : test::random_game_positions(60, 10, 2000, 160)) {
        const Value v = ev.evaluate(pos);
        Accumulator fresh;
        refresh(*net, pos, fresh);
        ASSERT_EQ(v, output(*net, fresh, pos.side_to_move()));
        ASSERT_EQ(v, twin.evaluate(pos.flipped())) << pos.fen();
        // The lazy window is not applied to the network, and the cache returns what was computed.
        ASSERT_EQ(ev.evaluate(pos, LazyWindow::around(v + 5000)), v);
        ASSERT_EQ(ev.evaluate_general(pos), v);
    }
}

// A build without a default net lists no profile nnue (and builtin_evaluation refuses it); with one, it is
// listed and is that net. Either way the list and the lookup agree.
TEST(NnueEvaluator, ProfileNnueIsListedExactlyWhenANetIsEmbedded) {
    const auto names = profile_names();
    const bool listed = std::find(names.begin(), names.end(), "nnue") != names.end();
    EXPECT_EQ(listed, embedded_network() != nullptr);
    const EvalPtr e = builtin_evaluation("nnue", nullptr);
    EXPECT_EQ(e != nullptr, listed);
    if (e) {
        EXPECT_TRUE(e->network);
    }
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
