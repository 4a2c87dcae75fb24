// The evaluation with every switch on, against values recorded from the code as it was (tests/data/
// eval_recorded.txt): a change meant to make the evaluation cheaper must leave every score, every trace
// row, every tuner coefficient and every square of the picture as they were. One line per position of
// the shared test set: the score of each test profile, then a hash of everything the traced evaluations
// of all of them report.
//
// To record anew after a change that is meant to change values (and only then):
//   QUINCE_RECORD_EVAL=tests/data/eval_recorded.txt build/quince_tests --gtest_filter='EvalRecorded.*'
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>

#include "eval/evaluate.h"
#include "eval/profile.h"
#include "eval/terms.h"
#include "eval/weights.h"
#include "support/test_positions.h"
#include "support/test_profiles.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

// quince's weights with every switch on; the groups get their tests' starting values, and the pieces2 and
// threats2 weights distinct values from a fixed seed (every sub-term shows).
Weights all_switches() {
    Weights w = find_profile("quince")->w;
    for (const WeightDesc& d : weight_descs())
        if (d.kind == Kind::Bool) *d.flag(w) = true;
    test::set_threats2_start(w);
    test::set_pawns2_start(w);
    test::set_scaling_start(w);
    std::mt19937 rng(20261127);
    for (const WeightDesc& d : weight_descs())
        if (d.kind == Kind::Int && (std::strcmp(d.group, "pieces2") == 0 || std::strcmp(d.group, "threats2") == 0))
            for (int i = 0; i < d.count; ++i) d.ints(w)[i] = int(rng() % 2001) - 1000;
    w.name = "all";
    return w;
}

// quince's switches and values but for pieces2 and threats2, whose weights get the distinct values above.
Weights quince_with_new_groups() {
    Weights w = all_switches();
    Weights q = find_profile("quince")->w;
    for (const WeightDesc& d : weight_descs()) {
        if (std::strcmp(d.group, "pieces2") == 0 || std::strcmp(d.group, "threats2") == 0) continue;
        if (d.kind == Kind::Bool) *d.flag(w) = *d.flag(q);
        else if (d.kind == Kind::Int)
            for (int i = 0; i < d.count; ++i) d.ints(w)[i] = d.ints(q)[i];
        else if (d.kind == Kind::Enum) d.set_enum(w, d.get_enum(q));
    }
    w.name = "quince-new-groups";
    return w;
}

struct Fnv {
    std::uint64_t h = 1469598103934665603ULL;
    void bytes(const void* p, std::size_t n) {
        const auto* b = static_cast<const unsigned char*>(p);
        for (std::size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ULL;
    }
    void i(long long v) { bytes(&v, sizeof v); }
};

// Everything one traced evaluation reports, fields by name (no struct padding).
void hash_trace(Fnv& f, const Trace& t, const CoefTrace& ct, const SquareTrace& sq) {
    f.bytes(t.v, sizeof t.v);
    for (int v : {t.op_before_scale, t.eg_before_scale, t.op, t.eg, t.white_cp, t.final_cp, t.drawish_cp,
                  t.complexity_eg, t.scale})
        f.i(v);
    for (bool v : {t.lazy, t.ocb, t.ocb_after, t.known_draw}) f.i(v);
    for (Color c : {WHITE, BLACK}) {
        f.bytes(ct.c[c].data(), ct.c[c].size() * sizeof(double));
        f.i(ct.king_attack[c].on), f.i(ct.king_attack[c].count);
        for (int n : ct.king_attack[c].n) f.i(n);
        f.i(ct.drawish[c]), f.i(ct.scaling.factor[c]);
    }
    f.i(ct.scaling.complexity), f.i(ct.scaling.scaled);
    for (int n : ct.scaling.n) f.i(n);
    f.bytes(sq.v, sizeof sq.v);
    f.i((long long)sq.passers);
}

}  // namespace

TEST(EvalRecorded, EverySwitchOnGivesTheRecordedValues) {
    const std::vector<Position> positions = test::eval_test_positions();
    ASSERT_GT(positions.size(), 3000u);
    std::vector<std::unique_ptr<Evaluator>> evs;
    for (const Weights& w : {all_switches(), quince_with_new_groups()}) {
        evs.push_back(std::make_unique<Evaluator>());
        const auto prof = build_profile(w);
        ASSERT_EQ(prof->path, Path::General) << w.name;
        evs.back()->set_profile(prof);
    }
    std::vector<std::string> lines;
    for (const Position& pos : positions) {
        std::ostringstream line;
        Fnv f;
        for (auto& ev : evs) {
            const Value v = ev->evaluate(pos);
            // The traced evaluation (coefficients and picture) and the general path untraced must agree with it.
            CoefTrace ct;
            SquareTrace sq;
            Trace t;
            t.coef = &ct, t.squares = &sq;
            // With the coefficients the traced evaluation gives the profile's own score, before the
            // known-ending scale.
            EXPECT_EQ(finish_score(pos, ev->evaluate_traced(pos, t)), v) << pos.fen();
            EXPECT_EQ(ev->evaluate_general(pos), v) << pos.fen();
            hash_trace(f, t, ct, sq);
            line << v << ' ';
        }
        char hex[20];
        std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)f.h);
        line << hex;
        lines.push_back(line.str());
    }

    if (const char* out = std::getenv("QUINCE_RECORD_EVAL")) {
        std::ofstream file(out);
        for (const std::string& l : lines) file << l << '\n';
        GTEST_SKIP() << "recorded " << lines.size() << " positions to " << out;
    }
    std::ifstream in(std::string(QUINCE_TEST_DATA_DIR) + "/eval_recorded.txt");
    ASSERT_TRUE(in) << "tests/data/eval_recorded.txt is missing";
    std::vector<std::string> recorded;
    for (std::string l; std::getline(in, l);) recorded.push_back(l);
    ASSERT_EQ(recorded.size(), lines.size()) << "the position set changed: record anew (see the file's head)";
    int differ = 0;
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (lines[i] != recorded[i] && ++differ <= 10)
            ADD_FAILURE() << positions[i].fen() << ": scores and hash " << lines[i] << ", recorded " << recorded[i];
    EXPECT_EQ(differ, 0);
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
