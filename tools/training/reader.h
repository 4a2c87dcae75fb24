// The one reader of training files, text (sample.h: one position a line) and QTD (game_format.h: whole
// games), for every tool that learns from them: quince train-nnue, quince tune and quince wdlfit see the
// same positions with the same scores, results and games, whichever format holds them.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "board/position.h"
#include "training/game_format.h"

namespace quince::training {

// One position of a training file as a reader sees it.
struct TrainingSample {
    const Position* pos = nullptr;   // the position (a QTD game's with its history up to it)
    int score = 0;                   // Quince's search score, centipawns, White's view
    std::optional<int> teacher;      // the teacher's score, centipawns, White's view, where there is one
    double result = 0.5;             // the game's result, White's view
    // Consecutive positions of one game share it, another game has another. Text: a hash of the file's first
    // line and the game's number in the file (a new game where the move number does not grow, pieces appear
    // or the result changes), so that it does not depend on where the file is kept; QTD: the game's number,
    // counted over the QTD files of one call from 1.
    std::uint64_t game = 0;
    bool qtd = false;                // from a QTD shard (the fields below are the shard's)
    bool validation = false;         // QTD: the shard is held out (its number is 19 modulo 20)
    int ply = 0;                     // QTD: the move's index in its game; text: the FEN's game ply
    int opening_plies = 0;           // QTD: the game's random opening (plies without a score); text: 0
    long line = 0;                   // text: the line's number in its file (from 1); QTD: 0
    std::string_view fen_text;       // text: the line's FEN as written; QTD: empty
    // The FEN: the line's as written, or the QTD position's.
    std::string fen() const { return fen_text.empty() ? pos->fen() : std::string(fen_text); }
};

// Calls `visit` for every position of `files` in order (false from visit stops the reading, which then
// succeeds): a file named *.qtd.xz or *.qtd.zst is a QTD shard (its positions of `plies`), any other a text
// file whose blank lines are skipped. False + *error on the first bad line ("FILE:LINE: what"), a bad shard
// (naming file and game) or a file that cannot be read; what was visited before stays visited.
bool for_each_sample(const std::vector<std::string>& files, const std::function<bool(const TrainingSample&)>& visit,
                     std::string* error, Plies plies = Plies::Labelled);

}  // namespace quince::training
