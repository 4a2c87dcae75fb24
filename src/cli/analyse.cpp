#include "cli/analyse.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <ostream>
#include <sstream>
#include <thread>

#include "board/movegen.h"
#include "board/notation.h"
#include "cli/analyse_game.h"
#include "core/text.h"
#include "eval/evaluate.h"
#include "quince_version.h"
#include "search/search.h"
#include "workbench/json.h"

namespace quince::cli {

namespace {

using workbench::json_string;

constexpr long long DEFAULT_DEPTH = 20;

// 1234 -> "1234", 12345 -> "12.3k", 4125329 -> "4.13M", 1.2e10 -> "12.00G": node counts for people.
std::string human(std::uint64_t n) {
    char buf[32];
    if (n < 10000) std::snprintf(buf, sizeof buf, "%llu", (unsigned long long)n);
    else if (n < 999950) std::snprintf(buf, sizeof buf, "%.1fk", double(n) / 1e3);
    else if (n < 999995000ULL) std::snprintf(buf, sizeof buf, "%.2fM", double(n) / 1e6);
    else std::snprintf(buf, sizeof buf, "%.2fG", double(n) / 1e9);
    return buf;
}

std::string seconds(std::int64_t ms) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2fs", double(ms) / 1000.0);
    return buf;
}

// Win/draw/loss per mille turned to White's view.
eval::Wdl white_wdl(const eval::Wdl& w, Color stm) {
    return stm == WHITE ? w : eval::Wdl{w.loss, w.draw, w.win};
}
std::string wdl_text(const eval::Wdl& w) {
    return std::to_string(w.win) + "/" + std::to_string(w.draw) + "/" + std::to_string(w.loss);
}
std::string wdl_json(const eval::Wdl& w) {
    return "[" + std::to_string(w.win) + ", " + std::to_string(w.draw) + ", " + std::to_string(w.loss) + "]";
}

std::string json_score(const search::Score& score, Color stm) {
    const int white = stm == WHITE ? score.value : -score.value;
    return score.mate ? "{\"white_mate\": " + std::to_string(white) + "}" : "{\"white_cp\": " + std::to_string(white) + "}";
}

std::string json_moves(const Position& root, const std::vector<Move>& pv, bool san) {
    Position p = root;
    std::string r = "[";
    for (std::size_t i = 0; i < pv.size(); ++i) {
        r += (i ? ", " : "") + json_string(san ? move_to_san(p, pv[i]) : move_to_uci(pv[i], p.is_chess960()));
        p.do_move(pv[i]);
    }
    return r + "]";
}

// A PGN file: "-" (standard input), a name ending in .pgn, or an existing file.
bool is_games_argument(const std::string& word) {
    if (word == "-") return true;
    if (word.size() > 4) {
        if (ascii_lower(word.substr(word.size() - 4)) == ".pgn") return true;
    }
    std::error_code ec;
    return std::filesystem::is_regular_file(word, ec);
}

}  // namespace

const char* const ANALYSE_DETAILS =
    "Searches the position and prints its best lines in SAN, scores in pawns from White's point of view\n"
    "(+M3: White mates in 3 moves), one block per completed iteration. Default limit: --depth 20.\n"
    "--infinite searches until Ctrl-C; Ctrl-C always stops the search and prints the result so far.\n"
    "--json: JSON Lines, one {\"type\": \"iteration\"} object per completed iteration and a final\n"
    "{\"type\": \"result\"} object. Defaults: --multipv 1, --threads 1, --hash 64, --profile nnue\n"
    "(the default profile; quince in a build without a network).\n"
    "--wdl: White's win/draw/loss per mille beside every score (\"wdl\": [W, D, L] in JSON), from the\n"
    "evaluation's WDL model (as UCI_ShowWDL).\n"
    "Moves may be pasted as a GUI shows them: 'startpos moves 1.e4 e5 2.Nf3' (SAN, numbers, or UCI).\n"
    "\n"
    "quince analyse GAMES.pgn [--out FILE] [--json] [--nodes N|--movetime MS|--depth D] [--model M]\n"
    "                         [--game N|A-B] [--side white|black] [--from-move N] [--wdl]\n"
    "annotates every game of the file (\"-\": standard input): [%eval] after each move (pawns, White's view),\n"
    "?! ? ?? for a drop of the mover's winning chances by 0.1 / 0.2 / 0.3 (lichess's thresholds; --model\n"
    "human, the default: chances from a WDL model of games people played on lichess.org; wdl: the evaluation's\n"
    "model of engine games; lichess: lichess's formula), the better line after a mistake or blunder,\n"
    "[WhiteACPL] [BlackACPL] [WhiteAccuracy] [BlackAccuracy] tags. Default budget: --nodes 400000\n"
    "per position (one limit at most). --json: one {\"type\": \"game\"} line per game.\n"
    "--game 3 or --game 2-5: only those games of the file (from 1). --side white|black: only that side's\n"
    "moves are annotated. --from-move N: the annotation starts at move N (the moves before are not searched).\n"
    "--wdl: White's win/draw/loss per mille in each eval's comment, { [%eval 0.34] [%wdl 449,247,304] },\n"
    "and \"wdl\": [W, D, L] beside each eval in --json.\n"
    "A game that cannot be read is named on stderr and written as it was, with a comment saying why; the\n"
    "others are analysed (exit status 1). A null move (-- or Z0) in the main line ends the analysis there;\n"
    "in a variation it is kept.\n";

