// The net file: reading (every field checked, nothing half-loaded), writing, the embedded default net.
#include "eval/nnue/network.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <utility>

// The embedded net's bytes: a generated source (cmake/embed_net.cmake), empty when the build has no net.
extern "C" const unsigned char quince_embedded_net[];
extern "C" const std::size_t quince_embedded_net_size;

namespace quince::eval::nnue {

namespace {

// Magic and version, then the architecture's numbers: inputs, hidden, activation, QA, QB, scale (version 1
// ends them there); version 2 adds the output buckets and the architecture's name (length and text).
constexpr std::size_t HEADER_V1 = 4 + 4 + 6 * 4;  // the bytes before the description's length
constexpr std::size_t HEADER_V2 = 4 + 4 + 7 * 4;  // the bytes before the name's length
constexpr int FIELDS = 7;
const char* const FIELD_NAMES[FIELDS] = {"inputs", "hidden", "activation", "QA", "QB", "scale", "output buckets"};

template <class A>
constexpr std::uint32_t field(int i) {
    const std::uint32_t f[FIELDS] = {A::INPUTS, A::HIDDEN, std::uint32_t(A::ACTIVATION), A::QA, A::QB, A::SCALE,
                                     A::BUCKETS};
    return f[i];
}

template <class A>
constexpr std::size_t params_bytes() {
    return 2 * (A::FT_WEIGHTS + A::HIDDEN + A::OUT_WEIGHTS) + 4 * std::size_t(A::BUCKETS);
}

// The longest file of any architecture: the loader reads no more than one byte beyond it.
constexpr std::size_t largest_file() {
    return []<std::size_t... I>(std::index_sequence<I...>) {
        std::size_t most = 0;
        ((most = std::max(most, params_bytes<std::tuple_element_t<I, Architectures>>())), ...);
        return HEADER_V2 + 4 + MAX_ARCHITECTURE_NAME + 4 + MAX_DESCRIPTION + most + 8;
    }(std::make_index_sequence<ARCHITECTURE_COUNT>{});
}

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

template <class A>
std::string arch_text() {
    return std::string(A::NAME) + " (" + std::to_string(A::INPUTS) + "->" + std::to_string(A::HIDDEN) + "x2->" +
           std::to_string(A::BUCKETS) + " SCReLU, QA " + std::to_string(A::QA) + ", QB " + std::to_string(A::QB) +
           ", scale " + std::to_string(A::SCALE) + ")";
}

bool fail(std::string* error, const std::string& what) {
    if (error) *error = what;
    return false;
}

// The parameters after the header, and the bounds the integer code needs: no int16 overflow in inference
// (a bias plus any MAX_ACTIVE inputs of a hidden unit, and an activation (<= QA) times an output weight,
// must fit).
template <class A>
bool read_parameters(Network& net, const std::uint8_t* p, std::string* error) {
    for (std::size_t i = 0; i < A::FT_WEIGHTS; ++i, p += 2) net.ft_weights[i] = read_i16(p);
    for (std::size_t i = 0; i < std::size_t(A::HIDDEN); ++i, p += 2) net.ft_bias[i] = read_i16(p);
    for (std::size_t i = 0; i < A::OUT_WEIGHTS; ++i, p += 2) net.out_weights[i] = read_i16(p);
    for (int b = 0; b < A::BUCKETS; ++b, p += 4) net.out_bias[b] = std::int32_t(read_u32(p));

    for (int h = 0; h < A::HIDDEN; ++h) {
        int largest = 0;
        for (int i = 0; i < A::INPUTS; ++i)
            largest = std::max(largest, std::abs(int(net.ft_weights[std::size_t(i) * A::HIDDEN + std::size_t(h)])));
        const long bound = std::abs(long(net.ft_bias[std::size_t(h)])) + long(A::MAX_ACTIVE) * largest;
        if (bound > 32767)
            return fail(error, "hidden unit " + std::to_string(h) + ": bias plus " + std::to_string(A::MAX_ACTIVE) +
                                   " inputs may reach " + std::to_string(bound) +
                                   ", beyond int16 (the weights must stay within ±" +
                                   std::to_string((32767 - std::abs(int(net.ft_bias[std::size_t(h)]))) / A::MAX_ACTIVE) +
                                   ")");
    }
    for (std::size_t i = 0; i < A::OUT_WEIGHTS; ++i)
        if (std::abs(int(net.out_weights[i])) > A::MAX_OUT_WEIGHT)
            return fail(error, "output weight " + std::to_string(i) + " is " + std::to_string(net.out_weights[i]) +
                                   ", beyond ±" + std::to_string(A::MAX_OUT_WEIGHT) +
                                   " (activation x weight must fit int16)");
    for (int b = 0; b < A::BUCKETS; ++b)
        if (std::abs(std::int64_t(net.out_bias[b])) > std::int64_t(A::QA) * A::QB * 64)
            return fail(error, "output bias " + std::to_string(net.out_bias[b]) + " is beyond ±64 (float)");
    return true;
}

}  // namespace

std::shared_ptr<Network> Network::blank(int arch) {
    return with_architecture(arch, [arch](auto a) {
        using A = decltype(a);
        auto net = std::make_shared<Network>();
        net->arch = arch;
        net->ft_weights = AlignedInt16(A::FT_WEIGHTS);
        net->ft_bias = AlignedInt16(A::HIDDEN);
        net->out_weights = AlignedInt16(A::OUT_WEIGHTS);
        return net;
    });
}

std::uint64_t fnv1a64(const std::uint8_t* data, std::size_t size) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (std::size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 0x100000001b3ull;
    return h;
}

bool has_network_magic(const std::uint8_t* data, std::size_t size) {
    return size >= NETWORK_MAGIC.size() && std::memcmp(data, NETWORK_MAGIC.data(), NETWORK_MAGIC.size()) == 0;
}

std::shared_ptr<const Network> parse_network(const std::uint8_t* data, std::size_t size, std::string* error) {
    auto refuse = [&](const std::string& what) {
        fail(error, what);
        return std::shared_ptr<const Network>();
    };
    if (!has_network_magic(data, size))
        return refuse("not a Quince net file (it does not start with '" + std::string(NETWORK_MAGIC) + "')");
    if (size < 8) return refuse("truncated: " + std::to_string(size) + " bytes, shorter than the header");
    const std::uint32_t version = read_u32(data + 4);
    if (version != 1 && version != 2)
        return refuse("net format version " + std::to_string(version) + ", this build reads versions 1 and 2");
    // The architecture: version 1 files are always 768x512 (their numbers are checked below), version 2
    // names it.
    int arch = architecture_index<FormatVersion1Architecture>();
    std::size_t at = HEADER_V1;
    if (version == 2) {
        if (size < HEADER_V2 + 4) return refuse("truncated: " + std::to_string(size) + " bytes, shorter than the header");
        const std::uint32_t name_len = read_u32(data + HEADER_V2);
        if (name_len == 0 || name_len > MAX_ARCHITECTURE_NAME)
            return refuse("architecture name of " + std::to_string(name_len) + " bytes (1 to " +
                          std::to_string(MAX_ARCHITECTURE_NAME) + ")");
        at = HEADER_V2 + 4 + name_len;
        if (size < at) return refuse("truncated: " + std::to_string(size) + " bytes, shorter than the header");
        const std::string name(reinterpret_cast<const char*>(data + HEADER_V2 + 4), name_len);
        for (unsigned char c : name)
            if (c <= 0x20 || c >= 0x7f) return refuse("the architecture name holds a character other than letters, digits and signs");
        arch = find_architecture(name);
        if (arch < 0)
            return refuse("architecture '" + name + "' is not one this build knows (" + architecture_names() + ")");
    }
    if (size < at + 4) return refuse("truncated: " + std::to_string(size) + " bytes, shorter than the header");
    std::shared_ptr<const Network> result = with_architecture(arch, [&](auto a) {
        using A = decltype(a);
        for (int i = 0; i < (version == 1 ? 6 : FIELDS); ++i) {
            const std::uint32_t v = read_u32(data + 8 + 4 * i);
            if (v != field<A>(i))
                return refuse("architecture: " + std::string(FIELD_NAMES[i]) + " " + std::to_string(v) +
                              ", this build's " + arch_text<A>() + " has " + std::to_string(field<A>(i)));
        }
        const std::uint32_t desc_len = read_u32(data + at);
        if (desc_len > MAX_DESCRIPTION)
            return refuse("description of " + std::to_string(desc_len) + " bytes (at most " +
                          std::to_string(MAX_DESCRIPTION) + ")");
        const std::size_t params_at = at + 4 + desc_len;
        const std::size_t expected = params_at + params_bytes<A>() + 8;
        if (size < expected)
            return refuse("truncated: " + std::to_string(size) + " bytes, a net of architecture " +
                          std::string(A::NAME) + " has " + std::to_string(expected));
        if (size > expected)
            return refuse(std::to_string(size - expected) + " bytes after the end of the net (" +
                          std::to_string(expected) + " bytes)");
        const std::uint64_t stored = read_u64(data + expected - 8);
        if (stored != fnv1a64(data, expected - 8)) return refuse("checksum mismatch: the file is damaged");

        std::shared_ptr<Network> net = Network::blank(arch);
        net->format_version = version;
        net->checksum = stored;
        net->description.assign(reinterpret_cast<const char*>(data + at + 4), desc_len);
        for (unsigned char c : net->description)
            if (c < 0x20 && c != '\n' && c != '\t') return refuse("the description holds a control character");
        std::string why;
        if (!read_parameters<A>(*net, data + params_at, &why)) return refuse(why);
        return std::shared_ptr<const Network>(std::move(net));
    });
    return result;
}

std::shared_ptr<const Network> load_network_file(const std::string& path, std::string* error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        fail(error, "cannot open net file '" + path + "'");
        return nullptr;
    }
    // Read at most one byte more than the largest valid file: a huge or endless file is refused, not read.
    std::string bytes(largest_file() + 1, '\0');
    in.read(bytes.data(), std::streamsize(bytes.size()));
    bytes.resize(std::size_t(in.gcount()));
    auto net = parse_network(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), error);
    if (!net && error) *error = path + ": " + *error;
    return net;
}

