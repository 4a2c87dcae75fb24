#include "uci_engine.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace quince::match {

using SteadyClock = std::chrono::steady_clock;

std::string EngineScore::text() const {
    char buf[32];
    if (is_mate) std::snprintf(buf, sizeof buf, "%sM%d", value > 0 ? "+" : "-", std::abs(value));
    else std::snprintf(buf, sizeof buf, "%+.2f", value / 100.0);
    return buf;
}

DebugLog::DebugLog(const std::string& path) : out_(path, std::ios::app) {}

void DebugLog::write(const std::string& engine, char direction, const std::string& line) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start_).count();
    out_ << ms << ' ' << engine << ' ' << direction << ' ' << line << '\n';
    out_.flush();
}

bool UciEngine::send(const std::string& line) {
    if (config_.debug_log) config_.debug_log->write(config_.name, '<', line);
    return process_.write_line(line);
}

EngineProcess::ReadStatus UciEngine::receive(std::string& line, std::chrono::milliseconds timeout) {
    auto status = process_.read_line(line, timeout);
    if (config_.debug_log) {
        if (status == EngineProcess::ReadStatus::Line) config_.debug_log->write(config_.name, '>', line);
        else if (status == EngineProcess::ReadStatus::Eof) config_.debug_log->write(config_.name, '!', "<end of output>");
    }
    return status;
}

bool UciEngine::wait_for(const std::string& token, std::int64_t timeout_ms, std::string* error,
                         std::vector<std::string>* others) {
    const auto deadline = SteadyClock::now() + std::chrono::milliseconds(timeout_ms);
    std::string line;
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
        auto status = receive(line, std::max(left, std::chrono::milliseconds(0)));
        if (status == EngineProcess::ReadStatus::Eof) {
            process_.stop(std::chrono::milliseconds(100));
            if (error) *error = "engine exited while waiting for " + token + " (" + process_.exit_description() + ")";
            return false;
        }
        if (status == EngineProcess::ReadStatus::Timeout) {
            if (error) *error = "no " + token + " within " + std::to_string(timeout_ms) + " ms";
            return false;
        }
        std::istringstream in(line);
        std::string first;
        in >> first;
        if (first == token) return true;
        if (others) others->push_back(line);
        if (first == "option") {
            // "option name <words…> type …": the name may contain spaces.
            std::size_t name_at = line.find(" name ");
            std::size_t type_at = line.find(" type ");
            if (name_at != std::string::npos && type_at != std::string::npos && type_at > name_at)
                advertised_options_.push_back(line.substr(name_at + 6, type_at - name_at - 6));
        } else if (first == "id") {
            std::string what;
            in >> what;
            if (what == "name") {
                std::getline(in, id_name_);
                if (!id_name_.empty() && id_name_[0] == ' ') id_name_.erase(0, 1);
            }
        }
    }
}

bool UciEngine::start(std::string* error) {
    process_.stop(std::chrono::milliseconds(200));
    std::string why;
    if (!process_.start(config_.command, config_.args, config_.working_dir, &why)) {
        if (error) *error = why;
        return false;
    }
    if (starts_++ > 0) ++restarts_;
    advertised_options_.clear();
    if (!send("uci") || !wait_for("uciok", config_.protocol_timeout_ms, &why)) {
        process_.stop(std::chrono::milliseconds(100));
        if (error) *error = config_.name + ": " + why;
        return false;
    }
    for (const auto& [option, value] : config_.options) send("setoption name " + option + " value " + value);
    std::vector<std::string> answers;
    if (!send("isready") || !wait_for("readyok", config_.protocol_timeout_ms, &why, &answers)) {
        process_.stop(std::chrono::milliseconds(100));
        if (error) *error = config_.name + ": " + why;
        return false;
    }
    for (const std::string& line : answers)
        if (refuses_option(line)) {
            process_.stop(std::chrono::milliseconds(100));
            if (error) *error = config_.name + " refused an option: " + line;
            return false;
        }
    needs_restart_ = false;
    return true;
}

bool UciEngine::prepare_new_game(std::string* error) {
    if (needs_restart_ || !alive()) {
        if (!start(error)) return false;
    }
    std::string why;
    if (!send("ucinewgame") || !send("isready") || !wait_for("readyok", config_.protocol_timeout_ms, &why)) {
        // One restart attempt: an engine stuck from the last game should not cost the next one.
        if (!start(error)) return false;
        if (!send("ucinewgame") || !send("isready") || !wait_for("readyok", config_.protocol_timeout_ms, &why)) {
            needs_restart_ = true;
            if (error) *error = config_.name + ": " + why;
            return false;
        }
    }
    return true;
}

