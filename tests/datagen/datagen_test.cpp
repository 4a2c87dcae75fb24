// quince datagen: the training format, self-play shards (determinism, resume, dedupe, teacher), PGN import.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "board/position.h"
#include "core/random.h"
#include "datagen/datagen.h"
#include "eval/evaluate.h"
#include "eval/nnue/network.h"
#include "support/run_command.h"
#include "training/game_format.h"
#include "training/sample.h"
#include "search/syzygy.h"
#include "support/sanitized.h"

namespace {
namespace QUINCE_TEST_FILE {  // names private to this file, also in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using namespace quince;
using namespace quince::datagen;
using namespace quince::training;

namespace {

std::string temp_dir(const std::string& name) {
    fs::path p = fs::temp_directory_path() / ("quince_datagen_test_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(p);
    return p.string();
}

std::string read_all(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// Every shard concatenated in order: the data set (text shards of --from-pgn and --relabel).
std::string read_shards(const std::string& dir) {
    std::string all;
    for (int i = 0; fs::exists(shard_path(dir, i)); ++i) all += read_all(shard_path(dir, i));
    return all;
}

// Self-play shards (QTD) are named shard-00000.qtd.xz, …
std::string qtd_path(const std::string& dir, int i) { return shard_path(dir, i, ".qtd.xz"); }

// Their compressed bytes concatenated in order.
std::string read_qtd_shards(const std::string& dir) {
    std::string all;
    for (int i = 0; fs::exists(qtd_path(dir, i)); ++i) all += read_all(qtd_path(dir, i));
    return all;
}

// Their labelled positions as text lines "FEN | score | result | teacher" (teacher only when labelled).
std::vector<std::string> qtd_lines(const std::string& dir, std::vector<Key>* keys = nullptr) {
    std::vector<ShardFile> shards;
    std::vector<std::string> out;
    std::string error;
    if (!fs::exists(dir) || !find_shards({dir}, &shards, &error)) return out;
    EXPECT_TRUE(for_each_position(
        shards,
        [&](const LabeledPosition& lp) {
            Sample s{lp.pos->fen(), lp.score, lp.result, std::nullopt};
            if (lp.has_teacher) s.teacher = lp.teacher;
            out.push_back(format_sample(s));
            if (keys) keys->push_back(lp.pos->key());
            return true;
        },
        &error))
        << error;
    return out;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) lines.push_back(line);
    return lines;
}

// Every game's moves, in order, and the first shard's header.
std::vector<std::vector<Move>> played_moves(const std::string& dir, ShardHeader* first_header = nullptr) {
    std::vector<std::vector<Move>> out;
    for (int i = 0; fs::exists(qtd_path(dir, i)); ++i) {
        std::string raw, error;
        ShardHeader header;
        std::vector<TrainingGame> games;
        EXPECT_TRUE(read_shard_file(qtd_path(dir, i), &raw, &error)) << error;
        EXPECT_TRUE(decode_shard(raw, &header, &games, &error)) << error;
        if (i == 0 && first_header) *first_header = header;
        for (const TrainingGame& g : games) out.push_back(g.moves);
    }
    return out;
}

// The manifest's `settings:` line.
std::string settings_of(const std::string& dir) {
    for (const std::string& line : lines_of(read_all(dir + "/manifest.txt")))
        if (line.rfind("settings: ", 0) == 0) return line;
    return "";
}

// A settings line without its evaluation (` eval=…` to the end).
std::string without_eval(const std::string& settings) { return settings.substr(0, settings.find(" eval=")); }

// A random network within the loader's bounds, written to `path` (its bytes returned).
std::string write_random_net(const std::string& path, std::uint64_t seed) {
    using namespace quince::eval::nnue;
    SplitMix64 rng(seed);
    auto r = [&rng](int lo, int hi) { return int(rng.below(std::uint64_t(hi - lo + 1))) + lo; };
    using A = DefaultArchitecture;
    auto net = Network::blank(architecture_index<A>());
    for (std::size_t i = 0; i < net->ft_weights.size(); ++i) net->ft_weights[i] = std::int16_t(r(-100, 100));
    for (std::size_t i = 0; i < net->ft_bias.size(); ++i) net->ft_bias[i] = std::int16_t(r(0, 200));
    for (std::size_t i = 0; i < net->out_weights.size(); ++i) net->out_weights[i] = std::int16_t(r(-A::MAX_OUT_WEIGHT, A::MAX_OUT_WEIGHT));
    net->description = "datagen test net";
    const std::string bytes = serialise_network(*net);
    std::ofstream(path, std::ios::binary) << bytes;
    return bytes;
}

// Small and fast: a few short games at a tiny node budget.
SelfPlayConfig tiny_config(const std::string& dir) {
    SelfPlayConfig c;
    c.out_dir = dir;
    c.seed = 7;
    c.nodes = 300;
    c.games = 4;
    c.games_per_shard = 2;
    c.opening.verify_nodes = 200;
    c.hash_mb = 1;
    c.progress = false;
    return c;
}

}  // namespace

// The text shards' checksum is `cat DIR/shard-*.txt | sha256sum`: shards in name order, nothing else.
TEST(DatagenSample, ShardsChecksumIsTheShardsInOrder) {
    if (training::files_sha256({}).empty()) GTEST_SKIP() << "a build without the SHA-256 library";
    const std::string dir = testing::TempDir() + "datagen_shards_sha256";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    EXPECT_EQ(shards_sha256(dir), "");
    for (const auto& [name, text] : {std::pair{"shard-00001.txt", "b"}, {"shard-00000.txt", "a"}, {"notes.txt", "x"}})
        std::ofstream(dir + "/" + name) << text;
    EXPECT_EQ(shards_sha256(dir), "fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603");  // of "ab"
    std::filesystem::remove_all(dir);
}

TEST(DatagenSample, RoundTrip) {
    Sample a{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", -35, 0.5, std::nullopt};
    EXPECT_EQ(format_sample(a), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | -35 | 0.5");
    Sample b;
    std::string error;
    ASSERT_TRUE(parse_sample(format_sample(a), b, &error)) << error;
    EXPECT_EQ(a, b);
    Sample c{"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", 120, 1.0, -7};
    EXPECT_EQ(format_sample(c), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 | 120 | 1.0 | -7");
    ASSERT_TRUE(parse_sample(format_sample(c), b, &error)) << error;
    EXPECT_EQ(c, b);
    c.result = 0.0;
    ASSERT_TRUE(parse_sample(format_sample(c), b, &error)) << error;
    EXPECT_EQ(b.result, 0.0);
    // Blanks around the bars are optional.
    ASSERT_TRUE(parse_sample("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1|+5|1.0", b, &error)) << error;
    EXPECT_EQ(b.score, 5);
}

TEST(DatagenSample, MalformedLinesNameTheField) {
    const std::string fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"", "field"},
        {fen, "field"},
        {fen + " | 5", "field"},
        {fen + " | 5 | 1.0 | 3 | 4", "field"},
        {" | 5 | 1.0", "empty FEN"},
        {"4k3/8/8/8/8/8/4P3/4K2 w - - 0 1 | 5 | 1.0", "bad FEN"},
        {"8/8/8/8/8/8/8/8 w - - 0 1 | 5 | 1.0", "bad FEN"},
        {fen + " | 5.5 | 1.0", "score"},
        {fen + " | abc | 1.0", "score"},
        {fen + " |  | 1.0", "score"},
        {fen + " | 31999 | 1.0", "score"},
        {fen + " | 5 | 0.7", "result"},
        {fen + " | 5 | 1-0", "result"},
        {fen + " | 5 | ", "result"},
        {fen + " | 5 | 0.5 | x", "teacher"},
        {fen + " | 5 | 0.5 | 99999", "teacher"},
    };
    Sample keep{"k7/8/8/8/8/8/8/K7 w - - 0 1", 1, 1.0, 2};
    for (const auto& [line, what] : cases) {
        Sample s = keep;
        std::string error;
        EXPECT_FALSE(parse_sample(line, s, &error)) << line;
        EXPECT_NE(error.find(what), std::string::npos) << line << " -> " << error;
        EXPECT_EQ(s, keep) << "a failed parse must leave the sample unchanged";
    }
}

TEST(DatagenPgn, CommentScores) {
    bool mate = false;
    EXPECT_EQ(comment_score_cp("+0.35/9 0.004s"), 35);
    EXPECT_EQ(comment_score_cp("-1.20/12 0.150s, n=1234"), -120);
    EXPECT_EQ(comment_score_cp("0.00/5 0.010s"), 0);
    EXPECT_EQ(comment_score_cp("+0.41 12/20 150 123456"), 41);
    EXPECT_EQ(comment_score_cp("-0.5"), -50);
    EXPECT_EQ(comment_score_cp("+3/9 1s"), 300);
    EXPECT_EQ(comment_score_cp("+M5/3 0.001s", &mate), std::nullopt);
    EXPECT_TRUE(mate);
    EXPECT_EQ(comment_score_cp("-M4", &mate), std::nullopt);
    EXPECT_TRUE(mate);
    EXPECT_EQ(comment_score_cp("book", &mate), std::nullopt);
    EXPECT_FALSE(mate);
    EXPECT_EQ(comment_score_cp("unknown"), std::nullopt);
    EXPECT_EQ(comment_score_cp(""), std::nullopt);
    EXPECT_EQ(comment_score_cp("White mates"), std::nullopt);
    EXPECT_EQ(comment_score_cp("+1.2x/3"), std::nullopt);
}

TEST(DatagenPgn, EvalCommands) {
    bool mate = false;
    EXPECT_EQ(eval_command_cp("[%eval 0.17]"), 17);
    EXPECT_EQ(eval_command_cp("[%eval 0.17] [%clk 0:00:30]"), 17);
    EXPECT_EQ(eval_command_cp("Good move. [%clk 0:00:30] [%eval -1.52,23]"), -152);
    EXPECT_EQ(eval_command_cp("[%eval +3]"), 300);
    EXPECT_EQ(eval_command_cp("[%eval #-4]", &mate), std::nullopt);
    EXPECT_TRUE(mate);
    EXPECT_EQ(eval_command_cp("[%eval #2]", &mate), std::nullopt);
    EXPECT_TRUE(mate);
    EXPECT_EQ(eval_command_cp("+0.35/9 0.004s", &mate), std::nullopt);  // a score comment, not a command
    EXPECT_FALSE(mate);
    for (const char* bad : {"[%eval]", "[%eval ]", "[%eval 0.17", "[%evaluation 0.17]", "[%eval 1.3x]",
                            "[%eval 0.5 0.7]", "[%eval abc]", "[%eval0.17]"})
        EXPECT_EQ(eval_command_cp(bad), std::nullopt) << bad;
}

// Games as lichess exports them: each eval command scores the position after its move, White's view.
TEST(DatagenPgn, ImportsEvalCommandsFromWhitesView) {
    const std::string dir = temp_dir("pgn-evals");
    PgnImportConfig c;
    c.files = {std::string(QUINCE_DATAGEN_TEST_DATA_DIR) + "/evals.pgn"};
    c.out_dir = dir;
    c.hash_mb = 1;
    PgnImportSummary s;
    std::string error;
    ASSERT_TRUE(import_pgn(c, &s, &error)) << error;
    EXPECT_EQ(s.games_used, 2);
    const std::vector<std::string> expected = {
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 17 | 1.0",            // 1. e4 {0.17}
        "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2 | 20 | 1.0",          // 1... e5 {0.2}
        "rnbqkbnr/pppp1ppp/8/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 1 2 | -45 | 1.0",        // 2. Qh5 {-0.45,22}
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR w KQkq - 2 3 | -30 | 1.0",      // 2... Nc6
        "r1bqkbnr/pppp1ppp/2n5/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 3 3 | -40 | 1.0",    // 3. Bc4
        // 3... Nf6 {#3} is a mate: no sample; the mated position after 4. Qxf7# has no comment.
        "4k3/8/8/8/8/8/3KP3/8 b - - 1 1 | 125 | 0.5",  // the FEN game: 1. Kd2 {1.25}
        // 1... Kd7 {no eval here} and 2. Kd3 {1.3x} give none; of two commands the first counts.
        "8/8/3k4/8/8/3K4/4P3/8 w - - 4 3 | 90 | 0.5",
    };
    EXPECT_EQ(lines_of(read_shards(dir)), expected);
    fs::remove_all(dir);
}

// The tuner's test: datagen output parses and replays legally.
TEST(DatagenSelfPlay, OutputDecodesAndIsLegalAndQuiet) {
    const std::string dir = temp_dir("legal");
    RunSummary summary;
    std::string error;
    ASSERT_TRUE(run_selfplay(tiny_config(dir), &summary, &error)) << error;
    EXPECT_EQ(summary.shards, 2);
    EXPECT_EQ(summary.games, 4);
    std::vector<ShardFile> shards;
    ASSERT_TRUE(find_shards({dir}, &shards, &error)) << error;
    ASSERT_EQ(shards.size(), 2u);
    std::set<Key> keys;
    std::int64_t n = 0, games = 0, last_game = 0;
    ASSERT_TRUE(for_each_position(
        shards,
        [&](const LabeledPosition& lp) {
            const Position& pos = *lp.pos;
            EXPECT_FALSE(pos.in_check()) << pos.fen();
            EXPECT_TRUE(pos.has_legal_move()) << pos.fen();
            EXPECT_FALSE(pos.is_capture_or_promotion(lp.move)) << pos.fen();  // a quiet best move
            EXPECT_TRUE(lp.result == 0.0 || lp.result == 0.5 || lp.result == 1.0);
            EXPECT_LT(std::abs(lp.score), QTD_MATE_BOUND);
            EXPECT_FALSE(lp.has_teacher);
            EXPECT_TRUE(keys.insert(pos.key()).second) << "duplicate position " << pos.fen();
            games += lp.game != last_game;
            last_game = lp.game;
            ++n;
            return true;
        },
        &error))
        << error;
    EXPECT_GT(n, 10);
    EXPECT_EQ(n, summary.positions);
    EXPECT_EQ(games, 4);
    // The manifest: the settings, then one line per shard whose SHA-256 is the file's.
    const std::string manifest = read_all(dir + "/manifest.txt");
    EXPECT_NE(manifest.find("seed=7 nodes=300"), std::string::npos) << manifest;
    for (const ShardFile& sf : shards) {
        const std::string line = fs::path(sf.path).filename().string() + " games=2 positions=";
        ASSERT_NE(manifest.find(line), std::string::npos) << manifest;
        EXPECT_NE(manifest.find("sha256=" + file_sha256(sf.path)), std::string::npos) << manifest;
    }
    // Every shard names what made it.
    std::string raw;
    ShardHeader header;
    std::vector<TrainingGame> decoded;
    ASSERT_TRUE(read_shard_file(shards[0].path, &raw, &error)) << error;
    ASSERT_TRUE(decode_shard(raw, &header, &decoded, &error)) << error;
    EXPECT_EQ(decoded.size(), 2u);
    EXPECT_NE(header.get("settings").find("selfplay seed=7 nodes=300"), std::string::npos);
    EXPECT_EQ(header.get("engine sha256").size(), 64u);
    EXPECT_EQ(header.get("games"), "0..1 of the run");
    fs::remove_all(dir);
}

TEST(DatagenSelfPlay, SameSeedSameBytesWithAnyThreadCountAndAfterResume) {
    const std::string one = temp_dir("t1"), two = temp_dir("t2");
    SelfPlayConfig c1 = tiny_config(one), c2 = tiny_config(two);
    c2.threads = 2;
    RunSummary s1, s2;
    std::string error;
    ASSERT_TRUE(run_selfplay(c1, &s1, &error)) << error;
    ASSERT_TRUE(run_selfplay(c2, &s2, &error)) << error;
    const std::string data = read_qtd_shards(one);
    ASSERT_GT(data.size(), 0u);
    EXPECT_EQ(data, read_qtd_shards(two));

    // An interrupted run: the last shard is gone (and its manifest line with it), a stray temporary file is
    // left. The rerun continues.
    fs::remove(qtd_path(two, 1));
    std::ofstream(qtd_path(two, 1) + ".tmp") << "half a shard";
    RunSummary s3;
    ASSERT_TRUE(run_selfplay(c2, &s3, &error)) << error;
    EXPECT_EQ(s3.games_this_run, 2);
    EXPECT_EQ(read_qtd_shards(two), data);
    EXPECT_FALSE(fs::exists(qtd_path(two, 1) + ".tmp"));

    // A rerun of a finished run does nothing; a longer one continues the same sequence of games.
    RunSummary s4;
    ASSERT_TRUE(run_selfplay(c2, &s4, &error)) << error;
    EXPECT_EQ(s4.games_this_run, 0);
    c1.games = 6;
    ASSERT_TRUE(run_selfplay(c1, &s4, &error)) << error;
    EXPECT_EQ(s4.games_this_run, 2);
    EXPECT_EQ(read_qtd_shards(one).substr(0, data.size()), data);

    // Other settings in the same directory are refused; another seed gives other games.
    SelfPlayConfig other = tiny_config(one);
    other.nodes = 301;
    EXPECT_FALSE(run_selfplay(other, &s4, &error));
    EXPECT_NE(error.find("other settings"), std::string::npos) << error;
    const std::string three = temp_dir("t3");
    SelfPlayConfig c3 = tiny_config(three);
    c3.seed = 8;
    ASSERT_TRUE(run_selfplay(c3, &s4, &error)) << error;
    EXPECT_NE(read_qtd_shards(three), data);
    fs::remove_all(one);
    fs::remove_all(two);
    fs::remove_all(three);
}

TEST(DatagenSelfPlay, SampleKeepsAtMostKPositionsOfTheSameGames) {
    const std::string all_dir = temp_dir("sample_all"), some_dir = temp_dir("sample_3"), two_dir = temp_dir("sample_3t");
    SelfPlayConfig all = tiny_config(all_dir), some = tiny_config(some_dir), two = tiny_config(two_dir);
    some.sample = two.sample = 3;
    two.threads = 2;
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(all, &s, &error)) << error;
    ASSERT_TRUE(run_selfplay(some, &s, &error)) << error;
    EXPECT_EQ(s.games, 4);
    std::vector<Key> every_keys, kept_keys;
    const std::vector<std::string> every = qtd_lines(all_dir, &every_keys), kept = qtd_lines(some_dir, &kept_keys);
    // Each game keeps at most 3 of its positions (4 games), taken from the same games in game order: the
    // sampled lines are a subsequence of the full run's, except a position the game repeated. The full run
    // labels its first occurrence and drops the repetition (a duplicate); the sampled run may have drawn the
    // repetition alone, which the full run then has under the first occurrence's move counters and score.
    ASSERT_GT(every.size(), 12u);
    EXPECT_LE(kept.size(), 12u);
    EXPECT_GE(kept.size(), 8u);  // every game of the tiny run has at least two positions to label
    std::size_t at = 0;
    for (std::size_t i = 0; i < kept.size(); ++i) {
        std::size_t j = at;
        while (j < every.size() && every[j] != kept[i]) ++j;
        if (j < every.size()) {
            at = j + 1;
            continue;
        }
        EXPECT_NE(std::find(every_keys.begin(), every_keys.end(), kept_keys[i]), every_keys.end())
            << "not in the full run, or out of order: " << kept[i];
    }
    EXPECT_NE(read_all(some_dir + "/manifest.txt").find(" sample=3"), std::string::npos);
    EXPECT_EQ(read_all(all_dir + "/manifest.txt").find("sample="), std::string::npos);
    // Drawn from (seed, game): the same with two threads.
    ASSERT_TRUE(run_selfplay(two, &s, &error)) << error;
    EXPECT_EQ(read_qtd_shards(two_dir), read_qtd_shards(some_dir));
    // A folder made without sampling is not continued with it.
    SelfPlayConfig other = tiny_config(all_dir);
    other.sample = 3;
    other.games = 6;
    EXPECT_FALSE(run_selfplay(other, &s, &error));
    EXPECT_NE(error.find("other settings"), std::string::npos) << error;
    fs::remove_all(all_dir);
    fs::remove_all(some_dir);
    fs::remove_all(two_dir);
}

TEST(DatagenSelfPlay, PositionsTargetStopsAtTheShardThatReachesIt) {
    const std::string dir = temp_dir("positions");
    SelfPlayConfig c = tiny_config(dir);
    c.games = 0;
    c.positions = 1;  // the first shard reaches it
    c.threads = 2;
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    EXPECT_EQ(s.shards, 1);
    EXPECT_FALSE(fs::exists(qtd_path(dir, 1)));
    fs::remove_all(dir);
}

TEST(DatagenSelfPlay, DuplicatesAreDroppedAcrossShards) {
    // Without random plies and with the start position, every game is the same game: only the first one's
    // positions are written, the rest are duplicates.
    const std::string dir = temp_dir("dedupe");
    SelfPlayConfig c = tiny_config(dir);
    c.opening.random_plies = 0;
    c.games = 3;
    c.games_per_shard = 1;
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    EXPECT_EQ(s.shards, 3);
    // The games are stored (a game is data even without labels), their positions labelled once.
    const std::vector<std::string> first = qtd_lines(dir);
    EXPECT_GT(first.size(), 0u);
    std::vector<ShardFile> shards;
    ASSERT_TRUE(find_shards({dir}, &shards, &error)) << error;
    ASSERT_EQ(shards.size(), 3u);
    std::int64_t later = 0;
    ASSERT_TRUE(for_each_position({shards[1], shards[2]}, [&](const LabeledPosition&) { return ++later, true; }, &error));
    EXPECT_EQ(later, 0);
    // The one game alone may repeat a position itself (a repetition draw): those are dropped once per game.
    const std::string one_dir = temp_dir("dedupe-one");
    SelfPlayConfig one = c;
    one.out_dir = one_dir;
    one.games = 1;
    RunSummary s1;
    ASSERT_TRUE(run_selfplay(one, &s1, &error)) << error;
    const std::int64_t written = std::int64_t(first.size());
    EXPECT_EQ(qtd_lines(one_dir), first);
    EXPECT_EQ(s.duplicates, s1.duplicates + 2 * (written + s1.duplicates));
    fs::remove_all(dir);
    fs::remove_all(one_dir);
}

TEST(DatagenSelfPlay, BadSettingsAreRefused) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    RunSummary s;
    std::string error;
    SelfPlayConfig c = tiny_config(temp_dir("bad"));
    c.book = "/nonexistent/book.epd";
    EXPECT_FALSE(run_selfplay(c, &s, &error));
    EXPECT_NE(error.find("--book"), std::string::npos) << error;
    c = tiny_config(temp_dir("bad"));
    c.games = 0;
    EXPECT_FALSE(run_selfplay(c, &s, &error));
    EXPECT_NE(error.find("target"), std::string::npos) << error;
    c = tiny_config(temp_dir("bad"));
    c.teacher = "/nonexistent/engine";
    c.teacher_nodes = 10;
    EXPECT_FALSE(run_selfplay(c, &s, &error));
    EXPECT_NE(error.find("--teacher"), std::string::npos) << error;
    fs::remove_all(temp_dir("bad"));
}

TEST(DatagenSelfPlay, BookOpenings) {
    const std::string dir = temp_dir("book");
    SelfPlayConfig c = tiny_config(dir);
    c.book = std::string(QUINCE_MATCH_TEST_DATA_DIR) + "/UHO_4060_v4_first100.epd.xz";
    c.games = 2;
    c.opening.random_plies = 2;
    c.opening.max_score = 30000;  // UHO openings are lopsided on purpose
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    EXPECT_GT(s.positions, 0);
    fs::remove_all(dir);
}

// The data recipe's knobs: a soft node limit, a range of random plies, the adjudication thresholds and
// Syzygy tables, each recorded in the settings and each doing what it says.
TEST(DatagenSelfPlay, SoftNodesPlyRangeAdjudicationAndTablesAreAppliedAndRecorded) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    std::string error;
    // The soft limit ends the search after the iteration that passes it: more than the soft nodes, far
    // fewer than the hard limit, a whole iteration's score.
    {
        search::Engine engine;
        search::SearchOptions options;
        options.silent = true;
        search::Limits limits;
        limits.nodes = 50000000;
        limits.soft_nodes = 3000;
        Position start;
        ASSERT_TRUE(start.set_fen(Position::START_FEN, false, &error)) << error;
        const search::SearchResult r = engine.search(start, limits, options);
        EXPECT_GE(r.nodes, 3000u);
        EXPECT_LT(r.nodes, 3000000u);
        EXPECT_GT(r.depth, 1);
    }
    const std::string dir = temp_dir("recipe");
    SelfPlayConfig c = tiny_config(dir);
    c.games = 8;
    c.games_per_shard = 8;
    c.soft_nodes = 200;
    c.nodes = 20000;
    c.opening.random_plies = 8;
    c.opening.random_plies_max = 9;
    c.adjudication = Adjudication{2000, 5, 10, 12, 40};
    RunSummary s;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    const std::string settings = settings_of(dir);
    for (const char* part : {"random-plies=8-9 ", "win=2000x5 ", "draw=10x12@40 ", "soft-nodes=200"})
        EXPECT_NE(settings.find(part), std::string::npos) << part << " in " << settings;
    std::set<int> opening_lengths;
    for (int i = 0; fs::exists(qtd_path(dir, i)); ++i) {
        std::string raw;
        ShardHeader header;
        std::vector<TrainingGame> games;
        ASSERT_TRUE(read_shard_file(qtd_path(dir, i), &raw, &error)) << error;
        ASSERT_TRUE(decode_shard(raw, &header, &games, &error)) << error;
        for (const TrainingGame& g : games) opening_lengths.insert(g.opening_plies);
    }
    EXPECT_EQ(opening_lengths, (std::set<int>{8, 9}));
    fs::remove_all(dir);

