// The efficiently updatable network of profile `nnue`: (768 -> 512) x 2 -> 1 with SCReLU, quantised.
// Inputs: one per (piece colour relative to the perspective, piece type, square seen from the perspective);
// each side has its own accumulator (the 512 hidden sums of its perspective), the side to move's comes
// first at the output. Quantisation: the accumulator in units of 1/QA, the output weights in 1/QB, the
// output bias in 1/(QA*QB); the output times SCALE is centipawns, the side to move's view.
// File format (a ".nnue" file; src/eval/nnue/README.md): header (magic, format version, architecture,
// description naming what the net was trained on), the parameters little-endian, a 64-bit checksum.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "core/types.h"
#include "eval/evaluation.h"

namespace quince::eval::nnue {

constexpr int INPUTS = 768;
constexpr int HIDDEN = 512;
constexpr int QA = 255;
constexpr int QB = 64;
constexpr int SCALE = 400;
constexpr int MAX_ACTIVE = 32;  // pieces on the board, so features active per perspective

constexpr char MAGIC[4] = {'Q', 'N', 'N', '1'};
constexpr std::uint32_t FORMAT_VERSION = 1;
constexpr std::uint32_t ACTIVATION_SCRELU = 1;
constexpr std::size_t MAX_DESCRIPTION = 4096;

// The input index of a piece on a square for one perspective: own pieces first, squares from that
// side's view (Black's flipped vertically), so the network sees every position as the side to move's.
constexpr int feature_index(Color perspective, Color piece_color, PieceType pt, Square s) {
    const int relative = piece_color == perspective ? 0 : 6;
    const int sq = perspective == WHITE ? int(s) : int(s) ^ 56;
    return ((relative + int(pt) - 1) << 6) | sq;
}

struct alignas(64) Network {
    std::int16_t ft_weights[INPUTS * HIDDEN];  // [input][hidden]
    std::int16_t ft_bias[HIDDEN];
    std::int16_t out_weights[2 * HIDDEN];  // side to move's hidden units, then the other side's
    std::int32_t out_bias;
    std::uint64_t checksum;    // of the file it came from (its identity: `eval` and the UCI info print it)
    std::string description;  // the header's text: what the net was trained on, how
};

// Bounds the loader enforces so that no int16 overflows in inference (and SIMD equals scalar): an
// accumulator is a bias plus at most MAX_ACTIVE weights; the output multiplies a clipped activation
// (<= QA) by a weight in int16 before widening.
constexpr int MAX_OUT_WEIGHT = 32767 / QA;  // 128

// Parse a net file's bytes. nullptr and *error (what is wrong, e.g. "truncated: 1200 bytes, a net of this
// architecture has 394304") for anything that is not a complete, intact net of this architecture.
std::shared_ptr<const Network> parse_network(const std::uint8_t* data, std::size_t size, std::string* error);
std::shared_ptr<const Network> load_network_file(const std::string& path, std::string* error);
// True when the bytes start with the net file magic (EvalFile tells a net from a weights file by it).
bool has_network_magic(const std::uint8_t* data, std::size_t size);

// The bytes of a net file (what the trainer's quantiser writes); parse_network reads them back exactly.
std::string serialise_network(const std::int16_t* ft_weights, const std::int16_t* ft_bias,
                              const std::int16_t* out_weights, std::int32_t out_bias, const std::string& description);

// A net's lineage as its header's description ends with it: "teacher labels: N of M positions", N of the
// targets it was trained on from another engine (0: a net of the engine's own), and what the description says
// of it: N, or -1 for a net whose description does not say (made before the trainer wrote it).
std::string lineage_text(std::int64_t teacher_labels, std::int64_t positions);
std::int64_t teacher_labels(const std::string& description);

// The net's checksum as 16 hex digits: its identity in data made with it (Network::identity()).
std::string checksum_hex(const Network& net);

// FNV-1a, 64 bits: the file's checksum (integrity, not security).
std::uint64_t fnv1a64(const std::uint8_t* data, std::size_t size);

// The net embedded in the binary at build time (cmake/embed_net.cmake), nullptr when the build has none.
std::shared_ptr<const Network> embedded_network();

// An evaluation (eval/evaluation.h) with this net, each search thread keeping its own accumulators
// (eval/network_file.cpp); nullptr for a null net. `eval` and the UCI info lines name it `name` (by default
// the embedded net's name, network_profile()).
EvalPtr network_evaluation(std::shared_ptr<const Network> net, const std::string& name = network_profile(),
                           const std::string& source = "");

}  // namespace quince::eval::nnue
