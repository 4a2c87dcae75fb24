// What the engine evaluates with, as one object: a hand-crafted profile (weights and their derived tables,
// eval/profile.h) or a learned network (eval/nnue/), together with the win/draw/loss model of the scores
// it gives (eval/wdl.h). Immutable and shared by every search thread (each thread evaluates through its
// own Evaluator, which keeps that thread's caches).
//
// Where an evaluation comes from is resolved here and nowhere else: the registry of built-in evaluations (every
// name an evaluation is known by, and its kind), a file (a weights file or a network, told apart by the file's
// first bytes), and the UCI options that choose between them (EvalSettings).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "board/position.h"
#include "eval/wdl.h"

namespace quince::eval {

struct Profile;
struct Weights;

// A network file starts with these four bytes; anything else is read as a weights file (text).
inline constexpr std::string_view NETWORK_MAGIC = "QNN1";

// One search thread's state of a network evaluation (accumulators, caches): never shared.
class NetworkState {
public:
    virtual ~NetworkState() = default;
    // Score in centipawns relative to the side to move.
    virtual Value evaluate(const Position& pos) = 0;
    virtual void clear() {}  // ucinewgame
};

// A learned evaluation's parameters, loaded once and shared by the threads.
class Network {
public:
    virtual ~Network() = default;
    virtual std::unique_ptr<NetworkState> new_state() const = 0;
    // What the file's header says it was trained on, and how (`eval` prints it).
    virtual std::string description() const { return {}; }
    // What tells this net from any other (the file's checksum in hex): data made with a net records it.
    virtual std::string identity() const { return {}; }
};

// The network loader for a file whose first bytes are NETWORK_MAGIC (eval/network_file.cpp): the
// network, or nullptr and *error naming the file and what is wrong with it.
std::shared_ptr<const Network> load_network(const std::string& path, std::string* error);

// What evaluates: a hand-crafted profile's terms, the baseline (material and piece-square tables,
// simple_evaluate()), or a network.
enum class EvalKind { Handcrafted, Simple, Network };

struct Evaluation {
    std::string name;    // the profile's name (a weights file's own `name`), or the network's
    std::string source;  // the file it was read from; empty for a built-in profile
    EvalKind kind = EvalKind::Handcrafted;  // set by the functions below to what it holds
    std::shared_ptr<const Profile> profile;  // Handcrafted and Simple (whose weights it does not read), or
    std::shared_ptr<const Network> network;  // Network (exactly one of the two is set)
    WdlModel wdl = fitted_wdl_model();       // win/draw/loss of this evaluation's scores
};

using EvalPtr = std::shared_ptr<const Evaluation>;

// The registry of built-in evaluations. Their names, in the order of the UCI option EvalProfile's choices:
// the hand-crafted profiles, the baseline `simple`, and the network embedded in the build when it has one.
std::vector<std::string> profile_names();
// The ones with a profile (find_profile): the hand-crafted profiles and the baseline, in the same order.
std::vector<std::string> handcrafted_profile_names();
// profile_names() as an error message lists them: "a, b, c".
std::string known_profiles();
// The kind of a built-in evaluation; false for a name that is none.
bool builtin_kind(const std::string& name, EvalKind* kind);
// The name of the embedded network's evaluation (whether or not this build has one).
std::string network_profile();
// What the engine evaluates with when nothing is chosen: the network when the build embeds one, else
// default_handcrafted_profile().
std::string default_profile();
// The hand-crafted profile that plays when no net does, and whose weights the tuners start from.
std::string default_handcrafted_profile();
// The profile of a built-in hand-crafted or baseline evaluation, parsed and built on first use (thread-safe)
// and kept for the program's life; nullptr for any other name.
const Profile* find_profile(const std::string& name);
std::shared_ptr<const Profile> find_profile_shared(const std::string& name);
// The weights of such a profile (the baseline's: rybka1's); false for any other name.
bool builtin_weights(const std::string& name, Weights& out);

// A built-in evaluation by name (profile_names()); nullptr and *error listing the known names otherwise.
EvalPtr builtin_evaluation(const std::string& name, std::string* error);
// The default one (default_profile()).
EvalPtr default_evaluation();
// A profile built elsewhere (the tuner's weights, the tuning build's options), from `source` (the baseline's
// profile gives the baseline).
EvalPtr profile_evaluation(std::shared_ptr<const Profile> profile, const std::string& source = "");
// The evaluation of a network (reporting with network_wdl_model()), named and with its source file.
EvalPtr net_evaluation(std::shared_ptr<const Network> net, const std::string& name, const std::string& source);
// A file: a network when it starts with NETWORK_MAGIC, a weights file (eval/weights.h) otherwise;
// nullptr and *error ("FILE:LINE: what", or what is wrong with the file) when it does not load.
EvalPtr load_evaluation(const std::string& path, std::string* error);
// The command line's choice: the file when one is given (it outranks the profile), else the profile.
EvalPtr resolve_evaluation(const std::string& profile, const std::string& file, std::string* error);

// The evaluation options of the UCI layer: EvalProfile, EvalFile and, in the tuning build, one value per
// tunable weight. A loaded file outranks the profile; tuned weights apply on top of a hand-crafted one.
// Every setter that fails leaves the settings (and so the evaluation in force) as they were.
class EvalSettings {
public:
    EvalSettings();
    bool set_profile(const std::string& name, std::string* error);
    // "" or "<empty>" unloads the file (the profile is in force again).
    bool set_file(const std::string& path, std::string* error);
    void set_weight(int index, int value);  // flat weight index (eval/weights.h)
    const std::string& profile() const { return profile_; }
    const EvalPtr& file() const { return file_; }  // the loaded file, or null
    const EvalPtr& evaluation() const { return current_; }  // what the engine evaluates with

private:
    void resolve();
    std::string profile_;
    EvalPtr builtin_, file_, current_;
    std::map<int, int> weights_;
};

// `eval` for any evaluation: the term table of a profile (trace_text), or a network's score.
std::string trace_text(const Position& pos, const Evaluation& evaluation);

}  // namespace quince::eval
