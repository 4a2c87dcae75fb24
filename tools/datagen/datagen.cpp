#include "datagen.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "board/notation.h"
#include "core/text.h"
#include "eval/evaluate.h"  // profile_names()
#include "match/game.h"
#include "match/openings.h"
#include "game/pgn.h"
#include "match/uci_engine.h"
#include "search/syzygy.h"

namespace fs = std::filesystem;

namespace quince::datagen {

using training::format_sample;
using training::MAX_SAMPLE_SCORE;
using training::parse_sample;
using training::Sample;

namespace {

bool is_mate_score(Value v) { return v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY; }

// A word of the settings line: quoted when it holds a blank.
std::string settings_word(const std::string& s) {
    return s.find_first_of(" \t") == std::string::npos ? s : "'" + s + "'";
}

std::string settings_line(const SelfPlayConfig& c, const PlayerEval& player) {
    std::ostringstream s;
    s << "seed=" << c.seed << " nodes=" << c.nodes << " book=" << (c.book.empty() ? "none" : c.book)
      << " random-plies=" << c.opening.random_plies;
    // Each absent when off, so that older folders still continue.
    if (c.opening.random_plies_max > c.opening.random_plies) s << "-" << c.opening.random_plies_max;
    s << " max-opening-score=" << c.opening.max_score
      << " opening-nodes=" << c.opening.verify_nodes << " games-per-shard=" << c.games_per_shard
      << " hash=" << c.hash_mb << " win=" << c.adjudication.win_score << "x" << c.adjudication.win_plies
      << " draw=" << c.adjudication.draw_score << "x" << c.adjudication.draw_plies << "@"
      << c.adjudication.draw_move_number << " teacher=" << (c.teacher.empty() ? "none" : "'" + c.teacher + "'")
      << " teacher-nodes=" << c.teacher_nodes;
    if (c.sample > 0) s << " sample=" << c.sample;
    if (c.soft_nodes > 0) s << " soft-nodes=" << c.soft_nodes;
    if (!c.syzygy.empty()) s << " syzygy=" << syzygy::max_pieces() << "-piece";
    if (!player.name.empty()) {  // likewise absent without --eval
        s << " eval=" << settings_word(player.name);
        if (!player.sha256.empty()) s << " sha256=" << player.sha256;
        if (!player.net.empty()) s << " net=" << player.net;
    }
    return s.str();
}

bool write_file_atomically(const std::string& path, const std::string& text, std::string* error) {
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        out.flush();
        if (!out) {
            if (error) *error = "cannot write " + tmp;
            return false;
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) {
        if (error) *error = "cannot rename " + tmp + " to " + path + ": " + ec.message();
        return false;
    }
    return true;
}

// The manifest records how the data was made; a rerun must use the same settings to continue it.
// (A relabel run writes shards in any order, so any complete shard counts as data.)
bool holds_shards(const std::string& dir) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("shard-", 0) == 0 && entry.path().extension() != ".tmp") return true;
    }
    return false;
}

bool check_or_write_manifest(const std::string& dir, const std::string& kind, const std::string& settings,
                             const std::string& command_line, std::string* error,
                             const std::string& heading = "how the shards in this directory were made (rerun the "
                                                          "command to make them again)",
                             const std::string& extra = "",
                             const std::string& format = "format: FEN | score | result [| teacher]  (centipawns and "
                                                         "result from White's view)\nchecksum: cat shard-*.txt | sha256sum\n") {
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
        if (found != now && !before_eval_recorded) {
            if (error)
                *error = dir + " holds data made with other settings (manifest.txt: '" + found + "'; now: '" + now +
                         "'): use another --out directory, or the folder's own settings (--eval, …)";
            return false;
        }
        return true;
    }
    std::ostringstream m;
    m << "# quince datagen: " << heading << "\n"
      << "command: " << command_line << "\n"
      << "settings: " << kind << " " << settings << "\n"
      << format << extra;
    return write_file_atomically(path, m.str(), error);
}

}  // namespace

namespace {

std::vector<std::string> split_blanks(const std::string& s) {
    std::istringstream in(s);
    std::vector<std::string> out;
    std::string t;
    while (in >> t) out.push_back(t);
    return out;
}

}  // namespace

std::string shard_path(const std::string& dir, std::int64_t index, const std::string& extension) {
    char name[32];
    std::snprintf(name, sizeof name, "shard-%05lld", static_cast<long long>(index));
    return dir + "/" + name + extension;
}

std::string shards_sha256(const std::string& dir) {
    // Shard names are zero-padded, so the shell's sorted glob is the shard order.
    return training::sha256_from_command("cat " + training::shell_quote(dir) + "/shard-*.txt 2>/dev/null | sha256sum");
}

