#include "tournament.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "pgn.h"

namespace quince::match {

namespace {
std::atomic<bool> stop_requested{false};
}

void request_stop() { stop_requested.store(true); }

std::vector<GameTask> schedule_games(const TournamentConfig& config, std::vector<PairingResult>* pairings) {
    pairings->clear();
    const int n = int(config.engines.size());
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (config.type == "round-robin" || i == 0) pairings->push_back(PairingResult{i, j, {}});
    const int per_pairing = config.games * config.rounds;
    const int pair_count = (per_pairing + 1) / 2;
    std::vector<GameTask> tasks;
    // Pair-major order: every pairing advances together, and a pair's two games are adjacent so that
    // pentanomial statistics (and the SPRT) get complete pairs early.
    for (int p = 0; p < pair_count; ++p)
        for (int k = 0; k < int(pairings->size()); ++k)
            for (int g = 0; g < 2 && 2 * p + g < per_pairing; ++g) {
                const PairingResult& pr = (*pairings)[std::size_t(k)];
                GameTask t;
                t.pairing = k;
                t.first_of_pair = g == 0;
                t.white = g == 0 ? pr.first : pr.second;
                t.black = g == 0 ? pr.second : pr.first;
                t.opening_pair = std::size_t(p);
                t.number = int(tasks.size()) + 1;
                tasks.push_back(t);
            }
    return tasks;
}

namespace {

// Score of the pairing's first engine in half points (0, 1, 2).
int first_engine_half_points(const GameTask& task, GameResult r) {
    if (r == GameResult::Draw) return 1;
    bool white_won = r == GameResult::WhiteWins;
    bool first_is_white = task.first_of_pair;
    return white_won == first_is_white ? 2 : 0;
}

std::string sprt_text(const TournamentConfig& config, double llr) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "LLR %.2f [%.2f, %.2f] (elo0 %.1f, elo1 %.1f)", llr, config.sprt.lower_bound(),
                  config.sprt.upper_bound(), config.sprt.elo0, config.sprt.elo1);
    return buf;
}

std::string duration_text(double seconds) {
    char buf[32];
    long s = long(seconds + 0.5);
    if (s >= 3600) std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
    else std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
    return buf;
}

std::string progress_line(const TournamentConfig& config, const TournamentSummary& s, const GameTask& task,
                          const GameRecord& game, double elapsed_seconds) {
    const PairingResult& pr = s.pairings[std::size_t(task.pairing)];
    const MatchStats& st = pr.stats;
    std::ostringstream out;
    char score[32];
    std::snprintf(score, sizeof score, "%.3f", st.score());
    out << "[" << s.games_played << "/" << s.games_scheduled << "] game " << task.number << " " << game.white
        << " vs " << game.black << ": " << result_text(game.outcome.result) << " {" << game.outcome.reason << "}"
        << " | " << config.engines[std::size_t(pr.first)].name << " vs " << config.engines[std::size_t(pr.second)].name
        << " W-D-L " << st.wins << "-" << st.draws << "-" << st.losses << " [" << score << "] Elo "
        << format_elo(st.elo_trinomial());
    if (config.sprt.enabled) out << " | " << sprt_text(config, s.sprt_llr);
    double eta = elapsed_seconds / s.games_played * (s.games_scheduled - s.games_played);
    out << " | " << duration_text(elapsed_seconds) << " ETA " << duration_text(eta);
    return out.str();
}

}  // namespace