    // Tables: a game that captures into them ends there with their result; without them it goes on.
    const std::string book = temp_dir("tb_book.epd");
    std::ofstream(book) << "4k3/8/8/8/8/8/3p4/3QK3 w - - 0 1\n";  // White takes the pawn: KQ v K
    auto play = [&](const std::string& tables, TrainingGame* game) {
        const std::string d = temp_dir("tables");
        SelfPlayConfig t = tiny_config(d);
        t.games = 1;
        t.games_per_shard = 1;
        t.book = book;
        t.opening.random_plies = 0;
        t.opening.verify_nodes = 0;
        t.adjudication.win_score = 100000;  // only mates and the tables end it early
        t.syzygy = tables;
        RunSummary rs;
        std::string why;
        ASSERT_TRUE(run_selfplay(t, &rs, &why)) << why;
        if (!tables.empty()) {
            EXPECT_NE(settings_of(d).find("syzygy=4-piece"), std::string::npos) << settings_of(d);
        }
        std::string raw;
        ShardHeader header;
        std::vector<TrainingGame> games;
        ASSERT_TRUE(read_shard_file(qtd_path(d, 0), &raw, &why)) << why;
        ASSERT_TRUE(decode_shard(raw, &header, &games, &why)) << why;
        ASSERT_EQ(games.size(), 1u);
        *game = games[0];
        fs::remove_all(d);
    };
    TrainingGame with_tables, without;
    play(std::string(QUINCE_TEST_DATA_DIR) + "/syzygy", &with_tables);
    syzygy::init("");
    play("", &without);
    EXPECT_EQ(with_tables.result, GameResult::WhiteWins);
    EXPECT_LE(with_tables.moves.size(), 4u);
    EXPECT_GT(without.moves.size(), with_tables.moves.size() + 4);
    fs::remove(book);

