#include "training/reader.h"

#include <fstream>

#include "core/bitboard.h"
#include "core/text.h"
#include "eval/nnue/network.h"
#include "training/sample.h"

namespace quince::training {

namespace {

bool read_text(const std::string& path, const std::function<bool(const TrainingSample&)>& visit, bool* stop,
               std::string* error) {
    auto fail = [&](const std::string& e) {
        if (error) *error = e;
        return false;
    };
    std::ifstream in(path);
    if (!in) return fail("cannot open training file '" + path + "'");
    // Game ids of different files differ by the hash of the file's first line, not of its name: a file's
    // games (and a trainer's validation split by them) are the same wherever it is read from.
    std::uint64_t file_id = 0, game = 0;
    int prev_ply = 0, prev_pieces = 0;
    double prev_result = -1;
    Position pos;
    Sample s;
    TrainingSample ts;
    ts.pos = &pos;
    long line_no = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_no;
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (trim(line).empty()) continue;
        if (game == 0) file_id = eval::nnue::fnv1a64(reinterpret_cast<const std::uint8_t*>(line.data()), line.size());
        std::string why;
        if (!parse_sample(line, s, &why, &pos)) return fail(path + ":" + std::to_string(line_no) + ": " + why);
        const int ply = pos.game_ply(), pieces = popcount(pos.pieces());
        // A new game: none of these happens inside one (two games may read as one at worst).
        if (ply <= prev_ply || pieces > prev_pieces || s.result != prev_result) ++game;
        prev_ply = ply, prev_pieces = pieces, prev_result = s.result;
        ts.score = s.score;
        ts.teacher = s.teacher;
        ts.result = s.result;
        ts.game = file_id ^ (game * 0x9E3779B97F4A7C15ull);
        ts.ply = ply;
        ts.line = line_no;
        ts.fen_text = s.fen;
        if (!visit(ts)) {
            *stop = true;
            return true;
        }
    }
    if (in.bad()) return fail("cannot read training file '" + path + "'");
    return true;
}

}  // namespace

bool for_each_sample(const std::vector<std::string>& files, const std::function<bool(const TrainingSample&)>& visit,
                     std::string* error, Plies plies) {
    std::int64_t qtd_games = 0;
    bool stop = false;
    for (const std::string& path : files) {
        if (!is_shard_file(path)) {
            if (!read_text(path, visit, &stop, error)) return false;
            if (stop) return true;
            continue;
        }
        std::vector<ShardFile> shard;
        if (!find_shards({path}, &shard, error)) return false;
        const bool ok = for_each_position(
            shard,
            [&](const LabeledPosition& lp) {
                TrainingSample ts;
                ts.pos = lp.pos;
                ts.score = lp.score;
                if (lp.has_teacher) ts.teacher = lp.teacher;
                ts.result = lp.result;
                ts.game = std::uint64_t(lp.game);
                ts.qtd = true;
                ts.validation = lp.validation;
                ts.ply = lp.ply;
                ts.opening_plies = lp.opening_plies;
                stop = !visit(ts);
                return !stop;
            },
            error, plies, &qtd_games);
        if (!ok) return false;
        if (stop) return true;
    }
    return true;
}

}  // namespace quince::training
