#include "search/features.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"

namespace quince::search {

bool SearchFeatures::parse_disabled(std::string_view list, std::string* error) {
    SearchFeatures parsed;
    std::size_t i = 0;
    while (i < list.size()) {
        while (i < list.size() && (list[i] == ',' || std::isspace(static_cast<unsigned char>(list[i])))) ++i;
        std::size_t j = i;
        while (j < list.size() && list[j] != ',' && !std::isspace(static_cast<unsigned char>(list[j]))) ++j;
        if (j == i) break;
        const std::string name = ascii_lower(list.substr(i, j - i));
        i = j;
        if (name == "none" || name == "<empty>") continue;
        auto it = std::find_if(std::begin(FEATURES), std::end(FEATURES),
                               [&](const FeatureInfo& f) { return name == f.name; });
        if (it == std::end(FEATURES)) {
            if (error) *error = "unknown search feature '" + printable(name) + "' (known: " + all_names() + ")";
            return false;
        }
        parsed.set(it->feature, false);
    }
    *this = parsed;
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

std::string SearchFeatures::all_names() {
    std::string out;
    for (const FeatureInfo& f : FEATURES) {
        if (!out.empty()) out += ',';
        out += f.name;
    }
    return out;
}

}  // namespace quince::search
