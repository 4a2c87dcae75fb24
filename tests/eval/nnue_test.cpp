// Profile nnue's network (src/eval/nnue/): the net file is refused when wrong, truncated or damaged, and
// nothing else, and names its architecture; a version-1 file (the default net's) reads as before; the
// incrementally updated accumulators equal a refresh over a million random moves (captures, promotions,
// castlings and en passant among them), unmoves and null moves (a tenth of them in the sanitizer builds);
// the SIMD code equals the scalar code and plain loops, for every architecture; the evaluation is
// colour-symmetric; EvalFile-style loading gives a network evaluation. The
// WebAssembly build runs this file too, under Node.js (tests/web/CMakeLists.txt), and the ARM build under
// qemu (scripts/build-arm64.sh).
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "board/movegen.h"
#include "board/notation.h"
#include "core/random.h"
#include "eval/endgame.h"
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

using Default = DefaultArchitecture;
const int DEFAULT = architecture_index<Default>();

// A random net of architecture `arch` within the loader's bounds (|bias| + 32 * |weight| <= 32767, |output
// weight| <= 128), with large enough weights that the activations are often clipped at both ends.
std::shared_ptr<nnue::Network> random_network(std::uint64_t seed, const std::string& description = "test net",
                                        int arch = DEFAULT) {
    SplitMix64 rng(seed);
    auto r = [&rng](int lo, int hi) { return int(rng.below(std::uint64_t(hi - lo + 1))) + lo; };
    auto net = nnue::Network::blank(arch);
    const int max_out = with_architecture(arch, [](auto a) { return decltype(a)::MAX_OUT_WEIGHT; });
    for (std::size_t i = 0; i < net->ft_weights.size(); ++i) net->ft_weights[i] = std::int16_t(r(-500, 500));
    for (std::size_t i = 0; i < net->ft_bias.size(); ++i) net->ft_bias[i] = std::int16_t(r(-300, 600));
    for (std::size_t i = 0; i < net->out_weights.size(); ++i) net->out_weights[i] = std::int16_t(r(-max_out, max_out));
    for (int b = 0; b < with_architecture(arch, [](auto a) { return decltype(a)::BUCKETS; }); ++b)
        net->out_bias[b] = r(-200000, 200000);
    net->description = description;
    return net;
}

std::string random_net_bytes(std::uint64_t seed, const std::string& description = "test net", int arch = DEFAULT) {
    return serialise_network(*random_network(seed, description, arch));
}

std::shared_ptr<const nnue::Network> random_net(std::uint64_t seed, int arch = DEFAULT) {
    const std::string bytes = random_net_bytes(seed, "test net", arch);
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
// Format version 2: magic, version, seven architecture numbers, the name's length and text, then the
// description's length.
std::size_t description_at(const std::string& arch_name) { return 4 + 4 + 7 * 4 + 4 + arch_name.size() + 4; }

// The committed default net (src/eval/nnue/default.nnue) and its scores as the engine gave them before the
// architecture description (quince eval --weights src/eval/nnue/default.nnue FEN).
constexpr const char* DEFAULT_NET_CHECKSUM = "6f9dce3e17f30222";
const std::pair<const char*, Value> DEFAULT_NET_SCORES[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", 31},
    {"r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", 20},
    {"r3k2r/pPppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/P1PBBPPP/R3K2R w KQkq - 0 1", -8},
    {"8/5k2/3p4/1p1Pp2p/pP2Pp1P/P4P1K/8/8 b - - 99 50", 65},
    {"4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", 156},
    {"r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP1B1PPP/R2QKB1R b KQ - 4 8", -62},
    {"8/8/4k3/8/2n5/8/3K4/8 w - - 0 1", -150},
    {"2r3k1/5ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", 0},
};

template <int H>
bool same(const Accumulator<H>& a, const Accumulator<H>& b) {
    return std::memcmp(a.v, b.v, sizeof a.v) == 0;
}

}  // namespace

