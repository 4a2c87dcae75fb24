// The evaluation cache (EvalCache in eval/evaluate.h): a hit returns exactly what a fresh evaluation
// returns, for every profile; a lazy (material-only) result is never stored; a profile change or
// clear() empties it (in O(1), and no stale entry is ever returned). And the null-move question: the
// evaluation is not antisymmetric under a change of the side to move, so the search may not derive the
// evaluation after a null move from its parent's.
#include <gtest/gtest.h>

#include "eval/evaluate.h"
#include "eval/profile.h"
#include "eval/weights.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

std::vector<Position> cache_positions() {
    std::vector<Position> out = test::suite_positions("perft.epd");
    for (const Position& p : test::random_game_positions(71, 12, 1500, 160)) out.push_back(p);
    return out;
}

// Every call after the first on a position is a hit and equals the uncached general path (which never
// touches the cache), with and without lazy evaluation.
TEST(EvalCache, HitEqualsFreshEvaluationForEveryProfile) {
    const std::vector<Position> positions = cache_positions();
    ASSERT_GT(positions.size(), 1000u);
    for (const std::string& name : handcrafted_profile_names()) {
        for (bool lazy : {true, false}) {
            Evaluator ev(name);
            ev.set_lazy(lazy);
            for (const Position& pos : positions) {
                const Value fresh = ev.evaluate_general(pos);
                const Value first = ev.evaluate(pos);
                const std::uint64_t probes = ev.cache().probes(), hits = ev.cache().hits();
                const Value second = ev.evaluate(pos);
                ASSERT_EQ(first, fresh) << name << " " << pos.fen();
                ASSERT_EQ(second, fresh) << name << " " << pos.fen();
                // The simple profile and material-table lazy positions never reach the cache.
                if (ev.cache().probes() != probes) {
                    ASSERT_EQ(ev.cache().hits(), hits + 1) << name << " " << pos.fen();
                }
            }
            if (name != "simple") {
                EXPECT_GT(ev.cache().hits(), positions.size() / 2) << name;
            }
        }
    }
}

// A lazy result (window far from the position's value) is material only and must not be stored as the
// position's value; a stored full value must not be returned where the lazy test applies.
TEST(EvalCache, LazyResultsAreNeverCached) {
    const std::vector<Position> positions = cache_positions();
    // The profiles with the lazy window (rybka232 and fruit21 have none).
    for (const std::string& name : {std::string("quince"), std::string("rybka1"), std::string("rybka1-curve")}) {
        Evaluator ev(name);
        int lazy_seen = 0;
        for (const Position& pos : positions) {
            for (Value centre : {Value(-300), Value(0), Value(300)}) {
                const LazyWindow win = LazyWindow::around(centre);
                const Value lazy_fresh = ev.evaluate_general(pos, nullptr, win);
                const Value full_fresh = ev.evaluate_general(pos);
                lazy_seen += lazy_fresh != full_fresh;
                ASSERT_EQ(ev.evaluate(pos, win), lazy_fresh) << name << " " << pos.fen();
                ASSERT_EQ(ev.evaluate(pos), full_fresh) << name << " " << pos.fen();
                ASSERT_EQ(ev.evaluate(pos, win), lazy_fresh) << name << " " << pos.fen();
            }
        }
        EXPECT_GT(lazy_seen, 100) << name;  // the windows do make many evaluations lazy
    }
}

// After a profile change (by name, or a profile object as a weights file gives) every value is the new
// profile's, even for positions the old one had cached.
TEST(EvalCache, ProfileChangeEmptiesIt) {
    const std::vector<Position> positions = cache_positions();
    Evaluator ev("quince");
    for (const Position& pos : positions) ev.evaluate(pos);
    ASSERT_GT(ev.cache().probes(), 0u);

    ASSERT_TRUE(ev.set_profile("rybka1"));
    EXPECT_EQ(ev.cache().probes(), 0u);
    int differ = 0;
    Evaluator quince("quince");
    for (const Position& pos : positions) {
        const Value v = ev.evaluate(pos);
        ASSERT_EQ(v, ev.evaluate_general(pos)) << pos.fen();
        differ += v != quince.evaluate_general(pos);
    }
    EXPECT_GT(differ, 100);  // the two profiles disagree, so a stale entry would show

    // A weights file: the same profile with another tempo shifts every full evaluation by the difference.
    Weights w = find_profile_shared("rybka1")->w;
    w.tempo += 7;
    ev.set_profile(build_profile(w));
    EXPECT_EQ(ev.cache().probes(), 0u);
    for (const Position& pos : positions) ASSERT_EQ(ev.evaluate(pos), ev.evaluate_general(pos)) << pos.fen();
}

