// Alpha-beta search (PVS, iterative deepening, aspiration windows) run by a pool of threads
// sharing one transposition table (Lazy SMP). The Engine is what the UCI layer talks to.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "board/position.h"
#include "eval/evaluate.h"
#include "search/features.h"
#include "search/history.h"
#include "search/info.h"
#include "search/skill.h"
#include "search/timeman.h"
#include "search/tt.h"

namespace quince::search {

struct Limits {
    int depth = 0;             // 0 = no limit
    std::uint64_t nodes = 0;   // 0 = no limit
    // No new iteration once this many nodes are searched (0 = none): every move's score is a completed
    // iteration's, as training data wants; `nodes` stays the hard limit.
    std::uint64_t soft_nodes = 0;
    std::int64_t movetime = 0;
    std::int64_t time[COLOR_NB] = {-1, -1};  // < 0 = not given
    std::int64_t inc[COLOR_NB] = {0, 0};
    int movestogo = 0;
    int mate = 0;              // stop once a mate in at most this many moves is found
    bool infinite = false;     // bestmove only after stop
    bool ponder = false;       // bestmove only after stop or ponderhit
    std::vector<Move> searchmoves;

    // Either clock given means a clock game: a missing own clock is 0 (move at once), as in Stockfish.
    bool uses_clock() const { return time[WHITE] >= 0 || time[BLACK] >= 0 || movetime > 0; }
};

struct SearchOptions {
    int multi_pv = 1;
    std::int64_t move_overhead = 30;
    bool ponder_enabled = false;  // UCI Ponder option: expect ponder hits, so think a little longer
    bool silent = false;    // nothing reported to the listener (bench, tests)
    bool show_wdl = false;  // UCI_ShowWDL: Info::wdl from the evaluation's model
    int skill_level = SKILL_LEVEL_MAX;  // below it: a weakened search and choice of move (search/skill.h)
    SearchFeatures features;  // all on unless switched off to measure one (SearchDisable)
    // Syzygy tablebases (probed only when syzygy::init() has loaded tables): WDL probes in the search
    // from this remaining depth on (any depth below probe_limit pieces), in positions of at most
    // probe_limit pieces; rule50: cursed wins and blessed losses count as draws.
    int syzygy_probe_depth = 1;
    int syzygy_probe_limit = 7;
    bool syzygy_50_move_rule = true;
};

struct RootMove {
    explicit RootMove(Move m) : move(m), pv{m} {}
    bool operator<(const RootMove& o) const { return score != o.score ? score > o.score : prev_score > o.prev_score; }
    Move move;
    Value score = -VALUE_INFINITE;
    Value prev_score = -VALUE_INFINITE;
    int sel_depth = 0;
    bool lower_bound = false, upper_bound = false;
    int tb_rank = 0;               // Syzygy rank when the root is in the tablebases (higher = better)
    Value tb_score = VALUE_NONE;   // the tablebase result as a score, reported instead of a non-mate score
    std::uint64_t nodes = 0;       // this thread's nodes below this move, over the whole search (clock use)
    std::vector<Move> pv;
};

struct SearchResult {
    Move best = Move::none();
    Move ponder = Move::none();
    Value score = VALUE_NONE;
    int depth = 0;
    std::uint64_t nodes = 0;
    std::uint64_t tb_hits = 0;
    std::vector<Move> pv;
};

// Per-ply search state; the search reads entries before its own ply (ss - 1 ... ss - 6).
struct Stack {
    PieceToHistory* cont_hist = nullptr;
    int ply = 0;
    Move current_move;
    Piece moved_piece = NO_PIECE;  // of current_move (castling: the king)
    Move excluded_move;
    Move killers[2];
    Value static_eval = VALUE_NONE;  // corrected by the correction history
    Value raw_eval = VALUE_NONE;     // the evaluation itself (what the TT stores)
    int stat_score = 0;
    int move_count = 0;
    bool in_check = false;
    bool tt_pv = false;
};

class Engine;

// One search thread: its own Position copy, Evaluator and move-ordering tables.
class Worker {
public:
    Worker(Engine& engine, int id);
    void clear();  // histories and evaluator caches (ucinewgame)
    void iterative_deepening();
    eval::Evaluator& evaluator() { return evaluator_; }
    const eval::Evaluator& evaluator() const { return evaluator_; }
    // The quiescence value of `p` with a full window and the static evaluation (no lazy window) of `p`,
    // from the side to move's view; for tools that look at single positions (datagen's quiet filter).
    Value quiescence(const Position& p);
    Value static_value(const Position& p);

