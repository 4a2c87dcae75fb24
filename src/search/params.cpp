#include "search/params.h"

#include "eval/evaluate.h"
#include "eval/weights.h"

#include <cstdio>
#include <cstdlib>

namespace quince::search::param {

const std::vector<ParamInfo>& search_params() {
#define QUINCE_SEARCH_PARAM_INFO(name, def, lo, hi, c_end, r_end) {#name, def, lo, hi, c_end, r_end},
    static const std::vector<ParamInfo> params = {QUINCE_SEARCH_PARAMS(QUINCE_SEARCH_PARAM_INFO)};
#undef QUINCE_SEARCH_PARAM_INFO
    return params;
}

namespace {

#ifdef QUINCE_TUNING
int* storage(const std::string& name) {
#define QUINCE_SEARCH_PARAM_REF(n, def, lo, hi, c_end, r_end) \
    if (name == #n) return &n;
    QUINCE_SEARCH_PARAMS(QUINCE_SEARCH_PARAM_REF)
#undef QUINCE_SEARCH_PARAM_REF
    return nullptr;
}
#endif

}  // namespace

int search_param_value(const ParamInfo& p) {
#ifdef QUINCE_TUNING
    return *storage(p.name);
#else
    return p.default_value;
#endif
}

bool set_search_param(const std::string& name, int value, std::string* error) {
#ifdef QUINCE_TUNING
    for (const ParamInfo& p : search_params()) {
        if (name != p.name) continue;
        if (value < p.min || value > p.max) {
            *error = name + " must be between " + std::to_string(p.min) + " and " + std::to_string(p.max);
            return false;
        }
        *storage(name) = value;
        if (name == "LmrBase" || name == "LmrDivisor") rebuild_reductions();
        return true;
    }
    *error = "unknown search parameter '" + name + "'";
    return false;
#else
    (void)value;
    *error = "search parameter '" + name + "' is a constant in this build (tuning build: QUINCE_TUNING)";
    return false;
#endif
}

std::string spsa_line(const std::string& name, int value, int min, int max, double c_end, double r_end) {
    // Shortest round-trip text of the doubles: 0.5, 0.002, 12 (no trailing zeros; the C locale). Not
    // std::to_chars: the libc++ of Debian's emscripten has no floating-point to_chars.
    auto number = [](double v) {
        char buf[40];
        for (int precision = 1; precision <= 17; ++precision) {
            std::snprintf(buf, sizeof buf, "%.*g", precision, v);
            if (std::strtod(buf, nullptr) == v) break;
        }
        return std::string(buf);
    };
    return name + ", int, " + std::to_string(value) + ", " + std::to_string(min) + ", " + std::to_string(max) +
           ", " + number(c_end) + ", " + number(r_end);
}

std::vector<std::string> spsa_input() {
    std::vector<std::string> lines;
    for (const auto& p : search_params())
        lines.push_back(spsa_line(p.name, search_param_value(p), p.min, p.max, p.c_end, p.r_end));
    eval::Weights w;
    eval::builtin_weights(eval::default_handcrafted_profile(), w);
    for (const auto& s : eval::spsa_weights(w)) lines.push_back(spsa_line(s.name, s.value, s.min, s.max, s.c_end, s.r_end));
    return lines;
}

}  // namespace quince::search::param
