// Weights as data: every profile prints, loads back and evaluates identically; every kind of
// malformed weight file is rejected with its file, line and weight named, and changes nothing.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>

#include "eval/evaluate.h"
#include "eval/weights.h"
#include "eval/profile.h"
#include "eval/terms.h"
#include "eval/trace.h"
#include "support/test_positions.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::eval;

namespace {

std::vector<Position> positions() {
    std::vector<Position> v = test::suite_positions("perft.epd");
    for (const Position& p : test::random_game_positions(77, 20, 600, 160)) v.push_back(p);
    return v;
}

std::vector<std::string> weight_profiles() {
    std::vector<std::string> v;
    for (const std::string& n : handcrafted_profile_names())
        if (!find_profile(n)->simple) v.push_back(n);
    return v;
}

// Parses `text`; on failure returns the error (and checks that `w` was left untouched).
std::string parse_error(const std::string& text) {
    Weights w = find_profile("fruit21")->w;
    const Weights before = w;
    std::string error;
    if (parse_weights(text, "test.txt", w, &error, builtin_weights)) return "";
    EXPECT_EQ(format_weights(w), format_weights(before)) << "a failed parse changed the weights";
    return error;
}

}  // namespace

TEST(EvalParams, RegistryCoversEveryWeightOnce) {
    std::set<std::string> names;
    for (const WeightDesc& d : weight_descs()) EXPECT_TRUE(names.insert(d.name).second) << d.name;
    // Flat numbering: consecutive, labels unique, get/set round trip.
    std::set<std::string> labels;
    Weights w = find_profile("rybka1")->w;
    for (int i = 0; i < weight_count(); ++i) {
        EXPECT_TRUE(labels.insert(weight_label(i)).second) << weight_label(i);
        const int v = get_weight(w, i);
        set_weight(w, i, v + 1);
        EXPECT_EQ(get_weight(w, i), v + 1);
        set_weight(w, i, v);
    }
    EXPECT_GT(weight_count(), 900);  // 12 PST tables of 64 and the rest
}

TEST(EvalParams, PrintLoadEvaluateIdenticalForEveryProfile) {
    const auto pos = positions();
    ASSERT_GT(pos.size(), 500u);
    for (const std::string& name : weight_profiles()) {
        const std::string text = format_weights(find_profile(name)->w);
        std::string error;
        auto loaded = profile_from_text(text, name + ".txt", &error);
        ASSERT_TRUE(loaded) << name << ": " << error;
        EXPECT_EQ(format_weights(loaded->w), text) << name;  // print -> load -> print is a fixed point
        Evaluator builtin(name), fromfile;
        fromfile.set_profile(loaded);
        for (const Position& p : pos) ASSERT_EQ(builtin.evaluate(p), fromfile.evaluate(p)) << name << " " << p.fen();
    }
}

TEST(EvalParams, BaseLineStartsFromABuiltInProfile) {
    auto p = profile_from_text("profile mine\nbase rybka232\ntempo 7  # comment\n\n", "mine.txt", nullptr);
    ASSERT_TRUE(p);
    Weights want = find_profile("rybka232")->w;
    want.name = "mine";
    want.tempo = 7;
    EXPECT_EQ(format_weights(p->w), format_weights(want));
}