bool resolve_player_eval(const std::string& spec, PlayerEval* out, std::string* error) {
    *out = PlayerEval{};
    if (spec.empty()) return true;
    auto fail = [&](const std::string& what) {
        if (error) *error = "--eval '" + printable(spec, 4096) + "': " + what;
        return false;
    };
    const std::vector<std::string> names = eval::profile_names();
    std::string why;
    if (std::find(names.begin(), names.end(), spec) != names.end()) {
        out->evaluation = eval::builtin_evaluation(spec, &why);
        if (!out->evaluation) return fail(why);
        out->name = spec;
        if (out->evaluation->network) out->net = out->evaluation->network->identity();
        return true;
    }
    std::error_code ec;
    if (!fs::exists(spec, ec)) {
        std::string known;
        for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
        return fail("neither a built-in profile (" + known + ") nor an existing file");
    }
    out->evaluation = eval::load_evaluation(spec, &why);
    if (!out->evaluation) return fail(why);
    out->sha256 = training::file_sha256(spec);
    if (out->sha256.empty()) return fail("cannot compute the file's SHA-256");
    out->name = fs::path(spec).filename().string();
    return true;
}

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

// ---------------------------------------------------------------------------------------------
// Self-play

struct GamePlayer::TeacherEngine {
    explicit TeacherEngine(match::EngineConfig c) : engine(std::move(c)) {}
    match::UciEngine engine;
};

GamePlayer::GamePlayer(const SelfPlayConfig& config, const std::vector<std::string>& book,
                       eval::EvalPtr evaluation)
    : config_(config), book_(book) {
    engine_.set_hash(config.hash_mb);
    engine_.set_eval(std::move(evaluation));  // a null one leaves the default
    probe_.set_hash(1);
}

GamePlayer::~GamePlayer() {
    if (teacher_) teacher_->engine.quit();
}

namespace {

// A teacher engine process for `command` ("CMD ARGS"), started, one search thread. `timeout_ms` bounds every
// wait on it (uciok, readyok, a search): a teacher silent that long is hung.
std::unique_ptr<GamePlayer::TeacherEngine> start_teacher(const std::string& command, std::int64_t timeout_ms,
                                                         std::string* error) {
    std::vector<std::string> words = split_blanks(command);
    if (words.empty()) {
        if (error) *error = "--teacher: empty command";
        return nullptr;
    }
    match::EngineConfig ec;
    ec.name = "teacher";
    ec.command = words[0];
    ec.args.assign(words.begin() + 1, words.end());
    ec.options.emplace_back("Threads", "1");
    ec.protocol_timeout_ms = timeout_ms;
    ec.search_timeout_ms = timeout_ms;
    auto t = std::make_unique<GamePlayer::TeacherEngine>(ec);
    std::string why;
    if (!t->engine.start(&why)) {
        if (error) *error = "--teacher '" + command + "': " + why;
        return nullptr;
    }
    return t;
}

// The teacher's score of pos in centipawns from White's view into sample.teacher; false with *error when
// the teacher fails. A mate (or no score) leaves sample.teacher empty: such a position gives no label.
bool teacher_label(GamePlayer::TeacherEngine& t, std::uint64_t nodes, const Position& pos, Sample& sample,
                   std::string* error, std::string* best = nullptr) {
    match::SearchResult r = t.engine.search("position fen " + sample.fen, "go nodes " + std::to_string(nodes),
                                            t.engine.config().search_timeout_ms);
    if (r.status != match::SearchResult::Status::Ok) {
        if (error) *error = "teacher: " + (r.error.empty() ? std::string("search failed") : r.error);
        return false;
    }
    if (best) *best = r.bestmove;
    if (!r.score || r.score->is_mate || std::abs(r.score->value) > MAX_SAMPLE_SCORE) return true;
    sample.teacher = pos.side_to_move() == WHITE ? r.score->value : -r.score->value;
    return true;
}

}  // namespace

bool GamePlayer::start(std::string* error) {
    if (config_.teacher.empty()) return true;
    teacher_ = start_teacher(config_.teacher, config_.teacher_timeout_ms, error);
    return teacher_ != nullptr;
}

std::string GamePlayer::teacher_id() const { return teacher_ ? teacher_->engine.id_name() : ""; }

