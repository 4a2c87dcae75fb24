#include "search/tt.h"

#include <algorithm>
#include <cstring>
#include <new>
#include <random>

#if defined(_WIN32)
#ifndef NOMINMAX
#define NOMINMAX  // std::min/std::max, not the macros of windows.h
#endif
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
#else
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace quince::search {

namespace {

// data word: move (16) | value (16) | eval (16) | depth + offset (8) | generation (5) pv (1) bound (2)
std::uint64_t pack(Move move, Value value, Value eval, int depth, std::uint8_t gen_pv_bound) {
    return std::uint64_t(move.raw()) | (std::uint64_t(std::uint16_t(std::int16_t(value))) << 16) |
           (std::uint64_t(std::uint16_t(std::int16_t(eval))) << 32) | (std::uint64_t(std::uint8_t(depth)) << 48) |
           (std::uint64_t(gen_pv_bound) << 56);
}
Move data_move(std::uint64_t d) { return Move(std::uint16_t(d)); }
Value data_value(std::uint64_t d) { return std::int16_t(std::uint16_t(d >> 16)); }
Value data_eval(std::uint64_t d) { return std::int16_t(std::uint16_t(d >> 32)); }
// The search stores scores strictly inside (-VALUE_INFINITE, VALUE_INFINITE), or VALUE_NONE. Anything else
// can only come from corrupted memory, and would reach the root as a score no aspiration window can
// hold (the re-search loop would never end): it is read as "no value".
Value in_range_or_none(Value v) { return v > -VALUE_INFINITE && v < VALUE_INFINITE ? v : VALUE_NONE; }
int data_depth(std::uint64_t d) { return int((d >> 48) & 0xFF); }
std::uint8_t data_gpb(std::uint64_t d) { return std::uint8_t(d >> 56); }

}  // namespace

namespace {
#if defined(_WIN32)
// Page-aligned memory zeroed by the system, as mmap gives it elsewhere.
void* map_zeroed(std::size_t bytes) {
    // A table larger than the physical memory would only thrash: refuse it.
    MEMORYSTATUSEX status{};
    status.dwLength = sizeof(status);
    if (GlobalMemoryStatusEx(&status) && bytes > status.ullTotalPhys) return nullptr;
    return VirtualAlloc(nullptr, bytes, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
}
void unmap(void* p, std::size_t) { VirtualFree(p, 0, MEM_RELEASE); }
void prefault(void* p, std::size_t bytes) { std::memset(p, 0, bytes); }
#else
// Page-aligned anonymous memory (zeroed by the kernel), with huge pages where available.
void* map_zeroed(std::size_t bytes) {
    // A table larger than the physical memory would only thrash: refuse it.
    long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && page_size > 0 && bytes > std::size_t(pages) * std::size_t(page_size)) return nullptr;
    void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
#if defined(MADV_HUGEPAGE)
    madvise(p, bytes, MADV_HUGEPAGE);  // fewer TLB misses on random probes
#endif
    return p;
}
void unmap(void* p, std::size_t bytes) { munmap(p, bytes); }
// Faults in the pages of a fresh (zero) table now, which the search would otherwise pay for one page fault at
// a time. The kernel does it without writing from here: under ThreadSanitizer a memset of the table also
// wrote four times its size of shadow memory, most of the start-up time of every sanitized engine process.
void prefault(void* p, std::size_t bytes) {
#if defined(MADV_POPULATE_WRITE)
    if (madvise(p, bytes, MADV_POPULATE_WRITE) == 0) return;
#endif
    std::memset(p, 0, bytes);  // kernels before 5.14
}
#endif
}  // namespace

TranspositionTable::~TranspositionTable() {
    if (clusters_) unmap(clusters_, cluster_count_ * sizeof(Cluster));
}

bool TranspositionTable::resize(std::size_t mb) {
    std::size_t count = mb * 1024 * 1024 / sizeof(Cluster);
    void* fresh = map_zeroed(count * sizeof(Cluster));
    if (!fresh) return false;
    if (clusters_) unmap(clusters_, cluster_count_ * sizeof(Cluster));
    clusters_ = static_cast<Cluster*>(fresh);
    cluster_count_ = count;
    size_mb_ = mb;
    prefault(clusters_, count * sizeof(Cluster));
    generation_ = 0;
    return true;
}

void TranspositionTable::clear() {
    // Only called while no search runs. Writing every byte also pre-faults the pages, which the
    // search would otherwise pay for one page fault at a time.
    std::memset(static_cast<void*>(clusters_), 0, cluster_count_ * sizeof(Cluster));
    generation_ = 0;
}

bool TranspositionTable::probe(Key key, TTData* out) const {
    const Cluster& c = clusters_[index(key)];
    for (const Entry& e : c.entry) {
        std::uint64_t d = e.data.load(std::memory_order_relaxed);
        std::uint64_t chk = e.check.load(std::memory_order_relaxed);
        if ((d ^ chk) != key || d == 0) continue;
        out->move = data_move(d);
        out->value = in_range_or_none(data_value(d));
        out->eval = in_range_or_none(data_eval(d));
        out->depth = data_depth(d) - DEPTH_OFFSET;
        out->bound = Bound(data_gpb(d) & 3);
        out->is_pv = data_gpb(d) & 4;
        return true;
    }
    return false;
}

void TranspositionTable::store(Key key, Value value, bool is_pv, Bound bound, int depth, Move move, Value eval) {
    Cluster& c = clusters_[index(key)];
    Entry* target = nullptr;
    std::uint64_t target_data = 0;
    int worst = 1 << 30;
    for (Entry& e : c.entry) {
        std::uint64_t d = e.data.load(std::memory_order_relaxed);
        std::uint64_t chk = e.check.load(std::memory_order_relaxed);
        if ((d ^ chk) == key && d != 0) {
            target = &e;
            target_data = d;
            break;
        }
        // Replacement score: shallow entries from older searches go first.
        int age = (32 + generation_ - (data_gpb(d) >> 3)) & 31;
        int worth = data_depth(d) - 8 * age;
        if (worth < worst) {
            worst = worth;
            target = &e;
            target_data = 0;
        }
    }
    bool same_key = target_data != 0;
    if (same_key) {
        // Keep a deeper result for this position unless the new one is exact.
        int old_depth = data_depth(target_data) - DEPTH_OFFSET;
        if (!move) move = data_move(target_data);
        if (bound != BOUND_EXACT && depth + 4 < old_depth && (data_gpb(target_data) >> 3) == generation_) {
            // Still refresh the move if we found one.
            if (move != data_move(target_data)) {
                std::uint64_t d = (target_data & ~std::uint64_t(0xFFFF)) | move.raw();
                target->data.store(d, std::memory_order_relaxed);
                target->check.store(key ^ d, std::memory_order_relaxed);
            }
            return;
        }
    }
    depth = std::clamp(depth, -DEPTH_OFFSET, 255 - DEPTH_OFFSET);
    std::uint8_t gpb = std::uint8_t((generation_ << 3) | (is_pv ? 4 : 0) | bound);
    std::uint64_t d = pack(move, value, eval, depth + DEPTH_OFFSET, gpb);
    target->data.store(d, std::memory_order_relaxed);
    target->check.store(key ^ d, std::memory_order_relaxed);
}

int TranspositionTable::hashfull() const {
    std::size_t sample = std::min<std::size_t>(250, cluster_count_);
    int used = 0;
    for (std::size_t i = 0; i < sample; ++i)
        for (const Entry& e : clusters_[i].entry) {
            std::uint64_t d = e.data.load(std::memory_order_relaxed);
            if (d != 0 && (data_gpb(d) >> 3) == generation_) ++used;
        }
    return int(used * 1000 / (sample * ENTRIES_PER_CLUSTER));
}

std::size_t TranspositionTable::corrupt_for_test(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::size_t changed = 0;
    for (std::size_t i = 0; i < cluster_count_; ++i)
        for (Entry& e : clusters_[i].entry) {
            const std::uint64_t d = e.data.load(std::memory_order_relaxed);
            if (d == 0) continue;
            const Key key = d ^ e.check.load(std::memory_order_relaxed);
            std::uint64_t z = rng();
            if (z == 0) z = 1;  // 0 marks an empty entry
            e.data.store(z, std::memory_order_relaxed);
            e.check.store(key ^ z, std::memory_order_relaxed);
            ++changed;
        }
    return changed;
}

}  // namespace quince::search