TEST(NnueNet, RoundTripKeepsEveryParameter) {
    for (int arch = 0; arch < ARCHITECTURE_COUNT; ++arch) {
        const std::string name(architecture_name(arch));
        const std::string bytes = random_net_bytes(1, "trained on nothing", arch);
        std::string error;
        auto net = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &error);
        ASSERT_TRUE(net) << name << ": " << error;
        EXPECT_EQ(net->arch, arch);
        EXPECT_EQ(net->format_version, 2u);
        EXPECT_EQ(net->description, "trained on nothing");
        EXPECT_EQ(serialise_network(*net), bytes) << name;
        // The header names the architecture after its numbers; then the description, the int16 parameters,
        // the int32 output biases, the checksum.
        EXPECT_EQ(bytes.substr(40, name.size()), name);
        with_architecture(arch, [&](auto a) {
            using A = decltype(a);
            const std::size_t params = 2 * (A::FT_WEIGHTS + A::HIDDEN + A::OUT_WEIGHTS) + 4 * A::BUCKETS;
            EXPECT_EQ(bytes.size(), description_at(name) + net->description.size() + params + 8) << name;
        });
    }
}

// Format version 1 (the committed default net's): no name in the header, always 768x512. It reads, writes
// back to the same bytes, and evaluates as the same parameters written in version 2.
TEST(NnueNet, FormatVersion1ReadsAsBefore) {
    using A = FormatVersion1Architecture;
    auto original = random_network(9, "a version-1 net", architecture_index<A>());
    original->format_version = 1;
    const std::string v1 = serialise_network(*original);
    original->format_version = 2;
    const std::string v2 = serialise_network(*original);
    // The version-1 layout, as the engine wrote it before version 2: magic, version, six numbers, the
    // description, the parameters with one output bias, the checksum.
    const std::size_t params = 2 * (A::FT_WEIGHTS + A::HIDDEN + 2 * A::HIDDEN) + 4;
    ASSERT_EQ(v1.size(), 36 + original->description.size() + params + 8);
    EXPECT_EQ(v1.substr(0, 8), std::string("QNN1\x01\0\0\0", 8));
    EXPECT_EQ(v1.substr(36, original->description.size()), original->description);
    std::string error;
    auto one = parse_network(reinterpret_cast<const std::uint8_t*>(v1.data()), v1.size(), &error);
    ASSERT_TRUE(one) << error;
    auto two = parse_network(reinterpret_cast<const std::uint8_t*>(v2.data()), v2.size(), &error);
    ASSERT_TRUE(two) << error;
    EXPECT_EQ(one->format_version, 1u);
    EXPECT_EQ(one->arch, architecture_index<A>());
    EXPECT_EQ(serialise_network(*one), v1);
    Evaluator e1, e2;
    e1.set_eval(network_evaluation(one));
    e2.set_eval(network_evaluation(two));
    for (const Position& pos : test::random_game_positions(61, 4, 400, 160)) ASSERT_EQ(e1.evaluate(pos), e2.evaluate(pos));
}

// The committed default net (format version 1), when the build embeds it, evaluates as it did before the
// architecture description: these scores are its, from the engine of that time.
TEST(NnueNet, DefaultNetEvaluatesAsBefore) {
    const auto net = embedded_network();
    if (!net || checksum_hex(*net) != DEFAULT_NET_CHECKSUM) GTEST_SKIP() << "this build embeds another net";
    EXPECT_EQ(net->format_version, 1u);
    // The net's own output (the Evaluator scales known endings after it).
    const auto state = network_evaluation(net)->network->new_state();
    for (const auto& [fen, score] : DEFAULT_NET_SCORES) {
        Position pos;
        ASSERT_TRUE(pos.set_fen(fen));
        EXPECT_EQ(state->evaluate(pos), score) << fen;
    }
}

