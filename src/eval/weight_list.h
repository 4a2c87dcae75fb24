// Every weight, switch and term group of an evaluation profile, and the rows of its trace, once: the
// single list from which the Weights fields (eval/profile.h), their descriptors (name, group, role, range,
// when used, doc, fast-path value; eval/weights.cpp), the groups' `used` predicates and table
// (eval/weights.h GroupDesc), the groups' place in the evaluation (eval/evaluate.cpp), the trace rows
// (eval/terms.h Term, the legend of `quince eval`) and the compile-time flat index of the tuner
// (WI::name, eval/weight_ref.h) are generated. Adding a weight is adding one line here (and its value to
// the profile files when every profile uses it); adding a term group is one G line, its weights and
// its term code (eval/README.md "How to add a term group").
//
// The list is a macro taking one macro per kind of line; each user defines the ones it needs:
//   I(name, term, group, role, lo, hi, used, fast, doc)          int `name`
//   P(name, term, group, lo, hi, used, fast, doc)                op/eg pair: ints `name_op` (Role::Op) and
//                                                                `name_eg` (Role::Eg), flat index op, op + 1
//   A(name, n, term, group, role, lo, hi, used, fast, doc)       std::array<int, n> `name`
//   PA(name, n, term, group, lo, hi, used, fast, doc)            arrays `name_op`, `name_eg` of n (op first)
//   B(name, group, fast, doc)                                    bool switch of a seed's variant
//   E(name, type, group, values, doc)                            enumeration; values: names separated by
//                                                                spaces, in the enum's order
//   T(name, piece, group, doc)                                   an explicit piece-square table pair
//                                                                `name_op`, `name_eg`: rows of
//                                                                pst_table_op / pst_table_eg (declared in Weights)
//   G(name, group, run, maps, doc)                               a term group: its switch `bool name`
//                                                                (off unless a profile file turns it on;
//                                                                printed only when on), the `used` predicate
//                                                                `name` its weights name, a test profile that
//                                                                turns it on (tests/support/test_profiles.h)
// term: the trace row (QUINCE_TERMS below) the weight feeds, NO_TERM for none; the row is in a profile when
// one of its used, tunable weights is non-zero (term_in_profile). used: a predicate of weights.cpp or a
// group's name (the weight matters to a profile with these settings; a file need not give it otherwise).
// fast: the value the fast code path fixes (eval/profile.h Path), ANY when the fast path reads the weight
// (a group's switch is 0 there: groups run on the general path). run: AFTER_PIECES, the group's function
// eval_<name><C, T>(st, acc) runs for each colour after both piece loops (it is declared in a header
// evaluate.cpp includes: king.h, patterns.h, threats.h, ...); IN_TERMS, its code reads the switch inside
// the terms it changes. maps: 1 when its terms read AttackMaps (eval/terms.h). In the profile files a pair
// is two lines, `name_op` and `name_eg`. Lines are in the order of the files' sections.
#pragma once

// The rows of the evaluation trace (eval/terms.h Term), in the order of the table: R(id, name, legend).
#define QUINCE_TERMS(R)                                                                                           \
    R(T_MATERIAL, "material", "1-3-3-5-10 piece count")                                                             \
    R(T_IMBALANCE, "imbalance", "material table's mat_value")                                                       \
    R(T_PST_PAWN, "pst_pawn", "piece-square tables")                                                                \
    R(T_PST_KNIGHT, "pst_knight", "")                                                                               \
    R(T_PST_BISHOP, "pst_bishop", "")                                                                               \
    R(T_PST_ROOK, "pst_rook", "")                                                                                   \
    R(T_PST_QUEEN, "pst_queen", "")                                                                                 \
    R(T_PST_KING, "pst_king", "")                                                                                   \
    R(T_PAWNS, "pawn_structure", "doubled, isolated, backward, candidate pawns")                                    \
    R(T_MOBILITY, "mobility", "")                                                                                   \
    R(T_KING_ATTACK, "king_attack", "attacks on the enemy king's zone")                                             \
    R(T_SHELTER, "king_shelter", "own pawn shelter and enemy pawn storm")                                           \
    R(T_ROOK_FILE, "rook_file", "open and half-open files")                                                         \
    R(T_SEVENTH, "seventh_rank", "rook/queen on the 7th")                                                           \
    R(T_PASSERS, "passed_pawns", "")                                                                                \
    R(T_PATTERNS, "patterns", "trapped and blocked pieces; pieces2's outposts and piece knowledge")                 \
    R(T_PAWN_MOBILITY, "pawn_mobility", "blocked pawns; rybka232 only")                                             \
    R(T_THREATS, "threats", "attacked by lesser pieces, hanging; threats2: weak pawns, overloads, pushes, restricted")

