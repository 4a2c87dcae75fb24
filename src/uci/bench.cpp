// `bench`: a fixed set of positions searched to a fixed depth. The node total is a fingerprint of
// the search (same build = same number) and the speed a quick performance check.
#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "uci/uci.h"

namespace quince::uci {

const std::vector<std::string>& bench_positions() {
    // Drawn from the shared test suites (WAC, EET, STS, 8-move openings, perft) to mix openings,
    // middlegames, tactics and endgames.
    static const std::vector<std::string> positions = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3r1k1/5pp1/p1p4p/2Pp4/8/q1NQP1BP/5PP1/4K2R b K - 0 1",
        "r2q3r/ppp2k2/4nbp1/5Q1p/2P1NB2/8/PP3P1P/3RR1K1 w - - 0 1",
        "r4rk1/5ppp/p3q1n1/2p2NQ1/4n3/P3P3/1B3PPP/1R3RK1 w - - 0 1",
        "3R1rk1/8/5Qpp/2p5/2P1p1q1/P3P3/1P2PK2/8 b - - 0 1",
        "4k3/p4prp/1p6/2b5/8/2Q3P1/P2R1PKP/4q3 w - - 0 1",
        "r1b2rk1/1p1n1ppp/p1p2q2/4p3/P1B1Pn2/1QN2N2/1P3PPP/3R1RK1 b - - 0 1",
        "2b3k1/4rrpp/p2p4/2pP2RQ/1pP1Pp1N/1P3P1P/1q6/6RK w - - 0 1",
        "3RNbk1/pp3p2/4rQpp/8/1qr5/7P/P4P2/3R2K1 w - - 0 1",
        "1n2rr2/1pk3pp/pNn2p2/2N1p3/8/6P1/PP2PPKP/2RR4 w - - 0 1",
        "1r3r2/4q1kp/b1pp2p1/5p2/pPn1N3/6P1/P3PPBP/2QRR1K1 w - - 0 1",
        "2r2b1r/p1Nk2pp/3p1p2/N2Qn3/4P3/q6P/P4PP1/1R3K1R w - - 0 1",
        "2kr4/bp3p2/p2p2b1/P7/2q5/1N4B1/1PPQ2P1/2KR4 b - - 0 1",
        "r2qkb1r/1ppb1ppp/p7/4p3/P1Q1P3/2P5/5PPP/R1B2KNR b kq - 0 1",
        "7k/2p1b1pp/8/1p2P3/1P3r2/2P3Q1/1P5P/R4qBK b - - 0 1",
        "r1bqk2r/pp3ppp/5n2/8/1b1npB2/2N5/PP1Q2PP/1K2RBNR w kq - 0 1",
        "3r2k1/pb1q1pp1/1p2pb1p/8/3N4/P2QB3/1P3PPP/1Br1R1K1 w - - 0 1",
        "3r4/2p1rk2/1pQq1pp1/7p/1P1P4/P4P2/6PP/R1R3K1 b - - 0 1",
        "6k1/3r4/2R5/P5P1/1P4p1/8/4rB2/6K1 b - - 0 1",
        "8/6pk/8/2p2P1p/6qP/5QP1/8/6K1 w - - 0 1",
        "5k2/1p6/1P1p4/1K1p2p1/PB1P2P1/3pR2p/1P2p1pr/8 w - - 0 1",
        "8/2R4p/4k3/1p2P3/pP3PK1/r7/8/8 b - - 0 1",
        "8/1Pk2Kpp/8/8/4nPP1/7P/8/8 b - - 0 1",
        "3R3B/8/1r4b1/8/4pP2/7k/8/7K w - - 0 1",
        "6k1/1p2p1bp/p5p1/4pb2/1q6/4Q3/1P2BPPP/2R3K1 w - - 0 1",
        "6k1/r2rbpp1/p1q2n2/1pp2PB1/5Q2/1PN1R2P/1P3P2/4R1K1 w - - 0 1",
        "r3r1k1/4npbp/bqnpp1p1/2p3P1/1p2PP2/3PN3/1PPQNBBP/1R3RK1 b - - 0 1",
        "r2r2k1/ppq2pp1/2p1pnbp/8/3P3P/1QP2P2/P3P2P/R1B2BRK w - - 0 1",
        "r5k1/3pppbp/6p1/4n3/1q2P3/4B3/P4PPP/2RQ1K1R w - - 0 1",
        "2r3n1/p1p3kp/1q2p2p/4Pp2/1P4N1/P5P1/1Q3P2/2R3K1 w - - 0 1",
        "r2r2k1/pN3p1p/2n1pp2/4q3/2P1P3/1Q6/P4PPP/R4RK1 b - - 0 1",
        "r7/4kp2/3Rp2b/2p1P3/bp3P1P/rB2N3/P1P5/1K1R4 w - - 0 1",
        "1r2r1k1/2qp1ppp/2p2n2/4p3/1P6/2PBQ1P1/P4P1P/R4RK1 w - - 0 1",
        "8/k7/p7/3Qp2P/n1P5/3KP3/1q6/8 b - - 0 1",
        "1k6/5RP1/1P6/1K6/6r1/8/8/8 w - - 0 1",
        "5k2/7R/8/4Kp2/5Pp1/P5rp/1P6/8 w - - 0 1",
        "2k5/3b4/PP3K2/7p/4P3/1P6/8/8 w - - 0 1",
        "8/3p3B/5p2/5P2/p7/PP5b/k7/6K1 w - - 0 1",
        "k2K4/1p4pN/P7/1p3P2/pP6/8/8/8 w - - 0 1",
        "8/3Pb1p1/8/3P2P1/5P2/7k/4K3/8 w - - 0 1",
        "r3kb1r/pppq1ppp/3p1n2/8/3n4/1P2P3/PBP2PPP/RN1QK2R w KQkq - 0 1",
        "rn1q1rk1/ppp1ppbp/5np1/3bN3/3P4/5NP1/PP2PPBP/R1BQK2R w KQ - 0 1",
        "rnb1kb1r/pp3ppp/2p2n2/7q/8/1NNp2P1/PP2PP1P/R1BQKB1R w KQkq - 0 1",
        "r1bqk2r/ppp1p1bp/3p1np1/3P1p2/8/1P3nP1/PBP1PPBP/R2QK1NR w KQkq - 0 1",
        "rnbq1rk1/1pp2pp1/p3pb1p/3p4/2PP4/2N1PN2/PP3PPP/2RQKB1R w K - 0 1",
        "r2qk2r/pppn1ppp/4pn2/7b/1bBPP3/2N2N1P/PP3PP1/R1BQK2R w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
        "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
    };
    return positions;
}

