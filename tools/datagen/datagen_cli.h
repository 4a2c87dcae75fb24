// `quince datagen …`: the command line of the training-data generator (see tools/datagen/README.md).
#pragma once

#include <iosfwd>

#include "cli/cli.h"

namespace quince::datagen {

// The words after `datagen`. Returns the exit status (0 done, 1 failed, 2 usage error).
int run_datagen_cli(const cli::Args& args, std::ostream& out, std::ostream& err);
// The executable's bench signature (its `quince bench` node count), named in every shard's header.
void set_bench_signature(const char* signature);

}  // namespace quince::datagen
