#include "time_control.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace quince::match {

std::optional<std::int64_t> parse_seconds(const std::string& text) {
    if (text.empty()) return std::nullopt;
    std::size_t colon = text.find(':');
    if (colon != std::string::npos) {
        auto minutes = parse_seconds(text.substr(0, colon));
        auto seconds = parse_seconds(text.substr(colon + 1));
        if (!minutes || !seconds) return std::nullopt;
        return *minutes * 60 + *seconds;
    }
    char* end = nullptr;
    double v = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || !(v >= 0) || v > 1e9) return std::nullopt;
    return std::int64_t(std::llround(v * 1000.0));
}

bool parse_clock(const std::string& text, TimeControl* tc) {
    if (text == "inf" || text == "infinite") {
        tc->infinite_clock = true;
        tc->base_ms = tc->increment_ms = 0;
        tc->moves_per_period = 0;
        return true;
    }
    std::string rest = text;
    int moves = 0;
    std::size_t slash = rest.find('/');
    if (slash != std::string::npos) {
        char* end = nullptr;
        std::string m = rest.substr(0, slash);
        long v = std::strtol(m.c_str(), &end, 10);
        if (m.empty() || end != m.c_str() + m.size() || v <= 0 || v > 10000) return false;
        moves = int(v);
        rest = rest.substr(slash + 1);
    }
    std::string base = rest, inc;
    std::size_t plus = rest.find('+');
    if (plus != std::string::npos) base = rest.substr(0, plus), inc = rest.substr(plus + 1);
    auto base_ms = parse_seconds(base);
    if (!base_ms || *base_ms <= 0) return false;
    std::int64_t inc_ms = 0;
    if (plus != std::string::npos) {
        auto v = parse_seconds(inc);
        if (!v) return false;
        inc_ms = *v;
    }
    tc->infinite_clock = false;
    tc->base_ms = *base_ms;
    tc->increment_ms = inc_ms;
    tc->moves_per_period = moves;
    return true;
}

namespace {
std::string seconds_text(std::int64_t ms) {
    std::ostringstream out;
    if (ms % 1000 == 0) out << ms / 1000;
    else out << double(ms) / 1000.0;
    return out.str();
}
}  // namespace

std::string TimeControl::pgn_tag() const {
    if (has_clock()) {
        std::string s;
        if (moves_per_period > 0) {
            s += std::to_string(moves_per_period);
            s += '/';
        }
        s += seconds_text(base_ms);
        if (increment_ms > 0) s += std::string("+") + seconds_text(increment_ms);
        return s;
    }
    if (movetime_ms > 0) return seconds_text(movetime_ms) + "/move";  // not PGN standard's "*", but clear
    return "-";
}

std::string TimeControl::describe() const {
    std::string s;
    auto add = [&s](const std::string& part) { s += (s.empty() ? "" : " ") + part; };
    if (has_clock()) add(std::string("tc=") + pgn_tag());
    if (movetime_ms > 0) add(std::string("st=") + seconds_text(movetime_ms));
    if (nodes > 0) add("nodes=" + std::to_string(nodes));
    if (depth > 0) add("depth=" + std::to_string(depth));
    return s.empty() ? "none" : s;
}

GameClock::GameClock(const TimeControl& tc) : tc_(tc), remaining_ms_(tc.has_clock() ? tc.base_ms : 0) {}

int GameClock::moves_to_go() const {
    if (!tc_.has_clock() || tc_.moves_per_period <= 0) return 0;
    return tc_.moves_per_period - moves_made_ % tc_.moves_per_period;
}

bool GameClock::charge(std::int64_t elapsed_ms, std::int64_t margin_ms) {
    bool in_time = true;
    if (tc_.movetime_ms > 0 && elapsed_ms > tc_.movetime_ms + margin_ms) in_time = false;
    if (tc_.has_clock()) {
        remaining_ms_ -= elapsed_ms;
        if (remaining_ms_ < -margin_ms) in_time = false;
        if (in_time) {
            // A move inside the margin but past zero keeps a zero clock rather than a debt.
            if (remaining_ms_ < 0) remaining_ms_ = 0;
            remaining_ms_ += tc_.increment_ms;
            ++moves_made_;
            if (tc_.moves_per_period > 0 && moves_made_ % tc_.moves_per_period == 0) remaining_ms_ += tc_.base_ms;
        }
    } else {
        ++moves_made_;
    }
    return in_time;
}

}  // namespace quince::match
