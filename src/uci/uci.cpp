#include "uci/uci.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstring>
#include <iostream>
#include <sstream>

#include "board/movegen.h"
#include "board/notation.h"
#include "eval/weights.h"
#include "search/params.h"
#include "search/skill.h"
#include "search/random_opening.h"
#include "search/syzygy.h"
#include "core/text.h"
#include "quince_version.h"
#include "workbench/compare.h"

namespace quince::uci {

namespace {

constexpr std::size_t MAX_LINE_LENGTH = 1 << 20;

// For echoing user input inside error messages: short, and valid UTF-8 whatever the input was.
std::string sanitize(const std::string& s) { return printable(s, 40); }

std::vector<std::string> tokenize(const std::string& line) {
    std::vector<std::string> tokens;
    std::string cur;
    for (char c : line) {
        if (std::isspace(static_cast<unsigned char>(c))) {
            if (!cur.empty()) tokens.push_back(std::move(cur)), cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) tokens.push_back(std::move(cur));
    return tokens;
}

bool parse_int(const std::string& s, std::int64_t* out) { return parse_integer(s, out); }

// Whether `s` has the shape of a move in UCI notation (two squares, an optional promotion piece): all
// that can be checked of a move without a position.
bool move_shaped(const std::string& s) {
    auto square = [&](std::size_t i) { return s[i] >= 'a' && s[i] <= 'h' && s[i + 1] >= '1' && s[i + 1] <= '8'; };
    return (s.size() == 4 || (s.size() == 5 && std::strchr("qrbn", s[4]))) && square(0) && square(2);
}

}  // namespace

Option Option::spin(std::string name, std::int64_t default_value, std::int64_t min, std::int64_t max,
                    OnChange on_change) {
    return {.name = std::move(name), .type = SPIN, .default_value = std::to_string(default_value), .min = min,
            .max = max, .on_change = std::move(on_change)};
}
Option Option::check(std::string name, bool default_value, OnChange on_change) {
    return {.name = std::move(name), .type = CHECK, .default_value = default_value ? "true" : "false",
            .on_change = std::move(on_change)};
}
Option Option::string(std::string name, OnChange on_change) {
    return {.name = std::move(name), .type = STRING, .on_change = std::move(on_change)};
}
Option Option::combo(std::string name, std::string default_value, std::vector<std::string> choices,
                     OnChange on_change) {
    return {.name = std::move(name), .type = COMBO, .default_value = std::move(default_value),
            .choices = std::move(choices), .on_change = std::move(on_change)};
}
Option Option::button(std::string name, OnChange on_press) {
    return {.name = std::move(name), .type = BUTTON, .on_change = std::move(on_press)};
}

std::string score_text(const search::Score& score) {
    return (score.mate ? "mate " : "cp ") + std::to_string(score.value);
}

std::string info_line(const search::Info& info, bool chess960) {
    std::string line = "info depth " + std::to_string(info.depth) + " seldepth " + std::to_string(info.seldepth) +
                       " multipv " + std::to_string(info.multipv) + " score " + score_text(info.score);
    if (info.wdl)
        line += " wdl " + std::to_string(info.wdl->win) + ' ' + std::to_string(info.wdl->draw) + ' ' +
                std::to_string(info.wdl->loss);
    if (info.bound == search::Info::Bound::LOWER) line += " lowerbound";
    if (info.bound == search::Info::Bound::UPPER) line += " upperbound";
    line += " nodes " + std::to_string(info.nodes) + " nps " + std::to_string(info.nps) + " hashfull " +
            std::to_string(info.hashfull);
    if (info.tbhits) line += " tbhits " + std::to_string(*info.tbhits);
    line += " time " + std::to_string(info.time_ms) + " pv";
    for (Move m : info.pv) line += ' ' + move_to_uci(m, chess960);
    return line;
}

std::string currmove_line(const search::CurrMove& c, bool chess960) {
    return "info depth " + std::to_string(c.depth) + " currmove " + move_to_uci(c.move, chess960) +
           " currmovenumber " + std::to_string(c.number);
}

std::string no_move_line(const search::NoMove& n) { return "info depth 0 score " + score_text(n.score); }

std::string bestmove_line(const search::BestMove& best, bool chess960) {
    std::string line = "bestmove " + move_to_uci(best.move, chess960);
    if (best.ponder) line += " ponder " + move_to_uci(best.ponder, chess960);
    return line;
}

Uci::Uci(std::ostream& out) : out_(out) {
    search::Listener listener;
    listener.info = [this](const search::Info& i) { send(info_line(i, search_chess960_)); };
    listener.currmove = [this](const search::CurrMove& c) { send(currmove_line(c, search_chess960_)); };
    listener.no_move = [this](const search::NoMove& n) { send(no_move_line(n)); };
    listener.bestmove = [this](const search::BestMove& b) { send(bestmove_line(b, search_chess960_)); };
    engine_.set_listener(std::move(listener));

    add_option(Option::spin("Hash", 16, 1, 65536, [this](const std::string& v, std::string* err) {
        if (engine_.set_hash(std::size_t(std::stoll(v)))) return true;
        *err = "cannot allocate " + v + " MB for the hash table";
        return false;
    }));
    add_option(Option::spin("Threads", 1, 1, 256, [this](const std::string& v, std::string*) {
        engine_.set_threads(int(std::stoll(v)));
        return true;
    }));
    add_option(Option::spin("MultiPV", 1, 1, 256));
    add_option(Option::check("Ponder", false));
    add_option(Option::spin("Move Overhead", 30, 0, 5000));
    // Playing weaker (search/skill.h): UCI_LimitStrength with UCI_Elo overrides Skill Level.
    add_option(Option::spin("Skill Level", search::SKILL_LEVEL_MAX, 0, search::SKILL_LEVEL_MAX));
    add_option(Option::check("UCI_LimitStrength", false));
    add_option(Option::spin("UCI_Elo", search::SKILL_ELO_MAX, search::SKILL_ELO_MIN, search::SKILL_ELO_MAX));
    // Win/draw/loss per mille after the score (`wdl W D L`), from the evaluation's model (eval/wdl.h).
    add_option(Option::check("UCI_ShowWDL", false));
    add_option(Option::check("UCI_Chess960", false, [this](const std::string& v, std::string*) {
        pos_.set_chess960(v == "true");
        return true;
    }));
    // Evaluation profile of every search thread; `eval` traces what is in force.
    add_option(Option::combo("EvalProfile", eval::default_profile(), eval::profile_names(),
                             [this](const std::string& v, std::string* err) {
                                 if (!eval_settings_.set_profile(v, err)) return false;
                                 engine_.set_eval(eval_settings_.evaluation());
                                 // A file outranks the profile: say so rather than seem to obey.
                                 if (const eval::EvalPtr& file = eval_settings_.file())
                                     send("info string EvalProfile: " + v + " is kept for later; EvalFile " +
                                          file->source + " (" + (file->network ? "network" : "profile") + " '" +
                                          file->name + "') stays in force until EvalFile is set to <empty>");
                                 return true;
                             }));
    // A weights file (format: `quince weights NAME`) or a network, told apart by the file's header; empty =
    // EvalProfile's built-in weights. A file that does not load leaves the evaluation in force unchanged.
    add_option(Option::string("EvalFile", [this](const std::string& v, std::string* err) {
        if (!eval_settings_.set_file(v, err)) return false;
        engine_.set_eval(eval_settings_.evaluation());
        if (const eval::EvalPtr& file = eval_settings_.file())
            send("info string EvalFile: loaded " + std::string(file->network ? "network" : "profile") + " '" +
                 file->name + "' from " + v);
        else
            send("info string EvalFile: none; EvalProfile " + eval_settings_.profile() + " in force");
        return true;
    }));
    // Lazy evaluation (spec §12.3) can be switched off to measure its effect.
    add_option(Option::check("LazyEval", true, [this](const std::string& v, std::string*) {
        engine_.set_lazy_eval(v == "true");
        return true;
    }));
    // Search features to switch off, to measure what each one is worth in a match (see search/features.h).
    add_option(Option::string("SearchDisable", [this](const std::string& v, std::string* err) {
        return search_features_.parse_disabled(v, err);
    }));
    // Trial rules to switch on, to measure one against the search as it is (see search/features.h). Hidden:
    // with no trial rule in the search a GUI would offer a field that takes no value; the match scripts
    // (strength/feature_sprt.sh, sprt.sh's NEW_OPTIONS) still set it.
    Option search_enable = Option::string("SearchEnable", [this](const std::string& v, std::string* err) {
        return search_features_.parse_enabled(v, err);
    });
    search_enable.hidden = true;
    add_option(std::move(search_enable));
    // Syzygy tablebases: directories separated by ':'. A wrong path is reported and changes nothing.
    add_option(Option::string("SyzygyPath", [this](const std::string& v, std::string* err) {
        const std::string message = syzygy::init(v);
        if (message.rfind("error: ", 0) == 0) {
            *err = message.substr(7) + (syzygy::max_pieces() ? "; the previous tables stay in use"
                                                             : "; playing without tablebases");
            return false;
        }
        send("info string " + message);
        return true;
    }));
    add_option(Option::spin("SyzygyProbeDepth", 1, 1, 100));
    add_option(Option::check("Syzygy50MoveRule", true));
    add_option(Option::spin("SyzygyProbeLimit", 7, 0, 7));
    // Polyglot opening book: a bad file is reported and the previous book (if any) stays.
    add_option(Option::check("OwnBook", false));
    add_option(Option::string("BookFile", [this](const std::string& v, std::string* err) {
        if (v.empty() || v == "<empty>") {
            book_.close();
            send("info string Book: none");
            return true;
        }
        std::string why;
        if (!book_.open(v, &why)) {
            *err = "BookFile: " + why + (book_.loaded() ? "; still using '" + book_.path() + "'" : "; no book loaded");
            return false;
        }
        send("info string Book: " + std::to_string(book_.size()) + " entries in " + v);
        return true;
    }));
    add_option(Option::spin("BookDepth", 255, 1, 1000));
    add_option(Option::check("BookBestMove", false));
    // Every term of the static evaluation of the current position, as a table; `eval compare [PROFILE …]`
    // the same under several profiles side by side (src/workbench/).
    add_command("eval", [this](const std::vector<std::string>& t) {
        if (t.size() > 1 && t[1] == "compare") {
            std::vector<std::string> names(t.begin() + 2, t.end());
            if (names.empty()) names = workbench::default_compare_profiles();
            std::vector<workbench::ProfileColumn> columns;
            std::string why;
            if (!workbench::resolve_columns(names, {}, &columns, &why)) {
                error("eval compare: " + why);
                return;
            }
            if (!need_position("eval compare")) return;
            std::string table = workbench::compare_text(workbench::compare(pos_, columns));
            while (!table.empty() && table.back() == '\n') table.pop_back();
            send(table);
            return;
        }
        if (t.size() > 1) {
            error("eval: takes no argument but 'compare [PROFILE ...]' (it traces the current position; set one with "
                  "'position'), got '" +
                  sanitize(t[1]) + "'");
            return;
        }
        if (!need_position("eval")) return;
        std::string table = eval::trace_text(pos_, *eval_settings_.evaluation());
        while (!table.empty() && table.back() == '\n') table.pop_back();
        send(table);
    });
    add_option(Option::button("Clear Hash", [this](const std::string&, std::string*) {
        engine_.clear_hash();
        return true;
    }));
    if (search::param::TUNABLE) add_tuning_options();
}

// The tuning build's options: one spin per search parameter and per tunable weight of the default profile
// (their defaults are its values).
void Uci::add_tuning_options() {
    for (const auto& p : search::param::search_params()) {
        const std::string name = p.name;
        add_option(Option::spin(name, p.default_value, p.min, p.max, [name](const std::string& v, std::string* err) {
            return search::param::set_search_param(name, int(std::stoll(v)), err);
        }));
    }
    eval::Weights w;
    eval::builtin_weights(eval::default_handcrafted_profile(), w);
    for (const auto& s : eval::spsa_weights(w)) {
        const int index = s.index;
        add_option(Option::spin(s.name, s.value, s.min, s.max, [this, index](const std::string& v, std::string*) {
            eval_settings_.set_weight(index, int(std::stoll(v)));
            engine_.set_eval(eval_settings_.evaluation());
            return true;
        }));
    }
}

Uci::~Uci() { stop_search(); }

void Uci::send(const std::string& line) {
    std::lock_guard<std::mutex> lock(out_mutex_);
    out_ << line << '\n';
    out_.flush();
    // The GUI is gone (a closed pipe, with SIGPIPE ignored): nobody reads the answer, so the search
    // and any task stop now and loop() ends at the next line.
    if (!out_ && !output_lost_.exchange(true)) {
        engine_.stop();
        task_stop_.store(true);
    }
}

void Uci::add_option(Option option) {
    option.value = option.default_value;
    options_.push_back(std::move(option));
}

void Uci::add_command(const std::string& name, Command handler) { commands_[ascii_lower(name)] = std::move(handler); }

bool Uci::knows_command(const std::string& word) const {
    static const char* const BUILT_IN[] = {"quit", "uci", "isready", "stop", "ponderhit", "ucinewgame", "setoption",
                                           "position", "go", "d", "bench", "genfens"};
    for (const char* c : BUILT_IN)
        if (word == c) return true;
    return commands_.count(ascii_lower(word)) > 0;
}

Option* Uci::find_option(const std::string& name) {
    for (Option& o : options_)
        if (ascii_lower(o.name) == ascii_lower(name)) return &o;
    return nullptr;
}

bool Uci::option_check(const std::string& name) { return find_option(name)->value == "true"; }
std::int64_t Uci::option_spin(const std::string& name) { return std::stoll(find_option(name)->value); }

void Uci::stop_search() {
    answer_no_position_search();
    engine_.stop();
    task_stop_.store(true);
    engine_.wait();
    if (task_thread_.joinable()) task_thread_.join();
    task_stop_.store(false);
}

void Uci::wait_idle() {
    engine_.wait();
    if (task_thread_.joinable()) task_thread_.join();
}

void Uci::loop(std::istream& in) {
    std::string line;
    while (std::getline(in, line)) {
        if (!execute(line)) return;
        if (output_lost_.load()) {
            stop_search();
            return;
        }
    }
}

bool Uci::execute(const std::string& raw) {
    if (raw.size() > MAX_LINE_LENGTH) {
        error("line too long (" + std::to_string(raw.size()) + " bytes)");
        return true;
    }
    std::vector<std::string> t = tokenize(raw);
    if (t.empty()) return true;
    const std::string cmd = t[0];

    if (cmd == "quit") {
        stop_search();
        return false;
    }
    if (cmd == "uci") cmd_uci();
    else if (cmd == "isready") send("readyok");
    else if (cmd == "stop") {
        answer_no_position_search();
        engine_.stop();
        task_stop_.store(true);
    }
    else if (cmd == "ponderhit") {
        if (!owed_until_stop_) answer_no_position_search();
        engine_.ponderhit();
    }
    else if (cmd == "ucinewgame") {
        stop_search();
        engine_.new_game();
    } else if (cmd == "setoption") cmd_setoption(t);
    else if (cmd == "position") cmd_position(t);
    else if (cmd == "go") cmd_go(t);
    else if (cmd == "d") {
        if (!need_position("d")) return true;
        std::string board = pos_.pretty();
        while (!board.empty() && board.back() == '\n') board.pop_back();
        send(board);
    }
    else if (cmd == "bench") cmd_bench(t);
    else if (cmd == "genfens") cmd_genfens(t);
    else if (auto it = commands_.find(ascii_lower(cmd)); it != commands_.end()) it->second(t);
    else error("unknown command '" + sanitize(cmd) + "'");
    return true;
}

// False, with the reason, when a refused `position` left none for `command` to look at.
bool Uci::need_position(const std::string& command) {
    if (!has_position_) send("info string no position for '" + command + "': " + refused_because_);
    return has_position_;
}

// The bestmove owed by a search without a position (go infinite / go ponder), if any.
void Uci::answer_no_position_search() {
    if (!owes_null_move_) return;
    owes_null_move_ = owed_until_stop_ = false;
    send("bestmove 0000");
}

void Uci::cmd_uci() {
    send(std::string("id name Quince ") + QUINCE_VERSION);
    send("id author the Quince team");
    for (const Option& o : options_) {
        if (o.hidden) continue;
        std::string line = "option name " + o.name + " type ";
        switch (o.type) {
        case Option::SPIN:
            line += "spin default " + o.default_value + " min " + std::to_string(o.min) + " max " + std::to_string(o.max);
            break;
        case Option::CHECK: line += "check default " + o.default_value; break;
        case Option::BUTTON: line += "button"; break;
        case Option::STRING: line += "string default " + (o.default_value.empty() ? "<empty>" : o.default_value); break;
        case Option::COMBO:
            line += "combo default " + o.default_value;
            for (const std::string& c : o.choices) line += " var " + c;
            break;
        }
        send(line);
    }
    send("uciok");
}

void Uci::cmd_setoption(const std::vector<std::string>& t) {
    if (t.size() < 3 || ascii_lower(t[1]) != "name") {
        error("setoption: expected 'setoption name <name> [value <value>]'");
        return;
    }
    std::string name, value;
    bool has_value = false;
    std::size_t i = 2;
    for (; i < t.size(); ++i) {
        if (ascii_lower(t[i]) == "value") {
            has_value = true;
            ++i;
            break;
        }
        name += (name.empty() ? "" : " ") + t[i];
    }
    for (; i < t.size(); ++i) value += (value.empty() ? "" : " ") + t[i];

    Option* opt = find_option(name);
    if (!opt) {
        error("setoption: unknown option '" + sanitize(name) + "'");
        return;
    }
    std::string normalized = value;
    switch (opt->type) {
    case Option::SPIN: {
        std::int64_t v;
        if (!has_value || !parse_int(value, &v)) {
            error("setoption: " + opt->name + " needs an integer value");
            return;
        }
        if (v < opt->min || v > opt->max) {
            error("setoption: " + opt->name + " must be between " + std::to_string(opt->min) + " and " +
                  std::to_string(opt->max));
            return;
        }
        normalized = std::to_string(v);
        break;
    }
    case Option::CHECK:
        normalized = ascii_lower(value);
        if (!has_value || (normalized != "true" && normalized != "false")) {
            error("setoption: " + opt->name + " needs true or false");
            return;
        }
        break;
    case Option::BUTTON:
        if (has_value) {
            error("setoption: " + opt->name + " is a button and takes no value");
            return;
        }
        break;
    case Option::STRING:
        if (!has_value) {
            error("setoption: " + opt->name + " needs a value");
            return;
        }
        break;
    case Option::COMBO: {
        auto it = std::find_if(opt->choices.begin(), opt->choices.end(),
                               [&](const std::string& c) { return ascii_lower(c) == ascii_lower(value); });
        if (!has_value || it == opt->choices.end()) {
            std::string valid;
            for (const std::string& c : opt->choices) valid += (valid.empty() ? "" : ", ") + c;
            error("setoption: " + opt->name + (has_value ? " has no value '" + sanitize(value) + "'" : " needs a value") +
                  "; valid: " + valid);
            return;
        }
        normalized = *it;
        break;
    }
    }
    // Options change search resources (hash, threads): never under a running search.
    stop_search();
    std::string err;
    if (opt->on_change && !opt->on_change(normalized, &err)) {
        error("setoption: " + err);
        return;
    }
    if (opt->type != Option::BUTTON) opt->value = normalized;
}

void Uci::cmd_position(const std::vector<std::string>& t) {
    // Refused: no position at all, so that no later go answers with a move of the one the GUI has left.
    auto refuse = [this](const std::string& why) {
        error("position: " + why);
        has_position_ = false;
        refused_because_ = "the last 'position' was refused (" + why + ")";
    };
    if (t.size() < 2) {
        refuse("expected 'startpos' or 'fen'");
        return;
    }
    Position next;
    std::size_t i;
    bool chess960 = option_check("UCI_Chess960");
    // Castling rights and an en-passant square that cannot be are left out of a FEN (as Toga II and
    // Glaurung read it), and said so; only what is malformed or illegal refuses it.
    std::vector<std::string> dropped;
    if (t[1] == "startpos") {
        next.set_chess960(chess960);
        i = 2;
    } else if (t[1] == "fen") {
        std::string fen;
        for (i = 2; i < t.size() && t[i] != "moves"; ++i) fen += (fen.empty() ? "" : " ") + t[i];
        if (fen.empty()) {
            refuse("missing FEN");
            return;
        }
        std::string why;
        if (!next.set_fen(fen, chess960, &why, &dropped)) {
            refuse("invalid FEN (" + why + ")");
            return;
        }
    } else {
        refuse("expected 'startpos' or 'fen', got '" + sanitize(t[1]) + "'");
        return;
    }
    if (i < t.size()) {
        if (t[i] != "moves") {
            refuse("unexpected '" + sanitize(t[i]) + "'");
            return;
        }
        for (++i; i < t.size(); ++i) {
            Move m = uci_to_move(next, t[i]);
            if (!m) {
                refuse("illegal move '" + sanitize(t[i]) + "'");
                return;
            }
            next.do_move(m);
        }
    }
    stop_search();
    pos_ = next;
    has_position_ = true;
    if (!dropped.empty()) {
        std::string line = "info string position: FEN accepted without ";
        for (std::size_t k = 0; k < dropped.size(); ++k) line += (k ? ", " : "") + dropped[k];
        send(line);
    }
}

void Uci::cmd_go(const std::vector<std::string>& t) {
    search::Limits limits;
    int perft_depth = 0;
    auto number = [&](std::size_t& i, std::int64_t lo, std::int64_t hi, std::int64_t* out) {
        const std::string& key = t[i];
        if (i + 1 >= t.size() || !parse_int(t[i + 1], out)) {
            error("go: " + key + " needs an integer");
            return false;
        }
        ++i;
        if (*out < lo || *out > hi) {
            error("go: " + key + " out of range");
            return false;
        }
        return true;
    };
    constexpr std::int64_t BIG = std::int64_t(1) << 50;
    const std::vector<std::string> keywords = {"depth", "nodes", "movetime", "wtime", "btime", "winc", "binc",
                                               "movestogo", "mate", "infinite", "ponder", "searchmoves", "perft"};
    bool any_limit = false;
    for (std::size_t i = 1; i < t.size(); ++i) {
        const std::string& k = t[i];
        std::int64_t v = 0;
        if (k == "depth") {
            if (!number(i, 1, BIG, &v)) return;
            limits.depth = int(std::min<std::int64_t>(v, MAX_PLY - 1));
            any_limit = true;
        } else if (k == "nodes") {
            if (!number(i, 1, BIG, &v)) return;
            limits.nodes = std::uint64_t(v);
            any_limit = true;
        } else if (k == "movetime") {
            // `movetime 0` (move now) gets the smallest budget, 1 ms: the search still completes its
            // first iteration, so the answer is a legal move.
            if (!number(i, 0, BIG, &v)) return;
            limits.movetime = std::max<std::int64_t>(v, 1);
            any_limit = true;
        } else if (k == "wtime" || k == "btime") {
            // Some GUIs send negative times when the clock is overdrawn: treat that as no time left.
            if (!number(i, -BIG, BIG, &v)) return;
            limits.time[k == "wtime" ? WHITE : BLACK] = std::max<std::int64_t>(v, 0);
            any_limit = true;
        } else if (k == "winc" || k == "binc") {
            if (!number(i, -BIG, BIG, &v)) return;
            limits.inc[k == "winc" ? WHITE : BLACK] = std::max<std::int64_t>(v, 0);
        } else if (k == "movestogo") {
            if (!number(i, 1, 100000, &v)) return;
            limits.movestogo = int(v);
        } else if (k == "mate") {
            if (!number(i, 1, MAX_PLY / 2, &v)) return;
            limits.mate = int(v);
            any_limit = true;
        } else if (k == "perft") {
            if (!number(i, 1, 20, &v)) return;
            perft_depth = int(v);
        } else if (k == "infinite") {
            limits.infinite = true;
        } else if (k == "ponder") {
            limits.ponder = true;
        } else if (k == "searchmoves") {
            std::size_t j = i + 1;
            for (; j < t.size() && std::find(keywords.begin(), keywords.end(), t[j]) == keywords.end(); ++j) {
                if (!has_position_) {  // no position to check them against (the search answers 0000)
                    if (!move_shaped(t[j])) {
                        error("go: searchmoves: '" + sanitize(t[j]) + "' is not a move");
                        return;
                    }
                    continue;
                }
                Move m = uci_to_move(pos_, t[j]);
                if (!m) {
                    error("go: searchmoves: illegal move '" + sanitize(t[j]) + "'");
                    return;
                }
                limits.searchmoves.push_back(m);
            }
            if (j == i + 1) {
                error("go: searchmoves needs at least one move");
                return;
            }
            i = j - 1;
        } else {
            error("go: unknown parameter '" + sanitize(k) + "'");
            return;
        }
    }
    if (perft_depth) {
        if (!need_position("go perft")) return;
        cmd_perft(perft_depth);
        return;
    }
    // A bare `go` (or one with only searchmoves / ponder) searches until `stop`.
    if (!any_limit) limits.infinite = true;
    if (!has_position_) {
        stop_search();  // a running search (of an earlier position) answers first
        send("info string no position: " + refused_because_);
        if (limits.infinite || limits.ponder) {
            owes_null_move_ = true;
            owed_until_stop_ = limits.infinite;
        } else {
            send("bestmove 0000");
        }
        return;
    }
    if (play_book_move(limits)) return;

    search::SearchOptions options;
    options.multi_pv = int(option_spin("MultiPV"));
    options.move_overhead = option_spin("Move Overhead");
    options.ponder_enabled = option_check("Ponder");
    options.show_wdl = option_check("UCI_ShowWDL");
    options.skill_level = option_check("UCI_LimitStrength") ? search::elo_to_skill_level(int(option_spin("UCI_Elo")))
                                                            : int(option_spin("Skill Level"));
    options.features = search_features_;
    options.syzygy_probe_depth = int(option_spin("SyzygyProbeDepth"));
    options.syzygy_probe_limit = int(option_spin("SyzygyProbeLimit"));
    options.syzygy_50_move_rule = option_check("Syzygy50MoveRule");
    stop_search();  // a running search, perft or bench ends first
    // The position's mode, not the option's: one set up under Chess960 keeps its castling notation.
    search_chess960_ = pos_.is_chess960();
    engine_.go(pos_, limits, options);
}

// A book move is played at once in games: not for analysis (go infinite, a bare go, go ponder, go mate,
// searchmoves), and only for the first BookDepth moves of each side.
bool Uci::play_book_move(const search::Limits& limits) {
    if (!option_check("OwnBook") || !book_.loaded() || limits.infinite || limits.ponder || limits.mate ||
        !limits.searchmoves.empty() || pos_.game_ply() >= 2 * option_spin("BookDepth"))
        return false;
    const Move m = book_.pick(pos_, option_check("BookBestMove"), book_rng_);
    if (!m) return false;
    stop_search();
    const std::string move = move_to_uci(m, option_check("UCI_Chess960"));
    send("info string book move " + move);
    send("bestmove " + move);
    return true;
}

void Uci::cmd_perft(int depth) {
    stop_search();
    task_thread_ = std::thread([this, depth, p = pos_, chess960 = pos_.is_chess960()]() mutable {
        // Subtrees of at most PERFT_UNSPLIT_DEPTH plies are counted in one call (milliseconds even in busy
        // middlegames); above that every node looks at the stop flag, so `stop` is answered at once.
        constexpr int PERFT_UNSPLIT_DEPTH = 4;
        auto count = [this](auto& self, Position& pos, int d) -> std::uint64_t {
            if (d <= PERFT_UNSPLIT_DEPTH) return perft(pos, d);
            std::uint64_t n = 0;
            for (const ScoredMove& m : MoveList<LEGAL>(pos)) {
                if (task_stop_.load(std::memory_order_relaxed)) break;
                pos.do_move(m.move);
                n += self(self, pos, d - 1);
                pos.undo_move(m.move);
            }
            return n;
        };
        std::uint64_t total = 0;
        for (const ScoredMove& root : MoveList<LEGAL>(p)) {
            std::uint64_t n = 1;
            if (depth > 1) {
                p.do_move(root.move);
                n = count(count, p, depth - 1);
                p.undo_move(root.move);
            }
            if (task_stop_.load(std::memory_order_relaxed)) {
                send("info string perft stopped: " + std::to_string(total) + " nodes counted");
                return;
            }
            total += n;
            send(move_to_uci(root.move, chess960) + ": " + std::to_string(n));
        }
        send("");
        send("Nodes searched: " + std::to_string(total));
    });
}

void Uci::cmd_bench(const std::vector<std::string>& t) {
    std::int64_t depth = 13;
    if (t.size() > 2 || (t.size() == 2 && (!parse_int(t[1], &depth) || depth < 1 || depth > 64))) {
        error("bench: expected 'bench [depth 1..64]'");
        return;
    }
    stop_search();
    task_thread_ = std::thread(
        [this, depth] { run_bench(int(depth), [this](const std::string& line) { send(line); }, &task_stop_); });
}

// OpenBench's DATAGEN contract: `genfens N seed S book <None|FILE> [plies K]` prints exactly N lines
// `info string genfens <FEN>` of seeded random openings (the client counts them and turns each FEN into an
// EPD line). Runs to completion before the next command is read; deterministic for a seed with Threads=1.
void Uci::cmd_genfens(const std::vector<std::string>& t) {
    const char* usage = "genfens: expected 'genfens N seed S book <None|FILE> [plies K]'";
    std::int64_t n = 0;
    std::uint64_t seed = 0;
    if (t.size() < 6 || !parse_int(t[1], &n) || n < 0 || ascii_lower(t[2]) != "seed" || ascii_lower(t[4]) != "book") {
        error(usage);
        return;
    }
    auto [ptr, ec] = std::from_chars(t[3].data(), t[3].data() + t[3].size(), seed);
    if (ec != std::errc() || ptr != t[3].data() + t[3].size()) {
        error("genfens: seed '" + sanitize(t[3]) + "' is not an unsigned 64-bit integer");
        return;
    }
    search::RandomOpeningConfig config;
    for (std::size_t i = 6; i < t.size(); i += 2) {
        std::int64_t v = 0;
        if (ascii_lower(t[i]) == "plies" && i + 1 < t.size() && parse_int(t[i + 1], &v) && v >= 0 && v <= 200) {
            config.random_plies = int(v);
        } else {
            error("genfens: unknown or malformed extra argument '" + sanitize(t[i]) + "' (known: plies 0..200)");
            return;
        }
    }
    std::vector<std::string> book;
    std::string why;
    if (ascii_lower(t[5]) != "none" && !search::read_fen_book(t[5], &book, &why)) {
        error("genfens: " + why);
        return;
    }
    stop_search();
    // Openings independent of earlier searches: the same command always prints the same lines.
    engine_.new_game();
    SplitMix64 rng(seed);
    for (std::int64_t i = 0; i < n; ++i) {
        Position opening;
        if (!search::random_opening(engine_, book, config, rng, &opening, &why)) {
            error("genfens: " + why + " (" + std::to_string(i) + " of " + std::to_string(n) + " printed)");
            return;
        }
        send("info string genfens " + opening.fen());
    }
}

}  // namespace quince::uci
