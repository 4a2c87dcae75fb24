// A child process with its stdin/stdout connected to pipes, read line by line with timeouts.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include <sys/types.h>

namespace quince::match {

class EngineProcess {
public:
    enum class ReadStatus { Line, Timeout, Eof };

    EngineProcess() = default;
    ~EngineProcess();
    EngineProcess(const EngineProcess&) = delete;
    EngineProcess& operator=(const EngineProcess&) = delete;

    // Starts `command` with `args` (PATH is searched). working_dir empty = inherit. False + *error on failure.
    bool start(const std::string& command, const std::vector<std::string>& args, const std::string& working_dir,
               std::string* error);
    bool running() const { return pid_ > 0; }
    // Writes one line (a newline is appended). False when the process has gone or has not read its input
    // for write_timeout.
    bool write_line(const std::string& line);
    // Waits at most `timeout` for a complete line.
    ReadStatus read_line(std::string& line, std::chrono::milliseconds timeout);
    // Closes stdin, waits up to `grace` for a voluntary exit, then kills. Idempotent.
    void stop(std::chrono::milliseconds grace);
    // Has the child exited? (non-blocking; reaps it)
    bool has_exited();
    std::string exit_description() const { return exit_description_; }
    void set_write_timeout(std::chrono::milliseconds t) { write_timeout_ = t; }

private:
    void close_pipes();
    void reap(bool block);

    pid_t pid_ = -1;
    int to_child_ = -1;
    int from_child_ = -1;
    std::string buffer_;
    bool eof_ = false;
    std::string exit_description_;
    std::chrono::milliseconds write_timeout_{5000};
};

}  // namespace quince::match
