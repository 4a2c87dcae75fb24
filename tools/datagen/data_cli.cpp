#include "data_cli.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "board/notation.h"
#include "core/text.h"
#include "training/game_format.h"

namespace quince::datagen {

namespace fs = std::filesystem;

namespace {

const char* DATA_USAGE =
    "usage: quince data info [--json] [DIR|FILE...]          (default: data/training)\n"
    "       quince data dump [--limit N] [--json] [--quiet-plies] [DIR|FILE...]\n";

const char* DATA_HELP =
    "\nThe training set: whole games in the QTD format (shard-*.qtd.xz; data/training/README.md).\n"
    "  info   games, labelled positions, plies and quiet plies, bytes (every file under the folders) per\n"
    "         position, per ply and per quiet ply, the same per folder, teachers and sources; every shard is\n"
    "         decoded and checked against its folder's manifest.txt (SHA-256)\n"
    "  dump   one labelled position a line: FEN | teacher score | result (centipawns, White's view;\n"
    "         1-0, 0-1, 1/2-1/2); --json adds Quince's own score and the move played; --quiet-plies prints\n"
    "         every scored ply that could have been labelled, unlabelled ones with Quince's score\n";

std::string json_escape(const std::string& s) {
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\', o += c;
        else if (static_cast<unsigned char>(c) < 0x20) {
            char b[8];
            std::snprintf(b, sizeof b, "\\u%04x", c);
            o += b;
        } else o += c;
    }
    return o;
}

// {"name": count, …}
std::string json_counts(const std::map<std::string, std::int64_t>& counts) {
    std::string text;
    for (const auto& [name, n] : counts) text += cli::formatted("%s\"%s\": %lld", text.empty() ? "" : ", ", json_escape(name).c_str(), (long long)n);
    return "{" + text + "}";
}

const char* result_text(double r) { return r == 1.0 ? "1-0" : r == 0.0 ? "0-1" : "1/2-1/2"; }

// SHA-256 of each shard named in the manifest.txt of its folder: "shard-00012.qtd.xz … sha256=HEX".
std::map<std::string, std::string> manifest_hashes(const std::string& folder) {
    std::map<std::string, std::string> out;
    std::ifstream in(folder + "/manifest.txt");
    for (std::string line; std::getline(in, line);) {
        const std::size_t sp = line.find(' '), h = line.find(" sha256=");
        if (sp == std::string::npos || h == std::string::npos) continue;
        out[line.substr(0, sp)] = line.substr(h + 8, 64);
    }
    return out;
}

int info(const std::vector<std::string>& args, bool json, std::ostream& out, std::ostream& err) {
    std::vector<training::ShardFile> shards;
    std::string error;
    if (!training::find_shards(args, &shards, &error)) {
        err << "error: " << error << "\n";
        return 1;
    }
    std::int64_t games = 0, positions = 0, plies = 0, quiet = 0, validation_positions = 0, bytes = 0, shard_bytes = 0;
    // Per folder (a generating run): what it holds and what it costs.
    struct Folder {
        std::int64_t shards = 0, games = 0, positions = 0, plies = 0, quiet = 0, bytes = 0;
    };
    std::map<std::string, Folder> folders;
    std::map<std::string, std::int64_t> teachers, sources;
    std::map<std::string, std::map<std::string, std::string>> hashes;
    std::vector<std::string> problems;
    std::string raw;
    training::ShardHeader header;
    std::vector<training::TrainingGame> decoded;
    for (const training::ShardFile& s : shards) {
        const std::string folder = fs::path(s.path).parent_path().string();
        if (!hashes.count(folder)) hashes[folder] = manifest_hashes(folder);
        const auto& known = hashes[folder];
        const std::string name = fs::path(s.path).filename().string();
        const auto it = known.find(name);
        if (it == known.end()) problems.push_back(s.path + ": not listed in " + folder + "/manifest.txt");
        else if (training::file_sha256(s.path) != it->second)
            problems.push_back(s.path + ": SHA-256 differs from " + folder + "/manifest.txt");
        if (!training::read_shard_file(s.path, &raw, &error) || !training::decode_shard(raw, &header, &decoded, &error)) {
            problems.push_back(error.rfind(s.path, 0) == 0 ? error : s.path + ": " + error);
            continue;
        }
        std::error_code ec;
        const std::int64_t size = std::int64_t(fs::file_size(s.path, ec));
        shard_bytes += size;
        std::int64_t p = 0, n = 0, q = 0;
        for (const auto& g : decoded) {
            p += std::int64_t(g.labels.size()), n += std::int64_t(g.moves.size());
            q += training::quiet_plies(g);
        }
        Folder& f = folders[folder];
        ++f.shards, f.games += std::int64_t(decoded.size()), f.positions += p, f.plies += n, f.quiet += q, f.bytes += size;
        games += std::int64_t(decoded.size());
        positions += p, plies += n, quiet += q;
        if (s.validation) validation_positions += p;
        const std::string teacher = header.has_teacher ? header.get("teacher") + " at " + header.get("teacher nodes") +
                                                             " nodes"
                                                       : "none (Quince's own scores)";
        teachers[teacher] += p;
        sources[header.get("settings")] += p;
    }
    // Bytes: everything under the folders given (shards, manifests, the README), as a clone holds them.
    for (const std::string& a : args) {
        std::error_code ec;
        if (fs::is_directory(a, ec)) {
            for (auto it = fs::recursive_directory_iterator(a, ec); !ec && it != fs::recursive_directory_iterator();
                 it.increment(ec))
                if (it->is_regular_file()) bytes += std::int64_t(it->file_size(ec));
        } else {
            bytes += std::int64_t(fs::file_size(a, ec));
        }
    }
    auto ratio = [](std::int64_t a, std::int64_t b) { return b > 0 ? double(a) / double(b) : 0.0; };
    const double per = ratio(bytes, positions);
    if (json) {
        out << cli::formatted("{\"shards\": %zu, \"games\": %lld, \"positions\": %lld, \"validation_positions\": %lld, "
                              "\"plies\": %lld, \"quiet_plies\": %lld, \"bytes\": %lld, \"shard_bytes\": %lld, "
                              "\"bytes_per_position\": %.3f, \"bytes_per_ply\": %.3f, \"bytes_per_quiet_ply\": %.3f, \"folders\": [",
                              shards.size(), (long long)games, (long long)positions, (long long)validation_positions,
                              (long long)plies, (long long)quiet, (long long)bytes, (long long)shard_bytes, per,
                              ratio(bytes, plies), ratio(bytes, quiet));
        bool first = true;
        for (const auto& [name, f] : folders)
            out << cli::formatted("%s{\"folder\": \"%s\", \"shards\": %lld, \"games\": %lld, \"positions\": %lld, \"plies\": %lld, "
                                  "\"quiet_plies\": %lld, \"shard_bytes\": %lld}",
                                  first ? "" : ", ", json_escape(name).c_str(), (long long)f.shards, (long long)f.games,
                                  (long long)f.positions, (long long)f.plies, (long long)f.quiet, (long long)f.bytes),
                first = false;
        out << "], \"teachers\": " << json_counts(teachers) << ", \"sources\": " << json_counts(sources)
            << ", \"problems\": [";
        first = true;
        for (const auto& p : problems) out << cli::formatted("%s\"%s\"", first ? "" : ", ", json_escape(p).c_str()), first = false;
        out << "]}\n";
    } else {
        out << cli::formatted("shards     %zu\ngames      %lld\npositions  %lld labelled (%lld of them in validation shards)\n"
                              "plies      %lld scored, %lld of them quiet (the positions a trainer reading quiet plies takes)\n"
                              "bytes      %lld (shards %lld): %.2f per labelled position, %.2f per ply, %.2f per quiet ply\n",
                              shards.size(), (long long)games, (long long)positions, (long long)validation_positions,
                              (long long)plies, (long long)quiet, (long long)bytes, (long long)shard_bytes, per,
                              ratio(bytes, plies), ratio(bytes, quiet));
        if (folders.size() > 1)
            for (const auto& [name, f] : folders)
                out << cli::formatted("folder     %s: %lld shards, %lld games, %lld plies (%lld quiet), %lld labelled, "
                                      "%.2f shard bytes per ply, %.2f per quiet ply\n",
                                      name.c_str(), (long long)f.shards, (long long)f.games, (long long)f.plies,
                                      (long long)f.quiet, (long long)f.positions, ratio(f.bytes, f.plies), ratio(f.bytes, f.quiet));
        for (const auto& [t, n] : teachers) out << cli::formatted("teacher    %s: %lld positions\n", t.c_str(), (long long)n);
        for (const auto& [t, n] : sources) out << cli::formatted("source     %s: %lld positions\n", t.c_str(), (long long)n);
        for (const auto& p : problems) out << cli::formatted("problem    %s\n", p.c_str());
    }
    for (const auto& p : problems) err << "error: " << p << "\n";
    return problems.empty() ? 0 : 1;
}

int dump(const std::vector<std::string>& args, bool json, std::int64_t limit, training::Plies plies, std::ostream& out,
         std::ostream& err) {
    std::vector<training::ShardFile> shards;
    std::string error;
    if (!training::find_shards(args, &shards, &error)) {
        err << "error: " << error << "\n";
        return 1;
    }
    std::int64_t n = 0;
    const bool ok = training::for_each_position(
        shards,
        [&](const training::LabeledPosition& lp) {
            if (limit >= 0 && n >= limit) return false;
            ++n;
            const std::string fen = lp.pos->fen();
            if (json)
                out << cli::formatted("{\"fen\": \"%s\", \"teacher\": %d, \"result\": \"%s\", \"score\": %d, \"move\": \"%s\", "
                                      "\"game\": %lld, \"validation\": %s, \"labelled\": %s}\n",
                                      fen.c_str(), lp.teacher, result_text(lp.result), lp.score,
                                      move_to_uci(lp.move, false).c_str(), (long long)lp.game, lp.validation ? "true" : "false",
                                      lp.has_teacher ? "true" : "false");
            else
                out << cli::formatted("%s | %d | %s\n", fen.c_str(), lp.teacher, result_text(lp.result));
            return true;
        },
        &error, plies);
    out.flush();
    if (!ok) {
        err << "error: " << error << "\n";
        return 1;
    }
    return 0;
}

}  // namespace

