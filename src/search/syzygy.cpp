#include "search/syzygy.h"

#ifndef QUINCE_NO_SYZYGY
#include <tbprobe.h>
#endif

#include <cstdio>
#include <filesystem>
#include <memory>
#include <mutex>
#include <sstream>
#include <string_view>

#include "board/movegen.h"

namespace quince::syzygy {

bool is_material_name(const std::string& name) {
    const std::size_t v = name.find('v');
    if (v == std::string::npos || v == 0 || v + 1 >= name.size() || name.size() > 9) return false;
    if (name[0] != 'K' || name[v + 1] != 'K') return false;
    for (std::size_t i = 1; i < name.size(); ++i)
        if (i != v && i != v + 1 && std::string_view("QRBNP").find(name[i]) == std::string_view::npos) return false;
    return true;
}

int win_rank_bound(bool use_rule50) { return use_rule50 ? 900 : 1; }

#ifdef QUINCE_NO_SYZYGY

// A build without Fathom (the WebAssembly page, a machine without libfathom-dev, -DQUINCE_SYZYGY=OFF):
// no table is ever loaded, and SyzygyPath says so instead of pretending to search a directory.
namespace {
const Status g_none{};
}

std::string init(const std::string& path) {
    if (path.empty() || path == "<empty>") return "Syzygy: tablebases off";
    return "error: SyzygyPath: this build of Quince has no tablebase support";
}
const Status& status() { return g_none; }
int max_pieces() { return 0; }
bool probe_wdl(const Position&, Wdl*) { return false; }
bool probe_dtz(const Position&, Wdl*, int*) { return false; }
bool rank_root_moves(const Position&, bool, std::vector<RankedMove>*, bool*, bool) { return false; }

#else

namespace {

Status g_status;
std::string g_path;

// Debian's libfathom is built without Fathom's lock (the library imports no mutex functions), and
// Fathom maps a table into memory on its first probe: two threads probing a fresh table at once would
// both map it. Serialising the probes costs an uncontended lock per probe (probes only happen right
// after captures and pawn moves in positions of at most max_pieces() pieces).
std::mutex g_probe_mutex;

// Fathom's squares are Quince's (a1 = bit 0, h8 = bit 63) and its colours are bitboards too, so the
// adapter is a copy; en passant is a square index, 0 for none.
struct FathomPosition {
    std::uint64_t white, black, kings, queens, rooks, bishops, knights, pawns;
    unsigned rule50, ep;
    bool white_to_move;
};

FathomPosition adapt(const Position& pos) {
    return {pos.pieces(WHITE),
            pos.pieces(BLACK),
            pos.pieces(KING),
            pos.pieces(QUEEN),
            pos.pieces(ROOK),
            pos.pieces(BISHOP),
            pos.pieces(KNIGHT),
            pos.pieces(PAWN),
            unsigned(pos.rule50()),
            pos.ep_square() == SQ_NONE ? 0u : unsigned(pos.ep_square()),
            pos.side_to_move() == WHITE};
}

bool probeable(const Position& pos) {
    return g_status.max_pieces > 0 && popcount(pos.pieces()) <= g_status.max_pieces && !pos.castling_rights();
}

Wdl wdl_from_fathom(unsigned v) { return Wdl(int(v) - 2); }

// A Fathom move (from, to, promotion code) as the matching legal Quince move.
Move find_move(const Position& pos, unsigned from, unsigned to, unsigned promotes) {
    static constexpr PieceType PROMOTION_PIECE[] = {NO_PIECE_TYPE, QUEEN, ROOK, BISHOP, KNIGHT};
    for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
        const Move m = sm.move;
        if (unsigned(m.from()) != from || unsigned(m.to()) != to) continue;
        if (m.type() == PROMOTION ? promotes < 5 && m.promotion_type() == PROMOTION_PIECE[promotes] : promotes == 0)
            return m;
    }
    return Move::none();
}

// Table files as Fathom names them (KQvKR.rtbw): the tests of tb_init, counted here because Fathom
// does not report how many it found. A file whose size is not 16 mod 64 is incomplete (Fathom skips it).
void count_tables(const std::vector<std::string>& dirs, Status* st, std::vector<std::string>* incomplete) {
    for (const std::string& dir : dirs) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            const std::string name = entry.path().filename().string();
            const std::string ext = entry.path().extension().string();
            if ((ext != ".rtbw" && ext != ".rtbz") || !is_material_name(entry.path().stem().string())) continue;
            std::error_code size_ec;
            const auto size = entry.file_size(size_ec);
            if (size_ec) continue;
            if (size % 64 != 16) {
                incomplete->push_back(name);
                continue;
            }
            (name.back() == 'w' ? st->wdl_tables : st->dtz_tables) += 1;
        }
    }
}

}  // namespace

