#include "workbench/svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

namespace quince::workbench {

namespace {

// Layout, in SVG user units (pixels at 100 %).
constexpr int SQ = 56;                // one square
constexpr int BOARD = 8 * SQ;
constexpr int MARGIN = 24;            // rank and file letters around the board
constexpr int TITLE_H = 52;           // profile name and score above the board
constexpr int LEGEND_H = 150;         // colour scale and the terms without a square below it
constexpr int PANEL_W = BOARD + 2 * MARGIN;
constexpr int PANEL_GAP = 24;
constexpr int PIECE_BOX = 100;        // piece drawings are made in a 100 x 100 box
constexpr double MAX_OPACITY = 0.8;   // shading of the largest credit
constexpr double MIN_SCALE_CP = 10;   // the colour scale never ends below 10 cp
constexpr double SHOW_CP = 0.5;       // squares credited less than this carry no number

const char* const POSITIVE = "#1a9641";  // credit for White
const char* const NEGATIVE = "#d7191c";  // credit for Black
const char* const LIGHT = "#f2f2f2", *const DARK = "#c8c8c8";

std::string num(double v, const char* f = "%.1f") {
    char b[32];
    std::snprintf(b, sizeof b, f, v);
    return b;
}
std::string signed_cp(double v) { return num(v, v > 0 ? "+%.1f" : "%.1f"); }

// Piece outlines in the 100 x 100 box; `ink` is the detail colour (contrasting with the fill).
std::string piece_shape(PieceType pt, const std::string& ink) {
    const std::string base = "<rect x='24' y='78' width='52' height='11' rx='3'/>";
    switch (pt) {
    case PAWN:
        return "<circle cx='50' cy='31' r='13'/><path d='M34,79 Q36,56 50,44 Q64,56 66,79 Z'/>" + base;
    case KNIGHT:
        return "<path d='M31,79 C30,63 44,58 42,50 C36,54 28,55 23,48 C21,43 39,26 47,20 L50,11 L57,20 "
               "C71,27 75,50 70,79 Z'/>" + base + "<circle cx='47' cy='30' r='3.5' fill='" + ink + "' stroke='none'/>";
    case BISHOP:
        return "<path d='M37,79 Q33,55 50,29 Q67,55 63,79 Z'/><circle cx='50' cy='21' r='6'/>" + base +
               "<path d='M45,47 L57,58' stroke='" + ink + "' fill='none'/>";
    case ROOK:
        return "<rect x='33' y='40' width='34' height='39'/>"
               "<path d='M27,22 h10 v8 h8 v-8 h10 v8 h8 v-8 h10 v19 h-46 Z'/>" + base;
    case QUEEN:
        return "<path d='M30,79 L22,34 L34,57 L37,27 L44,53 L50,22 L56,53 L63,27 L66,57 L78,34 L70,79 Z'/>"
               "<circle cx='22' cy='32' r='4.5'/><circle cx='37' cy='25' r='4.5'/><circle cx='50' cy='19' r='4.5'/>"
               "<circle cx='63' cy='25' r='4.5'/><circle cx='78' cy='32' r='4.5'/>" + base;
    case KING:
        return "<path d='M32,79 C20,58 27,41 40,43 C45,44 48,48 50,55 C52,48 55,44 60,43 C73,41 80,58 68,79 Z'/>"
               "<rect x='47' y='12' width='6' height='30'/><rect x='39' y='20' width='22' height='6'/>" + base;
    default: return "";
    }
}

std::string piece_defs() {
    std::string s = "<defs>\n";
    const char* letters = " PNBRQK";
    for (Color c : {WHITE, BLACK}) {
        const std::string fill = c == WHITE ? "#ffffff" : "#2b2b2b", ink = c == WHITE ? "#000000" : "#ffffff";
        for (PieceType pt = PAWN; pt <= KING; ++pt)
            s += std::string("  <g id='") + (c == WHITE ? 'w' : 'b') + letters[pt] + "' fill='" + fill +
                 "' stroke='#000000' stroke-width='3' stroke-linejoin='round'>" + piece_shape(pt, ink) + "</g>\n";
    }
    s += "  <linearGradient id='scale' x1='0' x2='1' y1='0' y2='0'>"
         "<stop offset='0' stop-color='" + std::string(NEGATIVE) + "' stop-opacity='" + num(MAX_OPACITY, "%.2f") +
         "'/><stop offset='0.5' stop-color='#ffffff' stop-opacity='0'/><stop offset='1' stop-color='" + POSITIVE +
         "' stop-opacity='" + num(MAX_OPACITY, "%.2f") + "'/></linearGradient>\n";
    return s + "</defs>\n";
}

// A round number at or above v for the colour scale's end.
double nice_ceiling(double v) {
    v = std::max(v, MIN_SCALE_CP);
    for (double m = 1;; m *= 10)
        for (double step : {1.0, 2.0, 2.5, 5.0})
            if (step * m >= v) return step * m;
}

std::string square_name(Square s) { return std::string(1, char('a' + file_of(s))) + char('1' + rank_of(s)); }

std::string xml_text(const std::string& s) {
    std::string out;
    for (char ch : s) {
        if (ch == '&') out += "&amp;";
        else if (ch == '<') out += "&lt;";
        else if (ch == '>') out += "&gt;";
        else if (ch == '\'') out += "&apos;";
        else out += ch;
    }
    return out;
}

void panel(std::ostringstream& os, const Comparison& c, const Column& col, int x0, double scale) {
    const Position& pos = c.pos;
    const eval::TraceReport& r = col.report;
    const int bx = x0 + MARGIN, by = TITLE_H;
    os << "<g font-family='sans-serif'>\n";
    os << "<text x='" << x0 + PANEL_W / 2 << "' y='20' text-anchor='middle' font-size='17' font-weight='bold'>"
       << xml_text(col.label) << "</text>\n";
    os << "<text x='" << x0 + PANEL_W / 2 << "' y='40' text-anchor='middle' font-size='13'>final score "
       << (r.t.final_cp > 0 ? "+" : "") << r.t.final_cp << " cp for " << (r.stm == WHITE ? "White" : "Black")
       << " (to move); White's view " << (col.final_white() > 0 ? "+" : "") << col.final_white() << " cp</text>\n";
    // Squares: board colour, then the credit's shading, its number and a tooltip with the terms.
    for (int sq = 0; sq < 64; ++sq) {
        const Square s = Square(sq);
        const int x = bx + file_of(s) * SQ, y = by + (7 - rank_of(s)) * SQ;
        const bool light = (int(file_of(s)) + int(rank_of(s))) % 2 == 1;
        // data-square: the web page (web/) finds the square a click lands on.
        os << "<g data-square='" << square_name(s) << "'><rect x='" << x << "' y='" << y << "' width='" << SQ << "' height='" << SQ << "' fill='"
           << (light ? LIGHT : DARK) << "'/>";
        const double v = col.squares ? square_cp(col, s) : 0;
        if (std::fabs(v) >= SHOW_CP)
            os << "<rect x='" << x << "' y='" << y << "' width='" << SQ << "' height='" << SQ << "' fill='"
               << (v > 0 ? POSITIVE : NEGATIVE) << "' fill-opacity='" << num(MAX_OPACITY * std::min(1.0, std::fabs(v) / scale), "%.3f")
               << "'/>";
        std::string title = square_name(s);
        if (col.squares)
            for (int t = 0; t < eval::TERM_NB; ++t) {
                const int* sv = col.squares->v[t][sq];
                if (sv[0] || sv[1]) title += std::string("; ") + eval::TERM_NAMES[t] + " " + signed_cp(r.mix_cp(sv[0], sv[1]));
            }
        os << "<title>" << title << (std::fabs(v) >= SHOW_CP ? " = " + signed_cp(v) + " cp" : "") << "</title></g>\n";
    }
    // King zones (the squares next to each king, where attacks count), passed pawns, pieces, numbers.
    for (Color k : {WHITE, BLACK})
        for (Bitboard b = king_attacks(pos.king_square(k)); b;) {
            const Square s = pop_lsb(b);
            os << "<rect x='" << bx + file_of(s) * SQ + 2 << "' y='" << by + (7 - rank_of(s)) * SQ + 2 << "' width='"
               << SQ - 4 << "' height='" << SQ - 4 << "' fill='none' stroke='#1f4e9c' stroke-width='2' stroke-dasharray='5,3'/>\n";
        }
    const Bitboard passers = col.squares ? col.squares->passers : 0;
    const char* letters = " PNBRQK";
    for (int sq = 0; sq < 64; ++sq) {
        const Square s = Square(sq);
        const int x = bx + file_of(s) * SQ, y = by + (7 - rank_of(s)) * SQ;
        if (passers & square_bb(s))
            os << "<circle cx='" << x + SQ / 2 << "' cy='" << y + SQ / 2 << "' r='" << SQ / 2 - 3
               << "' fill='none' stroke='#ff8c00' stroke-width='4'/>\n";
        const Piece p = pos.piece_on(s);
        if (p != NO_PIECE)
            os << "<use xlink:href='#" << (color_of(p) == WHITE ? 'w' : 'b') << letters[type_of(p)] << "' transform='translate("
               << x + SQ * 0.1 << "," << y + SQ * 0.08 << ") scale(" << num(SQ * 0.8 / PIECE_BOX, "%.3f") << ")'/>\n";
        const double v = col.squares ? square_cp(col, s) : 0;
        if (std::fabs(v) >= SHOW_CP)
            os << "<text x='" << x + SQ - 3 << "' y='" << y + SQ - 3 << "' text-anchor='end' font-size='10' fill='#000000'>"
               << num(v, "%.0f") << "</text>\n";
    }
    // Coordinates.
    for (int i = 0; i < 8; ++i) {
        os << "<text x='" << bx + i * SQ + SQ / 2 << "' y='" << by + BOARD + 16 << "' text-anchor='middle' font-size='12'>"
           << char('a' + i) << "</text>";
        os << "<text x='" << bx - 8 << "' y='" << by + (7 - i) * SQ + SQ / 2 + 4 << "' text-anchor='middle' font-size='12'>"
           << char('1' + i) << "</text>\n";
    }
    os << "<rect x='" << bx << "' y='" << by << "' width='" << BOARD << "' height='" << BOARD
       << "' fill='none' stroke='#000000' stroke-width='1.5'/>\n";
    // Legend: the colour scale in centipawns, then what no square carries.
    const int ly = by + BOARD + 30, lw = BOARD - 80, lx = bx + 40;
    os << "<rect x='" << lx << "' y='" << ly << "' width='" << lw << "' height='14' fill='url(#scale)' stroke='#000000' stroke-width='0.5'/>\n";
    for (int k = 0; k <= 4; ++k) {
        const double v = -scale + k * scale / 2;
        os << "<text x='" << lx + k * lw / 4 << "' y='" << ly + 28 << "' text-anchor='middle' font-size='11'>"
           << (v > 0 ? "+" : "") << num(v, "%.0f") << "</text>";
    }
    os << "\n<text x='" << bx + BOARD / 2 << "' y='" << ly + 44 << "' text-anchor='middle' font-size='11'>"
       << "credit on a square, cp, White's view (green: for White, red: for Black)</text>\n";
    os << "<text x='" << bx + BOARD / 2 << "' y='" << ly + 62 << "' text-anchor='middle' font-size='11'>not on a square:";
    for (int t : {eval::T_MATERIAL, eval::T_IMBALANCE}) {
        os << " " << eval::TERM_NAMES[t] << " ";
        if (col.has[t]) os << signed_cp(r.term_cp(t));
        else os << "absent";
    }
    os << " cp</text>\n";
    os << "<text x='" << bx + BOARD / 2 << "' y='" << ly + 78 << "' text-anchor='middle' font-size='11'>phase "
       << int(r.t.mat.phase) << ", scale " << (r.t.ocb ? "1/2" : "1") << (r.t.lazy ? ", lazy (material only)" : "")
       << "; dashed: king zones; orange ring: scored passed pawn</text>\n";
    os << "</g>\n";
}

}  // namespace

double square_cp(const Column& column, Square s) {
    if (!column.squares) return 0;
    double sum = 0;
    for (int t = 0; t < eval::TERM_NB; ++t)
        sum += column.report.mix_cp(column.squares->v[t][s][0], column.squares->v[t][s][1]);
    return sum;
}

std::string board_svg(const Comparison& c) {
    double largest = 0;
    for (const Column& col : c.columns)
        for (int sq = 0; sq < 64; ++sq) largest = std::max(largest, std::fabs(square_cp(col, Square(sq))));
    const double scale = nice_ceiling(largest);
    const int n = int(c.columns.size());
    const int width = n * PANEL_W + (n - 1) * PANEL_GAP, height = TITLE_H + BOARD + LEGEND_H;
    std::ostringstream os;
    os << "<?xml version='1.0' encoding='UTF-8'?>\n"
       << "<svg xmlns='http://www.w3.org/2000/svg' xmlns:xlink='http://www.w3.org/1999/xlink' width='" << width
       << "' height='" << height << "' viewBox='0 0 " << width << " " << height << "'>\n"
       << "<title>Quince evaluation: " << xml_text(c.pos.fen()) << "</title>\n"
       << piece_defs() << "<rect width='100%' height='100%' fill='#ffffff'/>\n";
    for (int i = 0; i < n; ++i) panel(os, c, c.columns[std::size_t(i)], i * (PANEL_W + PANEL_GAP), scale);
    os << "</svg>\n";
    return os.str();
}

}  // namespace quince::workbench
