#include "cli/cli.h"

#include "eval/profile.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "board/epd.h"
#include "board/movegen.h"
#include "board/notation.h"
#include "core/text.h"
#include "eval/evaluate.h"
#include "eval/evaluation.h"
#include "eval/nnue/network.h"
#include "eval/weights.h"
#include "search/params.h"
#include "uci/uci.h"
#include "workbench/compare.h"
#include "workbench/json.h"
#include "workbench/svg.h"

namespace quince::cli {

namespace {

// A net's lineage for `eval --json`: the targets another engine gave it, null when its header does not say.
std::string teacher_labels_json(const std::string& description) {
    const std::int64_t n = eval::nnue::teacher_labels(description);
    return n < 0 ? "null" : std::to_string(n);
}

}  // namespace

int program_usage_error(std::ostream& err, const std::string& program, const std::string& message) {
    err << program << ": " << message << " (see '" << program << " --help')\n";
    return EXIT_USAGE;
}

int usage_error(std::ostream& err, const std::string& command, const std::string& message) {
    return program_usage_error(err, command.empty() ? "quince" : "quince " + command, message);
}

bool parse_args(const Args& args, const std::vector<OptionSpec>& specs, ParsedArgs* out, std::string* error) {
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a.size() < 3 || a.compare(0, 2, "--") != 0) {
            out->positional.push_back(a);
            continue;
        }
        const std::size_t eq = a.find('=');
        const std::string name = a.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
        auto spec = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
        if (spec == specs.end()) return *error = "unknown option '" + printable(a) + "'", false;
        if (out->has(name) && !spec->repeatable) return *error = "--" + name + " given twice", false;
        std::vector<std::string> values;
        if (spec->takes_list) {
            if (eq != std::string::npos) values.push_back(a.substr(eq + 1));
            while (i + 1 < args.size() && (args[i + 1].empty() || args[i + 1][0] != '-')) values.push_back(args[++i]);
        } else if (spec->takes_value) {
            if (eq != std::string::npos) values.push_back(a.substr(eq + 1));
            else if (i + 1 < args.size()) values.push_back(args[++i]);
        } else if (eq != std::string::npos) {
            return *error = "--" + name + " takes no value", false;
        } else {
            values.push_back("");
        }
        if ((spec->takes_value || spec->takes_list) &&
            (values.empty() || std::any_of(values.begin(), values.end(), [](const std::string& v) { return v.empty(); })))
            return *error = "--" + name + " needs a value", false;
        out->options.emplace(name, values.front());
        std::vector<std::string>& all = out->values[name];
        all.insert(all.end(), values.begin(), values.end());
    }
    return true;
}

bool asks_for_help(const Args& args) {
    return std::any_of(args.begin(), args.end(), [](const std::string& a) { return a == "--help" || a == "-h"; });
}

bool parse_number(const std::string& text, long long lo, long long hi, const std::string& what, long long* out,
                  std::string* error) {
    if (!parse_integer(text, lo, hi, out)) {
        *error = what + " must be a whole number from " + std::to_string(lo) + " to " + std::to_string(hi) +
                 ", got '" + printable(text) + "'";
        return false;
    }
    return true;
}

bool parse_real(const std::string& text, double lo, double hi, const std::string& what, double* out,
                std::string* error) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (text.empty() || *end || !(v >= lo && v <= hi)) {
        std::ostringstream message;
        message << what << " must be a number from " << lo << " to " << hi << ", got '" << printable(text) << "'";
        *error = message.str();
        return false;
    }
    *out = v;
    return true;
}

