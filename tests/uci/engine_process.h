// Runs the built engine as a child process and talks UCI to it through pipes. Every read has a
// timeout so that a hung engine fails the test instead of hanging CI.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace quince::test {

class EngineProcess {
public:
    EngineProcess() {
        int to_child[2], from_child[2];
        if (pipe(to_child) != 0 || pipe(from_child) != 0) return;
        pid_ = fork();
        if (pid_ == 0) {
            dup2(to_child[0], 0);
            dup2(from_child[1], 1);
            close(to_child[1]);
            close(from_child[0]);
            execl(QUINCE_ENGINE_PATH, QUINCE_ENGINE_PATH, static_cast<char*>(nullptr));
            _exit(127);
        }
        close(to_child[0]);
        close(from_child[1]);
        in_ = to_child[1];
        out_ = from_child[0];
        signal(SIGPIPE, SIG_IGN);
    }
    ~EngineProcess() {
        if (in_ >= 0) close(in_);
        if (pid_ > 0 && !exited_) {
            // Give it a moment to exit on EOF, then make sure it is gone.
            if (!wait_exit(2000)) {
                kill(pid_, SIGKILL);
                waitpid(pid_, nullptr, 0);
            }
        }
        if (out_ >= 0) close(out_);
    }

    void send(const std::string& line) { write_all(line + "\n"); }
    // The GUI going away: closing the engine's stdin (it reads end of input) and/or its stdout (its
    // next write fails: a broken pipe).
    void close_input() {
        if (in_ >= 0) close(in_);
        in_ = -1;
    }
    void close_output() {
        if (out_ >= 0) close(out_);
        out_ = -1;
    }
    void write_all(const std::string& data) {
        if (in_ < 0) return;
        std::size_t done = 0;
        while (done < data.size()) {
            ssize_t n = write(in_, data.data() + done, data.size() - done);
            if (n <= 0) return;
            done += std::size_t(n);
        }
    }

    // Next output line, or nullopt after timeout_ms / EOF.
    std::optional<std::string> read_line(int timeout_ms = 5000) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        for (;;) {
            std::size_t nl = buffer_.find('\n');
            if (nl != std::string::npos) {
                std::string line = buffer_.substr(0, nl);
                buffer_.erase(0, nl + 1);
                return line;
            }
            int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
            if (left <= 0 || out_ < 0) return std::nullopt;
            pollfd pfd{out_, POLLIN, 0};
            if (poll(&pfd, 1, left) <= 0) return std::nullopt;
            char chunk[4096];
            ssize_t n = read(out_, chunk, sizeof chunk);
            if (n <= 0) return std::nullopt;
            buffer_.append(chunk, std::size_t(n));
        }
    }

    // Reads until a line starting with `prefix`; returns all lines read (the match last), or
    // nullopt on timeout.
    std::optional<std::vector<std::string>> read_until(const std::string& prefix, int timeout_ms = 5000) {
        std::vector<std::string> lines;
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        for (;;) {
            int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
            auto line = read_line(std::max(left, 0));
            if (!line) return std::nullopt;
            lines.push_back(*line);
            if (line->rfind(prefix, 0) == 0) return lines;
        }
    }

    // Collects every line that arrives within `ms` (for "nothing else was printed" checks).
    std::vector<std::string> drain(int ms) {
        std::vector<std::string> lines;
        while (auto l = read_line(ms)) lines.push_back(*l);
        return lines;
    }

    // Freezes the engine (SIGSTOP) and returns once it is stopped: from then on it writes nothing, so
    // what it wrote before is all in the pipe. Lets a test pin down how far a search had got when a
    // command was sent, by the engine's own counts rather than by a clock.
    bool freeze() {
        if (pid_ <= 0 || kill(pid_, SIGSTOP) != 0) return false;
        int status = 0;
        return waitpid(pid_, &status, WUNTRACED) == pid_ && WIFSTOPPED(status);
    }
    void thaw() {
        if (pid_ > 0) kill(pid_, SIGCONT);
    }
    // Every whole line already written (no waiting: for a frozen engine, all it has said).
    std::vector<std::string> read_written() {
        char chunk[4096];
        pollfd pfd{out_, POLLIN, 0};
        while (out_ >= 0 && poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN)) {
            ssize_t n = read(out_, chunk, sizeof chunk);
            if (n <= 0) break;
            buffer_.append(chunk, std::size_t(n));
        }
        std::vector<std::string> lines;
        for (std::size_t nl; (nl = buffer_.find('\n')) != std::string::npos;) {
            lines.push_back(buffer_.substr(0, nl));
            buffer_.erase(0, nl + 1);
        }
        return lines;
    }

    bool wait_exit(int timeout_ms) {
        auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
        while (std::chrono::steady_clock::now() < deadline) {
            int status = 0;
            if (waitpid(pid_, &status, WNOHANG) == pid_) {
                exited_ = true;
                exit_status_ = status;
                return true;
            }
            usleep(2000);
        }
        return false;
    }
    int exit_status() const { return exit_status_; }

private:
    pid_t pid_ = -1;
    int in_ = -1, out_ = -1;
    bool exited_ = false;
    int exit_status_ = 0;
    std::string buffer_;
};

}  // namespace quince::test
