#include "training/game_format.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

#ifdef QUINCE_DATA_CODECS
#include <lzma.h>
#include <nettle/sha2.h>
#include <zstd.h>
#endif

#include "board/movegen.h"

namespace quince::training {

namespace fs = std::filesystem;

std::string ShardHeader::get(const std::string& key) const {
    for (const auto& [k, v] : fields)
        if (k == key) return v;
    return "";
}

void ShardHeader::set(const std::string& key, const std::string& value) {
    for (auto& [k, v] : fields)
        if (k == key) {
            v = value;
            return;
        }
    fields.emplace_back(key, value);
}

// ---------------------------------------------------------------------------------------------
// Moves as indices: the legal moves sorted by (from, to, promotion), squares a1 = 0 … h8 = 63, castling as
// the king's two-square move, promotions knight < bishop < rook < queen. The order is the format's, not
// the move generator's, so a new generator cannot change what old shards mean.

namespace {

int order_key(Move m) {
    int to = m.to();
    if (m.type() == CASTLING) {  // stored as "king takes rook": the key uses the king's destination
        const int rank = int(m.from()) / 8;
        to = rank * 8 + (int(m.to()) > int(m.from()) ? 6 : 2);
    }
    const int promo = m.type() == PROMOTION ? 1 + int(m.promotion_type()) - int(KNIGHT) : 0;
    return (int(m.from()) * 64 + to) * 8 + promo;
}

int sorted_legal(const Position& pos, Move* out) {
    MoveList<LEGAL> list(pos);
    int n = 0;
    int keys[MAX_MOVES];
    for (const ScoredMove& s : list) {
        // insertion sort: about 35 moves
        const int k = order_key(s.move);
        int i = n++;
        while (i > 0 && keys[i - 1] > k) {
            keys[i] = keys[i - 1];
            out[i] = out[i - 1];
            --i;
        }
        keys[i] = k;
        out[i] = s.move;
    }
    return n;
}

}  // namespace

int move_index(const Position& pos, Move m) {
    Move moves[MAX_MOVES];
    const int n = sorted_legal(pos, moves);
    for (int i = 0; i < n; ++i)
        if (moves[i] == m) return i;
    return -1;
}

Move move_at_index(const Position& pos, int index) {
    Move moves[MAX_MOVES];
    const int n = sorted_legal(pos, moves);
    return index >= 0 && index < n ? moves[index] : Move::none();
}

// ---------------------------------------------------------------------------------------------
// Varints (LEB128, 7 bits a byte, low first) and zigzag for signed values.

namespace {

void put_varint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out += char((v & 0x7F) | 0x80);
        v >>= 7;
    }
    out += char(v);
}

void put_signed(std::string& out, std::int64_t v) {
    put_varint(out, (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63));
}

struct Reader {
    std::string_view s;
    std::size_t at = 0;
    bool ok = true;
    std::uint64_t varint() {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at >= s.size()) {
                ok = false;
                return 0;
            }
            const std::uint8_t b = std::uint8_t(s[at++]);
            v |= std::uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) return v;
        }
        ok = false;  // more than ten bytes
        return 0;
    }
    std::int64_t signed_varint() {
        const std::uint64_t z = varint();
        return std::int64_t(z >> 1) ^ -std::int64_t(z & 1);
    }
    std::uint8_t byte() {
        if (at >= s.size()) {
            ok = false;
            return 0;
        }
        return std::uint8_t(s[at++]);
    }
    std::string_view bytes(std::uint64_t n) {
        if (n > s.size() - at) {
            ok = false;
            return {};
        }
        std::string_view r = s.substr(at, n);
        at += n;
        return r;
    }
};

constexpr char MAGIC[3] = {'Q', 'T', 'D'};
constexpr std::uint64_t MAX_PLIES = 4096;   // a game longer than this is a corrupt stream
constexpr std::int64_t MAX_SCORE = 32000;

}  // namespace