std::string serialise_network(const Network& net) {
    return with_architecture(net.arch, [&](auto a) {
        using A = decltype(a);
        const bool v1 = net.format_version == 1 && net.arch == architecture_index<FormatVersion1Architecture>();
        std::string s(NETWORK_MAGIC);
        put_u32(s, v1 ? 1 : 2);
        for (int i = 0; i < (v1 ? 6 : FIELDS); ++i) put_u32(s, field<A>(i));
        if (!v1) {
            put_u32(s, std::uint32_t(A::NAME.size()));
            s += A::NAME;
        }
        const std::string desc = net.description.substr(0, MAX_DESCRIPTION);
        put_u32(s, std::uint32_t(desc.size()));
        s += desc;
        for (std::size_t i = 0; i < A::FT_WEIGHTS; ++i) put_i16(s, net.ft_weights[i]);
        for (std::size_t i = 0; i < std::size_t(A::HIDDEN); ++i) put_i16(s, net.ft_bias[i]);
        for (std::size_t i = 0; i < A::OUT_WEIGHTS; ++i) put_i16(s, net.out_weights[i]);
        for (int b = 0; b < A::BUCKETS; ++b) put_u32(s, std::uint32_t(net.out_bias[b]));
        const std::uint64_t h = fnv1a64(reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
        put_u32(s, std::uint32_t(h));
        put_u32(s, std::uint32_t(h >> 32));
        return s;
    });
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
