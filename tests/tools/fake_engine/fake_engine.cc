// A minimal UCI engine for the match-runner tests. It plays the first legal move (or a seeded pseudo-random one)
// and can misbehave on purpose. (.cc, not .cpp: the test glob must not pull this main() into quince_tests.)
//   --mode normal|slow|crash|illegal|nobestmove|spam|silent-start|slow-start
//   --after N        misbehave from the N-th "go" of this process on (default 1)
//   --delay MS       slow mode: time spent before answering; slow-start: before uciok
//   --once FILE      misbehave only if FILE does not exist yet (and create it): the restarted engine is healthy
//   --score CP       the score reported in the info line (default 0)
//   --random SEED    pick a pseudo-random legal move instead of the first one
//   --count-score 1  report as score the number of "go"s since the last ucinewgame (a teacher with state)
//   --mate-when w|b  report "score mate 3" when that side is to move
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>

#include "board/movegen.h"
#include "board/notation.h"
#include "board/position.h"

using namespace quince;

int main(int argc, char** argv) {
    std::string mode = "normal", once_file, mate_when;
    bool count_score = false;
    int after = 1, delay_ms = 0, score = 0;
    std::uint64_t random_seed = 0;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string key = argv[i], value = argv[i + 1];
        if (key == "--mode") mode = value;
        else if (key == "--after") after = std::atoi(value.c_str());
        else if (key == "--delay") delay_ms = std::atoi(value.c_str());
        else if (key == "--once") once_file = value;
        else if (key == "--score") score = std::atoi(value.c_str());
        else if (key == "--count-score") count_score = value == "1";
        else if (key == "--mate-when") mate_when = value;
        else if (key == "--random") random_seed = std::strtoull(value.c_str(), nullptr, 10);
    }
    if (!once_file.empty()) {
        if (std::ifstream(once_file).good()) mode = "normal";
        // The file is created when the misbehaviour actually happens.
    }
    auto misbehave_now = [&](int go_count) {
        if (mode == "normal" || go_count < after) return false;
        if (!once_file.empty()) std::ofstream(once_file) << "done\n";
        return true;
    };

    Position pos;
    bool chess960 = false;
    int go_count = 0, goes_this_game = 0;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd;
        in >> cmd;
        if (cmd == "uci") {
            if (mode == "silent-start") continue;
            if (mode == "slow-start") std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            std::cout << "id name FakeEngine " << mode << "\nid author test\noption name Hash type spin default 1 min 1 max 64\noption name UCI_Chess960 type check default false\nuciok" << std::endl;
        } else if (cmd == "setoption") {
            chess960 = chess960 || line == "setoption name UCI_Chess960 value true";
            // Two ways engines refuse an option: Quince's and Stockfish's.
            if (line.rfind("setoption name Refused ", 0) == 0) std::cout << "info string error: setoption: bad value" << std::endl;
            if (line.rfind("setoption name Unknown ", 0) == 0) std::cout << "No such option: Unknown" << std::endl;
            if (line.rfind("setoption name Chatty ", 0) == 0) std::cout << "info string Chatty set" << std::endl;
        } else if (cmd == "ucinewgame") {
            goes_this_game = 0;
        } else if (cmd == "isready") {
            std::cout << "readyok" << std::endl;
        } else if (cmd == "position") {
            std::string kind, token;
            in >> kind;
            std::string fen = Position::START_FEN;
            if (kind == "fen") {
                fen.clear();
                while (in >> token && token != "moves") fen += (fen.empty() ? "" : " ") + token;
            } else {
                in >> token;  // "moves" or nothing
            }
            pos.set_fen(fen, chess960);
            while (in >> token) {
                Move m = uci_to_move(pos, token);
                if (m == Move::none()) break;
                pos.do_move(m);
            }
        } else if (cmd == "go") {
            ++go_count;
            ++goes_this_game;
            const std::string action = misbehave_now(go_count) ? mode : "normal";
            if (action != "normal" && !once_file.empty()) mode = "normal";  // --once: a single misbehaviour
            if (action == "crash") std::_Exit(3);
            if (action == "nobestmove") continue;
            if (action == "slow") std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
            if (action == "spam")
                for (int i = 0; i < 20000; ++i)
                    std::cout << "info depth " << i % 50 << " nodes " << i * 1000 << " nps 1000000 currmove e2e4 currmovenumber 1 hashfull 0\n";
            MoveList<LEGAL> moves(pos);
            std::string best = "0000";
            if (moves.size() > 0) {
                std::size_t pick = random_seed ? std::size_t((pos.key() ^ random_seed) * 0x9E3779B97F4A7C15ULL >> 40) % moves.size() : 0;
                best = move_to_uci(moves.begin()[pick].move, chess960);
            }
            if (action == "illegal") best = "a1a1";
            const bool mate = !mate_when.empty() && mate_when == (pos.side_to_move() == WHITE ? "w" : "b");
            std::cout << "info depth 1 score " << (mate ? "mate 3" : "cp " + std::to_string(count_score ? goes_this_game : score))
                      << " nodes 1 pv " << best << "\nbestmove " << best << std::endl;
        } else if (cmd == "quit") {
            break;
        }
    }
    return 0;
}