bool encode_shard(const ShardHeader& header, const std::vector<TrainingGame>& games, std::string* out,
                  std::string* error) {
    auto fail = [&](std::size_t g, const std::string& what) {
        if (error) *error = "game " + std::to_string(g + 1) + ": " + what;
        return false;
    };
    std::string head, table, moves, scores, labels;
    for (const auto& [k, v] : header.fields) head += k + ": " + v + "\n";
    for (std::size_t g = 0; g < games.size(); ++g) {
        const TrainingGame& game = games[g];
        const std::size_t plies = game.moves.size();
        if (plies > MAX_PLIES) return fail(g, "more than " + std::to_string(MAX_PLIES) + " plies");
        if (game.opening_plies < 0 || std::size_t(game.opening_plies) > plies ||
            game.scores.size() != plies - std::size_t(game.opening_plies))
            return fail(g, "the scores do not cover the plies after the opening");
        std::uint8_t flags = std::uint8_t(game.result);
        if (!game.start_fen.empty()) flags |= 4;
        table += char(flags);
        if (!game.start_fen.empty()) {
            put_varint(table, game.start_fen.size());
            table += game.start_fen;
        }
        put_varint(table, plies);
        put_varint(table, std::uint64_t(game.opening_plies));
        put_varint(table, game.labels.size());
        Position pos;
        std::string why;
        if (!game.start_fen.empty() && !pos.set_fen(game.start_fen, false, &why)) return fail(g, "start FEN: " + why);
        for (std::size_t i = 0; i < plies; ++i) {
            const int idx = move_index(pos, game.moves[i]);
            if (idx < 0) return fail(g, "move " + std::to_string(i + 1) + " is not legal");
            moves += char(idx);
            pos.do_move(game.moves[i]);
        }
        int prev = 0;
        for (int s : game.scores) {
            if (std::abs(s) > MAX_SCORE) return fail(g, "a score beyond ±32000");
            put_signed(scores, std::int64_t(s) - prev);
            prev = s;
        }
        int prev_ply = -1;
        for (const TrainingGame::Label& l : game.labels) {
            if (l.ply <= prev_ply || l.ply < game.opening_plies || std::size_t(l.ply) >= plies)
                return fail(g, "labels out of order or outside the scored plies");
            put_varint(labels, std::uint64_t(l.ply - prev_ply - 1));
            if (header.has_teacher) {
                if (std::abs(l.teacher) > MAX_SCORE) return fail(g, "a teacher score beyond ±32000");
                put_signed(labels, std::int64_t(l.teacher) - game.score_at(l.ply));
            }
            prev_ply = l.ply;
        }
    }
    std::string& o = *out;
    o.assign(MAGIC, 3);
    o += char(QTD_VERSION);
    put_varint(o, head.size());
    o += head;
    put_varint(o, games.size());
    o += char(header.has_teacher ? 1 : 0);
    // Columns one after another: the compressor models each kind of value on its own.
    o += table;
    o += moves;
    o += scores;
    o += labels;
    return true;
}

