// `quince datagen --relabel`: a copy of a datagen folder, every label scored again by a (new) teacher.
#include "datagen.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "board/notation.h"
#include "shared.h"

namespace fs = std::filesystem;

namespace quince::datagen {

using training::format_sample;
using training::parse_sample;
using training::Sample;

namespace {

// A relabelling run over the shards of a folder: the teacher processes, each taking whole shards in turn, and
// what they count.
class Relabelling {
public:
    // The shards of `names` still to write: those not complete in out_dir (counted as skipped), after the
    // unfinished files of an earlier run are removed.
    Relabelling(const RelabelConfig& config, const std::vector<std::string>& names, RelabelSummary* summary)
        : config_(config), summary_(summary) {
        remove_unfinished(config.out_dir);
        for (const std::string& name : names) {
            if (fs::exists(config.out_dir + "/" + name)) ++summary->shards_skipped;
            else todo.push_back(name);
        }
    }

    // relabel_shard(teacher, k, &why) writes shard todo[k] (or, once `stop` is set, gives up on it and returns
    // true); false with *why stops every worker. config.threads teachers (at most one per shard), each started
    // once. The counts and the time go into the summary; false with *error the first failure.
    bool run(const std::function<bool(Teacher&, std::size_t, std::string*)>& relabel_shard, std::string* error) {
        std::atomic<std::size_t> next{0};
        std::string first_error;
        auto report = [&](const std::string& why) {
            std::lock_guard<std::mutex> lock(mutex);
            if (first_error.empty()) first_error = why;
            stop.store(true);
        };
        auto worker = [&]() {
            std::string why;
            std::unique_ptr<Teacher> teacher = start_teacher(config_.teacher, config_.teacher_timeout_ms, &why);
            if (!teacher) return report(why);
            while (!stop.load()) {
                const std::size_t k = next.fetch_add(1);
                if (k >= todo.size()) break;
                if (!relabel_shard(*teacher, k, &why)) return report(why);
            }
            teacher->engine.quit();
        };
        std::vector<std::thread> threads;
        for (int i = 0; i < std::min<int>(config_.threads, int(todo.size())); ++i) threads.emplace_back(worker);
        for (std::thread& t : threads) t.join();
        summary_->positions_read = read.load();
        summary_->positions_written = written.load();
        summary_->teacher_mates = mates.load();
        summary_->seconds = seconds();
        return first_error.empty() || fail(error, first_error);
    }

    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); }

    std::vector<std::string> todo;
    std::atomic<bool> stop{false};
    std::atomic<std::int64_t> read{0}, written{0}, mates{0};  // positions: asked, labelled, dropped
    std::mutex mutex;  // for what the shards share besides (held by no caller of run)
    const std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();

private:
    const RelabelConfig& config_;
    RelabelSummary* summary_;
};

