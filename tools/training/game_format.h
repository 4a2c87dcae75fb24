// The compact training-game format (QTD, "Quince training data"): whole games stored once — start position,
// every move as its index among the legal moves, Quince's search score of every ply and the teacher's score
// of the kept positions — compressed with xz (or zstd). Positions are replayed from the moves, never stored.
// data/training/README.md specifies the bytes; this header is the reader and writer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "board/position.h"

namespace quince::training {

inline constexpr int QTD_VERSION = 1;
// Scores at or beyond this (White's view) are mates (±(32000 − plies)) or tablebase wins, not centipawns.
inline constexpr int QTD_MATE_BOUND = 31000;

enum class GameResult : std::uint8_t { BlackWins = 0, Draw = 1, WhiteWins = 2 };

struct TrainingGame {
    std::string start_fen;        // "" = the standard start position
    std::vector<Move> moves;      // every ply played from the start position
    int opening_plies = 0;        // the first plies (random opening moves) have no search score
    std::vector<int> scores;      // for ply opening_plies.. : Quince's score before the move, White's view
    GameResult result = GameResult::Draw;
    struct Label {
        int ply = 0;              // the position before move `ply` (ply >= opening_plies)
        int teacher = 0;          // the teacher's score, centipawns, White's view (0 when the shard has none)
        bool operator==(const Label&) const = default;
    };
    std::vector<Label> labels;    // in increasing ply order
    bool operator==(const TrainingGame&) const = default;

    int score_at(int ply) const { return scores[std::size_t(ply - opening_plies)]; }
    double white_result() const {
        return result == GameResult::WhiteWins ? 1.0 : result == GameResult::Draw ? 0.5 : 0.0;
    }
};

// A shard's header: "key: value" lines (command, settings, engine, teacher, …), in order.
struct ShardHeader {
    std::vector<std::pair<std::string, std::string>> fields;
    bool has_teacher = false;     // labels carry a teacher score
    std::string get(const std::string& key) const;
    void set(const std::string& key, const std::string& value);
};

// The uncompressed bytes of a shard. Every game must be legal from its start position (checked: false and
// *error otherwise, naming the game).
bool encode_shard(const ShardHeader& header, const std::vector<TrainingGame>& games, std::string* out,
                  std::string* error);
// The inverse, replaying every move: false + *error naming the game and what is wrong (bad magic, another
// version, a truncated stream, a move index beyond the legal moves, a label outside the game, …).
bool decode_shard(std::string_view bytes, ShardHeader* header, std::vector<TrainingGame>* games, std::string* error);

// The index of `m` among the legal moves of `pos` in the format's order, or −1 when `m` is not legal.
int move_index(const Position& pos, Move m);
// The legal move with that index, or Move::none() when there is none.
Move move_at_index(const Position& pos, int index);

// Compressed shard files: "*.qtd.xz" (xz) or "*.qtd.zst" (zstd), through liblzma and libzstd (a build without
// them, QUINCE_DATA_CODECS off, refuses them with an error saying so).
enum class Codec { Xz, Zstd };
bool is_shard_file(const std::string& path);
// The number of a shard file name: "shard-00012.qtd.xz" (or a path ending so) -> 12; -1 when the name is not
// "shard-" and 1 to 9 digits. *digits_end (optional) gets the offset in `path` just past the digits.
int shard_index(const std::string& path, std::size_t* digits_end = nullptr);
// Compresses `bytes` into `path` atomically (a temporary file renamed when complete): xz as `xz -9e -T1`
// writes it (the bytes depend on the input only), zstd at level 19 with its content checksum.
bool write_shard_file(const std::string& path, const std::string& bytes, Codec codec, std::string* error);
// Reads and decompresses (the codec's checksum is verified by the decompressor; concatenated streams are read
// one after another); *error starts with the path.
bool read_shard_file(const std::string& path, std::string* bytes, std::string* error);
// Any file read whole: "*.xz" and "*.zst" decompressed as shards are, other names as they are (opening
// books, EPD and PGN files that may come compressed); *error starts with the path.
bool read_maybe_compressed_file(const std::string& path, std::string* bytes, std::string* error);

// One labelled position as a reader sees it.
struct LabeledPosition {
    const Position* pos = nullptr;  // the position (with the game's history up to it)
    int teacher = 0;                // teacher's score, centipawns, White's view (== score without a teacher)
    bool has_teacher = false;
    int score = 0;                  // Quince's search score, White's view
    double result = 0.5;            // the game's result, White's view
    Move move;                      // the move played from it
    std::int64_t game = 0;          // running game number over the files read
    bool validation = false;        // the shard is in the held-out validation part
    int ply = 0;                    // the move's index in its game (0 = the first move from its start)
    int opening_plies = 0;          // the game's random opening: plies [0, opening_plies) have no score
};

// A training set: the shard files under folders (recursively) or given as files, in path order.
struct ShardFile {
    std::string path;
    int index = 0;             // the shard number in its run folder (shard-00012 -> 12)
    bool validation = false;   // index % 20 == 19: held out, never trained on
};
bool find_shards(const std::vector<std::string>& args, std::vector<ShardFile>* shards, std::string* error);

// Which positions a reader visits: the labelled ones, or every scored ply whose position could have been
// labelled (not in check, a quiet move played, |score| below the mate bound) — Quince's own scores as cheap
// labels at four times the positions; a labelled ply there keeps its teacher score too.
enum class Plies { Labelled, Quiet };

// The rule of Plies::Quiet for the position `pos` before move `ply` of `game`, and how many of a game's plies
// pass it (the positions a trainer reading quiet plies takes from the game).
bool is_quiet_ply(const Position& pos, const TrainingGame& game, int ply);
std::int64_t quiet_plies(const TrainingGame& game);

// Calls `visit` for every such position of the shards in order (false from visit stops early). False +
// *error naming the file and game on a bad shard; what was visited before stays visited.
bool for_each_position(const std::vector<ShardFile>& shards,
                       const std::function<bool(const LabeledPosition&)>& visit, std::string* error,
                       Plies plies = Plies::Labelled);
// The same, the games numbered on from *game_number (the last game's number when it returns): one numbering
// over shards read in several calls.
bool for_each_position(const std::vector<ShardFile>& shards,
                       const std::function<bool(const LabeledPosition&)>& visit, std::string* error, Plies plies,
                       std::int64_t* game_number);

// SHA-256 of a file (nettle) in lowercase hex, as sha256sum prints it; "" when it cannot be had (an unreadable
// file, a build without QUINCE_DATA_CODECS). The manifest line of a finished shard ("NAME games=… positions=…
// bytes=… sha256=…") carries it.
std::string file_sha256(const std::string& path);
// The same of files concatenated in order (`cat FILES | sha256sum`); "" when one cannot be read.
std::string files_sha256(const std::vector<std::string>& paths);
// A word for /bin/sh: in single quotes, quotes inside escaped.
std::string shell_quote(const std::string& s);

}  // namespace quince::training
