// The fuzz harnesses: one function per parser of outside input. Each takes arbitrary bytes, feeds them to
// the parser (and to what uses its result) and returns false when an invariant failed; crashes, hangs
// and sanitizer reports are the other failures. The libFuzzer targets (fuzz_main.cpp, -DQUINCE_FUZZ=ON)
// and the GoogleTest replay of the corpus and of every regression input (tests/fuzz/) both call these.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace quince::fuzz {

// Input: a FEN (also X-FEN / Shredder-FEN) on the first line, then moves (UCI or SAN), one per line.
bool fen(const std::uint8_t* data, std::size_t size);
// Input: UCI command lines, run one after the other by a fresh Uci (see uci_line_allowed()).
bool uci(const std::uint8_t* data, std::size_t size);
// Input: EPD lines (test-suite records).
bool epd(const std::uint8_t* data, std::size_t size);
// Input: a PGN file (quince-match's reader), whose games are then replayed.
bool pgn(const std::uint8_t* data, std::size_t size);
// Input: a weights file (src/eval/weights.cpp through eval::profile_from_text).
bool weights(const std::uint8_t* data, std::size_t size);
// Input: the bytes of a Polyglot book (.bin).
bool book(const std::uint8_t* data, std::size_t size);
// Input: the decompressed bytes of a training shard (QTD, tools/training/game_format.h).
bool shard(const std::uint8_t* data, std::size_t size);
// Input: a net file (eval/nnue/network.cpp, EvalFile with a .nnue file), as given and with its checksum
// made valid (so that mutations reach the fields behind it).
bool nnue(const std::uint8_t* data, std::size_t size);

// Whether the UCI harness runs a line: lines that would open files (EvalFile, BookFile, SyzygyPath:
// their formats have their own targets, and a fuzzer must not open arbitrary paths), allocate a large
// hash, start many threads or a long genfens are skipped: they test resources, not parsing.
bool uci_line_allowed(const std::string& line);

struct Target {
    const char* name;
    bool (*run)(const std::uint8_t* data, std::size_t size);
};
const std::vector<Target>& targets();

}  // namespace quince::fuzz
