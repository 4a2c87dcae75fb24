// `quince tune`: command line of the tuner.
#include <cstdio>
#include <fstream>
#include <ostream>
#include <sstream>
#include <type_traits>

#include "cli/cli.h"
#include "core/text.h"
#include "training/game_format.h"
#include "tuner.h"

namespace quince::tune {

namespace {

const char* USAGE =
    "usage: quince tune --data DATA [--data DATA ...] --out FILE [options]\n"
    "  --data DATA          a training file, a folder of shard-*.txt files or a .list file of paths\n"
    "                       (one a line, relative to the list's folder); repeatable\n"
    "  --profile NAME | --weights FILE   starting weights (default rybka1)\n"
    "  --name NAME          name of the written profile (default: output file name)\n"
    "  --epochs N (200)  --batch N (16384)  --lr X (8, internal units)  --threads N (1)\n"
    "  --lambda X (1.0)     target = X * result + (1 - X) * sigmoid(score label)\n"
    "  --teacher            score label = the teacher's score (4th field) instead of the search score\n"
    "  --K X                sigmoid scale (default: fitted to the results first)\n"
    "  --reg X (0)          L2 pull toward the starting weights, per pawn^2\n"
    "  --validation X (0.05) held-out share of the shards (whole games, chosen by --seed)\n"
    "  --validation-shards K hold out exactly K shards instead\n"
    "  --shard-games N (200) a file is cut into shards of N games (a datagen shard file is one)\n"
    "  --patience N (10)    epochs without validation improvement before stopping\n"
    "  --tune G,G ...       only these groups or weights;  --freeze G,G ...  keep these fixed\n"
    "  --pst-tables         tune the piece-square tables square by square (generator -> tables)\n"
    "  --phase-table        tune the phase table W (curve -> table)\n"
    "  --phase-monotone     keep the tuned phase table non-decreasing in the phase (projection each step)\n"
    "  --max-positions N    --seed S  --quiet\n";

std::vector<std::string> split_list(const std::string& s) {
    std::vector<std::string> out;
    std::stringstream ss(s);
    for (std::string t; std::getline(ss, t, ',');)
        if (!t.empty()) out.push_back(t);
    return out;
}

// SHA-256 of files concatenated in order (`cat FILES | sha256sum`), "?" when it cannot be had.
std::string sha256_of(const std::vector<std::string>& paths) {
    const std::string hex = training::files_sha256(paths);
    return hex.empty() ? "?" : hex;
}

}  // namespace

int run_tune_cli(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
    if (cli::asks_for_help(args)) {
        out << USAGE;
        return cli::EXIT_OK;
    }
    Options o;
    // The command as recorded in the profile: paths cut to their base names (no machine's folders).
    o.command_line = "quince tune";
    for (std::string a : args) {
        if (a.find('/') != std::string::npos && a.rfind("--", 0) != 0) {
            while (a.size() > 1 && a.back() == '/') a.pop_back();
            a = a.substr(a.find_last_of('/') + 1);
        }
        o.command_line += " " + a;
    }
    cli::ParsedArgs a;
    std::string error;
    if (!cli::parse_args(args,
                         {{"data", true, true}, {"out", true}, {"profile", true}, {"weights", true}, {"name", true},
                          {"epochs", true}, {"batch", true}, {"lr", true}, {"lambda", true}, {"teacher", false},
                          {"K", true}, {"reg", true}, {"validation", true}, {"validation-shards", true},
                          {"shard-games", true}, {"patience", true}, {"threads", true}, {"max-positions", true},
                          {"seed", true}, {"tune", true}, {"freeze", true}, {"pst-tables", false},
                          {"phase-table", false}, {"phase-monotone", false}, {"quiet", false}},
                         &a, &error))
        return cli::usage_error(err, "tune", error);
    if (!a.positional.empty())
        return cli::usage_error(err, "tune", "unexpected argument '" + printable(a.positional[0]) + "'");
    // Numbers as strtod reads them (counts too: "--epochs 1e3"), within each option's range.
    bool ok = true;
    auto number = [&](const char* name, double lo, double hi, auto* field) {
        double v = 0;
        if (!ok || !a.has(name)) return;
        ok = cli::parse_real(a.options.at(name), lo, hi, std::string("--") + name, &v, &error);
        if (ok) *field = static_cast<std::remove_pointer_t<decltype(field)>>(v);
    };
    number("epochs", 1, 1e6, &o.epochs);
    number("batch", 1, 1e8, &o.batch);
    number("lr", 1e-6, 1e6, &o.lr);
    number("lambda", 0, 1, &o.lambda);
    number("K", 1e-3, 100, &o.K);
    number("reg", 0, 1e6, &o.reg);
    number("validation", 0, 0.5, &o.validation);
    number("validation-shards", 1, 1e9, &o.validation_shards);
    number("shard-games", 1, 1e9, &o.shard_games);
    number("patience", 1, 1e6, &o.patience);
    number("threads", 1, 256, &o.threads);
    number("max-positions", 1, 1e12, &o.max_positions);
    number("seed", 0, 1e18, &o.seed);
    if (!ok) return cli::usage_error(err, "tune", error);
    if (a.has("data")) o.data = a.values.at("data");
    if (a.has("out")) o.out = a.options.at("out");
    if (a.has("profile")) o.profile = a.options.at("profile");
    if (a.has("weights")) o.weights = a.options.at("weights");
    if (a.has("name")) o.name = a.options.at("name");
    if (a.has("tune")) o.tune_groups = split_list(a.options.at("tune"));
    if (a.has("freeze")) o.freeze_groups = split_list(a.options.at("freeze"));
    o.teacher = a.has("teacher");
    o.pst_tables = a.has("pst-tables");
    o.phase_table = a.has("phase-table");
    o.phase_monotone = a.has("phase-monotone");
    o.quiet = a.has("quiet");
    if (o.data.empty() || o.out.empty()) return cli::usage_error(err, "tune", "--data and --out are required");
    eval::Weights start{};
    if (!o.weights.empty()) {
        auto p = eval::load_profile_file(o.weights, &error);
        if (!p) return cli::usage_error(err, "tune", error);
        start = p->w;
    } else {
        // Only a hand-crafted profile has weights to tune; the registry names them.
        eval::EvalKind kind{};
        const bool known = eval::builtin_kind(o.profile, &kind);
        if (!known || kind != eval::EvalKind::Handcrafted || !eval::builtin_weights(o.profile, start)) {
            std::string tunable;
            for (const std::string& n : eval::handcrafted_profile_names())
                if (eval::builtin_kind(n, &kind) && kind == eval::EvalKind::Handcrafted)
                    tunable += (tunable.empty() ? "" : ", ") + n;
            return cli::usage_error(err, "tune",
                                    (known ? "profile '" + o.profile + "' has no weights to tune"
                                           : "unknown profile '" + printable(o.profile) + "'") +
                                        " (the hand-crafted ones: " + tunable + ")");
        }
    }
    const std::string started_from = o.weights.empty() ? o.profile : o.weights.substr(o.weights.find_last_of('/') + 1);
    Report rep;
    if (!run_tune(o, start, {}, rep, &error, [&err](const std::string& s) { err << s << std::endl; })) {
        err << "error: " << error << "\n";
        return 2;  // as ever: the tuner's failures (unreadable or malformed data) share the usage errors' status
    }
    std::string name = o.name;
    if (name.empty()) {
        name = o.out.substr(o.out.find_last_of('/') + 1);
        if (name.size() > 4 && name.substr(name.size() - 4) == ".txt") name.resize(name.size() - 4);
    }
    rep.weights.name = name;
    std::ostringstream head;
    head << "Tuned by `quince tune` from " << started_from << ".\n";
    head << "Command: " << o.command_line << "\n";
    char buf[512];
    for (const auto& f : rep.folders) {
        // the files used, named as a range when they are the folder's shard files
        std::string first = f.files.front().substr(f.files.front().find_last_of('/') + 1);
        std::string last = f.files.back().substr(f.files.back().find_last_of('/') + 1);
        std::snprintf(buf, sizeof buf, "Data %s: %zu file%s (%s%s%s), %ld games, %ld positions; cat of those files in order | sha256sum = %s",
                      f.name.c_str(), f.files.size(), f.files.size() == 1 ? "" : "s", first.c_str(),
                      f.files.size() > 1 ? " .. " : "", f.files.size() > 1 ? last.c_str() : "", f.games, f.positions,
                      sha256_of(f.files).c_str());
        head << buf << "\n";
        if (!f.command.empty()) head << "  generated by: " << f.command << "\n";
        if (!f.settings.empty()) head << "  settings: " << f.settings << "\n";
        if (!f.source_command.empty()) head << "  positions from data generated by: " << f.source_command << "\n";
        if (!f.source_settings.empty()) head << "  source settings: " << f.source_settings << "\n";
    }
    std::snprintf(buf, sizeof buf,
                  "%zu positions of %ld games: %zu training positions (%zu shards), %zu validation positions (%zu shards, "
                  "whole games); K %.4f, best of %d epochs (epoch %d)",
                  rep.positions, rep.games, rep.train_positions, rep.train_shards, rep.valid_positions, rep.valid_shards,
                  rep.K, rep.epochs_run, rep.best_epoch);
    head << buf << "\n";
    std::snprintf(buf, sizeof buf,
                  "error train %.6f -> %.6f, validation %.6f -> %.6f; validation against the game results %.6f -> %.6f",
                  rep.train_error_start, rep.train_error_end, rep.valid_error_start, rep.valid_error_end,
                  rep.valid_result_error_start, rep.valid_result_error_end);
    head << buf << "\n";
    std::ofstream file(o.out);
    file << eval::format_weights(rep.weights, head.str());
    if (!file) {
        err << "error: cannot write '" << o.out << "'\n";
        return 2;
    }
    std::snprintf(buf, sizeof buf, "wrote %s (%.0f positions x epochs per second; %.1f s with loading)", o.out.c_str(),
                  rep.positions_epochs_per_second, rep.fit_seconds);
    err << buf << "\n";
    return cli::EXIT_OK;
}

}  // namespace quince::tune
