// `quince datagen` self-play: games at a fixed node budget, written as whole games in QTD shards.
#include "datagen.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
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
#include "search/syzygy.h"
#include "shared.h"

namespace fs = std::filesystem;

namespace quince::datagen {

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

}  // namespace

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

bool run_selfplay(const SelfPlayConfig& config, RunSummary* summary, std::string* error) {
    *summary = RunSummary{};
    if (config.out_dir.empty()) return fail(error, "--out DIR is required");
    if (config.games <= 0 && config.positions <= 0) return fail(error, "give a target: --games N or --positions N");
    if (config.games_per_shard < 1) return fail(error, "--games-per-shard must be at least 1");
    if (config.sample < 0) return fail(error, "--sample must be 0 (every position) or more");
    if (config.threads < 1 || config.threads > 256) return fail(error, "--threads must be 1..256");
    if (config.nodes < 1) return fail(error, "--nodes must be at least 1");
    if (config.soft_nodes > config.nodes) return fail(error, "--soft-nodes must not exceed --nodes (the hard limit)");
    if (!config.syzygy.empty()) {
        // Process-wide tables, loaded before any game thread starts.
        const std::string line = syzygy::init(config.syzygy);
        if (syzygy::max_pieces() == 0) return fail(error, "--syzygy: " + line);
    }
    if (!config.teacher.empty() && config.teacher_nodes < 1) return fail(error, "--teacher needs --teacher-nodes N (N ≥ 1)");
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
        if (!ob.load(oc, &why)) return fail(error, "--book: " + why);
        for (std::size_t k = 0; k < ob.size(); ++k) {
            const match::Opening& o = ob.at(k);
            Position pos;
            if (!pos.set_fen(o.fen.empty() ? Position::START_FEN : o.fen, false, &why))
                return fail(error, "--book: " + why);
            for (const std::string& m : o.moves) pos.do_move(uci_to_move(pos, m));
            book.push_back(pos.fen());
        }
    }

    std::error_code ec;
    fs::create_directories(config.out_dir, ec);
    if (ec) return fail(error, "cannot create " + config.out_dir + ": " + ec.message());
    if (!check_or_write_manifest(config.out_dir, "selfplay", settings_line(config, player_eval), config.command_line, error,
                                 "how the shards in this directory were made (rerun the command to continue them)", "",
                                 QTD_SHARDS_FORMAT))
        return false;
    const std::string extension = config.codec == training::Codec::Xz ? ".qtd.xz" : ".qtd.zst";

    // Complete shards from an earlier run are kept; unfinished temporary files are not. The positions of
    // every shard of the set (this folder and the dedup folders) are never labelled again.
    std::int64_t done_shards = 0, positions = 0;
    while (fs::exists(shard_path(config.out_dir, done_shards, extension))) ++done_shards;
    remove_unfinished(config.out_dir);
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
    if (!first_error.empty()) return fail(error, first_error);
    return true;
}

}  // namespace quince::datagen
