// `quince data info|dump`: what the training set (QTD shards, data/training/README.md) holds.
#pragma once

#include <iosfwd>

#include "cli/cli.h"

namespace quince::datagen {

// The words after `data`. Returns the exit status (0 done, 1 a bad shard or file, 2 usage error).
int run_data_cli(const cli::Args& args, std::ostream& out, std::ostream& err);

}  // namespace quince::datagen
