// Transposition table shared by all search threads.
//
// Layout: 64-byte clusters (one cache line) of 4 entries. Each entry is two 64-bit words,
// `data` and `key ^ data` (the lockless-hashing trick): a reader recomputes the key from the two
// words and rejects the entry if another thread tore it with a concurrent write. Both words are
// relaxed atomics, so there is no data race (ThreadSanitizer-clean) and on x86 they compile to
// plain loads and stores. The full 64-bit key is verified, so wrong hits are practically impossible;
// the search still validates the TT move with pseudo_legal() + legal() before playing it.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "core/types.h"

namespace quince::search {

enum Bound : std::uint8_t { BOUND_NONE = 0, BOUND_UPPER = 1, BOUND_LOWER = 2, BOUND_EXACT = 3 };

// Mate and tablebase scores are stored relative to the node (distance to mate or to the tablebase
// conversion from here), not to the root.
constexpr Value value_to_tt(Value v, int ply) {
    return v >= VALUE_TB_WIN_IN_MAX_PLY ? v + ply : v <= VALUE_TB_LOSS_IN_MAX_PLY ? v - ply : v;
}
constexpr Value value_from_tt(Value v, int ply) {
    if (v == VALUE_NONE) return VALUE_NONE;
    return v >= VALUE_TB_WIN_IN_MAX_PLY ? v - ply : v <= VALUE_TB_LOSS_IN_MAX_PLY ? v + ply : v;
}

struct TTData {
    Move move;
    Value value = VALUE_NONE;  // as stored (node-relative); convert with value_from_tt
    Value eval = VALUE_NONE;
    int depth = 0;
    Bound bound = BOUND_NONE;
    bool is_pv = false;
};

class TranspositionTable {
public:
    static constexpr int ENTRIES_PER_CLUSTER = 4;
    // Stored depth is offset so that qsearch depths (0, -1) fit an unsigned byte.
    static constexpr int DEPTH_OFFSET = 8;

    TranspositionTable() { resize(16); }
    ~TranspositionTable();
    TranspositionTable(const TranspositionTable&) = delete;
    TranspositionTable& operator=(const TranspositionTable&) = delete;

    // Returns false (and keeps the old table) when the memory cannot be allocated.
    bool resize(std::size_t mb);
    std::size_t size_mb() const { return size_mb_; }
    void clear();
    void new_search() { generation_ = (generation_ + 1) & 31; }

    // Fills *out and returns true when the key is found.
    bool probe(Key key, TTData* out) const;
    void store(Key key, Value value, bool is_pv, Bound bound, int depth, Move move, Value eval);
    void prefetch(Key key) const { __builtin_prefetch(&clusters_[index(key)]); }

    int hashfull() const;  // permille of sampled entries written in the current search

    // Fault-injection hook for the tests: replaces the data word of every occupied entry with seeded
    // random bits that still pass the key check (what a memory error or a bug storing garbage would
    // look like to the search: any move, value, eval, depth and bound). Returns how many entries it
    // changed. Only while no search runs. An out-of-line function the search never calls: free there.
    std::size_t corrupt_for_test(std::uint64_t seed);

private:
    struct Entry {
        std::atomic<std::uint64_t> data{0};
        std::atomic<std::uint64_t> check{0};  // key ^ data
    };
    struct alignas(64) Cluster {
        Entry entry[ENTRIES_PER_CLUSTER];
    };
    static_assert(sizeof(Cluster) == 64);

    std::size_t index(Key key) const {
        return std::size_t((static_cast<unsigned __int128>(key) * cluster_count_) >> 64);
    }

    Cluster* clusters_ = nullptr;
    std::size_t cluster_count_ = 0;
    std::size_t size_mb_ = 0;
    std::uint8_t generation_ = 0;
};

}  // namespace quince::search