TEST(NnueNet, RefusesWrongFilesNamingWhatIsWrong) {
    const std::string good = random_net_bytes(2, "d");
    const std::string name(architecture_name(DEFAULT));
    ASSERT_EQ(parse_error(good), "");
    EXPECT_NE(parse_error("").find("not a Quince net file"), std::string::npos);
    EXPECT_NE(parse_error("#weights\nfoo 1\n").find("not a Quince net file"), std::string::npos);
    // Every truncation is refused (the header, the name, the description, the parameters, the checksum).
    for (std::size_t n : {std::size_t(4), std::size_t(20), std::size_t(36), std::size_t(37), std::size_t(41),
                          std::size_t(1000), good.size() / 2, good.size() - 9, good.size() - 1})
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
    put_u32(bad, 4, 3);
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("format version 3"), std::string::npos);
    bad = good;
    put_u32(bad, 12, 2 * Default::HIDDEN);
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("hidden " + std::to_string(2 * Default::HIDDEN)), std::string::npos);
    bad = good;
    put_u32(bad, 20, 127);
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("QA 127"), std::string::npos);
    bad = good;
    put_u32(bad, 32, 3);
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("output buckets 3"), std::string::npos);
    // The name: unknown, empty or too long, not printable.
    bad = good;
    bad[40 + name.size() - 1] = 'Z';
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("architecture '" + name.substr(0, name.size() - 1) + "Z' is not one this build knows"),
              std::string::npos) << parse_error(bad);
    for (std::uint32_t length : {0u, 65u}) {
        bad = good;
        put_u32(bad, 36, length);
        reseal(bad);
        EXPECT_NE(parse_error(bad).find("architecture name of " + std::to_string(length) + " bytes"), std::string::npos);
    }
    bad = good;
    bad[40] = '\n';
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("architecture name holds"), std::string::npos);
    // A version-1 header is always 768x512: its numbers are checked the same way.
    auto v1net = random_network(2, "d");
    v1net->format_version = 1;
    std::string v1 = serialise_network(*v1net);
    ASSERT_EQ(parse_error(v1), "");
    put_u32(v1, 12, 256);
    reseal(v1);
    EXPECT_NE(parse_error(v1).find("hidden 256"), std::string::npos);
    bad = good;
    put_u32(bad, description_at(name) - 4, 100000);
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("description"), std::string::npos);
    bad = good;
    bad[description_at(name)] = '\x01';
    reseal(bad);
    EXPECT_NE(parse_error(bad).find("control character"), std::string::npos);
}

TEST(NnueNet, RefusesWeightsThatWouldOverflowInt16) {
    for (int arch = 0; arch < ARCHITECTURE_COUNT; ++arch) {
        with_architecture(arch, [&](auto a) {
            using A = decltype(a);
            auto net = nnue::Network::blank(arch);
            auto bytes = [&] { return serialise_network(*net); };
            EXPECT_EQ(parse_error(bytes()), "");
            net->ft_weights[5 * A::HIDDEN + 7] = 1024;  // 32 * 1024 > 32767
            EXPECT_NE(parse_error(bytes()).find("hidden unit 7"), std::string::npos);
            net->ft_weights[5 * A::HIDDEN + 7] = 1023;
            EXPECT_EQ(parse_error(bytes()), "");
            net->ft_bias[7] = 100;  // 100 + 32 * 1023 > 32767
            EXPECT_NE(parse_error(bytes()).find("hidden unit 7"), std::string::npos);
            net->ft_bias[7] = 0;
            const std::size_t last = A::OUT_WEIGHTS - 1;  // the last bucket's too
            net->out_weights[last] = A::MAX_OUT_WEIGHT + 1;
            EXPECT_NE(parse_error(bytes()).find("output weight " + std::to_string(last)), std::string::npos);
            net->out_weights[last] = -A::MAX_OUT_WEIGHT;
            EXPECT_EQ(parse_error(bytes()), "");
            net->out_bias[A::BUCKETS - 1] = A::QA * A::QB * 64 + 1;
            EXPECT_NE(parse_error(bytes()).find("output bias"), std::string::npos);
        });
    }
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
    AccumulatorOf<Default> acc;
    const Position start;
    refresh<Default>(*net, start, acc);
    EXPECT_EQ(ev.evaluate(start), output<Default>(*net, acc, WHITE, 0));
}

