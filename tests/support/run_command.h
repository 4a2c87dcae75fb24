// Runs a program with arguments (and optional stdin text) to completion and returns its exit status,
// stdout and stderr. A run longer than the timeout is killed and reported as status -1.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <vector>

namespace quince::test {

struct CommandResult {
    int status = -1;  // exit status, or -1 (killed, timed out, or did not start)
    std::string out, err;
};

inline CommandResult run_command(const std::string& program, const std::vector<std::string>& args,
                                 const std::string& input = "", int timeout_ms = 60000) {
    CommandResult r;
    int in[2], out[2], err[2];
    if (pipe(in) != 0 || pipe(out) != 0 || pipe(err) != 0) return r;
    signal(SIGPIPE, SIG_IGN);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) close(fd);
        std::vector<char*> argv{const_cast<char*>(program.c_str())};
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        execv(program.c_str(), argv.data());
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    close(err[1]);
    std::size_t written = 0;
    while (written < input.size()) {
        const ssize_t n = write(in[1], input.data() + written, input.size() - written);
        if (n <= 0) break;
        written += std::size_t(n);
    }
    close(in[1]);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    bool out_open = true, err_open = true, timed_out = false;
    while (out_open || err_open) {
        const int left = int(std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count());
        if (left <= 0) {
            timed_out = true;
            break;
        }
        pollfd fds[2] = {{out_open ? out[0] : -1, POLLIN, 0}, {err_open ? err[0] : -1, POLLIN, 0}};
        if (poll(fds, 2, left) <= 0) continue;
        char chunk[4096];
        for (int k = 0; k < 2; ++k) {
            if (!(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t n = read(k == 0 ? out[0] : err[0], chunk, sizeof chunk);
            if (n > 0) (k == 0 ? r.out : r.err).append(chunk, std::size_t(n));
            else (k == 0 ? out_open : err_open) = false;
        }
    }
    if (timed_out) kill(pid, SIGKILL);
    int status = 0;
    waitpid(pid, &status, 0);
    close(out[0]);
    close(err[0]);
    r.status = !timed_out && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return r;
}

}  // namespace quince::test
