// quince-epd: runs a test suite (WAC, STS, Arasan, ECM, BK, EET ... in EPD) through the engine in-process
// and reports, per position and in total, what was solved, the STS points, and when the solution was found.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <chrono>
#include <mutex>
#include <sstream>
#include <thread>

#include "board/notation.h"
#include "cli/cli.h"
#include "core/text.h"
#include "suite.h"

using namespace quince;

namespace {

const char* const USAGE =
    "usage: quince-epd FILE [--movetime MS | --nodes N | --depth D] [--threads N] [--hash MB]\n"
    "                  [--profile NAME] [--lazy on|off] [--disable FEATURES] [--enable CANDIDATES] [--jobs N] [--first N] [--quiet]\n"
    "  Searches every position of the EPD file (default --movetime 1000) and judges the move played:\n"
    "  solved = one of bm and none of am; STS points from c0 \"move=points, ...\".\n"
    "  --jobs N searches N positions at once (one engine each); --first N stops after N positions.\n"
    "  Options take --name=value or --name value.\n";

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

// The words after the program's name; false with a one-line message for anything it does not understand.
bool parse_arguments(const cli::Args& args, std::string* file, Settings* s, std::string* error) {
    cli::ParsedArgs a;
    if (!cli::parse_args(args,
                         {{"movetime", true}, {"nodes", true}, {"depth", true}, {"threads", true}, {"hash", true},
                          {"jobs", true}, {"first", true}, {"profile", true}, {"lazy", true}, {"disable", true},
                          {"enable", true}, {"quiet", false}},
                         &a, error))
        return false;
    for (const std::string& word : a.positional) {
        if (word.size() > 1 && word[0] == '-') return *error = "unknown option '" + printable(word) + "'", false;
        if (!file->empty()) return *error = "more than one file given", false;
        *file = word;
    }
    if (file->empty()) return *error = "no EPD file given", false;
    // Every number is at least 1.
    const std::pair<const char*, long long> maxima[] = {{"movetime", INT64_MAX}, {"nodes", INT64_MAX}, {"depth", 127},
                                                        {"threads", 256}, {"hash", 65536}, {"jobs", 256},
                                                        {"first", INT64_MAX}};
    std::map<std::string, long long> n;
    for (const auto& [name, max] : maxima)
        if (a.has(name) && !cli::parse_number(a.options.at(name), 1, max, std::string("--") + name, &n[name], error))
            return false;
    if (n.count("movetime")) s->limits.movetime = n["movetime"];
    if (n.count("nodes")) s->limits.nodes = std::uint64_t(n["nodes"]);
    if (n.count("depth")) s->limits.depth = int(n["depth"]);
    if (!n.count("movetime") && !n.count("nodes") && !n.count("depth")) s->limits.movetime = 1000;
    if (n.count("threads")) s->threads = int(n["threads"]);
    if (n.count("hash")) s->hash_mb = std::size_t(n["hash"]);
    if (n.count("jobs")) s->jobs = int(n["jobs"]);
    if (n.count("first")) s->first = std::size_t(n["first"]);
    if (a.has("profile") && !(s->evaluation = eval::builtin_evaluation(a.options.at("profile"), error))) return false;
    if (a.has("lazy")) {
        const std::string& v = a.options.at("lazy");
        if (v != "on" && v != "off") return *error = "--lazy: on or off", false;
        s->lazy = v == "on";
    }
    if (a.has("disable") && !s->options.features.parse_disabled(a.options.at("disable"), error)) return false;
    if (a.has("enable") && !s->options.features.parse_enabled(a.options.at("enable"), error)) return false;
    s->quiet = a.has("quiet");
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

// The program: the words after its name; the report on out, errors on err; the exit status.
int run(const cli::Args& args, std::ostream& out, std::ostream& err) {
    if (cli::asks_for_help(args)) {
        out << USAGE;
        return cli::EXIT_OK;
    }
    std::string file, error;
    Settings s;
    if (!parse_arguments(args, &file, &s, &error)) return cli::program_usage_error(err, "quince-epd", error);
    std::ifstream in(file);
    if (!in) {
        err << "quince-epd: cannot open " << file << "\n";
        return cli::EXIT_USAGE;
    }

    std::vector<epd::Problem> problems;
    std::string line;
    for (int number = 1; std::getline(in, line) && (!s.first || problems.size() < s.first); ++number) {
        epd::Record record;
        epd::Problem problem;
        if (!epd::parse_record(line, &record, &error)) {
            if (!error.empty()) out << "line " << number << ": skipped: " << error << "\n";
            continue;
        }
        if (!epd::make_problem(record, &problem, &error)) {
            out << "line " << number << ": skipped: " << error << "\n";
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
            std::ostringstream row;
            row << std::left << std::setw(28) << p.id << (o.solved ? " ok   " : " --   ") << std::setw(7)
                << move_to_san(p.pos, o.played);
            if (!p.best.empty()) row << " bm " << std::setw(12) << moves_text(p.pos, p.best);
            if (!p.avoid.empty()) row << " am " << std::setw(12) << moves_text(p.pos, p.avoid);
            if (p.max_points()) row << " points " << o.points << "/" << p.max_points();
            row << " depth " << o.depth << " nodes " << o.nodes;
            if (o.solved) row << " found " << std::fixed << std::setprecision(2) << o.found_ms / 1000.0 << "s/d" << o.found_depth;
            std::lock_guard<std::mutex> lock(print_mutex);
            out << row.str() << std::endl;
        }
    };
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> jobs;
    for (int j = 0; j < s.jobs; ++j) jobs.emplace_back(work);
    for (std::thread& t : jobs) t.join();
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    out << "\n" << epd::summary(problems, outcomes, secs);
    return cli::EXIT_OK;
}

}  // namespace

int main(int argc, char** argv) { return run({argv + 1, argv + argc}, std::cout, std::cerr); }
