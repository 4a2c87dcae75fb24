// The tests' evaluation profiles: one test profile per term group, derived from the group's line in
// eval/weight_list.h (`quince/GROUP`: the `quince` profile with the group switched on and its tunable
// weights at distinct values), so that every test walking the table (the tuner's coefficient rebuild and
// gradient check, the per-square trace) covers a new group without a line here; and hand-written starting
// values for some groups (values that differ from the `quince` profile's fitted ones, so that a rebuild is
// checked at a second point, or that switch a group on where a profile has it off) with named profiles
// built from them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "eval/profile.h"
#include "eval/weights.h"

namespace quince::test {

// Quince's first extras (eval/king.h, eval/threats.h, pieces2, mobility tables) at values that differ from
// the quince profile's fitted ones, so that a rebuild is checked at a second point.
inline void set_extras_start(eval::Weights& w) {
    w.king_safe_checks = true;
    w.king_check_unit_knight = 310, w.king_check_unit_bishop = 170, w.king_check_unit_rook = 420;
    w.king_check_unit_queen = 260;
    w.king_weak_unit = 90;
    w.pawn_blocked_op = 50, w.pawn_blocked_eg = 70;
    w.threats = true;  // and the threat terms
    w.threat_pawn_op = 1500, w.threat_pawn_eg = 900, w.threat_minor_op = 1100, w.threat_minor_eg = 700;
    w.threat_rook_op = 900, w.threat_rook_eg = 500, w.threat_hanging_op = 600, w.threat_hanging_eg = 400;
    w.pieces2 = true;  // and the minor and rook terms of pieces2 (tables: element by outpost kind, distance, closedness)
    w.outpost_knight_op = {300, 900, 200, 500}, w.outpost_knight_eg = {-400, 100, -300, 50};
    w.outpost_bishop_op = {400, 1200, 250, -100}, w.outpost_bishop_eg = {-300, -50, -200, -100};
    w.knight_behind_pawn_op = 100, w.knight_behind_pawn_eg = 800, w.bishop_behind_pawn_op = 120, w.bishop_behind_pawn_eg = 700;
    w.knight_far_from_kings_op = {-300, -400, -800, -1500}, w.knight_far_from_kings_eg = {-200, -600, -650, -600};
    w.bishop_rammed_pawns_op = -250, w.bishop_rammed_pawns_eg = -550;
    w.bishop_long_diagonal_op = 800, w.bishop_long_diagonal_eg = 600;
    for (int b = 0; b < 9; ++b) w.closed_knight_op[b] = 30 * b - 100, w.closed_knight_eg[b] = 60 * b - 200,
                                w.closed_rook_op[b] = 500 - 120 * b, w.closed_rook_eg[b] = 600 - 150 * b;
    w.mob_tables = true;  // and mobility by square count (element n of a table: a value, not a multiple of n)
    const auto table = [](auto& op, auto& eg, int k) {
        for (std::size_t n = 0; n < op.size(); ++n) op[n] = k * (int(12 * n) - int(n * n) / 3), eg[n] = k * (int(20 * n) - 60);
    };
    table(w.mob_knight_table_op, w.mob_knight_table_eg, 30), table(w.mob_bishop_table_op, w.mob_bishop_table_eg, 25);
    table(w.mob_rook_table_op, w.mob_rook_table_eg, 15), table(w.mob_queen_table_op, w.mob_queen_table_eg, 8);
}

// The second pawn group (switch pawns2: the pawn entry and eval/passers.h): Ethereal 12's order of magnitude,
// distinct per weight.
inline void set_pawns2_start(eval::Weights& w) {
    w.pawns2 = true;
    w.connected_op = {0, 40, 310, 470, 950, 1900, 3150, 0};
    w.connected_eg = {0, -170, 20, 180, 630, 1880, 3230, 0};
    w.backward_rank_op = {0, 230, 170, 90, 0, 0, 0, 0};
    w.backward_rank_eg = {0, 260, 210, 120, 30, 0, 0, 0};
    w.passed_stacked_op = -150, w.passed_stacked_eg = -420;
    w.passed_safe_path_op = -1500, w.passed_safe_path_eg = 1800;
    w.passed_rook_behind_op = 110, w.passed_rook_behind_eg = 640;
    w.passed_enemy_rook_behind_op = -90, w.passed_enemy_rook_behind_eg = -580;
}

// The endgame scaling (eval/scaling.h): Ethereal 12's values (complexity x 32, factors /128).
inline void set_scaling_start(eval::Weights& w) {
    w.complexity = true;
    w.complexity_pawns = 256, w.complexity_flanks = 2624, w.complexity_pawn_ending = 2432, w.complexity_adjust = -5024;
    w.scale_factors = true;
    w.scale_ocb_bishops = 64, w.scale_ocb_knight = 106, w.scale_ocb_rook = 96, w.scale_lone_queen = 88;
    w.scale_lone_minor = 0, w.scale_pawn_advantage = 144, w.scale_pawn_base = 96, w.scale_per_pawn = 8;
}

// The threats from double attacks (eval/threats.h): Ethereal 12's order of magnitude.
inline void set_threats2_start(eval::Weights& w) {
    w.threats2 = true;
    w.threat_weak_pawn_op = 352, w.threat_weak_pawn_eg = 1216;
    w.threat_minor_by_minor_op = 800, w.threat_minor_by_minor_eg = 1440;
    w.threat_minor_by_major_op = 960, w.threat_minor_by_major_eg = 1760;
    w.threat_minor_by_king_op = 1376, w.threat_minor_by_king_eg = 672;
    w.threat_rook_by_king_op = 1056, w.threat_rook_by_king_eg = 576;
    w.threat_queen_by_any_op = 1600, w.threat_queen_by_any_eg = 224;
    w.threat_overloaded_op = 224, w.threat_overloaded_eg = 512;
    w.threat_pawn_push_op = 480, w.threat_pawn_push_eg = 1024;
    w.threat_restricted_op = 224, w.threat_restricted_eg = 224;
}

// A term group switched on, each of its tunable weights (those whose `used` is the group's predicate) at a
// value drawn from a seed of the group's name: within [-1000, 1000] (or [0, 1000] for a weight that cannot be
// negative) and the weight's range. Its fixed weights keep the base's values.
inline void set_group_test_values(eval::Weights& w, const eval::GroupDesc& g) {
    *g.flag(w) = true;
    std::uint32_t seed = 2166136261u;
    for (const char* c = g.name; *c; ++c) seed = (seed ^ std::uint8_t(*c)) * 16777619u;
    std::mt19937 rng(seed);
    for (const eval::WeightDesc& d : eval::weight_descs()) {
        if (d.used != g.used || d.kind != eval::Kind::Int || d.role == eval::Role::Fixed) continue;
        for (int i = 0; i < d.count; ++i) {
            const int v = d.lo >= 0 ? int(rng() % 1001) : int(rng() % 2001) - 1000;
            d.ints(w)[i] = std::clamp(v, d.lo, d.hi);
        }
    }
}

// A named test profile: a built-in profile with groups switched on at their starting values, in order.
struct TestProfile {
    std::string name;
    std::string base;
    std::vector<std::function<void(eval::Weights&)>> groups;
};

inline const std::vector<TestProfile>& test_profiles() {
    static const std::vector<TestProfile> table = [] {
        std::vector<TestProfile> t = {
            {"rybka1+extras", "rybka1", {set_extras_start}},
            {"quince+extras+threats2", "quince", {set_extras_start, set_threats2_start}},
            {"quince+threats2", "quince", {set_threats2_start}},
            {"quince+pawns2", "quince", {set_pawns2_start}},
            {"quince+scaling", "quince", {set_scaling_start}},
        };
        for (const eval::GroupDesc& g : eval::group_descs())
            t.push_back({std::string("quince/") + g.name, "quince", {[g](eval::Weights& w) { set_group_test_values(w, g); }}});
        return t;
    }();
    return table;
}

// The weights of a test profile of the table, or of a built-in profile; throws on another name.
inline eval::Weights test_weights(const std::string& name) {
    for (const TestProfile& t : test_profiles()) {
        if (name != t.name) continue;
        eval::Weights w;
        if (!eval::builtin_weights(t.base, w)) throw std::invalid_argument("no built-in profile " + t.base);
        w.name = t.name;
        for (auto set : t.groups) set(w);
        return w;
    }
    eval::Weights w;
    if (!eval::builtin_weights(name, w)) throw std::invalid_argument("no test profile " + name);
    return w;
}

// A test profile of the table, or a built-in profile itself.
inline std::shared_ptr<const eval::Profile> test_profile(const std::string& name) {
    if (eval::find_profile(name)) return eval::find_profile_shared(name);
    return eval::build_profile(test_weights(name));
}

// The names of the table, in order.
inline std::vector<std::string> test_profile_names() {
    std::vector<std::string> out;
    for (const TestProfile& t : test_profiles()) out.push_back(t.name);
    return out;
}

}  // namespace quince::test
