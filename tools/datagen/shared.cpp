#include "shared.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli.h"
#include "datagen.h"
#include "training/game_format.h"

namespace fs = std::filesystem;

namespace quince::datagen {

const char* const TEXT_SHARDS_FORMAT =
    "format: FEN | score | result [| teacher]  (centipawns and result from White's view)\n"
    "checksum: cat shard-*.txt | sha256sum\n";
const char* const QTD_SHARDS_FORMAT =
    "format: QTD 1 (whole games; data/training/README.md); one line per finished shard follows, with its SHA-256\n";

std::unique_ptr<Teacher> start_teacher(const std::string& command, std::int64_t timeout_ms, std::string* error) {
    std::vector<std::string> words = cli::split_words(command);
    if (words.empty()) {
        fail(error, "--teacher: empty command");
        return nullptr;
    }
    match::EngineConfig ec;
    ec.name = "teacher";
    ec.command = words[0];
    ec.args.assign(words.begin() + 1, words.end());
    ec.options.emplace_back("Threads", "1");
    ec.protocol_timeout_ms = timeout_ms;
    ec.search_timeout_ms = timeout_ms;
    auto t = std::make_unique<Teacher>(ec);
    std::string why;
    if (!t->engine.start(&why)) {
        fail(error, "--teacher '" + command + "': " + why);
        return nullptr;
    }
    return t;
}

bool teacher_label(Teacher& t, std::uint64_t nodes, const Position& pos, training::Sample& sample, std::string* error,
                   std::string* best) {
    match::SearchResult r = t.engine.search("position fen " + sample.fen, "go nodes " + std::to_string(nodes),
                                            t.engine.config().search_timeout_ms);
    if (r.status != match::SearchResult::Status::Ok)
        return fail(error, "teacher: " + (r.error.empty() ? std::string("search failed") : r.error));
    if (best) *best = r.bestmove;
    if (!r.score || r.score->is_mate || std::abs(r.score->value) > training::MAX_SAMPLE_SCORE) return true;
    sample.teacher = pos.side_to_move() == WHITE ? r.score->value : -r.score->value;
    return true;
}

std::string command_sha256(const std::string& command) {
    std::vector<std::string> words = cli::split_words(command);
    if (words.empty()) return "";
    std::string path = words[0];
    if (path.find('/') == std::string::npos) {
        FILE* pipe = ::popen(("command -v " + training::shell_quote(path) + " 2>/dev/null").c_str(), "r");
        if (!pipe) return "";
        char buf[4096] = {};
        if (std::fgets(buf, sizeof buf, pipe)) path = std::string(buf).substr(0, std::string(buf).find('\n'));
        ::pclose(pipe);
    }
    return training::file_sha256(path);
}

bool write_file_atomically(const std::string& path, const std::string& text, std::string* error) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) return fail(error, "cannot write " + tmp);
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) return fail(error, "cannot rename " + tmp + " to " + path + ": " + ec.message());
    return true;
}

void remove_unfinished(const std::string& dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.path().extension() == ".tmp") fs::remove(entry.path(), ec);
}

namespace {

// Whether dir holds a complete shard. (A relabel run writes shards in any order, so any one counts as data.)
bool holds_shards(const std::string& dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("shard-", 0) == 0 && entry.path().extension() != ".tmp") return true;
    }
    return false;
}

}  // namespace

bool check_or_write_manifest(const std::string& dir, const std::string& kind, const std::string& settings,
                             const std::string& command_line, std::string* error, const std::string& heading,
                             const std::string& extra, const std::string& format) {
    const std::string path = dir + "/manifest.txt";
    std::ifstream in(path);
    // Settings bind only once data exists: a run that failed before its first shard leaves nothing to keep.
    if (in && holds_shards(dir)) {
        std::string line, found;
        while (std::getline(in, line))
            if (line.rfind("settings: ", 0) == 0) found = line.substr(10);
        const std::string now = kind + " " + settings;
        // Self-play folders made before the evaluation was recorded were played by `quince`, the default then.
        const bool before_eval_recorded =
            kind == "selfplay" && found.find(" eval=") == std::string::npos && found + " eval=quince" == now;
        if (found != now && !before_eval_recorded)
            return fail(error, dir + " holds data made with other settings (manifest.txt: '" + found + "'; now: '" +
                                   now + "'): use another --out directory, or the folder's own settings (--eval, …)");
        return true;
    }
    std::ostringstream m;
    m << "# quince datagen: " << heading << "\n"
      << "command: " << command_line << "\n"
      << "settings: " << kind << " " << settings << "\n"
      << format << extra;
    return write_file_atomically(path, m.str(), error);
}

std::string shard_path(const std::string& dir, std::int64_t index, const std::string& extension) {
    char name[32];
    std::snprintf(name, sizeof name, "shard-%05lld", static_cast<long long>(index));
    return dir + "/" + name + extension;
}

std::string shards_sha256(const std::string& dir) {
    // Shard names are zero-padded, so sorted names are the shard order (what `cat DIR/shard-*.txt` reads).
    std::vector<std::string> shards;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("shard-", 0) == 0 && name.size() > 4 && name.compare(name.size() - 4, 4, ".txt") == 0)
            shards.push_back(entry.path().string());
    }
    if (shards.empty()) return "";
    std::sort(shards.begin(), shards.end());
    return training::files_sha256(shards);
}

}  // namespace quince::datagen