std::uint64_t run_bench(int depth, const std::function<void(const std::string&)>& print,
                        const std::atomic<bool>* cancel, eval::EvalPtr evaluation) {
    // A private engine: the caller's hash size, threads and histories stay untouched.
    search::Engine engine;
    engine.set_hash(16);
    engine.set_eval(std::move(evaluation));  // null: the default stays
    search::Limits limits;
    limits.depth = depth;
    search::SearchOptions options;
    options.silent = true;
    std::uint64_t total = 0;
    auto start = std::chrono::steady_clock::now();
    int searched = 0;
    for (const std::string& fen : bench_positions()) {
        Position pos;
        std::string error;
        if (!pos.set_fen(fen, false, &error)) {
            print("info string error: bench position rejected: " + error);
            continue;
        }
        engine.new_game();
        engine.go(pos, limits, options);
        // Polled rather than waited on, so that a cancel reaches the running search within a millisecond.
        while (cancel && engine.searching() && !cancel->load(std::memory_order_relaxed))
            std::this_thread::sleep_for(std::chrono::milliseconds(1));
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            engine.stop();
            engine.wait();
            print("info string bench stopped: " + std::to_string(searched) + " of " +
                  std::to_string(bench_positions().size()) + " positions searched, " + std::to_string(total) +
                  " nodes");
            return total;
        }
        engine.wait();
        total += engine.last_result().nodes;
        ++searched;
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    print("Total time (ms) : " + std::to_string(std::int64_t(secs * 1000)));
    print("Nodes searched: " + std::to_string(total));
    print("Nodes/second: " + std::to_string(std::uint64_t(double(total) / std::max(secs, 1e-3))));
    return total;
}

}  // namespace quince::uci