bool GamePlayer::play(std::uint64_t index, GameData* out, std::string* error) {
    *out = GameData{};
    training::TrainingGame& game = out->game;
    SplitMix64 rng(search::stream_seed(config_.seed, index));
    engine_.new_game();
    Position opening;
    if (!search::random_opening(engine_, book_, config_.opening, rng, &opening, error, &game.start_fen, &game.moves))
        return false;
    game.opening_plies = int(game.moves.size());
    engine_.new_game();

    match::Referee referee;
    if (!referee.reset(opening.fen(), false, error)) return false;
    search::SearchOptions options;
    options.silent = true;
    options.syzygy_probe_limit = 0;  // the tables end games (below); they never replace a search's score
    search::Limits limits;
    limits.nodes = config_.nodes;
    limits.soft_nodes = config_.soft_nodes;
    const Adjudication& adj = config_.adjudication;

    struct Candidate {
        int ply;
        std::string fen;
        Key key;
    };
    std::vector<Candidate> candidates;
    int white_winning = 0, black_winning = 0, drawish = 0;
    double result = 0.5;
    for (;;) {
        match::Outcome outcome = referee.rules_outcome();
        if (outcome.result != match::GameResult::None) {
            result = outcome.result == match::GameResult::WhiteWins ? 1.0
                     : outcome.result == match::GameResult::BlackWins ? 0.0 : 0.5;
            break;
        }
        const Position& pos = referee.position();
        search::SearchResult r = engine_.search(pos, limits, options);
        if (!r.best || r.score == VALUE_NONE) {
            if (error) *error = "game " + std::to_string(index) + ": the search returned no move";
            return false;
        }
        const Color us = pos.side_to_move();
        const int white_score = std::clamp(us == WHITE ? r.score : -r.score, -VALUE_MATE, int(VALUE_MATE));
        const bool mate = is_mate_score(r.score);
        // Kept: not in check, a quiet best move (the label belongs to the position, not to a pending
        // capture), a score below the mate bound.
        if (!pos.in_check() && !pos.is_capture_or_promotion(r.best) && std::abs(white_score) < training::QTD_MATE_BOUND)
            candidates.push_back({int(game.moves.size()), pos.fen(), pos.key()});
        game.scores.push_back(white_score);
        game.moves.push_back(r.best);

        // Adjudication on the scores of consecutive plies (each side's own search in turn).
        white_winning = (mate ? white_score > 0 : white_score >= adj.win_score) ? white_winning + 1 : 0;
        black_winning = (mate ? white_score < 0 : white_score <= -adj.win_score) ? black_winning + 1 : 0;
        const int move_number = 1 + pos.game_ply() / 2;
        drawish = (!mate && move_number >= adj.draw_move_number && std::abs(white_score) <= adj.draw_score)
                      ? drawish + 1 : 0;
        if (!referee.play(move_to_uci(r.best, false))) {
            if (error) *error = "game " + std::to_string(index) + ": the search's move is illegal";
            return false;
        }
        ++out->plies;
        if (white_winning >= adj.win_plies) { result = 1.0; break; }
        if (black_winning >= adj.win_plies) { result = 0.0; break; }
        if (drawish >= adj.draw_plies) { result = 0.5; break; }
        // In the tables: their result (the fifty-move rule's draws included). Probed when the position
        // enters them, right after a capture, where WDL is exact.
        if (!config_.syzygy.empty() && popcount(referee.position().pieces()) <= syzygy::max_pieces()) {
            syzygy::Wdl wdl;
            if (syzygy::probe_wdl(referee.position(), &wdl)) {
                const int v = referee.position().side_to_move() == WHITE ? int(wdl) : -int(wdl);
                result = v == 2 ? 1.0 : v == -2 ? 0.0 : 0.5;
                break;
            }
        }
    }
    game.result = result == 1.0 ? training::GameResult::WhiteWins
                  : result == 0.0 ? training::GameResult::BlackWins : training::GameResult::Draw;

    if (teacher_) {
        std::string why;
        if (!teacher_->engine.prepare_new_game(&why)) {
            if (error) *error = "teacher: " + why;
            return false;
        }
    }
    std::vector<std::size_t> chosen(candidates.size());
    for (std::size_t i = 0; i < chosen.size(); ++i) chosen[i] = i;
    if (config_.sample > 0 && chosen.size() > std::size_t(config_.sample)) {
        // A uniform choice (the first `sample` places of a Fisher-Yates shuffle), kept in game order.
        for (std::size_t i = 0; i < std::size_t(config_.sample); ++i)
            std::swap(chosen[i], chosen[i + std::size_t(rng.below(chosen.size() - i))]);
        chosen.resize(std::size_t(config_.sample));
        std::sort(chosen.begin(), chosen.end());
    }
    for (std::size_t i : chosen) {
        const Candidate& c = candidates[i];
        training::TrainingGame::Label label{c.ply, 0};
        if (teacher_) {
            Position pos;
            if (!pos.set_fen(c.fen, false, error)) return false;
            Sample s{c.fen, game.score_at(c.ply), result, std::nullopt};
            std::string best;
            if (!teacher_label(*teacher_, config_.teacher_nodes, pos, s, error, &best)) return false;
            // A teacher that sees a mate (or reports no score), or whose best move is a capture or a promotion,
            // gives no label for a quiet position: the position is dropped.
            if (!s.teacher) continue;
            const Move tm = uci_to_move(pos, best);
            if (tm && pos.is_capture_or_promotion(tm)) continue;
            label.teacher = *s.teacher;
        }
        game.labels.push_back(label);
        out->keys.push_back(c.key);
    }
    return true;
}