bool UciEngine::refuses_option(const std::string& line) {
    std::istringstream in(line);
    std::string a, b, c;
    in >> a >> b >> c;
    if (a == "info" && b == "string") {
        for (char& ch : c) ch = char(std::tolower(static_cast<unsigned char>(ch)));
        if (!c.empty() && c.back() == ':') c.pop_back();
        return c == "error";
    }
    return line.rfind("No such option", 0) == 0;
}

bool UciEngine::parse_info(const std::string& line, std::optional<EngineScore>* score, int* depth) {
    std::istringstream in(line);
    std::string token;
    in >> token;
    if (token != "info") return false;
    bool found = false;
    bool bound = false;
    std::optional<EngineScore> parsed;
    int parsed_depth = -1;
    while (in >> token) {
        if (token == "string") return false;  // free text follows
        if (token == "multipv") {
            int pv = 1;
            in >> pv;
            if (pv != 1) return false;  // only the main line counts
        } else if (token == "depth") {
            in >> parsed_depth;
        } else if (token == "score") {
            std::string kind;
            int value = 0;
            if (in >> kind >> value) {
                if (kind == "cp") parsed = EngineScore{false, value};
                else if (kind == "mate") parsed = EngineScore{true, value};
            }
        } else if (token == "lowerbound" || token == "upperbound") {
            bound = true;
        } else if (token == "pv") {
            break;
        }
    }
    if (parsed && !bound) {
        *score = parsed;
        found = true;
    }
    // The depth goes with the score it was reached at; a bare "info depth N" only counts before any score.
    if (parsed_depth >= 0 && ((parsed && !bound) || !score->has_value())) {
        *depth = parsed_depth;
        found = true;
    }
    return found;
}

SearchResult UciEngine::search(const std::string& position_command, const std::string& go_command,
                               std::int64_t timeout_ms) {
    SearchResult result;
    if (!send(position_command) || !send(go_command)) {
        result.status = SearchResult::Status::Crash;
        process_.stop(std::chrono::milliseconds(100));
        result.error = "engine " + config_.name + " is gone (" + process_.exit_description() + ")";
        needs_restart_ = true;
        return result;
    }
    const auto start = SteadyClock::now();
    const auto deadline = start + std::chrono::milliseconds(timeout_ms);
    std::string line;
    for (;;) {
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now());
        auto status = receive(line, std::max(left, std::chrono::milliseconds(0)));
        auto now = SteadyClock::now();
        result.elapsed_ms = std::chrono::duration_cast<std::chrono::milliseconds>(now - start).count();
        if (status == EngineProcess::ReadStatus::Eof) {
            process_.stop(std::chrono::milliseconds(100));
            result.status = SearchResult::Status::Crash;
            result.error = "engine " + config_.name + " crashed (" + process_.exit_description() + ")";
            needs_restart_ = true;
            return result;
        }
        if (status == EngineProcess::ReadStatus::Timeout) {
            result.status = SearchResult::Status::Timeout;
            result.error = "no bestmove from " + config_.name + " within " + std::to_string(timeout_ms) + " ms";
            // Try to get the engine back to idle; if it does not answer, it is restarted before the next game.
            send("stop");
            std::string why;
            if (!wait_for("bestmove", 1000, &why)) needs_restart_ = true;
            return result;
        }
        if (line.compare(0, 5, "info ") == 0) {
            parse_info(line, &result.score, &result.depth);
            continue;
        }
        std::istringstream in(line);
        std::string first;
        in >> first;
        if (first == "bestmove") {
            if (!(in >> result.bestmove)) {
                result.status = SearchResult::Status::ProtocolError;
                result.error = "empty bestmove from " + config_.name;
            }
            return result;
        }
    }
}

std::vector<std::string> UciEngine::unknown_options() const {
    std::vector<std::string> unknown;
    for (const auto& [option, value] : config_.options) {
        bool known = false;
        for (const std::string& a : advertised_options_) known = known || a == option;
        if (!known) unknown.push_back(option);
    }
    return unknown;
}

void UciEngine::quit() {
    if (process_.running()) {
        send("quit");
        process_.stop(std::chrono::milliseconds(500));
    }
    needs_restart_ = true;
}

}  // namespace quince::match
