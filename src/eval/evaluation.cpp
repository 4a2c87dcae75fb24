// Resolution of what the engine evaluates with (eval/evaluation.h): the registry of built-in evaluations,
// files, options.
#include "eval/evaluation.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "core/text.h"
#include "eval/endgame.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "eval/profile.h"
#include "eval/profiles_embedded.h"
#include "eval/weights.h"

namespace quince::eval {

namespace {

// The built-in evaluations, in the order of profile_names(): every name an evaluation is known by is
// written here and nowhere else. A hand-crafted profile has its weight file src/eval/profiles/NAME.txt,
// compiled in, parsed and built on its first use; the baseline reads no weights (its profile carries
// rybka1's, for the code that wants some); the network is the one the build embeds, listed only when it
// has one.
struct Builtin {
    const char* name;
    EvalKind kind;
    const char* weights;  // the weight file its profile is built from; null for the network
    std::once_flag once;
    std::shared_ptr<const Profile> profile;
};

Builtin builtins[] = {
    {"rybka1", EvalKind::Handcrafted, "rybka1", {}, nullptr},
    {"rybka1-curve", EvalKind::Handcrafted, "rybka1-curve", {}, nullptr},
    {"rybka232", EvalKind::Handcrafted, "rybka232", {}, nullptr},
    {"fruit21", EvalKind::Handcrafted, "fruit21", {}, nullptr},
    {"quince", EvalKind::Handcrafted, "quince", {}, nullptr},
    {"simple", EvalKind::Simple, "rybka1", {}, nullptr},
    {"nnue", EvalKind::Network, nullptr, {}, nullptr},
};

// The hand-crafted profile that plays when the build has no network, and the tuners' starting point.
constexpr const char* DEFAULT_HANDCRAFTED = "quince";

bool available(const Builtin& b) { return b.kind != EvalKind::Network || nnue::embedded_network(); }

Builtin* find_builtin(const std::string& name) {
    for (Builtin& b : builtins)
        if (name == b.name && available(b)) return &b;
    return nullptr;
}

const Builtin& network_builtin() {
    for (const Builtin& b : builtins)
        if (b.kind == EvalKind::Network) return b;
    std::abort();  // not reached: the table has its network
}

Weights parse_builtin(const std::string& name) {
    const char* text = nullptr;
    for (int i = 0; i < EMBEDDED_PROFILE_COUNT; ++i)
        if (name == EMBEDDED_PROFILES[i].name) text = EMBEDDED_PROFILES[i].text;
    Weights w{};
    std::string error;
    // A built-in file that does not parse is a defect of the build itself: stop at once, loudly.
    if (!text || !parse_weights(text, "src/eval/profiles/" + name + ".txt", w, &error, builtin_weights)) {
        std::fprintf(stderr, "quince: built-in profile %s: %s\n", name.c_str(), text ? error.c_str() : "missing");
        std::abort();
    }
    return w;
}

// The profile of a built-in hand-crafted or baseline evaluation, built on first use (thread-safe).
const std::shared_ptr<const Profile>& builtin_profile(Builtin& b) {
    std::call_once(b.once, [&b] {
        Weights w = parse_builtin(b.weights);
        if (b.kind == EvalKind::Simple) {
            w.name = b.name;
            b.profile = build_simple_profile(w);
        } else {
            b.profile = build_profile(w);
        }
    });
    return b.profile;
}

// Whether a regular file starts with the network header. A device or FIFO is never opened here (a read
// could block): the weights reader refuses it with its own message.
bool is_network_file(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    std::ifstream in(path, std::ios::binary);
    char head[NETWORK_MAGIC.size()] = {};
    in.read(head, std::streamsize(sizeof head));
    return in.gcount() == std::streamsize(sizeof head) && std::string_view(head, sizeof head) == NETWORK_MAGIC;
}

}  // namespace

std::vector<std::string> profile_names() {
    std::vector<std::string> v;
    for (const Builtin& b : builtins)
        if (available(b)) v.push_back(b.name);
    return v;
}

std::vector<std::string> handcrafted_profile_names() {
    std::vector<std::string> v;
    for (const Builtin& b : builtins)
        if (b.kind != EvalKind::Network) v.push_back(b.name);
    return v;
}

std::string known_profiles() {
    std::string known;
    for (const std::string& n : profile_names()) known += (known.empty() ? "" : ", ") + n;
    return known;
}

bool builtin_kind(const std::string& name, EvalKind* kind) {
    const Builtin* b = find_builtin(name);
    if (b && kind) *kind = b->kind;
    return b != nullptr;
}

std::string network_profile() { return network_builtin().name; }
std::string default_handcrafted_profile() { return DEFAULT_HANDCRAFTED; }
std::string default_profile() { return nnue::embedded_network() ? network_profile() : default_handcrafted_profile(); }

std::shared_ptr<const Profile> find_profile_shared(const std::string& name) {
    Builtin* b = find_builtin(name);
    if (!b || b->kind == EvalKind::Network) return nullptr;
    return builtin_profile(*b);
}

const Profile* find_profile(const std::string& name) { return find_profile_shared(name).get(); }

bool builtin_weights(const std::string& name, Weights& out) {
    Builtin* b = find_builtin(name);
    if (!b || b->kind == EvalKind::Network) return false;
    if (b->kind == EvalKind::Simple) return builtin_weights(b->weights, out);  // tables unused by the baseline
    out = builtin_profile(*b)->w;
    return true;
}

EvalPtr builtin_evaluation(const std::string& name, std::string* error) {
    Builtin* b = find_builtin(name);
    if (!b) {
        if (error) *error = "unknown profile '" + printable(name) + "' (known: " + known_profiles() + ")";
        return nullptr;
    }
    if (b->kind == EvalKind::Network) return nnue::network_evaluation(nnue::embedded_network(), b->name);
    auto e = std::make_shared<Evaluation>();
    e->name = name;
    e->kind = b->kind;
    e->profile = builtin_profile(*b);
    return e;
}

EvalPtr default_evaluation() { return builtin_evaluation(default_profile(), nullptr); }

EvalPtr profile_evaluation(std::shared_ptr<const Profile> profile, const std::string& source) {
    auto e = std::make_shared<Evaluation>();
    e->name = profile->w.name;
    e->kind = profile->simple ? EvalKind::Simple : EvalKind::Handcrafted;
    e->source = source;
    e->profile = std::move(profile);
    return e;
}

EvalPtr net_evaluation(std::shared_ptr<const Network> net, const std::string& name, const std::string& source) {
    auto e = std::make_shared<Evaluation>();
    e->name = name;
    e->source = source;
    e->kind = EvalKind::Network;
    e->network = std::move(net);
    e->wdl = network_wdl_model();
    return e;
}

EvalPtr load_evaluation(const std::string& path, std::string* error) {
    if (is_network_file(path)) {
        std::shared_ptr<const Network> net = load_network(path, error);
        return net ? net_evaluation(std::move(net), std::filesystem::path(path).filename().string(), path) : nullptr;
    }
    std::shared_ptr<const Profile> p = load_profile_file(path, error);
    return p ? profile_evaluation(std::move(p), path) : nullptr;
}

EvalPtr resolve_evaluation(const std::string& profile, const std::string& file, std::string* error) {
    if (!file.empty()) return load_evaluation(file, error);
    return builtin_evaluation(profile.empty() ? default_profile() : profile, error);
}

EvalSettings::EvalSettings() : profile_(default_profile()), builtin_(default_evaluation()) { resolve(); }

bool EvalSettings::set_profile(const std::string& name, std::string* error) {
    EvalPtr e = builtin_evaluation(name, error);
    if (!e) return false;
    profile_ = name;
    builtin_ = std::move(e);
    resolve();
    return true;
}

bool EvalSettings::set_file(const std::string& path, std::string* error) {
    if (path.empty() || path == "<empty>") {
        file_.reset();
    } else {
        EvalPtr e = load_evaluation(path, error);
        if (!e) return false;
        file_ = std::move(e);
    }
    resolve();
    return true;
}

void EvalSettings::set_weight(int index, int value) {
    weights_[index] = value;
    resolve();
}

void EvalSettings::resolve() {
    const EvalPtr& base = file_ ? file_ : builtin_;
    // The tuned weights are a hand-crafted profile's; the baseline and a network have none.
    if (weights_.empty() || base->kind != EvalKind::Handcrafted) {
        current_ = base;
        return;
    }
    Weights w = base->profile->w;
    for (const auto& [index, value] : weights_) eval::set_weight(w, index, value);
    current_ = profile_evaluation(build_profile(w), base->source);
}

std::string trace_text(const Position& pos, const Evaluation& evaluation) {
    if (evaluation.kind != EvalKind::Network) return trace_text(pos, evaluation.profile);
    const Value net = evaluation.network->new_state()->evaluate(pos);
    EndingScale scale;
    const Value v = finish_score(pos, net, &scale);
    const Value white = pos.side_to_move() == WHITE ? v : -v;
    const std::string trained = evaluation.network->description();
    std::string ending;
    if (v != net) {
        ending = "network's output: " + std::to_string(net) + " cp for the side to move\n";
        if (scale.factor != ENDING_SCALE_NORMAL)
            ending += "known ending: " + std::string(ending_name(scale.rule)) + ", scaled " +
                      std::to_string(scale.factor) + "/128\n";
        if (v != ending_scaled(net, scale.factor))
            ending += "fifty-move counter " + std::to_string(pos.rule50()) + ": x (200 - " +
                      std::to_string(pos.rule50()) + ") / 200\n";
    }
    return "network " + evaluation.name + " (" + (evaluation.source.empty() ? "built in" : evaluation.source) + ")\n" +
           (trained.empty() ? "" : "trained: " + trained + "\n") + ending + "final score: " +
           std::to_string(white) + " cp (White's view), " + std::to_string(v) + " cp for the side to move\n";
}

}  // namespace quince::eval
