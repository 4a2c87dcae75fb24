// The one reader of training files (tools/training/reader.h): a text file's positions, scores, results and
// games (blank lines and CRLF endings skipped, the same game ids wherever the file is, a bad line named by
// file and line), a QTD set's positions as its own reader gives them (the games numbered on over the files),
// early stops; and quince train-nnue, quince tune and quince wdlfit reading the same positions from both
// formats through it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "eval/profile.h"
#include "eval/wdl.h"
#include "nnue/trainer.h"
#include "training/game_format.h"
#include "training/reader.h"
#include "training/sample.h"
#include "tune/tuner.h"
#include "wdlfit/wdlfit.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

using namespace quince;
using training::TrainingSample;

const std::string RUN = std::string(QUINCE_TEST_DATA_DIR) + "/training/sf3000-n1000-s1/";
const std::vector<std::string> SHARDS = {RUN + "shard-00000.qtd.xz", RUN + "shard-00019.qtd.xz"};

// What a reader gives of a position, comparable.
struct Seen {
    std::string fen;
    int score = 0;
    std::optional<int> teacher;
    double result = 0;
    std::uint64_t game = 0;
    bool validation = false;
    long line = 0;
    bool operator==(const Seen&) const = default;
};

std::vector<Seen> read_all(const std::vector<std::string>& files, training::Plies plies = training::Plies::Labelled) {
    std::vector<Seen> seen;
    std::string error;
    EXPECT_TRUE(training::for_each_sample(
        files,
        [&](const TrainingSample& ts) {
            seen.push_back({ts.fen(), ts.score, ts.teacher, ts.result, ts.game, ts.validation, ts.line});
            return true;
        },
        &error, plies))
        << error;
    return seen;
}

