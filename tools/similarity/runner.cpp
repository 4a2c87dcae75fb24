#include "runner.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "board/notation.h"
#include "board/position.h"
#include "core/text.h"

namespace quince::similarity {

const char* const RUN_NAMES[RUN_NB] = {"test", "repeat", "double"};

std::string SearchLimit::go(Run run) const {
    const int factor = run == RUN_DOUBLE ? 2 : 1;
    return movetime > 0 ? "go movetime " + std::to_string(movetime * factor)
                        : "go nodes " + std::to_string(nodes * std::uint64_t(factor));
}

std::string SearchLimit::text() const {
    return movetime > 0 ? "movetime " + std::to_string(movetime) + " ms" : "nodes " + std::to_string(nodes);
}

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> split_tabs(const std::string& line) {
    std::vector<std::string> f;
    std::size_t from = 0;
    for (;;) {
        const std::size_t to = line.find('\t', from);
        f.push_back(line.substr(from, to == std::string::npos ? std::string::npos : to - from));
        if (to == std::string::npos) return f;
        from = to + 1;
    }
}

// The key of one engine's run in the state file: the engine as given, the run and its go command.
std::string join_tabs(std::initializer_list<std::string> fields) {
    std::string out;
    for (const std::string& f : fields) {
        if (!out.empty()) out += '\t';
        out += f;
    }
    return out;
}

std::string run_key(const EngineSpec& e, const SearchLimit& limit, Run run) {
    return join_tabs({e.key(), RUN_NAMES[run], limit.go(run)});
}

// Reads the results of an earlier invocation; a missing file is an empty state. Lines that do not parse
// (a last line cut short by an interruption) are skipped.
bool load_state(const std::string& path, const RunnerSettings& s, RunOutcome* out, std::string* error) {
    if (!std::filesystem::exists(path)) return true;
    std::ifstream in(path);
    std::string line;
    if (!in || !std::getline(in, line)) {
        if (in.eof() && line.empty()) return true;  // an empty file
        *error = "cannot read the state file '" + printable(path) + "'";
        return false;
    }
    if (line != STATE_HEADER) {
        *error = "the file '" + printable(path) + "' is not a similarity state file (its first line is not '" + STATE_HEADER + "')";
        return false;
    }
    std::unordered_map<std::string, std::pair<std::size_t, int>> keys;  // run key → engine, run
    for (std::size_t e = 0; e < s.engines.size(); ++e)
        for (int r = 0; r < RUN_NB; ++r) keys[run_key(s.engines[e], s.limit, Run(r))] = {e, r};
    std::unordered_map<std::string, std::size_t> positions;
    for (std::size_t i = 0; i < s.fens.size(); ++i) positions.emplace(s.fens[i], i);
    while (std::getline(in, line)) {
        const std::vector<std::string> f = split_tabs(line);
        if (f.size() != 5 || f[4].size() < 4 || f[4].size() > 5) continue;
        const auto k = keys.find(join_tabs({f[0], f[1], f[2]}));
        const auto p = positions.find(f[3]);
        if (k == keys.end() || p == positions.end()) continue;
        std::string& slot = out->engines[k->second.first].moves[std::size_t(k->second.second)][p->second];
        if (slot.empty()) ++out->reused;
        slot = f[4];
    }
    return true;
}

struct Unit {
    std::size_t engine;
    std::vector<std::size_t> positions;
};

}  // namespace