std::string san_line(const Position& root, const std::vector<Move>& pv) {
    Position p = root;
    std::string r;
    int number = p.game_ply() / 2 + 1;
    for (std::size_t i = 0; i < pv.size(); ++i) {
        if (i) r += ' ';
        if (p.side_to_move() == WHITE) r.append(std::to_string(number)).append(". ");
        else if (i == 0) r.append(std::to_string(number)).append("... ");
        r += move_to_san(p, pv[i]);
        p.do_move(pv[i]);
        if (p.side_to_move() == WHITE) ++number;
    }
    return r;
}

std::string white_score_text(const search::Score& score, Color side_to_move) {
    const int white = side_to_move == WHITE ? score.value : -score.value;
    char buf[32];
    if (score.mate) std::snprintf(buf, sizeof buf, "%sM%d", white > 0 ? "+" : "-", std::abs(white));
    else std::snprintf(buf, sizeof buf, "%+.2f", white / 100.0);
    return buf;
}

bool read_engine_settings(const ParsedArgs& a, EngineSettings* s, std::string* error) {
    if (a.has("threads") && !parse_number(a.options.at("threads"), 1, 256, "--threads", &s->threads, error)) return false;
    if (a.has("hash") && !parse_number(a.options.at("hash"), 1, 65536, "--hash", &s->hash_mb, error)) return false;
    s->profile = a.has("profile") ? a.options.at("profile") : eval::default_profile();
    s->evaluation = eval::builtin_evaluation(s->profile, error);
    return s->evaluation != nullptr;
}

bool set_up_engine(search::Engine& engine, const EngineSettings& s, std::ostream& err) {
    if (!engine.set_hash(std::size_t(s.hash_mb))) {
        err << "quince analyse: cannot allocate " << s.hash_mb << " MB for the hash table\n";
        return false;
    }
    engine.set_threads(int(s.threads));
    engine.set_eval(s.evaluation);
    return true;
}

