// quince-epd: reading EPD records, judging moves by bm/am/c0, and solving positions in-process.
#include <gtest/gtest.h>

#include "board/notation.h"
#include "epd/suite.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using namespace quince::epd;

namespace {

Problem problem_of(const std::string& line) {
    Record r;
    std::string error;
    EXPECT_TRUE(parse_record(line, &r, &error)) << error;
    Problem p;
    EXPECT_TRUE(make_problem(r, &p, &error)) << error;
    return p;
}

Move san(const Problem& p, const std::string& text) { return san_to_move(p.pos, text); }

}  // namespace

TEST(EpdRecord, FenFieldsAndOperations) {
    Record r;
    std::string error;
    ASSERT_TRUE(parse_record("2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - bm Qg6; id \"WAC.001\";", &r, &error));
    EXPECT_EQ(r.fen, "2rr3k/pp3pp1/1nnqbN1p/3pN3/2pP4/2P3Q1/PPB4P/R4RK1 w - - 0 1");
    ASSERT_EQ(r.operations.size(), 2u);
    EXPECT_EQ(*r.find("bm"), "Qg6");
    EXPECT_EQ(*r.find("id"), "WAC.001");
    EXPECT_EQ(r.find("am"), nullptr);

    // Counters after the 4 fields are kept; ';' inside quotes belongs to the operand; no final ';'.
    ASSERT_TRUE(parse_record("8/8/8/8/8/8/4k3/4K2R w K - 7 40 bm Rh2+ ; id \"a; b\"; c0 \"x=1, y\"", &r, &error));
    EXPECT_EQ(r.fen, "8/8/8/8/8/8/4k3/4K2R w K - 7 40");
    EXPECT_EQ(*r.find("bm"), "Rh2+");
    EXPECT_EQ(*r.find("id"), "a; b");
    EXPECT_EQ(*r.find("c0"), "x=1, y");
}

TEST(EpdRecord, BlankCommentAndMalformedLines) {
    Record r;
    std::string error;
    EXPECT_FALSE(parse_record("   ", &r, &error));
    EXPECT_TRUE(error.empty());
    EXPECT_FALSE(parse_record("# a comment", &r, &error));
    EXPECT_TRUE(error.empty());
    EXPECT_FALSE(parse_record("8/8/8/8 w -", &r, &error));
    EXPECT_NE(error.find("4 FEN fields"), std::string::npos);
    EXPECT_FALSE(parse_record("4k3/8/8/8/8/8/8/4K3 w - - id \"open;", &r, &error));
    EXPECT_NE(error.find("quote"), std::string::npos);
}

TEST(EpdProblem, BestAvoidAndPoints) {
    // BK.05 accepts two moves.
    Problem bk = problem_of("r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - bm Nd5 a4; id \"BK.05\";");
    EXPECT_EQ(bk.id, "BK.05");
    ASSERT_EQ(bk.best.size(), 2u);
    EXPECT_TRUE(bk.solved_by(san(bk, "Nd5")));
    EXPECT_TRUE(bk.solved_by(san(bk, "a4")));
    EXPECT_FALSE(bk.solved_by(san(bk, "Qd3")));
    EXPECT_EQ(bk.max_points(), 0);

    // am only: anything but the avoided move solves it.
    Problem am = problem_of("r1b2rk1/2q1b1pp/p2ppn2/1p6/3QP3/1BN1B3/PPP3PP/R4RK1 w - - am Qxd6; id \"x\";");
    EXPECT_FALSE(am.solved_by(san(am, "Qxd6")));
    EXPECT_TRUE(am.solved_by(san(am, "Nd5")));

    // STS: points per move from c0; unlisted moves score 0; check suffixes are accepted.
    Problem sts = problem_of(
        "1kr5/3n4/q3p2p/p2n2p1/PppB1P2/5BP1/1P2Q2P/3R2K1 w - - bm f5; id \"STS(v1.0) Undermine.001\"; "
        "c0 \"f5=10, Be5+=2, Bf2=3, Bg4=2\";");
    EXPECT_EQ(sts.max_points(), 10);
    EXPECT_EQ(sts.points_for(san(sts, "f5")), 10);
    EXPECT_EQ(sts.points_for(san(sts, "Be5")), 2);
    EXPECT_EQ(sts.points_for(san(sts, "Bf2")), 3);
    EXPECT_EQ(sts.points_for(san(sts, "Kg2")), 0);
    EXPECT_TRUE(sts.solved_by(san(sts, "f5")));

    // A c0 that is a game reference (Arasan) is not points.
    Problem arasan = problem_of(
        "r1bq1r1k/p1pnbpp1/1p2p3/6p1/3PB3/5N2/PPPQ1PPP/2KR3R w - - bm g4; id \"arasan2024.1\"; "
        "c0 \"J. Polgar-Berkes, Budapest Hunguest Hotels 2003\";");
    EXPECT_TRUE(arasan.points.empty());
}

TEST(EpdProblem, RejectsIllegalMovesBadFensAndEmptyRecords) {
    Record r;
    Problem p;
    std::string error;
    ASSERT_TRUE(parse_record("4k3/8/8/8/8/8/8/4K3 w - - bm Qh5; id \"x\";", &r, &error));
    EXPECT_FALSE(make_problem(r, &p, &error));
    EXPECT_NE(error.find("Qh5"), std::string::npos);
    ASSERT_TRUE(parse_record("4k3/8/8/8/8/8/8/4K2K w - - bm Kd2;", &r, &error));
    EXPECT_FALSE(make_problem(r, &p, &error));
    EXPECT_NE(error.find("FEN"), std::string::npos);
    ASSERT_TRUE(parse_record("4k3/8/8/8/8/8/8/4K3 w - - id \"x\";", &r, &error));
    EXPECT_FALSE(make_problem(r, &p, &error));
    EXPECT_NE(error.find("nothing to check"), std::string::npos);
}

