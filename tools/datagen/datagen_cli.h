// `quince datagen …`: the command line of the training-data generator (see tools/datagen/README.md).
#pragma once

namespace quince::datagen {

// argv[1] is "datagen". Returns the process exit code (0 done, 1 failed, 2 bad arguments).
int run_datagen_cli(int argc, char** argv);
// The executable's bench signature (its `quince bench` node count), named in every shard's header.
void set_bench_signature(const char* signature);

}  // namespace quince::datagen
