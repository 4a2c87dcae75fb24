// The net file: reading (every field checked, nothing half-loaded), writing, the embedded default net.
#include "eval/nnue/network.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>

// The embedded net's bytes: a generated source (cmake/embed_net.cmake), empty when the build has no net.
extern "C" const unsigned char quince_embedded_net[];
extern "C" const std::size_t quince_embedded_net_size;

namespace quince::eval::nnue {

namespace {

constexpr std::size_t HEADER_FIXED = 4 + 8 * 4;  // magic, then eight 32-bit fields
constexpr std::size_t PARAMS_BYTES = 2 * (std::size_t(INPUTS) * HIDDEN + HIDDEN + 2 * HIDDEN) + 4;

std::uint32_t read_u32(const std::uint8_t* p) {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 | std::uint32_t(p[3]) << 24;
}
std::uint64_t read_u64(const std::uint8_t* p) { return read_u32(p) | std::uint64_t(read_u32(p + 4)) << 32; }
std::int16_t read_i16(const std::uint8_t* p) { return std::int16_t(std::uint16_t(p[0] | p[1] << 8)); }

void put_u32(std::string& s, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) s.push_back(char((v >> (8 * i)) & 0xff));
}
void put_i16(std::string& s, std::int16_t v) {
    const auto u = std::uint16_t(v);
    s.push_back(char(u & 0xff));
    s.push_back(char(u >> 8));
}

// The architecture fields in the order of the header.
constexpr std::uint32_t ARCH[6] = {INPUTS, HIDDEN, ACTIVATION_SCRELU, QA, QB, SCALE};
const char* const ARCH_NAMES[6] = {"inputs", "hidden", "activation", "QA", "QB", "scale"};

std::string arch_text() {
    return std::to_string(INPUTS) + "->" + std::to_string(HIDDEN) + "x2->1 SCReLU, QA " + std::to_string(QA) +
           ", QB " + std::to_string(QB) + ", scale " + std::to_string(SCALE);
}

bool fail(std::string* error, const std::string& what) {
    if (error) *error = what;
    return false;
}

}  // namespace

std::uint64_t fnv1a64(const std::uint8_t* data, std::size_t size) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

bool has_network_magic(const std::uint8_t* data, std::size_t size) {
    return size >= 4 && std::memcmp(data, MAGIC, 4) == 0;
}

std::shared_ptr<const Network> parse_network(const std::uint8_t* data, std::size_t size, std::string* error) {
    auto refuse = [&](const std::string& what) {
        fail(error, what);
        return std::shared_ptr<const Network>();
    };
    if (!has_network_magic(data, size)) return refuse("not a Quince net file (it does not start with 'QNN1')");
    if (size < HEADER_FIXED) return refuse("truncated: " + std::to_string(size) + " bytes, shorter than the header");
    const std::uint32_t version = read_u32(data + 4);
    if (version != FORMAT_VERSION)
        return refuse("net format version " + std::to_string(version) + ", this build reads version " +
                      std::to_string(FORMAT_VERSION));
    for (int i = 0; i < 6; ++i) {
        const std::uint32_t v = read_u32(data + 8 + 4 * i);
        if (v != ARCH[i])
            return refuse("architecture: " + std::string(ARCH_NAMES[i]) + " " + std::to_string(v) +
                          ", this build's network is " + arch_text());
    }
    const std::uint32_t desc_len = read_u32(data + 32);
    if (desc_len > MAX_DESCRIPTION)
        return refuse("description of " + std::to_string(desc_len) + " bytes (at most " +
                      std::to_string(MAX_DESCRIPTION) + ")");
    const std::size_t expected = HEADER_FIXED + desc_len + PARAMS_BYTES + 8;
    if (size < expected)
        return refuse("truncated: " + std::to_string(size) + " bytes, a net of this architecture has " +
                      std::to_string(expected));
    if (size > expected)
        return refuse(std::to_string(size - expected) + " bytes after the end of the net (" +
                      std::to_string(expected) + " bytes)");
    const std::uint64_t stored = read_u64(data + expected - 8);
    const std::uint64_t computed = fnv1a64(data, expected - 8);
    if (stored != computed) return refuse("checksum mismatch: the file is damaged");

    // Network is large (about 400 kB): on the heap (new honours its 64-byte alignment).
    std::shared_ptr<Network> net(new Network());
    net->description.assign(reinterpret_cast<const char*>(data + HEADER_FIXED), desc_len);
    for (unsigned char c : net->description)
        if (c < 0x20 && c != '\n' && c != '\t') return refuse("the description holds a control character");
    const std::uint8_t* p = data + HEADER_FIXED + desc_len;
    for (std::size_t i = 0; i < std::size_t(INPUTS) * HIDDEN; ++i, p += 2) net->ft_weights[i] = read_i16(p);
    for (int i = 0; i < HIDDEN; ++i, p += 2) net->ft_bias[i] = read_i16(p);
    for (int i = 0; i < 2 * HIDDEN; ++i, p += 2) net->out_weights[i] = read_i16(p);
    net->out_bias = std::int32_t(read_u32(p));
    net->checksum = stored;

    // No int16 overflow in inference: a bias plus any MAX_ACTIVE inputs of a hidden unit, and an activation
    // (<= QA) times an output weight, must fit.
    for (int h = 0; h < HIDDEN; ++h) {
        int largest = 0;
        for (int i = 0; i < INPUTS; ++i) largest = std::max(largest, std::abs(int(net->ft_weights[i * HIDDEN + h])));
        const long bound = std::abs(long(net->ft_bias[h])) + long(MAX_ACTIVE) * largest;
        if (bound > 32767)
            return refuse("hidden unit " + std::to_string(h) + ": bias plus " + std::to_string(MAX_ACTIVE) +
                          " inputs may reach " + std::to_string(bound) + ", beyond int16 (the weights must stay within ±" +
                          std::to_string((32767 - std::abs(int(net->ft_bias[h]))) / MAX_ACTIVE) + ")");
    }
    for (int i = 0; i < 2 * HIDDEN; ++i)
        if (std::abs(int(net->out_weights[i])) > MAX_OUT_WEIGHT)
            return refuse("output weight " + std::to_string(i) + " is " + std::to_string(net->out_weights[i]) +
                          ", beyond ±" + std::to_string(MAX_OUT_WEIGHT) + " (activation x weight must fit int16)");
    if (std::abs(std::int64_t(net->out_bias)) > std::int64_t(QA) * QB * 64)
        return refuse("output bias " + std::to_string(net->out_bias) + " is beyond ±64 (float)");
    return net;
}

