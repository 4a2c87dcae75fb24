// The efficiently updatable network of profile `nnue`: its quantised parameters, of any architecture of
// eval/nnue/architecture.h (the default (768 -> 512) x 2 -> 1 with SCReLU), and the net file.
// File format (a ".nnue" file; src/eval/nnue/README.md): header (magic, format version, architecture,
// description naming what the net was trained on), the parameters little-endian, a 64-bit checksum.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>

#include "core/types.h"
#include "eval/evaluation.h"
#include "eval/nnue/architecture.h"

namespace quince::eval::nnue {

// The magic is evaluation.h's NETWORK_MAGIC (EvalFile tells a net from a weights file by it).
// Version 1: the architecture's six numbers, no name (always 768x512); version 2 names the architecture.
constexpr std::uint32_t FORMAT_VERSION = 2;
constexpr std::size_t MAX_DESCRIPTION = 4096;
constexpr std::size_t MAX_ARCHITECTURE_NAME = 64;

// int16 parameters in memory aligned for the SIMD loads (every row of a net is a multiple of 32 bytes).
class AlignedInt16 {
public:
    AlignedInt16() = default;
    explicit AlignedInt16(std::size_t n)
        : p_(static_cast<std::int16_t*>(::operator new[](n * sizeof(std::int16_t), std::align_val_t(64)))), n_(n) {
        std::fill(p_.get(), p_.get() + n, std::int16_t(0));
    }
    std::int16_t* data() { return p_.get(); }
    const std::int16_t* data() const { return p_.get(); }
    std::size_t size() const { return n_; }
    std::int16_t& operator[](std::size_t i) { return p_[i]; }
    std::int16_t operator[](std::size_t i) const { return p_[i]; }

private:
    struct Free {
        void operator()(std::int16_t* p) const { ::operator delete[](p, std::align_val_t(64)); }
    };
    std::unique_ptr<std::int16_t[], Free> p_;
    std::size_t n_ = 0;
};

struct Network {
    int arch = 0;  // index into Architectures (architecture.h)
    std::uint32_t format_version = FORMAT_VERSION;  // of the file it came from (serialise_network writes it)
    AlignedInt16 ft_weights;   // [input][hidden]
    AlignedInt16 ft_bias;      // [hidden]
    AlignedInt16 out_weights;  // [bucket][side][hidden]: the side to move's hidden units, then the other side's
    std::int32_t out_bias[32] = {};  // [bucket]
    std::uint64_t checksum = 0;  // of the file it came from (its identity: `eval` and the UCI info print it)
    std::string description;     // the header's text: what the net was trained on, how

    // A net of architecture `arch` with every parameter 0.
    static std::shared_ptr<Network> blank(int arch);
    std::string_view arch_name() const { return architecture_name(arch); }
};

// Parse a net file's bytes. nullptr and *error (what is wrong, e.g. "truncated: 1200 bytes, a net of
// architecture 768x512 has 394304") for anything that is not a complete, intact net of an architecture this
// build knows, within the bounds the integer code needs.
std::shared_ptr<const Network> parse_network(const std::uint8_t* data, std::size_t size, std::string* error);
std::shared_ptr<const Network> load_network_file(const std::string& path, std::string* error);
// True when the bytes start with the net file magic (EvalFile tells a net from a weights file by it).
bool has_network_magic(const std::uint8_t* data, std::size_t size);

// The bytes of a net file (what the trainer's quantiser writes), in the net's format version (1 only for
// a net read from a version-1 file); parse_network reads them back exactly. Its description is cut to
// MAX_DESCRIPTION bytes.
std::string serialise_network(const Network& net);

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
