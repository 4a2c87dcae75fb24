// Known endings (eval/endgame.h): the set of 3-4-piece endings labelled by the Syzygy tables
// (tests/data/endings.epd) and how the evaluations score its drawn positions.
//
// The set is made by this file (random legal positions of chosen material, seeded):
//   QUINCE_MAKE_ENDINGS=endings.fen build/tests/quince_tests --gtest_filter='EvalEndings.*'
// then labelled by Debian's Syzygy prober: tests/data/label_endings.py endings.fen SYZYGY_DIR > tests/data/endings.epd
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "board/position.h"
#include "core/random.h"
#include "eval/endgame.h"
#include "eval/evaluate.h"
#include "eval/evaluation.h"
#include "eval/terms.h"
#include "eval/trace.h"
#include "search/search.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

struct Labelled {
    std::string fen, material, wdl;  // wdl: the tables' verdict for the side to move
};

// tests/data/endings.epd and endings-heldout.epd: `FEN ; material ; wdl win|draw|loss`.
std::vector<Labelled> ending_set(const std::string& file) {
    std::ifstream in(std::string(QUINCE_TEST_DATA_DIR) + "/" + file);
    std::vector<Labelled> out;
    for (std::string line; std::getline(in, line);) {
        const auto a = line.find(" ; "), b = line.rfind(" ; wdl ");
        if (a == std::string::npos || b == std::string::npos || b <= a) continue;
        out.push_back({line.substr(0, a), line.substr(a + 3, b - a - 3), line.substr(b + 7)});
    }
    return out;
}

struct MaterialSpec {
    const char* name;  // "KRvKB": the stronger side's pieces, then the other's
    int count;
    bool rook_pawns = false;  // every pawn on the a- or h-file
};

// The materials of the set and how many positions of each: the endings the known-ending rules are about
// (drawish ones) and wins beside them, which must stay wins.
const MaterialSpec SET_MATERIALS[] = {
    {"KvK", 4},       {"KNvK", 8},     {"KBvK", 8},     {"KNNvK", 16},   {"KBvKB", 16},   {"KBvKN", 16},
    {"KNvKN", 12},    {"KRvKB", 24},   {"KRvKN", 24},   {"KBPvK", 24, true}, {"KBPvK", 12}, {"KNPvK", 12},
    {"KBvKP", 16},    {"KNvKP", 16},   {"KPvK", 24},    {"KPvK", 12, true},  {"KPvKP", 16}, {"KRvKR", 16},
    {"KQvKQ", 12},    {"KRvKP", 16},   {"KQvKP", 12},   {"KQvKR", 12},   {"KRvK", 8},     {"KQvK", 8},
    {"KBNvK", 8},     {"KBBvK", 8},    {"KPPvK", 12},   {"KRPvK", 8},    {"KQvKB", 8},    {"KQvKN", 8},
};

// Random legal positions of the given material: pawns on ranks 2-7, either side to move, the stronger side
// White in even-numbered positions and Black in odd ones; no position without a legal move, none twice.
std::vector<std::string> random_endings(const MaterialSpec& spec, std::uint64_t seed) {
    const std::string name = spec.name;
    const std::size_t v = name.find('v');
    const std::string sides[2] = {name.substr(1, v - 1), name.substr(v + 2)};
    SplitMix64 rng(seed);
    std::set<std::string> seen;
    std::vector<std::string> out;
    while (int(out.size()) < spec.count) {
        const bool white_strong = out.size() % 2 == 0;
        char board[64];
        std::fill(board, board + 64, '.');
        const auto place = [&](char piece, bool pawn) {
            for (;;) {
                int sq = int(rng.below(64));
                if (pawn) {
                    const int file = spec.rook_pawns ? (rng.below(2) ? 7 : 0) : sq % 8;
                    sq = (1 + int(rng.below(6))) * 8 + file;
                }
                if (board[sq] == '.') {
                    board[sq] = piece;
                    return;
                }
            }
        };
        place(white_strong ? 'K' : 'k', false);
        place(white_strong ? 'k' : 'K', false);
        for (int s = 0; s < 2; ++s) {
            const bool white = (s == 0) == white_strong;
            for (char c : sides[s]) place(white ? c : char(c - 'A' + 'a'), c == 'P');
        }
        std::string fen;
        for (int r = 7; r >= 0; --r) {
            int empty = 0;
            for (int f = 0; f < 8; ++f) {
                const char c = board[r * 8 + f];
                if (c == '.') {
                    ++empty;
                    continue;
                }
                if (empty) fen += char('0' + empty), empty = 0;
                fen += c;
            }
            if (empty) fen += char('0' + empty);
            if (r) fen += '/';
        }
        fen += rng.below(2) ? " w - - 0 1" : " b - - 0 1";
        Position pos;
        if (!pos.set_fen(fen) || MoveList<LEGAL>(pos).size() == 0 || !seen.insert(fen).second) continue;
        out.push_back(fen);
    }
    return out;
}

}  // namespace