namespace {

// What `quince analyse POSITION` was asked for, read and checked from its arguments.
struct PositionRequest {
    Position root;
    search::Limits limits;
    long long multipv = 1;
    bool json = false;
    bool wdl = false;  // win/draw/loss beside every score
    EngineSettings engine;
    std::string limit_text;  // "depth 20", "5000 nodes", ... for the header
};

// Reads the options of one position's analysis; false with *error for a usage error.
bool read_position_request(const ParsedArgs& a, PositionRequest* r, std::string* error) {
    for (const char* games_only : {"out", "model", "game", "side", "from-move"})
        if (a.has(games_only)) return *error = std::string("--") + games_only + " is for games (a PGN file)", false;
    const int limit_count = a.has("depth") + a.has("movetime") + a.has("nodes") + a.has("infinite");
    if (limit_count > 1) return *error = "give at most one of --depth, --movetime, --nodes, --infinite", false;
    long long depth = limit_count ? 0 : DEFAULT_DEPTH, movetime = 0, nodes = 0;
    struct NumberOption { const char* name; long long lo, hi; long long* value; };
    const NumberOption numbers[] = {{"depth", 1, MAX_PLY - 1, &depth}, {"movetime", 1, 1LL << 40, &movetime},
                                    {"nodes", 1, 1LL << 50, &nodes},   {"multipv", 1, 256, &r->multipv}};
    for (const NumberOption& n : numbers)
        if (a.has(n.name) && !parse_number(a.options.at(n.name), n.lo, n.hi, std::string("--") + n.name, n.value, error))
            return false;
    if (!read_engine_settings(a, &r->engine, error)) return false;
    if (!read_position(a.positional, &r->root, error)) return false;
    r->json = a.has("json");
    r->wdl = a.has("wdl");
    r->limits.depth = int(depth);
    r->limits.movetime = movetime;
    r->limits.nodes = std::uint64_t(nodes);
    r->limit_text = a.has("movetime")   ? "movetime " + std::to_string(movetime) + " ms"
                    : a.has("nodes")    ? std::to_string(nodes) + " nodes"
                    : a.has("infinite") ? "until Ctrl-C"
                                        : "depth " + std::to_string(depth);
    return true;
}

// A position without a legal move: the outcome, in text or JSON.
void print_no_legal_move(const Position& root, bool json, std::ostream& out) {
    const std::string outcome = root.in_check() ? "checkmate" : "stalemate";
    if (json)
        out << "{\"type\": \"result\", \"fen\": " << json_string(root.fen()) << ", \"bestmove\": null, \"outcome\": \""
            << outcome << "\"}\n";
    else
        out << "No legal move: "
            << (root.in_check() ? std::string(root.side_to_move() == WHITE ? "Black" : "White") + " has mated"
                                : std::string("stalemate, a draw"))
            << ".\n";
}

// The output of one position's analysis: the search's lines (search::Info) gathered into iterations and
// printed when complete (text or JSON), the live status line, the final result. The search thread calls
// on_info(); this thread status() and result(); a mutex orders their output.
class AnalysisOutput {
public:
    // `wdl`: the model of the evaluation searching, for win/draw/loss beside the scores (null: none).
    AnalysisOutput(const Position& root, int lines_per_iteration, bool multi, bool json, const eval::WdlModel* wdl,
                   std::ostream& out)
        : root_(root), stm_(root.side_to_move()), multi_(multi), json_(json), wdl_(wdl), out_(out),
          latest_(std::size_t(lines_per_iteration)) {}

    void header(const PositionRequest& r) {
        if (json_) return;
        const long long threads = r.engine.threads;
        out_ << "Quince " << QUINCE_VERSION << " analysing " << root_.fen() << " (" << (stm_ == WHITE ? "White" : "Black")
             << " to move)\n";
        out_ << "profile " << r.engine.profile << ", " << r.limit_text << ", " << threads
             << (threads > 1 ? " threads" : " thread") << ", hash " << r.engine.hash_mb
             << " MB; scores in pawns from White's point of view (+M3: White mates in 3)"
             << (wdl_ ? "; win/draw/loss per mille, White's" : "") << "\n"
             << (multi_ ? "depth  #   score" : "depth   score") << (wdl_ ? " win/draw/loss" : "")
             << "     time    nodes     nps  line" << std::endl;
    }

    // One line of the search. The search reports all lines together; an iteration is complete when every
    // line has its depth and an exact score (fail-high/low reports and stopped iterations are not).
    void on_info(const search::Info& l) {
        if (l.pv.empty() || l.multipv < 1 || l.multipv > int(latest_.size())) return;
        std::lock_guard<std::mutex> lock(mutex_);
        latest_[std::size_t(l.multipv - 1)] = l;
        if (l.multipv != int(latest_.size())) return;
        const bool complete = std::all_of(latest_.begin(), latest_.end(), [&](const search::Info& x) {
            return x.depth == l.depth && x.bound == search::Info::Bound::EXACT && !x.pv.empty();
        });
        if (complete && l.depth > printed_depth_) {
            printed_depth_ = l.depth;
            last_printed_ = latest_[0];
            print_iteration();
        }
    }