// The accumulators kept by NnueState (pieces moved since the last evaluation) equal a refresh after every
// step of a random walk of a million moves, unmoves and null moves, evaluated at most steps (so that an
// update often spans several moves), with jumps to unrelated positions; captures, promotions, castlings and
// en passant captures among the moves, each counted; the other architectures a tenth as many steps (their
// accumulators are the same code, their outputs a bucket of their own).
// With `kings`, a third of the moves are king moves where there is one, and the walk also starts from
// endings, where kings roam: many of them change a perspective's king bucket or side (king-bucketed inputs).
template <class A>
void incremental_walk(int steps, bool kings = false) {
    auto net = random_net(4, architecture_index<A>());
    ASSERT_TRUE(net);
    std::vector<Position> starts = test::random_game_positions(58, 8, 200, 40);
    if (kings)
        for (const char* fen : {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "r3k2r/1p4p1/8/2pP4/8/8/1P4P1/R3K2R w KQkq c6 0 1",
                                "8/2P2k2/8/8/3p4/8/5K2/8 b - - 0 1", "8/8/3k4/8/2K5/8/6p1/8 w - - 0 1"}) {
            Position pos;
            ASSERT_TRUE(pos.set_fen(fen)) << fen;
            for (int i = 0; i < 20; ++i) starts.push_back(pos);  // the walk jumps to one of the starts
        }
    ASSERT_FALSE(starts.empty());
    SplitMix64 rng(2026);
    NnueState<A> state;
    Position pos = starts[0];
    std::vector<Move> line;  // Move::null() for a null move
    AccumulatorOf<A> fresh;
    long evaluated = 0, moves = 0, nulls = 0, unmoves = 0;
    long captures = 0, promotions = 0, castlings = 0, en_passants = 0;  // the moves of each kind
    long view_changes = 0, mirror_changes = 0;  // moves after which a perspective's view differs
    std::uint64_t refreshed_pieces = 0;  // the inputs of the perspectives refreshed from the cache of views
    std::vector<Move> special;  // the castlings, en passant captures and promotions of a position
    std::vector<Move> king_moves;
    for (int step = 0; step < steps; ++step) {
        const int r = int(rng.below(100));
        MoveList<LEGAL> legal(pos);
        if (r < 55 && legal.size() && line.size() < 300) {
            // Half the time a castling, en passant or promotion where there is one: each changes more
            // inputs than a quiet move, and random play alone seldom plays them.
            special.clear();
            king_moves.clear();
            for (const auto& e : legal) {
                if (e.move.type() != NORMAL) special.push_back(e.move);
                else if (type_of(pos.piece_on(e.move.from())) == KING) king_moves.push_back(e.move);
            }
            const int kind = int(rng.below(kings ? 3 : 2));
            const Move m = !special.empty() && kind == 0      ? special[rng.below(special.size())]
                           : !king_moves.empty() && kind == 2 ? king_moves[rng.below(king_moves.size())]
                                                              : legal.begin()[rng.below(legal.size())].move;
            int before[COLOR_NB], after[COLOR_NB];
            views<A>(pos, before);
            captures += pos.is_capture(m) && m.type() != EN_PASSANT;
            promotions += m.type() == PROMOTION;
            castlings += m.type() == CASTLING;
            en_passants += m.type() == EN_PASSANT;
            pos.do_move(m);
            line.push_back(m);
            ++moves;
            views<A>(pos, after);
            view_changes += before[WHITE] != after[WHITE] || before[BLACK] != after[BLACK];
            mirror_changes += (before[WHITE] ^ after[WHITE]) % 2 || (before[BLACK] ^ after[BLACK]) % 2;
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
        const std::uint64_t view_refreshes = state.view_refreshes();
        const Value v = state.evaluate(*net, pos);
        refreshed_pieces += (state.view_refreshes() - view_refreshes) * std::uint64_t(popcount(pos.pieces()));
        refresh<A>(*net, pos, fresh);
        ASSERT_TRUE(same(state.accumulator(), fresh)) << A::NAME << " step " << step << " " << pos.fen();
        ASSERT_EQ(v, output<A>(*net, fresh, pos.side_to_move(), output_bucket<A>(pos))) << A::NAME << " step " << step;
        ++evaluated;
    }
    EXPECT_GT(moves, steps / 10 * 4);
    EXPECT_GT(nulls, steps / 20);
    EXPECT_GT(unmoves, steps / 10 * 3);
    EXPECT_GT(evaluated, steps / 10 * 7);
    // Every kind of move that changes other inputs than a quiet move does, many times.
    EXPECT_GT(captures, steps / 50);
    EXPECT_GT(promotions, steps / 1000);
    EXPECT_GT(castlings, steps / 1000);
    EXPECT_GT(en_passants, steps / 2000);
    // Incremental, not refreshing every time: refreshes come from the jumps (1 % of steps) and long unwinds.
    EXPECT_GT(state.updates(), 20 * state.refreshes()) << evaluated << " evaluated";
    if (kings) {
        // Kings crossing between buckets and between the d- and e-files, the cache of views refreshing the
        // perspectives they change by fewer inputs than their pieces (a random walk, with its jumps, strays
        // further from a view's last use than a search does).
        EXPECT_GT(view_changes, steps / 20) << A::NAME;
        EXPECT_GT(mirror_changes, steps / 40) << A::NAME;
        EXPECT_GT(state.view_refreshes(), std::uint64_t(steps / 40)) << A::NAME;
        EXPECT_LT(state.view_changed_inputs(), refreshed_pieces * 3 / 4) << A::NAME;
    }
}

TEST(NnueAccumulator, IncrementalEqualsRefreshOverAMillionRandomMoves) {
    // Sanitizer builds: a tenth of the steps (they run it ten to thirty times slower), the same proportions.
    const int steps = test::sanitized() ? 100000 : 1000000;
    for (int arch = 0; arch < ARCHITECTURE_COUNT; ++arch)
        with_architecture(arch, [&](auto a) { incremental_walk<decltype(a)>(arch == DEFAULT ? steps : steps / 10); });
}

// King-bucketed inputs: the walk above with many king moves, across the buckets and between the d- and
// e-files (castlings, en passant captures and promotions among them): every update, including those that
// refresh a perspective from the cache of views, equals a refresh.
TEST(NnueAccumulator, KingBucketsIncrementalEqualsRefreshAcrossBucketsAndSides) {
    const int steps = test::sanitized() ? 100000 : 1000000;
    for (int arch = 0; arch < ARCHITECTURE_COUNT; ++arch)
        with_architecture(arch, [&](auto a) {
            using A = decltype(a);
            if constexpr (A::Inputs::VIEWS > 1) incremental_walk<A>(steps, true);
        });
}

// A perspective whose king changes view is refreshed from the cached accumulator of its new view: the
// first time with every piece, afterwards with only the pieces that moved since that view was last used.
// The other perspective is updated as usual.
TEST(NnueAccumulator, KingChangingViewRefreshesOnlyThePiecesThatDiffer) {
    using A = Net768x512Kings4;
    auto net = random_net(12, architecture_index<A>());
    ASSERT_TRUE(net);
    Position pos;
    ASSERT_TRUE(pos.set_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
    const std::uint64_t pieces = std::uint64_t(popcount(pos.pieces()));
    NnueState<A> state;
    AccumulatorOf<A> fresh;
    std::uint64_t refreshed = 0, by_view = 0, by_move = 0;  // the counters' increments of the last move
    auto play = [&](const char* uci) {
        const Move m = uci_to_move(pos, uci);
        ASSERT_TRUE(m) << uci;
        pos.do_move(m);
        const std::uint64_t r = state.view_refreshes(), v = state.view_changed_inputs(), c = state.changed_inputs();
        state.evaluate(*net, pos);
        refreshed = state.view_refreshes() - r, by_view = state.view_changed_inputs() - v, by_move = state.changed_inputs() - c;
        refresh<A>(*net, pos, fresh);
        ASSERT_TRUE(same(state.accumulator(), fresh)) << uci;
    };
    // The first evaluation: both perspectives from their views' empty caches.
    state.evaluate(*net, pos);
    EXPECT_EQ(state.view_refreshes(), 2u);
    EXPECT_EQ(state.view_changed_inputs(), 2 * pieces);
    // Ke1-e2: White's king from rank 1 to rank 2 (another bucket, still mirrored): White's perspective from its
    // new view's empty cache, every piece; Black's updated by the king's two inputs.
    play("e1e2");
    EXPECT_EQ(refreshed, 1u);
    EXPECT_EQ(by_view, pieces);
    EXPECT_EQ(by_move, 2u);
    play("d7d6");
    EXPECT_EQ(refreshed, 0u);
    play("e2d3");  // ranks 3-4, not mirrored: another view's first use
    EXPECT_EQ(refreshed, 1u);
    EXPECT_EQ(by_view, pieces);
    play("c8g4");
    // Back to e2, the view of Ke1-e2: refreshed by the pieces that moved since, the pawn d7-d6 and the
    // bishop c8-g4 (each an input subtracted and one added), not every piece.
    play("d3e2");
    EXPECT_EQ(refreshed, 1u);
    EXPECT_EQ(by_view, 4u);
    // Black's king over the d/e boundary, Ke8-d7 (from Black's view, e1 to d2: not mirrored any more).
    play("e8d7");
    EXPECT_EQ(refreshed, 1u);
    EXPECT_EQ(by_view, pieces);
    EXPECT_EQ(by_move, 2u);
    EXPECT_EQ(state.refreshes(), 1u);  // the first evaluation only
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
        NnueState<Default> state;
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
            AccumulatorOf<Default> fresh;
            refresh<Default>(*net, null_child, fresh);
            EXPECT_EQ(v, output<Default>(*net, fresh, null_child.side_to_move(), 0));
        }
    }
}

