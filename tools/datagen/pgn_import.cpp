// `quince datagen --from-pgn`: the positions of PGN games whose moves carry scores (engine comments or eval
// commands), as training samples.
#include "datagen.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <limits>
#include <unordered_set>

#include "game/pgn.h"
#include "shared.h"

namespace fs = std::filesystem;

namespace quince::datagen {

using training::format_sample;
using training::MAX_SAMPLE_SCORE;
using training::Sample;

bool is_quiet(search::Engine& probe, const Position& pos) {
    if (pos.in_check()) return false;
    return probe.quiescence(pos) == probe.static_eval(pos);
}

std::optional<int> comment_score_cp(const std::string& comment, bool* mate) {
    if (mate) *mate = false;
    std::size_t a = comment.find_first_not_of(" \t");
    if (a == std::string::npos) return std::nullopt;
    std::size_t b = comment.find_first_of(" \t/,}", a);
    std::string token = comment.substr(a, b == std::string::npos ? std::string::npos : b - a);
    std::size_t i = 0;
    bool negative = false;
    if (i < token.size() && (token[i] == '+' || token[i] == '-')) negative = token[i++] == '-';
    if (i < token.size() && (token[i] == 'M' || token[i] == '#')) {
        if (mate) *mate = true;
        return std::nullopt;
    }
    // [digits][.digits], at least one digit: pawns.
    std::size_t digits = 0, start = i;
    long long whole = 0, frac = 0, frac_scale = 1;
    while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i])) && digits < 9)
        whole = whole * 10 + (token[i++] - '0'), ++digits;
    if (i < token.size() && token[i] == '.') {
        ++i;
        while (i < token.size() && std::isdigit(static_cast<unsigned char>(token[i])) && frac_scale < 1000000)
            frac = frac * 10 + (token[i++] - '0'), frac_scale *= 10, ++digits;
    }
    if (digits == 0 || i != token.size() || i == start) return std::nullopt;
    long long cp = whole * 100 + (frac * 100 + frac_scale / 2) / frac_scale;
    if (cp > MAX_SAMPLE_SCORE) return std::nullopt;
    return int(negative ? -cp : cp);
}

std::optional<int> eval_command_cp(const std::string& comment, bool* mate) {
    if (mate) *mate = false;
    const std::size_t at = comment.find("[%eval");
    if (at == std::string::npos) return std::nullopt;
    const std::size_t from = at + 6, end = comment.find(']', from);
    if (end == std::string::npos || from == end || !std::isspace(static_cast<unsigned char>(comment[from])))
        return std::nullopt;
    // The value ends at the depth's comma; what is left is read as a score comment's first token.
    std::string value = comment.substr(from, end - from);
    value = value.substr(0, value.find(','));
    if (value.find_first_not_of(" \t") == std::string::npos) return std::nullopt;
    const std::size_t last = value.find_last_not_of(" \t");
    if (value.find_first_of(" \t", value.find_first_not_of(" \t")) < last) return std::nullopt;  // two words
    return comment_score_cp(value, mate);
}