    c = tiny_config(temp_dir("bad_tables"));
    c.syzygy = "/nonexistent/tables";
    EXPECT_FALSE(run_selfplay(c, &s, &error));
    EXPECT_NE(error.find("--syzygy"), std::string::npos) << error;
    c = tiny_config(temp_dir("bad_tables"));
    c.soft_nodes = c.nodes + 1;
    EXPECT_FALSE(run_selfplay(c, &s, &error));
    EXPECT_NE(error.find("--soft-nodes"), std::string::npos) << error;
    fs::remove_all(temp_dir("bad_tables"));
}

// --eval: the games are played with the named evaluation, and the data says which.
TEST(DatagenSelfPlay, EvalProfilePlaysTheGamesAndIsRecorded) {
    const std::string plain_dir = temp_dir("eval_plain"), dir = temp_dir("eval_fruit"), two_dir = temp_dir("eval_fruit2");
    SelfPlayConfig plain = tiny_config(plain_dir), c = tiny_config(dir), two = tiny_config(two_dir);
    c.eval = two.eval = "fruit21";
    two.threads = 2;
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(plain, &s, &error)) << error;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    EXPECT_EQ(s.games_this_run, 4);
    EXPECT_GT(s.positions, 0);
    // Another evaluation, other games (the same seeds).
    ShardHeader header;
    const auto moves = played_moves(dir, &header);
    ASSERT_EQ(moves.size(), 4u);
    EXPECT_NE(moves, played_moves(plain_dir));
    // Recorded: the settings line ends with it (a built-in profile has no SHA-256), and every shard's header.
    const std::string settings = settings_of(dir);
    EXPECT_EQ(settings, without_eval(settings_of(plain_dir)) + " eval=fruit21");
    EXPECT_EQ(header.get("eval"), "fruit21");
    EXPECT_EQ(header.get("eval sha256"), "");
    EXPECT_EQ(header.get("settings"), settings.substr(std::string("settings: ").size()));
    // The threads share it: the same bytes with two.
    ASSERT_TRUE(run_selfplay(two, &s, &error)) << error;
    EXPECT_EQ(read_qtd_shards(two_dir), read_qtd_shards(dir));
    // The folder continues only with the same evaluation.
    SelfPlayConfig more = c;
    more.games = 6;
    more.eval = "";
    EXPECT_FALSE(run_selfplay(more, &s, &error));
    EXPECT_NE(error.find("other settings"), std::string::npos) << error;
    more.eval = "quince";
    EXPECT_FALSE(run_selfplay(more, &s, &error));
    more.eval = "fruit21";
    ASSERT_TRUE(run_selfplay(more, &s, &error)) << error;
    EXPECT_EQ(s.games_this_run, 2);
    EXPECT_EQ(settings_of(dir), settings);
    fs::remove_all(plain_dir);
    fs::remove_all(dir);
    fs::remove_all(two_dir);
}

