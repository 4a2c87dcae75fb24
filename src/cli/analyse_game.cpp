#include "cli/analyse_game.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <string_view>
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
constexpr long long MAX_FROM_MOVE = 10000;  // --from-move: far beyond any game

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

// Takes `[%eval …]` and `[%wdl …]` commands out of a comment (a game analysed before); blanks around them
// go too.
std::string without_eval(std::string c) {
    for (const char* command : {"[%eval", "[%wdl"})
        for (std::size_t at; (at = c.find(command)) != std::string::npos;) {
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
    // Even a budget too small for it (`--nodes 1`) gives a completed first iteration: a score and a move.
    return !(interrupt && interrupt->load());
}

bool is_move_assessment(int nag) { return nag >= 1 && nag <= 6; }

constexpr const char* PARTIAL_NOTE = "The analysis was interrupted here; the moves after this point are not analysed.";
// Before a null move of the main line: a side passing is no move of the game, which ends there for the analysis.
constexpr const char* NULL_MOVE_NOTE = "The analysis stops at this null move; the moves after it are not analysed.";

// The comment of a verdict, lichess's words: "Blunder. Nxh4 was best.", "Checkmate is now unavoidable.
// Nf6 was best." (a mate allowed), "Lost forced checkmate sequence. Qh5 was best." (a mate given up).
constexpr const char* MATE_ALLOWED_WORDS = "Checkmate is now unavoidable. ";
constexpr const char* MATE_LOST_WORDS = "Lost forced checkmate sequence. ";

std::string verdict_comment(const MoveVerdict& v, const Position& before) {
    std::string words;
    if (v.mate == MateSequence::ALLOWED) words = MATE_ALLOWED_WORDS;
    else if (v.mate == MateSequence::LOST) words = MATE_LOST_WORDS;
    else {
        words = judgement_name(v.judgement);
        words[0] = char(std::toupper(static_cast<unsigned char>(words[0])));
        words += ". ";
    }
    return words + move_to_san(before, v.best) + " was best.";
}

// Whether a comment is one verdict_comment() writes, and whether a better line came with it.
bool is_verdict_comment(const std::string& c, bool* with_line) {
    static const char* const OPENINGS[] = {"Inaccuracy. ", "Mistake. ", "Blunder. ", MATE_ALLOWED_WORDS, MATE_LOST_WORDS};
    const std::string tail = " was best.";
    if (c.size() < tail.size() || c.compare(c.size() - tail.size(), tail.size(), tail) != 0) return false;
    for (const char* o : OPENINGS)
        if (c.rfind(o, 0) == 0) {
            *with_line = std::string(o) != "Inaccuracy. ";
            return true;
        }
    return false;
}

// A game Quince annotated before: its evals, verdicts (NAGs 1-6, the comment, the better line) and notes
// go, on every move (also those this analysis leaves out: --side, --from-move), so that analysing it again
// replaces them instead of adding a second set.
void remove_our_annotations(game::Game* game) {
    for (game::PgnMove& pm : game->moves) {
        bool judged = false, with_line = false;
        for (std::string& c : pm.comments) c = without_eval(c);
        std::erase(pm.comments, std::string());
        std::erase_if(pm.comments, [&](const std::string& c) {
            bool line = false;
            if (is_verdict_comment(c, &line)) return judged = true, with_line = with_line || line, true;
            return c == PARTIAL_NOTE || c == NULL_MOVE_NOTE;
        });
        std::erase(pm.comments_before, std::string(PARTIAL_NOTE));
        std::erase(pm.comments_before, std::string(NULL_MOVE_NOTE));
        if (!judged) continue;
        std::erase_if(pm.nags, is_move_assessment);
        if (with_line && !pm.variations.empty()) pm.variations.erase(pm.variations.begin());
    }
    std::erase(game->final_comments, std::string(PARTIAL_NOTE));
    std::erase_if(game->tags, [](const auto& t) { return t.first == "Analysis"; });
}

// A game the reader could not read, as the file has it, with a comment saying why where its movetext
// starts (after its tags): what `quince analyse` writes in its place, so that no game of the file goes
// missing. A comment of this kind from an earlier run is replaced, not repeated.
constexpr std::string_view NOT_READ_WORDS = "Not analysed: Quince could not read this game";

std::string unread_game(std::string_view text, const game::PgnError& e) {
    std::string_view g = text.substr(std::min(e.begin, text.size()), e.end - std::min(e.begin, e.end));
    while (!g.empty() && std::isspace(static_cast<unsigned char>(g.back()))) g.remove_suffix(1);
    // The first line that is neither blank nor a tag (starting with '[').
    std::size_t at = 0;
    while (at < g.size()) {
        std::size_t first = at;
        while (first < g.size() && (g[first] == ' ' || g[first] == '\t' || g[first] == '\r')) ++first;
        if (first < g.size() && g[first] != '\n' && g[first] != '[') break;
        const std::size_t nl = g.find('\n', at);
        at = nl == std::string_view::npos ? g.size() : nl + 1;
    }
    std::string before(g.substr(0, at)), after(g.substr(at));
    if (after.rfind("{ " + std::string(NOT_READ_WORDS), 0) == 0) {
        const std::size_t close = after.find('}');
        const std::size_t next = close == std::string::npos ? std::string::npos : after.find_first_not_of(" \t\r\n", close + 1);
        after = next == std::string::npos ? "" : after.substr(next);
    }
    if (at == g.size() && !before.empty() && before.back() != '\n') before += "\n";
    std::string why = e.text();
    std::replace(why.begin(), why.end(), '}', ')');  // would end the comment
    std::replace(why.begin(), why.end(), '\n', ' ');
    if (at == g.size()) before += "\n";  // tags only: the comment is the movetext, after a blank line
    return before + "{ " + std::string(NOT_READ_WORDS) + " (" + why + ") }\n" + after + (after.empty() ? "" : "\n") + "\n";
}

// "14... Nf6": the k-th move (1-based) of the game's main line, numbered as in the game.
std::string numbered_move(const game::Game& game, std::size_t k) {
    Position pos = game.start();
    for (std::size_t i = 0; i + 1 < k; ++i) pos.do_move(game.moves[i].move);
    const int number = pos.game_ply() / 2 + 1;
    return std::to_string(number) + (pos.side_to_move() == WHITE ? ". " : "... ") + game.moves[k - 1].san;
}

// --game: "N" or "A-B", games of the file numbered from 1.
bool parse_game_range(const std::string& text, long long* first, long long* last, std::string* error) {
    constexpr long long MAX_GAME = 1LL << 40;
    const std::size_t dash = text.find('-');
    const bool ok = dash == std::string::npos
                        ? parse_integer(text, 1, MAX_GAME, first) && (*last = *first, true)
                        : parse_integer(text.substr(0, dash), 1, MAX_GAME, first) &&
                              parse_integer(text.substr(dash + 1), 1, MAX_GAME, last) && *first <= *last;
    if (!ok)
        *error = "--game must be a game's number N or a range A-B of them (from 1, A at most B), got '" + printable(text) + "'";
    return ok;
}

// A file written under a temporary name beside its target and renamed over it when done: until then
// the target keeps what it held, whatever happens to this run.
class ReplacingFile {
public:
    ~ReplacingFile() { discard(); }
    bool open(const std::string& target, std::string* error) {
        namespace fs = std::filesystem;
        target_ = target;
        std::error_code ec;
        if (fs::is_directory(target, ec)) return *error = "'" + printable(target) + "' is a directory", false;
        // Named from the clock and the address of this object: two runs writing to the same place do
        // not collide, and an existing file of that name is never touched.
        std::uint64_t seed = std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                             std::uint64_t(reinterpret_cast<std::uintptr_t>(this));
        for (int attempt = 0; attempt < 100; ++attempt) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            char suffix[32];
            std::snprintf(suffix, sizeof suffix, ".%08llx.tmp", (unsigned long long)(seed >> 32));
            const std::string candidate = target + suffix;
            if (fs::exists(candidate, ec)) continue;
            file_.open(candidate, std::ios::binary | std::ios::out);
            if (!file_) break;
            temp_ = candidate;
            return true;
        }
        *error = "cannot write '" + printable(target) + "' (a file beside it could not be created)";
        return false;
    }
    std::ostream& stream() { return file_; }
    // Renames the finished file over the target.
    bool commit(std::string* error) {
        file_.close();
        std::error_code ec;
        if (!file_) ec = std::make_error_code(std::errc::io_error);
        else std::filesystem::rename(temp_, target_, ec);
        if (ec) {
            *error = "cannot write '" + printable(target_) + "': " + ec.message();
            discard();
            return false;
        }
        temp_.clear();
        return true;
    }
    void discard() {
        if (file_.is_open()) file_.close();
        if (temp_.empty()) return;
        std::error_code ec;
        std::filesystem::remove(temp_, ec);
        temp_.clear();
    }

private:
    std::string target_, temp_;
    std::ofstream file_;
};

}  // namespace