TEST(EvalParams, MalformedFilesAreRejectedWithFileLineAndWeight) {
    const std::string ok = "profile t\nbase rybka1\n";
    EXPECT_EQ(parse_error(ok + "tempo 5\n"), "");
    EXPECT_EQ(parse_error(ok + "tempo_x 5\n"), "test.txt:3: unknown weight 'tempo_x'");
    EXPECT_EQ(parse_error(ok + "tempo 5 6\n"), "test.txt:3: weight 'tempo': expected 1 value, got 2");
    EXPECT_EQ(parse_error(ok + "passed_op 1 2 3\n"), "test.txt:3: weight 'passed_op': expected 8 values, got 3");
    EXPECT_EQ(parse_error(ok + "tempo five\n"), "test.txt:3: weight 'tempo': 'five' is not an integer");
    EXPECT_EQ(parse_error(ok + "tempo 5.5\n"), "test.txt:3: weight 'tempo': '5.5' is not an integer");
    EXPECT_EQ(parse_error(ok + "tempo 99999999999999999999\n"),
              "test.txt:3: weight 'tempo': '99999999999999999999' is not an integer");
    EXPECT_EQ(parse_error(ok + "tempo 201\n"), "test.txt:3: weight 'tempo': 201 is out of range [-200, 200]");
    EXPECT_EQ(parse_error(ok + "passed_op 0 0 0 0 0 0 0 100001\n"),
              "test.txt:3: weight 'passed_op' value 8: 100001 is out of range [-100000, 100000]");
    // A unit of material past 200 cp would put ordinary material above tablebase wins: refused.
    EXPECT_EQ(parse_error(ok + "pawn_unit 100000\n"), "test.txt:3: weight 'pawn_unit': 100000 is out of range [320, 6400]");
    EXPECT_EQ(parse_error(ok + "pawn_unit 6400\n"), "");
    EXPECT_EQ(parse_error(ok + "tempo\n"), "test.txt:3: weight 'tempo': expected 1 value, got 0");
    EXPECT_EQ(parse_error(ok + "tempo 1\ntempo 2\n"), "test.txt:4: weight 'tempo' given twice");
    EXPECT_EQ(parse_error(ok + "lazy_window yes\n"), "test.txt:3: weight 'lazy_window': expected true or false, got 'yes'");
    EXPECT_EQ(parse_error(ok + "phase_curve cubic\n"),
              "test.txt:3: weight 'phase_curve': expected one of linear, three-section, table, got 'cubic'");
    EXPECT_EQ(parse_error("profile t\nbase nothing\n"), "test.txt:2: unknown base profile 'nothing'");
    EXPECT_EQ(parse_error("profile t\ntempo 1\nbase rybka1\n"), "test.txt:3: 'base' must come once, before any weight");
    EXPECT_EQ(parse_error("base rybka1\ntempo 1\n"), "test.txt: no 'profile NAME' line");
    EXPECT_EQ(parse_error("profile a b\n"), "test.txt:1: 'profile' takes one name");
    // Without a base every used weight must be given.
    EXPECT_EQ(parse_error("profile t\ntempo 1\n"),
              "test.txt: weight 'pawn_unit' missing (give every weight, or start with 'base PROFILE')");
    // A table profile needs its tables; switching to tables in a generator base needs them too.
    const std::string full = format_weights(find_profile("rybka1")->w);
    EXPECT_EQ(parse_error(full), "");
    EXPECT_EQ(parse_error(ok + "pst_source table\n"), "");  // base gives the (zero) tables: allowed
    std::string no_tables = format_weights(find_profile("rybka232")->w);
    no_tables.erase(no_tables.find("pst_king_eg"), no_tables.find('\n', no_tables.find("pst_king_eg")) - no_tables.find("pst_king_eg"));
    EXPECT_EQ(parse_error(no_tables), "test.txt: weight 'pst_king_eg' missing (give every weight, or start with 'base PROFILE')");
    // Bytes that are not UTF-8 are shown escaped, so that the error line stays valid UTF-8.
    EXPECT_EQ(parse_error(ok + "tempo \xef\xbb\n"), "test.txt:3: weight 'tempo': '\\xEF\\xBB' is not an integer");
}

TEST(EvalParams, LoadProfileFileNamesMissingFiles) {
    std::string error;
    EXPECT_FALSE(load_profile_file("/nonexistent/dir/w.txt", &error));
    EXPECT_EQ(error, "cannot open weights file '/nonexistent/dir/w.txt'");
    const std::string path = testing::TempDir() + "quince_params_test.txt";
    {
        std::ofstream out(path);
        out << "profile file_test\nbase fruit21\nrook_open_op 777\n";
    }
    auto p = load_profile_file(path, &error);
    ASSERT_TRUE(p) << error;
    EXPECT_EQ(p->w.name, "file_test");
    EXPECT_EQ(p->w.rook_open_op, 777);
    EXPECT_EQ(p->w.rook_open_eg, find_profile("fruit21")->w.rook_open_eg);
    std::remove(path.c_str());
}

// EvalFile naming a device or a directory: /dev/zero used to be read without end (the 16 MB limit was
// checked only after reading everything), /dev/stdin would block the UCI loop.
TEST(EvalParams, LoadProfileFileRefusesDevicesAndDirectories) {
    for (const std::string& path : {std::string("/dev/zero"), std::string("/dev/null"), std::string("/")}) {
        std::string error;
        EXPECT_FALSE(load_profile_file(path, &error)) << path;
        EXPECT_EQ(error, "weights file '" + path + "' is not a regular file");
    }
    // A regular file over the limit is refused without being read to its end.
    const std::string big = testing::TempDir() + "quince_params_big.txt";
    {
        std::ofstream out(big, std::ios::binary);
        const std::string chunk(1 << 20, '#');
        for (int i = 0; i <= 16; ++i) out << chunk;
    }
    std::string error;
    EXPECT_FALSE(load_profile_file(big, &error));
    EXPECT_EQ(error, "weights file '" + big + "' is larger than 16 MB");
    std::remove(big.c_str());
}