// A built-in network (profile `nnue`) has no file to hash, and the embedded net changes between builds: the
// data records the net's own checksum, so a folder made with one net is not continued with another.
TEST(DatagenSelfPlay, BuiltInNetworkIsRecordedByItsChecksum) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    PlayerEval player;
    std::string error;
    ASSERT_TRUE(resolve_player_eval("quince", &player, &error)) << error;
    EXPECT_EQ(player.net, "");  // a hand-crafted profile: its name says everything
    const std::string dir = temp_dir("eval_netid");
    fs::create_directories(dir);
    const std::string file = dir + "/player.nnue";
    write_random_net(file, 7);
    ASSERT_TRUE(resolve_player_eval(file, &player, &error)) << error;
    ASSERT_TRUE(player.evaluation->network);
    const auto net = eval::nnue::load_network_file(file, &error);
    ASSERT_TRUE(net) << error;
    EXPECT_EQ(player.evaluation->network->identity(), eval::nnue::checksum_hex(*net));
    EXPECT_EQ(player.evaluation->network->identity().size(), 16u);
    write_random_net(file, 8);
    PlayerEval other;
    ASSERT_TRUE(resolve_player_eval(file, &other, &error)) << error;
    EXPECT_NE(other.evaluation->network->identity(), player.evaluation->network->identity());
    if (eval::nnue::embedded_network()) {
        ASSERT_TRUE(resolve_player_eval("nnue", &player, &error)) << error;
        EXPECT_EQ(player.net, eval::nnue::checksum_hex(*eval::nnue::embedded_network()));
        EXPECT_EQ(player.sha256, "");
    }
    fs::remove_all(dir);
}

