// Match statistics: W/D/L, Elo with 95% error bars, LOS, pentanomial pair counts and the SPRT.
//
// Elo model: logistic, E = 1 / (1 + 10^(-elo/400)).
// Error bars: normal approximation of the mean score, 95% (z = 1.959964), mapped through the logistic curve;
// the trinomial version uses per-game variance, the pentanomial one uses the variance of game-pair scores
// (which accounts for the correlation between the two games of an opening).
// SPRT: the GSPRT approximation of the log-likelihood ratio for the logistic model with pentanomial variance,
//   LLR = N_pairs * (s1 - s0) * (2*mean - s0 - s1) / (2 * variance),
// with s0/s1 the expected pair scores at elo0/elo1 and mean/variance those of the observed pair scores.
#pragma once

#include <array>
#include <string>

namespace quince::match {

double elo_to_score(double elo);
double score_to_elo(double score);

struct EloEstimate {
    double elo = 0;
    double error = 0;  // half-width of the 95% interval (infinite when undefined)
    double lower = 0, upper = 0;
};

// From the point of view of the first player of the pairing.
struct MatchStats {
    int wins = 0, draws = 0, losses = 0;
    // Pairs of games with the same opening and reversed colours, by the pair's total in half points:
    // [0] LL, [1] LD, [2] DD or WL, [3] WD, [4] WW.
    std::array<int, 5> pairs{};

    int games() const { return wins + draws + losses; }
    int pair_count() const { return pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4]; }
    double score() const;  // mean game score in [0, 1]
    EloEstimate elo_trinomial() const;
    EloEstimate elo_pentanomial() const;
    double los() const;  // likelihood of superiority from wins and losses
    double draw_ratio() const;
};

struct SprtConfig {
    bool enabled = false;
    double elo0 = 0, elo1 = 5, alpha = 0.05, beta = 0.05;
    double lower_bound() const;  // log(beta / (1 - alpha))
    double upper_bound() const;  // log((1 - beta) / alpha)
};

enum class SprtDecision { Continue, AcceptH0, AcceptH1 };

double sprt_llr(const std::array<int, 5>& pairs, double elo0, double elo1);
SprtDecision sprt_decide(double llr, const SprtConfig& config);

// "Elo: 12.3 +/- 45.6, LOS: 70.1 %, DrawRatio: 40.0 %"-style summary line pieces.
std::string format_elo(const EloEstimate& e);

}  // namespace quince::match