    Position pos;
    std::vector<RootMove> root_moves;
    std::atomic<std::uint64_t> nodes{0};
    std::atomic<std::uint64_t> tb_hits{0};
    int completed_depth = 0;
    // Info lines for every PV: the main thread during the search, or the thread whose move is played.
    void report(int depth);

private:
    enum NodeType { NON_PV, PV, ROOT };
    template <NodeType NT>
    Value search(Stack* ss, Value alpha, Value beta, int depth, bool cut_node);
    template <bool PvNode>
    Value qsearch(Stack* ss, Value alpha, Value beta, int depth);

    Value aspiration_search(Stack* ss);  // one PV line of the current iteration
    Value evaluate();
    Value corrected(Value raw) const;  // raw static evaluation + correction history
    void count_node();
    void update_pv(int ply, Move m);
    template <bool PvNode>
    bool record_value(int ply, Move move, Value value, Value beta, Value& alpha, Value& best_value, Move& best_move);
    void update_quiet_stats(Stack* ss, Move m, int bonus);
    void update_cont_histories(Stack* ss, Piece pc, Square to, int bonus);
    void punish_refuted_prior(Stack* ss, int malus);  // continuation malus for the parent's refuted early move
    void update_all_stats(Stack* ss, Move best, Move* quiets, int quiet_count, Move* captures, int capture_count,
                          int depth);

    Engine& engine_;
    int id_;
    eval::Evaluator evaluator_;
    std::unique_ptr<ButterflyHistory> main_history_;
    std::unique_ptr<CaptureHistory> capture_history_;
    std::unique_ptr<ContinuationHistory> cont_history_;
    std::unique_ptr<CounterMoves> counter_moves_;
    std::unique_ptr<CorrectionHistory> correction_history_;
    int root_depth_ = 0;
    int sel_depth_ = 0;
    int pv_idx_ = 0;
    int multi_pv_ = 1;
    int nmp_min_ply_ = 0;
    SearchFeatures features_;  // copied from the options at the start of every search
    int calls_until_check_ = 1024;
    int tb_cardinality_ = 0;  // probe positions of at most this many pieces (0 = no probes)
    int tb_probe_depth_ = 1;
    bool tb_rule50_ = true;
    // Lazy evaluation window: the root score of the last completed iteration (see evaluate()).
    static constexpr int LAZY_EVAL_MIN_DEPTH = 6;
    bool lazy_window_active_ = false;
    Value lazy_root_score_ = 0;
    Color root_side_ = WHITE;
    Move pv_table_[MAX_PLY + 2][MAX_PLY + 2];
    int pv_len_[MAX_PLY + 2];
};

// A thread kept from one search to the next that runs one job at a time: a thread started for every search
// cost about 1.4 ms under ThreadSanitizer and made it map and clear fresh memory for the thread each time
// (its stack and event trace), most of what a short search costs there.
class SearchThread {
public:
    SearchThread();
    ~SearchThread();
    void start(std::function<void()> job);  // the previous job has ended (wait())
    void wait();                             // until the job (if any) has returned

private:
    void loop();
    std::mutex mutex_;
    std::condition_variable cv_;
    std::function<void()> job_;  // guarded by mutex_; empty when idle
    bool quit_ = false;
    std::thread thread_;
};

class Engine {
public:
    Engine();
    ~Engine();

