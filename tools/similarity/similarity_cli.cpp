#include "similarity_cli.h"

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/cli.h"
#include "cli/program.h"
#include "core/text.h"
#include "eval/evaluation.h"
#include "eval/profile.h"
#include "positions.h"
#include "report.h"

namespace quince::similarity {

const char* const SIMILARITY_ARGUMENTS =
    "[--positions FILE.epd] [--limit N] [--movetime MS | --nodes N] [--threads N] [--json] [--svg FILE] "
    "[--state FILE] [--terms] ENGINE... | --make-positions N --out FILE [--seed S] [--threads N]";
const char* const SIMILARITY_SUMMARY =
    "how often engines choose the same move: matrix with 95% intervals, self-controls, nearest neighbours, tree";
const char* const SIMILARITY_DETAILS =
    "\nENGINE: profile:NAME (Quince with a built-in profile), profile:FILE (a weights file), or a UCI engine\n"
    "command; options follow as :Name=Value, e.g. /usr/games/stockfish:Threads=1:Hash=16,\n"
    "'/usr/games/toga2:Number of Threads=1:OwnBook=false'. Quince's profiles run with Threads=1 Hash=16\n"
    "and Move Overhead=0 (the whole movetime).\n\n"
    "  --positions FILE  EPD positions (default: the shipped set of 3000 quiet positions with several good moves)\n"
    "  --limit N         the first N positions only\n"
    "  --movetime MS     time per search (default 100); or --nodes N\n"
    "  --threads N       engine processes at a time (default 1)\n"
    "  --state FILE      keep every result in FILE: a rerun continues, and adds engines without searching again\n"
    "  --json            the report as JSON; --svg FILE also draws the heat map and the tree\n"
    "  --terms           also the correlation of each evaluation term between Quince's profiles (automatic\n"
    "                    when every engine is a profile)\n"
    "Every engine searches every position three times: the test, once more (same limit) and at twice the\n"
    "limit; those controls show how much an engine differs from itself. Each search follows ucinewgame.\n"
    "  --make-positions N --out FILE [--seed S]  make a position set as the shipped one was made\n";

namespace {

constexpr const char* NAME = "similarity";

int make_positions(const cli::ParsedArgs& a, std::ostream& err, const CliContext& context) {
    std::string error;
    long long count = 0, threads = 1;
    unsigned long long seed = 1;
    if (!cli::parse_number(a.options.at("make-positions"), 1, 1000000, "--make-positions", &count, &error))
        return cli::usage_error(err, NAME, error);
    if (!a.has("out")) return cli::usage_error(err, NAME, "--make-positions needs --out FILE");
    if (a.has("seed") && !parse_integer(a.options.at("seed"), &seed))
        return cli::usage_error(err, NAME, "--seed must be a whole number, got '" + printable(a.options.at("seed")) + "'");
    if (a.has("threads") && !cli::parse_number(a.options.at("threads"), 1, 256, "--threads", &threads, &error))
        return cli::usage_error(err, NAME, error);
    for (const char* other : {"positions", "limit", "movetime", "nodes", "json", "svg", "state", "terms"})
        if (a.has(other)) return cli::usage_error(err, NAME, std::string("--") + other + " does not go with --make-positions");
    if (!a.positional.empty()) return cli::usage_error(err, NAME, "--make-positions takes no engines");
    PositionSetConfig config;
    config.count = int(count);
    config.seed = seed;
    config.threads = int(threads);
    std::vector<std::string> fens;
    const bool ok = make_position_set(config, &fens, &error, context.interrupt, [&](int kept, int games) {
        if (context.progress) err << "\r" << kept << " positions from " << games << " games" << std::flush;
    });
    if (context.progress) err << "\n";
    if (!ok) {
        err << "quince similarity: " << error << "\n";
        return cli::EXIT_FAILED;
    }
    std::ofstream file(a.options.at("out"));
    file << "# Quince's similarity positions: " << fens.size() << " quiet positions from self-play where the best move\n"
         << "# is at most " << config.margin_cp << " cp better than the next (two searches of " << config.check_nodes
         << " nodes), score within +-" << config.max_score_cp << " cp,\n# at most " << config.per_game
         << " a game, from move " << config.min_fullmove << " on; games at " << config.play_nodes
         << " nodes a move from seeded random openings. Made by\n#   quince similarity --make-positions " << count
         << " --seed " << seed << " --out FILE\n";
    for (const std::string& f : fens) file << f << "\n";
    file.close();
    if (!file) {
        err << "quince similarity: cannot write '" << printable(a.options.at("out")) << "'\n";
        return cli::EXIT_FAILED;
    }
    return cli::EXIT_OK;
}

}  // namespace

int run_similarity_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
                       const CliContext& context) {
    cli::ParsedArgs a;
    std::string error;
    if (!cli::parse_args(args,
                         {{"positions", true}, {"limit", true}, {"movetime", true}, {"nodes", true}, {"threads", true},
                          {"json", false}, {"svg", true}, {"state", true}, {"terms", false}, {"make-positions", true},
                          {"out", true}, {"seed", true}},
                         &a, &error))
        return cli::usage_error(err, NAME, error);
    if (a.has("make-positions")) return make_positions(a, err, context);
    for (const char* only : {"out", "seed"})
        if (a.has(only)) return cli::usage_error(err, NAME, std::string("--") + only + " belongs to --make-positions");
    if (a.positional.empty()) return cli::usage_error(err, NAME, "no ENGINE given (profile:NAME, profile:FILE or a UCI command)");

    RunnerSettings settings;
    long long number = 0;
    if (a.has("movetime") && a.has("nodes")) return cli::usage_error(err, NAME, "--movetime and --nodes exclude each other");
    if (a.has("nodes")) {
        if (!cli::parse_number(a.options.at("nodes"), 1, 1000000000000LL, "--nodes", &number, &error))
            return cli::usage_error(err, NAME, error);
        settings.limit.nodes = std::uint64_t(number);
    } else {
        settings.limit.movetime = 100;
        if (a.has("movetime")) {
            if (!cli::parse_number(a.options.at("movetime"), 1, 3600000, "--movetime", &number, &error))
                return cli::usage_error(err, NAME, error);
            settings.limit.movetime = number;
        }
    }
    if (a.has("threads")) {
        if (!cli::parse_number(a.options.at("threads"), 1, 256, "--threads", &number, &error))
            return cli::usage_error(err, NAME, error);
        settings.threads = int(number);
    }
    long long limit = 0;
    if (a.has("limit") && !cli::parse_number(a.options.at("limit"), 1, 100000000, "--limit", &limit, &error))
        return cli::usage_error(err, NAME, error);

    for (const std::string& word : a.positional) {
        EngineSpec spec;
        if (!parse_engine(word, context.quince_path, &spec, &error)) return cli::usage_error(err, NAME, error);
        settings.engines.push_back(std::move(spec));
    }
    label_engines(settings.engines);
    int profiles = 0;
    for (const EngineSpec& e : settings.engines) profiles += e.is_profile;
    if (a.has("terms") && profiles < 2) return cli::usage_error(err, NAME, "--terms needs at least two profile:… engines");

    Report report;
    if (a.has("positions")) {
        report.positions_source = a.options.at("positions");
        std::ifstream in(report.positions_source);
        if (!in) return cli::usage_error(err, NAME, "cannot read '" + printable(report.positions_source) + "'");
        if (!read_positions(in, printable(report.positions_source), &settings.fens, &error))
            return cli::usage_error(err, NAME, error);
    } else {
        report.positions_source = DEFAULT_POSITIONS_NAME;
        std::istringstream in(default_positions_text());
        if (!read_positions(in, report.positions_source, &settings.fens, &error)) {
            err << "quince similarity: " << error << "\n";
            return cli::EXIT_FAILED;
        }
    }
    if (limit > 0 && std::size_t(limit) < settings.fens.size()) settings.fens.resize(std::size_t(limit));
    if (a.has("state")) settings.state_path = a.options.at("state");
    settings.interrupt = context.interrupt;
    if (context.progress)
        settings.progress = [&err](std::int64_t done, std::int64_t total) {
            err << "\r" << done << " of " << total << " searches" << std::flush;
        };

    RunOutcome outcome;
    const bool ok = run_searches(settings, &outcome, &error);
    if (context.progress) err << "\n";
    if (!ok) {
        err << "quince similarity: " << error << "\n";
        return cli::EXIT_FAILED;
    }
    if (outcome.interrupted) {
        err << "quince similarity: interrupted after " << outcome.searched << " searches; "
            << (settings.state_path.empty() ? "give --state FILE to keep results across runs"
                                            : "run the same command again to continue from '" + printable(settings.state_path) + "'")
            << "\n";
        return cli::EXIT_FAILED;
    }

    std::vector<EngineMoves> moves;
    for (std::size_t e = 0; e < settings.engines.size(); ++e) {
        const EngineResults& r = outcome.engines[e];
        moves.push_back({r.moves[0], r.moves[1], r.moves[2]});
        report.id_names.push_back(r.id_name);
        report.searches_per_second.push_back(r.busy_seconds > 0 ? r.searched / r.busy_seconds : 0.0);
    }
    report.engines = settings.engines;
    report.limit = settings.limit;
    report.similarity = compute_similarity(moves);
    std::vector<std::vector<double>> distance;
    for (const auto& row : report.similarity.same_move) {
        distance.emplace_back();
        for (const Share& s : row) distance.back().push_back(1.0 - s.value());
    }
    report.tree = average_linkage(distance);
    report.searched = outcome.searched;
    report.reused = outcome.reused;

    if (a.has("terms") || (profiles >= 2 && profiles == int(settings.engines.size()))) {
        std::vector<workbench::ProfileColumn> columns;
        for (const EngineSpec& e : settings.engines) {
            if (!e.is_profile) continue;
            std::vector<workbench::ProfileColumn> one;
            const bool builtin = bool(eval::builtin_evaluation(e.profile, nullptr));
            if (!workbench::resolve_columns(builtin ? std::vector<std::string>{e.profile} : std::vector<std::string>{},
                                            builtin ? std::vector<std::string>{} : std::vector<std::string>{e.profile},
                                            &one, &error)) {
                err << "quince similarity: " << error << "\n";
                return cli::EXIT_FAILED;
            }
            one[0].label = e.label;
            columns.push_back(one[0]);
        }
        std::ostringstream epd;
        for (const std::string& f : settings.fens) epd << f << "\n";
        std::istringstream in(epd.str());
        workbench::EpdSummary summary;
        if (!workbench::compare_epd(in, report.positions_source, columns, 1, &summary, &error)) {
            err << "quince similarity: " << error << "\n";
            return cli::EXIT_FAILED;
        }
        report.terms = std::move(summary);
    }

    if (a.has("svg")) {
        std::ofstream svg(a.options.at("svg"));
        svg << report_svg(report);
        svg.close();
        if (!svg) {
            err << "quince similarity: cannot write '" << printable(a.options.at("svg")) << "'\n";
            return cli::EXIT_FAILED;
        }
    }
    out << (a.has("json") ? report_json(report) : report_text(report));
    return cli::EXIT_OK;
}

int run_similarity_command(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    CliContext context;
    context.quince_path = cli::program_path();
    context.progress = cli::is_terminal(err);
    context.interrupt = cli::stop_on_interrupt();
    return run_similarity_cli(args, out, err, context);
}

}  // namespace quince::similarity
