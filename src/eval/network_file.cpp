// The loader behind a network file (eval/evaluation.h, load_network): the net of profile `nnue`
// (eval/nnue/), behind the Network / NetworkState interface. Each search thread's state keeps its own
// accumulators (eval/nnue/accumulator.h, NnueState), of the code compiled for the net's architecture.
#include <filesystem>

#include "eval/evaluation.h"
#include "eval/nnue/accumulator.h"
#include "eval/nnue/network.h"

namespace quince::eval {

namespace {

template <class A>
class NnueThreadState final : public NetworkState {
public:
    explicit NnueThreadState(std::shared_ptr<const nnue::Network> net) : net_(std::move(net)) {}
    Value evaluate(const Position& pos) override { return state_.evaluate(*net_, pos); }
    void clear() override { state_.reset(); }

private:
    std::shared_ptr<const nnue::Network> net_;
    nnue::NnueState<A> state_;
};

class NnueNetwork final : public Network {
public:
    explicit NnueNetwork(std::shared_ptr<const nnue::Network> net) : net_(std::move(net)) {}
    std::unique_ptr<NetworkState> new_state() const override {
        return nnue::with_architecture(net_->arch, [this](auto a) -> std::unique_ptr<NetworkState> {
            return std::make_unique<NnueThreadState<decltype(a)>>(net_);
        });
    }
    std::string description() const override { return net_->description; }
    std::string identity() const override { return nnue::checksum_hex(*net_); }

private:
    std::shared_ptr<const nnue::Network> net_;
};

}  // namespace

std::shared_ptr<const Network> load_network(const std::string& path, std::string* error) {
    auto net = nnue::load_network_file(path, error);
    if (!net) return nullptr;
    return std::make_shared<NnueNetwork>(std::move(net));
}

namespace nnue {

EvalPtr network_evaluation(std::shared_ptr<const nnue::Network> net, const std::string& name, const std::string& source) {
    if (!net) return nullptr;
    return net_evaluation(std::make_shared<NnueNetwork>(std::move(net)), name, source);
}

}  // namespace nnue

}  // namespace quince::eval