bool decode_shard(std::string_view bytes, ShardHeader* header, std::vector<TrainingGame>* games, std::string* error) {
    auto fail = [&](const std::string& what) {
        if (error) *error = what;
        return false;
    };
    Reader r{bytes};
    if (bytes.size() < 4 || bytes.substr(0, 3) != std::string_view(MAGIC, 3)) return fail("not a QTD shard (bad magic)");
    r.at = 3;
    const int version = r.byte();
    if (version != QTD_VERSION)
        return fail("QTD format version " + std::to_string(version) + " (this build reads version " +
                    std::to_string(QTD_VERSION) + ")");
    const std::uint64_t head_len = r.varint();
    const std::string_view head = r.bytes(head_len);
    const std::uint64_t count = r.varint();
    const std::uint8_t flags = r.byte();
    if (!r.ok) return fail("truncated header");
    if (flags > 1) return fail("unknown header flags");
    if (count > bytes.size()) return fail("game count beyond the stream's size");
    ShardHeader h;
    h.has_teacher = flags & 1;
    for (std::size_t a = 0; a < head.size();) {
        std::size_t e = head.find('\n', a);
        if (e == std::string_view::npos) return fail("header line without its newline");
        const std::string_view line = head.substr(a, e - a);
        const std::size_t colon = line.find(": ");
        if (colon == std::string_view::npos) return fail("header line without 'key: value'");
        h.fields.emplace_back(std::string(line.substr(0, colon)), std::string(line.substr(colon + 2)));
        a = e + 1;
    }
    std::vector<TrainingGame> out(count);
    std::vector<std::uint64_t> label_counts(count);
    for (std::size_t g = 0; g < count; ++g) {
        TrainingGame& game = out[g];
        const std::uint8_t f = r.byte();
        if (!r.ok) return fail("game " + std::to_string(g + 1) + ": truncated game table");
        if ((f & 3) == 3 || f > 7) return fail("game " + std::to_string(g + 1) + ": bad flags");
        game.result = GameResult(f & 3);
        if (f & 4) {
            const std::uint64_t n = r.varint();
            if (n > 128) return fail("game " + std::to_string(g + 1) + ": FEN too long");
            game.start_fen = std::string(r.bytes(n));
        }
        const std::uint64_t plies = r.varint(), opening = r.varint(), labels = r.varint();
        if (!r.ok) return fail("game " + std::to_string(g + 1) + ": truncated game table");
        if (plies > MAX_PLIES || opening > plies || labels > plies)
            return fail("game " + std::to_string(g + 1) + ": inconsistent counts");
        game.moves.resize(plies);
        game.opening_plies = int(opening);
        label_counts[g] = labels;
    }
    for (std::size_t g = 0; g < count; ++g) {
        TrainingGame& game = out[g];
        Position pos;
        std::string why;
        if (!game.start_fen.empty() && !pos.set_fen(game.start_fen, false, &why))
            return fail("game " + std::to_string(g + 1) + ": start FEN: " + why);
        for (std::size_t i = 0; i < game.moves.size(); ++i) {
            const int idx = r.byte();
            if (!r.ok) return fail("game " + std::to_string(g + 1) + ": truncated moves");
            const Move m = move_at_index(pos, idx);
            if (!m) return fail("game " + std::to_string(g + 1) + ", ply " + std::to_string(i + 1) + ": move index " +
                                std::to_string(idx) + " beyond the legal moves");
            game.moves[i] = m;
            pos.do_move(m);
        }
    }
    for (std::size_t g = 0; g < count; ++g) {
        TrainingGame& game = out[g];
        game.scores.resize(game.moves.size() - std::size_t(game.opening_plies));
        std::int64_t prev = 0;
        for (int& s : game.scores) {
            const std::int64_t delta = r.signed_varint();
            // Checked before adding: a corrupt delta near 2^63 would overflow.
            if (delta < -2 * MAX_SCORE || delta > 2 * MAX_SCORE) r.ok = false;
            else prev += delta;
            if (!r.ok || prev < -MAX_SCORE || prev > MAX_SCORE)
                return fail("game " + std::to_string(g + 1) + ": truncated or out-of-range scores");
            s = int(prev);
        }
    }
    for (std::size_t g = 0; g < count; ++g) {
        TrainingGame& game = out[g];
        std::int64_t ply = -1;
        for (std::uint64_t k = 0; k < label_counts[g]; ++k) {
            // The step checked before adding: one near 2^64 would wrap around to this ply or an earlier one.
            const std::uint64_t step = r.varint();
            if (r.ok && step < std::uint64_t(game.moves.size())) ply += std::int64_t(step) + 1;
            else r.ok = false;
            if (!r.ok || ply < game.opening_plies || ply >= std::int64_t(game.moves.size()))
                return fail("game " + std::to_string(g + 1) + ": truncated labels or a label outside the game");
            TrainingGame::Label l;
            l.ply = int(ply);
            if (h.has_teacher) {
                const std::int64_t delta = r.signed_varint();
                const std::int64_t t = delta < -2 * MAX_SCORE || delta > 2 * MAX_SCORE ? MAX_SCORE + 1
                                                                                        : game.score_at(l.ply) + delta;
                if (!r.ok || t < -MAX_SCORE || t > MAX_SCORE)
                    return fail("game " + std::to_string(g + 1) + ": truncated or out-of-range teacher score");
                l.teacher = int(t);
            }
            game.labels.push_back(l);
        }
    }
    if (r.at != bytes.size()) return fail("trailing bytes after the last game");
    if (header) *header = std::move(h);
    if (games) *games = std::move(out);
    return true;
}

// ---------------------------------------------------------------------------------------------
// Files