std::string temp_file(const std::string& name, const std::string& text) {
    const std::string path = ::testing::TempDir() + "/quince_training_reader_" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

// Two games of one file: a new game where the move number does not grow; a line's teacher where it has one.
const std::string TWO_GAMES =
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 30 | 1.0 | 45\r\n"
    "\r\n"
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | 20 | 1.0\r\n"
    "   \n"
    "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1 | -10 | 0.5 | -5\n";

TEST(TrainingReader, TextFileGivesItsLinesScoresAndGames) {
    const std::string path = temp_file("two_games.txt", TWO_GAMES);
    const auto seen = read_all({path});
    ASSERT_EQ(seen.size(), 3u);
    EXPECT_EQ(seen[0].fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    EXPECT_EQ(seen[0].score, 30);
    EXPECT_EQ(seen[0].teacher, 45);
    EXPECT_EQ(seen[1].teacher, std::nullopt);
    EXPECT_EQ(seen[2].score, -10);
    EXPECT_EQ(seen[2].result, 0.5);
    EXPECT_EQ(seen[0].line, 1);  // blank lines (also CR or spaces only) are skipped but counted
    EXPECT_EQ(seen[1].line, 3);
    EXPECT_EQ(seen[2].line, 5);
    EXPECT_EQ(seen[0].game, seen[1].game);
    EXPECT_NE(seen[1].game, seen[2].game);
    for (const Seen& s : seen) EXPECT_FALSE(s.validation);
    // The same content elsewhere: the same games; another first line: other ones.
    const std::string moved = temp_file("elsewhere.txt", TWO_GAMES);
    EXPECT_EQ(read_all({moved}), seen);
    const std::string other = temp_file("other.txt", TWO_GAMES.substr(TWO_GAMES.find("\r\n\r\n") + 4));
    const auto other_seen = read_all({other});
    ASSERT_EQ(other_seen.size(), 2u);
    EXPECT_NE(other_seen[0].game, seen[1].game);
    // A stop after the first position.
    int visits = 0;
    std::string error;
    EXPECT_TRUE(training::for_each_sample({path, moved}, [&](const TrainingSample&) { return ++visits < 1; }, &error));
    EXPECT_EQ(visits, 1);
    std::remove(path.c_str()), std::remove(moved.c_str()), std::remove(other.c_str());
}

TEST(TrainingReader, BadLineOrFileIsNamed) {
    const std::string path = temp_file("bad.txt", TWO_GAMES + "not a fen | 1 | 0.5\n");
    std::string error;
    int visits = 0;
    EXPECT_FALSE(training::for_each_sample({path}, [&](const TrainingSample&) { return ++visits, true; }, &error));
    EXPECT_EQ(visits, 3);  // what came before stays visited
    EXPECT_NE(error.find(path + ":6: bad FEN 'not a fen'"), std::string::npos) << error;
    const std::string score = temp_file("score.txt", "8/8/8/8/8/8/8/K1k5 w - - 0 1 | 40000 | 0.5\n");
    EXPECT_FALSE(training::for_each_sample({score}, [](const TrainingSample&) { return true; }, &error));
    EXPECT_NE(error.find(score + ":1: score '40000'"), std::string::npos) << error;
    EXPECT_FALSE(training::for_each_sample({path + ".missing"}, [](const TrainingSample&) { return true; }, &error));
    EXPECT_EQ(error, "cannot open training file '" + path + ".missing'");
    std::remove(path.c_str()), std::remove(score.c_str());
}

// A QTD set: the positions of training::for_each_position, labelled or quiet, the games numbered on over the
// files read in one call; the validation shard's positions held out.
TEST(TrainingReader, QtdShardsGiveTheirReadersPositions) {
    for (const training::Plies plies : {training::Plies::Labelled, training::Plies::Quiet}) {
        std::vector<training::ShardFile> shards;
        std::string error;
        ASSERT_TRUE(training::find_shards(SHARDS, &shards, &error)) << error;
        std::vector<Seen> direct;
        ASSERT_TRUE(training::for_each_position(
            shards,
            [&](const training::LabeledPosition& lp) {
                direct.push_back({lp.pos->fen(), lp.score, lp.has_teacher ? std::optional<int>(lp.teacher) : std::nullopt,
                                  lp.result, std::uint64_t(lp.game), lp.validation, 0});
                return true;
            },
            &error, plies))
            << error;
        const auto seen = read_all(SHARDS, plies);
        ASSERT_GT(seen.size(), 1000u);
        EXPECT_TRUE(seen == direct);
        EXPECT_FALSE(seen.front().validation);
        EXPECT_TRUE(seen.back().validation);
        EXPECT_GT(seen.back().game, read_all({SHARDS[0]}, plies).back().game);  // numbered on
        // The set's teacher (sf3000) on its labelled positions, none on the other quiet plies.
        const auto labelled = std::count_if(seen.begin(), seen.end(), [](const Seen& s) { return s.teacher.has_value(); });
        if (plies == training::Plies::Labelled) {
            EXPECT_EQ(std::size_t(labelled), seen.size());
        } else {
            EXPECT_GT(labelled, 1000);
            EXPECT_LT(std::size_t(labelled), seen.size());
        }
    }
}

// quince train-nnue, quince tune and quince wdlfit read the same positions, scores and results, from text and
// from QTD (the reader's).
TEST(TrainingReader, TrainerTunerAndWdlfitReadTheSamePositions) {
    const std::string text = temp_file("tools.txt", TWO_GAMES);
    for (const std::vector<std::string>& files : {std::vector<std::string>{text}, SHARDS}) {
        const auto seen = read_all(files);
        ASSERT_FALSE(seen.empty());
        std::string error;
        // The trainer: the teacher's score as its target where there is one, the search score elsewhere.
        nnue_train::Dataset data;
        if (files == SHARDS) {
            ASSERT_TRUE(nnue_train::read_qtd_positions(files, data, &error)) << error;
        } else {
            ASSERT_TRUE(nnue_train::read_text_positions(
                text, [&](const Position& pos, int target, double result, std::uint64_t game, bool from_teacher) {
                    data.add(pos, target, result, game, false, from_teacher);
                }, &error)) << error;
        }
        // The tuner (one thread: no thread started).
        tune::TrainingData tuned;
        ASSERT_TRUE(tune::load_training_data(files, *eval::find_profile("rybka1"), 200, 0, 1, tuned, &error)) << error;
        // wdlfit: every score kept.
        std::vector<wdlfit::Point> points;
        wdlfit::ReadStats stats;
        for (const std::string& f : files)
            ASSERT_TRUE(wdlfit::read_points(f, training::MAX_SAMPLE_SCORE, points, stats, &error)) << error;

        ASSERT_EQ(data.samples().size(), seen.size());
        ASSERT_EQ(tuned.set.size(), seen.size());
        ASSERT_EQ(points.size(), seen.size());
        long games = 0;
        for (std::size_t i = 0; i < seen.size(); ++i) {
            const Seen& s = seen[i];
            SCOPED_TRACE(s.fen);
            games += i == 0 || s.game != seen[i - 1].game;
            Position pos;
            ASSERT_TRUE(pos.set_fen(s.fen, false, nullptr));
            const nnue_train::Sample& n = data.samples()[i];
            EXPECT_EQ(n.teacher, float(s.teacher.value_or(s.score)));
            EXPECT_EQ(n.result, float(s.result));
            EXPECT_EQ(n.game, s.game);
            EXPECT_EQ(bool(n.held_out), s.validation);
            EXPECT_EQ(n.count, popcount(pos.pieces()));
            const tune::PositionHead& t = tuned.set.head(i);
            EXPECT_EQ(t.score, s.score);
            EXPECT_EQ(bool(t.has_teacher), s.teacher.has_value());
            EXPECT_EQ(t.teacher, s.teacher.value_or(0));
            EXPECT_EQ(t.result, float(s.result));
            EXPECT_EQ(bool(t.white_to_move), pos.side_to_move() == WHITE);
            EXPECT_EQ(points[i].score, double(s.score));
            EXPECT_EQ(points[i].result, s.result);
            EXPECT_EQ(points[i].material, eval::wdl_material(pos));
        }
        EXPECT_EQ(tuned.games, games);  // the tuner's games are the reader's
        EXPECT_EQ(stats.lines, seen.size());
    }
    std::remove(text.c_str());
}

}  // namespace QUINCE_TEST_FILE
}  // namespace