    // Configuration: only while no search runs (the UCI layer stops the search first).
    void set_threads(int n);
    int threads() const { return int(workers_.size()); }
    bool set_hash(std::size_t mb) { return tt_.resize(mb); }
    void clear_hash() { tt_.clear(); }
    void new_game();  // TT and all histories
    // Who hears the search's progress (search/info.h); only while no search runs.
    void set_listener(Listener listener) { listener_ = std::move(listener); }
    // What every thread evaluates with (eval/evaluation.h), now and in threads created later; ignored
    // when null. Its WDL model is the one Info::wdl reports with. Only while no search runs.
    void set_eval(eval::EvalPtr evaluation);
    const eval::EvalPtr& evaluation() const { return eval_; }
    // Lazy evaluation (spec §12.3) in every thread, likewise (default on).
    void set_lazy_eval(bool on);
    const eval::Evaluator& evaluator(int thread) const { return workers_[std::size_t(thread)]->evaluator(); }

    // Starts searching in the background; returns at once. The listener hears BestMove last.
    void go(const Position& pos, const Limits& limits, const SearchOptions& options);
    // Ends the search: at once once the main thread has completed its first iteration, else as soon as it
    // has, so that every answer is a searched move with its Info (a stop, node or time limit that
    // comes earlier waits for it, as in Stockfish and Ethereal).
    void stop();
    void ponderhit();
    void wait();  // until the running search (if any) has reported its BestMove
    bool searching() const { return searching_.load(); }
    // Blocking search for tests and bench; returns the main thread's result.
    SearchResult search(const Position& pos, const Limits& limits, const SearchOptions& options);
    // Single-position probes on the main thread (blocking; only while no search runs), side to move's view:
    // the quiescence search value with a full window, and the static evaluation (no lazy window).
    // Both leave the search itself unchanged (quiescence does store its results in the TT).
    Value quiescence(const Position& pos);
    Value static_eval(const Position& pos);
    const SearchResult& last_result() const { return result_; }

    TranspositionTable& tt() { return tt_; }
    std::uint64_t nodes_searched() const;
    std::uint64_t tb_hits() const;  // tablebase probes of the current (or last) search, all threads
    std::int64_t elapsed_ms() const;        // on our clock: since go, or since ponderhit
    std::int64_t thinking_ms() const;       // since go, pondering included (Info::time_ms)

private:
    friend class Worker;
    Worker* select_best_worker();
    void run_main();
    // To the listener, unless the search is silent.
    template <class Report>
    void tell(const std::function<void(const Report&)>& to, const Report& report) const {
        if (!options_.silent && to) to(report);
    }

    TranspositionTable tt_;
    std::vector<std::unique_ptr<Worker>> workers_;
    eval::EvalPtr eval_ = eval::default_evaluation();
    bool lazy_eval_ = true;
    Listener listener_;
    std::unique_ptr<SearchThread> main_thread_;           // made at the first search
    std::vector<std::unique_ptr<SearchThread>> helpers_;  // of workers 1..n-1 (set_threads), made at first use
    std::atomic<bool> searching_{false};
    std::atomic<bool> stop_{false};  // what the search threads read: end now
    // A stop asked for before the root's first iteration is complete is held here until it is
    // (root_searched()); both flags are sequentially consistent, so one of the two sides sees the other.
    std::atomic<bool> stop_requested_{false};
    std::atomic<bool> root_searched_{false};
    void root_searched();
    std::atomic<bool> pondering_{false};
    std::atomic<std::int64_t> start_ns_{0};  // reset by ponderhit: the clock starts then
    std::atomic<std::int64_t> go_ns_{0};     // not reset: thought spent on this move, pondering included
    // Pondering has already thought as long as the move deserves: answer at once on ponderhit.
    std::atomic<bool> stop_on_ponderhit_{false};
    Limits limits_;
    SearchOptions options_;
    TimeBudget budget_;
    bool use_time_ = false;
    Position root_pos_;
    SearchResult result_;
    int tb_cardinality_ = 0;   // for this search: min(tables' largest, SyzygyProbeLimit), 0 = no probes
    bool root_in_tb_ = false;  // root moves were ranked by the tablebases (and cut to the best rank)
    void rank_root_moves_by_tablebase(std::vector<RootMove>& root_moves);
};

}  // namespace quince::search
