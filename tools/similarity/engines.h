// The engines of a similarity test, as the command line names them:
//   profile:NAME[:Option=Value...]   Quince itself (this program as a UCI process) with a built-in profile,
//   profile:FILE[:Option=Value...]   or with a weights file (`quince weights NAME` writes one),
//   CMD[ ARGS][:Option=Value...]     any UCI engine; the options are sent with setoption after uciok.
// Quince profiles get Threads=1, Hash=16 and Move Overhead=0 unless their options say otherwise.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "match/uci_engine.h"

namespace quince::similarity {

struct EngineSpec {
    std::string text;   // as given
    std::string label;  // in tables: the profile, or the command's file name (duplicates get " (2)")
    bool is_profile = false;
    std::string profile;  // is_profile: the built-in name or the weights file
    std::string command;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> options;  // in order
    // The key of its results in the state file: the word as given, and for a profile the options it runs
    // with (the defaults included, so that a change of them does not reuse old results).
    std::string key() const;
};

// Parses one ENGINE word; `quince_path` is the program that plays the profiles. A profile is checked here
// (unknown name, weights file that does not load); a command is checked when it is started. False +
// *error naming the word and what is wrong.
bool parse_engine(const std::string& text, const std::string& quince_path, EngineSpec* out, std::string* error);

// Labels made unique in order ("toga2", "toga2 (2)").
void label_engines(std::vector<EngineSpec>& engines);

// The match runner's configuration of the engine.
match::EngineConfig engine_config(const EngineSpec& spec);

}  // namespace quince::similarity