std::shared_ptr<const Network> load_network_file(const std::string& path, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fail(error, "cannot open net file '" + path + "'");
        return nullptr;
    }
    // Read at most one byte more than the largest valid file: a huge or endless file is refused, not read.
    constexpr std::size_t LIMIT = HEADER_FIXED + MAX_DESCRIPTION + PARAMS_BYTES + 8;
    std::string bytes(LIMIT + 1, '\0');
    in.read(bytes.data(), std::streamsize(bytes.size()));
    bytes.resize(std::size_t(in.gcount()));
    auto net = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), error);
    if (!net && error) *error = path + ": " + *error;
    return net;
}

std::string serialise_network(const std::int16_t* ft_weights, const std::int16_t* ft_bias,
                              const std::int16_t* out_weights, std::int32_t out_bias, const std::string& description) {
    std::string s(MAGIC, 4);
    put_u32(s, FORMAT_VERSION);
    for (std::uint32_t v : ARCH) put_u32(s, v);
    const std::string desc = description.substr(0, MAX_DESCRIPTION);
    put_u32(s, std::uint32_t(desc.size()));
    s += desc;
    for (std::size_t i = 0; i < std::size_t(INPUTS) * HIDDEN; ++i) put_i16(s, ft_weights[i]);
    for (int i = 0; i < HIDDEN; ++i) put_i16(s, ft_bias[i]);
    for (int i = 0; i < 2 * HIDDEN; ++i) put_i16(s, out_weights[i]);
    put_u32(s, std::uint32_t(out_bias));
    const std::uint64_t h = fnv1a64(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
    put_u32(s, std::uint32_t(h));
    put_u32(s, std::uint32_t(h >> 32));
    return s;
}

std::string checksum_hex(const Network& net) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(net.checksum));
    return hex;
}

std::shared_ptr<const Network> embedded_network() {
    static const std::shared_ptr<const Network> net = [] {
        if (quince_embedded_net_size == 0) return std::shared_ptr<const Network>();
        std::string error;
        auto n = parse_network(quince_embedded_net, quince_embedded_net_size, &error);
        // The build checked the file (cmake/embed_net.cmake runs no parser, the tests do): a net that does
        // not parse here is a broken build, said once rather than silently ignored.
        if (!n) std::fprintf(stderr, "info string embedded net refused: %s\n", error.c_str());
        return n;
    }();
    return net;
}

std::string lineage_text(std::int64_t teacher_labels, std::int64_t positions) {
    return "teacher labels: " + std::to_string(teacher_labels) + " of " + std::to_string(positions) + " positions";
}

std::int64_t teacher_labels(const std::string& description) {
    static const std::string key = "teacher labels: ";
    const std::size_t at = description.rfind(key);
    if (at == std::string::npos) return -1;
    std::int64_t n = 0;
    const char* p = description.c_str() + at + key.size();
    if (*p < '0' || *p > '9') return -1;
    for (; *p >= '0' && *p <= '9'; ++p) n = n * 10 + (*p - '0');
    return n;
}

}  // namespace quince::eval::nnue