// --relabel of a QTD folder: the same games, every label's teacher score from the new teacher; a label whose
// teacher score is a mate, or whose teacher best move is a capture or a promotion, is dropped.
bool relabel_qtd(const RelabelConfig& config, const std::vector<std::string>& names, RelabelSummary* summary,
                 std::string* error) {
    std::error_code ec;
    fs::create_directories(config.out_dir, ec);
    if (ec) return fail(error, "cannot create " + config.out_dir + ": " + ec.message());
    std::string extra;
    {
        std::ifstream source_manifest(config.source_dir + "/manifest.txt");
        for (std::string line; std::getline(source_manifest, line);)
            if (line.rfind("command:", 0) == 0 || line.rfind("settings:", 0) == 0) extra += "source " + line + "\n";
    }
    const std::string settings =
        "teacher='" + config.teacher + "' teacher-nodes=" + std::to_string(config.teacher_nodes);
    if (!check_or_write_manifest(config.out_dir, "relabel", settings, config.command_line, error,
                                 "the games of the source folder, every label scored again by the teacher below "
                                 "(rerun the command to continue)",
                                 extra, QTD_SHARDS_FORMAT))
        return false;
    Relabelling r(config, names, summary);
    // Shards are finished in any order, but their manifest lines are appended in shard order.
    std::map<std::size_t, std::string> pending_lines;
    std::size_t next_line = 0;
    return r.run(
        [&](Teacher& teacher, std::size_t k, std::string* why) {
            const std::string src = config.source_dir + "/" + r.todo[k];
            std::string bytes;
            training::ShardHeader header;
            std::vector<training::TrainingGame> games;
            if (!training::read_shard_file(src, &bytes, why)) return false;
            if (!training::decode_shard(bytes, &header, &games, why)) return fail(why, src + ": " + *why);
            if (!teacher.engine.prepare_new_game(why)) return fail(why, "teacher: " + *why);
            std::int64_t shard_positions = 0, shard_plies = 0;
            for (training::TrainingGame& game : games) {
                Position pos;
                if (!game.start_fen.empty()) pos.set_fen(game.start_fen, false, nullptr);  // checked by decode
                std::vector<training::TrainingGame::Label> kept;
                std::size_t next_label = 0;
                for (std::size_t ply = 0; ply < game.moves.size() && next_label < game.labels.size(); ++ply) {
                    if (game.labels[next_label].ply == int(ply)) {
                        if (r.stop.load()) return true;
                        Sample s{pos.fen(), game.score_at(int(ply)), game.white_result(), std::nullopt};
                        std::string best;
                        if (!teacher_label(teacher, config.teacher_nodes, pos, s, why, &best))
                            return fail(why, *why + " (" + src + ")");
                        ++r.read;
                        const Move tm = uci_to_move(pos, best);
                        if (!s.teacher || (tm && pos.is_capture_or_promotion(tm))) {
                            ++r.mates;
                        } else {
                            kept.push_back({int(ply), *s.teacher});
                            ++r.written;
                        }
                        ++next_label;
                    }
                    pos.do_move(game.moves[ply]);
                }
                game.labels = std::move(kept);
                shard_positions += std::int64_t(game.labels.size());
                shard_plies += std::int64_t(game.moves.size());
            }
            header.has_teacher = true;
            header.set("relabel command", config.command_line);
            header.set("teacher", teacher.engine.id_name());
            header.set("teacher nodes", std::to_string(config.teacher_nodes));
            header.set("teacher sha256", command_sha256(config.teacher));
            const std::string path = config.out_dir + "/" + r.todo[k];
            std::string out;
            if (!training::encode_shard(header, games, &out, why) ||
                !training::write_shard_file(path, out, path.size() > 4 && path.substr(path.size() - 4) == ".zst"
                                                           ? training::Codec::Zstd : training::Codec::Xz, why))
                return false;
            std::error_code size_error;
            std::lock_guard<std::mutex> lock(r.mutex);
            pending_lines[k] = r.todo[k] + " games=" + std::to_string(games.size()) + " positions=" +
                               std::to_string(shard_positions) + " plies=" + std::to_string(shard_plies) +
                               " bytes=" + std::to_string(fs::file_size(path, size_error)) + " sha256=" +
                               training::file_sha256(path) + "\n";
            std::ofstream man(config.out_dir + "/manifest.txt", std::ios::app);
            while (pending_lines.count(next_line)) {
                man << pending_lines[next_line];
                pending_lines.erase(next_line++);
            }
            return true;
        },
        error);
}

}  // namespace

