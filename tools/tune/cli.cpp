// `quince tune`: command line of the tuner.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

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

int run_tune_cli(int argc, char** argv) {
    Options o;
    int i = 1;
    if (i < argc && std::string(argv[i]) == "tune") ++i;
    // The command as recorded in the profile: paths cut to their base names (no machine's folders).
    for (int k = 0; k < argc; ++k) {
        std::string a = k == 0 ? "quince" : argv[k];
        if (a.find('/') != std::string::npos && a.rfind("--", 0) != 0) {
            while (a.size() > 1 && a.back() == '/') a.pop_back();
            a = a.substr(a.find_last_of('/') + 1);
        }
        o.command_line += std::string(k ? " " : "") + a;
    }
    auto need = [&](const std::string& flag) -> const char* {
        if (i + 1 >= argc) {
            std::cerr << "error: " << flag << " needs a value\n" << USAGE;
            std::exit(2);
        }
        return argv[++i];
    };
    auto number = [&](const std::string& flag, double lo, double hi) {
        const std::string v = need(flag);
        char* end = nullptr;
        const double d = std::strtod(v.c_str(), &end);
        if (v.empty() || *end || !(d >= lo && d <= hi)) {
            std::cerr << "error: " << flag << " '" << v << "': expected a number in [" << lo << ", " << hi << "]\n";
            std::exit(2);
        }
        return d;
    };
    for (; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--data") o.data.push_back(need(a));
        else if (a == "--out") o.out = need(a);
        else if (a == "--profile") o.profile = need(a);
        else if (a == "--weights") o.weights = need(a);
        else if (a == "--name") o.name = need(a);
        else if (a == "--epochs") o.epochs = int(number(a, 1, 1e6));
        else if (a == "--batch") o.batch = int(number(a, 1, 1e8));
        else if (a == "--lr") o.lr = number(a, 1e-6, 1e6);
        else if (a == "--lambda") o.lambda = number(a, 0, 1);
        else if (a == "--teacher") o.teacher = true;
        else if (a == "--K") o.K = number(a, 1e-3, 100);
        else if (a == "--reg") o.reg = number(a, 0, 1e6);
        else if (a == "--validation") o.validation = number(a, 0, 0.5);
        else if (a == "--validation-shards") o.validation_shards = int(number(a, 1, 1e9));
        else if (a == "--shard-games") o.shard_games = int(number(a, 1, 1e9));
        else if (a == "--patience") o.patience = int(number(a, 1, 1e6));
        else if (a == "--threads") o.threads = int(number(a, 1, 256));
        else if (a == "--max-positions") o.max_positions = std::size_t(number(a, 1, 1e12));
        else if (a == "--seed") o.seed = std::uint64_t(number(a, 0, 1e18));
        else if (a == "--tune") o.tune_groups = split_list(need(a));
        else if (a == "--freeze") o.freeze_groups = split_list(need(a));
        else if (a == "--pst-tables") o.pst_tables = true;
        else if (a == "--phase-table") o.phase_table = true;
        else if (a == "--phase-monotone") o.phase_monotone = true;
        else if (a == "--quiet") o.quiet = true;
        else if (a == "--help" || a == "-h") {
            std::cout << USAGE;
            return 0;
        } else {
            std::cerr << "error: unknown argument '" << a << "'\n" << USAGE;
            return 2;
        }
    }
    if (o.data.empty() || o.out.empty()) {
        std::cerr << "error: --data and --out are required\n" << USAGE;
        return 2;
    }
    eval::Weights start{};
    if (!o.weights.empty()) {
        std::string err;
        auto p = eval::load_profile_file(o.weights, &err);
        if (!p) {
            std::cerr << "error: " << err << "\n";
            return 2;
        }
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
            std::cerr << "error: " << (known ? "profile '" + o.profile + "' has no weights to tune"
                                             : "unknown profile '" + o.profile + "'")
                      << " (the hand-crafted ones: " << tunable << ")\n";
            return 2;
        }
    }
    const std::string started_from = o.weights.empty() ? o.profile : o.weights.substr(o.weights.find_last_of('/') + 1);
    Report rep;
    std::string err;
    if (!run_tune(o, start, {}, rep, &err, [](const std::string& s) { std::cerr << s << std::endl; })) {
        std::cerr << "error: " << err << "\n";
        return 2;
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
    std::ofstream out(o.out);
    out << eval::format_weights(rep.weights, head.str());
    if (!out) {
        std::cerr << "error: cannot write '" << o.out << "'\n";
        return 2;
    }
    std::snprintf(buf, sizeof buf, "wrote %s (%.0f positions x epochs per second; %.1f s with loading)", o.out.c_str(),
                  rep.positions_epochs_per_second, rep.fit_seconds);
    std::cerr << buf << "\n";
    return 0;
}

}  // namespace quince::tune