// clang-format off
#define QUINCE_WEIGHTS(I, P, A, PA, B, E, T, G)                                                                      \
    /* ---- Material (§1, §2) ---- */                                                                            \
    I(pawn_unit, T_MATERIAL, "material", Both, PAWN_UNIT_MIN, PAWN_UNIT_MAX, always, ANY, "value of one unit of D = 10dQ + 5dR + 3dB + 3dN + dP (§1)") \
    I(pawn_endgame_extra, T_MATERIAL, "material", Eg, -W, W, always, 0, "endgame only, per pawn of the difference (Fruit 80/90 cp)") \
    I(knight_extra, T_IMBALANCE, "imbalance", Both, -W, W, always, ANY, "mat_value: knight = 3 units + this (§2.3)") \
    I(bishop_extra, T_IMBALANCE, "imbalance", Both, -W, W, always, ANY, "mat_value: bishop = 3 units + this") \
    I(rook_extra, T_IMBALANCE, "imbalance", Both, -W, W, always, ANY, "mat_value: rook = 5 units + this") \
    I(queen_extra, T_IMBALANCE, "imbalance", Both, -W, W, always, ANY, "mat_value: queen = 10 units + this") \
    I(bishop_pair, T_IMBALANCE, "imbalance", Both, -W, W, always, ANY, "mat_value: two bishops") \
    I(knight_pawn_adjust, T_IMBALANCE, "imbalance", Both, -W, W, always, ANY, "per knight, per own pawn above knight_pawn_base") \
    I(rook_pawn_adjust, T_IMBALANCE, "imbalance", Both, -W, W, always, ANY, "per rook, per own pawn above rook_pawn_base") \
    I(knight_pawn_base, T_IMBALANCE, "imbalance", Fixed, 0, 8, always, ANY, "pawn count where knight_pawn_adjust is zero") \
    I(rook_pawn_base, T_IMBALANCE, "imbalance", Fixed, 0, 8, always, ANY, "pawn count where rook_pawn_adjust is zero") \
    I(rook_redundancy, T_IMBALANCE, "imbalance", Both, -W, W, always, ANY, "per rook beyond the first") \
    I(queen_rook_redundancy, T_IMBALANCE, "imbalance", Both, -W, W, always, ANY, "queen together with at least one rook") \
    I(mat_value_limit, T_IMBALANCE, "imbalance", Fixed, 0, 1 << 30, always, ANY, "0 = int32 mat_value (1.0); 32767 = 2.3.2a's int16 table (§2.5)") \
    /* ---- Phase (§3) ---- */                                                                                    \
    I(phase_minor, NO_TERM, "phase", Fixed, 0, 16, always, ANY, "Fruit's KnightPhase = BishopPhase (§3.1)") \
    I(phase_rook, NO_TERM, "phase", Fixed, 0, 16, always, ANY, "RookPhase") \
    I(phase_queen, NO_TERM, "phase", Fixed, 0, 16, always, ANY, "QueenPhase") \
    I(phase_total, NO_TERM, "phase", Fixed, 1, 64, always, ANY, "TotalPhase") \
    E(phase_curve, PhaseCurve, "phase", "linear three-section table", "W[65][2]: linear (§3.2), the three-section shape guess for 1.0, or phase_table_eg") \
    A(phase_table_eg, 65, NO_TERM, "phase", PhaseEg, 0, 256, table_phase, ANY, "W[phase][1] for phase 0..64 (W[phase][0] = 256 - it)") \
    /* ---- Piece-square tables (§4) ---- */                                                                      \
    E(pst_source, PstSource, "pst", "generator table", "generator: Fruit's shapes x the weights below (§4.1); table: the pst_* arrays") \
    I(pawn_file_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "PawnFile[f] x this (§4.1)") \
    I(pawn_file_endgame, NO_TERM, "pst", Eg, -W, W, generator_pst, ANY, "PawnFile[f] x this") \
    I(pawn_centre_d5e5_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "pawn on d5/e5") \
    I(pawn_centre_d3e3_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "pawn on d3/e3 (Fruit; 0 in Rybka)") \
    I(pawn_centre_d4e4_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "pawn on d4/e4 (Fruit; 0 in Rybka)") \
    I(knight_centre_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "(KnightLine[f] + KnightLine[r]) x this") \
    I(knight_centre_endgame, NO_TERM, "pst", Eg, -W, W, generator_pst, ANY, "") \
    I(knight_rank_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "KnightRank[r] x this") \
    I(knight_back_rank_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "knight on the first rank") \
    I(knight_trapped, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "knight on a8/h8") \
    I(bishop_centre_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "(BishopLine[f] + BishopLine[r]) x this") \
    I(bishop_centre_endgame, NO_TERM, "pst", Eg, -W, W, generator_pst, ANY, "") \
    I(bishop_back_rank_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "bishop on the first rank") \
    I(bishop_diagonal_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "bishop on a long diagonal") \
    I(rook_file_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "RookFile[f] x this") \
    I(queen_centre_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "(QueenLine[f] + QueenLine[r]) x this") \
    I(queen_centre_endgame, NO_TERM, "pst", Eg, -W, W, generator_pst, ANY, "") \
    I(queen_back_rank_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "queen on the first rank") \
    I(king_centre_endgame, NO_TERM, "pst", Eg, -W, W, generator_pst, ANY, "(KingLine[f] + KingLine[r]) x this") \
    I(king_file_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "KingFile[f] x this") \
    I(king_rank_opening, NO_TERM, "pst", Op, -W, W, generator_pst, ANY, "KingRank[r] x this") \
    T(pst_pawn, PAWN, "pst", "a1..h1, a2..h2, ..., a8..h8 (White's view)") \
    T(pst_knight, KNIGHT, "pst", "") \
    T(pst_bishop, BISHOP, "pst", "") \
    T(pst_rook, ROOK, "pst", "") \
    T(pst_queen, QUEEN, "pst", "") \
    T(pst_king, KING, "pst", "") \
    /* ---- Pawn structure (§5.3) ---- */                                                                          \
    P(doubled, T_PAWNS, "pawns", -W, W, always, ANY, "penalty per pawn with an own pawn in front") \
    P(isolated_open, T_PAWNS, "pawns", -W, W, always, ANY, "isolated, no pawn in front (open)") \
    P(isolated, T_PAWNS, "pawns", -W, W, always, ANY, "isolated, closed") \
    P(backward_open, T_PAWNS, "pawns", -W, W, always, ANY, "backward (Rybka's rule, §5.2), open") \
    P(backward, T_PAWNS, "pawns", -W, W, always, ANY, "backward, closed") \
    PA(candidate, 8, T_PAWNS, "pawns", -W, W, always, ANY, "candidate passer by relative rank 1..8 (1.0: RybkaQuad(0, 3763) / (18, 1626))") \
    B(passer_base_in_pawn_entry, "pawns", 0, "2.3.2a: passed_op/eg scored in the pawn entry, frontmost pawn (§5.3)") \
    P(pawn_blocked, T_PAWN_MOBILITY, "pawns", -W, W, always, 0, "2.3.2a pawn anti-mobility: per pawn whose push square is occupied (§13.1)") \
    A(drawish_by_files, 7, NO_TERM, "drawish", Fixed, 0, 255, always, 0, "2.3.2a drawishness byte by pawn files among b..g: 0..6 (§13.2)") \
    I(drawish_mul, NO_TERM, "drawish", Fixed, 0, 1000, always, ANY, "k = byte * mul / div") \
    I(drawish_div, NO_TERM, "drawish", Fixed, 1, 1000, always, ANY, "") \
    I(drawish_cap, NO_TERM, "drawish", Fixed, 0, 10000, always, ANY, "s -= (min(s, cap) * k) >> 8") \
    /* ---- King shelter and storm (§7.2) ---- */                                                                  \
    A(shelter_value, 5, T_SHELTER, "shelter", Op, 0, 16000, always, ANY, "per file by own pawn: none, rank 2..5 (2x on the king's file)") \
    A(storm_value, 5, T_SHELTER, "shelter", Op, 0, 21000, always, ANY, "per file by enemy pawn: none, rank 2..5") \
    I(weak_back_rank, T_SHELTER, "shelter", Op, 0, 65535, always, ANY, "shelter when the three pawns are all on rank 2") \
    B(shelter_castling, "shelter", 1, "1.0: average with the best wing the king may castle to; off: own wing only") \
    /* ---- King attack (§7.1). The tuner reads the KING_ATTACK_UNITS unit weights as one run: the four */        \
    /* king_attack_unit_*, the four king_check_unit_*, king_weak_unit. ---- */                                    \
    I(king_attack_unit_knight, T_KING_ATTACK, "king_attack", KingAttackUnit, 0, 10000, always, ANY, "attack units per piece reaching the king zone") \
    I(king_attack_unit_bishop, T_KING_ATTACK, "king_attack", KingAttackUnit, 0, 10000, always, ANY, "") \
    I(king_attack_unit_rook, T_KING_ATTACK, "king_attack", KingAttackUnit, 0, 10000, always, ANY, "") \
    I(king_attack_unit_queen, T_KING_ATTACK, "king_attack", KingAttackUnit, 0, 10000, always, ANY, "") \
    I(king_check_unit_knight, T_KING_ATTACK, "king_attack", KingAttackUnit, 0, 10000, king_safe_checks, ANY, "attack units per safe checking square (Quince)") \
    I(king_check_unit_bishop, T_KING_ATTACK, "king_attack", KingAttackUnit, 0, 10000, king_safe_checks, ANY, "") \
    I(king_check_unit_rook, T_KING_ATTACK, "king_attack", KingAttackUnit, 0, 10000, king_safe_checks, ANY, "") \
    I(king_check_unit_queen, T_KING_ATTACK, "king_attack", KingAttackUnit, 0, 10000, king_safe_checks, ANY, "") \
    I(king_weak_unit, T_KING_ATTACK, "king_attack", KingAttackUnit, 0, 10000, king_safe_checks, ANY, "attack units per king-zone square covered only by the defender's king or queen (Quince)") \
    A(king_attack_weight, 16, T_KING_ATTACK, "king_attack", KingAttackWeight, -1024, 1024, always, ANY, "by attacker count 0..15: (weight[n] * units) >> 5") \
    B(king_attack_pawns, "king_attack", 1, "pawns count as one attacker (Rybka; Fruit: no)") \
    G(king_safe_checks, "king_attack", AFTER_PIECES, 0, "Quince: safe checking squares add king_check_unit_* units (not in the seeds)") \
    /* ---- Threats (Quince, not in the seeds) ---- */                                                             \
    G(threats, "threats", AFTER_PIECES, 0, "Quince: pieces attacked by lesser pieces and hanging pieces (not in the seeds)") \
    P(threat_pawn, T_THREATS, "threats", -W, W, threats, ANY, "per enemy knight, bishop, rook or queen attacked by a pawn") \
    P(threat_minor, T_THREATS, "threats", -W, W, threats, ANY, "per enemy rook or queen attacked by a knight or bishop") \
    P(threat_rook, T_THREATS, "threats", -W, W, threats, ANY, "per enemy queen attacked by a rook") \
    P(threat_hanging, T_THREATS, "threats", -W, W, threats, ANY, "per enemy piece (not pawn or king) attacked and not defended") \
    /* ---- Threats from double attacks (Quince: Ethereal 12's and Stockfish's, not in the seeds; eval/threats.h). ---- */ \
    /* Pawn, minor and rook threats on pieces are the threats group's; these add the rest. ---- */             \
    G(threats2, "threats2", AFTER_PIECES, 1, "Quince: threats read from double-attack maps (not in the seeds)") \
    P(threat_weak_pawn, T_THREATS, "threats2", -W, W, threats2, ANY, "per enemy pawn not attacked by our pawns and poorly defended") \
    P(threat_minor_by_minor, T_THREATS, "threats2", -W, W, threats2, ANY, "per enemy knight or bishop attacked by a knight or bishop") \
    P(threat_minor_by_major, T_THREATS, "threats2", -W, W, threats2, ANY, "per poorly defended enemy knight or bishop attacked by a rook or queen") \
    P(threat_minor_by_king, T_THREATS, "threats2", -W, W, threats2, ANY, "per poorly defended enemy knight or bishop attacked by the king") \
    P(threat_rook_by_king, T_THREATS, "threats2", -W, W, threats2, ANY, "per poorly defended enemy rook attacked by the king") \
    P(threat_queen_by_any, T_THREATS, "threats2", -W, W, threats2, ANY, "per enemy queen attacked by anything") \
    P(threat_overloaded, T_THREATS, "threats2", -W, W, threats2, ANY, "per enemy piece (not pawn or king) attacked once and defended once") \
    P(threat_pawn_push, T_THREATS, "threats2", -W, W, threats2, ANY, "per enemy piece (not pawn or king) a safe pawn push would attack") \
    P(threat_restricted, T_THREATS, "threats2", -W, W, threats2, ANY, "per square both attack that the enemy does not strongly protect") \
    /* ---- Minor and rook knowledge of Ethereal 12 (Quince, not in the seeds) ---- */                             \
    G(pieces2, "pieces2", AFTER_PIECES, 0, "Quince: outposts, minors behind pawns, knight far from the kings, bishop and rammed pawns, long diagonal, closedness") \
    PA(outpost_knight, 4, T_PATTERNS, "pieces2", -W, W, pieces2, ANY, "knight on relative rank 4-6 no enemy pawn can attack: [2 * on the a/h file + defended by a pawn]") \
    PA(outpost_bishop, 4, T_PATTERNS, "pieces2", -W, W, pieces2, ANY, "bishop, same squares and index") \
    P(knight_behind_pawn, T_PATTERNS, "pieces2", -W, W, pieces2, ANY, "a pawn (either colour) directly in front of the knight") \
    P(bishop_behind_pawn, T_PATTERNS, "pieces2", -W, W, pieces2, ANY, "") \
    PA(knight_far_from_kings, 4, T_PATTERNS, "pieces2", -W, W, pieces2, ANY, "distance to the nearer king 4..7") \
    P(bishop_rammed_pawns, T_PATTERNS, "pieces2", -W, W, pieces2, ANY, "per own pawn on the bishop's colour blocked by an enemy pawn") \
    P(bishop_long_diagonal, T_PATTERNS, "pieces2", -W, W, pieces2, ANY, "bishop on a long diagonal (not the centre) seeing two centre squares through pawns") \
    PA(closed_knight, 9, T_PATTERNS, "pieces2", -W, W, pieces2, ANY, "per knight, by closedness (pawns + 3 rammed - 4 open files) / 3, 0..8") \
    PA(closed_rook, 9, T_PATTERNS, "pieces2", -W, W, pieces2, ANY, "per rook, by closedness") \
    /* ---- Mobility (§8) ---- */                                                                                  \
    P(mob_knight, T_MOBILITY, "mobility", -W, W, mob_linear, ANY, "per attacked square not occupied by an own piece") \
    P(mob_bishop, T_MOBILITY, "mobility", -W, W, mob_linear, ANY, "") \
    P(mob_rook, T_MOBILITY, "mobility", -W, W, mob_linear, ANY, "") \
    P(mob_queen, T_MOBILITY, "mobility", -W, W, mob_linear, ANY, "") \
    I(mob_knight_offset, T_MOBILITY, "mobility", Fixed, 0, 27, always, 0, "subtracted from the square count (Fruit's units; 0 in Rybka)") \
    I(mob_bishop_offset, T_MOBILITY, "mobility", Fixed, 0, 27, always, 0, "") \
    I(mob_rook_offset, T_MOBILITY, "mobility", Fixed, 0, 27, always, 0, "") \
    I(mob_queen_offset, T_MOBILITY, "mobility", Fixed, 0, 27, always, 0, "") \
    G(mob_tables, "mobility", IN_TERMS, 0, "Quince: mobility by square count inside the mobility area (tables below) instead of the linear weights") \
    PA(mob_knight_table, 9, T_MOBILITY, "mobility", -W, W, mob_tables, ANY, "by the number of mobility-area squares attacked (eval/mobility.h)") \
    PA(mob_bishop_table, 14, T_MOBILITY, "mobility", -W, W, mob_tables, ANY, "sees through own bishops and queens") \
    PA(mob_rook_table, 15, T_MOBILITY, "mobility", -W, W, mob_tables, ANY, "sees through own rooks and queens") \
    PA(mob_queen_table, 28, T_MOBILITY, "mobility", -W, W, mob_tables, ANY, "sees through own sliders of its line") \
    /* ---- Rooks and queens (§9) ---- */                                                                          \
    B(rook_file_whole, "rooks", 0, "Fruit: pawns on the whole file count (Rybka: in front of the rook)") \
    P(rook_file_base, T_ROOK_FILE, "rooks", -W, W, always, 0, "every rook (Fruit: -RookOpenFile/2)") \
    P(rook_semi_open, T_ROOK_FILE, "rooks", -W, W, always, ANY, "no own pawn on the file") \
    P(rook_open, T_ROOK_FILE, "rooks", -W, W, always, ANY, "increment: no enemy pawn either") \
    I(rook_king_zone_op, T_ROOK_FILE, "rooks", Op, -W, W, always, ANY, "(semi-)open file meets the enemy king zone") \
    I(rook_king_file_op, T_ROOK_FILE, "rooks", Op, -W, W, always, ANY, "increment: the enemy king on that file") \
    B(rook_king_needs_flag, "rooks", 1, "king-file bonuses only with the king-safety flag (1.0)") \
    B(rook_king_file_needs_zone, "rooks", 1, "king-file bonus nested in the zone test (1.0)") \
    B(seventh_king_on_seventh, "rooks", 0, "2.3.2a: the enemy king on the 7th also makes the 7th rank count") \
    P(rook_seventh, T_SEVENTH, "rooks", -W, W, always, ANY, "rook on the 7th with an enemy pawn there or the king on the 8th") \
    P(queen_seventh, T_SEVENTH, "rooks", -W, W, always, ANY, "queen on the 7th, same condition") \
    /* ---- Passed pawns (§10), by relative rank 1..8 ---- */                                                     \
    PA(passed, 8, T_PASSERS, "passers", -W, W, always, ANY, "base bonus (1.0: RybkaQuad(0, 4821) / (146, 2020))") \
    A(unblocked_own, 8, T_PASSERS, "passers", Eg, -W, W, always, ANY, "no own piece on the path (1.0: RybkaQuad(0, 262))") \
    A(unblocked_opp, 8, T_PASSERS, "passers", Eg, -W, W, always, ANY, "no enemy piece on the path (1.0: RybkaQuad(0, 1311))") \
    A(passed_free, 8, T_PASSERS, "passers", Eg, -W, W, always, ANY, "path not attacked by the enemy more than defended (1.0: RybkaQuad(0, 1000))") \
    A(att_distance, 8, T_PASSERS, "passers", Eg, -W, W, always, ANY, "times own king's distance to the stop square, subtracted") \
    A(def_distance, 8, T_PASSERS, "passers", Eg, -W, W, always, ANY, "times enemy king's distance to the stop square") \
    A(unstoppable_passer, 8, T_PASSERS, "passers", Eg, 0, W, always, ANY, "unstoppable or king-escorted passer, defender without pieces") \
    B(unstoppable_pure_pawn_ending, "passers", 0, "2.3.2a: only when neither side has pieces (§13.3)") \
    /* ---- Pawns II (Quince: Ethereal 12's pawn knowledge, not in the seeds; the pawn entry and eval/passers.h) ---- */ \
    G(pawns2, "pawns2", IN_TERMS, 0, "Quince: connected pawns, backward pawns by rank, stacked passers, safe passer path, rooks behind passers (not in the seeds)") \
    PA(connected, 8, T_PAWNS, "pawns2", -W, W, pawns2, ANY, "pawn with an own pawn beside it or diagonally behind it, by relative rank 1..8") \
    PA(backward_rank, 8, T_PAWNS, "pawns2", -W, W, pawns2, ANY, "backward pawn (Rybka's rule) by relative rank, on top of backward / backward_open") \
    P(passed_stacked, T_PAWNS, "pawns2", -W, W, pawns2, ANY, "passed pawn with an own pawn in front of it on its file") \
    P(passed_safe_path, T_PASSERS, "pawns2", -W, W, pawns2, ANY, "passer whose path holds no enemy piece and no square the enemy attacks") \
    P(passed_rook_behind, T_PASSERS, "pawns2", -W, W, pawns2, ANY, "own rook or queen behind the passer on its file, nothing between") \
    P(passed_enemy_rook_behind, T_PASSERS, "pawns2", -W, W, pawns2, ANY, "enemy rook or queen behind the passer on its file, nothing between") \
    /* ---- 2.3.2a pawn-ending evaluator (§13.3) ---- */                                                          \
    G(pawn_ending_evaluator, "pawn_ending", IN_TERMS, 0, "2.3.2a: kings and pawns only: KPK table, passer race, key squares (§13.3)") \
    I(pawn_ending_kpk_win, T_PASSERS, "pawn_ending", Eg, 0, W, pawn_ending_evaluator, ANY, "K+P v K that the table wins (a drawn one scores 0)") \
    A(key_square_passer, 8, T_PASSERS, "pawn_ending", Eg, 0, W, pawn_ending_evaluator, ANY, "own king on a key square of the passer, by relative rank") \
    A(protected_passer, 8, T_PASSERS, "pawn_ending", Eg, 0, W, pawn_ending_evaluator, ANY, "passer defended by an own pawn, by relative rank") \
    I(outside_passer, T_PASSERS, "pawn_ending", Eg, 0, W, pawn_ending_evaluator, ANY, "per file beyond one between the passer and the nearest enemy pawn (max 3)") \
    /* ---- Patterns (§11) ---- */                                                                                \
    P(trapped_bishop, T_PATTERNS, "patterns", -W, W, always, ANY, "bishop on a7/b8 (h7/g8) shut in by a pawn") \
    P(trapped_bishop_6th, T_PATTERNS, "patterns", -W, W, always, ANY, "per-bishop mode: a6/h6 shut in by b5/g5") \
    B(trapped_bishop_per_bishop, "patterns", 0, "2.3.2a / Fruit: every trapped bishop (1.0: once)") \
    I(blocked_bishop_op, T_PATTERNS, "patterns", Op, -W, W, always, ANY, "c1/f1 bishop behind d2/e2 pawn with d3/e3 occupied") \
    I(blocked_rook_op, T_PATTERNS, "patterns", Op, -W, W, always, ANY, "rook shut in by the uncastled king") \
    /* ---- Final (§1, §12) ---- */                                                                               \
    I(tempo, NO_TERM, "tempo", Cp, -200, 200, always, ANY, "centipawns for the side to move, after interpolation") \
    I(lazy_margin, NO_TERM, "lazy", Fixed, 0, 1000, always, ANY, "pawn units of D around the lazy window (§12.3)") \
    B(lazy_window, "lazy", 1, "root-window lazy evaluation of 1.0 (§12.3)") \
    B(ocb_halving, "final", ANY, "opposite-coloured bishops halve the score (§12.1)") \
    B(ocb_after_interpolation, "final", 0, "2.3.2a / Fruit: halve the interpolated score (1.0: op and eg)") \
    B(ocb_pawn_wrap, "final", ANY, "2.3.2a: the 3-bit pawn field also accepts |WP - BP| >= 6") \
    /* ---- Endgame scaling (Quince: Ethereal 12 form, not in the seeds; eval/scaling.h). The tuner reads the ---- */ \
    /* COMPLEXITY_WEIGHTS complexity weights as one run. ---- */                                                  \
    G(complexity, "scaling", IN_TERMS, 0, "Quince: eg += sign(eg) * max(complexity, -|eg|), complexity from the weights below") \
    I(complexity_pawns, NO_TERM, "scaling", Complexity, -W, W, complexity, ANY, "per pawn on the board") \
    I(complexity_flanks, NO_TERM, "scaling", Complexity, -W, W, complexity, ANY, "pawns on both flanks (files a-d and e-h)") \
    I(complexity_pawn_ending, NO_TERM, "scaling", Complexity, -W, W, complexity, ANY, "no knights, bishops, rooks or queens") \
    I(complexity_adjust, NO_TERM, "scaling", Complexity, -W, W, complexity, ANY, "constant") \
    G(scale_factors, "scaling", IN_TERMS, 0, "Quince: the endgame part times a factor / 128 by material (replaces ocb_halving)") \
    I(scale_ocb_bishops, NO_TERM, "scaling", Fixed, 0, 256, scale_factors, ANY, "opposite-coloured bishops, no other pieces (Ethereal 64)") \
    I(scale_ocb_knight, NO_TERM, "scaling", Fixed, 0, 256, scale_factors, ANY, "opposite bishops and one knight each (106)") \
    I(scale_ocb_rook, NO_TERM, "scaling", Fixed, 0, 256, scale_factors, ANY, "opposite bishops and one rook each (96)") \
    I(scale_lone_queen, NO_TERM, "scaling", Fixed, 0, 256, scale_factors, ANY, "the stronger side's lone queen against two or more pieces (88)") \
    I(scale_lone_minor, NO_TERM, "scaling", Fixed, 0, 256, scale_factors, ANY, "the stronger side has one minor and no pawns (0)") \
    I(scale_pawn_advantage, NO_TERM, "scaling", Fixed, 0, 256, scale_factors, ANY, "no queens, at most one piece each, 3+ pawns ahead (144)") \
    I(scale_pawn_base, NO_TERM, "scaling", Fixed, 0, 256, scale_factors, ANY, "otherwise min(128, base + per_pawn x the stronger side's pawns) (96)") \
    I(scale_per_pawn, NO_TERM, "scaling", Fixed, 0, 256, scale_factors, ANY, "(8)")
// clang-format on
