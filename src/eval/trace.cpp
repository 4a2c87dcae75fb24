// Trace output. The numbers come from Evaluator::evaluate_traced, i.e. the evaluation's own code
// path compiled with the trace switch on; nothing here recomputes a term.
#include "eval/trace.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "eval/weights.h"

namespace quince::eval {

namespace {

double cp(int internal) { return internal_to_cp(internal); }

// What the names in the table mean, printed under it (the table is read by people).
constexpr const char* LEGEND =
    "legend:\n"
    "  mg / eg: opening (middlegame) and endgame value; White and Black columns in that colour's own view,\n"
    "    Total = White - Black; mixed cp = the term's share of the score after interpolation and scaling.\n"
    "  W = (w0, w1): weights of mg and eg at this phase, w0 + w1 = 256: (256, 0) pure opening, (0, 256) endgame;\n"
    "    score = (mg * w0 + eg * w1) / 256.\n"
    "  material index / entry: the material configuration's slot in the material table and its 8 bytes;\n"
    "    flags 0x80 = opposite-coloured bishops possible (halve if the bishops differ in colour);\n"
    "    cflags 0x08 = evaluate White's king safety, 0x80 = Black's (the attacker has a queen and one more\n"
    "    piece); lazy = the entry allows lazy evaluation; mat_value = the imbalance term in internal units.\n"
    "  lazy evaluation: yes = material only, the position being far outside the root score's window.\n"
    "  scale factor: 1/2 for an opposite-coloured-bishop ending, else 1.\n"
    "  complexity / endgame scale factor (profiles with the switches complexity / scale_factors): the endgame\n"
    "    part's change by the complexity and its factor /128 by material (Ethereal 12's form).\n"
    "  known ending, fifty-move counter: every evaluation's last step (src/eval/endgame.h), the same for\n"
    "    every profile and a network: endings that cannot be won score 0, drawish ones are scaled towards 0;\n"
    "    then the score x (200 - the half-moves since the last capture or pawn move) / 200.\n";

// The legend's list of the trace rows (the list's QUINCE_TERMS), wrapped.
std::string term_legend() {
    std::string out = "  terms:";
    std::size_t column = out.size();
    for (int i = 0; i < TERM_NB; ++i) {
        std::string item = std::string(" ") + TERM_NAMES[i];
        if (TERM_LEGENDS[i][0]) item += std::string(" (") + TERM_LEGENDS[i] + ")";
        item += i + 1 < TERM_NB ? "," : ".";
        if (column + item.size() > 110) out += "\n   ", column = 3;
        out += item, column += item.size();
    }
    return out + "\n";
}

std::string fmt(const char* f, double a) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, a);
    return buf;
}

}  // namespace

double TraceReport::term_cp(int term) const {
    const int op = t.v[term][WHITE][0] - t.v[term][BLACK][0];
    const int eg = t.v[term][WHITE][1] - t.v[term][BLACK][1];
    return mix_cp(op, eg);
}

double TraceReport::rounding() const {
    double sum = 0;
    for (int i = 0; i < TERM_NB; ++i) sum += term_cp(i);
    return t.white_cp - t.drawish_cp - sum;
}

TraceReport trace_report(const Position& pos, const std::shared_ptr<const Profile>& prof, SquareTrace* squares) {
    Evaluator ev;
    ev.set_profile(prof);
    return trace_report(pos, *prof, ev, squares);
}

TraceReport trace_report(const Position& pos, const Profile& prof, Evaluator& ev, SquareTrace* squares) {
    TraceReport r;
    r.profile = prof.w.name;
    r.simple = prof.simple;
    r.tempo = prof.w.tempo;
    r.stm = pos.side_to_move();
    r.rule50 = pos.rule50();
    r.t.squares = squares;
    ev.evaluate_traced(pos, r.t);
    if (r.t.lazy) r.w0 = r.w1 = 128;  // material-only value: op = eg, plain / 32
    else r.w0 = r.t.w0, r.w1 = r.t.w1;
    r.scale = r.t.ocb ? 0.5 : 1.0;
    return r;
}

bool term_in_profile(const Profile& prof, Term term) {
    if (prof.simple) return false;
    if (term == T_MATERIAL) return true;
    const auto any = [](const auto& values) {
        for (auto v : values)
            if (v) return true;
        return false;
    };
    // The piece-square rows: their tables (generated or explicit).
    if (term >= T_PST_PAWN && term <= T_PST_KING) {
        const int pt = PAWN + (term - T_PST_PAWN);
        return any(prof.pst_op[pt]) || any(prof.pst_eg[pt]);
    }
    // Every other row from the weight list's term column: a tunable weight of the row that the profile
    // uses (a switched-off term's weights are unused) is non-zero. The king attack is a product: a
    // non-zero unit and a non-zero weight by attacker count.
    bool additive = false, unit = false, by_count = false;
    Weights& w = const_cast<Weights&>(prof.w);  // the accessors take a mutable Weights; nothing is written
    for (const WeightDesc& d : weight_descs()) {
        if (d.term != term || d.kind != Kind::Int || d.role == Role::Fixed || !d.used(w)) continue;
        bool nonzero = false;
        for (int i = 0; i < d.count; ++i) nonzero = nonzero || d.ints(w)[i] != 0;
        if (!nonzero) continue;
        if (d.role == Role::KingAttackUnit) unit = true;
        else if (d.role == Role::KingAttackWeight) by_count = true;
        else additive = true;
    }
    return additive || (unit && by_count);
}

