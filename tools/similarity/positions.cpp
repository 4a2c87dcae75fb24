#include "positions.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "board/epd.h"
#include "board/movegen.h"
#include "board/position.h"
#include "core/random.h"
#include "datagen/datagen.h"
#include "search/search.h"

namespace {
bool is_mate_score(quince::Value v) { return v >= quince::VALUE_MATE_IN_MAX_PLY || v <= quince::VALUE_MATED_IN_MAX_PLY; }
}  // namespace

namespace quince::similarity {

extern const char* const SHIPPED_POSITIONS;  // generated from data/positions.epd (embed_positions.cmake)

bool read_positions(std::istream& in, const std::string& source, std::vector<std::string>* fens, std::string* error) {
    std::vector<std::string> out;
    const auto keep = [&](const Position& pos, const std::string&, std::string* why) {
        if (!pos.has_legal_move()) {
            *why = "the side to move has no legal move";
            return false;
        }
        out.push_back(pos.fen());
        return true;
    };
    if (!for_each_epd_position(in, source, keep, error)) return false;
    *fens = std::move(out);
    return true;
}

const std::string& default_positions_text() {
    static const std::string text = SHIPPED_POSITIONS;
    return text;
}

namespace {

// The position's board, side, castling and en passant: two games reaching it count once.
std::string position_part(const std::string& fen) {
    std::size_t at = 0;
    for (int field = 0; field < 4 && at != std::string::npos; ++field) at = fen.find(' ', at + 1);
    return at == std::string::npos ? fen : fen.substr(0, at);
}

int fullmove(const std::string& fen) {
    const std::size_t at = fen.rfind(' ');
    return at == std::string::npos ? 0 : std::atoi(fen.c_str() + at + 1);
}

// The check of one position: is the best move at most margin_cp better than every other move?
bool several_moves(search::Engine& engine, const Position& pos, const PositionSetConfig& config) {
    MoveList<LEGAL> moves(pos);
    if (moves.size() < 2) return false;
    search::SearchOptions options;
    options.silent = true;
    search::Limits limits;
    limits.nodes = config.check_nodes;
    engine.new_game();
    const search::SearchResult best = engine.search(pos, limits, options);
    if (!best.best || best.score == VALUE_NONE || is_mate_score(best.score) || std::abs(best.score) > config.max_score_cp)
        return false;
    for (const auto& m : moves)
        if (m.move != best.best) limits.searchmoves.push_back(m.move);
    engine.new_game();
    const search::SearchResult second = engine.search(pos, limits, options);
    if (!second.best || second.score == VALUE_NONE || is_mate_score(second.score)) return false;
    return best.score - second.score <= config.margin_cp;
}

}  // namespace

bool make_position_set(const PositionSetConfig& config, std::vector<std::string>* fens, std::string* error,
                       const std::atomic<bool>* interrupt, const PositionSetProgress& progress) {
    datagen::SelfPlayConfig play;
    play.seed = config.seed;
    play.nodes = config.play_nodes;
    play.progress = false;
    const std::vector<std::string> book;  // the start position, then datagen's random plies

    std::mutex mutex;
    std::map<std::uint64_t, std::vector<std::string>> by_game;  // kept positions of each finished game
    std::vector<std::string> kept;
    std::set<std::string> seen;
    std::uint64_t next_game = 0, prefix = 0;  // games [0, prefix) are in `kept`, in game order
    bool done = false;
    std::string failure;

    const auto worker = [&] {
        datagen::GamePlayer player(play, book);
        search::Engine check;
        check.set_hash(16);
        for (;;) {
            std::uint64_t index;
            {
                std::lock_guard<std::mutex> lock(mutex);
                if (done || (interrupt && interrupt->load())) return;
                index = next_game++;
            }
            datagen::GameData game;
            std::string why;
            if (!player.play(index, &game, &why)) {
                std::lock_guard<std::mutex> lock(mutex);
                if (failure.empty()) failure = why;
                done = true;
                return;
            }
            // Candidates past the opening with a moderate score, tried in an order drawn from the game's seed.
            std::vector<std::string> candidates;
            {
                Position at;
                if (!game.game.start_fen.empty()) at.set_fen(game.game.start_fen);
                std::size_t next = 0;
                const auto& labels = game.game.labels;
                for (std::size_t ply = 0; ply < game.game.moves.size() && next < labels.size(); ++ply) {
                    if (labels[next].ply == int(ply)) {
                        const std::string fen = at.fen();
                        if (fullmove(fen) >= config.min_fullmove &&
                            std::abs(game.game.score_at(int(ply))) <= config.max_score_cp)
                            candidates.push_back(fen);
                        ++next;
                    }
                    at.do_move(game.game.moves[ply]);
                }
            }
            SplitMix64 rng(search::stream_seed(config.seed ^ 0x5eed5eedULL, index));
            for (std::size_t i = candidates.size(); i > 1; --i) std::swap(candidates[i - 1], candidates[rng.below(i)]);
            std::vector<std::string> chosen;
            for (std::size_t i = 0; i < candidates.size() && int(chosen.size()) < config.per_game &&
                                    i < std::size_t(3 * config.per_game); ++i) {
                Position pos;
                if (!pos.set_fen(candidates[i])) continue;
                if (several_moves(check, pos, config)) chosen.push_back(candidates[i]);
            }
            std::lock_guard<std::mutex> lock(mutex);
            by_game[index] = std::move(chosen);
            while (by_game.count(prefix)) {
                for (const std::string& fen : by_game[prefix])
                    if (int(kept.size()) < config.count && seen.insert(position_part(fen)).second) kept.push_back(fen);
                by_game.erase(prefix++);
            }
            if (int(kept.size()) >= config.count) done = true;
            if (progress) progress(int(kept.size()), int(prefix));
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < std::max(1, config.threads); ++t) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    if (!failure.empty()) {
        *error = failure;
        return false;
    }
    if (int(kept.size()) < config.count) {
        *error = "interrupted after " + std::to_string(kept.size()) + " of " + std::to_string(config.count) + " positions";
        *fens = std::move(kept);
        return false;
    }
    *fens = std::move(kept);
    return true;
}

}  // namespace quince::similarity
