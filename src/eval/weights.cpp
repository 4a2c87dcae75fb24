// The weight registry and the profile file format (see weights.h). Every field of Weights appears
// here once, in the order of the seeds' sections; the docs are the files' comments.
#include "eval/weights.h"

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <set>
#include <sstream>

#include "core/text.h"
#include "core/types.h"
#include "eval/terms.h"

namespace quince::eval {

namespace {

// The list's `used` column: these, and one predicate per term group (its switch), generated below.
bool always(const Weights&) { return true; }
bool generator_pst(const Weights& w) { return w.pst_source == PstSource::Generator; }
bool table_pst(const Weights& w) { return w.pst_source == PstSource::Table; }
bool table_phase(const Weights& w) { return w.phase_curve == PhaseCurve::Table; }
bool mob_linear(const Weights& w) { return !w.mob_tables; }
#define QUINCE_U_NONE(...)
#define QUINCE_U_GROUP(name, ...) \
    bool name(const Weights& w) { return w.name; }
QUINCE_WEIGHTS(QUINCE_U_NONE, QUINCE_U_NONE, QUINCE_U_NONE, QUINCE_U_NONE, QUINCE_U_NONE, QUINCE_U_NONE, QUINCE_U_NONE,
               QUINCE_U_GROUP)
#undef QUINCE_U_GROUP

constexpr int W = 100000;  // bound of a weight in internal units (about 31 pawns): sums stay far from overflow
// One unit of material from 10 to 200 centipawns (internal units are 1/32 cp). At 200 cp the largest
// material difference of a legal position (112 units: nine queens, two rooks, bishops and knights against
// a bare king) is 22,400 cp, below the tablebase and mate scores; a larger unit would make ordinary
// material gains outrank proven wins and overflow the phase interpolation.
constexpr int PAWN_UNIT_MIN = 320, PAWN_UNIT_MAX = 6400;

constexpr int ANY = INT_MIN;  // the list's "no fast-path value"
constexpr int NO_TERM = -1;
constexpr bool AFTER_PIECES = true, IN_TERMS = false;  // the list's `run` column of a group

std::optional<int> fast_of(int v) { return v == ANY ? std::nullopt : std::optional<int>(v); }

std::vector<std::string> split_names(const char* values) {
    std::vector<std::string> out;
    std::istringstream in(values);
    for (std::string t; in >> t;) out.push_back(t);
    return out;
}

// The descriptors of eval/weight_list.h, in its order (the flat numbering follows it: eval/weight_ref.h).
std::vector<WeightDesc> make_descs() {
    std::vector<WeightDesc> d;
#define QUINCE_D_INT(field, term, group, role, lo, hi, used, fast, doc)                                          \
    d.push_back(WeightDesc{#field, group, Kind::Int, 1, Role::role, lo, hi, [](Weights& w) { return &w.field; }, \
                           nullptr, {}, nullptr, nullptr, used, doc, fast_of(fast), term});
#define QUINCE_D_PAIR(field, term, group, lo, hi, used, fast, doc)                                                 \
    d.push_back(WeightDesc{#field "_op", group, Kind::Int, 1, Role::Op, lo, hi,                                   \
                           [](Weights& w) { return &w.field##_op; }, nullptr, {}, nullptr, nullptr, used, doc,      \
                           fast_of(fast), term});                                                                  \
    d.push_back(WeightDesc{#field "_eg", group, Kind::Int, 1, Role::Eg, lo, hi,                                   \
                           [](Weights& w) { return &w.field##_eg; }, nullptr, {}, nullptr, nullptr, used, "",       \
                           fast_of(fast), term});
#define QUINCE_D_ARRAY(field, n, term, group, role, lo, hi, used, fast, doc)                                   \
    d.push_back(WeightDesc{#field, group, Kind::Int, n, Role::role, lo, hi, [](Weights& w) { return w.field.data(); }, \
                           nullptr, {}, nullptr, nullptr, used, doc, fast_of(fast), term});
#define QUINCE_D_PAIR_ARRAY(field, n, term, group, lo, hi, used, fast, doc)                                        \
    d.push_back(WeightDesc{#field "_op", group, Kind::Int, n, Role::Op, lo, hi,                                   \
                           [](Weights& w) { return w.field##_op.data(); }, nullptr, {}, nullptr, nullptr, used, doc, \
                           fast_of(fast), term});                                                                  \
    d.push_back(WeightDesc{#field "_eg", group, Kind::Int, n, Role::Eg, lo, hi,                                   \
                           [](Weights& w) { return w.field##_eg.data(); }, nullptr, {}, nullptr, nullptr, used, "",  \
                           fast_of(fast), term});
#define QUINCE_D_BOOL(field, group, fast, doc)                                                                     \
    d.push_back(WeightDesc{#field, group, Kind::Bool, 1, Role::Fixed, 0, 1, nullptr,                               \
                           [](Weights& w) { return &w.field; }, {}, nullptr, nullptr, always, doc, fast_of(fast), NO_TERM});
#define QUINCE_D_ENUM(field, type, group, values, doc)                                                             \
    d.push_back(WeightDesc{#field, group, Kind::Enum, 1, Role::Fixed, 0, int(split_names(values).size()) - 1,      \
                           nullptr, nullptr, split_names(values), [](const Weights& w) { return int(w.field); },    \
                           [](Weights& w, int v) { w.field = type(v); }, always, doc, std::nullopt, NO_TERM});
#define QUINCE_D_TABLE(field, piece, group, doc)                                                                    \
    d.push_back(WeightDesc{#field "_op", group, Kind::Int, 64, Role::Op, -W, W,                                    \
                           [](Weights& w) { return w.pst_table_op[piece].data(); }, nullptr, {}, nullptr, nullptr, \
                           table_pst, doc, std::nullopt, NO_TERM});                                                \
    d.push_back(WeightDesc{#field "_eg", group, Kind::Int, 64, Role::Eg, -W, W,                                    \
                           [](Weights& w) { return w.pst_table_eg[piece].data(); }, nullptr, {}, nullptr, nullptr, \
                           table_pst, "", std::nullopt, NO_TERM});
#define QUINCE_D_GROUP(field, group, run, maps, doc)                                                              \
    d.push_back(WeightDesc{#field, group, Kind::Bool, 1, Role::Fixed, 0, 1, nullptr,                               \
                           [](Weights& w) { return &w.field; }, {}, nullptr, nullptr, always, doc, 0, NO_TERM, true});
    QUINCE_WEIGHTS(QUINCE_D_INT, QUINCE_D_PAIR, QUINCE_D_ARRAY, QUINCE_D_PAIR_ARRAY, QUINCE_D_BOOL, QUINCE_D_ENUM,
                   QUINCE_D_TABLE, QUINCE_D_GROUP)
#undef QUINCE_D_INT
#undef QUINCE_D_PAIR
#undef QUINCE_D_ARRAY
#undef QUINCE_D_PAIR_ARRAY
#undef QUINCE_D_BOOL
#undef QUINCE_D_ENUM
#undef QUINCE_D_TABLE
#undef QUINCE_D_GROUP
    return d;
}

std::vector<GroupDesc> make_groups() {
    std::vector<GroupDesc> g;
#define QUINCE_G_GROUP(field, group, run, maps, doc) \
    g.push_back(GroupDesc{#field, group, [](Weights& w) { return &w.field; }, field, run, maps != 0, doc});
    QUINCE_WEIGHTS(QUINCE_U_NONE, QUINCE_U_NONE, QUINCE_U_NONE, QUINCE_U_NONE, QUINCE_U_NONE, QUINCE_U_NONE,
                   QUINCE_U_NONE, QUINCE_G_GROUP)
#undef QUINCE_G_GROUP
    return g;
}

// The descriptors and the flat numbering of their integers (the tuner's vector), built once.
struct WeightIndex {
    std::vector<WeightDesc> descs = make_descs();
    std::vector<int> first;  // flat index of each descriptor's first element (-1: not Kind::Int)
    std::vector<std::pair<int, int>> of_index;  // flat index -> (descriptor, element)
    WeightIndex() {
        for (int i = 0; i < int(descs.size()); ++i) {
            if (descs[i].kind != Kind::Int) {
                first.push_back(-1);
                continue;
            }
            first.push_back(int(of_index.size()));
            for (int e = 0; e < descs[i].count; ++e) of_index.emplace_back(i, e);
        }
        if (int(of_index.size()) != WEIGHT_NB) std::abort();  // the list's two expansions disagree: a defect
    }
};

const WeightIndex& weight_index_table() {
    static const WeightIndex r;
    return r;
}

// A strict decimal integer; false on anything else (no trailing characters, no overflow).
bool parse_int(const std::string& t, long long& v) { return parse_integer(t, &v); }

}  // namespace

const std::vector<WeightDesc>& weight_descs() { return weight_index_table().descs; }

const std::vector<GroupDesc>& group_descs() {
    static const std::vector<GroupDesc> g = make_groups();
    return g;
}

const WeightDesc* find_weight(const std::string& name) {
    for (const WeightDesc& d : weight_index_table().descs)
        if (name == d.name) return &d;
    return nullptr;
}

int weight_count() { return int(weight_index_table().of_index.size()); }

int weight_index(const WeightDesc& d, int element) {
    const WeightIndex& r = weight_index_table();
    return r.first[std::size_t(&d - r.descs.data())] + element;
}

const WeightDesc& weight_of_index(int index, int* element) {
    const auto [desc, el] = weight_index_table().of_index[std::size_t(index)];
    if (element) *element = el;
    return weight_index_table().descs[std::size_t(desc)];
}

std::string weight_label(int index) {
    int el = 0;
    const WeightDesc& d = weight_of_index(index, &el);
    return d.count == 1 ? d.name : std::string(d.name) + "[" + std::to_string(el) + "]";
}

int get_weight(const Weights& w, int index) {
    int el = 0;
    const WeightDesc& d = weight_of_index(index, &el);
    return d.ints(const_cast<Weights&>(w))[el];
}

void set_weight(Weights& w, int index, int value) {
    int el = 0;
    const WeightDesc& d = weight_of_index(index, &el);
    d.ints(w)[el] = value;
}

bool fast_path_holds(const Weights& w) {
    Weights& m = const_cast<Weights&>(w);  // the accessors take a mutable Weights; nothing is written
    for (const WeightDesc& d : weight_descs()) {
        if (!d.fast) continue;
        if (d.kind == Kind::Bool && int(*d.flag(m)) != *d.fast) return false;
        if (d.kind == Kind::Int)
            for (int i = 0; i < d.count; ++i)
                if (d.ints(m)[i] != *d.fast) return false;
    }
    return true;
}

std::vector<SpsaWeight> spsa_weights(const Weights& w) {
    std::vector<SpsaWeight> out;
    for (int i = 0; i < weight_count(); ++i) {
        int el = 0;
        const WeightDesc& d = weight_of_index(i, &el);
        if (d.role == Role::Fixed || !d.used(w)) continue;
        const int v = get_weight(w, i);
        if (d.count > 1 && v == 0) continue;
        // Smallest half-range: 10 cp in internal units (1/32 cp) for the score terms, 10 cp for tempo, a
        // few steps for the king-attack and phase tables (small integers).
        const int floor = d.role == Role::Op || d.role == Role::Eg || d.role == Role::Both || d.role == Role::Complexity ? 320
                          : d.role == Role::Cp                                              ? 10
                                                                                            : 4;
        const long spread = std::max<long>(std::labs(long(v)), floor);
        const int lo = int(std::max<long>(d.lo, long(v) - spread));
        const int hi = int(std::min<long>(d.hi, long(v) + spread));
        std::string name = d.count == 1 ? d.name : std::string(d.name) + "_" + std::to_string(el);
        out.push_back({i, std::move(name), v, lo, hi, std::max(1.0, (hi - lo) / 20.0), 0.002});
    }
    return out;
}

std::string format_weights(const Weights& w, const std::string& header_comment) {
    std::ostringstream os;
    if (!header_comment.empty()) {
        std::istringstream in(header_comment);
        for (std::string line; std::getline(in, line);) os << (line.empty() ? "#" : "# " + line) << "\n";
        os << "\n";
    }
    os << "profile " << w.name << "\n";
    const char* group = "";
    Weights& m = const_cast<Weights&>(w);  // the accessors take a mutable Weights; nothing is written
    for (const WeightDesc& d : weight_descs()) {
        if (!d.used(w) || (d.group_switch && !*d.flag(m))) continue;
        if (std::string(group) != d.group) {
            group = d.group;
            os << "\n# ---- " << group << " ----\n";
        }
        // Long arrays get their doc above them, everything else behind the value.
        if (d.doc[0] && d.count > 16) os << "# " << d.doc << "\n";
        os << d.name;
        if (d.kind == Kind::Bool) os << " " << (*d.flag(m) ? "true" : "false");
        else if (d.kind == Kind::Enum) os << " " << d.enum_names[std::size_t(d.get_enum(w))];
        else
            for (int i = 0; i < d.count; ++i) os << " " << d.ints(m)[i];
        if (d.doc[0] && d.count <= 16) os << "  # " << d.doc;
        os << "\n";
    }
    return os.str();
}

bool parse_weights(const std::string& text, const std::string& source, Weights& out, std::string* error,
                   const std::function<bool(const std::string&, Weights&)>& base_of) {
    Weights w{};
    bool have_base = false, have_weight = false, have_name = false;
    std::set<std::string> seen;
    std::istringstream in(text);
    int line_no = 0;
    auto fail = [&](const std::string& what) {
        if (error) *error = source + ":" + std::to_string(line_no) + ": " + what;
        return false;
    };
    for (std::string raw; std::getline(in, raw);) {
        ++line_no;
        const std::string line = trim(raw.substr(0, raw.find('#')));
        if (line.empty()) continue;
        std::istringstream ls(line);
        std::string name;
        ls >> name;
        std::vector<std::string> vals;
        for (std::string t; ls >> t;) vals.push_back(t);
        if (name == "profile") {
            if (vals.size() != 1) return fail("'profile' takes one name");
            if (have_name) return fail("'profile' given twice");
            w.name = vals[0];
            have_name = true;
            continue;
        }
        if (name == "base") {
            if (vals.size() != 1) return fail("'base' takes one profile name");
            if (have_base || have_weight) return fail("'base' must come once, before any weight");
            const std::string keep = w.name;
            if (!base_of || !base_of(vals[0], w)) return fail("unknown base profile '" + printable(vals[0]) + "'");
            if (have_name) w.name = keep;
            have_base = true;
            continue;
        }
        const WeightDesc* d = find_weight(name);
        if (!d) return fail("unknown weight '" + printable(name) + "'");
        if (!seen.insert(name).second) return fail("weight '" + name + "' given twice");
        have_weight = true;
        if (int(vals.size()) != d->count)
            return fail("weight '" + name + "': expected " + std::to_string(d->count) + (d->count == 1 ? " value" : " values") +
                        ", got " + std::to_string(vals.size()));
        if (d->kind == Kind::Bool) {
            if (vals[0] != "true" && vals[0] != "false")
                return fail("weight '" + name + "': expected true or false, got '" + printable(vals[0]) + "'");
            *d->flag(w) = vals[0] == "true";
        } else if (d->kind == Kind::Enum) {
            int v = -1;
            std::string names;
            for (std::size_t i = 0; i < d->enum_names.size(); ++i) {
                if (vals[0] == d->enum_names[i]) v = int(i);
                names += std::string(i ? ", " : "") + d->enum_names[i];
            }
            if (v < 0) return fail("weight '" + name + "': expected one of " + names + ", got '" + printable(vals[0]) + "'");
            d->set_enum(w, v);
        } else {
            int* dst = d->ints(w);
            for (int i = 0; i < d->count; ++i) {
                long long v = 0;
                const std::string where = "weight '" + name + "'" + (d->count > 1 ? " value " + std::to_string(i + 1) : "");
                if (!parse_int(vals[std::size_t(i)], v)) return fail(where + ": '" + printable(vals[std::size_t(i)]) + "' is not an integer");
                if (v < d->lo || v > d->hi)
                    return fail(where + ": " + std::to_string(v) + " is out of range [" + std::to_string(d->lo) + ", " +
                                std::to_string(d->hi) + "]");
                dst[i] = int(v);
            }
        }
    }
    line_no = 0;  // errors below concern the whole file
    if (!have_name) {
        if (error) *error = source + ": no 'profile NAME' line";
        return false;
    }
    if (!have_base)
        for (const WeightDesc& d : weight_descs())
            if (d.used(w) && !d.group_switch && !seen.count(d.name)) {
                if (error) *error = source + ": weight '" + std::string(d.name) + "' missing (give every weight, or start with 'base PROFILE')";
                return false;
            }
    out = w;
    return true;
}

}  // namespace quince::eval
