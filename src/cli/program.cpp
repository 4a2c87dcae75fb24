#include "cli/program.h"

#if defined(_WIN32)
#include <io.h>
#define isatty _isatty
#define STDOUT_FILENO 1
#define STDERR_FILENO 2
#else
#include <unistd.h>
#endif

#include <algorithm>
#include <csignal>
#include <iostream>
#include <vector>

#include "cli/analyse.h"
#include "core/text.h"
#include "quince_version.h"
#include "search/params.h"
#include "uci/uci.h"

namespace quince::cli {

namespace {

std::atomic<bool> sigint_received{false};

void on_sigint(int) {
    sigint_received.store(true);
    std::signal(SIGINT, SIG_DFL);
}

}  // namespace

int run_subcommand(const Subcommand& s, const Args& args, std::ostream& out, std::ostream& err) {
    if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h") && !s.own_help) {
        out << "usage: quince " << s.name << " " << s.arguments << "\n" << s.summary << "\n";
        if (s.details) out << *s.details;
        return EXIT_OK;
    }
    return s.run(args, out, err);
}

void print_help(std::span<const Subcommand> subcommands, std::ostream& out) {
    out << "Quince " << QUINCE_VERSION << ", a UCI chess engine.\n\n"
        << "usage: quince                     speak UCI on stdin/stdout (for chess GUIs)\n"
        << "       quince SUBCOMMAND [ARGS]   one of the subcommands below\n"
        << "       quince \"UCI LINE\" ...      run UCI command lines in order, then exit\n"
        << "       quince --help | --version\n\nsubcommands:\n";
    for (const Subcommand& s : subcommands) {
        if (std::string(s.name) == "spsa" && !search::param::TUNABLE) continue;  // the tuning build's only
        out << "  " << s.name << " " << s.arguments << "\n      " << s.summary << "\n";
    }
    out << "\nA FEN is one quoted argument or its fields as separate words; options take --name=value or\n"
           "--name value. 'quince SUBCOMMAND --help' shows one subcommand's help.\n"
           "Exit status: 0 done, 1 failed (a UCI line answered with an error), 2 usage error.\n"
           "Manual: man 6 quince.\n";
}

std::string compiler_name() {
#if defined(__clang__)
    std::string name = "clang " __clang_version__;
#elif defined(__GNUC__)
    std::string name = "GCC " __VERSION__;
#else
    std::string name = "unknown compiler";
#endif
    while (!name.empty() && name.back() == ' ') name.pop_back();  // __clang_version__ ends in a space
#if defined(_LIBCPP_VERSION)
    name += ", libc++";
#elif defined(__GLIBCXX__)
    name += ", libstdc++";
#endif
    return name;
}

void print_version(std::ostream& out, const std::string& bench_signature, const std::string& reason) {
    out << "Quince " << QUINCE_VERSION << "\n";
    if (!bench_signature.empty()) out << "bench signature: " << bench_signature << " (quince bench)\n";
    else out << "bench signature: not computed (" << reason << ")\n";
    out << "build: " << QUINCE_VARIANT
#if defined(_WIN32)
        << " windows"
#endif
        << ", " << compiler_name() << ", "
#if defined(QUINCE_NO_SYZYGY)
        << "without Syzygy tablebases"
#else
        << "Syzygy tablebases (Fathom)"
#endif
        << "\n";
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
    for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
    for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i)
        for (std::size_t j = 1; j <= b.size(); ++j) {
            d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] != b[j - 1])});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
        }
    return d[a.size()][b.size()];
}

int unknown_subcommand(const std::string& word, std::span<const Subcommand> subcommands, std::ostream& err) {
    std::string nearest;
    std::size_t best = 3;  // at most two edits away
    for (const Subcommand& s : subcommands)
        if (const std::size_t d = edit_distance(ascii_lower(word), s.name); d < best) best = d, nearest = s.name;
    std::string message = "unknown subcommand '" + printable(word) + "'";
    if (!nearest.empty()) message += "; did you mean '" + nearest + "'?";
    return usage_error(err, "", message);
}

int run_uci_session() {
    // A GUI that exits or crashes closes our stdout: a write then fails (Uci stops and returns)
    // instead of SIGPIPE killing the process in the middle of a search.
#if defined(SIGPIPE)
    std::signal(SIGPIPE, SIG_IGN);
#endif
    std::ios::sync_with_stdio(false);
    // Reading cin must not flush cout behind the output mutex (the search thread writes too).
    std::cin.tie(nullptr);
    uci::Uci uci(std::cout);
    uci.loop(std::cin);
    return EXIT_OK;
}

const std::atomic<bool>* stop_on_interrupt() {
    std::signal(SIGINT, on_sigint);
    return &sigint_received;
}

bool is_terminal(const std::ostream& stream) {
    if (&stream == &std::cout) return isatty(STDOUT_FILENO);
    if (&stream == &std::cerr) return isatty(STDERR_FILENO);
    return false;
}

std::string program_path() {
#if defined(_WIN32)
    return "quince";  // this build starts no child engines (see scripts/build-windows.sh)
#else
    // /proc names this very program exactly; argv[0] may not.
    char path[4096];
    const ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    return n > 0 && n < ssize_t(sizeof path - 1) ? std::string(path, std::size_t(n)) : "quince";
#endif
}

int run_analyse_command(const Args& args, std::ostream& out, std::ostream& err) {
    AnalyseSettings settings;
    settings.live = is_terminal(out);
    settings.progress = is_terminal(err);
    // Ctrl-C stops the search, and the lines found so far are still printed; a second one kills.
    settings.interrupt = stop_on_interrupt();
    return run_analyse(args, out, err, settings);
}

}  // namespace quince::cli