double winning_chances(ChancesModel model, Value v, int material, const eval::WdlModel& wdl) {
    if (v >= VALUE_TB_WIN_IN_MAX_PLY) return 1;
    if (v <= VALUE_TB_LOSS_IN_MAX_PLY) return -1;
    if (model == ChancesModel::LICHESS) {
        const double cp = std::clamp(double(v), -double(CP_CLAMP), double(CP_CLAMP));
        return 2 / (1 + std::exp(-0.00368208 * cp)) - 1;
    }
    const eval::WdlModel& m = model == ChancesModel::HUMAN ? eval::human_wdl_model() : wdl;
    return eval::wdl_win_rate(m, v, material) - eval::wdl_win_rate(m, -double(v), material);
}

const char* chances_model_name(ChancesModel model) {
    return model == ChancesModel::HUMAN ? "human" : model == ChancesModel::WDL ? "wdl" : "lichess";
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
    if (after >= before) return 100;
    const double a = 103.1668100711649 * std::exp(-0.04354415386753951 * (before - after)) - 3.166924740191411 + 1;
    return std::clamp(a, 0.0, 100.0);
}

void game_accuracy(const std::vector<double>& white_win, const std::vector<double>& accuracies, Color first_mover,
                   double out[COLOR_NB]) {
    out[WHITE] = out[BLACK] = 0;
    const std::size_t n = accuracies.size();
    if (n == 0 || white_win.size() != n + 1) return;
    // One window of positions per move: the first windows repeat the opening ones, then they slide.
    const std::size_t size = std::clamp<std::size_t>(n / 10, 2, 8);
    const std::size_t first = std::min(size, white_win.size());
    auto deviation = [&](std::size_t from, std::size_t count) {
        double mean = 0, sum = 0;
        for (std::size_t k = from; k < from + count; ++k) mean += white_win[k];
        mean /= double(count);
        for (std::size_t k = from; k < from + count; ++k) sum += (white_win[k] - mean) * (white_win[k] - mean);
        return std::clamp(std::sqrt(sum / double(count)), 0.5, 12.0);  // population deviation
    };
    std::vector<double> weights(first - 2, deviation(0, first));
    if (white_win.size() < size) weights.push_back(deviation(0, white_win.size()));
    else
        for (std::size_t k = 0; k + size <= white_win.size(); ++k) weights.push_back(deviation(k, size));
    double weighted[COLOR_NB] = {0, 0}, weight_sum[COLOR_NB] = {0, 0}, inverse_sum[COLOR_NB] = {0, 0};
    int moves[COLOR_NB] = {0, 0};
    for (std::size_t i = 0; i < n; ++i) {
        const Color c = i % 2 == 0 ? first_mover : ~first_mover;
        weighted[c] += accuracies[i] * weights[i];
        weight_sum[c] += weights[i];
        inverse_sum[c] += 1 / std::max(1.0, accuracies[i]);
        ++moves[c];
    }
    for (Color c : {WHITE, BLACK})
        if (moves[c]) out[c] = (weighted[c] / weight_sum[c] + moves[c] / inverse_sum[c]) / 2;
}