std::vector<std::string> split_words(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

std::string formatted(const char* format, ...) {
    std::va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    std::string text(std::size_t(std::max(n, 0)) + 1, '\0');
    std::vsnprintf(text.data(), text.size(), format, again);
    va_end(again);
    text.pop_back();  // vsnprintf's terminating zero
    return text;
}

bool read_position(const std::vector<std::string>& words, Position* pos, std::string* error) {
    // An empty argument ('quince analyse ""') is a mistake, not a request for the start position.
    for (const std::string& w : words)
        if (w.find_first_not_of(" \t\r\n") == std::string::npos)
            return *error = "empty argument: give a FEN, 'startpos' (or for analyse a PGN file)", false;
    auto moves_at = std::find(words.begin(), words.end(), "moves");
    std::string fen;
    for (auto it = words.begin(); it != moves_at; ++it) fen += (fen.empty() ? "" : " ") + *it;
    if (fen.empty() || fen == "startpos") fen = Position::START_FEN;

    // Castling letters other than KQkq are Shredder-FEN, i.e. Chess960; a FEN that is only legal as
    // Chess960 (X-FEN with KQkq and a king off the e-file) is read as Chess960 too.
    std::string fields[3];
    std::size_t start = 0;
    for (std::string& f : fields) {
        start = fen.find_first_not_of(' ', start);
        std::size_t end = fen.find(' ', start);
        f = start == std::string::npos ? "" : fen.substr(start, end - start);
        start = end;
    }
    const bool shredder = fields[2].find_first_not_of("KQkq-") != std::string::npos;
    Position p;
    std::string why;
    if (!p.set_fen(fen, shredder, &why) && (shredder || !p.set_fen(fen, true, nullptr))) {
        *error = "invalid FEN: " + why;
        return false;
    }
    if (moves_at != words.end()) {
        if (moves_at + 1 == words.end()) return *error = "'moves' needs at least one move", false;
        int played = 0;
        for (auto it = moves_at + 1; it != words.end(); ++it) {
            // Moves as a GUI shows them: "1.e4 e5 2.Nf3", "1. e4", "12...Nf6" (numbers are skipped).
            std::string word = *it;
            std::size_t digits = 0;
            while (digits < word.size() && std::isdigit(static_cast<unsigned char>(word[digits]))) ++digits;
            if (digits > 0 && digits < word.size() && word[digits] == '.') {
                word.erase(0, word.find_first_not_of('.', digits));
                if (word.find_first_not_of('.') == std::string::npos) continue;
            } else if (word.find_first_not_of('.') == std::string::npos) {
                continue;  // "..." alone
            }
            Move m = uci_to_move(p, word);
            if (!m) m = san_to_move(p, word);
            if (!m) {
                *error = "illegal move '" + printable(*it) + "' in " + p.fen();
                return false;
            }
            p.do_move(m);
            ++played;
        }
        if (!played) return *error = "'moves' needs at least one move", false;
    }
    *pos = p;
    return true;
}

int run_perft(const Args& args, std::ostream& out, std::ostream& err) {
    ParsedArgs a;
    std::string error;
    if (!parse_args(args, {}, &a, &error)) return usage_error(err, "perft", error);
    if (a.positional.empty()) return usage_error(err, "perft", "missing DEPTH");
    long long depth = 0;
    if (!parse_number(a.positional[0], 1, 20, "DEPTH", &depth, &error)) return usage_error(err, "perft", error);
    Position pos;
    if (!read_position({a.positional.begin() + 1, a.positional.end()}, &pos, &error))
        return usage_error(err, "perft", error);

    const auto start = std::chrono::steady_clock::now();
    std::uint64_t total = 0;
    for (const ScoredMove& sm : MoveList<LEGAL>(pos)) {
        pos.do_move(sm.move);
        const std::uint64_t n = depth > 1 ? perft(pos, int(depth) - 1) : 1;
        pos.undo_move(sm.move);
        total += n;
        out << move_to_uci(sm.move, pos.is_chess960()) << ": " << n << "\n";
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out << "\nNodes searched: " << total << "\n";
    err << "Time: " << secs << " s, nps: " << std::uint64_t(double(total) / std::max(secs, 1e-9)) << "\n";
    return EXIT_OK;
}

int run_weights(const Args& args, std::ostream& out, std::ostream& err) {
    ParsedArgs a;
    std::string error;
    if (!parse_args(args, {}, &a, &error)) return usage_error(err, "weights", error);
    if (a.positional.size() != 1) {
        std::string names;
        for (const auto& n : eval::profile_names()) names += " " + n;
        return usage_error(err, "weights", "expected one PROFILE or FILE (profiles:" + names + ")");
    }
    const std::string& name = a.positional[0];
    // What the name is, by the registry of evaluations: only a hand-crafted profile has weights to print.
    eval::EvalKind kind;
    std::shared_ptr<const eval::Profile> p;
    if (eval::builtin_kind(name, &kind)) {
        if (kind == eval::EvalKind::Simple)
            return usage_error(err, "weights", "profile '" + name + "' is the baseline evaluation and has no weights");
        if (kind == eval::EvalKind::Network)
            return usage_error(err, "weights", "profile '" + name + "' is a network and has no weights; quince eval --json describes it");
        p = eval::find_profile_shared(name);
    } else if (!(p = eval::load_profile_file(name, &error))) {
        return usage_error(err, "weights", "'" + printable(name) + "' is no built-in profile (" + eval::known_profiles() +
                                               ") and as a file: " + error);
    }
    out << eval::format_weights(p->w);
    return EXIT_OK;
}

int run_spsa(const Args& args, std::ostream& out, std::ostream& err) {
    if (!args.empty()) return usage_error(err, "spsa", "takes no argument");
    if (!search::param::TUNABLE)
        return usage_error(err, "spsa", "this build has no tuning options; build with -DQUINCE_TUNING=ON (CMake) or "
                                        "'make TUNING=1' (openbench/Makefile)");
    for (const std::string& line : search::param::spsa_input()) out << line << "\n";
    return EXIT_OK;
}

int run_bench(const Args& args, std::ostream& out, std::ostream& err) {
    ParsedArgs a;
    std::string error;
    if (!parse_args(args, {{"weights", true}}, &a, &error)) return usage_error(err, "bench", error);
    if (a.positional.size() > 1) return usage_error(err, "bench", "expected at most one argument, DEPTH");
    long long depth = 13;
    if (!a.positional.empty() && !parse_number(a.positional[0], 1, 64, "DEPTH", &depth, &error))
        return usage_error(err, "bench", error);
    eval::EvalPtr evaluation;
    if (a.has("weights") && !(evaluation = eval::load_evaluation(a.options.at("weights"), &error))) {
        err << "quince bench: " << error << "\n";
        return EXIT_FAILED;
    }
    uci::run_bench(int(depth), [&out](const std::string& line) { out << line << std::endl; }, nullptr, evaluation);
    return EXIT_OK;
}

int run_eval(const Args& args, std::ostream& out, std::ostream& err) {
    ParsedArgs a;
    std::string error;
    if (!parse_args(args, {{"json", false}, {"svg", false}, {"profile", true}, {"weights", true}, {"epd", true}}, &a,
                    &error))
        return usage_error(err, "eval", error);
    if (a.has("json") && a.has("svg")) return usage_error(err, "eval", "--json and --svg exclude each other");
    if (a.has("epd") && a.has("svg")) return usage_error(err, "eval", "--svg draws one position, not an --epd file");
    if (a.has("epd") && !a.positional.empty()) return usage_error(err, "eval", "give a position or --epd FILE, not both");
    // Without --profile: the default evaluation, or for --svg (a drawing of terms) the hand-crafted default.
    const std::string name = a.has("profile") ? a.options.at("profile")
                             : a.has("svg")   ? eval::default_handcrafted_profile()
                                              : eval::default_profile();
    eval::EvalPtr evaluation = eval::builtin_evaluation(name, &error);
    if (!evaluation) return usage_error(err, "eval", error);
    if (a.has("weights") && !(evaluation = eval::load_evaluation(a.options.at("weights"), &error))) {
        err << "quince eval: " << error << "\n";
        return EXIT_FAILED;
    }
    // The positions: the one on the command line, or every position of the --epd file (all read before
    // anything is printed, so that a bad line leaves no partial output).
    std::vector<Position> positions;
    if (a.has("epd")) {
        const std::string& path = a.options.at("epd");
        std::ifstream in(path);
        if (!in) {
            err << "quince eval: cannot read " << path << "\n";
            return EXIT_FAILED;
        }
        if (!for_each_epd_position(in, path, [&](const Position& p, const std::string&, std::string*) {
                positions.push_back(p);
                return true;
            }, &error))
            return usage_error(err, "eval", error);
    } else {
        Position pos;
        if (!read_position(a.positional, &pos, &error)) return usage_error(err, "eval", error);
        positions.push_back(pos);
    }
    // Several positions: JSON as one array of the objects, text as one table after another, each under
    // its FEN.
    const bool several = a.has("epd");
    if (evaluation->kind == eval::EvalKind::Network) {  // its score, beside the terms of a hand-crafted profile
        if (a.has("svg")) {
            // A built-in net has no file: name the profile it was asked for by.
            err << "quince eval: " << (evaluation->source.empty() ? "profile " + name : evaluation->source)
                << " is a network: it has no terms to draw for --svg (a hand-crafted profile has, e.g. --profile "
                << eval::default_handcrafted_profile() << ")\n";
            return EXIT_FAILED;
        }
        // The profile named by --profile when it is hand-crafted, else the hand-crafted default.
        eval::EvalPtr terms = eval::builtin_evaluation(a.has("profile") ? name : eval::default_handcrafted_profile(), &error);
        if (!terms || !terms->profile) terms = eval::builtin_evaluation(eval::default_handcrafted_profile(), &error);
        if (!terms || !terms->profile) {
            err << "quince eval: " << error << "\n";
            return EXIT_FAILED;
        }
        if (several && a.has("json")) out << "[\n";
        for (std::size_t i = 0; i < positions.size(); ++i) {
            const Position& pos = positions[i];
            if (a.has("json")) {
                const Value v = evaluation->network->new_state()->evaluate(pos);
                out << (i ? ",\n" : "") << "{\"network\": {\"name\": " << workbench::json_string(evaluation->name)
                    << ", \"source\": " << workbench::json_string(evaluation->source)
                    << ", \"trained\": " << workbench::json_string(evaluation->network->description())
                    << ", \"teacher_labels\": " << teacher_labels_json(evaluation->network->description())
                    << ", \"side_to_move\": \"" << (pos.side_to_move() == WHITE ? "white" : "black")
                    << "\", \"cp\": " << (pos.side_to_move() == WHITE ? v : -v) << ", \"final_cp\": " << v
                    << "},\n\"profile\": " << eval::trace_json(pos, terms->profile) << "}";
            } else {
                if (several) out << (i ? "\n" : "") << "FEN: " << pos.fen() << "\n";
                out << eval::trace_text(pos, *evaluation) << "\nThe hand-crafted terms of " << terms->name
                    << " for the same position:\n" << eval::trace_text(pos, terms->profile);
            }
        }
    } else {
        const std::shared_ptr<const eval::Profile>& profile = evaluation->profile;
        if (a.has("svg")) {
            const std::string label = a.has("weights") ? profile->w.name : name;
            out << workbench::board_svg(workbench::compare(positions[0], {{label, profile, nullptr}}, true));
            return EXIT_OK;
        }
        if (several && a.has("json")) out << "[\n";
        for (std::size_t i = 0; i < positions.size(); ++i) {
            if (a.has("json")) {
                std::string js = eval::trace_json(positions[i], profile);
                while (!js.empty() && js.back() == '\n') js.pop_back();
                out << (i ? ",\n" : "") << js;
            } else {
                if (several) out << (i ? "\n" : "") << "FEN: " << positions[i].fen() << "\n";
                out << eval::trace_text(positions[i], profile);
            }
        }
    }
    if (a.has("json")) out << (several ? "\n]\n" : "\n");
    return EXIT_OK;
}

const char* const COMPARE_DETAILS =
    "\nOne column per profile: each term's mg and eg (White - Black, cp), its mixed share cp and the\n"
    "difference d to the first profile; 'absent' where a profile has no such term. Then phase, material\n"
    "index and entry, scale and the final score per profile. PROFILEs are built-in names; each\n"
    "--weights FILE adds a column after them (with no PROFILE named, after the default three).\n"
    "  --json       the same as JSON (fields: src/workbench/README.md); names follow 'eval --json'\n"
    "  --svg        the boards side by side, squares shaded by what each profile credits there\n"
    "  --epd FILE   every position of FILE: per term the mean |cp - first profile's cp| and the\n"
    "               positions where the profiles disagree most (--top N of them, default 5)\n"
    "UCI: 'eval compare [PROFILE ...]' prints the table for the current position.\n";

int run_compare(const Args& args, std::ostream& out, std::ostream& err) {
    ParsedArgs a;
    std::string error;
    // --weights may be given several times: one column per file.
    if (!parse_args(args, {{"json", false}, {"svg", false}, {"epd", true}, {"top", true}, {"weights", true, true}}, &a,
                    &error))
        return usage_error(err, "compare", error);
    const std::vector<std::string> files = a.has("weights") ? a.values.at("weights") : std::vector<std::string>{};
    if (a.has("json") && a.has("svg")) return usage_error(err, "compare", "--json and --svg exclude each other");
    const bool epd = a.has("epd");
    if (epd && a.has("svg")) return usage_error(err, "compare", "--svg draws one position, not an --epd file");
    if (!epd && a.has("top")) return usage_error(err, "compare", "--top belongs to --epd");
    long long top = 5;
    if (a.has("top") && !parse_number(a.options.at("top"), 1, 1000, "--top", &top, &error))
        return usage_error(err, "compare", error);
    std::vector<std::string> names(a.positional.begin() + (epd ? 0 : std::min<std::ptrdiff_t>(1, std::ptrdiff_t(a.positional.size()))),
                                   a.positional.end());
    if (!epd && a.positional.empty()) return usage_error(err, "compare", "missing the position (a FEN in one argument, or startpos)");
    if (!epd && !names.empty() && (names[0] == "w" || names[0] == "b"))
        return usage_error(err, "compare", "give the FEN as one quoted argument (its fields were read as profile names)");
    if (names.empty()) names = workbench::default_compare_profiles();  // also beside --weights files
    std::vector<workbench::ProfileColumn> columns;
    bool bad_file = false;
    if (!workbench::resolve_columns(names, files, &columns, &error, &bad_file)) {
        if (bad_file) {
            err << "quince compare: " << error << "\n";
            return EXIT_FAILED;
        }
        return usage_error(err, "compare", error);
    }
    if (epd) {
        const std::string path = a.options.at("epd");
        std::ifstream in(path);
        if (!in) return usage_error(err, "compare", "cannot read '" + printable(path) + "'");
        workbench::EpdSummary summary;
        if (!workbench::compare_epd(in, path, columns, int(top), &summary, &error)) return usage_error(err, "compare", error);
        out << (a.has("json") ? workbench::epd_summary_json(summary) : workbench::epd_summary_text(summary));
        return EXIT_OK;
    }
    Position pos;
    if (!read_position({a.positional[0]}, &pos, &error)) return usage_error(err, "compare", error);
    const workbench::Comparison c = workbench::compare(pos, columns, a.has("svg"));
    if (a.has("svg")) out << workbench::board_svg(c);
    else out << (a.has("json") ? workbench::compare_json(c) : workbench::compare_text(c));
    return EXIT_OK;
}

int run_uci_lines(const Args& lines, std::ostream& out, std::string* unknown_first_word) {
    uci::Uci uci(out);
    if (unknown_first_word && !lines.empty()) {
        std::istringstream words(lines[0]);
        std::string first;
        words >> first;
        if (!uci.knows_command(first)) {
            *unknown_first_word = first.empty() ? lines[0] : first;
            return EXIT_USAGE;
        }
    }
    for (const std::string& line : lines) {
        if (!uci.execute(line)) break;
        uci.wait_idle();
        // The lines after a refused one were meant for the state it would have made: running them on
        // the old state (a search of the wrong position) would answer a question nobody asked.
        if (uci.errors()) return EXIT_FAILED;
    }
    return EXIT_OK;
}

}  // namespace quince::cli