TEST(DatagenSelfPlay, EvalNetworkFilePlaysTheGamesAndIsRecordedWithItsSha256) {
    const std::string dir = temp_dir("eval_net"), plain_dir = temp_dir("eval_net_plain");
    const std::string net_dir = temp_dir("eval_netfile");  // (temp_dir empties the folder it names)
    fs::create_directories(net_dir);
    const std::string net = net_dir + "/player.nnue";
    write_random_net(net, 5);
    SelfPlayConfig c = tiny_config(dir), plain = tiny_config(plain_dir);
    c.eval = net;
    c.games = plain.games = 2;
    c.opening.max_score = plain.opening.max_score = 30000;  // a random net's scores say nothing of balance
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    EXPECT_EQ(s.games_this_run, 2);
    EXPECT_GT(s.positions, 0);
    ASSERT_TRUE(run_selfplay(plain, &s, &error)) << error;
    ShardHeader header;
    const auto moves = played_moves(dir, &header);
    ASSERT_EQ(moves.size(), 2u);
    EXPECT_NE(moves, played_moves(plain_dir));
    const std::string sha = file_sha256(net);
    ASSERT_EQ(sha.size(), 64u);
    EXPECT_EQ(settings_of(dir), without_eval(settings_of(plain_dir)) + " eval=player.nnue sha256=" + sha);
    EXPECT_EQ(header.get("eval"), "player.nnue");
    EXPECT_EQ(header.get("eval sha256"), sha);
    // The labels are the ones the rules allow: quiet, below the mate bound.
    std::vector<ShardFile> shards;
    ASSERT_TRUE(find_shards({dir}, &shards, &error)) << error;
    ASSERT_TRUE(for_each_position(
        shards,
        [&](const LabeledPosition& lp) {
            EXPECT_FALSE(lp.pos->in_check());
            EXPECT_LT(std::abs(lp.score), QTD_MATE_BOUND);
            return true;
        },
        &error))
        << error;
    // Another net under the same name is other settings: the folder is not continued with it.
    write_random_net(net, 6);
    c.games = 4;
    EXPECT_FALSE(run_selfplay(c, &s, &error));
    EXPECT_NE(error.find("other settings"), std::string::npos) << error;
    fs::remove_all(dir);
    fs::remove_all(plain_dir);
    fs::remove_all(net_dir);
}

