// The WebAssembly face of Quince for the page in web/: a handful of C functions over the library's own
// command runners, so that the page shows exactly what `quince compare --json`, `quince compare --svg`
// and `quince analyse --json` (one position, or a whole game) print on the command line. Built only by scripts/web.sh (emscripten, one
// thread: searches run to their depth before the call returns).
#include <emscripten/emscripten.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "board/movegen.h"
#include "board/notation.h"
#include "cli/analyse.h"
#include "cli/cli.h"
#include "eval/evaluate.h"
#include "workbench/json.h"

// Defined by the page's worker (Module.onLine); a no-op where nobody listens.
EM_JS(void, quince_emit_line, (const char* line), {
    if (Module["onLine"]) Module["onLine"](UTF8ToString(line));
});

namespace {

std::string g_out, g_err, g_reply;

// Hands each complete line written to it to the page at once (quince_emit_line, JavaScript), so that a
// search's iterations reach the page while the search still runs: `analyse --json` ends each one with
// std::endl. The page runs this module in a Web Worker, which stays busy in the search meanwhile.
class LineStreamBuf : public std::stringbuf {
  protected:
    int sync() override {
        std::string text = str();
        std::size_t start = 0;
        for (std::size_t nl; (nl = text.find('\n', start)) != std::string::npos; start = nl + 1)
            quince_emit_line(text.substr(start, nl - start).c_str());
        str(text.substr(start));
        return 0;
    }
};

std::vector<std::string> split_lines(const char* text) {
    std::vector<std::string> words;
    std::istringstream in(text ? text : "");
    for (std::string w; std::getline(in, w);)
        if (!w.empty()) words.push_back(w);
    return words;
}

}  // namespace

extern "C" {

// Runs `quince ARGS…` for the subcommands the page needs (compare, eval, analyse); the arguments are
// separated by newlines (a FEN is one argument). Returns the exit status; quince_out() and
// quince_err() hold what it printed. `analyse --infinite` is refused: with one thread it would never return.
EMSCRIPTEN_KEEPALIVE int quince_run(const char* args) {
    using namespace quince;
    const std::vector<std::string> words = split_lines(args);
    std::ostringstream out, err;
    int status = cli::EXIT_USAGE;
    const cli::Args rest(words.empty() ? words.end() : words.begin() + 1, words.end());
    const std::string command = words.empty() ? "" : words[0];
    if (command == "compare") status = cli::run_compare(rest, out, err);
    else if (command == "eval") status = cli::run_eval(rest, out, err);
    else if (command == "analyse") {
        // Without a limit analyse searches to its default depth; only --infinite would never return here.
        if (std::find(rest.begin(), rest.end(), "--infinite") == rest.end()) status = cli::run_analyse(rest, out, err);
        else err << "quince analyse: --infinite is not available in the web build (one thread)\n";
    } else
        err << "quince: '" << command << "' is not available in the web build (compare, eval, analyse)\n";
    g_out = out.str();
    g_err = err.str();
    return status;
}

// `quince analyse ARGS… --json` with every output line handed to Module.onLine as soon as it is written
// (one per completed iteration, then the result): the worker forwards them to the page. Returns the exit
// status; quince_err() holds the errors. To stop, the page ends the worker (one thread: nothing else runs).
EMSCRIPTEN_KEEPALIVE int quince_analyse_stream(const char* args) {
    using namespace quince;
    std::vector<std::string> words = split_lines(args);
    if (std::find(words.begin(), words.end(), "--infinite") != words.end()) {
        g_err = "quince analyse: --infinite is not available in the web build (one thread)\n";
        return cli::EXIT_USAGE;
    }
    if (std::find(words.begin(), words.end(), "--json") == words.end()) words.push_back("--json");
    LineStreamBuf buf;
    std::ostream out(&buf);
    std::ostringstream err;
    const int status = cli::run_analyse(words, out, err);
    out.flush();
    g_err = err.str();
    return status;
}

// `quince analyse - ARGS… --json` with the PGN `pgn` as its standard input: the command line's whole-game
// analysis (the same budget defaults, the same verdicts), for the page's "Analyse the game". Each game's
// JSON line, and before every position searched a line {"type": "progress", "game", "position" (1-based),
// "positions"}, go to Module.onLine as they are written. Returns the exit status; quince_err() holds the errors.
EMSCRIPTEN_KEEPALIVE int quince_analyse_games(const char* args, const char* pgn) {
    using namespace quince;
    std::vector<std::string> words = split_lines(args);
    words.insert(words.begin(), "-");
    if (std::find(words.begin(), words.end(), "--json") == words.end()) words.push_back("--json");
    const std::string text = pgn ? pgn : "";
    cli::AnalyseSettings settings;
    settings.games_text = &text;
    settings.on_position = [](int game, int position, int positions) {
        const std::string line = "{\"type\": \"progress\", \"game\": " + std::to_string(game) + ", \"position\": " +
                                 std::to_string(position + 1) + ", \"positions\": " + std::to_string(positions) + "}";
        quince_emit_line(line.c_str());
    };
    LineStreamBuf buf;
    std::ostream out(&buf);
    std::ostringstream err;
    const int status = cli::run_analyse(words, out, err, settings);
    out.flush();
    g_err = err.str();
    return status;
}

EMSCRIPTEN_KEEPALIVE const char* quince_out() { return g_out.c_str(); }
EMSCRIPTEN_KEEPALIVE const char* quince_err() { return g_err.c_str(); }

// A position from "FEN|startpos [moves M …]" (newline-separated words, moves in UCI or SAN) as JSON:
// {"fen", "side_to_move", "chess960", "in_check", "legal": [{"uci", "san"}…]} or {"error"}.
EMSCRIPTEN_KEEPALIVE const char* quince_position(const char* words_text) {
    using namespace quince;
    Position pos;
    std::string error;
    if (!cli::read_position(split_lines(words_text), &pos, &error)) {
        g_reply = "{\"error\": " + workbench::json_string(error) + "}";
        return g_reply.c_str();
    }
    std::string legal;
    for (const ScoredMove& sm : MoveList<LEGAL>(pos))
        legal += std::string(legal.empty() ? "" : ", ") + "{\"uci\": " +
                 workbench::json_string(move_to_uci(sm.move, pos.is_chess960())) + ", \"san\": " +
                 workbench::json_string(move_to_san(pos, sm.move)) + "}";
    g_reply = "{\"fen\": " + workbench::json_string(pos.fen()) + ", \"side_to_move\": \"" +
              (pos.side_to_move() == WHITE ? "white" : "black") + "\", \"chess960\": " +
              (pos.is_chess960() ? "true" : "false") + ", \"in_check\": " + (pos.in_check() ? "true" : "false") +
              ", \"legal\": [" + legal + "]}";
    return g_reply.c_str();
}

// The built-in profiles, space-separated, the default first.
EMSCRIPTEN_KEEPALIVE const char* quince_profiles() {
    g_reply = quince::eval::default_profile();
    for (const std::string& p : quince::eval::profile_names())
        if (p != quince::eval::default_profile()) g_reply += " " + p;
    return g_reply.c_str();
}

}  // extern "C"

// Emscripten wants a main for a program; the page only calls the functions above.
int main() { return 0; }
