#include "stats.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace quince::match {

namespace {
constexpr double Z95 = 1.959963984540054;
constexpr double INF = std::numeric_limits<double>::infinity();

EloEstimate estimate(double mean, double variance_of_mean) {
    EloEstimate e;
    e.elo = score_to_elo(mean);
    double half = Z95 * std::sqrt(std::max(variance_of_mean, 0.0));
    e.lower = score_to_elo(mean - half);
    e.upper = score_to_elo(mean + half);
    e.error = (std::isfinite(e.lower) && std::isfinite(e.upper)) ? (e.upper - e.lower) / 2 : INF;
    return e;
}
}  // namespace

double elo_to_score(double elo) { return 1.0 / (1.0 + std::pow(10.0, -elo / 400.0)); }

double score_to_elo(double score) {
    if (score <= 0) return -INF;
    if (score >= 1) return INF;
    return -400.0 * std::log10(1.0 / score - 1.0) + 0.0;  // + 0.0 turns -0 into 0 for printing
}

double MatchStats::score() const {
    return games() ? (wins + 0.5 * draws) / games() : 0.5;
}

double MatchStats::draw_ratio() const { return games() ? double(draws) / games() : 0; }

EloEstimate MatchStats::elo_trinomial() const {
    int n = games();
    if (n == 0) return {0, INF, -INF, INF};
    double s = score();
    double var = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
    return estimate(s, var / n);
}

EloEstimate MatchStats::elo_pentanomial() const {
    int n = pair_count();
    if (n == 0) return {0, INF, -INF, INF};
    double mean = 0, var = 0;
    for (int k = 0; k < 5; ++k) mean += pairs[k] * (k / 4.0);
    mean /= n;
    for (int k = 0; k < 5; ++k) var += pairs[k] * (k / 4.0 - mean) * (k / 4.0 - mean);
    var /= n;
    return estimate(mean, var / n);
}

double MatchStats::los() const {
    if (wins + losses == 0) return 0.5;
    return 0.5 * (1 + std::erf((wins - losses) / std::sqrt(2.0 * (wins + losses))));
}

double SprtConfig::lower_bound() const { return std::log(beta / (1 - alpha)); }
double SprtConfig::upper_bound() const { return std::log((1 - beta) / alpha); }

double sprt_llr(const std::array<int, 5>& pairs, double elo0, double elo1) {
    // Below a minimum sample the variance estimate means nothing: with the regularisation below, a single
    // won pair would give an LLR above the usual H1 bound. No evidence either way until then.
    constexpr int MIN_PAIRS = 10;
    if (pairs[0] + pairs[1] + pairs[2] + pairs[3] + pairs[4] < MIN_PAIRS) return 0;
    // Empty categories get a tiny weight so that the variance never collapses to 0 (e.g. only won pairs).
    double count[5], n = 0;
    for (int k = 0; k < 5; ++k) count[k] = pairs[k] > 0 ? pairs[k] : 1e-3, n += count[k];
    double mean = 0, var = 0;
    for (int k = 0; k < 5; ++k) mean += count[k] * (k / 4.0);
    mean /= n;
    for (int k = 0; k < 5; ++k) var += count[k] * (k / 4.0 - mean) * (k / 4.0 - mean);
    var /= n;
    double s0 = elo_to_score(elo0), s1 = elo_to_score(elo1);
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var);
}

SprtDecision sprt_decide(double llr, const SprtConfig& config) {
    if (llr >= config.upper_bound()) return SprtDecision::AcceptH1;
    if (llr <= config.lower_bound()) return SprtDecision::AcceptH0;
    return SprtDecision::Continue;
}

std::string format_elo(const EloEstimate& e) {
    char buf[64];
    if (!std::isfinite(e.elo)) std::snprintf(buf, sizeof buf, "%s +/- inf", e.elo > 0 ? "+inf" : "-inf");
    else if (!std::isfinite(e.error)) std::snprintf(buf, sizeof buf, "%.1f +/- inf", e.elo);
    else std::snprintf(buf, sizeof buf, "%.1f +/- %.1f", e.elo, e.error);
    return buf;
}

}  // namespace quince::match
