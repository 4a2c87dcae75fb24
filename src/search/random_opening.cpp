#include "search/random_opening.h"

#include <cstdlib>
#include <fstream>

#include "board/epd.h"
#include "board/movegen.h"

namespace quince::search {

std::uint64_t stream_seed(std::uint64_t seed, std::uint64_t index) {
    SplitMix64 a(seed);
    SplitMix64 b(a.next() ^ (index * 0xD1B54A32D192ED03ULL));
    return b.next();
}

bool random_opening(Engine& engine, const std::vector<std::string>& book, const RandomOpeningConfig& cfg,
                    SplitMix64& rng, Position* out, std::string* error, std::string* book_fen,
                    std::vector<Move>* moves) {
    SearchOptions options;
    options.silent = true;
    Limits limits;
    limits.nodes = cfg.verify_nodes;
    for (int attempt = 0; attempt < cfg.max_attempts; ++attempt) {
        Position pos;
        std::string fen;
        if (!book.empty()) {
            fen = book[rng.below(book.size())];
            if (!pos.set_fen(fen, false, error)) return false;
        }
        std::vector<Move> played;
        bool ok = true;
        const int plies = cfg.random_plies_max > cfg.random_plies
                              ? cfg.random_plies + int(rng.below(std::uint64_t(cfg.random_plies_max - cfg.random_plies + 1)))
                              : cfg.random_plies;
        for (int ply = 0; ply < plies && ok; ++ply) {
            MoveList<LEGAL> legal(pos);
            if (legal.size() == 0) ok = false;
            else {
                played.push_back(legal.begin()[rng.below(legal.size())].move);
                pos.do_move(played.back());
            }
        }
        if (!ok || !pos.has_legal_move() || pos.has_insufficient_material() || pos.rule50() >= 100) continue;
        // A fresh position: the opening is what a FEN carries, nothing of the random moves' history.
        Position fresh;
        if (!fresh.set_fen(pos.fen(), false, error)) return false;
        if (cfg.verify_nodes > 0) {
            SearchResult r = engine.search(fresh, limits, options);
            if (r.score == VALUE_NONE || std::abs(r.score) > cfg.max_score) continue;
        }
        *out = fresh;
        if (book_fen) *book_fen = fen;
        if (moves) *moves = played;
        return true;
    }
    if (error) *error = "no balanced opening found in " + std::to_string(cfg.max_attempts) + " attempts";
    return false;
}

bool read_fen_book(const std::string& path, std::vector<std::string>* fens, std::string* error) {
    std::ifstream in(path);
    if (!in) {
        if (error) *error = "cannot open book file '" + path + "'";
        return false;
    }
    fens->clear();
    if (!read_epd_positions(in, path, false, fens, error)) return false;
    if (fens->empty()) {
        if (error) *error = "book file '" + path + "' holds no position";
        return false;
    }
    return true;
}

}  // namespace quince::search