    // The live status line (text output on a terminal): the iteration under way and its first line so far.
    void status(std::int64_t ms, std::uint64_t nodes) {
        if (json_) return;
        std::lock_guard<std::mutex> lock(mutex_);
        out_ << "\r\033[K" << "  depth " << printed_depth_ + 1 << "  " << seconds(ms) << "  " << human(nodes)
             << " nodes  " << human(nodes * 1000 / std::uint64_t(std::max<std::int64_t>(ms, 1))) << " nps";
        const search::Info& first = latest_[0];
        if (!first.pv.empty())
            out_ << "  (so far " << white_score_text(first.score, stm_) << " " << move_to_san(root_, first.pv[0])
                 << (first.bound == search::Info::Bound::LOWER   ? ", failing high"
                     : first.bound == search::Info::Bound::UPPER ? ", failing low"
                                                                 : "")
                 << ")";
        out_.flush();
        status_shown_ = true;
    }

    // The search's result: best move, score, the depth shown for it, nodes and time.
    void result(const search::SearchResult& r, std::int64_t ms, bool interrupted) {
        std::lock_guard<std::mutex> lock(mutex_);
        const search::Score score = search::reported_score(r.score);
        const std::vector<Move> pv = r.pv.empty() ? std::vector<Move>{r.best} : r.pv;
        // A search stopped inside an iteration reports the move it had finished searching at that depth
        // (shown above as that depth); the summary names the same depth rather than the last full one.
        const int shown_depth = !last_printed_.pv.empty() && last_printed_.pv == pv && last_printed_.score == score
                                    ? std::max(r.depth, last_printed_.depth)
                                    : r.depth;
        const bool chess960 = root_.is_chess960();
        eval::Wdl wdl;
        if (wdl_) {
            const eval::Wdl w = eval::score_to_wdl(r.score, eval::wdl_material(root_), *wdl_);
            wdl = white_wdl(w, stm_);
        }
        if (json_) {
            out_ << "{\"type\": \"result\", \"fen\": " << json_string(root_.fen()) << ", \"bestmove\": "
                 << json_string(move_to_uci(r.best, chess960)) << ", \"san\": " << json_string(move_to_san(root_, r.best))
                 << ", \"depth\": " << shown_depth << ", \"score\": " << json_score(score, stm_)
                 << (wdl_ ? ", \"wdl\": " + wdl_json(wdl) : "")
                 << ", \"pv\": " << json_moves(root_, pv, false) << ", \"san_pv\": " << json_moves(root_, pv, true)
                 << ", \"nodes\": " << r.nodes << ", \"time_ms\": " << ms << ", \"stopped\": " << (interrupted ? "true" : "false")
                 << "}" << std::endl;
        } else {
            clear_status();
            out_ << (interrupted ? "stopped. " : "") << "best move " << move_to_san(root_, r.best) << " ("
                 << move_to_uci(r.best, chess960) << "), " << white_score_text(score, stm_)
                 << (wdl_ ? " (win/draw/loss " + wdl_text(wdl) + ")" : "") << " at depth " << shown_depth
                 << ", " << human(r.nodes) << " nodes in " << seconds(ms) << ": " << san_line(root_, pv) << std::endl;
        }
    }

private:
    void clear_status() {
        if (status_shown_) out_ << "\r\033[K";
        status_shown_ = false;
    }
    void print_iteration() {
        const search::Info& first = latest_[0];
        if (json_) {
            out_ << "{\"type\": \"iteration\", \"depth\": " << first.depth << ", \"seldepth\": " << first.seldepth
                 << ", \"time_ms\": " << first.time_ms << ", \"nodes\": " << first.nodes << ", \"nps\": " << first.nps
                 << ", \"lines\": [";
            for (std::size_t i = 0; i < latest_.size(); ++i)
                out_ << (i ? ", " : "") << "{\"multipv\": " << latest_[i].multipv
                     << ", \"score\": " << json_score(latest_[i].score, stm_)
                     << (latest_[i].wdl ? ", \"wdl\": " + wdl_json(white_wdl(*latest_[i].wdl, stm_)) : "")
                     << ", \"pv\": " << json_moves(root_, latest_[i].pv, false)
                     << ", \"san\": " << json_moves(root_, latest_[i].pv, true) << "}";
            out_ << "]}" << std::endl;
            return;
        }
        clear_status();
        for (const search::Info& l : latest_) {
            char row[128];
            std::string score = white_score_text(l.score, stm_);
            if (wdl_) {  // a column of its own, "312/601/87"
                char cell[32];
                std::snprintf(cell, sizeof cell, "%7s %13s", score.c_str(),
                              l.wdl ? wdl_text(white_wdl(*l.wdl, stm_)).c_str() : "");
                score = cell;
            }
            if (multi_)
                std::snprintf(row, sizeof row, "%5d %2d %7s %8s %8s %7s  ", l.depth, l.multipv, score.c_str(),
                              seconds(l.time_ms).c_str(), human(l.nodes).c_str(), human(l.nps).c_str());
            else
                std::snprintf(row, sizeof row, "%5d %7s %8s %8s %7s  ", l.depth, score.c_str(),
                              seconds(l.time_ms).c_str(), human(l.nodes).c_str(), human(l.nps).c_str());
            out_ << row << san_line(root_, l.pv) << "\n";
        }
        out_.flush();
    }