std::string init(const std::string& path) {
    if (path.empty() || path == "<empty>") {
        tb_init("");
        g_status = Status{};
        g_path.clear();
        return "Syzygy: tablebases off";
    }
    // A folder that is missing (an unplugged drive, a typo) among several is left out, as Fathom and
    // Stockfish do, and named in the answer; only a path without any folder is refused.
    std::vector<std::string> dirs, missing;
    std::string dir, usable;
    std::istringstream in(path);
    // Directories are separated as in Fathom and Stockfish: ';' on Windows (where ':' follows a drive
    // letter), ':' elsewhere.
#if defined(_WIN32)
    constexpr char SEPARATOR = ';';
#else
    constexpr char SEPARATOR = ':';
#endif
    while (std::getline(in, dir, SEPARATOR)) {
        if (dir.empty()) continue;
        std::error_code ec;
        if (!std::filesystem::is_directory(dir, ec)) {
            missing.push_back(dir);
            continue;
        }
        dirs.push_back(dir);
        usable += (usable.empty() ? std::string() : std::string(1, SEPARATOR)) + dir;
    }
    if (dirs.empty() && missing.size() == 1) return "error: SyzygyPath: '" + missing[0] + "' is not a directory";
    if (dirs.empty() && !missing.empty()) return "error: SyzygyPath: none of the directories in '" + path + "' exists";
    if (dirs.empty()) return "error: SyzygyPath: no directory in '" + path + "'";
    Status found;
    std::vector<std::string> incomplete;
    count_tables(dirs, &found, &incomplete);
    if (found.wdl_tables == 0)
        return "error: SyzygyPath: no Syzygy table (.rtbw file) in '" + path + "'" +
               (incomplete.empty() ? "" : " (" + std::to_string(incomplete.size()) + " incomplete files)");
    const bool loaded = tb_init(usable.c_str());
    std::fflush(stdout);  // Fathom reports incomplete files with printf: before our own line, not at exit
    if (!loaded || TB_LARGEST == 0) {
        tb_init(g_path.c_str());  // Fathom rejected them: back to the previous tables
        return "error: SyzygyPath: Fathom could not load the tables in '" + path + "'";
    }
    found.max_pieces = int(TB_LARGEST);
    g_status = found;
    g_path = usable;
    std::string line = "Syzygy: found " + std::to_string(found.wdl_tables) + " tables (" +
                       std::to_string(found.dtz_tables) + " with DTZ) up to " + std::to_string(found.max_pieces) +
                       " pieces in " + usable;
    if (!incomplete.empty()) line += "; skipped " + std::to_string(incomplete.size()) + " incomplete files";
    for (const std::string& m : missing) line += "; skipped '" + m + "': not a directory";
    return line;
}

const Status& status() { return g_status; }
int max_pieces() { return g_status.max_pieces; }

bool probe_wdl(const Position& pos, Wdl* out) {
    if (!probeable(pos) || pos.rule50() != 0) return false;
    const FathomPosition f = adapt(pos);
    unsigned v;
    {
        std::lock_guard<std::mutex> lock(g_probe_mutex);
        v = tb_probe_wdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights, f.pawns, 0, 0, f.ep,
                         f.white_to_move);
    }
    if (v == TB_RESULT_FAILED) return false;
    *out = wdl_from_fathom(v);
    return true;
}

bool probe_dtz(const Position& pos, Wdl* wdl, int* dtz) {
    if (!probeable(pos)) return false;
    const FathomPosition f = adapt(pos);
    unsigned r;
    {
        std::lock_guard<std::mutex> lock(g_probe_mutex);
        r = tb_probe_root(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights, f.pawns, f.rule50, 0,
                          f.ep, f.white_to_move, nullptr);
    }
    if (r == TB_RESULT_FAILED) return false;
    if (r == TB_RESULT_CHECKMATE || r == TB_RESULT_STALEMATE) {
        *wdl = pos.in_check() ? Wdl::LOSS : Wdl::DRAW;
        *dtz = 0;
        return true;
    }
    *wdl = wdl_from_fathom(TB_GET_WDL(r));
    const int d = int(TB_GET_DTZ(r));
    *dtz = int(*wdl) < 0 ? -d : d;
    return true;
}

bool rank_root_moves(const Position& pos, bool use_rule50, std::vector<RankedMove>* out, bool* used_dtz,
                     bool fastest_win) {
    if (!probeable(pos)) return false;
    const FathomPosition f = adapt(pos);
    auto moves = std::make_unique<TbRootMoves>();
    bool dtz_ok, wdl_ok = false;
    {
        std::lock_guard<std::mutex> lock(g_probe_mutex);
        // Fathom ranks winning moves by DTZ (1000 - (dtz + rule50)) once the position has repeated, all
        // alike (1000) otherwise; fastest_win asks for the DTZ ranking always.
        dtz_ok = tb_probe_root_dtz(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights, f.pawns,
                                   f.rule50, 0, f.ep, f.white_to_move, pos.has_repeated() || fastest_win,
                                   use_rule50, moves.get()) != 0;
        if (!dtz_ok)
            wdl_ok = tb_probe_root_wdl(f.white, f.black, f.kings, f.queens, f.rooks, f.bishops, f.knights, f.pawns,
                                       f.rule50, 0, f.ep, f.white_to_move, use_rule50, moves.get()) != 0;
    }
    if (!dtz_ok && !wdl_ok) return false;
    const int bound = win_rank_bound(use_rule50);
    out->clear();
    for (unsigned i = 0; i < moves->size; ++i) {
        const TbMove tm = moves->moves[i].move;
        RankedMove rm;
        rm.move = find_move(pos, TB_MOVE_FROM(tm), TB_MOVE_TO(tm), TB_MOVE_PROMOTES(tm));
        if (!rm.move) return false;  // the two move generators disagree: trust neither
        rm.rank = moves->moves[i].tbRank;
        rm.wdl = rm.rank >= bound ? Wdl::WIN
                 : rm.rank > 0    ? Wdl::CURSED_WIN
                 : rm.rank == 0   ? Wdl::DRAW
                 : rm.rank > -bound ? Wdl::BLESSED_LOSS
                                    : Wdl::LOSS;
        out->push_back(rm);
    }
    if (out->size() != MoveList<LEGAL>(pos).size()) return false;
    *used_dtz = dtz_ok;
    return true;
}

#endif  // QUINCE_NO_SYZYGY

}  // namespace quince::syzygy
