// quince-epd: runs a test suite (WAC, STS, Arasan, ECM, BK, EET ... in EPD) through the engine in-process
// and reports, per position and in total, what was solved, the STS points, and when the solution was found.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <chrono>
#include <mutex>
#include <sstream>
#include <thread>

#include "board/notation.h"
#include "core/text.h"
#include "suite.h"

using namespace quince;

namespace {

const char* const USAGE =
    "usage: quince-epd FILE [--movetime MS | --nodes N | --depth D] [--threads N] [--hash MB]\n"
    "                  [--profile NAME] [--lazy on|off] [--disable FEATURES] [--enable CANDIDATES] [--jobs N] [--first N] [--quiet]\n"
    "  Searches every position of the EPD file (default --movetime 1000) and judges the move played:\n"
    "  solved = one of bm and none of am; STS points from c0 \"move=points, ...\".\n"
    "  --jobs N searches N positions at once (one engine each); --first N stops after N positions.\n";

struct Settings {
    search::Limits limits;
    search::SearchOptions options;
    int threads = 1;
    std::size_t hash_mb = 16;
    eval::EvalPtr evaluation;  // --profile; null: the default
    bool lazy = true;
    int jobs = 1;
    std::size_t first = 0;
    bool quiet = false;
};

// Returns false with a message for anything it does not understand.
bool parse_arguments(int argc, char** argv, std::string* file, Settings* s, std::string* error) {
    bool limit_given = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a[0] != '-') {
            if (!file->empty()) return *error = "more than one file given", false;
            *file = a;
            continue;
        }
        if (a == "--quiet") {
            s->quiet = true;
            continue;
        }
        if (i + 1 >= argc) return *error = a + " needs a value", false;
        const char* v = argv[++i];
        std::int64_t n = 0;
        auto number = [&](std::int64_t min, std::int64_t max) {
            if (parse_integer(v, &n, min, max)) return true;
            *error = a + ": expected a number from " + std::to_string(min) + " to " + std::to_string(max);
            return false;
        };
        if (a == "--movetime" || a == "--nodes" || a == "--depth") {
            if (!number(1, a == "--depth" ? 127 : INT64_MAX)) return false;
            if (a == "--movetime") s->limits.movetime = n;
            else if (a == "--nodes") s->limits.nodes = std::uint64_t(n);
            else s->limits.depth = int(n);
            limit_given = true;
        } else if (a == "--threads") {
            if (!number(1, 256)) return false;
            s->threads = int(n);
        } else if (a == "--hash") {
            if (!number(1, 65536)) return false;
            s->hash_mb = std::size_t(n);
        } else if (a == "--jobs") {
            if (!number(1, 256)) return false;
            s->jobs = int(n);
        } else if (a == "--first") {
            if (!number(1, INT64_MAX)) return false;
            s->first = std::size_t(n);
        } else if (a == "--profile") {
            if (!(s->evaluation = eval::builtin_evaluation(v, error))) return false;
        } else if (a == "--lazy") {
            if (std::string(v) != "on" && std::string(v) != "off") return *error = "--lazy: on or off", false;
            s->lazy = std::string(v) == "on";
        } else if (a == "--disable") {
            if (!s->options.features.parse_disabled(v, error)) return false;
        } else if (a == "--enable") {
            if (!s->options.features.parse_enabled(v, error)) return false;
        } else {
            return *error = "unknown option " + a, false;
        }
    }
    if (file->empty()) return *error = "no EPD file given", false;
    if (!limit_given) s->limits.movetime = 1000;
    s->options.move_overhead = 0;  // no GUI between us and the engine
    return true;
}

std::string moves_text(const Position& pos, const std::vector<Move>& moves) {
    std::string out;
    for (Move m : moves) {
        if (!out.empty()) out += ' ';
        out += move_to_san(pos, m);
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    std::string file, error;
    Settings s;
    if (!parse_arguments(argc, argv, &file, &s, &error)) {
        std::cerr << "quince-epd: " << error << "\n" << USAGE;
        return 2;
    }
    std::ifstream in(file);
    if (!in) {
        std::cerr << "quince-epd: cannot open " << file << "\n";
        return 2;
    }

    std::vector<epd::Problem> problems;
    std::string line;
    for (int number = 1; std::getline(in, line) && (!s.first || problems.size() < s.first); ++number) {
        epd::Record record;
        epd::Problem problem;
        if (!epd::parse_record(line, &record, &error)) {
            if (!error.empty()) std::cout << "line " << number << ": skipped: " << error << "\n";
            continue;
        }
        if (!epd::make_problem(record, &problem, &error)) {
            std::cout << "line " << number << ": skipped: " << error << "\n";
            continue;
        }
        if (problem.id.empty()) problem.id = "line " + std::to_string(number);
        problems.push_back(std::move(problem));
    }

    // One engine per job; each job takes the next unsolved position.
    std::vector<epd::Outcome> outcomes(problems.size());
    std::atomic<std::size_t> next{0};
    std::mutex print_mutex;
    auto work = [&]() {
        search::Engine engine;
        engine.set_threads(s.threads);
        engine.set_hash(s.hash_mb);
        engine.set_eval(s.evaluation);
        engine.set_lazy_eval(s.lazy);
        for (std::size_t i; (i = next++) < problems.size();) {
            const epd::Problem& p = problems[i];
            const epd::Outcome o = epd::solve(engine, p, s.limits, s.options);
            outcomes[i] = o;
            if (s.quiet) continue;
            std::ostringstream out;
            out << std::left << std::setw(28) << p.id << (o.solved ? " ok   " : " --   ") << std::setw(7)
                << move_to_san(p.pos, o.played);
            if (!p.best.empty()) out << " bm " << std::setw(12) << moves_text(p.pos, p.best);
            if (!p.avoid.empty()) out << " am " << std::setw(12) << moves_text(p.pos, p.avoid);
            if (p.max_points()) out << " points " << o.points << "/" << p.max_points();
            out << " depth " << o.depth << " nodes " << o.nodes;
            if (o.solved) out << " found " << std::fixed << std::setprecision(2) << o.found_ms / 1000.0 << "s/d" << o.found_depth;
            std::lock_guard<std::mutex> lock(print_mutex);
            std::cout << out.str() << std::endl;
        }
    };
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> jobs;
    for (int j = 0; j < s.jobs; ++j) jobs.emplace_back(work);
    for (std::thread& t : jobs) t.join();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::cout << "\n" << epd::summary(problems, outcomes, secs);
    return 0;
}
