#include "rescore.h"

#include <algorithm>
#include <deque>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>
#include <tuple>

#include "options.h"
#include "tournament.h"

namespace quince::match {

namespace {

// Half points of White: 2, 1, 0; -1 for an unfinished game.
int white_half_points(const std::string& result) {
    if (result == "1-0") return 2;
    if (result == "1/2-1/2") return 1;
    if (result == "0-1") return 0;
    return -1;
}

}  // namespace

std::string rescore_games(const std::vector<std::vector<game::Game>>& files, const SprtConfig& sprt) {
    // Engines in order of first appearance, with their game counts (the point of view of each pairing).
    std::vector<std::string> names;
    std::map<std::string, int> games_of;
    int unfinished = 0;
    for (const auto& file : files)
        for (const game::Game& g : file) {
            if (white_half_points(g.result) < 0) continue;
            for (const std::string& name : {g.tag("White"), g.tag("Black")})
                if (games_of[name]++ == 0) names.push_back(name);
        }
    auto index_of = [&](const std::string& name) {
        return int(std::find(names.begin(), names.end(), name) - names.begin());
    };
    auto before = [&](int a, int b) {  // is a the point of view of the pairing {a, b}?
        const int ga = games_of[names[std::size_t(a)]], gb = games_of[names[std::size_t(b)]];
        return ga != gb ? ga > gb : a < b;
    };

    TournamentConfig config;
    for (const std::string& name : names) {
        EngineConfig engine;
        engine.name = name;
        config.engines.push_back(engine);
    }
    TournamentSummary summary;
    std::map<std::pair<int, int>, std::size_t> pairing_of;           // (first, second) -> summary.pairings index
    std::vector<std::map<std::string, int>> terminations;            // per pairing
    auto pairing = [&](int a, int b) -> std::size_t {
        if (!before(a, b)) std::swap(a, b);
        auto [it, added] = pairing_of.try_emplace({a, b}, summary.pairings.size());
        if (added) {
            summary.pairings.push_back(PairingResult{a, b, {}});
            terminations.emplace_back();
        }
        return it->second;
    };

    for (const auto& file : files) {
        // Unpaired games by (FEN, white, black), waiting for the game with the colours reversed.
        std::map<std::tuple<std::string, int, int>, std::deque<int>> waiting;
        for (const game::Game& g : file) {
            const int white_points = white_half_points(g.result);
            if (white_points < 0) {
                ++unfinished;
                continue;
            }
            const int white = index_of(g.tag("White")), black = index_of(g.tag("Black"));
            const std::size_t p = pairing(white, black);
            PairingResult& pr = summary.pairings[p];
            const int first_points = pr.first == white ? white_points : 2 - white_points;
            MatchStats& st = pr.stats;
            (first_points == 2 ? st.wins : first_points == 1 ? st.draws : st.losses) += 1;
            ++terminations[p][g.tag("Termination").empty() ? "unknown" : g.tag("Termination")];

            const std::string fen = g.tag("FEN");
            auto partner = waiting.find({fen, black, white});
            if (partner != waiting.end() && !partner->second.empty()) {
                st.pairs[std::size_t(first_points + partner->second.front())] += 1;
                partner->second.pop_front();
            } else {
                waiting[{fen, white, black}].push_back(first_points);
            }
        }
    }

    if (sprt.enabled && summary.pairings.size() == 1) {
        config.sprt = sprt;
        summary.sprt_llr = sprt_llr(summary.pairings[0].stats.pairs, sprt.elo0, sprt.elo1);
        summary.sprt_decision = sprt_decide(summary.sprt_llr, sprt);
    }
    std::ostringstream out;
    out << format_report(config, summary);
    for (std::size_t p = 0; p < summary.pairings.size(); ++p) {
        const PairingResult& pr = summary.pairings[p];
        out << "Terminations " << names[std::size_t(pr.first)] << " vs " << names[std::size_t(pr.second)] << ":";
        const char* separator = " ";
        for (const auto& [termination, count] : terminations[p]) {
            out << separator << termination << " " << count;
            separator = ", ";
        }
        out << "\n";
    }
    if (unfinished) out << "Skipped " << unfinished << " game(s) without a result\n";
    return out.str();
}

bool parse_rescore_arguments(const std::vector<std::string>& args, std::vector<std::string>* files, SprtConfig* sprt,
                             std::string* error) {
    bool in_sprt = false;
    for (const std::string& a : args) {
        if (a == "-sprt") {
            if (in_sprt) return *error = "-sprt given twice", false;
            in_sprt = sprt->enabled = true;
        } else if (in_sprt) {
            const std::size_t eq = a.find('=');
            if (eq == std::string::npos) return *error = "-sprt: expected key=value after it, got '" + a + "'", false;
            if (!parse_sprt_setting(a.substr(0, eq), a.substr(eq + 1), sprt))
                return *error = "-sprt: bad setting '" + a + "'", false;
        } else if (a.size() > 1 && a[0] == '-') {
            return *error = "-rescore: unknown option '" + a + "'", false;
        } else {
            files->push_back(a);
        }
    }
    if (files->empty()) return *error = "-rescore needs at least one PGN file", false;
    if (sprt->enabled && !(sprt->elo1 > sprt->elo0)) return *error = "-sprt needs elo1 > elo0", false;
    return true;
}

bool rescore_pgn_files(const std::vector<std::string>& paths, std::string* report, std::string* error,
                       const SprtConfig& sprt) {
    std::vector<std::vector<game::Game>> files;
    for (const std::string& path : paths) {
        std::ifstream in(path, std::ios::binary);
        if (!in) return *error = "cannot open " + path, false;
        const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        files.emplace_back();
        game::PgnError e;
        if (!game::read_pgn(text, &files.back(), &e)) return *error = path + ": " + e.text(), false;
    }
    *report = rescore_games(files, sprt);
    if (sprt.enabled && report->find("SPRT (") == std::string::npos)
        return *error = "-sprt: the games are not of one pairing", false;
    return true;
}

}  // namespace quince::match