int run_data_cli(const cli::Args& args, std::ostream& out, std::ostream& err) {
    if (args.empty()) return cli::usage_error(err, "data", "expected info or dump");
    const std::string& what = args[0];
    if (what == "help" || cli::asks_for_help(args)) {
        out << DATA_USAGE << DATA_HELP;
        return 0;
    }
    if (what != "info" && what != "dump") return cli::usage_error(err, "data", "unknown 'data' command '" + printable(what) + "'");
    std::vector<cli::OptionSpec> specs = {{"json", false}};
    if (what == "dump") specs.insert(specs.end(), {{"limit", true}, {"quiet-plies", false}});
    cli::ParsedArgs a;
    std::string error;
    long long limit = -1;
    if (!cli::parse_args({args.begin() + 1, args.end()}, specs, &a, &error) ||
        (a.has("limit") && !cli::parse_number(a.options.at("limit"), 0, INT64_MAX, "--limit", &limit, &error)))
        return cli::usage_error(err, "data", error);
    std::vector<std::string> paths = a.positional;
    for (const std::string& p : paths)
        if (p.size() > 1 && p[0] == '-') return cli::usage_error(err, "data", "unknown option '" + printable(p) + "'");
    if (paths.empty()) {
        // The default set is a folder of the repository, named relative to the current folder.
        std::error_code ec;
        if (!fs::is_directory("data/training", ec)) {
            err << "error: no data/training folder here (the default training set is the repository's: run this "
                   "in the repository's root, or name a folder or shard files: quince data "
                << what << " DIR|FILE...)\n";
            return 1;
        }
        paths.push_back("data/training");
    }
    if (what == "info") return info(paths, a.has("json"), out, err);
    return dump(paths, a.has("json"), limit, a.has("quiet-plies") ? training::Plies::Quiet : training::Plies::Labelled,
                out, err);
}

}  // namespace quince::datagen
