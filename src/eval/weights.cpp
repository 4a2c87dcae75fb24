// The weight registry and the profile file format (see weights.h). Every field of Weights appears
// here once, in the order of the seeds' sections; the docs are the files' comments.
#include "eval/weights.h"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <sstream>

#include "core/text.h"
#include "core/types.h"

namespace quince::eval {

namespace {

bool always(const Weights&) { return true; }
bool generator_pst(const Weights& w) { return w.pst_source == PstSource::Generator; }
bool table_pst(const Weights& w) { return w.pst_source == PstSource::Table; }
bool table_phase(const Weights& w) { return w.phase_curve == PhaseCurve::Table; }
bool safe_checks(const Weights& w) { return w.king_safe_checks; }
bool pawn_ending(const Weights& w) { return w.pawn_ending_evaluator; }
bool threats(const Weights& w) { return w.threats; }
bool king_danger(const Weights& w) { return w.king_danger; }

// The value the fast path fixes for every element of d (eval/profile.h Path): a profile with any other
// value runs the general path.
WeightDesc fast_path(WeightDesc d, int value) {
    d.fast = value;
    return d;
}

constexpr int W = 100000;  // bound of a weight in internal units (about 31 pawns): sums stay far from overflow
// One unit of material from 10 to 200 centipawns (internal units are 1/32 cp). At 200 cp the largest
// material difference of a legal position (112 units: nine queens, two rooks, bishops and knights against
// a bare king) is 22,400 cp, below the tablebase and mate scores; a larger unit would make ordinary
// material gains outrank proven wins and overflow the phase interpolation.
constexpr int PAWN_UNIT_MIN = 320, PAWN_UNIT_MAX = 6400;

#define QI(field, group, role, lo, hi, used, doc)                                                          \
    WeightDesc{#field, group, Kind::Int, 1, Role::role, lo, hi, [](Weights& w) { return &w.field; }, nullptr, \
              {}, nullptr, nullptr, used, doc}
#define QA(field, group, role, lo, hi, used, doc)                                                              \
    WeightDesc{#field, group, Kind::Int, int(std::tuple_size<decltype(Weights::field)>::value), Role::role, lo, \
              hi, [](Weights& w) { return w.field.data(); }, nullptr, {}, nullptr, nullptr, used, doc}
#define QB(field, group, doc)                                                                                \
    WeightDesc{#field, group, Kind::Bool, 1, Role::Fixed, 0, 1, nullptr, [](Weights& w) { return &w.field; }, \
              {}, nullptr, nullptr, always, doc}
#define QT(name, table, pt, group, role, doc)                                                                  \
    WeightDesc{name, group, Kind::Int, 64, Role::role, -W, W, [](Weights& w) { return w.table[pt].data(); }, \
              nullptr, {}, nullptr, nullptr, table_pst, doc}

std::vector<WeightDesc> make_descs() {
    std::vector<WeightDesc> d = {
        // ---- Material (§1, §2) ----
        QI(pawn_unit, "material", Both, PAWN_UNIT_MIN, PAWN_UNIT_MAX, always, "value of one unit of D = 10dQ + 5dR + 3dB + 3dN + dP (§1)"),
        fast_path(QI(pawn_endgame_extra, "material", Eg, -W, W, always, "endgame only, per pawn of the difference (Fruit 80/90 cp)"), 0),
        QI(knight_extra, "imbalance", Both, -W, W, always, "mat_value: knight = 3 units + this (§2.3)"),
        QI(bishop_extra, "imbalance", Both, -W, W, always, "mat_value: bishop = 3 units + this"),
        QI(rook_extra, "imbalance", Both, -W, W, always, "mat_value: rook = 5 units + this"),
        QI(queen_extra, "imbalance", Both, -W, W, always, "mat_value: queen = 10 units + this"),
        QI(bishop_pair, "imbalance", Both, -W, W, always, "mat_value: two bishops"),
        QI(knight_pawn_adjust, "imbalance", Both, -W, W, always, "per knight, per own pawn above knight_pawn_base"),
        QI(rook_pawn_adjust, "imbalance", Both, -W, W, always, "per rook, per own pawn above rook_pawn_base"),
        QI(knight_pawn_base, "imbalance", Fixed, 0, 8, always, "pawn count where knight_pawn_adjust is zero"),
        QI(rook_pawn_base, "imbalance", Fixed, 0, 8, always, "pawn count where rook_pawn_adjust is zero"),
        QI(rook_redundancy, "imbalance", Both, -W, W, always, "per rook beyond the first"),
        QI(queen_rook_redundancy, "imbalance", Both, -W, W, always, "queen together with at least one rook"),
        QI(mat_value_limit, "imbalance", Fixed, 0, 1 << 30, always, "0 = int32 mat_value (1.0); 32767 = 2.3.2a's int16 table (§2.5)"),
        // ---- Phase (§3) ----
        QI(phase_minor, "phase", Fixed, 0, 16, always, "Fruit's KnightPhase = BishopPhase (§3.1)"),
        QI(phase_rook, "phase", Fixed, 0, 16, always, "RookPhase"),
        QI(phase_queen, "phase", Fixed, 0, 16, always, "QueenPhase"),
        QI(phase_total, "phase", Fixed, 1, 64, always, "TotalPhase"),
        WeightDesc{"phase_curve", "phase", Kind::Enum, 1, Role::Fixed, 0, 2, nullptr, nullptr,
                  {"linear", "three-section", "table"},
                  [](const Weights& w) { return int(w.phase_curve); },
                  [](Weights& w, int v) { w.phase_curve = PhaseCurve(v); }, always,
                  "W[65][2]: linear (§3.2), the three-section shape guess for 1.0, or phase_table_eg"},
        QA(phase_table_eg, "phase", PhaseEg, 0, 256, table_phase, "W[phase][1] for phase 0..64 (W[phase][0] = 256 - it)"),
        // ---- Piece-square tables (§4) ----
        WeightDesc{"pst_source", "pst", Kind::Enum, 1, Role::Fixed, 0, 1, nullptr, nullptr, {"generator", "table"},
                  [](const Weights& w) { return int(w.pst_source); },
                  [](Weights& w, int v) { w.pst_source = PstSource(v); }, always,
                  "generator: Fruit's shapes x the weights below (§4.1); table: the pst_* arrays"},
        QI(pawn_file_opening, "pst", Op, -W, W, generator_pst, "PawnFile[f] x this (§4.1)"),
        QI(pawn_file_endgame, "pst", Eg, -W, W, generator_pst, "PawnFile[f] x this"),
        QI(pawn_centre_d5e5_opening, "pst", Op, -W, W, generator_pst, "pawn on d5/e5"),
        QI(pawn_centre_d3e3_opening, "pst", Op, -W, W, generator_pst, "pawn on d3/e3 (Fruit; 0 in Rybka)"),
        QI(pawn_centre_d4e4_opening, "pst", Op, -W, W, generator_pst, "pawn on d4/e4 (Fruit; 0 in Rybka)"),
        QI(knight_centre_opening, "pst", Op, -W, W, generator_pst, "(KnightLine[f] + KnightLine[r]) x this"),
        QI(knight_centre_endgame, "pst", Eg, -W, W, generator_pst, ""),
        QI(knight_rank_opening, "pst", Op, -W, W, generator_pst, "KnightRank[r] x this"),
        QI(knight_back_rank_opening, "pst", Op, -W, W, generator_pst, "knight on the first rank"),
        QI(knight_trapped, "pst", Op, -W, W, generator_pst, "knight on a8/h8"),
        QI(bishop_centre_opening, "pst", Op, -W, W, generator_pst, "(BishopLine[f] + BishopLine[r]) x this"),
        QI(bishop_centre_endgame, "pst", Eg, -W, W, generator_pst, ""),
        QI(bishop_back_rank_opening, "pst", Op, -W, W, generator_pst, "bishop on the first rank"),
        QI(bishop_diagonal_opening, "pst", Op, -W, W, generator_pst, "bishop on a long diagonal"),
        QI(rook_file_opening, "pst", Op, -W, W, generator_pst, "RookFile[f] x this"),
        QI(queen_centre_opening, "pst", Op, -W, W, generator_pst, "(QueenLine[f] + QueenLine[r]) x this"),
        QI(queen_centre_endgame, "pst", Eg, -W, W, generator_pst, ""),
        QI(queen_back_rank_opening, "pst", Op, -W, W, generator_pst, "queen on the first rank"),
        QI(king_centre_endgame, "pst", Eg, -W, W, generator_pst, "(KingLine[f] + KingLine[r]) x this"),
        QI(king_file_opening, "pst", Op, -W, W, generator_pst, "KingFile[f] x this"),
        QI(king_rank_opening, "pst", Op, -W, W, generator_pst, "KingRank[r] x this"),
        QT("pst_pawn_op", pst_table_op, PAWN, "pst", Op, "a1..h1, a2..h2, ..., a8..h8 (White's view)"),
        QT("pst_pawn_eg", pst_table_eg, PAWN, "pst", Eg, ""),
        QT("pst_knight_op", pst_table_op, KNIGHT, "pst", Op, ""),
        QT("pst_knight_eg", pst_table_eg, KNIGHT, "pst", Eg, ""),
        QT("pst_bishop_op", pst_table_op, BISHOP, "pst", Op, ""),
        QT("pst_bishop_eg", pst_table_eg, BISHOP, "pst", Eg, ""),
        QT("pst_rook_op", pst_table_op, ROOK, "pst", Op, ""),
        QT("pst_rook_eg", pst_table_eg, ROOK, "pst", Eg, ""),
        QT("pst_queen_op", pst_table_op, QUEEN, "pst", Op, ""),
        QT("pst_queen_eg", pst_table_eg, QUEEN, "pst", Eg, ""),
        QT("pst_king_op", pst_table_op, KING, "pst", Op, ""),
        QT("pst_king_eg", pst_table_eg, KING, "pst", Eg, ""),
        // ---- Pawn structure (§5.3) ----
        QI(doubled_op, "pawns", Op, -W, W, always, "penalty per pawn with an own pawn in front"),
        QI(doubled_eg, "pawns", Eg, -W, W, always, ""),
        QI(isolated_open_op, "pawns", Op, -W, W, always, "isolated, no pawn in front (open)"),
        QI(isolated_op, "pawns", Op, -W, W, always, "isolated, closed"),
        QI(isolated_open_eg, "pawns", Eg, -W, W, always, ""),
        QI(isolated_eg, "pawns", Eg, -W, W, always, ""),
        QI(backward_open_op, "pawns", Op, -W, W, always, "backward (Rybka's rule, §5.2), open"),
        QI(backward_op, "pawns", Op, -W, W, always, ""),
        QI(backward_open_eg, "pawns", Eg, -W, W, always, ""),
        QI(backward_eg, "pawns", Eg, -W, W, always, ""),
        QA(candidate_op, "pawns", Op, -W, W, always, "candidate passer by relative rank 1..8 (1.0: RybkaQuad(0, 3763))"),
        QA(candidate_eg, "pawns", Eg, -W, W, always, "(1.0: RybkaQuad(18, 1626))"),
        fast_path(QB(passer_base_in_pawn_entry, "pawns", "2.3.2a: passed_op/eg scored in the pawn entry, frontmost pawn (§5.3)"), 0),
        fast_path(QI(pawn_blocked_op, "pawns", Op, -W, W, always, "2.3.2a pawn anti-mobility: per pawn whose push square is occupied (§13.1)"), 0),
        fast_path(QI(pawn_blocked_eg, "pawns", Eg, -W, W, always, ""), 0),
        fast_path(QA(drawish_by_files, "drawish", Fixed, 0, 255, always, "2.3.2a drawishness byte by pawn files among b..g: 0..6 (§13.2)"), 0),
        QI(drawish_mul, "drawish", Fixed, 0, 1000, always, "k = byte * mul / div"),
        QI(drawish_div, "drawish", Fixed, 1, 1000, always, ""),
        QI(drawish_cap, "drawish", Fixed, 0, 10000, always, "s -= (min(s, cap) * k) >> 8"),
        // ---- King shelter and storm (§7.2) ----
        QA(shelter_value, "shelter", Op, 0, 16000, always, "per file by own pawn: none, rank 2..5 (2x on the king's file)"),
        QA(storm_value, "shelter", Op, 0, 21000, always, "per file by enemy pawn: none, rank 2..5"),
        QI(weak_back_rank, "shelter", Op, 0, 65535, always, "shelter when the three pawns are all on rank 2"),
        fast_path(QB(shelter_castling, "shelter", "1.0: average with the best wing the king may castle to; off: own wing only"), 1),
        // ---- King attack (§7.1) ----
        QI(king_attack_unit_knight, "king_attack", KingAttackUnit, 0, 10000, always, "attack units per piece reaching the king zone"),
        QI(king_attack_unit_bishop, "king_attack", KingAttackUnit, 0, 10000, always, ""),
        QI(king_attack_unit_rook, "king_attack", KingAttackUnit, 0, 10000, always, ""),
        QI(king_attack_unit_queen, "king_attack", KingAttackUnit, 0, 10000, always, ""),
        // The tuner reads the KING_ATTACK_UNITS unit weights as one run: the four above, then these five.
        QI(king_check_unit_knight, "king_attack", KingAttackUnit, 0, 10000, safe_checks, "attack units per safe checking square (Quince)"),
        QI(king_check_unit_bishop, "king_attack", KingAttackUnit, 0, 10000, safe_checks, ""),
        QI(king_check_unit_rook, "king_attack", KingAttackUnit, 0, 10000, safe_checks, ""),
        QI(king_check_unit_queen, "king_attack", KingAttackUnit, 0, 10000, safe_checks, ""),
        QI(king_weak_unit, "king_attack", KingAttackUnit, 0, 10000, safe_checks, "attack units per king-zone square covered only by the defender's king or queen (Quince)"),
        QA(king_attack_weight, "king_attack", KingAttackWeight, -1024, 1024, always, "by attacker count 0..15: (weight[n] * units) >> 5"),
        fast_path(QB(king_attack_pawns, "king_attack", "pawns count as one attacker (Rybka; Fruit: no)"), 1),
        fast_path(QB(king_safe_checks, "king_attack", "Quince: safe checking squares add king_check_unit_* units (not in the seeds)"), 0),
        // ---- King danger (Quince: Ethereal 12 / Stockfish form, not in the seeds) ----
        // The tuner reads the KING_DANGER_WEIGHTS count weights as one run, then king_danger_eg.
        fast_path(QB(king_danger, "king_danger", "Quince: the danger count below replaces the king attack (not in the seeds)"), 0),
        QI(king_danger_attacker_knight, "king_danger", KingDanger, -W, W, king_danger, "x attackers, per knight reaching the zone (king ring + one rank forward)"),
        QI(king_danger_attacker_bishop, "king_danger", KingDanger, -W, W, king_danger, ""),
        QI(king_danger_attacker_rook, "king_danger", KingDanger, -W, W, king_danger, ""),
        QI(king_danger_attacker_queen, "king_danger", KingDanger, -W, W, king_danger, ""),
        QI(king_danger_zone_attack, "king_danger", KingDanger, -W, W, king_danger, "per attack of a piece on a zone square"),
        QI(king_danger_weak, "king_danger", KingDanger, -W, W, king_danger, "per weak zone square"),
        QI(king_danger_pawn, "king_danger", KingDanger, -W, W, king_danger, "per defending pawn in the zone, not on a weak square"),
        QI(king_danger_shelter, "king_danger", KingDanger, -W, W, king_danger, "per centipawn of the defender's shelter/storm penalty"),
        QI(king_danger_no_queen, "king_danger", KingDanger, -W, W, king_danger, "the attacker has no queen"),
        QI(king_danger_check_knight, "king_danger", KingDanger, -W, W, king_danger, "per safe checking square of a knight"),
        QI(king_danger_check_bishop, "king_danger", KingDanger, -W, W, king_danger, ""),
        QI(king_danger_check_rook, "king_danger", KingDanger, -W, W, king_danger, ""),
        QI(king_danger_check_queen, "king_danger", KingDanger, -W, W, king_danger, ""),
        QI(king_danger_adjust, "king_danger", KingDanger, -W, W, king_danger, "constant"),
        QI(king_danger_eg, "king_danger", KingDangerEg, -10000, 10000, king_danger, "endgame part: count * this / 512 (opening: count^2 / 2048)"),
        // ---- Threats (Quince, not in the seeds) ----
        fast_path(QB(threats, "threats", "Quince: pieces attacked by lesser pieces and hanging pieces (not in the seeds)"), 0),
        QI(threat_pawn_op, "threats", Op, -W, W, threats, "per enemy knight, bishop, rook or queen attacked by a pawn"),
        QI(threat_pawn_eg, "threats", Eg, -W, W, threats, ""),
        QI(threat_minor_op, "threats", Op, -W, W, threats, "per enemy rook or queen attacked by a knight or bishop"),
        QI(threat_minor_eg, "threats", Eg, -W, W, threats, ""),
        QI(threat_rook_op, "threats", Op, -W, W, threats, "per enemy queen attacked by a rook"),
        QI(threat_rook_eg, "threats", Eg, -W, W, threats, ""),
        QI(threat_hanging_op, "threats", Op, -W, W, threats, "per enemy piece (not pawn or king) attacked and not defended"),
        QI(threat_hanging_eg, "threats", Eg, -W, W, threats, ""),
        // ---- Mobility (§8) ----
        QI(mob_knight_op, "mobility", Op, -W, W, always, "per attacked square not occupied by an own piece"),
        QI(mob_knight_eg, "mobility", Eg, -W, W, always, ""),
        QI(mob_bishop_op, "mobility", Op, -W, W, always, ""),
        QI(mob_bishop_eg, "mobility", Eg, -W, W, always, ""),
        QI(mob_rook_op, "mobility", Op, -W, W, always, ""),
        QI(mob_rook_eg, "mobility", Eg, -W, W, always, ""),
        QI(mob_queen_op, "mobility", Op, -W, W, always, ""),
        QI(mob_queen_eg, "mobility", Eg, -W, W, always, ""),
        fast_path(QI(mob_knight_offset, "mobility", Fixed, 0, 27, always, "subtracted from the square count (Fruit's units; 0 in Rybka)"), 0),
        fast_path(QI(mob_bishop_offset, "mobility", Fixed, 0, 27, always, ""), 0),
        fast_path(QI(mob_rook_offset, "mobility", Fixed, 0, 27, always, ""), 0),
        fast_path(QI(mob_queen_offset, "mobility", Fixed, 0, 27, always, ""), 0),
        // ---- Rooks and queens (§9) ----
        fast_path(QB(rook_file_whole, "rooks", "Fruit: pawns on the whole file count (Rybka: in front of the rook)"), 0),
        fast_path(QI(rook_file_base_op, "rooks", Op, -W, W, always, "every rook (Fruit: -RookOpenFile/2)"), 0),
        fast_path(QI(rook_file_base_eg, "rooks", Eg, -W, W, always, ""), 0),
        QI(rook_semi_open_op, "rooks", Op, -W, W, always, "no own pawn on the file"),
        QI(rook_semi_open_eg, "rooks", Eg, -W, W, always, ""),
        QI(rook_open_op, "rooks", Op, -W, W, always, "increment: no enemy pawn either"),
        QI(rook_open_eg, "rooks", Eg, -W, W, always, ""),
        QI(rook_king_zone_op, "rooks", Op, -W, W, always, "(semi-)open file meets the enemy king zone"),
        QI(rook_king_file_op, "rooks", Op, -W, W, always, "increment: the enemy king on that file"),
        fast_path(QB(rook_king_needs_flag, "rooks", "king-file bonuses only with the king-safety flag (1.0)"), 1),
        fast_path(QB(rook_king_file_needs_zone, "rooks", "king-file bonus nested in the zone test (1.0)"), 1),
        fast_path(QB(seventh_king_on_seventh, "rooks", "2.3.2a: the enemy king on the 7th also makes the 7th rank count"), 0),
        QI(rook_seventh_op, "rooks", Op, -W, W, always, "rook on the 7th with an enemy pawn there or the king on the 8th"),
        QI(rook_seventh_eg, "rooks", Eg, -W, W, always, ""),
        QI(queen_seventh_op, "rooks", Op, -W, W, always, "queen on the 7th, same condition"),
        QI(queen_seventh_eg, "rooks", Eg, -W, W, always, ""),
        // ---- Passed pawns (§10), by relative rank 1..8 ----
        QA(passed_op, "passers", Op, -W, W, always, "base bonus (1.0: RybkaQuad(0, 4821))"),
        QA(passed_eg, "passers", Eg, -W, W, always, "(1.0: RybkaQuad(146, 2020))"),
        QA(unblocked_own, "passers", Eg, -W, W, always, "no own piece on the path (1.0: RybkaQuad(0, 262))"),
        QA(unblocked_opp, "passers", Eg, -W, W, always, "no enemy piece on the path (1.0: RybkaQuad(0, 1311))"),
        QA(passed_free, "passers", Eg, -W, W, always, "path not attacked by the enemy more than defended (1.0: RybkaQuad(0, 1000))"),
        QA(att_distance, "passers", Eg, -W, W, always, "times own king's distance to the stop square, subtracted"),
        QA(def_distance, "passers", Eg, -W, W, always, "times enemy king's distance to the stop square"),
        QA(unstoppable_passer, "passers", Eg, 0, W, always, "unstoppable or king-escorted passer, defender without pieces"),
        fast_path(QB(unstoppable_pure_pawn_ending, "passers", "2.3.2a: only when neither side has pieces (§13.3)"), 0),
        // ---- 2.3.2a pawn-ending evaluator (§13.3) ----
        fast_path(QB(pawn_ending_evaluator, "pawn_ending", "2.3.2a: kings and pawns only: KPK table, passer race, key squares (§13.3)"), 0),
        QI(pawn_ending_kpk_win, "pawn_ending", Eg, 0, W, pawn_ending, "K+P v K that the table wins (a drawn one scores 0)"),
        QA(key_square_passer, "pawn_ending", Eg, 0, W, pawn_ending, "own king on a key square of the passer, by relative rank"),
        QA(protected_passer, "pawn_ending", Eg, 0, W, pawn_ending, "passer defended by an own pawn, by relative rank"),
        QI(outside_passer, "pawn_ending", Eg, 0, W, pawn_ending, "per file beyond one between the passer and the nearest enemy pawn (max 3)"),
        // ---- Patterns (§11) ----
        QI(trapped_bishop_op, "patterns", Op, -W, W, always, "bishop on a7/b8 (h7/g8) shut in by a pawn"),
        QI(trapped_bishop_eg, "patterns", Eg, -W, W, always, ""),
        QI(trapped_bishop_6th_op, "patterns", Op, -W, W, always, "per-bishop mode: a6/h6 shut in by b5/g5"),
        QI(trapped_bishop_6th_eg, "patterns", Eg, -W, W, always, ""),
        fast_path(QB(trapped_bishop_per_bishop, "patterns", "2.3.2a / Fruit: every trapped bishop (1.0: once)"), 0),
        QI(blocked_bishop_op, "patterns", Op, -W, W, always, "c1/f1 bishop behind d2/e2 pawn with d3/e3 occupied"),
        QI(blocked_rook_op, "patterns", Op, -W, W, always, "rook shut in by the uncastled king"),
        // ---- Final (§1, §12) ----
        QI(tempo, "tempo", Cp, -200, 200, always, "centipawns for the side to move, after interpolation"),
        QI(lazy_margin, "lazy", Fixed, 0, 1000, always, "pawn units of D around the lazy window (§12.3)"),
        fast_path(QB(lazy_window, "lazy", "root-window lazy evaluation of 1.0 (§12.3)"), 1),
        QB(ocb_halving, "final", "opposite-coloured bishops halve the score (§12.1)"),
        fast_path(QB(ocb_after_interpolation, "final", "2.3.2a / Fruit: halve the interpolated score (1.0: op and eg)"), 0),
        QB(ocb_pawn_wrap, "final", "2.3.2a: the 3-bit pawn field also accepts |WP - BP| >= 6"),
    };
    return d;
}

#undef QI
#undef QA
#undef QB
#undef QT

// The descriptors and the flat numbering of their integers (the tuner's vector), built once.
struct WeightIndex {
    std::vector<WeightDesc> descs = make_descs();
    std::vector<int> first;  // flat index of each descriptor's first element (-1: not Kind::Int)
    std::vector<std::pair<int, int>> of_index;  // flat index -> (descriptor, element)
    WeightIndex() {
        for (int i = 0; i < int(descs.size()); ++i) {
            if (descs[i].kind != Kind::Int) {
                first.push_back(-1);
                continue;
            }
            first.push_back(int(of_index.size()));
            for (int e = 0; e < descs[i].count; ++e) of_index.emplace_back(i, e);
        }
    }
};

const WeightIndex& weight_index_table() {
    static const WeightIndex r;
    return r;
}

std::string trim(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// A strict decimal integer; false on anything else (no trailing characters, no overflow).
bool parse_int(const std::string& t, long long& v) { return parse_integer(t, &v); }

}  // namespace

const std::vector<WeightDesc>& weight_descs() { return weight_index_table().descs; }

const WeightDesc* find_weight(const std::string& name) {
    for (const WeightDesc& d : weight_index_table().descs)
        if (name == d.name) return &d;
    return nullptr;
}

int weight_count() { return int(weight_index_table().of_index.size()); }

int weight_index(const WeightDesc& d, int element) {
    const WeightIndex& r = weight_index_table();
    return r.first[std::size_t(&d - r.descs.data())] + element;
}

const WeightDesc& weight_of_index(int index, int* element) {
    const auto [desc, el] = weight_index_table().of_index[std::size_t(index)];
    if (element) *element = el;
    return weight_index_table().descs[std::size_t(desc)];
}

std::string weight_label(int index) {
    int el = 0;
    const WeightDesc& d = weight_of_index(index, &el);
    return d.count == 1 ? d.name : std::string(d.name) + "[" + std::to_string(el) + "]";
}

int get_weight(const Weights& w, int index) {
    int el = 0;
    const WeightDesc& d = weight_of_index(index, &el);
    return d.ints(const_cast<Weights&>(w))[el];
}

void set_weight(Weights& w, int index, int value) {
    int el = 0;
    const WeightDesc& d = weight_of_index(index, &el);
    d.ints(w)[el] = value;
}

bool fast_path_holds(const Weights& w) {
    Weights& m = const_cast<Weights&>(w);  // the accessors take a mutable Weights; nothing is written
    for (const WeightDesc& d : weight_descs()) {
        if (!d.fast) continue;
        if (d.kind == Kind::Bool && int(*d.flag(m)) != *d.fast) return false;
        if (d.kind == Kind::Int)
            for (int i = 0; i < d.count; ++i)
                if (d.ints(m)[i] != *d.fast) return false;
    }
    return true;
}

std::vector<SpsaWeight> spsa_weights(const Weights& w) {
    std::vector<SpsaWeight> out;
    for (int i = 0; i < weight_count(); ++i) {
        int el = 0;
        const WeightDesc& d = weight_of_index(i, &el);
        if (d.role == Role::Fixed || !d.used(w)) continue;
        const int v = get_weight(w, i);
        if (d.count > 1 && v == 0) continue;
        // Smallest half-range: 10 cp in internal units (1/32 cp) for the score terms, 10 cp for tempo, a
        // few steps for the king-attack and phase tables (small integers).
        const int floor = d.role == Role::Op || d.role == Role::Eg || d.role == Role::Both ? 320
                          : d.role == Role::Cp                                              ? 10
                                                                                            : 4;
        const long spread = std::max<long>(std::labs(long(v)), floor);
        const int lo = int(std::max<long>(d.lo, long(v) - spread));
        const int hi = int(std::min<long>(d.hi, long(v) + spread));
        std::string name = d.count == 1 ? d.name : std::string(d.name) + "_" + std::to_string(el);
        out.push_back({i, std::move(name), v, lo, hi, std::max(1.0, (hi - lo) / 20.0), 0.002});
    }
    return out;
}

std::string format_weights(const Weights& w, const std::string& header_comment) {
    std::ostringstream os;
    if (!header_comment.empty()) {
        std::istringstream in(header_comment);
        for (std::string line; std::getline(in, line);) os << (line.empty() ? "#" : "# " + line) << "\n";
        os << "\n";
    }
    os << "profile " << w.name << "\n";
    const char* group = "";
    Weights& m = const_cast<Weights&>(w);  // the accessors take a mutable Weights; nothing is written
    for (const WeightDesc& d : weight_descs()) {
        if (!d.used(w)) continue;
        if (std::string(group) != d.group) {
            group = d.group;
            os << "\n# ---- " << group << " ----\n";
        }
        // Long arrays get their doc above them, everything else behind the value.
        if (d.doc[0] && d.count > 16) os << "# " << d.doc << "\n";
        os << d.name;
        if (d.kind == Kind::Bool) os << " " << (*d.flag(m) ? "true" : "false");
        else if (d.kind == Kind::Enum) os << " " << d.enum_names[std::size_t(d.get_enum(w))];
        else
            for (int i = 0; i < d.count; ++i) os << " " << d.ints(m)[i];
        if (d.doc[0] && d.count <= 16) os << "  # " << d.doc;
        os << "\n";
    }
    return os.str();
}

bool parse_weights(const std::string& text, const std::string& source, Weights& out, std::string* error,
                   const std::function<bool(const std::string&, Weights&)>& base_of) {
    Weights w{};
    bool have_base = false, have_weight = false, have_name = false;
    std::set<std::string> seen;
    std::istringstream in(text);
    int line_no = 0;
    auto fail = [&](const std::string& what) {
        if (error) *error = source + ":" + std::to_string(line_no) + ": " + what;
        return false;
    };
    for (std::string raw; std::getline(in, raw);) {
        ++line_no;
        const std::string line = trim(raw.substr(0, raw.find('#')));
        if (line.empty()) continue;
        std::istringstream ls(line);
        std::string name;
        ls >> name;
        std::vector<std::string> vals;
        for (std::string t; ls >> t;) vals.push_back(t);
        if (name == "profile") {
            if (vals.size() != 1) return fail("'profile' takes one name");
            if (have_name) return fail("'profile' given twice");
            w.name = vals[0];
            have_name = true;
            continue;
        }
        if (name == "base") {
            if (vals.size() != 1) return fail("'base' takes one profile name");
            if (have_base || have_weight) return fail("'base' must come once, before any weight");
            const std::string keep = w.name;
            if (!base_of || !base_of(vals[0], w)) return fail("unknown base profile '" + printable(vals[0]) + "'");
            if (have_name) w.name = keep;
            have_base = true;
            continue;
        }
        const WeightDesc* d = find_weight(name);
        if (!d) return fail("unknown weight '" + printable(name) + "'");
        if (!seen.insert(name).second) return fail("weight '" + name + "' given twice");
        have_weight = true;
        if (int(vals.size()) != d->count)
            return fail("weight '" + name + "': expected " + std::to_string(d->count) + (d->count == 1 ? " value" : " values") +
                        ", got " + std::to_string(vals.size()));
        if (d->kind == Kind::Bool) {
            if (vals[0] != "true" && vals[0] != "false")
                return fail("weight '" + name + "': expected true or false, got '" + printable(vals[0]) + "'");
            *d->flag(w) = vals[0] == "true";
        } else if (d->kind == Kind::Enum) {
            int v = -1;
            std::string names;
            for (std::size_t i = 0; i < d->enum_names.size(); ++i) {
                if (vals[0] == d->enum_names[i]) v = int(i);
                names += std::string(i ? ", " : "") + d->enum_names[i];
            }
            if (v < 0) return fail("weight '" + name + "': expected one of " + names + ", got '" + printable(vals[0]) + "'");
            d->set_enum(w, v);
        } else {
            int* dst = d->ints(w);
            for (int i = 0; i < d->count; ++i) {
                long long v = 0;
                const std::string where = "weight '" + name + "'" + (d->count > 1 ? " value " + std::to_string(i + 1) : "");
                if (!parse_int(vals[std::size_t(i)], v)) return fail(where + ": '" + printable(vals[std::size_t(i)]) + "' is not an integer");
                if (v < d->lo || v > d->hi)
                    return fail(where + ": " + std::to_string(v) + " is out of range [" + std::to_string(d->lo) + ", " +
                                std::to_string(d->hi) + "]");
                dst[i] = int(v);
            }
        }
    }
    line_no = 0;  // errors below concern the whole file
    if (!have_name) {
        if (error) *error = source + ": no 'profile NAME' line";
        return false;
    }
    if (!have_base)
        for (const WeightDesc& d : weight_descs())
            if (d.used(w) && !seen.count(d.name)) {
                if (error) *error = source + ": weight '" + std::string(d.name) + "' missing (give every weight, or start with 'base PROFILE')";
                return false;
            }
    out = w;
    return true;
}

}  // namespace quince::eval
