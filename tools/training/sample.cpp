#include "training/sample.h"

#include <vector>

#include "board/position.h"
#include "core/text.h"

namespace quince::training {

namespace {

bool parse_score(const std::string& text, int* out) {
    return parse_integer(text, out, -MAX_SAMPLE_SCORE, MAX_SAMPLE_SCORE);
}

}  // namespace

bool parse_sample(const std::string& line, Sample& sample, std::string* error) {
    return parse_sample(line, sample, error, nullptr);
}

bool parse_sample(const std::string& line, Sample& sample, std::string* error, Position* pos_out) {
    auto fail = [error](const std::string& what) {
        if (error) *error = what;
        return false;
    };
    std::vector<std::string> fields;
    std::size_t start = 0;
    while (true) {
        std::size_t bar = line.find('|', start);
        fields.push_back(trim(line.substr(start, bar == std::string::npos ? std::string::npos : bar - start)));
        if (bar == std::string::npos) break;
        start = bar + 1;
    }
    if (fields.size() != 3 && fields.size() != 4)
        return fail("expected 'FEN | score | result [| teacher]', found " + std::to_string(fields.size()) +
                    " field(s)");
    Sample s;
    s.fen = fields[0];
    if (s.fen.empty()) return fail("empty FEN");
    Position pos;
    std::string why;
    if (!pos.set_fen(s.fen, false, &why)) return fail("bad FEN '" + s.fen + "': " + why);
    if (!parse_score(fields[1], &s.score))
        return fail("score '" + fields[1] + "' is not an integer in ±" + std::to_string(MAX_SAMPLE_SCORE));
    const std::string& r = fields[2];
    if (r == "1.0" || r == "1") s.result = 1.0;
    else if (r == "0.5") s.result = 0.5;
    else if (r == "0.0" || r == "0") s.result = 0.0;
    else return fail("result '" + r + "' is not 1.0, 0.5 or 0.0");
    if (fields.size() == 4) {
        int t = 0;
        if (!parse_score(fields[3], &t))
            return fail("teacher score '" + fields[3] + "' is not an integer in ±" + std::to_string(MAX_SAMPLE_SCORE));
        s.teacher = t;
    }
    sample = std::move(s);
    if (pos_out) *pos_out = std::move(pos);
    return true;
}

std::string format_sample(const Sample& s) {
    const char* result = s.result >= 0.75 ? "1.0" : s.result <= 0.25 ? "0.0" : "0.5";
    std::string line = s.fen + " | " + std::to_string(s.score) + " | " + result;
    if (s.teacher) line += " | " + std::to_string(*s.teacher);
    return line;
}

}  // namespace quince::training
