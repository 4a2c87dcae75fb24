#include "options.h"

#include <csignal>
#include <cstdlib>
#include <map>
#include <ostream>
#include <set>

#include "cli/cli.h"
#include "core/text.h"
#include "rescore.h"
#include "tournament.h"

namespace quince::match {

namespace {

bool split_key_value(const std::string& token, std::string* key, std::string* value) {
    std::size_t eq = token.find('=');
    if (eq == std::string::npos || eq == 0) return false;
    *key = token.substr(0, eq);
    *value = token.substr(eq + 1);
    return true;
}

bool parse_double(const std::string& text, double* out) {
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size()) return false;
    *out = v;
    return true;
}

// Applies one engine setting; false + *error when it is unknown or malformed.
bool apply_engine_setting(EngineConfig* e, const std::string& key, const std::string& value, std::string* error) {
    long long n = 0;
    auto bad = [&](const std::string& what) {
        *error = "bad engine setting " + key + "=" + value + (what.empty() ? "" : ": " + what);
        return false;
    };
    if (key == "cmd") e->command = value;
    else if (key == "name") e->name = value;
    else if (key == "dir") e->working_dir = value;
    else if (key == "args" || key == "arg") {
        for (const std::string& w : cli::split_words(value)) e->args.push_back(w);
    } else if (key.rfind("option.", 0) == 0 && key.size() > 7) {
        std::string option = key.substr(7);
        for (auto it = e->options.begin(); it != e->options.end();)
            it = it->first == option ? e->options.erase(it) : it + 1;
        e->options.emplace_back(option, value);
    } else if (key == "tc") {
        if (!parse_clock(value, &e->tc)) return bad("expected base+inc, moves/base[+inc] or inf (seconds)");
    } else if (key == "st") {
        auto ms = parse_seconds(value);
        if (!ms || *ms <= 0) return bad("expected seconds per move");
        e->tc.movetime_ms = *ms;
    } else if (key == "nodes") {
        if (!parse_integer(value, 1, 1LL << 50, &n)) return bad("");
        e->tc.nodes = n;
    } else if (key == "depth") {
        if (!parse_integer(value, 1, 1000, &n)) return bad("");
        e->tc.depth = int(n);
    } else if (key == "timemargin") {
        if (!parse_integer(value, 0, 3600000, &n)) return bad("expected milliseconds");
        e->time_margin_ms = n;
    } else if (key == "timeout") {
        if (!parse_integer(value, 1, 86400000, &n)) return bad("expected milliseconds");
        e->search_timeout_ms = n;
    } else if (key == "proto") {
        if (value != "uci") return bad("only uci is supported");
    } else if (key == "ponder" || key == "restart") {
        // Accepted for cutechess compatibility: engines never ponder here, and crashed engines are always restarted.
    } else {
        *error = "unknown engine setting '" + key + "'";
        return false;
    }
    return true;
}

// Reads "key=value" tokens following args[*i] until the next "-flag".
std::vector<std::string> collect_settings(const std::vector<std::string>& args, std::size_t* i) {
    std::vector<std::string> out;
    while (*i + 1 < args.size() && !(args[*i + 1].size() > 1 && args[*i + 1][0] == '-' && args[*i + 1].find('=') == std::string::npos))
        out.push_back(args[++*i]);
    return out;
}

std::string basename_of(const std::string& path) {
    std::size_t slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

// First Ctrl-C: finish the running games and print the report; a second one ends the runner at once.
void on_interrupt(int) {
    request_stop();
    std::signal(SIGINT, SIG_DFL);
}

}  // namespace

bool parse_sprt_setting(const std::string& key, const std::string& value, SprtConfig* sprt) {
    double d = 0;
    bool ok = parse_double(value, &d);
    if (key == "elo0") sprt->elo0 = d;
    else if (key == "elo1") sprt->elo1 = d;
    else if (key == "alpha") ok = ok && d > 0 && d < 0.5, sprt->alpha = d;
    else if (key == "beta") ok = ok && d > 0 && d < 0.5, sprt->beta = d;
    else ok = false;
    return ok;
}

std::string usage_text() {
    return R"(usage: quince-match -engine cmd=PATH [name=N] [option.X=V ...] [tc=..|st=..|nodes=..|depth=..] -engine ...
  engine settings (also for -each, which applies to every engine; an engine's own settings win):
    cmd=PATH name=NAME dir=DIR args="A B" option.NAME=VALUE tc=10+0.1|40/60|40/60+0.5|inf st=SECONDS
    nodes=N depth=N timemargin=MS timeout=MS (per move when there is no clock) proto=uci
  -variant standard|fischerandom (Chess960: the openings give the start positions)
  -tournament round-robin|gauntlet   -games N (per pairing per round, default 2)   -rounds N
  -concurrency N   -pgnout FILE   -event NAME   -ratinginterval N   -maxmoves N   -debug FILE
  -openings file=F format=epd|pgn order=sequential|random plies=N start=K seed=S   (-srand S)
  -draw movenumber=N movecount=M score=CP   -resign movecount=M score=CP [twosided=true]
  -sprt elo0=E0 elo1=E1 alpha=A beta=B
usage: quince-match -rescore FILE.pgn [FILE.pgn ...] [-sprt elo0=E0 elo1=E1 alpha=A beta=B]
  the end-of-run report again for finished games (runs pooled; pairs = same FEN, colours reversed);
  -sprt: the SPRT of the pooled games (one pairing), e.g. an SPRT continued in parts with other seeds
)";
}

bool parse_command_line(const std::vector<std::string>& args, TournamentConfig* config, std::string* error) {
    std::vector<std::vector<std::string>> engine_settings;
    std::vector<std::string> each_settings;
    auto fail = [&](const std::string& what) {
        *error = what;
        return false;
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& flag = args[i];
        long long n = 0;
        auto next_value = [&](std::string* value) {
            if (i + 1 >= args.size()) return false;
            *value = args[++i];
            return true;
        };
        std::string value;
        if (flag == "-engine") {
            engine_settings.push_back(collect_settings(args, &i));
        } else if (flag == "-each") {
            for (const std::string& s : collect_settings(args, &i)) each_settings.push_back(s);
        } else if (flag == "-tournament") {
            if (!next_value(&value) || (value != "round-robin" && value != "gauntlet"))
                return fail("-tournament expects round-robin or gauntlet");
            config->type = value;
        } else if (flag == "-games" || flag == "-rounds" || flag == "-concurrency" || flag == "-ratinginterval" ||
                   flag == "-maxmoves") {
            if (!next_value(&value) || !parse_integer(value, flag == "-ratinginterval" || flag == "-maxmoves" ? 0 : 1, 100000000, &n))
                return fail(flag + " expects a number");
            if (flag == "-games") config->games = int(n);
            else if (flag == "-rounds") config->rounds = int(n);
            else if (flag == "-concurrency") config->concurrency = int(n);
            else if (flag == "-ratinginterval") config->rating_interval = int(n);
            else config->adjudication.max_moves = int(n);
        } else if (flag == "-pgnout") {
            if (!next_value(&config->pgn_out)) return fail("-pgnout expects a file name");
        } else if (flag == "-variant") {
            if (!next_value(&value) || (value != "standard" && value != "fischerandom"))
                return fail("-variant expects standard or fischerandom");
            config->chess960 = value == "fischerandom";
            config->openings.chess960 = config->chess960;
        } else if (flag == "-debug") {
            if (!next_value(&config->debug_file)) return fail("-debug expects a file name");
        } else if (flag == "-event") {
            if (!next_value(&config->event)) return fail("-event expects a name");
        } else if (flag == "-srand") {
            if (!next_value(&value) || !parse_integer(value, 0, INT64_MAX, &n)) return fail("-srand expects a number");
            config->openings.seed = std::uint64_t(n);
        } else if (flag == "-recover" || flag == "-repeat") {
            // Always on: crashed engines are restarted, each opening is played with both colours.
        } else if (flag == "-openings" || flag == "-draw" || flag == "-resign" || flag == "-sprt") {
            std::vector<std::string> settings = collect_settings(args, &i);
            if (flag == "-draw") config->adjudication.draw_enabled = true;
            if (flag == "-resign") config->adjudication.resign_enabled = true;
            if (flag == "-sprt") config->sprt.enabled = true;
            for (const std::string& s : settings) {
                std::string key;
                if (!split_key_value(s, &key, &value)) return fail(flag + ": expected key=value, got '" + s + "'");
                bool ok = true;
                if (flag == "-openings") {
                    if (key == "file") config->openings.file = value;
                    else if (key == "format") ok = value == "epd" || value == "pgn", config->openings.format = value;
                    else if (key == "order") ok = value == "sequential" || value == "random", config->openings.order = value;
                    else if (key == "plies") ok = parse_integer(value, 0, 10000, &n), config->openings.plies = int(n);
                    else if (key == "start") ok = parse_integer(value, 1, INT32_MAX, &n), config->openings.start = int(n);
                    else if (key == "seed") ok = parse_integer(value, 0, INT64_MAX, &n), config->openings.seed = std::uint64_t(n);
                    else if (key == "policy") ok = true;  // cutechess compatibility; openings always repeat once
                    else ok = false;
                } else if (flag == "-draw") {
                    auto& a = config->adjudication;
                    if (key == "movenumber") ok = parse_integer(value, 0, 10000, &n), a.draw_move_number = int(n);
                    else if (key == "movecount") ok = parse_integer(value, 1, 10000, &n), a.draw_move_count = int(n);
                    else if (key == "score") ok = parse_integer(value, 0, 100000, &n), a.draw_score = int(n);
                    else ok = false;
                } else if (flag == "-resign") {
                    auto& a = config->adjudication;
                    if (key == "movecount") ok = parse_integer(value, 1, 10000, &n), a.resign_move_count = int(n);
                    else if (key == "score") ok = parse_integer(value, 1, 100000, &n), a.resign_score = int(n);
                    else if (key == "twosided") ok = value == "true" || value == "false", a.resign_two_sided = value == "true";
                    else ok = false;
                } else {
                    ok = parse_sprt_setting(key, value, &config->sprt);
                }
                if (!ok) return fail(flag + ": bad setting '" + s + "'");
            }
            if (flag == "-draw" && config->adjudication.draw_move_count <= 0)
                return fail("-draw needs movecount=M (and score=CP, movenumber=N)");
            if (flag == "-resign" && (config->adjudication.resign_move_count <= 0 || config->adjudication.resign_score <= 0))
                return fail("-resign needs movecount=M and score=CP");
            if (flag == "-sprt" && !(config->sprt.elo1 > config->sprt.elo0)) return fail("-sprt needs elo1 > elo0");
        } else {
            return fail("unknown option '" + printable(flag) + "'");
        }
    }

    if (engine_settings.size() < 2) return fail("at least two -engine are needed");
    std::set<std::string> names;
    config->engines.clear();
    for (const auto& own : engine_settings) {
        EngineConfig e;
        std::vector<std::string> all = each_settings;
        all.insert(all.end(), own.begin(), own.end());
        for (const std::string& s : all) {
            std::string key, value;
            if (!split_key_value(s, &key, &value)) return fail("engine setting: expected key=value, got '" + s + "'");
            if (!apply_engine_setting(&e, key, value, error)) return false;
        }
        if (e.command.empty()) return fail("every -engine needs cmd=");
        if (config->chess960) {
            bool set = false;
            for (const auto& [option, v] : e.options) set = set || option == "UCI_Chess960";
            if (!set) e.options.emplace_back("UCI_Chess960", "true");
        }
        if (!e.tc.has_any_limit())
            return fail("engine " + (e.name.empty() ? e.command : e.name) + " has no time control (tc, st, nodes or depth)");
        if (e.name.empty()) e.name = basename_of(e.command);
        std::string unique = e.name;
        for (int k = 2; names.count(unique); ++k) unique = e.name + " (" + std::to_string(k) + ")";
        e.name = unique;
        names.insert(unique);
        config->engines.push_back(e);
    }
    if (!config->debug_file.empty()) {
        auto log = std::make_shared<DebugLog>(config->debug_file);
        if (!log->ok()) return fail("cannot write " + config->debug_file);
        for (EngineConfig& e : config->engines) e.debug_log = log;
    }
    if (config->sprt.enabled && config->engines.size() != 2) return fail("-sprt needs exactly two engines");
    return true;
}

int run_match_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    const char* const program = "quince-match";
    for (const std::string& a : args)
        if (a == "-help" || a == "--help" || a == "-h") {
            out << usage_text();
            return cli::EXIT_OK;
        }
    std::string error;
    if (!args.empty() && args[0] == "-rescore") {  // quince-match -rescore FILE.pgn [FILE.pgn ...] [-sprt ...]
        std::vector<std::string> files;
        SprtConfig sprt;
        if (!parse_rescore_arguments({args.begin() + 1, args.end()}, &files, &sprt, &error))
            return cli::program_usage_error(err, program, error);
        std::string report;
        if (!rescore_pgn_files(files, &report, &error, sprt)) {
            err << "Error: " << error << "\n";
            return cli::EXIT_USAGE;  // as ever: an unreadable file here shares the usage errors' status
        }
        out << report;
        return cli::EXIT_OK;
    }
    TournamentConfig config;
    if (!parse_command_line(args, &config, &error)) return cli::program_usage_error(err, program, error);
    std::signal(SIGINT, on_interrupt);
    const TournamentSummary summary = run_tournament(config, out);
    if (!summary.error.empty()) {
        err << "Error: " << summary.error << "\n";
        return cli::EXIT_FAILED;
    }
    return cli::EXIT_OK;
}

}  // namespace quince::match