// QUINCE_MAKE_ENDINGS=FILE writes the set's positions, unlabelled: `FEN ; material ; children C|C|...`
// a line, C the FEN after each legal move, or `#` (checkmate) or `=` (stalemate). The prober answers for
// every position only when the side to move is the one its distance table holds; for the others the
// labeller takes the best of the children's verdicts.
TEST(EvalEndings, MakeTheSet) {
    const char* path = std::getenv("QUINCE_MAKE_ENDINGS");
    if (!path) GTEST_SKIP() << "QUINCE_MAKE_ENDINGS not set";
    std::ofstream out(path);
    // QUINCE_ENDINGS_SEED gives another set of the same materials (the held-out set: another seed).
    const char* seed_text = std::getenv("QUINCE_ENDINGS_SEED");
    std::uint64_t seed = seed_text ? std::stoull(seed_text) : 20240611;
    for (const MaterialSpec& spec : SET_MATERIALS)
        for (const std::string& fen : random_endings(spec, seed++)) {
            out << fen << " ; " << spec.name << (spec.rook_pawns ? " rook pawn" : "") << " ; children ";
            Position pos;
            pos.set_fen(fen);
            const char* sep = "";
            for (const ScoredMove& m : MoveList<LEGAL>(pos)) {
                pos.do_move(m.move);
                const bool stuck = MoveList<LEGAL>(pos).size() == 0;
                out << sep << (stuck ? (pos.in_check() ? "#" : "=") : pos.fen());
                pos.undo_move(m.move);
                sep = "|";
            }
            out << "\n";
        }
    ASSERT_TRUE(out.good()) << path;
}

// Endings that cannot be won score exactly 0 under every evaluation, the network's included.
TEST(EvalEndings, UnwinnableEndingsScoreZeroForEveryEvaluation) {
    const char* fens[] = {
        "8/8/8/8/8/8/8/KNN4k w - - 0 1",        // K+N+N v K
        "8/8/8/8/8/8/8/K6k w - - 0 1",          // bare kings
        "8/8/8/8/8/8/8/KN5k w - - 0 1",         // K+N v K
        "8/8/8/8/8/8/8/KB5k b - - 0 1",         // K+B v K
        "8/8/3k4/8/3b4/8/2N5/K7 w - - 0 1",     // K+N v K+B
        "8/8/3k4/3p4/8/8/2B5/K7 w - - 0 1",     // K+B v K+P: the bishop's side cannot win
        "8/8/8/8/8/2k5/P7/K7 w - - 0 1",        // K+P v K, a drawn rook pawn (table)
        "1k6/8/8/P7/8/8/8/K3B3 b - - 0 1",      // a-pawn, the wrong bishop, the king next to a8
    };
    for (const char* fen : fens) {
        const Position pos = test::from_fen(fen);
        for (const std::string& name : profile_names()) {
            Evaluator ev(name);
            EXPECT_EQ(ev.evaluate(pos), 0) << name << " " << fen;
            Trace t;
            EXPECT_EQ(ev.evaluate_traced(pos, t), 0) << name << " " << fen;
            EXPECT_EQ(ev.evaluate_general(pos), 0) << name << " " << fen;
        }
    }
}

