// Weights as data: the registry of every named weight and switch of a profile (Weights), the text
// format of the profile files (src/eval/profiles/*.txt, EvalFile, --weights) and the flat numbering of
// the tunable integers that the tuner's coefficient trace uses.
//
// File format: one weight per line, `name value` or `name v1 v2 ... vN` for arrays; `#` starts a
// comment; blank lines are ignored. `profile NAME` names the profile; `base NAME` (optional, before any
// weight) starts from a built-in profile, otherwise every weight the profile uses must be given.
// Switches take `true`/`false`, enumerations their value names (see the descriptors).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "eval/profile.h"
#include "eval/weight_ref.h"

namespace quince::eval {

enum class Kind : std::uint8_t { Int, Bool, Enum };

struct WeightDesc {
    const char* name;
    const char* group;  // for the tuner's --freeze / --tune and the file's section comments
    Kind kind;
    int count;          // 1 for scalars, N for arrays
    Role role;
    int lo, hi;         // accepted range of every value
    int* (*ints)(Weights&);   // Kind::Int: the first element
    bool* (*flag)(Weights&);  // Kind::Bool
    // Kind::Enum: value names (index = enum value), read and write through these
    std::vector<std::string> enum_names;
    int (*get_enum)(const Weights&);
    void (*set_enum)(Weights&, int);
    // The weight is used by a profile with these settings (a file need not give unused ones, and
    // `quince weights` does not print them: e.g. the PST generator weights of a table profile).
    bool (*used)(const Weights&);
    const char* doc;
    // Set for a weight that only the general code path reads: the value the fast path assumes for it at
    // compile time (switches 0 / 1). A profile runs the fast path when every such weight has it.
    std::optional<int> fast = std::nullopt;
    // The trace row (eval/terms.h Term) the weight feeds, -1 for none: term_in_profile() reads it.
    int term = -1;
    // The switch of a term group (the list's G line): a file need not give it (off), and it is printed
    // only when on.
    bool group_switch = false;
};

const std::vector<WeightDesc>& weight_descs();
const WeightDesc* find_weight(const std::string& name);

// A term group (the list's G lines, in list order): its switch and the predicate its weights name as
// `used`, so that the weights of a group are those whose WeightDesc::used is GroupDesc::used.
struct GroupDesc {
    const char* name;   // the switch
    const char* group;  // the files' section
    bool* (*flag)(Weights&);
    bool (*used)(const Weights&);
    bool after_pieces;  // run: AFTER_PIECES (eval_<name> for each colour), else IN_TERMS
    bool maps;          // its terms read AttackMaps
    const char* doc;
};
const std::vector<GroupDesc>& group_descs();

// Every weight with a fast-path value (WeightDesc::fast) has it in w: the profile can run Path::Fast.
bool fast_path_holds(const Weights& w);

// Flat numbering of every integer of every Kind::Int descriptor (arrays element by element), in
// registry order: the tuner's parameter vector. weight_index(desc, i) for element i.
int weight_count();
int weight_index(const WeightDesc& d, int element = 0);
const WeightDesc& weight_of_index(int index, int* element = nullptr);
std::string weight_label(int index);  // "name" or "name[i]"
int get_weight(const Weights& w, int index);
void set_weight(Weights& w, int index, int value);

// The tunable integers of a profile as SPSA parameters (OpenBench; the tuning build's UCI options and
// `quince spsa`): every element of a tunable (Role != Fixed) integer weight the profile uses, except array
// elements that are 0 in it (ranks a pawn cannot stand on, attacker counts that add nothing). Named by the
// weight, arrays with the element: `passed_op_3`. The range is the value ± max(|value|, a floor of about
// 10 cp in the weight's units), within the weight's accepted range; c_end a twentieth of the range (at
// least 1), r_end 0.002.
struct SpsaWeight {
    int index;  // flat parameter index (get_weight / set_weight)
    std::string name;
    int value, min, max;
    double c_end, r_end;
};
std::vector<SpsaWeight> spsa_weights(const Weights& w);

// The profile file text of w (every used weight, grouped, with the descriptor docs as comments).
std::string format_weights(const Weights& w, const std::string& header_comment = "");

// Parses a profile file. `source` names it in errors ("FILE:LINE: ..."). On error returns false, sets
// *error and leaves `out` unchanged. `base_of(name, w)` fills w with a built-in profile's weights
// (false for an unknown name); without a `base` line every used weight must appear.
bool parse_weights(const std::string& text, const std::string& source, Weights& out, std::string* error,
                   const std::function<bool(const std::string&, Weights&)>& base_of);

}  // namespace quince::eval
