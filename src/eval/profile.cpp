// A Profile from weights: its derived tables, and the reading of a weights file. Which profiles are built in,
// and by what names, is the registry's (eval/evaluation.cpp).
#include "eval/profile.h"

#include <bit>
#include <filesystem>
#include <fstream>
#include <memory>

#include "eval/material_table.h"
#include "eval/weights.h"
#include "eval/pawns.h"
#include "eval/phase.h"
#include "eval/pst.h"
#include "eval/threats.h"

namespace quince::eval {

namespace {

// Far above any real weights file (a few tens of KB); a bound on what a mistaken path can make us read.
constexpr std::size_t MAX_WEIGHTS_FILE_BYTES = std::size_t(1) << 24;

std::shared_ptr<Profile> build(const Weights& w, bool simple) {
    auto p = std::make_shared<Profile>();
    p->w = w;
    p->simple = simple;
    if (w.pst_source == PstSource::Table) {
        for (int pt = 0; pt < 7; ++pt)
            for (int sq = 0; sq < 64; ++sq) {
                p->pst_op[pt][sq] = pt == 0 ? 0 : w.pst_table_op[pt][sq];
                p->pst_eg[pt][sq] = pt == 0 ? 0 : w.pst_table_eg[pt][sq];
            }
    } else {
        build_pst(w, p->pst_op, p->pst_eg);
    }
    for (int pt = 0; pt < 7; ++pt)
        for (int sq = 0; sq < 64; ++sq) p->pst_packed[pt][sq] = pack(p->pst_op[pt][sq], p->pst_eg[pt][sq]);
    for (int pt = 0; pt < 7; ++pt) p->mob_packed[pt] = 0;
    p->mob_packed[2] = pack(w.mob_knight_op, w.mob_knight_eg);
    p->mob_packed[3] = pack(w.mob_bishop_op, w.mob_bishop_eg);
    p->mob_packed[4] = pack(w.mob_rook_op, w.mob_rook_eg);
    p->mob_packed[5] = pack(w.mob_queen_op, w.mob_queen_eg);
    for (int pt = 0; pt < 7; ++pt) p->mob_offset[pt] = 0;
    p->mob_offset[2] = w.mob_knight_offset;
    p->mob_offset[3] = w.mob_bishop_offset;
    p->mob_offset[4] = w.mob_rook_offset;
    p->mob_offset[5] = w.mob_queen_offset;
    for (auto& row : p->mob_table_packed)
        for (auto& v : row) v = 0;
    const auto mob_table = [&](int i, const auto& op, const auto& eg) {
        for (std::size_t n = 0; n < op.size(); ++n) p->mob_table_packed[i][n] = pack(op[n], eg[n]);
    };
    mob_table(0, w.mob_knight_table_op, w.mob_knight_table_eg);
    mob_table(1, w.mob_bishop_table_op, w.mob_bishop_table_eg);
    mob_table(2, w.mob_rook_table_op, w.mob_rook_table_eg);
    mob_table(3, w.mob_queen_table_op, w.mob_queen_table_eg);
    static_assert(sizeof p->threats2_packed / sizeof p->threats2_packed[0] == THREATS2_KINDS);
    for (int i = 0; i < THREATS2_KINDS; ++i) p->threats2_packed[i] = pack(w.*THREATS2[i].op, w.*THREATS2[i].eg);
    build_interpolation(w, p->interp);
    p->path = fast_path_holds(w) ? Path::Fast : Path::General;
    // §13.2: the byte is the OR of the pawn ranks; only files b..g matter (rook pawns never count).
    p->drawish_on = false;
    for (int byte = 0; byte < 256; ++byte) {
        p->drawish[byte] = std::uint8_t(w.drawish_by_files[std::popcount(unsigned(byte) & 0x7Eu)]);
        p->drawish_on |= p->drawish[byte] != 0;
    }
    build_shelter_storm(w, p->shelter_table, p->storm_table);
    build_material_table(w, p->material);
    return p;
}

}  // namespace

std::shared_ptr<const Profile> build_profile(const Weights& w) { return build(w, false); }
std::shared_ptr<const Profile> build_simple_profile(const Weights& w) { return build(w, true); }

std::shared_ptr<const Profile> profile_from_text(const std::string& text, const std::string& source, std::string* error) {
    Weights w{};
    if (!parse_weights(text, source, w, error, builtin_weights)) return nullptr;
    return build(w, false);
}

std::shared_ptr<const Profile> load_profile_file(const std::string& path, std::string* error) {
    // A weights file is a regular file: a device or FIFO (/dev/zero, /dev/stdin) would be read forever
    // or block, and a directory cannot be read at all.
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec)) {
        if (error) *error = "weights file '" + path + "' is not a regular file";
        return nullptr;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        if (error) *error = "cannot open weights file '" + path + "'";
        return nullptr;
    }
    // Read one byte more than the limit: enough to tell a file that is too large without reading all of it.
    std::string text(MAX_WEIGHTS_FILE_BYTES + 1, '\0');
    in.read(text.data(), std::streamsize(text.size()));
    text.resize(std::size_t(in.gcount()));
    if (in.bad()) {
        if (error) *error = "cannot read weights file '" + path + "'";
        return nullptr;
    }
    if (text.size() > MAX_WEIGHTS_FILE_BYTES) {
        if (error) *error = "weights file '" + path + "' is larger than 16 MB";
        return nullptr;
    }
    return profile_from_text(text, path, error);
}

MatEntry Profile::compute_material(int wq, int bq, int wr, int br, int wb, int bb, int wn, int bn, int wp,
                                   int bp) const {
    return compute_material_entry(w, MaterialCounts{wq, bq, wr, br, wb, bb, wn, bn, wp, bp});
}

}  // namespace quince::eval