    const Position& root_;
    const Color stm_;
    const bool multi_, json_;
    const eval::WdlModel* wdl_;
    std::ostream& out_;
    std::mutex mutex_;
    std::vector<search::Info> latest_;
    int printed_depth_ = 0;
    search::Info last_printed_;  // first line of the last iteration shown
    bool status_shown_ = false;
};

// Waits for the search to end: stops it on an interrupt, redraws the status line when live. Returns
// whether it was interrupted.
bool wait_for_search(search::Engine& engine, const AnalyseSettings& settings, AnalysisOutput& output) {
    bool interrupted = false;
    auto last_status = std::chrono::steady_clock::now();
    while (engine.searching()) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        if (!interrupted && settings.interrupt && settings.interrupt->load()) {
            interrupted = true;
            engine.stop();
        }
        if (settings.live && std::chrono::steady_clock::now() - last_status > std::chrono::milliseconds(250)) {
            last_status = std::chrono::steady_clock::now();
            output.status(engine.elapsed_ms(), engine.nodes_searched());
        }
    }
    engine.wait();
    return interrupted;
}

}  // namespace

int run_analyse(const Args& args, std::ostream& out, std::ostream& err, const AnalyseSettings& settings) {
    ParsedArgs a;
    std::string error;
    const std::vector<OptionSpec> specs = {{"depth", true},   {"movetime", true}, {"nodes", true},
                                           {"infinite", false}, {"multipv", true}, {"profile", true},
                                           {"threads", true}, {"hash", true},     {"json", false},
                                           {"out", true},     {"model", true},    {"game", true},
                                           {"side", true},    {"from-move", true}, {"wdl", false}};
    if (!parse_args(args, specs, &a, &error)) return usage_error(err, "analyse", error);
    if (!a.positional.empty() && is_games_argument(a.positional[0])) {
        GamesSettings games;
        games.progress = settings.progress;
        games.interrupt = settings.interrupt;
        games.text = settings.games_text;
        games.on_position = settings.on_position;
        return run_analyse_games(a.positional[0], a, out, err, games);
    }
    PositionRequest r;
    if (!read_position_request(a, &r, &error)) return usage_error(err, "analyse", error);
    const int legal = int(MoveList<LEGAL>(r.root).size());
    if (legal == 0) {
        print_no_legal_move(r.root, r.json, out);
        return EXIT_OK;
    }

    AnalysisOutput output(r.root, std::min(int(r.multipv), legal), r.multipv > 1, r.json,
                          r.wdl ? &r.engine.evaluation->wdl : nullptr, out);  // outlives the engine
    search::Engine engine;
    if (!set_up_engine(engine, r.engine, err)) return EXIT_FAILED;
    search::SearchOptions options;
    options.multi_pv = int(r.multipv);
    options.show_wdl = r.wdl;
    search::Listener listener;
    listener.info = [&output](const search::Info& info) { output.on_info(info); };
    engine.set_listener(std::move(listener));
    output.header(r);
    engine.go(r.root, r.limits, options);
    const bool interrupted = wait_for_search(engine, settings, output);
    output.result(engine.last_result(), engine.elapsed_ms(), interrupted);
    return EXIT_OK;
}

}  // namespace quince::cli