// The build runs the widest SIMD code its target has: a WebAssembly build (emscripten, -msimd128) the SIMD128
// code, an x86-64 build the AVX2 code when it compiles with AVX2 (bmi2 variant), else the SSE2 code, an
// AArch64 build the NEON code.
TEST(NnueAccumulator, SimdCodeIsTheTargetsWidest) {
#if defined(__EMSCRIPTEN__)
    EXPECT_STREQ(simd_name(), "simd128");
#elif defined(__x86_64__) && defined(__AVX2__)
    EXPECT_STREQ(simd_name(), "avx2");
#elif defined(__x86_64__)
    EXPECT_STREQ(simd_name(), "sse2");
#elif defined(__aarch64__)
    EXPECT_STREQ(simd_name(), "neon");
#else
    EXPECT_STREQ(simd_name(), "scalar");
#endif
}

// Every SIMD backend the build compiles — its own (AVX2, SSE2, WebAssembly's SIMD128 or NEON, whichever the
// target compiles; an AVX2 build compiles SSE2's too) and the scalar one — computes what plain loops compute,
// for updates and for the output of every bucket, on real positions and on accumulators at their bounds, for
// every architecture.
template <class A, class S>
void backend_equals_plain_loops() {
    auto net = random_net(5, architecture_index<A>());
    ASSERT_TRUE(net);
    SplitMix64 rng(6);
    for (const Position& pos : test::random_game_positions(59, 20, 3000, 160)) {
        AccumulatorOf<A> a, plain_a;
        refresh<A, S>(*net, pos, a);
        int white[64], black[64];
        const int n = active_inputs<A>(pos, white, black);
        for (Color p : {WHITE, BLACK}) std::memcpy(plain_a.v[p], net->ft_bias.data(), sizeof plain_a.v[p]);
        reference::update<A>(*net, plain_a, plain_a, white, black, n, nullptr, nullptr, 0);
        ASSERT_TRUE(same(a, plain_a)) << S::NAME;
        int add_w[4], add_b[4], sub_w[4], sub_b[4];
        for (int k = 0; k < 4; ++k) {
            add_w[k] = int(rng.below(A::INPUTS)), add_b[k] = int(rng.below(A::INPUTS));
            sub_w[k] = int(rng.below(A::INPUTS)), sub_b[k] = int(rng.below(A::INPUTS));
        }
        // From one accumulator into another, and in place.
        AccumulatorOf<A> b = a, c, e;
        update<A, S>(*net, a, c, add_w, add_b, 4, sub_w, sub_b, 4);
        reference::update<A>(*net, b, e, add_w, add_b, 4, sub_w, sub_b, 4);
        ASSERT_TRUE(same(c, e)) << S::NAME;
        update<A, S>(*net, a, a, add_w, add_b, 4, sub_w, sub_b, 4);
        reference::update<A>(*net, b, b, add_w, add_b, 4, sub_w, sub_b, 4);
        ASSERT_TRUE(same(a, b)) << S::NAME;
        ASSERT_TRUE(same(a, c)) << S::NAME;
        for (Color us : {WHITE, BLACK})
            for (int bucket = 0; bucket < A::BUCKETS; ++bucket)
                ASSERT_EQ((output<A, S>(*net, a, us, bucket)), reference::output<A>(*net, a, us, bucket)) << S::NAME;
    }
    // Extremes: every activation clipped at QA with the largest output weights, or below zero.
    for (int fill : {-32768, -1, 0, 1, A::QA - 1, A::QA, A::QA + 1, 32767}) {
        AccumulatorOf<A> a;
        for (auto& side : a.v)
            for (auto& x : side) x = std::int16_t(fill);
        for (Color us : {WHITE, BLACK})
            for (int bucket = 0; bucket < A::BUCKETS; ++bucket)
                EXPECT_EQ((output<A, S>(*net, a, us, bucket)), reference::output<A>(*net, a, us, bucket)) << S::NAME << fill;
    }
    // The largest sum the loader allows: every activation QA and every weight +-MAX_OUT_WEIGHT (no int32 lane
    // overflows).
    auto extreme = nnue::Network::blank(architecture_index<A>());
    for (int sign : {1, -1}) {
        for (std::size_t i = 0; i < extreme->out_weights.size(); ++i) extreme->out_weights[i] = std::int16_t(sign * A::MAX_OUT_WEIGHT);
        AccumulatorOf<A> a;
        for (auto& side : a.v)
            for (auto& x : side) x = std::int16_t(A::QA);
        const Value v = reference::output<A>(*extreme, a, WHITE, 0);
        EXPECT_EQ((output<A, S>(*extreme, a, WHITE, 0)), v) << S::NAME;
        EXPECT_EQ(v, sign * Value((std::int64_t(2) * A::HIDDEN * A::QA * A::MAX_OUT_WEIGHT * A::SCALE + A::QA * A::QB / 2) /
                                   (std::int64_t(A::QA) * A::QB)));
    }
}