namespace {

bool ends_with(const std::string& s, const std::string& tail) {
    return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string shell_quote(const std::string& s) {
    std::string q = "'";
    for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

bool is_shard_file(const std::string& path) { return ends_with(path, ".qtd.xz") || ends_with(path, ".qtd.zst"); }

int shard_index(const std::string& path, std::size_t* digits_end) {
    const std::size_t slash = path.find_last_of('/');
    const std::size_t at = slash == std::string::npos ? 0 : slash + 1;
    if (path.compare(at, 6, "shard-") != 0) return -1;
    std::size_t end = at + 6;
    int n = 0;
    while (end < path.size() && end - at - 6 < 9 && path[end] >= '0' && path[end] <= '9') n = n * 10 + (path[end++] - '0');
    if (end == at + 6 || (end < path.size() && path[end] >= '0' && path[end] <= '9')) return -1;
    if (digits_end) *digits_end = end;
    return n;
}

// ---------------------------------------------------------------------------------------------
// Compression and checksums through liblzma, libzstd and nettle (QUINCE_DATA_CODECS; tools/training/
// CMakeLists.txt). A build without them (the Windows cross build) refuses shard files with a sentence saying so.

namespace {

// Far above a real shard (a few MB decompressed): a bound on what a damaged or hostile file can make us allocate.
constexpr std::size_t MAX_SHARD_BYTES = std::size_t(1) << 30;

[[maybe_unused]] const char* codec_name(Codec codec) { return codec == Codec::Xz ? "xz" : "zstd"; }

[[maybe_unused]] bool read_whole_file(const std::string& path, std::string* bytes) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    bytes->assign(std::istreambuf_iterator<char>(in), {});
    return !in.bad();
}

#ifdef QUINCE_DATA_CODECS

const char* lzma_text(lzma_ret r) {
    switch (r) {
    case LZMA_FORMAT_ERROR: return "not in the xz format";
    case LZMA_DATA_ERROR: return "corrupt data";
    case LZMA_BUF_ERROR: return "truncated";
    case LZMA_MEM_ERROR: return "out of memory";
    case LZMA_OPTIONS_ERROR: return "unsupported options";
    case LZMA_UNSUPPORTED_CHECK: return "unsupported integrity check";
    default: return "error";
    }
}

// Preset 9e with a CRC64 check through the single-threaded stream encoder: the bytes `xz -9e -T1` writes (no
// sizes in the block header, which the one-call buffer encoder would add), a function of the input only.
bool compress_xz(const std::string& in, std::string* out, std::string* error) {
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_ret r = lzma_easy_encoder(&s, 9 | LZMA_PRESET_EXTREME, LZMA_CHECK_CRC64);
    if (r != LZMA_OK) return *error = std::string("xz: ") + lzma_text(r), false;
    out->resize(lzma_stream_buffer_bound(in.size()));  // room for the whole stream: one pass
    s.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
    s.avail_in = in.size();
    s.next_out = reinterpret_cast<std::uint8_t*>(out->data());
    s.avail_out = out->size();
    do r = lzma_code(&s, LZMA_FINISH);
    while (r == LZMA_OK);
    out->resize(out->size() - s.avail_out);
    lzma_end(&s);
    if (r != LZMA_STREAM_END) return *error = std::string("xz: ") + lzma_text(r), false;
    return true;
}

// Level 19 with the content checksum, as the zstd command writes by default.
bool compress_zstd(const std::string& in, std::string* out, std::string* error) {
    ZSTD_CCtx* cctx = ZSTD_createCCtx();
    if (!cctx) return *error = "zstd: out of memory", false;
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 19);
    ZSTD_CCtx_setParameter(cctx, ZSTD_c_checksumFlag, 1);
    out->resize(ZSTD_compressBound(in.size()));
    const std::size_t n = ZSTD_compress2(cctx, out->data(), out->size(), in.data(), in.size());
    ZSTD_freeCCtx(cctx);
    if (ZSTD_isError(n)) return *error = std::string("zstd: ") + ZSTD_getErrorName(n), false;
    out->resize(n);
    return true;
}

// Every stream of the file, one after another (as `xz -dc` reads concatenated files), each checked against
// its own integrity check.
bool decompress_xz(const std::string& in, std::string* out, std::string* error) {
    lzma_stream s = LZMA_STREAM_INIT;
    lzma_ret r = lzma_stream_decoder(&s, UINT64_MAX, LZMA_CONCATENATED);
    if (r != LZMA_OK) return *error = std::string("xz: ") + lzma_text(r), false;
    s.next_in = reinterpret_cast<const std::uint8_t*>(in.data());
    s.avail_in = in.size();
    out->clear();
    std::uint8_t buf[1 << 16];
    do {
        s.next_out = buf;
        s.avail_out = sizeof buf;
        r = lzma_code(&s, s.avail_in ? LZMA_RUN : LZMA_FINISH);
        out->append(reinterpret_cast<const char*>(buf), sizeof buf - s.avail_out);
        if (out->size() > MAX_SHARD_BYTES) r = LZMA_MEMLIMIT_ERROR;
    } while (r == LZMA_OK);
    lzma_end(&s);
    if (r == LZMA_MEMLIMIT_ERROR) return *error = "decompresses to more than 1 GB: no shard", false;
    if (r != LZMA_STREAM_END) return *error = std::string("xz: ") + lzma_text(r), false;
    return true;
}

bool decompress_zstd(const std::string& in, std::string* out, std::string* error) {
    ZSTD_DCtx* dctx = ZSTD_createDCtx();
    if (!dctx) return *error = "zstd: out of memory", false;
    ZSTD_inBuffer input = {in.data(), in.size(), 0};
    out->clear();
    char buf[1 << 16];
    std::size_t r = 0;
    for (;;) {
        ZSTD_outBuffer output = {buf, sizeof buf, 0};
        r = ZSTD_decompressStream(dctx, &output, &input);
        if (ZSTD_isError(r)) break;
        out->append(buf, output.pos);
        if (out->size() > MAX_SHARD_BYTES) break;
        // Done when the input is used up and the decoder holds nothing more (it left room in the buffer);
        // r is then 0 after a whole frame, the bytes still missing otherwise (an empty file included).
        if (input.pos == input.size && output.pos < output.size) break;
    }
    ZSTD_freeDCtx(dctx);
    if (out->size() > MAX_SHARD_BYTES) return *error = "decompresses to more than 1 GB: no shard", false;
    if (ZSTD_isError(r)) return *error = std::string("zstd: ") + ZSTD_getErrorName(r), false;
    if (r != 0) return *error = "zstd: truncated", false;
    return true;
}

#endif  // QUINCE_DATA_CODECS

}  // namespace

bool write_shard_file(const std::string& path, const std::string& bytes, Codec codec, std::string* error) {
    auto fail = [&](const std::string& what) {
        if (error) *error = what;
        return false;
    };
#ifdef QUINCE_DATA_CODECS
    std::string compressed, why;
    if (!(codec == Codec::Xz ? compress_xz(bytes, &compressed, &why) : compress_zstd(bytes, &compressed, &why)))
        return fail("cannot compress " + path + ": " + why);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out.write(compressed.data(), std::streamsize(compressed.size()));
        if (!out.flush()) {
            std::error_code ec;
            fs::remove(tmp, ec);
            return fail("cannot write " + tmp);
        }
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) return fail("cannot rename " + tmp + " to " + path + ": " + ec.message());
    return true;
#else
    (void)bytes;
    return fail("cannot write " + path + ": this build has no " + codec_name(codec) +
                " compression (it was built without liblzma and libzstd)");
#endif
}