namespace {

// Keys of the labelled positions of QTD shards (for deduplication across the set), and their count.
bool load_qtd_keys(const std::vector<training::ShardFile>& shards, std::unordered_set<Key>* keys,
                   std::int64_t* positions, std::string* error) {
    return training::for_each_position(
        shards,
        [&](const training::LabeledPosition& lp) {
            keys->insert(lp.pos->key());
            ++*positions;
            return true;
        },
        error);
}


// SHA-256 of the executable a command line starts (PATH looked up), "" when it cannot be found.
std::string command_sha256(const std::string& command) {
    std::vector<std::string> words = split_blanks(command);
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

}  // namespace

bool run_selfplay(const SelfPlayConfig& config, RunSummary* summary, std::string* error) {
    *summary = RunSummary{};
    auto fail = [error](const std::string& what) {
        if (error) *error = what;
        return false;
    };
    if (config.out_dir.empty()) return fail("--out DIR is required");
    if (config.games <= 0 && config.positions <= 0) return fail("give a target: --games N or --positions N");
    if (config.games_per_shard < 1) return fail("--games-per-shard must be at least 1");
    if (config.sample < 0) return fail("--sample must be 0 (every position) or more");
    if (config.threads < 1 || config.threads > 256) return fail("--threads must be 1..256");
    if (config.nodes < 1) return fail("--nodes must be at least 1");
    if (config.soft_nodes > config.nodes) return fail("--soft-nodes must not exceed --nodes (the hard limit)");
    if (!config.syzygy.empty()) {
        // Process-wide tables, loaded before any game thread starts.
        const std::string line = syzygy::init(config.syzygy);
        if (syzygy::max_pieces() == 0) return fail("--syzygy: " + line);
    }
    if (!config.teacher.empty() && config.teacher_nodes < 1) return fail("--teacher needs --teacher-nodes N (N ≥ 1)");
    // Resolved once, before anything is written: every game thread shares it.
    PlayerEval player_eval;
    // Without --eval the default profile plays, recorded like any other: the default changes between builds.
    if (!resolve_player_eval(config.eval.empty() ? eval::default_profile() : config.eval, &player_eval, error))
        return false;

    // The book: every opening as a FEN (book moves played), so that the generator picks among positions.
    std::vector<std::string> book;
    if (!config.book.empty()) {
        match::OpeningConfig oc;
        oc.file = config.book;
        match::OpeningBook ob;
        std::string why;
        if (!ob.load(oc, &why)) return fail("--book: " + why);
        for (std::size_t k = 0; k < ob.size(); ++k) {
            const match::Opening& o = ob.at(k);
            Position pos;
            if (!pos.set_fen(o.fen.empty() ? Position::START_FEN : o.fen, false, &why))
                return fail("--book: " + why);
            for (const std::string& m : o.moves) pos.do_move(uci_to_move(pos, m));
            book.push_back(pos.fen());
        }
    }

    std::error_code ec;
    fs::create_directories(config.out_dir, ec);
    if (ec) return fail("cannot create " + config.out_dir + ": " + ec.message());
    if (!check_or_write_manifest(config.out_dir, "selfplay", settings_line(config, player_eval), config.command_line, error,
                                 "how the shards in this directory were made (rerun the command to continue them)", "",
                                 "format: QTD 1 (whole games; data/training/README.md); one line per finished shard "
                                 "follows, with its SHA-256\n"))
        return false;
    const std::string extension = config.codec == training::Codec::Xz ? ".qtd.xz" : ".qtd.zst";

    // Complete shards from an earlier run are kept; unfinished temporary files are not. The positions of
    // every shard of the set (this folder and the dedup folders) are never labelled again.
    std::int64_t done_shards = 0, positions = 0;
    while (fs::exists(shard_path(config.out_dir, done_shards, extension))) ++done_shards;
    for (const auto& entry : fs::directory_iterator(config.out_dir, ec))
        if (entry.path().extension() == ".tmp") fs::remove(entry.path(), ec);
    std::unordered_set<Key> seen;
    {
        std::vector<training::ShardFile> mine, others;
        std::vector<std::string> dirs{config.out_dir};
        if (!training::find_shards(dirs, &mine, error)) return false;
        std::unordered_set<std::string> own;
        for (const auto& s : mine) own.insert(fs::weakly_canonical(s.path).string());
        for (const std::string& d : config.dedup_dirs) {
            std::vector<training::ShardFile> found;
            if (!fs::is_directory(d, ec)) continue;  // an empty set
            if (!training::find_shards({d}, &found, error)) return false;
            for (const auto& s : found)
                if (!own.count(fs::weakly_canonical(s.path).string())) others.push_back(s);
        }
        if (!load_qtd_keys(mine, &seen, &positions, error)) return false;
        std::int64_t other_positions = 0;
        if (!load_qtd_keys(others, &seen, &other_positions, error)) return false;
    }

    const std::int64_t G = config.games_per_shard;
    const std::int64_t target_shards = config.games > 0 ? (config.games + G - 1) / G : INT64_MAX / G;
    auto target_reached = [&](std::int64_t shards, std::int64_t pos) {
        return shards >= target_shards || (config.positions > 0 && pos >= config.positions);
    };
    summary->shards = done_shards;
    summary->games = done_shards * G;
    summary->positions = positions;
    if (target_reached(done_shards, positions)) return true;

    // The header every shard of this run carries (plus its own game range).
    training::ShardHeader base_header;
    base_header.has_teacher = !config.teacher.empty();
    base_header.set("command", config.command_line);
    base_header.set("settings", "selfplay " + settings_line(config, player_eval));
    base_header.set("engine", config.engine);
    base_header.set("engine sha256", training::file_sha256("/proc/self/exe"));
    if (!player_eval.name.empty()) {
        base_header.set("eval", player_eval.name);
        if (!player_eval.sha256.empty()) base_header.set("eval sha256", player_eval.sha256);
        if (!player_eval.net.empty()) base_header.set("eval net", player_eval.net);
    }
    if (!config.teacher.empty()) {
        GamePlayer probe_teacher(config, book);
        if (!probe_teacher.start(error)) return false;
        base_header.set("teacher", probe_teacher.teacher_id());
        base_header.set("teacher nodes", std::to_string(config.teacher_nodes));
        base_header.set("teacher sha256", command_sha256(config.teacher));
    }

    // Workers take game indices in order; a shard is written (deduplicated in game order) once all of its
    // games are in and every earlier shard is written, so the output does not depend on --threads.
    std::mutex mutex;
    std::atomic<std::int64_t> next_game{done_shards * G};
    std::atomic<bool> stop{false};
    std::map<std::int64_t, GameData> finished;
    std::int64_t next_shard = done_shards;
    std::string first_error;
    std::int64_t kept_this_run = 0, games_this_run = 0;
    const auto start = std::chrono::steady_clock::now();
    auto last_print = start;
    const std::int64_t game_limit = target_shards < INT64_MAX / G ? target_shards * G : INT64_MAX;

    auto print_progress = [&](bool final) {
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "\rdatagen: %lld games, %lld positions kept (%lld written in %lld shards), %.0f positions/s%s",
                     static_cast<long long>(games_this_run), static_cast<long long>(kept_this_run),
                     static_cast<long long>(positions), static_cast<long long>(next_shard),
                     secs > 0 ? double(kept_this_run) / secs : 0.0, final ? "\n" : "   ");
        std::fflush(stderr);
    };