TEST(EvalCache, ClearEmptiesIt) {
    Evaluator ev("quince");
    Position pos;
    ASSERT_TRUE(pos.set_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
    ev.evaluate(pos);
    ev.evaluate(pos);
    EXPECT_EQ(ev.cache().hits(), 1u);
    ev.clear();
    EXPECT_EQ(ev.cache().probes(), 0u);
    ev.evaluate(pos);
    EXPECT_EQ(ev.cache().hits(), 0u);  // a miss: the entry is gone
}

// clear() is O(1) (a generation count), and exact: no entry stored before it is returned after it, in any
// slot, including across the count's wrap-around, where an empty slot (key 0) must not become a hit.
TEST(EvalCache, StaleEntriesAreNeverReturnedAfterAClear) {
    const std::size_t slots = std::size_t(1) << EvalCache::LOG2_SIZE;
    auto key_of = [](std::size_t i, Key salt) { return Key(i) | (salt << EvalCache::LOG2_SIZE); };
    for (std::uint32_t first : {std::uint32_t(1), std::uint32_t(0xFFFFFFFE)}) {
        EvalCache cache(first);
        Value v = 0;
        EXPECT_FALSE(cache.probe(0, v)) << first;  // a fresh cache holds nothing, not even key 0
        for (int round = 0; round < 3; ++round) {  // the second clear from 0xFFFFFFFE wraps the count
            for (std::size_t i = 0; i < slots; ++i) cache.store(key_of(i, Key(round) + 1), Value(i % 1000));
            for (std::size_t i = 0; i < slots; i += 97) {
                ASSERT_TRUE(cache.probe(key_of(i, Key(round) + 1), v)) << first << " " << round << " " << i;
                ASSERT_EQ(v, Value(i % 1000));
            }
            cache.clear();
            EXPECT_EQ(cache.probes(), 0u);
            for (std::size_t i = 0; i < slots; ++i)
                ASSERT_FALSE(cache.probe(key_of(i, Key(round) + 1), v)) << first << " " << round << " " << i;
            EXPECT_FALSE(cache.probe(0, v)) << first << " " << round;
            EXPECT_EQ(cache.hits(), 0u);
        }
    }
    // Slots never written still hold the fill (key 0) when the count wraps: generation 0 is never current.
    EvalCache at_wrap(0xFFFFFFFF);
    at_wrap.clear();
    Value v = 0;
    EXPECT_FALSE(at_wrap.probe(0, v));
}

TEST(EvalCache, SwitchedOffItIsNotConsulted) {
    Evaluator ev("quince");
    ev.set_cache(false);
    Position pos;
    ASSERT_TRUE(pos.set_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"));
    const Value v = ev.evaluate(pos);
    EXPECT_EQ(ev.evaluate(pos), v);
    EXPECT_EQ(ev.cache().probes(), 0u);
    ev.set_cache(true);
    ev.evaluate(pos);
    EXPECT_EQ(ev.cache().probes(), 1u);
}

// The evaluation after a null move is not -parent + 2 * tempo: the interpolation floors in the side to
// move's view (a remainder costs the side to move one centipawn either way) and the passer terms
// depend on who moves (unstoppable passers). So the search evaluates null-move children afresh (the TT
// and this cache still serve repeats); this test keeps the fact checked.
TEST(EvalCache, NullMoveChildIsNotTheNegatedParent) {
    const std::vector<Position> positions = cache_positions();
    for (const std::string& name : handcrafted_profile_names()) {
        if (name == "simple") continue;
        Evaluator ev(name);
        ev.set_lazy(false);
        const int tempo = find_profile_shared(name)->w.tempo;
        int checked = 0, differ = 0;
        for (Position pos : positions) {
            if (pos.in_check()) continue;
            const Value parent = ev.evaluate_general(pos);
            pos.do_null_move();
            const Value child = ev.evaluate_general(pos);
            pos.undo_null_move();
            ++checked;
            differ += child != -parent + 2 * tempo;
        }
        EXPECT_GT(differ, 0) << name << ": " << checked << " positions";
    }
}

}  // namespace

}  // namespace QUINCE_TEST_FILE
}  // namespace
