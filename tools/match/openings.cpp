#include "openings.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <sstream>

#include "board/epd.h"
#include "board/notation.h"
#include "board/position.h"
#include "game/pgn.h"
#include "core/text.h"
#include "training/game_format.h"

namespace quince::match {

namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Reads the whole file; .xz and .zst files decompressed through the training library's codecs.
bool read_opening_file(const std::string& path, std::string* text, std::string* error) {
    if (ends_with(path, ".gz")) {
        if (error) *error = "opening file " + path + ": gzip is not read; decompress it (gunzip) or use xz or zstd";
        return false;
    }
    std::string why;
    if (!training::read_maybe_compressed_file(path, text, &why)) {
        if (error) *error = "cannot read opening file " + why;
        return false;
    }
    return true;
}

}  // namespace

bool OpeningBook::load(const OpeningConfig& config, std::string* error) {
    openings_.clear();
    if (config.file.empty()) {
        if (config.chess960) {
            if (error) *error = "Chess960 needs an opening file (the start positions)";
            return false;
        }
        openings_.push_back(Opening{});
    } else {
        std::string text;
        if (!read_opening_file(config.file, &text, error)) return false;
        std::istringstream in(text);
        if (config.format == "epd") {
            std::vector<std::string> fens;
            if (!read_epd_positions(in, config.file, config.chess960, &fens, error)) return false;
            for (std::string& fen : fens) openings_.push_back(Opening{std::move(fen), {}, config.chess960});
        } else if (config.format == "pgn") {
            std::vector<game::Game> games;
            game::PgnError e;
            if (!game::read_pgn(text, &games, &e)) {  // moves are checked on the board there
                if (error) *error = config.file + ": " + e.text();
                return false;
            }
            for (std::size_t g = 0; g < games.size(); ++g) {
                Opening op;
                op.fen = games[g].tag("FEN");
                op.chess960 = config.chess960;
                if (config.chess960 && op.fen.empty()) {
                    if (error) *error = config.file + ": game " + std::to_string(g + 1) + ": Chess960 needs a FEN tag";
                    return false;
                }
                for (const game::PgnMove& m : games[g].moves) {
                    if (config.plies > 0 && int(op.moves.size()) >= config.plies) break;
                    op.moves.push_back(move_to_uci(m.move, config.chess960));
                }
                openings_.push_back(op);
            }
        } else {
            if (error) *error = "unknown opening format '" + config.format + "' (epd or pgn)";
            return false;
        }
        if (openings_.empty()) {
            if (error) *error = "no openings in " + config.file;
            return false;
        }
    }
    order_.resize(openings_.size());
    std::iota(order_.begin(), order_.end(), std::size_t(0));
    if (config.order == "random") {
        std::mt19937_64 rng(config.seed);
        std::shuffle(order_.begin(), order_.end(), rng);
    } else if (config.order != "sequential") {
        if (error) *error = "unknown opening order '" + config.order + "' (sequential or random)";
        return false;
    }
    start_ = std::size_t(std::max(config.start, 1) - 1) % openings_.size();
    return true;
}

const Opening& OpeningBook::at(std::size_t k) const { return openings_[index_of(k)]; }

}  // namespace quince::match
