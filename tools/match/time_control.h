// Time controls (cutechess-like syntax) and the per-game chess clock that enforces them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace quince::match {

struct TimeControl {
    // Clock: base time per period (ms), increment (ms), moves per period (0 = whole game).
    std::int64_t base_ms = 0;
    std::int64_t increment_ms = 0;
    int moves_per_period = 0;
    std::int64_t movetime_ms = 0;  // st=…: fixed time per move
    std::int64_t nodes = 0;        // nodes=…
    int depth = 0;                 // depth=…
    bool infinite_clock = false;   // tc=inf: no clock (for nodes/depth only)

    bool has_clock() const { return base_ms > 0 && !infinite_clock; }
    bool has_any_limit() const { return has_clock() || movetime_ms > 0 || nodes > 0 || depth > 0; }
    // PGN TimeControl tag value: "40/60+0.5", "10+0.1", "st=…", "-"
    std::string pgn_tag() const;
    std::string describe() const;
};

// Parses "10+0.1", "40/60", "40/60+0.5", "60", "inf" into the clock fields of *tc. Seconds may be fractional;
// "1:30+1" (minutes:seconds) also works. Returns false on bad syntax.
bool parse_clock(const std::string& text, TimeControl* tc);
// Seconds (fractional) -> milliseconds; nullopt on bad syntax.
std::optional<std::int64_t> parse_seconds(const std::string& text);

// One player's clock during a game.
class GameClock {
public:
    explicit GameClock(const TimeControl& tc);
    std::int64_t remaining_ms() const { return remaining_ms_; }
    // Moves left in the current period (movestogo), 0 when the period is the whole game.
    int moves_to_go() const;
    // Charges a move that took `elapsed_ms`. Returns false if it overstepped the clock (or movetime) by more
    // than margin_ms; the clock is then left negative.
    bool charge(std::int64_t elapsed_ms, std::int64_t margin_ms);

private:
    TimeControl tc_;
    std::int64_t remaining_ms_ = 0;
    int moves_made_ = 0;
};

}  // namespace quince::match