TEST(NnueAccumulator, SimdEqualsScalar) {
    for (int arch = 0; arch < ARCHITECTURE_COUNT; ++arch)
        with_architecture(arch, [](auto a) {
            using A = decltype(a);
            backend_equals_plain_loops<A, simd::Native>();
            backend_equals_plain_loops<A, simd::Scalar>();
#if defined(__AVX2__)
            backend_equals_plain_loops<A, simd::Sse2>();
#endif
        });
}

// The inputs are the side to move's view, so a position and its colour-flipped twin score the same; the
// evaluation through profile nnue equals a refresh and the output of the position's bucket, for every
// architecture.
TEST(NnueEvaluator, ProfileNnueIsColourSymmetricAndEqualsARefresh) {
    for (int arch = 0; arch < ARCHITECTURE_COUNT; ++arch) {
        auto net = random_net(7, arch);
        ASSERT_TRUE(net);
        auto evaluation = network_evaluation(net);
        ASSERT_TRUE(evaluation);
        Evaluator ev, twin;
        ev.set_eval(evaluation);
        twin.set_eval(evaluation);
        for (const Position& pos : test::random_game_positions(60, 10, 2000, 160)) {
            const Value v = ev.evaluate(pos);
            const Value fresh = with_architecture(arch, [&](auto a) {
                using A = decltype(a);
                AccumulatorOf<A> acc;
                refresh<A>(*net, pos, acc);
                return output<A>(*net, acc, pos.side_to_move(), output_bucket<A>(pos));
            });
            ASSERT_EQ(v, finish_score(pos, fresh));  // the known-ending scale last
            ASSERT_EQ(v, twin.evaluate(pos.flipped())) << pos.fen();
            // The lazy window is not applied to the network, and the cache returns what was computed.
            ASSERT_EQ(ev.evaluate(pos, LazyWindow::around(v + 5000)), v);
            ASSERT_EQ(ev.evaluate_general(pos), v);
        }
    }
}