    // Called with the mutex held.
    auto flush_shards = [&]() -> bool {
        while (!stop.load()) {
            const std::int64_t first = next_shard * G;
            for (std::int64_t g = first; g < first + G; ++g)
                if (!finished.count(g)) return true;
            std::vector<training::TrainingGame> games;
            std::int64_t shard_positions = 0, shard_plies = 0;
            for (std::int64_t g = first; g < first + G; ++g) {
                GameData& data = finished[g];
                std::vector<training::TrainingGame::Label> labels;
                for (std::size_t i = 0; i < data.game.labels.size(); ++i) {
                    if (!seen.insert(data.keys[i]).second) {
                        ++summary->duplicates;
                        continue;
                    }
                    labels.push_back(data.game.labels[i]);
                }
                data.game.labels = std::move(labels);
                shard_positions += std::int64_t(data.game.labels.size());
                shard_plies += std::int64_t(data.game.moves.size());
                games.push_back(std::move(data.game));
                finished.erase(g);
            }
            training::ShardHeader header = base_header;
            header.set("games", std::to_string(first) + ".." + std::to_string(first + G - 1) + " of the run");
            std::string bytes, why;
            const std::string path = shard_path(config.out_dir, next_shard, extension);
            bool ok = training::encode_shard(header, games, &bytes, &why) &&
                      training::write_shard_file(path, bytes, config.codec, &why);
            if (ok) {
                std::ofstream man(config.out_dir + "/manifest.txt", std::ios::app);
                man << fs::path(path).filename().string() << " games=" << G << " positions=" << shard_positions
                    << " plies=" << shard_plies << " bytes=" << fs::file_size(path, ec)
                    << " sha256=" << training::file_sha256(path) << "\n";
                man.flush();
                if (!man) why = "cannot append to " + config.out_dir + "/manifest.txt", ok = false;
            }
            if (!ok) {
                if (first_error.empty()) first_error = why;
                stop.store(true);
                return false;
            }
            positions += shard_positions;
            summary->positions_this_run += shard_positions;
            ++next_shard;
            if (target_reached(next_shard, positions)) stop.store(true);
        }
        return true;
    };

    auto worker = [&]() {
        GamePlayer player(config, book, player_eval.evaluation);
        std::string why;
        if (!player.start(&why)) {
            std::lock_guard<std::mutex> lock(mutex);
            if (first_error.empty()) first_error = why;
            stop.store(true);
            return;
        }
        while (!stop.load()) {
            const std::int64_t g = next_game.fetch_add(1);
            if (g >= game_limit) break;
            GameData data;
            if (!player.play(std::uint64_t(g), &data, &why)) {
                std::lock_guard<std::mutex> lock(mutex);
                if (first_error.empty()) first_error = why;
                stop.store(true);
                return;
            }
            std::lock_guard<std::mutex> lock(mutex);
            if (stop.load()) break;
            ++games_this_run;
            summary->plies_this_run += data.plies;
            kept_this_run += std::int64_t(data.game.labels.size());
            finished.emplace(g, std::move(data));
            flush_shards();
            const auto now = std::chrono::steady_clock::now();
            if (config.progress && now - last_print >= std::chrono::seconds(1)) {
                last_print = now;
                print_progress(false);
            }
        }
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < config.threads; ++i) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    if (config.progress) print_progress(true);

    summary->shards = next_shard;
    summary->games = next_shard * G;
    summary->positions = positions;
    summary->games_this_run = games_this_run;
    summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!first_error.empty()) return fail(first_error);
    return true;
}

// ---------------------------------------------------------------------------------------------
// PGN import

namespace {

// Splits PGN text into games (a tag line after movetext starts the next one), keeping each game's text so
// that a malformed game can be skipped alone.
std::vector<std::string> split_pgn_games(const std::string& text) {
    std::vector<std::string> games;
    std::string current;
    bool has_movetext = false;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        std::size_t a = line.find_first_not_of(" \t\r");
        const bool tag = a != std::string::npos && line[a] == '[';
        if (tag && has_movetext) {
            games.push_back(std::move(current));
            current.clear();
            has_movetext = false;
        }
        if (!tag && a != std::string::npos) has_movetext = true;
        current += line;
        current += '\n';
    }
    if (current.find_first_not_of(" \t\r\n") != std::string::npos) games.push_back(std::move(current));
    return games;
}

}  // namespace