// The rule and factor of each kind of ending, for the side the rule is about; colour-flipped the same.
TEST(EvalEndings, RulesByEnding) {
    struct Case {
        const char* fen;
        Color strong;
        Ending rule;
        int factor;
    } cases[] = {
        {"8/8/8/8/8/8/8/KNN4k w - - 0 1", WHITE, Ending::TwoKnights, 0},
        {"8/8/8/8/8/8/8/KNN4k w - - 0 1", BLACK, Ending::CannotWin, 0},
        {"8/8/8/8/8/8/p7/KNN4k w - - 0 1", WHITE, Ending::None, 128},  // K+N+N v K+P can be won
        {"8/8/3k4/8/3b4/8/2R5/K7 w - - 0 1", WHITE, Ending::PawnlessSmallEdge, SCALE_PAWNLESS_VS_MINOR},
        {"8/8/3k4/8/3n4/8/2R5/K7 w - - 0 1", WHITE, Ending::PawnlessSmallEdge, SCALE_PAWNLESS_VS_MINOR},
        {"8/8/3k4/8/3r4/8/2R5/K7 w - - 0 1", WHITE, Ending::PawnlessSmallEdge, SCALE_PAWNLESS_EVEN},
        {"8/8/3k4/8/3r4/8/2Q5/K7 w - - 0 1", WHITE, Ending::None, 128},  // K+Q v K+R is won
        {"8/8/3k4/8/8/8/2R5/K7 w - - 0 1", WHITE, Ending::None, 128},
        // Wrong bishop (dark, a8 light) and the defender's king next to a8: drawn; far from it: one pawn.
        {"1k6/8/8/P7/8/8/8/K3B3 w - - 0 1", WHITE, Ending::RookPawnsCorner, 0},
        {"8/8/8/P7/8/8/8/K3B2k w - - 0 1", WHITE, Ending::OnePawnSmallEdge, SCALE_ONE_PAWN},
        // The right bishop (light) wins even against the king in the corner.
        {"1k6/8/8/P7/8/8/8/K4B2 w - - 0 1", WHITE, Ending::OnePawnSmallEdge, SCALE_ONE_PAWN},
        // Two a-pawns, no bishop, king in the corner.
        {"k7/8/8/P7/P7/8/8/K7 w - - 0 1", WHITE, Ending::RookPawnsCorner, 0},
        // K+P v K: a draw and a win by the table.
        {"8/8/8/8/8/2k5/P7/K7 w - - 0 1", WHITE, Ending::KpkDraw, 0},
        {"8/8/8/8/8/8/4P3/4K2k w - - 0 1", WHITE, Ending::None, 128},
        // Opposite-coloured bishops: two pawns, none passed; one passed.
        {"8/5k2/4p3/3bP3/3P4/4B3/5K2/8 w - - 0 1", WHITE, Ending::OppositeBishops, SCALE_OPPOSITE_BISHOPS},
        {"8/5k2/8/3b4/3P4/4B3/5K2/8 w - - 0 1", WHITE, Ending::OppositeBishops,
         SCALE_OPPOSITE_BISHOPS + SCALE_OPPOSITE_BISHOPS_PASSER},
        // A lone pawn against a knight.
        {"8/5k2/8/3n4/3P4/8/5K2/8 w - - 0 1", WHITE, Ending::PawnAgainstPiece, SCALE_PAWN_AGAINST_PIECE},
        // Five pieces besides kings and pawns: no rule is looked at.
        {"8/8/3k4/2nb4/3r4/8/2RQ4/K7 w - - 0 1", WHITE, Ending::None, 128},
    };
    for (const Case& c : cases) {
        const Position pos = test::from_fen(c.fen);
        const EndingScale s = ending_scale(pos, c.strong);
        EXPECT_EQ(int(s.rule), int(c.rule)) << c.fen << ": " << ending_name(s.rule);
        EXPECT_EQ(s.factor, c.factor) << c.fen;
        const EndingScale f = ending_scale(pos.flipped(), ~c.strong);
        EXPECT_EQ(int(f.rule), int(c.rule)) << "flipped " << c.fen;
        EXPECT_EQ(f.factor, c.factor) << "flipped " << c.fen;
    }
}