std::string trace_text(const Position& pos, const std::string& profile) {
    const auto prof = find_profile_shared(profile);
    if (!prof) return "error: unknown profile '" + profile + "'\n";
    return trace_text(pos, prof);
}

std::string trace_text(const Position& pos, const std::shared_ptr<const Profile>& prof) {
    const TraceReport r = trace_report(pos, prof);
    const std::string& profile = r.profile;
    std::ostringstream os;
    if (r.simple) {
        os << "profile simple (baseline material + PST): " << r.t.profile_cp << " cp, side to move's view\n";
        if (r.t.ending_factor != ENDING_SCALE_NORMAL)
            os << "known ending: " << ending_name(r.t.ending) << ", scaled " << r.t.ending_factor << "/128\n";
        if (r.t.final_cp != r.t.scaled_cp)
            os << "fifty-move counter " << r.rule50 << ": x (200 - " << r.rule50 << ") / 200\n";
        if (r.t.final_cp != r.t.profile_cp) os << "final score: " << r.t.final_cp << " cp\n";
        return os.str();
    }
    const Trace& t = r.t;
    char line[256];
    os << "Quince evaluation trace, profile " << profile << " (values in centipawns = internal units / 32)\n";
    std::snprintf(line, sizeof line, "%-16s | %9s %9s | %9s %9s | %9s %9s | %9s\n", "term", "White mg", "White eg",
                  "Black mg", "Black eg", "Total mg", "Total eg", "mixed cp");
    os << line << std::string(96, '-') << "\n";
    for (int i = 0; i < TERM_NB; ++i) {
        const int* wv = t.v[i][WHITE];
        const int* bv = t.v[i][BLACK];
        std::snprintf(line, sizeof line, "%-16s | %9.2f %9.2f | %9.2f %9.2f | %9.2f %9.2f | %9.2f\n", TERM_NAMES[i],
                      cp(wv[0]), cp(wv[1]), cp(bv[0]), cp(bv[1]), cp(wv[0] - bv[0]), cp(wv[1] - bv[1]),
                      r.term_cp(i));
        os << line;
    }
    os << std::string(96, '-') << "\n";
    std::snprintf(line, sizeof line, "%-16s | %41s | %9.2f %9.2f |\n", "sum (White)", "", cp(t.op_before_scale),
                  cp(t.eg_before_scale));
    os << line;
    os << "internal units: op " << t.op_before_scale << ", eg " << t.eg_before_scale;
    if (t.ocb) os << "; opposite-coloured bishops: halved to op " << t.op << ", eg " << t.eg;
    os << "\n";
    os << "phase " << int(t.mat.phase) << " (0 opening .. 64 endgame), W = (" << t.w0 << ", " << t.w1 << ")\n";
    char hex[32];
    std::snprintf(hex, sizeof hex, "%016llx",
                  (unsigned long long)(std::uint64_t(t.mat.flags) | std::uint64_t(t.mat.cflags) << 8 |
                                       std::uint64_t(t.mat.phase) << 16 | std::uint64_t(t.mat.lazy) << 24 |
                                       std::uint64_t(std::uint32_t(t.mat.value)) << 32));
    os << "material index " << t.material_index << (t.in_table ? "" : " (outside the table: entry computed)")
       << ", entry 0x" << hex << " (flags 0x" << fmt("%02x", 0).substr(0, 0);
    std::snprintf(hex, sizeof hex, "%02x, cflags 0x%02x", t.mat.flags, t.mat.cflags);
    os << hex << ", lazy " << int(t.mat.lazy) << ", mat_value " << t.mat.value << ")\n";
    os << "lazy evaluation: " << (t.lazy ? "yes (material only)" : "no") << "\n";
    os << "scale factor: "
       << (t.ocb ? (t.ocb_after ? "1/2 (opposite-coloured bishops, after interpolation)" : "1/2 (opposite-coloured bishops)")
                 : "1")
       << "\n";
    if (t.complexity_eg) os << "complexity: endgame part " << std::showpos << t.complexity_eg << std::noshowpos << " (White's view)\n";
    if (t.scale != 128) os << "endgame scale factor: " << t.scale << "/128 (eg " << t.eg << " after complexity and scale)\n";
    if (t.drawish_cp) os << "drawishness (pawn files): " << t.drawish_cp << " cp (White's view)\n";
    std::snprintf(line, sizeof line, "interpolated: %d cp (White's view; rounding %.2f), tempo %+d for the side to move\n",
                  t.white_cp, r.rounding(), r.tempo);
    os << line;
    if (t.final_cp != t.profile_cp) {
        os << "profile's score: " << t.profile_cp << " cp (side to move's view)\n";
        if (t.ending_factor != ENDING_SCALE_NORMAL)
            os << "known ending: " << ending_name(t.ending) << ", scaled " << t.ending_factor << "/128\n";
        if (t.final_cp != t.scaled_cp)
            os << "fifty-move counter " << r.rule50 << ": x (200 - " << r.rule50 << ") / 200\n";
    }
    os << "final score: " << t.final_cp << " cp (" << (r.stm == WHITE ? "White" : "Black")
       << " to move, side to move's view)\n";
    os << LEGEND << term_legend();
    return os.str();
}

