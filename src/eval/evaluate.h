// The evaluation entry point the search calls. One Evaluator per search thread: it evaluates with the
// Evaluation it is given (eval/evaluation.h: a hand-crafted profile or a network) and owns the thread's
// caches (pawn hash, evaluation cache, a network's state), so threads never share mutable evaluation state.
//
// Profiles: "quince" (default: rybka1's terms plus Quince's own toward Ethereal 12's breadth, weights
// fitted by `quince tune`; profiles/quince.txt gives its strength), "rybka1" (Rybka 1.0 Beta evaluation, spec docs/eval-spec.md),
// "rybka1-curve" (same with the three-section phase curve), "rybka232" (Rybka 2.3.2a as
// far as the seeds document it), "fruit21" (Fruit 2.1's values), "simple" (the baseline material +
// PST evaluation), "nnue" (the network embedded in the build, when it has one). Their registry is
// eval/evaluation.h (profile_names()); see docs/eval-profiles.md.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "board/position.h"
#include "eval/evaluation.h"

namespace quince::eval {

// Lazy-evaluation window, in centipawns from the SIDE TO MOVE's point of view at the node being
// evaluated (the evaluation converts it to White's view itself). Default: disabled.
// Rybka 1.0 (spec §12.3): after each completed root iteration of depth >= 6 the search takes the root
// score and passes, at every node, lower = upper = that score seen from the node's side to move
// (`LazyWindow::from_root(root_score, root_side, pos.side_to_move())`); before the first such
// iteration, and at every new search, it passes the default (disabled) window. The evaluation turns
// the bounds into its own units (pawn units of the material difference D, through 1/32 cp and the
// phase weights, exact integers) and returns the material-only value when
// D <= floor(q(lower)) - margin or D >= ceil(q(upper)) + margin (White's view; margin 3 in rybka1).
// Nothing is mixed between centipawns and 1/32 cp (Rybka 1.0's bug is not reproduced).
struct LazyWindow {
    Value lower = -VALUE_INFINITE;
    Value upper = VALUE_INFINITE;

    static constexpr LazyWindow around(Value score) { return {score, score}; }
    static constexpr LazyWindow from_root(Value root_score, Color root_side, Color node_side) {
        return around(root_side == node_side ? root_score : -root_score);
    }
    constexpr bool active() const { return lower > -VALUE_INFINITE || upper < VALUE_INFINITE; }
};

// Evaluation cache: the full (non-lazy) evaluation of recently evaluated positions, keyed by the
// Zobrist key, one per Evaluator and so per search thread (never shared, no locking). The TT already
// keeps the evaluation of the nodes it stores; this catches what it has lost to replacement and the
// quiescence nodes it never stored. Always-replace, direct-mapped, the full key checked (no false
// hits beyond a 64-bit key collision). Emptied with clear() (in O(1)) and on every profile change.
class EvalCache {
public:
    static constexpr int LOG2_SIZE = 16;  // 2^16 entries of 16 bytes: 1 MB per thread

    // first_generation: where the generation count starts (a test starts it next to its wrap-around).
    explicit EvalCache(std::uint32_t first_generation = 1) : table_(std::size_t(1) << LOG2_SIZE) {
        refill();
        generation_ = first_generation == 0 ? 1 : first_generation;
    }
    // O(1): an entry counts only in the generation that stored it. Every 2^32 clears the count wraps and
    // the table is refilled with generation 0, which is never current: no entry of an earlier
    // generation (nor an empty slot, key 0) can ever be a hit.
    void clear() {
        if (++generation_ == 0) {
            refill();
            generation_ = 1;
        }
        probes_ = hits_ = 0;
    }
    bool probe(Key key, Value& v) {
        ++probes_;
        const Entry& e = table_[key & MASK];
        if (e.key != key || e.generation != generation_) return false;
        ++hits_;
        v = e.value;
        return true;
    }
    void store(Key key, Value v) { table_[key & MASK] = {key, v, generation_}; }
    std::uint64_t probes() const { return probes_; }  // since the last clear()
    std::uint64_t hits() const { return hits_; }

private:
    static constexpr Key MASK = (Key(1) << LOG2_SIZE) - 1;
    struct Entry {
        Key key;
        Value value;
        std::uint32_t generation;  // in what would be padding: the entry stays 16 bytes
    };
    static_assert(sizeof(Entry) == 16);
    void refill() { std::fill(table_.begin(), table_.end(), Entry{0, 0, 0}); }
    std::vector<Entry> table_;
    std::uint32_t generation_ = 1;
    std::uint64_t probes_ = 0, hits_ = 0;
};

struct Trace;
struct Profile;

class Evaluator {
public:
    Evaluator();
    explicit Evaluator(const std::string& profile);  // falls back to the default for unknown names
    ~Evaluator();
    Evaluator(const Evaluator&) = delete;
    Evaluator& operator=(const Evaluator&) = delete;

    // Score in centipawns relative to the side to move (tempo included), the known-ending scale of
    // eval/endgame.h applied last, whatever evaluated. Consults the evaluation cache after the lazy test:
    // a hit returns exactly what the full evaluation would.
    Value evaluate(const Position& pos, const LazyWindow& window = {});
    // Same evaluation with every term recorded (same code path, template switch). With the tuner's
    // coefficients (trace.coef) it returns the profile's own score, before the known-ending scale.
    Value evaluate_traced(const Position& pos, Trace& trace, const LazyWindow& window = {});
    // The general code path whatever the profile's Path (with `trace`, traced): equal to evaluate() and
    // evaluate_traced() by design; the test that the fast path agrees with it calls this.
    Value evaluate_general(const Position& pos, Trace* trace = nullptr, const LazyWindow& window = {});
    void clear();  // empty the caches (ucinewgame)
    const EvalCache& cache() const;  // the evaluation cache evaluate() consults (its counters)
    // Whether evaluate() consults the cache (default on; off: every call evaluates, as bench/eval_speed
    // needs to time the evaluation itself).
    void set_cache(bool on);

    // What to evaluate with (ignored when null). Empties the caches: their values are the old one's.
    void set_eval(EvalPtr evaluation);
    const EvalPtr& eval() const;
    // A built-in profile by name; false (and no change) for an unknown name.
    bool set_profile(const std::string& name);
    // A profile built elsewhere (a weights file, the tuner); ignored when null.
    void set_profile(std::shared_ptr<const Profile> profile);
    const std::string& profile() const;  // the evaluation's name
    // Global switch for lazy evaluation (window and material-table lazy flag). Default on.
    void set_lazy(bool on);
    bool lazy() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// The names of the built-in evaluations and the default one: the registry's (eval/evaluation.h).

// Human-readable table of every term (white, black, total; opening and endgame; centipawns), then
// phase, material index and entry, lazy flag, scale factor and final score.
std::string trace_text(const Position& pos, const std::string& profile);
// JSON: one object per term with mg/eg per colour, phase, material_index, final_cp; the interpolated
// "cp" contributions of the terms plus the listed adjustments sum to final_cp exactly.
std::string trace_json(const Position& pos, const std::string& profile);
// The same for a profile object (a weights file).
std::string trace_text(const Position& pos, const std::shared_ptr<const Profile>& profile);
std::string trace_json(const Position& pos, const std::shared_ptr<const Profile>& profile);

// The simple material + piece-square evaluation (profile `simple`), the baseline the others are measured against.
Value simple_evaluate(const Position& pos);

}  // namespace quince::eval