std::string format_report(const TournamentConfig& config, const TournamentSummary& s) {
    std::ostringstream out;
    char buf[256];
    for (const PairingResult& pr : s.pairings) {
        const MatchStats& st = pr.stats;
        const std::string& a = config.engines[std::size_t(pr.first)].name;
        const std::string& b = config.engines[std::size_t(pr.second)].name;
        std::snprintf(buf, sizeof buf, "Score of %s vs %s: %d - %d - %d  [%.3f] %d games (W - L - D)\n", a.c_str(),
                      b.c_str(), st.wins, st.losses, st.draws, st.score(), st.games());
        out << buf;
        EloEstimate tri = st.elo_trinomial();
        EloEstimate penta = st.elo_pentanomial();
        std::snprintf(buf, sizeof buf, "Elo difference: %s (95%%), LOS: %.1f %%, DrawRatio: %.1f %%\n",
                      format_elo(tri).c_str(), 100 * st.los(), 100 * st.draw_ratio());
        out << buf;
        std::snprintf(buf, sizeof buf,
                      "Pentanomial [LL, LD, DD/WL, WD, WW]: [%d, %d, %d, %d, %d] over %d pairs, Elo %s (95%%)\n",
                      st.pairs[0], st.pairs[1], st.pairs[2], st.pairs[3], st.pairs[4], st.pair_count(),
                      format_elo(penta).c_str());
        out << buf;
        auto number = [](double v) {
            char text[32];
            if (std::isfinite(v)) std::snprintf(text, sizeof text, "%.1f", v);
            else std::snprintf(text, sizeof text, "%s", v > 0 ? "inf" : "-inf");
            return std::string(text);
        };
        std::snprintf(buf, sizeof buf, "Summary: %s vs %s games=%d W=%d D=%d L=%d elo=%s error=%s\n", a.c_str(),
                      b.c_str(), st.games(), st.wins, st.draws, st.losses, number(tri.elo).c_str(),
                      number(tri.error).c_str());
        out << buf;
    }
    if (config.sprt.enabled) {
        const char* verdict = s.sprt_decision == SprtDecision::AcceptH1   ? "H1 accepted"
                              : s.sprt_decision == SprtDecision::AcceptH0 ? "H0 accepted"
                                                                          : "no decision";
        std::snprintf(buf, sizeof buf, "SPRT (logistic Elo, pentanomial GSPRT, alpha %.3f beta %.3f): %s: %s\n",
                      config.sprt.alpha, config.sprt.beta, sprt_text(config, s.sprt_llr).c_str(), verdict);
        out << buf;
    }
    for (std::size_t e = 0; e < s.incidents.size(); ++e) {
        const EngineIncidents& inc = s.incidents[e];
        std::snprintf(buf, sizeof buf, "Incidents %s: time forfeits %d, crashes %d, illegal moves %d, missing bestmove %d, "
                      "late moves inside the margin %d\n",
                      config.engines[e].name.c_str(), inc.time_forfeits, inc.crashes, inc.illegal_moves,
                      inc.missing_bestmoves, inc.late_moves);
        out << buf;
    }
    return out.str();
}

