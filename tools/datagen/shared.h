// What the three jobs of `quince datagen` share (self-play: selfplay.cpp, PGN import: pgn_import.cpp,
// relabelling: relabel.cpp): the teacher process, the folder's manifest, files written whole or not at all.
// Internal to tools/datagen; the interface is datagen.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "board/position.h"
#include "match/uci_engine.h"
#include "training/sample.h"

namespace quince::datagen {

// *error = what (when the caller asks for it), and false: how every job reports a failure.
inline bool fail(std::string* error, const std::string& what) {
    if (error) *error = what;
    return false;
}

// A teacher: a UCI engine process scoring positions with `go nodes N`, one search thread.
struct Teacher {
    explicit Teacher(match::EngineConfig c) : engine(std::move(c)) {}
    match::UciEngine engine;
};

// The teacher `command` ("CMD ARGS"), started. `timeout_ms` bounds every wait on it (uciok, readyok, a
// search): a teacher silent that long is hung. Null + *error naming the command when it does not start.
std::unique_ptr<Teacher> start_teacher(const std::string& command, std::int64_t timeout_ms, std::string* error);

// The teacher's score of pos in centipawns from White's view into sample.teacher, its best move into *best;
// false with *error when the teacher fails. A mate (or no score) leaves sample.teacher empty: such a
// position gives no label.
bool teacher_label(Teacher& t, std::uint64_t nodes, const Position& pos, training::Sample& sample, std::string* error,
                   std::string* best = nullptr);

// SHA-256 of the executable a command line starts (PATH looked up), "" when it cannot be found.
std::string command_sha256(const std::string& command);

// `text` into path + ".tmp", then renamed to `path`: a file is there whole or not at all.
bool write_file_atomically(const std::string& path, const std::string& text, std::string* error);
// Removes what an interrupted run left unfinished in `dir` (its `*.tmp` files).
void remove_unfinished(const std::string& dir);

// The manifest's `format:` lines: text shards (samples) and QTD shards (whole games, one line per shard follows).
extern const char* const TEXT_SHARDS_FORMAT;
extern const char* const QTD_SHARDS_FORMAT;

// dir/manifest.txt records how the data was made (`settings: KIND SETTINGS`, the command); a rerun must use the
// same settings to continue it. Written when the folder holds no shard yet; otherwise its settings must match
// (false + *error naming both). A QTD folder appends one line per finished shard.
bool check_or_write_manifest(const std::string& dir, const std::string& kind, const std::string& settings,
                             const std::string& command_line, std::string* error,
                             const std::string& heading = "how the shards in this directory were made (rerun the "
                                                          "command to make them again)",
                             const std::string& extra = "", const std::string& format = TEXT_SHARDS_FORMAT);

}  // namespace quince::datagen