bool read_shard_file(const std::string& path, std::string* bytes, std::string* error) {
    auto fail = [&](const std::string& what) {
        if (error) *error = path + ": " + what;
        return false;
    };
    if (!fs::is_regular_file(path)) return fail("no such shard file");
    const Codec codec = ends_with(path, ".zst") ? Codec::Zstd : Codec::Xz;
#ifdef QUINCE_DATA_CODECS
    std::string compressed, why;
    if (!read_whole_file(path, &compressed)) return fail("cannot read the file");
    if (!(codec == Codec::Xz ? decompress_xz(compressed, bytes, &why) : decompress_zstd(compressed, bytes, &why)))
        return fail("cannot decompress: the file is truncated or corrupt (" + why + ")");
    return true;
#else
    (void)bytes;
    return fail(std::string("cannot decompress: this build has no ") + codec_name(codec) +
                " decompression (it was built without liblzma and libzstd)");
#endif
}

bool read_maybe_compressed_file(const std::string& path, std::string* bytes, std::string* error) {
    if (ends_with(path, ".xz") || ends_with(path, ".zst")) {
        if (!fs::is_regular_file(path)) return *error = path + ": no such file", false;
        return read_shard_file(path, bytes, error);
    }
    if (!fs::is_regular_file(path) || !read_whole_file(path, bytes)) return *error = path + ": cannot read the file", false;
    return true;
}

std::string files_sha256(const std::vector<std::string>& paths) {
#ifdef QUINCE_DATA_CODECS
    sha256_ctx ctx;
    sha256_init(&ctx);
    char buf[1 << 16];
    for (const std::string& path : paths) {
        std::error_code ec;
        std::ifstream in(path, std::ios::binary);
        if (!in || fs::is_directory(path, ec)) return "";
        while (in) {
            in.read(buf, sizeof buf);
            sha256_update(&ctx, std::size_t(in.gcount()), reinterpret_cast<const std::uint8_t*>(buf));
        }
        if (in.bad()) return "";
    }
    std::uint8_t digest[SHA256_DIGEST_SIZE];
    sha256_digest(&ctx, sizeof digest, digest);
    static const char* HEX = "0123456789abcdef";
    std::string hex;
    for (std::uint8_t b : digest) hex += HEX[b >> 4], hex += HEX[b & 15];
    return hex;
#else
    (void)paths;
    return "";  // unknown, as the manifest allows
#endif
}

