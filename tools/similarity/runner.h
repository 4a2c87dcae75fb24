// Runs the searches of a similarity test: every engine searches every position three times, in the test
// run and in its two controls (the same limit again, and twice the limit), each search after ucinewgame so
// that no search depends on another. Engines run as UCI processes, `threads` at a time. Every result is
// appended to the state file as it arrives, keyed by engine, run and position, so that an interrupted test
// continues where it stopped and a test with one more engine searches only for that one.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engines.h"

namespace quince::similarity {

// The three searches of each position.
enum Run { RUN_TEST = 0, RUN_REPEAT = 1, RUN_DOUBLE = 2, RUN_NB = 3 };
extern const char* const RUN_NAMES[RUN_NB];  // "test", "repeat", "double"

struct SearchLimit {
    std::int64_t movetime = 0;  // ms; or
    std::uint64_t nodes = 0;
    std::string go(Run run) const;  // "go movetime 50", doubled for RUN_DOUBLE
    std::string text() const;       // "movetime 50 ms", "nodes 10000"
};

struct RunnerSettings {
    std::vector<EngineSpec> engines;
    std::vector<std::string> fens;
    SearchLimit limit;
    int threads = 1;             // engine processes at a time
    std::string state_path;      // empty: results kept in memory only
    std::int64_t search_timeout_ms = 0;  // 0: movetime × 4 + 10 s, or 120 s for a node limit
    const std::atomic<bool>* interrupt = nullptr;
    // Called (from the worker threads, one at a time) after every search: searches done, searches to do.
    std::function<void(std::int64_t done, std::int64_t total)> progress;
};

struct EngineResults {
    std::string id_name;                            // from the engine's `id name` (empty when all came from the state)
    std::array<std::vector<std::string>, RUN_NB> moves;  // [run][position]: the UCI move, "" when missing
    std::int64_t searched = 0;                      // searches made in this invocation
    double busy_seconds = 0;                        // their time, ucinewgame and isready included
};

struct RunOutcome {
    std::vector<EngineResults> engines;
    std::int64_t searched = 0, reused = 0;  // searches made now, results taken from the state file
    bool interrupted = false;
};

// False + *error for a state file that cannot be read or written or is not one, an engine that does not
// start or lacks an option, or a search that fails twice (crash, timeout, illegal move). The results
// reached so far stay in the state file.
bool run_searches(const RunnerSettings& settings, RunOutcome* out, std::string* error);

// The state file's first line.
constexpr const char* STATE_HEADER = "# quince similarity state 1";

}  // namespace quince::similarity