bool run_searches(const RunnerSettings& s, RunOutcome* out, std::string* error) {
    RunOutcome result;
    result.engines.resize(s.engines.size());
    for (EngineResults& e : result.engines)
        for (auto& run : e.moves) run.assign(s.fens.size(), "");
    if (!s.state_path.empty() && !load_state(s.state_path, s, &result, error)) return false;

    // The work: per engine, chunks of the positions that still miss a run.
    std::vector<Unit> units;
    std::int64_t total = 0;
    const std::size_t chunk = 25;
    for (std::size_t e = 0; e < s.engines.size(); ++e) {
        Unit unit{e, {}};
        for (std::size_t p = 0; p < s.fens.size(); ++p) {
            bool missing = false;
            for (int r = 0; r < RUN_NB; ++r)
                if (result.engines[e].moves[std::size_t(r)][p].empty()) missing = true, ++total;
            if (!missing) continue;
            unit.positions.push_back(p);
            if (unit.positions.size() == chunk) units.push_back(unit), unit.positions.clear();
        }
        if (!unit.positions.empty()) units.push_back(unit);
    }

    // Engines with work are started once first: a wrong command or option is reported before any search.
    std::vector<bool> checked(s.engines.size(), false);
    for (const Unit& u : units) {
        if (checked[u.engine]) continue;
        checked[u.engine] = true;
        const EngineSpec& spec = s.engines[u.engine];
        match::UciEngine engine(engine_config(spec));
        std::string why;
        if (!engine.start(&why)) {
            *error = "engine '" + printable(spec.text) + "': " + why;
            return false;
        }
        const std::vector<std::string> unknown = engine.unknown_options();
        result.engines[u.engine].id_name = engine.id_name();
        engine.quit();
        if (!unknown.empty()) {
            *error = "engine '" + printable(spec.text) + "' (" + printable(engine.id_name()) + ") has no option '" +
                     printable(unknown[0]) + "'";
            return false;
        }
    }

    std::ofstream state;
    if (!s.state_path.empty()) {
        const bool fresh = !std::filesystem::exists(s.state_path) || std::filesystem::file_size(s.state_path) == 0;
        // A last line cut short by an interruption is ended, so that the next result starts a line of its own.
        bool ends_line = true;
        if (!fresh) {
            std::ifstream tail(s.state_path, std::ios::binary);
            tail.seekg(-1, std::ios::end);
            ends_line = tail.get() == '\n';
        }
        state.open(s.state_path, std::ios::app);
        if (!state) {
            *error = "cannot write the state file '" + printable(s.state_path) + "'";
            return false;
        }
        if (fresh) state << STATE_HEADER << "\n" << std::flush;
        else if (!ends_line) state << "\n" << std::flush;
    }

    const std::int64_t timeout = s.search_timeout_ms > 0 ? s.search_timeout_ms
                                 : s.limit.movetime > 0  ? s.limit.movetime * 2 * 4 + 10000
                                                         : 120000;
    std::mutex mutex;
    std::size_t next_unit = 0;
    std::int64_t done = 0;
    std::string failure;
    bool stop = false;
    const auto stopped = [&] {
        std::lock_guard<std::mutex> lock(mutex);
        return stop || (s.interrupt && s.interrupt->load());
    };

    const auto worker = [&] {
        std::unique_ptr<match::UciEngine> engine;
        std::size_t current = s.engines.size();
        for (;;) {
            Unit unit;
            {
                std::lock_guard<std::mutex> lock(mutex);
                if (stop || next_unit == units.size()) break;
                unit = units[next_unit++];
            }
            const EngineSpec& spec = s.engines[unit.engine];
            if (unit.engine != current) {
                if (engine) engine->quit();
                engine = std::make_unique<match::UciEngine>(engine_config(spec));
                current = unit.engine;
            }
            for (std::size_t p : unit.positions) {
                for (int r = 0; r < RUN_NB; ++r) {
                    if (stopped()) goto finish;
                    EngineResults& mine = result.engines[unit.engine];
                    {
                        std::lock_guard<std::mutex> lock(mutex);
                        if (!mine.moves[std::size_t(r)][p].empty()) continue;
                    }
                    const std::string go = s.limit.go(Run(r));
                    std::string move, why;
                    const auto start = Clock::now();
                    // A failed search (crash, timeout, illegal move) is tried once more on a fresh process.
                    for (int attempt = 0; attempt < 2 && move.empty(); ++attempt) {
                        if (!engine->prepare_new_game(&why)) continue;
                        const match::SearchResult sr = engine->search("position fen " + s.fens[p], go, timeout);
                        if (sr.status != match::SearchResult::Status::Ok) {
                            why = sr.error;
                            engine->quit();
                            continue;
                        }
                        Position pos;
                        pos.set_fen(s.fens[p]);
                        const Move m = uci_to_move(pos, sr.bestmove);
                        if (m == Move::none()) {
                            why = "illegal move '" + printable(sr.bestmove) + "'";
                            engine->quit();
                            continue;
                        }
                        move = move_to_uci(m, false);
                    }
                    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
                    std::lock_guard<std::mutex> lock(mutex);
                    if (move.empty()) {
                        if (failure.empty())
                            failure = "engine '" + printable(spec.text) + "', position " + std::to_string(p + 1) + " (" +
                                      s.fens[p] + "), " + s.limit.go(Run(r)) + ": " + why;
                        stop = true;
                        goto finish;
                    }
                    mine.moves[std::size_t(r)][p] = move;
                    ++mine.searched;
                    mine.busy_seconds += seconds;
                    ++result.searched;
                    if (state.is_open())
                        state << run_key(spec, s.limit, Run(r)) << '\t' << s.fens[p] << '\t' << move << "\n" << std::flush;
                    ++done;
                    if (s.progress) s.progress(done, total);
                }
            }
        }
    finish:
        if (engine) engine->quit();
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < std::max(1, s.threads); ++t) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    if (!failure.empty()) {
        *error = failure;
        return false;
    }
    result.interrupted = done < total;
    *out = std::move(result);
    return true;
}

}  // namespace quince::similarity
