#include "engine_process.h"

#if !defined(_WIN32)

#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace quince::match {

using Clock = std::chrono::steady_clock;

EngineProcess::~EngineProcess() { stop(std::chrono::milliseconds(200)); }

bool EngineProcess::start(const std::string& command, const std::vector<std::string>& args,
                          const std::string& working_dir, std::string* error) {
    stop(std::chrono::milliseconds(0));
    // A write to a dead engine must fail with EPIPE, not kill the runner.
    std::signal(SIGPIPE, SIG_IGN);
    int in_pipe[2], out_pipe[2];
    // O_CLOEXEC: engines started concurrently by other threads must not inherit these ends,
    // or EOF would never be seen when this engine dies.
    if (pipe2(in_pipe, O_CLOEXEC) != 0) {
        if (error) *error = std::string("pipe: ") + std::strerror(errno);
        return false;
    }
    if (pipe2(out_pipe, O_CLOEXEC) != 0) {
        if (error) *error = std::string("pipe: ") + std::strerror(errno);
        ::close(in_pipe[0]), ::close(in_pipe[1]);
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, in_pipe[0], STDIN_FILENO);
    posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
    if (!working_dir.empty()) posix_spawn_file_actions_addchdir_np(&actions, working_dir.c_str());

    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(command.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);

    pid_t pid = -1;
    // Own process group: a Ctrl-C meant for the runner must not kill the engines in the middle of a game.
    // Signal dispositions are reset, since an ignored SIGPIPE would otherwise be inherited.
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    sigaddset(&defaults, SIGINT);
    posix_spawnattr_setsigdefault(&attributes, &defaults);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF);
    int rc = posix_spawnp(&pid, command.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    ::close(in_pipe[0]);
    ::close(out_pipe[1]);
    if (rc != 0) {
        ::close(in_pipe[1]);
        ::close(out_pipe[0]);
        if (error) *error = "cannot start '" + command + "': " + std::strerror(rc);
        return false;
    }
    pid_ = pid;
    ::fcntl(in_pipe[1], F_SETFL, ::fcntl(in_pipe[1], F_GETFL) | O_NONBLOCK);
    to_child_ = in_pipe[1];
    from_child_ = out_pipe[0];
    buffer_.clear();
    eof_ = false;
    exit_description_.clear();
    return true;
}

bool EngineProcess::write_line(const std::string& line) {
    if (to_child_ < 0) return false;
    std::string data = line + "\n";
    const char* p = data.data();
    std::size_t left = data.size();
    // Non-blocking writes with a deadline: an engine that stops reading its input must not hang the runner.
    const auto deadline = Clock::now() + write_timeout_;
    while (left > 0) {
        ssize_t n = ::write(to_child_, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK) return false;
            auto wait = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
            if (wait <= 0) return false;
            pollfd pfd{to_child_, POLLOUT, 0};
            ::poll(&pfd, 1, int(wait));
            continue;
        }
        p += n;
        left -= std::size_t(n);
    }
    return true;
}

EngineProcess::ReadStatus EngineProcess::read_line(std::string& line, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    for (;;) {
        std::size_t nl = buffer_.find('\n');
        if (nl != std::string::npos) {
            line.assign(buffer_, 0, nl);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            buffer_.erase(0, nl + 1);
            return ReadStatus::Line;
        }
        if (eof_ || from_child_ < 0) {
            if (!buffer_.empty()) {  // a last line without newline
                line.swap(buffer_);
                buffer_.clear();
                return ReadStatus::Line;
            }
            return ReadStatus::Eof;
        }
        auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
        if (left < 0) return ReadStatus::Timeout;
        pollfd pfd{from_child_, POLLIN, 0};
        int rc = ::poll(&pfd, 1, int(std::min<long long>(left, 1000000)) + 1);
        if (rc < 0) {
            if (errno == EINTR) continue;
            eof_ = true;
            continue;
        }
        if (rc == 0) continue;  // loop re-checks the deadline
        char chunk[65536];
        ssize_t n = ::read(from_child_, chunk, sizeof chunk);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN) continue;
            eof_ = true;
        } else if (n == 0) {
            eof_ = true;
        } else {
            buffer_.append(chunk, std::size_t(n));
        }
    }
}

void EngineProcess::close_pipes() {
    if (to_child_ >= 0) ::close(to_child_), to_child_ = -1;
    if (from_child_ >= 0) ::close(from_child_), from_child_ = -1;
}

void EngineProcess::reap(bool block) {
    if (pid_ <= 0) return;
    int status = 0;
    pid_t r = ::waitpid(pid_, &status, block ? 0 : WNOHANG);
    if (r == pid_) {
        if (WIFEXITED(status)) exit_description_ = "exit code " + std::to_string(WEXITSTATUS(status));
        else if (WIFSIGNALED(status)) exit_description_ = std::string("signal ") + strsignal(WTERMSIG(status));
        pid_ = -1;
    } else if (r < 0 && errno == ECHILD) {
        pid_ = -1;
    }
}

bool EngineProcess::has_exited() {
    reap(false);
    return pid_ <= 0;
}

void EngineProcess::stop(std::chrono::milliseconds grace) {
    if (to_child_ >= 0) ::close(to_child_), to_child_ = -1;  // EOF on stdin asks engines to quit
    if (pid_ > 0) {
        const auto deadline = Clock::now() + grace;
        while (!has_exited() && Clock::now() < deadline) std::this_thread::sleep_for(std::chrono::milliseconds(5));
        if (pid_ > 0) {
            ::kill(pid_, SIGKILL);
            reap(true);
        }
    }
    close_pipes();
    buffer_.clear();
    eof_ = false;
}

}  // namespace quince::match

#else  // _WIN32

// The Windows build (scripts/build-windows.sh) is the engine for GUIs: it does not start engines of its
// own (the match runner and `datagen --teacher` need the POSIX process calls above). Every start fails
// with a message saying so, and the rest of the class has nothing to act on.
namespace quince::match {

EngineProcess::~EngineProcess() = default;

bool EngineProcess::start(const std::string& command, const std::vector<std::string>&, const std::string&,
                          std::string* error) {
    if (error) *error = "cannot start '" + command + "': this Windows build of Quince does not run other engines";
    return false;
}
bool EngineProcess::write_line(const std::string&) { return false; }
EngineProcess::ReadStatus EngineProcess::read_line(std::string&, std::chrono::milliseconds) { return ReadStatus::Eof; }
void EngineProcess::close_pipes() {}
void EngineProcess::reap(bool) {}
bool EngineProcess::has_exited() { return true; }
void EngineProcess::stop(std::chrono::milliseconds) {}

}  // namespace quince::match

#endif  // _WIN32