TEST(DatagenSelfPlay, BadEvalIsRefusedBeforeAnythingIsWritten) {
    const std::string files = temp_dir("eval_bad_files");
    fs::create_directories(files);
    const std::string good = files + "/good.nnue", truncated = files + "/truncated.nnue", weights = files + "/bad.txt";
    const std::string bytes = write_random_net(good, 9);
    std::ofstream(truncated, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
    std::ofstream(weights) << "name broken\nthis is not a weight\n";
    struct Case {
        std::string eval, expected;
    };
    for (const Case& k : {Case{"no-such-profile", "neither a built-in profile ("},
                          Case{files + "/missing.nnue", "neither a built-in profile"},
                          Case{truncated, "truncated"},
                          Case{weights, weights + ":"}}) {
        const std::string dir = temp_dir("eval_bad");
        SelfPlayConfig c = tiny_config(dir);
        c.eval = k.eval;
        RunSummary s;
        std::string error;
        EXPECT_FALSE(run_selfplay(c, &s, &error)) << k.eval;
        EXPECT_EQ(error.rfind("--eval '" + k.eval + "': ", 0), 0u) << error;
        EXPECT_NE(error.find(k.expected), std::string::npos) << error;
        if (k.eval == "no-such-profile") {
            EXPECT_NE(error.find("fruit21"), std::string::npos) << error;  // the known names
        }
        EXPECT_FALSE(fs::exists(dir)) << k.eval << ": nothing is written";
    }
    // A folder that holds data keeps it: its manifest and shards stay as they were.
    const std::string dir = temp_dir("eval_bad_kept");
    SelfPlayConfig c = tiny_config(dir);
    c.games = 2;
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    const std::string manifest = read_all(dir + "/manifest.txt"), data = read_qtd_shards(dir);
    c.games = 4;
    c.eval = truncated;
    EXPECT_FALSE(run_selfplay(c, &s, &error));
    EXPECT_EQ(read_all(dir + "/manifest.txt"), manifest);
    EXPECT_EQ(read_qtd_shards(dir), data);
    EXPECT_FALSE(fs::exists(qtd_path(dir, 1)));
    // The command line: the error names it, exit code 1; --eval with a mode that plays no games is refused.
    const std::string cli_dir = temp_dir("eval_bad_cli");
    auto r = test::run_command(QUINCE_ENGINE_PATH, {"datagen", "--out", cli_dir, "--games", "1", "--eval", "nope", "--quiet"});
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_NE(r.err.find("error: --eval 'nope': neither a built-in profile"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(cli_dir));
    r = test::run_command(QUINCE_ENGINE_PATH, {"datagen", "--from-pgn", "x.pgn", "--out", cli_dir, "--eval", "quince"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("--eval is for self-play"), std::string::npos) << r.err;
    r = test::run_command(QUINCE_ENGINE_PATH, {"datagen", "--help"});
    EXPECT_NE(r.out.find("--eval NAME|FILE"), std::string::npos) << r.out;
    fs::remove_all(dir);
    fs::remove_all(files);
}

// Without --eval the default profile plays, and is recorded like any other (the default changes between builds).
TEST(DatagenSelfPlay, FolderMadeWithoutEvalRecordsTheDefault) {
    const std::string dir = temp_dir("eval_none");
    SelfPlayConfig c = tiny_config(dir);
    c.games = 2;
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    const std::string base =
        "settings: selfplay seed=7 nodes=300 book=none random-plies=8 max-opening-score=200 opening-nodes=200 "
        "games-per-shard=2 hash=1 win=800x4 draw=15x8@32 teacher=none teacher-nodes=0";
    PlayerEval player;
    ASSERT_TRUE(resolve_player_eval(eval::default_profile(), &player, &error)) << error;
    const std::string settings =
        base + " eval=" + eval::default_profile() + (player.net.empty() ? "" : " net=" + player.net);
    EXPECT_EQ(settings_of(dir), settings);
    ShardHeader header;
    played_moves(dir, &header);
    EXPECT_EQ(header.get("eval"), eval::default_profile());
    EXPECT_EQ(header.get("eval net"), player.net);
    c.games = 4;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    EXPECT_EQ(s.games_this_run, 2);
    EXPECT_EQ(settings_of(dir), settings);
    fs::remove_all(dir);
}

// A folder whose settings line has no `eval=` was made before the evaluation was recorded, by `quince`, the
// default then: it continues with --eval quince, its line unchanged, and with nothing else.
TEST(DatagenSelfPlay, FolderMadeBeforeTheEvalWasRecordedContinuesWithQuince) {
    const std::string dir = temp_dir("eval_legacy");
    SelfPlayConfig c = tiny_config(dir);
    c.games = 2;
    c.eval = "quince";
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    const std::string manifest = read_all(dir + "/manifest.txt");
    const std::size_t at = manifest.find(" eval=quince\n");
    ASSERT_NE(at, std::string::npos) << manifest;
    const std::string old_manifest = manifest.substr(0, at) + manifest.substr(at + std::string(" eval=quince").size());
    std::ofstream(dir + "/manifest.txt", std::ios::binary | std::ios::trunc) << old_manifest;
    const std::string old_settings = settings_of(dir);
    ASSERT_EQ(old_settings.find(" eval="), std::string::npos);
    c.games = 4;
    c.eval = "fruit21";
    EXPECT_FALSE(run_selfplay(c, &s, &error));
    EXPECT_NE(error.find("other settings"), std::string::npos) << error;
    if (eval::default_profile() != "quince") {
        c.eval = "";
        EXPECT_FALSE(run_selfplay(c, &s, &error));
    }
    c.eval = "quince";
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    EXPECT_EQ(s.games_this_run, 2);
    EXPECT_EQ(settings_of(dir), old_settings);
    fs::remove_all(dir);
}

#ifdef QUINCE_FAKE_ENGINE_PATH
TEST(DatagenSelfPlay, TeacherScoresFromWhitesView) {
    const std::string dir = temp_dir("teacher");
    SelfPlayConfig c = tiny_config(dir);
    c.games = 2;
    c.teacher = std::string(QUINCE_FAKE_ENGINE_PATH) + " --score 37";
    c.teacher_nodes = 100;
    RunSummary s;
    std::string error;
    ASSERT_TRUE(run_selfplay(c, &s, &error)) << error;
    const std::vector<std::string> lines = qtd_lines(dir);
    ASSERT_FALSE(lines.empty());
    for (const std::string& line : lines) {
        Sample smp;
        ASSERT_TRUE(parse_sample(line, smp, &error)) << error;
        ASSERT_TRUE(smp.teacher.has_value()) << line;
        // The fake engine says +37 for the side to move.
        const bool white_to_move = smp.fen.find(" w ") != std::string::npos;
        EXPECT_EQ(*smp.teacher, white_to_move ? 37 : -37) << line;
    }
    fs::remove_all(dir);
}
#endif

#ifdef QUINCE_FAKE_ENGINE_PATH
TEST(DatagenPgn, TeacherLabelsImportedPositionsFromWhitesView) {
    if (test::thread_sanitizer) GTEST_SKIP() << test::NO_THREAD;
    const std::string dir = temp_dir("pgn-teacher");
    PgnImportConfig c;
    c.files = {std::string(QUINCE_DATAGEN_TEST_DATA_DIR) + "/scores.pgn"};
    c.out_dir = dir;
    c.hash_mb = 1;
    c.teacher = std::string(QUINCE_FAKE_ENGINE_PATH) + " --score -12";
    c.teacher_nodes = 100;
    PgnImportSummary s;
    std::string error;
    ASSERT_TRUE(import_pgn(c, &s, &error)) << error;
    const std::vector<std::string> lines = lines_of(read_shards(dir));
    ASSERT_EQ(lines.size(), 6u);  // the same positions as without a teacher, each with a fourth field
    for (const std::string& line : lines) {
        Sample smp;
        ASSERT_TRUE(parse_sample(line, smp, &error)) << error;
        ASSERT_TRUE(smp.teacher.has_value()) << line;
        // The fake engine says -12 for the side to move.
        EXPECT_EQ(*smp.teacher, smp.fen.find(" w ") != std::string::npos ? -12 : 12) << line;
    }
    fs::remove_all(dir);
    c.teacher = "/nonexistent/engine";
    c.out_dir = temp_dir("pgn-teacher2");
    EXPECT_FALSE(import_pgn(c, &s, &error));
    EXPECT_NE(error.find("--teacher"), std::string::npos) << error;
    fs::remove_all(c.out_dir);
}
#endif

TEST(DatagenPgn, ImportsScoreCommentsFromWhitesView) {
    const std::string dir = temp_dir("pgn");
    PgnImportConfig c;
    c.files = {std::string(QUINCE_DATAGEN_TEST_DATA_DIR) + "/scores.pgn"};
    c.out_dir = dir;
    c.hash_mb = 1;
    PgnImportSummary s;
    std::string error;
    ASSERT_TRUE(import_pgn(c, &s, &error)) << error;
    EXPECT_EQ(s.games, 4);
    EXPECT_EQ(s.games_used, 2);
    EXPECT_EQ(s.games_unfinished, 1);
    EXPECT_EQ(s.games_malformed, 1);
    ASSERT_EQ(s.errors.size(), 1u);
    // The PGN reader's message (src/game/pgn.h), after the file and game.
    EXPECT_EQ(s.errors[0].find("scores.pgn: game 3: line "), std::string::npos) << s.errors[0];
    EXPECT_NE(s.errors[0].find("scores.pgn: game 3: "), std::string::npos) << s.errors[0];
    EXPECT_NE(s.errors[0].find("'1... Ke7'"), std::string::npos) << s.errors[0];
    const std::vector<std::string> expected = {
        // 1. e4 {+0.35}: White's score of the start position.
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 | 35 | 1.0",
        // 1... e5 {-0.20}: Black's view, so +20 for White.
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 | 20 | 1.0",
        // 2. Nf3 {book} and 2... Nc6 {+M5} carry no usable score.
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3 | 41 | 1.0",
        "r1bqkbnr/pppp1ppp/2n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 3 | 0 | 1.0",
        // The FEN game: Black to move first, -1.50 for Black = +150 for White; {unknown} skipped.
        "4k3/8/8/8/8/8/4P3/4K3 b - - 0 1 | 150 | 0.0",
        "8/3k4/8/8/8/8/3KP3/8 b - - 2 2 | -225 | 0.0",
    };
    EXPECT_EQ(lines_of(read_shards(dir)), expected);
    // The directory now holds data: a second import into it is refused.
    EXPECT_FALSE(import_pgn(c, &s, &error));
    EXPECT_NE(error.find("already holds data"), std::string::npos) << error;
    c.files = {"/nonexistent.pgn"};
    c.out_dir = temp_dir("pgn2");
    EXPECT_FALSE(import_pgn(c, &s, &error));
    EXPECT_NE(error.find("/nonexistent.pgn"), std::string::npos) << error;
    fs::remove_all(dir);
    fs::remove_all(c.out_dir);
}

// ---------------------------------------------------------------------------------------------
// --relabel

namespace {

const char* RELABEL_FENS[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2",
    "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
};

// A small datagen folder: `shards` shards of four positions each, every other line with a teacher column.
std::string make_relabel_source(const std::string& name, int shards) {
    const std::string dir = temp_dir(name);
    fs::create_directories(dir);
    std::ofstream(dir + "/manifest.txt") << "# quince datagen: how the shards in this directory were made\n"
                                            "command: quince datagen --games 4 --seed 3 --out gen\n"
                                            "settings: selfplay seed=3 nodes=5000 teacher=none teacher-nodes=0\n";
    for (int k = 0; k < shards; ++k) {
        std::ofstream out(shard_path(dir, k));
        for (int i = 0; i < 4; ++i) {
            Sample s{RELABEL_FENS[i], 10 * k + i, k % 2 ? 1.0 : 0.5, std::nullopt};
            if (i % 2) s.teacher = 999;
            out << format_sample(s) << "\n";
        }
    }
    return dir;
}

RelabelConfig relabel_config(const std::string& src, const std::string& out, const std::string& teacher_args) {
    RelabelConfig c;
    c.source_dir = src;
    c.out_dir = out;
    c.teacher = std::string(QUINCE_FAKE_ENGINE_PATH) + " " + teacher_args;
    c.teacher_nodes = 100;
    c.command_line = "quince datagen --relabel " + src + " --out " + out;
    c.progress = false;
    return c;
}

}  // namespace

#ifdef QUINCE_FAKE_ENGINE_PATH
TEST(DatagenRelabel, ReplacesOrAppendsTheTeacherColumnAndDropsMates) {
    const std::string src = make_relabel_source("relabel-src", 2), out = temp_dir("relabel-out");
    // The fake teacher says +25 for White to move and sees a mate whenever Black is to move.
    RelabelConfig c = relabel_config(src, out, "--score 25 --mate-when b");
    RelabelSummary s;
    std::string error;
    ASSERT_TRUE(run_relabel(c, &s, &error)) << error;
    EXPECT_EQ(s.shards, 2);
    EXPECT_EQ(s.positions_read, 8);
    EXPECT_EQ(s.positions_written, 4);
    EXPECT_EQ(s.teacher_mates, 4);
    for (int k = 0; k < 2; ++k) {
        const std::vector<std::string> lines = lines_of(read_all(shard_path(out, k)));
        ASSERT_EQ(lines.size(), 2u);
        for (int j = 0; j < 2; ++j) {
            Sample smp;
            ASSERT_TRUE(parse_sample(lines[j], smp, &error)) << error;
            EXPECT_EQ(smp.fen, RELABEL_FENS[2 * j]);  // order kept, Black-to-move positions dropped
            EXPECT_EQ(smp.score, 10 * k + 2 * j);     // the other columns kept
            EXPECT_EQ(smp.result, k % 2 ? 1.0 : 0.5);
            ASSERT_TRUE(smp.teacher.has_value());
            EXPECT_EQ(*smp.teacher, 25);
        }
    }
    // From Black's view the score is turned to White's, and a line that had a teacher column gets the new one.
    const std::string out2 = temp_dir("relabel-out2");
    ASSERT_TRUE(run_relabel(relabel_config(src, out2, "--score 25"), &s, &error)) << error;
    const std::vector<std::string> lines = lines_of(read_all(shard_path(out2, 0)));
    ASSERT_EQ(lines.size(), 4u);
    Sample smp;
    ASSERT_TRUE(parse_sample(lines[1], smp, &error)) << error;
    EXPECT_EQ(smp.teacher, std::optional<int>(-25));  // was 999
    // Provenance: the relabel command, the teacher, and the source's manifest lines.
    const std::string manifest = read_all(out + "/manifest.txt");
    EXPECT_NE(manifest.find("command: quince datagen --relabel"), std::string::npos) << manifest;
    EXPECT_NE(manifest.find("settings: relabel teacher='"), std::string::npos) << manifest;
    EXPECT_NE(manifest.find("teacher-nodes=100"), std::string::npos) << manifest;
    EXPECT_NE(manifest.find("source command: quince datagen --games 4 --seed 3 --out gen"), std::string::npos) << manifest;
    EXPECT_NE(manifest.find("source settings: selfplay seed=3"), std::string::npos) << manifest;
    fs::remove_all(src);
    fs::remove_all(out);
    fs::remove_all(out2);
}

TEST(DatagenRelabel, SameBytesWithAnyThreadCountAndAfterResume) {
    // A teacher with state (its score counts the searches since ucinewgame): the bytes stay the same only if
    // every shard starts from a fresh teacher and is labelled in order, whichever process takes it.
    const std::string src = make_relabel_source("relabel-det-src", 5);
    const std::string one = temp_dir("relabel-det-1"), two = temp_dir("relabel-det-2");
    RelabelSummary s;
    std::string error;
    ASSERT_TRUE(run_relabel(relabel_config(src, one, "--count-score 1"), &s, &error)) << error;
    RelabelConfig c2 = relabel_config(src, two, "--count-score 1");
    c2.threads = 2;
    ASSERT_TRUE(run_relabel(c2, &s, &error)) << error;
    for (int k = 0; k < 5; ++k) {
        const std::string a = read_all(shard_path(one, k));
        EXPECT_EQ(a, read_all(shard_path(two, k))) << k;
        Sample smp;
        ASSERT_TRUE(parse_sample(lines_of(a).at(2), smp, &error)) << error;
        EXPECT_EQ(smp.teacher, std::optional<int>(3));  // the shard's third search
    }
    const std::string all = read_shards(one);
    // Interrupted: a shard missing and a leftover temporary file. The rerun makes just those.
    fs::remove(shard_path(two, 3));
    std::ofstream(shard_path(two, 1) + ".tmp") << "half a shard";
    fs::remove(shard_path(two, 1));
    ASSERT_TRUE(run_relabel(c2, &s, &error)) << error;
    EXPECT_EQ(s.shards_skipped, 3);
    EXPECT_EQ(s.positions_read, 8);
    EXPECT_EQ(read_shards(two), all);
    EXPECT_FALSE(fs::exists(shard_path(two, 1) + ".tmp"));
    fs::remove_all(src);
    fs::remove_all(one);
    fs::remove_all(two);
}

TEST(DatagenRelabel, BadInputIsRefusedAndWrittenShardsStayValid) {
    const std::string src = make_relabel_source("relabel-bad-src", 3), out = temp_dir("relabel-bad-out");
    RelabelSummary s;
    std::string error;
    ASSERT_TRUE(run_relabel(relabel_config(src, out, "--score 5"), &s, &error)) << error;
    // Another budget (or teacher) into the same directory.
    RelabelConfig other = relabel_config(src, out, "--score 5");
    other.teacher_nodes = 200;
    EXPECT_FALSE(run_relabel(other, &s, &error));
    EXPECT_NE(error.find("other settings"), std::string::npos) << error;
    other = relabel_config(src, out, "--score 6");
    EXPECT_FALSE(run_relabel(other, &s, &error));
    // Another source (shards of the same names, other positions) into the same directory: both manifests named.
    const std::string src2 = make_relabel_source("relabel-bad-src2", 3);
    std::ofstream(src2 + "/manifest.txt") << "command: quince datagen --games 4 --seed 4 --out gen2\n"
                                             "settings: selfplay seed=4 nodes=5000 teacher=none teacher-nodes=0\n";
    EXPECT_FALSE(run_relabel(relabel_config(src2, out, "--score 5"), &s, &error));
    EXPECT_NE(error.find("another source"), std::string::npos) << error;
    EXPECT_NE(error.find("'command: quince datagen --games 4 --seed 3 --out gen'"), std::string::npos) << error;
    EXPECT_NE(error.find(src2 + "/manifest.txt: 'command: quince datagen --games 4 --seed 4 --out gen2'"),
              std::string::npos)
        << error;
    // The same source again is still a resume.
    ASSERT_TRUE(run_relabel(relabel_config(src, out, "--score 5"), &s, &error)) << error;
    EXPECT_EQ(s.shards_skipped, 3);
    // A missing source, a folder that is not datagen output.
    EXPECT_FALSE(run_relabel(relabel_config(src + "-missing", temp_dir("relabel-bad2"), "--score 5"), &s, &error));
    EXPECT_NE(error.find("no such directory"), std::string::npos) << error;
    const std::string empty = temp_dir("relabel-empty");
    fs::create_directories(empty);
    EXPECT_FALSE(run_relabel(relabel_config(empty, temp_dir("relabel-bad3"), "--score 5"), &s, &error));
    EXPECT_NE(error.find("not a datagen folder"), std::string::npos) << error;
    // A malformed line: named by file and line; the shard before it is complete, none after it is written.
    std::ofstream(shard_path(src, 1), std::ios::app) << "not a sample\n";
    const std::string out4 = temp_dir("relabel-bad4");
    EXPECT_FALSE(run_relabel(relabel_config(src, out4, "--score 5"), &s, &error));
    EXPECT_NE(error.find("shard-00001.txt:5"), std::string::npos) << error;
    EXPECT_EQ(read_all(shard_path(out4, 0)), read_all(shard_path(out, 0)));
    EXPECT_FALSE(fs::exists(shard_path(out4, 1)));
    EXPECT_FALSE(fs::exists(shard_path(out4, 1) + ".tmp"));
    // A teacher that cannot start.
    RelabelConfig dead = relabel_config(src, temp_dir("relabel-bad5"), "");
    dead.teacher = "/nonexistent/engine";
    EXPECT_FALSE(run_relabel(dead, &s, &error));
    EXPECT_NE(error.find("--teacher"), std::string::npos) << error;
    // A teacher that crashes on its third search: the error says so, the shard it was on is not written.
    const std::string out6 = temp_dir("relabel-bad6");
    fs::remove(shard_path(src, 1));
    fs::remove(shard_path(src, 2));
    EXPECT_FALSE(run_relabel(relabel_config(src, out6, "--mode crash --after 3"), &s, &error));
    EXPECT_NE(error.find("teacher"), std::string::npos) << error;
    EXPECT_FALSE(fs::exists(shard_path(out6, 0)));
    for (const std::string& d : {src, src2, out, empty, out4, out6, temp_dir("relabel-bad2"), temp_dir("relabel-bad3"),
                                 temp_dir("relabel-bad5")})
        fs::remove_all(d);
}
TEST(DatagenRelabel, TeacherTimeoutBoundsTheHandshake) {
    const std::string src = make_relabel_source("relabel-slow-src", 1);
    RelabelSummary s;
    std::string error;
    // Far above the 10 s a quince-match engine gets by default: a teacher at nice 19 can take that to start.
    EXPECT_GE(RelabelConfig{}.teacher_timeout_ms, 60000);
    EXPECT_EQ(SelfPlayConfig{}.teacher_timeout_ms, RelabelConfig{}.teacher_timeout_ms);
    EXPECT_EQ(PgnImportConfig{}.teacher_timeout_ms, RelabelConfig{}.teacher_timeout_ms);
    // A teacher slower to say uciok than the limit fails with an error naming the handshake...
    const std::string out1 = temp_dir("relabel-slow-1"), out2 = temp_dir("relabel-slow-2");
    RelabelConfig slow = relabel_config(src, out1, "--mode slow-start --delay 600");
    slow.teacher_timeout_ms = 100;
    EXPECT_FALSE(run_relabel(slow, &s, &error));
    EXPECT_NE(error.find("no uciok within 100 ms"), std::string::npos) << error;
    // ... and one within it works; a teacher that never answers is still detected as hung.
    slow.teacher_timeout_ms = 30000;
    EXPECT_TRUE(run_relabel(slow, &s, &error)) << error;
    EXPECT_EQ(s.positions_written, 4);
    RelabelConfig silent = relabel_config(src, out2, "--mode silent-start");
    silent.teacher_timeout_ms = 200;
    EXPECT_FALSE(run_relabel(silent, &s, &error));
    EXPECT_NE(error.find("no uciok within 200 ms"), std::string::npos) << error;
    for (const std::string& d : {src, out1, out2}) fs::remove_all(d);
}
#endif

#ifdef QUINCE_FAKE_ENGINE_PATH
TEST(DatagenRelabel, QtdGamesKeepTheirMovesAndGetTheNewTeachersLabels) {
    // A self-play set without a teacher, relabelled: the same games and scores, the labels of White-to-move
    // positions scored +25 by the new teacher, those of Black-to-move ones dropped (it sees a mate there).
    const std::string src = temp_dir("relabel-qtd-src"), out = temp_dir("relabel-qtd-out"),
                      out2 = temp_dir("relabel-qtd-out2");
    RunSummary rs;
    std::string error;
    ASSERT_TRUE(run_selfplay(tiny_config(src), &rs, &error)) << error;
    RelabelSummary s;
    ASSERT_TRUE(run_relabel(relabel_config(src, out, "--score 25 --mate-when b"), &s, &error)) << error;
    EXPECT_EQ(s.shards, 2);
    EXPECT_EQ(s.positions_read, rs.positions);
    EXPECT_EQ(s.positions_written + s.teacher_mates, rs.positions);
    const std::vector<std::string> before = qtd_lines(src), after = qtd_lines(out);
    EXPECT_EQ(std::int64_t(after.size()), s.positions_written);
    std::size_t at = 0;
    for (const std::string& line : after) {
        Sample smp;
        ASSERT_TRUE(parse_sample(line, smp, &error)) << error;
        EXPECT_NE(smp.fen.find(" w "), std::string::npos) << line;
        EXPECT_EQ(smp.teacher, std::optional<int>(25)) << line;
        // The same position, score and result as in the source, in the same order.
        const std::string without_teacher = line.substr(0, line.rfind(" | "));
        while (at < before.size() && before[at] != without_teacher) ++at;
        EXPECT_LT(at, before.size()) << line;
    }
    const std::string manifest = read_all(out + "/manifest.txt");
    EXPECT_NE(manifest.find("source settings: selfplay seed=7"), std::string::npos) << manifest;
    EXPECT_NE(manifest.find("shard-00001.qtd.xz games=2"), std::string::npos) << manifest;
    // Two teacher processes: the same labels (the headers name each run's own command); a rerun keeps what
    // is done.
    RelabelConfig two = relabel_config(src, out2, "--score 25 --mate-when b");
    two.threads = 2;
    ASSERT_TRUE(run_relabel(two, &s, &error)) << error;
    EXPECT_EQ(qtd_lines(out2), after);
    ASSERT_TRUE(run_relabel(two, &s, &error)) << error;
    EXPECT_EQ(s.shards_skipped, 2);
    fs::remove_all(src);
    fs::remove_all(out);
    fs::remove_all(out2);
}
#endif

}  // namespace QUINCE_TEST_FILE
}  // namespace
