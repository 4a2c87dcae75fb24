// `quince datagen`: training data. Self-play at a fixed node budget writes whole games in the compact QTD
// format (training/game_format.h: shard-00000.qtd.xz, …, plus manifest.txt with the command, settings and
// one line per finished shard); PGN files with per-move score comments give positions in the text format of
// training/sample.h; relabelling scores a folder's positions again by a teacher. One file per job:
// selfplay.cpp, pgn_import.cpp, relabel.cpp; what they share is shared.{h,cpp}.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "board/position.h"
#include "eval/evaluation.h"
#include "search/random_opening.h"
#include "search/search.h"
#include "training/game_format.h"
#include "training/sample.h"

namespace quince::datagen {

// Self-play adjudication, both sides' scores seen from White.
struct Adjudication {
    // Early enough to keep the stored games short (their moves and scores are most of the training set's
    // bytes), late enough that the result is not in doubt.
    int win_score = 800;         // |score| ≥ this (or a mate score) ...
    int win_plies = 4;           // ... for this many consecutive plies, both sides agreeing: a win
    int draw_score = 15;         // |score| ≤ this ...
    int draw_plies = 8;          // ... for this many consecutive plies ...
    int draw_move_number = 32;   // ... from this full move on: a draw
};

// --teacher-timeout's default (milliseconds).
inline constexpr std::int64_t DEFAULT_TEACHER_TIMEOUT_MS = 120000;

struct SelfPlayConfig {
    std::string out_dir;
    std::uint64_t seed = 1;
    std::uint64_t nodes = 5000;        // per move, one search thread (the hard limit with soft_nodes)
    // No new iteration once this many nodes are searched (0: `nodes` is a fixed budget): every score is
    // a completed iteration's.
    std::uint64_t soft_nodes = 0;
    // Syzygy tables (a SyzygyPath) that end a game as soon as it reaches them, with their result; the
    // searches never probe them, so that every score stays the evaluation's own. Empty: none.
    std::string syzygy;
    int threads = 1;                   // games in parallel
    std::int64_t games = 0;            // target in games (rounded up to whole shards); 0 = positions decide
    std::int64_t positions = 0;        // target in positions written; 0 = games decide
    int games_per_shard = 200;
    // At most this many quiet positions per game (0 = all), drawn from (seed, game) before the teacher is
    // asked: more games for the same number of positions and labels, fewer near-copies from one game.
    int sample = 0;
    // What the games are played with (--eval): a built-in profile's name or a file (weights or a network);
    // empty = the default evaluation. The teacher's labels do not depend on it.
    std::string eval;
    std::size_t hash_mb = 8;           // per game thread; cleared before every game
    std::string book;                  // EPD file (.xz / .gz read through xz / gzip); empty = start position
    search::RandomOpeningConfig opening;
    Adjudication adjudication;
    std::string teacher;               // UCI engine command (arguments split at blanks); empty = none
    std::uint64_t teacher_nodes = 0;   // go nodes N for the teacher
    // How long the teacher may stay silent (uciok, readyok, a search) before it counts as hung: generous, as a
    // teacher at nice 19 on a busy machine can take many seconds just to start.
    std::int64_t teacher_timeout_ms = DEFAULT_TEACHER_TIMEOUT_MS;
    std::string command_line;          // recorded in the manifest
    std::string engine;                // "Quince 0.2, bench N": recorded in every shard's header
    // Folders whose shards' positions are never labelled again (the whole training set), besides out_dir.
    std::vector<std::string> dedup_dirs;
    training::Codec codec = training::Codec::Xz;
    bool progress = true;              // progress line on stderr
};

// One finished game with its labelled positions (not yet deduplicated) and their keys.
struct GameData {
    training::TrainingGame game;
    std::vector<Key> keys;             // one per label
    int plies = 0;
};

// --eval resolved: the evaluation and how the data records it.
struct PlayerEval {
    eval::EvalPtr evaluation;  // null: the engine's default
    std::string name;          // the built-in profile's name, or the file's name (without its folder)
    std::string sha256;        // the file's SHA-256; empty for a built-in profile
    std::string net;           // a built-in network's identity (its checksum): the embedded net changes
};

// A built-in profile when `spec` is one of eval::profile_names(), else a file (eval::load_evaluation).
// Empty `spec`: the default evaluation, nothing to record. False + *error naming `spec` and what is wrong.
bool resolve_player_eval(const std::string& spec, PlayerEval* out, std::string* error);

// The quiet filter: not in check, and the quiescence search leaves the static evaluation unchanged.
bool is_quiet(search::Engine& probe, const Position& pos);

struct Teacher;  // a teacher's UCI process (shared.h)

// Plays games of a run on one thread: a search engine for the moves, a second one for the quiet filter
// (so that filtering never changes the games) and, optionally, the teacher process.
class GamePlayer {
public:
    // `evaluation` is what the moves (and the openings' verification) are searched with; null: the default.
    GamePlayer(const SelfPlayConfig& config, const std::vector<std::string>& book,
               eval::EvalPtr evaluation = nullptr);
    ~GamePlayer();
    bool start(std::string* error);  // starts the teacher, if any
    // Game `index` of the run: everything random in it comes from (seed, index), and the engines are cleared
    // first, so the game does not depend on which thread plays it or what that thread played before.
    bool play(std::uint64_t index, GameData* out, std::string* error);

