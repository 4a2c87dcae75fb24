#include "search/features.h"

#include <algorithm>
#include <cctype>
#include <optional>

#include "core/text.h"

namespace quince::search {

namespace {

// Splits a comma- or space-separated list of names (lower-cased; "none" and "<empty>" skipped) and maps
// each through `find`. Returns the bit mask of the names, or nothing with *error naming the first unknown one.
template <typename Find>
std::optional<std::uint32_t> parse_names(std::string_view list, Find find, const std::string& what,
                                         const std::string& known, std::string* error) {
    std::uint32_t mask = 0;
    std::size_t i = 0;
    while (i < list.size()) {
        while (i < list.size() && (list[i] == ',' || std::isspace(static_cast<unsigned char>(list[i])))) ++i;
        std::size_t j = i;
        while (j < list.size() && list[j] != ',' && !std::isspace(static_cast<unsigned char>(list[j]))) ++j;
        if (j == i) break;
        const std::string name = ascii_lower(list.substr(i, j - i));
        i = j;
        if (name == "none" || name == "<empty>") continue;
        const std::optional<unsigned> index = find(name);
        if (!index) {
            if (error) *error = "unknown " + what + " '" + printable(name) + "' (known: " + known + ")";
            return std::nullopt;
        }
        mask |= std::uint32_t(1) << *index;
    }
    return mask;
}

}  // namespace

bool SearchFeatures::parse_disabled(std::string_view list, std::string* error) {
    auto find = [](const std::string& name) -> std::optional<unsigned> {
        for (const FeatureInfo& f : FEATURES)
            if (name == f.name) return unsigned(f.feature);
        return std::nullopt;
    };
    const std::optional<std::uint32_t> mask = parse_names(list, find, "search feature", all_names(), error);
    if (!mask) return false;
    disabled_ = *mask;
    return true;
}

bool SearchFeatures::parse_enabled(std::string_view list, std::string* error) {
    auto find = [](const std::string& name) -> std::optional<unsigned> {
        for (const TrialInfo& c : TRIALS)
            if (name == c.name) return unsigned(c.trial);
        return std::nullopt;
    };
    const std::optional<std::uint32_t> mask = parse_names(list, find, "search trial rule", trial_names(), error);
    if (!mask) return false;
    enabled_ = *mask;
    return true;
}

std::string SearchFeatures::disabled_list() const {
    std::string out;
    for (const FeatureInfo& f : FEATURES)
        if (!on(f.feature)) {
            if (!out.empty()) out += ',';
            out += f.name;
        }
    return out.empty() ? "none" : out;
}

std::string SearchFeatures::enabled_list() const {
    std::string out;
    for (const TrialInfo& c : TRIALS)
        if (on(c.trial)) {
            if (!out.empty()) out += ',';
            out += c.name;
        }
    return out.empty() ? "none" : out;
}

std::string SearchFeatures::all_names() {
    std::string out;
    for (const FeatureInfo& f : FEATURES) {
        if (!out.empty()) out += ',';
        out += f.name;
    }
    return out;
}

std::string SearchFeatures::trial_names() {
    std::string out;
    for (const TrialInfo& c : TRIALS) {
        if (!out.empty()) out += ',';
        out += c.name;
    }
    return out.empty() ? "none" : out;
}

}  // namespace quince::search