MateSequence mate_sequence(Value before, Value after) {
    const bool mates_before = before >= VALUE_MATE_IN_MAX_PLY, mates_after = after >= VALUE_MATE_IN_MAX_PLY;
    const bool mated_after = after <= VALUE_MATED_IN_MAX_PLY;
    if (!is_mate(before) && mated_after) return MateSequence::ALLOWED;
    if (mates_before && !mates_after) return MateSequence::LOST;
    return MateSequence::NONE;
}

Judgement judge_move(MateSequence mate, Value before, Value after, double drop) {
    if (mate == MateSequence::ALLOWED) {
        const int cp = clamped_cp(before);  // how the mover stood before it
        return cp < -999 ? Judgement::INACCURACY : cp < -700 ? Judgement::MISTAKE : Judgement::BLUNDER;
    }
    if (mate == MateSequence::LOST) {
        const int cp = is_mate(after) ? 0 : clamped_cp(after);  // how the mover stands after it
        return cp > 999 ? Judgement::INACCURACY : cp > 700 ? Judgement::MISTAKE : Judgement::BLUNDER;
    }
    // A mate on either side without one of those turns (a slower mate, a mate still lost): no verdict.
    if (is_mate(before) || is_mate(after)) return Judgement::NONE;
    return judge(drop);
}

int white_mate_in_moves(Value v, Color stm) {
    // The distance counts the moves of the side that mates, so it comes from the side to move's score
    // and only then takes White's sign: Black mating in one ply is #-1, not the "mated in 0" that
    // turning the score round first would make of it.
    const int n = search::mate_in_moves(v);
    return stm == WHITE ? n : -n;
}

std::string wdl_command(const eval::Wdl& white) {
    return "[%wdl " + std::to_string(white.win) + "," + std::to_string(white.draw) + "," + std::to_string(white.loss) + "]";
}

std::string eval_command(Value v, Color stm) {
    const Value white = stm == WHITE ? v : Value(-v);
    if (is_mate(white)) return "[%eval #" + std::to_string(white_mate_in_moves(v, stm)) + "]";
    char buf[32];
    std::snprintf(buf, sizeof buf, "[%%eval %.2f]", white / 100.0);
    return buf;
}

