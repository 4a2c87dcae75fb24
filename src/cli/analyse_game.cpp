#include "cli/analyse_game.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <thread>

#include "board/movegen.h"
#include "board/notation.h"
#include "cli/analyse.h"
#include "core/text.h"
#include "eval/evaluate.h"
#include "quince_version.h"
#include "eval/wdl.h"
#include "workbench/json.h"

namespace quince::cli {

namespace {

using workbench::json_string;

constexpr int CP_CLAMP = 1000;  // scores beyond are "won"/"lost" for the centipawn loss (lichess's cap)

bool is_mate(Value v) { return v >= VALUE_MATE_IN_MAX_PLY || v <= VALUE_MATED_IN_MAX_PLY; }

int clamped_cp(Value v) {
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return CP_CLAMP;
    if (v <= VALUE_TB_LOSS_IN_MAX_PLY) return -CP_CLAMP;
    return std::clamp(int(v), -CP_CLAMP, CP_CLAMP);
}

std::string fixed(double v, int decimals) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// Takes `[%eval …]` commands out of a comment (a game analysed before); blanks around them go too.
std::string without_eval(std::string c) {
    for (std::size_t at; (at = c.find("[%eval")) != std::string::npos;) {
        const std::size_t close = c.find(']', at);
        c.erase(at, close == std::string::npos ? std::string::npos : close - at + 1);
    }
    const std::size_t a = c.find_first_not_of(' '), b = c.find_last_not_of(' ');
    return a == std::string::npos ? "" : c.substr(a, b - a + 1);
}

// One position's search; an interrupt stops it at once instead of after the budget (a `--depth 30` search
// can take minutes). False when interrupted: the result is then not a finished search.
bool search_position(search::Engine& engine, const Position& pos, const search::Limits& limits,
                     const search::SearchOptions& options, const std::atomic<bool>* interrupt, search::SearchResult* out) {
    engine.go(pos, limits, options);
    while (engine.searching()) {
        if (interrupt && interrupt->load()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (interrupt && interrupt->load()) engine.stop();
    engine.wait();
    *out = engine.last_result();
    return !(interrupt && interrupt->load());
}

}  // namespace

double winning_chances(ChancesModel model, Value v, int material, const eval::WdlModel& wdl) {
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return 1;
    if (v <= VALUE_TB_LOSS_IN_MAX_PLY) return -1;
    if (model == ChancesModel::LICHESS) {
        const double cp = std::clamp(double(v), -double(CP_CLAMP), double(CP_CLAMP));
        return 2 / (1 + std::exp(-0.00368208 * cp)) - 1;
    }
    return eval::wdl_win_rate(wdl, v, material) - eval::wdl_win_rate(wdl, -double(v), material);
}

Judgement judge(double drop) {
    if (drop >= BLUNDER_DROP) return Judgement::BLUNDER;
    if (drop >= MISTAKE_DROP) return Judgement::MISTAKE;
    if (drop >= INACCURACY_DROP) return Judgement::INACCURACY;
    return Judgement::NONE;
}

int judgement_nag(Judgement j) {
    switch (j) {
        case Judgement::INACCURACY: return 6;
        case Judgement::MISTAKE: return 2;
        case Judgement::BLUNDER: return 4;
        default: return 0;
    }
}

const char* judgement_name(Judgement j) {
    switch (j) {
        case Judgement::INACCURACY: return "inaccuracy";
        case Judgement::MISTAKE: return "mistake";
        case Judgement::BLUNDER: return "blunder";
        default: return "";
    }
}

double move_accuracy(double before, double after) {
    const double a = 103.1668 * std::exp(-0.04354 * (before - after)) - 3.1669;
    return std::clamp(a, 0.0, 100.0);
}

std::string eval_command(Value v, Color stm) {
    const Value white = stm == WHITE ? v : Value(-v);
    if (is_mate(white)) return "[%eval #" + std::to_string(search::mate_in_moves(white)) + "]";
    char buf[32];
    std::snprintf(buf, sizeof buf, "[%%eval %.2f]", white / 100.0);
    return buf;
}

bool analyse_game(const game::Game& game, search::Engine& engine, const GameBudget& budget, GameAnalysis* out,
                  const std::function<void(int, int)>& on_position, const std::atomic<bool>* interrupt) {
    *out = GameAnalysis{};
    engine.new_game();
    search::SearchOptions options;
    options.silent = true;
    Position pos = game.start();
    options.chess960 = pos.is_chess960();
    const int n = int(game.moves.size());
    // Scores of every position of the main line, side to move's view (mated: VALUE_NONE for "no move").
    std::vector<Value> score(std::size_t(n) + 1, VALUE_NONE);
    std::vector<search::SearchResult> result(std::size_t(n) + 1);
    std::vector<int> material(std::size_t(n) + 1);
    for (int i = 0; i <= n; ++i) {
        if (interrupt && interrupt->load()) return false;
        if (on_position) on_position(i, n + 1);
        material[std::size_t(i)] = eval::wdl_material(pos);
        if (!pos.has_legal_move()) {
            score[std::size_t(i)] = pos.in_check() ? mated_in(0) : VALUE_DRAW;
        } else if (pos.is_draw(0) || pos.has_insufficient_material()) {
            score[std::size_t(i)] = VALUE_DRAW;  // a draw by rule: nothing to search
        } else {  // the last position too: its score is the eval after the last move
            if (!search_position(engine, pos, budget.limits, options, interrupt, &result[std::size_t(i)])) return false;
            score[std::size_t(i)] = result[std::size_t(i)].score;
        }
        if (i < n) pos.do_move(game.moves[std::size_t(i)].move);
    }

    pos = game.start();
    for (int i = 0; i < n; ++i) {
        const game::PgnMove& pm = game.moves[std::size_t(i)];
        MoveVerdict v;
        v.move = pm.move;
        v.san = move_to_san(pos, pm.move);
        const Color mover = pos.side_to_move();
        const Value after = Value(-score[std::size_t(i) + 1]);  // the mover's view
        v.score_after = score[std::size_t(i) + 1];
        const search::SearchResult& r = result[std::size_t(i)];
        Value before = score[std::size_t(i)];
        v.best = r.best;
        v.best_line = r.pv.empty() && r.best ? std::vector<Move>{r.best} : r.pv;
        if (int(v.best_line.size()) > budget.max_line_plies) v.best_line.resize(std::size_t(budget.max_line_plies));
        // The move the search itself chose loses nothing; a move that turns out better than the search
        // thought (a deeper look after it) loses nothing either.
        if (pm.move == r.best || !r.best) before = std::min(before, after);
        v.best_score = before;
        const eval::WdlModel& wdl = engine.evaluation()->wdl;  // the model of the evaluation that scored them
        const double chances_before = winning_chances(budget.model, before, material[std::size_t(i)], wdl);
        const double chances_after = winning_chances(budget.model, after, material[std::size_t(i) + 1], wdl);
        v.drop = std::max(0.0, chances_before - chances_after);
        v.cp_loss = std::max(0, clamped_cp(before) - clamped_cp(after));
        v.accuracy = move_accuracy(50 + 50 * chances_before, 50 + 50 * std::min(chances_after, chances_before));
        v.judgement = pm.move == r.best ? Judgement::NONE : judge(v.drop);
        SideSummary& s = out->side[mover];
        ++s.moves;
        s.acpl += v.cp_loss;
        s.accuracy += v.accuracy;
        s.inaccuracies += v.judgement == Judgement::INACCURACY;
        s.mistakes += v.judgement == Judgement::MISTAKE;
        s.blunders += v.judgement == Judgement::BLUNDER;
        out->moves.push_back(std::move(v));
        pos.do_move(pm.move);
    }
    for (SideSummary& s : out->side)
        if (s.moves) s.acpl /= s.moves, s.accuracy /= s.moves;
    return true;
}

void annotate(game::Game* game, const GameAnalysis& analysis, const std::string& annotator) {
    Position pos = game->start();
    for (std::size_t i = 0; i < game->moves.size() && i < analysis.moves.size(); ++i) {
        game::PgnMove& pm = game->moves[i];
        const MoveVerdict& v = analysis.moves[i];
        std::vector<std::string> comments;
        for (const std::string& c : pm.comments)
            if (std::string kept = without_eval(c); !kept.empty()) comments.push_back(kept);
        Position next = pos;
        next.do_move(pm.move);
        std::vector<std::string> ours;
        if (v.score_after != VALUE_NONE && next.has_legal_move()) ours.push_back(eval_command(v.score_after, next.side_to_move()));
        pm.nags.erase(std::remove_if(pm.nags.begin(), pm.nags.end(), [](int n) { return n >= 1 && n <= 6; }),
                      pm.nags.end());
        if (v.judgement != Judgement::NONE) {
            pm.nags.insert(pm.nags.begin(), judgement_nag(v.judgement));
            std::string name = judgement_name(v.judgement);
            name[0] = char(std::toupper(static_cast<unsigned char>(name[0])));
            ours.push_back(name + ". " + move_to_san(pos, v.best) + " was best.");
            if (v.judgement != Judgement::INACCURACY && !v.best_line.empty()) {
                game::Line line;
                Position p = pos;
                for (Move m : v.best_line) {
                    game::PgnMove bm;
                    bm.move = m;
                    bm.san = move_to_san(p, m);
                    p.do_move(m);
                    line.push_back(std::move(bm));
                }
                pm.variations.insert(pm.variations.begin(), std::move(line));
            }
        }
        // Ours first, as lichess writes them: the eval right after the move, then the verdict.
        comments.insert(comments.begin(), ours.begin(), ours.end());
        pm.comments = std::move(comments);
        pos = next;
    }
    for (std::string& c : game->final_comments) c = without_eval(c);
    std::erase(game->final_comments, std::string());
    game->set_tag("Annotator", annotator);
    const SideSummary& w = analysis.side[WHITE];
    const SideSummary& b = analysis.side[BLACK];
    game->set_tag("WhiteACPL", std::to_string(int(std::lround(w.acpl))));
    game->set_tag("BlackACPL", std::to_string(int(std::lround(b.acpl))));
    game->set_tag("WhiteAccuracy", fixed(w.accuracy, 1));
    game->set_tag("BlackAccuracy", fixed(b.accuracy, 1));
}

std::string game_json(const game::Game& game, const GameAnalysis& analysis, int number, ChancesModel model) {
    std::string r = "{\"type\": \"game\", \"game\": " + std::to_string(number) + ", \"tags\": {";
    for (std::size_t i = 0; i < game.tags.size(); ++i)
        r += (i ? ", " : "") + json_string(game.tags[i].first) + ": " + json_string(game.tags[i].second);
    r += "}, \"result\": " + json_string(game.result) + ", \"model\": \"" +
         (model == ChancesModel::WDL ? "wdl" : "lichess") + "\", \"sides\": {";
    for (Color c : {WHITE, BLACK}) {
        const SideSummary& s = analysis.side[c];
        r += std::string(c == WHITE ? "\"white\": " : ", \"black\": ") + "{\"moves\": " + std::to_string(s.moves) +
             ", \"acpl\": " + fixed(s.acpl, 1) + ", \"accuracy\": " + fixed(s.accuracy, 1) +
             ", \"inaccuracies\": " + std::to_string(s.inaccuracies) + ", \"mistakes\": " + std::to_string(s.mistakes) +
             ", \"blunders\": " + std::to_string(s.blunders) + "}";
    }
    r += "}, \"moves\": [";
    Position pos = game.start();
    for (std::size_t i = 0; i < analysis.moves.size(); ++i) {
        const MoveVerdict& v = analysis.moves[i];
        Position next = pos;
        next.do_move(v.move);
        r += i ? ", " : "";
        r += "{\"ply\": " + std::to_string(i + 1) + ", \"color\": \"" + (pos.side_to_move() == WHITE ? "white" : "black") +
             "\", \"san\": " + json_string(v.san) + ", \"uci\": " + json_string(move_to_uci(v.move, pos.is_chess960())) +
             ", \"eval\": ";
        if (v.score_after == VALUE_NONE || !next.has_legal_move()) {
            r += next.in_check() && !next.has_legal_move() ? "{\"checkmate\": true}" : "{\"white_cp\": 0}";
        } else {
            const Value white = next.side_to_move() == WHITE ? v.score_after : Value(-v.score_after);
            r += is_mate(white) ? "{\"white_mate\": " + std::to_string(search::mate_in_moves(white)) + "}"
                                : "{\"white_cp\": " + std::to_string(white) + "}";
        }
        r += ", \"cp_loss\": " + std::to_string(v.cp_loss) + ", \"chances_lost\": " + fixed(v.drop, 3) +
             ", \"accuracy\": " + fixed(v.accuracy, 1) + ", \"judgement\": ";
        r += v.judgement == Judgement::NONE ? "null" : json_string(judgement_name(v.judgement));
        r += ", \"best\": ";
        if (v.best) {
            r += "{\"uci\": " + json_string(move_to_uci(v.best, pos.is_chess960())) +
                 ", \"san\": " + json_string(move_to_san(pos, v.best)) + ", \"line\": [";
            Position p = pos;
            for (std::size_t k = 0; k < v.best_line.size(); ++k) {
                r += (k ? ", " : "") + json_string(move_to_san(p, v.best_line[k]));
                p.do_move(v.best_line[k]);
            }
            r += "]}";
        } else {
            r += "null";
        }
        r += "}";
        pos = next;
    }
    return r + "]}";
}

int run_analyse_games(const std::string& path, const ParsedArgs& a, std::ostream& out, std::ostream& err,
                      const GamesSettings& settings) {
    std::string error;
    if (a.positional.size() > 1) return usage_error(err, "analyse", "give one PGN file (found more words after '" + printable(path) + "')");
    if (a.has("multipv")) return usage_error(err, "analyse", "--multipv is for one position, not games");
    if (a.has("infinite")) return usage_error(err, "analyse", "--infinite is for one position, not games");
    GameBudget budget;
    long long depth = 0, movetime = 0, nodes = a.has("depth") || a.has("movetime") || a.has("nodes") ? 0 : DEFAULT_GAME_NODES;
    struct NumberOption { const char* name; long long lo, hi; long long* value; };
    const NumberOption numbers[] = {{"depth", 1, MAX_PLY - 1, &depth},
                                    {"movetime", 1, 1LL << 40, &movetime},
                                    {"nodes", 1, 1LL << 50, &nodes}};
    for (const NumberOption& n : numbers)
        if (a.has(n.name) && !parse_number(a.options.at(n.name), n.lo, n.hi, std::string("--") + n.name, n.value, &error))
            return usage_error(err, "analyse", error);
    budget.limits.depth = int(depth);
    budget.limits.movetime = movetime;
    budget.limits.nodes = std::uint64_t(nodes);
    if (a.has("model")) {
        const std::string m = a.options.at("model");
        if (m == "wdl") budget.model = ChancesModel::WDL;
        else if (m == "lichess") budget.model = ChancesModel::LICHESS;
        else return usage_error(err, "analyse", "--model must be wdl or lichess, got '" + printable(m) + "'");
    }
    EngineSettings engine_settings;
    if (!read_engine_settings(a, &engine_settings, &error)) return usage_error(err, "analyse", error);

    std::string text;
    if (path == "-") {
        text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    } else {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            err << "quince analyse: cannot read '" << printable(path) << "'\n";
            return EXIT_FAILED;
        }
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const std::string name = path == "-" ? "standard input" : printable(path, 200);
    std::vector<game::Game> games;
    game::PgnError pgn_error;
    const bool read_all = game::read_pgn(text, &games, &pgn_error);
    const bool json = a.has("json");
    if (!read_all) {
        err << "quince analyse: " << name << ": " << pgn_error.text() << "\n";
        if (games.empty()) {
            if (json)
                out << "{\"type\": \"error\", \"game\": " << pgn_error.game << ", \"line\": " << pgn_error.line
                    << ", \"move\": " << json_string(pgn_error.move) << ", \"message\": " << json_string(pgn_error.text())
                    << "}" << std::endl;
            return EXIT_FAILED;
        }
        err << "quince analyse: analysing the " << games.size() << (games.size() == 1 ? " game" : " games") << " before it\n";
    } else if (games.empty()) {
        err << "quince analyse: " << name << " holds no game\n";
        return EXIT_FAILED;
    }

    std::ofstream file;
    if (a.has("out")) {
        file.open(a.options.at("out"), std::ios::binary);
        if (!file) {
            err << "quince analyse: cannot write '" << printable(a.options.at("out")) << "'\n";
            return EXIT_FAILED;
        }
    }
    std::ostream& dest = a.has("out") ? static_cast<std::ostream&>(file) : out;

    search::Engine engine;
    if (!set_up_engine(engine, engine_settings, err)) return EXIT_FAILED;
    const std::string annotator = std::string("Quince ") + QUINCE_VERSION;
    const auto start = std::chrono::steady_clock::now();
    bool progress_shown = false;
    for (std::size_t g = 0; g < games.size(); ++g) {
        GameAnalysis analysis;
        auto progress = [&](int i, int n) {
            if (!settings.progress) return;
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            err << "\r\033[Kanalysing game " << g + 1 << "/" << games.size() << ", position " << i + 1 << "/" << n << ", "
                << fixed(secs, 0) << " s" << std::flush;
            progress_shown = true;
        };
        const bool complete = analyse_game(games[g], engine, budget, &analysis, progress, settings.interrupt);
        if (progress_shown) err << "\r\033[K" << std::flush, progress_shown = false;
        if (!complete) {
            err << "quince analyse: interrupted in game " << g + 1 << "; the games before it are written\n";
            return EXIT_FAILED;
        }
        if (json) {
            dest << game_json(games[g], analysis, int(g + 1), budget.model) << std::endl;
        } else {
            game::Game annotated = games[g];
            annotate(&annotated, analysis, annotator);
            game::WriteOptions options;
            options.symbolic_nags = true;
            dest << game::write_pgn(annotated, options) << std::flush;
        }
    }
    if (!read_all) {
        if (json)
            dest << "{\"type\": \"error\", \"game\": " << pgn_error.game << ", \"line\": " << pgn_error.line
                 << ", \"move\": " << json_string(pgn_error.move) << ", \"message\": " << json_string(pgn_error.text())
                 << "}" << std::endl;
        err << "quince analyse: " << name << ": stopped at " << pgn_error.text() << "\n";
        return EXIT_FAILED;
    }
    return dest ? EXIT_OK : EXIT_FAILED;
}

}  // namespace quince::cli