    std::string teacher_id() const;  // the teacher's `id name` ("" without a teacher)

private:
    const SelfPlayConfig& config_;
    const std::vector<std::string>& book_;
    search::Engine engine_, probe_;
    std::unique_ptr<Teacher> teacher_;
};

struct RunSummary {
    std::int64_t games = 0;             // games in the directory's shards
    std::int64_t shards = 0;
    std::int64_t positions = 0;         // labelled positions in all shards
    std::int64_t duplicates = 0;        // kept positions dropped as duplicates in this run
    std::int64_t games_this_run = 0;
    std::int64_t positions_this_run = 0;
    std::int64_t plies_this_run = 0;    // moves played in this run's games (searched positions)
    double seconds = 0;
};

// Runs (or continues) a self-play run into config.out_dir. Complete shards found there are kept (their keys
// reload the deduplication), provided the manifest's settings match; the others are made. False + *error on
// bad settings, an unreadable book, a failing teacher, or I/O errors.
bool run_selfplay(const SelfPlayConfig& config, RunSummary* summary, std::string* error);

// --from-pgn
struct PgnImportConfig {
    std::vector<std::string> files;
    std::string out_dir;
    int games_per_shard = 200;
    std::size_t hash_mb = 8;
    std::string command_line;
    std::string teacher;              // optional: a UCI engine scoring every kept position (as self-play)
    std::uint64_t teacher_nodes = 0;
    std::int64_t teacher_timeout_ms = DEFAULT_TEACHER_TIMEOUT_MS;  // as in SelfPlayConfig
};

struct PgnImportSummary {
    std::int64_t games = 0;              // games read
    std::int64_t games_used = 0;
    std::int64_t games_unfinished = 0;   // result '*': skipped
    std::int64_t games_malformed = 0;    // skipped, one line each in errors
    std::int64_t positions = 0;          // lines written
    std::int64_t duplicates = 0;
    std::int64_t teacher_mates = 0;      // dropped: the teacher scored a mate
    std::vector<std::string> errors;     // "FILE: game N: what"
};

// The mover's search score of a move comment in centipawns, as quince-match, cutechess, fastchess and
// OpenBench write it: the first token, up to '/', ',' or a blank, in pawns ("+0.35/9 0.004s",
// "-1.20/12 0.150s, n=…", "+0.35 12/20 150 123456", "0.00"). nullopt for mates ("+M5", "#-3"), "book"
// and anything else that carries no score; *mate says which.
std::optional<int> comment_score_cp(const std::string& comment, bool* mate = nullptr);

// The score of an eval command in a move comment, as lichess and `quince analyse` write it: "[%eval 0.17]",
// "[%eval -1.52,23]" (pawns, then the depth), "[%eval #-4]" — the position after the move, White's view, in
// centipawns. nullopt without one, for a mate (*mate says so) and for a value that is not a number.
std::optional<int> eval_command_cp(const std::string& comment, bool* mate = nullptr);

// Turns PGN files into training data in config.out_dir (which must hold no shards yet). A malformed game
// is skipped with one error line; the others are still used. False + *error only when nothing can be done
// (an unreadable file, an output directory that already holds data, I/O errors).
bool import_pgn(const PgnImportConfig& config, PgnImportSummary* summary, std::string* error);

// --relabel: a copy of a datagen folder with every teacher column from a (new) teacher.
struct RelabelConfig {
    std::string source_dir;            // a datagen folder: shard-*.txt and manifest.txt
    std::string out_dir;
    std::string teacher;               // UCI engine command (arguments split at blanks)
    std::uint64_t teacher_nodes = 0;   // go nodes N
    std::int64_t teacher_timeout_ms = DEFAULT_TEACHER_TIMEOUT_MS;  // as in SelfPlayConfig
    int threads = 1;                   // teacher processes, each relabelling whole shards
    std::string command_line;          // recorded in the manifest
    bool progress = true;
};

struct RelabelSummary {
    std::int64_t shards = 0;             // shard files of the source
    std::int64_t shards_skipped = 0;     // already complete in out_dir (a resumed run)
    std::int64_t positions_read = 0;     // this run
    std::int64_t positions_written = 0;  // this run
    std::int64_t teacher_mates = 0;      // dropped this run: the teacher saw a mate (or gave no score)
    double seconds = 0;
};

// Writes, for each shard file of config.source_dir, the file of the same name in config.out_dir with every
// sample's teacher column replaced (or appended) by the teacher's score at teacher_nodes; positions the
// teacher scores as a mate are dropped. Each shard starts from a fresh teacher (ucinewgame), so the bytes do
// not depend on threads. Complete shards already in out_dir are kept (same teacher and nodes, else refused).
// False + *error on a missing source, a malformed line (file:line), a failing teacher or I/O errors; shards
// written before stay complete and valid.
bool run_relabel(const RelabelConfig& config, RelabelSummary* summary, std::string* error);

// Shard file name: dir/shard-00012.txt (the text format) or dir/shard-00012.qtd.xz
std::string shard_path(const std::string& dir, std::int64_t index, const std::string& extension = ".txt");
// SHA-256 of the directory's shards concatenated in order (via sha256sum); "" when unavailable.
std::string shards_sha256(const std::string& dir);

}  // namespace quince::datagen