TournamentSummary run_tournament(const TournamentConfig& config, std::ostream& out) {
    TournamentSummary summary;
    OpeningBook book;
    if (!book.load(config.openings, &summary.error)) return summary;
    std::vector<GameTask> tasks = schedule_games(config, &summary.pairings);
    summary.games_scheduled = int(tasks.size());
    summary.incidents.assign(config.engines.size(), {});

    // An engine that cannot even start would lose every game: better to stop right away.
    for (const EngineConfig& e : config.engines) {
        UciEngine probe(e);
        std::string why;
        if (!probe.start(&why)) {
            summary.error = "engine " + e.name + " does not start: " + why;
            return summary;
        }
        out << "Engine " << e.name << " (" << probe.id_name() << "): " << e.tc.describe() << "\n";
        for (const std::string& option : probe.unknown_options())
            out << "Warning: engine " << e.name << " has no option '" << option << "' (sent anyway)\n";
        probe.quit();
    }
    std::ofstream pgn;
    if (!config.pgn_out.empty()) {
        pgn.open(config.pgn_out, std::ios::app);
        if (!pgn) {
            summary.error = "cannot write " + config.pgn_out;
            return summary;
        }
    }
    out << "Openings: " << (config.openings.file.empty() ? "start position" : config.openings.file) << " ("
        << book.size() << "), games: " << tasks.size() << ", concurrency: " << config.concurrency << std::endl;

    const auto match_start = std::chrono::steady_clock::now();
    std::mutex mutex;
    std::size_t next_task = 0;
    bool stop = false;
    // First game's half points of each unfinished pair, keyed by (pairing, opening pair).
    std::map<std::pair<int, std::size_t>, int> open_pairs;

    auto worker = [&]() {
        std::map<int, std::unique_ptr<UciEngine>> engines;
        auto engine = [&](int index) -> UciEngine& {
            auto& slot = engines[index];
            if (!slot) slot = std::make_unique<UciEngine>(config.engines[std::size_t(index)]);
            return *slot;
        };
        for (;;) {
            GameTask task;
            {
                std::lock_guard<std::mutex> lock(mutex);
                if (stop || stop_requested.load() || next_task >= tasks.size()) break;
                task = tasks[next_task++];
            }
            GameRecord game = play_game(engine(task.white), engine(task.black), book.at(task.opening_pair),
                                        config.adjudication);
            game.round = task.number;
            game.opening_index = int(book.index_of(task.opening_pair));

            std::lock_guard<std::mutex> lock(mutex);
            ++summary.games_played;
            if (pgn.is_open()) pgn << format_pgn(game, config.event, task.number) << std::flush;
            const Outcome& o = game.outcome;
            summary.incidents[std::size_t(task.white)].late_moves += game.late_moves[WHITE];
            summary.incidents[std::size_t(task.black)].late_moves += game.late_moves[BLACK];
            if (o.incident != Incident::None) {
                int loser = o.offender == WHITE ? task.white : task.black;
                EngineIncidents& inc = summary.incidents[std::size_t(loser)];
                if (o.incident == Incident::TimeForfeit) ++inc.time_forfeits;
                else if (o.incident == Incident::Crash) ++inc.crashes;
                else if (o.incident == Incident::IllegalMove) ++inc.illegal_moves;
                else ++inc.missing_bestmoves;
                out << "Warning: game " << task.number << ": " << o.reason
                    << (game.error.empty() ? "" : " (" + game.error + ")") << "\n";
            }
            if (o.result == GameResult::None) {
                out << "Error: game " << task.number << " not played: " << o.reason << "\n";
            } else {
                MatchStats& st = summary.pairings[std::size_t(task.pairing)].stats;
                int hp = first_engine_half_points(task, o.result);
                (hp == 2 ? st.wins : hp == 1 ? st.draws : st.losses)++;
                auto key = std::make_pair(task.pairing, task.opening_pair);
                auto it = open_pairs.find(key);
                if (it == open_pairs.end()) {
                    open_pairs[key] = hp;
                } else {
                    ++st.pairs[std::size_t(it->second + hp)];
                    open_pairs.erase(it);
                }
                if (config.sprt.enabled) {
                    summary.sprt_llr = sprt_llr(st.pairs, config.sprt.elo0, config.sprt.elo1);
                    summary.sprt_decision = sprt_decide(summary.sprt_llr, config.sprt);
                    if (summary.sprt_decision != SprtDecision::Continue) stop = true;
                }
            }
            double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - match_start).count();
            out << progress_line(config, summary, task, game, elapsed) << std::endl;
            if (config.rating_interval > 0 && summary.games_played % config.rating_interval == 0 &&
                summary.games_played < summary.games_scheduled)
                out << format_report(config, summary) << std::flush;
        }
        for (auto& [index, e] : engines) e->quit();
    };

    std::vector<std::thread> threads;
    for (int i = 0; i < std::max(config.concurrency, 1); ++i) threads.emplace_back(worker);
    for (std::thread& t : threads) t.join();
    if (summary.sprt_decision != SprtDecision::Continue) out << "SPRT decision reached: stopping early.\n";
    if (stop_requested.load()) out << "Interrupted: stopped after " << summary.games_played << " games.\n";
    out << "Finished match\n" << format_report(config, summary) << std::flush;
    return summary;
}

}  // namespace quince::match
