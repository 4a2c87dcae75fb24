// Resolution of what the engine evaluates with (eval/evaluation.h): built-in profiles, files, options.
#include "eval/evaluation.h"

#include <filesystem>
#include <fstream>

#include "core/text.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "eval/profile.h"
#include "eval/weights.h"

namespace quince::eval {

namespace {

std::string known_profiles() {
    std::string known;
    for (const std::string& n : profile_names()) known += (known.empty() ? "" : ", ") + n;
    return known;
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

EvalPtr builtin_evaluation(const std::string& name, std::string* error) {
    // Profile `nnue`: the net embedded in the build (listed by profile_names() only when there is one).
    if (name == "nnue" && nnue::embedded_network()) return nnue::network_evaluation(nnue::embedded_network());
    std::shared_ptr<const Profile> p = find_profile_shared(name);
    if (!p) {
        if (error) *error = "unknown profile '" + printable(name) + "' (known: " + known_profiles() + ")";
        return nullptr;
    }
    auto e = std::make_shared<Evaluation>();
    e->name = name;
    e->profile = std::move(p);
    return e;
}

EvalPtr default_evaluation() { return builtin_evaluation(default_profile(), nullptr); }

EvalPtr profile_evaluation(std::shared_ptr<const Profile> profile, const std::string& source) {
    auto e = std::make_shared<Evaluation>();
    e->name = profile->w.name;
    e->source = source;
    e->profile = std::move(profile);
    return e;
}

EvalPtr net_evaluation(std::shared_ptr<const Network> net, const std::string& name, const std::string& source) {
    auto e = std::make_shared<Evaluation>();
    e->name = name;
    e->source = source;
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
    if (weights_.empty() || !base->profile || base->profile->simple) {
        current_ = base;
        return;
    }
    Weights w = base->profile->w;
    for (const auto& [index, value] : weights_) eval::set_weight(w, index, value);
    current_ = profile_evaluation(build_profile(w), base->source);
}

std::string trace_text(const Position& pos, const Evaluation& evaluation) {
    if (evaluation.profile) return trace_text(pos, evaluation.profile);
    const Value v = evaluation.network->new_state()->evaluate(pos);
    const Value white = pos.side_to_move() == WHITE ? v : -v;
    const std::string trained = evaluation.network->description();
    return "network " + evaluation.name + " (" + (evaluation.source.empty() ? "built in" : evaluation.source) + ")\n" +
           (trained.empty() ? "" : "trained: " + trained + "\n") + "final score: " +
           std::to_string(white) + " cp (White's view), " + std::to_string(v) + " cp for the side to move\n";
}

}  // namespace quince::eval