// The scale applies to the side the score favours, truncating toward zero; `quince eval` says which
// rule applied, and the JSON's adjustments still add up to the final score.
TEST(EvalEndings, ScaleOfTheScoreAndItsTrace) {
    const Position pos = test::from_fen("8/8/3k4/8/3b4/8/2R5/K7 w - - 0 1");
    EXPECT_EQ(finish_score(pos, 400), 400 * SCALE_PAWNLESS_VS_MINOR / 128);
    EXPECT_EQ(finish_score(pos, -7), 0);  // favours Black, whose bishop cannot win: -7 * 0 / 128
    EXPECT_EQ(finish_score(pos, 0), 0);
    Evaluator ev("quince");
    Trace t;
    const Value v = ev.evaluate_traced(pos, t);
    EXPECT_EQ(v, t.final_cp);
    EXPECT_EQ(v, t.profile_cp * SCALE_PAWNLESS_VS_MINOR / 128);
    EXPECT_EQ(int(t.ending), int(Ending::PawnlessSmallEdge));
    EXPECT_NE(trace_text(pos, "quince").find("known ending: no pawn, a lead of at most a minor piece, scaled 16/128"),
              std::string::npos);
    // The tuner's coefficients rebuild the profile's own score: with them the scale is left out.
    CoefTrace coef;
    Trace tc;
    tc.coef = &coef;
    EXPECT_EQ(ev.evaluate_traced(pos, tc), t.profile_cp);
}

// The fifty-move counter damps every evaluation: x (200 - rule50) / 200, after the known-ending scale.
TEST(EvalEndings, FiftyMoveCounterDampsEveryEvaluation) {
    const std::string board = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - ";
    for (const std::string& name : profile_names()) {
        Evaluator ev(name);
        const Value fresh = ev.evaluate(test::from_fen(board + "0 8"));
        ASSERT_NE(fresh, 0) << name;
        EXPECT_EQ(ev.evaluate(test::from_fen(board + "50 8")), fresh * 150 / 200) << name;
        EXPECT_EQ(ev.evaluate(test::from_fen(board + "100 8")), fresh / 2) << name;
        Trace t;
        EXPECT_EQ(ev.evaluate_traced(test::from_fen(board + "50 8"), t), fresh * 150 / 200) << name;
    }
    // After the scale: K+R v K+B, 40 half-moves on.
    const Position pos = test::from_fen("8/8/3k4/8/3b4/8/2R5/K7 w - - 40 60");
    EXPECT_EQ(finish_score(pos, 400), 400 * SCALE_PAWNLESS_VS_MINOR / 128 * 160 / 200);
    EXPECT_NE(trace_text(pos, "quince").find("fifty-move counter 40: x (200 - 40) / 200"), std::string::npos);
}

// The sets of endings labelled by the Syzygy tables: a search of depth 12 scores at least 98 % of their
// drawn positions within half a pawn and 95 % of their won and lost ones beyond a pawn the right way, with
// the network (the default) and with a hand-crafted profile. endings-heldout.epd is a second set of the same
// materials made with another seed after the rules were written: positions the known-ending rules were not
// fitted to (at depth 6 some of its pawn endings are still misjudged: 185 of 190 draws). Without the
// known-ending scale K+N+N v K and K+R v K+minor scored as wins: 130 of 189 draws in endings.epd.
TEST(EvalEndings, SyzygyLabelledSetsAtDepth12) {
    for (const char* file : {"endings.epd", "endings-heldout.epd"})
        for (const char* profile : {"nnue", "quince"}) {
            const std::vector<Labelled> set = ending_set(file);
            ASSERT_GE(set.size(), 300u) << file;
            search::Engine engine;
            std::string error;
            const EvalPtr evaluation = builtin_evaluation(profile, &error);
            ASSERT_TRUE(evaluation) << error;
            engine.set_eval(evaluation);
            search::SearchOptions options;
            options.silent = true;
            search::Limits limits;
            limits.depth = 12;
            int draws = 0, draws_ok = 0, decided = 0, decided_ok = 0;
            std::string misses;
            for (const Labelled& l : set) {
                engine.new_game();
                const Value v = engine.search(test::from_fen(l.fen), limits, options).score;
                if (l.wdl == "draw") {
                    ++draws;
                    if (std::abs(v) <= 50) ++draws_ok;
                    else misses += "\n  " + l.fen + " (" + l.material + ", draw): " + std::to_string(v);
                } else {
                    ++decided;
                    if (l.wdl == "win" ? v > 100 : v < -100) ++decided_ok;
                }
            }
            EXPECT_GE(draws_ok * 100, draws * 98)
                << file << ", " << profile << ": " << draws_ok << " of " << draws << " draws within 50 cp:" << misses;
            EXPECT_GE(decided_ok * 100, decided * 95) << file << ", " << profile << ": " << decided_ok << " of "
                                                      << decided << " wins and losses beyond 100 cp";
        }
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