std::string file_sha256(const std::string& path) { return files_sha256({path}); }

// ---------------------------------------------------------------------------------------------
// Sets

bool find_shards(const std::vector<std::string>& args, std::vector<ShardFile>* shards, std::string* error) {
    auto fail = [&](const std::string& e) {
        if (error) *error = e;
        return false;
    };
    std::vector<std::string> paths;
    for (const std::string& a : args) {
        std::error_code ec;
        if (fs::is_directory(a, ec)) {
            std::vector<std::string> found;
            for (auto it = fs::recursive_directory_iterator(a, ec); !ec && it != fs::recursive_directory_iterator();
                 it.increment(ec))
                if (it->is_regular_file() && is_shard_file(it->path().string())) found.push_back(it->path().string());
            if (ec) return fail("cannot read the folder '" + a + "': " + ec.message());
            std::sort(found.begin(), found.end());
            paths.insert(paths.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(a, ec) && is_shard_file(a)) {
            paths.push_back(a);
        } else {
            return fail("'" + a + "' is neither a folder nor a shard file (*.qtd.xz, *.qtd.zst)");
        }
    }
    shards->clear();
    for (const std::string& p : paths) {
        ShardFile s;
        s.path = p;
        s.index = std::max(0, shard_index(p));
        s.validation = s.index % 20 == 19;
        shards->push_back(s);
    }
    return true;
}

bool is_quiet_ply(const Position& pos, const TrainingGame& game, int ply) {
    return ply >= game.opening_plies && !pos.in_check() && !pos.is_capture_or_promotion(game.moves[std::size_t(ply)]) &&
           std::abs(game.score_at(ply)) < QTD_MATE_BOUND;
}

std::int64_t quiet_plies(const TrainingGame& game) {
    Position pos;
    if (!game.start_fen.empty() && !pos.set_fen(game.start_fen, false, nullptr)) return 0;
    std::int64_t n = 0;
    for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
        n += is_quiet_ply(pos, game, int(ply));
        pos.do_move(game.moves[ply]);
    }
    return n;
}

bool for_each_position(const std::vector<ShardFile>& shards, const std::function<bool(const LabeledPosition&)>& visit,
                       std::string* error, Plies plies) {
    std::int64_t game_number = 0;
    return for_each_position(shards, visit, error, plies, &game_number);
}

bool for_each_position(const std::vector<ShardFile>& shards, const std::function<bool(const LabeledPosition&)>& visit,
                       std::string* error, Plies plies, std::int64_t* game_counter) {
    std::int64_t& game_number = *game_counter;
    std::string bytes;
    ShardHeader header;
    std::vector<TrainingGame> games;
    for (const ShardFile& shard : shards) {
        std::string why;
        if (!read_shard_file(shard.path, &bytes, &why)) {
            if (error) *error = why;
            return false;
        }
        if (!decode_shard(bytes, &header, &games, &why)) {
            if (error) *error = shard.path + ": " + why;
            return false;
        }
        for (const TrainingGame& game : games) {
            ++game_number;
            Position pos;
            if (!game.start_fen.empty()) pos.set_fen(game.start_fen, false, nullptr);  // checked by decode_shard
            LabeledPosition lp;
            lp.pos = &pos;
            lp.result = game.white_result();
            lp.game = game_number;
            lp.validation = shard.validation;
            lp.opening_plies = game.opening_plies;
            std::size_t next = 0;
            for (std::size_t ply = 0; ply < game.moves.size(); ++ply) {
                const bool labelled = next < game.labels.size() && game.labels[next].ply == int(ply);
                if (!labelled && plies == Plies::Labelled && next >= game.labels.size()) break;
                const bool quiet = plies == Plies::Quiet && is_quiet_ply(pos, game, int(ply));
                if (labelled || quiet) {
                    lp.score = game.score_at(int(ply));
                    lp.has_teacher = labelled && header.has_teacher;
                    lp.teacher = lp.has_teacher ? game.labels[next].teacher : lp.score;
                    lp.move = game.moves[ply];
                    lp.ply = int(ply);
                    if (!visit(lp)) return true;
                }
                next += labelled;
                pos.do_move(game.moves[ply]);
            }
        }
    }
    return true;
}

}  // namespace quince::training