bool import_pgn(const PgnImportConfig& config, PgnImportSummary* summary, std::string* error) {
    *summary = PgnImportSummary{};
    if (config.out_dir.empty()) return fail(error, "--out DIR is required");
    if (config.files.empty()) return fail(error, "--from-pgn needs at least one file");
    if (config.games_per_shard < 1) return fail(error, "--games-per-shard must be at least 1");
    std::vector<std::string> texts;
    for (const std::string& f : config.files) {
        std::ifstream in(f, std::ios::binary);
        if (!in) return fail(error, "cannot open PGN file '" + f + "'");
        texts.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::error_code ec;
    fs::create_directories(config.out_dir, ec);
    if (ec) return fail(error, "cannot create " + config.out_dir + ": " + ec.message());
    if (fs::exists(shard_path(config.out_dir, 0)) || fs::exists(config.out_dir + "/manifest.txt"))
        return fail(error, config.out_dir + " already holds data: use an empty --out directory");
    std::string settings = "games-per-shard=" + std::to_string(config.games_per_shard) + " files=";
    for (std::size_t i = 0; i < config.files.size(); ++i) settings += (i ? "," : "") + config.files[i];
    if (!check_or_write_manifest(config.out_dir, "from-pgn", settings, config.command_line, error)) return false;

    search::Engine probe;
    probe.set_hash(config.hash_mb);
    std::unique_ptr<Teacher> teacher;
    if (!config.teacher.empty()) {
        if (config.teacher_nodes < 1) return fail(error, "--teacher needs --teacher-nodes N (N >= 1)");
        teacher = start_teacher(config.teacher, config.teacher_timeout_ms, error);
        if (!teacher) return false;
    }
    std::unordered_set<Key> seen;
    std::string text;
    std::int64_t shard = 0, games_in_shard = 0;
    auto flush = [&]() {
        std::string why;
        if (!write_file_atomically(shard_path(config.out_dir, shard), text, &why)) return fail(error, why);
        ++shard;
        text.clear();
        games_in_shard = 0;
        return true;
    };
    // One finished game into samples; false only when the teacher fails (which ends the import).
    auto use_game = [&](const game::Game& g, double white_result) {
        const bool chess960 = g.chess960();
        Position pos = g.start();
        probe.new_game();
        std::vector<std::pair<Sample, Key>> samples;
        // A quiet position with its score (White's view) becomes a sample.
        auto label = [&](int white_cp) {
            Position quiet_probe;
            if (!chess960 && quiet_probe.set_fen(pos.fen(), false, nullptr) && quiet_probe.has_legal_move() &&
                is_quiet(probe, quiet_probe))
                samples.emplace_back(Sample{pos.fen(), white_cp, white_result, std::nullopt}, pos.key());
        };
        for (const game::PgnMove& m : g.moves) {  // legal: the reader checked every move on the board
            std::string comment;
            for (const std::string& c : m.comments) comment += (comment.empty() ? "" : " ") + c;
            // An eval command scores the position after the move, White's view; an engine's comment is the
            // mover's score of the position before it.
            const std::optional<int> after = eval_command_cp(comment);
            if (!after)
                if (const std::optional<int> cp = comment_score_cp(comment))
                    label(pos.side_to_move() == WHITE ? *cp : -*cp);
            pos.do_move(m.move);
            if (after) label(*after);
        }
        ++summary->games_used;
        if (teacher) {
            std::string why;
            if (!teacher->engine.prepare_new_game(&why)) return fail(error, "teacher: " + why);
        }
        for (auto& [s, key] : samples) {
            if (!seen.insert(key).second) {
                ++summary->duplicates;
                continue;
            }
            if (teacher) {
                Position at;
                if (!at.set_fen(s.fen, false, error) || !teacher_label(*teacher, config.teacher_nodes, at, s, error))
                    return false;
                if (!s.teacher) {  // the teacher sees a mate: no label
                    ++summary->teacher_mates;
                    continue;
                }
            }
            text += format_sample(s);
            text += '\n';
            ++summary->positions;
        }
        return true;
    };
    for (std::size_t f = 0; f < config.files.size(); ++f) {
        // A malformed game (a bad tag, an illegal move) is skipped up to the next game's tags, one error line
        // each, and the others are still used.
        std::vector<game::Game> games;
        const std::vector<game::PgnError> bad = game::read_pgn_games(texts[f], &games);
        summary->games += std::int64_t(games.size() + bad.size());
        auto malformed = [&](int number, const std::string& what) {
            ++summary->games_malformed;
            summary->errors.push_back(config.files[f] + ": game " + std::to_string(number) + ": " + what);
        };
        // The reader's errors in file order among the games': its text after "game N, line L: ".
        std::size_t next_bad = 0;
        auto malformed_before = [&](int number) {
            for (; next_bad < bad.size() && bad[next_bad].game < number; ++next_bad) {
                const std::string said = bad[next_bad].text();
                malformed(bad[next_bad].game, said.substr(std::min(said.find(": ") + 2, said.size())));
            }
        };
        for (const game::Game& g : games) {
            malformed_before(g.number);
            const std::string result = g.result == "*" && !g.tag("Result").empty() ? g.tag("Result") : g.result;
            if (result == "*" || result.empty()) {
                ++summary->games_unfinished;
                continue;
            }
            const double white_result = result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : result == "1/2-1/2" ? 0.5 : -1;
            if (white_result < 0) {
                malformed(g.number, "unknown result '" + result + "'");
                continue;
            }
            if (!use_game(g, white_result)) return false;
            if (++games_in_shard == config.games_per_shard && !flush()) return false;
        }
        malformed_before(std::numeric_limits<int>::max());
    }
    if (games_in_shard > 0 && !flush()) return false;
    if (teacher) teacher->engine.quit();
    return true;
}

}  // namespace quince::datagen