// 768x512-b8: eight output buckets by the number of pieces, (pieces - 2) / 4. A net whose buckets differ only
// in their bias (every weight 0) scores each position with its bucket's bias, through the engine's
// incremental evaluation and after a round trip through its file (which names the architecture).
TEST(NnueEvaluator, BucketsByPieceCountPickTheOutput) {
    using A = Net768x512Buckets8;
    EXPECT_EQ(A::BUCKETS, 8);
    EXPECT_EQ(A::bucket(2), 0);
    EXPECT_EQ(A::bucket(5), 0);
    EXPECT_EQ(A::bucket(6), 1);
    EXPECT_EQ(A::bucket(17), 3);
    EXPECT_EQ(A::bucket(29), 6);
    EXPECT_EQ(A::bucket(30), 7);
    EXPECT_EQ(A::bucket(32), 7);
    const int arch = find_architecture("768x512-b8");
    ASSERT_EQ(arch, architecture_index<A>());
    auto made = nnue::Network::blank(arch);
    for (int b = 0; b < A::BUCKETS; ++b) made->out_bias[b] = (b + 1) * A::QA * A::QB / 4;  // (b + 1) * 100 cp
    const std::string bytes = serialise_network(*made);
    EXPECT_NE(bytes.find("768x512-b8"), std::string::npos);
    std::string error;
    auto net = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &error);
    ASSERT_TRUE(net) << error;
    ASSERT_EQ(net->arch, arch);
    // The net's own output (the Evaluator scales known endings after it).
    const auto state = network_evaluation(net)->network->new_state();
    int seen[A::BUCKETS] = {};
    for (const Position& pos : test::random_game_positions(62, 40, 4000, 400)) {
        const int pieces = popcount(pos.pieces());
        ASSERT_EQ(state->evaluate(pos), ((pieces - 2) / 4 + 1) * 100) << pos.fen();
        ++seen[(pieces - 2) / 4];
    }
    for (const char* fen : {"4k3/8/8/8/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"}) {
        Position pos;
        ASSERT_TRUE(pos.set_fen(fen));
        EXPECT_EQ(state->evaluate(pos), 100) << fen;
        ++seen[0];
    }
    for (int b = 0; b < A::BUCKETS; ++b) EXPECT_GT(seen[b], 0) << "no position in bucket " << b;
}