// Found by fuzz_epd (fuzz/regressions/epd/points-out-of-range): a points value too long for an int made
// std::stoi throw out of the parser and killed quince-epd; now the record is refused with the reason.
TEST(EpdProblem, PointsOutOfRangeAreAnErrorNotACrash) {
    const std::string fen = "1kr5/3n4/Q3p2p/p2n2p1/PppB1P2/5BPr/1P2Q2P/3R2K1 w - - ";
    Record r;
    Problem p;
    std::string error;
    ASSERT_TRUE(parse_record(fen + "bm f5; c0 \"f5=" + std::string(100, '8') + ", Be5+=2\";", &r, &error));
    EXPECT_FALSE(make_problem(r, &p, &error));
    EXPECT_NE(error.find("c0"), std::string::npos) << error;
    EXPECT_NE(error.find("'f5'"), std::string::npos) << error;
    EXPECT_NE(error.find("out of range"), std::string::npos) << error;
    // The largest value allowed still reads as points.
    ASSERT_TRUE(parse_record(fen + "bm f5; c0 \"f5=999999, Be5+=2\";", &r, &error));
    ASSERT_TRUE(make_problem(r, &p, &error)) << error;
    EXPECT_EQ(p.max_points(), 999999);
}

TEST(EpdSolve, FindsTheWinAndReportsWhen) {
    // WAC.004: Qxh7+ mates.
    Problem p = problem_of("r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - bm Qxh7+; id \"WAC.004\";");
    search::Engine engine;
    search::Limits limits;
    limits.nodes = 200000;
    search::SearchOptions options;
    Outcome o = solve(engine, p, limits, options);
    EXPECT_EQ(move_to_san(p.pos, o.played), "Qxh7+");
    EXPECT_TRUE(o.solved);
    EXPECT_GE(o.found_depth, 1);
    EXPECT_LE(o.found_depth, o.depth);
    EXPECT_GE(o.found_ms, 0);
    EXPECT_LE(o.found_ms, o.time_ms);
    // A node-limited search is reproducible: the same answer, the same tree.
    Outcome again = solve(engine, p, limits, options);
    EXPECT_EQ(again.played, o.played);
    EXPECT_EQ(again.nodes, o.nodes);
    EXPECT_EQ(again.found_depth, o.found_depth);

    // The same move marked as one to avoid: not solved, no solution time.
    Problem avoid = problem_of("r1bq2rk/pp3pbp/2p1p1pQ/7P/3P4/2PB1N2/PP3PPR/2KR4 w - - am Qxh7+; id \"x\";");
    Outcome bad = solve(engine, avoid, limits, options);
    EXPECT_FALSE(bad.solved);
    EXPECT_EQ(bad.found_ms, -1);
}

TEST(EpdSummary, GroupsInSuiteOrderOneColumnAndTotals) {
    EXPECT_EQ(group_of("STS(v1.0) Undermine.001"), "STS(v1.0) Undermine");
    EXPECT_EQ(group_of("WAC.004"), "WAC");
    EXPECT_EQ(group_of("no dot"), "");

    // Three groups listed v2, v10, v2 again: v2 first (not the text order "v10" < "v2"), both names padded
    // to the longer one; points only where the records carry them.
    const char* const fen = "4k3/8/8/8/8/8/8/R3K3 w - - ";
    std::vector<Problem> problems = {
        problem_of(std::string(fen) + "bm Ra8+; c0 \"Ra8+=10, Ra7=3\"; id \"S(v2) Short.001\";"),
        problem_of(std::string(fen) + "bm Ra8+; c0 \"Ra8+=10, Ra7=3\"; id \"S(v10) Longer name.001\";"),
        problem_of(std::string(fen) + "bm Ra8+; c0 \"Ra8+=10, Ra7=3\"; id \"S(v2) Short.002\";"),
    };
    std::vector<Outcome> outcomes(3);
    outcomes[0].solved = true, outcomes[0].points = 10, outcomes[0].found_ms = 100, outcomes[0].nodes = 1000;
    outcomes[1].points = 3, outcomes[1].nodes = 2000;
    outcomes[2].solved = true, outcomes[2].points = 10, outcomes[2].found_ms = 300, outcomes[2].nodes = 3000;
    EXPECT_EQ(summary(problems, outcomes, 1.3),
              "S(v2) Short         2/2 solved (100.0%), 20/20 points\n"
              "S(v10) Longer name  0/1 solved (0.0%), 3/10 points\n"
              "Total: 2/3 solved (66.7%), 23/30 points; mean time to the solution 0.20 s; 6000 nodes in 1.3 s\n");

    // One group (WAC): no group lines; no points column without c0.
    std::vector<Problem> wac = {problem_of(std::string(fen) + "bm Ra8+; id \"WAC.001\";")};
    std::vector<Outcome> none(1);
    EXPECT_EQ(summary(wac, none, 0.5),
              "Total: 0/1 solved (0.0%); mean time to the solution 0.00 s; 0 nodes in 0.5 s\n");
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
