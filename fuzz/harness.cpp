#include "harness.h"

#include <cctype>
#include <cstring>
#include <ostream>
#include <random>
#include <sstream>
#include <streambuf>

#include "board/book.h"
#include "board/epd.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "board/position.h"
#include "epd/suite.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "eval/profile.h"
#include "eval/weights.h"
#include "game/pgn.h"
#include "training/game_format.h"
#include "uci/uci.h"

namespace quince::fuzz {

namespace {

std::string text_of(const std::uint8_t* data, std::size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

std::string lower(std::string s) {
    for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Every legal move made and unmade: the position stays consistent and comes back to the same key.
bool make_unmake_all(Position& pos) {
    if (!pos.is_consistent()) return false;
    for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
        const Key before = pos.key();
        (void)move_to_san(pos, sm.move);
        pos.do_move(sm.move);
        const bool ok = pos.is_consistent();
        pos.undo_move(sm.move);
        if (!ok || pos.key() != before) return false;
    }
    return true;
}

// Accepts and drops every byte (an ostream that stays good, unlike one without a buffer).
class NullBuffer : public std::streambuf {
protected:
    int_type overflow(int_type c) override { return traits_type::not_eof(c); }
    std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

// Resource bounds of the UCI harness (see uci_line_allowed).
constexpr std::int64_t MAX_HASH_MB = 8;
constexpr std::int64_t MAX_THREADS = 2;
constexpr int MAX_GENFENS = 4;
constexpr int MAX_UCI_LINES = 64;
constexpr int MAX_MOVE_LINES = 64;
constexpr int BOOK_PLIES = 8;

// The integer after the word `after` (digits only, saturating), or 0.
std::int64_t number_after(const std::string& line, const std::string& after) {
    std::istringstream words(line);
    std::string w;
    while (words >> w)
        if (w == after) {
            if (!(words >> w)) return 0;
            std::int64_t v = 0;
            for (char c : w) {
                if (!std::isdigit(static_cast<unsigned char>(c))) break;
                v = std::min<std::int64_t>(v * 10 + (c - '0'), std::int64_t(1) << 40);
            }
            return v;
        }
    return 0;
}

}  // namespace

bool uci_line_allowed(const std::string& line) {
    const std::string l = lower(line);
    std::istringstream words(l);
    std::string first, second;
    words >> first >> second;
    if (first == "setoption") {
        for (const char* file_option : {"evalfile", "bookfile", "syzygypath"})
            if (l.find(file_option) != std::string::npos) return false;
        if (l.find("hash") != std::string::npos && number_after(l, "value") > MAX_HASH_MB) return false;
        if (l.find("threads") != std::string::npos && number_after(l, "value") > MAX_THREADS) return false;
    }
    if (first == "genfens") {
        if (second.size() != 1 || second[0] - '0' > MAX_GENFENS) return false;
        if (l.find("book") != std::string::npos && l.find("book none") == std::string::npos) return false;
    }
    return true;
}

bool fen(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(text_of(data, size));
    std::string fen_line;
    std::getline(in, fen_line);
    std::vector<std::string> moves;
    for (std::string line; int(moves.size()) < MAX_MOVE_LINES && std::getline(in, line);) moves.push_back(line);
    for (bool chess960 : {false, true}) {
        Position pos;
        std::string why;
        if (!pos.set_fen(fen_line, chess960, &why)) {
            if (why.empty()) return false;  // every rejection says why
            continue;
        }
        Position again;
        if (!again.set_fen(pos.fen(), chess960, &why) || again.key() != pos.key() || again.fen() != pos.fen())
            return false;
        if (!make_unmake_all(pos)) return false;
        for (const std::string& text : moves) {
            Move m = uci_to_move(pos, text);
            if (!m) m = san_to_move(pos, text);
            if (!m) continue;
            pos.do_move(m);
            if (!make_unmake_all(pos)) return false;
        }
    }
    return true;
}

bool uci(const std::uint8_t* data, std::size_t size) {
    NullBuffer sink;
    std::ostream out(&sink);
    uci::Uci engine(out);
    engine.execute("setoption name Hash value 1");  // a fresh engine per input: keep it cheap
    std::istringstream in(text_of(data, size));
    std::string line;
    for (int n = 0; n < MAX_UCI_LINES && std::getline(in, line); ++n) {
        if (!uci_line_allowed(line)) continue;
        if (!engine.execute(line)) break;
        engine.execute("stop");  // whatever a line started (go, go perft, bench) ends soon
    }
    return true;
}

bool epd(const std::uint8_t* data, std::size_t size) {
    std::istringstream in(text_of(data, size));
    std::string line;
    while (std::getline(in, line)) {
        std::size_t operations = 0;
        const std::string fen = epd_fen(line, &operations);
        if (!fen.empty() && operations > line.size()) return false;
        Position pos;
        (void)pos.set_fen(fen);
        epd::Record record;
        std::string why;
        if (!epd::parse_record(line, &record, &why)) continue;
        epd::Problem problem;
        if (!epd::make_problem(record, &problem, &why)) continue;
        for (const Move m : problem.best) (void)problem.solved_by(m);
        (void)problem.max_points();
    }
    return true;
}

// src/game/'s reader on the same input: an error names a game and a line; what it reads is written in
// export format and read back to the same moves and result.
static bool game_pgn(const std::string& text) {
    std::vector<game::Game> games;
    game::PgnError error;
    const bool ok = game::read_pgn(text, &games, &error);
    if (!ok && (error.game < 1 || error.line < 1 || error.message.empty())) return false;
    std::string written;
    for (const game::Game& g : games) written += game::write_pgn(g);
    std::vector<game::Game> again;
    if (!game::read_pgn(written, &again, &error) || again.size() != games.size()) return false;
    for (std::size_t i = 0; i < games.size(); ++i) {
        if (again[i].result != games[i].result || again[i].moves.size() != games[i].moves.size()) return false;
        for (std::size_t m = 0; m < games[i].moves.size(); ++m)
            if (again[i].moves[m].move != games[i].moves[m].move) return false;
    }
    return true;
}

// The reader that skips bad games (`quince analyse`): every error names its game and line, in file order,
// and the bad game's text within the input, after the text of the one before; the games it reads are those
// of the strict reader first, then more, numbered upwards.
static bool game_pgn_lenient(const std::string& text) {
    std::vector<game::Game> strict, lenient;
    game::PgnError error;
    game::read_pgn(text, &strict, &error);
    const std::vector<game::PgnError> errors = game::read_pgn_games(text, &lenient);
    int last = 0;
    std::size_t last_end = 0;
    for (const game::PgnError& e : errors) {
        if (e.game <= last || e.line < 1 || e.message.empty()) return false;
        if (e.begin < last_end || e.begin > e.end || e.end > text.size()) return false;
        last = e.game;
        last_end = e.end;
    }
    if (lenient.size() < strict.size()) return false;
    last = 0;
    for (std::size_t i = 0; i < lenient.size(); ++i) {
        if (lenient[i].number <= last) return false;
        last = lenient[i].number;
        if (i < strict.size() && lenient[i].moves.size() != strict[i].moves.size()) return false;
    }
    return true;
}

bool pgn(const std::uint8_t* data, std::size_t size) {
    if (!game_pgn(text_of(data, size))) return false;
    if (!game_pgn_lenient(text_of(data, size))) return false;
    // The moves read are legal; their SAN as Quince writes it must read back to the same move.
    std::vector<game::Game> games;
    game::PgnError error;
    game::read_pgn(text_of(data, size), &games, &error);
    for (const game::Game& g : games) {
        Position pos = g.start();
        for (const game::PgnMove& pm : g.moves) {
            if (san_to_move(pos, move_to_san(pos, pm.move)) != pm.move) return false;  // SAN round trip
            pos.do_move(pm.move);
        }
    }
    return true;
}

bool weights(const std::uint8_t* data, std::size_t size) {
    std::string why;
    auto profile = eval::profile_from_text(text_of(data, size), "fuzz", &why);
    if (!profile) return !why.empty();
    // What loads prints as a file that loads to the same weights.
    const std::string printed = eval::format_weights(profile->w);
    auto again = eval::profile_from_text(printed, "fuzz-printed", &why);
    return again && eval::format_weights(again->w) == printed;
}

bool book(const std::uint8_t* data, std::size_t size) {
    book::Book b;
    std::string why;
    if (!b.load(text_of(data, size), "fuzz", &why)) return !why.empty();
    std::mt19937_64 rng(size);
    Position pos;
    for (int ply = 0; ply < BOOK_PLIES; ++ply) {
        for (const book::BookMove& bm : b.moves(pos))
            if (!pos.pseudo_legal(bm.move) || !pos.legal(bm.move)) return false;
        const Move m = b.pick(pos, ply % 2 == 0, rng);
        if (!m) break;
        pos.do_move(m);
    }
    return true;
}

bool shard(const std::uint8_t* data, std::size_t size) {
    training::ShardHeader header;
    std::vector<training::TrainingGame> games;
    std::string why;
    if (!training::decode_shard(text_of(data, size), &header, &games, &why)) return !why.empty();
    // What decodes encodes again (the games are legal: the decoder replayed them) and decodes to the same.
    std::string bytes;
    if (!training::encode_shard(header, games, &bytes, &why)) return false;
    training::ShardHeader header2;
    std::vector<training::TrainingGame> games2;
    return training::decode_shard(bytes, &header2, &games2, &why) && games2 == games &&
           header2.fields == header.fields && header2.has_teacher == header.has_teacher;
}

namespace {

// A parsed net writes back to the same bytes and evaluates positions; a refused one says why.
bool one_net(const std::uint8_t* data, std::size_t size) {
    std::string why;
    auto net = eval::nnue::parse_network(data, size, &why);
    if (!net) return !why.empty();
    const std::string again = eval::nnue::serialise_network(*net);
    if (again.size() != size || std::memcmp(again.data(), data, size) != 0) return false;
    eval::Evaluator ev;
    ev.set_eval(eval::nnue::network_evaluation(net));
    Position pos;
    for (const char* fen : {Position::START_FEN, "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}) {
        if (!pos.set_fen(fen)) return false;
        const Value v = ev.evaluate(pos);
        if (v != ev.evaluate(pos.flipped())) return false;  // the network is colour-symmetric by construction
    }
    return true;
}

}  // namespace

bool nnue(const std::uint8_t* data, std::size_t size) {
    if (!one_net(data, size)) return false;
    if (size < 8) return true;
    std::vector<std::uint8_t> sealed(data, data + size);
    const std::uint64_t h = eval::nnue::fnv1a64(sealed.data(), size - 8);
    for (int i = 0; i < 8; ++i) sealed[size - 8 + std::size_t(i)] = std::uint8_t(h >> (8 * i));
    return one_net(sealed.data(), size);
}

const std::vector<Target>& targets() {
    static const std::vector<Target> all = {{"fen", fen},         {"uci", uci},   {"epd", epd},    {"pgn", pgn},
                                            {"weights", weights}, {"book", book}, {"shard", shard}, {"nnue", nnue}};
    return all;
}

}  // namespace quince::fuzz
