// The training format shared by quince datagen (writes it), quince tune and quince wdlfit (read it): one position per line, the common "text" format of the field
//   <FEN> | <score> | <result>            or            <FEN> | <score> | <result> | <teacher>
// score: the search score in centipawns from White's view (an integer; mate scores are never written),
// result: 1.0 / 0.5 / 0.0 (the game's result from White's view), teacher: a teacher engine's score in
// centipawns from White's view.
#pragma once

#include <optional>
#include <string>

#include "board/position.h"

namespace quince::training {

struct Sample {
    std::string fen;
    int score = 0;                // centipawns, White's view
    double result = 0.5;          // 1.0 White won, 0.5 draw, 0.0 Black won
    std::optional<int> teacher;   // centipawns, White's view
    bool operator==(const Sample&) const = default;
};

// Largest |score| and |teacher| a line may carry: anything beyond is a mate score, which is no data.
constexpr int MAX_SAMPLE_SCORE = 30000;

// One line (without its newline) → *sample. False + *error naming the field that is wrong: the field count,
// an illegal FEN, a score or teacher that is not an integer in ±MAX_SAMPLE_SCORE, a result that is not
// 1.0 / 0.5 / 0.0. *sample is unchanged on failure.
bool parse_sample(const std::string& line, Sample& sample, std::string* error);
// The same, *pos (when given) getting the FEN's position (the check sets it up anyway).
bool parse_sample(const std::string& line, Sample& sample, std::string* error, Position* pos);

// The line for a sample (no newline): "FEN | score | result[ | teacher]", result written as 1.0 / 0.5 / 0.0.
std::string format_sample(const Sample& sample);

}  // namespace quince::training
