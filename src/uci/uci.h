// UCI protocol front end: reads commands, validates them completely before acting (so a bad
// command never changes state, but for a refused `position`, which leaves none), and drives the search
// Engine, which runs in its own thread.
//
// Commands arriving while a search runs:
//   isready, stop, ponderhit, d, uci          answered at once, the search continues (or stops);
//   go, position, ucinewgame, setoption, bench are validated first; if valid, the running search
//                                             is stopped (it sends its bestmove) and then the
//                                             command is applied. An invalid one leaves the search
//                                             running and only prints the error line.
//   quit                                      stops the search and exits.
// A refused `position` leaves no position (not the previous one): `go` answers `bestmove 0000`.
// A search ends only once it has completed its first iteration (search::Engine::stop): every bestmove
// is a searched move, after the info line of that iteration. End of input acts like quit. `go perft N` and `bench` run in their own thread too and end on `stop`
// (or any command that changes the state, or quit). A bare `go` (no depth/nodes/time/mate limit)
// searches until `stop`.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "board/book.h"
#include "board/position.h"
#include "eval/profile.h"
#include "search/search.h"

namespace quince::uci {

// One UCI option. Names are matched case-insensitively. Built with the factories below, one per UCI
// option type, so that a row of the option table reads as `Option::spin("Hash", 16, 1, 65536, …)`.
struct Option {
    enum Type { SPIN, CHECK, BUTTON, STRING, COMBO };
    // Called with the new (validated) value; returns false with *error to reject it.
    using OnChange = std::function<bool(const std::string& value, std::string* error)>;
    // Every member has a default, so that the factories name only what their type uses.
    std::string name{};
    Type type = SPIN;
    std::string default_value{};
    std::int64_t min = 0, max = 0;       // SPIN
    std::vector<std::string> choices{};  // COMBO
    std::string value{};                 // current value (as text)
    OnChange on_change{};
    // Left out of the `uci` answer but settable: an option for measuring scripts, not for a GUI's dialog.
    bool hidden = false;

    static Option spin(std::string name, std::int64_t default_value, std::int64_t min, std::int64_t max,
                       OnChange on_change = nullptr);
    static Option check(std::string name, bool default_value, OnChange on_change = nullptr);
    // A string option; its default is empty (`<empty>` in the `uci` answer).
    static Option string(std::string name, OnChange on_change = nullptr);
    static Option combo(std::string name, std::string default_value, std::vector<std::string> choices,
                        OnChange on_change = nullptr);
    static Option button(std::string name, OnChange on_press);
};

class Uci {
public:
    using Command = std::function<void(const std::vector<std::string>& args)>;

    explicit Uci(std::ostream& out);
    ~Uci();

    // Processes commands until `quit`, end of input, or a failed write (the output stream went bad,
    // e.g. a closed pipe: see output_lost()).
    void loop(std::istream& in);
    // One line; returns false for `quit`.
    bool execute(const std::string& line);
    // Waits until the running search, `go perft` or `bench` has finished by itself (command-line
    // UCI lines run one after the other). A search without a limit (`go infinite`) never ends.
    void wait_idle();
    // Number of `info string error` lines sent so far.
    int errors() const { return errors_.load(); }
    // True once a write to the output failed: the search was stopped and loop() returns.
    bool output_lost() const { return output_lost_.load(); }

    // Extension points for other modules (e.g. the evaluation's `EvalProfile` option and `eval`).
    void add_option(Option option);
    void add_command(const std::string& name, Command handler);
    // Whether `word` starts a command this loop knows (the UCI ones, Quince's, and those added).
    bool knows_command(const std::string& word) const;
    // The position of the last `position` command (the start position before any); none after a refused one.
    bool has_position() const { return has_position_; }
    const Position& position() const { return pos_; }
    search::Engine& engine() { return engine_; }
    // Thread-safe line output (shared with the search thread).
    void send(const std::string& line);
    void error(const std::string& message) {
        ++errors_;
        send("info string error: " + message);
    }

private:
    void cmd_uci();
    void cmd_setoption(const std::vector<std::string>& t);
    void cmd_position(const std::vector<std::string>& t);
    void cmd_go(const std::vector<std::string>& t);
    void cmd_perft(int depth);
    void cmd_bench(const std::vector<std::string>& t);
    void cmd_genfens(const std::vector<std::string>& t);
    bool play_book_move(const search::Limits& limits);
    Option* find_option(const std::string& name);
    bool option_check(const std::string& name);
    std::int64_t option_spin(const std::string& name);
    void stop_search();
    bool need_position(const std::string& command);
    void answer_no_position_search();

    std::ostream& out_;
    std::mutex out_mutex_;
    search::Engine engine_;
    Position pos_;
    // A refused `position` leaves none, rather than the previous one: a `go` then answers
    // `info string no position: …` and `bestmove 0000`, never a move of a position the GUI has left.
    bool has_position_ = true;
    bool search_chess960_ = false;  // castling notation of the search's moves: its position's mode
    std::string refused_because_;
    // A `go infinite` or `go ponder` without a position owes its `bestmove 0000` until `stop` (or
    // `ponderhit` of a ponder search with a limit, or a command that stops searches), like a search.
    bool owes_null_move_ = false;
    bool owed_until_stop_ = false;  // go infinite, or a bare go: ponderhit does not end it
    std::vector<Option> options_;
    search::SearchFeatures search_features_;  // SearchDisable
    // `go perft` and `bench` run beside the UCI loop so that `stop`, `isready` and `quit` are answered
    // at once; task_stop_ asks the running one to end.
    std::thread task_thread_;
    std::atomic<bool> task_stop_{false};
    // EvalProfile, EvalFile and the tuning build's weight options, resolved to what the engine evaluates with.
    eval::EvalSettings eval_settings_;
    void add_tuning_options();
    std::map<std::string, Command> commands_;
    book::Book book_;  // BookFile; played from when OwnBook is on
    std::mt19937_64 book_rng_{std::random_device{}()};
    std::atomic<int> errors_{0};
    std::atomic<bool> output_lost_{false};
};

// The search's progress (search/info.h) as UCI lines; castling in Chess960 notation when `chess960`. The
// only place that writes them: a user of the search in this program reads the data, never these lines.
std::string score_text(const search::Score& score);  // "cp 31", "mate -2"
std::string info_line(const search::Info& info, bool chess960);
std::string currmove_line(const search::CurrMove& currmove, bool chess960);
std::string no_move_line(const search::NoMove& no_move);
std::string bestmove_line(const search::BestMove& best, bool chess960);

// Fixed positions for `bench`.
const std::vector<std::string>& bench_positions();
// Searches every bench position to `depth` with one thread and a fresh 16 MB hash. Prints the
// totals through `print`; returns the total node count. When *cancel becomes true the bench ends
// early: the running search stops, one `info string bench stopped: …` line replaces the totals.
// `evaluation` (e.g. from `--weights FILE`) replaces the default evaluation when given.
std::uint64_t run_bench(int depth, const std::function<void(const std::string&)>& print,
                        const std::atomic<bool>* cancel = nullptr, eval::EvalPtr evaluation = nullptr);

}  // namespace quince::uci
