#include "engines.h"

#include <filesystem>
#include <map>
#include <sstream>

#include "core/text.h"
#include "eval/profile.h"

namespace quince::similarity {

namespace {

std::vector<std::string> split(const std::string& s, char at) {
    std::vector<std::string> parts;
    std::size_t from = 0;
    for (;;) {
        const std::size_t to = s.find(at, from);
        parts.push_back(s.substr(from, to == std::string::npos ? std::string::npos : to - from));
        if (to == std::string::npos) return parts;
        from = to + 1;
    }
}

}  // namespace

bool parse_engine(const std::string& text, const std::string& quince_path, EngineSpec* out, std::string* error) {
    const std::string quoted = "engine '" + printable(text) + "': ";
    for (char c : text)
        if (c == '\t' || c == '\n' || c == '\r') {
            *error = quoted + "tabs and line breaks are not allowed";
            return false;
        }
    const std::vector<std::string> parts = split(text, ':');
    EngineSpec spec;
    spec.text = text;
    std::size_t first_option = 1;
    if (parts[0] == "profile") {
        if (parts.size() < 2 || trim(parts[1]).empty()) {
            *error = quoted + "expected profile:NAME or profile:FILE";
            return false;
        }
        spec.is_profile = true;
        spec.profile = parts[1];
        first_option = 2;
        spec.command = quince_path;
        // No Move Overhead: there is no clock to protect, and a search of `go movetime` should use all of it.
        spec.options = {{"Threads", "1"}, {"Hash", "16"}, {"Move Overhead", "0"}};
        if (eval::builtin_kind(spec.profile, nullptr)) {  // a network's name too: EvalProfile takes it
            spec.options.push_back({"EvalProfile", spec.profile});
            spec.label = spec.profile;
        } else {
            std::string why;
            auto p = eval::load_profile_file(spec.profile, &why);
            if (!p) {
                *error = quoted + "'" + printable(spec.profile) + "' is no built-in profile (" + eval::known_profiles() +
                         ") and as a file: " + why;
                return false;
            }
            // The child may run elsewhere one day; an absolute path means the same file.
            spec.options.push_back({"EvalFile", std::filesystem::absolute(spec.profile).string()});
            spec.label = std::filesystem::path(spec.profile).filename().string();
        }
    } else {
        std::istringstream words(parts[0]);
        std::string w;
        while (words >> w) (spec.command.empty() ? spec.command : spec.args.emplace_back()) = w;
        if (spec.command.empty()) {
            *error = quoted + "no command before the first ':'";
            return false;
        }
        spec.label = std::filesystem::path(spec.command).filename().string();
    }
    for (std::size_t i = first_option; i < parts.size(); ++i) {
        const std::size_t eq = parts[i].find('=');
        const std::string name = eq == std::string::npos ? "" : trim(parts[i].substr(0, eq));
        if (name.empty()) {
            *error = quoted + "option '" + printable(parts[i]) + "' is not Name=Value";
            return false;
        }
        const std::string value = trim(parts[i].substr(eq + 1));
        bool replaced = false;  // a profile's own Threads or Hash replaces the default
        for (auto& [n, v] : spec.options)
            if (n == name) v = value, replaced = true;
        if (!replaced) spec.options.push_back({name, value});
    }
    *out = std::move(spec);
    return true;
}

void label_engines(std::vector<EngineSpec>& engines) {
    std::map<std::string, int> seen;
    for (EngineSpec& e : engines) {
        const int n = ++seen[e.label];
        if (n > 1) e.label += " (" + std::to_string(n) + ")";
    }
}

std::string EngineSpec::key() const {
    if (!is_profile) return text;
    std::string k = text + " {";
    for (std::size_t i = 0; i < options.size(); ++i) k += (i ? ", " : "") + options[i].first + "=" + options[i].second;
    return k + "}";
}

match::EngineConfig engine_config(const EngineSpec& spec) {
    match::EngineConfig c;
    c.name = spec.label;
    c.command = spec.command;
    c.args = spec.args;
    c.options = spec.options;
    c.protocol_timeout_ms = 10000;
    return c;
}

}  // namespace quince::similarity