// 768x512-k4: the king of each perspective, seen from it, picks its bucket by rank (1, 2, 3-4, 5-8) and, on
// files e-h, mirrors that perspective's board left to right. So every position scores as its mirror image
// (castling rights aside, which the inputs do not see), unlike the default net's; the engine's inputs and
// the trainer's (derived from White's piece-square inputs) are the same; the net file names the
// architecture.
TEST(NnueEvaluator, KingBucketsPickTheInputsAndMirrorTheBoard) {
    using A = Net768x512Kings4;
    using I = A::Inputs;
    EXPECT_EQ(A::INPUTS, 4 * 768);
    EXPECT_EQ(I::VIEWS, 8);
    // view = bucket * 2 + mirrored, from each side's own view.
    const std::pair<Square, int> white[] = {{SQ_A1, 0}, {SQ_D1, 0}, {SQ_E1, 1}, {SQ_G1, 1}, {SQ_C2, 2}, {SQ_F2, 3},
                                            {SQ_A3, 4}, {SQ_H4, 5}, {SQ_D5, 6}, {SQ_E8, 7}};
    for (const auto& [sq, view] : white) {
        EXPECT_EQ(I::view(WHITE, sq), view) << square_to_string(sq);
        EXPECT_EQ(I::view(BLACK, flip_rank(sq)), view) << square_to_string(sq);
    }
    for (Color p : {WHITE, BLACK})
        for (int view = 0; view < I::VIEWS; ++view)
            for (Color c : {WHITE, BLACK})
                for (PieceType pt = PAWN; pt <= KING; pt = PieceType(pt + 1))
                    for (Square s = SQ_A1; s <= SQ_H8; s = Square(s + 1)) {
                        const int input = I::index(p, view, c, pt, s);
                        ASSERT_EQ(input, I::from_white(p, view, PieceSquareInputs::index(WHITE, c, pt, s)));
                        ASSERT_EQ(input / 768, view / 2);
                        ASSERT_EQ(I::factor(input), PieceSquareInputs::index(p, c, pt, view % 2 ? Square(s ^ 7) : s));
                    }
    auto mirrored = [](const Position& pos) {
        const std::string fen = pos.fen(), board = fen.substr(0, fen.find(' '));
        std::string out;
        std::stringstream ranks(board);
        for (std::string rank; std::getline(ranks, rank, '/');) out += (out.empty() ? "" : "/") + std::string(rank.rbegin(), rank.rend());
        Position m;
        EXPECT_TRUE(m.set_fen(out + (pos.side_to_move() == WHITE ? " w" : " b") + " - - 0 1"));
        return m;
    };
    const std::string bytes = random_net_bytes(13, "kings", architecture_index<A>());
    EXPECT_NE(bytes.find("768x512-k4"), std::string::npos);
    std::string error;
    auto net = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), &error);
    ASSERT_TRUE(net) << error;
    ASSERT_EQ(net->arch, architecture_index<A>());
    auto plain = random_net(13);
    const auto state = network_evaluation(net)->network->new_state(), other = network_evaluation(plain)->network->new_state();
    int differs = 0, positions = 0;
    for (const Position& pos : test::random_game_positions(63, 10, 1000, 160)) {
        const Position m = mirrored(pos);
        ASSERT_EQ(state->evaluate(pos), state->evaluate(m)) << pos.fen();
        differs += other->evaluate(pos) != other->evaluate(m);
        ++positions;
    }
    EXPECT_GT(differs, positions / 2);
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