bool run_relabel(const RelabelConfig& config, RelabelSummary* summary, std::string* error) {
    *summary = RelabelSummary{};
    if (config.source_dir.empty()) return fail(error, "--relabel needs a source datagen folder");
    if (config.out_dir.empty()) return fail(error, "--out DIR is required");
    if (config.teacher.empty() || config.teacher_nodes < 1)
        return fail(error, "--relabel needs --teacher \"CMD [ARGS]\" and --teacher-nodes N (N >= 1)");
    if (config.threads < 1 || config.threads > 256) return fail(error, "--threads must be 1..256");
    std::error_code ec;
    if (!fs::is_directory(config.source_dir, ec)) return fail(error, "--relabel: no such directory '" + config.source_dir + "'");
    if (fs::equivalent(config.source_dir, config.out_dir, ec))
        return fail(error, "--relabel: the output directory must not be the source folder");

    // The source's shards, in name order (zero-padded, so this is the shard order).
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(config.source_dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("shard-", 0) == 0 && entry.path().extension() == ".txt" && entry.is_regular_file())
            names.push_back(name);
    }
    std::sort(names.begin(), names.end());
    {
        std::vector<std::string> qtd;
        for (const auto& entry : fs::directory_iterator(config.source_dir, ec)) {
            const std::string name = entry.path().filename().string();
            if (name.rfind("shard-", 0) == 0 && training::is_shard_file(name) && entry.is_regular_file())
                qtd.push_back(name);
        }
        std::sort(qtd.begin(), qtd.end());
        if (!qtd.empty() && names.empty()) {
            summary->shards = std::int64_t(qtd.size());
            return relabel_qtd(config, qtd, summary, error);
        }
    }
    std::ifstream source_manifest(config.source_dir + "/manifest.txt");
    if (names.empty() || !source_manifest)
        return fail(error, "--relabel: '" + config.source_dir +
                    "' is not a datagen folder (it needs manifest.txt and shard-*.txt files)");
    // Provenance: the source's manifest lines come along, prefixed "source ".
    std::string extra;
    for (std::string line; std::getline(source_manifest, line);)
        if (!line.empty() && line[0] != '#') extra += "source " + line + "\n";
    summary->shards = std::int64_t(names.size());

    fs::create_directories(config.out_dir, ec);
    if (ec) return fail(error, "cannot create " + config.out_dir + ": " + ec.message());
    const std::string settings =
        "teacher='" + config.teacher + "' teacher-nodes=" + std::to_string(config.teacher_nodes);
    if (!check_or_write_manifest(config.out_dir, "relabel", settings, config.command_line, error,
                                 "a relabelled copy of a datagen folder: every teacher column is the teacher's "
                                 "score below (rerun the command to make it again; the source lines say how "
                                 "the positions were made)",
                                 extra))
        return false;
    // Shards of the same names from another source would be kept silently: the carried source lines must match
    // too (a manifest written just now carries them; one found with data carries those of its source).
    std::string kept;
    std::ifstream out_manifest(config.out_dir + "/manifest.txt");
    for (std::string line; std::getline(out_manifest, line);)
        if (line.rfind("source ", 0) == 0) kept += line + "\n";
    if (kept != extra) {
        auto first_difference = [](const std::string& a, const std::string& b) {
            std::istringstream ia(a), ib(b);
            std::string la, lb;
            while (true) {
                const bool more_a = bool(std::getline(ia, la)), more_b = bool(std::getline(ib, lb));
                la = more_a ? la.substr(7) : "(no line)";  // without the "source " prefix
                lb = more_b ? lb.substr(7) : "(no line)";
                if (la != lb || (!more_a && !more_b)) return std::make_pair(la, lb);
            }
        };
        const auto [was, now] = first_difference(kept, extra);
        return fail(error, config.out_dir + " holds a relabelling of another source (its manifest.txt says the source's '" +
                    was + "'; " + config.source_dir + "/manifest.txt: '" + now + "'): use another --out directory");
    }
    Relabelling r(config, names, summary);
    if (r.todo.empty()) return true;
    auto last_print = r.start;
    auto print_progress = [&](bool final) {
        const double secs = r.seconds();
        std::fprintf(stderr, "\rrelabel: %lld positions read, %lld written, %lld teacher mates, %.0f positions/s%s",
                     static_cast<long long>(r.read.load()), static_cast<long long>(r.written.load()),
                     static_cast<long long>(r.mates.load()), secs > 0 ? double(r.read.load()) / secs : 0.0,
                     final ? "\n" : "   ");
        std::fflush(stderr);
    };
    const bool ok = r.run(
        [&](Teacher& teacher, std::size_t k, std::string* why) {
            const std::string src = config.source_dir + "/" + r.todo[k];
            std::ifstream in(src);
            if (!in) return fail(why, "cannot read " + src);
            // A fresh teacher per shard: its hash then depends only on this shard's earlier positions.
            if (!teacher.engine.prepare_new_game(why)) return fail(why, "teacher: " + *why);
            std::string text, line;
            std::int64_t line_no = 0;
            while (std::getline(in, line)) {
                if (r.stop.load()) return true;
                ++line_no;
                Sample s;
                Position pos;
                if (!parse_sample(line, s, why) || !pos.set_fen(s.fen, false, why))
                    return fail(why, src + ":" + std::to_string(line_no) + ": " + *why);
                s.teacher.reset();
                if (!teacher_label(teacher, config.teacher_nodes, pos, s, why))
                    return fail(why, *why + " (" + src + ":" + std::to_string(line_no) + ")");
                ++r.read;
                // A teacher that sees a mate (or reports no score) gives no usable label: the position is dropped.
                if (!s.teacher) {
                    ++r.mates;
                } else {
                    text += format_sample(s);
                    text += '\n';
                    ++r.written;
                }
                if (config.progress && line_no % 16 == 0) {
                    std::lock_guard<std::mutex> lock(r.mutex);  // last_print is shared by the workers
                    const auto now = std::chrono::steady_clock::now();
                    if (now - last_print >= std::chrono::seconds(1)) {
                        last_print = now;
                        print_progress(false);
                    }
                }
            }
            if (r.stop.load()) return true;
            if (in.bad()) return fail(why, "cannot read " + src);
            return write_file_atomically(config.out_dir + "/" + r.todo[k], text, why);
        },
        error);
    if (config.progress) print_progress(true);
    return ok;
}

}  // namespace quince::datagen