bool analyse_game(const game::Game& game, search::Engine& engine, const GameBudget& budget, GameAnalysis* out,
                  const std::function<void(int, int)>& on_position, const std::atomic<bool>* interrupt) {
    *out = GameAnalysis{};
    out->annotated_side = budget.side;
    engine.new_game();
    search::SearchOptions options;
    options.silent = true;
    const Position start = game.start();
    const int n = int(game.moves_before_null());  // a null move in the main line ends the game there
    // The first move judged: full move `from_move` (White's, or Black's when the game starts after it),
    // with one side only that side's first move from there (the position before it is the first needed).
    int first = std::clamp(2 * (budget.from_move - 1) - start.game_ply(), 0, n);
    Position pos = start;
    for (int i = 0; i < first; ++i) pos.do_move(game.moves[std::size_t(i)].move);
    if (budget.side != COLOR_NB && first < n && pos.side_to_move() != budget.side)
        pos.do_move(game.moves[std::size_t(first++)].move);
    out->first_ply = first;
    if (first > 0 && first == n) return true;  // no move left to judge: nothing is searched
    const Position first_pos = pos;
    // Scores of every position of the main line from `first` on, side to move's view (mated: VALUE_NONE
    // for "no move").
    std::vector<Value> score(std::size_t(n) + 1, VALUE_NONE);
    std::vector<search::SearchResult> result(std::size_t(n) + 1);
    std::vector<int> material(std::size_t(n) + 1);
    std::vector<eval::Wdl> wdl(std::size_t(n) + 1);  // White's view
    const eval::WdlModel& wdl_model = engine.evaluation()->wdl;  // the model of the evaluation that scores them
    int scored = first;  // positions before it have their score; an interrupt leaves the rest unscored
    for (int i = first; i <= n; ++i, scored = i) {
        if (interrupt && interrupt->load()) break;
        if (on_position) on_position(i - first, n + 1 - first);
        material[std::size_t(i)] = eval::wdl_material(pos);
        eval::Wdl w{0, 1000, 0};  // side to move's view; a draw by rule is certain, not the model's guess
        if (!pos.has_legal_move()) {
            score[std::size_t(i)] = pos.in_check() ? mated_in(0) : VALUE_DRAW;
            if (pos.in_check()) w = {0, 0, 1000};
        } else if (pos.is_draw(0) || pos.has_insufficient_material()) {
            score[std::size_t(i)] = VALUE_DRAW;  // a draw by rule: nothing to search
        } else {  // the last position too: its score is the eval after the last move
            if (!search_position(engine, pos, budget.limits, options, interrupt, &result[std::size_t(i)])) break;
            score[std::size_t(i)] = result[std::size_t(i)].score;
            w = eval::score_to_wdl(score[std::size_t(i)], material[std::size_t(i)], wdl_model);
        }
        wdl[std::size_t(i)] = pos.side_to_move() == WHITE ? w : eval::Wdl{w.loss, w.draw, w.win};
        if (i < n) pos.do_move(game.moves[std::size_t(i)].move);
    }
    // A move is judged from the scores before and after it: interrupted, the moves up to the last
    // position scored still are.
    out->complete = scored == n + 1;
    if (scored > first) out->start_score = score[std::size_t(first)], out->start_wdl = wdl[std::size_t(first)];
    const int judged = std::max(first, scored - 1);

    pos = first_pos;
    std::vector<double>& white_win = out->white_win;
    for (int i = first; i < judged; ++i) {
        const game::PgnMove& pm = game.moves[std::size_t(i)];
        MoveVerdict v;
        v.move = pm.move;
        v.san = move_to_san(pos, pm.move);
        const Color mover = pos.side_to_move();
        const Value after = Value(-score[std::size_t(i) + 1]);  // the mover's view
        v.score_after = score[std::size_t(i) + 1];
        v.wdl_after = wdl[std::size_t(i) + 1];
        const search::SearchResult& r = result[std::size_t(i)];
        Value before = score[std::size_t(i)];
        v.best = r.best;
        v.best_line = r.pv.empty() && r.best ? std::vector<Move>{r.best} : r.pv;
        if (int(v.best_line.size()) > budget.max_line_plies) v.best_line.resize(std::size_t(budget.max_line_plies));
        // The move the search itself chose loses nothing; a move that turns out better than the search
        // thought (a deeper look after it) loses nothing either.
        if (pm.move == r.best || !r.best) before = std::min(before, after);
        v.best_score = before;
        const double chances_before = winning_chances(budget.model, before, material[std::size_t(i)], wdl_model);
        const double chances_after = winning_chances(budget.model, after, material[std::size_t(i) + 1], wdl_model);
        v.drop = std::max(0.0, chances_before - chances_after);
        v.cp_loss = std::max(0, clamped_cp(before) - clamped_cp(after));
        v.win_before = 50 + 50 * chances_before;
        v.win_after = 50 + 50 * std::min(chances_after, chances_before);
        v.accuracy = move_accuracy(v.win_before, v.win_after);
        v.mate = mate_sequence(before, after);
        v.judgement = pm.move == r.best ? Judgement::NONE : judge_move(v.mate, before, after, v.drop);
        if (v.judgement == Judgement::NONE) v.mate = MateSequence::NONE;  // the search's own move: no verdict
        // The position's own score, White's view, for the weights of the game's accuracy.
        const double white_chances = winning_chances(budget.model, score[std::size_t(i)], material[std::size_t(i)]);
        white_win.push_back(50 + 50 * (mover == WHITE ? white_chances : -white_chances));
        SideSummary& s = out->side[mover];
        ++s.moves;
        s.acpl += v.cp_loss;
        s.inaccuracies += v.judgement == Judgement::INACCURACY;
        s.mistakes += v.judgement == Judgement::MISTAKE;
        s.blunders += v.judgement == Judgement::BLUNDER;
        out->moves.push_back(std::move(v));
        pos.do_move(pm.move);
    }
    if (judged > first) {
        const double last = winning_chances(budget.model, score[std::size_t(judged)], material[std::size_t(judged)]);
        white_win.push_back(50 + 50 * (pos.side_to_move() == WHITE ? last : -last));
    }
    std::vector<double> accuracies;
    for (const MoveVerdict& v : out->moves) accuracies.push_back(v.accuracy);
    double accuracy[COLOR_NB] = {0, 0};
    game_accuracy(white_win, accuracies, first_pos.side_to_move(), accuracy);
    for (Color c : {WHITE, BLACK}) {
        SideSummary& s = out->side[c];
        if (s.moves) s.acpl /= s.moves;
        s.accuracy = accuracy[c];
        if (budget.side != COLOR_NB && c != budget.side) s = SideSummary{};  // its moves are not annotated
    }
    return out->complete;
}