// The compile-time handles (WI::name, from the weight list) and the run-time descriptors (from the same
// list) number the weights alike: a handle's field is the weight its flat index reads and writes.
TEST(WeightList, HandlesAndDescriptorsAgree) {
    EXPECT_EQ(weight_count(), WEIGHT_NB);
    Weights w{};
    const auto check = [&](const char* name, int element, int index, int* field) {
        const WeightDesc* d = find_weight(name);
        ASSERT_NE(d, nullptr) << name;
        EXPECT_EQ(weight_index(*d, element), index) << name;
        set_weight(w, index, 12345);
        EXPECT_EQ(*field, 12345) << name;
        set_weight(w, index, 0);
    };
    check("rook_open_op", 0, WI::rook_open.index, &(w.*WI::rook_open.op));
    check("rook_open_eg", 0, WI::rook_open.index + 1, &(w.*WI::rook_open.eg));
    check("tempo", 0, WI::tempo.index, &(w.*WI::tempo.field));
    check("unstoppable_passer", 5, WI::unstoppable_passer.index + 5, &(w.*WI::unstoppable_passer.field)[5]);
    check("passed_op", 3, WI::passed.index + 3, &(w.*WI::passed.op)[3]);
    check("passed_eg", 3, WI::passed.index + 8 + 3, &(w.*WI::passed.eg)[3]);
    check("pst_king_eg", 10, WI::pst_king.index + 64 + 10, &w.pst_table_eg[KING][10]);
    check("king_weak_unit", 0, WI::king_weak_unit.index, &(w.*WI::king_weak_unit.field));
    // Every descriptor's flat range follows the previous one's: the list's two expansions agree in size.
    int next = 0;
    for (const WeightDesc& d : weight_descs()) {
        if (d.kind != Kind::Int) continue;
        EXPECT_EQ(weight_index(d), next) << d.name;
        next += d.count;
    }
    EXPECT_EQ(next, WEIGHT_NB);
}

// A trace row is in a profile when one of the weights the list gives it is used and non-zero.
TEST(WeightList, TermInProfileFollowsTheListsTermColumn) {
    EXPECT_TRUE(term_in_profile(*find_profile("quince"), T_THREATS));
    EXPECT_FALSE(term_in_profile(*find_profile("rybka1"), T_THREATS));
    EXPECT_TRUE(term_in_profile(*find_profile("rybka232"), T_PAWN_MOBILITY));
    EXPECT_FALSE(term_in_profile(*find_profile("rybka1"), T_PAWN_MOBILITY));
    for (int t = 0; t < TERM_NB; ++t) EXPECT_FALSE(term_in_profile(*find_profile("simple"), Term(t)));
    for (Term t : {T_MATERIAL, T_IMBALANCE, T_PST_KNIGHT, T_PAWNS, T_MOBILITY, T_KING_ATTACK, T_SHELTER, T_ROOK_FILE,
                   T_SEVENTH, T_PASSERS, T_PATTERNS})
        EXPECT_TRUE(term_in_profile(*find_profile("rybka1"), t)) << TERM_NAMES[t];

    Weights w = find_profile("quince")->w;
    w.threats = false;  // threats2's weights still feed the row
    EXPECT_TRUE(term_in_profile(*build_profile(w), T_THREATS));
    w.threats2 = false;  // now every threat weight is unused: the row goes, whatever their values
    EXPECT_FALSE(term_in_profile(*build_profile(w), T_THREATS));
    // pawns2's weights feed the pawn-structure row: with Rybka's pawn weights all 0, the row is there only
    // when the switch is on.
    w = find_profile("rybka1")->w;
    w.doubled_op = w.doubled_eg = w.isolated_op = w.isolated_eg = w.isolated_open_op = w.isolated_open_eg = 0;
    w.backward_op = w.backward_eg = w.backward_open_op = w.backward_open_eg = 0;
    w.candidate_op.fill(0), w.candidate_eg.fill(0);
    w.connected_op[3] = 1;
    EXPECT_FALSE(term_in_profile(*build_profile(w), T_PAWNS));
    w.pawns2 = true;
    EXPECT_TRUE(term_in_profile(*build_profile(w), T_PAWNS));
    w = find_profile("rybka1")->w;
    w.rook_semi_open_op = w.rook_semi_open_eg = w.rook_open_op = w.rook_open_eg = 0;
    w.rook_king_zone_op = w.rook_king_file_op = 0;
    EXPECT_FALSE(term_in_profile(*build_profile(w), T_ROOK_FILE));
    w.rook_open_eg = 1;
    EXPECT_TRUE(term_in_profile(*build_profile(w), T_ROOK_FILE));
    w = find_profile("rybka1")->w;
    w.king_attack_weight.fill(0);  // a product: units without weights by count add nothing
    EXPECT_FALSE(term_in_profile(*build_profile(w), T_KING_ATTACK));
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