std::string trace_json(const Position& pos, const std::string& profile) {
    const auto prof = find_profile_shared(profile);
    if (!prof) return "{\"error\": \"unknown profile\"}\n";
    return trace_json(pos, prof);
}

std::string trace_json(const Position& pos, const std::shared_ptr<const Profile>& prof) {
    const TraceReport r = trace_report(pos, prof);
    const std::string& profile = r.profile;
    std::ostringstream os;
    os << "{\n  \"fen\": \"" << pos.fen() << "\",\n  \"profile\": \"" << profile << "\",\n";
    os << "  \"side_to_move\": \"" << (r.stm == WHITE ? "white" : "black") << "\",\n";
    if (r.simple) {
        os << "  \"final_cp\": " << r.t.final_cp << "\n}\n";
        return os.str();
    }
    const Trace& t = r.t;
    auto num = [](double v) { return fmt("%.5f", v); };
    os << "  \"units\": \"centipawns (internal units / 32); cp = term mixed by phase and scale, White's view; "
          "final_cp = side to move's view\",\n";
    os << "  \"terms\": [\n";
    for (int i = 0; i < TERM_NB; ++i) {
        const int* wv = t.v[i][WHITE];
        const int* bv = t.v[i][BLACK];
        os << "    {\"name\": \"" << TERM_NAMES[i] << "\", \"white\": {\"mg\": " << num(cp(wv[0])) << ", \"eg\": "
           << num(cp(wv[1])) << "}, \"black\": {\"mg\": " << num(cp(bv[0])) << ", \"eg\": " << num(cp(bv[1]))
           << "}, \"total\": {\"mg\": " << num(cp(wv[0] - bv[0])) << ", \"eg\": " << num(cp(wv[1] - bv[1]))
           << "}, \"cp\": " << num(r.term_cp(i)) << "}" << (i + 1 < TERM_NB ? "," : "") << "\n";
    }
    os << "  ],\n";
    os << "  \"phase\": " << int(t.mat.phase) << ",\n  \"weights\": [" << t.w0 << ", " << t.w1 << "],\n";
    os << "  \"material_index\": " << t.material_index << ",\n  \"material_in_table\": " << (t.in_table ? "true" : "false")
       << ",\n";
    os << "  \"material_entry\": {\"flags\": " << int(t.mat.flags) << ", \"cflags\": " << int(t.mat.cflags)
       << ", \"phase\": " << int(t.mat.phase) << ", \"lazy\": " << int(t.mat.lazy) << ", \"value\": " << t.mat.value
       << "},\n";
    os << "  \"lazy\": " << (t.lazy ? "true" : "false") << ",\n";
    os << "  \"scale\": " << (t.ocb ? "0.5" : "1") << ",\n";
    os << "  \"op\": " << t.op << ", \"eg\": " << t.eg << ",\n";
    // Sum of terms[].cp + adjustments[].cp == final_cp_white_view exactly (up to the printed decimals).
    const int sign = r.stm == WHITE ? 1 : -1;
    os << "  \"adjustments\": [{\"name\": \"rounding\", \"cp\": " << num(r.rounding())
       << "}, {\"name\": \"drawishness\", \"cp\": " << t.drawish_cp
       << "}, {\"name\": \"tempo\", \"cp\": " << sign * r.tempo << "}, {\"name\": \"known ending\", \"cp\": "
       << sign * (t.scaled_cp - t.profile_cp) << "}, {\"name\": \"fifty-move counter\", \"cp\": "
       << sign * (t.final_cp - t.scaled_cp) << "}],\n";
    os << "  \"rounding_cp\": " << num(r.rounding()) << ",\n";
    os << "  \"white_cp\": " << t.white_cp << ",\n";
    os << "  \"tempo_cp\": " << r.tempo << ",\n";
    os << "  \"ending\": {\"rule\": \"" << ending_name(t.ending) << "\", \"factor\": " << t.ending_factor << "},\n";
    os << "  \"profile_cp\": " << t.profile_cp << ",\n";
    os << "  \"final_cp_white_view\": " << sign * t.final_cp << ",\n";
    os << "  \"final_cp\": " << t.final_cp << "\n}\n";
    return os.str();
}

}  // namespace quince::eval
