// Where training positions come from on a command line: `quince tune --data` and `quince wdlfit` take the
// same arguments (a training file, a datagen folder of shards, or a .list file of paths).
#pragma once

#include <string>
#include <vector>

namespace quince::training {

// Expands command-line arguments into training files: a file as it is, a folder into its shard-*.txt in
// name order (or, without those, every QTD shard under it: a training set such as data/training), a .list file into the paths it lists (one a line, relative to the list's folder; blank lines
// and # comments skipped). False + *error naming what is missing or empty.
bool expand_data_args(const std::vector<std::string>& args, std::vector<std::string>& files, std::string* error);

}  // namespace quince::training