bool import_pgn(const PgnImportConfig& config, PgnImportSummary* summary, std::string* error) {
    *summary = PgnImportSummary{};
    auto fail = [error](const std::string& what) {
        if (error) *error = what;
        return false;
    };
    if (config.out_dir.empty()) return fail("--out DIR is required");
    if (config.files.empty()) return fail("--from-pgn needs at least one file");
    if (config.games_per_shard < 1) return fail("--games-per-shard must be at least 1");
    std::vector<std::string> texts;
    for (const std::string& f : config.files) {
        std::ifstream in(f, std::ios::binary);
        if (!in) return fail("cannot open PGN file '" + f + "'");
        texts.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    std::error_code ec;
    fs::create_directories(config.out_dir, ec);
    if (ec) return fail("cannot create " + config.out_dir + ": " + ec.message());
    if (fs::exists(shard_path(config.out_dir, 0)) || fs::exists(config.out_dir + "/manifest.txt"))
        return fail(config.out_dir + " already holds data: use an empty --out directory");
    std::string settings = "games-per-shard=" + std::to_string(config.games_per_shard) + " files=";
    for (std::size_t i = 0; i < config.files.size(); ++i) settings += (i ? "," : "") + config.files[i];
    if (!check_or_write_manifest(config.out_dir, "from-pgn", settings, config.command_line, error)) return false;

    search::Engine probe;
    probe.set_hash(config.hash_mb);
    std::unique_ptr<GamePlayer::TeacherEngine> teacher;
    if (!config.teacher.empty()) {
        if (config.teacher_nodes < 1) return fail("--teacher needs --teacher-nodes N (N >= 1)");
        teacher = start_teacher(config.teacher, config.teacher_timeout_ms, error);
        if (!teacher) return false;
    }
    std::unordered_set<Key> seen;
    std::string text;
    std::int64_t shard = 0, games_in_shard = 0;
    auto flush = [&]() {
        std::string why;
        if (!write_file_atomically(shard_path(config.out_dir, shard), text, &why)) return fail(why);
        ++shard;
        text.clear();
        games_in_shard = 0;
        return true;
    };
    for (std::size_t f = 0; f < config.files.size(); ++f) {
        std::vector<std::string> games = split_pgn_games(texts[f]);
        for (std::size_t gi = 0; gi < games.size(); ++gi) {
            ++summary->games;
            const std::string where = config.files[f] + ": game " + std::to_string(gi + 1);
            auto malformed = [&](const std::string& what) {
                ++summary->games_malformed;
                summary->errors.push_back(where + ": " + what);
            };
            // One game at a time, so that a malformed game is counted and skipped rather than ending the import.
            std::vector<game::Game> parsed;
            game::PgnError pgn_error;
            if (!game::read_pgn(games[gi], &parsed, &pgn_error)) {
                const std::string text = pgn_error.text();  // "game 1, line L: …": the chunk's numbers, not the file's
                malformed(text.substr(std::min(text.find(": ") + 2, text.size())));
                continue;
            }
            if (parsed.size() != 1) { malformed("not one game"); continue; }
            const game::Game& g = parsed[0];
            std::string result = g.result == "*" && !g.tag("Result").empty() ? g.tag("Result") : g.result;
            if (result == "*" || result.empty()) { ++summary->games_unfinished; continue; }
            double white_result = result == "1-0" ? 1.0 : result == "0-1" ? 0.0 : result == "1/2-1/2" ? 0.5 : -1;
            if (white_result < 0) { malformed("unknown result '" + result + "'"); continue; }
            const bool chess960 = g.chess960();
            Position pos = g.start();
            probe.new_game();
            std::vector<std::pair<Sample, Key>> samples;
            for (std::size_t m = 0; m < g.moves.size(); ++m) {
                const Move move = g.moves[m].move;  // legal: read_pgn checked it on the board
                std::string comment;
                for (const std::string& c : g.moves[m].comments) comment += (comment.empty() ? "" : " ") + c;
                bool mate = false;
                std::optional<int> cp = comment_score_cp(comment, &mate);
                // The comment is the mover's score of the position before the move.
                if (cp && !chess960) {
                    Position quiet_probe;
                    if (quiet_probe.set_fen(pos.fen(), false, nullptr) && is_quiet(probe, quiet_probe)) {
                        Sample s{pos.fen(), pos.side_to_move() == WHITE ? *cp : -*cp, white_result, std::nullopt};
                        samples.emplace_back(std::move(s), pos.key());
                    }
                }
                pos.do_move(move);
            }
            ++summary->games_used;
            if (teacher) {
                std::string why2;
                if (!teacher->engine.prepare_new_game(&why2)) return fail("teacher: " + why2);
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
            if (++games_in_shard == config.games_per_shard && !flush()) return false;
        }
    }
    if (games_in_shard > 0 && !flush()) return false;
    if (teacher) teacher->engine.quit();
    return true;
}

}  // namespace quince::datagen

// ---------------------------------------------------------------------------------------------
// Relabel

namespace quince::datagen {

namespace {

// --relabel of a QTD folder: the same games, every label's teacher score from the new teacher; a label whose
// teacher score is a mate, or whose teacher best move is a capture or a promotion, is dropped.
bool relabel_qtd(const RelabelConfig& config, const std::vector<std::string>& names, RelabelSummary* summary,
                 std::string* error) {
    auto fail = [error](const std::string& what) {
        if (error) *error = what;
        return false;
    };
    std::error_code ec;
    fs::create_directories(config.out_dir, ec);
    if (ec) return fail("cannot create " + config.out_dir + ": " + ec.message());
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
                                 extra, "format: QTD 1 (whole games; data/training/README.md); one line per finished "
                                        "shard follows, with its SHA-256\n"))
        return false;
    for (const auto& entry : fs::directory_iterator(config.out_dir, ec))
        if (entry.path().extension() == ".tmp") fs::remove(entry.path(), ec);
    std::vector<std::string> todo;
    for (const std::string& name : names) {
        if (fs::exists(config.out_dir + "/" + name)) ++summary->shards_skipped;
        else todo.push_back(name);
    }
    std::mutex mutex;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::atomic<std::int64_t> read{0}, written{0}, mates{0};
    std::string first_error;
    // Shards are finished in any order, but their manifest lines are appended in shard order.
    std::map<std::size_t, std::string> pending_lines;
    std::size_t next_line = 0;
    const auto start = std::chrono::steady_clock::now();
    auto report = [&](const std::string& why) {
        std::lock_guard<std::mutex> lock(mutex);
        if (first_error.empty()) first_error = why;
        stop.store(true);
    };
    auto worker = [&]() {
        std::string why;
        std::unique_ptr<GamePlayer::TeacherEngine> teacher =
            start_teacher(config.teacher, config.teacher_timeout_ms, &why);
        if (!teacher) return report(why);
        while (!stop.load()) {
            const std::size_t k = next.fetch_add(1);
            if (k >= todo.size()) break;
            const std::string src = config.source_dir + "/" + todo[k];
            std::string bytes;
            training::ShardHeader header;
            std::vector<training::TrainingGame> games;
            if (!training::read_shard_file(src, &bytes, &why)) return report(why);
            if (!training::decode_shard(bytes, &header, &games, &why)) return report(src + ": " + why);
            if (!teacher->engine.prepare_new_game(&why)) return report("teacher: " + why);
            std::int64_t shard_positions = 0, shard_plies = 0;
            for (training::TrainingGame& game : games) {
                Position pos;
                if (!game.start_fen.empty()) pos.set_fen(game.start_fen, false, nullptr);  // checked by decode
                std::vector<training::TrainingGame::Label> kept;
                std::size_t next_label = 0;
                for (std::size_t ply = 0; ply < game.moves.size() && next_label < game.labels.size(); ++ply) {
                    if (game.labels[next_label].ply == int(ply)) {
                        if (stop.load()) return;
                        Sample s{pos.fen(), game.score_at(int(ply)), game.white_result(), std::nullopt};
                        std::string best;
                        if (!teacher_label(*teacher, config.teacher_nodes, pos, s, &why, &best))
                            return report(why + " (" + src + ")");
                        ++read;
                        const Move tm = uci_to_move(pos, best);
                        if (!s.teacher || (tm && pos.is_capture_or_promotion(tm))) {
                            ++mates;
                        } else {
                            kept.push_back({int(ply), *s.teacher});
                            ++written;
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
            header.set("teacher", teacher->engine.id_name());
            header.set("teacher nodes", std::to_string(config.teacher_nodes));
            header.set("teacher sha256", command_sha256(config.teacher));
            const std::string path = config.out_dir + "/" + todo[k];
            std::string out;
            if (!training::encode_shard(header, games, &out, &why) ||
                !training::write_shard_file(path, out, path.size() > 4 && path.substr(path.size() - 4) == ".zst"
                                                           ? training::Codec::Zstd : training::Codec::Xz, &why))
                return report(why);
            std::lock_guard<std::mutex> lock(mutex);
            pending_lines[k] = todo[k] + " games=" + std::to_string(games.size()) + " positions=" +
                               std::to_string(shard_positions) + " plies=" + std::to_string(shard_plies) +
                               " bytes=" + std::to_string(fs::file_size(path, ec)) + " sha256=" +
                               training::file_sha256(path) + "\n";
            std::ofstream man(config.out_dir + "/manifest.txt", std::ios::app);
            while (pending_lines.count(next_line)) {
                man << pending_lines[next_line];
                pending_lines.erase(next_line++);
            }
        }
        teacher->engine.quit();
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < std::min<int>(config.threads, int(todo.size())); ++i) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    summary->positions_read = read.load();
    summary->positions_written = written.load();
    summary->teacher_mates = mates.load();
    summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!first_error.empty()) return fail(first_error);
    return true;
}

}  // namespace

bool run_relabel(const RelabelConfig& config, RelabelSummary* summary, std::string* error) {
    *summary = RelabelSummary{};
    auto fail = [error](const std::string& what) {
        if (error) *error = what;
        return false;
    };
    if (config.source_dir.empty()) return fail("--relabel needs a source datagen folder");
    if (config.out_dir.empty()) return fail("--out DIR is required");
    if (config.teacher.empty() || config.teacher_nodes < 1)
        return fail("--relabel needs --teacher \"CMD [ARGS]\" and --teacher-nodes N (N >= 1)");
    if (config.threads < 1 || config.threads > 256) return fail("--threads must be 1..256");
    std::error_code ec;
    if (!fs::is_directory(config.source_dir, ec)) return fail("--relabel: no such directory '" + config.source_dir + "'");
    if (fs::equivalent(config.source_dir, config.out_dir, ec))
        return fail("--relabel: the output directory must not be the source folder");

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
        return fail("--relabel: '" + config.source_dir +
                    "' is not a datagen folder (it needs manifest.txt and shard-*.txt files)");
    // Provenance: the source's manifest lines come along, prefixed "source ".
    std::string extra;
    for (std::string line; std::getline(source_manifest, line);)
        if (!line.empty() && line[0] != '#') extra += "source " + line + "\n";
    summary->shards = std::int64_t(names.size());

    fs::create_directories(config.out_dir, ec);
    if (ec) return fail("cannot create " + config.out_dir + ": " + ec.message());
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
        return fail(config.out_dir + " holds a relabelling of another source (its manifest.txt says the source's '" +
                    was + "'; " + config.source_dir + "/manifest.txt: '" + now + "'): use another --out directory");
    }
    for (const auto& entry : fs::directory_iterator(config.out_dir, ec))
        if (entry.path().extension() == ".tmp") fs::remove(entry.path(), ec);
    std::vector<std::string> todo;
    for (const std::string& name : names) {
        if (fs::exists(config.out_dir + "/" + name)) ++summary->shards_skipped;
        else todo.push_back(name);
    }
    if (todo.empty()) return true;

    std::mutex mutex;
    std::atomic<std::size_t> next{0};
    std::atomic<bool> stop{false};
    std::atomic<std::int64_t> read{0}, written{0}, mates{0};
    std::string first_error;
    const auto start = std::chrono::steady_clock::now();
    auto last_print = start;
    auto report = [&](const std::string& why) {
        std::lock_guard<std::mutex> lock(mutex);
        if (first_error.empty()) first_error = why;
        stop.store(true);
    };
    auto print_progress = [&](bool final) {
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "\rrelabel: %lld positions read, %lld written, %lld teacher mates, %.0f positions/s%s",
                     static_cast<long long>(read.load()), static_cast<long long>(written.load()),
                     static_cast<long long>(mates.load()), secs > 0 ? double(read.load()) / secs : 0.0,
                     final ? "\n" : "   ");
        std::fflush(stderr);
    };

    auto worker = [&]() {
        std::string why;
        std::unique_ptr<GamePlayer::TeacherEngine> teacher =
            start_teacher(config.teacher, config.teacher_timeout_ms, &why);
        if (!teacher) return report(why);
        while (!stop.load()) {
            const std::size_t k = next.fetch_add(1);
            if (k >= todo.size()) break;
            const std::string src = config.source_dir + "/" + todo[k];
            std::ifstream in(src);
            if (!in) return report("cannot read " + src);
            // A fresh teacher per shard: its hash then depends only on this shard's earlier positions.
            if (!teacher->engine.prepare_new_game(&why)) return report("teacher: " + why);
            std::string text, line;
            std::int64_t line_no = 0;
            while (std::getline(in, line)) {
                if (stop.load()) break;
                ++line_no;
                Sample s;
                Position pos;
                if (!parse_sample(line, s, &why) || !pos.set_fen(s.fen, false, &why))
                    return report(src + ":" + std::to_string(line_no) + ": " + why);
                s.teacher.reset();
                if (!teacher_label(*teacher, config.teacher_nodes, pos, s, &why))
                    return report(why + " (" + src + ":" + std::to_string(line_no) + ")");
                ++read;
                // A teacher that sees a mate (or reports no score) gives no usable label: the position is dropped.
                if (!s.teacher) {
                    ++mates;
                } else {
                    text += format_sample(s);
                    text += '\n';
                    ++written;
                }
                if (config.progress && line_no % 16 == 0) {
                    std::lock_guard<std::mutex> lock(mutex);  // last_print is shared by the workers
                    const auto now = std::chrono::steady_clock::now();
                    if (now - last_print >= std::chrono::seconds(1)) {
                        last_print = now;
                        print_progress(false);
                    }
                }
            }
            if (stop.load()) break;
            if (in.bad()) return report("cannot read " + src);
            if (!write_file_atomically(config.out_dir + "/" + todo[k], text, &why)) return report(why);
        }
        teacher->engine.quit();
    };
    std::vector<std::thread> threads;
    for (int i = 0; i < std::min<int>(config.threads, int(todo.size())); ++i) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    if (config.progress) print_progress(true);
    summary->positions_read = read.load();
    summary->positions_written = written.load();
    summary->teacher_mates = mates.load();
    summary->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!first_error.empty()) return fail(first_error);
    return true;
}

}  // namespace quince::datagen
