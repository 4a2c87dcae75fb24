// `quince data info|dump`: what the training set (QTD shards, data/training/README.md) holds.
#pragma once

namespace quince::datagen {

// argv[1] is "data". Returns the process exit code (0 done, 1 a bad shard or file, 2 bad arguments).
int run_data_cli(int argc, char** argv);

}  // namespace quince::datagen