void annotate(game::Game* game, const GameAnalysis& analysis, const std::string& annotator, bool with_wdl) {
    if (game->tag("Annotator").rfind("Quince", 0) == 0) remove_our_annotations(game);
    // A game Quince could not read before (unread_game), mended since.
    auto not_read = [](const std::string& c) { return c.rfind(NOT_READ_WORDS, 0) == 0; };
    if (!game->moves.empty()) std::erase_if(game->moves[0].comments_before, not_read);
    std::erase_if(game->final_comments, not_read);
    Position pos = game->start();
    const std::size_t first = std::size_t(analysis.first_ply);
    for (std::size_t i = 0; i < first; ++i) pos.do_move(game->moves[i].move);
    for (std::size_t i = first; i < game->moves.size() && i - first < analysis.moves.size(); ++i) {
        game::PgnMove& pm = game->moves[i];
        const MoveVerdict& v = analysis.moves[i - first];
        Position next = pos;
        next.do_move(pm.move);
        if (analysis.annotated_side != COLOR_NB && pos.side_to_move() != analysis.annotated_side) {
            pos = next;  // the other side's move: as the file has it
            continue;
        }
        std::vector<std::string> comments;
        for (const std::string& c : pm.comments)
            if (std::string kept = without_eval(c); !kept.empty()) comments.push_back(kept);
        std::vector<std::string> ours;
        if (v.score_after != VALUE_NONE && next.has_legal_move())
            ours.push_back(eval_command(v.score_after, next.side_to_move()) + (with_wdl ? " " + wdl_command(v.wdl_after) : ""));
        if (v.judgement != Judgement::NONE) {
            // The file's own move assessment (`!`, `?`, `$1`…`$6`) stays, ours then only in words.
            if (std::none_of(pm.nags.begin(), pm.nags.end(), is_move_assessment))
                pm.nags.insert(pm.nags.begin(), judgement_nag(v.judgement));
            ours.push_back(verdict_comment(v, pos));
            if ((v.judgement != Judgement::INACCURACY || v.mate != MateSequence::NONE) && !v.best_line.empty()) {
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
    if (const std::size_t k = game->moves_before_null(); k < game->moves.size() && analysis.complete) {
        // After the last move analysed (where a reader of the game puts a comment that follows it).
        if (k == 0) game->moves[0].comments_before.push_back(NULL_MOVE_NOTE);
        else game->moves[k - 1].comments.push_back(NULL_MOVE_NOTE);
    }
    if (!analysis.complete) {
        // Said where readers of the game see it: a tag, and a comment where the analysis ends.
        const std::size_t k = analysis.moves.size();
        game->set_tag("Analysis", "partial: " + std::to_string(k) + " of " + std::to_string(game->moves_before_null() - first) + " moves");
        const std::string note = PARTIAL_NOTE;
        if (k == 0) {
            if (first == game->moves.size()) game->final_comments.push_back(note);
            else game->moves[first].comments_before.push_back(note);
        } else {
            game->moves[first + k - 1].comments.push_back(note);
        }
    }
    game->set_tag("Annotator", annotator);
    // A side without a move analysed (an interrupted or one-move game) gets no figures at all.
    for (const bool acpl : {true, false})
        for (Color c : {WHITE, BLACK}) {
            const SideSummary& side = analysis.side[c];
            const std::string name = std::string(c == WHITE ? "White" : "Black") + (acpl ? "ACPL" : "Accuracy");
            if (!side.moves) std::erase_if(game->tags, [&](const auto& t) { return t.first == name; });
            else game->set_tag(name, acpl ? std::to_string(int(std::lround(side.acpl))) : fixed(side.accuracy, 1));
        }
}

namespace {

// The eval of `pos` scored `v` (side to move's view) as game_json writes it, White's view: {"white_cp": 17},
// {"white_mate": -3}, {"checkmate": true}; a stalemate or an unscored position is {"white_cp": 0}.
std::string eval_json(Value v, const Position& pos) {
    if (v == VALUE_NONE || !pos.has_legal_move())
        return pos.in_check() && !pos.has_legal_move() ? "{\"checkmate\": true}" : "{\"white_cp\": 0}";
    const Value white = pos.side_to_move() == WHITE ? v : Value(-v);
    return is_mate(white) ? "{\"white_mate\": " + std::to_string(white_mate_in_moves(v, pos.side_to_move())) + "}"
                          : "{\"white_cp\": " + std::to_string(white) + "}";
}

}  // namespace

std::string game_json(const game::Game& game, const GameAnalysis& analysis, int number, ChancesModel model,
                      bool with_wdl) {
    auto wdl_json = [](const eval::Wdl& w) {
        return "[" + std::to_string(w.win) + ", " + std::to_string(w.draw) + ", " + std::to_string(w.loss) + "]";
    };
    std::string r = "{\"type\": \"game\", \"game\": " + std::to_string(number) + ", \"tags\": {";
    for (std::size_t i = 0; i < game.tags.size(); ++i)
        r += (i ? ", " : "") + json_string(game.tags[i].first) + ": " + json_string(game.tags[i].second);
    r += "}, \"result\": " + json_string(game.result) + ", \"model\": \"" +
         chances_model_name(model) + "\", ";
    if (const std::size_t k = game.moves_before_null(); k < game.moves.size())
        r += "\"null_move\": {\"ply\": " + std::to_string(k + 1) + ", \"move\": " + json_string(numbered_move(game, k + 1)) + "}, ";
    if (!analysis.complete) r += "\"partial\": true, ";
    r += "\"sides\": {";
    for (Color c : {WHITE, BLACK}) {
        const SideSummary& s = analysis.side[c];
        r += std::string(c == WHITE ? "\"white\": " : ", \"black\": ") + "{\"moves\": " + std::to_string(s.moves) +
             ", \"acpl\": " + fixed(s.acpl, 1) + ", \"accuracy\": " + fixed(s.accuracy, 1) +
             ", \"inaccuracies\": " + std::to_string(s.inaccuracies) + ", \"mistakes\": " + std::to_string(s.mistakes) +
             ", \"blunders\": " + std::to_string(s.blunders) + "}";
    }
    Position pos = game.start();
    for (int i = 0; i < analysis.first_ply; ++i) pos.do_move(game.moves[std::size_t(i)].move);
    r += "}, \"start_eval\": " + eval_json(analysis.start_score, pos);
    if (with_wdl && analysis.start_score != VALUE_NONE) r += ", \"start_wdl\": " + wdl_json(analysis.start_wdl);
    r += ", \"moves\": [";
    bool any = false;
    for (std::size_t i = 0; i < analysis.moves.size(); ++i) {
        const MoveVerdict& v = analysis.moves[i];
        Position next = pos;
        next.do_move(v.move);
        if (analysis.annotated_side != COLOR_NB && pos.side_to_move() != analysis.annotated_side) {
            pos = next;
            continue;
        }
        r += any ? ", " : "";
        any = true;
        r += "{\"ply\": " + std::to_string(analysis.first_ply + int(i) + 1) + ", \"color\": \"" + (pos.side_to_move() == WHITE ? "white" : "black") +
             "\", \"san\": " + json_string(v.san) + ", \"uci\": " + json_string(move_to_uci(v.move, pos.is_chess960())) +
             ", \"eval\": " + eval_json(v.score_after, next);
        if (with_wdl) r += ", \"wdl\": " + wdl_json(v.wdl_after);
        r += ", \"cp_loss\": " + std::to_string(v.cp_loss) + ", \"chances_lost\": " + fixed(v.drop, 3) +
             ", \"accuracy\": " + fixed(v.accuracy, 1) + ", \"judgement\": ";
        r += v.judgement == Judgement::NONE ? "null" : json_string(judgement_name(v.judgement));
        r += ", \"mate\": ";
        r += v.mate == MateSequence::ALLOWED ? "\"allowed\"" : v.mate == MateSequence::LOST ? "\"lost\"" : "null";
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
        r += ", \"fen\": " + json_string(next.fen()) + "}";  // the position after the move
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
    if (a.has("depth") + a.has("movetime") + a.has("nodes") > 1)
        return usage_error(err, "analyse", "give at most one of --depth, --movetime, --nodes");
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
        if (m == "human") budget.model = ChancesModel::HUMAN;
        else if (m == "wdl") budget.model = ChancesModel::WDL;
        else if (m == "lichess") budget.model = ChancesModel::LICHESS;
        else return usage_error(err, "analyse", "--model must be human, wdl or lichess, got '" + printable(m) + "'");
    }
    // Which games, whose moves, from which move on.
    long long first_game = 1, last_game = LLONG_MAX, from_move = 1;
    if (a.has("game") && !parse_game_range(a.options.at("game"), &first_game, &last_game, &error))
        return usage_error(err, "analyse", error);
    if (a.has("side")) {
        const std::string side = ascii_lower(a.options.at("side"));
        if (side == "white") budget.side = WHITE;
        else if (side == "black") budget.side = BLACK;
        else return usage_error(err, "analyse", "--side must be white or black, got '" + printable(a.options.at("side")) + "'");
    }
    if (a.has("from-move") && !parse_number(a.options.at("from-move"), 1, MAX_FROM_MOVE, "--from-move", &from_move, &error))
        return usage_error(err, "analyse", error);
    budget.from_move = int(from_move);
    EngineSettings engine_settings;
    if (!read_engine_settings(a, &engine_settings, &error)) return usage_error(err, "analyse", error);

    std::string text;
    if (path == "-" && settings.text) {
        text = *settings.text;
    } else if (path == "-") {
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
    // A bad game is named at once and passed on as it was (PGN) or as an error line (--json); the others
    // are analysed.
    std::vector<game::Game> games;
    game::ReadOptions read_options;
    read_options.null_moves_in_main_line = true;  // the game is analysed up to it
    std::vector<game::PgnError> pgn_errors = game::read_pgn_games(text, &games, read_options);
    const std::size_t games_in_file = games.size() + pgn_errors.size();
    if (a.has("game")) {  // the others are left out, unread ones too
        auto outside = [&](int number) { return number < first_game || number > last_game; };
        std::erase_if(games, [&](const game::Game& g) { return outside(g.number); });
        std::erase_if(pgn_errors, [&](const game::PgnError& e) { return outside(e.game); });
        if (games.empty() && pgn_errors.empty()) {
            err << "quince analyse: " << name << " holds " << games_in_file << (games_in_file == 1 ? " game" : " games")
                << "; --game " << printable(a.options.at("game")) << " names none of them\n";
            return EXIT_FAILED;
        }
    }
    const bool json = a.has("json");
    auto error_json = [](const game::PgnError& e) {
        return "{\"type\": \"error\", \"game\": " + std::to_string(e.game) + ", \"line\": " + std::to_string(e.line) +
               ", \"move\": " + json_string(e.move) + ", \"message\": " + json_string(e.text()) + "}";
    };
    const std::string out_name = a.has("out") ? "'" + printable(a.options.at("out")) + "'" : "standard output";
    for (const game::PgnError& e : pgn_errors) {
        err << "quince analyse: " << name << ": " << e.text() << "; not analysed";
        if (!json && !games.empty()) err << ", copied to " << out_name << " as it is, with a comment saying why";
        err << "\n";
    }
    if (games.empty()) {
        if (json)
            for (const game::PgnError& e : pgn_errors) out << error_json(e) << std::endl;
        if (a.has("game"))
            err << "quince analyse: " << name << ": --game " << printable(a.options.at("game")) << " names no game without errors\n";
        else
            err << "quince analyse: " << name << (pgn_errors.empty() ? " holds no game\n" : " holds no game without errors\n");
        return EXIT_FAILED;
    }

    // --out: the games go to a new file beside it, which replaces it only when something was analysed, so
    // an existing file survives an error, an interrupt before the first move is judged, or a full disk.
    ReplacingFile file;
    if (a.has("out")) {
        const std::string target = a.options.at("out");
        std::error_code ec;
        if (path != "-" && std::filesystem::equivalent(path, target, ec))
            return usage_error(err, "analyse", "--out names the file being read; write to another file");
        if (!file.open(target, &error)) {
            err << "quince analyse: " << error << "\n";
            return EXIT_FAILED;
        }
    }
    std::ostream& dest = a.has("out") ? file.stream() : out;

    search::Engine engine;
    if (!set_up_engine(engine, engine_settings, err)) return EXIT_FAILED;
    const std::string annotator = std::string("Quince ") + QUINCE_VERSION;
    const auto start = std::chrono::steady_clock::now();
    bool progress_shown = false;
    int written = 0;  // games written, the partial one included
    bool interrupted = false;
    std::string partial_note;
    std::size_t errors_written = 0;  // the bad games go between the others, in file order
    auto write_errors_before = [&](int number) {
        for (; errors_written < pgn_errors.size() && pgn_errors[errors_written].game < number; ++errors_written)
            if (json) dest << error_json(pgn_errors[errors_written]) << std::endl;
            else dest << unread_game(text, pgn_errors[errors_written]) << std::flush;
    };
    for (std::size_t g = 0; g < games.size() && !interrupted; ++g) {
        if (const std::size_t k = games[g].moves_before_null(); k < games[g].moves.size())
            err << "quince analyse: " << name << ": game " << games[g].number << " has a null move at "
                << numbered_move(games[g], k + 1) << "; the " << k << (k == 1 ? " move" : " moves")
                << " before it are analysed, not the " << games[g].moves.size() - k - 1 << " after it\n";
        GameAnalysis analysis;
        auto progress = [&](int i, int n) {
            if (settings.on_position) settings.on_position(games[g].number, i, n);
            if (!settings.progress) return;
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            err << "\r\033[Kanalysing game " << games[g].number << "/" << games_in_file << ", position " << i + 1 << "/" << n << ", "
                << fixed(secs, 0) << " s" << std::flush;
            progress_shown = true;
        };
        interrupted = !analyse_game(games[g], engine, budget, &analysis, progress, settings.interrupt);
        if (progress_shown) err << "\r\033[K" << std::flush, progress_shown = false;
        const std::size_t first = std::size_t(analysis.first_ply);
        if (interrupted) {
            const std::size_t k = analysis.moves.size();
            partial_note = "interrupted in game " + std::to_string(games[g].number) + " after " + std::to_string(k) + " of " +
                           std::to_string(games[g].moves_before_null() - first) + " moves";
            if (k == 0) break;  // nothing of it analysed: not written
            partial_note += "; it is written up to " + numbered_move(games[g], first + k) + ", marked partial";
        } else if (analysis.moves.empty() && first > 0) {
            err << "quince analyse: " << name << ": game " << games[g].number << " has no move to analyse from move "
                << from_move << (budget.side == COLOR_NB ? "" : budget.side == WHITE ? " by White" : " by Black")
                << "; it is written without analysis\n";
        }
        write_errors_before(games[g].number);
        if (json) {
            dest << game_json(games[g], analysis, games[g].number, budget.model, a.has("wdl")) << std::endl;
        } else {
            game::Game annotated = games[g];
            if (!analysis.moves.empty() || first == 0) annotate(&annotated, analysis, annotator, a.has("wdl"));  // else none in scope
            game::WriteOptions options;
            options.symbolic_nags = true;
            dest << game::write_pgn(annotated, options) << std::flush;
        }
        ++written;
    }
    if (!interrupted) write_errors_before(INT_MAX);
    dest.flush();
    bool output_ok = bool(dest);
    if (a.has("out")) {
        if (written == 0) {
            file.discard();
        } else if (!file.commit(&error)) {
            err << "quince analyse: " << error << "\n";
            output_ok = false;
        }
    } else if (!output_ok) {
        err << "quince analyse: cannot write to standard output\n";
    }
    if (interrupted) {
        err << "quince analyse: " << partial_note << "; ";
        if (written == 0) err << "nothing was analysed" << (a.has("out") ? ", " + out_name + " is unchanged" : "") << "\n";
        else err << written << (written == 1 ? " game" : " games") << " written to " << out_name << "\n";
        return EXIT_FAILED;
    }
    if (a.has("out") && written > 0 && !output_ok) err << "quince analyse: " << out_name << " is unchanged\n";
    if (!pgn_errors.empty()) {
        const std::size_t total = games.size() + pgn_errors.size();
        err << "quince analyse: " << name << ": " << pgn_errors.size() << " of " << total
            << (total == 1 ? " game" : " games") << " not analysed for the errors above\n";
        return EXIT_FAILED;
    }
    return output_ok ? EXIT_OK : EXIT_FAILED;
}

}  // namespace quince::cli
