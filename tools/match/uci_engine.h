// A UCI engine: its configuration, process lifetime (start, restart after a crash) and the search request.
#pragma once

#include <chrono>
#include <cstdint>
#include <fstream>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine_process.h"
#include "time_control.h"

namespace quince::match {

// -debug FILE: every line sent to and received from the engines, with a timestamp (shared by all engines).
class DebugLog {
public:
    explicit DebugLog(const std::string& path);
    bool ok() const { return out_.good(); }
    void write(const std::string& engine, char direction, const std::string& line);

private:
    std::mutex mutex_;
    std::ofstream out_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

struct EngineConfig {
    std::string name;
    std::string command;
    std::vector<std::string> args;
    std::string working_dir;
    std::vector<std::pair<std::string, std::string>> options;  // setoption name … value …, in order
    TimeControl tc;
    std::int64_t time_margin_ms = 0;  // tolerance before a clock overrun loses the game
    // Waits for uciok/readyok and, for nodes/depth-limited searches, for bestmove.
    std::int64_t protocol_timeout_ms = 10000;
    std::int64_t search_timeout_ms = 60000;  // hard limit per move when there is no clock
    std::shared_ptr<DebugLog> debug_log;     // null = no logging
};

struct EngineScore {
    bool is_mate = false;
    int value = 0;  // centipawns, or moves to mate (negative: getting mated); side-to-move's view
    // Centipawns for adjudication: mates count as huge scores.
    int adjudication_cp() const { return is_mate ? (value > 0 ? 100000 - value : -100000 - value) : value; }
    std::string text() const;  // "+0.34", "-1.20", "+M5", "-M3"
};

struct SearchResult {
    enum class Status { Ok, Timeout, Crash, ProtocolError };
    Status status = Status::Ok;
    std::string bestmove;
    std::optional<EngineScore> score;
    int depth = 0;
    std::int64_t elapsed_ms = 0;
    std::string error;
};

class UciEngine {
public:
    explicit UciEngine(EngineConfig config) : config_(std::move(config)) {}
    const EngineConfig& config() const { return config_; }
    const std::string& name() const { return config_.name; }
    const std::string& id_name() const { return id_name_; }

    // Starts the process and runs the uci / setoption / isready handshake. False + *error on failure, also
    // when the engine refuses one of its options (a match whose engine silently runs with another net or
    // hash than asked is void).
    bool start(std::string* error);
    bool alive() { return process_.running() && !process_.has_exited(); }
    // Makes sure a healthy process is there (restarting it if needed) and sends ucinewgame + isready.
    bool prepare_new_game(std::string* error);
    // Sends `position_command` and `go_command`, waits for bestmove at most `timeout_ms`, timed on
    // steady_clock from the moment go is written. Info lines are parsed for score and depth.
    SearchResult search(const std::string& position_command, const std::string& go_command, std::int64_t timeout_ms);
    // Tells the engine the game is over (kills it if it does not answer stop in time).
    void quit();
    int restarts() const { return restarts_; }
    // Configured options that the engine did not advertise (after start); they are sent anyway.
    std::vector<std::string> unknown_options() const;

    // Parses the score and depth of one "info" line; false when it has neither.
    static bool parse_info(const std::string& line, std::optional<EngineScore>* score, int* depth);
    // Whether a line an engine writes after setoption refuses the option: `info string error…` (Quince and
    // engines like it) or `No such option: …` (Stockfish).
    static bool refuses_option(const std::string& line);

private:
    // Reads lines until one starts with `token`; the other lines go to *others when given.
    bool wait_for(const std::string& token, std::int64_t timeout_ms, std::string* error,
                  std::vector<std::string>* others = nullptr);
    bool send(const std::string& line);
    EngineProcess::ReadStatus receive(std::string& line, std::chrono::milliseconds timeout);

    EngineConfig config_;
    EngineProcess process_;
    std::string id_name_;
    std::vector<std::string> advertised_options_;
    bool needs_restart_ = true;
    int starts_ = 0;
    int restarts_ = 0;
};

}  // namespace quince::match
