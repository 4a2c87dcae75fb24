// The loader behind a network file (eval/evaluation.h, load_network). This build evaluates with the
// hand-crafted profiles only: a file with the network header is recognised as one and refused with an
// error that says so, rather than read as a malformed weights file.
#include "eval/evaluation.h"

namespace quince::eval {

std::shared_ptr<const Network> load_network(const std::string& path, std::string* error) {
    if (error)
        *error = "'" + path + "' is a network file (header " + std::string(NETWORK_MAGIC) +
                 "), and this build has no network evaluation";
    return nullptr;
}

}  // namespace quince::eval
